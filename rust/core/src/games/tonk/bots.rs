//! Tonk bots (random, greedy, Monte Carlo), the engine layer's controllers
//! for Tonk (the arena is `engine::arena`, written once for every game).
//!
//! A bot decides from a [`TonkSeatView`]: its own hand and what the table
//! shows, never another hand or the stock.

use crate::bots::careless::{self, Slips};
use crate::engine::{Bots, Controller, Intent, Millis, SeatView as _, State as _};
use std::collections::HashMap;
use std::sync::OnceLock;

use crate::card::Card;
use crate::error::{CoreError, Result};
use crate::games::tonk::{
    action, spread_catalogue, spreads_in, Action, Phase, Spread, TonkConfig, TonkGame,
    TonkSeatView, TonkState,
};
use crate::meld::{MeldKind, MeldRules};
use crate::rng::GameRng;
use crate::Solver;

/// A Tonk bot as named on the command line: `random`, `greedy`, `strong`, with an
/// optional parameter after a colon (`greedy:8` drops at a count of 8 or
/// less; `strong:400` samples 400 worlds per drop decision).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TonkBotSpec {
    Random,
    Greedy {
        drop_at: Option<u32>,
    },
    /// `greedy` playing a legal move at random on `percent`% of its
    /// decisions (the `easy` level, `bots/careless.rs`).
    Careless {
        percent: u8,
    },
    Strong {
        samples: u32,
    },
    /// Search over `worlds` sampled worlds per decision
    /// (`games/tonk/expert.rs`).
    Expert {
        worlds: u32,
    },
}

impl TonkBotSpec {
    pub const DEFAULT_SAMPLES: u32 = 200;
    pub const EXPERT_WORLDS: u32 = 64;
}

impl Bots<TonkGame> for TonkBotSpec {
    fn parse(text: &str) -> Result<TonkBotSpec> {
        let t = text.trim().to_ascii_lowercase();
        let (name, param) = match t.split_once(':') {
            Some((n, p)) => (n, Some(p)),
            None => (t.as_str(), None),
        };
        let number = |p: &str| -> Result<u32> {
            p.parse::<u32>()
                .map_err(|_| CoreError::config(format!("bot {text:?}: {p:?} is not a number")))
        };
        match (name, param) {
            ("random", None) => Ok(TonkBotSpec::Random),
            ("greedy", None) => Ok(TonkBotSpec::Greedy { drop_at: None }),
            ("greedy", Some(p)) => Ok(TonkBotSpec::Greedy {
                drop_at: Some(number(p)?),
            }),
            ("careless", p) => Ok(TonkBotSpec::Careless {
                percent: careless::parse_percent(text, p)?,
            }),
            ("strong", None) => Ok(TonkBotSpec::Strong {
                samples: Self::DEFAULT_SAMPLES,
            }),
            ("strong", Some(p)) => {
                let n = number(p)?;
                if !(1..=4096).contains(&n) {
                    return Err(CoreError::config(format!(
                        "bot {text:?}: samples must be 1 to 4096"
                    )));
                }
                Ok(TonkBotSpec::Strong { samples: n })
            }
            ("expert", None) => Ok(TonkBotSpec::Expert {
                worlds: Self::EXPERT_WORLDS,
            }),
            ("expert", Some(p)) => {
                let n = number(p)?;
                if !(1..=4096).contains(&n) {
                    return Err(CoreError::config(format!(
                        "bot {text:?}: worlds must be 1 to 4096"
                    )));
                }
                Ok(TonkBotSpec::Expert { worlds: n })
            }
            _ => Err(CoreError::config(format!(
                "unknown bot {text:?}: expected {}",
                Self::grammar()
            ))),
        }
    }

    fn grammar() -> String {
        "random, careless[:percent], greedy[:drop_at], strong[:samples], expert[:worlds]".into()
    }

    fn name(&self) -> String {
        match self {
            TonkBotSpec::Random => "random".into(),
            TonkBotSpec::Greedy { drop_at: None } => "greedy".into(),
            TonkBotSpec::Greedy { drop_at: Some(d) } => format!("greedy:{d}"),
            TonkBotSpec::Careless { percent } => careless::name(*percent),
            TonkBotSpec::Strong { samples } if *samples == Self::DEFAULT_SAMPLES => "strong".into(),
            TonkBotSpec::Strong { samples } => format!("strong:{samples}"),
            TonkBotSpec::Expert { worlds } if *worlds == Self::EXPERT_WORLDS => "expert".into(),
            TonkBotSpec::Expert { worlds } => format!("expert:{worlds}"),
        }
    }

