//! The hand's state machine: the deal, turns and drop windows, legal
//! actions and transitions (TK-4 … TK-9).

use super::*;
use crate::engine::Game as _;

/// How a hand ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// TK-10.1; `paid` is the multiple each other player paid (1, 2, or 4 for a double-double).
    TonkOut {
        player: u8,
        paid: u8,
        double_double: bool,
    },
    /// TK-10.2.
    OutByDiscard { player: u8 },
    /// TK-10.3: `caught` when the dropper was not strictly lowest.
    Drop { player: u8, caught: bool },
    /// TK-10.4: the single lowest player, or none when tied (`all_paid`).
    StockOut { winner: Option<u8> },
    /// TK-10.7: `max_idle_rounds` rounds passed with no stock draw and
    /// nothing put down; settled as a stock out. `winner` is the single
    /// lowest player, none when tied (paid per `stock_out_tie`).
    Stalled { winner: Option<u8> },
    /// TK-5: a deal-time win (or a 49 claimed in turn).
    DealWin { player: u8, paid: u8 },
    /// TK-5.3/5.5 (two deal-time winners) or TK-10.4 (tied stock out).
    Void { stock_out: bool },
}

impl Ending {
    /// The category used in simulation reports.
    pub fn category(&self) -> &'static str {
        match self {
            Ending::TonkOut { .. } => "tonk_out",
            Ending::OutByDiscard { .. } => "out_by_discard",
            Ending::Drop { caught: false, .. } => "drop_won",
            Ending::Drop { caught: true, .. } => "caught",
            Ending::StockOut { .. } => "stock_out",
            Ending::Stalled { .. } => "stalled",
            Ending::DealWin { .. } => "deal_win",
            Ending::Void { .. } => "void",
        }
    }

    pub const CATEGORIES: [&'static str; 8] = [
        "tonk_out",
        "out_by_discard",
        "drop_won",
        "caught",
        "stock_out",
        "stalled",
        "deal_win",
        "void",
    ];
}

/// The immutable parameters of a Tonk hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TonkGame {
    pub config: TonkConfig,
}

/// Where the hand is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Players opt in or out of the spades side bet (TK-11.3).
    Spades,
    /// A drop window under `drop_timing = any_time` (TK-6.8).
    Window,
    /// Start of a turn: claim, drop, or draw (TK-6.2 ①②).
    TurnStart,
    /// After drawing: spreads, hits, discard (TK-6.2 ③④).
    Play,
    Over,
}

impl Phase {
    /// Its name for views and screens: `spades`, `drop_window`, `turn_start`,
    /// `play` or `over`.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Spades => "spades",
            Phase::Window => "drop_window",
            Phase::TurnStart => "turn_start",
            Phase::Play => "play",
            Phase::Over => "over",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Window {
    pub(super) order: [u8; MAX_PLAYERS],
    pub(super) len: u8,
    pub(super) pos: u8,
    /// Continue with this phase when everybody passes.
    pub(super) resume: Phase,
}

/// What the current turn has done so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Turn {
    /// The card taken from the discard pile this turn.
    pub(super) took: Option<Card>,
    pub(super) hits: u8,
    pub(super) new_spreads: u8,
    pub(super) new_run: bool,
    /// Cards put down (spread or hit) this turn.
    pub(super) put_down: u8,
    /// The turn began with a full hand (TK-10.1 `whole_hand_one_turn`).
    pub(super) started_full: bool,
    /// The player was locked at the start of the turn (TK-8.4).
    pub(super) locked: bool,
    /// Owners already locked by this turn's hits (`hit_lock_unit = per_turn`).
    pub(super) locked_owners: u8,
    /// Books completed by a hit this turn (ids), cleared at its end (TK-9.3).
    pub(super) completed_books: u32,
    /// The turn drew from the stock.
    pub(super) drew_stock: bool,
}

/// One hand of Tonk in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TonkState {
    pub(super) cfg: TonkConfig,
    pub(super) seed: u64,
    /// The deck order when the hand was dealt from a given deck, not a seed.
    pub(super) stacked: Option<Vec<Card>>,
    /// Hidden cards were re-dealt (`determinize`): no seed or deck replays it.
    pub(super) resampled: bool,
    pub(super) dealer: u8,
    pub(super) hands: [u64; MAX_PLAYERS],
    /// Counts at the deal (TK-5.1).
    pub(super) dealt: [u32; MAX_PLAYERS],
    /// Top card last.
    pub(super) stock: Vec<Card>,
    /// Bottom card first, top card last.
    pub(super) pile: Vec<Card>,
    pub(super) spreads: Vec<Spread>,
    pub(super) lock: [u8; MAX_PLAYERS],
    /// Players who have started a turn (TK-5.4 `forty_nine_in_turn`).
    pub(super) had_turn: u8,
    /// Cards each player has drawn from the stock (public).
    pub(super) stock_draws: [u8; MAX_PLAYERS],
    /// Turns in a row with no stock draw and no card put down (TK-10.7).
    pub(super) idle_turns: u32,
    /// Cards of each hand that every player knows: taken from the discard
    /// pile or shown for the spades bet.
    pub(super) known: [u64; MAX_PLAYERS],
    pub(super) phase: Phase,
    pub(super) current: u8,
    pub(super) turn_player: u8,
    pub(super) turn: Turn,
    pub(super) window: Option<Window>,
    /// Spades bet: decided and opted-in players (bitmasks), highest spades shown.
    pub(super) spades_decided: u8,
    pub(super) spades_in: u8,
    pub(super) spades_shown: [Option<Card>; MAX_PLAYERS],
    /// An ending decided at the deal, applied once the spades bet is done.
    pub(super) deal_ending: Option<(Ending, Vec<Transfer>, u8)>,
    pub(super) ending: Option<Ending>,
    /// The hand's settlement, then the side bet's (TK-10.6).
    pub(super) transfers: Vec<Transfer>,
    pub(super) side_transfers: Vec<Transfer>,
    /// Hands shown at the end (bitmask of players).
    pub(super) shown: u8,
    pub(super) history: Vec<u16>,
}

