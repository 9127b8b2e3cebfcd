//! Spit's own Python classes: its constructor and its view (everything
//! face up is public; face-down and spit cards are counts).

use cardtable_core::engine::Game as _;
use cardtable_core::games::registry::{AnyGame, AnyState};
use cardtable_core::games::spit::{self, action as spit_action, SpitGame, SpitState, SpitView};
use cardtable_core::Card;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3::PyClassInitializer;

use crate::args;
use crate::cards::PyCard;
use crate::errors::py_result;
use crate::game::{options_from, PyGame, PyState};

fn cards(v: &[Card]) -> Vec<PyCard> {
    v.iter().map(|&c| PyCard(c)).collect()
}

/// Spit's parameters (rules specification §3, SP-1 … SP-8), a real-time game.
#[pyclass(name = "SpitGame", module = "cardtable._core", extends = PyGame, frozen, skip_from_py_object)]
pub struct PySpitGame;

#[pymethods]
impl PySpitGame {
    /// Spit with rule options (names as in SP-1..SP-7 without `spit.`).
    #[new]
    #[pyo3(signature = (**options))]
    fn new(options: Option<&Bound<'_, PyDict>>) -> PyResult<PyClassInitializer<Self>> {
        let game = py_result(SpitGame::from_options(&options_from(options)?))?;
        let game: AnyGame = game.into();
        Ok(PyClassInitializer::from(PyGame { game }).add_subclass(Self))
    }
}

/// A game of Spit in progress (usually driven by a `Session`).
#[pyclass(name = "SpitState", module = "cardtable._core", extends = PyState, skip_from_py_object)]
pub struct PySpitState;

crate::game::fast_path!(PySpitGame, PySpitState);

fn spit_state(state: &PyState) -> PyResult<&SpitState> {
    match &state.state {
        AnyState::Spit(s) => Ok(s),
        _ => Err(pyo3::exceptions::PyTypeError::new_err("not a Spit state")),
    }
}

#[pymethods]
impl PySpitState {
    /// Why `seat` may not take `action` (an action id) now: None when it
    /// may, otherwise `(rule, reason)`: the rule ID of the rules
    /// specification that forbids it (e.g. 'SP-2.1') and one sentence the
    /// player can act on (naming no card: a screen shows them its own way).
    /// A seat not at the table raises InvalidConfigError, an integer that is
    /// no action IllegalActionError.
    fn refusal(
        slf: PyRef<'_, Self>,
        seat: &Bound<'_, PyAny>,
        action: &Bound<'_, PyAny>,
    ) -> PyResult<Option<(&'static str, String)>> {
        let seat = args::seat(seat, spit::PLAYERS as u8, "seat")?;
        let action = args::action(action, spit_action::COUNT)?;
        Ok(spit_state(slf.as_super())?
            .refusal(seat, action)
            .map(|r| (r.rule, r.reason)))
    }
}

crate::registry::bind_classes!(SpitGame => PySpitGame, PySpitState, PySpitView);

/// What one seat sees: every face-up card, counts of the face-down ones.
#[pyclass(
    name = "SpitView",
    module = "cardtable._core",
    frozen,
    skip_from_py_object
)]
pub struct PySpitView(pub SpitView);

#[pymethods]
impl PySpitView {
    #[getter]
    fn seat(&self) -> u8 {
        self.0.seat
    }
    /// Virtual time of the last event (ms).
    #[getter]
    fn now(&self) -> u64 {
        self.0.now
    }
    /// 'countdown', 'playing', 'lone_choice', 'slap', 'regather' or 'over'.
    #[getter]
    fn phase(&self) -> &'static str {
        self.0.phase.name()
    }
    /// Per seat, its stock piles left to right: (face-down count, face-up cards bottom first).
    #[getter]
    fn piles(&self) -> Vec<Vec<(u8, Vec<PyCard>)>> {
        self.0
            .piles
            .iter()
            .map(|row| {
                row.iter()
                    .map(|p| (p.face_down, cards(&p.face_up)))
                    .collect()
            })
            .collect()
    }
    /// Spit cards left per seat (face down).
    #[getter]
    fn spit_cards(&self) -> [u32; 2] {
        // A list of integers: a u8 array would become bytes.
        self.0.spit_cards.map(u32::from)
    }
    /// The spit piles L and R, bottom first (empty when not started).
    #[getter]
    fn centre(&self) -> Vec<Vec<PyCard>> {
        self.0.centre.iter().map(|p| cards(p)).collect()
    }
    /// The seat without spit cards in single-pile mode (SP-6).
    #[getter]
    fn short_seat(&self) -> Option<u8> {
        self.0.short_seat
    }
    /// The lone spitter's pile (0 left, 1 right; SP-3.3).
    #[getter]
    fn lone_pile(&self) -> Option<u8> {
        self.0.lone_pile
    }
    /// Per seat, the pile it slapped (SP-4.2).
    #[getter]
    fn claims(&self) -> [Option<u8>; 2] {
        self.0.claims
    }
    /// When the next engine timer fires (ms).
    #[getter]
    fn next_timer(&self) -> Option<u64> {
        self.0.next_timer
    }
    /// Games won per seat in a match.
    #[getter]
    fn wins(&self) -> [u32; 2] {
        // A list of integers: a u8 array would become bytes.
        self.0.wins.map(u32::from)
    }
    /// Deals (layouts) so far.
    #[getter]
    fn deals(&self) -> u32 {
        self.0.deals
    }
    #[getter]
    fn winner(&self) -> Option<u8> {
        self.0.winner
    }
    #[getter]
    fn ending(&self) -> Option<&'static str> {
        self.0.ending
    }
    #[getter]
    fn legal_actions(&self) -> Vec<u16> {
        self.0.legal_actions.clone()
    }
    fn __repr__(&self) -> String {
        format!(
            "<SpitView seat {} {} at {} ms>",
            self.0.seat,
            self.0.phase.name(),
            self.0.now
        )
    }
}
