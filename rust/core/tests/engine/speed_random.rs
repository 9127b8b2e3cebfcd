//! Speed's bots bring games to an end: between reaction-time bots of every
//! kind (instant and timed presets), under random rule sets and the
//! defaults, nearly every game ends before the time limit (RT-12), and the
//! games reach several endings. Every state of such games is checked by
//! the generic test (`engine_sim`, which plays every example bot of every
//! game); this is what only Speed's bots promise.

#![allow(clippy::unwrap_used)]

use cardtable_core::engine::options::{OptionKind, OptionValue};
use cardtable_core::engine::realtime::Session;
use cardtable_core::engine::{Controller, Game, State};
use cardtable_core::games::speed::{SpeedGame, SpeedState, SCHEMA};
use cardtable_core::{derive_seed, GameRng};

/// A rule set drawn from the schema: every option given with a random
/// value (times and guards within ranges that keep games short).
fn random_options(rng: &mut GameRng) -> Vec<(String, OptionValue)> {
    let mut o = Vec::new();
    for spec in SCHEMA.options {
        if rng.below(3) == 0 {
            continue; // left at its default
        }
        let v = match (spec.name, spec.kind) {
            ("start_countdown_ms", _) => OptionValue::Int(i64::from(rng.below(3000))),
            ("flip_delay_ms", _) => OptionValue::Int(i64::from(rng.below(1500))),
            ("target_score", _) => OptionValue::Int(1 + i64::from(rng.below(40))),
            ("max_deals", _) => OptionValue::Int(1 + i64::from(rng.below(6))),
            ("max_virtual_ms", _) => {
                if rng.below(4) == 0 {
                    OptionValue::Int(3001 + i64::from(rng.below(40_000)))
                } else {
                    continue;
                }
            }
            (_, OptionKind::Bool) => OptionValue::Bool(rng.below(2) == 1),
            (_, OptionKind::Int { min, max }) => {
                OptionValue::Int(min + i64::from(rng.below((max - min + 1) as u32)))
            }
            (_, OptionKind::Choice { choices, .. }) => {
                OptionValue::Str(choices[rng.below(choices.len() as u32) as usize].to_string())
            }
            (_, OptionKind::IntOrWord { min, .. }) => OptionValue::Int(min),
        };
        o.push((spec.name.to_string(), v));
    }
    o
}

const SPECS: [&str; 7] = [
    "plain:instant",
    "smart:instant",
    "plain:normal",
    "smart:normal",
    "smart:hard",
    "plain:easy",
    "smart,reaction_median_ms=200,miss_rate=0.3",
];

/// A finished session of `game` between `specs`.
fn session(game: &SpeedGame, specs: [&str; 2], deal_seed: u64) -> Session<SpeedState> {
    let bots: Vec<Box<dyn Controller<SpeedState>>> = (0..2u64)
        .map(|i| {
            game.bot(specs[i as usize], derive_seed(deal_seed, 300 + i))
                .unwrap()
        })
        .collect();
    let mut sess = Session::new(
        game.deal(deal_seed, None).unwrap(),
        bots,
        game.session_rules(deal_seed),
    );
    assert!(sess.run().unwrap(), "{specs:?} did not end");
    sess
}

#[test]
fn random_rule_sets_and_bots_end_games_before_the_time_limit() {
    let seed = 0x5eed;
    let mut rng = GameRng::new(seed);
    let mut endings = std::collections::BTreeMap::new();
    let mut timed_out_default = 0;
    let mut default_limit_games = 0;
    for g in 0..600 {
        let opts = random_options(&mut rng);
        let game = SpeedGame::from_options(&opts).unwrap_or_else(|e| panic!("{opts:?}: {e}"));
        let specs = [
            SPECS[rng.below(SPECS.len() as u32) as usize],
            SPECS[rng.below(SPECS.len() as u32) as usize],
        ];
        let sess = session(&game, specs, derive_seed(seed, g));
        let ending = sess.state.ending().unwrap();
        *endings.entry(ending).or_insert(0u32) += 1;
        if game.config.session.max_virtual_ms == 3_600_000 {
            default_limit_games += 1;
            if ending == "time_limit" {
                timed_out_default += 1;
            }
        }
    }
    assert!(
        timed_out_default * 100 <= default_limit_games,
        "{timed_out_default} of {default_limit_games} games hit the default time limit"
    );
    eprintln!("endings {endings:?} default-limit games {default_limit_games}");
    assert!(endings.len() >= 3, "endings seen: {endings:?}");
}

#[test]
fn instant_bots_end_every_default_game_before_the_time_limit() {
    let game = SpeedGame::from_options(&[]).unwrap();
    for g in 0..1000u64 {
        let specs = if g % 2 == 0 {
            ["smart:instant", "plain:instant"]
        } else {
            ["plain:instant", "smart:instant"]
        };
        let sess = session(&game, specs, g);
        assert!(sess.now() < 3_600_000, "game {g}");
    }
}
