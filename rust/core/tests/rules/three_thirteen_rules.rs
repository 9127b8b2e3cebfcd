//! Scenario tests for the Three Thirteen rules of the specification
//! (`docs/rules.md` §2, TT-1 … TT-12). Each test is named after the rule it
//! checks; deals are stacked with `state_from_hands` (or a mid-round layout
//! with `state_from_layout`) so every draw is known.

#![allow(clippy::unwrap_used)]

use crate::common::{card, cards, config_error, options, s};
use cardtable_core::engine::options::OptionValue;
use cardtable_core::engine::{play_to_end, Controller, DealSource, Game, State};
use cardtable_core::games::three_thirteen::bots::Bot;
use cardtable_core::games::three_thirteen::{
    action, parse_action, Action, Phase, RoundEnd, RoundSpec, ThreeThirteenBotSpec,
    ThreeThirteenGame, ThreeThirteenState, SCHEMA,
};
use cardtable_core::{derive_seed, Card, CoreError, DeckSpec, GameRng};
use OptionValue::{Bool, Int};

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

#[track_caller]
fn game(o: &[(&str, OptionValue)]) -> ThreeThirteenGame {
    ThreeThirteenGame::from_options(&options(o)).unwrap_or_else(|e| panic!("{o:?}: {e}"))
}

/// Round `round`, hands by seat, the upcard and the next stock cards.
#[track_caller]
fn deal_at(
    g: &ThreeThirteenGame,
    round: usize,
    dealer: u8,
    hands: &[&str],
    up: &str,
    stock: &str,
) -> ThreeThirteenState {
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
    g.state_from_hands_at_round(round, dealer, &hands, card(up), &cards(stock))
        .unwrap()
}

/// Round 1 (3 cards, threes wild), dealer 0: seat 1 plays first.
#[track_caller]
fn deal(g: &ThreeThirteenGame, hands: &[&str], up: &str, stock: &str) -> ThreeThirteenState {
    deal_at(g, 0, 0, hands, up, stock)
}

/// Cards in hand order (by code: clubs, diamonds, hearts, spades).
fn sorted(t: &str) -> Vec<Card> {
    let mut c = cards(t);
    c.sort();
    c
}

