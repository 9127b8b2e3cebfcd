//! The wild-free fast path and the general search must return the same
//! arrangement (not only the same deadwood): both follow the documented
//! tie-break, so any difference is a bug in one of them.

#![allow(clippy::unwrap_used)]

use crate::common;

use cardtable_core::meld::{AceMode, FaceValues, MeldRules};
use cardtable_core::{format_hand, Card, GameRng, Solver};

fn random_hand(rng: &mut GameRng, k: usize, pool: &[u8]) -> Vec<Card> {
    let mut p = pool.to_vec();
    rng.shuffle(&mut p);
    p[..k]
        .iter()
        .map(|&c| Card::from_code(c).unwrap())
        .collect()
}

#[test]
fn fast_path_equals_general_search() {
    let mut rng = GameRng::new(2024);
    let mut high = MeldRules::gin();
    high.aces = AceMode::HighOrLow;
    let mut faces = MeldRules::tonk();
    faces.face_values = FaceValues::Rank;
    let all: Vec<u8> = (0..52).collect();
    // Meld-dense pool: five ranks (including the ace-high corner) in three suits.
    let dense: Vec<u8> = [0u8, 1, 2]
        .iter()
        .flat_map(|&s| [0u8, 9, 10, 11, 12].map(|r| s * 13 + r))
        .collect();
    let mut solver = Solver::new();
    let mut checked = 0;
    for rules in [MeldRules::gin(), high, faces] {
        for pool in [&all, &dense] {
            for k in 3..=13usize.min(pool.len()) {
                for _ in 0..150 {
                    let hand = random_hand(&mut rng, k, pool);
                    let rr = rules.resolve(k).unwrap();
                    let fast = solver.solve(&hand, &rules).unwrap();
                    let general = solver.solve_general(&hand, &rr, false);
                    assert_eq!(fast, general, "{} under {rules}", format_hand(&hand));
                    common::check_arrangement(&hand, &fast, &rules);
                    let rr1 = rules.resolve(k - 1).unwrap();
                    let fast_d = solver.best_discard(&hand, &rules).unwrap();
                    let general_d = solver.solve_general(&hand, &rr1, true);
                    assert_eq!(
                        fast_d,
                        general_d,
                        "discard {} under {rules}",
                        format_hand(&hand)
                    );
                    common::check_arrangement(&hand, &fast_d, &rules);
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 5000);
}

#[test]
fn three_thirteen_hands_without_wild_cards_take_the_fast_path_unchanged() {
    // Two decks but no duplicate and no wild-rank card: both paths agree.
    let mut rng = GameRng::new(7);
    let rules = MeldRules::three_thirteen();
    let mut solver = Solver::new();
    for k in 3..=13usize {
        let wild = rules.wild_rank_for(k).unwrap().unwrap();
        let pool: Vec<u8> = (0..52u8).filter(|c| c % 13 + 1 != wild).collect();
        for _ in 0..200 {
            let hand = random_hand(&mut rng, k, &pool);
            let rr = rules.resolve(k).unwrap();
            assert_eq!(
                solver.solve(&hand, &rules).unwrap(),
                solver.solve_general(&hand, &rr, false)
            );
        }
    }
}
