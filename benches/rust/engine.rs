//! Tonk: games per second with bots, and the cost of one engine step.

#![allow(clippy::unwrap_used)]

use cardtable_core::engine::arena::{play_game, simulate};
use cardtable_core::engine::Game as _;
use cardtable_core::games::tonk::{TonkBotSpec, TonkGame};
use cardtable_core::GameRng;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn tonk(c: &mut Criterion) {
    let game = TonkGame::from_options(&[]).unwrap();
    let greedy = [
        TonkBotSpec::Greedy { drop_at: None },
        TonkBotSpec::Greedy { drop_at: None },
    ];
    let mut g = c.benchmark_group("tonk");
    g.sample_size(20);
    // The `cardtable simulate tonk` workload: all cores, games in parallel.
    let games = 20_000u64;
    g.throughput(Throughput::Elements(games));
    g.bench_function("simulate_greedy_vs_greedy_parallel", |b| {
        let mut seed = 0;
        b.iter(|| {
            seed += 1;
            simulate(&game, &greedy, games, seed).unwrap()
        });
    });
    g.throughput(Throughput::Elements(1));
    g.bench_function("one_game_greedy_vs_greedy", |b| {
        let mut i = 0;
        b.iter(|| {
            i += 1;
            play_game(&game, &greedy, 7, i).unwrap()
        });
    });
    let random = [TonkBotSpec::Random, TonkBotSpec::Random];
    g.bench_function("one_game_random_vs_random", |b| {
        let mut i = 0;
        b.iter(|| {
            i += 1;
            play_game(&game, &random, 7, i).unwrap()
        });
    });
    // One engine step as the Python API drives it: list legal actions, apply one.
    g.bench_function("step_legal_actions_and_apply", |b| {
        let mut rng = GameRng::new(3);
        let mut state = game.deal(1, None).unwrap();
        let mut seed = 1;
        b.iter(|| {
            // A fresh deal can already be over (a deal-time win or a void).
            while state.is_terminal() {
                seed += 1;
                state = game.deal(seed, None).unwrap();
            }
            let legal = state.legal_actions();
            let a = legal[rng.below(legal.len() as u32) as usize];
            state.apply_action(a).unwrap();
        });
    });
    g.finish();
}

criterion_group!(benches, tonk);
criterion_main!(benches);
