//! What a seat may see: the view type, the view and observation of a seat,
//! the observation size and the unseen cards (`determinize` and the
//! fingerprint are in the `engine::State` impl, in state.rs).

use super::*;
use crate::engine::State as _;
use crate::games::seat_view::seat_view;

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

seat_view! {
    /// What one seat may look at while deciding (what Three Thirteen's bots
    /// decide from): its own hand and what the table shows (the discard pile,
    /// tabled melds, the cards others took from the pile, the score sheet),
    /// never another hand or the stock.
    ThreeThirteenSeatView => ThreeThirteenState
}

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

    /// Which round of the schedule is being played (TT-2.1).
    pub fn round_index(&self) -> usize {
        self.state.round()
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

impl ThreeThirteenState {
    /// Everything `seat` may see (never a card hidden from it).
    pub fn view(&self, seat: u8) -> ThreeThirteenView {
        let n = self.n();
        let over = self.is_terminal();
        ThreeThirteenView {
            seat,
            players: n,
            round: self.round(),
            rounds: self.round_count(),
            cards_dealt: self.round_spec().cards,
            wild_rank: self.wild_rank(),
            dealer: self.round_dealer,
            phase: self.phase,
            current_player: self.current_player(),
            hand: self.hand(seat).to_vec(),
            hand_sizes: (0..n).map(|p| self.hand_size(p) as u8).collect(),
            discard_pile: self.pile.clone(),
            stock_size: self.stock.len(),
            restocks: self.restocks,
            taken: self.taken,
            known_cards: (0..n)
                .map(|p| {
                    if p == seat {
                        Vec::new()
                    } else {
                        self.known_cards(p).to_vec()
                    }
                })
                .collect(),
            out_player: self.out_player,
            last_turns_left: self.last_turns_left,
            tabled: self.tabled.clone(),
            building: if self.current == seat && !over {
                self.building.clone()
            } else {
                Vec::new()
            },
            gifted: self.gifts.clone(),
            false_outs: self.false_outs.clone(),
            first_round: self.first_round(),
            score_sheet: self.sheet.clone(),
            totals: self.totals.clone(),
            last_round: self.last_round().cloned(),
            returns: over.then(|| self.returns()),
            legal_actions: if self.current_player() == Some(seat) {
                self.legal_actions()
            } else {
                Vec::new()
            },
        }
    }

    /// A flat observation in `[0, 1]` for learning code, from `seat`'s point
    /// of view (seats relative to it: 0 is itself). Layout, in order, each
    /// card block being 53 entries by card code (the joker last) holding the
    /// count divided by the copies in play:
    ///
    /// 1. own hand; 2. top discard (one-hot); 3. whole discard pile;
    /// 4. cards on the table (tabled melds); 5. the card taken this turn
    ///    (one-hot); 6. the cards picked for the meld being built (TT-10.6);
    /// 7. per opponent (relative seats 1 .. n−1): its known cards;
    /// 8. per relative seat, 6 entries: hand size / 16, total / 1000 (capped
    ///    at 1), this round's false outs / 4 (capped), gifted jokers / 8
    ///    (capped), 1 if it went out this round, 1 if it deals this round;
    /// 9. the wild rank one-hot (13, A first);
    /// 10. round index / rounds, cards dealt / 15, stock size / deck size;
    /// 11. phase one-hot (draw, discard, over), 1 if last turns are being
    ///     played, 1 if `seat` decides.
    pub fn observation(&self, seat: u8) -> Vec<f32> {
        let mut o = vec![0f32; Self::observation_size(usize::from(self.n()))];
        self.write_observation(seat, &mut o);
        o
    }

    /// [`ThreeThirteenState::observation`] written into `o` (of its size,
    /// any content before).
    pub fn write_observation(&self, seat: u8, o: &mut [f32]) {
        let n = usize::from(self.n());
        o.fill(0.0);
        let deck = self.cfg.deck();
        let copies = CopiesInPlay {
            card: f32::from(deck.decks.max(1)),
            joker: f32::from(deck.jokers.max(1)),
        };
        let rel = |k: usize| ((usize::from(seat) + k) % n) as u8;
        block(o, 0, self.hand(seat), copies);
        if let Some(t) = self.top_discard() {
            o[CARD_CODES + usize::from(t.code())] = 1.0;
        }
        block(o, 2 * CARD_CODES, &self.pile, copies);
        let table = self.tabled.iter().flat_map(|t| t.meld.cards.iter());
        block(o, 3 * CARD_CODES, table, copies);
        if let Some(t) = self.taken {
            o[4 * CARD_CODES + usize::from(t.code())] = 1.0;
        }
        if self.current == seat {
            block(o, 5 * CARD_CODES, &self.building, copies);
        }
        let mut base = 6 * CARD_CODES;
        for k in 1..n {
            block(o, base, self.known_cards(rel(k)), copies);
            base += CARD_CODES;
        }
        for k in 0..n {
            let p = rel(k);
            o[base] = (self.hand_size(p) as f32 / 16.0).min(1.0);
            o[base + 1] = (self.totals[usize::from(p)].max(0) as f32 / 1000.0).min(1.0);
            o[base + 2] = (self.false_outs(p) as f32 / 4.0).min(1.0);
            o[base + 3] = (f32::from(self.gifted(p)) / 8.0).min(1.0);
            o[base + 4] = if self.out_player == Some(p) { 1.0 } else { 0.0 };
            o[base + 5] = if self.round_dealer == p { 1.0 } else { 0.0 };
            base += 6;
        }
        let w = usize::from(self.wild_rank().clamp(1, 13)) - 1;
        o[base + w] = 1.0;
        base += 13;
        o[base] = self.round() as f32 / self.round_count().max(1) as f32;
        o[base + 1] = (self.cards_dealt() as f32 / 15.0).min(1.0);
        o[base + 2] = (self.stock.len() as f32 / deck.size() as f32).min(1.0);
        base += 3;
        let ph = match self.phase {
            Phase::Draw => 0,
            Phase::Discard => 1,
            Phase::Over => 2,
        };
        o[base + ph] = 1.0;
        o[base + 3] = if self.in_last_turns() { 1.0 } else { 0.0 };
        o[base + 4] = if self.current_player() == Some(seat) {
            1.0
        } else {
            0.0
        };
    }
}
