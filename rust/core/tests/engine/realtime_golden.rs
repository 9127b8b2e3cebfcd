//! Golden real-time games: Spit and Speed sessions between bots of every
//! policy and several speeds, under each tie-break rule and both hand
//! counts, pinned by a digest of their event hashes, lengths, clocks and
//! returns. Any change to the session's event order, the bots' draws or a
//! rule shows up here (RT-1, RT-3, RT-4, RT-6, RT-11).

#![allow(clippy::unwrap_used)]

use cardtable_core::engine::options::OptionValue;
use cardtable_core::games::registry::AnyGame;

/// One line per game: its event hash, commits, bounces, final clock, returns.
fn games(name: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let specs = [
        "plain:instant",
        "smart:instant",
        "random:hard",
        "smart:normal",
        "plain:hard",
    ];
    for tie in ["seeded_coin", "alternate", "seat_order"] {
        for hands in [1, 2] {
            let mut options = vec![("tie_break".to_string(), OptionValue::Str(tie.to_string()))];
            if hands == 2 {
                options.push(("hands".to_string(), OptionValue::Int(hands)));
            }
            let game = AnyGame::load(name, &options).unwrap();
            for (i, a) in specs.iter().enumerate() {
                let b = specs[(i + 1) % specs.len()];
                for seed in 0..3u64 {
                    let seed = seed * 7919 + i as u64;
                    let mut s = game
                        .session(seed, &[Some(a.to_string()), Some(b.to_string())])
                        .unwrap();
                    s.run().unwrap();
                    let bounced = s.log().iter().filter(|c| c.bounced).count();
                    lines.push(format!(
                        "{name} {tie} {hands} {a} {b} {seed}: {:016x} {} {bounced} {} {:?}",
                        s.event_hash(),
                        s.log().len(),
                        s.now(),
                        s.state().returns()
                    ));
                }
            }
        }
    }
    lines
}

fn digest(lines: &[String]) -> u64 {
    // FNV-1a over the lines: stable across platforms and Rust versions.
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for b in lines.join("\n").bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[test]
fn spit_sessions_are_pinned() {
    let lines = games("spit");
    assert_eq!(digest(&lines), 927269589217614153, "{}", lines.join("\n"));
}

#[test]
fn speed_sessions_are_pinned() {
    let lines = games("speed");
    assert_eq!(digest(&lines), 2342712157026854221, "{}", lines.join("\n"));
}