fn act(text: &str) -> u16 {
    parse_action(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .encode()
}

fn legal_text(st: &ThreeThirteenState) -> Vec<String> {
    st.legal_actions()
        .iter()
        .map(|&a| Action::decode(a).unwrap().to_string())
        .collect()
}

#[track_caller]
fn can(st: &ThreeThirteenState, text: &str) -> bool {
    let a = act(text);
    let listed = st.legal_actions().contains(&a);
    assert_eq!(
        st.is_legal(a),
        listed,
        "is_legal and legal_actions disagree on {text}"
    );
    listed
}

#[track_caller]
fn play(st: &mut ThreeThirteenState, text: &str) {
    let seat = st.current_player().unwrap();
    st.apply_action(act(text)).unwrap_or_else(|e| {
        panic!(
            "seat {seat}: {text}: {e}; legal: {:?}; hand {:?}",
            legal_text(st),
            st.hand(seat)
        )
    });
}

#[track_caller]
fn play_all(st: &mut ThreeThirteenState, actions: &[&str]) {
    for a in actions {
        play(st, a);
    }
}

/// An illegal action is an error and changes nothing.
#[track_caller]
fn refused(st: &mut ThreeThirteenState, text: &str) {
    let before = st.clone();
    assert!(!can(st, text), "{text} should not be legal");
    match st.apply_action(act(text)) {
        Err(CoreError::IllegalAction(_)) => {}
        other => panic!("{text}: expected IllegalAction, got {other:?}"),
    }
    assert_eq!(*st, before, "a refused {text} changed the state");
}

/// Seat 1 goes out with `out_hand` plus KD (discarding KD); seat 0 then
/// draws `draw0` in its last turn and discards it. The round's scores.
#[track_caller]
fn scored(g: &ThreeThirteenGame, seat0: &str, out_hand: &str, draw0: &str) -> Vec<i64> {
    let mut st = deal(g, &[seat0, out_hand], "2C", &format!("KD {draw0}"));
    play_all(
        &mut st,
        &["draw", "out KD", "draw", &format!("discard {draw0}")],
    );
    assert_eq!(st.round(), 1, "the round should be over");
    st.score_sheet()[0].clone()
}

fn greedy_game(g: &ThreeThirteenGame, seed: u64) -> ThreeThirteenState {
    let mut st = g.deal(seed, None).unwrap();
    let mut bots: Vec<Box<dyn Controller<ThreeThirteenState>>> = (0..g.players())
        .map(|i| g.new_bot(&ThreeThirteenBotSpec::Greedy, i as u64))
        .collect();
    play_to_end(&mut st, &mut bots, 1_000_000).unwrap();
    st
}

// ---------------------------------------------------------------------------
// TT-1, TT-2: players, decks, schedule
// ---------------------------------------------------------------------------

#[test]
fn tt_1_2_decks_default_two_three_for_eight_players() {
    assert_eq!(game(&[]).config.decks, 2);
    assert_eq!(game(&[("players", Int(7))]).config.decks, 2);
    assert_eq!(game(&[("players", Int(8))]).config.decks, 3);
    assert_eq!(game(&[("decks", s("auto"))]).config.decks, 2);
    // Auto rises when the extra rounds need more cards (TT-10.3): 7 x 15 + 2 > 104.
    assert_eq!(
        game(&[("players", Int(7)), ("extra_rounds", Int(2))])
            .config
            .decks,
        3
    );
    assert_eq!(game(&[("decks", Int(4))]).config.decks, 4);
    let st = game(&[]).deal(1, None).unwrap();
    assert!(st.card_counts_ok());
}

#[test]
fn tt_1_2_one_deck_only_when_the_deal_fits() {
    // players x max_cards_dealt + 2 <= 52.
    game(&[("decks", Int(1)), ("players", Int(3))]);
    game(&[
        ("decks", Int(1)),
        ("players", Int(3)),
        ("extra_rounds", Int(2)),
    ]);
    let (opt, msg) = config_error::<ThreeThirteenGame>(&[("decks", Int(1)), ("players", Int(4))]);
    assert_eq!(opt.as_deref(), Some("decks"));
    assert!(msg.contains("54") && msg.contains("52"), "{msg}");
    // TT-10.3: at 15 cards, 104 cards support up to 6 players.
    game(&[
        ("decks", Int(2)),
        ("players", Int(6)),
        ("extra_rounds", Int(2)),
    ]);
    let (opt, _) = config_error::<ThreeThirteenGame>(&[
        ("decks", Int(2)),
        ("players", Int(7)),
        ("extra_rounds", Int(2)),
    ]);
    assert_eq!(opt.as_deref(), Some("decks"));
}

#[test]
fn tt_1_3_duplicate_cards_make_a_book() {
    let g = game(&[]);
    let mut st = deal(&g, &["9C TD KS", "7H 7H 7C"], "2C", "KD");
    play(&mut st, "draw");
    assert!(can(&st, "out KD"));
}

#[test]
fn tt_2_2_the_schedule_deals_three_to_thirteen_with_that_rank_wild() {
    let g = game(&[]);
    let sched: Vec<(u8, u8)> = g
        .schedule()
        .rounds()
        .iter()
        .map(|r| (r.cards, r.wild))
        .collect();
    let want: Vec<(u8, u8)> = (3..=13).map(|k| (k, k)).collect();
    assert_eq!(sched, want);
    let st = g.deal(5, None).unwrap();
    assert_eq!(st.round_count(), 11);
    assert_eq!((st.cards_dealt(), st.wild_rank()), (3, 3));
    for p in 0..2 {
        assert_eq!(st.hand(p).len(), 3);
    }
}

#[test]
fn tt_10_3_extra_rounds_deal_fourteen_aces_wild_and_fifteen_twos_wild() {
    let one = game(&[("extra_rounds", Int(1))]).schedule();
    assert_eq!(one.len(), 12);
    assert_eq!(one.rounds()[11], RoundSpec { cards: 14, wild: 1 });
    let two = game(&[("extra_rounds", Int(2))]).schedule();
    assert_eq!(two.len(), 13);
    assert_eq!(two.rounds()[12], RoundSpec { cards: 15, wild: 2 });
    assert_eq!(two.max_cards(), 15);
}

#[test]
fn tt_10_5_up_down_plays_the_top_round_twice_and_extra_rounds_extend_the_peak() {
    let ud = game(&[("schedule", s("up_down"))]).schedule();
    let cards: Vec<u8> = ud.rounds().iter().map(|r| r.cards).collect();
    let mut want: Vec<u8> = (3..=13).collect();
    want.extend((3..=13).rev());
    assert_eq!(cards, want);
    assert_eq!(ud.len(), 22);
    // Engine decision: 3 .. 13 14 15 15 14 13 .. 3.
    let ud2 = game(&[("schedule", s("up_down")), ("extra_rounds", Int(2))]).schedule();
    let got: Vec<(u8, u8)> = ud2.rounds().iter().map(|r| (r.cards, r.wild)).collect();
    assert_eq!(got.len(), 26);
    assert_eq!(
        &got[10..16],
        &[(13, 13), (14, 1), (15, 2), (15, 2), (14, 1), (13, 13)]
    );
    assert_eq!(got[25], (3, 3));
}

#[test]
fn tt_10_5_an_up_down_game_with_extra_rounds_plays_every_round_of_its_schedule() {
    let g = game(&[("schedule", s("up_down")), ("extra_rounds", Int(1))]);
    let mut st = g.deal(11, None).unwrap();
    let mut bots: Vec<Bot> = (0..2)
        .map(|i| Bot::new(ThreeThirteenBotSpec::Greedy, i))
        .collect();
    let mut seen: Vec<(u8, u8)> = Vec::new();
    let mut last = 0;
    seen.push((st.cards_dealt() as u8, st.wild_rank()));
    while !st.is_terminal() {
        let seat = st.current_player().unwrap();
        let a = bots[usize::from(seat)].act(st.seat_view(seat)).unwrap();
        st.apply_action(a).unwrap();
        if st.score_sheet().len() > last {
            last = st.score_sheet().len();
            let r = st.last_round().unwrap();
            assert_eq!((r.cards, r.wild), seen[last - 1], "round {last}");
            if !st.is_terminal() {
                seen.push((st.cards_dealt() as u8, st.wild_rank()));
                assert_eq!(st.hand(0).len(), st.cards_dealt());
            }
        }
    }
    let want: Vec<(u8, u8)> = g
        .schedule()
        .rounds()
        .iter()
        .map(|r| (r.cards, r.wild))
        .collect();
    assert_eq!(seen, want);
    assert_eq!(st.score_sheet().len(), 24);
}

// ---------------------------------------------------------------------------
// TT-3: deal and turns
// ---------------------------------------------------------------------------

#[test]
fn tt_3_1_the_first_dealer_comes_from_the_seed_and_the_deal_passes_left() {
    let g = game(&[("players", Int(3))]);
    for seed in 0..20 {
        let st = g.deal(seed, None).unwrap();
        assert_eq!(st.first_dealer(), g.draw_for_dealer(seed));
        assert_eq!(State::dealer(&st), st.first_dealer());
    }
    let mut st = g.deal(3, Some(2)).unwrap();
    assert_eq!(st.round_dealer(), 2);
    let mut bots: Vec<Bot> = (0..3)
        .map(|i| Bot::new(ThreeThirteenBotSpec::Greedy, i))
        .collect();
    while !st.is_terminal() {
        assert_eq!(st.round_dealer() as usize, (2 + st.round()) % 3);
        let seat = st.current_player().unwrap();
        let a = bots[usize::from(seat)].act(st.seat_view(seat)).unwrap();
        st.apply_action(a).unwrap();
    }
    assert!(g.deal(3, Some(3)).is_err());
}

#[test]
fn tt_3_2_cards_are_dealt_one_at_a_time_from_the_left_of_the_dealer() {
    let g = game(&[("players", Int(3))]);
    let seed = 42;
    let st = g.deal(seed, Some(0)).unwrap();
    // Round 1's deck: the deal stream (0) of the seed, child 0 (the round).
    let deck = DeckSpec::new(2, false)
        .unwrap()
        .shuffled(derive_seed(derive_seed(seed, 0), 0));
    for (k, seat) in [1u8, 2, 0].iter().enumerate() {
        let mut want = vec![deck[k], deck[k + 3], deck[k + 6]];
        want.sort();
        assert_eq!(st.hand(*seat), want.as_slice(), "seat {seat}");
    }
    assert_eq!(st.discard_pile(), &[deck[9]]);
    assert_eq!(st.stock().last(), Some(&deck[10]));
    assert_eq!(st.stock_size(), 104 - 10);
}

#[test]
fn tt_3_3_the_player_left_of_the_dealer_plays_first() {
    let g = game(&[("players", Int(4))]);
    for d in 0..4u8 {
        let st = g.deal(9, Some(d)).unwrap();
        assert_eq!(st.current_player(), Some((d + 1) % 4));
    }
}

#[test]
fn tt_3_4_a_turn_is_one_draw_then_one_discard() {
    let g = game(&[]);
    let mut st = deal(&g, &["9C TD KS", "2D 4S 8C"], "2C", "KD");
    assert_eq!(st.phase(), Phase::Draw);
    assert_eq!(legal_text(&st), vec!["draw", "take"]);
    refused(&mut st, "discard 2D");
    play(&mut st, "draw");
    assert_eq!(st.phase(), Phase::Discard);
    assert_eq!(
        legal_text(&st),
        vec!["discard 8C", "discard 2D", "discard KD", "discard 4S"]
    );
    refused(&mut st, "draw");
    refused(&mut st, "discard 9C");
    refused(&mut st, "table");
    play(&mut st, "discard KD");
    assert_eq!(st.current_player(), Some(0));
    assert_eq!(st.top_discard(), Some(card("KD")));
    // Taking the discard puts it in the hand, in view of everybody.
    play(&mut st, "take");
    assert!(st.hand(0).contains(&card("KD")));
    assert_eq!(st.known_cards(0), &[card("KD")]);
    assert_eq!(st.view(1).known_cards[0], vec![card("KD")]);
    assert_eq!(st.view(0).known_cards[0], Vec::<Card>::new());
}

#[test]
fn tt_3_5_the_taken_card_may_be_discarded_again_by_default() {
    let g = game(&[]);
    let mut st = deal(&g, &["9C TD KS", "2D 4S 8C"], "9H", "KD");
    play(&mut st, "take");
    assert!(can(&st, "discard 9H"));
    play(&mut st, "discard 9H");
    assert!(
        st.known_cards(1).is_empty(),
        "a discarded known card is no longer known"
    );
}

#[test]
fn tt_3_5_forbid_rediscard_forbids_the_taken_card_by_code() {
    let g = game(&[("forbid_rediscard", Bool(true))]);
    let mut st = deal(&g, &["9C TD KS", "2D 4S 8C"], "9H", "KD");
    play(&mut st, "take");
    refused(&mut st, "discard 9H");
    assert!(can(&st, "discard 2D"));
    // CM-4: with a copy of the taken card in hand, that code is still forbidden.
    let mut st = deal(&g, &["9C TD KS", "9H 4S 8C"], "9H", "KD");
    play(&mut st, "take");
    refused(&mut st, "discard 9H");
    // The stock card drawn may be discarded.
    let mut st = deal(&g, &["9C TD KS", "2D 4S 8C"], "9H", "KD");
    play_all(&mut st, &["draw", "discard KD"]);
}

// ---------------------------------------------------------------------------
// TT-4, TT-5: melds and wild cards
// ---------------------------------------------------------------------------

#[test]
fn tt_4_2_aces_are_low_only_by_default() {
    let g = game(&[]);
    let mut st = deal(&g, &["9C TD KS", "QS KS AS"], "2C", "KD");
    play(&mut st, "draw");
    refused(&mut st, "out KD");
    let mut st = deal(&g, &["9C TD KS", "AS 2S 4S"], "2C", "KD");
    play(&mut st, "draw");
    // 2S 3(wild)... no: A 2 and a 4 need a 3 in the gap: 4S breaks the run.
    refused(&mut st, "out KD");
}

#[test]
fn tt_5_2_a_wild_card_may_be_used_as_itself() {
    let g = game(&[]);
    // Round 1: threes wild. 3H 3S 3D is a natural book of threes.
    let mut st = deal(&g, &["9C TD KS", "3H 3S 3D"], "2C", "KD");
    play(&mut st, "draw");
    assert!(can(&st, "out KD"));
    // 2H 3H 4H: the 3H sits at its own place, so the meld has no substitute;
    // with max one substitute it can still take another wild.
    let mut st = deal(&g, &["9C TD KS", "2H 3H 4H"], "2C", "3C");
    play(&mut st, "draw");
    assert!(can(&st, "out 3C"));
    let a = st.best_arrangement(1).unwrap();
    assert_eq!((a.deadwood, a.melds.len()), (0, 1));
    assert!(a.discard.is_some());
    // Without 2H: 3H 4H natural, 3C standing in for 2H or 5H.
    assert!(can(&st, "out 2H"));
    assert!(can(&st, "out 4H"));
}

#[test]
fn tt_5_3_at_most_one_substitute_per_meld_by_default() {
    let g = game(&[]);
    let mut st = deal(&g, &["9C TD KS", "7H 3C 3D"], "2C", "KD");
    play(&mut st, "draw");
    refused(&mut st, "out KD");
    let mut st = deal(&g, &["9C TD KS", "7H 7C 3D"], "2C", "KD");
    play(&mut st, "draw");
    assert!(can(&st, "out KD"));
    for limit in [Int(2), s("unlimited")] {
        let g = game(&[("max_wilds_per_meld", limit.clone())]);
        let mut st = deal(&g, &["9C TD KS", "7H 3C 3D"], "2C", "KD");
        play(&mut st, "draw");
        assert!(can(&st, "out KD"), "max_wilds_per_meld={limit}");
    }
}

#[test]
fn tt_5_4_all_wild_melds() {
    // Jokers and threes are all wild in round 1: JK JK 3C used as three substitutes.
    let g = game(&[("jokers", s("wild"))]);
    let mut st = deal(&g, &["9C TD KS", "JK JK 3C"], "2C", "KD");
    play(&mut st, "draw");
    refused(&mut st, "out KD");
    let g = game(&[("jokers", s("wild")), ("all_wild_melds", Bool(true))]);
    let mut st = deal(&g, &["9C TD KS", "JK JK 3C"], "2C", "KD");
    play(&mut st, "draw");
    assert!(can(&st, "out KD"));
    // With two substitutes allowed, 3C is a natural three with two jokers.
    let g = game(&[("jokers", s("wild")), ("max_wilds_per_meld", Int(2))]);
    let mut st = deal(&g, &["9C TD KS", "JK JK 3C"], "2C", "KD");
    play(&mut st, "draw");
    assert!(can(&st, "out KD"));
}

// ---------------------------------------------------------------------------
// TT-6: going out and the last turns
// ---------------------------------------------------------------------------

#[test]
fn tt_6_1_going_out_requires_a_discard() {
    let g = game(&[]);
    let mut st = deal(&g, &["9C TD KS", "4H 5H 6H"], "2C", "KD QD");
    // Not before drawing.
    refused(&mut st, "out 4H");
    play(&mut st, "draw");
    // The melds must be valid after the discard.
    refused(&mut st, "out 4H");
    assert!(can(&st, "out KD"));
    assert!(legal_text(&st).contains(&"out KD".to_string()));
    play(&mut st, "out KD");
    assert_eq!(st.out_player(), Some(1));
    assert_eq!(st.top_discard(), Some(card("KD")));
    assert_eq!(st.hand(1), cards("4H 5H 6H").as_slice());
    assert!(st.in_last_turns());
    assert_eq!((st.current_player(), st.phase()), (Some(0), Phase::Draw));
}

#[test]
fn tt_6_1_going_out_is_optional() {
    let g = game(&[]);
    let mut st = deal(&g, &["9C TD KS", "4H 5H 6H"], "2C", "KD QD");
    play_all(&mut st, &["draw", "discard KD"]);
    assert_eq!(st.out_player(), None);
    assert!(!st.in_last_turns());
    assert_eq!(st.current_player(), Some(0));
    assert_eq!(st.round(), 0);
}

#[test]
fn tt_6_2_each_other_player_has_one_last_turn_in_order() {
    let g = game(&[("players", Int(4))]);
    let mut st = deal(
        &g,
        &["9C TD KS", "2D 4S 8C", "4H 5H 6H", "7C 9D QS"],
        "2C",
        "KD QD JD TH 9H",
    );
    play_all(&mut st, &["draw", "discard KD"]);
    assert_eq!(st.current_player(), Some(2));
    play_all(&mut st, &["draw", "out QD"]);
    // Clockwise from the left of the player who went out: 3, 0, 1.
    let mut order = Vec::new();
    order.push(st.current_player().unwrap());
    assert_eq!(st.last_turns_left(), 3);
    // They may take the discard the player who went out made.
    play_all(&mut st, &["take", "discard QD"]);
    order.push(st.current_player().unwrap());
    play_all(&mut st, &["draw", "discard JD"]);
    order.push(st.current_player().unwrap());
    assert_eq!(order, vec![3, 0, 1]);
    // Going out again is not part of a last turn.
    play(&mut st, "draw");
    assert!(!legal_text(&st).iter().any(|a| a.starts_with("out")));
    play(&mut st, "discard TH");
    // The round is over and the next one dealt at once (TT-6.4).
    assert_eq!(st.round(), 1);
    assert_eq!(st.cards_dealt(), 4);
    let r = st.last_round().unwrap();
    assert_eq!(r.end, RoundEnd::Out { player: 2 });
    assert_eq!(st.score_sheet()[0], vec![29, 14, 0, 26]);
    assert_eq!(st.totals(), &[29, 14, 0, 26]);
    // The deal passed left: seat 1 deals, seat 2 plays first.
    assert_eq!(st.round_dealer(), 1);
    assert_eq!(st.current_player(), Some(2));
}

#[test]
fn tt_6_3_a_player_fully_melded_after_the_last_turn_scores_zero() {
    let g = game(&[]);
    let mut st = deal(&g, &["9C 9D 2S", "4H 5H 6H"], "2C", "9S");
    play_all(&mut st, &["draw", "out 9S", "take", "discard 2S"]);
    assert_eq!(st.score_sheet()[0], vec![0, 0]);
    let r = st.last_round().unwrap();
    assert_eq!(r.seats[0].deadwood, 0);
    assert_eq!(r.seats[0].melds.len(), 1);
}

// ---------------------------------------------------------------------------
// TT-7: scoring
// ---------------------------------------------------------------------------

#[test]
fn tt_7_2_deadwood_values_and_unused_wild_15() {
    let g = game(&[]);
    // A = 1, face value, J/Q/K = 10.
    assert_eq!(scored(&g, "AC 9D KS", "4H 5H 6H", "8S"), vec![20, 0]);
    // Round 1: an unmelded three costs 15.
    assert_eq!(scored(&g, "3C 9D KS", "4H 5H 6H", "8S"), vec![34, 0]);
    // A three that fills a meld costs nothing.
    assert_eq!(scored(&g, "3C 9D 9S", "4H 5H 6H", "8S"), vec![0, 0]);
}

#[test]
fn tt_7_3_the_round_scores_add_up_on_the_sheet() {
    let g = game(&[]);
    let st = greedy_game(&g, 4);
    assert_eq!(st.score_sheet().len(), 11);
    for p in 0..2 {
        let sum: i64 = st.score_sheet().iter().map(|r| r[p]).sum();
        assert_eq!(st.totals()[p], sum);
    }
}

#[test]
fn tt_10_1_ace_high_or_low_runs_and_aces_cost_15() {
    let g = game(&[("ace_high_or_low", Bool(true))]);
    let mut st = deal(&g, &["9C TD KS", "QS KS AS"], "2C", "KD");
    play(&mut st, "draw");
    assert!(can(&st, "out KD"));
    let mut st = deal(&g, &["9C TD KS", "KS AS 2S"], "2C", "KD");
    play(&mut st, "draw");
    refused(&mut st, "out KD"); // never wrapping
    assert_eq!(scored(&g, "AC 9D KS", "4H 5H 6H", "8S"), vec![34, 0]);
}

#[test]
fn tt_10_2_face_values_11_12_13() {
    let g = game(&[]);
    assert_eq!(scored(&g, "JC QD KS", "4H 5H 6H", "8S"), vec![30, 0]);
    let g = game(&[("face_values_11_12_13", Bool(true))]);
    assert_eq!(scored(&g, "JC QD KS", "4H 5H 6H", "8S"), vec![36, 0]);
}

#[test]
fn tt_10_4_jokers_are_wild_cost_20_and_count_toward_the_limit() {
    let g = game(&[("jokers", s("wild"))]);
    assert_eq!(g.config.deck().jokers, 4, "two jokers per deck");
    let mut st = deal(&g, &["9C TD KS", "7H 7C JK"], "2C", "KD");
    play(&mut st, "draw");
    assert!(can(&st, "out KD"));
    // A joker and a three are two substitutes: too many for one meld.
    let mut st = deal(&g, &["9C TD KS", "7H JK 3C"], "2C", "KD");
    play(&mut st, "draw");
    refused(&mut st, "out KD");
    refused(&mut st, "gift JK 0");
    assert_eq!(scored(&g, "JK 9D KS", "4H 5H 6H", "8S"), vec![39, 0]);
}

#[test]
fn tt_10_4_giftable_jokers_are_gifted_as_a_discard_and_score_nothing() {
    let g = game(&[("jokers", s("wild_giftable"))]);
    let mut st = deal(&g, &["9C TD KS", "JK 9D KS"], "2C", "2H");
    play(&mut st, "draw");
    assert!(can(&st, "gift JK 0"));
    refused(&mut st, "gift JK 1"); // not to oneself
    refused(&mut st, "gift JK 2"); // no seat 2
    play(&mut st, "gift JK 0");
    assert_eq!(st.gifted(0), 1);
    assert_eq!(st.hand(1), sorted("2H 9D KS").as_slice());
    assert_eq!(
        st.top_discard(),
        Some(card("2C")),
        "a gift is not on the pile"
    );
    assert_eq!(st.current_player(), Some(0));
    assert!(st.card_counts_ok());
    // An unmelded giftable joker costs 0.
    assert_eq!(scored(&g, "JK 9D KS", "4H 5H 6H", "8S"), vec![19, 0]);
}

#[test]
fn tt_10_7_rounds_with_a_jqk_wild_rank_are_doubled() {
    // Round 9 deals 11 cards, jacks wild.
    let hands = [
        "2D 4C 6S 8C TC KD QC 7H 9S 3S 5H",
        "AH 2H 3H 4H 5C 5D 5S 8D 9D TD 2C",
    ];
    for (double, want) in [(false, 74), (true, 148)] {
        let g = game(&[("double_jqk_rounds", Bool(double))]);
        let mut st = deal_at(&g, 8, 0, &hands, "KC", "JC 4D");
        assert_eq!(st.wild_rank(), 11);
        play_all(&mut st, &["draw", "out 2C", "draw", "discard 4D"]);
        assert_eq!(st.score_sheet()[0], vec![want, 0]);
        assert_eq!(st.last_round().unwrap().doubled, double);
    }
}

#[test]
fn tt_10_7_doubling_applies_to_both_passes_of_up_down() {
    let g = game(&[
        ("double_jqk_rounds", Bool(true)),
        ("schedule", s("up_down")),
    ]);
    let mut st = g.deal(21, None).unwrap();
    let mut bots: Vec<Bot> = (0..2)
        .map(|i| Bot::new(ThreeThirteenBotSpec::Greedy, i))
        .collect();
    let mut doubled = Vec::new();
    let mut rows = 0;
    while !st.is_terminal() {
        let seat = st.current_player().unwrap();
        let a = bots[usize::from(seat)].act(st.seat_view(seat)).unwrap();
        st.apply_action(a).unwrap();
        if st.score_sheet().len() > rows {
            rows = st.score_sheet().len();
            let r = st.last_round().unwrap();
            doubled.push(r.doubled);
            assert_eq!(r.doubled, (11..=13).contains(&r.wild));
            for (p, seat) in r.seats.iter().enumerate() {
                let mult = if r.doubled { 2 } else { 1 };
                assert_eq!(seat.points, i64::from(seat.deadwood) * mult);
                assert_eq!(st.score_sheet()[rows - 1][p], seat.points);
            }
        }
    }
    assert_eq!(doubled.iter().filter(|&&d| d).count(), 6);
}

#[test]
fn tt_10_9_false_out_penalty_none_rejects_an_invalid_go_out() {
    let g = game(&[]);
    let mut st = deal(&g, &["7D 7S 7C", "5H 6H 8C"], "2C", "KS QS 2D");
    play(&mut st, "draw");
    refused(&mut st, "out KS");
}

#[test]
fn tt_10_9_false_out_penalty_20_is_added_and_the_declaration_cancelled() {
    let g = game(&[("false_out_penalty", Int(20))]);
    let mut st = deal(&g, &["7D 7S 7C", "5H 6H 8C"], "2C", "KS QS 2D");
    play(&mut st, "draw");
    assert!(can(&st, "out KS"), "an invalid declaration is allowed");
    play(&mut st, "out KS");
    assert_eq!(st.false_outs(1), 1);
    assert_eq!(st.out_player(), None, "the declaration is cancelled");
    assert_eq!(st.top_discard(), Some(card("KS")), "the card is discarded");
    assert_eq!(st.current_player(), Some(0));
    assert!(!st.in_last_turns());
    // Seat 0 goes out for real; seat 1's last turn; 5 + 6 + 8 + 20.
    play_all(&mut st, &["draw", "out QS", "draw", "discard 2D"]);
    assert_eq!(st.score_sheet()[0], vec![0, 39]);
    assert_eq!(st.last_round().unwrap().seats[1].false_outs, 1);
}

// ---------------------------------------------------------------------------
// TT-10.6: redemption round
// ---------------------------------------------------------------------------

#[test]
fn tt_10_6_redemption_lay_off_on_the_going_out_players_meld_and_score_zero_when_emptied() {
    let g = game(&[("redemption_round", Bool(true))]);
    let mut st = deal(&g, &["8H 9C 9D", "5H 6H 7H"], "2C", "KD 9S");
    play(&mut st, "draw");
    refused(&mut st, "table"); // not before someone went out
    play(&mut st, "out KD");
    // The going-out player's melds are tabled.
    let t = st.tabled_melds();
    assert_eq!(t.len(), 1);
    assert_eq!(
        (t[0].owner, t[0].meld.cards.clone()),
        (1, cards("5H 6H 7H"))
    );
    assert!(st.hand(1).is_empty());
    play(&mut st, "draw");
    assert!(can(&st, "table"));
    assert!(can(&st, "layoff 8H M0"));
    refused(&mut st, "layoff 9C M0");
    refused(&mut st, "layoff 8H M1");
    play(&mut st, "table");
    assert_eq!(st.tabled_melds().len(), 2);
    assert_eq!(st.tabled_melds()[1].meld.cards, cards("9C 9D 9S"));
    assert_eq!(st.hand(0), cards("8H").as_slice());
    refused(&mut st, "table"); // one card left: nothing to table
    play(&mut st, "layoff 8H M0");
    // Every card gone: the turn and the round end, and seat 0 scores 0.
    assert_eq!(st.round(), 1);
    assert_eq!(st.score_sheet()[0], vec![0, 0]);
    let r = st.last_round().unwrap();
    assert_eq!(r.tabled[0].meld.cards, cards("5H 6H 7H 8H"));
}

#[test]
fn tt_10_6_lay_offs_keep_melds_valid_within_the_wild_limit() {
    for (limit, wild_ok) in [(Int(1), false), (Int(2), true)] {
        let g = game(&[
            ("redemption_round", Bool(true)),
            ("max_wilds_per_meld", limit),
        ]);
        // 5H 3C 7H: the three stands for 6H.
        let mut st = deal(&g, &["3D 8H QS", "5H 3C 7H"], "2C", "KD 4H");
        play_all(&mut st, &["draw", "out KD", "draw"]);
        assert_eq!(st.tabled_melds()[0].meld.substitute_count(), 1);
        assert_eq!(can(&st, "layoff 3D M0"), wild_ok, "a second substitute");
        assert!(can(&st, "layoff 8H M0"));
        assert!(can(&st, "layoff 4H M0"));
        refused(&mut st, "layoff QS M0");
        play_all(&mut st, &["layoff 8H M0", "layoff 4H M0"]);
        assert_eq!(st.tabled_melds()[0].meld.len(), 5);
        play(&mut st, "discard QS");
        // 3D stays: an unused wild costs 15.
        assert_eq!(st.score_sheet()[0], vec![15, 0]);
    }
}

#[test]
fn tt_10_6_lay_off_on_another_players_tabled_meld() {
    let g = game(&[("redemption_round", Bool(true)), ("players", Int(3))]);
    let mut st = deal(&g, &["9H 4C 4D", "5H 6H 7H", "9C 9D 2S"], "2C", "KD 9S 4S");
    play_all(&mut st, &["draw", "out KD"]);
    // Seat 2 tables its book of nines and discards.
    play_all(&mut st, &["draw", "table", "discard 2S"]);
    assert_eq!(st.tabled_melds()[1].owner, 2);
    // Seat 0 lays off on seat 2's book and tables its own.
    play(&mut st, "draw");
    assert!(can(&st, "layoff 9H M1"));
    play_all(&mut st, &["table", "layoff 9H M1"]);
    assert_eq!(st.round(), 1);
    assert_eq!(st.score_sheet()[0], vec![0, 0, 0]);
    assert_eq!(
        st.last_round().unwrap().tabled[1].meld.cards.len(),
        4,
        "9C 9D 9S 9H"
    );
}

#[test]
fn tt_10_6_nothing_is_tabled_without_the_redemption_round() {
    let g = game(&[]);
    let mut st = deal(&g, &["8H 9C 9D", "5H 6H 7H"], "2C", "KD 9S");
    play_all(&mut st, &["draw", "out KD", "draw"]);
    assert!(st.tabled_melds().is_empty());
    refused(&mut st, "table");
    refused(&mut st, "layoff 8H M0");
}

// ---------------------------------------------------------------------------
// TT-9: stock exhaustion
// ---------------------------------------------------------------------------

fn layout(g: &ThreeThirteenGame, pile: &str, stock: &str, restocks: u8) -> ThreeThirteenState {
    let hands = [cards("9C TD KS"), cards("2D 4S 8C")];
    g.state_from_layout(0, 0, 1, &hands, &cards(pile), &cards(stock), restocks)
        .unwrap()
}

#[test]
fn tt_9_1_an_empty_stock_is_rebuilt_from_the_discards_but_the_top_one() {
    let g = game(&[]);
    let mut st = layout(&g, "5C 6D 7S", "QH", 0);
    play_all(&mut st, &["draw", "discard QH"]);
    assert_eq!(st.stock_size(), 0);
    assert!(can(&st, "draw"));
    play(&mut st, "draw");
    assert_eq!(st.restocks(), 1);
    assert_eq!(st.discard_pile(), &[card("QH")], "the top discard stays");
    assert_eq!(st.stock_size(), 2);
    let mut seen: Vec<Card> = st.stock().to_vec();
    seen.extend(st.hand(0).iter().filter(|c| !cards("9C TD KS").contains(c)));
    seen.sort();
    assert_eq!(seen, cards("5C 6D 7S"));
    // The rebuild is seeded: the same position rebuilds the same way.
    let mut again = layout(&g, "5C 6D 7S", "QH", 0);
    play_all(&mut again, &["draw", "discard QH", "draw"]);
    assert_eq!(again, st);
}

#[test]
fn tt_9_2_the_discard_must_be_taken_when_the_rebuilt_stock_would_be_empty() {
    let g = game(&[]);
    let mut st = layout(&g, "7S", "", 0);
    assert_eq!(legal_text(&st), vec!["take"]);
    refused(&mut st, "draw");
    play_all(&mut st, &["take", "discard 7S"]);
}

#[test]
fn tt_9_3_the_round_ends_when_the_stock_runs_out_after_max_restocks() {
    let g = game(&[]);
    let mut st = layout(&g, "5C 6D 7S", "QH", 2);
    play_all(&mut st, &["draw", "discard QH"]);
    // Seat 0 would draw from an empty stock rebuilt twice already: scored as is.
    assert_eq!(st.round(), 1);
    let r = st.last_round().unwrap();
    assert_eq!(r.end, RoundEnd::StockGuard);
    assert_eq!(
        st.score_sheet()[0],
        vec![29, 14],
        "nobody scores 0 automatically"
    );
    // With a higher guard the same position rebuilds.
    let g3 = game(&[("max_restocks", Int(3))]);
    let mut st = layout(&g3, "5C 6D 7S", "QH", 2);
    play_all(&mut st, &["draw", "discard QH", "draw"]);
    assert_eq!(st.restocks(), 3);
    // max_restocks = 0: the first time the stock runs out ends the round.
    let g0 = game(&[("max_restocks", Int(0))]);
    let mut st = layout(&g0, "5C 6D 7S", "QH", 0);
    play_all(&mut st, &["draw", "discard QH"]);
    assert_eq!(st.last_round().unwrap().end, RoundEnd::StockGuard);
}

#[test]
fn tt_9_3_the_stall_guard_ends_a_round_without_stock_draws() {
    let g = game(&[]);
    let mut st = deal(&g, &["9C TD KS", "2D 4S 8C"], "7H", "KD");
    for _ in 0..20 {
        assert_eq!(st.round(), 0);
        play_all(&mut st, &["take", "discard 7H"]);
    }
    assert_eq!(st.round(), 1);
    assert_eq!(st.last_round().unwrap().end, RoundEnd::Stalled);
}

// ---------------------------------------------------------------------------
// TT-8: end of the game, returns, the engine contract
// ---------------------------------------------------------------------------

#[test]
fn tt_8_1_the_lowest_total_wins_and_returns_are_zero_sum_margins() {
    let g = game(&[("players", Int(3))]);
    for seed in 0..6 {
        let mut st = greedy_game(&g, seed);
        assert!(st.is_terminal());
        let t = st.totals().to_vec();
        let sum: i64 = t.iter().sum();
        let r = State::returns(&st);
        assert_eq!(r, t.iter().map(|x| sum - 3 * x).collect::<Vec<_>>());
        assert_eq!(r.iter().sum::<i64>(), 0);
        let low = *t.iter().min().unwrap();
        let winners: Vec<u8> = (0..3).filter(|&p| State::won(&st, p)).collect();
        assert_eq!(
            winners,
            (0..3)
                .filter(|&p| t[usize::from(p)] == low)
                .collect::<Vec<_>>()
        );
        let want = if winners.len() == 1 {
            "outright"
        } else {
            "shared"
        };
        assert_eq!(State::ending(&st), Some(want));
        assert_eq!(
            st.apply_action(action::DRAW_STOCK),
            Err(CoreError::GameOver)
        );
        assert_eq!(
            State::apply(&mut st, 0, action::DRAW_STOCK, 0),
            Err(CoreError::GameOver)
        );
        assert!(st.legal_actions().is_empty());
    }
    let st = g.deal(1, None).unwrap();
    assert_eq!(State::returns(&st), vec![0, 0, 0]);
    assert_eq!(State::ending(&st), None);
    assert_eq!(
        ThreeThirteenGame::ending_categories(),
        &["outright", "shared"]
    );
}

#[test]
fn tt_12_wrong_seat_and_bad_ids_are_refused_without_change() {
    let g = game(&[]);
    let mut st = g.deal(3, Some(0)).unwrap();
    let before = st.clone();
    assert!(State::apply(&mut st, 0, action::DRAW_STOCK, 0).is_err());
    assert!(State::apply(&mut st, 1, action::COUNT, 0).is_err());
    assert!(State::apply(&mut st, 1, u16::MAX, 0).is_err());
    assert!(!State::is_legal(&st, 0, action::DRAW_STOCK));
    let mut out = vec![1];
    State::legal_actions(&st, 0, &mut out);
    assert!(out.is_empty());
    assert_eq!(st, before);
}

#[test]
fn tt_12_deal_sources_and_hints() {
    let g = game(&[]);
    let st = g.deal(77, None).unwrap();
    assert_eq!(st.deal_source(), DealSource::Seed(77));
    let mut rng = GameRng::new(1);
    assert_eq!(
        st.determinize(0, &mut rng).deal_source(),
        DealSource::Unrecordable
    );
    let mut st = deal(&g, &["9C TD KS", "4H 5H 6H"], "2C", "KD");
    assert_eq!(st.deal_source(), DealSource::Unrecordable);
    let hint = st.best_arrangement(1).unwrap();
    assert_eq!((hint.deadwood, hint.discard), (0, None));
    play(&mut st, "draw");
    let hint = st.best_arrangement(1).unwrap();
    assert_eq!((hint.deadwood, hint.discard), (0, Some(card("KD"))));
    assert_eq!(st.best_arrangement(0).unwrap().deadwood, 29);
    assert!(st.best_arrangement(5).is_err());
}

// ---------------------------------------------------------------------------
// Options and actions
// ---------------------------------------------------------------------------

#[test]
fn tt_options_each_bad_option_names_itself() {
    for (name, bad) in [
        ("players", Int(1)),
        ("players", Int(9)),
        ("decks", Int(0)),
        ("decks", Int(9)),
        ("decks", s("many")),
        ("schedule", s("down")),
        ("extra_rounds", Int(3)),
        ("max_wilds_per_meld", Int(0)),
        ("max_wilds_per_meld", s("lots")),
        ("all_wild_melds", s("maybe")),
        ("forbid_rediscard", Int(2)),
        ("ace_high_or_low", s("high")),
        ("face_values_11_12_13", Int(11)),
        ("jokers", s("lots")),
        ("redemption_round", s("x")),
        ("double_jqk_rounds", Int(7)),
        ("false_out_penalty", Int(10)),
        ("false_out_penalty", Bool(true)),
        ("max_restocks", Int(-1)),
        ("max_restocks", Int(101)),
        ("three13.players", Int(2)),
        ("colour", s("red")),
    ] {
        let (opt, msg) = config_error::<ThreeThirteenGame>(&[(name, bad.clone())]);
        assert_eq!(opt.as_deref(), Some(name), "{name}={bad}: {msg}");
        assert!(msg.contains(name), "{name}={bad}: {msg}");
    }
    let (opt, msg) = config_error::<ThreeThirteenGame>(&[("players", Int(2)), ("players", Int(3))]);
    assert_eq!(opt.as_deref(), Some("players"));
    assert!(msg.contains("twice"), "{msg}");
    // Every option has help text and a rule ID.
    for spec in SCHEMA.options {
        assert!(
            !spec.help.is_empty() && spec.rule.starts_with("TT-"),
            "{}",
            spec.name
        );
    }
}

#[test]
fn tt_options_to_options_round_trips_over_random_option_sets() {
    let mut rng = GameRng::new(2024);
    let mut made = 0;
    for _ in 0..600 {
        let mut o: Vec<(&str, OptionValue)> = Vec::new();
        let mut maybe = |rng: &mut GameRng, name: &'static str, v: OptionValue| {
            if rng.below(2) == 0 {
                o.push((name, v));
            }
        };
        let pick = |rng: &mut GameRng, xs: &[&str]| s(xs[rng.below(xs.len() as u32) as usize]);
        let b = |rng: &mut GameRng| Bool(rng.below(2) == 1);
        let v = Int(2 + i64::from(rng.below(7)));
        maybe(&mut rng, "players", v);
        let d = if rng.below(3) == 0 {
            s("auto")
        } else {
            Int(1 + i64::from(rng.below(4)))
        };
        maybe(&mut rng, "decks", d);
        let v = pick(&mut rng, &["up", "up_down"]);
        maybe(&mut rng, "schedule", v);
        let v = Int(i64::from(rng.below(3)));
        maybe(&mut rng, "extra_rounds", v);
        let v = if rng.below(3) == 0 {
            s("unlimited")
        } else {
            Int(1 + i64::from(rng.below(4)))
        };
        maybe(&mut rng, "max_wilds_per_meld", v);
        for name in [
            "all_wild_melds",
            "forbid_rediscard",
            "ace_high_or_low",
            "face_values_11_12_13",
            "redemption_round",
            "double_jqk_rounds",
        ] {
            let v = b(&mut rng);
            maybe(&mut rng, name, v);
        }
        let v = pick(&mut rng, &["none", "wild", "wild_giftable"]);
        maybe(&mut rng, "jokers", v);
        let v = if rng.below(2) == 0 {
            s("none")
        } else {
            Int(20)
        };
        maybe(&mut rng, "false_out_penalty", v);
        let v = Int(i64::from(rng.below(6)));
        maybe(&mut rng, "max_restocks", v);
        let Ok(g) = ThreeThirteenGame::from_options(&options(&o)) else {
            // Only an explicit deck count that is too small is refused.
            let (opt, _) = config_error::<ThreeThirteenGame>(&o);
            assert_eq!(opt.as_deref(), Some("decks"), "{o:?}");
            continue;
        };
        made += 1;
        let back = Game::to_options(&g);
        assert_eq!(back.len(), SCHEMA.options.len());
        let again = ThreeThirteenGame::from_options(&back).unwrap();
        assert_eq!(again, g, "{o:?}");
        assert_eq!(Game::to_options(&again), back);
    }
    assert!(made > 300);
}

