//! Three Thirteen (rules specification §2, TT-1 … TT-12).
//!
//! One state is the whole game: every round of the schedule, with a running
//! score sheet.
//!
//! Its options are declared once, in the schema of `config.rs` (name,
//! values, default, help and rule ID); `docs/options.md` is generated from it.
//!
//! # Schedule (TT-2.3, TT-10.3, TT-10.5)
//!
//! The schedule is a list of `(cards_dealt, wild_rank)`. `up` deals 3, 4, …,
//! 13 cards (wild 3 … K); `extra_rounds` extends the top with 14 cards (aces
//! wild) and 15 (twos wild). **Engine decision:** with `up_down` the extra
//! rounds extend the peak, and the top round is played twice, as the
//! 13-card round is without extra rounds: `3 … 13 14 15 15 14 13 … 3`.
//!
//! # Engine decisions (the specification is silent)
//!
//! - TT-3.1: the first dealer is drawn from the seed's dealer stream
//!   (uniform seat); the deal passes left each round. `State::dealer` is the
//!   first dealer (what a record needs); `round_dealer` the current one.
//! - TT-3.2 / CM-6: round `k` is dealt from a deck shuffled with
//!   `derive_seed(derive_seed(seed, STREAM_DEAL), k)`; the `r`-th restock of
//!   round `k` shuffles with `derive_seed(derive_seed(seed, STREAM_RESTOCK), k * 256 + r)`.
//! - TT-3.5 / CM-4: cards are named by code, so with `forbid_rediscard` no
//!   card with the taken card's code may be discarded (or gifted, or be the
//!   going-out discard) that turn, unless every card held has that code.
//! - TT-6.2: a last turn is draw then discard (no going out: a player fully
//!   melded after it scores 0 anyway, TT-6.3).
//! - TT-6.1 / TT-10.4: going out needs every card but the discard in a
//!   meld. Under `wild_giftable` an unmelded joker costs 0 but is still not
//!   in a meld, so it blocks going out (the check values it at 1). Scoring a
//!   hand (TT-6.3, TT-7) counts it as 0.
//! - TT-6.2: after an out every other player has exactly one last turn,
//!   whatever the guards: the stock and stall guards (TT-9.3) end only
//!   rounds nobody went out of, and the stock is rebuilt for a last turn
//!   even past `max_restocks`. A last turn with nothing at all to draw (no
//!   stock and the pile emptied by a gifted joker) passes.
//! - TT-9.1/9.2/9.3: when a turn starts with an empty stock and the stock was
//!   already rebuilt `max_restocks` times, the round ends and is scored (TT-9.3).
//!   Otherwise `draw` rebuilds the stock from the discards but the top one
//!   (seeded); if that would be empty, `take` is the only legal draw (TT-9.2).
//!   With nothing at all to draw (the pile emptied by a gift) the round ends
//!   as under TT-9.3.
//! - Stall guard (TT-9.3 extended): after `STALL_TURNS_PER_PLAYER × players`
//!   turns in a row without a stock draw, the round ends as under TT-9.3, so
//!   every game ends whatever the players do.
//! - TT-10.6: in a redemption last turn the player chooses what to table:
//!   `pick C` puts a held card into the meld being built (it stays in the
//!   hand until laid) and `meld` lays the picked cards down as one meld, as
//!   often as the hand allows; any other action lets the picks go. `table`
//!   is the shortcut that lays down the melds of the solver's best-discard
//!   arrangement. `layoff C Mk` adds one card to tabled meld `k` (ids in
//!   tabling order, the going-out player's first); the result must be a
//!   valid meld within the wild limits, of either kind (a run may become a
//!   book). A player whose hand is emptied ends the turn without a discard
//!   and scores 0.
//! - Hidden information: a card taken from the pile is known to everybody
//!   until a card of that code leaves the hand in sight (copies look alike,
//!   CM-4), so a hidden second copy is never revealed.
//! - Refusals: every illegal action has a [`crate::engine::Refusal`] (the
//!   rule and a sentence), also in `apply_action`'s error.
//! - TT-10.7 / TT-10.9: doubling applies to deadwood; each false out adds 20
//!   after the doubling, also for a player who later goes out that round.
//!   The invalid declaration is the discard of its card (the turn ends).
//! - TT-10.4 `wild_giftable`: `gift JK s` is a discard; the joker leaves play
//!   in seat `s`'s area until the round ends. It cannot be the going-out discard.
//! - Results: `returns[i] = Σ totals − players × total[i]` (zero-sum); the
//!   lowest total(s) win (TT-8.1); endings `outright` (one lowest) or `shared`.

mod actions;
pub mod bots;
mod config;
mod expert;
mod layout;
mod refusal;
mod state;
mod summary;
mod view;

