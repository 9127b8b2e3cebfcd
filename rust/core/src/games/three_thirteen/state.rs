//! The game's state machine: rounds, deals, turns, the last turns after
//! someone goes out, scoring and the score sheet (TT-2 … TT-10).

use std::cell::RefCell;

use super::*;
use crate::engine::Refusal;
use crate::meld::{classify, Solver};

thread_local! {
    /// One solver per thread: its scratch buffers are reused by every state.
    static SOLVER: RefCell<Solver> = RefCell::new(Solver::new());
}

/// Runs `f` with this thread's solver (never re-entered).
pub(super) fn with_solver<T>(f: impl FnOnce(&mut Solver) -> T) -> T {
    SOLVER.with(|s| f(&mut s.borrow_mut()))
}

/// The value of every card of a hand unmelded: the solver's bound, used
/// only should the solver refuse a hand (it never does for dealt hands).
fn face_total(hand: &[Card], rules: &MeldRules) -> u32 {
    let rr = resolved(rules);
    hand.iter().map(|&c| u32::from(rr.value(c))).sum()
}

/// Rules with the round's wild rank settled.
pub(super) fn resolved(rules: &MeldRules) -> ResolvedRules {
    let wild = match rules.wild {
        crate::meld::WildRank::Fixed(r) => Some(r),
        _ => None,
    };
    ResolvedRules::fixed(*rules, wild)
}

/// Whether two or more natural cards of `hand` fit in no meld, even with
/// every wild card of the hand beside them: then no discard leaves the rest
/// of the hand melded (TT-6.1), and the solver need not be asked. The test
/// is relaxed (books of any cards of a rank, runs that wrap round the ace,
/// no wild limit), so it never says so of a hand that could go out.
fn two_cards_fit_no_meld(hand: &[Card], rules: &ResolvedRules) -> bool {
    let mut wilds = 0u32;
    let mut of_rank = [0u32; 14];
    let mut held = [[false; 14]; 4]; // [suit][rank]
    for &c in hand {
        match c.suit() {
            Some(suit) if !rules.is_wild(c) => {
                of_rank[usize::from(c.rank())] += 1;
                held[usize::from(suit.index())][usize::from(c.rank())] = true;
            }
            _ => wilds += 1,
        }
    }
    if wilds >= 2 {
        return false; // any card and two wild cards: a book
    }
    let mut loose = 0;
    for &c in hand {
        let Some(suit) = c.suit().filter(|_| !rules.is_wild(c)) else {
            continue;
        };
        let rank = i32::from(c.rank());
        if of_rank[usize::from(c.rank())] - 1 + wilds >= 2 {
            continue; // a book
        }
        let suit = &held[usize::from(suit.index())];
        // Rank `rank + k`, wrapping round (A follows K).
        let missing = |k: i32| u32::from(!suit[((rank - 1 + k).rem_euclid(13) + 1) as usize]);
        let in_run = [(-2, -1), (-1, 1), (1, 2)]
            .iter()
            .any(|&(a, b)| missing(a) + missing(b) <= wilds);
        if !in_run {
            loose += 1;
            if loose == 2 {
                return true;
            }
        }
    }
    false
}

/// Minimum deadwood of a hand (TT-7.1).
pub(super) fn deadwood(hand: &[Card], rules: &MeldRules) -> u32 {
    with_solver(|s| s.deadwood(hand, rules)).unwrap_or_else(|_| face_total(hand, rules))
}

/// The solver's arrangement of a hand (TT-7.1).
pub(super) fn arrange(hand: &[Card], rules: &MeldRules) -> Arrangement {
    match with_solver(|s| s.solve(hand, rules)) {
        Ok(sol) => Arrangement::of(&sol),
        Err(_) => Arrangement {
            melds: Vec::new(),
            unmatched: hand.to_vec(),
            deadwood: face_total(hand, rules),
            discard: None,
        },
    }
}

/// The solver's best discard of a hand holding the drawn card.
pub(super) fn arrange_with_discard(hand: &[Card], rules: &MeldRules) -> Option<Arrangement> {
    with_solver(|s| s.best_discard(hand, rules))
        .ok()
        .map(|sol| Arrangement::of(&sol))
}

/// Removes one copy of `c` from a sorted hand; false when it holds none.
pub(super) fn remove_one(hand: &mut Vec<Card>, c: Card) -> bool {
    match hand.iter().position(|&h| h == c) {
        Some(i) => {
            hand.remove(i);
            true
        }
        None => false,
    }
}

/// Inserts `c` into a sorted hand.
pub(super) fn insert_sorted(hand: &mut Vec<Card>, c: Card) {
    let i = hand.partition_point(|&h| h <= c);
    hand.insert(i, c);
}

/// The minimum deadwood of `hand` without one `c` (`u32::MAX` if it holds none).
pub(super) fn deadwood_without(hand: &[Card], c: Card, rules: &MeldRules) -> u32 {
    let mut h = hand.to_vec();
    if remove_one(&mut h, c) {
        deadwood(&h, rules)
    } else {
        u32::MAX
    }
}

/// The wild limit per meld in words (TT-5.3).
pub(super) fn wild_limit_text(rules: &MeldRules) -> String {
    if rules.max_wilds == crate::meld::UNLIMITED {
        "any number of".to_string()
    } else {
        rules.max_wilds.to_string()
    }
}

/// A solver arrangement: melds, unmatched cards, their value and the discard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arrangement {
    pub melds: Vec<Meld>,
    pub unmatched: Vec<Card>,
    pub deadwood: u32,
    /// The best discard, for a hand holding the drawn card.
    pub discard: Option<Card>,
}

impl Arrangement {
    fn of(sol: &crate::meld::Solution) -> Arrangement {
        Arrangement {
            melds: sol.melds(),
            unmatched: sol.unmatched().to_vec(),
            deadwood: sol.deadwood,
            discard: sol.discard(),
        }
    }
}

