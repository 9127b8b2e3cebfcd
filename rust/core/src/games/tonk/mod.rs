//! Tonk (rules specification §1, TK-1 … TK-13).
//!
//! Parameters (defaults first; names as in the specification):
//!
//! | option | values |
//! |---|---|
//! | `preset` | `pagat`, `wikipedia`, `texas` (TK-11.4) |
//! | `players` | 2..=6 with `players × hand_size + 2 ≤ 52` (TK-1.2) |
//! | `hand_size` | 5, an integer ≥ 2, or `by_players` (2→9, 3→7, 4+→5) (TK-2.3) |
//! | `face_values` | `ten`, `eleven_twelve_thirteen` (TK-3.3) |
//! | `upcard` | true, false (TK-4.5) |
//! | `deal_wins` | `pagat`, `fifty_only`, `forty_nine_in_turn`, `texas`, `none`; default `none` when the hand size is not 5 (TK-5.4, TK-2.3) |
//! | `low_13`, `low_9` | false (add-ons, TK-5.4) |
//! | `drop_timing` | `start_of_turn`, `own_turn_any_phase`, `any_time` (TK-6.8) |
//! | `forbid_rediscard` | false (TK-6.9) |
//! | `max_hits_per_turn` | none, 1 (TK-6.10) |
//! | `discard_pickup_must_be_used` | false (TK-6.10) |
//! | `must_spread`, `must_spread_aces_exempt` | false, true (TK-7.6) |
//! | `ace_in_runs` | `low`, `low_or_high` (TK-7.3) |
//! | `hit_lock_per_hit`, `hit_lock_unit` | 1, `per_card` / `per_turn` (TK-8.4) |
//! | `only_runs_hittable` | false (TK-8.6) |
//! | `clear_completed_books` | false (TK-9.3) |
//! | `tonk_double_requires` | `any`, `new_spread`, `whole_hand_one_turn` (TK-10.1) |
//! | `stock_out_tie`, `stock_out_end` | `void`/`all_paid`, `when_needed`/`immediately` (TK-10.4) |
//! | `max_idle_rounds` | 10, or 1 to 1000 rounds with no stock draw and nothing put down (TK-10.7) |
//! | `drop_payout` | `pagat`, `wikipedia`, `texas` (TK-11.1) |
//! | `double_double` | `off`, `responder`, `tonker`; two players only (TK-11.2) |
//! | `spades_bet`, `spades_ace_high` | none or a side-bet stake in units of the basic stake, true (TK-11.3) |
//! | `stake` | 1: the basic stake `s` (TK-1.3) |
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
mod record;
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
use crate::engine::options::{name_of, names, pick, unread_option, OptionKind, OptionSpec, Schema};
use crate::error::{CoreError, Result};
use crate::meld::MeldKind;
use crate::rng::{derive_seed, GameRng};

pub use self::actions::*;
pub use self::config::*;
pub use self::record::*;
use self::refusal::held_spread;
pub use self::settle::*;
pub use self::spreads::*;
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
