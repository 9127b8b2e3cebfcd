//! What a seat may see (RT-10): the view types and the observation layout
//! (`view`, `observation`, `determinize` and the fingerprint are the
//! `engine::State` impl, in state.rs). Everything face up is public; face-down stock cards,
//! spit cards and the cards gathered between deals are hidden from everyone,
//! their owner included, and shown as counts.

use super::*;

/// One stock pile as everyone sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PileView {
    pub face_down: u8,
    /// Bottom first, the top card last.
    pub face_up: Vec<Card>,
}

/// What one seat sees of the game (the same for both seats but `seat` and
/// `legal_actions`: nothing in Spit is private to one player).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpitView {
    pub seat: u8,
    pub now: Millis,
    pub phase: Phase,
    /// Per seat, its stock piles (`stock_piles` of them, left to right).
    pub piles: [Vec<PileView>; 2],
    pub spit_cards: [u8; 2],
    pub gathered: [u8; 2],
    /// The spit piles L and R, bottom first; empty when not started.
    pub centre: [Vec<Card>; 2],
    pub short_seat: Option<u8>,
    pub lone_pile: Option<u8>,
    pub declared: [bool; 2],
    pub claims: [Option<u8>; 2],
    pub received: [Option<u8>; 2],
    pub chooser: u8,
    pub deal_end: Option<DealEnd>,
    pub next_timer: Option<Millis>,
    pub wins: [u8; 2],
    pub game: u16,
    pub deals: u32,
    pub winner: Option<u8>,
    pub ending: Option<&'static str>,
    pub returns: Option<[i64; 2]>,
    pub legal_actions: Vec<u16>,
}

/// Size of [`SpitState::observation`].
pub const OBSERVATION_SIZE: usize =
    2 * MAX_PILES * OBS_PILE + 2 * 2 + 2 * OBS_CENTRE + 6 + 2 + 2 + 4 + 2 + 1;
pub(super) const OBS_PILE: usize = 13 + 4 + 3;
pub(super) const OBS_CENTRE: usize = 1 + 13 + 4 + 1;

impl SpitState {
    /// Every hidden card's slot, in a fixed order.
    pub(super) fn for_each_hidden(&mut self, mut f: impl FnMut(&mut Card)) {
        for seat in 0..2 {
            for p in &mut self.piles[seat] {
                let down = p.face_down();
                p.slots_mut()[..down].iter_mut().for_each(&mut f);
            }
            self.spit[seat].slots_mut().iter_mut().for_each(&mut f);
            self.gathered[seat].slots_mut().iter_mut().for_each(&mut f);
        }
    }
}
