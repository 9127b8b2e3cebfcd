//! `TonkState::refusal` and `TonkState::can_take_back` at every state of
//! random hands under random rule sets: for every action id, `refusal` is
//! `None` exactly when the action is legal; every refusal names a rule of
//! `docs/rules.md` and a sentence; `apply_action`'s error carries it; and
//! only legal takes, spreads and hits that leave the same player deciding
//! can be taken back.

#![allow(clippy::unwrap_used)]

use crate::common::s;
use cardtable_core::engine::Game as _;
use cardtable_core::engine::State as _;
use cardtable_core::games::tonk::{action, Action, TonkGame, TonkState};
use cardtable_core::games::OptionValue;
use std::collections::BTreeSet;

use cardtable_core::{derive_seed, CoreError, GameRng};

const RULES: &str = include_str!("../../../../docs/rules.md");

/// A random accepted rule set: every option left out or given a random
/// value; rejected combinations are drawn again.
fn random_game(rng: &mut GameRng) -> TonkGame {
    use OptionValue::{Bool, Int};
    loop {
        let pick = |rng: &mut GameRng, xs: &[&str]| s(xs[rng.below(xs.len() as u32) as usize]);
        let mut o: Vec<(String, OptionValue)> = Vec::new();
        let mut maybe = |rng: &mut GameRng, key: &str, v: OptionValue| {
            if rng.below(2) == 0 {
                o.push((key.to_string(), v));
            }
        };
        let v = pick(rng, &["pagat", "wikipedia", "texas"]);
        maybe(rng, "preset", v);
        let v = Int(i64::from(rng.below(3)) + 2);
        maybe(rng, "players", v);
        let v = if rng.below(3) == 0 {
            Int(i64::from(rng.below(10)) + 2)
        } else {
            s("by_players")
        };
        maybe(rng, "hand_size", v);
        for key in [
            "upcard",
            "low_13",
            "low_9",
            "forbid_rediscard",
            "discard_pickup_must_be_used",
            "discard_pickup_must_be_used",
            "must_spread",
            "must_spread_aces_exempt",
            "only_runs_hittable",
            "clear_completed_books",
            "spades_ace_high",
        ] {
            let v = Bool(rng.below(2) == 0);
            maybe(rng, key, v);
        }
        let v = pick(
            rng,
            &["pagat", "fifty_only", "forty_nine_in_turn", "texas", "none"],
        );
        maybe(rng, "deal_wins", v);
        let v = pick(rng, &["start_of_turn", "own_turn_any_phase", "any_time"]);
        maybe(rng, "drop_timing", v);
        let v = if rng.below(2) == 0 { s("none") } else { Int(1) };
        maybe(rng, "max_hits_per_turn", v);
        let v = pick(rng, &["low", "low_or_high"]);
        maybe(rng, "ace_in_runs", v);
        let v = Int(i64::from(rng.below(4)));
        maybe(rng, "hit_lock_per_hit", v);
        let v = pick(rng, &["per_card", "per_turn"]);
        maybe(rng, "hit_lock_unit", v);
        let v = pick(rng, &["any", "new_spread", "whole_hand_one_turn"]);
        maybe(rng, "tonk_double_requires", v);
        let v = pick(rng, &["when_needed", "immediately"]);
        maybe(rng, "stock_out_end", v);
        let v = pick(rng, &["off", "responder", "tonker"]);
        maybe(rng, "double_double", v);
        let v = Int(i64::from(rng.below(2)) + 1);
        maybe(rng, "spades_bet", v);
        let v = Int(i64::from(rng.below(3)) + 1);
        maybe(rng, "max_idle_rounds", v);
        o.sort_by_key(|(k, _)| k != "preset");
        o.dedup_by(|a, b| a.0 == b.0);
        if let Ok(g) = TonkGame::from_options(&o) {
            return g;
        }
    }
}

/// Is `rule` an ID that `docs/rules.md` defines?
fn defined(rule: &str) -> bool {
    RULES.contains(&format!("**{rule}**")) || RULES.contains(&format!("### {rule} "))
}

