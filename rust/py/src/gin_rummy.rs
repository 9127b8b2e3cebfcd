//! Gin Rummy's own Python classes: its constructor, what only
//! it has on its state (phase, upcard, melds, deadwood) and its view.

use cardtable_core::games::gin_rummy::{
    card_of_id, mask_cards, GinRummyGame, GinRummyState, GinRummyView, MELD_MASKS,
};
use cardtable_core::games::registry::{AnyGame, AnyState};
use cardtable_core::Card;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3::PyClassInitializer;

use crate::cards::PyCard;
use crate::errors::py_result;
use crate::game::{options_from, PyGame, PyState};

fn cards(v: &[Card]) -> Vec<PyCard> {
    v.iter().map(|&c| PyCard(c)).collect()
}

fn meld_cards(m: u8) -> Vec<PyCard> {
    cards(&mask_cards(
        MELD_MASKS.get(usize::from(m)).copied().unwrap_or(0),
    ))
}

/// Gin Rummy's parameters (`docs/gin_rummy.md`, OpenSpiel's `gin_rummy`); creates games.
#[pyclass(
    name = "GinRummyGame",
    module = "cardtable._core",
    extends = PyGame,
    frozen,
    skip_from_py_object
)]
pub struct PyGinRummyGame;

#[pymethods]
impl PyGinRummyGame {
    /// Gin Rummy with rule options (keyword arguments: knock_card,
    /// gin_bonus, undercut_bonus, hand_size, oklahoma); unknown names and
    /// bad values raise InvalidConfigError.
    #[new]
    #[pyo3(signature = (**options))]
    fn new(options: Option<&Bound<'_, PyDict>>) -> PyResult<PyClassInitializer<Self>> {
        let game = py_result(GinRummyGame::from_options(&options_from(options)?))?;
        let game: AnyGame = game.into();
        Ok(PyClassInitializer::from(PyGame { game }).add_subclass(Self))
    }
}

/// A game of Gin Rummy in progress (mutable; `clone()` copies it).
#[pyclass(name = "GinRummyState", module = "cardtable._core", extends = PyState, skip_from_py_object)]
pub struct PyGinRummyState;

crate::game::fast_path!(PyGinRummyGame, PyGinRummyState);
crate::registry::bind_classes!(GinRummyGame => PyGinRummyGame, PyGinRummyState, PyGinRummyView);

fn state_of(state: &PyState) -> PyResult<&GinRummyState> {
    match &state.state {
        AnyState::GinRummy(s) => Ok(s),
        _ => Err(pyo3::exceptions::PyTypeError::new_err(
            "not a Gin Rummy state",
        )),
    }
}

#[pymethods]
impl PyGinRummyState {
    /// 'first_upcard', 'draw', 'discard', 'knock', 'layoff', 'wall' or 'over'.
    #[getter]
    fn phase(slf: PyRef<'_, Self>) -> PyResult<&'static str> {
        Ok(state_of(slf.as_super())?.phase().name())
    }

    /// A player's hand (full information: use `view` for what a seat sees).
    fn hand(slf: PyRef<'_, Self>, player: &Bound<'_, PyAny>) -> PyResult<Vec<PyCard>> {
        let base = slf.as_super();
        Ok(cards(&state_of(base)?.hand(base.seat(player)?)))
    }

    /// A player's least deadwood now (after the best discard with one card over).
    fn deadwood(slf: PyRef<'_, Self>, player: &Bound<'_, PyAny>) -> PyResult<u32> {
        let base = slf.as_super();
        Ok(state_of(base)?.deadwood(base.seat(player)?))
    }

    #[getter]
    fn upcard(slf: PyRef<'_, Self>) -> PyResult<Option<PyCard>> {
        Ok(state_of(slf.as_super())?.upcard().map(PyCard))
    }

    #[getter]
    fn stock_size(slf: PyRef<'_, Self>) -> PyResult<usize> {
        Ok(state_of(slf.as_super())?.stock_size())
    }

    /// The knock card in play (Oklahoma applied, GR-9.1).
    #[getter]
    fn knock_card(slf: PyRef<'_, Self>) -> PyResult<u8> {
        Ok(state_of(slf.as_super())?.knock_card())
    }

    #[getter]
    fn knocker(slf: PyRef<'_, Self>) -> PyResult<Option<u8>> {
        Ok(state_of(slf.as_super())?.knocker())
    }

    /// The scored deadwoods after a knock (GR-8.1), else None.
    #[getter]
    fn final_deadwood(slf: PyRef<'_, Self>) -> PyResult<Option<[u32; 2]>> {
        Ok(state_of(slf.as_super())?.final_deadwood())
    }

    /// Whether seat 0 may take this action back in `play`: never (every
    /// move shows the other player a card or a meld).
    fn can_take_back(slf: PyRef<'_, Self>, action: u16) -> PyResult<bool> {
        let _ = (state_of(slf.as_super())?, action);
        Ok(false)
    }

    /// Why an action is not legal now: `(rule, reason)`, or None when it is.
    fn refusal(slf: PyRef<'_, Self>, action: u16) -> PyResult<Option<(&'static str, String)>> {
        Ok(state_of(slf.as_super())?
            .refusal(action)
            .map(|r| (r.rule, r.reason)))
    }
}

/// What one seat may see of a game: never a card hidden from it.
#[pyclass(
    name = "GinRummyView",
    module = "cardtable._core",
    frozen,
    skip_from_py_object
)]
pub struct PyGinRummyView(pub GinRummyView);

