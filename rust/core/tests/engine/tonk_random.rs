//! Random playouts of Tonk under every preset and many flag combinations
//! (OpenSpiel's RandomSimTest): legal actions sorted and non-empty until the
//! end, illegal actions rejected without change, every card in exactly one
//! place, zero-sum returns, replay equals the state, views leak nothing.

#![allow(clippy::unwrap_used)]

use cardtable_core::engine::record::{record_of_state, replay, Record};
use cardtable_core::engine::Game as _;
use cardtable_core::engine::State as _;
use cardtable_core::games::tonk::{action, Phase, TonkGame, TonkState};
use cardtable_core::games::OptionValue;
use cardtable_core::GameRng;

fn game(opts: &[(&str, OptionValue)]) -> TonkGame {
    let o: Vec<(String, OptionValue)> = opts
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    TonkGame::from_options(&o).unwrap()
}

fn s(v: &str) -> OptionValue {
    OptionValue::Str(v.into())
}

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

fn check_view_hides(state: &TonkState, seat: u8, rng: &mut GameRng) {
    // A state re-dealt behind `seat`'s back must look the same to `seat`.
    let other = state.determinize(seat, rng);
    assert_eq!(
        state.view(seat),
        other.view(seat),
        "view of seat {seat} depends on hidden cards"
    );
    assert_eq!(state.observation(seat), other.observation(seat));
}

#[test]
fn random_playouts_keep_every_invariant() {
    let mut rng = GameRng::new(77);
    // How the hands ended: random play must reach more than one ending, or
    // the invariants were only checked along one path.
    let mut endings = std::collections::BTreeMap::<&str, u32>::new();
    for (ci, g) in configs().iter().enumerate() {
        for i in 0..400u64 {
            let seed = ci as u64 * 100_000 + i;
            let mut st = g.deal(seed, None).unwrap();
            let mut steps = 0;
            while !st.is_terminal() {
                assert!(
                    st.card_locations_ok(),
                    "cards lost: config {ci} seed {seed}"
                );
                let legal = st.legal_actions();
                assert!(
                    !legal.is_empty(),
                    "no legal action: config {ci} seed {seed} phase {:?}",
                    st.phase()
                );
                assert!(
                    legal.windows(2).all(|w| w[0] < w[1]),
                    "legal actions not sorted"
                );
                if i % 10 == 0 {
                    for a in 0..action::COUNT {
                        assert_eq!(
                            st.is_legal(a),
                            legal.binary_search(&a).is_ok(),
                            "is_legal({a}) disagrees"
                        );
                    }
                }
                // An illegal action (any of them, or an id past the last)
                // is rejected and changes nothing.
                let illegal: Vec<u16> = (0..action::COUNT + 2)
                    .filter(|a| legal.binary_search(a).is_err())
                    .chain([u16::MAX])
                    .collect();
                let probe = illegal[rng.below(illegal.len() as u32) as usize];
                let before = st.clone();
                assert!(st.apply_action(probe).is_err(), "{probe} accepted");
                assert_eq!(before, st);
                if i % 20 == 0 {
                    for seat in 0..g.config.players {
                        check_view_hides(&st, seat, &mut rng);
                    }
                }
                // Uniform over legal actions, but dropping rarely, so hands
                // also run long (stock exhausted, hit locks, cleared books).
                let mut a = legal[rng.below(legal.len() as u32) as usize];
                if a == action::DROP && legal.len() > 1 && rng.below(20) != 0 {
                    a = *legal.iter().find(|&&x| x != action::DROP).unwrap();
                }
                st.apply_action(a).unwrap();
                steps += 1;
                assert!(steps < 5000, "hand does not end");
            }
            assert!(st.card_locations_ok());
            assert_eq!(st.phase(), Phase::Over);
            let ending = st.ending().expect("a finished hand has an ending");
            *endings.entry(ending.category()).or_default() += 1;
            assert_eq!(st.returns().iter().sum::<i64>(), 0, "not zero-sum");
            assert!(st.apply_action(action::DRAW_STOCK).is_err());
            let replayed = TonkState::replay(g, st.seed(), st.dealer(), st.history()).unwrap();
            assert_eq!(replayed, st, "replay differs: config {ci} seed {seed}");
        }
    }
    for common in ["tonk_out", "drop_won", "caught", "stock_out"] {
        assert!(
            endings.get(common).copied().unwrap_or(0) > 0,
            "no {common} ending: {endings:?}"
        );
    }
}

