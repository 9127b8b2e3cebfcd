//! Gin Rummy rules (`docs/gin_rummy.md`), one test per rule ID: hands are
//! dealt from given deck orders (seat 0 receives the first hand, GR-1.4).

#![allow(clippy::unwrap_used)]

use cardtable_core::engine::options::OptionValue;
use cardtable_core::engine::{play_to_end, Controller, Decision, Game, State};
use cardtable_core::games::gin_rummy::{
    action, action_text, card_of_id, id_of_card, meld_text, parse_action, GinRummyGame,
    GinRummyState, Phase, MELD_MASKS,
};
use cardtable_core::{derive_seed, parse_hand, Card};

fn game(opts: &[(&str, OptionValue)]) -> GinRummyGame {
    let o: Vec<(String, OptionValue)> = opts
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    <GinRummyGame as Game>::from_options(&o).unwrap()
}

/// Seat 0 gets `p0`, seat 1 `p1` (completed with unnamed cards in card
/// order), then the upcard and the stock's top cards.
fn dealt(g: &GinRummyGame, p0: &str, p1: &str, up: &str, stock: &str) -> GinRummyState {
    let named = parse_hand(&format!("{p0} {p1} {up} {stock}")).unwrap();
    let mut second = parse_hand(p1).unwrap();
    let fill: Vec<Card> = (0..52u8)
        .map(|c| Card::from_code(c).unwrap())
        .filter(|c| !named.contains(c))
        .take(usize::from(g.config.hand_size) - second.len())
        .collect();
    second.extend(fill);
    let mut deck = parse_hand(p0).unwrap();
    deck.extend(second);
    deck.extend(parse_hand(&format!("{up} {stock}")).unwrap());
    g.deal_from_deck(&deck, 1).unwrap()
}

fn act(st: &mut GinRummyState, text: &str) {
    let a = parse_action(text).unwrap();
    st.apply_action(a)
        .unwrap_or_else(|e| panic!("{text}: {e} (legal {:?})", texts(st)));
}

fn texts(st: &GinRummyState) -> Vec<String> {
    st.legal_actions()
        .iter()
        .map(|&a| action_text(a).unwrap())
        .collect()
}

/// A card's OpenSpiel id (GR-1).
fn card_id(text: &str) -> u16 {
    u16::from(id_of_card(Card::parse(text).unwrap()).unwrap())
}

const KNOCKER: &str = "AS 2S 3S 4C 5C 6C 7D 8D 9D KH";

/// Seat 0 (KNOCKER) passes the upcard, seat 1 passes, seat 0 draws `draw`
/// from the stock, knocks, discards KH, lays `melds` and passes.
fn knocked_with(g: &GinRummyGame, p1: &str, draw: &str, melds: &[&str]) -> GinRummyState {
    let mut st = dealt(g, KNOCKER, p1, "QD", draw);
    act(&mut st, "pass");
    act(&mut st, "pass");
    act(&mut st, "draw stock");
    act(&mut st, "knock");
    act(&mut st, "discard KH");
    for m in melds {
        act(&mut st, m);
    }
    act(&mut st, "pass");
    st
}

fn knocked(g: &GinRummyGame, p1: &str, draw: &str) -> GinRummyState {
    knocked_with(
        g,
        p1,
        draw,
        &["meld AS 2S 3S", "meld 4C 5C 6C", "meld 7D 8D 9D"],
    )
}

const GIN: [&str; 3] = ["meld AS 2S 3S", "meld 4C 5C 6C", "meld 7D 8D 9D TD"];

#[test]
fn gr_1_3_the_deal_gives_each_hand_then_the_upcard_and_the_stock() {
    let g = game(&[]);
    let st = g.new_game(7, None).unwrap();
    assert_eq!(st.hand(0).len(), 10);
    assert_eq!(st.hand(1).len(), 10);
    assert!(st.upcard().is_some());
    assert_eq!(st.stock_size(), 31);
    assert_eq!(st.phase(), Phase::FirstUpcard);
    let small = game(&[("hand_size", OptionValue::Int(7))])
        .new_game(7, None)
        .unwrap();
    assert_eq!(small.stock_size(), 52 - 15);
    State::audit(&st).unwrap();
}

