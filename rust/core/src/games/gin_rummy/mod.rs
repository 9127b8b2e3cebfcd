//! Gin Rummy (`docs/gin_rummy.md`, GR-1 … GR-10): OpenSpiel's `gin_rummy`, its
//! rules, phases and action ids, so that OpenSpiel's games replay through
//! the engine action for action.
//!
//! Options (defaults first):
//!
//! | option | values |
//! |---|---|
//! | `knock_card` | 10, or 0..=10 (GR-5.1) |
//! | `gin_bonus` | 25, or 0..=1000 (GR-8.2) |
//! | `undercut_bonus` | 25, or 0..=1000 (GR-8.3) |
//! | `hand_size` | 10, or 1..=10 (GR-1.3) |
//! | `oklahoma` | false: the first upcard sets the knock card (GR-9.1) |
//!
//! # Cards
//!
//! Inside the engine a card is an OpenSpiel card id ([`CardId`], GR-2.1:
//! `suit * 13 + rank` with suits spades, clubs, diamonds, hearts), because
//! the action ids are OpenSpiel's; a hand is a `u64` mask of ids. Views,
//! texts and decks use the project's [`Card`] ([`card_of_id`], [`id_of_card`]).
//!
//! # Engine decisions
//!
//! - GR-1.4: seat 1 deals by default, so seat 0 receives the first hand and
//!   acts first, as OpenSpiel's player 0 always does.
//! - GR-1.5: the deal is a seeded shuffle or a given deck order; stock draws
//!   take the deck's next card (no chance actions in the history).
//! - GR-5.1 / GR-7.2: the knock check is the exact best-discard deadwood
//!   (`Solver::best_discard_deadwood`), not OpenSpiel's heuristic 11-card
//!   deadwood, which sometimes refuses a knock a legal discard supports.
//! - GR-10.2: at the end the observation's current-seat block is zeros.

mod actions;
pub mod bots;
mod config;
mod expert;
pub mod hand;
mod refusal;
mod state;
mod summary;
mod view;

use std::fmt;

use crate::card::Card;
use crate::engine;
use crate::engine::options::{OptionKind, OptionSpec, OptionValue, Schema};
use crate::error::{CoreError, Result};
use crate::meld::{MeldRules, Solver};
use crate::rng::GameRng;

pub use self::actions::*;
pub use self::bots::GinRummyBotSpec;
pub use self::config::*;
pub use self::state::*;
pub use self::view::*;

/// Cards in the deck (GR-1.1).
pub const DECK_SIZE: usize = 52;
/// A discard leaving this many stock cards reaches the wall (GR-7.1).
pub const WALL_STOCK: usize = 2;
/// The draw of the upcard (in the draw phase) that ends the game (GR-7.3).
pub const MAX_UPCARD_DRAWS: u8 = 50;
/// The threshold of the opponent's melds (OpenSpiel's `kMaxPossibleDeadwood`, GR-6.3).
pub const MAX_POSSIBLE_DEADWOOD: u32 = 98;
/// Laid melds per seat at most (ten cards hold three melds).
pub const MAX_LAID_MELDS: usize = 4;
/// Length of [`GinRummyState::observation`] (GR-10.2).
pub const OBSERVATION_SIZE: usize = 644;

/// Every ending category (GR-8.6), in report order.
pub const ENDINGS: [&str; 7] = [
    "gin",
    "knock",
    "undercut",
    "knock_tie",
    "wall",
    "repeated_move",
    "upcard_limit",
];

impl engine::Game for GinRummyGame {
    type State = GinRummyState;

    const NAME: &'static str = "gin_rummy";

    fn schema() -> &'static Schema {
        &SCHEMA
    }

    fn ending_categories() -> &'static [&'static str] {
        &ENDINGS
    }

    /// The upcard limit (GR-7.3) stops a game that would go on forever.
    fn guard_endings() -> &'static [&'static str] {
        &["upcard_limit"]
    }

    fn from_options(options: &[(String, OptionValue)]) -> Result<Self> {
        Ok(GinRummyGame::new(GinRummyConfig::from_options(options)?))
    }

    fn to_options(&self) -> Vec<(String, OptionValue)> {
        self.config.to_options()
    }

    fn rules_summary(&self) -> Vec<crate::engine::summary::RulePoint> {
        self.config.rules_summary()
    }

    /// Two players (GR-1.1).
    const PLAYERS: std::ops::RangeInclusive<u8> = 2..=2;

    fn players(&self) -> usize {
        2
    }

    fn num_distinct_actions(&self) -> usize {
        usize::from(action::COUNT)
    }

    fn observation_size(&self) -> usize {
        OBSERVATION_SIZE
    }

    fn deal(&self, seed: u64, dealer: Option<u8>) -> Result<GinRummyState> {
        self.new_game(seed, dealer)
    }

    fn deal_from_deck(&self, deck: &[Card], dealer: u8) -> Result<GinRummyState> {
        GinRummyGame::deal_from_deck(self, deck, dealer)
    }

    fn action_to_string(&self, action: u16) -> Result<String> {
        action_text(action)
    }

    fn string_to_action(&self, text: &str) -> Result<u16> {
        parse_action(text)
    }

    /// Plain rummy melds: one deck, aces low, J/Q/K = 10 (GR-1.2).
    fn meld_rules(&self) -> Option<MeldRules> {
        Some(MeldRules::gin())
    }

    /// One deck, `hand_size` cards each and an upcard (GR-1.3).
    fn deal_rules(&self) -> Option<crate::deck::DealRules> {
        Some(crate::deck::DealRules {
            hand_size: usize::from(self.config.hand_size),
            deck: crate::deck::DeckSpec::standard(),
            upcard: true,
            deck_options: false,
        })
    }

    type BotSpec = GinRummyBotSpec;
}