impl TonkGame {
    pub fn new(config: TonkConfig) -> TonkGame {
        TonkGame { config }
    }

    /// The first dealer of a match or lone hand (TK-4.1): every player draws
    /// a card from a deck shuffled with the dealer stream of `seed`; the
    /// highest (K high, A low) deals; tied highest players draw again.
    pub fn draw_for_dealer(&self, seed: u64) -> u8 {
        let mut rng = GameRng::new(derive_seed(seed, STREAM_DEALER));
        let mut contenders: Vec<u8> = (0..self.config.players).collect();
        loop {
            let mut deck = DeckSpec::standard().cards();
            rng.shuffle(&mut deck);
            let ranks: Vec<u8> = contenders
                .iter()
                .enumerate()
                .map(|(i, _)| deck[i].rank())
                .collect();
            let best = ranks.iter().copied().max().unwrap_or(0);
            let next: Vec<u8> = contenders
                .iter()
                .zip(&ranks)
                .filter(|(_, &r)| r == best)
                .map(|(&p, _)| p)
                .collect();
            if next.len() == 1 {
                return next[0];
            }
            contenders = next;
        }
    }

    /// A hand whose deal gives each seat the listed cards, `upcard` as the
    /// first discard, and `stock_top` as the next cards of the stock (top
    /// first); the rest of the stock follows in card order.
    pub fn state_from_hands(
        &self,
        dealer: u8,
        hands: &[Vec<Card>],
        upcard: Option<Card>,
        stock_top: &[Card],
    ) -> Result<TonkState> {
        let cfg = &self.config;
        let n = usize::from(cfg.players);
        if hands.len() != n {
            return Err(CoreError::config(format!(
                "{} hands given for {n} players",
                hands.len()
            )));
        }
        for (p, h) in hands.iter().enumerate() {
            if h.len() != usize::from(cfg.hand_size) {
                return Err(CoreError::hand(format!(
                    "seat {p} has {} cards, the deal gives {}",
                    h.len(),
                    cfg.hand_size
                )));
            }
        }
        if upcard.is_some() != cfg.upcard {
            return Err(CoreError::config(if cfg.upcard {
                "these rules turn an upcard: give one"
            } else {
                "these rules have no upcard (upcard=false)"
            }));
        }
        let mut deck = Vec::with_capacity(52);
        // The deal order (TK-4.3): card `round` of each seat, left of the dealer first.
        #[allow(clippy::needless_range_loop)]
        for round in 0..usize::from(cfg.hand_size) {
            for k in 0..n {
                let p = (usize::from(dealer) + 1 + k) % n;
                deck.push(hands[p][round]);
            }
        }
        deck.extend(upcard);
        deck.extend_from_slice(stock_top);
        let used = deck.iter().fold(0u64, |m, &c| m | card_bit(c));
        deck.extend(mask_cards(((1u64 << 52) - 1) & !used));
        self.deal_from_deck(&deck, dealer)
    }
}

impl TonkState {
    pub(super) fn deal(cfg: TonkConfig, seed: u64, dealer: u8) -> TonkState {
        let mut deck = DeckSpec::standard().cards();
        GameRng::new(derive_seed(seed, STREAM_DEAL)).shuffle(&mut deck);
        TonkState::deal_from(cfg, seed, None, &deck, dealer)
    }

    /// Deals `deck` (top card first); `stacked` keeps it for records.
    pub(super) fn deal_from(
        cfg: TonkConfig,
        seed: u64,
        stacked: Option<Vec<Card>>,
        deck: &[Card],
        dealer: u8,
    ) -> TonkState {
        let n = usize::from(cfg.players);
        // TK-4.3: one at a time, clockwise from the player left of the dealer.
        let mut hands = [0u64; MAX_PLAYERS];
        let mut top = 0;
        for _ in 0..cfg.hand_size {
            for k in 0..n {
                let p = (usize::from(dealer) + 1 + k) % n;
                hands[p] |= card_bit(deck[top]);
                top += 1;
            }
        }
        let mut pile = Vec::with_capacity(52);
        if cfg.upcard {
            pile.push(deck[top]);
            top += 1;
        }
        // The stock keeps its top card last.
        let mut stock: Vec<Card> = deck[top..].to_vec();
        stock.reverse();
        let mut dealt = [0u32; MAX_PLAYERS];
        for p in 0..n {
            dealt[p] = cfg.count(hands[p]);
        }
        let mut s = TonkState {
            cfg,
            seed,
            stacked,
            resampled: false,
            dealer,
            hands,
            dealt,
            stock,
            pile,
            spreads: Vec::with_capacity(8),
            lock: [0; MAX_PLAYERS],
            had_turn: 0,
            stock_draws: [0; MAX_PLAYERS],
            idle_turns: 0,
            known: [0; MAX_PLAYERS],
            phase: Phase::TurnStart,
            current: 0,
            turn_player: 0,
            turn: Turn::default(),
            window: None,
            spades_decided: 0,
            spades_in: 0,
            spades_shown: [None; MAX_PLAYERS],
            deal_ending: None,
            ending: None,
            transfers: Vec::new(),
            side_transfers: Vec::new(),
            shown: 0,
            history: Vec::with_capacity(64),
        };
        s.deal_ending = s.deal_time_checks();
        if cfg.spades_bet.is_some() {
            s.phase = Phase::Spades;
            s.current = s.left_of(dealer);
        } else {
            s.after_pre_play();
        }
        s
    }

    pub(super) fn n(&self) -> u8 {
        self.cfg.players
    }

    pub(super) fn left_of(&self, p: u8) -> u8 {
        (p + 1) % self.n()
    }