#[test]
fn gr_1_4_seat_zero_acts_first_unless_seat_zero_deals() {
    let g = game(&[]);
    let st = dealt(&g, KNOCKER, "", "QD", "");
    assert_eq!(st.decision(), Decision::Seat(0));
    assert_eq!(st.hand(0), {
        let mut h = parse_hand(KNOCKER).unwrap();
        h.sort();
        h
    });
    let other = g.new_game(7, Some(0)).unwrap();
    assert_eq!(other.decision(), Decision::Seat(1));
    assert_eq!(other.first_player(), 1);
}

#[test]
fn gr_2_1_card_ids_follow_openspiel_suit_order() {
    for (id, text) in [
        (0, "AS"),
        (12, "KS"),
        (13, "AC"),
        (26, "AD"),
        (39, "AH"),
        (51, "KH"),
    ] {
        assert_eq!(card_of_id(id).unwrap().to_string(), text);
        assert_eq!(id_of_card(Card::parse(text).unwrap()), Some(id));
    }
    for id in 0..52 {
        assert_eq!(id_of_card(card_of_id(id).unwrap()), Some(id));
    }
    assert_eq!(card_of_id(52), None);
}

#[test]
fn gr_2_3_meld_ids_are_openspiels() {
    let text = |m: u8| meld_text(m);
    assert_eq!(text(0), "AC AD AH");
    assert_eq!(text(1), "AS AD AH");
    assert_eq!(text(4), "AS AC AD AH");
    assert_eq!(text(64), "KS KC KD KH");
    assert_eq!(text(65), "AS 2S 3S");
    assert_eq!(text(108), "JH QH KH");
    assert_eq!(text(109), "AS 2S 3S 4S");
    assert_eq!(text(148), "TH JH QH KH");
    assert_eq!(text(149), "AS 2S 3S 4S 5S");
    assert_eq!(text(184), "9H TH JH QH KH");
    let mut seen = std::collections::HashSet::new();
    assert!(MELD_MASKS.iter().all(|m| seen.insert(*m)));
}

#[test]
fn gr_2_4_every_action_text_reads_back() {
    let g = game(&[]);
    for a in 0..action::COUNT {
        let t = g.action_to_string(a).unwrap();
        assert_eq!(g.string_to_action(&t).unwrap(), a, "{t}");
    }
    assert!(g.action_to_string(action::COUNT).is_err());
    assert_eq!(g.string_to_action("layoff 7H").unwrap(), card_id("7H"));
    assert!(g.string_to_action("9h 7h 8H").is_err());
    assert_eq!(
        g.string_to_action("meld 9h 7h 8H").unwrap(),
        g.string_to_action("meld 7H 8H 9H").unwrap()
    );
    assert!(g.string_to_action("meld 7H 8H").is_err());
    assert!(g.string_to_action("").is_err());
    assert_eq!(g.string_to_action("take").unwrap(), action::DRAW_UPCARD);
    assert_eq!(g.string_to_action("draw").unwrap(), action::DRAW_STOCK);
}

#[test]
fn gr_3_1_when_both_pass_the_first_upcard_seat_zero_must_draw_from_the_stock() {
    let mut st = dealt(&game(&[]), KNOCKER, "", "QD", "2H");
    assert_eq!(st.legal_actions(), vec![action::DRAW_UPCARD, action::PASS]);
    act(&mut st, "pass");
    assert_eq!(st.decision(), Decision::Seat(1));
    act(&mut st, "pass");
    assert_eq!(st.decision(), Decision::Seat(0));
    assert_eq!(st.legal_actions(), vec![action::DRAW_STOCK]);
    act(&mut st, "draw stock");
    assert_eq!(st.upcard(), None);
    assert_eq!(st.view(0).discard_pile, parse_hand("QD").unwrap());
    assert!(st.hand(0).contains(&Card::parse("2H").unwrap()));
}

#[test]
fn gr_3_2_the_second_player_may_take_the_first_upcard_and_the_first_then_draws() {
    let mut st = dealt(&game(&[]), KNOCKER, "", "QD", "");
    act(&mut st, "pass");
    act(&mut st, "draw upcard");
    assert_eq!(st.phase(), Phase::Discard);
    assert_eq!(st.decision(), Decision::Seat(1));
    act(&mut st, "discard QD");
    assert_eq!(st.phase(), Phase::Draw);
    assert_eq!(st.decision(), Decision::Seat(0));
    assert_eq!(st.upcard_draws(), 0);
}

