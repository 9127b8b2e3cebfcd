//! What a seat may see (GR-10): views, observations, determinization and
//! the fingerprint.
//!
//! # Observation layout (644 floats, OpenSpiel's default observer, GR-10.2)
//!
//! | offset | size | content |
//! |---|---|---|
//! | 0 | 2 | observing seat, one-hot |
//! | 2 | 104 | hands `[2][52]` by card id: only the observer's row (`2 + 52 * seat`) |
//! | 106 | 2 | seat to move, one-hot (zeros at the end) |
//! | 108 | 10 | knock card thermometer: the first `knock_card` cells are 1 |
//! | 118 | 52 | upcard, one-hot by card id (zeros when there is none) |
//! | 170 | 52 | discard pile (the dead cards) by card id |
//! | 222 | 52 | stock size thermometer: the first `stock_size` cells are 1 |
//! | 274 | 370 | laid melds `[2][185]` by meld id (row of seat `s` at `274 + 185 * s`) |
//!
//! Card ids are OpenSpiel's (GR-2.1), meld ids as in GR-2.3.

use super::*;
use crate::games::seat_view::seat_view;

/// What one seat sees of the game: never a card hidden from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GinRummyView {
    pub seat: u8,
    pub phase: Phase,
    pub current_player: Option<u8>,
    /// The seat that acted first (GR-1.4).
    pub first_player: u8,
    /// The knock card in play (GR-5.1, GR-9.1).
    pub knock_card: u8,
    /// The seat's own hand, sorted by card code.
    pub hand: Vec<Card>,
    /// The seat's least deadwood now (GR-5.1's best discard with one card over).
    pub deadwood: u32,
    /// The meld ids of a least-deadwood arrangement of the seat's hand
    /// ([`best_melds`]): what it would lay to leave the least deadwood.
    pub best_melds: Vec<u8>,
    pub hand_sizes: Vec<u8>,
    /// Per seat, the cards it took from the upcard and still holds.
    pub known_cards: Vec<Vec<Card>>,
    pub upcard: Option<Card>,
    /// The dead cards, bottom first.
    pub discard_pile: Vec<Card>,
    pub stock_size: u8,
    /// Draws of the upcard in the draw phase so far (GR-7.3).
    pub upcard_draws: u8,
    pub knocker: Option<u8>,
    pub wall_knock: bool,
    /// Per seat, the meld ids it laid, in order (GR-2.3).
    pub melds: Vec<Vec<u8>>,
    pub layoffs: Vec<Card>,
    /// Both hands, once the game is over.
    pub hands: Option<Vec<Vec<Card>>>,
    /// The scored deadwoods after a knock (GR-8.1).
    pub final_deadwood: Option<Vec<u32>>,
    pub returns: Option<Vec<i64>>,
    pub ending: Option<&'static str>,
    /// The seat's legal actions when it is its decision.
    pub legal_actions: Vec<u16>,
}

impl GinRummyState {
    /// Everything `seat` may see (GR-10.1).
    pub fn view(&self, seat: u8) -> GinRummyView {
        let seat = seat.min(1);
        let over = self.is_terminal();
        GinRummyView {
            seat,
            phase: self.phase,
            current_player: self.current_player(),
            first_player: self.first_player(),
            knock_card: self.knock_card,
            hand: self.hand(seat),
            deadwood: self.deadwood(seat),
            best_melds: best_melds(self.hand_mask(seat)),
            hand_sizes: self.hands.iter().map(|h| h.count_ones() as u8).collect(),
            known_cards: self.known.iter().map(|&k| mask_cards(k)).collect(),
            upcard: self.upcard(),
            discard_pile: self
                .pile_ids()
                .iter()
                .filter_map(|&c| card_of_id(c))
                .collect(),
            stock_size: self.stock_size() as u8,
            upcard_draws: self.upcard_draws,
            knocker: self.knocker,
            wall_knock: self.wall_knock,
            melds: (0..2).map(|s| self.laid_melds(s).to_vec()).collect(),
            layoffs: self
                .layoff_ids()
                .iter()
                .filter_map(|&c| card_of_id(c))
                .collect(),
            hands: over.then(|| (0..2).map(|s| self.hand(s)).collect()),
            final_deadwood: self.final_deadwood().map(|d| d.to_vec()),
            returns: over.then(|| self.returns.to_vec()),
            ending: self.ending.map(Ending::name),
            legal_actions: if self.current_player() == Some(seat) {
                self.legal_actions()
            } else {
                Vec::new()
            },
        }
    }

    /// The observation of `seat` written into `out` (the layout above).
    pub fn write_observation(&self, seat: u8, out: &mut [f32]) {
        out.fill(0.0);
        if out.len() < OBSERVATION_SIZE {
            return;
        }
        let seat = usize::from(seat.min(1));
        out[seat] = 1.0;
        for c in ids(self.hands[seat]) {
            out[2 + 52 * seat + usize::from(c)] = 1.0;
        }
        if let Some(p) = self.current_player() {
            out[106 + usize::from(p)] = 1.0;
        }
        for cell in out
            .iter_mut()
            .skip(108)
            .take(usize::from(self.knock_card).min(10))
        {
            *cell = 1.0;
        }
        if let Some(u) = self.upcard {
            out[118 + usize::from(u)] = 1.0;
        }
        for &c in self.pile_ids() {
            out[170 + usize::from(c)] = 1.0;
        }
        for cell in out.iter_mut().skip(222).take(self.stock_size().min(52)) {
            *cell = 1.0;
        }
        for s in 0..2u8 {
            for &m in self.laid_melds(s) {
                out[274 + 185 * usize::from(s) + usize::from(m)] = 1.0;
            }
        }
    }

