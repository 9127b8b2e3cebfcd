//! Three Thirteen bots (random, greedy, Monte Carlo "strong"): the engine
//! layer's controllers for Three Thirteen.
//!
//! A bot decides from a [`ThreeThirteenSeatView`]: its own hand and what the table shows
//! (discard pile, tabled melds, cards others took from the pile, the score
//! sheet), never another hand or the stock. Every solve goes through the
//! meld solver ([`crate::meld::Solver`]), one per bot, reusing its buffers.

use crate::bots::careless::{self, Slips};
use crate::card::Card;
use crate::engine::{Bots, Controller, Intent, Millis, SeatView as _};
use crate::error::{CoreError, Result};
use crate::games::three_thirteen::{
    action, Action, Jokers, Phase, ThreeThirteenGame, ThreeThirteenSeatView, ThreeThirteenState,
};
use crate::meld::{MeldRules, ResolvedRules, Solver};
use crate::rng::GameRng;

/// A Three Thirteen bot as named on the command line: `random`, `greedy`,
/// `strong` or `strong:N` (N samples of unseen cards per decision).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ThreeThirteenBotSpec {
    Random,
    Greedy,
    /// `greedy` playing a legal move at random on `percent`% of its
    /// decisions (the `easy` level, `bots/careless.rs`).
    Careless {
        percent: u8,
    },
    Strong {
        samples: u32,
    },
    /// Search over `worlds` sampled worlds per decision
    /// (`games/three_thirteen/expert.rs`).
    Expert {
        worlds: u32,
    },
}

impl ThreeThirteenBotSpec {
    pub const DEFAULT_SAMPLES: u32 = 24;
    pub const EXPERT_WORLDS: u32 = 64;
    pub const MAX_SAMPLES: u32 = 4096;
}

impl Bots<ThreeThirteenGame> for ThreeThirteenBotSpec {
    /// Reads `random`, `greedy`, `strong` or `strong:N` (case-insensitive);
    /// errors name the spec.
    fn parse(text: &str) -> Result<ThreeThirteenBotSpec> {
        let t = text.trim().to_ascii_lowercase();
        let (name, param) = match t.split_once(':') {
            Some((n, p)) => (n.trim(), Some(p.trim())),
            None => (t.as_str(), None),
        };
        match (name, param) {
            ("random", None) => Ok(ThreeThirteenBotSpec::Random),
            ("greedy", None) => Ok(ThreeThirteenBotSpec::Greedy),
            ("careless", p) => Ok(ThreeThirteenBotSpec::Careless {
                percent: careless::parse_percent(text, p)?,
            }),
            ("strong", None) => Ok(ThreeThirteenBotSpec::Strong {
                samples: Self::DEFAULT_SAMPLES,
            }),
            ("strong", Some(p)) => {
                let n: u32 = p.parse().map_err(|_| {
                    CoreError::config(format!("bot {text:?}: {p:?} is not a number of samples"))
                })?;
                if !(1..=Self::MAX_SAMPLES).contains(&n) {
                    return Err(CoreError::config(format!(
                        "bot {text:?}: samples must be 1 to {}",
                        Self::MAX_SAMPLES
                    )));
                }
                Ok(ThreeThirteenBotSpec::Strong { samples: n })
            }
            ("expert", None) => Ok(ThreeThirteenBotSpec::Expert {
                worlds: Self::EXPERT_WORLDS,
            }),
            ("expert", Some(p)) => {
                let n: u32 = p.parse().map_err(|_| {
                    CoreError::config(format!("bot {text:?}: {p:?} is not a number of worlds"))
                })?;
                if !(1..=Self::MAX_SAMPLES).contains(&n) {
                    return Err(CoreError::config(format!(
                        "bot {text:?}: worlds must be 1 to {}",
                        Self::MAX_SAMPLES
                    )));
                }
                Ok(ThreeThirteenBotSpec::Expert { worlds: n })
            }
            ("random" | "greedy", Some(_)) => Err(CoreError::config(format!(
                "bot {text:?}: {name} takes no parameter"
            ))),
            _ => Err(CoreError::config(format!(
                "unknown Three Thirteen bot {text:?}: expected {}",
                Self::grammar()
            ))),
        }
    }

    fn grammar() -> String {
        "random, careless[:percent], greedy, strong[:samples], expert[:worlds]".into()
    }