#[test]
fn gr_4_1_a_stock_draw_kills_the_upcard() {
    let mut st = dealt(&game(&[]), KNOCKER, "", "QD", "2H 3H");
    act(&mut st, "pass");
    act(&mut st, "pass");
    act(&mut st, "draw stock");
    act(&mut st, "discard 2H");
    assert_eq!(st.upcard(), Some(Card::parse("2H").unwrap()));
    act(&mut st, "draw stock");
    assert_eq!(st.view(0).discard_pile, parse_hand("QD 2H").unwrap());
}

#[test]
fn gr_4_2_the_card_just_drawn_may_be_discarded() {
    let mut st = dealt(&game(&[]), KNOCKER, "", "QD", "");
    act(&mut st, "draw upcard");
    assert!(st.is_legal(card_id("QD")));
    act(&mut st, "discard QD");
}

#[test]
fn gr_5_1_the_exact_best_discard_decides_a_knock_where_openspiel_refuses() {
    // OpenSpiel's 11-card deadwood of this hand is 11; discarding 5C leaves 9.
    let mut st = dealt(&game(&[]), "4S 5S 6S 2C 5C 2D 6D 3H 4H 5H", "", "6H", "");
    act(&mut st, "draw upcard");
    assert!(st.is_legal(action::KNOCK));
    act(&mut st, "knock");
    let discards: Vec<u16> = st.legal_actions();
    assert_eq!(discards, {
        let mut v = vec![card_id("5C"), card_id("6D")];
        v.sort();
        v
    });
    // Knock is not legal with more deadwood.
    let mut far = dealt(&game(&[]), "AS 3S 5S 7S 9S JC KC 2D 4D 6D", "", "8H", "");
    act(&mut far, "draw upcard");
    assert!(!far.is_legal(action::KNOCK));
    let err = far.apply_action(action::KNOCK).unwrap_err().to_string();
    assert!(err.contains("GR-5.1"), "{err}");
}

#[test]
fn gr_5_2_the_knock_discard_goes_to_the_pile_and_keeps_the_deadwood() {
    let mut st = dealt(&game(&[]), KNOCKER, "", "QD", "2H");
    act(&mut st, "pass");
    act(&mut st, "pass");
    act(&mut st, "draw stock");
    act(&mut st, "knock");
    // KH leaves 2, 2H leaves 10: both keep deadwood <= 10; no other card does.
    assert_eq!(
        st.legal_actions(),
        vec![card_id("KH"), card_id("2H")]
            .into_iter()
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect::<Vec<_>>()
    );
    act(&mut st, "discard KH");
    assert_eq!(st.upcard(), None);
    assert_eq!(st.view(1).discard_pile, parse_hand("QD KH").unwrap());
}

#[test]
fn gr_5_3_the_knocker_lays_melds_and_may_pass_once_low_enough() {
    let g = game(&[("knock_card", OptionValue::Int(10))]);
    let mut st = dealt(&g, KNOCKER, "", "QD", "2H");
    act(&mut st, "pass");
    act(&mut st, "pass");
    act(&mut st, "draw stock");
    act(&mut st, "knock");
    act(&mut st, "discard KH");
    // 43 points unmelded: no pass yet; the three melds are legal.
    assert!(!st.is_legal(action::PASS));
    act(&mut st, "meld AS 2S 3S");
    act(&mut st, "meld 4C 5C 6C");
    assert!(!st.is_legal(action::PASS));
    act(&mut st, "meld 7D 8D 9D");
    assert!(st.is_legal(action::PASS));
    // With a knock card of 10 and 7D8D9D left (24 + 2), no early pass.
    let mut early = dealt(&g, "AS 2S 3S 4C 5C 6C 7D 8D 9D 2C", "", "QD", "AH");
    act(&mut early, "pass");
    act(&mut early, "pass");
    act(&mut early, "draw stock");
    act(&mut early, "knock");
    act(&mut early, "discard 2C");
    act(&mut early, "meld 7D 8D 9D");
    act(&mut early, "meld 4C 5C 6C");
    // AS 2S 3S AH = 7 points: the knocker may keep the meld as deadwood.
    assert!(early.is_legal(action::PASS));
    act(&mut early, "pass");
    assert_eq!(early.phase(), Phase::Layoff);
    assert!(!early.finished_layoffs());
}