    /// TK-5: immediate deal-time wins, or a void when two players qualify.
    pub(super) fn deal_time_checks(&self) -> Option<(Ending, Vec<Transfer>, u8)> {
        let mut winners: Vec<(u8, u8, &'static str)> = Vec::new();
        for p in 0..self.n() {
            let c = self.dealt[usize::from(p)];
            let by_count = match (self.cfg.deal_wins, c) {
                (DealWins::Pagat, 49) | (DealWins::Texas, 49) => Some((
                    if self.cfg.deal_wins == DealWins::Texas {
                        1
                    } else {
                        2
                    },
                    "dealt a count of 49 (TK-5.4)",
                )),
                (
                    DealWins::Pagat
                    | DealWins::FiftyOnly
                    | DealWins::FortyNineInTurn
                    | DealWins::Texas,
                    50,
                ) => Some((2, "dealt a count of 50 (TK-5.4)")),
                _ => None,
            };
            let low = if self.cfg.low_9 && c <= 9 {
                Some((3, "dealt a count of 9 or less (TK-5.4 low_9)"))
            } else if self.cfg.low_13 && c <= 13 {
                Some((2, "dealt a count of 13 or less (TK-5.4 low_13)"))
            } else {
                None
            };
            if let Some((m, why)) = by_count.or(low) {
                winners.push((p, m, why));
            }
        }
        match winners.as_slice() {
            [] => None,
            [(p, m, why)] => {
                let t = self.everyone_pays(*p, u32::from(*m), why);
                Some((
                    Ending::DealWin {
                        player: *p,
                        paid: *m,
                    },
                    t,
                    1 << p,
                ))
            }
            many => {
                // TK-5.3, TK-5.5: two or more qualify: void.
                let shown = many.iter().fold(0u8, |m, (p, _, _)| m | 1 << p);
                Some((Ending::Void { stock_out: false }, Vec::new(), shown))
            }
        }
    }

    /// After the deal checks and the spades bet: end the hand, or start play.
    pub(super) fn after_pre_play(&mut self) {
        if let Some((ending, transfers, shown)) = self.deal_ending.take() {
            self.finish(ending, transfers, shown);
            return;
        }
        self.turn_player = self.left_of(self.dealer);
        // TK-6.8: the first drop window follows the deal-time checks.
        self.open_window_or(Phase::TurnStart);
    }

    // ----- queries -----------------------------------------------------------

    pub fn config(&self) -> &TonkConfig {
        &self.cfg
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// True for a state made by `determinize`: its hidden cards were re-dealt,
    /// so it has no record.
    pub fn is_resampled(&self) -> bool {
        self.resampled
    }

    /// The deck order of a hand dealt from a given deck (see `engine::Game::deal_from_deck`).
    pub fn stacked_deck(&self) -> Option<&[Card]> {
        self.stacked.as_deref()
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn is_terminal(&self) -> bool {
        self.phase == Phase::Over
    }

    /// The player to decide; `None` once the hand is over.
    pub fn current_player(&self) -> Option<u8> {
        (!self.is_terminal()).then_some(self.current)
    }

    /// Whose turn it is (the current player except in spades and drop windows).
    pub fn turn_player(&self) -> u8 {
        self.turn_player
    }

    pub fn hand(&self, p: u8) -> u64 {
        self.hands[usize::from(p)]
    }

    /// The solver's best spreads of `seat`'s hand and the count they leave;
    /// with the best discard when the seat is to play (TK-3, TK-7).
    pub fn best_arrangement(&self, seat: u8) -> Result<crate::meld::Solution> {
        let hand = self.hand_cards(seat);
        let rules = self.cfg.meld_rules();
        let mut solver = crate::meld::Solver::new();
        if self.phase == Phase::Play && self.current == seat && !hand.is_empty() {
            solver.best_discard(&hand, &rules)
        } else {
            solver.solve(&hand, &rules)
        }
    }

    pub fn hand_cards(&self, p: u8) -> Vec<Card> {
        mask_cards(self.hands[usize::from(p)])
    }

    pub fn hand_size(&self, p: u8) -> usize {
        self.hands[usize::from(p)].count_ones() as usize
    }

    /// The count of a player's hand (TK-3.2).
    pub fn count(&self, p: u8) -> u32 {
        self.cfg.count(self.hands[usize::from(p)])
    }

    pub fn stock_size(&self) -> usize {
        self.stock.len()
    }

    /// The stock, top card last (hidden information).
    pub fn stock(&self) -> &[Card] {
        &self.stock
    }

    /// The discard pile, bottom card first.
    pub fn discard_pile(&self) -> &[Card] {
        &self.pile
    }

    pub fn top_discard(&self) -> Option<Card> {
        self.pile.last().copied()
    }

    /// All spreads laid this hand, by id (cleared ones flagged).
    pub fn spreads(&self) -> &[Spread] {
        &self.spreads
    }

    pub fn lock(&self, p: u8) -> u8 {
        self.lock[usize::from(p)]
    }

    /// Cards `p` has drawn from the stock this hand (public).
    pub fn stock_draws(&self, p: u8) -> u8 {
        self.stock_draws[usize::from(p)]
    }

    /// True when the turn player was locked at the start of this turn.
    pub fn turn_locked(&self) -> bool {
        self.turn.locked
    }

    /// Cards of `p`'s hand that every player knows.
    pub fn known_cards(&self, p: u8) -> u64 {
        self.known[usize::from(p)] & self.hands[usize::from(p)]
    }

    pub fn spades_decided(&self) -> u8 {
        self.spades_decided
    }

    pub fn spade_shown(&self, p: u8) -> Option<Card> {
        self.spades_shown[usize::from(p)]
    }

    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    /// The hand's settlement (TK-10), in units of the basic stake.
    pub fn settlement(&self) -> &[Transfer] {
        &self.transfers
    }

    /// The spades side bet's settlement (TK-11.3).
    pub fn side_bet_settlement(&self) -> &[Transfer] {
        &self.side_transfers
    }

    /// Hands shown at the end (bitmask).
    pub fn shown_hands(&self) -> u8 {
        self.shown
    }

    /// The turn player could claim a 49 now (TK-5.4 `forty_nine_in_turn`):
    /// at the start of their first turn, and under `any_time` in their own
    /// slot of the drop window that opens that turn, which comes first, so
    /// nobody can drop before the claim.
    pub(super) fn can_claim_49(&self) -> bool {
        if self.cfg.deal_wins != DealWins::FortyNineInTurn {
            return false;
        }
        let p = self.turn_player;
        let at_start = match self.phase {
            Phase::TurnStart => true,
            Phase::Window => {
                self.current == p && self.window.is_some_and(|w| w.resume == Phase::TurnStart)
            }
            _ => false,
        };
        at_start && self.had_turn & (1 << p) == 0 && self.dealt[usize::from(p)] == 49
    }

    /// May `p` drop at this decision (TK-6.3, TK-6.8, TK-8.4, TK-6.10)?
    pub(super) fn may_drop(&self) -> bool {
        // TK-6.10: a drop ends the hand, so the taker may not drop before
        // the taken card is used (in the turn, or in its own slot of a drop
        // window within the turn); other players in that window still may.
        if self.current == self.turn_player && self.unused_pickup().is_some() {
            return false;
        }
        match (self.cfg.drop_timing, self.phase) {
            (DropTiming::AnyTime, Phase::Window) => true,
            (DropTiming::AnyTime, _) => false,
            (_, Phase::TurnStart) => !self.turn.locked,
            (DropTiming::OwnTurnAnyPhase, Phase::Play) => !self.turn.locked,
            _ => false,
        }
    }

    /// Legal actions, sorted (empty once the hand is over).
    pub fn legal_actions(&self) -> Vec<u16> {
        let mut out = Vec::with_capacity(24);
        self.legal_actions_into(&mut out);
        out
    }

    pub fn legal_actions_into(&self, out: &mut Vec<u16>) {
        out.clear();
        let p = usize::from(self.current);
        match self.phase {
            Phase::Over => {}
            Phase::Spades => {
                out.push(action::SPADES_IN);
                out.push(action::SPADES_OUT);
            }
            Phase::Window => {
                if self.may_drop() {
                    out.push(action::DROP);
                }
                out.push(action::PASS);
                if self.can_claim_49() {
                    out.push(action::CLAIM_49);
                }
            }
            Phase::TurnStart => {
                // TK-10.4: with an empty stock, "draw" ends the hand.
                out.push(action::DRAW_STOCK);
                if self.may_take_discard() {
                    out.push(action::TAKE_DISCARD);
                }
                if self.may_drop() {
                    out.push(action::DROP);
                }
                if self.can_claim_49() {
                    out.push(action::CLAIM_49);
                }
            }
            Phase::Play => {
                let hand = self.hands[p];
                for c in mask_cards(hand) {
                    if self.may_discard(c) {
                        out.push(action::DISCARD_BASE + u16::from(c.code()));
                    }
                }
                if self.may_drop() {
                    out.push(action::DROP);
                }
                let pickup = self.pending_pickup().is_some();
                spreads_in(hand, self.cfg.aces_high, |i| {
                    if !pickup || self.keeps_pickup_usable(Action::LaySpread(i)) {
                        out.push(action::LAY_BASE + i);
                    }
                });
                if self.hits_allowed() {
                    for s in &self.spreads {
                        let mut m = hand;
                        while m != 0 {
                            let code = m.trailing_zeros() as u8;
                            m &= m - 1;
                            let card = Card::of_code(code);
                            if s.accepts(card, &self.cfg)
                                && (!pickup
                                    || self.keeps_pickup_usable(Action::Hit { spread: s.id, card }))
                            {
                                out.push(action::HIT_BASE + u16::from(s.id) * 52 + u16::from(code));
                            }
                        }
                    }
                }
            }
        }
        out.sort_unstable();
    }

    pub(super) fn hits_allowed(&self) -> bool {
        self.cfg
            .max_hits_per_turn
            .is_none_or(|m| self.turn.hits < m)
    }

    /// Whether an action is legal now, without listing every legal action.
    pub fn is_legal(&self, a: u16) -> bool {
        Action::decode(a).is_ok_and(|act| self.is_legal_action(act))
    }

    /// [`TonkState::is_legal`] of a decoded action.
    pub fn is_legal_action(&self, act: Action) -> bool {
        let hand = self.hands[usize::from(self.current)];
        match (self.phase, act) {
            (Phase::Over, _) => false,
            (Phase::Spades, Action::SpadesIn | Action::SpadesOut) => true,
            (Phase::Window, Action::Pass) => true,
            (Phase::Window, Action::Drop) => self.may_drop(),
            (Phase::Window, Action::Claim49) => self.can_claim_49(),
            (Phase::TurnStart, Action::DrawStock) => true,
            (Phase::TurnStart, Action::TakeDiscard) => self.may_take_discard(),
            (Phase::TurnStart | Phase::Play, Action::Drop) => self.may_drop(),
            (Phase::TurnStart, Action::Claim49) => self.can_claim_49(),
            (Phase::Play, Action::Discard(c)) => self.may_discard(c),
            (Phase::Play, Action::LaySpread(i)) => {
                let sh = spread_catalogue()[usize::from(i)];
                sh.mask & !hand == 0
                    && (sh.hi != 14 || self.cfg.aces_high)
                    && self.keeps_pickup_usable(act)
            }
            (Phase::Play, Action::Hit { spread, card }) => {
                self.hits_allowed()
                    && hand & card_bit(card) != 0
                    && self
                        .spreads
                        .get(usize::from(spread))
                        .is_some_and(|s| s.accepts(card, &self.cfg))
                    && self.keeps_pickup_usable(act)
            }
            _ => false,
        }
    }

    pub(super) fn may_take_discard(&self) -> bool {
        let Some(&top) = self.pile.last() else {
            return false;
        };
        // TK-6.10: the card may be taken only if it can be used this turn.
        !self.cfg.discard_pickup_must_be_used
            || can_still_use(
                top,
                self.hands[usize::from(self.current)] | card_bit(top),
                &self.spreads,
                self.hits_left(),
                &self.cfg,
            )
    }

    /// Hits the turn may still make (TK-6.10 `max_hits_per_turn`).
    pub(super) fn hits_left(&self) -> u8 {
        self.cfg
            .max_hits_per_turn
            .map_or(u8::MAX, |m| m.saturating_sub(self.turn.hits))
    }

    /// The card taken from the discard pile this turn that must still be
    /// put down before the discard (TK-6.10 `discard_pickup_must_be_used`).
    #[inline]
    pub(super) fn pending_pickup(&self) -> Option<Card> {
        if !self.cfg.discard_pickup_must_be_used || self.phase != Phase::Play {
            return None;
        }
        let t = self.turn.took?;
        (self.hands[usize::from(self.current)] & card_bit(t) != 0).then_some(t)
    }

    /// The card taken from the discard pile this turn that the turn player
    /// still holds (TK-6.10), in any phase of the turn, its drop windows
    /// included (`pending_pickup` is the same, in the play phase only).
    pub(super) fn unused_pickup(&self) -> Option<Card> {
        if !self.cfg.discard_pickup_must_be_used || self.phase == Phase::Over {
            return None;
        }
        let t = self.turn.took?;
        (self.hands[usize::from(self.turn_player)] & card_bit(t) != 0).then_some(t)
    }

    /// TK-6.10 enforcement: with a pickup pending, a lay or hit is legal only
    /// if it uses the card or leaves it usable this turn, so the turn always
    /// has a way to use it and then to discard.
    #[inline]
    pub(super) fn keeps_pickup_usable(&self, act: Action) -> bool {
        match self.pending_pickup() {
            None => true,
            Some(t) => self.keeps_usable(t, act),
        }
    }

    /// The search behind [`TonkState::keeps_pickup_usable`] (off the hot path).
    #[inline(never)]
    pub(super) fn keeps_usable(&self, t: Card, act: Action) -> bool {
        let hand = self.hands[usize::from(self.current)];
        match act {
            Action::LaySpread(i) => {
                let shape = spread_catalogue()[usize::from(i)];
                if shape.mask & card_bit(t) != 0 {
                    return true;
                }
                let mut table = self.spreads.clone();
                table.push(shape.laid(table.len() as u8, self.current));
                can_still_use(t, hand & !shape.mask, &table, self.hits_left(), &self.cfg)
            }
            Action::Hit { spread, card } => {
                if card == t {
                    return true;
                }
                let mut table = self.spreads.clone();
                if let Some(s) = table.get_mut(usize::from(spread)) {
                    s.add(card);
                }
                can_still_use(
                    t,
                    hand & !card_bit(card),
                    &table,
                    self.hits_left().saturating_sub(1),
                    &self.cfg,
                )
            }
            // The discard waits until the card is used (`may_discard`).
            _ => true,
        }
    }

    pub(super) fn may_discard(&self, c: Card) -> bool {
        let p = usize::from(self.current);
        let bit = card_bit(c);
        if self.hands[p] & bit == 0 {
            return false;
        }
        // TK-6.9 (engine decision): the card just taken may not be discarded,
        // unless it is the only card left (a discard is compulsory).
        if self.cfg.forbid_rediscard && self.turn.took == Some(c) && self.hands[p].count_ones() > 1
        {
            return false;
        }
        // TK-6.10: the turn's discard waits until the taken card is used.
        if self.pending_pickup().is_some() {
            return false;
        }
        if self.cfg.must_spread && holds_spread(self.hands[p] & !bit, &self.cfg) {
            return false;
        }
        true
    }

    // ----- transitions -------------------------------------------------------

    /// Applies an action; an illegal one is an error and changes nothing.
    pub fn apply_action(&mut self, a: u16) -> Result<()> {
        if self.is_terminal() {
            return Err(CoreError::GameOver);
        }
        let act = Action::decode(a)?;
        if !self.is_legal_action(act) {
            let why = self
                .refusal(act)
                .unwrap_or_else(|| engine::Refusal::new("TK-13", "no rule allows it now"));
            return Err(CoreError::IllegalAction(format!(
                "{act} is not legal now: {why}"
            )));
        }
        self.history.push(a);
        self.apply_unchecked(act);
        Ok(())
    }

    /// Applies an action already known to be legal (bots and replays).
    pub(crate) fn apply_unchecked(&mut self, act: Action) {
        let p = self.current;
        let pu = usize::from(p);
        match act {
            Action::SpadesIn | Action::SpadesOut => {
                self.spades_decided |= 1 << p;
                if act == Action::SpadesIn {
                    self.spades_in |= 1 << p;
                }
                if self.spades_decided.count_ones() == u32::from(self.n()) {
                    self.settle_spades();
                    self.after_pre_play();
                } else {
                    self.current = self.left_of(p);
                }
            }
            Action::Pass => {
                // TK-5.4: passing the window that opens one's first turn lets
                // the 49 claim lapse (the claim comes before that window).
                if self.can_claim_49() {
                    self.had_turn |= 1 << p;
                }
                self.window_next();
            }
            Action::Drop => self.settle_drop(p),
            Action::Claim49 => {
                self.had_turn |= 1 << p;
                let t = self.everyone_pays(
                    p,
                    2,
                    "claimed a dealt 49 at the first turn (TK-5.4 forty_nine_in_turn)",
                );
                self.finish(Ending::DealWin { player: p, paid: 2 }, t, 1 << p);
            }
            Action::DrawStock => {
                self.had_turn |= 1 << p;
                match self.stock.pop() {
                    None => self.settle_stock_out(false),
                    Some(c) => {
                        self.hands[pu] |= card_bit(c);
                        self.stock_draws[pu] = self.stock_draws[pu].saturating_add(1);
                        self.turn.drew_stock = true;
                        self.phase = Phase::Play;
                        self.open_window_or(Phase::Play);
                    }
                }
            }
            Action::TakeDiscard => {
                self.had_turn |= 1 << p;
                if let Some(c) = self.pile.pop() {
                    self.hands[pu] |= card_bit(c);
                    self.known[pu] |= card_bit(c);
                    self.turn.took = Some(c);
                }
                self.phase = Phase::Play;
                self.open_window_or(Phase::Play);
            }
            Action::LaySpread(i) => {
                let shape = spread_catalogue()[usize::from(i)];
                self.hands[pu] &= !shape.mask;
                self.known[pu] &= !shape.mask;
                self.spreads.push(shape.laid(self.spreads.len() as u8, p));
                self.turn.new_spreads += 1;
                self.turn.new_run |= shape.kind == MeldKind::Run;
                self.turn.put_down += shape.mask.count_ones() as u8;
                self.after_put_down();
            }
            Action::Hit { spread, card } => {
                let bit = card_bit(card);
                self.hands[pu] &= !bit;
                self.known[pu] &= !bit;
                let s = &mut self.spreads[usize::from(spread)];
                s.add(card);
                let owner = s.owner;
                if s.kind == MeldKind::Set && s.cards.count_ones() == 4 {
                    self.turn.completed_books |= 1 << spread;
                }
                // TK-8.4: hits on another player's spread lock that player.
                if owner != p && self.cfg.hit_lock_per_hit > 0 {
                    let ou = usize::from(owner);
                    match self.cfg.hit_lock_unit {
                        LockUnit::PerCard => {
                            self.lock[ou] = self.lock[ou].saturating_add(self.cfg.hit_lock_per_hit);
                        }
                        LockUnit::PerTurn => {
                            if self.turn.locked_owners & (1 << owner) == 0 {
                                self.turn.locked_owners |= 1 << owner;
                                self.lock[ou] =
                                    self.lock[ou].saturating_add(self.cfg.hit_lock_per_hit);
                            }
                        }
                    }
                }
                self.turn.hits += 1;
                self.turn.put_down += 1;
                self.after_put_down();
            }
            Action::Discard(c) => {
                let bit = card_bit(c);
                self.hands[pu] &= !bit;
                self.known[pu] &= !bit;
                self.pile.push(c);
                if self.hands[pu] == 0 {
                    // TK-10.2
                    let t = self.everyone_pays(p, 1, "out by discard (TK-10.2)");
                    self.finish(Ending::OutByDiscard { player: p }, t, 0);
                } else {
                    self.end_turn();
                }
            }
        }
    }

    /// After a spread or a hit: tonk out when the hand is empty (TK-6.6).
    pub(super) fn after_put_down(&mut self) {
        let p = self.current;
        if self.hands[usize::from(p)] == 0 {
            self.settle_tonk_out(p);
        } else {
            self.open_window_or(Phase::Play);
        }
    }

    pub(super) fn end_turn(&mut self) {
        let p = self.turn_player;
        // TK-9.3: books completed by a hit this turn go under the discard pile.
        if self.cfg.clear_completed_books && self.turn.completed_books != 0 {
            let mut under: Vec<Card> = Vec::new();
            for s in &mut self.spreads {
                if self.turn.completed_books & (1 << s.id) != 0 && !s.cleared {
                    s.cleared = true;
                    under.extend(mask_cards(s.cards));
                }
            }
            under.extend(self.pile.iter().copied());
            self.pile = under;
        }
        // TK-10.4 `immediately`: the turn that drew the last stock card ends the hand.
        if self.stock.is_empty() && self.cfg.stock_out_end == StockOutEnd::Immediately {
            self.settle_stock_out(false);
            return;
        }
        // TK-10.7: players may keep taking each other's discards forever;
        // `max_idle_rounds` full rounds of turns with no stock draw and no
        // card put down end the hand, settled as a stock out.
        if self.turn.drew_stock || self.turn.put_down > 0 {
            self.idle_turns = 0;
        } else {
            self.idle_turns += 1;
            if self.idle_turns >= u32::from(self.cfg.max_idle_rounds) * u32::from(self.n()) {
                self.settle_stock_out(true);
                return;
            }
        }
        self.turn_player = self.left_of(p);
        // Until the next turn begins, `turn` describes no turn of the new
        // turn player's: it is not locked (a locked player sits out windows).
        self.turn = Turn::default();
        self.open_window_or(Phase::TurnStart);
    }

    /// Starts the turn player's turn (TK-6.2) and applies the hit lock (TK-8.4).
    pub(super) fn begin_turn(&mut self) {
        let p = self.turn_player;
        let pu = usize::from(p);
        self.turn = Turn {
            started_full: self.hands[pu].count_ones() == u32::from(self.cfg.hand_size),
            locked: self.lock[pu] > 0,
            ..Turn::default()
        };
        if self.turn.locked {
            self.lock[pu] -= 1;
        }
        self.phase = Phase::TurnStart;
        self.current = p;
    }

    /// Under `any_time`, opens a drop window (TK-6.8) before `resume`;
    /// otherwise goes straight there.
    pub(super) fn open_window_or(&mut self, resume: Phase) {
        if self.cfg.drop_timing == DropTiming::AnyTime {
            let mut order = [0u8; MAX_PLAYERS];
            let mut len = 0;
            let start = self.turn_player;
            for k in 0..self.n() {
                let q = (start + k) % self.n();
                let locked_now = self.lock[usize::from(q)] > 0
                    || (q == self.turn_player && resume == Phase::Play && self.turn.locked);
                if !locked_now {
                    order[len] = q;
                    len += 1;
                }
            }
            if len > 0 {
                self.window = Some(Window {
                    order,
                    len: len as u8,
                    pos: 0,
                    resume,
                });
                self.phase = Phase::Window;
                self.current = order[0];
                return;
            }
        }
        self.resume(resume);
    }

    pub(super) fn resume(&mut self, phase: Phase) {
        self.window = None;
        match phase {
            Phase::TurnStart => self.begin_turn(),
            _ => {
                self.phase = Phase::Play;
                self.current = self.turn_player;
            }
        }
    }

    pub(super) fn window_next(&mut self) {
        let Some(mut w) = self.window else { return };
        w.pos += 1;
        if w.pos >= w.len {
            self.resume(w.resume);
        } else {
            self.current = w.order[usize::from(w.pos)];
            self.window = Some(w);
        }
    }
}

/// Can `card` (in `hand`) still go into a spread or a hit this turn, with
/// `table` on the table and `hits_left` hits to make (TK-6.10)? Exact: a
/// spread laid from the hand needs no hit, and any spread the card could hit
/// after laying others is itself a spread of the hand; otherwise the card
/// hits a table spread, a run first extended towards it by hand cards, one
/// hit each.
pub(super) fn can_still_use(
    card: Card,
    hand: u64,
    table: &[Spread],
    hits_left: u8,
    cfg: &TonkConfig,
) -> bool {
    let mut in_spread = false;
    spreads_in(hand, cfg.aces_high, |i| {
        in_spread |= spread_catalogue()[usize::from(i)].mask & card_bit(card) != 0;
    });
    if in_spread {
        return true;
    }
    if hits_left == 0 {
        return false;
    }
    table.iter().filter(|s| !s.cleared).any(|s| {
        if s.accepts(card, cfg) {
            return true;
        }
        if s.kind != MeldKind::Run || s.suit != card.suit_index() {
            return false;
        }
        // Extend the run one end at a time with the hand's next cards.
        [true, false].into_iter().any(|upwards| {
            let mut run = *s;
            for _ in 1..hits_left {
                let next = if upwards {
                    match run.hi {
                        13 if cfg.aces_high && run.lo > 1 => Card::of(1, run.suit),
                        hi if hi < 13 => Card::of(hi + 1, run.suit),
                        _ => return false,
                    }
                } else if run.lo >= 2 {
                    Card::of(run.lo - 1, run.suit)
                } else {
                    return false;
                };
                if next == card || hand & card_bit(next) == 0 || !run.accepts(next, cfg) {
                    return false;
                }
                run.add(next);
                if run.accepts(card, cfg) {
                    return true;
                }
            }
            false
        })
    })
}

/// Does the hand hold a valid book or run (TK-7.6 enforcement)? A book made
/// only of aces is allowed with `must_spread_aces_exempt`.
pub(super) fn holds_spread(hand: u64, cfg: &TonkConfig) -> bool {
    held_spread(hand, cfg).is_some()
}

impl engine::TurnBased for TonkState {
    /// Turns go clockwise from the dealer's left (TK-6.1); drop windows and
    /// the spades bet ask each seat in turn (TK-6.8, TK-11.3).
    const TURN_RULE: &'static str = "TK-6.1";

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

    fn refusal_now(&self, action: u16) -> Option<engine::Refusal> {
        match Action::decode(action) {
            Ok(act) => self.refusal(act),
            Err(e) => Some(engine::Refusal::new("TK-13", e.to_string())),
        }
    }
}

impl engine::State for TonkState {
    type View = TonkView;
    type SeatView<'a> = TonkSeatView<'a>;

    fn seat_view(&self, seat: u8) -> TonkSeatView<'_> {
        TonkSeatView::new(self, seat)
    }

    crate::turn_based!();

    /// Taking the discard names the card on top (TK-4.6).
    fn describe_action(&self, _seat: u8, action: u16) -> Result<engine::ActionInfo> {
        let act = Action::decode(action)?;
        Ok(match act {
            Action::TakeDiscard => act.describe().cards(self.discard_pile().last().copied()),
            _ => act.describe(),
        })
    }

    fn can_take_back(&self, action: u16) -> bool {
        Action::decode(action).is_ok_and(|act| TonkState::can_take_back(self, act))
    }

    /// Everything `seat` may see (never a card hidden from it).
    fn view(&self, seat: u8) -> TonkView {
        let n = self.n();
        let s = usize::from(seat);
        let over = self.is_terminal();
        TonkView {
            seat,
            players: n,
            dealer: self.dealer,
            phase: self.phase,
            current_player: self.current_player(),
            turn_player: self.turn_player,
            hand: mask_cards(self.hands[s]),
            hand_sizes: (0..n).map(|p| self.hand_size(p) as u8).collect(),
            discard_pile: self.pile.clone(),
            stock_size: self.stock.len(),
            spreads: self
                .spreads
                .iter()
                .filter(|x| !x.cleared)
                .copied()
                .collect(),
            locks: (0..n).map(|p| self.lock(p)).collect(),
            turn_locked: self.turn.locked,
            stock_draws: (0..n).map(|p| self.stock_draws(p)).collect(),
            known_cards: (0..n)
                .map(|p| {
                    if p == seat {
                        Vec::new()
                    } else {
                        mask_cards(self.known_cards(p))
                    }
                })
                .collect(),
            spades_in: self.spades_in,
            spades_shown: (0..n).map(|p| self.spades_shown[usize::from(p)]).collect(),
            shown_hands: (0..n)
                .map(|p| {
                    (over && self.shown & (1 << p) != 0)
                        .then(|| mask_cards(self.hands[usize::from(p)]))
                })
                .collect(),
            ending: self.ending,
            returns: if over { Some(self.returns()) } else { None },
            legal_actions: if self.current_player() == Some(seat) {
                self.legal_actions()
            } else {
                Vec::new()
            },
        }
    }

    /// A flat observation for learning code, from `seat`'s point of view
    /// (seats relative to it: 0 is itself). Layout, in order:
    /// own hand (52); top discard (52); whole discard pile (52); cards in
    /// spreads owned by each relative seat (52 each); cards known in each
    /// opponent's hand (52 each); hand sizes / (hand_size + 1), locks / 3 (capped),
    /// spades shown (1 if any) per relative seat; stock size / 52; phase
    /// one-hot (spades, window, turn start, play, over); 1 if `seat` decides.
    fn observation(&self, seat: u8) -> Vec<f32> {
        let mut o = vec![0f32; Self::observation_size(usize::from(self.n()))];
        self.write_observation(seat, &mut o);
        o
    }

    /// [`TonkState::observation`] written into `o` (of its size, any
    /// content before).
    fn write_observation(&self, seat: u8, o: &mut [f32]) {
        let n = usize::from(self.n());
        o.fill(0.0);
        let set = |o: &mut [f32], base: usize, mask: u64| {
            let mut m = mask;
            while m != 0 {
                o[base + m.trailing_zeros() as usize] = 1.0;
                m &= m - 1;
            }
        };
        set(o, 0, self.hands[usize::from(seat)]);
        if let Some(t) = self.top_discard() {
            o[52 + usize::from(t.code())] = 1.0;
        }
        let pile = self.pile.iter().fold(0u64, |m, c| m | card_bit(*c));
        set(o, 104, pile);
        let rel = |k: usize| ((usize::from(seat) + k) % n) as u8;
        let mut base = 156;
        for k in 0..n {
            let owner = rel(k);
            let m = self
                .spreads
                .iter()
                .filter(|s| s.owner == owner && !s.cleared)
                .fold(0u64, |m, s| m | s.cards);
            set(o, base, m);
            base += 52;
        }
        for k in 1..n {
            set(o, base, self.known_cards(rel(k)));
            base += 52;
        }
        for k in 0..n {
            let p = rel(k);
            // A hand never holds more than the deal plus one drawn card.
            o[base] = self.hand_size(p) as f32 / f32::from(self.cfg.hand_size + 1);
            o[base + 1] = f32::from(self.lock(p).min(3)) / 3.0;
            o[base + 2] = if self.spades_shown[usize::from(p)].is_some() {
                1.0
            } else {
                0.0
            };
            base += 3;
        }
        o[base] = self.stock.len() as f32 / 52.0;
        base += 1;
        let ph = match self.phase {
            Phase::Spades => 0,
            Phase::Window => 1,
            Phase::TurnStart => 2,
            Phase::Play => 3,
            Phase::Over => 4,
        };
        o[base + ph] = 1.0;
        base += 5;
        o[base] = if self.current_player() == Some(seat) {
            1.0
        } else {
            0.0
        };
    }

    /// A state that `seat` cannot tell apart from this one: the cards hidden
    /// from it (other hands except their known cards, and the stock) dealt
    /// again at random, consistent with what it saw (no immediate deal-time
    /// win for players who have not played; shown highest spades). Used by
    /// the Monte Carlo bot and by the leak tests.
    fn determinize(&self, seat: u8, rng: &mut GameRng) -> Self {
        self.determinize_biased(seat, rng, &[0; MAX_PLAYERS])
    }

    /// Net stake won by each player (all transfers times the basic stake),
    /// zero-sum. Zero until the hand is over (apart from a settled side bet).
    fn returns(&self) -> Vec<i64> {
        let mut r = vec![0i64; usize::from(self.n())];
        for t in self.transfers.iter().chain(&self.side_transfers) {
            // A u32 of stakes times a stake of at most 10^6 fits an i64.
            let a = self.cfg.money(i64::from(t.amount)).unwrap_or(i64::MAX);
            r[usize::from(t.payer)] -= a;
            r[usize::from(t.payee)] += a;
        }
        r
    }

    fn ending(&self) -> Option<&'static str> {
        self.ending.map(|e| e.category())
    }

    fn history(&self) -> &[u16] {
        &self.history
    }

    fn dealer(&self) -> u8 {
        self.dealer
    }

    fn deal_source(&self) -> engine::DealSource {
        if self.is_resampled() {
            engine::DealSource::Unrecordable
        } else if let Some(deck) = self.stacked_deck() {
            engine::DealSource::Deck(deck.to_vec())
        } else {
            engine::DealSource::Seed(self.seed())
        }
    }

    fn audit(&self) -> std::result::Result<(), String> {
        if self.card_locations_ok() {
            Ok(())
        } else {
            Err("a card is missing or in two places".into())
        }
    }

    fn fingerprint(&self) -> u64 {
        let mut h = engine::Fingerprint::default();
        for p in 0..self.cfg.players {
            h.u64(self.hands[usize::from(p)])
                .u64(u64::from(self.lock[usize::from(p)]));
        }
        let cards = |h: &mut engine::Fingerprint, cards: &[Card]| {
            h.u64(cards.len() as u64);
            for c in cards {
                h.bytes(&[c.code()]);
            }
        };
        cards(&mut h, &self.stock);
        cards(&mut h, &self.pile);
        for s in &self.spreads {
            h.bytes(&[s.owner, s.lo, s.hi, u8::from(s.cleared)])
                .u64(s.cards);
        }
        h.bytes(&[self.current, self.turn_player, self.phase as u8]);
        h.bytes(self.ending.map_or("", |e| e.category()).as_bytes());
        for t in self.transfers.iter().chain(&self.side_transfers) {
            h.bytes(&[t.payer, t.payee]).u64(u64::from(t.amount));
        }
        h.finish()
    }
}
