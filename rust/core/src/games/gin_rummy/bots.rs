//! Gin Rummy bots: the engine layer's controllers for Gin Rummy. A bot
//! decides from a [`GinRummySeatView`]: its own hand and the table (the
//! upcard, the discard pile, laid melds, the public history); every
//! deadwood comes from the meld solver or its fast mask twin
//! ([`super::hand`]).
//!
//! - `random`, `greedy`: see the spec's variants.
//! - `simple`: the published baseline, OpenSpiel's `SimpleGinRummyBot`
//!   (the yardstick bots are measured against).
//! - `strong`, `expert`: search over sampled worlds ([`super::expert`]).
//! - `omniscient`: `expert`'s search with the other hand in view: for
//!   benchmarks only (how much reading the other hand is worth); it is no
//!   level and `play` does not offer it.

use crate::bots::careless::{self, Slips};
use crate::engine::{Bots, Controller, Intent, Millis, SeatView as _};
use crate::error::{CoreError, Result};
use crate::games::gin_rummy::expert::{SearchBot, Worlds};
use crate::games::gin_rummy::hand;
use crate::games::gin_rummy::{
    action, best_discard_deadwood, card_value, deadwood, GinRummyGame, GinRummySeatView,
    GinRummyState, Phase, MELD_MASKS,
};
use crate::rng::GameRng;

/// A Gin Rummy bot as named on the command line: `random`, `greedy`,
/// `simple`, `strong[:worlds]`, `expert[:worlds]` or `omniscient[:worlds]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GinRummyBotSpec {
    /// A uniform legal action.
    Random,
    /// Takes the upcard when it lowers its deadwood, discards to the least
    /// deadwood, knocks as soon as it may, lays the melds that leave the
    /// least deadwood and lays off every card it can.
    Greedy,
    /// `greedy` playing a legal move at random on `percent`% of its
    /// decisions (the lower levels, `bots/careless.rs`).
    Careless { percent: u8 },
    /// OpenSpiel's simple bot (GR-11.3): takes the upcard only into a meld
    /// (or when it lets it knock), discards its highest unmelded card,
    /// knocks as soon as it may, never lays off.
    Simple,
    /// Search over `worlds` uniformly dealt worlds per decision.
    Strong { worlds: u32 },
    /// Search over `worlds` worlds dealt with odds read from the other
    /// player's public actions.
    Expert { worlds: u32 },
    /// `expert`'s search seeing the other hand (benchmarks only).
    Omniscient { worlds: u32 },
}

impl GinRummyBotSpec {
    pub const STRONG_WORLDS: u32 = 32;
    pub const EXPERT_WORLDS: u32 = 256;
    pub const MAX_WORLDS: u32 = 4096;

    /// Whether the bot sees cards hidden from its seat: a benchmark, never
    /// an opponent (not a level, not offered by `play`).
    pub fn sees_everything(&self) -> bool {
        matches!(self, GinRummyBotSpec::Omniscient { .. })
    }
}

impl Bots<GinRummyGame> for GinRummyBotSpec {
    fn parse(text: &str) -> Result<GinRummyBotSpec> {
        let t = text.trim().to_ascii_lowercase();
        let (name, param) = match t.split_once(':') {
            Some((n, p)) => (n.trim(), Some(p.trim())),
            None => (t.as_str(), None),
        };
        let worlds = |default: u32| -> Result<u32> {
            let Some(p) = param else { return Ok(default) };
            let n: u32 = p.parse().map_err(|_| {
                CoreError::config(format!("bot {text:?}: {p:?} is not a number of worlds"))
            })?;
            if !(1..=Self::MAX_WORLDS).contains(&n) {
                return Err(CoreError::config(format!(
                    "bot {text:?}: worlds must be 1 to {}",
                    Self::MAX_WORLDS
                )));
            }
            Ok(n)
        };
        match (name, param) {
            ("random", None) => Ok(GinRummyBotSpec::Random),
            ("greedy", None) => Ok(GinRummyBotSpec::Greedy),
            ("simple", None) => Ok(GinRummyBotSpec::Simple),
            ("careless", p) => Ok(GinRummyBotSpec::Careless {
                percent: careless::parse_percent(text, p)?,
            }),
            ("strong", _) => Ok(GinRummyBotSpec::Strong {
                worlds: worlds(Self::STRONG_WORLDS)?,
            }),
            ("expert", _) => Ok(GinRummyBotSpec::Expert {
                worlds: worlds(Self::EXPERT_WORLDS)?,
            }),
            ("omniscient", _) => Ok(GinRummyBotSpec::Omniscient {
                worlds: worlds(Self::EXPERT_WORLDS)?,
            }),
            ("random" | "greedy" | "simple", Some(_)) => Err(CoreError::config(format!(
                "bot {text:?}: {name} takes no parameter"
            ))),
            _ => Err(CoreError::config(format!(
                "unknown Gin Rummy bot {text:?}: expected {}",
                Self::grammar()
            ))),
        }
    }

