//! Speed's own Python classes: its constructor and its view (the hand is
//! private, draw and side piles are counts).

use cardtable_core::card::rank_char;
use cardtable_core::games::speed::{SpeedGame, SpeedState, SpeedView, WILD_TOP};
use pyo3::prelude::*;

use crate::cards::PyCard;

crate::registry::game_classes! {
    /// Speed's parameters (rules specification §4, SD-1 … SD-6), a real-time game.
    game PySpeedGame = "SpeedGame";
    /// A game of Speed in progress (usually driven by a `Session`).
    state PySpeedState = "SpeedState";
    view PySpeedView;
    core Speed(SpeedGame, SpeedState);
}

/// What one seat sees: its own hand by slot, the centre, and counts.
#[pyclass(
    name = "SpeedView",
    module = "cardtable._core",
    frozen,
    skip_from_py_object
)]
pub struct PySpeedView(pub SpeedView);

crate::view_getters::view_getters!(PySpeedView {
    seat,
    /// 'countdown', 'playing', 'stalemate' or 'over'.
    phase: &'static str = |v| v.phase.name(),
    /// Index of the deal in play.
    deal,
    /// Virtual time of the last event (ms).
    now,
    /// When the countdown or the stalemate flip fires (ms).
    timer,
    /// The own hand by slot (None: an empty slot).
    hand: Vec<Option<PyCard>> = |v| v.hand.iter().map(|c| c.map(PyCard)).collect(),
    /// The face-up centre tops, left and right.
    centre_top,
    /// For a centre pile topped by a played joker, the rank it stands for
    /// ('A' … 'K', as in action text, SD-5); '*' for a joker turned up from
    /// a side pile (wild: any rank goes on it); None for any other top.
    played_as: Vec<Option<String>> = |v| {
        (0..2)
            .map(|p| match (v.centre_top[p], v.centre_rank[p]) {
                (Some(c), WILD_TOP) if c.is_joker() => Some("*".to_string()),
                (Some(c), r) if c.is_joker() => Some(rank_char(r).to_string()),
                _ => None,
            })
            .collect()
    },
    centre_size: [u32; 2] = |v| v.centre_size.map(u32::from),
    side_size: [u32; 2] = |v| v.side_size.map(u32::from),
    /// Draw pile sizes by seat.
    draw_size: [u32; 2] = |v| v.draw_size.map(u32::from),
    /// Hand sizes by seat.
    hand_size: [u32; 2] = |v| v.hand_size.map(u32::from),
    scores,
    deal_wins: [u32; 2] = |v| v.deal_wins.map(u32::from),
    /// Deals finished so far: decided by an empty hand, the deadlock guard
    /// or the time limit (RT-12) (a deal the time limit cut off in its
    /// countdown is not).
    finished_deals: u32 = |v| v.last_deal.map_or(0, |d| u32::from(d.deal) + 1),
    returns,
    ending: Option<&'static str> = |v| v.ending.map(|e| e.name()),
});

#[pymethods]
impl PySpeedView {
    fn __repr__(&self) -> String {
        format!(
            "<SpeedView seat {} {} at {} ms>",
            self.0.seat,
            self.0.phase.name(),
            self.0.now
        )
    }
}
