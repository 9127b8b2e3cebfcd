//! Spit's `plain` policy reads its choice off the view's action bitsets on
//! the batch hot path; that must be the very choice it makes from the list
//! of legal actions, in every state random play reaches, under the rule
//! variants that change what is legal (SP-3.1, SP-3.5, SP-7.4). And the
//! bots' strength, measured for the report.

#![allow(clippy::unwrap_used)]

use cardtable_core::bots::reaction::Policy;
use cardtable_core::engine::options::OptionValue;
use cardtable_core::engine::realtime::Session;
use cardtable_core::engine::{Controller, Decision, Game, State};
use cardtable_core::games::spit::bots::Plain;
use cardtable_core::games::spit::{SpitGame, SpitState};
use cardtable_core::{derive_seed, GameRng};

#[test]
fn plain_chooses_the_same_from_the_view_as_from_the_legal_list() {
    let variants: Vec<Vec<(String, OptionValue)>> = vec![
        vec![],
        vec![("stalemate".into(), OptionValue::Str("agreed".into()))],
        vec![("stack_equal_ranks".into(), OptionValue::Bool(true))],
        vec![("auto_flip".into(), OptionValue::Bool(true))],
    ];
    let mut checked = 0;
    for options in &variants {
        let game = SpitGame::from_options(options).unwrap();
        for seed in 0..20u64 {
            let mut state = game.deal(seed, None).unwrap();
            let mut rng = GameRng::new(seed);
            let mut legal = Vec::new();
            for step in 0..3_000u64 {
                if state.decision() == Decision::Terminal {
                    break;
                }
                for seat in 0..2 {
                    state.legal_actions(seat, &mut legal);
                    let view = state.seat_view(seat);
                    let fast = Plain.choose_from_view(view, &mut rng).unwrap();
                    let listed = if legal.is_empty() {
                        None
                    } else {
                        Plain.choose(view, &legal, &mut rng)
                    };
                    assert_eq!(fast, listed, "seed {seed}, step {step}, seat {seat}");
                    checked += 1;
                }
                // Move on: a random legal action of a random seat, else the timer.
                let seat = (rng.next_u64() % 2) as u8;
                state.legal_actions(seat, &mut legal);
                let now = state.now() + 10;
                if legal.is_empty() {
                    if let Some(at) = state.next_timer() {
                        state.fire_timer(at.max(now));
                    }
                } else {
                    let a = legal[(rng.next_u64() % legal.len() as u64) as usize];
                    state.apply(seat, a, now).unwrap();
                }
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

/// A finished session of `game` between `specs`, seeded with `seed`.
fn session(game: &SpitGame, specs: [&str; 2], seed: u64) -> Session<SpitState> {
    let bots: Vec<Box<dyn Controller<SpitState>>> = (0..2)
        .map(|i| {
            game.bot(specs[i], derive_seed(seed, 100 + i as u64))
                .unwrap()
        })
        .collect();
    let mut session = Session::new(
        game.deal(seed, None).unwrap(),
        bots,
        game.session_rules(seed),
    );
    assert!(session.run().unwrap(), "seed {seed}: did not end");
    session
}

/// Win rates and game sizes for the report (run with `--ignored --nocapture`).
#[test]
#[ignore = "a measurement for the report, not a check: run with --ignored --nocapture"]
fn strength() {
    let game = SpitGame::default();
    for (a, b) in [
        ("plain:instant", "plain:instant"),
        ("smart:instant", "plain:instant"),
        ("smart:normal", "plain:normal"),
        ("plain:hard", "plain:normal"),
        ("plain:normal", "plain:easy"),
        ("smart:normal", "plain:hard"),
    ] {
        let n = 400u64;
        let (mut wins, mut decided, mut deals, mut ms, mut commits) = (0i64, 0, 0u64, 0u64, 0usize);
        let mut endings = std::collections::BTreeMap::new();
        for i in 0..n {
            // Alternate seats so neither bot always sits at seat 0.
            let swap = i % 2 == 1;
            let specs = if swap { [b, a] } else { [a, b] };
            let seed = derive_seed(77, i);
            let s = session(&game, specs, seed);
            let r = s.state.returns()[usize::from(swap)];
            if r != 0 {
                decided += 1;
            }
            wins += i64::from(r > 0);
            deals += u64::from(s.state.deals_played());
            ms += s.state.now();
            commits += s.log().len();
            *endings.entry(s.state.ending().unwrap()).or_insert(0) += 1;
        }
        eprintln!(
            "{a} vs {b}: {wins}/{decided} decided games won by the first ({:.1}%), {:.1} deals, {:.0} s virtual, {:.0} commits per game, {endings:?}",
            100.0 * wins as f64 / decided.max(1) as f64,
            deals as f64 / n as f64,
            ms as f64 / n as f64 / 1000.0,
            commits as f64 / n as f64
        );
    }
}
