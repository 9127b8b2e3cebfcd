//! Gin Rummy's options (GR-1.3, GR-5.1, GR-8, GR-9): the schema and the
//! resolved configuration.

use serde::{Deserialize, Serialize};

use super::*;
use crate::engine::option_map;
use crate::engine::options::spec;

/// All Gin Rummy parameters, checked. Each option of [`SCHEMA`] is the
/// field of its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct GinRummyConfig {
    /// Most deadwood a knock may leave (GR-5.1); Oklahoma overrides it per deal.
    pub knock_card: u8,
    pub gin_bonus: u32,
    pub undercut_bonus: u32,
    /// Cards dealt to each player (GR-1.3).
    pub hand_size: u8,
    /// The first upcard sets the knock card (GR-9.1).
    pub oklahoma: bool,
}

impl Default for GinRummyConfig {
    fn default() -> Self {
        GinRummyConfig {
            knock_card: 10,
            gin_bonus: 25,
            undercut_bonus: 25,
            hand_size: 10,
            oklahoma: false,
        }
    }
}

/// Largest bonus accepted (OpenSpiel checks none).
pub const MAX_BONUS: i64 = 1000;

/// Every Gin Rummy option, once, named as OpenSpiel's parameters.
pub const OPTIONS: [OptionSpec; 5] = [
    spec(
        "knock_card",
        OptionKind::Int { min: 0, max: 10 },
        "GR-5.1",
        "Most deadwood a knock may leave (0: gin only).",
    ),
    spec(
        "gin_bonus",
        OptionKind::Int {
            min: 0,
            max: MAX_BONUS,
        },
        "GR-8.2",
        "Bonus of a knock with no deadwood (gin).",
    ),
    spec(
        "undercut_bonus",
        OptionKind::Int {
            min: 0,
            max: MAX_BONUS,
        },
        "GR-8.3",
        "Bonus to the opponent when its deadwood is below the knocker's.",
    ),
    spec(
        "hand_size",
        OptionKind::Int { min: 1, max: 10 },
        "GR-1.3",
        "Cards dealt to each player.",
    ),
    spec(
        "oklahoma",
        OptionKind::Bool,
        "GR-9.1",
        "The first upcard's value sets the knock card (an ace: gin only).",
    ),
];

/// Gin Rummy's option schema.
pub const SCHEMA: Schema = Schema {
    game: "Gin Rummy",
    options: &OPTIONS,
};

impl GinRummyConfig {
    /// Builds a configuration from named options; the schema rejects unknown
    /// names and bad values, naming the option.
    pub fn from_options(options: &[(String, OptionValue)]) -> Result<GinRummyConfig> {
        let given = SCHEMA.check(options)?;
        option_map::read(&SCHEMA, &given)
    }

    /// Every option with its value: enough to rebuild this configuration.
    pub fn to_options(&self) -> Vec<(String, OptionValue)> {
        option_map::to_options(&SCHEMA, self)
    }
}

impl fmt::Display for GinRummyConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::engine::option_map::display(&self.to_options(), f)
    }
}