    fn build(&self, _game: &TonkGame, seed: u64) -> Box<dyn Controller<TonkState>> {
        Box::new(Bot::new(*self, seed))
    }

    fn examples() -> &'static [&'static str] {
        &[
            "random",
            "careless:50",
            "greedy",
            "greedy:10",
            "strong:8",
            "expert:2",
        ]
    }

    /// The ladder of levels, weakest first (measured in docs/bots.md,
    /// Levels).
    fn levels() -> &'static [(&'static str, &'static str)] {
        &[
            ("easy", "careless:70"),
            ("normal", "careless"),
            ("hard", "greedy"),
            ("expert", "expert"),
        ]
    }
}

/// Meld rules matching a Tonk configuration, for the solver.
fn meld_rules(cfg: &TonkConfig) -> MeldRules {
    cfg.meld_rules()
}

/// Catalogue index of each spread shape, by card mask.
fn shape_index() -> &'static HashMap<u64, u16> {
    static IDX: OnceLock<HashMap<u64, u16>> = OnceLock::new();
    IDX.get_or_init(|| {
        spread_catalogue()
            .iter()
            .enumerate()
            .map(|(i, s)| (s.mask, i as u16))
            .collect()
    })
}

fn bit(c: Card) -> u64 {
    1u64 << c.code()
}

/// Most moves in one turn's plan (TK-2.3's largest hand, plus the card drawn).
const MAX_PLAN: usize = crate::games::tonk::MAX_HAND_SIZE as usize + 1;

/// A turn's plan: spreads to lay, hits to make, and what is left.
#[derive(Debug, Clone, Copy)]
struct Plan {
    /// Actions in order (lays, then hits); each puts down a card at least,
    /// and a hand never holds more than the largest deal plus one card.
    moves: [Action; MAX_PLAN],
    len: usize,
    /// Cards left in hand after the moves.
    left: u64,
}

impl Plan {
    fn new(hand: u64) -> Plan {
        Plan {
            moves: [Action::Pass; MAX_PLAN],
            len: 0,
            left: hand,
        }
    }

    fn push(&mut self, a: Action) {
        if self.len < self.moves.len() {
            self.moves[self.len] = a;
            self.len += 1;
        }
    }
}

/// The spreads a plan can hit: the table's plus those it lays.
struct Table {
    spreads: [Spread; 2 * crate::games::tonk::MAX_SPREADS],
    len: usize,
}

impl Table {
    fn from(table: &[Spread]) -> Table {
        let empty = Spread {
            id: 0,
            owner: 0,
            kind: MeldKind::Set,
            cards: 0,
            lo: 0,
            hi: 0,
            suit: 0,
            hits: 0,
            cleared: true,
        };
        let mut t = Table {
            spreads: [empty; 2 * crate::games::tonk::MAX_SPREADS],
            len: 0,
        };
        for s in table.iter().filter(|s| !s.cleared) {
            t.push(*s);
        }
        t
    }

    fn push(&mut self, s: Spread) {
        if self.len < self.spreads.len() {
            self.spreads[self.len] = s;
            self.len += 1;
        }
    }
}

/// Can any card of `hand` hit a spread of `table`?
fn accepts_any(table: &[Spread], hand: u64, cfg: &TonkConfig) -> bool {
    let mut m = hand;
    while m != 0 {
        let c = card_of(m.trailing_zeros());
        m &= m - 1;
        if table.iter().any(|s| s.accepts(c, cfg)) {
            return true;
        }
    }
    false
}

fn card_of(code: u32) -> Card {
    let code = code as u8;
    Card::of(code % 13 + 1, code / 13)
}

/// The greedy player (TK bots, issue: takes the discard when it lowers its
/// count, lays the spreads and hits that minimise its count, discards its
/// highest card it cannot use, drops when its count is low).
pub struct Greedy {
    solver: Solver,
    drop_at: Option<u32>,
    /// The rest of this turn's plan, valid while the hand and the table are
    /// as the plan left them (a turn's decisions follow one plan).
    pending: Option<Pending>,
}

struct Pending {
    seat: u8,
    hand: u64,
    spreads: usize,
    plan: Plan,
    next: usize,
}

impl Greedy {
    pub fn new(drop_at: Option<u32>) -> Greedy {
        Greedy {
            solver: Solver::new(),
            drop_at,
            pending: None,
        }
    }

