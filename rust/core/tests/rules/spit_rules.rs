//! Scenario tests for the Spit rules of the specification (`docs/rules.md`
//! §3, SP-1 … SP-8, and the real-time model of §5, RT-1 … RT-13). Each test
//! is named after the rule it checks; positions are built with
//! `state_from_layout` (the cards a test does not name go under a spit pile)
//! or `state_from_cards` (layouts dealt in order).

#![allow(clippy::unwrap_used)]

use crate::common::{card, cards, options, s};
use cardtable_core::engine::options::OptionValue;
use cardtable_core::engine::realtime::{Session, TieBreak};
use cardtable_core::engine::{Applied, Controller, Decision, Game, Intent, Millis, State};
use cardtable_core::games::spit::{
    action, layout_sizes, parse_action, Action, DealEnd, Layout, Phase, SpitGame, SpitSeatView,
    SpitState, SCHEMA,
};
use cardtable_core::{Card, CoreError};
use OptionValue::{Bool, Int};

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

#[track_caller]
fn game(o: &[(&str, OptionValue)]) -> SpitGame {
    SpitGame::from_options(&options(o)).unwrap()
}

/// A mid-deal position: piles bottom first (top face up), spit cards top
/// first, spit piles bottom first; every card not named goes under spit
/// pile `fill`.
#[track_caller]
fn table(
    g: &SpitGame,
    p0: &[&str],
    p1: &[&str],
    spit: [&str; 2],
    centre: [&str; 2],
    fill: usize,
) -> SpitState {
    let mut l = Layout::default();
    l.piles[0] = p0.iter().map(|p| cards(p)).collect();
    l.piles[1] = p1.iter().map(|p| cards(p)).collect();
    l.spit_cards = [cards(spit[0]), cards(spit[1])];
    l.centre = [cards(centre[0]), cards(centre[1])];
    let used: Vec<Card> = l
        .piles
        .iter()
        .flatten()
        .flatten()
        .chain(l.spit_cards.iter().flatten())
        .chain(l.centre.iter().flatten())
        .copied()
        .collect();
    let rest = crate::common::deck_without(&used);
    l.centre[fill].splice(0..0, rest);
    g.state_from_layout(&l).unwrap()
}

fn play(pile: u8, side: u8) -> u16 {
    Action::Play { pile, side }.encode()
}

fn slap(side: u8) -> u16 {
    Action::Slap { side }.encode()
}

fn legal(st: &SpitState, seat: u8) -> Vec<u16> {
    let mut v = Vec::new();
    st.legal_actions(seat, &mut v);
    v
}

#[track_caller]
fn done(st: &mut SpitState, seat: u8, a: u16, at: Millis) {
    assert_eq!(
        st.apply(seat, a, at).unwrap(),
        Applied::Done,
        "{:?}",
        Action::decode(a)
    );
    st.audit().unwrap();
}

/// Fires every timer due up to `t`.
fn fire_until(st: &mut SpitState, t: Millis) {
    while let Some(due) = st.next_timer().filter(|&d| d <= t) {
        st.fire_timer(due);
        st.audit().unwrap();
    }
}

fn top(st: &SpitState, side: u8) -> Option<Card> {
    st.centre(side).top()
}

/// A controller that never acts (scripted sessions use `submit`).
struct Idle;

impl Controller<SpitState> for Idle {
    fn act(&mut self, _: SpitSeatView<'_>, _: Millis) -> Option<Intent> {
        None
    }
    fn next_wake(&mut self, _: SpitSeatView<'_>, _: Millis) -> Option<Millis> {
        None
    }
}

fn idle_session(g: &SpitGame, st: SpitState, seed: u64) -> Session<SpitState> {
    Session::new(
        st,
        vec![Box::new(Idle), Box::new(Idle)],
        g.session_rules(seed),
    )
}

// ---------------------------------------------------------------------------
// SP-1 Deal and layout
// ---------------------------------------------------------------------------

#[test]
fn sp1_2_layout_sizes_full_and_short() {
    assert_eq!(layout_sizes(26, 5), [1, 2, 3, 4, 5]);
    assert_eq!(layout_sizes(15, 5), [1, 2, 3, 4, 5]);
    assert_eq!(layout_sizes(12, 5), [1, 2, 3, 4, 2]);
    assert_eq!(layout_sizes(3, 5), [1, 2, 0, 0, 0]);
    assert_eq!(layout_sizes(1, 5), [1, 0, 0, 0, 0]);
    assert_eq!(layout_sizes(26, 4), [1, 2, 3, 4, 0]);
    assert_eq!(layout_sizes(7, 4), [1, 2, 3, 1, 0]);
}

#[test]
fn sp1_2_new_game_deals_15_layout_and_11_spit_cards() {
    let g = SpitGame::default();
    let st = g.new_game(5);
    st.audit().unwrap();
    for seat in 0..2 {
        assert_eq!(st.stock_count(seat), 15);
        assert_eq!(st.spit_count(seat), 11);
        for p in 0..5 {
            let pile = st.pile(seat, p);
            assert_eq!(pile.len(), p + 1);
            assert_eq!(pile.face_up().len(), 1, "only the top is face up");
        }
    }
    // SP-1.3 / RT-7: nothing moves before the countdown ends.
    assert_eq!(st.phase(), Phase::Countdown);
    assert_eq!(st.decision(), Decision::Waiting);
    assert_eq!(st.next_timer(), Some(1500));
    assert!(legal(&st, 0).is_empty() && legal(&st, 1).is_empty());
    // Deterministic per seed, different across seeds.
    assert_eq!(g.new_game(5), st);
    assert_ne!(g.new_game(6), st);
}