#[test]
fn tt_12_3_action_text_round_trips_over_every_id() {
    let g = game(&[]);
    assert_eq!(g.num_distinct_actions(), usize::from(action::COUNT));
    for a in 0..action::COUNT {
        let text = g.action_to_string(a).unwrap();
        assert_eq!(g.string_to_action(&text).unwrap(), a, "{text}");
        assert_eq!(g.string_to_action(&text.to_lowercase()).unwrap(), a);
        assert_eq!(Action::decode(a).unwrap().encode(), a);
    }
    assert!(g.action_to_string(action::COUNT).is_err());
    for (text, token) in [
        ("discard 1S", "1S"),
        ("out", "out"),
        ("layoff 7H X3", "X3"),
        ("layoff 7H M40", "M40"),
        ("gift 7H 1", "7H"),
        ("gift JK 9", "9"),
        ("fly", "fly"),
        ("draw now", "now"),
    ] {
        let e = g.string_to_action(text).unwrap_err().to_string();
        assert!(e.contains(&format!("{token:?}")), "{text}: {e}");
    }
    assert!(g.string_to_action("").is_err());
    assert_eq!(
        g.string_to_action("  Layoff 7h m3 ").unwrap(),
        act("layoff 7H M3")
    );
    assert_eq!(
        g.string_to_action("gift jk 1").unwrap(),
        action::GIFT_BASE + 1
    );
}

