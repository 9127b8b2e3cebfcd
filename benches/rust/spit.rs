//! Spit: whole games per second, instant plain bots against each other
//! through `engine::realtime::Session::run`, in parallel with rayon (seeds
//! derived from the game index), and one game on one thread.

#![allow(clippy::unwrap_used)]

use cardtable_core::derive_seed;
use cardtable_core::engine::realtime::Session;
use cardtable_core::engine::{Controller, Game};
use cardtable_core::games::spit::{SpitGame, SpitState};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rayon::prelude::*;

/// One whole game; returns seat 0's return.
fn one_game(game: &SpitGame, spec: &str, seed: u64) -> i64 {
    let state = game.deal(seed, None).unwrap();
    let bots: Vec<Box<dyn Controller<SpitState>>> = (0..2)
        .map(|i| game.bot(spec, derive_seed(seed, 100 + i)).unwrap())
        .collect();
    let mut session = Session::new(state, bots, game.session_rules(seed)).without_private_notes();
    session.run().unwrap();
    session.state.returns()[0]
}

fn spit(c: &mut Criterion) {
    let game = SpitGame::default();
    let mut g = c.benchmark_group("spit");
    g.sample_size(10);
    let games = 20_000u64;
    g.throughput(Throughput::Elements(games));
    g.bench_function("instant_plain_vs_plain_parallel", |b| {
        let mut round = 0u64;
        b.iter(|| {
            round += 1;
            (0..games)
                .into_par_iter()
                .map(|i| one_game(&game, "plain:instant", derive_seed(round, i)))
                .sum::<i64>()
        });
    });
    g.throughput(Throughput::Elements(1));
    g.bench_function("one_game_instant_plain_vs_plain", |b| {
        let mut i = 0;
        b.iter(|| {
            i += 1;
            one_game(&game, "plain:instant", i)
        });
    });
    g.bench_function("one_game_normal_smart_vs_smart", |b| {
        let mut i = 0;
        b.iter(|| {
            i += 1;
            one_game(&game, "smart:normal", i)
        });
    });
    g.finish();
}

criterion_group!(benches, spit);
criterion_main!(benches);