#[test]
fn sp1_3_first_spit_starts_each_players_pile() {
    let g = SpitGame::default();
    let mut st = g.new_game(9);
    fire_until(&mut st, 1500);
    assert_eq!(st.phase(), Phase::Playing);
    assert_eq!(st.centre(0).len(), 1);
    assert_eq!(st.centre(1).len(), 1);
    assert_eq!(st.spit_count(0), 10);
    assert_eq!(st.short_seat(), None);
}

#[test]
fn sp1_2_sp6_1_twelve_cards_make_1_2_3_4_2_and_single_pile_mode() {
    let g = SpitGame::default();
    let all: Vec<Card> = (0..52u8).map(|c| Card::from_code(c).unwrap()).collect();
    let (a, b) = all.split_at(12);
    let mut st = g.state_from_cards(a, b).unwrap();
    let sizes: Vec<usize> = (0..5).map(|p| st.pile(0, p).len()).collect();
    assert_eq!(sizes, [1, 2, 3, 4, 2]);
    assert_eq!(st.spit_count(0), 0);
    assert_eq!(st.spit_count(1), 25);
    // Dealt in order: pile 1 is the first card, pile 2's top the third.
    assert_eq!(st.pile(0, 0).top(), Some(a[0]));
    assert_eq!(st.pile(0, 1).top(), Some(a[2]));
    fire_until(&mut st, 1500);
    assert_eq!(st.short_seat(), Some(0));
    assert!(!st.centre_active(0), "S starts no pile");
    assert!(st.centre_active(1));
    assert_eq!(st.view(0).short_seat, Some(0));
    // Exactly 15 cards: a full layout but still no spit card (SP-6.1).
    let (a, b) = all.split_at(15);
    let mut st = g.state_from_cards(a, b).unwrap();
    fire_until(&mut st, 1500);
    assert_eq!(st.short_seat(), Some(0));
    // Bad card sets are refused, naming the problem.
    assert!(matches!(
        g.state_from_cards(&all[..10], &all[..42]),
        Err(CoreError::InvalidHand(_))
    ));
    assert!(matches!(
        g.state_from_cards(&all[..10], &all[10..51]),
        Err(CoreError::InvalidHand(_))
    ));
}

// ---------------------------------------------------------------------------
// SP-2 Moves
// ---------------------------------------------------------------------------

#[test]
fn sp2_1_cm3_plays_wrap_around() {
    let g = SpitGame::default();
    let mut st = table(
        &g,
        &["AS", "KD", "QC", "3C"],
        &["5H"],
        ["", ""],
        ["KC", "2D"],
        0,
    );
    let l = legal(&st, 0);
    assert!(l.contains(&play(0, 0)), "A on K");
    assert!(l.contains(&play(0, 1)), "A on 2");
    assert!(!l.contains(&play(1, 0)), "K on K (equal rank)");
    assert!(!l.contains(&play(1, 1)), "K on 2");
    assert!(l.contains(&play(2, 0)), "Q on K");
    assert!(l.contains(&play(3, 1)), "3 on 2");
    assert!(!st.is_legal(1, play(0, 0)), "5 on K");
    done(&mut st, 0, play(0, 0), 10);
    assert_eq!(top(&st, 0), Some(card("AS")));
    // K on A and 2 on A.
    assert!(st.is_legal(0, play(1, 0)));
    done(&mut st, 0, play(1, 0), 20);
    assert_eq!(top(&st, 0), Some(card("KD")));
    assert_eq!(st.history(), &[play(0, 0), play(1, 0)]);
    assert_eq!(st.now(), 20);
}

#[test]
fn sp2_2_flip_and_auto_flip() {
    let g = SpitGame::default();
    let mut st = table(&g, &["2C 6C", "KH"], &["9H"], ["", ""], ["5D", "JS"], 0);
    done(&mut st, 0, play(0, 0), 5);
    assert!(st.pile(0, 0).top_face_down());
    assert!(
        !st.is_legal(0, play(0, 0)),
        "a face-down card cannot be played"
    );
    let flip = Action::Flip { pile: 0 }.encode();
    assert!(legal(&st, 0).contains(&flip));
    done(&mut st, 0, flip, 6);
    assert_eq!(st.pile(0, 0).top(), Some(card("2C")));

    let g = game(&[("auto_flip", Bool(true))]);
    let mut st = table(&g, &["2C 6C", "KH"], &["9H"], ["", ""], ["5D", "JS"], 0);
    done(&mut st, 0, play(0, 0), 5);
    assert_eq!(st.pile(0, 0).top(), Some(card("2C")), "turned up at once");
    assert!(legal(&st, 0)
        .iter()
        .all(|&a| !matches!(Action::decode(a), Ok(Action::Flip { .. }))));
}

#[test]
fn sp2_3_move_to_a_space_only_into_an_empty_position() {
    let g = SpitGame::default();
    let st = table(
        &g,
        &["2C 9S", "KH", "", "", ""],
        &["9H"],
        ["", ""],
        ["5D", "JS"],
        0,
    );
    let mv = |f, t| Action::Move { from: f, to: t }.encode();
    let l = legal(&st, 0);
    assert!(l.contains(&mv(0, 2)) && l.contains(&mv(0, 4)));
    assert!(!l.contains(&mv(0, 1)), "pile 2 is not empty");
    assert!(st.is_productive(0, mv(0, 2)), "uncovers 2C (SP-3.1 c)");
    assert!(
        !st.is_productive(0, mv(1, 2)),
        "a lone card moved is not productive"
    );
    let mut st2 = st.clone();
    done(&mut st2, 0, mv(0, 3), 1);
    assert_eq!(st2.pile(0, 3).top(), Some(card("9S")));
    assert!(st2.pile(0, 0).top_face_down());
    // SP-2.6: seat 1 cannot touch seat 0's piles (its own pile 1 is 9H).
    assert!(!st.is_legal(1, mv(1, 2)));
}

