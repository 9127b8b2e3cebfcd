//! The generic random-play test (OpenSpiel's RandomSimTest) over the engine
//! layer's contract: written once against `Game`/`State`, run over every
//! registered game and a spread of its rule sets. Invariants: the seat to
//! move always has a sorted, non-empty list of legal actions and nobody else
//! has any; `is_legal` agrees with the list; illegal actions of every kind
//! (wrong seat, any id not in the list, beyond the id range) are rejected
//! and change nothing; the game ends; returns are zero-sum; the history
//! replays to the same state and its record replays through the generic
//! record format to the same fingerprint; views and observations do not
//! change when hidden cards are re-dealt; the game's own invariants hold
//! after every action (`State::audit`: cards conserved); the ending is one of
//! the game's categories; observations have the game's size and written
//! ones equal the returned ones; running returns stay zero-sum and finish
//! at the returns. Rule sets are drawn at random from each game's
//! option schema, so a new option is covered as soon as it is declared.

#![allow(clippy::unwrap_used)]

use cardtable_core::engine::options::{OptionKind, OptionValue};
use cardtable_core::engine::record::{record_of_events, record_of_state, replay};
use cardtable_core::engine::{play_to_end, Applied, Controller, Decision, Game, State};
use cardtable_core::for_each_game;
use cardtable_core::games::tonk::TonkGame;
use cardtable_core::{derive_seed, GameRng};

/// Random play of a real-time game (RT-5, RT-7, RT-8): a random seat of the
/// decision's mask plays a random legal action at a random later time; the
/// other seat's stale tries bounce and change nothing; a waiting state
/// always has a timer (no dead end); the timed record replays to the same
/// final state.
fn random_real_time<G: Game>(game: &G, st: &mut G::State, rng: &mut GameRng, deal_seed: u64) {
    let n = game.players() as u8;
    let count = game.num_distinct_actions() as u16;
    let limit = game.session_rules(deal_seed).max_virtual_ms;
    let mut now = 0u64;
    let mut events = Vec::new();
    let mut legal = Vec::new();
    for step in 0..2_000_000u32 {
        if let Err(e) = st.audit() {
            panic!("{}: at {now} ms: {e}", G::NAME);
        }
        let mask = match st.decision() {
            Decision::Terminal => break,
            Decision::Waiting => {
                let t = st.next_timer().unwrap_or_else(|| {
                    panic!("{}: waiting at {now} ms with no timer: a dead end", G::NAME)
                });
                now = now.max(t);
                st.fire_timer(now);
                continue;
            }
            Decision::Simultaneous(mask) => mask,
            Decision::Seat(s) => 1u64 << s,
        };
        assert!(
            now <= limit,
            "{}: the game outlived its time limit",
            G::NAME
        );
        // A pending timer may come first (and must, once it is due).
        if let Some(t) = st.next_timer() {
            if t <= now || rng.below(4) == 0 {
                now = now.max(t);
                st.fire_timer(now);
                continue;
            }
        }
        let seats: Vec<u8> = (0..n).filter(|s| mask >> s & 1 == 1).collect();
        assert!(!seats.is_empty(), "{}: an empty decision mask", G::NAME);
        let seat = seats[rng.below(seats.len() as u32) as usize];
        st.legal_actions(seat, &mut legal);
        assert!(
            !legal.is_empty(),
            "{}: seat {seat} in the mask has no move",
            G::NAME
        );
        assert!(legal.windows(2).all(|w| w[0] < w[1]), "not sorted");
        for a in (0..6).map(|_| rng.below(u32::from(count)) as u16) {
            assert_eq!(st.is_legal(seat, a), legal.binary_search(&a).is_ok());
            if !st.is_legal(seat, a) {
                let before = st.clone();
                let r = st.apply(seat, a, now);
                assert!(
                    matches!(r, Ok(Applied::Bounced) | Err(_)),
                    "{}: illegal {a} landed",
                    G::NAME
                );
                assert!(before == *st, "a bounced action changed the state");
            }
        }
        assert!(
            st.apply(seat, count, now).is_err(),
            "an id out of range was taken"
        );
        if step % 64 == 0 {
            for s in 0..n {
                let hidden = st.determinize(s, rng);
                assert!(st.view(s) == hidden.view(s), "view of seat {s} leaks");
                assert_eq!(st.observation(s), hidden.observation(s));
                check_written_observation(game, st, s);
            }
        }
        // As the session does: timers due before the commit fire first.
        let at = now + u64::from(rng.below(400));
        if st.next_timer().is_some_and(|t| t < at) {
            continue;
        }
        now = at;
        let a = legal[rng.below(legal.len() as u32) as usize];
        let applied = st.apply(seat, a, now).unwrap();
        events.push((now, seat, a, applied == Applied::Bounced));
    }
    assert_eq!(
        st.decision(),
        Decision::Terminal,
        "{}: the game does not end",
        G::NAME
    );
    let record = record_of_events(game, st, vec!["random".into(); usize::from(n)], events).unwrap();
    let (_, replayed) = replay::<G>(&record).unwrap();
    assert_eq!(
        replayed.fingerprint(),
        st.fingerprint(),
        "the timed record does not replay"
    );
}

