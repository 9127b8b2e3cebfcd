//! Speed (rules specification §4, SD-1 … SD-6), the first real-time game:
//! it runs on the virtual clock of the engine layer (§5, RT-1 … RT-13)
//! through [`crate::engine::realtime::Session`].
//!
//! One state is the whole game: every deal of a match when the options ask
//! for several.
//!
//! Its options are declared once, in the schema of `config.rs` (name,
//! values, default, help and rule ID); `docs/options.md` is generated from it.
//!
//! # Actions (SD-6)
//!
//! Ids are fixed whatever the options (131 in all, [`action::COUNT`]):
//!
//! | ids | text | meaning |
//! |---|---|---|
//! | `code × 2 + pile` (0..104) | `play 7H L`, `play TD R` | play that card (by card code) onto the left (0) or right (1) centre pile |
//! | `104 + pile × 13 + rank − 1` | `play JK L as 7` | play a joker as that rank (A 2..9 T J Q K) |
//! | 130 | `draw` | take the top of the own draw pile into the hand (`auto_draw = false`) |
//!
//! Cards are named by code, not by hand slot, so an action means the same
//! card whatever order a view shows the hand in. The hand still keeps
//! stable slots (a drawn card fills the slot the played card left, or the
//! first free one), so a key map by slot (HC-3) stays steady.
//!
//! # Engine decisions (the specification is silent)
//!
//! - SD-1.4 / RT-7: there is no `ready` action: the centre cards turn up
//!   when the `start_countdown_ms` timer fires (player 0 turns the left one,
//!   player 1 the right one). Before that the game is `Waiting`. No `stuck`
//!   action either: a stalemate is detected by the engine (RT-8).
//! - SD-1.2: the shuffled deck (top first) deals the left side pile, the
//!   right side pile, the left and right centre cards, then seat 0's pile and
//!   seat 1's pile; each takes the top 5 of its pile as its hand (SD-1.3).
//!   With jokers the deck has 54 cards and each player two more.
//! - SD-3.1 / RT-8: after every commit and every flip the engine checks for
//!   a stalemate; if there is one it schedules the flip at `now +
//!   flip_delay_ms` (`Waiting` meanwhile: nobody has a legal action during a
//!   stalemate, so nothing can cancel it). A stalemate right after a flip or
//!   at the first turn-up is handled the same way.
//! - SD-3.4: `merged` gathers the left pile's cards under its top, then the
//!   right pile's, shuffles them and deals them alternately, left first;
//!   `per_pile` shuffles each pile's cards under its top (left, then right,
//!   from one stream) into the side pile next to it. The `r`-th recycle of
//!   deal `d` shuffles with `derive_seed(derive_seed(seed, STREAM_RECYCLE),
//!   d × 65536 + r)`; deal `d` is shuffled with
//!   `derive_seed(derive_seed(seed, STREAM_DEAL), d)` (CM-6).
//! - SD-3.5: "two complete passes with no card played" counts the passes
//!   through the side piles begun since a card was last played from a hand:
//!   a deal's own side piles are its first pass and each recycle begins the
//!   next. When the side piles run out at a stalemate after two such
//!   passes, the deal ends instead of a recycle (no card played all deal:
//!   the dealt piles and one recycle; a card played during a pass: two
//!   recycles after it). A recycle that yields no card ends it too.
//!   The player with fewer cards (hand + draw pile) wins the deal; equal
//!   counts draw it.
//! - Jokers (SD-5): a joker played from the hand takes the rank it is
//!   played as (it must fit the pile as that rank); a joker turned up from a
//!   side pile (or as a centre card) is wild: any card, or a joker as any
//!   rank, may go on it. A recycle forgets what jokers were played as.
//! - Scoring (SD-4.2): the winner of a deal scores the cards the loser has
//!   not played (hand and draw pile, or the draw pile with
//!   `score_counts_hand = false`), whether the deal was won by emptying, by
//!   the deadlock guard or at the time limit; a drawn deal scores nothing.
//! - Match (SD-4.2): `match = target` without scoring is one deal; with
//!   scoring, deals until someone reaches `target_score`. `match =
//!   best_of_3` deals until someone has won two deals (drawn deals do not
//!   count; points are still kept with `scoring`). A new deal starts with
//!   the countdown (`Waiting`), right after the last one ended.
//! - Returns (zero-sum): with `scoring` and `match = target`, the point
//!   difference; otherwise +1 / −1 for the winner of the match (or of the one
//!   deal), 0 / 0 for a draw.
//! - RT-12: `max_virtual_ms` is an engine timer of the state itself: at that
//!   time the deal in play is decided as by the deadlock guard and the game
//!   ends (`time_limit`), the result standing as it is. After `max_deals`
//!   deals without a decided match the game ends (`max_deals`). The
//!   session's own limit is the same time.
//! - Endings: `emptied` (the last deal was won by emptying), `deadlock` (the
//!   last deal was decided by the deadlock guard), `draw` (the game ended
//!   level: a drawn single deal), `time_limit`, `max_deals`.
//! - RT-5: an action that is an action id but not legal now bounces and
//!   changes nothing (not even the recorded time); `history()` holds the
//!   committed (not bounced) actions only. Timers are not in the history:
//!   they follow from the state.
//! - RT-10: a view shows the own hand (by slot), both centre tops with
//!   their effective ranks and sizes, the side pile sizes, both draw pile
//!   sizes and hand sizes, the phase, timers and the match standing; never
//!   the opponent's hand or a face-down card (the centre cards before they
//!   turn up included). `determinize` re-deals the opponent's hand, both
//!   draw piles, the side piles and face-down centre cards, keeping every
//!   count and, during a stalemate, giving the opponent only cards that
//!   cannot be played (a public fact).

