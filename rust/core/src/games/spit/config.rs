//! Spit's options (SP-2 … SP-7 flags, RT-4/RT-6/RT-7/RT-12): the schema and
//! the resolved, checked configuration.

use serde::{Deserialize, Serialize};

use super::*;
use crate::engine::option_fields::choices;
use crate::engine::option_map;
use crate::engine::options::{choice, spec, BOOL};
use crate::engine::session_config::SESSION_SCHEMA;

choices! {
    /// Which pile a lone spitter uses (SP-3.3).
    pub enum LoneSpitPile {
        /// At the first lone spit of a deal they choose a pile and keep it.
        Choose = "choose",
        /// Always the pile they started.
        Own = "own",
    }

    /// How a stalemate is called (SP-3.5).
    pub enum StalemateMode {
        /// The engine detects it and spits after `spit_delay_ms`.
        Strict = "strict",
        /// As strict, and both players sending `spit` also triggers it.
        Agreed = "agreed",
    }
}

/// All Spit parameters, resolved and checked. Each option of [`SCHEMA`] is
/// the field of its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct SpitConfig {
    /// Stock piles per player: 5 (1+2+3+4+5 = 15 cards) or 4 (10 cards) (SP-7.1).
    pub stock_piles: u8,
    pub auto_flip: bool,
    pub lone_spit_pile: LoneSpitPile,
    pub stalemate: StalemateMode,
    /// Race to claim a pile (true) or the pile is chosen (false) (SP-4.4).
    pub slap: bool,
    pub alternate_colours: bool,
    pub stack_equal_ranks: bool,
    pub merge_equal_at_setup: bool,
    pub equal_rank_play: bool,
    /// Best of this many games (odd) (SP-5.3).
    pub match_games: u8,
    pub start_countdown_ms: u32,
    pub spit_delay_ms: u32,
    pub slap_window_ms: u32,
    pub regather_ms: u32,
    /// The session's options (RT-4, RT-6, RT-12).
    #[serde(flatten, deserialize_with = "read_session")]
    pub session: SessionConfig,
}

/// The session options given, over Spit's own defaults.
fn read_session<'de, D: serde::Deserializer<'de>>(d: D) -> Result<SessionConfig, D::Error> {
    option_map::read_flattened(d, &SESSION_SCHEMA, &SpitConfig::default().session)
}

/// Longest configurable delay (countdown, spit delay, slap window, regather).
pub const MAX_DELAY_MS: i64 = 60_000;
/// Most games of a match.
pub const MAX_MATCH_GAMES: i64 = 99;

const DELAY: OptionKind = OptionKind::Int {
    min: 0,
    max: MAX_DELAY_MS,
};

/// Every Spit option, once: names as in the specification without the
/// `spit.` prefix (the real-time ones as in RT-4, RT-6, RT-7, RT-12).
const OWN_OPTIONS: [OptionSpec; 14] = [
    spec("stock_piles", OptionKind::Int { min: 4, max: 5 }, "SP-7.1", "Stock piles per player: 5 (layout 1+2+3+4+5 = 15 cards, default) or 4 (1+2+3+4 = 10 cards; single-pile mode at 10 cards or fewer)."),
    spec("auto_flip", BOOL, "SP-2.2", "A face-down top card is turned up at once, for both players (default false: flipping is an action)."),
    spec("lone_spit_pile", choice(LoneSpitPile::NAMES, &[]), "SP-3.3", "choose (default): at the first lone spit of a deal the lone spitter picks a pile and keeps it for the deal; own: always the pile they started."),
    spec("stalemate", choice(StalemateMode::NAMES, &[]), "SP-3.5", "strict (default): the engine detects a stalemate and spits after spit_delay_ms; agreed: also when both players send spit, even with moves left."),
    spec("slap", BOOL, "SP-4.4", "true (default): at the end of a deal both race to claim a spit pile, the first claim takes the pile it names; false: the pile is chosen (the player who emptied their layout, or the one with fewer stock cards)."),
    spec("alternate_colours", BOOL, "SP-7.3", "A played card must also be of the opposite colour to the spit pile's top card."),
    spec("stack_equal_ranks", BOOL, "SP-7.4", "A face-up top card may be stacked onto another own face-up top card of the same rank."),
    spec("merge_equal_at_setup", BOOL, "SP-7.4", "Before play, equal face-up ranks in a layout are stacked (rightmost onto leftmost) and the uncovered cards turned up, until all tops differ."),
    spec("equal_rank_play", BOOL, "SP-7.4", "A card of the same rank as the spit pile's top card may also be played."),
    spec("match_games", OptionKind::Int { min: 1, max: MAX_MATCH_GAMES }, "SP-5.3", "Best of this many games (an odd number; default 1: a single game)."),
    spec("start_countdown_ms", DELAY, "RT-7", "Virtual ms from a new layout to the first spit (default 1500)."),
    spec("spit_delay_ms", DELAY, "RT-7", "Virtual ms from the start of a stalemate to the spit (default 700)."),
    spec("slap_window_ms", DELAY, "RT-7", "Virtual ms the slap window (or a pile choice) stays open; missing claims are then assigned (default 3000)."),
    spec("regather_ms", DELAY, "RT-7", "Virtual ms from the pile assignment to the new layout (default 1000)."),
];

/// Spit's options and the session's.
pub const OPTIONS: [OptionSpec; 19] = with_session_options(OWN_OPTIONS);

/// Spit's option schema.
pub const SCHEMA: Schema = Schema {
    game: "Spit",
    options: &OPTIONS,
};

impl Default for SpitConfig {
    fn default() -> Self {
        SpitConfig {
            stock_piles: 5,
            auto_flip: false,
            lone_spit_pile: LoneSpitPile::Choose,
            stalemate: StalemateMode::Strict,
            slap: true,
            alternate_colours: false,
            stack_equal_ranks: false,
            merge_equal_at_setup: false,
            equal_rank_play: false,
            match_games: 1,
            start_countdown_ms: 1500,
            spit_delay_ms: 700,
            slap_window_ms: 3000,
            regather_ms: 1000,
            session: SessionConfig::with_max_deals(1000),
        }
    }
}

impl SpitConfig {
    /// Builds and checks a configuration from named options; every error
    /// names its option.
    pub fn from_options(options: &[(String, OptionValue)]) -> Result<SpitConfig> {
        let given = SCHEMA.check(options)?;
        let c: SpitConfig = option_map::read(&SCHEMA, &given)?;
        c.check()?;
        Ok(c)
    }

    /// Combination checks the schema cannot make.
    pub(super) fn check(&self) -> Result<()> {
        self.session.check(self.start_countdown_ms)?;
        if self.match_games % 2 == 0 {
            return Err(CoreError::option(
                "match_games",
                format!(
                    "match_games must be an odd number (best of N) (SP-5.3), got {}",
                    self.match_games
                ),
            ));
        }
        Ok(())
    }

    /// Games a player must win to take the match.
    pub fn wins_needed(&self) -> u8 {
        self.match_games / 2 + 1
    }

    /// Every option with its value: enough to rebuild this configuration.
    pub fn to_options(&self) -> Vec<(String, OptionValue)> {
        option_map::to_options(&SCHEMA, self)
    }
}

impl fmt::Display for SpitConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::engine::option_map::display(&self.to_options(), f)
    }
}
