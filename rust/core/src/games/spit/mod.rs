//! Spit (rules specification §3, SP-1 … SP-8), a real-time game on the
//! virtual clock of §5 (RT-1 … RT-13).
//!
//! One state is the whole game, or the whole match with `match_games > 1`:
//! every deal, every regather. It runs on [`crate::engine::realtime::Session`]:
//! both seats act at once ([`crate::engine::Decision::Simultaneous`] with
//! the seats that have a legal action), an action that is no longer legal
//! when it lands bounces and changes nothing (RT-5, SP-2.5), and the
//! engine's own events are timers ([`SpitState::next_timer`]).
//!
//! # Options
//!
//! Its options are declared once, in the schema of `config.rs` (name,
//! values, default, help and rule ID); `docs/options.md` is generated from it.
//!
//! # Actions
//!
//! Fixed ids (see [`action`]), 70 in all; text piles are 1-based, sides `L`
//! (started by seat 0) and `R` (seat 1):
//!
//! | ids | text | meaning |
//! |---|---|---|
//! | 0..10 | `play P L`, `play P R` | pile P's face-up top onto a spit pile (id `(P-1)*2 + side`) |
//! | 10..15 | `flip P` | turn pile P's face-down top up |
//! | 15..40 | `move P Q` | pile P's top into the empty position Q (id `15 + (P-1)*5 + (Q-1)`) |
//! | 40..65 | `stack P Q` | pile P's top onto Q's top of the same rank (`stack_equal_ranks`) |
//! | 65 | `spit` | declare a stalemate (`stalemate = agreed`) |
//! | 66, 67 | `slap L`, `slap R` | claim (or, without slapping, choose) a spit pile at the end of a deal |
//! | 68, 69 | `lone L`, `lone R` | the lone spitter's pile choice (`lone_spit_pile = choose`) |
//!
//! There is no `ready`: the countdown timer starts each deal (RT-7).
//!
//! # Timers (RT-7, RT-8)
//!
//! [`SpitState::next_timer`] is the phase timer or, if earlier or absent,
//! `max_virtual_ms` (the game then ends `time_limit`):
//!
//! - `countdown`: a new layout; at `start_countdown_ms` the first spit (SP-1.3).
//! - `playing`: after every commit the engine checks SP-3.1; when a
//!   stalemate *begins* the spit is set for `now + spit_delay_ms`, it stays
//!   set while the stalemate lasts (a non-productive move does not postpone
//!   it) and is cancelled as soon as a productive move exists.
//! - `lone_choice`: the lone spitter has `slap_window_ms` to choose; then
//!   their own pile is used.
//! - `slap`: the window closes when both have claimed (or the chooser
//!   chose), or at `slap_window_ms`; with no claim at all the chooser takes
//!   the smaller pile (their own side if equal).
//! - `regather`: at `regather_ms` the gathered cards are shuffled and laid
//!   out, and the next countdown starts.
//!
//! # Engine decisions (where the specification is silent)
//!
//! - SP-1.2: layouts are dealt from the player's cards in order (a new game's
//!   shuffled deck gives seat 0 its first 26 cards); the cards after the
//!   layout are the spit cards, the first of them on top. Short counts fill
//!   piles in order (12 cards → 1, 2, 3, 4, 2). A stock pile holds at most
//!   [`PILE_CAP`] cards (4 face down, 4 face-up equal ranks).
//! - SP-1.3: nothing is legal during the countdown (Waiting).
//! - SP-3.1 (d): a stack is productive when the card under it is face down
//!   (so a stack of face-up equal ranks back and forth is never productive
//!   and a stalemate cannot be postponed forever). SP-3.1 (c) as written:
//!   any card under the moved one.
//! - SP-3.3: the lone spitter's pile (chosen or own) is fixed at the first
//!   lone spit of the deal; while they choose nothing else is legal.
//! - SP-3.5 agreed: a `spit` declaration stands until the next spit or the
//!   end of the deal; both declared → the spit happens at once (with no
//!   spit cards left it is the stalemate of SP-4.1 b). Strict detection
//!   still runs in agreed mode.
//! - SP-4.2: the first claim fixes who gets which pile; the other player's
//!   claim (of either pile) only closes the window early.
//! - SP-4.4 with `slap = false`: after (a) the player who emptied their
//!   layout chooses; after (b) the one with fewer stock-pile cards, a
//!   seeded coin on a tie (stream 2, indexed by the deal number). The same
//!   player is the default at the close of a window nobody claimed in.
//! - SP-4.3: gathered cards are hidden (counts only) until the new layout;
//!   each player's are shuffled with `derive_seed(derive_seed(seed, 1),
//!   deal * 2 + seat)` (CM-6); game `g` of a match deals from a deck
//!   shuffled with `derive_seed(derive_seed(seed, 0), g)`.
//! - SP-5.1: checked when the piles are assigned: a player with no cards
//!   wins the game (`out_of_cards`); in single-pile mode the short player
//!   emptying their layout wins (`single_pile_short_out`); Lg emptying
//!   their layout with no spit cards wins `out_of_cards`.
//! - SP-6.3 stalemate with Lg out of spit cards: as the specification's
//!   engine rule (more stock cards take the single pile, S on a tie).
//! - SP-5.3: a match is best of `match_games`; the next game is dealt at
//!   once from a fresh deck. `returns` is +1/−1 for the winner/loser of the
//!   game (match); a guard ending (`max_deals`, `time_limit`) is 0/0 even
//!   if one player leads the match.
//! - RT-12: `max_deals` counts layouts over the whole match; instead of
//!   dealing layout `max_deals + 1` the game ends `max_deals`.
//! - Views: a seat sees everything face up (both layouts' face-up cards, the
//!   whole spit piles) and counts of the hidden cards; views of the two
//!   seats differ only in `seat` and `legal_actions`.

