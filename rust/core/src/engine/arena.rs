//! Bot-against-bot runs for any game: every deal is played once per rotation
//! of the seats (mirrored seats over common deals), each game's seeds come
//! from the master seed and the game's index, so results do not depend on
//! the thread count, and per-bot statistics are paired by deal.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::realtime::{Committed, Session};
use super::seeds;
use super::{play_to_end_until, Decision, Game, Millis, State};
use crate::error::{CoreError, Result};
use crate::rng::derive_seed;

/// The most actions one game may take before the arena gives up on it.
pub(crate) const MAX_ACTIONS: usize = 1_000_000;

/// One game of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameResult {
    /// Index of the game in the run.
    pub index: u64,
    /// Seed of the deal and its dealer.
    pub seed: u64,
    pub dealer: u8,
    /// Bot (index into the run's bot list) sitting at each seat.
    pub seating: Vec<u8>,
    pub actions: Vec<u16>,
    pub returns: Vec<i64>,
    /// Bit `seat` set for each seat that won.
    pub winners: u64,
    /// One of the game's ending categories, or [`UNFINISHED`].
    pub ending: &'static str,
    /// The final state's fingerprint.
    pub fingerprint: u64,
    /// Whether the game ran on the virtual clock (a real-time game, even
    /// one without a single commit).
    pub realtime: bool,
    /// Every commit of a real-time game, bounces included (empty for a
    /// turn-based one).
    pub events: Vec<Committed>,
    /// How long a real-time game lasted on the virtual clock.
    pub virtual_ms: Millis,
    /// Deals (hands, rounds, layouts) the game took.
    pub deals: u32,
    /// Each seat's bot seed.
    pub bot_seeds: Vec<u64>,
    /// A real-time game's event hash (0 for a turn-based one).
    pub event_hash: u64,
    /// Bot answers the turn-based driver found illegal and replaced with
    /// the first legal action: a bug in a bot, 0 with sound ones
    /// ([`super::replaced_answers`]).
    pub replaced: u32,
}

/// The ending of a game a guard stopped before the rules ended it.
pub const UNFINISHED: &str = "unfinished";

/// Seats of game `index` in a run with `bots` bots: the deal of block
/// `index / bots` is played once per rotation.
pub fn seating(index: u64, bots: usize) -> Vec<u8> {
    let r = (index % bots as u64) as usize;
    (0..bots).map(|seat| ((seat + r) % bots) as u8).collect()
}

/// Plays game `index` of a run with seed `master`.
pub fn play_game<G: Game>(
    game: &G,
    specs: &[G::BotSpec],
    master: u64,
    index: u64,
) -> Result<GameResult> {
    play_game_until(game, specs, master, index, &AtomicBool::new(false))?
        .ok_or_else(|| CoreError::config("the game was stopped"))
}

/// [`play_game`], given up (None) when `stop` is set before it ends: the
/// drivers look at it between moves (turn-based) or events (real-time).
pub fn play_game_until<G: Game>(
    game: &G,
    specs: &[G::BotSpec],
    master: u64,
    index: u64,
    stop: &AtomicBool,
) -> Result<Option<GameResult>> {
    let n = specs.len();
    let deal_seed = derive_seed(master, index / n as u64);
    let seats = seating(index, n);
    let mut state = game.deal(deal_seed, None)?;
    // Each game's bots from that game's own seed (its index in the run).
    let bot_seeds: Vec<u64> = (0..seats.len())
        .map(|seat| seeds::bot_seed(seeds::child_seed(master, index), seat))
        .collect();
    let mut bots: Vec<_> = seats
        .iter()
        .zip(&bot_seeds)
        .map(|(&b, &seed)| game.new_bot(&specs[usize::from(b)], seed))
        .collect();
    // A real-time game starts on the clock, not with a seat's turn.
    let realtime = !matches!(state.decision(), Decision::Seat(_) | Decision::Terminal);
    let mut replaced = 0;
    let (events, virtual_ms, event_hash) = if realtime {
        // The same bots on the virtual clock (RT-9 (a)).
        let mut session =
            Session::new(state, bots, game.session_rules(deal_seed)).without_private_notes();
        if session.run_until(stop)?.is_none() {
            return Ok(None);
        }
        let now = session.now();
        let hash = session.event_hash();
        let (end, log) = session.into_parts();
        state = end;
        (log, now, hash)
    } else {
        match play_to_end_until(&mut state, &mut bots, MAX_ACTIONS, stop)? {
            Some(n) => replaced = n,
            None => return Ok(None),
        }
        (Vec::new(), 0, 0)
    };
    Ok(Some(GameResult {
        index,
        seed: deal_seed,
        dealer: state.dealer(),
        seating: seats,
        actions: state.history().to_vec(),
        returns: state.returns(),
        winners: (0..n as u8)
            .filter(|&seat| state.won(seat))
            .fold(0, |m, seat| m | 1 << seat),
        ending: state.ending().unwrap_or(UNFINISHED),
        fingerprint: state.fingerprint(),
        deals: state.deals_played(),
        bot_seeds,
        event_hash,
        realtime,
        events,
        virtual_ms,
        replaced,
    }))
}