/// Checks every action id at one state; adds the rules that refused to `rules`.
fn check_state(
    st: &TonkState,
    ctx: &dyn Fn() -> String,
    rules: &mut BTreeSet<&'static str>,
) -> usize {
    let mut refused = 0;
    for a in 0..action::COUNT {
        let act = Action::decode(a).unwrap();
        let legal = st.is_legal(a);
        let r = st.refusal(act);
        assert_eq!(
            r.is_none(),
            legal,
            "refusal({act}) = {r:?} but is_legal = {legal}: {}",
            ctx()
        );
        if let Some(r) = &r {
            refused += 1;
            if rules.insert(r.rule) {
                assert!(defined(r.rule), "{act}: {r:?} names no rule: {}", ctx());
            }
            assert!(r.reason.len() > 10 && !r.reason.ends_with('.'), "{r:?}");
        }
        let back = st.can_take_back(act);
        if back {
            assert!(legal, "{act} may be taken back but is illegal: {}", ctx());
            assert!(
                matches!(
                    act,
                    Action::TakeDiscard | Action::LaySpread(_) | Action::Hit { .. }
                ),
                "{act} taken back: {}",
                ctx()
            );
            let mut c = st.clone();
            let p = st.current_player();
            c.apply_action(a).unwrap();
            assert!(!c.is_terminal(), "{act} ends the hand: {}", ctx());
            assert_eq!(c.current_player(), p, "{act}: {}", ctx());
        }
    }
    refused
}

#[test]
fn refusal_is_none_exactly_when_legal_at_every_state_of_random_hands() {
    use rayon::prelude::*;
    let (states, refused, rules) = (0..200u64)
        .into_par_iter()
        .map(|set| {
            let mut rng = GameRng::new(derive_seed(13, set));
            let g = random_game(&mut rng);
            let mut states = 0;
            let mut refused = 0;
            let mut rules = BTreeSet::new();
            for h in 0..3u64 {
                let seed = derive_seed(set, h);
                let mut st = g.deal(seed, None).unwrap();
                let mut steps = 0;
                loop {
                    let ctx = || format!("{} seed {seed} history {:?}", g.config, st.history());
                    refused += check_state(&st, &ctx, &mut rules);
                    states += 1;
                    if st.is_terminal() {
                        break;
                    }
                    let legal = st.legal_actions();
                    // The error of an illegal action carries its refusal.
                    let bad = (rng.below(u32::from(action::COUNT))) as u16;
                    if !st.is_legal(bad) {
                        let act = Action::decode(bad).unwrap();
                        let want = format!("{act} is not legal now: {}", st.refusal(act).unwrap());
                        match st.clone().apply_action(bad) {
                            Err(CoreError::IllegalAction(m)) => assert_eq!(m, want),
                            other => panic!("{act}: {other:?}"),
                        }
                    }
                    // Take the discard when possible, drop seldom.
                    let mut a = legal[rng.below(legal.len() as u32) as usize];
                    if legal.contains(&action::TAKE_DISCARD) && rng.below(2) == 0 {
                        a = action::TAKE_DISCARD;
                    }
                    if a == action::DROP && legal.len() > 1 && rng.below(30) != 0 {
                        a = *legal.iter().find(|&&x| x != action::DROP).unwrap();
                    }
                    st.apply_action(a).unwrap();
                    steps += 1;
                    assert!(steps < 5000);
                }
            }
            (states, refused, rules)
        })
        .reduce(
            || (0, 0, BTreeSet::new()),
            |mut x, y| {
                x.2.extend(y.2);
                (x.0 + y.0, x.1 + y.1, x.2)
            },
        );
    // Random play reaches the refusals of every rule but the rarest.
    for rule in [
        "TK-5.4", "TK-6.3", "TK-6.4", "TK-6.5", "TK-6.7", "TK-6.8", "TK-6.9", "TK-6.10", "TK-7.3",
        "TK-7.6", "TK-8.1", "TK-8.4", "TK-8.6", "TK-9.3", "TK-10", "TK-11.3",
    ] {
        assert!(rules.contains(rule), "no {rule} refusal in {rules:?}");
    }
    assert!(
        !rules.contains("TK-13"),
        "an illegal action without its own refusal"
    );
    assert!(states > 20_000, "only {states} states");
    assert!(refused > states * 1000);
}

#[test]
fn every_refusal_rule_id_is_defined_in_the_rules() {
    // The rule IDs the refusals use, each a heading or a bold rule ID.
    for rule in [
        "TK-5.4", "TK-6.3", "TK-6.4", "TK-6.5", "TK-6.7", "TK-6.8", "TK-6.9", "TK-6.10", "TK-7.3",
        "TK-7.6", "TK-8.1", "TK-8.4", "TK-8.6", "TK-9.3", "TK-10", "TK-11.3", "TK-13",
    ] {
        assert!(defined(rule), "{rule}");
    }
    assert!(!defined("TK-99"));
}