/// Where a turn is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Draw from the stock or take the top discard (TT-3.4).
    Draw,
    /// Discard, go out, gift a joker; table and lay off in a redemption last turn.
    Discard,
    /// Every round is played.
    Over,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Draw => "draw",
            Phase::Discard => "discard",
            Phase::Over => "over",
        }
    }
}

/// A meld on the table (TT-10.6).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TabledMeld {
    /// Who tabled it.
    pub owner: u8,
    pub meld: Meld,
}

/// How a round ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RoundEnd {
    /// Someone went out and the others had their last turn (TT-6).
    Out { player: u8 },
    /// The stock ran out once more after `max_restocks` rebuilds, or there
    /// was nothing left to draw (TT-9.3).
    StockGuard,
    /// Too many turns without a stock draw (the stall guard, TT-9.3 extended).
    Stalled,
}

impl RoundEnd {
    pub fn name(self) -> &'static str {
        match self {
            RoundEnd::Out { .. } => "out",
            RoundEnd::StockGuard => "stock_guard",
            RoundEnd::Stalled => "stalled",
        }
    }
}

/// One seat's result of a finished round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatResult {
    /// The final hand (without tabled cards).
    pub hand: Vec<Card>,
    /// The solver's arrangement of it (TT-7.1).
    pub melds: Vec<Meld>,
    pub unmatched: Vec<Card>,
    pub deadwood: u32,
    /// Invalid go-out declarations this round (TT-10.9).
    pub false_outs: u32,
    /// The round score: deadwood (doubled in J/Q/K rounds) plus 20 per false out.
    pub points: i64,
}

/// A finished round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundResult {
    /// Index into the schedule.
    pub round: u8,
    pub cards: u8,
    pub wild: Rank,
    pub dealer: u8,
    pub end: RoundEnd,
    /// Whether the round's penalties were doubled (TT-10.7).
    pub doubled: bool,
    pub tabled: Vec<TabledMeld>,
    pub seats: Vec<SeatResult>,
}

/// The immutable parameters of a game of Three Thirteen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThreeThirteenGame {
    pub config: ThreeThirteenConfig,
}

/// A whole game of Three Thirteen in progress: every round of the schedule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreeThirteenState {
    pub(super) cfg: ThreeThirteenConfig,
    pub(super) schedule: Schedule,
    pub(super) seed: u64,
    /// Hands given by a test, or hidden cards re-dealt: no seed replays it.
    pub(super) unrecordable: bool,
    pub(super) first_dealer: u8,
    /// Index of the round being played (into the schedule).
    pub(super) round: u8,
    pub(super) round_dealer: u8,
    /// The round's meld rules (wild rank fixed).
    pub(super) rules: MeldRules,
    pub(super) hands: Vec<Vec<Card>>,
    /// Top card last.
    pub(super) stock: Vec<Card>,
    /// Bottom first, top card last.
    pub(super) pile: Vec<Card>,
    pub(super) restocks: u8,
    pub(super) phase: Phase,
    pub(super) current: u8,
    /// The card taken from the discard pile this turn.
    pub(super) taken: Option<Card>,
    /// Cards each seat took from the discard pile and still holds (public).
    pub(super) known: Vec<Vec<Card>>,
    pub(super) out_player: Option<u8>,
    /// Last turns still to play after someone went out (TT-6.2), this one included.
    pub(super) last_turns_left: u8,
    pub(super) tabled: Vec<TabledMeld>,
    /// The cards the player to move has picked for the meld it is building
    /// in a redemption last turn (TT-10.6): still in its hand, sorted.
    pub(super) building: Vec<Card>,
    /// Jokers gifted into each seat's area this round (TT-10.4).
    pub(super) gifts: Vec<u8>,
    /// Invalid go-outs this round per seat (TT-10.9). A round has at most
    /// about `stock draws × (stall guard + 1)` turns, far below `u32::MAX`.
    pub(super) false_outs: Vec<u32>,
    /// Turns in a row without a stock draw (stall guard).
    pub(super) idle_turns: u32,
    /// Schedule index of the first row of the score sheet.
    pub(super) first_round: u8,
    /// Per finished round, per seat.
    pub(super) sheet: Vec<Vec<i64>>,
    pub(super) totals: Vec<i64>,
    pub(super) last_result: Option<Box<RoundResult>>,
    pub(super) history: Vec<u16>,
}

impl ThreeThirteenGame {
    /// A game of a configuration built by hand. Fields out of range are
    /// brought into range (players 2..=8, decks 1..=8, at most 2 extra
    /// rounds, at least one wild per meld) so no state can break;
    /// [`ThreeThirteenGame::from_options`] is the checked way in.
    pub fn new(config: ThreeThirteenConfig) -> ThreeThirteenGame {
        let mut c = config;
        c.players = c.players.clamp(2, MAX_PLAYERS as u8);
        c.extra_rounds = c.extra_rounds.min(2);
        c.max_wilds_per_meld = c.max_wilds_per_meld.max(1);
        if let Decks::Fixed(d) = c.decks_option {
            c.decks_option = Decks::Fixed(d.clamp(1, crate::deck::DeckSpec::MAX_DECKS));
        }
        c.resolve_decks();
        ThreeThirteenGame { config: c }
    }

    pub fn schedule(&self) -> Schedule {
        self.config.schedule()
    }

    /// The first dealer drawn from the seed (TT-3.1).
    pub fn draw_for_dealer(&self, seed: u64) -> u8 {
        let mut rng = GameRng::new(derive_seed(seed, STREAM_DEALER));
        rng.below(u32::from(self.config.players)) as u8
    }

    pub(super) fn check_dealer(&self, d: u8) -> Result<u8> {
        if d < self.config.players {
            Ok(d)
        } else {
            Err(CoreError::config(format!(
                "dealer must be a seat 0..{}, got {d}",
                self.config.players - 1
            )))
        }
    }
}