/// `seat`'s observation has the game's size, and writing it over any
/// content gives the same numbers.
fn check_written_observation<G: Game>(game: &G, st: &G::State, seat: u8) {
    let o = st.observation(seat);
    assert_eq!(o.len(), game.observation_size(), "{}", G::NAME);
    let mut written = vec![7.0f32; o.len()];
    st.write_observation(seat, &mut written);
    assert_eq!(written, o, "{}: the written observation differs", G::NAME);
}

fn random_sim<G: Game>(game: &G, games: u64, seed: u64) {
    let mut rng = GameRng::new(seed);
    let n = game.players() as u8;
    let count = game.num_distinct_actions() as u16;
    let mut legal = Vec::new();
    let mut other = Vec::new();
    for g in 0..games {
        let deal_seed = derive_seed(seed, g);
        let mut st = game.deal(deal_seed, None).unwrap();
        if G::REAL_TIME {
            // Its seats act at once on the clock, never one turn at a time.
            assert!(
                !matches!(st.decision(), Decision::Seat(_)),
                "{}: REAL_TIME, but dealt {:?}",
                G::NAME,
                st.decision()
            );
            random_real_time(game, &mut st, &mut rng, deal_seed);
            let ending = st.ending().unwrap();
            assert!(G::ending_categories().contains(&ending), "{ending}");
            if G::ZERO_SUM {
                assert_eq!(st.returns().iter().sum::<i64>(), 0, "not zero-sum");
            }
            continue;
        }
        let mut steps = 0u32;
        loop {
            let seat = match st.decision() {
                Decision::Terminal => break,
                Decision::Seat(s) => s,
                d => panic!("{}: a turn-based game decided {d:?}", G::NAME),
            };
            st.legal_actions(seat, &mut legal);
            assert!(
                !legal.is_empty(),
                "{}: seat {seat} has no legal action",
                G::NAME
            );
            assert!(legal.windows(2).all(|w| w[0] < w[1]), "not sorted");
            for s in (0..n).filter(|&s| s != seat) {
                st.legal_actions(s, &mut other);
                assert!(other.is_empty(), "seat {s} may act out of turn");
            }
            let check_all = steps % 64 == 0;
            let probes: Vec<u16> = if check_all {
                (0..count).collect()
            } else {
                (0..6).map(|_| rng.below(u32::from(count)) as u16).collect()
            };
            for a in probes.into_iter().chain([count, u16::MAX]) {
                let ok = legal.binary_search(&a).is_ok();
                assert_eq!(st.is_legal(seat, a), ok, "is_legal({a}) disagrees");
                if !ok {
                    let before = st.clone();
                    assert!(st.apply(seat, a, 0).is_err(), "illegal {a} accepted");
                    assert!(before == st, "a rejected action changed the state");
                }
            }
            // The right action from the wrong seat is rejected too.
            if n > 1 {
                let before = st.clone();
                assert!(st.apply((seat + 1) % n, legal[0], 0).is_err());
                assert!(before == st);
            }
            if steps % 32 == 0 {
                for s in 0..n {
                    let hidden = st.determinize(s, &mut rng);
                    assert!(st.view(s) == hidden.view(s), "view of seat {s} leaks");
                    assert_eq!(st.observation(s), hidden.observation(s));
                    check_written_observation(game, &st, s);
                }
            }
            let a = legal[rng.below(legal.len() as u32) as usize];
            assert_eq!(st.apply(seat, a, 0).unwrap(), Applied::Done);
            if G::ZERO_SUM {
                assert_eq!(st.running_returns().iter().sum::<i64>(), 0);
            }
            if let Err(e) = st.audit() {
                panic!("{}: after action {a}: {e}", G::NAME);
            }
            steps += 1;
            // A whole Three Thirteen schedule of random play is long.
            assert!(steps < 500_000, "{}: the game does not end", G::NAME);
        }
        let ending = st.ending().unwrap();
        assert!(G::ending_categories().contains(&ending), "{ending}");
        if G::ZERO_SUM {
            assert_eq!(st.returns().iter().sum::<i64>(), 0, "not zero-sum");
        }
        assert_eq!(st.running_returns(), st.returns());
        for s in 0..n {
            check_written_observation(game, &st, s);
        }
        let record = record_of_state(game, &st, vec!["random".into(); usize::from(n)]).unwrap();
        let line = record.to_json();
        let back = cardtable_core::engine::record::Record::from_json(&line).unwrap();
        let (_, replayed) = replay::<G>(&back).unwrap();
        assert_eq!(replayed.fingerprint(), st.fingerprint(), "{line}");
        st.legal_actions(0, &mut legal);
        assert!(legal.is_empty());
        let mut again = game.deal(deal_seed, None).unwrap();
        for &a in st.history().to_vec().iter() {
            let Decision::Seat(s) = again.decision() else {
                panic!("replay ended early")
            };
            again.apply(s, a, 0).unwrap();
        }
        assert!(again == st, "the history does not replay");
        assert_eq!(again.fingerprint(), st.fingerprint());
        // A state that differs has another fingerprint (the first deal of
        // another seed, almost surely).
        let other = game.deal(deal_seed ^ 1, None).unwrap();
        assert_ne!(
            other.fingerprint(),
            game.deal(deal_seed, None).unwrap().fingerprint()
        );
    }
}

