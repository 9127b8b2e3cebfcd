//! Golden real-time games: Spit and Speed sessions between bots of every
//! policy and several speeds, under each tie-break rule and both hand
//! counts, one line each in `tests/data/golden/<game>_sessions.txt` (event
//! hash, commits, bounces, final clock, returns). Any change to the
//! session's event order, the bots' draws or a rule shows up here as the
//! lines that differ (RT-1, RT-3, RT-4, RT-6, RT-11).
//!
//! A change meant to alter play rewrites the files:
//! `CARDTABLE_BLESS=1 cargo test -p cardtable-core --test engine realtime_golden`
//! (then say so in the commit).

#![allow(clippy::unwrap_used)]

use crate::common;

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

/// Compares `lines` with the snapshot file of `name`, naming the first
/// lines that differ; rewrites it under `CARDTABLE_BLESS=1`.
fn check_snapshot(name: &str, lines: &[String]) {
    let path = common::data_dir().join(format!("golden/{name}_sessions.txt"));
    let text = lines.join("\n") + "\n";
    if std::env::var_os("CARDTABLE_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        return;
    }
    let pinned = std::fs::read_to_string(&path).unwrap();
    let differ: Vec<String> = pinned
        .lines()
        .zip(lines)
        .enumerate()
        .filter(|(_, (want, got))| want != got)
        .take(5)
        .map(|(i, (want, got))| format!("line {}:\n  pinned {want}\n  now    {got}", i + 1))
        .collect();
    assert!(
        differ.is_empty() && pinned.lines().count() == lines.len(),
        "{name} sessions differ from {} ({} lines pinned, {} now):\n{}",
        path.display(),
        pinned.lines().count(),
        lines.len(),
        differ.join("\n")
    );
}

#[test]
fn spit_sessions_are_pinned() {
    check_snapshot("spit", &games("spit"));
}

#[test]
fn speed_sessions_are_pinned() {
    check_snapshot("speed", &games("speed"));
}