impl ThreeThirteenState {
    pub(super) fn empty(
        cfg: ThreeThirteenConfig,
        seed: u64,
        first_dealer: u8,
    ) -> ThreeThirteenState {
        let n = usize::from(cfg.players);
        let schedule = cfg.schedule();
        ThreeThirteenState {
            cfg,
            schedule,
            seed,
            unrecordable: false,
            first_dealer,
            round: 0,
            round_dealer: first_dealer,
            rules: cfg.meld_rules(3),
            hands: vec![Vec::with_capacity(16); n],
            stock: Vec::new(),
            pile: Vec::new(),
            restocks: 0,
            phase: Phase::Draw,
            current: 0,
            taken: None,
            known: vec![Vec::new(); n],
            out_player: None,
            last_turns_left: 0,
            tabled: Vec::new(),
            building: Vec::new(),
            gifts: vec![0; n],
            false_outs: vec![0; n],
            idle_turns: 0,
            first_round: 0,
            sheet: Vec::with_capacity(schedule.len()),
            totals: vec![0; n],
            last_result: None,
            history: Vec::with_capacity(512),
        }
    }

    pub(super) fn n(&self) -> u8 {
        self.cfg.players
    }

    pub(super) fn left_of(&self, p: u8) -> u8 {
        (p + 1) % self.n()
    }

    /// Sets up round `k` with nothing dealt: its dealer, rules, and a clean
    /// slate of per-round facts.
    pub(super) fn reset_round(&mut self, k: u8) -> RoundSpec {
        let n = usize::from(self.n());
        let spec = self
            .schedule
            .get(usize::from(k))
            .unwrap_or(RoundSpec { cards: 3, wild: 3 });
        self.round = k;
        self.round_dealer = ((usize::from(self.first_dealer) + usize::from(k)) % n) as u8;
        self.rules = self.cfg.meld_rules(spec.wild);
        self.restocks = 0;
        self.taken = None;
        for k in &mut self.known {
            k.clear();
        }
        self.out_player = None;
        self.last_turns_left = 0;
        self.tabled.clear();
        self.building.clear();
        self.gifts.iter_mut().for_each(|g| *g = 0);
        self.false_outs.iter_mut().for_each(|g| *g = 0);
        self.idle_turns = 0;
        spec
    }

    /// Deals round `k` (TT-3.1, TT-3.2) from `deck` (top first) or its seeded shuffle.
    pub(super) fn begin_round(&mut self, k: u8, deck: Option<&[Card]>) {
        let n = usize::from(self.n());
        let spec = self.reset_round(k);
        let cards: Vec<Card> = match deck {
            Some(d) => d.to_vec(),
            None => {
                let round_seed = derive_seed(derive_seed(self.seed, STREAM_DEAL), u64::from(k));
                self.cfg.deck().shuffled(round_seed)
            }
        };
        for h in &mut self.hands {
            h.clear();
        }
        let mut top = 0;
        for _ in 0..spec.cards {
            for j in 0..n {
                let p = (usize::from(self.round_dealer) + 1 + j) % n;
                if let Some(&c) = cards.get(top) {
                    self.hands[p].push(c);
                }
                top += 1;
            }
        }
        for h in &mut self.hands {
            h.sort_unstable();
        }
        self.pile.clear();
        if let Some(&c) = cards.get(top) {
            self.pile.push(c);
        }
        top += 1;
        self.stock.clear();
        if top < cards.len() {
            self.stock.extend(cards[top..].iter().rev());
        }
        // TT-3.3: the player left of the dealer plays first.
        let first = self.left_of(self.round_dealer);
        self.begin_turn(first);
    }

    /// Starts `p`'s turn, or ends the round when nothing can be drawn (TT-9.3).
    pub(super) fn begin_turn(&mut self, p: u8) {
        self.current = p;
        self.phase = Phase::Draw;
        self.taken = None;
        self.building.clear();
        if self.out_player.is_some() {
            // TT-6.2: after an out every other player has exactly one last
            // turn; the guards (TT-9.3) end only rounds nobody went out of.
            if self.stock.is_empty() && self.pile.is_empty() {
                // Nothing at all to draw (the pile emptied by a gifted
                // joker): the last turn passes with the hand as it is.
                self.end_turn();
            }
            return;
        }
        if self.idle_turns >= STALL_TURNS_PER_PLAYER * u32::from(self.n()) {
            self.end_round(RoundEnd::Stalled);
            return;
        }
        if self.stock.is_empty() && (self.restocks >= self.cfg.max_restocks || self.pile.is_empty())
        {
            self.end_round(RoundEnd::StockGuard);
        }
    }

    /// TT-9.1: every discard but the top one, shuffled (seeded) into a new stock.
    fn rebuild_stock(&mut self) {
        let Some(top) = self.pile.pop() else {
            return;
        };
        let mut cards = std::mem::take(&mut self.pile);
        let stream = u64::from(self.round) * 256 + u64::from(self.restocks);
        GameRng::new(derive_seed(derive_seed(self.seed, STREAM_RESTOCK), stream))
            .shuffle(&mut cards);
        self.stock = cards;
        self.pile.push(top);
        self.restocks += 1;
    }

    /// Removes a card from `p`'s hand in sight of everybody (a discard, a
    /// gift, a meld or a lay-off). Copies look alike (CM-4), so the others
    /// cannot tell a known copy from a hidden one: a known card of that code
    /// is forgotten either way, and `p` may hold another copy unseen.
    fn take_from_hand(&mut self, p: u8, c: Card) -> bool {
        let pu = usize::from(p);
        if !remove_one(&mut self.hands[pu], c) {
            return false;
        }
        remove_one(&mut self.known[pu], c);
        true
    }