#[test]
fn tt_bots_by_spec() {
    assert_eq!(ThreeThirteenGame::NAME, "three_thirteen");
    let spec = ThreeThirteenGame::parse_bot("Strong:64").unwrap();
    assert_eq!(ThreeThirteenGame::bot_name(&spec), "strong:64");
    let e = ThreeThirteenGame::parse_bot("clever")
        .unwrap_err()
        .to_string();
    assert!(e.contains("\"clever\""), "{e}");
    let g = game(&[]);
    assert!(g.bot("greedy", 1).is_ok());
}

// ---------------------------------------------------------------------------
// To the letter: the last turns, going out, lay-offs, redemption choices
// ---------------------------------------------------------------------------

/// The rule a refused action names.
#[track_caller]
fn refusal_rule(st: &ThreeThirteenState, text: &str) -> &'static str {
    let why = st
        .refusal(parse_action(text).unwrap())
        .unwrap_or_else(|| panic!("{text} should be refused"));
    assert!(!why.reason.is_empty());
    why.rule
}

#[test]
fn tt_6_2_the_stock_guard_does_not_take_the_last_turns_away() {
    // The stock was rebuilt max_restocks (2) times: once it is empty again
    // a round nobody went out of ends (TT-9.3), but after an out every other
    // player still has its last turn (TT-6.2), and may draw from a rebuilt stock.
    let g = game(&[]);
    let hands = [cards("9C TD KS"), cards("4H 5H 6H")];
    let mut st = g
        .state_from_layout(0, 0, 1, &hands, &cards("5C 6D 7S"), &cards("KD"), 2)
        .unwrap();
    play_all(&mut st, &["draw", "out KD"]);
    assert_eq!(st.stock_size(), 0);
    assert_eq!(st.current_player(), Some(0), "seat 0 has its last turn");
    assert!(st.in_last_turns());
    assert!(can(&st, "draw"), "the stock is rebuilt for a last turn");
    play_all(&mut st, &["draw", "discard KS"]);
    assert_eq!(st.restocks(), 0, "the next round has begun");
    let r = st.last_round().unwrap();
    assert_eq!(r.end, RoundEnd::Out { player: 1 });
    assert_eq!(r.seats[1].points, 0);
}

