//! The controllers of real-time games (RT-2, RT-3): a seat a person drives,
//! and bots with a reaction time. A [`ReactionBot`] looks at its seat's view
//! once its reaction delay has passed since a move became possible, may
//! overlook plays, and lets a game's [`Policy`] choose among what it saw;
//! the game names its policies, the spec ([`BotSpec`]) adds the timing.

use crate::engine::{Controller, Intent, Millis, SeatView as _, State};
use crate::error::{CoreError, Result};
use crate::rng::GameRng;

/// A seat a person drives: it never wakes by itself; its intents come from
/// [`Session::submit`], stamped with the person's own (virtual) time.
///
/// [`Session::submit`]: crate::engine::realtime::Session::submit
pub struct Person;

impl<S: State> Controller<S> for Person {
    fn act(&mut self, _: S::SeatView<'_>, _: Millis) -> Option<Intent> {
        None
    }

    fn next_wake(&mut self, _: S::SeatView<'_>, _: Millis) -> Option<Millis> {
        None
    }
}

/// A bot's speed (RT-3): log-normal reaction delays with this median and
/// spread, the card's travel time, and the chance of overlooking each legal
/// play on a scan.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Timing {
    pub reaction_median_ms: u32,
    pub reaction_sigma: f64,
    pub motor_ms: u32,
    pub miss_rate: f64,
}

