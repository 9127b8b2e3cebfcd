//! Refused moves of Spit and Speed say why, with the rule that forbids
//! them (`SpitState::refusal`, `SpeedState::refusal`): a scenario per
//! reason, and random play in which, for every action id of both seats
//! after every event, a refusal comes exactly when the action is illegal
//! and cites a rule of its own game (SP-/SD-), never a catch-all.

#![allow(clippy::unwrap_used)]

use crate::common::{cards, options};
use cardtable_core::engine::options::OptionValue;
use cardtable_core::engine::{Game, Millis, Refusal, State};
use cardtable_core::games::speed::{self, SpeedGame, SpeedState};
use cardtable_core::games::spit::{self, SpitGame, SpitState};
use cardtable_core::{Card, GameRng};
use OptionValue::{Bool, Int, Str};

/// The rule of the refusal of `text` for `seat`, and its sentence.
#[track_caller]
fn spit_why(g: &SpitGame, st: &SpitState, seat: u8, text: &str) -> (&'static str, String) {
    let a = g.string_to_action(text).unwrap();
    let Refusal { rule, reason } = st
        .refusal(seat, a)
        .unwrap_or_else(|| panic!("{text} is legal"));
    (rule, reason)
}

#[track_caller]
fn speed_why(g: &SpeedGame, st: &SpeedState, seat: u8, text: &str) -> (&'static str, String) {
    let a = g.string_to_action(text).unwrap();
    let Refusal { rule, reason } = st
        .refusal(seat, a)
        .unwrap_or_else(|| panic!("{text} is legal"));
    (rule, reason)
}

/// A Spit position: seat 0's piles (bottom first, the top face up), seat
/// 1's, spit piles L and R (top last); the other cards go to the spit
/// cards so that play goes on.
fn spit_table(g: &SpitGame, p0: &[&str], p1: &[&str], centre: [&str; 2]) -> SpitState {
    let mut l = spit::Layout::default();
    l.piles[0] = p0.iter().map(|p| cards(p)).collect();
    l.piles[1] = p1.iter().map(|p| cards(p)).collect();
    l.centre = [cards(centre[0]), cards(centre[1])];
    let used: Vec<Card> = l
        .piles
        .iter()
        .flatten()
        .flatten()
        .chain(l.centre.iter().flatten())
        .copied()
        .collect();
    let rest = crate::common::deck_without(&used);
    let half = rest.len() / 2;
    l.spit_cards = [rest[..half].to_vec(), rest[half..].to_vec()];
    g.state_from_layout(&l).unwrap()
}

#[test]
fn sp2_1_sp2_2_sp2_3_a_refused_play_flip_or_move_names_its_rule() {
    let g = SpitGame::from_options(&options(&[("auto_flip", Bool(false))])).unwrap();
    // Seat 0: 2C | (face down) JC | empty | 9H | 8S
    let st = spit_table(
        &g,
        &["2C", "4D JC", "", "9H", "8S"],
        &["KD", "", "", "", ""],
        ["7D", "TH"],
    );
    assert_eq!(st.phase(), spit::Phase::Playing);
    let (rule, why) = spit_why(&g, &st, 0, "play 1 L");
    assert_eq!(rule, "SP-2.1");
    assert_eq!(why, "the ranks are not one apart (A and K are)");
    assert_eq!(spit_why(&g, &st, 0, "play 3 L").0, "SP-2.1"); // empty pile
    assert!(spit_why(&g, &st, 0, "play 3 L")
        .1
        .contains("stock pile 3 is empty"));
    assert_eq!(spit_why(&g, &st, 0, "flip 1").0, "SP-2.2"); // face up already
    assert_eq!(spit_why(&g, &st, 0, "move 1 4").0, "SP-2.3");
    assert!(spit_why(&g, &st, 0, "move 1 4")
        .1
        .contains("position 4 is not empty"));
    assert_eq!(spit_why(&g, &st, 0, "stack 4 5").0, "SP-7.4"); // stacking is off
    assert_eq!(spit_why(&g, &st, 0, "spit").0, "SP-3.5"); // strict
    assert_eq!(spit_why(&g, &st, 0, "slap L").0, "SP-4.2");
    assert_eq!(spit_why(&g, &st, 0, "lone R").0, "SP-3.3");
    // Legal moves are never refused.
    for text in ["play 4 R", "play 5 L", "move 1 3"] {
        assert_eq!(
            st.refusal(0, g.string_to_action(text).unwrap()),
            None,
            "{text}"
        );
    }
}

#[test]
fn sp7_3_sp7_4_colour_and_equal_rank_refusals() {
    let g = SpitGame::from_options(&options(&[("alternate_colours", Bool(true))])).unwrap();
    let st = spit_table(&g, &["8D", "7H", "8S", "", ""], &["KD"], ["7D", "2C"]);
    // 8D on 7D: the rank fits, the colour does not.
    assert_eq!(spit_why(&g, &st, 0, "play 1 L").0, "SP-7.3");
    // 7H on 7D: an equal rank without equal_rank_play.
    assert_eq!(spit_why(&g, &st, 0, "play 2 L").0, "SP-7.4");
    assert_eq!(st.refusal(0, g.string_to_action("play 3 L").unwrap()), None);
}

#[test]
fn sp1_3_sp4_2_countdown_and_slap_window_refusals() {
    let g = SpitGame::from_options(&[]).unwrap();
    let st = g.deal(5, None).unwrap();
    assert_eq!(st.phase(), spit::Phase::Countdown);
    assert_eq!(spit_why(&g, &st, 0, "play 1 L").0, "SP-1.3");
    let over = SpitGame::from_options(&options(&[("max_virtual_ms", Int(2000))])).unwrap();
    let mut st = over.deal(5, None).unwrap();
    st.fire_timer(2000);
    while let Some(t) = st.next_timer() {
        st.fire_timer(t);
    }
    assert!(st.is_over());
    assert_eq!(spit_why(&over, &st, 1, "slap L").0, "SP-5.1");
}

