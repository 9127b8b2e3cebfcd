//! Three Thirteen: full games per second with bots through the arena, and
//! one game on one thread.

#![allow(clippy::unwrap_used)]

use cardtable_core::engine::arena::{play_game, Arena};
use cardtable_core::engine::Game as _;
use cardtable_core::games::three_thirteen::{ThreeThirteenBotSpec, ThreeThirteenGame};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn three_thirteen(c: &mut Criterion) {
    let game = ThreeThirteenGame::from_options(&[]).unwrap();
    let greedy = vec![ThreeThirteenBotSpec::Greedy, ThreeThirteenBotSpec::Greedy];
    let mut g = c.benchmark_group("three_thirteen");
    g.sample_size(10);
    // Full 11-round two-player games, all cores, through the arena.
    let games = 4_000u64;
    g.throughput(Throughput::Elements(games));
    g.bench_function("arena_greedy_vs_greedy_parallel", |b| {
        let mut seed = 0;
        b.iter(|| {
            seed += 1;
            let mut arena = Arena::new(game, greedy.clone(), games, seed).unwrap();
            while !arena.is_done() {
                arena.step(games).unwrap();
            }
            arena.summary()
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
    let random = [ThreeThirteenBotSpec::Random, ThreeThirteenBotSpec::Random];
    g.bench_function("one_game_random_vs_random", |b| {
        let mut i = 0;
        b.iter(|| {
            i += 1;
            play_game(&game, &random, 7, i).unwrap()
        });
    });
    let strong = [
        ThreeThirteenBotSpec::Strong {
            samples: ThreeThirteenBotSpec::DEFAULT_SAMPLES,
        },
        ThreeThirteenBotSpec::Greedy,
    ];
    g.bench_function("one_game_strong_vs_greedy", |b| {
        let mut i = 0;
        b.iter(|| {
            i += 1;
            play_game(&game, &strong, 7, i).unwrap()
        });
    });
    g.finish();
}

criterion_group!(benches, three_thirteen);
criterion_main!(benches);
