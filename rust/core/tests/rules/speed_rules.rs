//! Scenario tests for the Speed rules of the specification (`docs/rules.md`
//! §4, SD-1 … SD-6) and the real-time model it runs on (§5, RT-5 … RT-12).
//! Each test is named after the rule it checks; positions are stacked with
//! `SpeedGame::state_from_layout` so every card is known, and conflicts are
//! driven through `engine::realtime::Session` with `submit`.

#![allow(clippy::unwrap_used)]

use crate::common::{card, cards, config_error, options, s};
use cardtable_core::engine::options::OptionValue;
use cardtable_core::engine::realtime::Session;
use cardtable_core::engine::{
    Applied, Controller, DealSource, Decision, Game, Intent, Millis, State,
};
use cardtable_core::games::speed::bots;
use cardtable_core::games::speed::{
    action, parse_action, Action, DealEnd, Layout, Phase, SpeedGame, SpeedSeatView, SpeedState,
    SCHEMA, WILD_TOP,
};
use cardtable_core::{Card, CoreError, GameRng};
use OptionValue::{Bool, Int};

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

#[track_caller]
fn game(o: &[(&str, OptionValue)]) -> SpeedGame {
    SpeedGame::from_options(&options(o)).unwrap_or_else(|e| panic!("{o:?}: {e}"))
}

/// Hands, draw piles (top first), side piles (top first), centre piles
/// (bottom first, top last).
#[track_caller]
fn layout(
    g: &SpeedGame,
    hands: [&str; 2],
    draw: [&str; 2],
    side: [&str; 2],
    centre: [&str; 2],
) -> SpeedState {
    let l = Layout {
        hands: hands.map(cards),
        draw: draw.map(cards),
        side: side.map(cards),
        centre: centre.map(cards),
    };
    let st = g.state_from_layout(&l).unwrap_or_else(|e| panic!("{e}"));
    st.audit().unwrap();
    st
}