    fn grammar() -> String {
        "random, careless[:percent], greedy, simple, strong[:worlds], expert[:worlds], omniscient[:worlds] (benchmarks only)"
            .into()
    }

    fn name(&self) -> String {
        match *self {
            GinRummyBotSpec::Random => "random".into(),
            GinRummyBotSpec::Greedy => "greedy".into(),
            GinRummyBotSpec::Simple => "simple".into(),
            GinRummyBotSpec::Careless { percent } => careless::name(percent),
            GinRummyBotSpec::Strong { worlds } if worlds == Self::STRONG_WORLDS => "strong".into(),
            GinRummyBotSpec::Strong { worlds } => format!("strong:{worlds}"),
            GinRummyBotSpec::Expert { worlds } if worlds == Self::EXPERT_WORLDS => "expert".into(),
            GinRummyBotSpec::Expert { worlds } => format!("expert:{worlds}"),
            GinRummyBotSpec::Omniscient { worlds } if worlds == Self::EXPERT_WORLDS => {
                "omniscient".into()
            }
            GinRummyBotSpec::Omniscient { worlds } => format!("omniscient:{worlds}"),
        }
    }

    fn build(&self, _game: &GinRummyGame, seed: u64) -> Box<dyn Controller<GinRummyState>> {
        Box::new(Bot::new(*self, seed))
    }

    /// `omniscient` is left out on purpose: it reads the other hand, so the
    /// seat-view test (`tests/engine/bot_views.rs`) would rightly fail it.
    fn examples() -> &'static [&'static str] {
        &[
            "random",
            "careless:50",
            "greedy",
            "simple",
            "strong:2",
            "expert:2",
        ]
    }

    /// The ladder of levels, weakest first (measured in docs/bots.md,
    /// Levels).
    fn levels() -> &'static [(&'static str, &'static str)] {
        &[
            ("easy", "careless:60"),
            ("normal", "careless:30"),
            ("hard", "careless:10"),
            ("expert", "expert"),
        ]
    }
}

/// A seeded Gin Rummy bot.
pub struct Bot {
    spec: GinRummyBotSpec,
    rng: GameRng,
    legal: Vec<u16>,
    search: Option<SearchBot>,
    slips: Option<Slips>,
}

impl Bot {
    pub fn new(spec: GinRummyBotSpec, seed: u64) -> Bot {
        let search = match spec {
            GinRummyBotSpec::Strong { worlds } => {
                Some(SearchBot::new(worlds, Worlds::Uniform, seed))
            }
            GinRummyBotSpec::Expert { worlds } => {
                Some(SearchBot::new(worlds, Worlds::Inferred, seed))
            }
            GinRummyBotSpec::Omniscient { worlds } => {
                Some(SearchBot::new(worlds, Worlds::Omniscient, seed))
            }
            _ => None,
        };
        let slips = match spec {
            GinRummyBotSpec::Careless { percent } => Some(Slips::new(percent, seed)),
            _ => None,
        };
        Bot {
            spec,
            rng: GameRng::new(seed),
            legal: Vec::new(),
            search,
            slips,
        }
    }

    /// The bot's action for the view's seat (None when it is not to move).
    pub fn choose(&mut self, view: GinRummySeatView<'_>) -> Option<u16> {
        if let Some(s) = self.search.as_mut() {
            return s.choose(view);
        }
        view.legal_actions(&mut self.legal);
        if self.legal.is_empty() {
            return None;
        }
        if let Some(slip) = self.slips.as_mut().and_then(|s| s.slip(&view)) {
            return Some(slip);
        }
        Some(match self.spec {
            GinRummyBotSpec::Random => *self.rng.choose(&self.legal)?,
            GinRummyBotSpec::Simple => simple(&view, &self.legal),
            _ => greedy(&view, &self.legal),
        })
    }
}

