//! Speed bot strength (rules specification §4 and RT-3): at equal speed
//! `smart` beats `plain`, over mirrored deals (every deal played once with
//! each seating), with the lower bound of a 95% confidence interval of its
//! win rate (paired by deal) above one half.

#![allow(clippy::unwrap_used)]

use cardtable_core::derive_seed;
use cardtable_core::engine::realtime::Session;
use cardtable_core::engine::{Controller, Game, State};
use cardtable_core::games::registry::AnyGame;
use cardtable_core::games::speed::{SpeedGame, SpeedState};

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

/// Measures bot strength (run with `--ignored --nocapture`): smart against
/// plain at equal timing, and a faster bot against a slower one, seats
/// swapped every game.
#[test]
#[ignore = "a measurement for the report, not a check: run with --ignored --nocapture"]
fn measure_bot_strength() {
    let game = SpeedGame::from_options(&[]).unwrap();
    let games = 4000u64;
    for (a, b) in [
        ("smart:normal", "plain:normal"),
        ("smart:hard", "plain:hard"),
        ("smart:instant", "plain:instant"),
        ("plain:hard", "plain:normal"),
        ("plain:normal", "plain:easy"),
        ("plain:hard", "smart:normal"),
    ] {
        let (mut wins, mut draws) = (0u64, 0u64);
        for g in 0..games {
            let swap = g % 2 == 1;
            let specs = if swap { [b, a] } else { [a, b] };
            let bots: Vec<Box<dyn Controller<SpeedState>>> = (0..2u64)
                .map(|i| {
                    game.bot(specs[i as usize], derive_seed(g, 500 + i))
                        .unwrap()
                })
                .collect();
            let mut sess = Session::new(game.deal(g, None).unwrap(), bots, game.session_rules(g));
            sess.run().unwrap();
            let r = sess.state.returns();
            let mine = if swap { r[1] } else { r[0] };
            match mine.signum() {
                1 => wins += 1,
                0 => draws += 1,
                _ => {}
            }
        }
        eprintln!(
            "{a} vs {b}: {:.1}% wins, {:.1}% draws over {games} games",
            100.0 * wins as f64 / games as f64,
            100.0 * draws as f64 / games as f64
        );
    }
}