#[test]
fn gr_5_4_gin_skips_the_layoffs() {
    let st = knocked_with(&game(&[]), "4S JC QC KC 7H 8H 9H 2D 3D 4D", "TD", &GIN);
    // TD made 7D..TD: KH discarded, no deadwood: gin; 4S would fit AS2S3S.
    assert_eq!(st.phase(), Phase::Layoff);
    assert!(st.finished_layoffs());
    assert!(!st.is_legal(card_id("4S")));
}

#[test]
fn gr_6_1_layoffs_come_before_the_opponents_melds() {
    let mut st = knocked(&game(&[]), "4S JC QC KC 7H 8H 9H 2H 3D 4D", "AD");
    assert_eq!(st.decision(), Decision::Seat(1));
    // 4S fits AS2S3S, 3C and 7C fit 4C5C6C, 6D and TD fit 7D8D9D.
    assert_eq!(st.legal_actions(), vec![card_id("4S"), action::PASS]);
    act(&mut st, "layoff 4S");
    assert_eq!(st.legal_actions(), vec![action::PASS]);
    act(&mut st, "pass");
    let melds = st.legal_actions();
    assert!(melds.contains(&parse_action("meld JC QC KC").unwrap()));
    assert!(melds.contains(&parse_action("meld 7H 8H 9H").unwrap()));
    act(&mut st, "meld JC QC KC");
    act(&mut st, "meld 7H 8H 9H");
    act(&mut st, "pass");
    assert!(st.is_terminal());
    // Knocker: AD left (1); opponent: 2H 3D 4D (9): 8.
    assert_eq!(st.final_deadwood(), Some([1, 9]));
    assert_eq!(State::returns(&st), vec![8, -8]);
    assert_eq!(State::ending(&st), Some("knock"));
}

#[test]
fn gr_6_2_run_layoffs_extend_once_per_end() {
    let g = game(&[]);
    let mut st = dealt(
        &g,
        "4S 5S 6S 4C 5C 6C 7D 8D 9D KH",
        "3S 7S 8S 9S JC QC KC 2D 3D 4D",
        "QD",
        "2H",
    );
    act(&mut st, "pass");
    act(&mut st, "pass");
    act(&mut st, "draw stock");
    act(&mut st, "knock");
    act(&mut st, "discard KH");
    act(&mut st, "meld 4S 5S 6S");
    act(&mut st, "meld 4C 5C 6C");
    act(&mut st, "meld 7D 8D 9D");
    act(&mut st, "pass");
    let offer = |st: &GinRummyState| {
        let mut v: Vec<String> = st
            .legal_actions()
            .iter()
            .filter(|&&a| a < 52)
            .map(|&a| card_of_id(a as u8).unwrap().to_string())
            .collect();
        v.sort();
        v
    };
    assert_eq!(offer(&st), vec!["3S", "7S"]);
    act(&mut st, "layoff 7S");
    assert_eq!(offer(&st), vec!["3S", "8S"]);
    act(&mut st, "layoff 8S");
    // 9S is never offered (OpenSpiel's one-level extension).
    assert_eq!(offer(&st), vec!["3S"]);
}

#[test]
fn gr_6_2_a_three_card_set_takes_its_fourth_card() {
    let g = game(&[]);
    let mut st = dealt(
        &g,
        "7S 7C 7D 4C 5C 6C 8D 9D TD 2H",
        "7H JC QC KC JH QH KH 2D 3D 4D",
        "QD",
        "AH",
    );
    act(&mut st, "pass");
    act(&mut st, "pass");
    act(&mut st, "draw stock");
    act(&mut st, "knock");
    act(&mut st, "discard 2H");
    act(&mut st, "meld 7S 7C 7D");
    act(&mut st, "meld 4C 5C 6C");
    act(&mut st, "meld 8D 9D TD");
    act(&mut st, "pass");
    assert!(st.is_legal(card_id("7H")));
}