/// A random rule set: each option left out or given a random value, some of
/// them out of range or contradictory (the engine must reject those).
fn random_options(rng: &mut GameRng) -> Vec<(String, OptionValue)> {
    use OptionValue::{Bool, Int};
    let pick = |rng: &mut GameRng, xs: &[&str]| s(xs[rng.below(xs.len() as u32) as usize]);
    let mut o: Vec<(String, OptionValue)> = Vec::new();
    let mut maybe = |rng: &mut GameRng, key: &str, v: OptionValue| {
        if rng.below(3) == 0 {
            o.push((key.to_string(), v));
        }
    };
    let v = pick(rng, &["pagat", "wikipedia", "texas"]);
    maybe(rng, "preset", v);
    let v = Int(i64::from(rng.below(7)) + 1);
    maybe(rng, "players", v);
    let v = if rng.below(4) == 0 {
        s("by_players")
    } else {
        Int(i64::from(rng.below(27)))
    };
    maybe(rng, "hand_size", v);
    let v = pick(rng, &["ten", "eleven_twelve_thirteen"]);
    maybe(rng, "face_values", v);
    for key in [
        "upcard",
        "low_13",
        "low_9",
        "forbid_rediscard",
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
    let v = pick(rng, &["void", "all_paid"]);
    maybe(rng, "stock_out_tie", v);
    let v = pick(rng, &["when_needed", "immediately"]);
    maybe(rng, "stock_out_end", v);
    let v = pick(rng, &["pagat", "wikipedia", "texas"]);
    maybe(rng, "drop_payout", v);
    let v = pick(rng, &["off", "responder", "tonker"]);
    maybe(rng, "double_double", v);
    let v = if rng.below(2) == 0 {
        s("none")
    } else {
        Int(i64::from(rng.below(3)) + 1)
    };
    maybe(rng, "spades_bet", v);
    let v = Int(i64::from(rng.below(12)));
    maybe(rng, "max_idle_rounds", v);
    // `preset` must come first when given; the rest in any order.
    o.sort_by_key(|(k, _)| k != "preset");
    o
}

#[test]
fn every_accepted_rule_set_round_trips_through_its_options_and_records() {
    let mut rng = GameRng::new(4);
    let mut accepted = 0;
    for i in 0..4000u64 {
        let opts = random_options(&mut rng);
        let Ok(g) = TonkGame::from_options(&opts) else {
            continue;
        };
        accepted += 1;
        let again = TonkGame::from_options(&g.config.to_options())
            .unwrap_or_else(|e| panic!("{opts:?} -> {:?}: {e}", g.config.to_options()));
        assert_eq!(again, g, "{opts:?}");
        // The record of a played hand replays under the same rules.
        let mut st = g.deal(i, None).unwrap();
        while !st.is_terminal() {
            let legal = st.legal_actions();
            st.apply_action(legal[rng.below(legal.len() as u32) as usize])
                .unwrap();
        }
        let rec = record_of_state(&g, &st, vec!["random".into(); g.players()]).unwrap();
        let back = Record::from_json(&rec.to_json()).unwrap();
        assert_eq!(replay::<TonkGame>(&back).unwrap().1, st, "{opts:?}");
    }
    assert!(accepted > 1000, "only {accepted} rule sets accepted");
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
    use cardtable_core::bots::tonk::Bot;
    use cardtable_core::derive_seed;
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
