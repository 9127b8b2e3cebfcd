//! # cardtable-core
//!
//! The pure-Rust core of `cardtable`, a rules engine for Tonk, Three Thirteen,
//! Spit, Speed and gin rummy. It has no Python in it; the `cardtable-py`
//! crate wraps it.
//!
//! - [`card`]: cards, codes and text notation;
//! - [`rng`] and [`deck`]: the seeded generator, Fisher–Yates, decks and deals;
//! - [`meld`]: meld rules as a value, meld checks, hits, and the exact
//!   minimum-deadwood solver with wild cards and jokers;
//! - [`batch`]: many hands at once, in parallel, and the hand-file scorer;
//! - [`engine`]: what every game shares: the Game/State/Controller traits,
//!   the option schema, the arena, records, the virtual-clock session and
//!   the vectorised environments;
//! - [`games`]: one module per game and the registry, the one list of games;
//! - [`bots`]: each game's bots;
//! - [`error`]: the one error type ([`CoreError`]);
//! - [`memory`]: the memory still available, so an oversized run is refused.
//!
//! Rule IDs (TK-, TT-, SP-, SD-, RT-) refer to the rules specification in
//! `docs/rules.md`; gin rummy's (GR-) to `docs/gin_rummy.md`.

#![forbid(unsafe_code)]

pub mod batch;
pub mod bots;
pub mod card;
pub mod deck;
pub mod engine;
pub mod error;
pub mod games;
pub mod meld;
pub mod memory;
pub mod rng;

pub use card::{format_hand, parse_hand, Card, Rank, Suit};
pub use deck::{deal, Deal, DeckSpec};
pub use error::{CoreError, Result};
pub use meld::{
    AceMode, FaceValues, Meld, MeldKind, MeldRules, ResolvedRules, RuleOptions, Solution, Solver,
    WildRank,
};
pub use rng::{derive_seed, GameRng};