/// Plays `games` games (rounded up to whole rotations) in parallel; results
/// come back in game order.
pub fn simulate<G: Game>(
    game: &G,
    specs: &[G::BotSpec],
    games: u64,
    master: u64,
) -> Result<Vec<GameResult>> {
    let total = whole_rotations(games, specs.len())?;
    let indexes: Vec<u64> = (0..total).collect();
    indexes
        .par_iter()
        .with_min_len(16)
        .map(|&i| play_game(game, specs, master, i))
        .collect()
}

/// `games` rounded up to whole seat rotations of `seats` bots; an error
/// (naming `games`) when that is more than a run can count.
pub fn whole_rotations(games: u64, seats: usize) -> Result<u64> {
    let n = (seats as u64).max(1);
    games.div_ceil(n).checked_mul(n).ok_or_else(|| {
        CoreError::option(
            "games",
            format!(
                "{games} games rounded up to whole rotations of {n} seats is more than the {} a run counts",
                u64::MAX
            ),
        )
    })
}

/// Mean and 95% confidence half-width of independent observations (a
/// normal approximation), with the range the quantity can take: the
/// interval's ends stay inside it (a win rate near 100% has no upper end
/// above 100%).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    pub mean: f64,
    pub half_width: f64,
    pub n: u64,
    pub range: (f64, f64),
}

impl Estimate {
    pub fn of(xs: &[f64]) -> Estimate {
        let n = xs.len();
        if n == 0 {
            return Estimate {
                mean: 0.0,
                half_width: 0.0,
                n: 0,
                range: (f64::NEG_INFINITY, f64::INFINITY),
            };
        }
        let mean = xs.iter().sum::<f64>() / n as f64;
        let var = if n > 1 {
            xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64
        } else {
            0.0
        };
        Estimate {
            mean,
            half_width: 1.96 * (var / n as f64).sqrt(),
            n: n as u64,
            range: (f64::NEG_INFINITY, f64::INFINITY),
        }
    }

    /// The estimate of `n` observations `v / scale`, from the exact sums
    /// of the whole numbers `v` and of their squares: the same mean and
    /// interval as [`Estimate::of`] on the observations, to rounding.
    pub fn of_sums(n: u64, sum: i128, sum_of_squares: i128, scale: f64) -> Estimate {
        if n == 0 {
            return Estimate::of(&[]);
        }
        let count = i128::from(n);
        let mean = sum as f64 / n as f64 / scale;
        // (n Σv² - (Σv)²) / (n (n - 1)): exact while it fits, else in floats.
        let spread = count
            .checked_mul(sum_of_squares)
            .zip(sum.checked_mul(sum))
            .and_then(|(a, b)| a.checked_sub(b))
            .map(|d| d as f64)
            .unwrap_or_else(|| {
                let m = sum as f64 / n as f64;
                (sum_of_squares as f64 - m * sum as f64) * n as f64
            });
        let var = if n > 1 {
            spread / (n as f64 * (n - 1) as f64) / (scale * scale)
        } else {
            0.0
        };
        Estimate {
            mean,
            half_width: 1.96 * (var.max(0.0) / n as f64).sqrt(),
            n,
            range: (f64::NEG_INFINITY, f64::INFINITY),
        }
    }

