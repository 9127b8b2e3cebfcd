//! What a seat may see (RT-10): the view types and the observation layout
//! (`view`, `observation`, `determinize` and the fingerprint are the
//! `engine::State` impl, in state.rs). Everything face up is public; face-down stock cards,
//! spit cards and the cards gathered between deals are hidden from everyone,
//! their owner included, and shown as counts.

use super::*;
use crate::games::seat_view::seat_view;

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

seat_view! {
    /// What one seat may look at while deciding (what Spit's bots decide
    /// from): every face-up card, the spit piles, the counts of face-down and
    /// spit cards, and its own legal and productive actions; never a face-down
    /// card.
    SpitSeatView => SpitState
}

impl<'a> SpitSeatView<'a> {
    pub fn config(&self) -> &'a SpitConfig {
        self.state.config()
    }

    pub fn phase(&self) -> Phase {
        self.state.phase()
    }

    /// `seat`'s stock pile `pile` as the table sees it.
    pub fn pile(&self, seat: u8, pile: usize) -> SeenPile<'a> {
        SeenPile(self.state.pile(seat, pile))
    }

    /// A spit pile (side 0 = L, 1 = R), bottom first: all face up.
    pub fn centre(&self, side: u8) -> &'a [Card] {
        self.state.centre(side).cards()
    }

    /// Whether `card` may go onto a spit pile whose top is `top`.
    pub fn fits(&self, card: Card, top: Card) -> bool {
        self.state.fits(card, top)
    }

    /// The own legal actions and the productive ones among them, as
    /// bitsets over action ids.
    pub fn action_bits(&self) -> (u128, u128) {
        self.state.action_bits(self.seat)
    }

    /// Whether `action` is a productive move of the own seat now (SP-3.1).
    pub fn is_productive(&self, action: u16) -> bool {
        self.state.is_productive(self.seat, action)
    }

    /// Whether the own seat has any productive move now (SP-3.1).
    pub fn has_productive_move(&self) -> bool {
        self.state.has_productive_move(self.seat)
    }
}

/// A stock pile as the table sees it: its face-up cards and how many lie
/// face down under them, never which.
#[derive(Clone, Copy)]
pub struct SeenPile<'a>(&'a Pile);

impl<'a> SeenPile<'a> {
    /// Every card, face up or down.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn face_down(&self) -> usize {
        self.0.face_down()
    }

    /// The face-up cards, bottom first (the top card last).
    pub fn face_up(&self) -> &'a [Card] {
        self.0.face_up()
    }

    /// The top card if it is face up.
    pub fn top(&self) -> Option<Card> {
        self.0.top()
    }
}
