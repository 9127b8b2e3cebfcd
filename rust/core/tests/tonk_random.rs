//! Random playouts of Tonk under every preset and many flag combinations
//! (OpenSpiel's RandomSimTest): legal actions sorted and non-empty until the
//! end, illegal actions rejected without change, every card in exactly one
//! place, zero-sum returns, replay equals the state, views leak nothing.

#![allow(clippy::unwrap_used)]

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
    let mut games_played = 0;
    for (ci, g) in configs().iter().enumerate() {
        for i in 0..400u64 {
            let seed = ci as u64 * 100_000 + i;
            let mut st = g.new_initial_state(seed, None).unwrap();
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
                // An illegal action is rejected and changes nothing.
                let illegal = (0..action::COUNT)
                    .find(|a| legal.binary_search(a).is_err())
                    .unwrap();
                let before = st.clone();
                assert!(st.apply_action(illegal).is_err());
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
            assert!(st.ending().is_some());
            assert_eq!(st.returns().iter().sum::<i64>(), 0, "not zero-sum");
            assert!(st.apply_action(action::DRAW_STOCK).is_err());
            let replayed = TonkState::replay(g, st.seed(), st.dealer(), st.history()).unwrap();
            assert_eq!(replayed, st, "replay differs: config {ci} seed {seed}");
            games_played += 1;
        }
    }
    assert_eq!(games_played, 400 * configs().len());
}