#[test]
fn sp2_4_sp2_5_bounce_leaves_everything_unchanged() {
    let g = SpitGame::default();
    let mut st = table(&g, &["6H", "KS"], &["4D", "KC"], ["", ""], ["5C", "JD"], 0);
    done(&mut st, 0, play(0, 0), 100);
    let before = st.clone();
    assert_eq!(st.apply(1, play(0, 0), 100).unwrap(), Applied::Bounced);
    assert_eq!(st, before, "nothing changed, not even the clock");
    assert_eq!(st.fingerprint(), before.fingerprint());
    // An id that is no action is an error; so is a seat that is not one.
    assert!(matches!(
        st.apply(0, action::COUNT, 100),
        Err(CoreError::IllegalAction(_))
    ));
    assert!(matches!(
        st.apply(0, u16::MAX, 100),
        Err(CoreError::IllegalAction(_))
    ));
    assert!(matches!(
        st.apply(2, play(0, 0), 100),
        Err(CoreError::IllegalAction(_))
    ));
    assert_eq!(st, before);
}

/// RT-5, RT-6: both players hit the same pile in the same millisecond; one
/// card lands, the other bounces. Returns the seat whose card landed.
fn race(tie: &str, seed: u64) -> u8 {
    let g = game(&[("tie_break", s(tie))]);
    let st = table(&g, &["6H", "KS"], &["4D", "KC"], ["", ""], ["5C", "JD"], 0);
    let mut session = idle_session(&g, st, seed);
    assert!(session.submit(0, play(0, 0), 100).unwrap().accepted());
    assert!(session.submit(1, play(0, 0), 100).unwrap().accepted());
    session.advance_to(100).unwrap();
    let log = session.log();
    assert_eq!(log.len(), 2);
    assert!(!log[0].bounced && log[1].bounced, "{log:?}");
    assert_eq!(log[0].at, 100);
    let winner = log[0].seat;
    let want = if winner == 0 { "6H" } else { "4D" };
    assert_eq!(top(&session.state, 0), Some(card(want)));
    winner
}

#[test]
fn rt5_rt6_same_millisecond_race_one_lands_one_bounces() {
    for seed in 0..8 {
        assert_eq!(race("seat_order", seed), 0, "seat_order favours seat 0");
    }
    let coins: Vec<u8> = (0..24).map(|seed| race("seeded_coin", seed)).collect();
    let again: Vec<u8> = (0..24).map(|seed| race("seeded_coin", seed)).collect();
    assert_eq!(coins, again, "the coin is deterministic per seed");
    assert!(coins.contains(&0) && coins.contains(&1), "{coins:?}");
}

#[test]
fn rt4_one_hand_refuses_a_second_intent_in_flight_two_hands_allow_it() {
    let g = SpitGame::default();
    let st = table(&g, &["6H", "7S"], &["9D"], ["", ""], ["5C", "JD"], 0);
    let mut session = idle_session(&g, st.clone(), 1);
    assert!(session.submit(0, play(0, 0), 100).unwrap().accepted());
    assert!(
        !session.submit(0, play(1, 0), 100).unwrap().accepted(),
        "one hand busy"
    );
    let g2 = game(&[("hands", Int(2))]);
    assert_eq!(g2.session_rules(1).hands, 2);
    let mut session = idle_session(&g2, st, 1);
    assert!(session.submit(0, play(0, 0), 100).unwrap().accepted());
    assert!(session.submit(0, play(1, 0), 101).unwrap().accepted());
    session.advance_to(101).unwrap();
    assert_eq!(top(&session.state, 0), Some(card("7S")));
}

// ---------------------------------------------------------------------------
// SP-3 Stalemate and spitting
// ---------------------------------------------------------------------------

#[test]
fn sp3_1_sp3_2_stalemate_timer_then_both_spit_onto_their_own_pile() {
    let g = SpitGame::default();
    let mut st = table(&g, &["9S"], &["3H"], ["7C 8C", "TH"], ["5C", "JD"], 0);
    assert!(st.is_stalemate());
    assert_eq!(
        st.next_timer(),
        Some(700),
        "spit_delay_ms after the stalemate began"
    );
    // Moving a lone card is legal but not productive: it does not postpone the spit.
    let mv = Action::Move { from: 0, to: 3 }.encode();
    assert!(st.is_legal(0, mv) && !st.is_productive(0, mv));
    done(&mut st, 0, mv, 300);
    assert_eq!(st.next_timer(), Some(700));
    fire_until(&mut st, 699);
    assert_eq!(top(&st, 0), Some(card("5C")));
    fire_until(&mut st, 700);
    assert_eq!(top(&st, 0), Some(card("7C")), "seat 0 spits onto L");
    assert_eq!(top(&st, 1), Some(card("TH")), "seat 1 spits onto R");
    assert_eq!((st.spit_count(0), st.spit_count(1)), (1, 0));
    assert!(!st.is_stalemate(), "9S fits TH");
    assert_eq!(
        st.next_timer(),
        Some(g.config.session.max_virtual_ms),
        "spit timer cancelled"
    );
}

