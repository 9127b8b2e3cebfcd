//! Spit's own Python classes: its constructor and its view (everything
//! face up is public; face-down and spit cards are counts).

use cardtable_core::games::spit::{SpitGame, SpitState, SpitView};
use cardtable_core::Card;
use pyo3::prelude::*;

use crate::cards::PyCard;

fn cards(v: &[Card]) -> Vec<PyCard> {
    v.iter().map(|&c| PyCard(c)).collect()
}

crate::registry::game_classes! {
    /// Spit's parameters (rules specification §3, SP-1 … SP-8), a real-time game.
    game PySpitGame = "SpitGame";
    /// A game of Spit in progress (usually driven by a `Session`).
    state PySpitState = "SpitState";
    view PySpitView;
    core Spit(SpitGame, SpitState);
}

/// What one seat sees: every face-up card, counts of the face-down ones.
#[pyclass(
    name = "SpitView",
    module = "cardtable._core",
    frozen,
    skip_from_py_object
)]
pub struct PySpitView(pub SpitView);

crate::view_getters::view_getters!(PySpitView {
    seat,
    /// Virtual time of the last event (ms).
    now,
    /// 'countdown', 'playing', 'lone_choice', 'slap', 'regather' or 'over'.
    phase: &'static str = |v| v.phase.name(),
    /// Per seat, its stock piles left to right: (face-down count, face-up cards bottom first).
    piles: Vec<Vec<(u8, Vec<PyCard>)>> = |v| {
        v.piles
            .iter()
            .map(|row| row.iter().map(|p| (p.face_down, cards(&p.face_up))).collect())
            .collect()
    },
    /// Spit cards left per seat (face down).
    spit_cards: [u32; 2] = |v| v.spit_cards.map(u32::from),
    /// The spit piles L and R, bottom first (empty when not started).
    centre: Vec<Vec<PyCard>> = |v| v.centre.iter().map(|p| cards(p)).collect(),
    /// The seat without spit cards in single-pile mode (SP-6).
    short_seat,
    /// The lone spitter's pile (0 left, 1 right; SP-3.3).
    lone_pile,
    /// Per seat, the pile it slapped (SP-4.2).
    claims,
    /// When the next engine timer fires (ms).
    next_timer,
    /// Games won per seat in a match.
    wins: [u32; 2] = |v| v.wins.map(u32::from),
    /// Deals (layouts) so far.
    deals,
    winner,
    ending,
    legal_actions,
});

#[pymethods]
impl PySpitView {
    fn __repr__(&self) -> String {
        format!(
            "<SpitView seat {} {} at {} ms>",
            self.0.seat,
            self.0.phase.name(),
            self.0.now
        )
    }
}