    /// The same estimate of a quantity that lies between `lo` and `hi`.
    pub fn within(self, lo: f64, hi: f64) -> Estimate {
        Estimate {
            range: (lo, hi),
            ..self
        }
    }

    pub fn low(&self) -> f64 {
        (self.mean - self.half_width).max(self.range.0)
    }

    pub fn high(&self) -> f64 {
        (self.mean + self.half_width).min(self.range.1)
    }
}

/// The rows of a run's endings table: the game's categories, then
/// [`UNFINISHED`] for the games a guard stopped.
fn ending_rows<G: Game>() -> usize {
    G::ending_categories().len() + 1
}

/// The row of a game's ending: its category, else [`UNFINISHED`] (the last
/// row), so that every game is counted.
fn ending_index<G: Game>(r: &GameResult) -> usize {
    let categories = G::ending_categories();
    categories
        .iter()
        .position(|&c| c == r.ending)
        .unwrap_or(categories.len())
}

/// Per-deal totals of a run, summed over its deals as they finish, so that
/// memory does not grow with the games: per bot, the sums over deals of
/// its wins (games with a positive return) and returns in a deal (all its
/// seat rotations), of their squares, and of the products of two bots'
/// returns in the same deal (for the paired difference of their returns).
/// Both are whole numbers, so the sums are exact in any order.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct DealSums {
    deals: u64,
    wins: Vec<i128>,
    wins_squared: Vec<i128>,
    returns: Vec<i128>,
    /// Bot a's return times bot b's at `a * bots + b`.
    return_products: Vec<i128>,
}

impl DealSums {
    fn new(bots: usize) -> DealSums {
        DealSums {
            deals: 0,
            wins: vec![0; bots],
            wins_squared: vec![0; bots],
            returns: vec![0; bots],
            return_products: vec![0; bots * bots],
        }
    }

    fn bots(&self) -> usize {
        self.wins.len()
    }

    /// Adds one deal: the games of all its seat rotations.
    fn add_deal(&mut self, games: &[GameResult]) {
        let n = self.bots();
        let mut wins = vec![0i128; n];
        let mut returns = vec![0i128; n];
        for g in games {
            for (seat, &bot) in g.seating.iter().enumerate() {
                let bot = usize::from(bot);
                wins[bot] += i128::from(g.winners >> seat & 1 == 1);
                returns[bot] += i128::from(g.returns[seat]);
            }
        }
        self.deals += 1;
        for a in 0..n {
            self.wins[a] += wins[a];
            self.wins_squared[a] += wins[a] * wins[a];
            self.returns[a] += returns[a];
            for b in 0..n {
                self.return_products[a * n + b] += returns[a] * returns[b];
            }
        }
    }

    fn merge(&mut self, other: &DealSums) {
        self.deals += other.deals;
        let pairs = [
            (&mut self.wins, &other.wins),
            (&mut self.wins_squared, &other.wins_squared),
            (&mut self.returns, &other.returns),
            (&mut self.return_products, &other.return_products),
        ];
        for (mine, theirs) in pairs {
            for (m, t) in mine.iter_mut().zip(theirs) {
                *m = m.saturating_add(*t);
            }
        }
    }

    /// Sums of the same shape as a run of `bots` bots.
    fn fits(&self, bots: usize) -> bool {
        self.wins.len() == bots
            && self.wins_squared.len() == bots
            && self.returns.len() == bots
            && self.return_products.len() == bots * bots
    }

    /// Bot `b`'s wins per game (a deal's wins over its `games_per_deal`).
    fn win_rate(&self, b: usize, games_per_deal: f64) -> Estimate {
        Estimate::of_sums(
            self.deals,
            self.wins[b],
            self.wins_squared[b],
            games_per_deal,
        )
    }

    /// Bot `b`'s return per game.
    fn stakes(&self, b: usize, games_per_deal: f64) -> Estimate {
        let n = self.bots();
        Estimate::of_sums(
            self.deals,
            self.returns[b],
            self.return_products[b * n + b],
            games_per_deal,
        )
    }

