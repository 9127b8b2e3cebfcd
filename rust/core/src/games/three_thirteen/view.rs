//! What a seat may see: the view type, the observation size and the unseen
//! cards (`view`, `observation`, `determinize` and the fingerprint are the
//! `engine::State` impl, in state.rs).

use super::*;

/// What one seat sees of the game: never a card hidden from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreeThirteenView {
    pub seat: u8,
    pub players: u8,
    /// Index of the round being played, and how many the schedule has.
    pub round: usize,
    pub rounds: usize,
    pub cards_dealt: u8,
    pub wild_rank: Rank,
    pub dealer: u8,
    pub phase: Phase,
    pub current_player: Option<u8>,
    /// The seat's own hand, sorted.
    pub hand: Vec<Card>,
    pub hand_sizes: Vec<u8>,
    /// Bottom first, top card last.
    pub discard_pile: Vec<Card>,
    pub stock_size: usize,
    pub restocks: u8,
    /// The card taken from the discard pile this turn (public).
    pub taken: Option<Card>,
    /// Per seat, the cards it took from the discard pile and still holds
    /// (empty for the seat itself: its hand shows them).
    pub known_cards: Vec<Vec<Card>>,
    pub out_player: Option<u8>,
    pub last_turns_left: u8,
    pub tabled: Vec<TabledMeld>,
    /// The cards the seat has picked for the meld it is building (TT-10.6);
    /// empty unless it is the seat's redemption last turn.
    pub building: Vec<Card>,
    /// Jokers gifted into each seat's area this round.
    pub gifted: Vec<u8>,
    pub false_outs: Vec<u32>,
    /// Schedule index of the sheet's first row, and each finished round's scores.
    pub first_round: usize,
    pub score_sheet: Vec<Vec<i64>>,
    pub totals: Vec<i64>,
    /// The last finished round with every hand shown.
    pub last_round: Option<RoundResult>,
    pub returns: Option<Vec<i64>>,
    /// The seat's legal actions when it is its decision.
    pub legal_actions: Vec<u16>,
}

impl ThreeThirteenView {
    /// Whether `card` is wild this round: a joker, or of the wild rank
    /// (TT-5.1, TT-10.4); used as itself it may still stand for itself (TT-5.2).
    pub fn is_wild(&self, card: Card) -> bool {
        card.is_joker() || card.rank() == self.wild_rank
    }
}

impl RoundResult {
    /// Whether `card` was wild in this round (as [`ThreeThirteenView::is_wild`]).
    pub fn is_wild(&self, card: Card) -> bool {
        card.is_joker() || card.rank() == self.wild
    }
}

/// How many copies of a card code are in play: of a suited card (the
/// decks) and of the joker.
#[derive(Clone, Copy)]
pub(super) struct CopiesInPlay {
    pub(super) card: f32,
    pub(super) joker: f32,
}

/// Writes a card block of the observation at `base`: each code's count
/// over its copies in play, capped at 1. Card by card, not code by code: a
/// block holds few cards (a hand, a pile) and most of its 53 entries stay 0
/// (they are 0 already: the observation is cleared first).
pub(super) fn block<'a>(
    o: &mut [f32],
    base: usize,
    cards: impl IntoIterator<Item = &'a Card> + Clone,
    copies: CopiesInPlay,
) {
    let mut count = [0u8; CARD_CODES];
    for c in cards.clone() {
        let code = usize::from(c.code());
        count[code] = count[code].saturating_add(1);
    }
    for c in cards {
        let code = usize::from(c.code());
        let of = if c.is_joker() {
            copies.joker
        } else {
            copies.card
        };
        o[base + code] = (f32::from(count[code]) / of).min(1.0);
    }
}

impl ThreeThirteenState {
    /// Size of [`ThreeThirteenState::observation`] for `players` players.
    pub fn observation_size(players: usize) -> usize {
        CARD_CODES * (6 + players.saturating_sub(1)) + players * 6 + 13 + 3 + 5
    }

    /// The cards `seat` cannot see: the stock and the other hands except
    /// their known cards (a multiset, in no meaningful order).
    pub fn unseen_cards(&self, seat: u8) -> Vec<Card> {
        let mut pool: Vec<Card> = self.stock.clone();
        if self.is_terminal() {
            // The last round's hands are shown; only the stock stays hidden.
            return pool;
        }
        for p in 0..self.n() {
            if p != seat {
                pool.extend(self.hidden_part(p));
            }
        }
        pool
    }

    /// The cards of `p`'s hand that are not known to everybody.
    pub(super) fn hidden_part(&self, p: u8) -> Vec<Card> {
        let mut h = self.hand(p).to_vec();
        for &k in self.known_cards(p) {
            remove_one(&mut h, k);
        }
        h
    }
}