#[test]
fn rt8_stalemate_begins_after_a_commit_and_waiting_without_moves() {
    let g = SpitGame::default();
    let mut st = table(
        &g,
        &["6C", "9S", "KH", "2S", "3S"],
        &["3H", "8S", "KC", "9D", "3D"],
        ["7C", "8D"],
        ["5C", "JD"],
        0,
    );
    assert!(!st.is_stalemate());
    done(&mut st, 0, play(0, 0), 1000);
    assert!(st.is_stalemate());
    assert_eq!(st.next_timer(), Some(1700));
    // Seat 0 can still move a lone card into the space; seat 1 has nothing.
    assert_eq!(st.decision(), Decision::Simultaneous(0b01));
    let mut full = table(
        &g,
        &["9S", "KH", "2S", "3S", "8H"],
        &["3H", "8S", "KC", "9D", "3D"],
        ["7C", "8D"],
        ["5C", "JD"],
        0,
    );
    assert!(full.is_stalemate());
    assert_eq!(
        full.decision(),
        Decision::Waiting,
        "only the spit timer can move on"
    );
    fire_until(&mut full, 700);
    assert_eq!(top(&full, 0), Some(card("7C")));
}

#[test]
fn sp3_3_lone_spitter_chooses_a_pile_and_keeps_it() {
    let g = SpitGame::default();
    let mut st = table(&g, &["2S"], &["3H"], ["", "TH 4S"], ["5C", "JD"], 0);
    fire_until(&mut st, 700);
    assert_eq!(st.phase(), Phase::LoneChoice);
    assert_eq!(
        legal(&st, 1),
        vec![action::LONE_BASE, action::LONE_BASE + 1]
    );
    assert!(legal(&st, 0).is_empty());
    assert_eq!(st.decision(), Decision::Simultaneous(0b10));
    done(&mut st, 1, Action::Lone { side: 0 }.encode(), 800);
    assert_eq!(top(&st, 0), Some(card("TH")), "onto the chosen pile L");
    assert_eq!(st.lone_pile(), Some(0));
    assert!(st.is_stalemate());
    assert_eq!(st.next_timer(), Some(1500));
    fire_until(&mut st, 1500);
    assert_eq!(st.phase(), Phase::Playing, "no second choice");
    assert_eq!(
        top(&st, 0),
        Some(card("4S")),
        "always the same pile this deal"
    );
}

#[test]
fn sp3_3_lone_spit_pile_own_and_choice_timeout() {
    let g = game(&[("lone_spit_pile", s("own"))]);
    let mut st = table(&g, &["2S"], &["3H"], ["", "TH 4S"], ["5C", "JD"], 0);
    fire_until(&mut st, 700);
    assert_eq!(st.phase(), Phase::Playing);
    assert_eq!(top(&st, 1), Some(card("TH")), "own pile R");
    // choose, but no choice within the window: their own pile.
    let g = SpitGame::default();
    let mut st = table(&g, &["2S"], &["3H"], ["", "TH 4S"], ["5C", "JD"], 0);
    fire_until(&mut st, 700);
    assert_eq!(st.next_timer(), Some(3700));
    fire_until(&mut st, 3700);
    assert_eq!(top(&st, 1), Some(card("TH")));
    assert_eq!(st.lone_pile(), Some(1));
}

#[test]
fn sp3_5_agreed_both_spit_triggers_it_even_with_moves() {
    let strict = SpitGame::default();
    let st = table(&strict, &["6H"], &["3H"], ["7C", "8D"], ["5C", "JD"], 0);
    assert!(
        !st.is_legal(0, action::SPIT),
        "no spit action in strict mode"
    );
    let g = game(&[("stalemate", s("agreed"))]);
    let mut st = table(&g, &["6H"], &["3H"], ["7C", "8D"], ["5C", "JD"], 0);
    assert!(!st.is_stalemate());
    done(&mut st, 0, action::SPIT, 10);
    assert!(st.declared(0) && !st.is_legal(0, action::SPIT));
    assert_eq!(
        top(&st, 0),
        Some(card("5C")),
        "one declaration is not enough"
    );
    done(&mut st, 1, action::SPIT, 20);
    assert_eq!(top(&st, 0), Some(card("7C")));
    assert_eq!(top(&st, 1), Some(card("8D")));
    assert!(!st.declared(0) && !st.declared(1));
}

// ---------------------------------------------------------------------------
// SP-4 New layout: slapping and regathering
// ---------------------------------------------------------------------------

/// Seat 0 is about to empty its layout onto L (which holds the filler);
/// R holds one card.
fn about_to_empty(g: &SpitGame) -> SpitState {
    table(g, &["6C"], &["3H", "KS"], ["", "9H"], ["5C", "JD"], 0)
}