    /// Bot `a`'s return per game less bot `b`'s, paired by deal.
    fn difference(&self, a: usize, b: usize, games_per_deal: f64) -> Estimate {
        let n = self.bots();
        let p = |x: usize, y: usize| self.return_products[x * n + y];
        let squares = p(a, a) - 2 * p(a, b) + p(b, b);
        Estimate::of_sums(
            self.deals,
            self.returns[a] - self.returns[b],
            squares,
            games_per_deal,
        )
    }
}

/// How many games had each value of a measure (a return, a length): exact
/// counts in value order, so memory grows with the distinct values, not
/// with the games.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Distribution(BTreeMap<i64, u64>);

impl Distribution {
    pub fn add(&mut self, value: i64) {
        *self.0.entry(value).or_insert(0) += 1;
    }

    /// Adds another distribution's counts to this one.
    pub fn merge(&mut self, other: &Distribution) {
        for (&value, &count) in &other.0 {
            let mine = self.0.entry(value).or_insert(0);
            *mine = mine.saturating_add(count);
        }
    }

    /// (value, games) in increasing value, values without games left out.
    pub fn counts(&self) -> impl Iterator<Item = (i64, u64)> + '_ {
        self.0.iter().map(|(&v, &c)| (v, c))
    }

    /// Games counted (saturating: a tampered tally must not overflow it).
    pub fn games(&self) -> u64 {
        self.0.values().fold(0, |sum, &c| sum.saturating_add(c))
    }

    /// Mean value (0 with no games).
    pub fn mean(&self) -> f64 {
        let games = self.games();
        if games == 0 {
            return 0.0;
        }
        let sum: i128 = self
            .0
            .iter()
            .map(|(&v, &c)| i128::from(v) * i128::from(c))
            .sum();
        sum as f64 / games as f64
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Distributions of game length.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lengths {
    /// Actions a game took (its history's length).
    pub actions: Distribution,
    /// Whole seconds (rounded down) a real-time game lasted on the virtual
    /// clock; empty for a turn-based game.
    pub virtual_seconds: Distribution,
    /// Deals (hands, rounds, layouts) a game took.
    pub deals: Distribution,
}

impl Lengths {
    fn add(&mut self, r: &GameResult) {
        self.actions.add(r.actions.len() as i64);
        // Only a real-time game has a clock.
        if r.realtime {
            self.virtual_seconds.add((r.virtual_ms / 1000) as i64);
        }
        self.deals.add(i64::from(r.deals));
    }

    fn merge(&mut self, other: &Lengths) {
        self.actions.merge(&other.actions);
        self.virtual_seconds.merge(&other.virtual_seconds);
        self.deals.merge(&other.deals);
    }

    /// Every distribution counts `games` games (virtual seconds: or none).
    fn counts_games(&self, games: u64) -> bool {
        let seconds = self.virtual_seconds.games();
        self.actions.games() == games
            && self.deals.games() == games
            && (seconds == 0 || seconds == games)
    }
}

/// Adds each bot's return in `games` (whole deals) to its distribution.
fn add_returns(returns: &mut [Distribution], games: &[GameResult]) {
    for g in games {
        for (seat, &bot) in g.seating.iter().enumerate() {
            returns[usize::from(bot)].add(g.returns[seat]);
        }
    }
}

/// The totals of one shard of a run (games `start..stop`, whole deals):
/// what a worker sends back instead of its games, so that a run can be cut
/// into shards played anywhere and put together in order
/// ([`Arena::play_shard`], [`Arena::absorb`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// The run it belongs to (game, options, bots, seed, games).
    run: String,
    pub start: u64,
    pub stop: u64,
    /// Per-deal totals over the shard's deals.
    sums: DealSums,
    /// Games per ending category.
    endings: Vec<u64>,
    virtual_ms: u128,
    deals: u64,
    /// Per bot, games per return.
    returns: Vec<Distribution>,
    lengths: Lengths,
    /// Bot answers replaced ([`GameResult::replaced`]).
    #[serde(default)]
    replaced: u64,
}

