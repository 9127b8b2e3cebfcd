//! Speed bot strength (rules specification §4 and RT-3): at equal speed
//! `smart` beats `plain`, over mirrored deals (every deal played once with
//! each seating), with the lower bound of a 95% confidence interval of its
//! win rate (paired by deal) above one half.

#![allow(clippy::unwrap_used)]

use cardtable_core::games::registry::AnyGame;

/// Win rate of the first bot and its 95% interval over `games` games.
fn win_rate(a: &str, b: &str, games: u64, seed: u64) -> (f64, f64, f64) {
    let game = AnyGame::load("speed", &[]).unwrap();
    let mut arena = game
        .arena(&[a.to_string(), b.to_string()], games, seed)
        .unwrap();
    while arena.done() < arena.total() {
        arena.step(1000).unwrap();
    }
    let s = arena.summary();
    assert_eq!(s.games, games);
    let w = s.bots[0].win_rate;
    (w.mean, w.low(), w.high())
}

#[test]
fn smart_beats_plain_at_equal_speed() {
    for (a, b) in [
        ("smart:normal", "plain:normal"),
        ("smart:hard", "plain:hard"),
        ("smart:instant", "plain:instant"),
    ] {
        let (mean, low, high) = win_rate(a, b, 10_000, 2024);
        assert!(
            low > 0.5,
            "{a} against {b}: {:.1}% [{:.1}, {:.1}]",
            100.0 * mean,
            100.0 * low,
            100.0 * high
        );
    }
}