fn tonk(options: &[(&str, OptionValue)]) -> TonkGame {
    let o: Vec<(String, OptionValue)> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    <TonkGame as Game>::from_options(&o).unwrap()
}

/// A random rule set of `G` drawn from its schema: each option given with
/// probability 1/2, with a random value of its kind (integers mostly near
/// the low end, where the rules change most). None when the engine rejects
/// the combination.
fn random_rules<G: Game>(rng: &mut GameRng) -> Option<G> {
    let mut given = Vec::new();
    for spec in G::schema().options {
        if rng.below(2) == 0 {
            continue;
        }
        let int = |rng: &mut GameRng, min: i64, max: i64| {
            let span = (max - min).clamp(0, 12) as u32;
            min + i64::from(rng.below(span + 1))
        };
        let value = match spec.kind {
            OptionKind::Bool => OptionValue::Bool(rng.below(2) == 1),
            OptionKind::Int { min, max } => OptionValue::Int(int(rng, min, max)),
            OptionKind::Choice { choices, .. } => {
                OptionValue::Str(choices[rng.below(choices.len() as u32) as usize].into())
            }
            OptionKind::IntOrWord { min, max, words } => {
                if !words.is_empty() && rng.below(2) == 0 {
                    OptionValue::Str(words[rng.below(words.len() as u32) as usize].into())
                } else {
                    OptionValue::Int(int(rng, min, max))
                }
            }
        };
        given.push((spec.name.to_string(), value));
    }
    G::from_options(&given).ok()
}

/// Random play over the defaults and `sets` random rule sets of `G`.
fn random_sim_of<G: Game>(sets: usize, games_each: u64) {
    let mut rng = GameRng::new(0x5eed);
    random_sim(&G::from_options(&[]).unwrap(), games_each, 1);
    let mut played = 0;
    for attempt in 0..sets * 20 {
        if played == sets {
            break;
        }
        if let Some(game) = random_rules::<G>(&mut rng) {
            random_sim(&game, games_each, 100 + attempt as u64);
            played += 1;
        }
    }
    assert_eq!(played, sets, "{}: too few valid random rule sets", G::NAME);
}

macro_rules! random_sim_every_game {
    ($($variant:ident => $game:ty,)*) => {
        $(random_sim_of::<$game>(12, 2);)*
    };
}

#[test]
fn every_registered_game_keeps_every_invariant_under_random_rules() {
    for_each_game!(random_sim_every_game);
}

#[test]
fn tonk_keeps_every_invariant_of_the_contract_under_restrictive_rules() {
    use OptionValue::{Bool, Int};
    let rule_sets = [
        tonk(&[("players", Int(4)), ("preset", s("wikipedia"))]),
        tonk(&[
            ("discard_pickup_must_be_used", Bool(true)),
            ("max_hits_per_turn", Int(1)),
            ("must_spread", Bool(true)),
            ("hand_size", Int(9)),
        ]),
        tonk(&[
            ("players", Int(3)),
            ("deal_wins", s("forty_nine_in_turn")),
            ("drop_timing", s("any_time")),
            ("spades_bet", Int(1)),
            ("max_idle_rounds", Int(1)),
        ]),
        tonk(&[("hand_size", Int(25)), ("double_double", s("tonker"))]),
    ];
    for (i, game) in rule_sets.iter().enumerate() {
        random_sim(game, 60, i as u64);
    }
}

fn s(v: &str) -> OptionValue {
    OptionValue::Str(v.into())
}