    /// The canonical spec: `random`, `greedy`, `strong`, `strong:N`.
    fn name(&self) -> String {
        match self {
            ThreeThirteenBotSpec::Random => "random".into(),
            ThreeThirteenBotSpec::Greedy => "greedy".into(),
            ThreeThirteenBotSpec::Careless { percent } => careless::name(*percent),
            ThreeThirteenBotSpec::Strong { samples } if *samples == Self::DEFAULT_SAMPLES => {
                "strong".into()
            }
            ThreeThirteenBotSpec::Strong { samples } => format!("strong:{samples}"),
            ThreeThirteenBotSpec::Expert { worlds } if *worlds == Self::EXPERT_WORLDS => {
                "expert".into()
            }
            ThreeThirteenBotSpec::Expert { worlds } => format!("expert:{worlds}"),
        }
    }

    fn build(
        &self,
        _game: &ThreeThirteenGame,
        seed: u64,
    ) -> Box<dyn Controller<ThreeThirteenState>> {
        Box::new(Bot::new(*self, seed))
    }

    fn examples() -> &'static [&'static str] {
        &["random", "careless:50", "greedy", "strong:4", "expert:2"]
    }

    /// The ladder of levels, weakest first (measured in docs/bots.md,
    /// Levels).
    fn levels() -> &'static [(&'static str, &'static str)] {
        &[
            ("easy", "careless:12"),
            ("normal", "careless:4"),
            ("hard", "strong:1"),
            ("expert", "expert"),
        ]
    }
}

fn without(hand: &[Card], c: Card, out: &mut Vec<Card>) {
    out.clear();
    out.extend_from_slice(hand);
    if let Some(i) = out.iter().position(|&h| h == c) {
        out.remove(i);
    }
}

fn with(hand: &[Card], c: Card, out: &mut Vec<Card>) {
    out.clear();
    out.extend_from_slice(hand);
    out.push(c);
}

/// Distinct cards of a sorted hand.
fn distinct(hand: &[Card]) -> Vec<Card> {
    let mut d = hand.to_vec();
    d.dedup();
    d
}

/// Takes the discard when that lowers its best-discard deadwood, otherwise
/// draws; discards to the lowest deadwood; goes out as soon as it can;
/// tables and lays off whatever lowers its deadwood in a redemption last
/// turn; never declares a false out.
#[derive(Default)]
pub struct Greedy {
    solver: Solver,
    buf: Vec<Card>,
}

impl Greedy {
    pub fn new() -> Greedy {
        Greedy::default()
    }

    fn deadwood(&mut self, hand: &[Card], rules: &MeldRules) -> u32 {
        self.solver.deadwood(hand, rules).unwrap_or(u32::MAX)
    }

    /// The least deadwood of `hand` (the solver's).
    pub(super) fn deadwood_of(&mut self, hand: &[Card], rules: &MeldRules) -> u32 {
        self.deadwood(hand, rules)
    }

    fn best_discard_deadwood(&mut self, hand: &[Card], rules: &MeldRules) -> u32 {
        if hand.is_empty() {
            return 0;
        }
        self.solver
            .best_discard_deadwood(hand, rules)
            .unwrap_or(u32::MAX)
    }

    /// Draw phase: take the discard iff it lowers the deadwood.
    fn draw(&mut self, v: &ThreeThirteenSeatView<'_>) -> u16 {
        let (draw, take) = (
            v.is_legal(action::DRAW_STOCK),
            v.is_legal(action::TAKE_DISCARD),
        );
        if !take {
            return action::DRAW_STOCK;
        }
        let Some(top) = v.top_discard() else {
            return action::DRAW_STOCK;
        };
        if !draw {
            return action::TAKE_DISCARD;
        }
        let rules = v.rules();
        let cur = self.deadwood(v.hand(), rules);
        let mut buf = std::mem::take(&mut self.buf);
        with(v.hand(), top, &mut buf);
        let taken = self.best_discard_deadwood(&buf, rules);
        self.buf = buf;
        if taken < cur {
            action::TAKE_DISCARD
        } else {
            action::DRAW_STOCK
        }
    }

