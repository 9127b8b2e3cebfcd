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
pub mod bots;
mod config;
mod expert;
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
pub use self::bots::TonkBotSpec;
pub use self::state::*;
pub use self::view::*;

/// Most players at one table (TK-1.2).
pub const MAX_PLAYERS: usize = 6;
/// Most spreads one hand can see: 52 cards in spreads of three.
pub const MAX_SPREADS: usize = 17;
/// Largest hand the deck allows (two players: 2 x 25 + 2 = 52, TK-1.2, TK-2.3).
pub const MAX_HAND_SIZE: i64 = 25;

/// Child streams of a hand's seed (CM-6): the deal and the dealer draw.
const STREAM_DEAL: u64 = 0;
const STREAM_DEALER: u64 = 1;

impl engine::Game for TonkGame {
    type State = TonkState;

    const NAME: &'static str = "tonk";

    fn schema() -> &'static Schema {
        &SCHEMA
    }

    fn ending_categories() -> &'static [&'static str] {
        &Ending::CATEGORIES
    }

    /// TK-10.7's stall guard (`max_idle_rounds`) cut the hand short.
    fn guard_endings() -> &'static [&'static str] {
        &["stalled"]
    }

    fn from_options(options: &[(String, OptionValue)]) -> Result<Self> {
        Ok(TonkGame::new(TonkConfig::from_options(options)?))
    }

    fn to_options(&self) -> Vec<(String, OptionValue)> {
        self.config.to_options()
    }

    fn rules_summary(&self) -> Vec<crate::engine::summary::RulePoint> {
        self.config.rules_summary()
    }

    /// Two to six players (TK-1.2), as long as the deck holds their hands.
    const PLAYERS: std::ops::RangeInclusive<u8> = 2..=MAX_PLAYERS as u8;

    fn players(&self) -> usize {
        usize::from(self.config.players)
    }

    /// Number of distinct action integers.
    fn num_distinct_actions(&self) -> usize {
        usize::from(action::COUNT)
    }

    fn observation_size(&self) -> usize {
        TonkState::observation_size(self.players())
    }

    /// A new hand dealt from `seed`. Without a dealer, the dealer is drawn (TK-4.1).
    fn deal(&self, seed: u64, dealer: Option<u8>) -> Result<TonkState> {
        let n = self.config.players;
        let dealer = match dealer {
            Some(d) if d < n => d,
            Some(d) => {
                return Err(CoreError::config(format!(
                    "dealer must be a seat 0..{}, got {d}",
                    n - 1
                )));
            }
            None => self.draw_for_dealer(seed),
        };
        Ok(TonkState::deal(self.config, seed, dealer))
    }

    /// A hand dealt from a given deck order (52 distinct cards, top first)
    /// instead of a seed: for scenarios, tests and recorded stacked deals.
    fn deal_from_deck(&self, deck: &[Card], dealer: u8) -> Result<TonkState> {
        let n = self.config.players;
        if dealer >= n {
            return Err(CoreError::config(format!(
                "dealer must be a seat 0..{}, got {dealer}",
                n - 1
            )));
        }
        let mut seen = 0u64;
        for &c in deck {
            if c.is_joker() {
                return Err(CoreError::hand("Tonk is played without jokers (TK-1.1)"));
            }
            if seen & card_bit(c) != 0 {
                return Err(CoreError::hand(format!("duplicate card {c} in the deck")));
            }
            seen |= card_bit(c);
        }
        if deck.len() != 52 {
            return Err(CoreError::hand(format!(
                "a deck has 52 cards, got {}",
                deck.len()
            )));
        }
        Ok(TonkState::deal_from(
            self.config,
            0,
            Some(deck.to_vec()),
            deck,
            dealer,
        ))
    }

    /// Text of an action for the current state (same as `Action`'s `Display`).
    fn action_to_string(&self, a: u16) -> Result<String> {
        Ok(Action::decode(a)?.to_string())
    }

    fn string_to_action(&self, text: &str) -> Result<u16> {
        Ok(parse_action(text)?.encode())
    }

    /// TK-3, TK-7 as configured (aces, face values).
    fn meld_rules(&self) -> Option<crate::meld::MeldRules> {
        Some(self.config.meld_rules())
    }

    /// One deck, `hand_size` cards each (TK-2), the upcard unless turned off (TK-4.5).
    fn deal_rules(&self) -> Option<crate::deck::DealRules> {
        Some(crate::deck::DealRules {
            hand_size: usize::from(self.config.hand_size),
            deck: DeckSpec::standard(),
            upcard: self.config.upcard,
            deck_options: false,
        })
    }

    type BotSpec = TonkBotSpec;
}