impl Tally {
    /// The tally as bytes (JSON), exact: every sum is a whole number.
    pub fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_default()
    }

    /// A tally from [`Tally::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Tally> {
        serde_json::from_slice(bytes)
            .map_err(|e| CoreError::config(format!("not a shard tally of a simulation: {e}")))
    }
}

/// Per-bot results of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct BotSummary {
    pub bot: String,
    pub games: u64,
    /// Share of games with a positive return.
    pub win_rate: Estimate,
    /// Return per game (stakes or points).
    pub stakes: Estimate,
    /// Games per return (the same games as `stakes`).
    pub returns: Distribution,
}

/// A run's summary: per bot, and how the games ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub games: u64,
    pub bots: Vec<BotSummary>,
    /// Games per ending category, then per [`UNFINISHED`] when some were:
    /// every game played is counted once.
    pub endings: Vec<(&'static str, u64)>,
    /// Mean length of a game on the virtual clock (0 for turn-based games).
    pub virtual_seconds: f64,
    /// Mean length of a game in deals (hands, rounds, layouts).
    pub deals: f64,
    /// Distributions of game length, over the same games as `endings`.
    pub lengths: Lengths,
    /// Bot answers the driver found illegal and replaced with the first
    /// legal action, over the games played ([`GameResult::replaced`]): a
    /// bug in a bot, 0 with sound ones.
    pub replaced_answers: u64,
}

/// A run played in pieces (for progress reports), with totals summed deal
/// by deal so memory does not grow with the number of games.
pub struct Arena<G: Game> {
    pub game: G,
    pub specs: Vec<G::BotSpec>,
    pub seed: u64,
    /// Games to play in all (whole rotations).
    pub total: u64,
    /// Games played so far.
    pub done: u64,
    /// Per-deal totals over the whole deals played.
    sums: DealSums,
    endings: Vec<u64>,
    /// Games of the current, unfinished deal.
    pending: Vec<GameResult>,
    /// Virtual milliseconds summed over the games played.
    virtual_ms: u128,
    /// Deals summed over the games played.
    deals: u64,
    /// Per bot, games per return (whole deals, like `sums`).
    returns: Vec<Distribution>,
    /// Length distributions of the games played.
    lengths: Lengths,
    /// Bot answers replaced over the games played.
    replaced: u64,
}

impl<G: Game> Arena<G> {
    pub fn new(game: G, specs: Vec<G::BotSpec>, games: u64, seed: u64) -> Result<Arena<G>> {
        if specs.len() != game.players() {
            return Err(CoreError::config(format!(
                "{} bots for {} players: give one bot per seat",
                specs.len(),
                game.players()
            )));
        }
        Ok(Arena {
            total: whole_rotations(games, specs.len())?,
            game,
            seed,
            done: 0,
            sums: DealSums::new(specs.len()),
            endings: vec![0; ending_rows::<G>()],
            pending: Vec::new(),
            virtual_ms: 0,
            deals: 0,
            returns: vec![Distribution::default(); specs.len()],
            lengths: Lengths::default(),
            replaced: 0,
            specs,
        })
    }

    /// Plays up to `count` more games in parallel; returns their results in order.
    pub fn step(&mut self, count: u64) -> Result<Vec<GameResult>> {
        self.step_until(count, &AtomicBool::new(false))
    }

    /// [`Arena::step`], stopped soon after `stop` is set (an interrupt):
    /// the games in play then are given up, and the run keeps the games
    /// finished before the first of them, in order, so that `done` still
    /// counts a prefix of the run and a later step plays on from there.
    pub fn step_until(&mut self, count: u64, stop: &AtomicBool) -> Result<Vec<GameResult>> {
        let end = (self.done + count).min(self.total);
        let results = self.play_range_until(self.done, end, stop)?;
        self.done += results.len() as u64;
        let n = self.specs.len();
        for r in &results {
            self.endings[ending_index::<G>(r)] += 1;
            self.virtual_ms += u128::from(r.virtual_ms);
            self.deals += u64::from(r.deals);
            self.lengths.add(r);
            self.replaced += u64::from(r.replaced);
            self.pending.push(r.clone());
            if self.pending.len() == n {
                self.sums.add_deal(&self.pending);
                add_returns(&mut self.returns, &self.pending);
                self.pending.clear();
            }
        }
        Ok(results)
    }

