//! The `careless` bots of the turn-based games (the lowest level of their
//! ladders): `greedy`'s answer, except on about the share of decisions the
//! spec names, where a random legal move stands instead; the same seed
//! slips on the same decisions.

#![allow(clippy::unwrap_used)]

use cardtable_core::engine::{Decision, Game, State};
use cardtable_core::for_each_game;
use cardtable_core::{derive_seed, GameRng};

/// At every decision of random games: how often `careless:percent` answers
/// unlike `greedy`, and whether its equally seeded twin always agrees.
fn slips_of<G: Game>(percent: u8, games: u64) -> (usize, usize) {
    let game = G::from_options(&[]).unwrap();
    let careless = G::parse_bot(&format!("careless:{percent}")).unwrap();
    let greedy = G::parse_bot("greedy").unwrap();
    let mut rng = GameRng::new(0xca5e);
    let (mut asked, mut differed) = (0, 0);
    let mut legal = Vec::new();
    for g in 0..games {
        let mut state = game.deal(derive_seed(17, g), None).unwrap();
        for step in 0..200u64 {
            let Decision::Seat(seat) = state.decision() else {
                break;
            };
            let seed = derive_seed(g, step);
            let mut bot = game.new_bot(&careless, seed);
            let mut twin = game.new_bot(&careless, seed);
            let mut rule = game.new_bot(&greedy, seed);
            let answer = bot.act(state.seat_view(seat), 0).map(|i| i.action);
            assert_eq!(
                answer,
                twin.act(state.seat_view(seat), 0).map(|i| i.action),
                "{}: the same seed slipped differently",
                G::NAME
            );
            let answer = answer.unwrap();
            assert!(
                state.is_legal(seat, answer),
                "{}: a slip must be legal",
                G::NAME
            );
            asked += 1;
            if Some(answer) != rule.act(state.seat_view(seat), 0).map(|i| i.action) {
                differed += 1;
            }
            state.legal_actions(seat, &mut legal);
            let action = legal[rng.below(legal.len() as u32) as usize];
            state.apply(seat, action, 0).unwrap();
        }
    }
    (asked, differed)
}

fn check<G: Game>() {
    if G::REAL_TIME {
        // Their lowest level overlooks plays instead (`miss_rate`, RT-3).
        assert!(G::parse_bot("careless").is_err(), "{}", G::NAME);
        return;
    }
    let (asked, differed) = slips_of::<G>(40, 150);
    assert!(asked > 300, "{}: only {asked} decisions", G::NAME);
    let share = differed as f64 / asked as f64;
    // A slip can hit greedy's own move, and a lone legal move can't slip:
    // fewer than 40% differ, but far more than none.
    assert!(
        (0.08..0.42).contains(&share),
        "{}: careless:40 differed from greedy on {differed} of {asked}",
        G::NAME
    );
    let (asked, seldom) = slips_of::<G>(1, 50);
    assert!(
        (seldom as f64) < 0.05 * asked as f64,
        "{}: careless:1 differed from greedy on {seldom} of {asked}",
        G::NAME
    );
}

macro_rules! every_game {
    ($($variant:ident => $game:ty,)*) => {
        $(check::<$game>();)*
    };
}

#[test]
fn careless_bots_are_greedy_but_for_their_share_of_slips() {
    for_each_game!(every_game);
}