#[test]
fn tt_6_2_the_stall_guard_does_not_take_the_last_turns_away() {
    // 19 turns of taking the discard and throwing it back, then seat 0
    // takes it and goes out: 20 turns without a stock draw would stall the
    // round (TT-9.3 extended), but seat 1 still has its last turn.
    let g = game(&[]);
    let hands = [cards("4H 5H 6H"), cards("9C TD KS")];
    let mut st = g
        .state_from_layout(0, 0, 1, &hands, &cards("KD"), &cards("QC JC TC"), 0)
        .unwrap();
    for _ in 0..19 {
        play_all(&mut st, &["take", "discard KD"]);
    }
    assert_eq!(st.current_player(), Some(0));
    play_all(&mut st, &["take", "out KD"]);
    assert_eq!(st.round(), 0, "the round goes on to the last turn");
    assert_eq!(st.current_player(), Some(1));
    play_all(&mut st, &["take", "discard KD"]);
    let r = st.last_round().unwrap();
    assert_eq!(r.end, RoundEnd::Out { player: 0 });
    assert_eq!(r.seats[0].points, 0);
}

#[test]
fn tt_6_2_a_last_turn_with_nothing_to_draw_passes() {
    // Seat 1 goes out; seat 2 takes that discard and gifts a joker (TT-10.4),
    // leaving no stock and no pile: seat 0's last turn passes, hand kept.
    let g = game(&[("players", Int(3)), ("jokers", s("wild_giftable"))]);
    let hands = [cards("9C TD KS"), cards("4H 5H 6H"), cards("JK 2D 8C")];
    let mut st = g
        .state_from_layout(0, 0, 1, &hands, &[], &cards("KD"), 2)
        .unwrap();
    play_all(&mut st, &["draw", "out KD", "take", "gift JK 0"]);
    let r = st.last_round().unwrap();
    assert_eq!(r.end, RoundEnd::Out { player: 1 });
    assert_eq!(r.seats[0].hand, sorted("9C TD KS"));
    assert_eq!(r.seats[2].hand, sorted("2D 8C KD"));
}

