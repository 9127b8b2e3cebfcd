//! Checked hands from `tests/data/*.jsonl` (shared with the Python tests):
//! the solver must reproduce every minimum deadwood, and its arrangement must
//! be a valid partition of the hand whose unmatched cards add up to it.

#![allow(clippy::unwrap_used)]

use crate::common;

use cardtable_core::meld::{classify, MeldRules};
use cardtable_core::{parse_hand, Solver};
use common::{check_arrangement, load_cases};

#[test]
fn every_golden_case_matches() {
    let cases = load_cases();
    assert!(cases.len() >= 5, "expected the five case files");
    let mut solver = Solver::new();
    let mut total = 0;
    for (file, rules, hands) in &cases {
        assert!(!hands.is_empty(), "{file} has no hands");
        for (hand_text, expected, best) in hands {
            let hand = parse_hand(hand_text).unwrap();
            let sol = solver.solve(&hand, rules).unwrap();
            assert_eq!(sol.deadwood, *expected, "{file}: {hand_text}");
            check_arrangement(&hand, &sol, rules);
            // The file's own arrangement is valid and scores the same.
            let rr = rules.resolve(hand.len()).unwrap();
            let mut used = Vec::new();
            for m in best {
                let cards = parse_hand(&m.join(" ")).unwrap();
                assert!(classify(&cards, &rr, None).is_some(), "{file}: {m:?}");
                used.extend(cards);
            }
            let mut rest = hand.clone();
            for c in used {
                let i = rest.iter().position(|&x| x == c).unwrap();
                rest.remove(i);
            }
            let dw: u32 = rest.iter().map(|&c| u32::from(rr.value(c))).sum();
            assert_eq!(dw, *expected, "{file}: listed arrangement of {hand_text}");
            total += 1;
        }
    }
    assert!(total >= 600, "only {total} cases");
}

#[test]
fn peers_11_card_trap_is_a_minimum_over_discards() {
    // peers.md §4.4: OpenSpiel's "best grouping, then drop the biggest
    // leftover" gives 12; discarding 7S and keeping both 5-6-7 runs gives 11.
    let hand = parse_hand("AS 3S 7S 5C 6C 7C 5D 2H 5H 6H 7H").unwrap();
    let sol = Solver::new()
        .best_discard(&hand, &MeldRules::gin())
        .unwrap();
    assert_eq!(sol.deadwood, 11);
    assert_eq!(sol.discard().unwrap().to_string(), "7S");
}