mod actions;
pub mod bots;
mod config;
mod refusal;
pub mod search;
mod state;
mod summary;
mod view;

use std::fmt;

use crate::card::{Card, Rank};
use crate::engine::options::{OptionKind, OptionSpec, OptionValue, Schema};
use crate::engine::session_config::{with_session_options, SessionConfig};
use crate::engine::{self, Millis};
use crate::error::{CoreError, Result};
use crate::rng::{derive_seed, GameRng};

pub use self::actions::*;
pub use self::bots::SpeedBotSpec;
pub use self::config::*;
pub use self::state::*;
pub use self::view::*;

/// Seats at the table (SD-1.1).
pub const PLAYERS: usize = 2;
/// Cards a hand holds at most (SD-1.3).
pub const HAND_SIZE: usize = 5;
/// Card codes: 0..=51 and the joker (52).
pub const CARD_CODES: usize = 53;
/// The jokers in play with `jokers = true` (SD-5).
pub const JOKERS_IN_PLAY: usize = 2;
/// Left and right (centre piles and side piles).
pub const LEFT: u8 = 0;
pub const RIGHT: u8 = 1;

/// Child streams of a game's seed (CM-6); the tie-break stream is the
/// session's (`engine::seeds::TIE`), the bots' are their own.
pub const STREAM_DEAL: u64 = 0;
pub const STREAM_RECYCLE: u64 = 1;

/// Every ending category, in report order.
pub const ENDINGS: [&str; 5] = ["emptied", "deadlock", "draw", "time_limit", "max_deals"];

/// The endings of the termination guards (RT-12: `max_virtual_ms`,
/// `max_deals`): a limit stopped the game, not its play. (A deal the
/// deadlock guard of SD-3.5 decides is play: nobody can move.)
pub const GUARD_ENDINGS: [&str; 2] = ["time_limit", "max_deals"];

impl engine::Game for SpeedGame {
    type State = SpeedState;

    const NAME: &'static str = "speed";

    const REAL_TIME: bool = true;

    fn schema() -> &'static Schema {
        &SCHEMA
    }

    fn ending_categories() -> &'static [&'static str] {
        &ENDINGS
    }

    fn guard_endings() -> &'static [&'static str] {
        &GUARD_ENDINGS
    }

    fn from_options(options: &[(String, OptionValue)]) -> Result<Self> {
        Ok(SpeedGame::new(SpeedConfig::from_options(options)?))
    }

    fn to_options(&self) -> Vec<(String, OptionValue)> {
        self.config.to_options()
    }

    fn rules_summary(&self) -> Vec<crate::engine::summary::RulePoint> {
        self.config.rules_summary()
    }

    /// Two players (SD-1.1).
    const PLAYERS: std::ops::RangeInclusive<u8> = 2..=2;

    fn players(&self) -> usize {
        PLAYERS
    }

    fn num_distinct_actions(&self) -> usize {
        usize::from(action::COUNT)
    }

    fn observation_size(&self) -> usize {
        OBSERVATION_SIZE
    }

    /// Speed has no dealer: `dealer` is ignored.
    fn deal(&self, seed: u64, _dealer: Option<u8>) -> Result<SpeedState> {
        Ok(self.new_game(seed))
    }

    /// How a session runs this game (RT-4, RT-6, RT-12): the configured
    /// hands and tie-break (seeded from the game's seed), and the game's
    /// time limit.
    fn session_rules(&self, seed: u64) -> engine::realtime::SessionRules {
        self.config.session.rules(seed)
    }

    /// Text of an action (the same as `Action`'s `Display`).
    fn action_to_string(&self, action: u16) -> Result<String> {
        Ok(Action::decode(action)?.to_string())
    }

    fn string_to_action(&self, text: &str) -> Result<u16> {
        Ok(parse_action(text)?.encode())
    }

    type BotSpec = SpeedBotSpec;
}