#[test]
fn tt_6_1_going_out_needs_every_card_in_a_meld_even_a_zero_point_joker() {
    // Round 2 (4 cards, fours wild), one substitute per meld: 5H 4C 7H is
    // a run with the four for 6H, and the joker has no meld to join.
    for jokers in ["wild", "wild_giftable"] {
        let g = game(&[("jokers", s(jokers))]);
        let mut st = deal_at(&g, 1, 0, &["9C TD KS QS", "5H 4C 7H JK"], "2C", "KD");
        play(&mut st, "draw");
        refused(&mut st, "out KD");
        assert_eq!(refusal_rule(&st, "out KD"), "TT-6.1");
        let why = st.refusal(parse_action("out KD").unwrap()).unwrap();
        if jokers == "wild_giftable" {
            assert!(why.reason.contains("joker"), "{}", why.reason);
        }
    }
    // With a second substitute allowed, the joker joins the run.
    let g = game(&[
        ("jokers", s("wild_giftable")),
        ("max_wilds_per_meld", Int(2)),
    ]);
    let mut st = deal_at(&g, 1, 0, &["9C TD KS QS", "5H 4C 7H JK"], "2C", "KD");
    play(&mut st, "draw");
    assert!(can(&st, "out KD"));
}

#[test]
fn tt_10_6_a_lay_off_may_turn_a_run_into_a_book() {
    // Round 2 (4 cards, fours wild), no wild limit: seat 1 goes out with
    // AH 4C 4H 4S, tabled as the run A-2-3-4 of hearts. AS laid off on it
    // leaves a valid meld, a book of aces with three wilds.
    let g = game(&[
        ("redemption_round", Bool(true)),
        ("max_wilds_per_meld", s("unlimited")),
    ]);
    let mut st = deal_at(&g, 1, 0, &["AS 9C TD KS", "AH 4C 4H 4S"], "2C", "KD QD");
    play_all(&mut st, &["draw", "out KD", "draw"]);
    let m0 = &st.tabled_melds()[0].meld;
    assert_eq!(m0.kind, cardtable_core::meld::MeldKind::Run, "{m0:?}");
    assert!(can(&st, "layoff AS M0"));
    play(&mut st, "layoff AS M0");
    let m0 = &st.tabled_melds()[0].meld;
    assert_eq!(m0.kind, cardtable_core::meld::MeldKind::Set);
    assert_eq!(m0.len(), 5);
    // A card that makes no meld is still refused, naming the rule.
    assert_eq!(refusal_rule(&st, "layoff KS M0"), "TT-10.6");
}