#[test]
fn sd2_1_sd2_2_sd5_refused_plays_draws_and_joker_ranks_name_their_rule() {
    let g = SpeedGame::from_options(&options(&[
        ("jokers", Bool(true)),
        ("auto_draw", Bool(false)),
    ]))
    .unwrap();
    let l = speed::Layout {
        hands: [cards("JK 2C 7H 9D"), cards("KD QS 4C 4H 5C")],
        draw: [cards("3C 3D"), cards("3H")],
        side: [cards("5S"), cards("6S")],
        centre: [cards("7D"), cards("TH")],
    };
    let st = g.state_from_layout(&l).unwrap();
    assert_eq!(st.phase(), speed::Phase::Playing);
    let (rule, why) = speed_why(&g, &st, 0, "play 2C L");
    assert_eq!(rule, "SD-2.1");
    assert_eq!(why, "the ranks are not one apart (A and K are)");
    assert_eq!(speed_why(&g, &st, 0, "play KD L").0, "SD-2.1"); // not in the hand
    assert!(speed_why(&g, &st, 0, "play KD L")
        .1
        .contains("not in your hand"));
    assert_eq!(speed_why(&g, &st, 0, "play 7H L").0, "SD-5"); // an equal rank
    let (rule, why) = speed_why(&g, &st, 0, "play JK L as Q");
    assert_eq!(rule, "SD-5");
    assert_eq!(why, "a joker here is 6 or 8, not Q");
    assert!(speed_why(&g, &st, 0, "play JK R as 2")
        .1
        .contains("is 9 or J"));
    assert_eq!(
        speed_why(&g, &st, 1, "play JK R as 9").1,
        "you hold no joker"
    );
    // A hand of four may draw; a full one may not.
    assert_eq!(st.refusal(0, g.string_to_action("draw").unwrap()), None);
    assert_eq!(speed_why(&g, &st, 1, "draw").1, "your hand is full");
    let auto = SpeedGame::from_options(&[]).unwrap();
    let st = auto.deal(1, None).unwrap();
    assert_eq!(speed_why(&auto, &st, 0, "draw").0, "SD-1.4"); // the countdown
}

/// Plays a state at random (a random legal action of either seat, or the
/// next timer) and checks every action id of both seats after each event.
fn random_walk<S: State>(
    mut st: S,
    count: u16,
    prefix: &str,
    steps: usize,
    rng: &mut GameRng,
    refusal: impl Fn(&S, u8, u16) -> Option<Refusal>,
) -> usize {
    let mut now: Millis = 0;
    let mut checked = 0;
    let mut legal = Vec::new();
    for _ in 0..steps {
        for seat in 0..2u8 {
            for a in 0..count {
                let why = refusal(&st, seat, a);
                assert_eq!(
                    why.is_none(),
                    st.is_legal(seat, a),
                    "seat {seat} action {a}"
                );
                if let Some(w) = why {
                    assert!(w.rule.starts_with(prefix), "{} ({})", w.reason, w.rule);
                    assert!(!w.reason.is_empty());
                }
            }
        }
        checked += 1;
        if st.is_over() {
            break;
        }
        let mut moves = Vec::new();
        for seat in 0..2u8 {
            st.legal_actions(seat, &mut legal);
            moves.extend(legal.iter().map(|&a| (seat, a)));
        }
        // A phase timer now and then (the time limit only when nothing
        // else can happen).
        let timer = st.next_timer();
        let phase_timer = timer.filter(|&t| t < 600_000);
        if moves.is_empty() || rng.below(8) == 0 && phase_timer.is_some() {
            let t = timer.expect("no move and no timer: a dead end");
            now = now.max(t);
            st.fire_timer(now);
        } else {
            let &(seat, a) = rng.choose(&moves).unwrap();
            now += u64::from(rng.below(200));
            st.apply(seat, a, now).unwrap();
        }
    }
    checked
}

#[test]
fn rt5_refusals_agree_with_legality_in_random_spit_and_speed_games() {
    let mut rng = GameRng::new(25);
    let mut checked = 0;
    for i in 0..24u64 {
        let pick = |rng: &mut GameRng| rng.below(2) == 0;
        let spit = SpitGame::from_options(&options(&[
            ("auto_flip", Bool(pick(&mut rng))),
            ("stack_equal_ranks", Bool(pick(&mut rng))),
            ("alternate_colours", Bool(pick(&mut rng))),
            ("equal_rank_play", Bool(pick(&mut rng))),
            ("slap", Bool(pick(&mut rng))),
            ("stock_piles", Int(if pick(&mut rng) { 4 } else { 5 })),
            (
                "stalemate",
                Str(if pick(&mut rng) { "agreed" } else { "strict" }.into()),
            ),
        ]))
        .unwrap();
        checked += random_walk(
            spit.deal(i, None).unwrap(),
            spit::action::COUNT,
            "SP-",
            400,
            &mut rng,
            SpitState::refusal,
        );
        let speed = SpeedGame::from_options(&options(&[
            ("jokers", Bool(pick(&mut rng))),
            ("auto_draw", Bool(pick(&mut rng))),
            ("equal_rank_play", Bool(pick(&mut rng))),
        ]))
        .unwrap();
        checked += random_walk(
            speed.deal(i, None).unwrap(),
            speed::action::COUNT,
            "SD-",
            400,
            &mut rng,
            SpeedState::refusal,
        );
    }
    assert!(checked > 5_000, "{checked}");
}
