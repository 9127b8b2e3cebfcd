//! Search over sampled worlds, shared by the turn-based games' `expert`
//! bots (Tonk, Three Thirteen, gin rummy): perfect-information Monte Carlo
//! (PIMC, "determinized" search). A bot that must decide deals the cards
//! it cannot see again, many times ([`crate::engine::SeatView::determinize`]
//! or a weighted deal, [`weighted_deal`]), plays each candidate action in
//! every such world and follows it with a fast rollout policy to the end of
//! the hand, and picks the candidate with the best mean value.
//!
//! - **Worlds weighted by what the others did** ([`CardOdds`]): a player
//!   who took a 7♥ likely holds 7s or hearts near it, one who threw a 7♥
//!   likely holds none of them, one who let a 7♥ go by holds few. The
//!   hidden cards are dealt to each hand with those odds instead of
//!   uniformly ([`weighted_deal`]), so the worlds look like the table.
//! - **Common random numbers**: every candidate is played in the same
//!   worlds, so the comparison between candidates is not drowned by the
//!   luck of the deal.
//! - **Fixed budget, reproducible**: a decision samples a fixed number of
//!   worlds, world `i` from `derive_seed(decision_seed, i)`; the worlds run
//!   in parallel (rayon) and their values are added up in world order, so
//!   the answer is the same on any thread count. Nothing reads the clock.

use rayon::prelude::*;

use crate::rng::{derive_seed, GameRng};

/// The values of each candidate in each sampled world ([`evaluate`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    /// Per world, its weight and each candidate's value there.
    pub worlds: Vec<(f64, Vec<f64>)>,
    /// Each candidate's weighted mean value.
    pub means: Vec<f64>,
}

impl Evaluation {
    /// The candidate to play: the best mean, but only when it beats
    /// `default` (the bot's rule-of-thumb choice) by more than `z` standard
    /// errors of their paired difference over the same worlds; otherwise
    /// `default`. The best of several noisy means is biased upwards (the
    /// winner's curse): without this gate a small budget picks moves that
    /// only looked good by chance.
    pub fn pick(&self, default: usize, z: f64) -> usize {
        let best = best_index(&self.means);
        if best == default || default >= self.means.len() {
            return best;
        }
        let (mut sw, mut sum, mut sq) = (0.0, 0.0, 0.0);
        for (w, v) in &self.worlds {
            let d = v[best] - v[default];
            sw += w;
            sum += w * d;
            sq += w * d * d;
        }
        if sw <= 0.0 {
            return default;
        }
        let mean = sum / sw;
        let var = (sq / sw - mean * mean).max(0.0);
        let n = self.worlds.len().max(2) as f64;
        if mean > z * (var / (n - 1.0)).sqrt() {
            best
        } else {
            default
        }
    }
}

/// The value of each candidate over `worlds` sampled worlds.
///
/// `sample(i, rng)` deals world `i` (with `rng` seeded from `seed` and `i`)
/// and returns it with its weight (1.0 when the worlds are drawn from the
/// right distribution already); `value(world, candidate, rng)` plays one
/// candidate in that world to the end and returns its value for the bot.
/// Each candidate of a world gets a generator seeded alike (common random
/// numbers). Worlds with weight 0 count for nothing; with every weight 0
/// the means are 0.
pub fn evaluate<W, S, V>(
    worlds: u32,
    candidates: usize,
    seed: u64,
    sample: S,
    value: V,
) -> Evaluation
where
    S: Fn(u32, &mut GameRng) -> (W, f64) + Sync,
    V: Fn(&W, usize, &mut GameRng) -> f64 + Sync,
{
    let per_world: Vec<(f64, Vec<f64>)> = (0..worlds)
        .into_par_iter()
        .with_max_len(1)
        .map(|i| {
            let world_seed = derive_seed(seed, u64::from(i));
            let mut rng = GameRng::new(world_seed);
            let (world, weight) = sample(i, &mut rng);
            let rollout_seed = derive_seed(world_seed, 1);
            let values = (0..candidates)
                .map(|c| value(&world, c, &mut GameRng::new(rollout_seed)))
                .collect();
            (weight, values)
        })
        .collect();
    let mut sums = vec![0.0; candidates];
    let mut total = 0.0;
    for (weight, values) in &per_world {
        total += weight;
        for (s, v) in sums.iter_mut().zip(values) {
            *s += weight * v;
        }
    }
    if total > 0.0 {
        for s in &mut sums {
            *s /= total;
        }
    }
    Evaluation {
        worlds: per_world,
        means: sums,
    }
}