    /// The next move of the turn's plan, planning afresh when the hand or
    /// the table is not where the plan expects it.
    fn next_move(&mut self, view: &TonkSeatView<'_>, cfg: &TonkConfig) -> (Option<Action>, u64) {
        let seat = view.seat();
        let fresh = match &self.pending {
            Some(p) => {
                !(p.seat == seat && p.hand == view.hand() && p.spreads == view.spreads().len())
            }
            None => true,
        };
        if fresh {
            let plan = self.plan(view.hand(), view.spreads(), cfg, seat);
            self.pending = Some(Pending {
                seat,
                hand: view.hand(),
                spreads: view.spreads().len(),
                plan,
                next: 0,
            });
        }
        let Some(p) = self.pending.as_mut() else {
            return (None, view.hand());
        };
        while p.next < p.plan.len {
            let m = p.plan.moves[p.next];
            p.next += 1;
            if view.is_legal(m.encode()) {
                match m {
                    Action::LaySpread(i) => {
                        p.hand &= !spread_catalogue()[usize::from(i)].mask;
                        p.spreads += 1;
                    }
                    Action::Hit { card, .. } => p.hand &= !bit(card),
                    _ => {}
                }
                return (Some(m), p.plan.left);
            }
        }
        (None, p.plan.left)
    }

    /// Drop threshold: twice the hand size unless given.
    fn threshold(&self, cfg: &TonkConfig) -> u32 {
        self.drop_at.unwrap_or(2 * u32::from(cfg.hand_size))
    }

    /// The lays and hits that leave the lowest count: the solver's best
    /// arrangement, hitting before or after laying, whichever is better.
    fn plan(&mut self, hand: u64, table: &[Spread], cfg: &TonkConfig, owner: u8) -> Plan {
        let hits_possible = accepts_any(table, hand, cfg);
        if !hits_possible {
            let mut any_spread = false;
            spreads_in(hand, cfg.aces_high, |_| any_spread = true);
            if !any_spread {
                return Plan::new(hand); // nothing to lay, nothing to hit
            }
        }
        let rules = meld_rules(cfg);
        let lay_first = self.plan_order(hand, table, cfg, &rules, owner, false);
        if !hits_possible {
            return lay_first; // nothing can hit the table: the order does not matter
        }
        let hit_first = self.plan_order(hand, table, cfg, &rules, owner, true);
        if cfg.count(hit_first.left) < cfg.count(lay_first.left) {
            hit_first
        } else {
            lay_first
        }
    }

    fn plan_order(
        &mut self,
        hand: u64,
        table: &[Spread],
        cfg: &TonkConfig,
        rules: &MeldRules,
        owner: u8,
        hits_first: bool,
    ) -> Plan {
        let mut plan = Plan::new(hand);
        let mut spreads = Table::from(table);
        let mut next_id = table.len() as u8;
        if hits_first {
            hit_all(&mut plan, &mut spreads, cfg);
        }
        let n = plan.left.count_ones() as usize;
        if n >= 3 {
            // Hands past the solver's limit (large TK-2.3 deals) are planned
            // on their lowest cards.
            const MAX: usize = crate::meld::solver::MAX_HAND;
            let mut cards = [Card::JOKER; MAX];
            let mut m = plan.left;
            for slot in cards.iter_mut().take(n.min(MAX)) {
                *slot = card_of(m.trailing_zeros());
                m &= m - 1;
            }
            if let Ok(sol) = self.solver.solve(&cards[..n.min(MAX)], rules) {
                for i in 0..sol.meld_count() {
                    let mask = sol.meld_cards(i).iter().fold(0u64, |m, &c| m | bit(c));
                    if let Some(&idx) = shape_index().get(&mask) {
                        let shape = spread_catalogue()[usize::from(idx)];
                        plan.push(Action::LaySpread(idx));
                        plan.left &= !mask;
                        spreads.push(shape.laid(next_id, owner));
                        next_id += 1;
                    }
                }
            }
        }
        hit_all(&mut plan, &mut spreads, cfg);
        plan
    }

    /// The card to discard from what the plan leaves: the highest that is
    /// legal now (ties: the higher card).
    fn discard_from(&self, left: u64, view: &TonkSeatView<'_>) -> Option<u16> {
        let cfg = view.config();
        let mut best: Option<(u32, u16)> = None;
        let mut m = left;
        while m != 0 {
            let c = card_of(m.trailing_zeros());
            m &= m - 1;
            let a = action::DISCARD_BASE + u16::from(c.code());
            if view.is_legal(a) {
                let key = (cfg.card_value(c), a);
                if best.is_none_or(|b| key > b) {
                    best = Some(key);
                }
            }
        }
        best.map(|b| b.1)
    }