    /// Redemption last turn (TT-10.6): table, then the lay-off that lowers
    /// the deadwood most; `None` when nothing helps.
    fn redemption(&mut self, v: &ThreeThirteenSeatView<'_>) -> Option<u16> {
        if !v.config().redemption_round || !v.in_last_turns() {
            return None;
        }
        if v.is_legal(action::TABLE) {
            return Some(action::TABLE);
        }
        let legal = v.legal_action_list();
        let rules = v.rules();
        let base = self.best_discard_deadwood(v.hand(), rules);
        let mut best: Option<(u32, u16)> = None;
        let mut buf = std::mem::take(&mut self.buf);
        for &a in legal.iter().filter(|&&a| a >= action::LAYOFF_BASE) {
            let Ok(Action::LayOff { card, .. }) = Action::decode(a) else {
                continue;
            };
            without(v.hand(), card, &mut buf);
            let d = self.best_discard_deadwood(&buf, rules);
            if d < base && best.is_none_or(|(b, _)| d < b) {
                best = Some((d, a));
            }
        }
        self.buf = buf;
        best.map(|(_, a)| a)
    }

    /// The discard with the lowest deadwood (solver's best discard), as
    /// `(card, deadwood)`, respecting `forbid_rediscard`.
    fn best_discard(&mut self, v: &ThreeThirteenSeatView<'_>) -> (Card, u32) {
        let hand = v.hand();
        let rules = v.rules();
        if let Ok(sol) = self.solver.best_discard(hand, rules) {
            if let Some(d) = sol.discard() {
                if v.is_legal(Action::Discard(d).encode()) {
                    return (d, sol.deadwood);
                }
            }
        }
        // The solver's discard is forbidden (TT-3.5): the best other one.
        let mut best: Option<(Card, u32)> = None;
        let mut buf = std::mem::take(&mut self.buf);
        for c in distinct(hand) {
            if !v.is_legal(Action::Discard(c).encode()) {
                continue;
            }
            without(hand, c, &mut buf);
            let d = self.deadwood(&buf, rules);
            if best.is_none_or(|(_, b)| d < b) {
                best = Some((c, d));
            }
        }
        self.buf = buf;
        best.unwrap_or((hand.first().copied().unwrap_or(Card::JOKER), u32::MAX))
    }

    fn finish_turn(v: &ThreeThirteenSeatView<'_>, card: Card, dw: u32) -> u16 {
        if dw == 0 {
            let out = Action::GoOut(card).encode();
            if v.is_legal(out) {
                return out;
            }
        }
        if card.is_joker() && v.config().jokers == Jokers::WildGiftable {
            // A joker put on the pile helps the next player; gifted it leaves play.
            let next = (v.seat() + 1) % v.players();
            let gift = Action::Gift(next).encode();
            if v.is_legal(gift) {
                return gift;
            }
        }
        Action::Discard(card).encode()
    }

    pub fn act(&mut self, v: &ThreeThirteenSeatView<'_>) -> u16 {
        match v.phase() {
            Phase::Draw => self.draw(v),
            Phase::Discard => {
                if let Some(a) = self.redemption(v) {
                    return a;
                }
                let (card, dw) = self.best_discard(v);
                Greedy::finish_turn(v, card, dw)
            }
            Phase::Over => action::DRAW_STOCK,
        }
    }
}

/// Greedy's plan, improved by looking one draw ahead over sampled unseen
/// cards (Monte Carlo over what the stock may bring) and by what a discard
/// gives the next player:
///
/// - draw: takes the discard only when its deadwood beats the expected
///   best-discard deadwood of a stock draw (the mean over sampled unseen
///   cards), or when it lets it go out;
/// - discard: among the discards within a few points of the lowest
///   deadwood, picks the one minimising a blend of deadwood now and the
///   expected deadwood after the next draw (keeping the better of the drawn
///   card and the hand), plus a penalty for giving the next player a wild
///   card or a card that fits the cards it took from the pile;
/// - going out: always as soon as it can (0 is the best own score, and
///   waiting only gives the others more draws); in a last turn, or when the
///   round is about to end, it plays greedy's lowest deadwood.
pub struct Strong {
    samples: u32,
    rng: GameRng,
    greedy: Greedy,
    drawn: Vec<Card>,
    buf: Vec<Card>,
    buf2: Vec<Card>,
}