#[test]
fn gr_7_1_the_wall_comes_after_29_stock_draws_and_gr_7_2_a_wall_knock_takes_the_upcard() {
    let mut st = dealt(
        &game(&[]),
        "2C 8C TC QC 2D 4D TD QD 2H 4H",
        KNOCKER,
        "QS",
        "",
    );
    act(&mut st, "pass");
    act(&mut st, "pass");
    let mut draws = 0;
    while st.phase() != Phase::Wall {
        let seat = st.current_player().unwrap();
        let before = st.hand_mask(seat);
        act(&mut st, "draw stock");
        draws += 1;
        // Discard the card just drawn: hands never change.
        let drawn = st.hand_mask(seat) & !before;
        st.apply_action(drawn.trailing_zeros() as u16).unwrap();
    }
    assert_eq!(draws, 29);
    assert_eq!(st.stock_size(), 2);
    assert_eq!(st.decision(), Decision::Seat(1));
    assert_eq!(st.legal_actions(), vec![action::PASS, action::KNOCK]);
    assert!(!st.is_legal(action::DRAW_STOCK));
    let mut passed = st.clone();
    act(&mut passed, "pass");
    assert_eq!(State::ending(&passed), Some("wall"));
    assert_eq!(State::returns(&passed), vec![0, 0]);
    let up = st.upcard().unwrap();
    act(&mut st, "knock");
    assert!(st.wall_knock());
    assert!(st.hand(1).contains(&up));
    assert_eq!(st.hand(1).len(), 11);
    assert_eq!(st.phase(), Phase::Knock);
}

#[test]
fn gr_7_3_the_fiftieth_upcard_draw_ends_the_game() {
    let mut st = dealt(
        &game(&[]),
        "2C 4C 6C 8C TC 2D 4D 6D 8D TD",
        "3C 5C 7C 9C JC 3D 5D 7D 9D JD",
        "QS",
        "",
    );
    let mut taken = st.upcard_id().unwrap();
    act(&mut st, "draw upcard");
    let mut draws = 0;
    while !st.is_terminal() {
        // Discard anything but the card just taken.
        let a = st
            .legal_actions()
            .into_iter()
            .find(|&a| a < 52 && a != u16::from(taken))
            .unwrap();
        st.apply_action(a).unwrap();
        taken = st.upcard_id().unwrap();
        act(&mut st, "draw upcard");
        draws += 1;
    }
    assert_eq!(draws, 50);
    assert_eq!(State::ending(&st), Some("upcard_limit"));
    assert!(<GinRummyGame as Game>::ended_by_guard(&st));
    assert_eq!(State::returns(&st), vec![0, 0]);
}

#[test]
fn gr_7_4_two_throw_backs_in_a_row_end_the_game() {
    let mut st = dealt(&game(&[]), KNOCKER, "", "QS", "");
    act(&mut st, "draw upcard");
    act(&mut st, "discard QS");
    act(&mut st, "draw upcard");
    act(&mut st, "discard QS");
    assert_eq!(State::ending(&st), Some("repeated_move"));
    // One throw-back, then another discard, clears the flag.
    let mut st = dealt(&game(&[]), KNOCKER, "", "QS", "");
    act(&mut st, "draw upcard");
    act(&mut st, "discard QS");
    act(&mut st, "draw upcard");
    act(&mut st, "discard AC");
    act(&mut st, "draw upcard");
    act(&mut st, "discard AC");
    assert!(!st.is_terminal());
}

#[test]
fn gr_8_2_gin_scores_the_opponents_deadwood_and_the_bonus() {
    let g = game(&[("gin_bonus", OptionValue::Int(20))]);
    let mut st = knocked_with(&g, "4S JC QC KC 7H 8H 9H 2H 3D 4D", "TD", &GIN);
    assert!(st.finished_layoffs());
    act(&mut st, "meld JC QC KC");
    act(&mut st, "meld 7H 8H 9H");
    act(&mut st, "pass");
    // 4S 2H 3D 4D = 13 + 20.
    assert_eq!(State::returns(&st), vec![33, -33]);
    assert_eq!(State::ending(&st), Some("gin"));
}