    /// Count after playing a hand of one card too many and discarding.
    fn count_after_turn(&mut self, hand: u64, view: &TonkSeatView<'_>) -> u32 {
        let cfg = view.config();
        let plan = self.plan(hand, view.spreads(), cfg, view.seat());
        let left = plan.left;
        if left == 0 {
            return 0;
        }
        let mut top = 0;
        let mut m = left;
        while m != 0 {
            top = top.max(cfg.card_value(card_of(m.trailing_zeros())));
            m &= m - 1;
        }
        cfg.count(left) - top
    }

    pub fn act(&mut self, view: &TonkSeatView<'_>) -> u16 {
        let cfg = *view.config();
        match view.phase() {
            Phase::Spades => {
                let spades = view.hand() & (0x1FFFu64 << 39);
                let ace = spades & (1 << 39) != 0 && cfg.spades_ace_high;
                let high = spades >> 39 >= 1 << 11; // queen or king
                if ace || high {
                    action::SPADES_IN
                } else {
                    action::SPADES_OUT
                }
            }
            Phase::Window => {
                if view.is_legal(action::CLAIM_49) {
                    return action::CLAIM_49;
                }
                if view.is_legal(action::DROP) && view.count() <= self.threshold(&cfg) {
                    action::DROP
                } else {
                    action::PASS
                }
            }
            Phase::TurnStart => {
                if view.is_legal(action::CLAIM_49) {
                    return action::CLAIM_49;
                }
                if view.is_legal(action::DROP) && view.count() <= self.threshold(&cfg) {
                    return action::DROP;
                }
                if view.is_legal(action::TAKE_DISCARD) {
                    if let Some(top) = view.top_discard() {
                        let now = cfg.count(
                            self.plan(view.hand(), view.spreads(), &cfg, view.seat())
                                .left,
                        );
                        if self.count_after_turn(view.hand() | bit(top), view) < now {
                            return action::TAKE_DISCARD;
                        }
                    }
                }
                action::DRAW_STOCK
            }
            Phase::Play => {
                let (next, left) = self.next_move(view, &cfg);
                if let Some(m) = next {
                    return m.encode();
                }
                self.pending = None;
                if let Some(a) = self.discard_from(left & view.hand(), view) {
                    return a;
                }
                // The plan's cards cannot be discarded (a spread must be laid
                // first, or the taken card must be used): any legal action.
                view.legal_action_list()
                    .first()
                    .copied()
                    .unwrap_or(action::PASS)
            }
            Phase::Over => action::PASS,
        }
    }
}

/// Hits every card of the plan's hand that fits a spread, repeatedly, so
/// hits can build on one another.
fn hit_all(plan: &mut Plan, table: &mut Table, cfg: &TonkConfig) {
    let mut changed = true;
    while changed && plan.left != 0 {
        changed = false;
        let mut m = plan.left;
        while m != 0 {
            let c = card_of(m.trailing_zeros());
            m &= m - 1;
            if let Some(s) = table.spreads[..table.len]
                .iter_mut()
                .find(|s| s.accepts(c, cfg))
            {
                plan.push(Action::Hit {
                    spread: s.id,
                    card: c,
                });
                plan.left &= !bit(c);
                s.add(c);
                changed = true;
            }
        }
    }
}

/// The strong player: decides drops, draws and discards from the
/// distribution of the cards it cannot see.
///
/// - Drop: the mean settlement of a drop over sampled worlds (the hidden
///   cards dealt at random, consistent with its view); it drops when that
///   mean beats the margin a drop must clear.
/// - Draw: the discard is taken when the count it leads to is below the
///   expected count after a stock card, averaged over every unseen card.
/// - Discard: among the legal discards, the one whose expected count after
///   the next stock card is lowest (so cards that may still meld are kept).
///
/// Spreads, hits and the side bet it plays as the greedy player does.
pub struct Strong {
    greedy: Greedy,
    samples: u32,
    rng: GameRng,
}

/// Extra cards per stock draw when modelling an opponent who keeps low cards.
const OPPONENT_BIAS: u8 = 2;

impl Strong {
    pub fn new(samples: u32, seed: u64) -> Strong {
        Strong {
            greedy: Greedy::new(None),
            samples,
            rng: GameRng::new(seed),
        }
    }

