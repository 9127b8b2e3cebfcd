//! Tonk's own random play: named rule sets (every preset, flag
//! combinations, restrictive ones) played by random players that seldom
//! drop, so that hands also run long (stock exhausted, hit locks, cleared
//! books), every state checked by the generic checks (`engine_sim`), and
//! the hands reaching Tonk's common endings; and restrictive rule sets that
//! never leave a seat without a legal action.

#![allow(clippy::unwrap_used)]

use crate::common::{options, s};
use crate::engine_sim::{random_turn_based, uniform, Seen};
use cardtable_core::engine::{Game as _, State as _};
use cardtable_core::games::tonk::{action, TonkGame, TonkState};
use cardtable_core::games::OptionValue;
use cardtable_core::GameRng;

fn game(o: &[(&str, OptionValue)]) -> TonkGame {
    TonkGame::from_options(&options(o)).unwrap()
}

/// Every preset and many flag combinations.
fn configs() -> Vec<TonkGame> {
    use OptionValue::{Bool, Int};
    vec![
        game(&[]),
        game(&[("players", Int(3))]),
        game(&[("preset", s("wikipedia")), ("players", Int(3))]),
        game(&[("preset", s("texas"))]),
        game(&[("players", Int(4)), ("hand_size", s("by_players"))]),
        game(&[
            ("players", Int(2)),
            ("hand_size", s("by_players")),
            ("deal_wins", s("pagat")),
        ]),
        game(&[
            ("players", Int(3)),
            ("deal_wins", s("forty_nine_in_turn")),
            ("low_13", Bool(true)),
            ("low_9", Bool(true)),
            ("spades_bet", Int(2)),
        ]),
        game(&[
            ("must_spread", Bool(true)),
            ("forbid_rediscard", Bool(true)),
            ("max_hits_per_turn", Int(1)),
            ("clear_completed_books", Bool(true)),
            ("stock_out_end", s("immediately")),
            ("stock_out_tie", s("all_paid")),
        ]),
        game(&[
            ("drop_timing", s("own_turn_any_phase")),
            ("hit_lock_per_hit", Int(3)),
            ("hit_lock_unit", s("per_turn")),
            ("only_runs_hittable", Bool(true)),
            ("discard_pickup_must_be_used", Bool(true)),
            ("upcard", Bool(false)),
        ]),
        game(&[
            ("double_double", s("responder")),
            ("tonk_double_requires", s("new_spread")),
            ("ace_in_runs", s("low_or_high")),
            ("face_values", s("eleven_twelve_thirteen")),
        ]),
        game(&[
            ("players", Int(6)),
            ("tonk_double_requires", s("whole_hand_one_turn")),
            ("drop_payout", s("wikipedia")),
        ]),
    ]
}

/// Uniform over the legal actions, but dropping rarely.
fn patient(_: &TonkState, legal: &[u16], rng: &mut GameRng) -> u16 {
    let a = legal[rng.below(legal.len() as u32) as usize];
    if a == action::DROP && legal.len() > 1 && rng.below(20) != 0 {
        return *legal.iter().find(|&&x| x != action::DROP).unwrap();
    }
    a
}

/// Rule sets that restrict play most.
fn restrictive_configs() -> Vec<TonkGame> {
    use OptionValue::{Bool, Int};
    vec![
        game(&[("players", Int(4)), ("preset", s("wikipedia"))]),
        game(&[
            ("discard_pickup_must_be_used", Bool(true)),
            ("max_hits_per_turn", Int(1)),
            ("must_spread", Bool(true)),
            ("hand_size", Int(9)),
        ]),
        game(&[
            ("players", Int(3)),
            ("deal_wins", s("forty_nine_in_turn")),
            ("drop_timing", s("any_time")),
            ("spades_bet", Int(1)),
            ("max_idle_rounds", Int(1)),
        ]),
        game(&[("hand_size", Int(25)), ("double_double", s("tonker"))]),
    ]
}

#[test]
fn named_rule_sets_keep_every_invariant_in_long_hands() {
    let mut rng = GameRng::new(77);
    let mut seen = Seen::default();
    for (ci, g) in configs().iter().chain(&restrictive_configs()).enumerate() {
        for i in 0..40u64 {
            let policy = if i % 4 == 3 { uniform } else { patient };
            random_turn_based(g, ci as u64 * 100_000 + i, &mut rng, policy, &mut seen);
        }
    }
    // Random play must reach more than one ending, or the invariants were
    // only checked along one path.
    for common in ["tonk_out", "drop_won", "caught", "stock_out"] {
        assert!(
            seen.endings.contains_key(common),
            "no {common} ending: {seen:?}"
        );
    }
}

