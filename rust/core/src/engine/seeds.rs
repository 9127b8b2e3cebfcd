//! The named child streams of a game's seed (CM-6): the deal, the
//! engine's tie-breaks and each seat's bot draw from streams of their own,
//! so a bot's random choices never change the cards dealt, and every driver
//! (arena, session, vector environments, the CLI, the Python API) seeds a
//! seat's bot the same way.

use crate::rng::derive_seed;

/// The bots' streams: seat `s`'s is `BOT + s`.
pub const BOT: u64 = 100;

/// The engine's tie-break stream (RT-6).
pub const TIE: u64 = 200;

/// The seed of the bot at `seat` of the game seeded with `game_seed`.
pub fn bot_seed(game_seed: u64, seat: usize) -> u64 {
    derive_seed(game_seed, BOT + seat as u64)
}

/// The seed of a game's tie-break stream.
pub fn tie_seed(game_seed: u64) -> u64 {
    derive_seed(game_seed, TIE)
}

/// The seed of game `index` of a run seeded with `master` (an arena's
/// games, a vector environment's rows).
pub fn child_seed(master: u64, index: u64) -> u64 {
    derive_seed(master, index)
}