#[test]
fn gr_8_3_an_undercut_scores_the_difference_and_the_bonus_to_the_opponent() {
    let mut st = knocked(&game(&[]), "7H 8H 9H TH JS QS KS 5H 5D 5S", "2H");
    act(&mut st, "pass");
    act(&mut st, "meld 7H 8H 9H TH");
    act(&mut st, "meld JS QS KS");
    act(&mut st, "meld 5S 5H 5D");
    act(&mut st, "pass");
    assert_eq!(st.final_deadwood(), Some([2, 0]));
    assert_eq!(State::returns(&st), vec![-27, 27]);
    assert_eq!(State::ending(&st), Some("undercut"));
}

#[test]
fn gr_8_4_equal_deadwood_scores_zero() {
    let mut st = knocked(&game(&[]), "7H 8H 9H TH JH JS QS KS AD AH", "2H");
    act(&mut st, "pass");
    act(&mut st, "meld 7H 8H 9H TH JH");
    act(&mut st, "meld JS QS KS");
    act(&mut st, "pass");
    assert_eq!(st.final_deadwood(), Some([2, 2]));
    assert_eq!(State::returns(&st), vec![0, 0]);
    assert_eq!(State::ending(&st), Some("knock_tie"));
}

#[test]
fn gr_8_1_an_opponent_who_lays_nothing_counts_the_whole_hand() {
    let mut st = knocked(&game(&[]), "7H 8H 9H TH JH JS QS KS AD AH", "2H");
    act(&mut st, "pass");
    act(&mut st, "pass");
    assert_eq!(State::returns(&st), vec![74, -74]);
}

#[test]
fn gr_9_1_oklahoma_sets_the_knock_card_from_the_first_upcard() {
    let g = game(&[
        ("oklahoma", OptionValue::Bool(true)),
        ("knock_card", OptionValue::Int(3)),
    ]);
    for (up, kc) in [("AD", 0), ("7H", 7), ("KD", 10), ("TD", 10)] {
        assert_eq!(dealt(&g, KNOCKER, "", up, "").knock_card(), kc, "{up}");
    }
    assert_eq!(
        dealt(
            &game(&[("knock_card", OptionValue::Int(3))]),
            KNOCKER,
            "",
            "AD",
            ""
        )
        .knock_card(),
        3
    );
}

#[test]
fn gr_10_1_views_hide_the_other_hand_until_the_end() {
    let g = game(&[]);
    let mut st = dealt(&g, KNOCKER, "", "QD", "");
    act(&mut st, "draw upcard");
    let v = st.view(1);
    assert_eq!(v.hand_sizes, vec![11, 10]);
    assert_eq!(v.known_cards[0], parse_hand("QD").unwrap());
    assert!(v.hands.is_none());
    assert!(v.legal_actions.is_empty());
    assert_eq!(State::observation(&st, 1).len(), 644);
    assert_eq!(st.view(0).legal_actions, st.legal_actions());
}

#[test]
fn the_options_are_checked() {
    for (k, v) in [
        ("knock_card", 11),
        ("hand_size", 0),
        ("hand_size", 11),
        ("gin_bonus", -1),
    ] {
        let o = vec![(k.to_string(), OptionValue::Int(v))];
        assert!(<GinRummyGame as Game>::from_options(&o).is_err(), "{k}={v}");
    }
    assert!(
        <GinRummyGame as Game>::from_options(&[("num_ranks".into(), OptionValue::Int(13))])
            .is_err()
    );
    let g = game(&[]);
    assert_eq!(
        <GinRummyGame as Game>::from_options(&g.to_options()).unwrap(),
        g
    );
    assert_eq!(g.num_distinct_actions(), 241);
}

#[test]
fn greedy_beats_random_and_every_bot_game_ends_cleanly() {
    for opts in [
        vec![],
        vec![("knock_card", OptionValue::Int(0))],
        vec![("hand_size", OptionValue::Int(3))],
    ] {
        let g = game(&opts);
        let mut total = 0i64;
        for i in 0..200u64 {
            let mut st = g.deal(derive_seed(5, i), None).unwrap();
            let greedy_seat = (i % 2) as usize;
            let mut bots: Vec<Box<dyn Controller<GinRummyState>>> = (0..2)
                .map(|s| {
                    g.bot(
                        if s == greedy_seat { "greedy" } else { "random" },
                        derive_seed(9, i * 2 + s as u64),
                    )
                    .unwrap()
                })
                .collect();
            play_to_end(&mut st, &mut bots, 2_000).unwrap();
            State::audit(&st).unwrap();
            assert!(st.is_terminal());
            total += State::returns(&st)[greedy_seat];
        }
        eprintln!("{opts:?}: greedy {total}");
        assert!(total > 0, "{opts:?}: greedy won {total} against random");
    }
}