impl Timing {
    /// The presets of RT-3, by name.
    pub const PRESETS: [(&'static str, Timing); 4] = [
        ("easy", Timing::preset(1500, 0.12)),
        ("normal", Timing::preset(900, 0.06)),
        ("hard", Timing::preset(500, 0.02)),
        (
            "instant",
            Timing {
                reaction_median_ms: 0,
                reaction_sigma: 0.0,
                motor_ms: 0,
                miss_rate: 0.0,
            },
        ),
    ];

    const fn preset(median: u32, miss_rate: f64) -> Timing {
        Timing {
            reaction_median_ms: median,
            reaction_sigma: 0.35,
            motor_ms: 150,
            miss_rate,
        }
    }

    /// A reaction delay drawn from the bot's own stream: log-normal, cut
    /// at [`Self::max_reaction_ms`].
    pub fn reaction(&self, rng: &mut GameRng) -> Millis {
        if self.reaction_median_ms == 0 {
            return 0;
        }
        // Box–Muller: one standard normal from two uniforms in (0, 1].
        let u1 = 1.0 - rng.unit_f64();
        let u2 = rng.unit_f64();
        let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
        let ms = f64::from(self.reaction_median_ms) * (self.reaction_sigma * z).exp();
        ms.clamp(1.0, self.max_reaction_ms() as f64) as Millis
    }

    /// The longest reaction delay (RT-3): three spreads above the median
    /// (`easy` 4.3 s, `normal` 2.6 s, `hard` 1.4 s, `instant` none), and
    /// never over a minute. A bot with a move looks at the table at most
    /// this long after the move became possible.
    pub fn max_reaction_ms(&self) -> Millis {
        if self.reaction_median_ms == 0 {
            return 0;
        }
        let ms = f64::from(self.reaction_median_ms) * (3.0 * self.reaction_sigma).exp();
        ms.ceil().clamp(1.0, 60_000.0) as Millis
    }
}

/// A real-time bot's spec: its policy (named by the game), its timing.
#[derive(Debug, Clone, PartialEq)]
pub struct BotSpec {
    pub policy: &'static str,
    pub timing: Timing,
    /// The preset the timing started from (for the canonical name).
    pub preset: &'static str,
    /// Worlds a searching policy samples per decision (`worlds=N`); None:
    /// its default.
    pub worlds: Option<u32>,
}

/// The most worlds a searching policy may sample per decision.
pub const MAX_WORLDS: u32 = 65_536;

/// The real-time bot specs [`BotSpec::parse`] reads, for help texts.
pub fn bot_grammar(policies: &[&str], searching: &[&str]) -> String {
    let presets: Vec<&str> = Timing::PRESETS.iter().map(|(name, _)| *name).collect();
    let worlds = if searching.is_empty() {
        String::new()
    } else {
        format!(" (and ,worlds= for {})", searching.join(", "))
    };
    format!(
        "POLICY:PRESET ({}; {}) and optional ,reaction_median_ms=,reaction_sigma=,motor_ms=,miss_rate= values{worlds}",
        policies.join(", "),
        presets.join(", ")
    )
}

impl BotSpec {
    /// Reads `POLICY[:PRESET][,key=value...]` (or just `PRESET`, with the
    /// first of `policies`): e.g. `smart:hard`, `plain:instant`,
    /// `smart,reaction_median_ms=300`. Keys: `reaction_median_ms`,
    /// `reaction_sigma`, `motor_ms`, `miss_rate`, and `worlds` for the
    /// policies of `searching`.
    pub fn parse(spec: &str, policies: &[&'static str], searching: &[&str]) -> Result<BotSpec> {
        let bad = |msg: String| CoreError::config(format!("bot {spec:?}: {msg}"));
        let text = spec.trim().to_ascii_lowercase();
        let mut parts = text.split(',');
        let head = parts.next().unwrap_or_default();
        let (first, second) = match head.split_once(':') {
            Some((a, b)) => (a, Some(b)),
            None => (head, None),
        };
        let preset_of = |name: &str| Timing::PRESETS.iter().find(|(n, _)| *n == name).copied();
        let (policy, preset) = match (policies.iter().find(|p| **p == first), second) {
            (Some(p), Some(pre)) => (*p, pre),
            (Some(p), None) => (*p, "normal"),
            (None, None) if preset_of(first).is_some() => (policies[0], first),
            _ => {
                return Err(bad(format!(
                    "expected POLICY[:PRESET] with a policy of {} and a preset of easy, normal, hard, instant",
                    policies.join(", ")
                )))
            }
        };
        let Some((preset, mut timing)) = preset_of(preset) else {
            return Err(bad(format!(
                "unknown preset {preset:?}: expected easy, normal, hard or instant"
            )));
        };
        let mut worlds = None;
        for kv in parts {
            let Some((key, value)) = kv.split_once('=') else {
                return Err(bad(format!("{kv:?} is not key=value")));
            };
            let number = |what: &str| {
                value
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite() && *v >= 0.0)
                    .ok_or_else(|| {
                        bad(format!(
                            "{key} must be a number of 0 or more, got {value:?} ({what})"
                        ))
                    })
            };
            match key.trim() {
                "reaction_median_ms" => {
                    timing.reaction_median_ms = number("ms")?.min(60_000.0) as u32
                }
                "reaction_sigma" => timing.reaction_sigma = number("spread")?.min(3.0),
                "motor_ms" => timing.motor_ms = number("ms")?.min(10_000.0) as u32,
                "miss_rate" => {
                    let v = number("a chance")?;
                    if v > 1.0 {
                        return Err(bad(format!("miss_rate is a chance from 0 to 1, got {v}")));
                    }
                    timing.miss_rate = v;
                }
                "worlds" if searching.contains(&policy) => {
                    let v = value
                        .trim()
                        .parse::<u32>()
                        .ok()
                        .filter(|v| (1..=MAX_WORLDS).contains(v));
                    let Some(v) = v else {
                        return Err(bad(format!(
                            "worlds must be a whole number from 1 to {MAX_WORLDS}, got {value:?}"
                        )));
                    };
                    worlds = Some(v);
                }
                "worlds" => {
                    return Err(bad(if searching.is_empty() {
                        "worlds= is for a searching policy, and this game has none".to_string()
                    } else {
                        format!(
                            "worlds= is for the searching policies ({}), not {policy}",
                            searching.join(", ")
                        )
                    }))
                }
                other => {
                    let worlds = if searching.is_empty() { "" } else { ", worlds" };
                    return Err(bad(format!(
                        "unknown key {other:?}: expected reaction_median_ms, reaction_sigma, motor_ms, miss_rate{worlds}"
                    )));
                }
            }
        }
        Ok(BotSpec {
            policy,
            timing,
            preset,
            worlds,
        })
    }

