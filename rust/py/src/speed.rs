//! Speed's own Python classes: its constructor and its view (the hand is
//! private, draw and side piles are counts).

use cardtable_core::card::rank_char;
use cardtable_core::engine::Game as _;
use cardtable_core::games::registry::{AnyGame, AnyState};
use cardtable_core::games::speed::{
    self, action as speed_action, SpeedGame, SpeedState, SpeedView, WILD_TOP,
};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3::PyClassInitializer;

use crate::args;
use crate::cards::PyCard;
use crate::errors::py_result;
use crate::game::{options_from, PyGame, PyState};

/// Speed's parameters (rules specification §4, SD-1 … SD-6), a real-time game.
#[pyclass(name = "SpeedGame", module = "cardtable._core", extends = PyGame, frozen, skip_from_py_object)]
pub struct PySpeedGame;

#[pymethods]
impl PySpeedGame {
    /// Speed with rule options (names as in SD-1..SD-5 without `speed.`).
    #[new]
    #[pyo3(signature = (**options))]
    fn new(options: Option<&Bound<'_, PyDict>>) -> PyResult<PyClassInitializer<Self>> {
        let game = py_result(SpeedGame::from_options(&options_from(options)?))?;
        let game: AnyGame = game.into();
        Ok(PyClassInitializer::from(PyGame { game }).add_subclass(Self))
    }
}

/// A game of Speed in progress (usually driven by a `Session`).
#[pyclass(name = "SpeedState", module = "cardtable._core", extends = PyState, skip_from_py_object)]
pub struct PySpeedState;

crate::game::fast_path!(PySpeedGame, PySpeedState);

fn speed_state(state: &PyState) -> PyResult<&SpeedState> {
    match &state.state {
        AnyState::Speed(s) => Ok(s),
        _ => Err(pyo3::exceptions::PyTypeError::new_err("not a Speed state")),
    }
}

#[pymethods]
impl PySpeedState {
    /// Why `seat` may not take `action` (an action id) now: None when it
    /// may, otherwise `(rule, reason)`: the rule ID of the rules
    /// specification that forbids it (e.g. 'SD-2.1') and one sentence the
    /// player can act on (naming no card: a screen shows them its own way).
    /// A seat not at the table raises InvalidConfigError, an integer that is
    /// no action IllegalActionError.
    fn refusal(
        slf: PyRef<'_, Self>,
        seat: &Bound<'_, PyAny>,
        action: &Bound<'_, PyAny>,
    ) -> PyResult<Option<(&'static str, String)>> {
        let seat = args::seat(seat, speed::PLAYERS as u8, "seat")?;
        let action = args::action(action, speed_action::COUNT)?;
        Ok(speed_state(slf.as_super())?
            .refusal(seat, action)
            .map(|r| (r.rule, r.reason)))
    }
}

crate::registry::bind_classes!(SpeedGame => PySpeedGame, PySpeedState, PySpeedView);

/// What one seat sees: its own hand by slot, the centre, and counts.
#[pyclass(
    name = "SpeedView",
    module = "cardtable._core",
    frozen,
    skip_from_py_object
)]
pub struct PySpeedView(pub SpeedView);

#[pymethods]
impl PySpeedView {
    #[getter]
    fn seat(&self) -> u8 {
        self.0.seat
    }
    /// 'countdown', 'playing', 'stalemate' or 'over'.
    #[getter]
    fn phase(&self) -> &'static str {
        self.0.phase.name()
    }
    /// Index of the deal in play.
    #[getter]
    fn deal(&self) -> u16 {
        self.0.deal
    }
    /// Virtual time of the last event (ms).
    #[getter]
    fn now(&self) -> u64 {
        self.0.now
    }
    /// When the countdown or the stalemate flip fires (ms).
    #[getter]
    fn timer(&self) -> Option<u64> {
        self.0.timer
    }
    /// The own hand by slot (None: an empty slot).
    #[getter]
    fn hand(&self) -> Vec<Option<PyCard>> {
        self.0.hand.iter().map(|c| c.map(PyCard)).collect()
    }
    /// The face-up centre tops, left and right.
    #[getter]
    fn centre_top(&self) -> Vec<Option<PyCard>> {
        self.0.centre_top.iter().map(|c| c.map(PyCard)).collect()
    }
    /// For a centre pile topped by a played joker, the rank it stands for
    /// ('A' … 'K', as in action text, SD-5); '*' for a joker turned up from
    /// a side pile (wild: any rank goes on it); None for any other top.
    #[getter]
    fn played_as(&self) -> Vec<Option<String>> {
        (0..2)
            .map(|p| match (self.0.centre_top[p], self.0.centre_rank[p]) {
                (Some(c), WILD_TOP) if c.is_joker() => Some("*".to_string()),
                (Some(c), r) if c.is_joker() => Some(rank_char(r).to_string()),
                _ => None,
            })
            .collect()
    }
    #[getter]
    fn centre_size(&self) -> [u32; 2] {
        // A list of integers: a u8 array would become bytes.
        self.0.centre_size.map(u32::from)
    }
    #[getter]
    fn side_size(&self) -> [u32; 2] {
        // A list of integers: a u8 array would become bytes.
        self.0.side_size.map(u32::from)
    }
    /// Draw pile sizes by seat.
    #[getter]
    fn draw_size(&self) -> [u32; 2] {
        // A list of integers: a u8 array would become bytes.
        self.0.draw_size.map(u32::from)
    }
    /// Hand sizes by seat.
    #[getter]
    fn hand_size(&self) -> [u32; 2] {
        // A list of integers: a u8 array would become bytes.
        self.0.hand_size.map(u32::from)
    }
    #[getter]
    fn scores(&self) -> [i64; 2] {
        self.0.scores
    }
    #[getter]
    fn deal_wins(&self) -> [u32; 2] {
        // A list of integers: a u8 array would become bytes.
        self.0.deal_wins.map(u32::from)
    }
    /// Deals finished so far: decided by an empty hand, the deadlock guard
    /// or the time limit (RT-12) (a deal the time limit cut off in its
    /// countdown is not).
    #[getter]
    fn finished_deals(&self) -> u32 {
        self.0.last_deal.map_or(0, |d| u32::from(d.deal) + 1)
    }
    #[getter]
    fn returns(&self) -> Option<[i64; 2]> {
        self.0.returns
    }
    #[getter]
    fn ending(&self) -> Option<&'static str> {
        self.0.ending.map(|e| e.name())
    }
    fn __repr__(&self) -> String {
        format!(
            "<SpeedView seat {} {} at {} ms>",
            self.0.seat,
            self.0.phase.name(),
            self.0.now
        )
    }
}
