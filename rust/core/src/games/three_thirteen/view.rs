//! What a seat may see: the view type, the observation size and the unseen
//! cards (`view`, `observation`, `determinize` and the fingerprint are the
//! `engine::State` impl, in state.rs).

use super::*;
use crate::games::seat_view::SeatViewOf;

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

/// What one seat may look at while deciding (what Three Thirteen's bots
/// decide from): its own hand and what the table shows (the discard pile,
/// tabled melds, the cards others took from the pile, the score sheet),
/// never another hand or the stock.
pub type ThreeThirteenSeatView<'a> = SeatViewOf<'a, ThreeThirteenState>;

impl<'a> ThreeThirteenSeatView<'a> {
    pub fn config(&self) -> &'a ThreeThirteenConfig {
        self.state.config()
    }

    pub fn players(&self) -> u8 {
        self.state.config().players
    }

    pub fn phase(&self) -> Phase {
        self.state.phase()
    }

    /// The seat to decide, if any.
    pub fn current_player(&self) -> Option<u8> {
        self.state.current_player()
    }

    /// The own hand, sorted.
    pub fn hand(&self) -> &'a [Card] {
        self.state.hand(self.seat)
    }

    /// The meld rules of the round in play (its wild rank).
    pub fn rules(&self) -> &'a MeldRules {
        self.state.rules()
    }

    pub fn resolved_rules(&self) -> ResolvedRules {
        self.state.resolved_rules()
    }

    pub fn top_discard(&self) -> Option<Card> {
        self.state.top_discard()
    }

    /// The card the seat to move took from the pile this turn.
    pub fn taken(&self) -> Option<Card> {
        self.state.taken_card()
    }

    /// Whether the round is in its last turns after a player went out.
    pub fn in_last_turns(&self) -> bool {
        self.state.in_last_turns()
    }

    /// Cards of another seat's hand that everybody knows (taken from the
    /// pile); none for the own seat.
    pub fn known_cards(&self, p: u8) -> &'a [Card] {
        if p == self.seat {
            &[]
        } else {
            self.state.known_cards(p)
        }
    }

    pub fn tabled(&self) -> &'a [TabledMeld] {
        self.state.tabled_melds()
    }

    pub fn stock_size(&self) -> usize {
        self.state.stock_size()
    }

    /// The own legal actions now (empty when another seat decides).
    pub fn legal_action_list(&self) -> Vec<u16> {
        if self.state.current_player() == Some(self.seat) {
            self.state.legal_actions()
        } else {
            Vec::new()
        }
    }

    /// The cards this seat has not seen, as a multiset: the deck minus its
    /// hand, the discard pile, the table, gifted jokers and the cards others
    /// took from the pile (computed from public facts only).
    pub fn unseen(&self) -> Vec<Card> {
        let deck = self.config().deck();
        let mut counts = [0i32; CARD_CODES];
        for (code, c) in counts.iter_mut().enumerate() {
            *c = if code == usize::from(Card::JOKER_CODE) {
                i32::from(deck.jokers)
            } else {
                i32::from(deck.decks)
            };
        }
        let mut sub = |c: &Card| counts[usize::from(c.code())] -= 1;
        self.hand().iter().for_each(&mut sub);
        self.state.discard_pile().iter().for_each(&mut sub);
        for t in self.tabled() {
            t.meld.cards.iter().for_each(&mut sub);
        }
        for p in 0..self.players() {
            self.known_cards(p).iter().for_each(&mut sub);
        }
        for p in 0..self.players() {
            counts[usize::from(Card::JOKER_CODE)] -= i32::from(self.state.gifted(p));
        }
        let mut out = Vec::with_capacity(128);
        for (code, &k) in counts.iter().enumerate() {
            for _ in 0..k.max(0) {
                out.push(Card::from_code(code as u8).unwrap_or(Card::JOKER));
            }
        }
        out
    }
}
