//! The hand-file scorer: parse, solve and format a chunk of lines.

#![allow(clippy::unwrap_used)]

use cardtable_benches::hand_file;
use cardtable_core::batch::{score_chunk, ScoreFormat};
use cardtable_core::MeldRules;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn score(c: &mut Criterion) {
    let lines = 100_000;
    let data = hand_file(10, lines, 6);
    let rules = MeldRules::gin();
    let mut g = c.benchmark_group("score_chunk");
    g.throughput(Throughput::Elements(lines as u64));
    g.sample_size(20);
    for (name, fmt) in [
        ("jsonl", ScoreFormat::Jsonl),
        ("csv", ScoreFormat::Csv),
        ("text", ScoreFormat::Text),
    ] {
        g.bench_function(format!("gin_10/{name}"), |b| {
            b.iter(|| std::hint::black_box(score_chunk(&data, 1, &rules, fmt, None)));
        });
    }
    g.finish();
}

criterion_group!(benches, score);
criterion_main!(benches);
