//! TK-6.9 and TK-6.10 under adversarial random play: every combination of
//! the pickup-related flags (`discard_pickup_must_be_used`,
//! `forbid_rediscard`, `max_hits_per_turn`, `must_spread`, `drop_timing`),
//! each with random other rules (hit locks, `only_runs_hittable`,
//! `clear_completed_books`, `whole_hand_one_turn`, ace high, hand sizes,
//! player counts). The players always take the discard when they may, try
//! to throw the taken card back, drop while holding it, and spend their
//! spreads and hits on other cards first. The test tracks each turn from the
//! actions alone and asserts:
//!
//! - `discard_pickup_must_be_used` (TK-6.10): no turn that took the discard
//!   ends, by the taker's own action, with that card discarded or still in
//!   hand (the hand may still end by another player's drop in a TK-6.8
//!   window, which is not the taker's doing);
//! - `forbid_rediscard` (TK-6.9): the taken card is never the turn's discard
//!   unless it was the only card in hand;
//! - no reachable state is a dead end: until the hand is over some action is
//!   legal, and every listed action is legal.

#![allow(clippy::unwrap_used)]

use crate::common::s;
use cardtable_core::engine::Game as _;
use cardtable_core::engine::State as _;
use cardtable_core::games::tonk::{action, spread_catalogue, Action, Ending, TonkGame, TonkState};
use cardtable_core::games::OptionValue;
use cardtable_core::{derive_seed, Card, GameRng};
use OptionValue::{Bool, Int};

fn bit(c: Card) -> u64 {
    1u64 << c.code()
}

/// The pickup-related flags, every combination.
#[derive(Debug, Clone, Copy)]
struct Flags {
    must_use: bool,
    forbid_rediscard: bool,
    one_hit: bool,
    must_spread: bool,
    timing: &'static str,
}

fn every_flag_combination() -> Vec<Flags> {
    let mut v = Vec::new();
    for must_use in [false, true] {
        for forbid_rediscard in [false, true] {
            for one_hit in [false, true] {
                for must_spread in [false, true] {
                    for timing in ["start_of_turn", "own_turn_any_phase", "any_time"] {
                        v.push(Flags {
                            must_use,
                            forbid_rediscard,
                            one_hit,
                            must_spread,
                            timing,
                        });
                    }
                }
            }
        }
    }
    v
}

/// The flags with random other rules that interact with them.
fn game(f: Flags, rng: &mut GameRng) -> TonkGame {
    let players = 2 + i64::from(rng.below(3));
    let most = (52 - 2) / players;
    // Mostly the usual five cards; sometimes 2, 3 or a large hand.
    let hand = match rng.below(4) {
        0 => 2 + i64::from(rng.below(2)),
        1 => 6 + i64::from(rng.below((most - 5) as u32)),
        _ => 5,
    };
    let coin = |rng: &mut GameRng| Bool(rng.below(2) == 0);
    let mut o: Vec<(String, OptionValue)> = vec![
        ("players".into(), Int(players)),
        ("hand_size".into(), Int(hand)),
        ("discard_pickup_must_be_used".into(), Bool(f.must_use)),
        ("forbid_rediscard".into(), Bool(f.forbid_rediscard)),
        ("must_spread".into(), Bool(f.must_spread)),
        ("drop_timing".into(), s(f.timing)),
        ("only_runs_hittable".into(), coin(rng)),
        ("clear_completed_books".into(), coin(rng)),
        ("upcard".into(), Bool(rng.below(4) != 0)),
        (
            "tonk_double_requires".into(),
            s(["any", "new_spread", "whole_hand_one_turn"][rng.below(3) as usize]),
        ),
        (
            "ace_in_runs".into(),
            s(["low", "low_or_high"][rng.below(2) as usize]),
        ),
        (
            "stock_out_end".into(),
            s(["when_needed", "immediately"][rng.below(2) as usize]),
        ),
    ];
    if f.must_spread {
        o.push(("must_spread_aces_exempt".into(), coin(rng)));
    }
    // Hit locks (TK-8.4) stop drops, which the taken card also stops.
    let lock = [0, 1, 3][rng.below(3) as usize];
    o.push(("hit_lock_per_hit".into(), Int(lock)));
    if lock > 0 {
        let unit = ["per_card", "per_turn"][rng.below(2) as usize];
        o.push(("hit_lock_unit".into(), s(unit)));
    }
    if f.one_hit {
        o.push(("max_hits_per_turn".into(), Int(1)));
    }
    if rng.below(3) == 0 {
        o.push(("deal_wins".into(), s("forty_nine_in_turn")));
    }
    if rng.below(4) == 0 {
        o.push(("spades_bet".into(), Int(1)));
    }
    TonkGame::from_options(&o).unwrap_or_else(|e| panic!("{o:?}: {e}"))
}

/// An adversarial choice: take the discard whenever possible, then try to
/// leave the taken card unused (throw it back, drop, put other cards down
/// first); otherwise random, seldom dropping so hands run long.
fn choose(must_use: bool, taken: Option<Card>, legal: &[u16], rng: &mut GameRng) -> u16 {
    let has = |a: u16| legal.binary_search(&a).is_ok();
    if rng.below(8) != 0 {
        if has(action::TAKE_DISCARD) {
            return action::TAKE_DISCARD;
        }
        if let Some(t) = taken {
            let back = Action::Discard(t).encode();
            if has(back) {
                return back;
            }
            // Illegal under TK-6.10 until the card is used; elsewhere a
            // drop ends the hand, so only now and then.
            if has(action::DROP) && rng.below(if must_use { 2 } else { 10 }) == 0 {
                return action::DROP;
            }
            // Spreads and hits that do not put the taken card down.
            let other: Vec<u16> = legal
                .iter()
                .copied()
                .filter(|&a| match Action::decode(a).unwrap() {
                    Action::LaySpread(i) => spread_catalogue()[usize::from(i)].mask & bit(t) == 0,
                    Action::Hit { card, .. } => card != t,
                    _ => false,
                })
                .collect();
            if !other.is_empty() && rng.below(2) == 0 {
                return other[rng.below(other.len() as u32) as usize];
            }
        }
    }
    // Drop windows come after every action under `any_time`: seldom drop.
    let mut a = legal[rng.below(legal.len() as u32) as usize];
    if a == action::DROP && legal.len() > 1 && rng.below(200) != 0 {
        a = *legal.iter().find(|&&x| x != action::DROP).unwrap();
    }
    a
}