    /// The canonical spec: `smart:hard`, with the keys that differ from the preset.
    pub fn name(&self) -> String {
        let mut out = format!("{}:{}", self.policy, self.preset);
        let base = Timing::PRESETS
            .iter()
            .find(|(n, _)| *n == self.preset)
            .map_or(self.timing, |(_, t)| *t);
        let t = &self.timing;
        if t.reaction_median_ms != base.reaction_median_ms {
            out += &format!(",reaction_median_ms={}", t.reaction_median_ms);
        }
        if t.reaction_sigma != base.reaction_sigma {
            out += &format!(",reaction_sigma={}", t.reaction_sigma);
        }
        if t.motor_ms != base.motor_ms {
            out += &format!(",motor_ms={}", t.motor_ms);
        }
        if t.miss_rate != base.miss_rate {
            out += &format!(",miss_rate={}", t.miss_rate);
        }
        if let Some(w) = self.worlds {
            out += &format!(",worlds={w}");
        }
        out
    }
}

/// What a real-time bot plays, given what its seat sees.
pub trait Policy<S: State>: Send {
    /// One of `legal` (never empty), or None to wait.
    fn choose(&mut self, view: S::SeatView<'_>, legal: &[u16], rng: &mut GameRng) -> Option<u16>;

    /// [`Self::choose`] over every legal action (nothing overlooked), for a
    /// policy that can read the view's own action sets instead of a list:
    /// Some(its choice), or None to have `choose` asked with the list.
    fn choose_from_view(
        &mut self,
        _view: S::SeatView<'_>,
        _rng: &mut GameRng,
    ) -> Option<Option<u16>> {
        None
    }

    /// After choosing to wait: how long until it looks again even if
    /// nothing changes (a policy that holds a card back for a while), or
    /// None to wait for the next change.
    fn patience_ms(&self) -> Option<Millis> {
        None
    }

    /// Shown the seat's view after every change (each commit, bounce and
    /// timer, RT-2), also while its hand is busy, and when it looks again
    /// after overlooking a play. A policy that keeps track of public events
    /// (cards played, stalemates) reads them here; the same view may be
    /// shown twice. By default it ignores them.
    fn observe(&mut self, _view: S::SeatView<'_>) {}
}

/// Any legal action, uniformly (every real-time game's `random` policy).
pub struct RandomPolicy;

impl<S: State> Policy<S> for RandomPolicy {
    fn choose(&mut self, _: S::SeatView<'_>, legal: &[u16], rng: &mut GameRng) -> Option<u16> {
        legal.get(rng.below(legal.len() as u32) as usize).copied()
    }
}

/// A bot with a reaction time (RT-3): it looks at the table once its
/// reaction delay has passed since a move became possible, reads the state
/// as it is then, may overlook plays (`miss_rate`), and its card lands
/// `motor_ms` later. The clock runs from the moment the move became
/// possible: changes that leave it legal (the other seat's moves elsewhere
/// on the table) do not put the look off, so a bot with a move looks within
/// [`Timing::max_reaction_ms`] of it however busy the other seat is. After
/// its own move, and after a look that overlooked a play, it reacts afresh.
pub struct ReactionBot<S: State> {
    timing: Timing,
    policy: Box<dyn Policy<S>>,
    rng: GameRng,
    legal: Vec<u16>,
    seen: Vec<u16>,
    /// The last look overlooked a play (`miss_rate`).
    missed: bool,
    /// Each legal move, and since when it has been legal without a break
    /// (forgotten when the bot acts: after its own move it reacts afresh),
    /// by action; `merged` is the next one's room.
    since: Vec<(u16, Millis)>,
    merged: Vec<(u16, Millis)>,
    /// The look it has planned, and when that look's reaction clock started.
    wake: Option<(Millis, Millis)>,
}

impl<S: State> ReactionBot<S> {
    pub fn new(timing: Timing, policy: Box<dyn Policy<S>>, seed: u64) -> Self {
        ReactionBot {
            timing,
            policy,
            rng: GameRng::new(seed),
            legal: Vec::new(),
            seen: Vec::new(),
            missed: false,
            since: Vec::new(),
            merged: Vec::new(),
            wake: None,
        }
    }
}

impl<S: State> Controller<S> for ReactionBot<S> {
    fn next_wake(&mut self, view: S::SeatView<'_>, now: Millis) -> Option<Millis> {
        self.policy.observe(view);
        if !view.can_act() {
            self.since.clear();
            self.wake = None;
            return None;
        }
        if self.timing.reaction_median_ms == 0 {
            // It looks at every change at once: no clock to keep.
            return Some(now);
        }
        // Each legal move keeps the time it became legal (both lists are
        // sorted by action), a new one has it now.
        view.legal_actions(&mut self.legal);
        debug_assert!(self.legal.windows(2).all(|w| w[0] < w[1]));
        self.merged.clear();
        let mut old = self.since.iter().peekable();
        for &a in &self.legal {
            while old.next_if(|&&(b, _)| b < a).is_some() {}
            let t = old.next_if(|&&(b, _)| b == a).map_or(now, |&(_, t)| t);
            self.merged.push((a, t));
        }
        std::mem::swap(&mut self.since, &mut self.merged);
        // RT-3: the reaction clock runs from when the oldest legal move
        // became legal; a change that leaves the move a planned look
        // answers does not put the look off.
        let first = self.since.iter().map(|&(_, t)| t).min().unwrap_or(now);
        if let Some((at, from)) = self.wake {
            if at >= now && first <= from {
                return Some(at);
            }
        }
        let at = (first + self.timing.reaction(&mut self.rng)).max(now);
        self.wake = Some((at, first));
        Some(at)
    }

    fn observe(&mut self, view: S::SeatView<'_>) {
        self.policy.observe(view);
    }

    fn act(&mut self, view: S::SeatView<'_>, now: Millis) -> Option<Intent> {
        self.missed = false;
        self.wake = None;
        self.since.clear();
        let motor = Millis::from(self.timing.motor_ms.max(1));
        if self.timing.miss_rate == 0.0 {
            if let Some(choice) = self.policy.choose_from_view(view, &mut self.rng) {
                return choice.map(|action| Intent {
                    action,
                    at: now + motor,
                });
            }
        }
        view.legal_actions(&mut self.legal);
        let seen = if self.timing.miss_rate == 0.0 {
            &self.legal
        } else {
            self.seen.clear();
            for &a in &self.legal {
                if self.rng.unit_f64() >= self.timing.miss_rate {
                    self.seen.push(a);
                } else {
                    self.missed = true;
                }
            }
            &self.seen
        };
        if seen.is_empty() {
            return None;
        }
        let action = self.policy.choose(view, seen, &mut self.rng)?;
        // A card takes at least a millisecond to land, so the clock always
        // moves on (an instant bot could otherwise shuffle cards forever
        // within one millisecond, and no timer would ever come due).
        Some(Intent {
            action,
            at: now + Millis::from(self.timing.motor_ms.max(1)),
        })
    }

    /// A bot that overlooked a play looks again after its reaction time; one
    /// that chose to wait, when its policy's patience runs out or the state
    /// changes (a deterministic policy would choose the same again).
    fn look_again(&mut self, view: S::SeatView<'_>, now: Millis) -> Option<Millis> {
        if self.missed {
            self.next_wake(view, now)
        } else {
            self.policy.patience_ms().map(|ms| now + ms)
        }
    }
}