#[test]
fn sp4_1a_sp4_2_first_claim_takes_its_pile_and_regather_includes_spit_cards() {
    let g = SpitGame::default();
    let mut st = about_to_empty(&g);
    done(&mut st, 0, play(0, 0), 1000);
    assert_eq!(st.phase(), Phase::Slap);
    assert_eq!(st.deal_end(), Some(DealEnd::Emptied(0)));
    assert_eq!(st.next_timer(), Some(4000));
    assert_eq!(legal(&st, 0), vec![slap(0), slap(1)]);
    assert_eq!(legal(&st, 1), vec![slap(0), slap(1)]);
    let left = st.centre(0).len();
    done(&mut st, 1, slap(1), 1100);
    assert_eq!((st.received(1), st.received(0)), (Some(1), Some(0)));
    assert_eq!(st.phase(), Phase::Slap, "open until both claimed");
    // Seat 0 also names R: it gets the other pile anyway.
    done(&mut st, 0, slap(1), 1200);
    assert_eq!(st.phase(), Phase::Regather);
    assert_eq!(st.received(0), Some(0));
    // SP-4.3: R (1) + seat 1's stock (2) + its spit card (1).
    assert_eq!(st.gathered_count(1), 4);
    assert_eq!(st.gathered_count(0), left);
    assert_eq!(st.next_timer(), Some(2200));
    fire_until(&mut st, 2200);
    assert_eq!(st.phase(), Phase::Countdown);
    assert_eq!(st.stock_count(1), 4);
    assert_eq!(st.spit_count(1), 0);
    assert_eq!(st.stock_count(0), 15);
    assert_eq!(st.deals_played(), 2);
    fire_until(&mut st, 3700);
    assert_eq!(
        st.short_seat(),
        Some(1),
        "seat 1 now plays single-pile mode"
    );
}

#[test]
fn sp4_2_both_slap_the_same_pile_in_the_same_millisecond() {
    let g = game(&[("tie_break", s("seat_order"))]);
    let mut st = about_to_empty(&g);
    done(&mut st, 0, play(0, 0), 1000);
    let mut session = idle_session(&g, st, 3);
    assert!(session.submit(1, slap(1), 1500).unwrap().accepted());
    assert!(session.submit(0, slap(1), 1500).unwrap().accepted());
    session.advance_to(1500).unwrap();
    let log = session.log();
    assert_eq!((log[0].seat, log[0].bounced), (0, false));
    assert_eq!((log[1].seat, log[1].bounced), (1, false));
    assert_eq!(
        session.state.received(0),
        Some(1),
        "the first hand takes it"
    );
    assert_eq!(session.state.received(1), Some(0));
    assert_eq!(session.state.phase(), Phase::Regather);
}

#[test]
fn sp4_2_window_closes_and_assigns_missing_claims() {
    let g = SpitGame::default();
    let mut st = about_to_empty(&g);
    done(&mut st, 0, play(0, 0), 1000);
    fire_until(&mut st, 4000);
    assert_eq!(st.phase(), Phase::Regather);
    assert_eq!(
        st.received(0),
        Some(1),
        "nobody slapped: the emptier takes the smaller pile"
    );
    // One claim, then the close.
    let mut st = about_to_empty(&g);
    done(&mut st, 0, play(0, 0), 1000);
    done(&mut st, 0, slap(0), 1100);
    assert_eq!(st.phase(), Phase::Slap);
    fire_until(&mut st, 4000);
    assert_eq!((st.received(0), st.received(1)), (Some(0), Some(1)));
}

#[test]
fn sp4_4_without_slapping_the_emptier_chooses() {
    let g = game(&[("slap", Bool(false))]);
    let mut st = about_to_empty(&g);
    done(&mut st, 0, play(0, 0), 1000);
    assert_eq!(st.chooser(), 0);
    assert!(legal(&st, 1).is_empty(), "only the chooser picks");
    assert_eq!(st.apply(1, slap(1), 1001).unwrap(), Applied::Bounced);
    done(&mut st, 0, slap(1), 1002);
    assert_eq!(st.phase(), Phase::Regather);
    assert_eq!((st.received(0), st.received(1)), (Some(1), Some(0)));
}

#[test]
fn sp4_1b_sp4_4_stalemate_without_spit_cards_fewer_stock_cards_choose() {
    let g = game(&[("slap", Bool(false))]);
    let mut st = table(&g, &["2S", "2D"], &["3H"], ["", ""], ["5C", "JD"], 0);
    fire_until(&mut st, 700);
    assert_eq!(st.phase(), Phase::Slap);
    assert_eq!(st.deal_end(), Some(DealEnd::Stalemate));
    assert_eq!(st.chooser(), 1, "seat 1 has fewer stock cards");
    // Equal counts: a seeded coin, the same for the same position.
    let mut a = table(&g, &["2S"], &["3H"], ["", ""], ["5C", "JD"], 0);
    fire_until(&mut a, 700);
    let mut b = table(&g, &["2S"], &["3H"], ["", ""], ["5C", "JD"], 0);
    fire_until(&mut b, 700);
    assert_eq!(a.chooser(), b.chooser());
    // With slapping both may claim.
    let g = SpitGame::default();
    let mut st = table(&g, &["2S", "2D"], &["3H"], ["", ""], ["5C", "JD"], 0);
    fire_until(&mut st, 700);
    assert_eq!(legal(&st, 0), vec![slap(0), slap(1)]);
    assert_eq!(legal(&st, 1), vec![slap(0), slap(1)]);
}

// ---------------------------------------------------------------------------
// SP-5, SP-6 End of the game and single-pile mode
// ---------------------------------------------------------------------------

#[test]
fn sp6_3_short_player_empties_their_layout_and_wins() {
    let g = SpitGame::default();
    let mut st = table(&g, &["6D"], &["KS"], ["", "9H"], ["", "5C"], 1);
    assert_eq!(st.short_seat(), Some(0));
    assert!(
        !st.is_legal(0, play(0, 0)),
        "no left pile in single-pile mode"
    );
    done(&mut st, 0, play(0, 1), 50);
    assert!(st.is_over());
    assert_eq!(st.ending(), Some("single_pile_short_out"));
    assert_eq!(State::returns(&st), vec![1, -1]);
    assert_eq!(st.decision(), Decision::Terminal);
    assert!(matches!(
        st.apply(1, play(0, 1), 60),
        Err(CoreError::GameOver)
    ));
    assert_eq!(st.next_timer(), None);
}