#[pymethods]
impl PyGinRummyView {
    #[getter]
    fn seat(&self) -> u8 {
        self.0.seat
    }
    /// 'first_upcard', 'draw', 'discard', 'knock', 'layoff', 'wall' or 'over'.
    #[getter]
    fn phase(&self) -> &'static str {
        self.0.phase.name()
    }
    #[getter]
    fn current_player(&self) -> Option<u8> {
        self.0.current_player
    }
    /// The seat that acted first (GR-1.4).
    #[getter]
    fn first_player(&self) -> u8 {
        self.0.first_player
    }
    #[getter]
    fn knock_card(&self) -> u8 {
        self.0.knock_card
    }
    #[getter]
    fn hand(&self) -> Vec<PyCard> {
        cards(&self.0.hand)
    }
    /// This seat's least deadwood now.
    #[getter]
    fn deadwood(&self) -> u32 {
        self.0.deadwood
    }
    #[getter]
    fn hand_sizes(&self) -> Vec<u32> {
        // A list of integers: a Vec<u8> would become bytes.
        self.0.hand_sizes.iter().map(|&n| u32::from(n)).collect()
    }
    /// Per seat, the cards it took from the upcard and still holds.
    #[getter]
    fn known_cards(&self) -> Vec<Vec<PyCard>> {
        self.0.known_cards.iter().map(|v| cards(v)).collect()
    }
    #[getter]
    fn upcard(&self) -> Option<PyCard> {
        self.0.upcard.map(PyCard)
    }
    /// The dead cards, bottom first.
    #[getter]
    fn discard_pile(&self) -> Vec<PyCard> {
        cards(&self.0.discard_pile)
    }
    #[getter]
    fn stock_size(&self) -> u32 {
        u32::from(self.0.stock_size)
    }
    /// Draws of the upcard in the draw phase so far (GR-7.3).
    #[getter]
    fn upcard_draws(&self) -> u32 {
        u32::from(self.0.upcard_draws)
    }
    #[getter]
    fn knocker(&self) -> Option<u8> {
        self.0.knocker
    }
    #[getter]
    fn wall_knock(&self) -> bool {
        self.0.wall_knock
    }
    /// Per seat, the melds it laid, each as its cards.
    #[getter]
    fn melds(&self) -> Vec<Vec<Vec<PyCard>>> {
        self.0
            .melds
            .iter()
            .map(|ms| ms.iter().map(|&m| meld_cards(m)).collect())
            .collect()
    }
    /// Per seat, the meld ids it laid (GR-2.3; the action is 56 + id).
    #[getter]
    fn meld_ids(&self) -> Vec<Vec<u32>> {
        self.0
            .melds
            .iter()
            .map(|ms| ms.iter().map(|&m| u32::from(m)).collect())
            .collect()
    }
    #[getter]
    fn layoffs(&self) -> Vec<PyCard> {
        cards(&self.0.layoffs)
    }
    /// Both hands, once the game is over.
    #[getter]
    fn hands(&self) -> Option<Vec<Vec<PyCard>>> {
        self.0
            .hands
            .as_ref()
            .map(|h| h.iter().map(|v| cards(v)).collect())
    }
    #[getter]
    fn final_deadwood(&self) -> Option<Vec<u32>> {
        self.0.final_deadwood.clone()
    }
    #[getter]
    fn returns(&self) -> Option<Vec<i64>> {
        self.0.returns.clone()
    }
    #[getter]
    fn ending(&self) -> Option<&'static str> {
        self.0.ending
    }
    /// This seat's legal actions (empty when it is not its decision).
    #[getter]
    fn legal_actions(&self) -> Vec<u16> {
        self.0.legal_actions.clone()
    }
    fn __repr__(&self) -> String {
        format!(
            "<GinRummyView seat {} phase {} hand {:?}>",
            self.0.seat,
            self.0.phase.name(),
            self.0
                .hand
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
        )
    }
}

/// The card of an OpenSpiel card id (GR-2.1: suits s, c, d, h), or None.
#[pyfunction]
pub fn gin_rummy_card(id: u8) -> Option<PyCard> {
    card_of_id(id).map(PyCard)
}