#[track_caller]
fn id(g: &SpeedGame, text: &str) -> u16 {
    g.string_to_action(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn texts(g: &SpeedGame, st: &SpeedState, seat: u8) -> Vec<String> {
    let mut v = Vec::new();
    st.legal_actions(seat, &mut v);
    v.iter().map(|&a| g.action_to_string(a).unwrap()).collect()
}

#[track_caller]
fn play(g: &SpeedGame, st: &mut SpeedState, seat: u8, text: &str, now: Millis) {
    assert_eq!(
        st.apply(seat, id(g, text), now).unwrap(),
        Applied::Done,
        "{text}"
    );
    st.audit().unwrap();
}

/// A controller that never acts: the test submits for it.
struct Idle;

impl Controller<SpeedState> for Idle {
    fn act(&mut self, _: SpeedSeatView<'_>, _: Millis) -> Option<Intent> {
        None
    }
    fn next_wake(&mut self, _: SpeedSeatView<'_>, _: Millis) -> Option<Millis> {
        None
    }
}

fn idle_session(g: &SpeedGame, st: SpeedState, seed: u64) -> Session<SpeedState> {
    Session::new(
        st,
        vec![Box::new(Idle), Box::new(Idle)],
        g.session_rules(seed),
    )
}

/// Fires every engine timer until the game is over (nobody plays).
fn fire_until_over(st: &mut SpeedState, limit: usize) -> usize {
    let mut n = 0;
    while let Some(t) = st.next_timer() {
        st.fire_timer(t);
        st.audit().unwrap();
        n += 1;
        assert!(n < limit, "no end after {limit} timers");
    }
    n
}

// ---------------------------------------------------------------------------
// SD-1 Deal, countdown
// ---------------------------------------------------------------------------

#[test]
fn sd1_2_deal_sizes_default_and_five() {
    for (size, draw) in [(10usize, 10usize), (5, 15)] {
        let g = game(&[("side_pile_size", Int(size as i64))]);
        let st = g.new_game(7);
        st.audit().unwrap();
        for p in 0..2 {
            assert_eq!(st.side_pile(p).len(), size);
            assert_eq!(st.centre_pile(p).len(), 1);
            assert_eq!(st.hand_len(p), 5, "SD-1.3");
            assert_eq!(st.draw_pile(p).len(), draw);
        }
        assert_eq!(st.deal_source(), DealSource::Seed(7));
        assert_eq!(st.dealer(), 0);
    }
    let g = game(&[("jokers", Bool(true))]);
    let st = g.new_game(7);
    st.audit().unwrap();
    assert_eq!(st.draw_pile(0).len() + st.hand_len(0), 16);
}

#[test]
fn sd1_4_countdown_then_both_centre_cards_turn_up() {
    let g = game(&[]);
    let mut st = g.new_game(3);
    assert_eq!(st.phase(), Phase::Countdown);
    assert_eq!(st.decision(), Decision::Waiting);
    assert_eq!(st.next_timer(), Some(1500));
    assert_eq!(st.centre_top(0), None, "face down until the turn-up");
    let mut legal = Vec::new();
    for seat in 0..2 {
        st.legal_actions(seat, &mut legal);
        assert!(legal.is_empty());
    }
    // RT-5: a valid id before the turn-up bounces and changes nothing.
    let before = st.clone();
    assert_eq!(st.apply(0, 0, 100).unwrap(), Applied::Bounced);
    assert_eq!(st, before);
    st.fire_timer(1499);
    assert_eq!(st, before, "not due yet");
    st.fire_timer(1500);
    st.audit().unwrap();
    assert_ne!(st.phase(), Phase::Countdown);
    for p in 0..2 {
        assert_eq!(st.centre_top(p), st.centre_pile(p).last().copied());
    }
    // Same seed, same deal (CM-6).
    assert_eq!(g.new_game(3), g.new_game(3).clone());
    assert_ne!(g.new_game(3).hand(0), g.new_game(4).hand(0));
}

#[test]
fn rt5_errors_out_of_range_wrong_seat_and_game_over() {
    let g = game(&[]);
    let mut st = layout(&g, ["7H 2C", "5S"], ["", ""], ["", ""], ["6D", "KC"]);
    assert!(matches!(
        st.apply(0, action::COUNT, 0),
        Err(CoreError::IllegalAction(_))
    ));
    assert!(matches!(
        st.apply(0, u16::MAX, 0),
        Err(CoreError::IllegalAction(_))
    ));
    assert!(matches!(
        st.apply(2, 0, 0),
        Err(CoreError::IllegalAction(_))
    ));
    let mut legal = Vec::new();
    st.legal_actions(2, &mut legal);
    assert!(legal.is_empty());
    play(&g, &mut st, 1, "play 5S L", 10);
    assert_eq!(st.decision(), Decision::Terminal);
    assert!(matches!(st.apply(0, 0, 20), Err(CoreError::GameOver)));
}

// ---------------------------------------------------------------------------
// SD-2 Play
// ---------------------------------------------------------------------------

#[test]
fn cm3_wrap_around_plays() {
    let g = game(&[]);
    let st = layout(
        &g,
        ["AS 2C QH 3D 5C", "9H 9C 9D 9S 5H"],
        ["", ""],
        ["", ""],
        ["KD", "AH"],
    );
    // Left top K: A and Q fit (A wraps); right top A: K would, 2 fits.
    assert_eq!(
        texts(&g, &st, 0),
        ["play 2C R", "play QH L", "play AS L"],
        "sorted by id: card code x 2 + pile"
    );
    assert!(texts(&g, &st, 1).is_empty());
    assert_eq!(st.decision(), Decision::Simultaneous(0b01));
    let mut st2 = st.clone();
    play(&g, &mut st2, 0, "play AS L", 5);
    assert_eq!(st2.centre_top(0), Some(card("AS")));
    assert_eq!(st2.top_rank(0), 1);
    // A on K, now K on A would fit, and 2 on A.
    assert!(st2.is_legal(0, id(&g, "play 2C L")));
    assert!(
        !st2.is_legal(0, id(&g, "play 3D L")),
        "suits and colours never matter, ranks do"
    );
    assert_eq!(st2.history(), &[id(&g, "play AS L")]);
    assert_eq!(st2.now(), 5);
}

#[test]
fn sd2_2_auto_draw_refills_the_same_slot() {
    let g = game(&[]);
    let mut st = layout(
        &g,
        ["2C 7H 9C 9D 9S", "5H 5S 5D 5C JH"],
        ["4D 3S", "QD"],
        ["", ""],
        ["6D", "KC"],
    );
    play(&g, &mut st, 0, "play 7H L", 1);
    assert_eq!(
        st.hand_slots(0),
        [
            Some(card("2C")),
            Some(card("4D")),
            Some(card("9C")),
            Some(card("9D")),
            Some(card("9S"))
        ]
    );
    assert_eq!(st.draw_pile(0), &[card("3S")]);
    let mut legal = Vec::new();
    st.legal_actions(0, &mut legal);
    assert!(
        !legal.contains(&action::DRAW),
        "no draw action with auto_draw"
    );
}

#[test]
fn sd2_2_manual_draw_is_an_action_while_the_hand_is_short() {
    let g = game(&[("auto_draw", Bool(false))]);
    let mut st = layout(
        &g,
        ["2C 7H 9C 9D 9S", "5H 5S 5D 5C JH"],
        ["4D 3S", "QD"],
        ["TS", "TH"],
        ["6D", "KC"],
    );
    assert!(!st.is_legal(0, action::DRAW), "a full hand cannot draw");
    play(&g, &mut st, 0, "play 7H L", 1);
    assert_eq!(st.hand_len(0), 4);
    assert_eq!(st.hand_slots(0)[1], None);
    // Nobody can play now (8? no; tops 7 and K), but seat 0's hand is not
    // full: no stalemate (SD-3.1) while it can draw.
    assert_eq!(st.phase(), Phase::Playing);
    assert_eq!(texts(&g, &st, 0), ["draw"]);
    assert_eq!(st.decision(), Decision::Simultaneous(0b01));
    play(&g, &mut st, 0, "draw", 2);
    assert_eq!(st.hand_slots(0)[1], Some(card("4D")), "the first free slot");
    assert_eq!(st.phase(), Phase::Stalemate);
    assert_eq!(st.next_timer(), Some(2 + 700));
    assert!(!st.is_legal(0, action::DRAW));
}

#[test]
fn sd2_2_manual_draw_an_empty_hand_with_a_draw_pile_has_not_won() {
    let g = game(&[("auto_draw", Bool(false))]);
    let mut st = layout(&g, ["7H", "TH TS"], ["8D", ""], ["", ""], ["6D", "KC"]);
    play(&g, &mut st, 0, "play 7H L", 1);
    assert!(!st.is_over(), "the draw pile still holds a card (SD-4.1)");
    assert_eq!(texts(&g, &st, 0), ["draw"]);
    play(&g, &mut st, 0, "draw", 2);
    play(&g, &mut st, 0, "play 8D L", 3);
    assert_eq!(st.ending(), Some("emptied"));
}

#[test]
fn sd5_equal_rank_play() {
    let hands = ["7H 9C 9D 9S 2C", "5H 5S 5D 5C JH"];
    let off = game(&[]);
    let st = layout(&off, hands, ["", ""], ["", ""], ["7D", "KC"]);
    assert!(!st.is_legal(0, id(&off, "play 7H L")));
    let on = game(&[("equal_rank_play", Bool(true))]);
    let mut st = layout(&on, hands, ["", ""], ["", ""], ["7D", "KC"]);
    assert!(st.is_legal(0, id(&on, "play 7H L")));
    play(&on, &mut st, 0, "play 7H L", 1);
    assert_eq!(st.top_rank(0), 7);
}

#[test]
fn sd5_jokers_take_the_rank_they_are_played_as() {
    let g = game(&[("jokers", Bool(true))]);
    let mut st = layout(
        &g,
        ["JK 9C 9D 9S 2C", "5H 5S 5D 5C JH"],
        ["", ""],
        ["", ""],
        ["7D", "KC"],
    );
    let t = texts(&g, &st, 0);
    for want in [
        "play JK L as 6",
        "play JK L as 8",
        "play JK R as Q",
        "play JK R as A",
    ] {
        assert!(t.contains(&want.to_string()), "{want} in {t:?}");
    }
    assert!(!t.contains(&"play JK L as 7".to_string()));
    assert!(!st.is_legal(0, id(&g, "play JK L as 9")));
    play(&g, &mut st, 0, "play JK L as 8", 1);
    assert_eq!(st.centre_top(0), Some(Card::JOKER));
    assert_eq!(st.top_rank(0), 8);
    assert!(
        st.is_legal(0, id(&g, "play 9C L")),
        "9 on a joker played as 8"
    );
    // Without jokers the ids exist but are never legal.
    let plain = game(&[]);
    let st = layout(&plain, ["9C", "5H"], ["", ""], ["", ""], ["8D", "KC"]);
    assert!(!st.is_legal(0, id(&plain, "play JK L as 9")));
    assert!(SpeedGame::from_options(&[])
        .unwrap()
        .state_from_layout(&Layout {
            hands: [cards("JK"), cards("5H")],
            centre: [cards("8D"), cards("KC")],
            ..Layout::default()
        })
        .is_err());
}

#[test]
fn sd5_a_joker_turned_up_is_wild() {
    let g = game(&[("jokers", Bool(true))]);
    // A stalemate: 9s and 5s fit neither 2 nor J.
    let mut st = layout(
        &g,
        ["9C 9D 9S 9H", "5H 5S 5D 5C"],
        ["", ""],
        ["JK", "3H"],
        ["2D", "JC"],
    );
    assert_eq!(st.phase(), Phase::Stalemate);
    st.fire_timer(700);
    st.audit().unwrap();
    assert_eq!(st.top_rank(0), WILD_TOP);
    assert!(st.is_legal(0, id(&g, "play 9C L")));
    assert!(st.is_legal(1, id(&g, "play 5H L")));
    let mut g2 = st.clone();
    play(&g, &mut g2, 1, "play 5H L", 701);
    assert_eq!(g2.top_rank(0), 5);
}

// ---------------------------------------------------------------------------
// RT-5 / RT-6 conflicts through the session
// ---------------------------------------------------------------------------

/// Both seats hit the left pile (top 7) in the same millisecond: 8H and 6C
/// both fit now, but whichever lands first makes the other illegal.
fn conflict(g: &SpeedGame, seed: u64) -> (u8, Session<SpeedState>) {
    let st = layout(
        g,
        ["8H 2C 2D 2S 2H", "6C TC TD TS TH"],
        ["3C", "3D"],
        ["", ""],
        ["7D", "5S"],
    );
    let mut sess = idle_session(g, st, seed);
    assert!(sess.submit(0, id(g, "play 8H L"), 40).unwrap().accepted());
    assert!(sess.submit(1, id(g, "play 6C L"), 40).unwrap().accepted());
    assert!(
        !sess.submit(1, id(g, "play 6C L"), 40).unwrap().accepted(),
        "RT-4: one hand each"
    );
    sess.advance_to(40).unwrap();
    let log = sess.log().to_vec();
    assert_eq!(log.len(), 2);
    assert_eq!(log.iter().filter(|c| c.bounced).count(), 1, "{log:?}");
    assert!(log.iter().all(|c| c.at == 40));
    let winner = log[0].seat;
    assert!(!log[0].bounced && log[1].bounced);
    assert_eq!(
        sess.state.history().len(),
        1,
        "a bounce is not in the history"
    );
    sess.state.audit().unwrap();
    // The bounced card is still in its hand.
    let loser_card = if winner == 0 { card("6C") } else { card("8H") };
    assert!(sess.state.hand(1 - winner).contains(&loser_card));
    (winner, sess)
}

#[test]
fn rt5_sd2_3_same_pile_same_millisecond_one_lands_one_bounces() {
    let coin = game(&[]);
    let mut winners = [0; 2];
    for seed in 0..40 {
        let (w, a) = conflict(&coin, seed);
        let (w2, b) = conflict(&coin, seed);
        assert_eq!(w, w2, "seeded_coin is deterministic per seed");
        assert_eq!(a.event_hash(), b.event_hash());
        assert_eq!(a.state.fingerprint(), b.state.fingerprint());
        winners[usize::from(w)] += 1;
    }
    assert!(
        winners[0] > 5 && winners[1] > 5,
        "the coin favours nobody: {winners:?}"
    );
    let order = game(&[("tie_break", s("seat_order"))]);
    for seed in 0..10 {
        assert_eq!(conflict(&order, seed).0, 0, "seat_order: seat 0 first");
    }
}

#[test]
fn rt6_alternate_tie_break_alternates_between_conflicts() {
    let g = game(&[("tie_break", s("alternate"))]);
    let st = layout(
        &g,
        ["8H 8C 2D 2S 2H", "6C 6D TD TS TH"],
        ["3C", "3D"],
        ["", ""],
        ["7D", "7S"],
    );
    let mut sess = idle_session(&g, st, 1);
    sess.submit(0, id(&g, "play 8H L"), 10).unwrap();
    sess.submit(1, id(&g, "play 6C L"), 10).unwrap();
    sess.advance_to(10).unwrap();
    sess.submit(0, id(&g, "play 8C R"), 20).unwrap();
    sess.submit(1, id(&g, "play 6D R"), 20).unwrap();
    sess.advance_to(20).unwrap();
    let firsts: Vec<u8> = sess
        .log()
        .iter()
        .filter(|c| !c.bounced)
        .map(|c| c.seat)
        .collect();
    assert_eq!(firsts.len(), 2, "{:?}", sess.log());
    assert_ne!(
        firsts[0],
        firsts[1],
        "priority alternates: {:?}",
        sess.log()
    );
}

// ---------------------------------------------------------------------------
// SD-3 Stalemate
// ---------------------------------------------------------------------------

#[test]
fn sd3_1_sd3_2_stalemate_flips_both_side_piles() {
    let g = game(&[]);
    // 9s and 5s fit neither 2 nor J: a stalemate at once.
    let st = layout(
        &g,
        ["9C 9D 9S 9H 2C", "5H 5S 5D 5C 2H"],
        ["", ""],
        ["4C 3S", "8D QD"],
        ["2D", "JC"],
    );
    assert_eq!(st.phase(), Phase::Stalemate);
    assert_eq!(st.decision(), Decision::Waiting);
    assert_eq!(
        st.next_timer(),
        Some(700),
        "RT-8: flip_delay_ms after the stalemate"
    );
    let mut sess = idle_session(&g, st, 0);
    sess.advance_to(699).unwrap();
    assert_eq!(sess.state.flips(), 0);
    sess.advance_to(700).unwrap();
    let st = &sess.state;
    st.audit().unwrap();
    assert_eq!(st.flips(), 1);
    assert_eq!(
        st.centre_top(0),
        Some(card("4C")),
        "left side pile onto the left pile"
    );
    assert_eq!(st.centre_top(1), Some(card("8D")), "right onto right");
    assert_eq!(st.side_pile(0), &[card("3S")]);
    // 5 on 4 fits now: play resumes.
    assert_eq!(st.phase(), Phase::Playing);
    assert_eq!(
        st.decision(),
        Decision::Simultaneous(0b11),
        "9 on 8, 5 on 4"
    );
    assert_eq!(
        st.next_timer(),
        Some(3_600_000),
        "only the time limit is left"
    );
}

#[test]
fn sd3_2_a_flip_that_leaves_a_stalemate_flips_again() {
    let g = game(&[]);
    let mut st = layout(
        &g,
        ["9C 9D 9S 9H", "5H 5S 5D 5C"],
        ["", ""],
        ["3S 4C", "QD 8D"],
        ["2D", "JC"],
    );
    st.fire_timer(700);
    assert_eq!(
        (st.phase(), st.next_timer()),
        (Phase::Stalemate, Some(1400)),
        "3 and Q fit nothing"
    );
    st.fire_timer(1400);
    assert_eq!(st.phase(), Phase::Playing);
    assert_eq!(st.flips(), 2);
}

#[test]
fn sd3_3_only_the_non_empty_side_pile_flips() {
    let g = game(&[]);
    let mut st = layout(
        &g,
        ["9C 9D 9S 9H", "5H 5S 5D 5C"],
        ["", ""],
        ["", "4C"],
        ["2D", "JC"],
    );
    st.fire_timer(700);
    st.audit().unwrap();
    assert_eq!(
        st.centre_top(0),
        Some(card("2D")),
        "the left pile keeps its top"
    );
    assert_eq!(st.centre_top(1), Some(card("4C")));
    assert_eq!(st.flips(), 1);
}

#[test]
fn sd3_4_recycle_merged() {
    let g = game(&[]);
    let st = layout(
        &g,
        ["9C 9D 9S 9H", "5H 5S 5D 5C"],
        ["", ""],
        ["", ""],
        ["3C 3D 3H 2D", "QC QD JC"],
    );
    let mut a = st.clone();
    a.fire_timer(700);
    a.audit().unwrap();
    // 5 cards under the tops, shuffled and dealt alternately: 3 left, 2
    // right; both flip at once (one card each).
    assert_eq!(a.centre_pile(0).len(), 2);
    assert_eq!(a.centre_pile(1).len(), 2);
    assert_eq!(a.side_pile(0).len() + a.side_pile(1).len(), 3);
    assert_eq!(a.side_pile(0).len(), 2);
    assert_eq!(
        a.centre_pile(0)[0],
        card("2D"),
        "each pile keeps its top at the bottom"
    );
    assert_eq!(a.centre_pile(1)[0], card("JC"));
    assert_eq!(a.recycles(), 1);
    assert_eq!(
        a.passes_since_play(),
        2,
        "the layout's own pass, then this one"
    );
    let mut under: Vec<Card> = a
        .side_pile(0)
        .iter()
        .chain(a.side_pile(1))
        .copied()
        .collect();
    under.push(a.centre_pile(0)[1]);
    under.push(a.centre_pile(1)[1]);
    under.sort();
    let mut want = cards("3C 3D 3H QC QD");
    want.sort();
    assert_eq!(
        under, want,
        "the merged pool is both piles' cards under their tops"
    );
    let mut b = st.clone();
    b.fire_timer(700);
    assert_eq!(a, b, "the recycle shuffle is seeded");
}

#[test]
fn sd3_4_recycle_per_pile() {
    let g = game(&[("recycle", s("per_pile"))]);
    let mut st = layout(
        &g,
        ["9C 9D 9S 9H", "5H 5S 5D 5C"],
        ["", ""],
        ["", ""],
        ["3C 3D 3H 2D", "JC"],
    );
    st.fire_timer(700);
    st.audit().unwrap();
    // The left pile's three cards went to the left side pile (one flipped);
    // the right pile had nothing under its top: only the left flips (SD-3.3).
    assert_eq!(st.centre_pile(1), &[card("JC")]);
    assert_eq!(st.centre_pile(0).len(), 2);
    assert_eq!(st.side_pile(0).len(), 2);
    assert!(st.side_pile(1).is_empty());
    let mut left: Vec<Card> = st.side_pile(0).to_vec();
    left.push(st.centre_pile(0)[1]);
    left.sort();
    assert_eq!(left, cards("3C 3D 3H"));
}

#[test]
fn sd3_5_deadlock_guard_nothing_to_recycle() {
    let g = game(&[]);
    let mut st = layout(
        &g,
        ["9C 9D 9S 9H", "5H 5S 5D"],
        ["", ""],
        ["", ""],
        ["2D", "JC"],
    );
    assert_eq!(st.phase(), Phase::Stalemate);
    st.fire_timer(700);
    assert!(st.is_over());
    assert_eq!(st.ending(), Some("deadlock"));
    assert_eq!(st.returns(), vec![-1, 1], "fewer cards win");
    let d = st.last_deal().unwrap();
    assert_eq!(
        (d.end, d.winner, d.cards_left),
        (DealEnd::Deadlock, Some(1), [4, 3])
    );
    let mut draw = layout(
        &g,
        ["9C 9D 9S", "5H 5S 5D"],
        ["", ""],
        ["", ""],
        ["2D", "JC"],
    );
    draw.fire_timer(700);
    assert_eq!(draw.ending(), Some("draw"));
    assert_eq!(draw.returns(), vec![0, 0]);
}

/// SD-3.5: "two complete passes through the side piles with no card
/// played" end the deal. With no card ever played, the dealt side piles are
/// the first pass and one recycle the second: a second recycle is one pass
/// too many.
#[test]
fn sd3_5_deadlock_guard_two_passes_without_a_play() {
    let g = game(&[]);
    // Sevens and kings fit none of 2 3 4 T J: nothing ever plays.
    let mut st = layout(
        &g,
        ["7C 7D 7H 7S", "KC KD KH"],
        ["", ""],
        ["2C 3C", "TC"],
        ["4C", "JC"],
    );
    assert_eq!(st.phase(), Phase::Stalemate);
    assert_eq!(st.passes_since_play(), 1, "the dealt side piles");
    let timers = fire_until_over(&mut st, 100);
    assert_eq!(st.ending(), Some("deadlock"));
    assert_eq!(st.recycles(), 1, "one recycle, then the guard");
    assert_eq!(st.passes_since_play(), 2);
    // Pass 1: 2C+TC, 3C (2 flips); the recycle takes 4C 2C (left) and JC
    // (right) under the tops: 2 flips; then the guard.
    assert_eq!(st.flips(), 4);
    assert_eq!(timers, 5);
    assert_eq!(st.returns(), vec![-1, 1]);
    // Side piles that were empty from the start are a pass too: one
    // recycle of the three cards under the tops, then the guard.
    let mut st = layout(
        &g,
        ["7C 7D 7H 7S", "KC KD KH"],
        ["", ""],
        ["", ""],
        ["2C 3C 4C", "TC JC"],
    );
    fire_until_over(&mut st, 100);
    assert_eq!((st.ending(), st.recycles()), (Some("deadlock"), 1));
}

#[test]
fn sd3_5_a_play_resets_the_pass_count() {
    let g = game(&[]);
    let mut st = layout(
        &g,
        ["7C 7D 7H 7S", "KC KD KH 5S"],
        ["", ""],
        ["", ""],
        ["2C 3C 4C", "TC JC"],
    );
    // 5 on 4: seat 1 can play at once.
    assert_eq!(st.decision(), Decision::Simultaneous(0b10));
    play(&g, &mut st, 1, "play 5S L", 10);
    assert_eq!(st.phase(), Phase::Stalemate);
    assert_eq!(st.passes_since_play(), 0);
    fire_until_over(&mut st, 100);
    assert_eq!(st.ending(), Some("deadlock"));
    // The pass the card was played in is not a pass without a play: two
    // whole passes through recycled side piles follow it.
    assert_eq!(st.recycles(), 2);
    assert_eq!(st.returns(), vec![-1, 1]);
}

// ---------------------------------------------------------------------------
// SD-4 Winning and scoring
// ---------------------------------------------------------------------------

#[test]
fn sd4_1_emptying_hand_and_draw_pile_wins() {
    let g = game(&[]);
    let mut st = layout(&g, ["7H", "5H 5S"], ["", "3C"], ["", ""], ["6D", "KC"]);
    play(&g, &mut st, 0, "play 7H L", 10);
    assert!(st.is_over());
    assert_eq!(st.decision(), Decision::Terminal);
    assert_eq!(st.ending(), Some("emptied"));
    assert_eq!(st.returns(), vec![1, -1]);
    assert!(st.won(0) && !st.won(1));
    assert_eq!(st.next_timer(), None);
}

#[test]
fn sd4_2_scoring_counts_hand_and_draw_pile() {
    let lay = |g: &SpeedGame| {
        layout(
            g,
            ["7H", "5H 5S 5D"],
            ["", "3C 3D 3H 3S"],
            ["", ""],
            ["6D", "KC"],
        )
    };
    // 3 in hand + 4 in the draw pile = 7 points; the target 25 is not
    // reached, so a new deal starts with its countdown.
    let g = game(&[("scoring", Bool(true))]);
    let mut st = lay(&g);
    play(&g, &mut st, 0, "play 7H L", 10);
    assert_eq!(st.scores(), [7, 0]);
    assert_eq!(st.phase(), Phase::Countdown);
    assert_eq!(st.decision(), Decision::Waiting);
    assert_eq!(st.deal_index(), 1);
    assert_eq!(
        st.next_timer(),
        Some(10 + 1500),
        "between deals: the countdown"
    );
    assert_eq!(st.hand_len(0), 5, "dealt again");
    assert_eq!(st.deal_wins(), [1, 0]);
    assert!(st.removed().is_empty(), "a new deal has the whole deck");
    st.audit().unwrap();
    // The draw pile only (the literal reading).
    let g = game(&[("scoring", Bool(true)), ("score_counts_hand", Bool(false))]);
    let mut st = lay(&g);
    play(&g, &mut st, 0, "play 7H L", 10);
    assert_eq!(st.scores(), [4, 0]);
    // Reaching the target ends the match: returns are the point difference.
    let g = game(&[("scoring", Bool(true)), ("target_score", Int(5))]);
    let mut st = lay(&g);
    play(&g, &mut st, 0, "play 7H L", 10);
    assert!(st.is_over());
    assert_eq!(st.returns(), vec![7, -7]);
    assert_eq!(st.ending(), Some("emptied"));
}

/// SD-4.2: "the winner scores 1 point for each card the opponent has not
/// played" whatever won the deal: a deal the deadlock guard (SD-3.5)
/// decides scores the loser's cards, not the difference of the counts.
#[test]
fn sd4_2_a_deadlock_scores_the_cards_the_loser_has_not_played() {
    let lay = |g: &SpeedGame| {
        layout(
            g,
            ["9C 9D 9S 9H 8C", "5H 5S"],
            ["8D", ""],
            ["", ""],
            ["2D", "JC"],
        )
    };
    let g = game(&[("scoring", Bool(true)), ("target_score", Int(1))]);
    let mut st = lay(&g);
    st.fire_timer(700);
    assert_eq!(st.ending(), Some("deadlock"));
    let d = st.last_deal().unwrap();
    assert_eq!((d.winner, d.cards_left), (Some(1), [6, 2]));
    assert_eq!(
        st.scores(),
        [0, 6],
        "seat 0's 5 in hand and 1 in the draw pile"
    );
    assert_eq!(st.returns(), vec![-6, 6]);
    // Only the draw pile counts with score_counts_hand = false.
    let g = game(&[
        ("scoring", Bool(true)),
        ("target_score", Int(1)),
        ("score_counts_hand", Bool(false)),
    ]);
    let mut st = lay(&g);
    st.fire_timer(700);
    assert_eq!(st.scores(), [0, 1]);
}

/// Two instant bots play the game to its end.
fn run_bots(g: &SpeedGame, seed: u64, specs: [&str; 2]) -> Session<SpeedState> {
    let bots: Vec<Box<dyn Controller<SpeedState>>> = specs
        .iter()
        .enumerate()
        .map(|(i, sp)| g.bot(sp, 1000 + seed * 2 + i as u64).unwrap())
        .collect();
    let mut sess = Session::new(g.deal(seed, None).unwrap(), bots, g.session_rules(seed));
    assert!(
        sess.run().unwrap(),
        "seed {seed}: the game ended on its own"
    );
    sess
}

#[test]
fn sd4_2_best_of_3_and_target_matches() {
    let g = game(&[("match", s("best_of_3"))]);
    let mut saw_three = false;
    // Normal timing: with instant bots seat 0 always looks first (the
    // session orders same-millisecond wake-ups by seat) and wins every deal.
    for seed in 0..20 {
        let st = run_bots(&g, seed, ["plain:normal", "smart:normal"]).state;
        let w = st.deal_wins();
        assert_eq!(w.iter().max(), Some(&2), "{w:?}");
        assert_eq!(
            st.returns(),
            if w[0] == 2 { vec![1, -1] } else { vec![-1, 1] }
        );
        saw_three |= w[0] + w[1] == 3;
    }
    assert!(saw_three, "some matches need a third deal");
    let g = game(&[("scoring", Bool(true))]);
    for seed in 0..10 {
        let st = run_bots(&g, seed, ["plain:instant", "smart:instant"]).state;
        let sc = st.scores();
        assert!(
            sc.iter().any(|&x| x >= 25) && sc.iter().any(|&x| x < 25),
            "{sc:?}"
        );
        assert_eq!(st.returns(), vec![sc[0] - sc[1], sc[1] - sc[0]]);
    }
}

// ---------------------------------------------------------------------------
// RT-12 guards
// ---------------------------------------------------------------------------

#[test]
fn rt12_time_limit_ends_the_game_in_the_state() {
    let g = game(&[("max_virtual_ms", Int(1600))]);
    let mut st = layout(
        &g,
        ["7H 8C 9C 2C", "5H 5S"],
        ["", ""],
        ["", ""],
        ["6D", "KC"],
    );
    assert_eq!(st.next_timer(), Some(1600));
    st.fire_timer(1600);
    assert_eq!(st.ending(), Some("time_limit"));
    assert_eq!(
        st.returns(),
        vec![-1, 1],
        "decided as by the deadlock guard"
    );
    assert_eq!(st.last_deal().unwrap().end, DealEnd::TimeLimit);
    // Through the session, with bots that never act.
    let st = g.new_game(1);
    let mut sess = idle_session(&g, st, 1);
    assert!(sess.run().unwrap());
    assert_eq!(sess.state.ending(), Some("time_limit"));
}

#[test]
fn rt12_time_limit_during_a_countdown_keeps_the_new_deal_face_down() {
    let g = game(&[("scoring", Bool(true)), ("max_virtual_ms", Int(1501))]);
    let mut st = layout(&g, ["7H", "5H 5S"], ["", "3C"], ["", ""], ["6D", "KC"]);
    play(&g, &mut st, 0, "play 7H L", 10);
    assert_eq!(
        (st.phase(), st.next_timer()),
        (Phase::Countdown, Some(1501))
    );
    st.fire_timer(1501);
    st.audit().unwrap();
    assert_eq!(st.ending(), Some("time_limit"));
    assert_eq!(st.returns(), vec![3, -3], "the standing: 3 points to 0");
    assert_eq!(st.view(1).centre_top, [None, None]);
}

#[test]
fn rt12_max_deals_guard() {
    let g = game(&[
        ("scoring", Bool(true)),
        ("target_score", Int(1000)),
        ("max_deals", Int(2)),
    ]);
    let st = run_bots(&g, 5, ["plain:instant", "plain:instant"]).state;
    assert_eq!(st.ending(), Some("max_deals"));
    assert_eq!(st.deal_index(), 1);
    let sc = st.scores();
    assert_eq!(st.returns(), vec![sc[0] - sc[1], sc[1] - sc[0]]);
}

// ---------------------------------------------------------------------------
// Options, actions, views, bots
// ---------------------------------------------------------------------------

#[test]
fn options_validate_and_errors_name_the_option() {
    for (o, option, says) in [
        (
            vec![("side_pile_size", Int(21))],
            "side_pile_size",
            "1 to 20",
        ),
        (
            vec![("recycle", s("random"))],
            "recycle",
            "merged, per_pile",
        ),
        (
            vec![("match", s("best_of_5"))],
            "match",
            "target, best_of_3",
        ),
        (vec![("tie_break", s("coin"))], "tie_break", "seeded_coin"),
        (vec![("auto_draw", Int(3))], "auto_draw", "true or false"),
        (vec![("target_score", Int(0))], "target_score", "1 to 1000"),
        (
            vec![("flip_delay_ms", Int(-1))],
            "flip_delay_ms",
            "0 to 60000",
        ),
        (vec![("max_deals", Int(0))], "max_deals", "1 to 50000"),
        (
            vec![("colour", Bool(true))],
            "colour",
            "unknown Speed option",
        ),
        (
            vec![("max_virtual_ms", Int(1500))],
            "max_virtual_ms",
            "must exceed start_countdown_ms",
        ),
        (
            vec![("jokers", Bool(true)), ("jokers", Bool(false))],
            "jokers",
            "given twice",
        ),
    ] {
        let (named, message) = config_error::<SpeedGame>(&o);
        assert_eq!(named.as_deref(), Some(option), "{message}");
        assert!(message.contains(says), "{o:?}: {message}");
    }
    assert_eq!(SCHEMA.options.len(), 16);
    for spec in SCHEMA.options {
        assert!(spec.rule.starts_with("SD-") || spec.rule.starts_with("RT-"));
        assert!(!spec.help.is_empty());
    }
    // Every configuration survives to_options → from_options.
    let g = game(&[
        ("side_pile_size", Int(5)),
        ("recycle", s("per-pile")),
        ("match", s("bo3")),
        ("tie_break", s("alternate")),
        ("jokers", s("yes")),
        ("max_virtual_ms", Int(90_000)),
    ]);
    let back = SpeedGame::from_options(&g.to_options()).unwrap();
    assert_eq!(g, back);
    assert_eq!(
        SpeedGame::from_options(&game(&[]).to_options()).unwrap(),
        game(&[])
    );
    let rules = g.session_rules(9);
    assert_eq!((rules.hands, rules.max_virtual_ms), (1, 90_000));
    assert_eq!(
        rules.tie_break,
        cardtable_core::engine::realtime::TieBreak::Alternate
    );
    assert_eq!(
        <SpeedGame as Game>::ending_categories(),
        &["emptied", "deadlock", "draw", "time_limit", "max_deals"]
    );
}

#[test]
fn sd6_action_text_round_trips_over_every_id() {
    let g = game(&[]);
    assert_eq!(g.num_distinct_actions(), usize::from(action::COUNT));
    for a in 0..action::COUNT {
        let t = g.action_to_string(a).unwrap();
        assert_eq!(g.string_to_action(&t).unwrap(), a, "{t}");
        assert_eq!(g.string_to_action(&t.to_lowercase()).unwrap(), a, "{t}");
        assert_eq!(Action::decode(a).unwrap().encode(), a);
    }
    assert!(g.action_to_string(action::COUNT).is_err());
    assert_eq!(id(&g, "play 10h left"), id(&g, "play TH L"));
    assert_eq!(id(&g, "PLAY jk right AS 10"), id(&g, "play JK R as T"));
    assert_eq!(parse_action("draw").unwrap(), Action::Draw);
    for (text, token) in [
        ("play 1H L", "1H"),
        ("play 7H M", "M"),
        ("play 7H", "7H"),
        ("play JK L", "JK"),
        ("play JK L as 0", "0"),
        ("play JK L at 7", "at"),
        ("play 7H L as 7", "as"),
        ("draw now", "now"),
        ("hit 7H L", "hit"),
        ("play 7H L extra", "extra"),
    ] {
        match g.string_to_action(text) {
            Err(CoreError::IllegalAction(m)) => {
                assert!(m.contains(&format!("{token:?}")), "{text}: {m}")
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    assert!(g.string_to_action("").is_err());
}

#[test]
fn rt10_views_hide_the_opponent_and_face_down_cards() {
    let g = game(&[("jokers", Bool(true))]);
    let mut st = g.new_game(11);
    let mut rng = GameRng::new(1);
    for _ in 0..2 {
        for seat in 0..2 {
            let d = st.determinize(seat, &mut rng);
            d.audit().unwrap();
            assert_eq!(st.view(seat), d.view(seat));
            assert_eq!(st.observation(seat), d.observation(seat));
            assert_eq!(d.hand(seat), st.hand(seat));
            assert_eq!(d.deal_source(), DealSource::Unrecordable);
        }
        st.fire_timer(1500);
    }
    let v = st.view(0);
    assert_eq!(v.hand_size, [5, 5]);
    assert_eq!(v.draw_size, [11, 11]);
    assert_eq!(v.side_size, [10, 10]);
    assert_eq!(
        st.observation(0).len(),
        cardtable_core::games::speed::OBSERVATION_SIZE
    );
    assert!(st.observation(1).iter().all(|x| (0.0..=1.0).contains(x)));
    // During a stalemate the opponent is only dealt cards that fit nowhere.
    let g = game(&[]);
    let st = layout(
        &g,
        ["9C 9D 9S 9H 7C", "5H 5S 5D 5C 6C"],
        ["4C 3C QH KH", "8C 7S 2S"],
        ["", ""],
        ["2D", "JC"],
    );
    for k in 0..50 {
        let d = st.determinize(0, &mut GameRng::new(k));
        d.audit().unwrap();
        assert!(
            d.hand(1)
                .iter()
                .all(|c| ![1, 3, 10, 12].contains(&c.rank())),
            "{:?}",
            d.hand(1)
        );
        assert_eq!(d.phase(), Phase::Stalemate);
    }
}

#[test]
fn bots_parse_and_smart_keeps_a_run() {
    let spec = <SpeedGame as Game>::parse_bot("smart:hard").unwrap();
    assert_eq!(<SpeedGame as Game>::bot_name(&spec), "smart:hard");
    assert_eq!(
        <SpeedGame as Game>::parse_bot("instant").unwrap().policy,
        "plain"
    );
    assert!(<SpeedGame as Game>::parse_bot("clever").is_err());
    assert_eq!(
        <SpeedGame as Game>::bot_name(
            &<SpeedGame as Game>::parse_bot("plain,motor_ms=40").unwrap()
        ),
        "plain:normal,motor_ms=40"
    );
    // Top 6 (left) and K (right): 7C or 5S goes on the 6. Plain plays the
    // lowest id (7C); smart keeps the run 7C 8C for later and plays the
    // loose 5S.
    let g = game(&[]);
    let st = layout(
        &g,
        ["7C 8C 5S JH JD", "TC TD TS TH 4C"],
        ["", ""],
        ["", ""],
        ["6D", "KC"],
    );
    let mut legal = Vec::new();
    st.legal_actions(0, &mut legal);
    assert_eq!(legal, vec![id(&g, "play 7C L"), id(&g, "play 5S L")]);
    let mut rng = GameRng::new(0);
    use cardtable_core::bots::reaction::Policy;
    assert_eq!(
        bots::Plain.choose(st.seat_view(0), &legal, &mut rng),
        Some(id(&g, "play 7C L"))
    );
    assert_eq!(
        bots::Smart::default().choose(st.seat_view(0), &legal, &mut rng),
        Some(id(&g, "play 5S L"))
    );
}

#[test]
fn smart_holds_back_the_card_a_stuck_opponent_needs() {
    use cardtable_core::bots::reaction::Policy;
    // A stalemate on 5 and T (SD-3.1): neither hand holds a 4, 6, 9 or J.
    // Only the left side pile has a card (SD-3.3): the 6H turns up.
    let g = game(&[]);
    let mut st = layout(
        &g,
        ["5S 7C KH KD 2H", "8S 8H 3C QC AD"],
        ["3S", "3H"],
        ["6H", ""],
        ["5D", "TC"],
    );
    assert_eq!(st.phase(), Phase::Stalemate);
    let mut smart = bots::Smart::default();
    smart.observe(st.seat_view(0));
    st.fire_timer(700);
    assert_eq!(st.phase(), Phase::Playing);
    let mut legal = Vec::new();
    st.legal_actions(0, &mut legal);
    assert_eq!(legal, vec![id(&g, "play 7C L"), id(&g, "play 5S L")]);
    // The 7C would let an 8 go on it; the 5S leaves 4, 6, 9 and J to fit,
    // which the opponent cannot hold: it has not played since the
    // stalemate. (It holds two 8s.)
    let mut rng = GameRng::new(0);
    assert_eq!(
        smart.choose(st.seat_view(0), &legal, &mut rng),
        Some(id(&g, "play 5S L"))
    );
    // Without having seen the stalemate both plays leave as many unseen
    // cards to fit (15), and the tie goes to the lowest id.
    assert_eq!(
        bots::Smart::default().choose(st.seat_view(0), &legal, &mut rng),
        Some(id(&g, "play 7C L"))
    );
    assert_eq!(smart.tracker.cards(), 5);
}

#[test]
fn the_session_plays_whole_games_with_bots() {
    let g = game(&[]);
    for seed in 0..10 {
        let a = run_bots(&g, seed, ["plain:normal", "smart:normal"]);
        let b = run_bots(&g, seed, ["plain:normal", "smart:normal"]);
        assert_eq!(
            a.state.fingerprint(),
            b.state.fingerprint(),
            "deterministic"
        );
        assert_eq!(a.event_hash(), b.event_hash());
        let r = a.state.returns();
        assert_eq!(r[0] + r[1], 0);
        assert!(a.now() < 3_600_000);
        a.state.audit().unwrap();
    }
}

/// SD-1.2 / SD-4.1: the cards a seat must still shed are its hand and
/// draw pile: 15 each with the default side piles, 20 with piles of 5.
#[test]
fn sd4_1_cards_left_is_the_hand_and_the_draw_pile() {
    let st = game(&[]).deal(5, None).unwrap();
    assert_eq!(State::cards_left(&st, 0), Some(15));
    assert_eq!(State::cards_left(&st, 1), Some(15));
    let st = game(&[("side_pile_size", Int(5))]).deal(5, None).unwrap();
    assert_eq!(State::cards_left(&st, 1), Some(20));
}

#[test]
fn the_rules_summary_follows_the_options() {
    let text = |g: &SpeedGame| -> String {
        Game::rules_summary(g)
            .iter()
            .map(|p| format!("{} ({}): {}", p.title, p.rule, p.text))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let plain = text(&game(&[]));
    assert!(plain.contains("Goal (SD-4.1)"), "{plain}");
    assert!(
        plain.contains("two side piles of 10 cards")
            && plain.contains("15 cards each: 5 in your hand")
    );
    assert!(plain.contains("refills from your draw pile by itself"));
    assert!(!plain.contains("Jokers (SD-5)") && !plain.contains("Match (SD-4.2)"));
    let varied = text(&game(&[
        ("side_pile_size", Int(5)),
        ("auto_draw", Bool(false)),
        ("jokers", Bool(true)),
        ("scoring", Bool(true)),
        ("target_score", Int(30)),
    ]));
    assert!(
        varied.contains("two side piles of 5 cards") && varied.contains("21 cards each"),
        "{varied}"
    );
    assert!(varied.contains("draw from your draw pile yourself"));
    assert!(varied.contains("Jokers (SD-5)"));
    assert!(varied.contains("until someone has 30 points"));
}
