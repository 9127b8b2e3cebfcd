//! How long an `expert` decision takes (issue 36's playing speed: at most
//! 50 ms median and 250 ms at worst on the project's 2-core machine).
//! Each bench asks a fresh, equally seeded bot for one decision in each of
//! a set of positions from real games (greedy play from fixed seeds, every
//! decision of the bot's seat along the way), so the time per iteration is
//! the mean over those positions; the slowest position is timed alone.
//! Before criterion's runs, each position is timed once and the median and
//! the worst decision are printed (the figures are a median and a
//! worst case over positions, which a mean does not show).

#![allow(clippy::unwrap_used)]

use cardtable_core::engine::{Decision, Game, State};
use cardtable_core::games::gin_rummy::GinRummyGame;
use cardtable_core::games::three_thirteen::ThreeThirteenGame;
use cardtable_core::games::tonk::TonkGame;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// Every decision of seat 0 in `games` greedy games of `game`.
fn positions<G: Game>(game: &G, games: u64) -> Vec<G::State> {
    let mut out = Vec::new();
    for seed in 0..games {
        let mut state = game.deal(seed, None).unwrap();
        let mut bots: Vec<_> = (0..game.players())
            .map(|s| game.bot("greedy", s as u64).unwrap())
            .collect();
        while let Decision::Seat(seat) = state.decision() {
            if seat == 0 {
                out.push(state.clone());
            }
            let a = bots[usize::from(seat)]
                .act(state.seat_view(seat), 0)
                .unwrap()
                .action;
            state.apply(seat, a, 0).unwrap();
        }
    }
    out
}

fn decide<G: Game>(game: &G, spec: &str, state: &G::State) -> u16 {
    let mut bot = game.bot(spec, 7).unwrap();
    bot.act(state.seat_view(0), 0).unwrap().action
}

fn bench_game<G: Game>(c: &mut Criterion, name: &str, game: &G, spec: &str, games: u64) {
    let states = positions(game, games);
    let mut g = c.benchmark_group(format!("expert_{name}"));
    g.sample_size(10);
    g.throughput(Throughput::Elements(states.len() as u64));
    g.bench_function(format!("{spec}_every_decision_of_{games}_games"), |b| {
        b.iter(|| states.iter().map(|s| decide(game, spec, s)).sum::<u16>())
    });
    // Each position once: the median and the slowest (the worst case).
    let mut timed: Vec<(std::time::Duration, &G::State)> = states
        .iter()
        .map(|s| {
            let t = std::time::Instant::now();
            decide(game, spec, s);
            (t.elapsed(), s)
        })
        .collect();
    timed.sort_by_key(|(elapsed, _)| *elapsed);
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    eprintln!(
        "expert_{name}/{spec}: {} decisions, median {:.1} ms, worst {:.1} ms",
        timed.len(),
        ms(timed[timed.len() / 2].0),
        ms(timed[timed.len() - 1].0)
    );
    let slowest = timed[timed.len() - 1].1;
    g.throughput(Throughput::Elements(1));
    g.bench_function(format!("{spec}_slowest_decision"), |b| {
        b.iter(|| decide(game, spec, slowest))
    });
    g.finish();
}

fn experts(c: &mut Criterion) {
    let gin = GinRummyGame::from_options(&[]).unwrap();
    bench_game(c, "gin_rummy", &gin, "expert", 4);
    bench_game(
        c,
        "tonk",
        &TonkGame::from_options(&[]).unwrap(),
        "expert",
        4,
    );
    // Eleven rounds a game: one game holds about as many decisions.
    let three_thirteen = ThreeThirteenGame::from_options(&[]).unwrap();
    bench_game(c, "three_thirteen", &three_thirteen, "expert", 1);
}

criterion_group!(benches, experts);
criterion_main!(benches);
