//! The game and its state machine (GR-1 … GR-9), and the engine layer's
//! `State` trait over it.

use super::*;
use crate::deck::DeckSpec;
use crate::engine::{ActionInfo, Refusal};

/// Where the game is (OpenSpiel's phases, h:106-115, without the deal).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The first upcard is offered (GR-3).
    FirstUpcard,
    Draw,
    Discard,
    /// The knocker discards, then lays melds (GR-5.2, GR-5.3).
    Knock,
    /// The opponent lays off, then lays its melds (GR-6).
    Layoff,
    /// Two stock cards left: knock or pass (GR-7.1).
    Wall,
    Over,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::FirstUpcard => "first_upcard",
            Phase::Draw => "draw",
            Phase::Discard => "discard",
            Phase::Knock => "knock",
            Phase::Layoff => "layoff",
            Phase::Wall => "wall",
            Phase::Over => "over",
        }
    }
}

/// How a game ended (GR-8.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ending {
    Gin,
    Knock,
    Undercut,
    KnockTie,
    Wall,
    RepeatedMove,
    UpcardLimit,
}

impl Ending {
    pub fn name(self) -> &'static str {
        ENDINGS[self as usize]
    }
}

/// One configuration of Gin Rummy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GinRummyGame {
    pub config: GinRummyConfig,
}

/// One game in progress. Cards are OpenSpiel ids; hands are masks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GinRummyState {
    pub(super) config: GinRummyConfig,
    pub(super) seed: u64,
    pub(super) from_deck: bool,
    pub(super) unrecordable: bool,
    /// The deck order, top first; the stock is `deck[stock_next..]`.
    pub(super) deck: [CardId; DECK_SIZE],
    pub(super) stock_next: u8,
    pub(super) dealer: u8,
    pub(super) knock_card: u8,
    pub(super) phase: Phase,
    pub(super) current: u8,
    pub(super) hands: [u64; 2],
    /// Cards each seat took from the upcard and still holds (public).
    pub(super) known: [u64; 2],
    pub(super) upcard: Option<CardId>,
    /// The upcard at the last draw (OpenSpiel's `prev_upcard_`, GR-7.4).
    pub(super) prev_upcard: Option<CardId>,
    /// Dead cards, bottom first (GR-4.1, GR-5.2).
    pub(super) pile: [CardId; DECK_SIZE],
    pub(super) pile_len: u8,
    pub(super) passed: [bool; 2],
    pub(super) repeated: bool,
    pub(super) upcard_draws: u8,
    pub(super) knocker: Option<u8>,
    pub(super) wall_knock: bool,
    pub(super) finished_layoffs: bool,
    pub(super) melds: [[u8; MAX_LAID_MELDS]; 2],
    pub(super) meld_count: [u8; 2],
    /// The opponent's layoffs, in order (GR-6.1).
    pub(super) layoffs: [CardId; 16],
    pub(super) layoff_len: u8,
    /// Whether the seat to move may knock (GR-5.1, GR-7.2), kept from its hand.
    pub(super) can_knock: bool,
    pub(super) ending: Option<Ending>,
    pub(super) returns: [i64; 2],
    pub(super) history: Vec<u16>,
}

impl GinRummyGame {
    pub fn new(config: GinRummyConfig) -> GinRummyGame {
        GinRummyGame { config }
    }

    /// A game from named options (see [`GinRummyConfig::from_options`]).
    pub fn from_options(options: &[(String, OptionValue)]) -> Result<GinRummyGame> {
        Ok(GinRummyGame::new(GinRummyConfig::from_options(options)?))
    }

    /// A game dealt from `seed` (GR-1.5); seat 1 deals unless told (GR-1.4).
    pub fn new_game(&self, seed: u64, dealer: Option<u8>) -> Result<GinRummyState> {
        let cards = DeckSpec::standard().shuffled(seed);
        let mut st = self.deal_from_deck(&cards, dealer.unwrap_or(1))?;
        st.from_deck = false;
        st.seed = seed;
        Ok(st)
    }

