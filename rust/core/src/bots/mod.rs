//! The bots of every game, one file each, and the reaction-time bots the
//! real-time games share ([`reaction`]). Bots run in Rust so batches of
//! games run in parallel without the interpreter; each decides from its own
//! seat's view of a game (`engine::State::SeatView`).

pub mod gin_rummy;
pub mod reaction;
pub mod speed;
pub mod spit;
pub mod three_thirteen;
pub mod tonk;

use crate::error::{CoreError, Result};

/// A bot as named on the command line: `random`, `greedy`, `strong`, with an
/// optional parameter after a colon (`greedy:8` drops at a count of 8 or
/// less; `strong:400` samples 400 worlds per drop decision).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BotSpec {
    Random,
    Greedy { drop_at: Option<u32> },
    Strong { samples: u32 },
}

impl BotSpec {
    pub const DEFAULT_SAMPLES: u32 = 200;

    pub fn parse(text: &str) -> Result<BotSpec> {
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
            ("random", None) => Ok(BotSpec::Random),
            ("greedy", None) => Ok(BotSpec::Greedy { drop_at: None }),
            ("greedy", Some(p)) => Ok(BotSpec::Greedy {
                drop_at: Some(number(p)?),
            }),
            ("strong", None) => Ok(BotSpec::Strong {
                samples: Self::DEFAULT_SAMPLES,
            }),
            ("strong", Some(p)) => {
                let n = number(p)?;
                if !(1..=4096).contains(&n) {
                    return Err(CoreError::config(format!(
                        "bot {text:?}: samples must be 1 to 4096"
                    )));
                }
                Ok(BotSpec::Strong { samples: n })
            }
            _ => Err(CoreError::config(format!(
                "unknown bot {text:?}: expected random, greedy[:drop_at] or strong[:samples]"
            ))),
        }
    }

    pub fn name(&self) -> String {
        match self {
            BotSpec::Random => "random".into(),
            BotSpec::Greedy { drop_at: None } => "greedy".into(),
            BotSpec::Greedy { drop_at: Some(d) } => format!("greedy:{d}"),
            BotSpec::Strong { samples } if *samples == Self::DEFAULT_SAMPLES => "strong".into(),
            BotSpec::Strong { samples } => format!("strong:{samples}"),
        }
    }
}