#[test]
fn tt_10_9_false_outs_are_counted_past_255_in_one_round() {
    // Seat 1 declares a false out every turn until the stock guard ends the
    // round (TT-9.3): hundreds of them, each 20 points (TT-10.9).
    let g = game(&[("false_out_penalty", Int(20)), ("max_restocks", Int(8))]);
    let mut st = g.deal(7, Some(0)).unwrap();
    let mut solver = cardtable_core::Solver::new();
    let mut declared = 0u32;
    while st.round() == 0 {
        let seat = st.current_player().unwrap();
        if st.phase() == Phase::Draw {
            let a = if can(&st, "draw") { "draw" } else { "take" };
            play(&mut st, a);
            continue;
        }
        let hand = st.hand(seat).to_vec();
        let invalid = hand.iter().copied().find(|&c| {
            let mut rest = hand.clone();
            let i = rest.iter().position(|&h| h == c).unwrap();
            rest.remove(i);
            solver.deadwood(&rest, st.rules()).unwrap() > 0
        });
        match (seat, invalid) {
            (1, Some(c)) => {
                st.apply_action(Action::GoOut(c).encode()).unwrap();
                declared += 1;
                if st.round() == 0 {
                    assert_eq!(st.false_outs(1), declared);
                }
            }
            _ => {
                let c = *hand.last().unwrap();
                let a = Action::Discard(c).encode();
                if st.is_legal(a) {
                    st.apply_action(a).unwrap();
                } else {
                    st.apply_action(st.legal_actions()[0]).unwrap();
                }
            }
        }
    }
    assert!(declared > 300, "{declared} false outs");
    let r = st.last_round().unwrap();
    assert_eq!(r.seats[1].false_outs, declared);
    assert_eq!(
        r.seats[1].points,
        i64::from(r.seats[1].deadwood) + 20 * i64::from(declared)
    );
}

#[test]
fn tt_10_6_the_going_out_player_tables_a_giftable_joker_as_the_go_out_test_counts_it() {
    // Round 10 (12 cards, queens wild), jokers wild and giftable: seat 1
    // takes the joker and goes out discarding 6D. The go-out test (TT-6.1)
    // counts a joker as unmelded, so the melds laid face up (TT-10.6) come
    // from the same count: every card is tabled, the joker with them
    // (7H 8H 9H TH JK QH | 2D QS 4D | 8C 8S JK), and nothing stays in hand.
    let g = game(&[
        ("jokers", s("wild_giftable")),
        ("redemption_round", Bool(true)),
    ]);
    let mut st = deal_at(
        &g,
        9,
        0,
        &[
            "2C 3C 5C 7C 9C JC KC 2S 4S 6S 9S TS",
            "8C 2D 4D 6D 7H 8H 9H TH QH 8S QS JK",
        ],
        "JK",
        "",
    );
    play_all(&mut st, &["take", "out 6D"]);
    assert_eq!(st.out_player(), Some(1));
    assert_eq!(
        st.hand(1),
        &[] as &[Card],
        "the going-out hand is all tabled"
    );
    let tabled: usize = st.tabled_melds().iter().map(|t| t.meld.len()).sum();
    assert_eq!(tabled, 12);
    assert!(st.card_counts_ok());
}