/// The mean value of each candidate ([`evaluate`]'s means).
pub fn mean_values<W, S, V>(
    worlds: u32,
    candidates: usize,
    seed: u64,
    sample: S,
    value: V,
) -> Vec<f64>
where
    S: Fn(u32, &mut GameRng) -> (W, f64) + Sync,
    V: Fn(&W, usize, &mut GameRng) -> f64 + Sync,
{
    evaluate(worlds, candidates, seed, sample, value).means
}

/// The index of the largest value (the first of equal ones).
pub fn best_index(values: &[f64]) -> usize {
    let mut best = 0;
    for (i, &v) in values.iter().enumerate() {
        if v > values[best] {
            best = i;
        }
    }
    best
}

/// Deals `k` of the cards of `pool` (their indices), each draw choosing a
/// card with a chance proportional to its weight among those left
/// (successive weighted draws without replacement); the rest keep their
/// order. With equal weights this is a uniform deal. The pool must come in
/// an order the bot can see (card order, not the hidden order), so that
/// the deal depends on what the seat knows and the generator only.
pub fn weighted_deal(weights: &[f64], k: usize, rng: &mut GameRng) -> Vec<usize> {
    let mut left: Vec<usize> = (0..weights.len()).collect();
    let mut out = Vec::with_capacity(k);
    let mut total: f64 = weights.iter().map(|w| w.max(0.0)).sum();
    for _ in 0..k.min(weights.len()) {
        let pick = if total > 0.0 {
            let mut x = rng.unit_f64() * total;
            let mut at = left.len() - 1;
            for (j, &i) in left.iter().enumerate() {
                x -= weights[i].max(0.0);
                if x < 0.0 {
                    at = j;
                    break;
                }
            }
            at
        } else {
            rng.below(left.len() as u32) as usize
        };
        let i = left.remove(pick);
        total = (total - weights[i].max(0.0)).max(0.0);
        out.push(i);
    }
    out
}

/// How much likelier than a random card each card is to be in one
/// player's hidden hand, from what that player did in public: the cards it
/// took from the pile, threw away, or let go by. Cards are indexed
/// `suit * 13 + rank` (rank 0..13, ace 0), the suit being any fixed label.
///
/// A card is *related* to another when the two could share a meld: the
/// same rank (a set), or the same suit one or two ranks apart (a run).
/// Taking a card makes its related cards likelier ([`Self::took`]); throwing
/// one away or passing it up makes them less likely ([`Self::threw`],
/// [`Self::passed`]). The factors are a model of a sensible player, not a
/// rule: a player who keeps its sets hidden behind bluffs fools it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CardOdds {
    odds: [f64; 52],
}

impl Default for CardOdds {
    fn default() -> Self {
        CardOdds { odds: [1.0; 52] }
    }
}

/// Odds factors of one kind of evidence: on the cards of the same rank, of
/// the same suit one rank away, and two ranks away.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Kernel {
    pub rank: f64,
    pub next: f64,
    pub gap: f64,
}

/// A player took the card: it likely melds with what it holds.
pub const TOOK: Kernel = Kernel {
    rank: 2.2,
    next: 2.2,
    gap: 1.4,
};
/// A player threw the card away: it likely holds nothing that melds with it.
pub const THREW: Kernel = Kernel {
    rank: 0.45,
    next: 0.55,
    gap: 0.8,
};
/// A player let the card go by (drew from the stock instead).
pub const PASSED: Kernel = Kernel {
    rank: 0.6,
    next: 0.65,
    gap: 0.85,
};

impl CardOdds {
    /// The odds of card `index` (`suit * 13 + rank`).
    pub fn of(&self, index: usize) -> f64 {
        self.odds.get(index).copied().unwrap_or(1.0)
    }