    fn end_turn(&mut self) {
        if self.out_player.is_some() {
            self.last_turns_left = self.last_turns_left.saturating_sub(1);
            if self.last_turns_left == 0 {
                let player = self.out_player.unwrap_or(0);
                self.end_round(RoundEnd::Out { player });
                return;
            }
        }
        let next = self.left_of(self.current);
        self.begin_turn(next);
    }

    /// Scores the round (TT-6.3, TT-7, TT-10.7, TT-10.9) and deals the next one.
    pub(super) fn end_round(&mut self, end: RoundEnd) {
        let spec = self.round_spec();
        let doubled = self.cfg.double_jqk_rounds && (11..=13).contains(&spec.wild);
        let mult: i64 = if doubled { 2 } else { 1 };
        let penalty = i64::from(self.cfg.false_out_penalty.unwrap_or(FALSE_OUT_POINTS));
        let mut seats = Vec::with_capacity(self.hands.len());
        let mut row = Vec::with_capacity(self.hands.len());
        for (p, hand) in self.hands.iter().enumerate() {
            let a = arrange(hand, &self.rules);
            let fo = self.false_outs[p];
            let points = i64::from(a.deadwood) * mult + penalty * i64::from(fo);
            row.push(points);
            seats.push(SeatResult {
                hand: hand.clone(),
                melds: a.melds,
                unmatched: a.unmatched,
                deadwood: a.deadwood,
                false_outs: fo,
                points,
            });
        }
        for (t, r) in self.totals.iter_mut().zip(&row) {
            *t += r;
        }
        self.sheet.push(row);
        self.last_result = Some(Box::new(RoundResult {
            round: self.round,
            cards: spec.cards,
            wild: spec.wild,
            dealer: self.round_dealer,
            end,
            doubled,
            tabled: self.tabled.clone(),
            seats,
        }));
        let next = usize::from(self.round) + 1;
        if next < self.schedule.len() {
            self.begin_round(next as u8, None);
        } else {
            self.phase = Phase::Over;
        }
    }

    // ----- accessors -------------------------------------------------------