    /// Games `start..end` in parallel, taken in index order from a shared
    /// counter (so that, when `stop` is set, the games given up are the
    /// last ones begun); returns the finished games before the first one
    /// given up (all of them unless stopped), in order.
    fn play_range_until(&self, start: u64, end: u64, stop: &AtomicBool) -> Result<Vec<GameResult>> {
        let next = AtomicU64::new(start);
        let failed = AtomicBool::new(false);
        let workers = rayon::current_num_threads().clamp(1, (end - start).max(1) as usize);
        let per_worker: Vec<Result<Vec<GameResult>>> = (0..workers)
            .into_par_iter()
            .map(|_| {
                let mut mine = Vec::new();
                while !stop.load(Ordering::Relaxed) && !failed.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= end {
                        break;
                    }
                    match play_game_until(&self.game, &self.specs, self.seed, i, stop) {
                        Ok(Some(r)) => mine.push(r),
                        Ok(None) => break,
                        Err(e) => {
                            failed.store(true, Ordering::Relaxed);
                            return Err(e);
                        }
                    }
                }
                Ok(mine)
            })
            .collect();
        let mut results = Vec::new();
        for r in per_worker {
            results.extend(r?);
        }
        results.sort_by_key(|r| r.index);
        // The finished prefix: a game past one given up waits for a later step.
        let prefix = results
            .iter()
            .zip(start..)
            .take_while(|(r, i)| r.index == *i)
            .count();
        results.truncate(prefix);
        Ok(results)
    }

    /// Games `start..end` in parallel, in order.
    fn play_range(&self, start: u64, end: u64) -> Result<Vec<GameResult>> {
        let indexes: Vec<u64> = (start..end).collect();
        indexes
            .par_iter()
            .with_min_len(16)
            .map(|&i| play_game(&self.game, &self.specs, self.seed, i))
            .collect()
    }

    /// What names this run in its tallies: the game, its options, the bots,
    /// the seed and the number of games.
    fn run_key(&self) -> String {
        let names: Vec<String> = self.specs.iter().map(G::bot_name).collect();
        format!(
            "{} {:?} bots {:?} seed {} games {}",
            G::NAME,
            self.game.to_options(),
            names,
            self.seed,
            self.total
        )
    }

    /// Plays the games `start..stop` (whole deals: both multiples of the
    /// number of bots, or `stop` the end of the run) without changing this
    /// run, and returns their tally and results. Another copy of the run
    /// (another process or machine) takes the tally with [`Arena::absorb`].
    pub fn play_shard(&self, start: u64, stop: u64) -> Result<(Tally, Vec<GameResult>)> {
        let n = self.specs.len() as u64;
        if start > stop || stop > self.total {
            return Err(CoreError::config(format!(
                "shard {start}..{stop} is not within the run's {} games",
                self.total
            )));
        }
        if start % n != 0 || stop % n != 0 {
            return Err(CoreError::config(format!(
                "shard {start}..{stop} does not cut the run at whole deals: \
                 its bounds must be multiples of the {n} bots"
            )));
        }
        let results = self.play_range(start, stop)?;
        let mut tally = Tally {
            run: self.run_key(),
            start,
            stop,
            sums: DealSums::new(n as usize),
            endings: vec![0; ending_rows::<G>()],
            virtual_ms: 0,
            deals: 0,
            returns: vec![Distribution::default(); n as usize],
            lengths: Lengths::default(),
            replaced: 0,
        };
        for r in &results {
            tally.endings[ending_index::<G>(r)] += 1;
            tally.virtual_ms += u128::from(r.virtual_ms);
            tally.deals += u64::from(r.deals);
            tally.lengths.add(r);
            tally.replaced += u64::from(r.replaced);
        }
        add_returns(&mut tally.returns, &results);
        for deal in results.chunks(n as usize) {
            tally.sums.add_deal(deal);
        }
        Ok((tally, results))
    }

    /// Adds the tally of the shard that starts where this run stands, so
    /// that shards absorbed in order give exactly the summary of playing
    /// them here. A tally of another run, of a shard out of order or of one
    /// already absorbed is refused and changes nothing.
    pub fn absorb(&mut self, tally: &Tally) -> Result<()> {
        let n = self.specs.len();
        if tally.run != self.run_key() {
            return Err(CoreError::config(format!(
                "the tally is of another run ({}), not of this one ({})",
                tally.run,
                self.run_key()
            )));
        }
        if tally.start != self.done || !self.pending.is_empty() {
            return Err(CoreError::config(format!(
                "the tally of games {}..{} is out of order: this run has played {} games",
                tally.start, tally.stop, self.done
            )));
        }
        let games = tally.stop.checked_sub(tally.start).unwrap_or(u64::MAX);
        let well_formed = tally.stop <= self.total
            && games % n as u64 == 0
            && tally.sums.fits(n)
            && tally.sums.deals == games / n as u64
            && tally.endings.len() == self.endings.len()
            && tally.endings.iter().sum::<u64>() == games
            && tally.returns.len() == n
            && tally.returns.iter().all(|d| d.games() == games)
            && tally.lengths.counts_games(games);
        if !well_formed {
            return Err(CoreError::config(format!(
                "the tally of games {}..{} is malformed",
                tally.start, tally.stop
            )));
        }
        self.sums.merge(&tally.sums);
        for (mine, theirs) in self.endings.iter_mut().zip(&tally.endings) {
            *mine += theirs;
        }
        self.virtual_ms += tally.virtual_ms;
        self.deals += tally.deals;
        self.replaced = self.replaced.saturating_add(tally.replaced);
        for (mine, theirs) in self.returns.iter_mut().zip(&tally.returns) {
            mine.merge(theirs);
        }
        self.lengths.merge(&tally.lengths);
        self.done = tally.stop;
        Ok(())
    }

    pub fn is_done(&self) -> bool {
        self.done >= self.total
    }

    /// Results so far (whole deals only).
    pub fn summary(&self) -> Summary {
        let n = self.specs.len();
        let games = self.sums.deals * n as u64;
        let bots = self
            .specs
            .iter()
            .enumerate()
            .map(|(b, spec)| BotSummary {
                bot: G::bot_name(spec),
                games,
                win_rate: self.sums.win_rate(b, n as f64).within(0.0, 1.0),
                stakes: self.sums.stakes(b, n as f64),
                returns: self.returns[b].clone(),
            })
            .collect();
        Summary {
            games,
            bots,
            endings: self.ending_table(),
            virtual_seconds: if self.done == 0 {
                0.0
            } else {
                self.virtual_ms as f64 / 1000.0 / self.done as f64
            },
            deals: if self.done == 0 {
                0.0
            } else {
                self.deals as f64 / self.done as f64
            },
            lengths: self.lengths.clone(),
            replaced_answers: self.replaced,
        }
    }

    /// Games per ending: every category of the game, in its order, then
    /// [`UNFINISHED`] when a guard stopped some games; the counts add up to
    /// the games played.
    fn ending_table(&self) -> Vec<(&'static str, u64)> {
        let mut table: Vec<(&'static str, u64)> = G::ending_categories()
            .iter()
            .copied()
            .chain([UNFINISHED])
            .zip(self.endings.iter().copied())
            .collect();
        if table.last().is_some_and(|&(_, stopped)| stopped == 0) {
            table.pop();
        }
        table
    }

    /// Paired difference of the return per game between bots `a` and `b`.
    pub fn stake_difference(&self, a: usize, b: usize) -> Estimate {
        self.sums.difference(a, b, self.specs.len() as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seatings_rotate() {
        assert_eq!(seating(0, 3), vec![0, 1, 2]);
        assert_eq!(seating(1, 3), vec![1, 2, 0]);
        assert_eq!(seating(5, 3), vec![2, 0, 1]);
    }

    #[test]
    fn estimates_of_no_one_and_many_observations() {
        assert_eq!(Estimate::of(&[]).n, 0);
        let e = Estimate::of(&[1.0, 2.0, 3.0]);
        assert!((e.mean - 2.0).abs() < 1e-12);
        assert!(e.low() < 2.0 && e.high() > 2.0);
    }

    #[test]
    fn estimates_from_exact_sums_match_the_observations() {
        let values: [i64; 7] = [3, -12, 0, 7, 7, -1, 40];
        let scale = 2.0;
        let xs: Vec<f64> = values.iter().map(|&v| v as f64 / scale).collect();
        let sum: i128 = values.iter().map(|&v| i128::from(v)).sum();
        let squares: i128 = values.iter().map(|&v| i128::from(v) * i128::from(v)).sum();
        let direct = Estimate::of(&xs);
        let summed = Estimate::of_sums(values.len() as u64, sum, squares, scale);
        assert!((direct.mean - summed.mean).abs() < 1e-12);
        assert!((direct.half_width - summed.half_width).abs() < 1e-12);
        assert_eq!(direct.n, summed.n);
        assert_eq!(Estimate::of_sums(0, 0, 0, 1.0).n, 0);
        assert_eq!(Estimate::of_sums(1, 5, 25, 1.0).half_width, 0.0);
    }

    #[test]
    fn a_run_keeps_the_same_totals_however_many_deals_it_plays() {
        // Summing deal by deal: the totals hold a fixed number of sums.
        let mut sums = DealSums::new(2);
        let game = |seating: Vec<u8>, returns: Vec<i64>, winners: u64| GameResult {
            seating,
            returns,
            winners,
            index: 0,
            seed: 0,
            dealer: 0,
            actions: Vec::new(),
            ending: "",
            fingerprint: 0,
            realtime: false,
            events: Vec::new(),
            virtual_ms: 0,
            deals: 1,
            bot_seeds: Vec::new(),
            event_hash: 0,
            replaced: 0,
        };
        let deal = [
            game(vec![0, 1], vec![3, -3], 0b01),
            game(vec![1, 0], vec![-2, 2], 0b10),
        ];
        for _ in 0..1000 {
            sums.add_deal(&deal);
        }
        assert_eq!(sums.deals, 1000);
        assert_eq!(sums.return_products.len(), 4);
        assert_eq!(
            (sums.wins[0], sums.returns[0], sums.returns[1]),
            (2000, 5000, -5000)
        );
        let diff = sums.difference(0, 1, 2.0);
        assert!((diff.mean - 5.0).abs() < 1e-12 && diff.half_width == 0.0);
    }

    #[test]
    fn a_rate_near_one_keeps_its_interval_inside_zero_to_one() {
        // The per-deal win fractions of a bot that nearly always wins: the
        // normal approximation's upper end passes 100%.
        let xs: Vec<f64> = (0..20).map(|i| if i == 0 { 0.5 } else { 1.0 }).collect();
        let raw = Estimate::of(&xs);
        assert!(raw.high() > 1.0);
        let rate = raw.within(0.0, 1.0);
        assert_eq!(rate.high(), 1.0);
        assert_eq!((rate.mean, rate.low()), (raw.mean, raw.low()));
        assert_eq!(Estimate::of(&[0.0; 5]).within(0.0, 1.0).low(), 0.0);
    }

    #[test]
    fn distributions_count_merge_average_and_travel_as_json() {
        let mut a = Distribution::default();
        for v in [3, -1, 3] {
            a.add(v);
        }
        let mut b = Distribution::default();
        b.add(-1);
        b.add(7);
        a.merge(&b);
        assert_eq!(
            a.counts().collect::<Vec<_>>(),
            vec![(-1, 2), (3, 2), (7, 1)]
        );
        assert_eq!(a.games(), 5);
        assert!((a.mean() - 11.0 / 5.0).abs() < 1e-12);
        assert_eq!(Distribution::default().mean(), 0.0);
        let text = serde_json::to_string(&a).unwrap_or_default();
        assert_eq!(serde_json::from_str::<Distribution>(&text).ok(), Some(a));
    }
}