/// The card a turn took from the discard pile, tracked from the actions.
#[derive(Debug, Clone, Copy)]
struct Taken {
    player: u8,
    card: Card,
}

#[derive(Debug, Default)]
struct Tally {
    hands: u64,
    takes: u64,
    used: u64,
    ended_by_other_drop: u64,
    rediscard_last_card: u64,
}

/// Plays one hand and checks every turn that took the discard.
fn play_hand(g: &TonkGame, f: Flags, seed: u64, rng: &mut GameRng, tally: &mut Tally) {
    let mut st = g.deal(seed, None).unwrap();
    let mut taken: Option<Taken> = None;
    let mut steps = 0;
    let ctx = |st: &TonkState| format!("{f:?} {} seed {seed} history {:?}", g.config, st.history());
    while let Some(p) = st.current_player() {
        let legal = st.legal_actions();
        assert!(!legal.is_empty(), "dead end: {}", ctx(&st));
        for &a in &legal {
            assert!(st.is_legal(a), "listed {a} is not legal: {}", ctx(&st));
        }
        let mine = taken.filter(|t| t.player == p && st.turn_player() == p);
        let a = choose(f.must_use, mine.map(|t| t.card), &legal, rng);
        let act = Action::decode(a).unwrap();
        let hand_before = st.hand(st.turn_player());
        if act == Action::TakeDiscard {
            let top = st.top_discard().unwrap();
            taken = Some(Taken {
                player: p,
                card: top,
            });
            tally.takes += 1;
        }
        st.apply_action(a).unwrap();
        steps += 1;
        assert!(steps < 20_000, "hand does not end: {}", ctx(&st));

        let Some(t) = taken else { continue };
        let turn_discard = matches!(act, Action::Discard(_)) && p == t.player;
        if turn_discard {
            let Action::Discard(c) = act else {
                unreachable!()
            };
            if f.must_use {
                assert_ne!(
                    c,
                    t.card,
                    "TK-6.10: the taken card thrown back: {}",
                    ctx(&st)
                );
                assert!(
                    st.hand(t.player) & bit(t.card) == 0,
                    "TK-6.10: the taken card {} still in hand at the discard: {}",
                    t.card,
                    ctx(&st)
                );
                assert!(
                    st.spreads().iter().any(|s| s.cards & bit(t.card) != 0),
                    "TK-6.10: the taken card {} is in no spread: {}",
                    t.card,
                    ctx(&st)
                );
                tally.used += 1;
            }
            if f.forbid_rediscard && c == t.card {
                assert_eq!(
                    hand_before.count_ones(),
                    1,
                    "TK-6.9: the taken card {c} thrown back with other cards in hand: {}",
                    ctx(&st)
                );
                tally.rediscard_last_card += 1;
            }
            taken = None;
        } else if st.is_terminal() {
            if f.must_use && st.hand(t.player) & bit(t.card) != 0 {
                // Only another player's drop may end the turn before the
                // taken card is used.
                match st.ending() {
                    Some(Ending::Drop { player, .. }) if player != t.player => {
                        tally.ended_by_other_drop += 1;
                    }
                    e => panic!(
                        "TK-6.10: the hand ended ({e:?}) with the taken card {} unused: {}",
                        t.card,
                        ctx(&st)
                    ),
                }
            } else if f.must_use {
                tally.used += 1;
            }
            taken = None;
        }
    }
    assert!(st.ending().is_some());
    assert_eq!(st.returns().iter().sum::<i64>(), 0);
    tally.hands += 1;
}

#[test]
fn tk_6_9_tk_6_10_taken_cards_under_every_pickup_flag_combination() {
    use rayon::prelude::*;
    let combos = every_flag_combination();
    assert_eq!(combos.len(), 48);
    let tallies: Vec<(Flags, Tally)> = combos
        .par_iter()
        .enumerate()
        .map(|(i, &f)| {
            let mut rng = GameRng::new(derive_seed(6_10, i as u64));
            let mut tally = Tally::default();
            for rules in 0..60u64 {
                let g = game(f, &mut rng);
                for h in 0..8u64 {
                    let seed = derive_seed(derive_seed(i as u64, rules), h);
                    play_hand(&g, f, seed, &mut rng, &mut tally);
                }
            }
            (f, tally)
        })
        .collect();
    for (f, t) in &tallies {
        // The adversarial players reached the situations the rules govern.
        assert!(t.takes > 300, "{f:?}: only {} takes", t.takes);
        if f.must_use {
            assert!(t.used > 300, "{f:?}: only {} taken cards used", t.used);
        }
    }
    let last_card: u64 = tallies
        .iter()
        .filter(|(f, _)| f.forbid_rediscard && !f.must_use)
        .map(|(_, t)| t.rediscard_last_card)
        .sum();
    assert!(last_card > 0, "no taken card was ever the last card");
}