    pub fn config(&self) -> &ThreeThirteenConfig {
        &self.cfg
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Hands were given by a test or hidden cards re-dealt: no record replays it.
    pub fn is_unrecordable(&self) -> bool {
        self.unrecordable
    }

    pub fn schedule(&self) -> &Schedule {
        &self.schedule
    }

    /// Index of the round being played (the last one once the game is over).
    pub fn round(&self) -> usize {
        usize::from(self.round)
    }

    pub fn round_count(&self) -> usize {
        self.schedule.len()
    }

    pub fn round_spec(&self) -> RoundSpec {
        self.schedule
            .get(usize::from(self.round))
            .unwrap_or(RoundSpec { cards: 3, wild: 3 })
    }

    pub fn cards_dealt(&self) -> usize {
        usize::from(self.round_spec().cards)
    }

    pub fn wild_rank(&self) -> Rank {
        self.round_spec().wild
    }

    /// The round's meld rules (its wild rank fixed).
    pub fn rules(&self) -> &MeldRules {
        &self.rules
    }

    pub fn resolved_rules(&self) -> ResolvedRules {
        resolved(&self.rules)
    }

    /// The dealer of the current round.
    pub fn round_dealer(&self) -> u8 {
        self.round_dealer
    }

    /// The dealer of the first round (the deal passes left each round, TT-3.1).
    pub fn first_dealer(&self) -> u8 {
        self.first_dealer
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn is_terminal(&self) -> bool {
        self.phase == Phase::Over
    }

    /// Whose decision it is (`None` once the game is over).
    pub fn current_player(&self) -> Option<u8> {
        (!self.is_terminal()).then_some(self.current)
    }

    /// A seat's hand, sorted (empty for a seat that is not at the table).
    pub fn hand(&self, seat: u8) -> &[Card] {
        self.hands.get(usize::from(seat)).map_or(&[], Vec::as_slice)
    }

    pub fn hand_size(&self, seat: u8) -> usize {
        self.hand(seat).len()
    }

    /// Bottom first, top card last.
    pub fn discard_pile(&self) -> &[Card] {
        &self.pile
    }

    pub fn top_discard(&self) -> Option<Card> {
        self.pile.last().copied()
    }

    pub fn stock_size(&self) -> usize {
        self.stock.len()
    }

    /// The stock, top card last (hidden from every seat; for tests and tools).
    pub fn stock(&self) -> &[Card] {
        &self.stock
    }

    /// Times the stock was rebuilt this round (TT-9.1).
    pub fn restocks(&self) -> u8 {
        self.restocks
    }

    /// The card taken from the discard pile this turn.
    pub fn taken_card(&self) -> Option<Card> {
        self.taken
    }

    /// Cards `seat` took from the discard pile and still holds (public).
    pub fn known_cards(&self, seat: u8) -> &[Card] {
        self.known.get(usize::from(seat)).map_or(&[], Vec::as_slice)
    }

    /// Who went out this round.
    pub fn out_player(&self) -> Option<u8> {
        self.out_player
    }

    /// Whether the turns being played are the last turns after a go-out (TT-6.2).
    pub fn in_last_turns(&self) -> bool {
        self.out_player.is_some() && !self.is_terminal()
    }

    /// Last turns still to play, the current one included.
    pub fn last_turns_left(&self) -> u8 {
        self.last_turns_left
    }

    /// Melds on the table (redemption round, TT-10.6), ids in this order.
    pub fn tabled_melds(&self) -> &[TabledMeld] {
        &self.tabled
    }

    /// Jokers gifted into `seat`'s area this round (TT-10.4).
    pub fn gifted(&self, seat: u8) -> u8 {
        self.gifts.get(usize::from(seat)).copied().unwrap_or(0)
    }

    /// The cards the player to move has picked for the meld it is building
    /// (TT-10.6), sorted; they are still in its hand.
    pub fn building(&self) -> &[Card] {
        &self.building
    }

    /// Invalid go-outs of `seat` this round (TT-10.9).
    pub fn false_outs(&self, seat: u8) -> u32 {
        self.false_outs.get(usize::from(seat)).copied().unwrap_or(0)
    }

    /// Per finished round, each seat's score (TT-7.4).
    pub fn score_sheet(&self) -> &[Vec<i64>] {
        &self.sheet
    }

    /// Schedule index of the score sheet's first row (0 unless a test
    /// started the game at a later round).
    pub fn first_round(&self) -> usize {
        usize::from(self.first_round)
    }

    pub fn totals(&self) -> &[i64] {
        &self.totals
    }

    /// The last finished round: every hand shown, arranged and scored.
    pub fn last_round(&self) -> Option<&RoundResult> {
        self.last_result.as_deref()
    }

    /// The solver's best arrangement of `seat`'s hand, with the best discard
    /// when the seat is to discard (its hand holds the drawn card).
    pub fn best_arrangement(&self, seat: u8) -> Result<Arrangement> {
        let hand = self
            .hands
            .get(usize::from(seat))
            .ok_or_else(|| CoreError::config(format!("no seat {seat}")))?;
        if self.phase == Phase::Discard && self.current == seat && !hand.is_empty() {
            if let Some(a) = arrange_with_discard(hand, &self.rules) {
                return Ok(a);
            }
        }
        Ok(arrange(hand, &self.rules))
    }

    // ----- legality --------------------------------------------------------

    pub(super) fn holds(&self, c: Card) -> bool {
        self.hand(self.current).contains(&c)
    }

    /// TT-3.5 (CM-4: by code), unless every card held has that code.
    fn forbidden(&self, c: Card) -> bool {
        self.cfg.forbid_rediscard
            && self.taken == Some(c)
            && self.hand(self.current).iter().any(|&h| h != c)
    }

    /// Whether an empty stock may be rebuilt from the discards (TT-9.1):
    /// within `max_restocks` (TT-9.3), and always in the last turns (TT-6.2).
    fn restock_allowed(&self) -> bool {
        self.out_player.is_some() || self.restocks < self.cfg.max_restocks
    }

    fn draw_ok(&self) -> bool {
        self.phase == Phase::Draw
            && (!self.stock.is_empty() || (self.restock_allowed() && self.pile.len() >= 2))
    }

    fn take_ok(&self) -> bool {
        self.phase == Phase::Draw && !self.pile.is_empty()
    }

    pub(super) fn discard_ok(&self, c: Card) -> bool {
        self.phase == Phase::Discard && self.holds(c) && !self.forbidden(c)
    }

    /// The round's rules for "every card in a meld" (TT-6.1): a joker that
    /// scores nothing (`wild_giftable`, TT-10.4) still counts as unmelded.
    fn out_rules(&self) -> MeldRules {
        let mut r = self.rules;
        r.joker_value = r.joker_value.max(1);
        r
    }

    /// Every card of the hand without one `c` is in a meld (TT-6.1).
    fn melded_without(&self, c: Card) -> bool {
        let mut h = self.hand(self.current).to_vec();
        remove_one(&mut h, c) && deadwood(&h, &self.out_rules()) == 0
    }

    fn out_allowed(&self) -> bool {
        self.phase == Phase::Discard && self.out_player.is_none()
    }

    fn out_ok(&self, c: Card) -> bool {
        self.out_allowed()
            && self.discard_ok(c)
            && (self.cfg.false_out_penalty.is_some() || self.melded_without(c))
    }

    fn gift_ok(&self, s: u8) -> bool {
        self.cfg.jokers == Jokers::WildGiftable
            && s < self.n()
            && s != self.current
            && self.discard_ok(Card::JOKER)
    }

    pub(super) fn redemption_turn(&self) -> bool {
        self.cfg.redemption_round && self.phase == Phase::Discard && self.out_player.is_some()
    }

    /// The melds `table` would lay down now (TT-10.6): those of the solver's
    /// best-discard arrangement; empty when tabling is not possible.
    pub(super) fn table_plan(&self) -> Vec<Meld> {
        if !self.redemption_turn() {
            return Vec::new();
        }
        let hand = self.hand(self.current);
        if hand.len() < 4 {
            return Vec::new();
        }
        match arrange_with_discard(hand, &self.rules) {
            Some(a) if self.tabled.len() + a.melds.len() <= MAX_TABLED_MELDS => a.melds,
            _ => Vec::new(),
        }
    }

    /// Tabled meld `k` with `c` laid off on it, if that is a valid meld
    /// within the wild limits (TT-10.6): a run may become a book and a book
    /// a run, as long as the cards form a meld.
    fn laid_off(&self, c: Card, k: u8) -> Option<Meld> {
        let t = self.tabled.get(usize::from(k))?;
        let mut cards = t.meld.cards.clone();
        cards.push(c);
        classify(&cards, &self.resolved_rules(), None)
    }

    fn layoff_ok(&self, c: Card, k: u8) -> bool {
        self.redemption_turn() && self.holds(c) && self.laid_off(c, k).is_some()
    }

    /// Copies of `c` held and not yet picked for the meld being built.
    fn unpicked(&self, c: Card) -> usize {
        let held = self.hand(self.current).iter().filter(|&&h| h == c).count();
        let picked = self.building.iter().filter(|&&h| h == c).count();
        held.saturating_sub(picked)
    }

    fn pick_ok(&self, c: Card) -> bool {
        self.redemption_turn() && self.unpicked(c) > 0
    }

    /// The meld the picked cards make (TT-4, TT-5, TT-10.6).
    fn built_meld(&self) -> Option<Meld> {
        classify(&self.building, &self.resolved_rules(), None)
    }

    fn lay_meld_ok(&self) -> bool {
        self.redemption_turn()
            && self.tabled.len() < MAX_TABLED_MELDS
            && self.built_meld().is_some()
    }

    /// Whether an action is legal for the player to move.
    pub fn is_legal_action(&self, act: Action) -> bool {
        if self.is_terminal() {
            return false;
        }
        match act {
            Action::DrawStock => self.draw_ok(),
            Action::TakeDiscard => self.take_ok(),
            Action::Discard(c) => self.discard_ok(c),
            Action::GoOut(c) => self.out_ok(c),
            Action::Gift(s) => self.gift_ok(s),
            Action::Table => !self.table_plan().is_empty(),
            Action::LayOff { card, meld } => self.layoff_ok(card, meld),
            Action::Pick(c) => self.pick_ok(c),
            Action::LayMeld => self.lay_meld_ok(),
        }
    }

    /// Whether action id `a` is legal for the player to move.
    pub fn is_legal(&self, a: u16) -> bool {
        Action::decode(a).is_ok_and(|act| self.is_legal_action(act))
    }

    /// The legal actions of the player to move, sorted.
    pub fn legal_actions(&self) -> Vec<u16> {
        let mut v = Vec::with_capacity(32);
        self.legal_actions_into(&mut v);
        v
    }

    pub fn legal_actions_into(&self, out: &mut Vec<u16>) {
        out.clear();
        match self.phase {
            Phase::Over => {}
            Phase::Draw => {
                if self.draw_ok() {
                    out.push(action::DRAW_STOCK);
                }
                if self.take_ok() {
                    out.push(action::TAKE_DISCARD);
                }
            }
            Phase::Discard => {
                let hand = self.hand(self.current);
                let mut distinct: Vec<Card> = hand.to_vec();
                distinct.dedup();
                distinct.retain(|&c| !self.forbidden(c));
                for &c in &distinct {
                    out.push(Action::Discard(c).encode());
                }
                if self.out_allowed() {
                    if self.cfg.false_out_penalty.is_some() {
                        for &c in &distinct {
                            out.push(Action::GoOut(c).encode());
                        }
                    } else {
                        let rules = self.out_rules();
                        let quick = if two_cards_fit_no_meld(hand, &resolved(&rules)) {
                            Ok(1) // the solver need not be asked: not 0
                        } else {
                            with_solver(|s| s.best_discard_deadwood(hand, &rules))
                        };
                        if quick == Ok(0) {
                            for &c in &distinct {
                                if self.melded_without(c) {
                                    out.push(Action::GoOut(c).encode());
                                }
                            }
                        }
                    }
                }
                if !self.table_plan().is_empty() {
                    out.push(action::TABLE);
                }
                for s in 0..self.n() {
                    if self.gift_ok(s) {
                        out.push(Action::Gift(s).encode());
                    }
                }
                if self.redemption_turn() {
                    let mut held = hand.to_vec();
                    held.dedup();
                    for k in 0..self.tabled.len() {
                        for &c in &held {
                            if self.laid_off(c, k as u8).is_some() {
                                out.push(
                                    Action::LayOff {
                                        card: c,
                                        meld: k as u8,
                                    }
                                    .encode(),
                                );
                            }
                        }
                    }
                    for &c in &held {
                        if self.unpicked(c) > 0 {
                            out.push(Action::Pick(c).encode());
                        }
                    }
                    if self.lay_meld_ok() {
                        out.push(action::LAY_MELD);
                    }
                }
            }
        }
    }

    // ----- transitions -----------------------------------------------------

    /// Applies action id `a` for the player to move; an illegal action is an
    /// error and changes nothing.
    pub fn apply_action(&mut self, a: u16) -> Result<()> {
        if self.is_terminal() {
            return Err(CoreError::GameOver);
        }
        let act = Action::decode(a)?;
        if let Some(why) = self.refusal(act) {
            return Err(CoreError::IllegalAction(format!(
                "{act} is not legal now: {why} (seat {}, {} phase, round {} of {})",
                self.current,
                self.phase.name(),
                self.round + 1,
                self.schedule.len()
            )));
        }
        self.history.push(a);
        self.apply_unchecked(act);
        Ok(())
    }

    fn apply_unchecked(&mut self, act: Action) {
        let p = self.current;
        let pu = usize::from(p);
        if !matches!(act, Action::Pick(_) | Action::LayMeld) {
            // Any other action lets go of the meld being built (TT-10.6).
            self.building.clear();
        }
        match act {
            Action::DrawStock => {
                if self.stock.is_empty() {
                    self.rebuild_stock();
                }
                if let Some(c) = self.stock.pop() {
                    insert_sorted(&mut self.hands[pu], c);
                }
                self.idle_turns = 0;
                self.phase = Phase::Discard;
            }
            Action::TakeDiscard => {
                if let Some(c) = self.pile.pop() {
                    insert_sorted(&mut self.hands[pu], c);
                    self.known[pu].push(c);
                    self.taken = Some(c);
                }
                self.idle_turns += 1;
                self.phase = Phase::Discard;
            }
            Action::Discard(c) => {
                self.take_from_hand(p, c);
                self.pile.push(c);
                self.end_turn();
            }
            Action::GoOut(c) => {
                let valid = self.melded_without(c);
                self.take_from_hand(p, c);
                self.pile.push(c);
                if !valid {
                    // TT-10.9: penalised and cancelled; the card is discarded.
                    self.false_outs[pu] = self.false_outs[pu].saturating_add(1);
                    self.end_turn();
                    return;
                }
                self.out_player = Some(p);
                if self.cfg.redemption_round {
                    // TT-10.6: the going-out player's melds are laid face up,
                    // arranged as the go-out test counted them (TT-6.1): a
                    // giftable joker is melded, not kept for its 0 points.
                    let a = arrange(&self.hands[pu], &self.out_rules());
                    for m in a.melds {
                        self.table_meld(p, m);
                    }
                }
                // TT-6.2: each other player has one more turn, from the left.
                self.last_turns_left = self.n() - 1;
                let next = self.left_of(p);
                self.begin_turn(next);
            }
            Action::Gift(s) => {
                self.take_from_hand(p, Card::JOKER);
                if let Some(g) = self.gifts.get_mut(usize::from(s)) {
                    *g += 1;
                }
                self.end_turn();
            }
            Action::Table => {
                for m in self.table_plan() {
                    self.table_meld(p, m);
                }
                self.end_turn_if_empty(p);
            }
            Action::LayOff { card, meld } => {
                if let Some(m) = self.laid_off(card, meld) {
                    self.take_from_hand(p, card);
                    if let Some(t) = self.tabled.get_mut(usize::from(meld)) {
                        t.meld = m;
                    }
                }
                self.end_turn_if_empty(p);
            }
            Action::Pick(c) => {
                insert_sorted(&mut self.building, c);
            }
            Action::LayMeld => {
                if let Some(m) = self.built_meld() {
                    self.building.clear();
                    self.table_meld(p, m);
                }
                self.end_turn_if_empty(p);
            }
        }
    }

    /// Moves meld `m`'s cards from `p`'s hand to the table (TT-10.6).
    fn table_meld(&mut self, p: u8, m: Meld) {
        for &c in &m.cards {
            self.take_from_hand(p, c);
        }
        self.tabled.push(TabledMeld { owner: p, meld: m });
    }

    /// A player whose every card went to the table ends the turn without a
    /// discard and scores 0 (TT-10.6).
    fn end_turn_if_empty(&mut self, p: u8) {
        if self.hands[usize::from(p)].is_empty() {
            self.end_turn();
        }
    }

    /// Every physical card accounted for exactly once: hands, stock, pile,
    /// tabled melds and gifted jokers make the deck (invariant checks).
    pub fn card_counts_ok(&self) -> bool {
        let mut counts = [0u32; CARD_CODES];
        let mut add = |c: Card| counts[usize::from(c.code())] += 1;
        self.hands.iter().flatten().for_each(|&c| add(c));
        self.stock.iter().for_each(|&c| add(c));
        self.pile.iter().for_each(|&c| add(c));
        for t in &self.tabled {
            t.meld.cards.iter().for_each(|&c| add(c));
        }
        counts[usize::from(Card::JOKER_CODE)] +=
            self.gifts.iter().map(|&g| u32::from(g)).sum::<u32>();
        let deck = self.cfg.deck();
        counts[..52].iter().all(|&n| n == u32::from(deck.decks))
            && counts[52] == u32::from(deck.jokers)
    }
}

/// Ending categories (TT-8.1): one lowest total, or several tied.
pub const ENDINGS: [&str; 2] = ["outright", "shared"];

impl engine::TurnBased for ThreeThirteenState {
    /// Play goes clockwise from the dealer's left (TT-3.3).
    const TURN_RULE: &'static str = "TT-3.3";

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
        match Action::decode(action) {
            Ok(act) => self.refusal(act),
            Err(e) => Some(Refusal::new("TT-3.4", e.to_string())),
        }
    }
}

impl engine::State for ThreeThirteenState {
    type View = ThreeThirteenView;
    type SeatView<'a> = ThreeThirteenSeatView<'a>;