mod actions;
pub mod bots;
mod config;
mod refusal;
mod state;
mod summary;
mod view;

use std::fmt;

use crate::card::Card;
use crate::deck::DeckSpec;
use crate::engine::options::{OptionKind, OptionSpec, OptionValue, Schema};
use crate::engine::realtime::SessionRules;
use crate::engine::session_config::{with_session_options, SessionConfig};
use crate::engine::{self, Applied, Fingerprint, Millis};
use crate::error::{CoreError, Result};
use crate::rng::{derive_seed, GameRng};

pub use self::actions::*;
pub use self::bots::SpitBotSpec;
pub use self::config::*;
pub use self::state::*;
pub use self::view::*;

/// Stock-pile positions per player at most (SP-2.3).
pub const MAX_PILES: usize = 5;
/// Seats at the table (SP-1.1).
pub const PLAYERS: usize = 2;
/// Cards one stock pile can hold: 4 face down and 4 face-up equal ranks.
pub const PILE_CAP: usize = 8;

/// Child streams of a game's seed (CM-6).
const STREAM_GAME: u64 = 0;
const STREAM_REGATHER: u64 = 1;
const STREAM_COIN: u64 = 2;

/// Spit under one configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SpitGame {
    pub config: SpitConfig,
}

/// A mid-deal position for tests ([`SpitGame::state_from_layout`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Layout {
    /// Per seat, its stock piles left to right, each bottom first: the top
    /// card face up, the others face down.
    pub piles: [Vec<Vec<Card>>; 2],
    /// Per seat, its spit cards, top first.
    pub spit_cards: [Vec<Card>; 2],
    /// The spit piles L and R, bottom first (empty: not started).
    pub centre: [Vec<Card>; 2],
}

impl SpitGame {
    pub fn new(config: SpitConfig) -> SpitGame {
        SpitGame { config }
    }

    /// A new game (match) dealt from `seed`.
    pub fn new_game(&self, seed: u64) -> SpitState {
        SpitState::new_game(self.config, seed)
    }

    /// A state whose layouts are dealt without shuffling from each seat's
    /// cards, in order (SP-1.2); the 52 cards must each appear once. The
    /// countdown to the first spit is running.
    pub fn state_from_cards(&self, seat0: &[Card], seat1: &[Card]) -> Result<SpitState> {
        SpitState::from_cards(self.config, [seat0, seat1])
    }

    /// A state in the middle of a deal, play on at time 0 (see [`Layout`]).
    pub fn state_from_layout(&self, layout: &Layout) -> Result<SpitState> {
        SpitState::from_layout(self.config, layout)
    }
}

impl engine::Game for SpitGame {
    type State = SpitState;

    const NAME: &'static str = "spit";

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
        Ok(SpitGame {
            config: SpitConfig::from_options(options)?,
        })
    }

    fn to_options(&self) -> Vec<(String, OptionValue)> {
        self.config.to_options()
    }

    fn rules_summary(&self) -> Vec<crate::engine::summary::RulePoint> {
        self.config.rules_summary()
    }

    /// Two players (SP-1.1).
    const PLAYERS: std::ops::RangeInclusive<u8> = 2..=2;

    fn players(&self) -> usize {
        PLAYERS
    }

    /// Action ids run from 0 to this, exclusive.
    fn num_distinct_actions(&self) -> usize {
        usize::from(action::COUNT)
    }

    fn observation_size(&self) -> usize {
        OBSERVATION_SIZE
    }

    /// The dealer is irrelevant in Spit (always 0).
    fn deal(&self, seed: u64, _dealer: Option<u8>) -> Result<SpitState> {
        Ok(self.new_game(seed))
    }

    fn session_rules(&self, seed: u64) -> SessionRules {
        self.config.session.rules(seed)
    }

    fn action_to_string(&self, action: u16) -> Result<String> {
        Ok(Action::decode(action)?.to_string())
    }

    fn string_to_action(&self, text: &str) -> Result<u16> {
        Ok(parse_action(text)?.encode())
    }

    type BotSpec = SpitBotSpec;
}