#[test]
fn sp6_3_long_player_empties_first_short_takes_the_pile() {
    let g = SpitGame::default();
    let mut st = table(&g, &["KS", "2H"], &["4D"], ["", "9H"], ["", "5C"], 1);
    let pile = st.centre(1).len();
    done(&mut st, 1, play(0, 1), 50);
    assert_eq!(
        st.phase(),
        Phase::Regather,
        "no slap window in single-pile mode"
    );
    assert_eq!(
        st.gathered_count(0),
        pile + 1 + 2,
        "the pile and S's stock cards"
    );
    assert_eq!(st.gathered_count(1), 1, "Lg keeps only its spit cards");
    // Lg without spit cards has no cards left: it wins.
    let mut st = table(&g, &["KS", "2H"], &["4D"], ["", ""], ["", "5C"], 1);
    done(&mut st, 1, play(0, 1), 50);
    assert_eq!(st.ending(), Some("out_of_cards"));
    assert_eq!(st.winner(), Some(1));
}

#[test]
fn sp6_3_stalemate_with_lg_out_of_spit_cards() {
    let g = SpitGame::default();
    // S (seat 0) has more stock cards: S takes the pile.
    let mut st = table(&g, &["KS", "2H"], &["9D"], ["", ""], ["", "5C"], 1);
    let pile = st.centre(1).len();
    fire_until(&mut st, 700);
    assert_eq!(st.phase(), Phase::Regather);
    assert_eq!(st.gathered_count(0), pile + 2);
    // Lg has more: Lg takes it.
    let mut st = table(&g, &["KS"], &["9D", "2H"], ["", ""], ["", "5C"], 1);
    fire_until(&mut st, 700);
    assert_eq!(st.gathered_count(1), pile + 2);
    // Equal: S.
    let mut st = table(&g, &["KS"], &["9D"], ["", ""], ["", "5C"], 1);
    let pile = st.centre(1).len();
    fire_until(&mut st, 700);
    assert_eq!(st.gathered_count(0), pile + 1);
    // SP-6.2: while Lg has spit cards, only Lg spits, onto the single pile.
    let mut st = table(&g, &["KS"], &["9D"], ["", "7C 8C"], ["", "5C"], 1);
    fire_until(&mut st, 700);
    assert_eq!(top(&st, 1), Some(card("7C")));
    assert!(!st.centre_active(0));
}

#[test]
fn sp5_3_best_of_three_match() {
    let g = game(&[("match_games", Int(3))]);
    let mut st = table(&g, &["6D"], &["KS"], ["", "9H"], ["", "5C"], 1);
    done(&mut st, 0, play(0, 1), 50);
    assert!(!st.is_over());
    assert_eq!(st.wins(), [1, 0]);
    assert_eq!(st.game_index(), 1);
    assert_eq!(st.phase(), Phase::Countdown);
    assert_eq!(
        st.stock_count(0) + st.spit_count(0),
        26,
        "a fresh deck, 26 each"
    );
    assert_eq!(State::returns(&st), vec![0, 0]);
    st.audit().unwrap();
}

// ---------------------------------------------------------------------------
// SP-7 Variants
// ---------------------------------------------------------------------------

#[test]
fn sp7_1_four_stock_piles() {
    let g = game(&[("stock_piles", Int(4))]);
    let st = g.new_game(3);
    assert_eq!(st.stock_count(0), 10);
    assert_eq!(st.spit_count(0), 16);
    assert!(st.pile(0, 4).is_empty());
    let st = table(
        &g,
        &["9S", "KH", "2S", "2H"],
        &["3H", "8S", "KC", "7D"],
        ["7C", "8D"],
        ["5C", "JD"],
        0,
    );
    assert!(
        !st.is_legal(0, Action::Move { from: 0, to: 4 }.encode()),
        "no fifth position"
    );
    assert_eq!(st.decision(), Decision::Waiting);
}

#[test]
fn sp7_3_alternate_colours() {
    let g = game(&[("alternate_colours", Bool(true))]);
    let st = table(&g, &["6S", "4H"], &["3H"], ["", ""], ["5C", "JD"], 0);
    assert!(!st.is_legal(0, play(0, 0)), "black on black");
    assert!(st.is_legal(0, play(1, 0)), "red on black");
    let plain = SpitGame::default();
    let st = table(&plain, &["6S", "4H"], &["3H"], ["", ""], ["5C", "JD"], 0);
    assert!(st.is_legal(0, play(0, 0)));
}

#[test]
fn sp7_4_equal_rank_play() {
    let st = table(
        &SpitGame::default(),
        &["5D"],
        &["3H"],
        ["", ""],
        ["5C", "JD"],
        0,
    );
    assert!(!st.is_legal(0, play(0, 0)));
    let g = game(&[("equal_rank_play", Bool(true))]);
    let st = table(&g, &["5D"], &["3H"], ["", ""], ["5C", "JD"], 0);
    assert!(st.is_legal(0, play(0, 0)));
}

