//! Speed: whole real-time games per second through `Session::run`, instant
//! plain bots on both seats (the batch run mode, RT-9 (a)), games in
//! parallel with rayon (seeds derived from the game index, so the result
//! does not depend on scheduling), and one game on one thread.

#![allow(clippy::unwrap_used)]

use cardtable_core::derive_seed;
use cardtable_core::engine::realtime::Session;
use cardtable_core::engine::{Controller, Game, State as _};
use cardtable_core::games::speed::{SpeedGame, SpeedState};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rayon::prelude::*;

/// One whole game from `seed`; returns seat 0's result.
fn one_game(game: &SpeedGame, spec: &<SpeedGame as Game>::BotSpec, seed: u64) -> i64 {
    let bots: Vec<Box<dyn Controller<SpeedState>>> = (0..2)
        .map(|i| game.new_bot(spec, derive_seed(seed, 300 + i)))
        .collect();
    let mut sess = Session::new(game.new_game(seed), bots, game.session_rules(seed));
    sess.run().unwrap();
    sess.state.returns()[0]
}

fn speed(c: &mut Criterion) {
    let game = SpeedGame::from_options(&[]).unwrap();
    let plain = SpeedGame::parse_bot("plain:instant").unwrap();
    let mut g = c.benchmark_group("speed");
    g.sample_size(10);
    let games = 20_000u64;
    g.throughput(Throughput::Elements(games));
    g.bench_function("session_plain_instant_parallel", |b| {
        let mut batch = 0u64;
        b.iter(|| {
            batch += 1;
            (0..games)
                .into_par_iter()
                .map(|i| one_game(&game, &plain, derive_seed(batch, i)))
                .sum::<i64>()
        });
    });
    g.throughput(Throughput::Elements(1));
    g.bench_function("one_game_plain_instant", |b| {
        let mut i = 0;
        b.iter(|| {
            i += 1;
            one_game(&game, &plain, i)
        });
    });
    let normal = SpeedGame::parse_bot("smart:normal").unwrap();
    g.bench_function("one_game_smart_normal", |b| {
        let mut i = 0;
        b.iter(|| {
            i += 1;
            one_game(&game, &normal, i)
        });
    });
    g.finish();
}

criterion_group!(benches, speed);
criterion_main!(benches);
