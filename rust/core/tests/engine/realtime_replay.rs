//! RT-11: a real-time record holds the seed, the rules, the bots (specs and
//! seeds) and the people's inputs with their virtual times; replaying it
//! re-runs all of them and checks the session's event hash, besides each
//! recorded commit and the final state.

#![allow(clippy::unwrap_used)]

use cardtable_core::engine::options::OptionValue;
use cardtable_core::engine::record::Record;
use cardtable_core::error::CoreError;
use cardtable_core::games::registry::AnyGame;

fn invalid(rec: &Record) -> String {
    match AnyGame::replay(rec) {
        Err(CoreError::InvalidRecord(m)) => m,
        other => panic!("the record should not replay: {other:?}"),
    }
}

#[test]
fn simulated_games_rerun_their_bots_and_a_wrong_seed_or_hash_is_caught() {
    for name in ["spit", "speed"] {
        let game = AnyGame::load(name, &[]).unwrap();
        let mut arena = game
            .arena(&["smart:normal".into(), "plain:hard".into()], 4, 9)
            .unwrap();
        let results = arena.step(4).unwrap();
        for rec in arena.records(&results) {
            assert!(rec.event_hash.is_some() && rec.bot_seeds.is_some());
            let line = rec.to_json();
            AnyGame::replay(&Record::from_json(&line).unwrap()).unwrap();
            // Another seed for the first bot: the same events cannot follow.
            let mut other = rec.clone();
            other.bot_seeds.as_mut().unwrap()[0] = Some(12345);
            assert!(invalid(&other).contains("re-running the bots"), "{name}");
            let mut other = rec.clone();
            other.event_hash = Some("0123456789abcdef".into());
            let m = invalid(&other);
            assert!(
                m.contains("event_hash") && m.contains("0123456789abcdef"),
                "{m}"
            );
        }
    }
}

/// Issue 22 item 9: a tampered record says what differs: the events match
/// but the hash does not (both hashes shown), or the first event that
/// differs with both sides of it; never two equal hashes or "nothing".
#[test]
fn a_tampered_hash_or_event_says_what_differs() {
    let game = AnyGame::load("spit", &[]).unwrap();
    let mut arena = game
        .arena(&["smart:normal".into(), "plain:hard".into()], 2, 9)
        .unwrap();
    let results = arena.step(1).unwrap();
    let rec = arena.records(&results).remove(0);
    let events = rec.events.clone().unwrap();
    let hash = rec.event_hash.clone().unwrap();
    let mut other = rec.clone();
    other.event_hash = Some("0123456789abcdef".into());
    assert_eq!(
        invalid(&other),
        format!(
            "re-running the bots and the inputs (RT-11) gives the record's {} events, \
             but the record's \"event_hash\" is 0123456789abcdef and the re-run's {hash}",
            events.len()
        )
    );
    // The third event a millisecond late: the re-run has it on time.
    let mut other = rec.clone();
    let (at, seat, action, _) = events[2];
    other.events.as_mut().unwrap()[2].0 = at + 1;
    let m = invalid(&other);
    let verb = |b: bool| if b { "bounced" } else { "landed" };
    let bounced = events[2].3;
    assert!(
        m.contains(&format!(
            "event 3 is seat {seat}'s {action} at {} ms {} in the record, seat {seat}'s {action} at {at} ms {} in the re-run",
            at + 1,
            verb(bounced),
            verb(bounced),
        )),
        "{m}"
    );
    // An event added at the end: the re-run has none there.
    let mut other = rec.clone();
    other
        .events
        .as_mut()
        .unwrap()
        .push((at, seat, action, false));
    let m = invalid(&other);
    let n = events.len();
    assert!(
        m.contains(&format!("({} in the record, {n} in the re-run)", n + 1))
            && m.contains(&format!("event {} is seat", n + 1))
            && m.ends_with("no event in the re-run"),
        "{m}"
    );
}

/// Issue 22 item 9: the record's players must be one per seat of the game
/// its params make.
#[test]
fn players_that_do_not_match_the_seats_are_refused() {
    let game = AnyGame::load("speed", &[]).unwrap();
    let mut arena = game
        .arena(&["smart:normal".into(), "plain:hard".into()], 2, 9)
        .unwrap();
    let results = arena.step(1).unwrap();
    let mut rec = arena.records(&results).remove(0);
    rec.players.push("plain:easy".into());
    assert_eq!(
        invalid(&rec),
        "\"players\" names 3 seats, but the game of \"params\" has 2"
    );
}

/// Issue 22 item 6: a real-time game without a single commit (bots that
/// overlook every play until the time limit) is a real-time record (bot
/// seeds, event hash, no events) and replays; the endings table counts it.
#[test]
fn a_real_time_game_without_a_commit_replays() {
    for name in ["spit", "speed"] {
        let game = AnyGame::load(name, &[]).unwrap();
        let blind = "plain:normal,miss_rate=1".to_string();
        let mut arena = game.arena(&[blind.clone(), blind], 2, 3).unwrap();
        let results = arena.step(2).unwrap();
        for rec in arena.records(&results) {
            assert_eq!(rec.events.as_deref(), Some(&[][..]), "{name}");
            assert!(rec.bot_seeds.is_some() && rec.event_hash.is_some());
            AnyGame::replay(&Record::from_json(&rec.to_json()).unwrap()).unwrap();
        }
        let summary = arena.summary();
        assert_eq!(summary.endings.iter().map(|e| e.1).sum::<u64>(), 2);
        assert_eq!(summary.lengths.virtual_seconds.games(), 2, "{name}");
    }
}

#[test]
fn a_persons_inputs_replay_with_the_bot_event_for_event() {
    for name in ["spit", "speed"] {
        // A person who may queue a move while the hand is busy (RT-4).
        let game = AnyGame::load(
            name,
            &[("queue_inputs".to_string(), OptionValue::Bool(true))],
        )
        .unwrap();
        let mut s = game
            .session(5, &[None, Some("smart:hard".to_string())])
            .unwrap();
        let mut legal = Vec::new();
        let mut t = 0;
        while !s.is_over() && t < 120_000 {
            t += 350;
            s.advance_to(t).unwrap();
            s.state().legal_actions(0, &mut legal);
            if let Some(&a) = legal.first() {
                s.submit(0, a, t);
                // A second one at once: busy hand, so it is queued.
                s.submit(0, *legal.last().unwrap(), t);
            }
        }
        let rec = s
            .record(
                &game,
                vec!["human".into(), "smart:hard".into()],
                vec![None, Some(cardtable_core::engine::seeds::bot_seed(5, 1))],
            )
            .unwrap();
        let inputs = rec.inputs.clone().unwrap();
        assert!(inputs.len() >= 2, "{name}: the person played");
        assert!(s.log().iter().any(|c| c.seat == 0 && !c.bounced));
        let line = rec.to_json();
        let (_, end) = AnyGame::replay(&Record::from_json(&line).unwrap()).unwrap();
        assert_eq!(end.fingerprint(), s.state().fingerprint());
        // An input a millisecond later is another game.
        let mut late = rec.clone();
        let first = &mut late.inputs.as_mut().unwrap()[0];
        first.0 += 1;
        first.3 += 1;
        let m = invalid(&late);
        assert!(m.contains("re-running"), "{name}: {m}");
    }
}