    fn seat_view(&self, seat: u8) -> ThreeThirteenSeatView<'_> {
        ThreeThirteenSeatView::new(self, seat)
    }

    crate::turn_based!();

    /// Taking the discard names the card on top (TT-3.4).
    fn describe_action(&self, _seat: u8, action: u16) -> Result<engine::ActionInfo> {
        let act = Action::decode(action)?;
        Ok(match act {
            Action::TakeDiscard => act.describe().cards(self.top_discard()),
            _ => act.describe(),
        })
    }

    fn can_take_back(&self, action: u16) -> bool {
        Action::decode(action).is_ok_and(|act| ThreeThirteenState::can_take_back(self, act))
    }

    fn view(&self, seat: u8) -> ThreeThirteenView {
        ThreeThirteenState::view(self, seat)
    }

    fn observation(&self, seat: u8) -> Vec<f32> {
        ThreeThirteenState::observation(self, seat)
    }

    fn write_observation(&self, seat: u8, o: &mut [f32]) {
        ThreeThirteenState::write_observation(self, seat, o)
    }

    /// A state that `seat` cannot tell apart from this one: the stock and the
    /// other hands' cards it has not seen dealt again at random, every count
    /// kept (for Monte Carlo bots and the leak tests). Once the game is over
    /// every hand is shown and only the stock is shuffled.
    fn determinize(&self, seat: u8, rng: &mut GameRng) -> Self {
        let mut s = self.clone();
        s.history.clear();
        s.unrecordable = true;
        if self.is_terminal() {
            rng.shuffle(&mut s.stock);
            return s;
        }
        let mut pool = self.unseen_cards(seat);
        // In card order, not the hidden order: the re-deal then depends on
        // what `seat` sees and the generator only, so a bot that samples
        // worlds answers alike in every world it cannot tell apart.
        pool.sort_unstable();
        rng.shuffle(&mut pool);
        for p in 0..self.n() {
            if p == seat {
                continue;
            }
            let pu = usize::from(p);
            let hidden = self.hand(p).len() - self.known_cards(p).len().min(self.hand(p).len());
            let mut h = self.known[pu].clone();
            let at = pool.len().saturating_sub(hidden);
            h.extend(pool.drain(at..));
            h.sort_unstable();
            s.hands[pu] = h;
        }
        s.stock = pool;
        s
    }