#[test]
fn random_play_never_dead_ends() {
    let g = game(&[]);
    for i in 0..300u64 {
        let mut st = g.deal(i, None).unwrap();
        let mut bots: Vec<Box<dyn Controller<GinRummyState>>> = (0..2)
            .map(|s| g.bot("random", i * 2 + s).unwrap())
            .collect();
        play_to_end(&mut st, &mut bots, 2_000).unwrap();
        State::audit(&st).unwrap();
        assert_eq!(State::returns(&st).iter().sum::<i64>(), 0);
    }
}

/// engine_sim's invariants on many more deals than it plays: every id
/// probed at every step, hidden cards re-dealt without a change to views
/// or observations, the record replaying to the same fingerprint.
#[test]
fn random_play_keeps_the_contract_under_every_option() {
    use cardtable_core::engine::record::{record_of_state, replay};
    use cardtable_core::GameRng;
    let sets: Vec<Vec<(&str, OptionValue)>> = vec![
        vec![],
        vec![("knock_card", OptionValue::Int(0))],
        vec![("hand_size", OptionValue::Int(1))],
        vec![
            ("hand_size", OptionValue::Int(4)),
            ("knock_card", OptionValue::Int(3)),
        ],
        vec![("oklahoma", OptionValue::Bool(true))],
    ];
    let mut rng = GameRng::new(77);
    let mut endings = std::collections::BTreeMap::new();
    for opts in sets {
        let g = game(&opts);
        for i in 0..60u64 {
            let mut st = g.deal(derive_seed(31, i), Some((i % 2) as u8)).unwrap();
            let mut legal = Vec::new();
            while let Decision::Seat(seat) = st.decision() {
                State::legal_actions(&st, seat, &mut legal);
                assert!(!legal.is_empty(), "{opts:?}: a dead end");
                for a in 0..=action::COUNT {
                    let ok = legal.binary_search(&a).is_ok();
                    assert_eq!(State::is_legal(&st, seat, a), ok);
                    if !ok && rng.below(8) == 0 {
                        let before = st.clone();
                        assert!(st.apply(seat, a, 0).is_err());
                        assert!(before == st);
                    }
                }
                for s in 0..2 {
                    let hidden = st.determinize(s, &mut rng);
                    assert_eq!(
                        st.view(s),
                        hidden.view(s),
                        "{opts:?}: seat {s} sees hidden cards"
                    );
                    assert_eq!(State::observation(&st, s), State::observation(&hidden, s));
                }
                let a = legal[rng.below(legal.len() as u32) as usize];
                st.apply(seat, a, 0).unwrap();
                State::audit(&st).unwrap();
            }
            *endings.entry(State::ending(&st).unwrap()).or_insert(0) += 1;
            let rec = record_of_state(&g, &st, vec!["a".into(), "b".into()]).unwrap();
            let (_, again) = replay::<GinRummyGame>(&rec).unwrap();
            assert_eq!(again.fingerprint(), st.fingerprint());
        }
    }
    // Random play reaches most endings.
    assert!(endings.len() >= 4, "{endings:?}");
}

#[test]
fn gr_1_5_a_game_dealt_from_a_deck_records_its_deck_and_replays() {
    use cardtable_core::engine::record::{record_of_state, replay};
    let g = game(&[]);
    let deck = cardtable_core::DeckSpec::standard().shuffled(4);
    let mut st = <GinRummyGame as Game>::deal_from_deck(&g, &deck, 0).unwrap();
    assert_eq!(st.decision(), Decision::Seat(1));
    let mut bots: Vec<Box<dyn Controller<GinRummyState>>> =
        (0..2).map(|s| g.bot("greedy", s).unwrap()).collect();
    play_to_end(&mut st, &mut bots, 2_000).unwrap();
    let rec = record_of_state(&g, &st, vec!["a".into(), "b".into()]).unwrap();
    assert!(rec.deck.is_some());
    let (_, again) = replay::<GinRummyGame>(&rec).unwrap();
    assert!(again == st);
    // Bad decks are errors, not panics.
    assert!(g.deal_from_deck(&[Card::JOKER], 1).is_err());
    assert!(g.deal_from_deck(&[deck[0], deck[0]], 1).is_err());
    assert!(g.deal_from_deck(&deck, 2).is_err());
}

