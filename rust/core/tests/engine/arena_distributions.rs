//! The distributions of a run's summary (each bot's return per game, game
//! length in actions, virtual seconds and deals) are exactly the counts of
//! the games played, agree with the summary's means, and are the same for
//! any thread count and any way of stepping the run.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use cardtable_core::engine::arena::{Arena, Distribution, GameResult, Summary};
use cardtable_core::engine::options::OptionValue;
use cardtable_core::engine::Game;
use cardtable_core::games::speed::SpeedGame;
use cardtable_core::games::spit::SpitGame;
use cardtable_core::games::three_thirteen::ThreeThirteenGame;
use cardtable_core::games::tonk::TonkGame;

fn arena<G: Game>(game: G, bots: &[&str], games: u64, seed: u64) -> Arena<G> {
    let specs = bots.iter().map(|b| G::parse_bot(b).unwrap()).collect();
    Arena::new(game, specs, games, seed).unwrap()
}

/// The whole run stepped `chunk` games at a time on `threads` threads.
fn run<G: Game>(a: &mut Arena<G>, chunk: u64, threads: usize) -> Vec<GameResult> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let mut results = Vec::new();
        while !a.is_done() {
            results.extend(a.step(chunk).unwrap());
        }
        results
    })
}

fn pairs(d: &Distribution) -> Vec<(i64, u64)> {
    d.counts().collect()
}

fn counted(values: impl Iterator<Item = i64>) -> Vec<(i64, u64)> {
    let mut m = BTreeMap::new();
    for v in values {
        *m.entry(v).or_insert(0u64) += 1;
    }
    m.into_iter().collect()
}

/// Checks `s` against the games themselves.
fn check(s: &Summary, results: &[GameResult], real_time: bool) {
    let games = results.len() as u64;
    assert_eq!(s.games, games);
    for (b, bot) in s.bots.iter().enumerate() {
        // The return of bot `b` in each game, wherever it sat.
        let returns = results.iter().map(|r| {
            let seat = r.seating.iter().position(|&x| usize::from(x) == b).unwrap();
            r.returns[seat]
        });
        assert_eq!(pairs(&bot.returns), counted(returns), "bot {b}");
        assert_eq!(bot.returns.games(), games);
        assert!(
            (bot.returns.mean() - bot.stakes.mean).abs() < 1e-9,
            "bot {b}: distribution mean {} vs stakes {}",
            bot.returns.mean(),
            bot.stakes.mean
        );
    }
    let l = &s.lengths;
    assert_eq!(
        pairs(&l.actions),
        counted(results.iter().map(|r| r.actions.len() as i64))
    );
    assert_eq!(
        pairs(&l.deals),
        counted(results.iter().map(|r| i64::from(r.deals)))
    );
    assert!((l.deals.mean() - s.deals).abs() < 1e-9);
    if real_time {
        assert_eq!(
            pairs(&l.virtual_seconds),
            counted(results.iter().map(|r| (r.virtual_ms / 1000) as i64))
        );
        // Whole seconds, rounded down: the mean is within a second below.
        let mean = l.virtual_seconds.mean();
        assert!(mean <= s.virtual_seconds && s.virtual_seconds < mean + 1.0);
    } else {
        assert!(l.virtual_seconds.is_empty());
    }
}

/// One run three ways (one thread in big steps, two threads in steps that
/// split deals, one step): the same summary, and it matches the games.
fn same_for_any_threads<G: Game>(game: G, bots: &[&str], games: u64, real_time: bool) {
    let mut one = arena(game.clone(), bots, games, 21);
    let results = run(&mut one, 64, 1);
    let want = one.summary();
    check(&want, &results, real_time);
    let mut two = arena(game.clone(), bots, games, 21);
    run(&mut two, 5, 2);
    assert_eq!(two.summary(), want);
    let mut whole = arena(game, bots, games, 21);
    run(&mut whole, games, 2);
    assert_eq!(whole.summary(), want);
}

#[test]
fn tonk_distributions() {
    let three = [("players".to_string(), OptionValue::Int(3))];
    let game = TonkGame::from_options(&three).unwrap();
    same_for_any_threads(game, &["greedy", "random", "greedy:6"], 300, false);
}

#[test]
fn three_thirteen_distributions() {
    let game = ThreeThirteenGame::from_options(&[]).unwrap();
    same_for_any_threads(game, &["greedy", "random"], 40, false);
}

#[test]
fn spit_distributions() {
    let game = SpitGame::from_options(&[]).unwrap();
    same_for_any_threads(game, &["plain:normal", "smart:hard"], 30, true);
}

#[test]
fn speed_distributions() {
    let game = SpeedGame::from_options(&[]).unwrap();
    same_for_any_threads(game, &["plain:normal", "smart:normal"], 30, true);
}

#[test]
fn a_deal_half_played_counts_in_the_lengths_not_yet_in_the_returns() {
    // Returns, like the stakes, count whole deals; lengths, like endings,
    // every game played.
    let game = TonkGame::from_options(&[]).unwrap();
    let mut a = arena(game, &["greedy", "random"], 10, 3);
    a.step(3).unwrap();
    let s = a.summary();
    assert_eq!(s.games, 2);
    assert!(s.bots.iter().all(|b| b.returns.games() == 2));
    assert_eq!(s.lengths.actions.games(), 3);
    assert_eq!(s.endings.iter().map(|e| e.1).sum::<u64>(), 3);
}
