//! Every value of every option of every registered game's schema reaches the
//! configuration: a game loaded with `option = value` reports that value
//! back in `to_options` (the canonical spelling of an alias), and reloading
//! its options gives the same game. An option the schema declares but the
//! configuration never reads (a missing or misspelled match arm) fails here.

#![allow(clippy::unwrap_used)]

use cardtable_core::engine::options::{OptionKind, OptionSpec, OptionValue};
use cardtable_core::engine::Game;
use cardtable_core::for_each_game;

/// The values worth trying of one option: both bools, every choice and
/// alias, and an integer range's ends and middle (its words too).
fn values(spec: &OptionSpec) -> Vec<(OptionValue, OptionValue)> {
    let same = |v: OptionValue| (v.clone(), v);
    let ints = |min: i64, max: i64| {
        let mut v = vec![min, max, min + (max - min) / 2, (min + 1).min(max)];
        v.dedup();
        v.into_iter()
            .map(OptionValue::Int)
            .map(same)
            .collect::<Vec<_>>()
    };
    match spec.kind {
        OptionKind::Bool => vec![
            same(OptionValue::Bool(true)),
            same(OptionValue::Bool(false)),
        ],
        OptionKind::Int { min, max } => ints(min, max),
        OptionKind::Choice { choices, aliases } => choices
            .iter()
            .map(|c| same(OptionValue::Str((*c).into())))
            .chain(aliases.iter().map(|(alias, canonical)| {
                (
                    OptionValue::Str((*alias).into()),
                    OptionValue::Str((*canonical).into()),
                )
            }))
            .collect(),
        OptionKind::IntOrWord { min, max, words } => words
            .iter()
            .map(|w| same(OptionValue::Str((*w).into())))
            .chain(ints(min, max))
            .collect(),
    }
}

/// Tries every value of every option of `G`; returns how many loaded (some
/// values are refused in combination with the defaults, which is fine as
/// long as the refusal names the option or a rule it breaks).
fn round_trip<G: Game + PartialEq + std::fmt::Debug>() -> usize {
    let mut loaded = 0;
    for spec in G::schema().options {
        let mut reached = false;
        for (given, canonical) in values(spec) {
            let options = vec![(spec.name.to_string(), given.clone())];
            let game = match G::from_options(&options) {
                Ok(game) => game,
                // e.g. a hand size too large for the default players.
                Err(_) => continue,
            };
            let back = game.to_options();
            let reported = back.iter().find(|(name, _)| name == spec.name);
            // An option that sets others (a preset) need not report itself.
            if let Some((_, value)) = reported {
                assert_eq!(
                    value,
                    &canonical,
                    "{}: {}={given} came back as {value}",
                    G::NAME,
                    spec.name
                );
            }
            assert_eq!(
                G::from_options(&back).unwrap(),
                game,
                "{}: {}={given} does not reload",
                G::NAME,
                spec.name
            );
            reached |= reported.is_some();
            loaded += 1;
        }
        assert!(
            reached || is_preset(spec),
            "{}: no value of {} is reported by to_options",
            G::NAME,
            spec.name
        );
    }
    loaded
}

/// An option that stands for a set of others (Tonk's `preset`).
fn is_preset(spec: &OptionSpec) -> bool {
    spec.name == "preset"
}

macro_rules! round_trip_every_game {
    ($($variant:ident => $game:ty,)*) => {
        $(assert!(round_trip::<$game>() > 0, "{}", stringify!($variant));)*
    };
}

#[test]
fn every_schema_value_of_every_game_reaches_its_configuration() {
    for_each_game!(round_trip_every_game);
}
