//! Tonk (rules specification §1, TK-1 … TK-13).
//!
//! Its options are declared once, in the schema of `config.rs` (name,
//! values, default, help and rule ID); `docs/options.md` is generated from it.
//!
//! Engine decisions where the sources are silent are marked with their rule
//! IDs below; the stall guard of TK-10.7 makes every hand end whatever the
//! players do. Actions are integers (see [`action`]); the deal is chance from
//! the seed, so `(parameters, seed, dealer, actions)` replays a hand exactly.
//!
//! - TK-6.10 (`discard_pickup_must_be_used`, engine decision): besides the
//!   enforcement the specification gives, the taker may not drop until the
//!   taken card is used (a drop would end the hand with it unused); under
//!   `drop_timing = any_time` the other players may still drop in that
//!   turn's windows.

mod actions;
mod config;
mod refusal;
mod settle;
mod spreads;
mod state;
mod summary;
mod view;

use std::collections::HashSet;
use std::fmt;
use std::sync::OnceLock;

use super::{OptionValue, Transfer};
use crate::card::Card;
use crate::deck::DeckSpec;
use crate::engine;
use crate::engine::options::{OptionKind, OptionSpec, Schema};
use crate::error::{CoreError, Result};
use crate::meld::MeldKind;
use crate::rng::{derive_seed, GameRng};

pub use self::actions::*;
pub use self::config::*;
use self::refusal::held_spread;
pub use self::settle::*;
pub use self::spreads::*;

/// A sequence of hands with the dealer passing left after each (TK-4.2) and
/// a running ledger (TK-1.3).
pub type TonkMatch = crate::engine::matches::Match<TonkGame>;
pub use self::state::*;
pub use self::view::*;
pub use crate::bots::tonk::TonkBotSpec;

/// Most players at one table (TK-1.2).
pub const MAX_PLAYERS: usize = 6;
/// Most spreads one hand can see: 52 cards in spreads of three.
pub const MAX_SPREADS: usize = 17;
/// Largest hand the deck allows (two players: 2 x 25 + 2 = 52, TK-1.2, TK-2.3).
pub const MAX_HAND_SIZE: i64 = 25;

/// Child streams of a hand's seed (CM-6): the deal and the dealer draw.
const STREAM_DEAL: u64 = 0;
const STREAM_DEALER: u64 = 1;
