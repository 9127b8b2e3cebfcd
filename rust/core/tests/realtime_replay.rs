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
                m.contains("event hash") && m.contains("0123456789abcdef"),
                "{m}"
            );
        }
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
                vec![
                    None,
                    Some(cardtable_core::games::registry::session_bot_seed(5, 1)),
                ],
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