/// Round 3 (5 cards, fives wild): seat 1 goes out with the run 9H … KH
/// (tabled as M0); seat 0 holds 6H 7H 8H 6C 6D and draws KD.
fn redemption_choice() -> ThreeThirteenState {
    let g = game(&[("redemption_round", Bool(true))]);
    let mut st = deal_at(
        &g,
        2,
        0,
        &["6H 7H 8H 6C 6D", "9H TH JH QH 2C"],
        "2S",
        "KH KD",
    );
    play_all(&mut st, &["draw", "out 2C", "draw"]);
    assert_eq!(st.tabled_melds()[0].meld.cards, sorted("9H TH JH QH KH"));
    st
}

#[test]
fn tt_10_6_a_last_turn_player_chooses_the_melds_to_table() {
    // The solver's arrangement tables the run 6H 7H 8H (6C 6D cost 12,
    // less than 7H 8H); laid down at once it leaves 12 points.
    let mut st = redemption_choice();
    play_all(&mut st, &["table", "discard KD"]);
    assert_eq!(st.score_sheet()[0], vec![12, 0]);
    // A person tables the book of sixes instead and lays 8H and 7H off on
    // the run of hearts: every card is placed and seat 0 scores 0.
    let mut st = redemption_choice();
    play_all(&mut st, &["pick 6C", "pick 6H"]);
    assert_eq!(st.building(), sorted("6C 6H").as_slice());
    assert_eq!(st.hand(0).len(), 6, "picked cards stay in the hand");
    assert_eq!(refusal_rule(&st, "meld"), "TT-4.1");
    refused(&mut st, "meld");
    play_all(&mut st, &["pick 6D", "meld"]);
    assert!(st.building().is_empty());
    assert_eq!(st.tabled_melds()[1].owner, 0);
    assert_eq!(st.tabled_melds()[1].meld.cards, sorted("6C 6D 6H"));
    play_all(&mut st, &["layoff 8H M0", "layoff 7H M0", "discard KD"]);
    assert_eq!(st.score_sheet()[0], vec![0, 0]);
    assert_eq!(
        st.last_round().unwrap().tabled[0].meld.cards,
        sorted("7H 8H 9H TH JH QH KH")
    );
}

#[test]
fn tt_10_6_several_melds_a_turn_and_an_emptied_hand_ends_it() {
    // Round 4 (6 cards, sixes wild): 2C 2D 2H and 7S 8S 9S both tabled by
    // hand, the drawn 6S (wild) laid off: nothing left, no discard, 0 points.
    let g = game(&[("redemption_round", Bool(true))]);
    let mut st = deal_at(
        &g,
        3,
        0,
        &["2C 2D 2H 7S 8S 9S", "3H 4H 5H 6H 7H 8H"],
        "KC",
        "9H 6S",
    );
    play_all(&mut st, &["draw", "out 9H", "draw"]);
    play_all(
        &mut st,
        &[
            "pick 7S", "pick 8S", "pick 9S", "meld", "pick 2C", "pick 2D",
        ],
    );
    play_all(&mut st, &["pick 2H", "meld"]);
    assert_eq!(st.tabled_melds().len(), 3);
    assert_eq!(st.hand(0), cards("6S").as_slice());
    play(&mut st, "layoff 6S M2");
    assert_eq!(st.round(), 4, "the round is over");
    assert_eq!(st.score_sheet()[0], vec![0, 0]);
}

#[test]
fn tt_10_6_picks_are_let_go_by_any_other_action() {
    let mut st = redemption_choice();
    play_all(&mut st, &["pick 6C", "pick 6D"]);
    refused(&mut st, "pick 6C"); // the only 6C is picked already
    assert_eq!(refusal_rule(&st, "pick 6C"), "TT-10.6");
    play(&mut st, "layoff 8H M0");
    assert!(st.building().is_empty(), "the lay-off let the picks go");
    play_all(&mut st, &["pick 6C", "discard KD"]);
    // Scored by the solver (TT-7.1): the book 6C 6D 6H melds, 7H costs 7.
    assert_eq!(st.score_sheet()[0], vec![7, 0]);
}

#[test]
fn tt_3_4_refused_actions_name_their_rule() {
    let g = game(&[]);
    let mut st = deal(&g, &["9C TD KS", "4H 5H 8C"], "2C", "KD");
    assert_eq!(refusal_rule(&st, "discard 4H"), "TT-3.4");
    assert_eq!(refusal_rule(&st, "table"), "TT-11.2");
    assert_eq!(refusal_rule(&st, "gift JK 0"), "TT-10.4");
    assert!(st.refusal(parse_action("draw").unwrap()).is_none());
    let err = st
        .apply_action(parse_action("discard 4H").unwrap().encode())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("draw first") && err.contains("TT-3.4"),
        "{err}"
    );
    play(&mut st, "draw");
    assert_eq!(refusal_rule(&st, "draw"), "TT-3.4");
    assert_eq!(refusal_rule(&st, "discard AS"), "TT-3.4");
    assert_eq!(refusal_rule(&st, "out KD"), "TT-6.1");
    let g = game(&[("forbid_rediscard", Bool(true))]);
    let mut st = deal(&g, &["9C TD KS", "4H 5H 8C"], "2C", "KD");
    play(&mut st, "take");
    assert_eq!(refusal_rule(&st, "discard 2C"), "TT-3.5");
}

#[test]
fn take_back_only_what_shows_no_hidden_card_and_keeps_the_turn() {
    let g = game(&[]);
    let st = deal(&g, &["9C TD KS", "4H 5H 8C"], "2C", "KD");
    let take = parse_action("take").unwrap();
    let draw = parse_action("draw").unwrap();
    assert!(st.can_take_back(take));
    assert!(!st.can_take_back(draw), "a stock draw shows a hidden card");
    assert!(!st.can_take_back(parse_action("discard 4H").unwrap()));
    let mut after = st.clone();
    after.apply_action(draw.encode()).unwrap();
    assert!(!after.can_take_back(parse_action("discard KD").unwrap()));
    let mut st = redemption_choice();
    assert!(st.can_take_back(parse_action("pick 6C").unwrap()));
    assert!(st.can_take_back(parse_action("layoff 8H M0").unwrap()));
    assert!(st.can_take_back(parse_action("table").unwrap()));
    play_all(&mut st, &["pick 6C", "pick 6D", "pick 6H"]);
    assert!(st.can_take_back(parse_action("meld").unwrap()));
}

#[test]
fn the_rules_summary_follows_the_options() {
    let text = |g: &ThreeThirteenGame| -> String {
        g.config
            .rules_summary()
            .iter()
            .map(|p| format!("{} ({}): {}", p.title, p.rule, p.text))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let plain = text(&game(&[]));
    assert!(
        plain.contains("Rounds (TT-2): 11 rounds of 3 (3s), 4 (4s)"),
        "{plain}"
    );
    assert!(plain.contains("at most 1 per meld"));
    assert!(plain.contains(
        "Deadwood (TT-7.2): A 1, 2-10 their number, J 10, Q 10, K 10; an unused wild 15."
    ));
    assert!(!plain.contains("TT-10.6") && !plain.contains("TT-10.9"));
    let varied = text(&game(&[
        ("max_wilds_per_meld", s("unlimited")),
        ("false_out_penalty", Int(20)),
        ("ace_high_or_low", Bool(true)),
        ("face_values_11_12_13", Bool(true)),
        ("jokers", s("wild")),
        ("redemption_round", Bool(true)),
        ("extra_rounds", Int(2)),
    ]));
    assert!(varied.contains("any number of them per meld"), "{varied}");
    assert!(varied.contains("costs 20"));
    assert!(varied.contains(
        "A 15, 2-10 their number, J 11, Q 12, K 13; an unused wild 15, an unused joker 20."
    ));
    assert!(varied.contains("13 rounds of") && varied.contains("15 (2s)"));
    assert!(varied.contains("Redemption (TT-10.6)"));
}
