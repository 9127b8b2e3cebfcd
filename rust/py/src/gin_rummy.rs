//! Gin Rummy's own Python classes: its constructor, what only
//! it has on its state (phase, upcard, melds, deadwood) and its view.

use cardtable_core::games::gin_rummy::{
    card_of_id, mask_cards, GinRummyGame, GinRummyState, GinRummyView, MELD_MASKS,
};
use cardtable_core::Card;
use pyo3::prelude::*;

use crate::cards::PyCard;

fn cards(v: &[Card]) -> Vec<PyCard> {
    v.iter().map(|&c| PyCard(c)).collect()
}

fn meld_cards(m: u8) -> Vec<PyCard> {
    cards(&mask_cards(
        MELD_MASKS.get(usize::from(m)).copied().unwrap_or(0),
    ))
}

crate::registry::game_classes! {
    /// Gin Rummy's parameters (`docs/gin_rummy.md`, OpenSpiel's `gin_rummy`); creates games.
    game PyGinRummyGame = "GinRummyGame";
    /// A game of Gin Rummy in progress (mutable; `clone()` copies it).
    state PyGinRummyState = "GinRummyState";
    view PyGinRummyView;
    core GinRummy(GinRummyGame, GinRummyState);
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
}

/// What one seat may see of a game: never a card hidden from it.
#[pyclass(
    name = "GinRummyView",
    module = "cardtable._core",
    frozen,
    skip_from_py_object
)]
pub struct PyGinRummyView(pub GinRummyView);

crate::view_getters::view_getters!(PyGinRummyView {
    seat,
    /// 'first_upcard', 'draw', 'discard', 'knock', 'layoff', 'wall' or 'over'.
    phase: &'static str = |v| v.phase.name(),
    current_player,
    /// The seat that acted first (GR-1.4).
    first_player,
    knock_card,
    hand,
    /// This seat's least deadwood now.
    deadwood,
    /// The melds of a least-deadwood arrangement of this seat's hand, each
    /// as its cards: what it would lay to count least (GR-5.3, GR-6.3).
    best_melds: Vec<Vec<PyCard>> = |v| v.best_melds.iter().map(|&m| meld_cards(m)).collect(),
    hand_sizes,
    /// Per seat, the cards it took from the upcard and still holds.
    known_cards,
    upcard,
    /// The dead cards, bottom first.
    discard_pile,
    stock_size,
    /// Draws of the upcard in the draw phase so far (GR-7.3).
    upcard_draws,
    knocker,
    wall_knock,
    /// Per seat, the melds it laid, each as its cards.
    melds: Vec<Vec<Vec<PyCard>>> =
        |v| v.melds.iter().map(|ms| ms.iter().map(|&m| meld_cards(m)).collect()).collect(),
    /// Per seat, the meld ids it laid (GR-2.3; the action is 56 + id).
    meld_ids: Vec<Vec<u32>> =
        |v| v.melds.iter().map(|ms| ms.iter().map(|&m| u32::from(m)).collect()).collect(),
    layoffs,
    /// Both hands, once the game is over.
    hands,
    final_deadwood,
    returns,
    ending,
    /// This seat's legal actions (empty when it is not its decision).
    legal_actions,
});

#[pymethods]
impl PyGinRummyView {
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
