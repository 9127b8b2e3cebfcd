//! Rule options: loading a game from its options (every game load and
//! record replay) and writing them back (every record written), for every
//! registered game; and one Tonk game with its record, for scale.

#![allow(clippy::unwrap_used)]

use cardtable_core::engine::arena::play_game;
use cardtable_core::engine::record::record_of_result;
use cardtable_core::engine::Game as _;
use cardtable_core::games::registry::{AnyGame, GAMES};
use cardtable_core::games::tonk::TonkBotSpec;
use cardtable_core::games::tonk::TonkGame;
use criterion::{criterion_group, criterion_main, Criterion};

fn options(c: &mut Criterion) {
    let mut g = c.benchmark_group("options");
    for name in GAMES {
        let game = AnyGame::load(name, &[]).unwrap();
        // A record's options: every option given, as replay reads them.
        let all = game.to_options();
        g.bench_function(format!("{name}_from_options"), |b| {
            b.iter(|| AnyGame::load(name, &all).unwrap());
        });
        g.bench_function(format!("{name}_to_options"), |b| {
            b.iter(|| game.to_options())
        });
    }
    let tonk = TonkGame::from_options(&[]).unwrap();
    let random = [TonkBotSpec::Random, TonkBotSpec::Random];
    let names = ["random".to_string(), "random".to_string()];
    g.bench_function("tonk_one_game_random_with_record", |b| {
        let mut i = 0;
        b.iter(|| {
            i += 1;
            let result = play_game(&tonk, &random, 7, i).unwrap();
            record_of_result(&tonk, &result, &names).to_json()
        });
    });
    g.finish();
}

criterion_group!(benches, options);
criterion_main!(benches);
