//! `ActionInfo`: what an action is, as the engine describes it
//! (`State.describe_action`), so that no front end decodes action ids.

use cardtable_core::engine::ActionInfo;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::cards::PyCard;

/// What an action is: its kind (the game's word: 'draw', 'discard',
/// 'spread', 'hit', 'knock', 'meld', 'layoff', 'play', ...), the cards it
/// moves or names, the other seat it concerns, the meld or spread on the
/// table it adds to, the pile it plays onto (or takes from), the player's
/// own pile it comes from, and its text.
#[pyclass(
    name = "ActionInfo",
    module = "cardtable._core",
    frozen,
    eq,
    skip_from_py_object
)]
#[derive(PartialEq)]
pub struct PyActionInfo(pub ActionInfo);

#[pymethods]
impl PyActionInfo {
    #[getter]
    fn kind(&self) -> &'static str {
        self.0.kind
    }

    /// The cards it moves or names, in order (empty for a draw or a pass).
    #[getter]
    fn cards<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.0.cards.iter().map(|&c| PyCard(c)))
    }

    /// The other seat it concerns (a joker gifted to that seat), or None.
    #[getter]
    fn seat(&self) -> Option<u8> {
        self.0.seat
    }

    /// The meld or spread on the table it adds to (the game's index), or None.
    #[getter]
    fn meld(&self) -> Option<u8> {
        self.0.meld
    }

    /// The pile it plays onto or takes from (a spit or centre pile), or None.
    #[getter]
    fn pile(&self) -> Option<u8> {
        self.0.pile
    }

    /// The player's own pile it comes from (Spit's stock piles), or None.
    #[getter]
    fn source(&self) -> Option<u8> {
        self.0.source
    }

    /// The action's text (`Game.action_to_string`).
    #[getter]
    fn text(&self) -> &str {
        &self.0.text
    }

    fn __repr__(&self) -> String {
        let cards: Vec<&str> = self.0.cards.iter().map(|c| c.text()).collect();
        format!(
            "ActionInfo(kind={:?}, cards={:?}, text={:?})",
            self.0.kind,
            cards.join(" "),
            self.0.text
        )
    }
}