#[test]
fn the_turn_based_driver_plays_as_the_tonk_arena_does() {
    use cardtable_core::engine::arena::play_game;
    use cardtable_core::games::tonk::TonkBotSpec;
    let game = tonk(&[]);
    let specs = [
        TonkBotSpec::parse("greedy").unwrap(),
        TonkBotSpec::parse("random").unwrap(),
    ];
    for index in 0..40u64 {
        let arena = play_game(&game, &specs, 9, index).unwrap();
        // The arena's seeding: the deal from the block, each bot from its game and seat.
        let mut st = game.deal(arena.seed, None).unwrap();
        let mut bots: Vec<Box<dyn Controller<_>>> = arena
            .seating
            .iter()
            .enumerate()
            .map(|(seat, &b)| {
                game.bot(
                    &specs[usize::from(b)].name(),
                    derive_seed(derive_seed(9, index), 100 + seat as u64),
                )
                .unwrap()
            })
            .collect();
        assert_eq!(play_to_end(&mut st, &mut bots, 10_000).unwrap(), 0);
        assert_eq!(st.history(), arena.actions.as_slice(), "game {index}");
        assert_eq!(State::returns(&st), arena.returns);
        assert_eq!(arena.replaced, 0, "game {index}: a bot answered illegally");
    }
}

/// A bot that answers an action that is not legal has a bug: a debug build
/// (every test run) stops on it; a release build plays the first legal
/// action instead, so the game goes on, and counts the replaced answers so
/// that no run's statistics hide them.
#[test]
#[cfg_attr(debug_assertions, should_panic(expected = "not a legal action"))]
fn an_illegal_bot_answer_stops_a_debug_build_and_is_counted_in_release() {
    use cardtable_core::engine::{replaced_answers, Intent, Millis};
    use cardtable_core::games::tonk::{TonkSeatView, TonkState};
    struct Illegal;
    impl Controller<TonkState> for Illegal {
        fn act(&mut self, _: TonkSeatView<'_>, now: Millis) -> Option<Intent> {
            Some(Intent {
                action: u16::MAX,
                at: now,
            })
        }
    }
    let game = tonk(&[]);
    let mut st = game.deal(5, None).unwrap();
    let mut bots: Vec<Box<dyn Controller<TonkState>>> = vec![Box::new(Illegal)];
    for seat in 1..game.players() as u64 {
        bots.push(game.bot("greedy", seat).unwrap());
    }
    let before = replaced_answers();
    let replaced = play_to_end(&mut st, &mut bots, 10_000).unwrap();
    assert!(st.is_over());
    assert!(replaced > 0);
    assert!(replaced_answers() >= before + u64::from(replaced));
}

#[test]
fn the_registry_names_and_schema_belong_to_the_game() {
    assert_eq!(<TonkGame as Game>::NAME, "tonk");
    let names: Vec<&str> = <TonkGame as Game>::schema().names().collect();
    assert!(names.contains(&"max_idle_rounds"));
    assert!(<TonkGame as Game>::ending_categories().contains(&"stalled"));
}

/// Issue 22 item 5: a step stopped by its flag (Ctrl-C) keeps the games it
/// finished, in order, as a prefix of the run; the run goes on from there
/// and ends as one never stopped. Real-time games stop between events.
#[test]
fn a_stopped_arena_step_keeps_a_prefix_and_the_run_goes_on() {
    use cardtable_core::engine::arena::Arena;
    use cardtable_core::games::spit::SpitGame;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    fn check<G: Game>(game: G, bots: &[&str], games: u64, stop_after: Duration) {
        let specs: Vec<G::BotSpec> = bots.iter().map(|b| G::parse_bot(b).unwrap()).collect();
        let mut whole = Arena::new(game.clone(), specs.clone(), games, 21).unwrap();
        let expected = whole.step(games).unwrap();
        let mut run = Arena::new(game, specs, games, 21).unwrap();
        // Stopped before it starts: nothing played.
        assert!(run
            .step_until(games, &AtomicBool::new(true))
            .unwrap()
            .is_empty());
        assert_eq!(run.done, 0);
        let stop = AtomicBool::new(false);
        let mut got = std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(stop_after);
                stop.store(true, Ordering::Relaxed);
            });
            run.step_until(games, &stop).unwrap()
        });
        assert!(run.done < games, "{}: the stop came too late", G::NAME);
        assert_eq!(got.len() as u64, run.done);
        assert_eq!(got[..], expected[..got.len()]);
        while !run.is_done() {
            got.extend(run.step(7).unwrap());
        }
        assert_eq!(got, expected);
        assert_eq!(run.summary(), whole.summary());
    }
    check(
        tonk(&[]),
        &["strong", "strong"],
        400,
        Duration::from_millis(200),
    );
    let spit = SpitGame::from_options(&[]).unwrap();
    check(spit, &["smart", "smart"], 2000, Duration::from_millis(100));
}