/// A rule set that combines the restrictive flags, with hand sizes from 2 to
/// what the deck allows.
fn restrictive_game(rng: &mut GameRng) -> TonkGame {
    use OptionValue::{Bool, Int};
    let players = 2 + rng.below(3) as i64;
    let most = (52 - 2) / players;
    let hand = 2 + i64::from(rng.below((most - 1) as u32));
    let coin = |rng: &mut GameRng| Bool(rng.below(2) == 0);
    let mut o: Vec<(String, OptionValue)> = vec![
        ("players".into(), Int(players)),
        ("hand_size".into(), Int(hand)),
        (
            "discard_pickup_must_be_used".into(),
            Bool(rng.below(4) != 0),
        ),
        ("forbid_rediscard".into(), coin(rng)),
        ("must_spread".into(), coin(rng)),
        ("only_runs_hittable".into(), coin(rng)),
        (
            "hit_lock_per_hit".into(),
            Int([0, 1, 3][rng.below(3) as usize]),
        ),
    ];
    if rng.below(4) != 0 {
        o.push(("max_hits_per_turn".into(), Int(1)));
    }
    if rng.below(2) == 0 {
        o.push(("hit_lock_unit".into(), s("per_turn")));
        o.push(("hit_lock_per_hit".into(), Int(1)));
        o.remove(6);
    }
    let timing = ["start_of_turn", "own_turn_any_phase", "any_time"][rng.below(3) as usize];
    o.push(("drop_timing".into(), s(timing)));
    if rng.below(3) == 0 {
        o.push(("deal_wins".into(), s("forty_nine_in_turn")));
    }
    if rng.below(3) == 0 {
        o.push(("clear_completed_books".into(), Bool(true)));
    }
    if rng.below(3) == 0 {
        o.push(("ace_in_runs".into(), s("low_or_high")));
    }
    if rng.below(4) == 0 {
        o.push(("stock_out_end".into(), s("immediately")));
    }
    TonkGame::from_options(&o).unwrap_or_else(|e| panic!("{o:?}: {e}"))
}

#[test]
fn restrictive_rule_sets_never_leave_a_seat_without_a_legal_action() {
    use cardtable_core::derive_seed;
    use cardtable_core::games::tonk::bots::Bot;
    use cardtable_core::games::tonk::TonkBotSpec;
    use rayon::prelude::*;
    // 100,000 hands: 2,000 rule sets, 50 hands each, played by random
    // players that seldom drop (so hands run long), by the random bot, or by
    // greedy bots.
    let steps: u64 = (0..2000u64)
        .into_par_iter()
        .map(|set| {
            let mut rng = GameRng::new(derive_seed(99, set));
            let g = restrictive_game(&mut rng);
            let mut total = 0u64;
            for h in 0..50u64 {
                let seed = derive_seed(set, h);
                let spec = if h % 5 == 0 {
                    TonkBotSpec::Random
                } else {
                    TonkBotSpec::Greedy { drop_at: None }
                };
                let patient = h % 5 >= 3;
                let mut bots: Vec<Bot> = (0..g.players() as u64)
                    .map(|p| Bot::new(spec, derive_seed(seed, p)))
                    .collect();
                let mut st = g.deal(seed, None).unwrap();
                let mut steps = 0;
                while let Some(p) = st.current_player() {
                    assert!(
                        !st.legal_actions().is_empty(),
                        "dead end: {} seed {seed} history {:?}",
                        g.config,
                        st.history()
                    );
                    let a = if patient {
                        let legal = st.legal_actions();
                        let mut a = legal[rng.below(legal.len() as u32) as usize];
                        if a == action::DROP && legal.len() > 1 && rng.below(50) != 0 {
                            a = *legal.iter().find(|&&x| x != action::DROP).unwrap();
                        }
                        a
                    } else {
                        bots[usize::from(p)].choose(st.seat_view(p)).unwrap()
                    };
                    assert!(
                        st.is_legal(a),
                        "{spec:?} chose illegal {a} ({:?}): {} seed {seed} history {:?}",
                        g.action_to_string(a),
                        g.config,
                        st.history()
                    );
                    st.apply_action(a).unwrap();
                    steps += 1;
                    assert!(
                        steps < 20_000,
                        "hand does not end: {} seed {seed}",
                        g.config
                    );
                }
                assert!(st.ending().is_some());
                assert_eq!(st.returns().iter().sum::<i64>(), 0);
                total += steps;
            }
            total
        })
        .sum();
    // Hands ran long enough to reach the restrictive situations.
    assert!(steps > 2_000_000, "only {steps} steps");
}
