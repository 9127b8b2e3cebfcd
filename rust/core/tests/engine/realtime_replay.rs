//! RT-11: a real-time record holds the seed, the rules, the bots (specs and
//! seeds) and the people's inputs with their virtual times; replaying it
//! re-runs all of them and checks the session's event hash, besides each
//! recorded commit and the final state.

#![allow(clippy::unwrap_used)]

use cardtable_core::bots::reaction::Timing;
use cardtable_core::engine::options::OptionValue;
use cardtable_core::engine::record::Record;
use cardtable_core::engine::{seeds, Millis};
use cardtable_core::error::CoreError;
use cardtable_core::games::registry::AnyGame;
use cardtable_core::GameRng;

/// The real-time games of the registry (Spit and Speed).
fn real_time_games() -> Vec<&'static str> {
    cardtable_core::games::registry::GAMES
        .iter()
        .copied()
        .filter(|name| AnyGame::load(name, &[]).unwrap().is_real_time())
        .collect()
}

fn invalid(rec: &Record) -> String {
    match AnyGame::replay(rec) {
        Err(CoreError::InvalidRecord(m)) => m,
        other => panic!("the record should not replay: {other:?}"),
    }
}

#[test]
fn simulated_games_rerun_their_bots_and_a_wrong_seed_or_hash_is_caught() {
    for name in real_time_games() {
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
    let (at, seat, action, _) = events[2].commit();
    other.events.as_mut().unwrap()[2].at = at + 1;
    let m = invalid(&other);
    let verb = |b: bool| if b { "bounced" } else { "landed" };
    let bounced = events[2].bounced;
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
        .push((at, seat, action, false).into());
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
    for name in real_time_games() {
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
    for name in real_time_games() {
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
                s.submit(0, a, t).unwrap();
                // A second one at once: busy hand, so it is queued.
                s.submit(0, *legal.last().unwrap(), t).unwrap();
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

/// How a test drives the people's seats of a session.
#[derive(Debug, Clone, Copy)]
enum Drive {
    /// Lockstep ticks of random sizes (RT-9 (c)).
    Lockstep,
    /// The live screen's way (RT-9 (b)): advance to "now", then hand in
    /// the keys of that moment, now and then with another advance to the
    /// same moment between two of them.
    Live,
}

/// Seats: a person (None) or one of several bots.
fn random_seats(rng: &mut GameRng) -> [Option<String>; 2] {
    let specs = [
        "plain:hard",
        "smart:instant",
        "random:normal",
        "plain:instant",
    ];
    let mut pick = |person_odds: u32| {
        (rng.below(person_odds) != 0)
            .then(|| specs[rng.below(specs.len() as u32) as usize].to_string())
    };
    // At least one person: a session of bots alone is the batch test's.
    let first = pick(2);
    let second = if first.is_some() { None } else { pick(2) };
    if rng.below(2) == 0 {
        [first, second]
    } else {
        [second, first]
    }
}

/// Random options of the session (RT-4, RT-6).
fn random_options(rng: &mut GameRng) -> Vec<(String, OptionValue)> {
    let tie = ["seeded_coin", "alternate", "seat_order"][rng.below(3) as usize];
    vec![
        ("tie_break".to_string(), OptionValue::Str(tie.to_string())),
        (
            "hands".to_string(),
            OptionValue::Int(1 + i64::from(rng.below(2))),
        ),
        (
            "queue_inputs".to_string(),
            OptionValue::Bool(rng.below(2) == 0),
        ),
    ]
}

/// A random session of `name` driven `drive`'s way until it ends or its
/// clock passes a random stop (so some records are of games in progress).
fn random_session(
    name: &str,
    drive: Drive,
    rng: &mut GameRng,
) -> (
    AnyGame,
    cardtable_core::games::registry::AnySession,
    Vec<String>,
    Vec<Option<u64>>,
) {
    let game = AnyGame::load(name, &random_options(rng)).unwrap();
    let seats = random_seats(rng);
    let seed = rng.next_u64();
    let mut s = game.session(seed, &seats).unwrap();
    let names = seats
        .iter()
        .map(|b| {
            b.as_ref()
                .map_or("human".to_string(), |b| game.bot_name(b).unwrap())
        })
        .collect();
    let bot_seeds = (0..2)
        .map(|seat| {
            seats[seat]
                .as_ref()
                .map(|_| cardtable_core::engine::seeds::bot_seed(seed, seat))
        })
        .collect();
    let people: Vec<u8> = (0..2u8)
        .filter(|&p| seats[usize::from(p)].is_none())
        .collect();
    let stop = 3_000 + Millis::from(rng.below(60_000));
    let actions = game.num_distinct_actions() as u32;
    let mut legal = Vec::new();
    while !s.is_over() && s.now() < stop {
        // Each person's intent this moment, in a random order of seats:
        // mostly a legal action, now and then one that bounces.
        let mut intents = Vec::new();
        let mut order = people.clone();
        if rng.below(2) == 0 {
            order.reverse();
        }
        let state = s.state();
        for &p in &order {
            state.legal_actions(p, &mut legal);
            if rng.below(3) == 0 {
                continue;
            }
            let a = if legal.is_empty() || rng.below(12) == 0 {
                rng.below(actions) as u16
            } else {
                legal[rng.below(legal.len() as u32) as usize]
            };
            intents.push((p, a));
        }
        match drive {
            Drive::Lockstep => {
                let dt = [1, 2, 7, 50, 100, 333][rng.below(6) as usize];
                s.step(&intents, dt).unwrap();
            }
            Drive::Live => {
                let now = s.now() + 1 + Millis::from(rng.below(200));
                s.advance_to(now).unwrap();
                for (p, a) in intents {
                    if rng.below(4) == 0 {
                        s.advance_to(now).unwrap();
                    }
                    // Stamped now, or a little earlier (a key read late).
                    s.submit(p, a, now.saturating_sub(Millis::from(rng.below(3))))
                        .unwrap();
                }
            }
        }
    }
    // Now and then the rest in batch: the bots play on alone to the end.
    if rng.below(6) == 0 {
        s.run().unwrap();
    }
    (game, s, names, bot_seeds)
}

/// RT-11: every record a session writes replays, however the session was
/// driven: lockstep ticks of any size or the live screen's advances, one or
/// two people handing in intents of the same millisecond in any order of
/// seats (with the tie-break drawing for them, RT-6), every tie-break, one
/// or two hands, queued or refused inputs, games over or still going.
#[test]
fn rt_11_every_record_of_a_lockstep_or_live_session_replays() {
    let mut rng = GameRng::new(11);
    let mut same_ms = 0;
    for name in real_time_games() {
        for drive in [Drive::Lockstep, Drive::Live] {
            for round in 0..30 {
                let (game, s, names, bot_seeds) = random_session(name, drive, &mut rng);
                same_ms += s
                    .log()
                    .windows(2)
                    .filter(|w| w[0].at == w[1].at && w[0].seat != w[1].seat)
                    .count();
                let rec = s.record(&game, names, bot_seeds).unwrap();
                let line = rec.to_json();
                let (_, end) = AnyGame::replay(&Record::from_json(&line).unwrap())
                    .unwrap_or_else(|e| panic!("{name} {drive:?} round {round}: {e}\n{line}"));
                assert_eq!(
                    end.fingerprint(),
                    s.state().fingerprint(),
                    "{name} {drive:?} round {round}"
                );
            }
        }
    }
    assert!(
        same_ms > 20,
        "{same_ms} pairs of commits of one millisecond"
    );
}

/// Every bot spec of a real-time game: each policy at each preset (RT-3).
fn every_spec(name: &str) -> Vec<String> {
    let policies: &[&str] = match name {
        "spit" => &cardtable_core::games::spit::bots::POLICIES,
        _ => &cardtable_core::games::speed::bots::POLICIES,
    };
    let mut out = Vec::new();
    for (preset, _) in Timing::PRESETS {
        for policy in policies {
            out.push(format!("{policy}:{preset}"));
        }
    }
    out
}

/// Random options of the session (RT-4, RT-6) and of the game's own rules
/// that change what a record holds (Speed's jokers and draws, Spit's
/// layouts and stalemates).
fn random_rules(name: &str, rng: &mut GameRng) -> Vec<(String, OptionValue)> {
    let mut out = random_options(rng);
    let flag = |rng: &mut GameRng| OptionValue::Bool(rng.below(2) == 0);
    let game_rules: Vec<(&str, OptionValue)> = match name {
        "spit" => vec![
            ("stock_piles", OptionValue::Int(4 + i64::from(rng.below(2)))),
            ("stack_equal_ranks", flag(rng)),
            ("merge_equal_at_setup", flag(rng)),
            ("slap", flag(rng)),
        ],
        _ => vec![
            ("jokers", flag(rng)),
            ("auto_draw", flag(rng)),
            ("scoring", flag(rng)),
            (
                "side_pile_size",
                OptionValue::Int(1 + i64::from(rng.below(10))),
            ),
        ],
    };
    for (key, value) in game_rules {
        if rng.below(2) == 0 {
            out.push((key.to_string(), value));
        }
    }
    out
}

/// A lockstep tick's size: mostly a tenth of a second or so, now and then a
/// single millisecond or a long stride (RT-9 (c)).
fn random_dt(rng: &mut GameRng) -> Millis {
    match rng.below(4) {
        0 => 1 + Millis::from(rng.below(3)),
        1 => 1 + Millis::from(rng.below(2_000)),
        _ => 1 + Millis::from(rng.below(200)),
    }
}

/// The record of `s` now replays to the state `s` has now: the replay
/// re-runs the bots and inputs, checks the event hash and every commit,
/// and its final state has `s`'s fingerprint (RT-11).
fn assert_replays(
    game: &AnyGame,
    s: &cardtable_core::games::registry::AnySession,
    players: &[String],
    bot_seeds: &[Option<u64>],
    what: &str,
) {
    let rec = s
        .record(game, players.to_vec(), bot_seeds.to_vec())
        .unwrap();
    let line = rec.to_json();
    let read = Record::from_json(&line).unwrap();
    let (_, end) = AnyGame::replay(&read).unwrap_or_else(|e| panic!("{what}: {e}\n{line}"));
    assert_eq!(end.fingerprint(), s.state().fingerprint(), "{what}\n{line}");
    assert_eq!(
        read.event_hash,
        Some(format!("{:016x}", s.event_hash())),
        "{what}"
    );
    if let Some(result) = &read.result {
        assert_eq!(
            result.fingerprint().unwrap(),
            Some(end.fingerprint()),
            "{what}"
        );
    }
}

/// RT-11, the property: every record a session writes replays to the same
/// final state and event hash, whatever the run mode. Both real-time games,
/// every policy at every preset (RT-3), random seeds and rules: sessions of
/// a bot against an agent or against another bot (now and then of two
/// agents, whose intents of one tick the tie-break orders, RT-6) run in
/// lockstep ticks of random sizes (RT-9 (c)), a record taken now and then along the way and
/// at the end, some then finished in batch (RT-9 (a)); sessions run in
/// batch from the start, advanced to random points first now and then; and
/// the arena's records (`simulate --record`).
#[test]
fn rt_11_every_record_of_random_lockstep_and_batch_sessions_replays() {
    let mut rng = GameRng::new(2611);
    let (mut records, mut ties) = (0, 0);
    for name in real_time_games() {
        let specs = every_spec(name);
        for spec in &specs {
            for round in 0..2 {
                let game = AnyGame::load(name, &random_rules(name, &mut rng)).unwrap();
                let actions = game.num_distinct_actions() as u32;
                let other = &specs[rng.below(specs.len() as u32) as usize];
                let bot_seat = rng.below(2) as usize;
                // Agents: none, the other seat, or now and then both
                // (handing in intents of one tick in either order of seats).
                let agents: Vec<u8> = match rng.below(4) {
                    0 => vec![],
                    3 => vec![0, 1],
                    _ => vec![1 - bot_seat as u8],
                };
                let seed = rng.next_u64();

                // Lockstep: the spec's bot against an agent (or a bot).
                let mut seats = [Some(spec.clone()), Some(other.clone())];
                if bot_seat == 1 {
                    seats.swap(0, 1);
                }
                for &a in &agents {
                    seats[usize::from(a)] = None;
                }
                let players: Vec<String> = seats
                    .iter()
                    .map(|b| {
                        b.as_ref()
                            .map_or("human".into(), |b| game.bot_name(b).unwrap())
                    })
                    .collect();
                let bot_seeds: Vec<Option<u64>> = (0..2)
                    .map(|seat| seats[seat].as_ref().map(|_| seeds::bot_seed(seed, seat)))
                    .collect();
                let what =
                    |mode: &str| format!("{name} {players:?} {mode} round {round} seed {seed}");
                let mut s = game.session(seed, &seats).unwrap();
                let stop = Millis::from(rng.below(90_000));
                let mut legal = Vec::new();
                while !s.is_over() && s.now() < stop {
                    let mut intents = Vec::new();
                    let mut order = agents.clone();
                    if rng.below(2) == 0 {
                        order.reverse();
                    }
                    for a in order {
                        s.state().legal_actions(a, &mut legal);
                        if rng.below(3) != 0 {
                            let action = if legal.is_empty() || rng.below(10) == 0 {
                                rng.below(actions) as u16
                            } else {
                                legal[rng.below(legal.len() as u32) as usize]
                            };
                            intents.push((a, action));
                        }
                    }
                    s.step(&intents, random_dt(&mut rng)).unwrap();
                    if rng.below(40) == 0 {
                        assert_replays(&game, &s, &players, &bot_seeds, &what("lockstep, midway"));
                        records += 1;
                    }
                }
                assert_replays(&game, &s, &players, &bot_seeds, &what("lockstep"));
                records += 1;
                if agents.is_empty() || rng.below(2) == 0 {
                    s.run().unwrap();
                    assert_replays(
                        &game,
                        &s,
                        &players,
                        &bot_seeds,
                        &what("lockstep, then batch"),
                    );
                    records += 1;
                }
                ties += s
                    .log()
                    .windows(2)
                    .filter(|w| w[0].at == w[1].at && w[0].seat != w[1].seat)
                    .count();

                // Batch: the spec's bot against another, now and then
                // advanced to a few random points before it runs to the end.
                let seats = if bot_seat == 0 {
                    [Some(spec.clone()), Some(other.clone())]
                } else {
                    [Some(other.clone()), Some(spec.clone())]
                };
                let players: Vec<String> = seats
                    .iter()
                    .map(|b| game.bot_name(b.as_ref().unwrap()).unwrap())
                    .collect();
                let bot_seeds: Vec<Option<u64>> = (0..2)
                    .map(|seat| Some(seeds::bot_seed(seed, seat)))
                    .collect();
                let mut s = game.session(seed, &seats).unwrap();
                for _ in 0..rng.below(4) {
                    let t = s.now() + Millis::from(rng.below(20_000));
                    s.advance_to(t).unwrap();
                    assert_replays(&game, &s, &players, &bot_seeds, &what("batch, advanced"));
                    records += 1;
                }
                s.run().unwrap();
                assert_replays(&game, &s, &players, &bot_seeds, &what("batch"));
                records += 1;

                // The arena's records, as `simulate --record` writes them.
                let mut arena = game
                    .arena(&[spec.clone(), other.clone()], 2, rng.next_u64())
                    .unwrap();
                let results = arena.step(2).unwrap();
                for rec in arena.records(&results) {
                    let line = rec.to_json();
                    let read = Record::from_json(&line).unwrap();
                    let (_, end) = AnyGame::replay(&read)
                        .unwrap_or_else(|e| panic!("{}: {e}\n{line}", what("arena")));
                    let hash = read.result.as_ref().unwrap().fingerprint().unwrap();
                    assert_eq!(hash, Some(end.fingerprint()), "{}", what("arena"));
                    records += 1;
                }
            }
        }
    }
    assert!(records > 400, "{records} records");
    assert!(ties > 20, "{ties} pairs of commits of one millisecond");
}

/// RT-6: commits of one millisecond follow the tie-break whatever the step
/// size. Under `seat_order` the lower seat's commit of a millisecond comes
/// first, also when a bot's card lands at the very millisecond a tick
/// starts and the agent acts in that tick (the tick's end was run before
/// the next tick's intents were handed in, so the bot's card came first).
#[test]
fn rt_6_ties_follow_the_tie_break_at_every_tick_boundary() {
    let options = [(
        "tie_break".to_string(),
        OptionValue::Str("seat_order".into()),
    )];
    let mut rng = GameRng::new(6);
    let mut ties = 0;
    for name in real_time_games() {
        let game = AnyGame::load(name, &options).unwrap();
        for (seed, bot_seat) in (0..12u64).zip([0usize, 1].into_iter().cycle()) {
            let mut seats = [None, None];
            seats[bot_seat] = Some("plain:hard".to_string());
            let agent = 1 - bot_seat as u8;
            let mut s = game.session(seed, &seats).unwrap();
            let mut legal = Vec::new();
            let mut acts = false;
            while !s.is_over() && s.now() < 60_000 {
                let mut intents = Vec::new();
                s.state().legal_actions(agent, &mut legal);
                if let (true, Some(&a)) = (acts || rng.below(10) == 0, legal.first()) {
                    intents.push((agent, a));
                }
                // A tick that ends where the bot's card lands, or a random one.
                let now = s.now();
                let landing = s.in_flight().iter().find(|f| f.1 != agent).map(|f| f.0);
                let dt = match landing {
                    Some(at) if at > now => at - now,
                    _ => 1 + Millis::from(rng.below(40)),
                };
                acts = landing.is_some_and(|at| at == now + dt);
                s.step(&intents, dt).unwrap();
            }
            for w in s.log().windows(2) {
                if w[0].at == w[1].at && w[0].seat != w[1].seat {
                    ties += 1;
                    assert!(
                        w[0].seat < w[1].seat,
                        "{name} seed {seed}: {:?} before {:?}",
                        w[0],
                        w[1]
                    );
                }
            }
        }
    }
    assert!(ties > 20, "only {ties} ties");
}