    /// Multiplies the odds of every card related to (`rank`, `suit`) by the
    /// kernel's factors.
    pub fn apply(&mut self, rank: u8, suit: u8, k: Kernel) {
        let (rank, suit) = (usize::from(rank % 13), usize::from(suit % 4));
        for s in 0..4 {
            if s != suit {
                self.odds[s * 13 + rank] *= k.rank;
            }
        }
        for (d, f) in [(1usize, k.next), (2, k.gap)] {
            if rank >= d {
                self.odds[suit * 13 + rank - d] *= f;
            }
            if rank + d < 13 {
                self.odds[suit * 13 + rank + d] *= f;
            }
        }
    }

    pub fn took(&mut self, rank: u8, suit: u8) {
        self.apply(rank, suit, TOOK);
    }

    pub fn threw(&mut self, rank: u8, suit: u8) {
        self.apply(rank, suit, THREW);
    }

    pub fn passed(&mut self, rank: u8, suit: u8) {
        self.apply(rank, suit, PASSED);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_values_do_not_depend_on_the_thread_count() {
        let run = || {
            mean_values(
                64,
                3,
                42,
                |i, rng| (rng.below(100) + i, 1.0),
                |w, c, rng| f64::from(*w) * (c as f64 + 1.0) + f64::from(rng.below(10)),
            )
        };
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(run);
        let four = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .unwrap()
            .install(run);
        assert_eq!(one, four);
        // Common random numbers: each candidate of a world sees the same
        // rollout noise, so the candidates' means differ by the mean world
        // value exactly, noise and all.
        let (a, b) = (one[1] - one[0], one[2] - one[1]);
        assert!((a - b).abs() < 1e-9, "{one:?}");
    }

    #[test]
    fn a_candidate_must_beat_the_default_by_more_than_noise() {
        // Candidate 1 is better by 0.01 in a sea of noise: not enough.
        let noisy = Evaluation {
            worlds: (0..100)
                .map(|i| (1.0, vec![0.0, 0.01 + if i % 2 == 0 { 1.0 } else { -1.0 }]))
                .collect(),
            means: vec![0.0, 0.01],
        };
        assert_eq!(noisy.pick(0, 1.0), 0);
        // Better by 0.5 in every world: clearly.
        let clear = Evaluation {
            worlds: (0..100).map(|_| (1.0, vec![0.0, 0.5])).collect(),
            means: vec![0.0, 0.5],
        };
        assert_eq!(clear.pick(0, 1.0), 1);
        assert_eq!(clear.pick(1, 1.0), 1);
    }

    #[test]
    fn weighted_deals_follow_the_weights() {
        let mut rng = GameRng::new(5);
        let weights = [1.0, 1.0, 8.0, 0.0];
        let mut counts = [0u32; 4];
        for _ in 0..4000 {
            for i in weighted_deal(&weights, 1, &mut rng) {
                counts[i] += 1;
            }
        }
        // Card 2 is eight times as likely as card 0; card 3 is never dealt.
        assert_eq!(counts[3], 0);
        assert!(
            counts[2] > 6 * counts[0] && counts[2] < 10 * counts[0],
            "{counts:?}"
        );
        // Dealing every card deals each once.
        let mut all = weighted_deal(&weights, 4, &mut rng);
        all.sort_unstable();
        assert_eq!(all, vec![0, 1, 2, 3]);
    }

    #[test]
    fn taking_a_card_makes_its_neighbours_likelier_and_throwing_less() {
        let mut odds = CardOdds::default();
        odds.took(6, 2); // the 7 of suit 2
        assert!(odds.of(6) > 1.0 && odds.of(13 + 6) > 1.0); // other 7s
        assert!(odds.of(2 * 13 + 5) > 1.0 && odds.of(2 * 13 + 7) > 1.0); // 6 and 8 of suit 2
        assert_eq!(odds.of(13 + 5), 1.0); // a 6 of another suit: unrelated
        let mut odds = CardOdds::default();
        odds.threw(0, 0); // an ace: no card below it
        assert!(odds.of(1) < 1.0 && odds.of(13) < 1.0);
        assert_eq!(odds.of(12), 1.0);
    }
}