    /// Whether to drop now: the mean settlement of a drop over sampled
    /// worlds, against the mean return of playing on (greedy play-outs in
    /// the first `samples / 4` of those worlds; at the start of a turn the
    /// play-out starts with this bot's own draw choice).
    fn should_drop(&mut self, view: &TonkSeatView<'_>) -> bool {
        let seat = usize::from(view.seat());
        let playouts = (self.samples / 4).max(1);
        let (mut dropped, mut played) = (0.0, 0.0);
        let mut rollout = Greedy::new(None);
        let go_on = if view.phase() == Phase::Window {
            action::PASS
        } else {
            self.draw_choice(view)
        };
        for i in 0..self.samples {
            let world = view.determinize_keeping_low(&mut self.rng, OPPONENT_BIAS);
            if i < playouts {
                let mut s = world.clone();
                let ok = if view.phase() == Phase::Play {
                    true
                } else {
                    s.apply_action(go_on).is_ok()
                };
                if ok {
                    play_out(&mut s, &mut rollout);
                    played += s.returns()[seat] as f64;
                }
            }
            let mut s = world;
            if s.apply_action(action::DROP).is_err() {
                return false;
            }
            dropped += s.returns()[seat] as f64;
        }
        dropped / f64::from(self.samples) > played / f64::from(playouts)
    }

    /// Draw from the stock or take the discard (see the type's notes).
    pub(super) fn draw_choice(&mut self, view: &TonkSeatView<'_>) -> u16 {
        if view.is_legal(action::TAKE_DISCARD) {
            if let Some(top) = view.top_discard() {
                let take = f64::from(self.greedy.count_after_turn(view.hand() | bit(top), view));
                if view.stock_size() == 0 {
                    // Drawing would end the hand: play on only if the card helps.
                    return if take < f64::from(view.count()) {
                        action::TAKE_DISCARD
                    } else {
                        action::DRAW_STOCK
                    };
                }
                if take < self.expected_after_draw(view.hand(), view) {
                    return action::TAKE_DISCARD;
                }
            }
        }
        action::DRAW_STOCK
    }

    /// Cards this seat cannot see: not in its hand, the discard pile, the
    /// table, or known to be in another hand.
    fn unseen(view: &TonkSeatView<'_>) -> u64 {
        let mut seen = view.hand() | view.discard_pile().iter().fold(0u64, |m, &c| m | bit(c));
        for s in view.spreads().iter().filter(|s| !s.cleared) {
            seen |= s.cards;
        }
        for p in 0..view.config().players {
            seen |= view.known_cards(p);
        }
        ((1u64 << 52) - 1) & !seen
    }

    /// Expected count after drawing one unseen card to `hand` and discarding.
    fn expected_after_draw(&mut self, hand: u64, view: &TonkSeatView<'_>) -> f64 {
        let unseen = Self::unseen(view);
        let n = unseen.count_ones();
        if n == 0 {
            return f64::from(view.config().count(hand));
        }
        let mut total = 0u64;
        let mut m = unseen;
        while m != 0 {
            let c = 1u64 << m.trailing_zeros();
            m &= m - 1;
            total += u64::from(self.greedy.count_after_turn(hand | c, view));
        }
        total as f64 / f64::from(n)
    }

    /// The discard whose expected count after the next stock card is
    /// lowest (ties: the higher card); None when no discard is legal.
    pub(super) fn discard_choice(&mut self, view: &TonkSeatView<'_>) -> Option<u16> {
        let cfg = *view.config();
        let mut best: Option<(f64, u32, u16)> = None;
        let mut m = view.hand();
        while m != 0 {
            let code = m.trailing_zeros();
            m &= m - 1;
            let a = action::DISCARD_BASE + code as u16;
            if !view.is_legal(a) {
                continue;
            }
            let rest = view.hand() & !(1u64 << code);
            let e = self.expected_after_draw(rest, view);
            let v = cfg.card_value(card_of(code));
            // Lower expectation first; on a tie, shed the higher card.
            let better = match best {
                None => true,
                Some((be, bv, _)) => e < be - 1e-9 || ((e - be).abs() <= 1e-9 && v > bv),
            };
            if better {
                best = Some((e, v, a));
            }
        }
        best.map(|b| b.2)
    }

