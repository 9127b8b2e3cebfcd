//! The slips of the `careless` bots, the lowest step of the turn-based
//! games' ladders (docs/bots.md, Levels): a game's `greedy` bot that, on a
//! share of its decisions, plays a legal move at random instead, as a
//! beginner who misreads the hand now and then. `random` is no opponent a
//! person would choose (`greedy` beats it in 80–100% of games); a tuned
//! share of slips puts the `easy` level one step below `normal`.

use crate::engine::SeatView;
use crate::error::{CoreError, Result};
use crate::rng::{derive_seed, GameRng};

/// The share of decisions a `careless` spec without a parameter slips on.
pub const DEFAULT_PERCENT: u8 = 30;

/// The slips' stream of the bot's seed: one no search world index reaches.
const SLIP_STREAM: u64 = u64::MAX;

/// Whether and how a `careless` bot slips: on `percent`% of its decisions,
/// drawn from its own seeded stream so that a game replays from its seed.
pub struct Slips {
    percent: u8,
    rng: GameRng,
    legal: Vec<u16>,
}

impl Slips {
    pub fn new(percent: u8, seed: u64) -> Slips {
        Slips {
            percent,
            rng: GameRng::new(derive_seed(seed, SLIP_STREAM)),
            legal: Vec::new(),
        }
    }

    /// A legal move at random on `percent`% of the seat's decisions; None
    /// otherwise (the bot then decides as it always does). Asked only when
    /// the seat is to move.
    pub fn slip<V: SeatView>(&mut self, view: &V) -> Option<u16> {
        if self.rng.below(100) >= u32::from(self.percent) {
            return None;
        }
        view.legal_actions(&mut self.legal);
        self.rng.choose(&self.legal).copied()
    }
}

/// Reads the percentage of `careless[:percent]` (1 to 99; the default
/// without one); errors name the spec.
pub fn parse_percent(spec: &str, param: Option<&str>) -> Result<u8> {
    let Some(p) = param else {
        return Ok(DEFAULT_PERCENT);
    };
    match p.trim().parse::<u8>() {
        Ok(n) if (1..=99).contains(&n) => Ok(n),
        _ => Err(CoreError::config(format!(
            "bot {spec:?}: {p:?} is not a percentage of slips from 1 to 99"
        ))),
    }
}

/// The canonical spec of a `careless` bot.
pub fn name(percent: u8) -> String {
    if percent == DEFAULT_PERCENT {
        "careless".into()
    } else {
        format!("careless:{percent}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_parse_and_name_back() {
        assert_eq!(parse_percent("careless", None).unwrap(), DEFAULT_PERCENT);
        assert_eq!(parse_percent("careless:45", Some("45")).unwrap(), 45);
        for bad in ["0", "100", "x", "-3", ""] {
            let err = parse_percent("careless:?", Some(bad)).unwrap_err();
            assert!(err.to_string().contains("percentage"), "{err}");
        }
        assert_eq!(name(DEFAULT_PERCENT), "careless");
        assert_eq!(name(45), "careless:45");
    }
}