    /// What each seat won: zero until the end, then `Σ totals − players × total`.
    fn returns(&self) -> Vec<i64> {
        if !self.is_terminal() {
            return vec![0; self.hands.len()];
        }
        let sum: i64 = self.totals.iter().sum();
        let n = i64::from(self.n());
        self.totals.iter().map(|t| sum - n * t).collect()
    }

    /// What each seat has won in the rounds scored so far, in the unit of
    /// [`Self::returns`]: `Σ totals − players × total` over the totals now
    /// (TT-7), so it moves once per round and ends at the returns.
    fn running_returns(&self) -> Vec<i64> {
        let sum: i64 = self.totals.iter().sum();
        let n = i64::from(self.n());
        self.totals.iter().map(|t| sum - n * t).collect()
    }

    /// Whether `seat` has the lowest total of a finished game (TT-8.1; ties share).
    fn won(&self, seat: u8) -> bool {
        let Some(&t) = self.totals.get(usize::from(seat)) else {
            return false;
        };
        self.is_terminal() && self.totals.iter().all(|&o| t <= o)
    }

    /// `outright` (one lowest total) or `shared`, once over.
    fn ending(&self) -> Option<&'static str> {
        if !self.is_terminal() {
            return None;
        }
        let winners = (0..self.n()).filter(|&p| self.won(p)).count();
        Some(if winners == 1 { ENDINGS[0] } else { ENDINGS[1] })
    }

    fn history(&self) -> &[u16] {
        &self.history
    }

    fn deals_played(&self) -> u32 {
        u32::try_from(self.round())
            .unwrap_or(u32::MAX)
            .saturating_add(1)
    }

    /// The first round's dealer: with the seed, all a record needs (TT-3.1).
    fn dealer(&self) -> u8 {
        self.first_dealer
    }

    fn deal_source(&self) -> engine::DealSource {
        if self.unrecordable {
            engine::DealSource::Unrecordable
        } else {
            engine::DealSource::Seed(self.seed)
        }
    }

    fn audit(&self) -> std::result::Result<(), String> {
        if self.card_counts_ok() {
            Ok(())
        } else {
            Err("a physical card is missing or counted twice".into())
        }
    }

    /// A hash of everything in the state (see `engine::State::fingerprint`).
    fn fingerprint(&self) -> u64 {
        let mut h = engine::Fingerprint::default();
        let cards = |h: &mut engine::Fingerprint, cards: &[Card]| {
            h.u64(cards.len() as u64);
            for c in cards {
                h.bytes(&[c.code()]);
            }
        };
        h.bytes(&[
            self.n(),
            self.round,
            self.first_round,
            self.first_dealer,
            self.round_dealer,
            self.current,
            self.phase as u8,
            self.restocks,
            self.last_turns_left,
            self.out_player.map_or(255, |p| p),
            self.taken.map_or(255, |c| c.code()),
        ]);
        h.u64(u64::from(self.idle_turns));
        for p in 0..usize::from(self.n()) {
            cards(&mut h, &self.hands[p]);
            cards(&mut h, &self.known[p]);
            h.bytes(&[self.gifts[p]]);
            h.u64(u64::from(self.false_outs[p]));
            h.i64(self.totals[p]);
        }
        cards(&mut h, &self.stock);
        cards(&mut h, &self.pile);
        cards(&mut h, &self.building);
        h.u64(self.tabled.len() as u64);
        for t in &self.tabled {
            h.bytes(&[t.owner, t.meld.kind as u8]);
            h.u64(u64::from(t.meld.substitutes));
            cards(&mut h, &t.meld.cards);
        }
        h.u64(self.sheet.len() as u64);
        for row in &self.sheet {
            for &x in row {
                h.i64(x);
            }
        }
        h.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meld::{AceMode, Solver, WildRank, UNLIMITED};
    use crate::rng::GameRng;

    /// A hand of `len` cards from two decks and four jokers: random, or
    /// made of runs and books with a card or two more (hands that can go out).
    fn hand(rng: &mut GameRng, len: usize) -> Vec<Card> {
        let card = |code: u32| Card::from_code(code as u8).unwrap();
        let mut h = Vec::with_capacity(len);
        if rng.below(2) == 0 {
            while h.len() + 3 <= len.saturating_sub(rng.below(3) as usize) {
                let suit = rng.below(4);
                let rank = rng.below(13);
                let size = 3 + rng.below(2) as usize;
                for k in 0..size.min(len - h.len()) {
                    let c = if rng.below(6) == 0 {
                        Card::JOKER_CODE.into()
                    } else if rng.below(2) == 0 {
                        suit * 13 + (rank + k as u32) % 13
                    } else {
                        ((suit + k as u32) % 4) * 13 + rank
                    };
                    h.push(card(c));
                }
            }
        }
        while h.len() < len {
            h.push(card(rng.below(53)));
        }
        h
    }

    /// TT-6.1: the shortcut never says "cannot go out" of a hand the solver
    /// can meld but for one card, under every wild rank, ace mode and limit.
    #[test]
    fn tt_6_1_the_loose_card_shortcut_never_refuses_a_hand_that_goes_out() {
        let mut solver = Solver::default();
        let mut rng = GameRng::new(7);
        let (mut refused, mut out) = (0, 0);
        for i in 0..60_000u32 {
            let len = 4 + (i % 11) as usize;
            let mut rules = MeldRules::three_thirteen();
            rules.deck = crate::deck::DeckSpec::new(2, true).unwrap();
            rules.joker_value = 1;
            rules.aces = if i % 2 == 0 {
                AceMode::Low
            } else {
                AceMode::HighOrLow
            };
            rules.max_wilds = [1, 2, UNLIMITED][(i % 3) as usize];
            rules.all_wild_melds = i % 5 == 0;
            rules.wild = WildRank::Fixed(1 + (i / 7 % 13) as u8);
            let h = hand(&mut rng, len);
            let Ok(deadwood) = solver.best_discard_deadwood(&h, &rules) else {
                continue; // more copies of a card than two decks hold
            };
            let zero = deadwood == 0;
            let shortcut = two_cards_fit_no_meld(&h, &resolved(&rules));
            assert!(!(shortcut && zero), "{h:?} goes out under {rules:?}");
            refused += usize::from(shortcut);
            out += usize::from(zero);
        }
        // Both kinds of hand were met often.
        assert!(refused > 10_000, "{refused}");
        assert!(out > 1_000, "{out}");
    }
}
