//! Bots decide from what their seat may see: a bot and its equally seeded
//! clone, asked the same question of a state and of that state with
//! everything hidden from the seat re-dealt (`determinize`), give the same
//! answer, at every decision of random games, for every bot kind of every
//! registered game (each game's `example_bots`). A bot that read a hidden
//! card would answer differently on some of them.

#![allow(clippy::unwrap_used)]

use cardtable_core::engine::{Decision, Game, Millis, State};
use cardtable_core::for_each_game;
use cardtable_core::{derive_seed, GameRng};

/// The seats that may act now.
fn acting(state: &impl State, players: u8) -> Vec<u8> {
    match state.decision() {
        Decision::Seat(s) => vec![s],
        Decision::Simultaneous(mask) => (0..players).filter(|s| mask >> s & 1 == 1).collect(),
        Decision::Waiting | Decision::Terminal => Vec::new(),
    }
}

fn same_answers_on_hidden_redeals<G: Game>(games: u64, steps: usize) {
    let game = G::from_options(&[]).unwrap();
    let players = game.players() as u8;
    let mut rng = GameRng::new(0xb07);
    let mut asked = 0;
    for spec in G::example_bots() {
        let parsed = G::parse_bot(spec).unwrap();
        for g in 0..games {
            let mut state = game.deal(derive_seed(91, g), None).unwrap();
            let mut legal = Vec::new();
            let mut now: Millis = 0;
            for step in 0..steps {
                let seats = acting(&state, players);
                if seats.is_empty() {
                    // Waiting on a timer, or over.
                    match state.next_timer() {
                        Some(t) if !state.is_over() => {
                            now = now.max(t);
                            state.fire_timer(now);
                            continue;
                        }
                        _ => break,
                    }
                }
                for &seat in &seats {
                    let seed = derive_seed(7, step as u64);
                    let mut bot = game.new_bot(&parsed, seed);
                    let mut twin = game.new_bot(&parsed, seed);
                    let hidden = state.determinize(seat, &mut rng);
                    assert_eq!(
                        bot.act(state.seat_view(seat), now),
                        twin.act(hidden.seat_view(seat), now),
                        "{} bot {spec}, game {g}, step {step}: seat {seat}'s answer depends on cards it cannot see",
                        G::NAME
                    );
                    asked += 1;
                }
                // Play on with a random legal action of one acting seat.
                let seat = seats[rng.below(seats.len() as u32) as usize];
                state.legal_actions(seat, &mut legal);
                let action = legal[rng.below(legal.len() as u32) as usize];
                now += 1;
                let _ = state.apply(seat, action, now);
            }
        }
    }
    assert!(asked > 0, "{}: no decision was asked", G::NAME);
}

macro_rules! every_game {
    ($($variant:ident => $game:ty,)*) => {
        $(same_answers_on_hidden_redeals::<$game>(6, 60);)*
    };
}

#[test]
fn every_bot_of_every_game_answers_from_its_seat_view() {
    for_each_game!(every_game);
}