    pub fn act(&mut self, view: &TonkSeatView<'_>) -> u16 {
        match view.phase() {
            Phase::TurnStart => {
                if view.is_legal(action::CLAIM_49) {
                    return action::CLAIM_49;
                }
                if view.is_legal(action::DROP) && self.should_drop(view) {
                    return action::DROP;
                }
                self.draw_choice(view)
            }
            Phase::Window => {
                if view.is_legal(action::CLAIM_49) {
                    action::CLAIM_49
                } else if view.is_legal(action::DROP) && self.should_drop(view) {
                    action::DROP
                } else {
                    action::PASS
                }
            }
            Phase::Play => {
                if view.is_legal(action::DROP) && self.should_drop(view) {
                    return action::DROP;
                }
                let g = self.greedy.act(view);
                if g >= 52 {
                    return g; // lays and hits as the greedy plan has them
                }
                self.discard_choice(view).unwrap_or(g)
            }
            _ => self.greedy.act(view),
        }
    }
}

/// Plays a state to the end with greedy players everywhere.
pub(super) fn play_out(s: &mut TonkState, g: &mut Greedy) {
    while let Some(p) = s.current_player() {
        let a = g.act(&s.seat_view(p));
        if s.apply_action(a).is_err() {
            // Not reached with legal choices; keep the play-out going anyway.
            match s.legal_actions().first() {
                Some(&x) => {
                    let _ = s.apply_action(x);
                }
                None => break,
            }
        }
    }
}

/// A bot of any kind.
pub enum Bot {
    Random(GameRng),
    Greedy(Greedy),
    Careless(Greedy, Slips),
    Strong(Strong),
    Expert(Box<super::expert::Expert>),
}

impl Bot {
    pub fn new(spec: TonkBotSpec, seed: u64) -> Bot {
        match spec {
            TonkBotSpec::Random => Bot::Random(GameRng::new(seed)),
            TonkBotSpec::Greedy { drop_at } => Bot::Greedy(Greedy::new(drop_at)),
            TonkBotSpec::Careless { percent } => {
                Bot::Careless(Greedy::new(None), Slips::new(percent, seed))
            }
            TonkBotSpec::Strong { samples } => Bot::Strong(Strong::new(samples, seed)),
            TonkBotSpec::Expert { worlds } => {
                Bot::Expert(Box::new(super::expert::Expert::new(worlds, seed)))
            }
        }
    }

    /// The bot's own choice for the view's seat, unchecked (`None` when
    /// the seat is not to move or nothing is legal).
    pub fn choose(&mut self, view: TonkSeatView<'_>) -> Option<u16> {
        if view.current_player() != Some(view.seat()) {
            return None;
        }
        Some(match self {
            Bot::Random(rng) => {
                let legal = view.legal_action_list();
                if legal.is_empty() {
                    return None;
                }
                legal[rng.below(legal.len() as u32) as usize]
            }
            Bot::Greedy(g) => g.act(&view),
            Bot::Careless(g, slips) => slips.slip(&view).unwrap_or_else(|| g.act(&view)),
            Bot::Strong(s) => s.act(&view),
            Bot::Expert(e) => e.act(&view),
        })
    }

    /// The bot's action for the view's seat, which must be the seat to
    /// move: always legal. A finished hand is `GameOver`. Should a bot's
    /// plan ever name an illegal action, the first legal one is played
    /// instead (the random tests check that this never happens).
    pub fn act(&mut self, view: TonkSeatView<'_>) -> Result<u16> {
        if view.decision() == crate::engine::Decision::Terminal {
            return Err(CoreError::GameOver);
        }
        match self.choose(view) {
            Some(a) if view.is_legal(a) => Ok(a),
            _ => view.legal_action_list().first().copied().ok_or_else(|| {
                CoreError::IllegalAction(format!(
                    "no legal action for seat {} in phase {:?}",
                    view.seat(),
                    view.phase()
                ))
            }),
        }
    }
}

impl Controller<TonkState> for Bot {
    fn act(&mut self, view: TonkSeatView<'_>, now: Millis) -> Option<Intent> {
        // Unchecked: the driver checks it once, when it commits.
        self.choose(view).map(|action| Intent { action, at: now })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse() {
        assert_eq!(
            TonkBotSpec::parse("Greedy").unwrap(),
            TonkBotSpec::Greedy { drop_at: None }
        );
        assert_eq!(
            TonkBotSpec::parse("greedy:7").unwrap(),
            TonkBotSpec::Greedy { drop_at: Some(7) }
        );
        assert_eq!(
            TonkBotSpec::parse("strong:8").unwrap(),
            TonkBotSpec::Strong { samples: 8 }
        );
        assert!(TonkBotSpec::parse("smart").is_err());
        assert!(TonkBotSpec::parse("strong:x").is_err());
    }
}
