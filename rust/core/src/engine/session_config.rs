//! The options of a real-time game's session (RT-4, RT-6, RT-12), declared
//! once for every real-time game: each game's schema includes
//! [`SESSION_OPTIONS`], its configuration holds a [`SessionConfig`]
//! (flattened: its fields are the game's options too), and the session is
//! built from it ([`SessionConfig::rules`]).

use serde::{Deserialize, Serialize};

use super::options::{OptionKind, OptionSpec, Schema};
use super::realtime::{SessionRules, TieBreak};
use super::{seeds, Millis};
use crate::error::{CoreError, Result};

/// The longest game: a week of virtual time.
pub const MAX_VIRTUAL_MS: i64 = 7 * 86_400_000;
/// The most deals of a game (Speed counts them in 16 bits).
pub const MAX_DEALS: i64 = 50_000;

/// The session's options, in the order schemas list them.
pub const SESSION_OPTIONS: [OptionSpec; 5] = [
    OptionSpec {
        name: "tie_break",
        kind: OptionKind::Choice { choices: TieBreak::NAMES, aliases: &[] },
        rule: "RT-6",
        help: "Order of commits in the same millisecond: seeded_coin (a draw from the seed's tie-break stream, default), alternate, or seat_order (seat 0 first).",
    },
    OptionSpec {
        name: "hands",
        kind: OptionKind::Int { min: 1, max: 2 },
        rule: "RT-4",
        help: "Moves each player may have in flight at once: 1 (the one-hand rule, default) or 2 (both hands).",
    },
    OptionSpec {
        name: "queue_inputs",
        kind: OptionKind::Bool,
        rule: "RT-4",
        help: "A move made while every hand is busy waits for a free hand instead of being refused.",
    },
    OptionSpec {
        name: "max_virtual_ms",
        kind: OptionKind::Int { min: 1, max: MAX_VIRTUAL_MS },
        rule: "RT-12",
        help: "The game ends (time_limit) at this virtual time, which must come after the start countdown; the game's rules say how the deal in play is settled (default 3600000).",
    },
    OptionSpec {
        name: "max_deals",
        kind: OptionKind::Int { min: 1, max: MAX_DEALS },
        rule: "RT-12",
        help: "The game ends (max_deals) instead of starting deal number max_deals + 1.",
    },
];

/// The session's options alone, for reading them over a game's defaults.
pub const SESSION_SCHEMA: Schema = Schema {
    game: "session",
    options: &SESSION_OPTIONS,
};

/// A game's own options followed by the session's: its whole schema.
pub const fn with_session_options<const N: usize, const M: usize>(
    own: [OptionSpec; N],
) -> [OptionSpec; M] {
    assert!(M == N + SESSION_OPTIONS.len(), "M must be N + 5");
    let mut out = [SESSION_OPTIONS[0]; M];
    let mut i = 0;
    while i < N {
        out[i] = own[i];
        i += 1;
    }
    while i < M {
        out[i] = SESSION_OPTIONS[i - N];
        i += 1;
    }
    out
}

/// The session's options, each field named as its option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SessionConfig {
    pub tie_break: TieBreak,
    /// Cards each player may have in flight (RT-4).
    pub hands: u8,
    /// A move while every hand is busy waits for a free hand (RT-4).
    pub queue_inputs: bool,
    pub max_virtual_ms: Millis,
    pub max_deals: u32,
}

impl SessionConfig {
    /// The defaults, with a game's own limit on deals.
    pub const fn with_max_deals(max_deals: u32) -> SessionConfig {
        SessionConfig {
            tie_break: TieBreak::SeededCoin,
            hands: 1,
            queue_inputs: false,
            max_virtual_ms: 3_600_000,
            max_deals,
        }
    }

    /// The game must not end before its cards turn up (RT-12).
    pub fn check(&self, start_countdown_ms: u32) -> Result<()> {
        if self.max_virtual_ms <= Millis::from(start_countdown_ms) {
            return Err(CoreError::option(
                "max_virtual_ms",
                format!(
                    "max_virtual_ms ({}) must exceed start_countdown_ms ({start_countdown_ms}): the game would end before the cards turn up (RT-12)",
                    self.max_virtual_ms
                ),
            ));
        }
        Ok(())
    }

    /// Brings every field into range (configurations built by hand).
    pub fn clamped(mut self, start_countdown_ms: u32) -> SessionConfig {
        self.hands = self.hands.clamp(1, 2);
        self.max_virtual_ms = self.max_virtual_ms.clamp(
            Millis::from(start_countdown_ms) + 1,
            MAX_VIRTUAL_MS as Millis,
        );
        self.max_deals = self.max_deals.clamp(1, MAX_DEALS as u32);
        self
    }

    /// How the session of the game seeded with `seed` runs.
    pub fn rules(&self, seed: u64) -> SessionRules {
        SessionRules {
            tie_break: self.tie_break,
            hands: self.hands,
            queue_inputs: self.queue_inputs,
            tie_seed: seeds::tie_seed(seed),
            max_virtual_ms: self.max_virtual_ms,
        }
    }
}