    /// A game dealt from this deck order, top first (GR-1.3): the first
    /// player's hand, the dealer's, the upcard, then the stock. A short deck
    /// is completed with the missing cards in card order.
    pub fn deal_from_deck(&self, cards: &[Card], dealer: u8) -> Result<GinRummyState> {
        if dealer > 1 {
            return Err(CoreError::config(format!(
                "dealer {dealer}: gin rummy has seats 0 and 1"
            )));
        }
        let mut deck = [0u8; DECK_SIZE];
        let mut seen = 0u64;
        let mut n = 0;
        for &c in cards {
            let id = id_of_card(c).ok_or_else(|| {
                CoreError::hand(format!("{c} is not a card of the gin rummy deck"))
            })?;
            if seen >> id & 1 == 1 {
                return Err(CoreError::hand(format!("{c} is twice in the deck")));
            }
            if n == DECK_SIZE {
                return Err(CoreError::hand("more than 52 cards in the deck"));
            }
            seen |= 1 << id;
            deck[n] = id;
            n += 1;
        }
        for id in 0..DECK_SIZE as u8 {
            if seen >> id & 1 == 0 {
                deck[n] = id;
                n += 1;
            }
        }
        let hs = usize::from(self.config.hand_size);
        let first = 1 - dealer;
        let mask = |cards: &[u8]| cards.iter().fold(0u64, |m, &c| m | 1 << c);
        let mut hands = [0u64; 2];
        hands[usize::from(first)] = mask(&deck[..hs]);
        hands[usize::from(dealer)] = mask(&deck[hs..2 * hs]);
        let upcard = deck[2 * hs];
        let knock_card = if self.config.oklahoma {
            // GR-9.1: an ace means gin only.
            match card_value(upcard) {
                1 => 0,
                v => v as u8,
            }
        } else {
            self.config.knock_card
        };
        Ok(GinRummyState {
            config: self.config,
            seed: 0,
            from_deck: true,
            unrecordable: false,
            deck,
            stock_next: (2 * hs + 1) as u8,
            dealer,
            knock_card,
            phase: Phase::FirstUpcard,
            current: first,
            hands,
            known: [0; 2],
            upcard: Some(upcard),
            prev_upcard: None,
            pile: [0; DECK_SIZE],
            pile_len: 0,
            passed: [false; 2],
            repeated: false,
            upcard_draws: 0,
            knocker: None,
            wall_knock: false,
            finished_layoffs: false,
            melds: [[0; MAX_LAID_MELDS]; 2],
            meld_count: [0; 2],
            layoffs: [0; 16],
            layoff_len: 0,
            can_knock: false,
            ending: None,
            returns: [0; 2],
            history: Vec::new(),
        })
    }
}

fn bit(id: CardId) -> u64 {
    1u64 << id
}

