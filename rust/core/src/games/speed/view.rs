//! What a seat may see (RT-10): the view type, the observation layout and
//! the unseen cards; `view`, `observation`, `determinize` and the
//! fingerprint are the `engine::State` impl (state.rs).

use super::*;
use crate::games::seat_view::seat_view;

/// What one seat sees of the game: never the opponent's hand or a
/// face-down card. Fixed-size (no allocation), so bots may take one on
/// every look.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SpeedView {
    pub seat: u8,
    pub phase: Phase,
    /// Index of the deal in play.
    pub deal: u16,
    /// The virtual time of the last commit or timer.
    pub now: Millis,
    /// The countdown or flip timer, when one runs (public: both see it).
    pub timer: Option<Millis>,
    /// The seat's own hand, by slot.
    pub hand: [Option<Card>; HAND_SIZE],
    /// Face-up centre tops (left, right); None before the turn-up.
    pub centre_top: [Option<Card>; 2],
    /// Their effective ranks: [`NO_TOP`], 1..=13 (a played joker's rank),
    /// or [`WILD_TOP`] (a joker turned up).
    pub centre_rank: [u8; 2],
    pub centre_size: [u8; 2],
    pub side_size: [u8; 2],
    /// By seat (not relative).
    pub draw_size: [u8; 2],
    pub hand_size: [u8; 2],
    /// Passes through the side piles begun since a card was last played
    /// from a hand (SD-3.5).
    pub passes_since_play: u8,
    pub scores: [i64; 2],
    pub deal_wins: [u8; 2],
    pub last_deal: Option<DealResult>,
    /// Once over.
    pub returns: Option<[i64; 2]>,
    pub ending: Option<Ending>,
}

impl SpeedView {
    /// The cards in the own hand, in slot order.
    pub fn hand_cards(&self) -> impl Iterator<Item = Card> + '_ {
        self.hand.iter().flatten().copied()
    }

    /// The rank mask (bit r for ranks 1..=13) of cards that fit `pile`,
    /// under `equal_rank_play` when `equal` is set.
    pub fn rank_mask(&self, pile: usize, equal: bool) -> u16 {
        rank_mask_of(self.centre_rank[pile], equal)
    }
}

/// The ranks (bit r) that fit on a top of effective rank `top`.
pub fn rank_mask_of(top: u8, equal: bool) -> u16 {
    match top {
        NO_TOP => 0,
        WILD_TOP => ALL_RANKS,
        t if t <= 13 => {
            let up = t % 13 + 1;
            let down = (t + 11) % 13 + 1;
            (1 << up) | (1 << down) | if equal { 1 << t } else { 0 }
        }
        _ => 0,
    }
}

/// Entries of [`SpeedState::observation`].
pub const OBSERVATION_SIZE: usize = CARD_CODES * 3 + 15 * 2 + 8 + 4 + 2 + 5;

impl SpeedState {
    /// The cards `seat` cannot see: the opponent's hand, both draw piles,
    /// the side piles and, before the turn-up, the centre cards.
    pub fn unseen_cards(&self, seat: u8) -> Vec<Card> {
        let me = usize::from(seat.min(1));
        let mut pool: Vec<Card> = self.hands[1 - me].iter().flatten().copied().collect();
        for v in self.draw.iter().chain(&self.side) {
            pool.extend_from_slice(v);
        }
        if self.phase == Phase::Countdown {
            for c in &self.centre {
                pool.extend_from_slice(c);
            }
        }
        pool
    }
}

seat_view! {
    /// What one seat may look at while deciding (what Speed's bots decide
    /// from, RT-10): its own hand, the face-up centre cards, every pile's size,
    /// the cards played (the commits) and its own legal actions; never the
    /// opponent's hand or a face-down card.
    SpeedSeatView => SpeedState
}

impl<'a> SpeedSeatView<'a> {
    pub fn config(&self) -> &'a SpeedConfig {
        self.state.config()
    }

    pub fn phase(&self) -> Phase {
        self.state.phase()
    }

    /// Index of the deal in play.
    pub fn deal_index(&self) -> u16 {
        self.state.deal_index()
    }

    /// Times the side piles have turned up new centre cards.
    pub fn flips(&self) -> u16 {
        self.state.flips()
    }

    /// The actions committed so far, in order: every card that landed.
    pub fn history(&self) -> &'a [u16] {
        engine::State::history(self.state)
    }

    /// The own hand, by slot.
    pub fn hand_slots(&self) -> [Option<Card>; HAND_SIZE] {
        self.state.hand_slots(self.seat)
    }

    /// Cards in `seat`'s hand.
    pub fn hand_len(&self, seat: u8) -> usize {
        self.state.hand_len(seat)
    }

    /// A centre pile (0 left, 1 right), top card last: empty before the
    /// turn-up, while its cards lie face down.
    pub fn centre_pile(&self, pile: u8) -> &'a [Card] {
        if self.state.phase() == Phase::Countdown {
            &[]
        } else {
            self.state.centre_pile(pile)
        }
    }

    /// The effective rank of a centre top: [`NO_TOP`], 1..=13 (a played
    /// joker's chosen rank), or [`WILD_TOP`].
    pub fn top_rank(&self, pile: u8) -> u8 {
        self.state.top_rank(pile)
    }

    /// The cards this seat cannot see ([`SpeedState::unseen_cards`]), in
    /// card order: nothing in it tells where they lie.
    pub fn unseen_cards(&self) -> Vec<Card> {
        let mut cards = self.state.unseen_cards(self.seat);
        cards.sort_unstable();
        cards
    }

    /// A world to search in: the state with every card hidden from this
    /// seat written over, the other hand with `other_hand`, the face-down
    /// places with `face_down` ([`SpeedState::with_hidden_cards`]). It
    /// holds no hidden card of the real state when the two lists hold the
    /// unseen cards.
    pub(in crate::games) fn world(&self, other_hand: &[Card], face_down: &[Card]) -> SpeedState {
        self.state
            .with_hidden_cards(self.seat, other_hand, face_down)
    }

    /// The whole state, the other hand and every face-down pile: for the
    /// `omniscient` benchmark policy only, which measures how much seeing
    /// the other hand is worth; no other bot may call it
    /// (`tests/engine/bot_views.rs`).
    pub(in crate::games) fn full_state(&self) -> &'a SpeedState {
        self.state
    }
}
