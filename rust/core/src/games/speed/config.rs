//! Speed's options (SD-1 … SD-5 flags and the real-time ones of RT-6,
//! RT-7, RT-12): the schema and the resolved configuration.

use serde::{Deserialize, Serialize};

use super::*;
use crate::engine::option_fields::choices;
use crate::engine::option_map;
use crate::engine::options::{choice, spec, BOOL};
use crate::engine::session_config::SESSION_SCHEMA;

choices! {
    /// How exhausted side piles are rebuilt (SD-3.4).
    pub enum Recycle {
        /// Both centre piles but their tops, shuffled together, dealt alternately.
        Merged = "merged",
        /// Each centre pile but its top, shuffled, becomes the side pile next to it.
        PerPile = "per_pile",
    }

    /// How many deals a game has (SD-4.2).
    pub enum MatchFormat {
        /// One deal without scoring; with scoring, deals until `target_score`.
        Target = "target",
        /// Deals until someone has won two.
        BestOf3 = "best_of_3",
    }
}

/// All Speed parameters, resolved and checked. Each option of [`SCHEMA`] is
/// the field of its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct SpeedConfig {
    pub side_pile_size: u8,
    pub auto_draw: bool,
    pub recycle: Recycle,
    pub scoring: bool,
    pub score_counts_hand: bool,
    pub target_score: u32,
    #[serde(rename = "match")]
    pub match_format: MatchFormat,
    pub equal_rank_play: bool,
    pub jokers: bool,
    pub start_countdown_ms: u32,
    pub flip_delay_ms: u32,
    /// The session's options (RT-4, RT-6, RT-12).
    #[serde(flatten, deserialize_with = "read_session")]
    pub session: SessionConfig,
}

/// The session options given, over Speed's own defaults.
fn read_session<'de, D: serde::Deserializer<'de>>(d: D) -> Result<SessionConfig, D::Error> {
    option_map::read_flattened(d, &SESSION_SCHEMA, &SpeedConfig::default().session)
}

/// The largest side pile: 52 − 2 × 20 − 2 centre cards leave 5 a player.
pub const MAX_SIDE_PILE: i64 = 20;
pub const MAX_TARGET_SCORE: i64 = 1000;
pub const MAX_DELAY_MS: i64 = 60_000;

/// Every Speed option, once: names as in the specification without the
/// `speed.` prefix.
const OWN_OPTIONS: [OptionSpec; 11] = [
    spec("side_pile_size", OptionKind::Int { min: 1, max: MAX_SIDE_PILE }, "SD-1.2", "Cards in each side pile: 10 (15 cards a player, the seed) or 5 (20 a player, Wikipedia); any size from 1 to 20 deals the rest evenly."),
    spec("auto_draw", BOOL, "SD-2.2", "Each play refills the hand from the draw pile at once; false: drawing is a separate action while the hand holds fewer than 5 cards."),
    spec("recycle", choice(Recycle::NAMES, &[]), "SD-3.4", "Exhausted side piles: merged (both centre piles but their tops, shuffled, dealt alternately) or per_pile (each centre pile but its top, shuffled, becomes the side pile next to it)."),
    spec("scoring", BOOL, "SD-4.2", "The winner of a deal scores the cards the loser has left; with match=target, deals go on until target_score."),
    spec("score_counts_hand", BOOL, "SD-4.2", "With scoring, the loser's hand counts as well as the draw pile; false: the draw pile only."),
    spec("target_score", OptionKind::Int { min: 1, max: MAX_TARGET_SCORE }, "SD-4.2", "With scoring and match=target, the points that win the match."),
    spec("match", choice(MatchFormat::NAMES, &[("best_of_three", "best_of_3"), ("bo3", "best_of_3")]), "SD-4.2", "target: one deal (with scoring: deals until target_score); best_of_3: deals until someone has won two."),
    spec("equal_rank_play", BOOL, "SD-5", "A card of the same rank as a centre top may be played on it too (doubles)."),
    spec("jokers", BOOL, "SD-5", "Two wild jokers: one played from the hand takes the rank it is played as; one turned up from a side pile lets any card go on it."),
    spec("start_countdown_ms", OptionKind::Int { min: 0, max: MAX_DELAY_MS }, "RT-7", "Virtual ms from the deal until the centre cards turn up."),
    spec("flip_delay_ms", OptionKind::Int { min: 0, max: MAX_DELAY_MS }, "RT-7", "Virtual ms a stalemate is shown before the side piles flip (RT-8)."),
];

/// Speed's options and the session's.
pub const OPTIONS: [OptionSpec; 16] = with_session_options(OWN_OPTIONS);

/// Speed's option schema.
pub const SCHEMA: Schema = Schema {
    game: "Speed",
    options: &OPTIONS,
};

impl Default for SpeedConfig {
    fn default() -> Self {
        SpeedConfig {
            side_pile_size: 10,
            auto_draw: true,
            recycle: Recycle::Merged,
            scoring: false,
            score_counts_hand: true,
            target_score: 25,
            match_format: MatchFormat::Target,
            equal_rank_play: false,
            jokers: false,
            start_countdown_ms: 1500,
            flip_delay_ms: 700,
            session: SessionConfig::with_max_deals(100),
        }
    }
}

impl SpeedConfig {
    /// Builds and checks a configuration from named options; every error
    /// names its option.
    pub fn from_options(options: &[(String, OptionValue)]) -> Result<SpeedConfig> {
        let given = SCHEMA.check(options)?;
        let c: SpeedConfig = option_map::read(&SCHEMA, &given)?;
        c.check()?;
        Ok(c)
    }

    /// Impossible combinations.
    pub fn check(&self) -> Result<()> {
        self.session.check(self.start_countdown_ms)
    }

    /// Brings every field into range (for configurations built by hand).
    pub(super) fn clamped(mut self) -> SpeedConfig {
        self.side_pile_size = self.side_pile_size.clamp(1, MAX_SIDE_PILE as u8);
        self.target_score = self.target_score.clamp(1, MAX_TARGET_SCORE as u32);
        self.start_countdown_ms = self.start_countdown_ms.min(MAX_DELAY_MS as u32);
        self.flip_delay_ms = self.flip_delay_ms.min(MAX_DELAY_MS as u32);
        self.session = self.session.clamped(self.start_countdown_ms);
        self
    }

    /// Cards in play: 52, or 54 with jokers.
    pub fn deck_size(&self) -> usize {
        52 + if self.jokers { JOKERS_IN_PLAY } else { 0 }
    }

    /// Cards each player receives (hand and draw pile) at a deal (SD-1.2).
    pub fn cards_per_player(&self) -> usize {
        (self.deck_size() - 2 - 2 * usize::from(self.side_pile_size)) / 2
    }

    /// Whether the game is one deal (no scoring, `match = target`).
    pub fn single_deal(&self) -> bool {
        !self.scoring && self.match_format == MatchFormat::Target
    }

    /// Every option with its value: enough to rebuild this configuration
    /// whatever the defaults become (used by game records).
    pub fn to_options(&self) -> Vec<(String, OptionValue)> {
        option_map::to_options(&SCHEMA, self)
    }
}

impl fmt::Display for SpeedConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::engine::option_map::display(&self.to_options(), f)
    }
}