/// Discards considered: at most this many, within this many points of the best.
const SHORTLIST: usize = 5;
const SHORTLIST_MARGIN: u32 = 12;
/// Weight of the deadwood now against the expected deadwood after a draw.
const NOW_WEIGHT: f64 = 0.35;
/// Penalties (in points) for feeding the next player.
const WILD_GIFT: f64 = 6.0;
const FITS_KNOWN: f64 = 3.0;

impl Strong {
    pub fn new(samples: u32, seed: u64) -> Strong {
        Strong {
            samples: samples.max(1),
            rng: GameRng::new(seed),
            greedy: Greedy::new(),
            drawn: Vec::new(),
            buf: Vec::new(),
            buf2: Vec::new(),
        }
    }

    /// `samples` unseen cards drawn without replacement (all of them when fewer).
    fn sample_unseen(&mut self, v: &ThreeThirteenSeatView<'_>) {
        let mut pool = v.unseen();
        let k = (self.samples as usize).min(pool.len());
        for i in 0..k {
            let j = i + self.rng.below((pool.len() - i) as u32) as usize;
            pool.swap(i, j);
        }
        pool.truncate(k);
        self.drawn = pool;
    }

    /// Mean over the sampled cards of the best deadwood of `hand` plus the
    /// card, never worse than `keep` (the card can be discarded again).
    fn expected_after_draw(&mut self, hand: &[Card], keep: u32, rules: &MeldRules) -> f64 {
        if self.drawn.is_empty() {
            return f64::from(keep);
        }
        let mut total = 0u64;
        let drawn = std::mem::take(&mut self.drawn);
        let mut buf = std::mem::take(&mut self.buf2);
        for &u in &drawn {
            with(hand, u, &mut buf);
            let d = self.greedy.best_discard_deadwood(&buf, rules).min(keep);
            total += u64::from(d);
        }
        self.buf2 = buf;
        let n = drawn.len() as f64;
        self.drawn = drawn;
        total as f64 / n
    }

    fn draw(&mut self, v: &ThreeThirteenSeatView<'_>) -> u16 {
        let (draw, take) = (
            v.is_legal(action::DRAW_STOCK),
            v.is_legal(action::TAKE_DISCARD),
        );
        let Some(top) = v.top_discard() else {
            return action::DRAW_STOCK;
        };
        if !take {
            return action::DRAW_STOCK;
        }
        if !draw {
            return action::TAKE_DISCARD;
        }
        let rules = v.rules();
        let mut buf = std::mem::take(&mut self.buf);
        with(v.hand(), top, &mut buf);
        let taken = self.greedy.best_discard_deadwood(&buf, rules);
        self.buf = buf;
        if taken == 0 {
            return action::TAKE_DISCARD;
        }
        let cur = self.greedy.deadwood(v.hand(), rules);
        if taken >= cur {
            return action::DRAW_STOCK;
        }
        self.sample_unseen(v);
        let stock = self.expected_after_draw(v.hand(), cur, rules);
        if f64::from(taken) < stock {
            action::TAKE_DISCARD
        } else {
            action::DRAW_STOCK
        }
    }

    /// What discarding `c` may give the next player (points of penalty).
    fn danger(&self, v: &ThreeThirteenSeatView<'_>, c: Card, rr: &ResolvedRules) -> f64 {
        if rr.is_wild(c) {
            return WILD_GIFT;
        }
        let next = (v.seat() + 1) % v.players();
        let fits = v.known_cards(next).iter().any(|&k| {
            !rr.is_wild(k)
                && (k.rank() == c.rank()
                    || (k.suit() == c.suit() && k.rank().abs_diff(c.rank()) <= 2))
        });
        if fits {
            FITS_KNOWN
        } else {
            0.0
        }
    }