    /// A state `seat` cannot tell from this one: the other hand's unknown
    /// cards and the stock re-dealt (at the end, the stock only).
    /// The history (every action is public) stays: bots read what the
    /// other player took and threw from it.
    pub fn determinize(&self, seat: u8, rng: &mut GameRng) -> GinRummyState {
        let mut s = self.clone();
        s.unrecordable = true;
        let next = usize::from(s.stock_next).min(DECK_SIZE);
        if self.is_terminal() {
            rng.shuffle(&mut s.deck[next..]);
            return s;
        }
        let o = usize::from(1 - seat.min(1));
        let hidden = self.hands[o] & !self.known[o];
        let mut pool: Vec<CardId> = ids(hidden).collect();
        pool.extend_from_slice(&self.deck[next..]);
        // In card order, not the hidden order: the re-deal then depends on
        // what `seat` sees and the generator only, so a bot that samples
        // worlds answers alike in every world it cannot tell apart.
        pool.sort_unstable();
        rng.shuffle(&mut pool);
        let k = hidden.count_ones() as usize;
        s.hands[o] = self.known[o] | pool[..k].iter().fold(0, |m, &c| m | 1u64 << c);
        s.deck[next..].copy_from_slice(&pool[k..]);
        s.refresh_can_knock();
        s
    }

    /// A hash of everything in the state (see `engine::State::fingerprint`).
    pub fn fingerprint(&self) -> u64 {
        let mut h = engine::Fingerprint::default();
        h.bytes(&self.deck);
        h.bytes(&[
            self.stock_next,
            self.dealer,
            self.knock_card,
            self.phase as u8,
            self.current,
            self.upcard.map_or(255, |c| c),
            self.prev_upcard.map_or(255, |c| c),
            u8::from(self.passed[0]),
            u8::from(self.passed[1]),
            u8::from(self.repeated),
            self.upcard_draws,
            self.knocker.map_or(255, |k| k),
            u8::from(self.wall_knock),
            u8::from(self.finished_layoffs),
            self.ending.map_or(255, |e| e as u8),
        ]);
        for s in 0..2 {
            h.u64(self.hands[s]).u64(self.known[s]);
            h.u64(u64::from(self.meld_count[s]));
            h.bytes(self.laid_melds(s as u8));
            h.i64(self.returns[s]);
        }
        h.u64(u64::from(self.pile_len)).bytes(self.pile_ids());
        h.u64(u64::from(self.layoff_len)).bytes(self.layoff_ids());
        h.u64(self.history.len() as u64);
        for &a in &self.history {
            h.u64(u64::from(a));
        }
        h.finish()
    }
}

seat_view! {
    /// What one seat may look at while deciding (what Gin Rummy's bots decide
    /// from): its own hand and the table (the upcard, the discard pile, laid
    /// melds), never the other hand or the stock.
    GinRummySeatView => GinRummyState
}

impl<'a> GinRummySeatView<'a> {
    pub fn config(&self) -> &'a GinRummyConfig {
        self.state.config()
    }

    pub fn phase(&self) -> Phase {
        self.state.phase()
    }

    /// The seat to decide, if any.
    pub fn current_player(&self) -> Option<u8> {
        self.state.current_player()
    }

    /// The own hand, as a mask by card id.
    pub fn hand_mask(&self) -> u64 {
        self.state.hand_mask(self.seat)
    }

    /// The upcard's id, if there is one.
    pub fn upcard_id(&self) -> Option<CardId> {
        self.state.upcard_id()
    }

    /// The discard pile under the upcard, bottom first (the dead cards).
    pub fn pile_ids(&self) -> &'a [CardId] {
        self.state.pile_ids()
    }

    pub fn stock_size(&self) -> usize {
        self.state.stock_size()
    }

    /// The meld ids `seat` has laid.
    pub fn laid_melds(&self, seat: u8) -> &'a [u8] {
        self.state.laid_melds(seat)
    }

    /// The cards `seat` took from the upcard and still holds (public).
    pub fn known_mask(&self, seat: u8) -> u64 {
        self.state
            .known
            .get(usize::from(seat))
            .copied()
            .unwrap_or(0)
    }

    /// How many cards `seat` holds.
    pub fn hand_len(&self, seat: u8) -> usize {
        self.state.hand_mask(seat).count_ones() as usize
    }

    /// The seat that acted first (GR-1.4).
    pub fn first_player(&self) -> u8 {
        self.state.first_player()
    }

    /// The card turned up at the deal (GR-1.3), seen by both players.
    pub fn first_upcard_id(&self) -> CardId {
        self.state.deck[2 * usize::from(self.state.config.hand_size)]
    }

    /// The knock card in play (GR-5.1, GR-9.1).
    pub fn knock_card(&self) -> u8 {
        self.state.knock_card()
    }

    pub fn knocker(&self) -> Option<u8> {
        self.state.knocker()
    }

    /// The lay-offs made so far (GR-6.1).
    pub fn layoff_ids(&self) -> &'a [CardId] {
        self.state.layoff_ids()
    }

    /// Every action so far: all of them are public (a stock draw does not
    /// name its card).
    pub fn history(&self) -> &'a [u16] {
        self.state.history()
    }

    /// The whole state, every hand and the stock: for the `omniscient`
    /// benchmark bot only, which measures how much seeing the other hand
    /// is worth; no other bot may call it (`tests/engine/bot_views.rs`).
    pub(in crate::games) fn full_state(&self) -> &'a GinRummyState {
        self.state
    }
}
