//! Spit's `plain` policy reads its choice off the view's action bitsets on
//! the batch hot path; that must be the very choice it makes from the list
//! of legal actions, in every state random play reaches, under the rule
//! variants that change what is legal (SP-3.1, SP-3.5, SP-7.4).

#![allow(clippy::unwrap_used)]

use cardtable_core::bots::reaction::Policy;
use cardtable_core::bots::spit::Plain;
use cardtable_core::engine::options::OptionValue;
use cardtable_core::engine::{Decision, Game, State};
use cardtable_core::games::spit::SpitGame;
use cardtable_core::GameRng;

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