    fn discard(&mut self, v: &ThreeThirteenSeatView<'_>) -> u16 {
        if let Some(a) = self.greedy.redemption(v) {
            return a;
        }
        let (best_card, best_dw) = self.greedy.best_discard(v);
        // Out now when possible; greedy play in a last turn or a dry stock.
        if best_dw == 0 || v.in_last_turns() || v.stock_size() < 2 {
            return Greedy::finish_turn(v, best_card, best_dw);
        }
        let hand = v.hand();
        let rules = v.rules();
        let rr = v.resolved_rules();
        let mut cands: Vec<(u32, Card)> = Vec::with_capacity(hand.len());
        let mut buf = std::mem::take(&mut self.buf);
        for c in distinct(hand) {
            if !v.is_legal(Action::Discard(c).encode()) {
                continue;
            }
            let d = if c == best_card {
                best_dw
            } else {
                without(hand, c, &mut buf);
                self.greedy.deadwood(&buf, rules)
            };
            if d <= best_dw + SHORTLIST_MARGIN {
                cands.push((d, c));
            }
        }
        cands.sort();
        cands.truncate(SHORTLIST);
        self.sample_unseen(v);
        let mut choice = (f64::INFINITY, best_dw, best_card);
        for &(d, c) in &cands {
            without(hand, c, &mut buf);
            let after = self.expected_after_draw(&buf, d, rules);
            let score =
                NOW_WEIGHT * f64::from(d) + (1.0 - NOW_WEIGHT) * after + self.danger(v, c, &rr);
            if score < choice.0 {
                choice = (score, d, c);
            }
        }
        self.buf = buf;
        Greedy::finish_turn(v, choice.2, choice.1)
    }

    pub fn act(&mut self, v: &ThreeThirteenSeatView<'_>) -> u16 {
        match v.phase() {
            Phase::Draw => self.draw(v),
            Phase::Discard => self.discard(v),
            Phase::Over => action::DRAW_STOCK,
        }
    }
}

/// A bot of any kind.
pub enum Bot {
    Random(GameRng),
    Greedy(Greedy),
    Careless(Greedy, Slips),
    Strong(Box<Strong>),
    Expert(Box<super::expert::Expert>),
}

impl Bot {
    pub fn new(spec: ThreeThirteenBotSpec, seed: u64) -> Bot {
        match spec {
            ThreeThirteenBotSpec::Random => Bot::Random(GameRng::new(seed)),
            ThreeThirteenBotSpec::Greedy => Bot::Greedy(Greedy::new()),
            ThreeThirteenBotSpec::Careless { percent } => {
                Bot::Careless(Greedy::new(), Slips::new(percent, seed))
            }
            ThreeThirteenBotSpec::Strong { samples } => {
                Bot::Strong(Box::new(Strong::new(samples, seed)))
            }
            ThreeThirteenBotSpec::Expert { worlds } => {
                Bot::Expert(Box::new(super::expert::Expert::new(worlds, seed)))
            }
        }
    }

    /// The bot's choice for the view's seat, unchecked (`None` when the
    /// seat is not to move or nothing is legal).
    pub fn choose(&mut self, view: ThreeThirteenSeatView<'_>) -> Option<u16> {
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
    /// move: always legal (should its plan ever name an illegal action, the
    /// first legal one; the random tests check that this never happens). A
    /// finished game is `GameOver`.
    pub fn act(&mut self, view: ThreeThirteenSeatView<'_>) -> Result<u16> {
        if view.decision() == crate::engine::Decision::Terminal {
            return Err(CoreError::GameOver);
        }
        match self.choose(view) {
            Some(a) if view.is_legal(a) => Ok(a),
            _ => view.legal_action_list().first().copied().ok_or_else(|| {
                CoreError::IllegalAction(format!("no legal action for seat {}", view.seat()))
            }),
        }
    }
}

impl Controller<ThreeThirteenState> for Bot {
    fn act(&mut self, view: ThreeThirteenSeatView<'_>, now: Millis) -> Option<Intent> {
        // Unchecked: the driver checks it once, when it commits.
        self.choose(view).map(|action| Intent { action, at: now })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_name_themselves() {
        use ThreeThirteenBotSpec as S;
        assert_eq!(S::parse("Random").unwrap(), S::Random);
        assert_eq!(S::parse(" GREEDY ").unwrap(), S::Greedy);
        assert_eq!(
            S::parse("strong").unwrap(),
            S::Strong {
                samples: S::DEFAULT_SAMPLES
            }
        );
        assert_eq!(S::parse("Strong:64").unwrap(), S::Strong { samples: 64 });
        for spec in ["random", "greedy", "strong", "strong:64"] {
            assert_eq!(S::parse(spec).unwrap().name(), spec);
        }
        for bad in ["smart", "strong:x", "strong:0", "greedy:3", ""] {
            let e = S::parse(bad).unwrap_err().to_string();
            assert!(e.contains(&format!("{bad:?}")), "{e}");
        }
    }
}