/// OpenSpiel's `SimpleGinRummyBot` (GR-11.3), on the exact deadwood:
///
/// - draw: the upcard if it lets it knock or if it is in a best meld of
///   the hand with it; else the stock (or pass the first upcard);
/// - discard: knock if it may; else its highest-ranked card outside a
///   best arrangement of melds (of equal ranks, the highest card id);
/// - knock: that discard, then the best arrangement's melds;
/// - the other player knocked: no lay-off, its best arrangement's melds;
/// - the wall: knock if it may.
pub fn simple(view: &GinRummySeatView<'_>, legal: &[u16]) -> u16 {
    let hand = view.hand_mask();
    let has = |a: u16| legal.binary_search(&a).is_ok();
    let knock = u32::from(view.knock_card());
    let melds_of = |h: u64| -> Vec<u16> {
        hand::best_melds(h)
            .into_iter()
            .map(|m| action::MELD_BASE + u16::from(m))
            .collect()
    };
    match view.phase() {
        Phase::FirstUpcard | Phase::Draw => {
            let take = view.upcard_id().is_some_and(|u| {
                let with = hand | 1u64 << u;
                let melded = hand::best_melds(with)
                    .iter()
                    .any(|&m| MELD_MASKS[usize::from(m)] >> u & 1 == 1);
                hand::best_discard_deadwood(with) <= knock || melded
            });
            if take && has(action::DRAW_UPCARD) {
                action::DRAW_UPCARD
            } else {
                *legal.last().unwrap_or(&action::PASS)
            }
        }
        Phase::Wall => {
            if has(action::KNOCK) {
                action::KNOCK
            } else {
                action::PASS
            }
        }
        Phase::Discard if has(action::KNOCK) => action::KNOCK,
        Phase::Discard => simple_discard(hand).filter(|&c| has(c)).unwrap_or(legal[0]),
        Phase::Knock => {
            if legal.iter().any(|&a| a < action::CARDS) {
                simple_discard(hand)
                    .filter(|&c| has(c))
                    .or_else(|| {
                        legal
                            .iter()
                            .copied()
                            .filter(|&a| a < action::CARDS)
                            .min_by_key(|&c| hand::deadwood(hand & !(1u64 << c)))
                    })
                    .unwrap_or(legal[0])
            } else {
                melds_of(hand)
                    .into_iter()
                    .find(|&a| has(a))
                    .unwrap_or(action::PASS)
            }
        }
        Phase::Layoff => {
            if legal.iter().any(|&a| a < action::CARDS) {
                action::PASS
            } else {
                melds_of(hand)
                    .into_iter()
                    .find(|&a| has(a))
                    .unwrap_or(action::PASS)
            }
        }
        Phase::Over => legal[0],
    }
}

/// The simple bot's discard from a hand one card over: its highest-ranked
/// unmelded card of a best arrangement, or, with every card melded, the
/// first whose loss keeps gin.
fn simple_discard(hand: u64) -> Option<u16> {
    let used = hand::best_melds(hand)
        .iter()
        .fold(0u64, |u, &m| u | MELD_MASKS[usize::from(m)]);
    let loose = hand & !used;
    if loose != 0 {
        return crate::games::gin_rummy::ids(loose)
            .max_by_key(|&c| (c % 13, c))
            .map(u16::from);
    }
    crate::games::gin_rummy::ids(hand)
        .find(|&c| hand::deadwood(hand & !(1u64 << c)) == 0)
        .map(u16::from)
}

/// The greedy choice among `legal` for the view's seat.
pub fn greedy(view: &GinRummySeatView<'_>, legal: &[u16]) -> u16 {
    let hand = view.hand_mask();
    let has = |a: u16| legal.binary_search(&a).is_ok();
    let cards: Vec<u16> = legal
        .iter()
        .copied()
        .filter(|&a| a < action::CARDS)
        .collect();
    match view.phase() {
        Phase::FirstUpcard | Phase::Draw => {
            let better = view
                .upcard_id()
                .is_some_and(|u| best_discard_deadwood(hand | 1 << u) < deadwood(hand));
            if better && has(action::DRAW_UPCARD) {
                action::DRAW_UPCARD
            } else if has(action::PASS) {
                action::PASS
            } else {
                action::DRAW_STOCK
            }
        }
        Phase::Wall => {
            if has(action::KNOCK) {
                action::KNOCK
            } else {
                action::PASS
            }
        }
        Phase::Discard if has(action::KNOCK) => action::KNOCK,
        Phase::Discard | Phase::Knock if !cards.is_empty() && legal.len() == cards.len() => {
            best_discard(hand, &cards)
        }
        Phase::Discard => best_discard(hand, &cards),
        Phase::Layoff if !cards.is_empty() => cards
            .iter()
            .copied()
            .max_by_key(|&c| (card_value(c as u8), std::cmp::Reverse(c)))
            .unwrap_or(action::PASS),
        Phase::Knock | Phase::Layoff => best_meld(hand, legal),
        Phase::Over => legal.first().copied().unwrap_or(action::PASS),
    }
}

/// The discard leaving the least deadwood (then the highest card, then the lowest id).
fn best_discard(hand: u64, cards: &[u16]) -> u16 {
    cards
        .iter()
        .copied()
        .min_by_key(|&c| {
            (
                deadwood(hand & !(1u64 << c)),
                std::cmp::Reverse(card_value(c as u8)),
                c,
            )
        })
        .unwrap_or(action::PASS)
}

/// The meld leaving the least deadwood, or pass when none is legal.
fn best_meld(hand: u64, legal: &[u16]) -> u16 {
    legal
        .iter()
        .copied()
        .filter(|&a| a >= action::MELD_BASE)
        .min_by_key(|&a| {
            let m = MELD_MASKS[usize::from(a - action::MELD_BASE)];
            (deadwood(hand & !m), a)
        })
        .unwrap_or(action::PASS)
}

impl Controller<GinRummyState> for Bot {
    fn act(&mut self, view: GinRummySeatView<'_>, now: Millis) -> Option<Intent> {
        self.choose(view).map(|action| Intent { action, at: now })
    }
}
