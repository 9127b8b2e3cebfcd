//! Bot strength through the arena (mirrored seats over common deals): the
//! greedy bot beats the random one and the strong bot beats greedy, in mean
//! score margin per game with 95% confidence.

#![allow(clippy::unwrap_used)]

use cardtable_core::engine::arena::Arena;
use cardtable_core::engine::{Bots as _, Game};
use cardtable_core::games::three_thirteen::{ThreeThirteenBotSpec, ThreeThirteenGame};

/// The paired margin of bot 0 over bot 1 per game, after `games` games.
fn margin(a: &str, b: &str, games: u64, seed: u64) -> (f64, f64) {
    let g = ThreeThirteenGame::from_options(&[]).unwrap();
    let specs = vec![
        ThreeThirteenGame::parse_bot(a).unwrap(),
        ThreeThirteenGame::parse_bot(b).unwrap(),
    ];
    let mut arena = Arena::new(g, specs, games, seed).unwrap();
    while !arena.is_done() {
        arena.step(games).unwrap();
    }
    let s = arena.summary();
    assert_eq!(s.games, games);
    let d = arena.stake_difference(0, 1);
    eprintln!(
        "{a} vs {b}: {} games, margin {:.1} ± {:.1}, {a} wins {:.3} ± {:.3}",
        s.games,
        s.bots[0].stakes.mean,
        s.bots[0].stakes.half_width,
        s.bots[0].win_rate.mean,
        s.bots[0].win_rate.half_width
    );
    (d.low(), s.bots[0].win_rate.low())
}

#[test]
fn greedy_beats_random() {
    let (low, wins) = margin("greedy", "random", 200, 7);
    assert!(low > 0.0 && wins > 0.5);
}

#[test]
fn strong_beats_greedy() {
    assert_eq!(
        ThreeThirteenBotSpec::parse("strong").unwrap().name(),
        "strong"
    );
    let (low, wins) = margin("strong", "greedy", 300, 11);
    assert!(low > 0.0 && wins > 0.5);
}