#[test]
fn sp7_4_stack_equal_ranks() {
    let stack = |f, t| Action::Stack { from: f, to: t }.encode();
    let st = table(
        &SpitGame::default(),
        &["2C 9S", "9H"],
        &["3H"],
        ["", ""],
        ["5C", "JD"],
        0,
    );
    assert!(!st.is_legal(0, stack(0, 1)));
    let g = game(&[("stack_equal_ranks", Bool(true))]);
    let mut st = table(
        &g,
        &["2C 9S", "9H", "4D", "KC", "QS"],
        &["3H"],
        ["", ""],
        ["5C", "JD"],
        0,
    );
    assert!(st.is_legal(0, stack(0, 1)) && st.is_legal(0, stack(1, 0)));
    assert!(
        st.is_productive(0, stack(0, 1)),
        "uncovers the face-down 2C (SP-3.1 d)"
    );
    assert!(!st.is_productive(0, stack(1, 0)), "uncovers nothing");
    assert!(!st.is_stalemate());
    done(&mut st, 0, stack(0, 1), 10);
    assert_eq!(st.pile(0, 1).face_up(), &cards("9H 9S")[..]);
    assert!(st.pile(0, 0).top_face_down());
}

#[test]
fn sp7_4_merge_equal_at_setup() {
    let g = game(&[("merge_equal_at_setup", Bool(true))]);
    // Seat 0 deals 9S | 3C 9H | 4C 5C 6C | ...: pile 2's 9H goes onto pile 1.
    let mut mine = cards("9S 3C 9H 4C 5C 6C 7D 8D TD JD QD KD AD 2D");
    let rest = crate::common::deck_without(&mine);
    let (more, theirs) = rest.split_at(12);
    mine.extend_from_slice(more);
    let st = g.state_from_cards(&mine, theirs).unwrap();
    assert_eq!(st.pile(0, 0).face_up(), &cards("9S 9H")[..]);
    assert_eq!(
        st.pile(0, 1).top(),
        Some(card("3C")),
        "the uncovered card turned up"
    );
    let tops: Vec<u8> = (0..5)
        .filter_map(|p| st.pile(0, p).top())
        .map(|c| c.rank())
        .collect();
    let mut uniq = tops.clone();
    uniq.sort_unstable();
    uniq.dedup();
    assert_eq!(uniq.len(), tops.len(), "all tops differ");
    st.audit().unwrap();
}

// ---------------------------------------------------------------------------
// RT-12 guards, RT-6 / RT-4 session rules
// ---------------------------------------------------------------------------

#[test]
fn rt12_max_deals_and_time_limit_end_undecided() {
    let g = game(&[("max_deals", Int(1))]);
    let mut st = about_to_empty(&g);
    done(&mut st, 0, play(0, 0), 1000);
    fire_until(&mut st, 10_000);
    assert_eq!(st.ending(), Some("max_deals"));
    assert_eq!(State::returns(&st), vec![0, 0]);
    let g = game(&[("max_virtual_ms", Int(5000))]);
    let mut st = g.new_game(1);
    fire_until(&mut st, 4999);
    assert!(!st.is_over());
    assert_eq!(st.next_timer().map(|t| t <= 5000), Some(true));
    fire_until(&mut st, 5000);
    assert_eq!(st.ending(), Some("time_limit"));
    assert_eq!(State::returns(&st), vec![0, 0]);
    assert_eq!(g.session_rules(1).max_virtual_ms, 5000);
}

#[test]
fn rt6_session_rules_follow_the_options() {
    let g = game(&[("tie_break", s("alternate")), ("hands", Int(2))]);
    let r = g.session_rules(42);
    assert_eq!(r.tie_break, TieBreak::Alternate);
    assert_eq!(r.hands, 2);
    assert_eq!(r.tie_seed, cardtable_core::derive_seed(42, 200));
    assert_eq!(
        SpitGame::default().session_rules(1).tie_break,
        TieBreak::SeededCoin
    );
}

// ---------------------------------------------------------------------------
// Options, actions, the engine contract
// ---------------------------------------------------------------------------

#[test]
fn options_round_trip_and_errors_name_the_option() {
    let g = game(&[
        ("stock_piles", Int(4)),
        ("slap", s("no")),
        ("lone_spit_pile", s("OWN")),
        ("match_games", Int(5)),
    ]);
    assert_eq!(SpitGame::from_options(&g.config.to_options()).unwrap(), g);
    assert_eq!(SCHEMA.options.len(), g.config.to_options().len());
    for spec in SCHEMA.options {
        assert!(
            !spec.help.is_empty() && !spec.rule.is_empty(),
            "{}",
            spec.name
        );
    }
    for (o, name) in [
        (("match_games", Int(2)), "match_games"),
        (("stock_piles", Int(6)), "stock_piles"),
        (("hands", Int(3)), "hands"),
        (("lone_spit_pile", s("left")), "lone_spit_pile"),
        (("stalemate", s("loose")), "stalemate"),
        (("tie_break", s("coin")), "tie_break"),
        (("spit_delay_ms", Int(-1)), "spit_delay_ms"),
        (("max_deals", Int(0)), "max_deals"),
        (("spit.slap", Bool(true)), "spit.slap"),
    ] {
        let given = vec![(o.0.to_string(), o.1.clone())];
        match SpitGame::from_options(&given) {
            Err(CoreError::InvalidConfig {
                option: Some(n),
                message,
            }) => {
                assert_eq!(n, name, "{message}");
                assert!(message.contains(name), "{message}");
            }
            other => panic!("{o:?}: {other:?}"),
        }
    }
}