impl GinRummyState {
    pub fn config(&self) -> &GinRummyConfig {
        &self.config
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn is_terminal(&self) -> bool {
        self.phase == Phase::Over
    }

    pub fn current_player(&self) -> Option<u8> {
        (!self.is_terminal()).then_some(self.current)
    }

    /// The seat that acts first (GR-1.4).
    pub fn first_player(&self) -> u8 {
        1 - self.dealer
    }

    /// The knock card in play (Oklahoma applied, GR-9.1).
    pub fn knock_card(&self) -> u8 {
        self.knock_card
    }

    /// A seat's hand as a mask of card ids (full information).
    pub fn hand_mask(&self, seat: u8) -> u64 {
        self.hands.get(usize::from(seat)).copied().unwrap_or(0)
    }

    /// A seat's hand, sorted by card code (full information).
    pub fn hand(&self, seat: u8) -> Vec<Card> {
        mask_cards(self.hand_mask(seat))
    }

    pub fn upcard_id(&self) -> Option<CardId> {
        self.upcard
    }

    pub fn upcard(&self) -> Option<Card> {
        self.upcard.and_then(card_of_id)
    }

    pub fn stock_size(&self) -> usize {
        DECK_SIZE - usize::from(self.stock_next)
    }

    /// The stock, top first (full information).
    pub fn stock_ids(&self) -> &[CardId] {
        &self.deck[usize::from(self.stock_next).min(DECK_SIZE)..]
    }

    /// The dead cards, bottom first.
    pub fn pile_ids(&self) -> &[CardId] {
        &self.pile[..usize::from(self.pile_len)]
    }

    pub fn upcard_draws(&self) -> u8 {
        self.upcard_draws
    }

    pub fn knocker(&self) -> Option<u8> {
        self.knocker
    }

    /// Whether the knock was made at the wall (GR-7.2).
    pub fn wall_knock(&self) -> bool {
        self.wall_knock
    }

    pub fn finished_layoffs(&self) -> bool {
        self.finished_layoffs
    }

    /// The meld ids `seat` has laid, in order.
    pub fn laid_melds(&self, seat: u8) -> &[u8] {
        let s = usize::from(seat.min(1));
        &self.melds[s][..usize::from(self.meld_count[s])]
    }

    /// The opponent's layoffs, in order.
    pub fn layoff_ids(&self) -> &[CardId] {
        &self.layoffs[..usize::from(self.layoff_len)]
    }

    fn layoff_mask(&self) -> u64 {
        self.layoff_ids().iter().fold(0, |m, &c| m | bit(c))
    }

    pub fn history(&self) -> &[u16] {
        &self.history
    }

    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    pub fn returns(&self) -> Vec<i64> {
        self.returns.to_vec()
    }

    /// A seat's least deadwood now, of the cards it still holds (after the
    /// best discard with one card over the hand size).
    pub fn deadwood(&self, seat: u8) -> u32 {
        let hand = self.hand_mask(seat);
        if hand.count_ones() > u32::from(self.config.hand_size) {
            best_discard_deadwood(hand)
        } else {
            deadwood(hand)
        }
    }

    /// The deadwoods that were scored (GR-8.1): after a knock, the value each
    /// seat left unmelded; None before the end and for a drawn game.
    pub fn final_deadwood(&self) -> Option<[u32; 2]> {
        (self.is_terminal() && self.knocker.is_some())
            .then(|| [mask_value(self.hands[0]), mask_value(self.hands[1])])
    }

    fn other(&self) -> u8 {
        1 - self.current
    }

    pub(super) fn hand_over_size(&self) -> bool {
        self.hands[usize::from(self.current)].count_ones() > u32::from(self.config.hand_size)
    }

    /// The knock test of the seat to move (GR-5.1, GR-7.2): exact.
    pub(super) fn refresh_can_knock(&mut self) {
        let hand = self.hands[usize::from(self.current)];
        self.can_knock = match self.phase {
            Phase::Discard => best_discard_deadwood(hand) <= u32::from(self.knock_card),
            Phase::Wall => match self.upcard {
                Some(u) => best_discard_deadwood(hand | bit(u)) <= u32::from(self.knock_card),
                None => false,
            },
            _ => false,
        };
    }

    /// The legal actions of the seat to move, sorted (empty at the end).
    pub fn legal_actions(&self) -> Vec<u16> {
        let mut v = Vec::new();
        self.legal_actions_into(&mut v);
        v
    }

    pub fn legal_actions_into(&self, out: &mut Vec<u16>) {
        out.clear();
        let hand = self.hands[usize::from(self.current)];
        let cards = |out: &mut Vec<u16>, mask: u64| out.extend(ids(mask).map(u16::from));
        let melds = |out: &mut Vec<u16>, set: MeldSet| {
            out.extend(set.iter().map(|m| action::MELD_BASE + u16::from(m)))
        };
        match self.phase {
            Phase::FirstUpcard => {
                if self.passed == [true, true] {
                    out.push(action::DRAW_STOCK);
                } else {
                    out.extend([action::DRAW_UPCARD, action::PASS]);
                }
            }
            Phase::Draw => out.extend([action::DRAW_UPCARD, action::DRAW_STOCK]),
            Phase::Discard => {
                cards(out, hand);
                if self.can_knock {
                    out.push(action::KNOCK);
                }
            }
            Phase::Knock => {
                if self.hand_over_size() {
                    cards(out, self.knock_discards());
                } else {
                    melds(out, legal_melds(hand, u32::from(self.knock_card)));
                    if mask_value(hand) <= u32::from(self.knock_card) {
                        out.push(action::PASS);
                        out.sort_unstable();
                    }
                }
            }
            Phase::Layoff => {
                if !self.finished_layoffs {
                    cards(out, self.layoff_cards());
                    out.push(action::PASS);
                } else {
                    out.push(action::PASS);
                    melds(out, legal_melds(hand, MAX_POSSIBLE_DEADWOOD));
                }
            }
            Phase::Wall => {
                out.push(action::PASS);
                if self.can_knock {
                    out.push(action::KNOCK);
                }
            }
            Phase::Over => {}
        }
    }

    /// The knocker's legal discards (GR-5.2): the cards whose removal leaves
    /// deadwood at most the knock card.
    pub fn knock_discards(&self) -> u64 {
        let hand = self.hands[usize::from(self.current)];
        ids(hand)
            .filter(|&c| deadwood(hand & !bit(c)) <= u32::from(self.knock_card))
            .fold(0, |m, c| m | bit(c))
    }

    /// The opponent's cards that fit the knocker's melds now (GR-6.2).
    pub fn layoff_cards(&self) -> u64 {
        let Some(k) = self.knocker else { return 0 };
        all_layoffs(self.laid_melds(k), self.layoff_mask()) & self.hands[usize::from(self.current)]
    }

    pub fn is_legal(&self, a: u16) -> bool {
        if self.is_terminal() || a >= action::COUNT {
            return false;
        }
        let hand = self.hands[usize::from(self.current)];
        match self.phase {
            Phase::FirstUpcard => {
                if self.passed == [true, true] {
                    a == action::DRAW_STOCK
                } else {
                    a == action::DRAW_UPCARD || a == action::PASS
                }
            }
            Phase::Draw => a == action::DRAW_UPCARD || a == action::DRAW_STOCK,
            Phase::Discard => {
                (a < action::CARDS && hand >> a & 1 == 1) || (a == action::KNOCK && self.can_knock)
            }
            Phase::Wall => a == action::PASS || (a == action::KNOCK && self.can_knock),
            _ => self.legal_actions().binary_search(&a).is_ok(),
        }
    }

    /// Applies the action of the seat to move; an illegal one is an error and
    /// changes nothing.
    pub fn apply_action(&mut self, a: u16) -> Result<()> {
        if self.is_terminal() {
            return Err(CoreError::GameOver);
        }
        if let Some(r) = self.refusal(a) {
            return Err(CoreError::IllegalAction(r.to_string()));
        }
        self.history.push(a);
        let p = usize::from(self.current);
        match self.phase {
            Phase::FirstUpcard => match a {
                action::DRAW_UPCARD => self.take_upcard(),
                action::PASS => {
                    self.passed[p] = true;
                    self.current = self.other();
                }
                _ => self.draw_stock(),
            },
            Phase::Draw => {
                if a == action::DRAW_UPCARD {
                    self.upcard_draws += 1;
                    if self.upcard_draws >= MAX_UPCARD_DRAWS {
                        self.finish(Some(Ending::UpcardLimit));
                        return Ok(());
                    }
                    self.take_upcard();
                } else {
                    self.draw_stock();
                }
            }
            Phase::Discard => {
                if a == action::KNOCK {
                    self.knocker = Some(self.current);
                    self.phase = Phase::Knock;
                } else {
                    self.discard(a as CardId);
                }
            }
            Phase::Knock => {
                if a < action::CARDS {
                    let c = a as CardId;
                    self.remove(c);
                    self.push_pile(c);
                } else if a == action::PASS {
                    if mask_value(self.hands[p]) == 0 {
                        self.finished_layoffs = true;
                    }
                    self.current = self.other();
                    self.phase = Phase::Layoff;
                } else {
                    self.lay_meld(a);
                }
            }
            Phase::Layoff => {
                if a == action::PASS {
                    if self.finished_layoffs {
                        self.finish(None);
                    } else {
                        self.finished_layoffs = true;
                    }
                } else if a < action::CARDS {
                    let c = a as CardId;
                    self.remove(c);
                    if let Some(slot) = self.layoffs.get_mut(usize::from(self.layoff_len)) {
                        *slot = c;
                        self.layoff_len += 1;
                    }
                } else {
                    self.lay_meld(a);
                }
            }
            Phase::Wall => {
                if a == action::KNOCK {
                    if let Some(u) = self.upcard.take() {
                        self.hands[p] |= bit(u);
                        self.known[p] |= bit(u);
                    }
                    self.knocker = Some(self.current);
                    self.wall_knock = true;
                    self.phase = Phase::Knock;
                } else {
                    self.finish(Some(Ending::Wall));
                }
            }
            Phase::Over => {}
        }
        self.refresh_can_knock();
        Ok(())
    }

    fn remove(&mut self, c: CardId) {
        let p = usize::from(self.current);
        self.hands[p] &= !bit(c);
        self.known[p] &= !bit(c);
    }

    fn push_pile(&mut self, c: CardId) {
        if let Some(slot) = self.pile.get_mut(usize::from(self.pile_len)) {
            *slot = c;
            self.pile_len += 1;
        }
    }

    fn take_upcard(&mut self) {
        let p = usize::from(self.current);
        self.prev_upcard = self.upcard;
        if let Some(u) = self.upcard.take() {
            self.hands[p] |= bit(u);
            self.known[p] |= bit(u);
        }
        self.phase = Phase::Discard;
    }

    fn draw_stock(&mut self) {
        let p = usize::from(self.current);
        self.prev_upcard = self.upcard;
        if let Some(u) = self.upcard.take() {
            self.push_pile(u);
        }
        if let Some(&c) = self.deck.get(usize::from(self.stock_next)) {
            self.hands[p] |= bit(c);
            self.stock_next += 1;
        }
        self.phase = Phase::Discard;
    }

    fn discard(&mut self, c: CardId) {
        self.remove(c);
        self.upcard = Some(c);
        self.current = self.other();
        if self.prev_upcard == Some(c) {
            if self.repeated {
                self.finish(Some(Ending::RepeatedMove));
                return;
            }
            self.repeated = true;
        } else {
            self.repeated = false;
        }
        self.phase = if self.stock_size() == WALL_STOCK {
            Phase::Wall
        } else {
            Phase::Draw
        };
    }

    fn lay_meld(&mut self, a: u16) {
        let m = (a - action::MELD_BASE) as u8;
        let p = usize::from(self.current);
        let mask = MELD_MASKS[usize::from(m)];
        self.hands[p] &= !mask;
        self.known[p] &= !mask;
        if let Some(slot) = self.melds[p].get_mut(usize::from(self.meld_count[p])) {
            *slot = m;
            self.meld_count[p] += 1;
        }
    }

    /// Ends the game: a draw with `ending`, or the knock scored (GR-8).
    fn finish(&mut self, ending: Option<Ending>) {
        self.phase = Phase::Over;
        self.can_knock = false;
        match (ending, self.knocker) {
            (Some(e), _) => {
                self.ending = Some(e);
                self.returns = [0; 2];
            }
            (None, Some(k)) => {
                let o = 1 - k;
                let dk = i64::from(mask_value(self.hands[usize::from(k)]));
                let dopp = i64::from(mask_value(self.hands[usize::from(o)]));
                let mut r = dopp - dk;
                if dk == 0 {
                    r += i64::from(self.config.gin_bonus);
                }
                if r < 0 {
                    r -= i64::from(self.config.undercut_bonus);
                }
                self.returns[usize::from(k)] = r;
                self.returns[usize::from(o)] = -r;
                self.ending = Some(if dk == 0 {
                    Ending::Gin
                } else if r > 0 {
                    Ending::Knock
                } else if r < 0 {
                    Ending::Undercut
                } else {
                    Ending::KnockTie
                });
            }
            (None, None) => self.ending = Some(Ending::Wall),
        }
    }

    /// Every card in exactly one place (hands, stock, upcard, pile, melds, layoffs).
    pub fn audit(&self) -> std::result::Result<(), String> {
        let mut seen = 0u64;
        let mut count = 0u32;
        let mut add = |m: u64, what: &str| -> std::result::Result<(), String> {
            if seen & m != 0 {
                return Err(format!("a card of the {what} is in two places"));
            }
            seen |= m;
            count += m.count_ones();
            Ok(())
        };
        add(self.hands[0], "first hand")?;
        add(self.hands[1], "second hand")?;
        for &c in self.stock_ids() {
            add(bit(c), "stock")?;
        }
        if let Some(u) = self.upcard {
            add(bit(u), "upcard")?;
        }
        for &c in self.pile_ids() {
            add(bit(c), "discard pile")?;
        }
        for s in 0..2 {
            for &m in self.laid_melds(s) {
                add(MELD_MASKS[usize::from(m)], "laid melds")?;
            }
        }
        for &c in self.layoff_ids() {
            add(bit(c), "layoffs")?;
        }
        if count != DECK_SIZE as u32 || seen != (1u64 << DECK_SIZE) - 1 {
            return Err(format!("{count} cards in play, not 52"));
        }
        for s in 0..2 {
            if self.known[s] & !self.hands[s] != 0 {
                return Err("a known card is not in its hand".into());
            }
        }
        if self.is_terminal() != self.ending.is_some() {
            return Err("over without an ending, or an ending before the end".into());
        }
        Ok(())
    }
}

impl engine::TurnBased for GinRummyState {
    /// The players alternate, the first player first (GR-1.4, GR-4).
    const TURN_RULE: &'static str = "GR-4.1";