#[test]
fn gr_5_3_the_best_melds_leave_the_least_deadwood() {
    use cardtable_core::games::gin_rummy::{best_melds, deadwood, ids, mask_value};
    let g = game(&[]);
    for seed in 0..400u64 {
        let st = g.new_game(seed, None).unwrap();
        // Ten cards and eleven (with the upcard), as hands are (GR-1.3).
        let up = st.upcard_id().map_or(0, |c| 1u64 << c);
        for hand in [st.hand_mask(0), st.hand_mask(1) | up] {
            let melds = best_melds(hand);
            let mut used = 0u64;
            for &m in &melds {
                let mask = MELD_MASKS[usize::from(m)];
                assert_eq!(
                    mask & hand,
                    mask,
                    "meld {} is not in the hand",
                    meld_text(m)
                );
                assert_eq!(mask & used, 0, "meld {} overlaps another", meld_text(m));
                used |= mask;
            }
            // What is left is the solver's least deadwood (GR-1.2).
            assert_eq!(
                mask_value(hand & !used),
                deadwood(hand),
                "{:?}",
                ids(hand).collect::<Vec<_>>()
            );
        }
    }
}

#[test]
fn gr_6_3_the_view_names_the_melds_to_lay_and_laying_them_scores_the_least_deadwood() {
    // The opponent (seat 1) holds a set, a run and deadwood: after the
    // knock it lays off nothing, passes, and the view's best melds are legal.
    let g = game(&[]);
    let mut st = knocked(&g, "QH QS QC 4H 5H 6H 7H 2D 9C JS", "TD");
    assert_eq!(st.phase(), Phase::Layoff);
    if st.legal_actions().contains(&action::PASS) {
        act(&mut st, "pass"); // done laying off
    }
    let view = st.view(1);
    assert!(!view.best_melds.is_empty());
    let deadwood = st.deadwood(1);
    for &m in &view.best_melds {
        let a = action::MELD_BASE + u16::from(m);
        assert!(st.is_legal(a), "{} is not legal", meld_text(m));
        st.apply_action(a).unwrap();
    }
    assert!(st.view(1).best_melds.is_empty());
    act(&mut st, "pass");
    assert!(st.is_terminal());
    assert_eq!(st.final_deadwood().unwrap()[1], deadwood);
}

#[test]
fn the_rules_summary_follows_the_options() {
    let text = |g: &GinRummyGame| -> String {
        Game::rules_summary(g)
            .iter()
            .map(|p| format!("{} ({}): {}", p.title, p.rule, p.text))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let plain = text(&game(&[]));
    assert!(
        plain.contains("Card values (GR-1.2): A 1, 2-10 their number, J 10, Q 10, K 10."),
        "{plain}"
    );
    assert!(plain.contains("The first upcard (GR-3)"));
    assert!(plain.contains("the dead cards"));
    assert!(plain.contains("The wall (GR-7.1)"));
    assert!(plain.contains("at most 10:"));
    assert!(plain.contains("plus 25 for gin"));
    assert!(!plain.contains("Oklahoma"));
    let varied = text(&game(&[
        ("gin_bonus", OptionValue::Int(20)),
        ("undercut_bonus", OptionValue::Int(10)),
        ("oklahoma", OptionValue::Bool(true)),
    ]));
    assert!(
        varied.contains("plus 20 for gin") && varied.contains("plus 10;"),
        "{varied}"
    );
    assert!(varied.contains("Oklahoma (GR-9.1)") && varied.contains("set by the first upcard"));
    assert!(text(&game(&[("knock_card", OptionValue::Int(0))])).contains("only gin may knock"));
}