use std::fmt;

use crate::card::{Card, Rank};
use crate::engine;
use crate::engine::options::{OptionKind, OptionSpec, OptionValue, Schema};
use crate::error::{CoreError, Result};
use crate::meld::{Meld, MeldRules, ResolvedRules};
use crate::rng::{derive_seed, GameRng};

pub use self::actions::*;
pub use self::bots::ThreeThirteenBotSpec;
pub use self::config::*;
pub use self::state::*;
pub use self::view::*;

/// Most players at one table (TT-1.1; the action encoding has a gift per seat).
pub const MAX_PLAYERS: usize = 8;
/// Most rounds of a schedule: `up_down` with both extra rounds.
pub const MAX_ROUNDS: usize = 26;
/// Most melds on the table in a redemption round: five per player.
pub const MAX_TABLED_MELDS: usize = 40;
/// Card codes: 0..=51 and the joker (52).
pub const CARD_CODES: usize = 53;
/// Stall guard: turns per player in a row without a stock draw that end a round.
pub const STALL_TURNS_PER_PLAYER: u32 = 10;

/// Child streams of a game's seed (CM-6).
const STREAM_DEAL: u64 = 0;
const STREAM_RESTOCK: u64 = 1;
const STREAM_DEALER: u64 = 2;

impl engine::Game for ThreeThirteenGame {
    type State = ThreeThirteenState;

    const NAME: &'static str = "three_thirteen";

    fn schema() -> &'static Schema {
        &SCHEMA
    }

    fn ending_categories() -> &'static [&'static str] {
        &ENDINGS
    }

    /// None: the stock and stall guards (TT-9.3) end rounds, which are
    /// scored, never the game.
    fn guard_endings() -> &'static [&'static str] {
        &[]
    }

    fn from_options(options: &[(String, OptionValue)]) -> Result<Self> {
        Ok(ThreeThirteenGame::new(ThreeThirteenConfig::from_options(
            options,
        )?))
    }

    fn to_options(&self) -> Vec<(String, OptionValue)> {
        self.config.to_options()
    }

    fn rules_summary(&self) -> Vec<crate::engine::summary::RulePoint> {
        self.config.rules_summary()
    }

    /// Two to eight players (TT-1.1; the engine's limit).
    const PLAYERS: std::ops::RangeInclusive<u8> = 2..=MAX_PLAYERS as u8;

    fn players(&self) -> usize {
        usize::from(self.config.players)
    }

    fn num_distinct_actions(&self) -> usize {
        usize::from(action::COUNT)
    }

    fn observation_size(&self) -> usize {
        ThreeThirteenState::observation_size(self.players())
    }

    /// A new game dealt from `seed`; without a dealer, the first dealer is
    /// drawn from the seed (TT-3.1).
    fn deal(&self, seed: u64, dealer: Option<u8>) -> Result<ThreeThirteenState> {
        let dealer = match dealer {
            Some(d) => self.check_dealer(d)?,
            None => self.draw_for_dealer(seed),
        };
        let mut s = ThreeThirteenState::empty(self.config, seed, dealer);
        s.begin_round(0, None);
        Ok(s)
    }

    /// Text of an action (the same as `Action`'s `Display`).
    fn action_to_string(&self, a: u16) -> Result<String> {
        Ok(Action::decode(a)?.to_string())
    }

    fn string_to_action(&self, text: &str) -> Result<u16> {
        Ok(parse_action(text)?.encode())
    }

    /// TT-4, TT-5, TT-7, TT-10 as configured, the wild rank following the
    /// hand size (TT-2.2).
    fn meld_rules(&self) -> Option<MeldRules> {
        let mut rules = self.config.meld_rules(3);
        rules.wild = crate::meld::WildRank::ByHandSize;
        Some(rules)
    }

    /// The first round's deal: `round_deal_rules(1)`.
    fn deal_rules(&self) -> Option<crate::deck::DealRules> {
        self.round_deal_rules(1).and_then(Result::ok)
    }

    /// Round `round` deals `round + 2` cards (TT-2.1; rounds 12 and 13 are
    /// TT-10.3's) from the configured decks (TT-1.2), with an upcard (TT-3.2).
    fn round_deal_rules(&self, round: u8) -> Option<Result<crate::deck::DealRules>> {
        Some(if (1..=13).contains(&round) {
            Ok(crate::deck::DealRules {
                hand_size: usize::from(round) + 2,
                deck: self.config.deck(),
                upcard: true,
                deck_options: true,
            })
        } else {
            Err(CoreError::option(
                "round",
                format!("round {round} out of range: rounds run from 1 to 13 (TT-2.1, TT-10.3)"),
            ))
        })
    }

    type BotSpec = ThreeThirteenBotSpec;
}