#[test]
fn sp8_action_text_round_trips_over_every_id() {
    let g = SpitGame::default();
    assert_eq!(g.num_distinct_actions(), 70);
    for a in 0..action::COUNT {
        let text = g.action_to_string(a).unwrap();
        assert_eq!(g.string_to_action(&text).unwrap(), a, "{text}");
        assert_eq!(Action::decode(a).unwrap().encode(), a);
    }
    assert_eq!(g.action_to_string(0).unwrap(), "play 1 L");
    assert_eq!(g.action_to_string(5).unwrap(), "play 3 R");
    assert_eq!(g.string_to_action(" PLAY 3 right ").unwrap(), 5);
    assert_eq!(g.action_to_string(action::SPIT).unwrap(), "spit");
    assert_eq!(g.string_to_action("slap R").unwrap(), action::SLAP_BASE + 1);
    assert_eq!(g.string_to_action("lone l").unwrap(), action::LONE_BASE);
    assert_eq!(
        g.string_to_action("move 1 4").unwrap(),
        action::MOVE_BASE + 3
    );
    assert!(g.action_to_string(action::COUNT).is_err());
    for (text, token) in [
        ("play 6 L", "\"6\""),
        ("play 1 X", "\"X\""),
        ("jump 1", "\"jump\""),
        ("flip", "\"flip\""),
        ("spit now", "\"now\""),
        ("", "empty"),
    ] {
        match parse_action(text) {
            Err(CoreError::IllegalAction(m)) => assert!(m.contains(token), "{text}: {m}"),
            other => panic!("{text}: {other:?}"),
        }
    }
}

#[test]
fn bots_parse_and_name() {
    let spec = SpitGame::parse_bot("smart:hard").unwrap();
    assert_eq!(SpitGame::bot_name(&spec), "smart:hard");
    assert_eq!(
        SpitGame::bot_name(&SpitGame::parse_bot("instant").unwrap()),
        "plain:instant"
    );
    assert!(SpitGame::parse_bot("clever").is_err());
    assert!(SpitGame::default().bot("plain:instant", 1).is_ok());
}

#[test]
fn views_show_counts_of_hidden_cards_only() {
    let g = SpitGame::default();
    let mut st = g.new_game(11);
    fire_until(&mut st, 1500);
    let v = st.view(0);
    assert_eq!(v.spit_cards, [10, 10]);
    assert_eq!(v.piles[1][4].face_down, 4);
    assert_eq!(v.piles[1][4].face_up.len(), 1);
    assert_eq!(v.centre[0].len(), 1);
    let mut rng = cardtable_core::GameRng::new(3);
    let d = st.determinize(0, &mut rng);
    assert_eq!(d.view(0), v);
    assert_ne!(d, st, "hidden cards were re-dealt");
    assert_eq!(
        d.deal_source(),
        cardtable_core::engine::DealSource::Unrecordable
    );
    assert_eq!(
        st.deal_source(),
        cardtable_core::engine::DealSource::Seed(11)
    );
    assert_eq!(
        st.observation(0).len(),
        cardtable_core::games::spit::OBSERVATION_SIZE
    );
    assert_eq!(
        SpitGame::ending_categories(),
        &[
            "out_of_cards",
            "single_pile_short_out",
            "max_deals",
            "time_limit"
        ]
    );
}

/// SP-1.1 / SP-5.1: the cards a seat must still shed start at 26, and the
/// winner of a game the bots play out has none left (a learner's progress
/// reward is their change).
#[test]
fn sp5_1_cards_left_counts_what_a_seat_must_still_shed() {
    let g = game(&[]);
    for seed in 0..4 {
        let st = g.deal(seed, None).unwrap();
        assert_eq!(State::cards_left(&st, 0), Some(26));
        assert_eq!(State::cards_left(&st, 1), Some(26));
        let bots = vec![
            g.bot("smart:hard", seed).unwrap(),
            g.bot("smart:easy", seed).unwrap(),
        ];
        let mut session = Session::new(st, bots, g.session_rules(seed));
        session.run().unwrap();
        let end = &session.state;
        if !matches!(end.ending(), Some("out_of_cards" | "single_pile_short_out")) {
            continue; // a guard ended it
        }
        let winner = (0..2).find(|&s| end.won(s)).unwrap();
        assert_eq!(State::cards_left(end, winner), Some(0));
        assert!(State::cards_left(end, 1 - winner).unwrap() > 0);
        return;
    }
    panic!("no game of four was won");
}

#[test]
fn the_rules_summary_follows_the_options() {
    let text = |g: &SpitGame| -> String {
        Game::rules_summary(g)
            .iter()
            .map(|p| format!("{} ({}): {}", p.title, p.rule, p.text))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let plain = text(&game(&[]));
    assert!(plain.contains("Goal (SP-5.1)"), "{plain}");
    assert!(plain.contains("5 stock piles of 1 to 5 cards (15 cards"));
    assert!(plain.contains("slap a spit pile"));
    assert!(!plain.contains("other colour") && !plain.contains("Match (SP-5.3)"));
    let varied = text(&game(&[
        ("stock_piles", Int(4)),
        ("alternate_colours", Bool(true)),
        ("slap", Bool(false)),
        ("stalemate", s("agreed")),
        ("match_games", Int(3)),
    ]));
    assert!(
        varied.contains("4 stock piles of 1 to 4 cards (10 cards"),
        "{varied}"
    );
    assert!(varied.contains("of the other colour (SP-7.3)"));
    assert!(varied.contains("chooses a spit pile"));
    assert!(varied.contains("as soon as both players press spit"));
    assert!(varied.contains("Match (SP-5.3): best of 3 games."));
}
