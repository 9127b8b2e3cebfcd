//! Options are declared once, in the schema, and held once, in the serde
//! fields of a configuration: the two name the same options, and every
//! value of every option of every registered game (and of the meld rules)
//! reaches the configuration. A game loaded with `option = value` reports
//! that value back in `to_options` (the canonical spelling of an alias), and
//! reloading its options gives the same game. A field without a schema
//! entry, or an entry without a field, fails here. Random rule sets of
//! every game are refused with an error naming an option, or reload and
//! replay their records. Every list of games here is the game table
//! (`for_each_game!`).

#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;

use cardtable_core::engine::options::{OptionKind, OptionSpec, OptionValue, Schema};
use cardtable_core::engine::record::{record_of_state, replay, Record};
use cardtable_core::engine::session_config::{SessionConfig, SESSION_OPTIONS};
use cardtable_core::engine::{Decision, Game, State};
use cardtable_core::games::{speed, spit};
use cardtable_core::meld::{RuleOptions, MELD_SCHEMA};
use cardtable_core::{for_each_game, CoreError, GameRng};
use serde::Serialize;

/// The values worth trying of one option: both bools, every choice and
/// alias, and an integer range's ends and middle (its words too), each with
/// the value `to_options` reports for it.
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

/// Tries every value of every option of `G`; returns how many loaded. Some
/// values are refused in combination with the defaults (a hand size too
/// large for the default players); the refusal must name an option and be
/// the caller's mistake, not a configuration that cannot hold the value.
fn round_trip<G: Game + PartialEq + std::fmt::Debug>() -> usize {
    let mut loaded = 0;
    for spec in G::schema().options {
        let mut reached = false;
        for (given, canonical) in values(spec) {
            let options = vec![(spec.name.to_string(), given.clone())];
            let game = match G::from_options(&options) {
                Ok(game) => game,
                Err(CoreError::InvalidConfig {
                    option: Some(_),
                    message,
                }) if !message.contains("engine bug") => continue,
                Err(e) => panic!("{}: {}={given}: {e}", G::NAME, spec.name),
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

/// The default game writes every option of its schema, in schema order.
fn writes_every_option<G: Game>() {
    let game = G::from_options(&[]).unwrap();
    let written: Vec<String> = game.to_options().into_iter().map(|(k, _)| k).collect();
    let declared: Vec<&str> = G::schema().names().collect();
    assert_eq!(written, declared, "{}", G::NAME);
}

macro_rules! round_trip_every_game {
    ($($variant:ident => $game:ty,)*) => {
        $(
            writes_every_option::<$game>();
            assert!(round_trip::<$game>() > 0, "{}", stringify!($variant));
        )*
    };
}

#[test]
fn every_schema_value_of_every_game_reaches_its_configuration() {
    for_each_game!(round_trip_every_game);
}

/// The options a configuration holds: the names serde writes for its fields.
fn field_names<C: Serialize>(config: &C) -> BTreeSet<String> {
    match serde_json::to_value(config).unwrap() {
        serde_json::Value::Object(fields) => fields.keys().cloned().collect(),
        other => panic!("a configuration is written as an object of fields, not {other}"),
    }
}

fn declared(options: &[OptionSpec]) -> BTreeSet<String> {
    options.iter().map(|o| o.name.to_string()).collect()
}

/// Each registered game's default configuration holds the options of its
/// schema as its fields (a game without a `config` field does not compile
/// here: the list is the game table).
macro_rules! configuration_fields_of_every_game {
    ($($variant:ident => $game:ty,)*) => {
        vec![$((
            <$game as Game>::schema(),
            field_names(&<$game as Game>::from_options(&[]).unwrap().config),
        ),)*]
    };
}

#[test]
fn every_configuration_field_is_an_option_of_its_schema_and_back() {
    let mut configurations: Vec<(&Schema, BTreeSet<String>)> =
        for_each_game!(configuration_fields_of_every_game);
    configurations.push((&MELD_SCHEMA, field_names(&RuleOptions::default())));
    for (schema, fields) in configurations {
        assert_eq!(fields, declared(schema.options), "{}", schema.game);
    }
    // RT-4, RT-6, RT-12: the session's options, in every real-time game.
    assert_eq!(
        field_names(&SessionConfig::with_max_deals(1)),
        declared(&SESSION_OPTIONS)
    );
}

/// A random rule set of `G`: each option left out or given a random value
/// of its kind, now and then one outside its range or choices.
fn random_options<G: Game>(rng: &mut GameRng) -> Vec<(String, OptionValue)> {
    let mut given = Vec::new();
    for spec in G::schema().options {
        if rng.below(3) != 0 {
            continue;
        }
        let tried = values(spec);
        let (value, _) = tried[rng.below(tried.len() as u32) as usize].clone();
        let value = match (rng.below(16), spec.kind) {
            (0, OptionKind::Int { max, .. } | OptionKind::IntOrWord { max, .. }) => {
                OptionValue::Int(max + 1)
            }
            (1, OptionKind::Int { min, .. } | OptionKind::IntOrWord { min, .. }) => {
                OptionValue::Int(min - 1)
            }
            (2, OptionKind::Choice { .. } | OptionKind::IntOrWord { .. }) => {
                OptionValue::Str("no_such_word".into())
            }
            _ => value,
        };
        given.push((spec.name.to_string(), value));
    }
    given
}

/// Random rule sets of `G`: one the engine refuses is refused with an error
/// naming an option; one it accepts reloads from its options and from
/// those given only, and the record of a turn-based game a few random
/// actions in replays to the same state.
/// Returns how many were accepted.
fn random_rule_sets<G: Game>(sets: u64) -> u64 {
    let mut rng = GameRng::new(4);
    let mut accepted = 0;
    for i in 0..sets {
        let given = random_options::<G>(&mut rng);
        let game = match G::from_options(&given) {
            Ok(game) => game,
            Err(CoreError::InvalidConfig {
                option: Some(_),
                message,
            }) if !message.contains("engine bug") => continue,
            Err(e) => panic!("{}: {given:?}: {e}", G::NAME),
        };
        accepted += 1;
        let again = G::from_options(&game.to_options())
            .unwrap_or_else(|e| panic!("{}: {given:?}: {e}", G::NAME));
        assert!(again == game, "{}: {given:?} does not reload", G::NAME);
        let again = G::from_options(&game.given_options()).unwrap();
        assert!(again == game, "{}: {given:?}: its given options", G::NAME);
        if G::REAL_TIME {
            // Its records replay whole sessions (engine_sim, realtime_replay).
            continue;
        }
        let mut st = game.deal(i, None).unwrap();
        let mut legal = Vec::new();
        for _ in 0..20 {
            let Decision::Seat(seat) = st.decision() else {
                break;
            };
            st.legal_actions(seat, &mut legal);
            let a = legal[rng.below(legal.len() as u32) as usize];
            st.apply(seat, a, 0).unwrap();
        }
        let names = vec!["random".to_string(); game.players()];
        let record = record_of_state(&game, &st, names).unwrap();
        let back = Record::from_json(&record.to_json()).unwrap();
        let (_, replayed) = replay::<G>(&back).unwrap();
        assert!(
            replayed == st,
            "{}: {given:?}: the record replays elsewhere",
            G::NAME
        );
    }
    accepted
}

macro_rules! random_rule_sets_of_every_game {
    ($($variant:ident => $game:ty,)*) => {
        $(
            let accepted = random_rule_sets::<$game>(1000);
            assert!(accepted > 100, "{}: only {accepted} rule sets accepted", stringify!($variant));
        )*
    };
}

#[test]
fn every_random_rule_set_of_every_game_is_refused_by_name_or_reloads_and_replays() {
    for_each_game!(random_rule_sets_of_every_game);
}

/// RuleOptions keeps what was given: one option, reported as given (its
/// canonical spelling), and nothing else.
#[test]
fn every_meld_rule_option_value_reaches_the_rule_options() {
    for spec in MELD_SCHEMA.options {
        for (given, canonical) in values(spec) {
            let options = RuleOptions::from_values(&[(spec.name.to_string(), given.clone())])
                .unwrap_or_else(|e| panic!("{}={given}: {e}", spec.name));
            let back = options.to_options();
            // TT-2.2: a wild rank given as its letter comes back as its number.
            let letter = spec.name == "wild" && matches!(given, OptionValue::Str(_));
            if !letter {
                assert_eq!(
                    back,
                    vec![(spec.name.to_string(), canonical)],
                    "{}={given}",
                    spec.name
                );
            }
            assert_eq!(
                RuleOptions::from_values(&back).unwrap(),
                options,
                "{}={given} does not reload",
                spec.name
            );
        }
    }
    assert!(RuleOptions::default().to_options().is_empty());
}

/// TT-2.2: each rank letter of `wild` names its rank.
#[test]
fn tt_2_2_a_wild_rank_letter_names_its_rank() {
    for (letter, rank) in [("a", 1), ("t", 10), ("j", 11), ("Q", 12), ("k", 13)] {
        let options =
            RuleOptions::from_values(&[("wild".into(), OptionValue::Str(letter.into()))]).unwrap();
        assert_eq!(options.wild, Some(rank), "{letter}");
    }
}

/// RT-12: the session's options not given keep the game's own defaults
/// (Spit ends after 1000 deals, Speed after 100), whichever options are.
#[test]
fn rt_12_a_game_keeps_its_own_session_defaults_beside_the_options_given() {
    let int = OptionValue::Int;
    let named = |given: Vec<(&str, OptionValue)>| -> Vec<(String, OptionValue)> {
        given.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
    };
    for given in [
        vec![],
        vec![("stock_piles", int(4))],
        vec![("hands", int(2))],
    ] {
        let given = named(given);
        let session = spit::SpitConfig::from_options(&given).unwrap().session;
        assert_eq!(session.max_deals, 1000, "{given:?}");
        let default = spit::SpitConfig::default().session;
        assert_eq!(session.max_virtual_ms, default.max_virtual_ms, "{given:?}");
    }
    for given in [
        vec![],
        vec![("jokers", OptionValue::Bool(true))],
        vec![
            ("hands", int(2)),
            ("tie_break", OptionValue::Str("alternate".into())),
        ],
    ] {
        let given: Vec<(String, OptionValue)> =
            given.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        let config = speed::SpeedConfig::from_options(&given).unwrap();
        assert_eq!(config.session.max_deals, 100, "{given:?}");
        let back = speed::SpeedConfig::from_options(&config.to_options()).unwrap();
        assert_eq!(back, config, "{given:?}");
    }
    let session = speed::SpeedConfig::from_options(&[("hands".into(), int(2))])
        .unwrap()
        .session;
    assert_eq!(
        (session.hands, session.queue_inputs),
        (2, speed::SpeedConfig::default().session.queue_inputs)
    );
}
