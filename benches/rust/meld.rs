//! Minimum deadwood: per hand, per configuration (release builds only).

#![allow(clippy::unwrap_used)]

use cardtable_benches::{dense_hands, random_hands, three_thirteen_jokers, wild_hands};
use cardtable_core::{MeldRules, Solver};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};

fn bench_hands(
    c: &mut Criterion,
    name: &str,
    hands: &[Vec<cardtable_core::Card>],
    rules: &MeldRules,
) {
    let mut g = c.benchmark_group("min_deadwood");
    g.throughput(Throughput::Elements(hands.len() as u64));
    let mut solver = Solver::new();
    g.bench_function(format!("{name}/arrangement"), |b| {
        b.iter(|| {
            for h in hands {
                std::hint::black_box(solver.solve(h, rules).unwrap());
            }
        });
    });
    g.bench_function(format!("{name}/deadwood_only"), |b| {
        b.iter(|| {
            for h in hands {
                std::hint::black_box(solver.deadwood(h, rules).unwrap());
            }
        });
    });
    g.finish();
}

fn gin(c: &mut Criterion) {
    let rules = MeldRules::gin();
    bench_hands(c, "gin_5_random", &random_hands(5, 1000, 1), &rules);
    bench_hands(c, "gin_10_random", &random_hands(10, 1000, 2), &rules);
    bench_hands(c, "gin_13_dense", &dense_hands(13, 1000, 3), &rules);
}

fn three_thirteen(c: &mut Criterion) {
    let rules = three_thirteen_jokers();
    let hands = wild_hands(10_000, 4);
    bench_hands(c, "tt13_kings_and_jokers", &hands, &rules);
    // The slowest of those 10,000 hands (best of nine timings each, so a
    // timer interrupt cannot pick the wrong hand): the worst case.
    let mut solver = Solver::new();
    let mut slowest = (0usize, std::time::Duration::ZERO);
    for (i, h) in hands.iter().enumerate() {
        let t = (0..9)
            .map(|_| {
                let start = std::time::Instant::now();
                std::hint::black_box(solver.solve(h, &rules).unwrap());
                start.elapsed()
            })
            .min()
            .unwrap();
        if t > slowest.1 {
            slowest = (i, t);
        }
    }
    let worst = hands[slowest.0].clone();
    let mut g = c.benchmark_group("min_deadwood");
    g.bench_function("tt13_kings_and_jokers/worst_hand", |b| {
        b.iter_batched(
            || worst.clone(),
            |h| solver.solve(&h, &rules).unwrap(),
            BatchSize::SmallInput,
        );
    });
    g.finish();
}

fn discard(c: &mut Criterion) {
    let rules = MeldRules::gin();
    let hands = random_hands(11, 1000, 5);
    let mut solver = Solver::new();
    let mut g = c.benchmark_group("best_discard");
    g.throughput(Throughput::Elements(hands.len() as u64));
    g.bench_function("gin_11_random", |b| {
        b.iter(|| {
            for h in &hands {
                std::hint::black_box(solver.best_discard(h, &rules).unwrap());
            }
        });
    });
    g.finish();
}

criterion_group!(benches, gin, three_thirteen, discard);
criterion_main!(benches);