    fn seat_to_move(&self) -> Option<u8> {
        self.current_player()
    }

    fn legal_actions_now(&self, out: &mut Vec<u16>) {
        self.legal_actions_into(out);
    }

    fn is_legal_now(&self, action: u16) -> bool {
        self.is_legal(action)
    }

    fn apply_now(&mut self, action: u16) -> Result<()> {
        self.apply_action(action)
    }

    fn refusal_now(&self, action: u16) -> Option<Refusal> {
        self.refusal(action)
    }
}

impl engine::State for GinRummyState {
    type View = GinRummyView;
    type SeatView<'a> = GinRummySeatView<'a>;

    fn seat_view(&self, seat: u8) -> GinRummySeatView<'_> {
        GinRummySeatView::new(self, seat)
    }

    crate::turn_based!();

    fn describe_action(&self, _seat: u8, action: u16) -> Result<ActionInfo> {
        self.describe(action)
    }

    fn view(&self, seat: u8) -> GinRummyView {
        GinRummyState::view(self, seat)
    }

    fn observation(&self, seat: u8) -> Vec<f32> {
        let mut o = vec![0.0; OBSERVATION_SIZE];
        self.write_observation(seat, &mut o);
        o
    }

    fn write_observation(&self, seat: u8, out: &mut [f32]) {
        GinRummyState::write_observation(self, seat, out)
    }

    fn determinize(&self, seat: u8, rng: &mut GameRng) -> Self {
        GinRummyState::determinize(self, seat, rng)
    }

    fn returns(&self) -> Vec<i64> {
        self.returns.to_vec()
    }

    fn ending(&self) -> Option<&'static str> {
        self.ending.map(Ending::name)
    }

    fn history(&self) -> &[u16] {
        &self.history
    }

    fn dealer(&self) -> u8 {
        self.dealer
    }

    fn deal_source(&self) -> engine::DealSource {
        if self.unrecordable {
            engine::DealSource::Unrecordable
        } else if self.from_deck {
            engine::DealSource::Deck(self.deck.iter().filter_map(|&c| card_of_id(c)).collect())
        } else {
            engine::DealSource::Seed(self.seed)
        }
    }

    fn audit(&self) -> std::result::Result<(), String> {
        GinRummyState::audit(self)
    }

    fn fingerprint(&self) -> u64 {
        GinRummyState::fingerprint(self)
    }
}
