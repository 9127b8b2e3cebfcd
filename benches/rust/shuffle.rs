//! Seeded shuffles and deals.

#![allow(clippy::unwrap_used)]

use cardtable_core::deck::shuffle_many_into;
use cardtable_core::{deal, DeckSpec};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn shuffle(c: &mut Criterion) {
    let spec = DeckSpec::standard();
    let mut g = c.benchmark_group("shuffle");
    g.bench_function("one_deck", |b| {
        let mut seed = 0u64;
        b.iter(|| {
            seed += 1;
            std::hint::black_box(spec.shuffled(seed))
        });
    });
    let n = 100_000;
    let mut out = vec![0u8; 52 * n];
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function("many_100k_decks", |b| {
        b.iter(|| shuffle_many_into(spec, 42, &mut out).unwrap());
    });
    g.finish();
    c.bench_function("deal/tonk_3_players", |b| {
        let mut seed = 0u64;
        b.iter(|| {
            seed += 1;
            std::hint::black_box(deal(spec, seed, 3, 5, true).unwrap())
        });
    });
}

criterion_group!(benches, shuffle);
criterion_main!(benches);
