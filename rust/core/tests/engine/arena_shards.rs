//! A run cut into shards (whole deals) played apart and absorbed in order
//! gives exactly the summary of the run played in one place, for any cut;
//! tallies of another run, out of order or twice are refused.

#![allow(clippy::unwrap_used)]

use cardtable_core::engine::arena::{Arena, Summary, Tally};
use cardtable_core::engine::Game;
use cardtable_core::games::spit::SpitGame;
use cardtable_core::games::tonk::TonkGame;

fn arena<G: Game>(game: G, bots: &[&str], games: u64, seed: u64) -> Arena<G> {
    let specs = bots.iter().map(|b| G::parse_bot(b).unwrap()).collect();
    Arena::new(game, specs, games, seed).unwrap()
}

fn local<G: Game>(mut a: Arena<G>, chunk: u64) -> (Summary, f64) {
    while !a.is_done() {
        a.step(chunk).unwrap();
    }
    (a.summary(), a.stake_difference(0, 1).mean)
}

/// Plays `a`'s run in shards of `per` deals through bytes, absorbing in order.
fn sharded<G: Game>(mut a: Arena<G>, per: u64) -> (Summary, f64) {
    let n = a.specs.len() as u64;
    let worker = Arena::new(a.game.clone(), a.specs.clone(), a.total, a.seed).unwrap();
    let mut start = 0;
    while start < a.total {
        let stop = (start + per * n).min(a.total);
        let (tally, results) = worker.play_shard(start, stop).unwrap();
        assert_eq!(results.len() as u64, stop - start);
        assert_eq!(results[0].index, start);
        a.absorb(&Tally::from_bytes(&tally.to_bytes()).unwrap())
            .unwrap();
        start = stop;
    }
    assert_eq!(worker.done, 0, "playing a shard leaves the run as it was");
    (a.summary(), a.stake_difference(0, 1).mean)
}

#[test]
fn tonk_shards_give_the_local_summary_bit_for_bit() {
    let game = || TonkGame::from_options(&[]).unwrap();
    let bots = ["greedy", "random"];
    let want = local(arena(game(), &bots, 601, 5), 37);
    assert_eq!(want.0.bots[0].returns.games(), 602);
    assert_eq!(want.0.lengths.actions.games(), 602);
    for per in [1, 7, 100, 1000] {
        assert_eq!(
            sharded(arena(game(), &bots, 601, 5), per),
            want,
            "{per} deals a shard"
        );
    }
}

#[test]
fn spit_shards_give_the_local_summary_bit_for_bit() {
    let game = || SpitGame::from_options(&[]).unwrap();
    let bots = ["plain:normal", "smart:hard"];
    let want = local(arena(game(), &bots, 60, 11), 7);
    assert!(want.0.virtual_seconds > 0.0);
    assert_eq!(want.0.lengths.virtual_seconds.games(), 60);
    for per in [1, 4, 30] {
        assert_eq!(
            sharded(arena(game(), &bots, 60, 11), per),
            want,
            "{per} deals a shard"
        );
    }
}

#[test]
fn bad_shards_and_tallies_are_refused() {
    let game = || TonkGame::from_options(&[]).unwrap();
    let bots = ["greedy", "random"];
    let a = arena(game(), &bots, 40, 1);
    // Bounds that split a deal or leave the run.
    assert!(a.play_shard(1, 4).is_err());
    assert!(a.play_shard(0, 3).is_err());
    assert!(a.play_shard(4, 2).is_err());
    assert!(a.play_shard(0, 42).is_err());
    let (first, _) = a.play_shard(0, 10).unwrap();
    let (second, _) = a.play_shard(10, 20).unwrap();
    let mut b = arena(game(), &bots, 40, 1);
    // Out of order, then twice.
    assert!(b.absorb(&second).is_err());
    b.absorb(&first).unwrap();
    assert!(b.absorb(&first).is_err());
    assert_eq!(b.done, 10);
    b.absorb(&second).unwrap();
    // Another seed, other bots, another number of games: another run.
    let other = arena(game(), &bots, 40, 2).play_shard(20, 30).unwrap().0;
    assert!(b.absorb(&other).is_err());
    let other = arena(game(), &["random", "greedy"], 40, 1)
        .play_shard(20, 30)
        .unwrap()
        .0;
    assert!(b.absorb(&other).is_err());
    let other = arena(game(), &bots, 60, 1).play_shard(20, 30).unwrap().0;
    assert!(b.absorb(&other).is_err());
    assert_eq!(b.done, 20);
    // Bytes that are not a tally, or a tally tampered with.
    assert!(Tally::from_bytes(b"not json").is_err());
    let (third, _) = a.play_shard(20, 30).unwrap();
    let text = String::from_utf8(third.to_bytes()).unwrap();
    // Per-deal sums of another shape, or of another number of deals.
    for (key, changed) in [
        ("\"wins\":[", "\"wins\":[1,"),
        ("\"return_products\":[", "\"return_products\":[1,"),
        ("\"sums\":{\"deals\":", "\"sums\":{\"deals\":1"),
    ] {
        let cut = text.replacen(key, changed, 1);
        assert_ne!(cut, text);
        assert!(b
            .absorb(&Tally::from_bytes(cut.as_bytes()).unwrap())
            .is_err());
    }
    // Distributions that do not count the shard's games.
    for (key, extra) in [
        ("returns\":[{", "\"123456789\":1,"),
        ("actions\":{", "\"123456789\":1,"),
        // Counts that would overflow a sum.
        ("returns\":[{", "\"123456789\":18446744073709551615,"),
    ] {
        let cut = text.replacen(key, &format!("{key}{extra}"), 1);
        assert_ne!(cut, text);
        assert!(b
            .absorb(&Tally::from_bytes(cut.as_bytes()).unwrap())
            .is_err());
    }
    b.absorb(&third).unwrap();
    // A partly stepped run (mid-deal) takes no tally.
    let mut c = arena(game(), &bots, 40, 1);
    c.step(1).unwrap();
    assert!(c.absorb(&first).is_err());
}

/// Issue 38 item 4: a count of games rounds up to whole rotations within
/// what a run counts (u64), else the run is refused naming `games`; it never
/// wraps round to an empty run.
#[test]
fn a_count_of_games_too_long_to_round_up_is_refused_naming_games() {
    use cardtable_core::engine::arena::whole_rotations;
    use cardtable_core::error::CoreError;
    assert_eq!(whole_rotations(u64::MAX, 3).unwrap(), u64::MAX);
    assert_eq!(whole_rotations(u64::MAX - 1, 2).unwrap(), u64::MAX - 1);
    assert_eq!(whole_rotations(7, 2).unwrap(), 8);
    let game = TonkGame::from_options(&[]).unwrap();
    let specs: Vec<_> = ["greedy", "random"]
        .iter()
        .map(|b| TonkGame::parse_bot(b).unwrap())
        .collect();
    match Arena::new(game, specs, u64::MAX, 1) {
        Err(CoreError::InvalidConfig { option, message }) => {
            assert_eq!(option.as_deref(), Some("games"));
            assert!(message.contains("whole rotations of 2 seats"), "{message}");
        }
        Err(e) => panic!("{e}"),
        Ok(a) => panic!("a run of {} games", a.total),
    }
}
