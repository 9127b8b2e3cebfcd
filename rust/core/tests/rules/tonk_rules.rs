//! Scenario tests for every Tonk rule of the specification
//! (`/work/shared/rules.md` §1, TK-1 … TK-13). Each test is named after the
//! rule it checks; the deals are stacked with `state_from_hands` so every
//! draw is known, and the expected values are the specification's.

#![allow(clippy::unwrap_used)]

use crate::common::{card, cards, config_error, options, s};
use cardtable_core::engine::record::{record_of_state, replay, Record};
use cardtable_core::engine::Game as _;
use cardtable_core::engine::State as _;
use cardtable_core::games::tonk::{
    action, drop_settlement, parse_action, spread_catalogue, Action, DealWins, DoubleDouble,
    DoubleRequires, DropPayout, DropTiming, Ending, HandSize, LockUnit, Phase, Preset, StockOutEnd,
    StockOutTie, TonkGame, TonkMatch, TonkState,
};
use cardtable_core::games::{OptionValue, Transfer};
use cardtable_core::{derive_seed, Card, CoreError, DeckSpec, GameRng, MeldKind};
use OptionValue::{Bool, Int};

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/// The engine's record of a Tonk hand.
fn record_of(st: &TonkState, players: Vec<String>) -> Result<Record, CoreError> {
    let game = TonkGame::from_options(&st.config().to_options()).unwrap();
    record_of_state(&game, st, players)
}

/// Replays a Tonk record, checking that it ends as recorded.
fn replayed(rec: &Record) -> Result<TonkState, CoreError> {
    replay::<TonkGame>(rec).map(|(_, st)| st)
}

fn try_game(o: &[(&str, OptionValue)]) -> Result<TonkGame, CoreError> {
    TonkGame::from_options(&options(o))
}

#[track_caller]
fn game(o: &[(&str, OptionValue)]) -> TonkGame {
    try_game(o).unwrap_or_else(|e| panic!("options {o:?}: {e}"))
}

fn mask(t: &str) -> u64 {
    cards(t).iter().fold(0, |m, c| m | 1u64 << c.code())
}

fn mask_to_cards(m: u64) -> Vec<Card> {
    (0..52u8)
        .filter(|c| m & (1u64 << c) != 0)
        .map(|c| Card::from_code(c).unwrap())
        .collect()
}

/// A hand dealt so that each seat holds `hands[seat]`, with this upcard and
/// these next stock cards (top first).
#[track_caller]
fn deal(
    g: &TonkGame,
    dealer: u8,
    hands: &[&str],
    upcard: Option<&str>,
    stock_top: &str,
) -> TonkState {
    let hs: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
    g.state_from_hands(dealer, &hs, upcard.map(card), &cards(stock_top))
        .unwrap()
}

fn act(text: &str) -> u16 {
    parse_action(text)
        .unwrap_or_else(|e| panic!("{text:?}: {e}"))
        .encode()
}

fn texts(actions: &[u16]) -> Vec<String> {
    actions
        .iter()
        .map(|&a| game(&[]).action_to_string(a).unwrap())
        .collect()
}

fn legal_text(st: &TonkState) -> Vec<String> {
    texts(&st.legal_actions())
}

fn can(st: &TonkState, text: &str) -> bool {
    let a = act(text);
    let listed = st.legal_actions().contains(&a);
    assert_eq!(st.is_legal(a), listed, "is_legal({text}) disagrees");
    listed
}

#[track_caller]
fn play(st: &mut TonkState, text: &str) {
    let a = act(text);
    if let Err(e) = st.apply_action(a) {
        panic!(
            "{text:?} by {:?} in {:?}: {e}; legal: {:?}",
            st.current_player(),
            st.phase(),
            legal_text(st)
        );
    }
}

#[track_caller]
fn play_all(st: &mut TonkState, actions: &[&str]) {
    for a in actions {
        play(st, a);
    }
}

/// Asserts that an action is not legal, is refused, and changes nothing.
#[track_caller]
fn refused(st: &mut TonkState, text: &str) {
    let a = act(text);
    assert!(
        !st.is_legal(a),
        "{text} should be illegal; legal: {:?}",
        legal_text(st)
    );
    assert!(!st.legal_actions().contains(&a));
    assert!(
        st.refusal(parse_action(text).unwrap()).is_some(),
        "{text} is illegal but has no refusal"
    );
    let before = st.clone();
    let err = st.apply_action(a).unwrap_err();
    assert!(matches!(err, CoreError::IllegalAction(_)), "{err:?}");
    assert_eq!(*st, before, "a refused action changed the state");
}

/// Passes every pending drop window (TK-6.8).
fn pass_windows(st: &mut TonkState) {
    while st.phase() == Phase::Window {
        st.apply_action(action::PASS).unwrap();
    }
}

/// The seats offered a drop in the current window, in order (on a copy).
fn window_order(st: &TonkState) -> Vec<u8> {
    let mut c = st.clone();
    let mut order = Vec::new();
    while c.phase() == Phase::Window {
        order.push(c.current_player().unwrap());
        c.apply_action(action::PASS).unwrap();
    }
    order
}

/// A turn that changes no hand: draw from the stock, discard the card drawn.
#[track_caller]
fn draw_and_discard(st: &mut TonkState) -> Card {
    pass_windows(st);
    let p = st.current_player().unwrap();
    assert_eq!(st.phase(), Phase::TurnStart);
    let before = st.hand(p);
    play(st, "draw");
    pass_windows(st);
    let drawn = mask_to_cards(st.hand(p) & !before)[0];
    play(st, &format!("discard {drawn}"));
    pass_windows(st);
    drawn
}

/// A turn that changes no hand and draws nothing: take the discard, discard it again.
#[track_caller]
fn take_and_rediscard(st: &mut TonkState) {
    pass_windows(st);
    let top = st.top_discard().unwrap();
    play(st, "take");
    pass_windows(st);
    play(st, &format!("discard {top}"));
    pass_windows(st);
}

fn sorted(ts: &[Transfer]) -> Vec<(u8, u8, u32)> {
    let mut v: Vec<(u8, u8, u32)> = ts.iter().map(|t| (t.payer, t.payee, t.amount)).collect();
    v.sort_unstable();
    v
}

fn settlement(st: &TonkState) -> Vec<(u8, u8, u32)> {
    sorted(st.settlement())
}

fn net(ts: &[Transfer], n: usize) -> Vec<i64> {
    let mut r = vec![0i64; n];
    for t in ts {
        r[usize::from(t.payer)] -= i64::from(t.amount);
        r[usize::from(t.payee)] += i64::from(t.amount);
    }
    r
}

#[track_caller]
fn assert_counts(st: &TonkState, counts: &[u32]) {
    let actual: Vec<u32> = (0..counts.len() as u8).map(|p| st.count(p)).collect();
    assert_eq!(actual, counts, "counts by seat");
}

#[track_caller]
fn assert_over(st: &TonkState, ending: Ending, transfers: &[(u8, u8, u32)]) {
    assert_eq!(st.phase(), Phase::Over);
    assert!(st.is_terminal());
    assert_eq!(st.current_player(), None);
    assert!(st.legal_actions().is_empty());
    assert_eq!(st.ending(), Some(ending));
    let mut want = transfers.to_vec();
    want.sort_unstable();
    assert_eq!(settlement(st), want, "settlement");
    assert_eq!(st.returns().iter().sum::<i64>(), 0);
    assert!(st.card_locations_ok());
}

#[track_caller]
fn assert_going(st: &TonkState) {
    assert!(
        !st.is_terminal(),
        "the hand ended: {:?} {:?}",
        st.ending(),
        st.settlement()
    );
}

/// A random legal action, dropping rarely so hands also run long.
fn random_action(st: &TonkState, rng: &mut GameRng) -> u16 {
    let legal = st.legal_actions();
    let mut a = legal[rng.below(legal.len() as u32) as usize];
    if a == action::DROP && legal.len() > 1 && rng.below(12) != 0 {
        a = *legal.iter().find(|&&x| x != action::DROP).unwrap();
    }
    a
}

fn random_hand(g: &TonkGame, seed: u64, rng: &mut GameRng) -> TonkState {
    let mut st = g.deal(seed, None).unwrap();
    while !st.is_terminal() {
        let a = random_action(&st, rng);
        st.apply_action(a).unwrap();
    }
    st
}

// Two-player scenario hands (dealer 0, so seat 1 plays first).
const PLAIN_A: &str = "2C 5D 8H JS 4C"; // 29
const PLAIN_B: &str = "3D 6C 9S QC 7D"; // 35
const PLAIN_C: &str = "4H 7S TC KD 2S"; // 33
const H49: &str = "KC QD JH TS 9C"; // 49
const H49B: &str = "KS QH JC 9D TH"; // 49
const H50: &str = "KH QS JD TH TD"; // 50

// ---------------------------------------------------------------------------
// TK-1, TK-2: players and hand size
// ---------------------------------------------------------------------------

#[test]
fn tk_1_2_two_to_six_players() {
    for p in 2..=6 {
        let g = game(&[("players", Int(p))]);
        assert_eq!(g.players(), p as usize);
        let st = g.deal(1, None).unwrap();
        for seat in 0..p as u8 {
            assert_eq!(st.hand_size(seat), 5);
        }
    }
    for p in [0, 1, 7, 12] {
        let m = config_error::<TonkGame>(&[("players", Int(p))]).1;
        assert!(m.contains("2 to 6") && m.contains("TK-1.2"), "{m}");
    }
}

#[test]
fn tk_1_2_players_times_hand_size_plus_two_fits_the_deck() {
    // players × hand_size + 2 ≤ 52.
    for (p, h, ok) in [
        (6, 8, true),   // 50
        (5, 10, true),  // 52
        (4, 12, true),  // 50
        (6, 9, false),  // 56
        (5, 11, false), // 57
        (3, 12, true),  // 38
    ] {
        let o = [("players", Int(p)), ("hand_size", Int(h))];
        if ok {
            let g = game(&o);
            let st = g.deal(3, None).unwrap();
            assert_eq!(st.stock_size(), 52 - (p * h) as usize - 1);
        } else {
            let m = config_error::<TonkGame>(&o).1;
            assert!(m.contains("52") && m.contains("TK-1.2"), "{m}");
        }
    }
}

#[test]
fn tk_2_1_five_cards_by_default_whatever_the_player_count() {
    for p in 2..=6 {
        let g = game(&[("players", Int(p))]);
        assert_eq!(g.config.hand_size, 5);
        assert_eq!(g.config.hand_size_option, HandSize::Fixed(5));
        assert_eq!(g.config.deal_wins, DealWins::Pagat);
    }
}

#[test]
fn tk_2_3_by_players_table_two_nine_three_seven_four_plus_five() {
    for (p, h) in [(2, 9), (3, 7), (4, 5), (5, 5), (6, 5)] {
        let g = game(&[("players", Int(p)), ("hand_size", s("by_players"))]);
        assert_eq!(g.config.hand_size_option, HandSize::ByPlayers);
        assert_eq!(g.config.hand_size, h, "{p} players");
        let st = g.deal(11, Some(0)).unwrap();
        for seat in 0..p as u8 {
            assert_eq!(st.hand_size(seat), usize::from(h));
        }
        // Deal wins are off unless the hand size is 5.
        let expected = if h == 5 {
            DealWins::Pagat
        } else {
            DealWins::None
        };
        assert_eq!(g.config.deal_wins, expected, "{p} players");
    }
}

#[test]
fn tk_2_3_hand_size_is_limited_only_by_the_deck() {
    // players x hand_size + 2 <= 52: 2 players up to 25 cards, 3 up to 16, 6 up to 8.
    for (players, most) in [(2i64, 25i64), (3, 16), (4, 12), (5, 10), (6, 8)] {
        for size in [most, 13.min(most)] {
            let g = game(&[("players", Int(players)), ("hand_size", Int(size))]);
            assert_eq!(i64::from(g.config.hand_size), size);
            // Every size deals, plays to the end and keeps observations in [0, 1].
            let mut rng = GameRng::new(size as u64);
            for seed in 0..20 {
                let mut st = random_hand(&g, seed, &mut rng);
                let mut steps = 0;
                while !st.is_terminal() {
                    for seat in 0..players as u8 {
                        assert!(st.observation(seat).iter().all(|x| (0.0..=1.0).contains(x)));
                    }
                    let a = random_action(&st, &mut rng);
                    st.apply_action(a).unwrap();
                    steps += 1;
                    assert!(steps < 20_000);
                }
                assert!(st.card_locations_ok());
            }
        }
        let (option, m) =
            config_error::<TonkGame>(&[("players", Int(players)), ("hand_size", Int(most + 1))]);
        assert_eq!(option.as_deref(), Some("hand_size"));
        // Two players: past the schema's 25; more: past the deck.
        assert!(m.contains("52") || m.contains("2 to 25"), "{m}");
    }
}

#[test]
fn tk_2_3_deal_wins_off_by_default_when_the_hand_size_is_not_five() {
    // Seven cards counting 49: no deal win unless deal_wins is given.
    let hands = ["KC QC JC TC 5C 2D 2H", "3S 4S 6D 7D 8H 9H AS"];
    let g = game(&[("hand_size", Int(7))]);
    assert_eq!(g.config.deal_wins, DealWins::None);
    let st = deal(&g, 0, &hands, Some("KD"), "");
    assert_eq!(st.count(0), 49);
    assert_going(&st);

    let g = game(&[("hand_size", Int(7)), ("deal_wins", s("pagat"))]);
    assert_eq!(g.config.deal_wins, DealWins::Pagat);
    let st = deal(&g, 0, &hands, Some("KD"), "");
    assert_over(&st, Ending::DealWin { player: 0, paid: 2 }, &[(1, 0, 2)]);
}

// ---------------------------------------------------------------------------
// TK-3: card values and the count
// ---------------------------------------------------------------------------

#[test]
fn tk_3_1_ace_one_pips_face_value_court_cards_ten() {
    let cfg = game(&[]).config;
    for (c, v) in [
        ("AC", 1),
        ("2D", 2),
        ("5H", 5),
        ("9S", 9),
        ("TC", 10),
        ("JD", 10),
        ("QH", 10),
        ("KS", 10),
    ] {
        assert_eq!(cfg.card_value(card(c)), v, "{c}");
    }
    assert_eq!(cfg.count(mask("AC 2D 9H TS JC QD KH")), 52);
}

#[test]
fn tk_3_2_count_is_the_hand_only_spreads_never_count() {
    let g = game(&[]);
    let mut st = deal(&g, 0, &[PLAIN_A, "5H 6H 7H KC QD"], Some("AS"), "2D");
    assert_counts(&st, &[29, 38]);
    play_all(&mut st, &["draw", "spread 5H 6H 7H"]);
    assert_eq!(st.count(1), 22); // KC QD 2D
    play(&mut st, "discard KC");
    assert_eq!(st.count(1), 12);
}

#[test]
fn tk_3_3_face_values_eleven_twelve_thirteen() {
    let g = game(&[("face_values", s("eleven_twelve_thirteen"))]);
    let cfg = g.config;
    for (c, v) in [("AC", 1), ("TD", 10), ("JH", 11), ("QS", 12), ("KC", 13)] {
        assert_eq!(cfg.card_value(card(c)), v, "{c}");
    }
    // 13 + 12 + 11 + 10 + 4 = 50: a deal win under these values only.
    let hands = [PLAIN_B, "KC QD JH TS 4C"];
    let st = deal(&g, 0, &hands, Some("AS"), "");
    assert_over(&st, Ending::DealWin { player: 1, paid: 2 }, &[(0, 1, 2)]);
    let st = deal(&game(&[]), 0, &hands, Some("AS"), "");
    assert_eq!(st.count(1), 44);
    assert_going(&st);
}

// ---------------------------------------------------------------------------
// TK-4: dealer, deal, upcard
// ---------------------------------------------------------------------------

#[test]
fn tk_4_1_dealer_draw_is_deterministic_per_seed_and_the_highest_card_deals() {
    for n in [2u8, 3, 4, 6] {
        let g = game(&[("players", Int(i64::from(n)))]);
        let mut seen = vec![0u32; usize::from(n)];
        for seed in 0..300u64 {
            let d = g.draw_for_dealer(seed);
            assert!(d < n);
            assert_eq!(d, g.draw_for_dealer(seed), "not deterministic");
            assert_eq!(g.deal(seed, None).unwrap().dealer(), d);
            seen[usize::from(d)] += 1;
            // The first draw, from the dealer stream of the seed (CM-6):
            // K high, A low; the highest deals; tied highest redraw.
            let mut deck = DeckSpec::standard().cards();
            GameRng::new(derive_seed(seed, 1)).shuffle(&mut deck);
            let ranks: Vec<u8> = deck[..usize::from(n)].iter().map(|c| c.rank()).collect();
            let best = *ranks.iter().max().unwrap();
            let top: Vec<u8> = (0..n).filter(|&p| ranks[usize::from(p)] == best).collect();
            if top.len() == 1 {
                assert_eq!(d, top[0], "seed {seed}: the highest card deals");
            } else {
                assert!(top.contains(&d), "seed {seed}: a tied highest player deals");
            }
        }
        assert!(seen.iter().all(|&k| k > 0), "every seat deals sometimes");
    }
}

#[test]
fn tk_4_3_dealt_one_at_a_time_clockwise_from_left_of_the_dealer() {
    // A given deck order, top first.
    let g = game(&[("players", Int(3))]);
    let deck: Vec<Card> = (0..52u8).map(|c| Card::from_code(c).unwrap()).collect();
    for dealer in 0..3u8 {
        let st = g.deal_from_deck(&deck, dealer).unwrap();
        for k in 0..3u8 {
            let seat = (dealer + 1 + k) % 3;
            let want: Vec<Card> = (0..5)
                .map(|round| deck[round * 3 + usize::from(k)])
                .collect();
            assert_eq!(st.hand_cards(seat), want, "dealer {dealer} seat {seat}");
        }
        assert_eq!(st.discard_pile(), &deck[15..16]); // TK-4.4: the next card is the upcard
        assert_eq!(st.stock().last(), Some(&deck[16])); // then the stock, top card last
        assert_eq!(st.stock_size(), 36);
    }
    // A seeded deal: the deal stream of the seed shuffles the deck (CM-6).
    for seed in 0..50u64 {
        for n in [2u8, 3, 5] {
            let g = game(&[("players", Int(i64::from(n)))]);
            let dealer = (seed % u64::from(n)) as u8;
            let st = g.deal(seed, Some(dealer)).unwrap();
            let deck = DeckSpec::standard().shuffled(derive_seed(seed, 0));
            for k in 0..n {
                let seat = (dealer + 1 + k) % n;
                let mut want: Vec<Card> = (0..5)
                    .map(|round| deck[round * usize::from(n) + usize::from(k)])
                    .collect();
                want.sort_by_key(|c| c.code());
                assert_eq!(st.hand_cards(seat), want, "seed {seed} seat {seat}");
            }
            let up = usize::from(n) * 5;
            assert_eq!(st.top_discard(), Some(deck[up]));
            assert_eq!(st.stock().last(), Some(&deck[up + 1]));
            assert_eq!(st.stock_size(), 52 - up - 1);
        }
    }
}

#[test]
fn tk_4_4_upcard_starts_the_discard_pile_and_may_be_taken() {
    let g = game(&[]);
    let mut st = deal(&g, 0, &[PLAIN_A, PLAIN_B], Some("KH"), "");
    assert_eq!(st.discard_pile(), &[card("KH")]);
    assert_eq!(st.stock_size(), 41);
    assert!(can(&st, "take"));
    play(&mut st, "take");
    assert!(st.hand_cards(1).contains(&card("KH")));
    assert!(st.discard_pile().is_empty());
}

#[test]
fn tk_4_5_no_upcard_the_first_player_must_draw() {
    let g = game(&[("upcard", Bool(false))]);
    let mut st = deal(&g, 0, &[PLAIN_A, PLAIN_B], None, "KH");
    assert!(st.discard_pile().is_empty());
    assert_eq!(st.stock_size(), 42);
    assert_eq!(st.current_player(), Some(1));
    assert!(!can(&st, "take"));
    assert!(can(&st, "draw"));
    refused(&mut st, "take");
    play(&mut st, "draw");
    assert!(st.hand_cards(1).contains(&card("KH")));
    // Seeded deals have no upcard either; a stacked upcard is refused.
    let st = g.deal(5, Some(1)).unwrap();
    assert!(st.discard_pile().is_empty());
    assert_eq!(st.stock_size(), 42);
    let hs = vec![cards(PLAIN_A), cards(PLAIN_B)];
    assert!(matches!(
        g.state_from_hands(0, &hs, Some(card("KH")), &[]),
        Err(CoreError::InvalidConfig { .. })
    ));
    assert!(matches!(
        game(&[]).state_from_hands(0, &hs, None, &[]),
        Err(CoreError::InvalidConfig { .. })
    ));
}

#[test]
fn tk_4_2_matches_rotate_the_dealer_after_every_hand_void_included_zero_sum_ledger() {
    // Low deal wins make void deals frequent enough to see some.
    let g = game(&[
        ("players", Int(3)),
        ("low_13", Bool(true)),
        ("stock_out_tie", s("void")),
    ]);
    let mut m = TonkMatch::new(g, 2024).unwrap();
    assert_eq!(m.dealer, g.draw_for_dealer(2024));
    let first = m.dealer;
    let mut rng = GameRng::new(9);
    let mut ledger = [0i64; 3];
    let mut voids = 0;
    for i in 0..400u64 {
        assert_eq!(m.dealer, ((u64::from(first) + i) % 3) as u8);
        let mut st = m.next_game().unwrap();
        assert_eq!(st.dealer(), m.dealer);
        assert_eq!(st.seed(), m.game_seed(i));
        // A hand that is not over cannot be booked.
        if !st.is_terminal() {
            assert!(m.record(&st).is_err());
            assert_eq!(m.games_played, i);
        }
        while !st.is_terminal() {
            let a = random_action(&st, &mut rng);
            st.apply_action(a).unwrap();
        }
        if matches!(st.ending(), Some(Ending::Void { .. })) {
            voids += 1;
            assert_eq!(st.returns(), vec![0, 0, 0]);
        }
        for (l, r) in ledger.iter_mut().zip(st.returns()) {
            *l += r;
        }
        m.record(&st).unwrap();
        assert_eq!(m.games_played, i + 1);
        assert_eq!(m.ledger, ledger.to_vec());
        assert_eq!(m.ledger.iter().sum::<i64>(), 0, "ledger not zero-sum");
    }
    assert!(voids > 0, "no void hand seen");
    assert!(ledger.iter().any(|&x| x != 0));
}

// ---------------------------------------------------------------------------
// TK-5: deal-time wins
// ---------------------------------------------------------------------------

#[test]
fn tk_5_2_forty_nine_or_fifty_wins_on_the_deal_two_stakes_from_each() {
    let g = game(&[("players", Int(3))]);
    for (h, count) in [(H49, 49), (H50, 50)] {
        let mut st = deal(&g, 0, &[PLAIN_A, PLAIN_B, h], Some("AS"), "");
        assert_eq!(st.count(2), count);
        assert_over(
            &st,
            Ending::DealWin { player: 2, paid: 2 },
            &[(0, 2, 2), (1, 2, 2)],
        );
        assert_eq!(st.returns(), vec![-2, -2, 4]);
        assert!(st.history().is_empty());
        assert!(st.apply_action(action::DRAW_STOCK).is_err());
    }
    // 48 and 47 win nothing (five cards count 50 at most).
    for h in ["KC QD JH TS 8C", "KC QD JH TS 7C"] {
        let st = deal(&g, 0, &[PLAIN_A, PLAIN_B, h], Some("AS"), "");
        assert_going(&st);
    }
}

#[test]
fn tk_5_3_two_deal_winners_void_the_hand() {
    let g = game(&[("players", Int(3))]);
    for (a, b) in [(H49, H50), (H49, H49B)] {
        let st = deal(&g, 0, &[PLAIN_C, a, b], Some("AS"), "");
        assert_over(&st, Ending::Void { stock_out: false }, &[]);
        assert_eq!(st.returns(), vec![0, 0, 0]);
    }
}

#[test]
fn tk_5_4_fifty_only() {
    let g = game(&[("deal_wins", s("fifty_only"))]);
    let st = deal(&g, 0, &[PLAIN_A, H49], Some("AS"), "");
    assert_going(&st);
    let st = deal(&g, 0, &[PLAIN_A, H50], Some("AS"), "");
    assert_over(&st, Ending::DealWin { player: 1, paid: 2 }, &[(0, 1, 2)]);
}

#[test]
fn tk_5_4_forty_nine_in_turn_fifty_wins_at_once() {
    let g = game(&[("players", Int(3)), ("deal_wins", s("forty_nine_in_turn"))]);
    let st = deal(&g, 0, &[H50, PLAIN_A, PLAIN_B], Some("AS"), "");
    assert_over(
        &st,
        Ending::DealWin { player: 0, paid: 2 },
        &[(1, 0, 2), (2, 0, 2)],
    );
}

#[test]
fn tk_5_4_forty_nine_in_turn_claimed_at_the_start_of_the_first_turn() {
    let g = game(&[("players", Int(3)), ("deal_wins", s("forty_nine_in_turn"))]);
    // Seat 1 plays first and holds 49: the claim comes first in its turn.
    let mut st = deal(&g, 0, &[PLAIN_A, H49, PLAIN_B], Some("AS"), "");
    assert_going(&st);
    assert_eq!(st.current_player(), Some(1));
    assert!(can(&st, "claim 49"));
    play(&mut st, "claim 49");
    assert_over(
        &st,
        Ending::DealWin { player: 1, paid: 2 },
        &[(0, 1, 2), (2, 1, 2)],
    );
    // Seat 2 holds 49: not offered to seat 1, offered at seat 2's first turn.
    let mut st = deal(&g, 0, &[PLAIN_A, PLAIN_B, H49], Some("AS"), "");
    assert!(!can(&st, "claim 49"));
    refused(&mut st, "claim 49");
    draw_and_discard(&mut st);
    assert_eq!(st.current_player(), Some(2));
    assert!(can(&st, "claim 49"));
    play(&mut st, "claim 49");
    assert_over(
        &st,
        Ending::DealWin { player: 2, paid: 2 },
        &[(0, 2, 2), (1, 2, 2)],
    );
}

#[test]
fn tk_5_4_forty_nine_in_turn_claim_lapses_when_the_hand_ended_first() {
    let g = game(&[("players", Int(3)), ("deal_wins", s("forty_nine_in_turn"))]);
    let mut st = deal(&g, 0, &[PLAIN_A, "AC 2D 3H 4S AD", H49], Some("AS"), "");
    play(&mut st, "drop"); // seat 1 (count 11) drops before seat 2's first turn
    assert_over(
        &st,
        Ending::Drop {
            player: 1,
            caught: false,
        },
        &[(0, 1, 1), (2, 1, 1)],
    );
}

#[test]
fn tk_5_4_forty_nine_in_turn_first_holder_to_reach_a_turn_wins() {
    let g = game(&[("players", Int(3)), ("deal_wins", s("forty_nine_in_turn"))]);
    // Seats 2 and 0 hold 49: no void at the deal; seat 2 plays before seat 0.
    let mut st = deal(&g, 0, &[H49B, PLAIN_A, H49], Some("AS"), "");
    assert_going(&st);
    draw_and_discard(&mut st);
    assert!(can(&st, "claim 49"));
    play(&mut st, "claim 49");
    assert_over(
        &st,
        Ending::DealWin { player: 2, paid: 2 },
        &[(0, 2, 2), (1, 2, 2)],
    );
    // If seat 2 does not claim, seat 0 still may at its own first turn.
    let mut st = deal(&g, 0, &[H49B, PLAIN_A, H49], Some("AS"), "");
    draw_and_discard(&mut st);
    draw_and_discard(&mut st);
    assert_eq!(st.current_player(), Some(0));
    assert!(can(&st, "claim 49"));
    play(&mut st, "claim 49");
    assert_eq!(st.ending(), Some(Ending::DealWin { player: 0, paid: 2 }));
}

#[test]
fn tk_5_4_forty_nine_in_turn_claim_not_offered_after_the_first_turn() {
    let g = game(&[("deal_wins", s("forty_nine_in_turn"))]);
    let mut st = deal(&g, 0, &[PLAIN_A, H49], Some("AS"), "");
    assert!(can(&st, "claim 49"));
    draw_and_discard(&mut st);
    draw_and_discard(&mut st);
    assert_eq!(st.current_player(), Some(1));
    assert_eq!(st.count(1), 49);
    assert!(!can(&st, "claim 49"));
    refused(&mut st, "claim 49");
    // Other deal-win rules never offer a claim.
    for dw in ["pagat", "fifty_only", "texas"] {
        let g = game(&[("deal_wins", s(dw))]);
        let st = deal(&g, 0, &[PLAIN_A, PLAIN_B], Some("AS"), "");
        assert!(!can(&st, "claim 49"), "{dw}");
    }
}

#[test]
fn tk_5_4_forty_nine_in_turn_claim_comes_before_the_any_time_drop_window() {
    let g = game(&[
        ("players", Int(3)),
        ("deal_wins", s("forty_nine_in_turn")),
        ("drop_timing", s("any_time")),
    ]);
    // Seat 2 (count 11) would drop in the window after the deal; seat 1
    // holds 49, plays first, and is offered the claim before anyone drops.
    let mut st = deal(&g, 0, &[PLAIN_A, H49, "AC 2D 3H 4S AD"], Some("AS"), "");
    assert_eq!(st.phase(), Phase::Window);
    assert_eq!(st.current_player(), Some(1));
    assert_eq!(legal_text(&st), vec!["drop", "pass", "claim 49"]);
    play(&mut st, "claim 49");
    assert_over(
        &st,
        Ending::DealWin { player: 1, paid: 2 },
        &[(0, 1, 2), (2, 1, 2)],
    );
    // Passing that window lets the claim lapse: seat 2 drops, and the 49
    // is not offered again at seat 1's turn start.
    let mut st = deal(&g, 0, &[PLAIN_A, H49, PLAIN_B], Some("AS"), "");
    play(&mut st, "pass");
    assert!(!can(&st, "claim 49"));
    pass_windows(&mut st);
    assert_eq!(st.phase(), Phase::TurnStart);
    assert_eq!(st.current_player(), Some(1));
    assert!(!can(&st, "claim 49"));
    // Seat 2 holds 49: offered in the window that opens seat 2's first
    // turn (seat 2 first), not in the windows of seat 1's turn.
    let mut st = deal(&g, 0, &[PLAIN_A, PLAIN_B, H49], Some("AS"), "");
    while st.turn_player() == 1 {
        if st.current_player() == Some(2) {
            assert!(!can(&st, "claim 49"));
        }
        let a = if st.phase() == Phase::Window {
            "pass".to_string()
        } else if st.phase() == Phase::TurnStart {
            "draw".to_string()
        } else {
            let top = mask_to_cards(st.hand(1))[0];
            format!("discard {top}")
        };
        play(&mut st, &a);
    }
    assert_eq!(st.phase(), Phase::Window);
    assert_eq!(st.current_player(), Some(2));
    assert!(can(&st, "claim 49"));
    play(&mut st, "claim 49");
    assert_eq!(st.ending(), Some(Ending::DealWin { player: 2, paid: 2 }));
}

#[test]
fn tk_5_4_texas_fifty_pays_two_forty_nine_pays_one() {
    for o in [
        vec![("deal_wins", s("texas"))],
        vec![("preset", s("texas"))],
    ] {
        let g = game(&o);
        let st = deal(&g, 0, &[PLAIN_A, H50], Some("AS"), "");
        assert_over(&st, Ending::DealWin { player: 1, paid: 2 }, &[(0, 1, 2)]);
        let st = deal(&g, 0, &[H49, PLAIN_B], Some("AS"), "");
        assert_over(&st, Ending::DealWin { player: 0, paid: 1 }, &[(1, 0, 1)]);
    }
}

#[test]
fn tk_5_4_low_13_pays_two() {
    let g = game(&[("players", Int(3)), ("low_13", Bool(true))]);
    let st = deal(&g, 0, &[PLAIN_A, "AC 2D 3H 4S 3C", PLAIN_B], Some("AS"), "");
    assert_eq!(st.count(1), 13);
    assert_over(
        &st,
        Ending::DealWin { player: 1, paid: 2 },
        &[(0, 1, 2), (2, 1, 2)],
    );
    let st = deal(&g, 0, &[PLAIN_A, "AC 2D 3H 4S 4D", PLAIN_B], Some("AS"), "");
    assert_eq!(st.count(1), 14);
    assert_going(&st);
    // Off by default.
    let st = deal(
        &game(&[("players", Int(3))]),
        0,
        &[PLAIN_A, "AC 2D 3H 4S 3C", PLAIN_B],
        Some("AS"),
        "",
    );
    assert_going(&st);
}

#[test]
fn tk_5_4_low_9_pays_three() {
    let g = game(&[("low_9", Bool(true))]);
    let st = deal(&g, 0, &[PLAIN_A, "AD AH 2H 2S 3S"], Some("AC"), "");
    assert_eq!(st.count(1), 9);
    assert_over(&st, Ending::DealWin { player: 1, paid: 3 }, &[(0, 1, 3)]);
    // 10 to 13 win nothing with low_9 alone.
    let st = deal(&g, 0, &[PLAIN_A, "AD AH 2H 2S 4S"], Some("AC"), "");
    assert_eq!(st.count(1), 10);
    assert_going(&st);
}

#[test]
fn tk_5_4_low_13_and_low_9_nine_or_less_pays_three_ten_to_thirteen_pays_two() {
    let g = game(&[("low_13", Bool(true)), ("low_9", Bool(true))]);
    for (h, c, paid) in [
        ("AD AH 2H 2S 3S", 9, 3),
        ("AD AH 2H 2S 4S", 10, 2),
        ("AD AH 2H 4S 5S", 13, 2),
        ("AD AH 2H 2S 6D", 12, 2),
        ("AD AH 2H 5S 5D", 14, 0),
    ] {
        let st = deal(&g, 0, &[PLAIN_B, h], Some("AC"), "");
        assert_eq!(st.count(1), c);
        if paid == 0 {
            assert_going(&st);
        } else {
            assert_over(
                &st,
                Ending::DealWin { player: 1, paid },
                &[(0, 1, u32::from(paid))],
            );
        }
    }
}

#[test]
fn tk_5_5_fifty_and_nine_or_less_at_once_void_the_hand() {
    let g = game(&[("players", Int(3)), ("low_9", Bool(true))]);
    let st = deal(&g, 0, &[PLAIN_B, H50, "AD AH 2H 2S 3S"], Some("AC"), "");
    assert_over(&st, Ending::Void { stock_out: false }, &[]);
    // Texas 49 with low_13: also void.
    let g = game(&[("deal_wins", s("texas")), ("low_13", Bool(true))]);
    let st = deal(&g, 0, &[H49, "AD AH 2H 2S 6D"], Some("AC"), "");
    assert_over(&st, Ending::Void { stock_out: false }, &[]);
}

#[test]
fn tk_5_6_reaching_forty_nine_or_fifty_later_means_nothing() {
    for dw in ["pagat", "forty_nine_in_turn", "texas", "fifty_only"] {
        let g = game(&[("deal_wins", s(dw)), ("low_13", Bool(true))]);
        // Seat 1 holds 41, draws TH and keeps it: 49 after the discard.
        let mut st = deal(&g, 0, &[PLAIN_C, "KC QD JH 9S 2C"], Some("AS"), "TH 8D");
        play_all(&mut st, &["draw", "discard 2C"]);
        assert_eq!(st.count(1), 49);
        assert_going(&st);
        // Seat 0 holds 35, draws 8D: 43 … and nothing happens either.
        draw_and_discard(&mut st);
        assert_eq!(st.current_player(), Some(1));
        assert_going(&st);
        assert!(!can(&st, "claim 49"), "{dw}");
        assert_eq!(st.phase(), Phase::TurnStart);
    }
    // A count of 13 or less reached in play is no deal win either.
    let g = game(&[("low_13", Bool(true)), ("low_9", Bool(true))]);
    let mut st = deal(&g, 0, &[PLAIN_B, "5H 6H 7H AC 2D"], Some("AS"), "3C");
    play_all(&mut st, &["draw", "spread 5H 6H 7H", "discard 3C"]);
    assert_eq!(st.count(1), 3);
    draw_and_discard(&mut st);
    assert_going(&st);
}

// ---------------------------------------------------------------------------
// TK-6: turn structure and drop timing
// ---------------------------------------------------------------------------

#[test]
fn tk_6_1_the_player_left_of_the_dealer_starts_and_turns_go_clockwise() {
    let g = game(&[("players", Int(4))]);
    for dealer in 0..4u8 {
        let mut st = g.deal(77 + u64::from(dealer), Some(dealer)).unwrap();
        if st.is_terminal() {
            continue;
        }
        for k in 1..=5u8 {
            assert_eq!(st.current_player(), Some((dealer + k) % 4));
            assert_eq!(st.turn_player(), (dealer + k) % 4);
            draw_and_discard(&mut st);
        }
    }
}

#[test]
fn tk_6_2_turn_phases_drop_or_draw_then_spread_and_hit_then_discard() {
    let g = game(&[]);
    let mut st = deal(&g, 0, &[PLAIN_C, "5H 6H 7H KC QD"], Some("AS"), "8H");
    assert_eq!(st.phase(), Phase::TurnStart);
    assert_eq!(
        legal_text(&st),
        vec!["draw".to_string(), "take".into(), "drop".into()]
    );
    // No spread, hit or discard before drawing.
    refused(&mut st, "spread 5H 6H 7H");
    refused(&mut st, "discard KC");
    play(&mut st, "draw");
    assert_eq!(st.phase(), Phase::Play);
    refused(&mut st, "draw");
    refused(&mut st, "take");
    assert!(can(&st, "spread 5H 6H 7H"));
    assert!(can(&st, "spread 5H 6H 7H 8H"));
    assert!(can(&st, "spread 6H 7H 8H"));
    play_all(&mut st, &["spread 6H 7H 8H", "hit 5H S0"]);
    assert_eq!(st.current_player(), Some(1));
    play(&mut st, "discard KC");
    assert_eq!(st.current_player(), Some(0));
    assert_eq!(st.phase(), Phase::TurnStart);
    assert_eq!(st.top_discard(), Some(card("KC")));
}

#[test]
fn tk_6_3_drop_only_at_the_start_of_ones_own_turn_by_default() {
    let g = game(&[]);
    assert_eq!(g.config.drop_timing, DropTiming::StartOfTurn);
    let mut st = deal(&g, 0, &[PLAIN_B, "5H 6H 7H KC QD"], Some("AS"), "2D");
    assert!(can(&st, "drop"));
    play(&mut st, "draw");
    assert!(!can(&st, "drop"));
    refused(&mut st, "drop");
    play(&mut st, "spread 5H 6H 7H");
    refused(&mut st, "drop");
    play(&mut st, "discard KC");
    // Seat 0 may drop at the start of its turn.
    assert!(can(&st, "drop"));
    play(&mut st, "drop");
    assert_eq!(
        st.ending(),
        Some(Ending::Drop {
            player: 0,
            caught: true
        })
    );
}

#[test]
fn tk_6_8_own_turn_any_phase_drop_after_drawing_or_spreading_before_discarding() {
    let g = game(&[("drop_timing", s("own_turn_any_phase"))]);
    let mut st = deal(&g, 0, &[PLAIN_B, "5H 6H 7H KC QD"], Some("AS"), "2D");
    assert!(can(&st, "drop"));
    play(&mut st, "draw");
    assert!(can(&st, "drop"));
    play(&mut st, "spread 5H 6H 7H");
    assert!(can(&st, "drop"));
    // The drop shows the hand as it is now: KC QD 2D = 22 < 35.
    let mut dropped = st.clone();
    play(&mut dropped, "drop");
    assert_over(
        &dropped,
        Ending::Drop {
            player: 1,
            caught: false,
        },
        &[(0, 1, 1)],
    );
    // Not in another player's turn.
    play(&mut st, "discard KC");
    assert_eq!(st.current_player(), Some(0));
    play(&mut st, "draw");
    assert_eq!(st.current_player(), Some(0));
    assert!(can(&st, "drop"));
}

#[test]
fn tk_6_8_any_time_drop_windows_after_the_deal_and_after_every_action() {
    let g = game(&[("players", Int(3)), ("drop_timing", s("any_time"))]);
    let mut st = deal(
        &g,
        0,
        &[PLAIN_A, "5H 6H 7H KC QD", PLAIN_B],
        Some("AS"),
        "2D",
    );
    // The window after the deal checks: seat 1 (whose turn it is), then 2, then 0.
    assert_eq!(st.phase(), Phase::Window);
    assert_eq!(window_order(&st), vec![1, 2, 0]);
    assert_eq!(legal_text(&st), vec!["drop".to_string(), "pass".into()]);
    refused(&mut st, "draw");
    play(&mut st, "pass");
    assert_eq!(st.current_player(), Some(2));
    play(&mut st, "pass");
    assert_eq!(st.current_player(), Some(0));
    play(&mut st, "pass");
    // Everybody passed: seat 1's turn, without a drop option of its own.
    assert_eq!(st.phase(), Phase::TurnStart);
    assert_eq!(st.current_player(), Some(1));
    assert!(!can(&st, "drop"));
    play(&mut st, "draw");
    assert_eq!(st.phase(), Phase::Window);
    assert_eq!(window_order(&st), vec![1, 2, 0]);
    pass_windows(&mut st);
    assert_eq!(st.phase(), Phase::Play);
    assert!(!can(&st, "drop"));
    play(&mut st, "spread 5H 6H 7H");
    assert_eq!(window_order(&st), vec![1, 2, 0]);
    pass_windows(&mut st);
    play(&mut st, "discard KC");
    // After the discard it is seat 2's turn: the window starts there.
    assert_eq!(window_order(&st), vec![2, 0, 1]);
    // A drop out of turn ends the hand.
    play(&mut st, "pass");
    assert_eq!(st.current_player(), Some(0));
    play(&mut st, "drop");
    assert_eq!(
        st.ending(),
        Some(Ending::Drop {
            player: 0,
            caught: true
        })
    );
    assert_eq!(st.phase(), Phase::Over);
}

#[test]
fn tk_6_8_any_time_the_first_player_may_drop_right_after_the_deal() {
    let g = game(&[("drop_timing", s("any_time"))]);
    let mut st = deal(&g, 0, &[PLAIN_B, "AC 2D 3H 4S 5C"], Some("AS"), "");
    // Seat 1 passes, seat 0 drops with 35 against 15: caught.
    play_all(&mut st, &["pass", "drop"]);
    assert_over(
        &st,
        Ending::Drop {
            player: 0,
            caught: true,
        },
        &[(0, 1, 2), (0, 1, 1)],
    );
}

#[test]
fn tk_6_9_rediscarding_the_taken_card_allowed_unless_forbid_rediscard() {
    let hands = [PLAIN_B, PLAIN_A];
    let g = game(&[]);
    let mut st = deal(&g, 0, &hands, Some("KH"), "");
    play(&mut st, "take");
    assert!(can(&st, "discard KH"));
    play(&mut st, "discard KH");
    assert_eq!(st.top_discard(), Some(card("KH")));

    let g = game(&[("forbid_rediscard", Bool(true))]);
    let mut st = deal(&g, 0, &hands, Some("KH"), "");
    play(&mut st, "take");
    refused(&mut st, "discard KH");
    assert!(can(&st, "discard JS"));
    // A card drawn from the stock may be discarded at once.
    let mut st = deal(&g, 0, &hands, Some("KH"), "9D");
    play(&mut st, "draw");
    assert!(can(&st, "discard 9D"));
}

#[test]
fn tk_6_9_forbid_rediscard_allows_the_taken_card_when_it_is_the_last_one() {
    // Seat 1 lays a run of four and keeps one card, then takes the discard,
    // hits with its last card … and must discard the taken card.
    let g = game(&[("forbid_rediscard", Bool(true))]);
    let mut st = deal(&g, 0, &[PLAIN_C, "5H 6H 7H 8H KS"], Some("AS"), "JD QS");
    play_all(&mut st, &["draw", "spread 5H 6H 7H 8H", "discard JD"]);
    assert_eq!(st.hand_cards(1), cards("KS"));
    play_all(&mut st, &["draw", "discard QS"]);
    play(&mut st, "take"); // QS
    refused(&mut st, "discard QS");
    play(&mut st, "discard KS");
    assert_eq!(st.ending(), None);
    // Or, holding only the taken card, the discard is compulsory.
    let g = game(&[("forbid_rediscard", Bool(true))]);
    let mut st = deal(&g, 0, &[PLAIN_C, "5H 6H 7H 8H 9H"], Some("TH"), "");
    play_all(&mut st, &["take", "spread 5H 6H 7H 8H 9H"]);
    assert_eq!(st.hand_cards(1), cards("TH"));
    assert!(can(&st, "discard TH"));
}

#[test]
fn tk_6_7_tk_10_2_the_discard_that_empties_the_hand_is_out_by_discard_one_each() {
    let g = game(&[("players", Int(3))]);
    let mut st = deal(
        &g,
        0,
        &["TC 6S 7D 8C 2D", "5H 6H 7H 8H 9H", "KC QD JS 3C 4D"],
        Some("AS"),
        "2C",
    );
    play_all(&mut st, &["draw", "spread 5H 6H 7H 8H 9H"]);
    assert_going(&st);
    play(&mut st, "discard 2C");
    assert_over(
        &st,
        Ending::OutByDiscard { player: 1 },
        &[(0, 1, 1), (2, 1, 1)],
    );
    assert_eq!(st.top_discard(), Some(card("2C")));
}

// ---------------------------------------------------------------------------
// TK-7: spreads
// ---------------------------------------------------------------------------

#[test]
fn tk_7_1_books_of_three_or_four_cards() {
    let g = game(&[]);
    let mut st = deal(&g, 0, &[PLAIN_A, "7C 7D 7H 7S 3C"], Some("AS"), "KD");
    play(&mut st, "draw");
    let lays: Vec<String> = legal_text(&st)
        .into_iter()
        .filter(|t| t.starts_with("spread"))
        .collect();
    assert_eq!(
        lays,
        vec![
            "spread 7C 7D 7H",
            "spread 7C 7D 7S",
            "spread 7C 7H 7S",
            "spread 7D 7H 7S",
            "spread 7C 7D 7H 7S",
        ]
    );
    play(&mut st, "spread 7C 7D 7H 7S");
    let sp = st.spreads()[0];
    assert_eq!(sp.kind, MeldKind::Set);
    assert_eq!(sp.owner, 1);
    assert_eq!(sp.cards, mask("7C 7D 7H 7S"));
    // Two cards are not a book.
    assert!(parse_action("spread 2C 2D").is_err());
}

#[test]
fn tk_7_2_runs_of_three_or_more_in_one_suit() {
    let g = game(&[]);
    let mut st = deal(&g, 0, &[PLAIN_C, "4D 5D 6D 7D 7C"], Some("AS"), "8C");
    play(&mut st, "draw");
    for ok in ["4D 5D 6D", "5D 6D 7D", "4D 5D 6D 7D"] {
        assert!(can(&st, &format!("spread {ok}")), "{ok}");
    }
    // Mixed suits or gaps are no run.
    assert!(parse_action("spread 6D 7D 8C").is_err());
    assert!(parse_action("spread 4D 5D 7D").is_err());
    play(&mut st, "spread 4D 5D 6D 7D");
    let sp = st.spreads()[0];
    assert_eq!(sp.kind, MeldKind::Run);
    assert_eq!(sp.cards_vec(), cards("4D 5D 6D 7D"));
}

#[test]
fn tk_7_3_ace_low_by_default_a_2_3_yes_q_k_a_no() {
    let g = game(&[]);
    let mut st = deal(&g, 0, &[PLAIN_B, "AH 2H 3H QH KH"], Some("AS"), "4C");
    play(&mut st, "draw");
    assert!(can(&st, "spread AH 2H 3H"));
    let qka = parse_action("spread QH KH AH").unwrap();
    assert!(!st.is_legal(qka.encode()));
    refused(&mut st, "spread QH KH AH");
    // No hit of a high ace on a run ending with a king.
    let g = game(&[("players", Int(3))]);
    let mut st = deal(
        &g,
        0,
        &[PLAIN_A, "JH QH KH 9C 9D", "AH 4S 5S 6S 8D"],
        Some("AS"),
        "3C 2D",
    );
    play_all(&mut st, &["draw", "spread JH QH KH", "discard 3C", "draw"]);
    refused(&mut st, "hit AH S0");
}

#[test]
fn tk_7_3_low_or_high_q_k_a_yes_k_a_2_never() {
    let g = game(&[("ace_in_runs", s("low_or_high"))]);
    assert!(g.config.aces_high);
    let mut st = deal(&g, 0, &[PLAIN_B, "AH 2H 3H QH KH"], Some("AS"), "4C");
    play(&mut st, "draw");
    assert!(can(&st, "spread AH 2H 3H"));
    assert!(can(&st, "spread QH KH AH"));
    // K-A-2 is no spread at all: it has no action, and none of the legal
    // lays is made of those cards.
    assert!(parse_action("spread KH AH 2H").is_err());
    let kaa2 = mask("KH AH 2H");
    for a in st.legal_actions() {
        if let Ok(Action::LaySpread(i)) = Action::decode(a) {
            assert_ne!(spread_catalogue()[usize::from(i)].mask, kaa2);
        }
    }
    play(&mut st, "spread QH KH AH");
    // A high-ace run does not extend past the ace.
    refused(&mut st, "hit 2H S0");
    assert_eq!(st.spreads()[0].cards_vec(), cards("QH KH AH"));

    // A run ending with a king takes a high ace as a hit.
    let g = game(&[("players", Int(3)), ("ace_in_runs", s("low_or_high"))]);
    let mut st = deal(
        &g,
        0,
        &[PLAIN_A, "JH QH KH 9C 9D", "AH 4S 5S 6S 8D"],
        Some("AS"),
        "3C 2D",
    );
    play_all(&mut st, &["draw", "spread JH QH KH", "discard 3C", "draw"]);
    assert!(can(&st, "hit AH S0"));
    play(&mut st, "hit AH S0");
    assert_eq!(st.spreads()[0].cards_vec(), cards("JH QH KH AH"));
    // … and then nothing wraps around to a two.
    play(&mut st, "discard 2D");
    assert!(st.spreads()[0].accepts(card("TH"), &g.config));
    assert!(!st.spreads()[0].accepts(card("2H"), &g.config));
}

#[test]
fn tk_7_4_spreads_lie_in_front_of_their_owner() {
    let g = game(&[]);
    let mut st = deal(&g, 0, &[PLAIN_B, "5H 6H 7H KC QD"], Some("AS"), "2D");
    play_all(&mut st, &["draw", "spread 5H 6H 7H", "discard KC"]);
    let v = st.view(0);
    assert_eq!(v.spreads.len(), 1);
    assert_eq!(v.spreads[0].owner, 1);
    assert_eq!(v.spreads[0].cards_vec(), cards("5H 6H 7H"));
    assert_eq!(v.hand_sizes, vec![5, 2]);
}

#[test]
fn tk_7_5_new_spreads_only_in_ones_own_turn_after_drawing() {
    let g = game(&[]);
    let mut st = deal(
        &g,
        0,
        &["5D 6D 7D KC QD", "5H 6H 7H KS 2C"],
        Some("AS"),
        "2D",
    );
    // Seat 0 holds a run but it is seat 1's turn; seat 1 has not drawn yet.
    assert_eq!(st.current_player(), Some(1));
    refused(&mut st, "spread 5H 6H 7H");
    refused(&mut st, "spread 5D 6D 7D");
    play(&mut st, "draw");
    refused(&mut st, "spread 5D 6D 7D");
    assert!(can(&st, "spread 5H 6H 7H"));
}

#[test]
fn tk_7_6_must_spread_a_discard_may_not_leave_a_book_or_run_in_hand() {
    let hands = [PLAIN_C, "5H 6H 7H KC QC"];
    let discards = |st: &TonkState| -> Vec<String> {
        legal_text(st)
            .into_iter()
            .filter(|t| t.starts_with("discard"))
            .collect()
    };
    let g = game(&[("must_spread", Bool(true))]);
    let mut st = deal(&g, 0, &hands, Some("AS"), "2D");
    play(&mut st, "draw");
    assert_eq!(
        discards(&st),
        vec!["discard 5H", "discard 6H", "discard 7H"]
    );
    refused(&mut st, "discard KC");
    let mut laid = st.clone();
    play(&mut laid, "spread 5H 6H 7H");
    assert_eq!(
        discards(&laid),
        vec!["discard QC", "discard KC", "discard 2D"]
    );
    // Without the flag every card may go.
    let mut st = deal(&game(&[]), 0, &hands, Some("AS"), "2D");
    play(&mut st, "draw");
    assert_eq!(discards(&st).len(), 6);
}

#[test]
fn tk_7_6_must_spread_aces_book_exempt_by_default() {
    let hands = [PLAIN_B, "AC AD AH KC 9D"];
    let g = game(&[("must_spread", Bool(true))]);
    assert!(g.config.must_spread_aces_exempt);
    let mut st = deal(&g, 0, &hands, Some("AS"), "2S");
    play(&mut st, "draw");
    assert!(can(&st, "discard KC"));
    play(&mut st, "discard KC");
    assert_eq!(st.hand_cards(1), cards("AC AD 9D AH 2S"));

    let g = game(&[
        ("must_spread", Bool(true)),
        ("must_spread_aces_exempt", Bool(false)),
    ]);
    let mut st = deal(&g, 0, &hands, Some("AS"), "2S");
    play(&mut st, "draw");
    refused(&mut st, "discard KC");
    refused(&mut st, "discard 2S");
    assert!(can(&st, "discard AC"));
    // A run with an ace is never exempt.
    let g = game(&[("must_spread", Bool(true))]);
    let mut st = deal(&g, 0, &[PLAIN_B, "AC 2C 3C KD 9D"], Some("AS"), "8S");
    play(&mut st, "draw");
    refused(&mut st, "discard KD");
}

// ---------------------------------------------------------------------------
// TK-8: hits and the hit lock
// ---------------------------------------------------------------------------

/// Seat 1 lays 5H 6H 7H (S0) and keeps KC KD; seat 0 holds 8H 9H.
const LOCK_HANDS: [&str; 2] = ["8H 9H 2C 3D KS", "5H 6H 7H KC KD"];

fn lock_start(g: &TonkGame, stock: &str) -> TonkState {
    let mut st = deal(g, 0, &LOCK_HANDS, Some("4S"), stock);
    for a in ["draw", "spread 5H 6H 7H", "discard JC"] {
        pass_windows(&mut st);
        play(&mut st, a);
    }
    pass_windows(&mut st);
    assert_eq!(st.hand_cards(1), cards("KC KD"));
    st
}

/// Whether seat 1 may drop at the start of its next turns (the other
/// players draw and discard in between).
fn seat1_drops(st: &mut TonkState, turns: usize) -> Vec<bool> {
    let others = st.config().players - 1;
    let mut out = Vec::new();
    for _ in 0..turns {
        assert_eq!(st.current_player(), Some(1));
        assert_eq!(st.phase(), Phase::TurnStart);
        let may = can(st, "drop");
        assert_eq!(may, !st.turn_locked());
        out.push(may);
        for _ in 0..=others {
            draw_and_discard(st);
        }
    }
    out
}

#[test]
fn tk_8_1_hits_on_both_ends_of_anothers_run_chained() {
    let g = game(&[]);
    let mut st = deal(
        &g,
        0,
        &["9C 9D 4H 3H KS", "5H 6H 7H KC 9H"],
        Some("AS"),
        "QC 8H",
    );
    play_all(&mut st, &["draw", "spread 5H 6H 7H", "discard QC", "draw"]);
    // 3H fits only once 4H is on the run.
    refused(&mut st, "hit 3H S0");
    play(&mut st, "hit 4H S0");
    assert!(can(&st, "hit 3H S0"));
    play_all(&mut st, &["hit 3H S0", "hit 8H S0"]);
    let sp = st.spreads()[0];
    // TK-8.3: the cards stay in the owner's spread.
    assert_eq!(sp.owner, 1);
    assert_eq!(sp.hits, 3);
    assert_eq!(sp.cards_vec(), cards("3H 4H 5H 6H 7H 8H"));
    assert_eq!(st.hand_cards(0), cards("9C 9D KS"));
    assert_eq!(st.count(0), 28);
    assert_eq!(st.count(1), 19);
    // Spreads stay with the owner in every view.
    play(&mut st, "discard KS");
    for seat in 0..2 {
        let v = st.view(seat);
        assert_eq!(v.spreads.len(), 1);
        assert_eq!(v.spreads[0].owner, 1);
    }
}

#[test]
fn tk_8_1_fourth_card_of_a_book_hits_a_three_card_book_only() {
    let g = game(&[("players", Int(3))]);
    let mut st = deal(
        &g,
        0,
        &["9H 4C 5D 6S JH", "9C 9D 9S KC QD", "2H 2D 2S 2C 8S"],
        Some("AS"),
        "3C 3D 4D",
    );
    assert_eq!(st.count(1), 47);
    play_all(&mut st, &["draw", "spread 9C 9D 9S", "discard 3C"]);
    // Seat 2 lays all four twos: a full book takes no hit.
    play_all(&mut st, &["draw", "spread 2C 2D 2H 2S", "discard 3D"]);
    play(&mut st, "draw");
    assert!(can(&st, "hit 9H S0"));
    play(&mut st, "hit 9H S0");
    let sp = st.spreads()[0];
    assert_eq!(sp.owner, 1);
    assert_eq!(sp.cards, mask("9C 9D 9H 9S"));
    assert_eq!(sp.hits, 1);
    // Nothing hits a book of four.
    assert!(legal_text(&st).iter().all(|t| !t.starts_with("hit")));
}

#[test]
fn tk_8_2_hits_only_in_ones_own_turn_after_drawing() {
    let mut st = lock_start(&game(&[]), "JC 2D");
    // Seat 0 holds 8H but has not drawn.
    assert_eq!(st.current_player(), Some(0));
    refused(&mut st, "hit 8H S0");
    play(&mut st, "draw");
    assert!(can(&st, "hit 8H S0"));
}

#[test]
fn tk_8_4_a_hit_locks_the_owner_out_of_dropping_in_its_next_turn() {
    let g = game(&[]);
    assert_eq!(g.config.hit_lock_per_hit, 1);
    assert_eq!(g.config.hit_lock_unit, LockUnit::PerCard);
    let mut st = lock_start(&g, "JC 2D");
    play_all(&mut st, &["draw", "hit 8H S0"]);
    assert_eq!(st.lock(1), 1);
    assert_eq!(st.view(0).locks, vec![0, 1]);
    play(&mut st, "discard 2D");
    // The lock is spent at the start of seat 1's turn, which is locked.
    assert_eq!(st.lock(1), 0);
    assert!(st.turn_locked());
    assert!(st.view(0).turn_locked);
    assert_eq!(seat1_drops(&mut st, 3), vec![false, true, true]);
}

#[test]
fn tk_8_4_per_card_two_hits_lock_two_turns() {
    let mut st = lock_start(&game(&[]), "JC 2D");
    play_all(&mut st, &["draw", "hit 8H S0", "hit 9H S0"]);
    assert_eq!(st.lock(1), 2);
    play(&mut st, "discard 2D");
    assert_eq!(seat1_drops(&mut st, 4), vec![false, false, true, true]);
}

#[test]
fn tk_8_4_per_card_hits_by_different_players_add_up() {
    // Seat 2 hits with 8H, then seat 0 with 9H, before seat 1 plays again.
    let g = game(&[("players", Int(3))]);
    let mut st = deal(
        &g,
        0,
        &["9H TC QC 2S 3S", "5H 6H 7H KS KD", "8H 2C 3D 4S JD"],
        Some("AC"),
        "2D 3C 8D",
    );
    play_all(&mut st, &["draw", "spread 5H 6H 7H", "discard 2D"]);
    play_all(&mut st, &["draw", "hit 8H S0", "discard 3C"]);
    play_all(&mut st, &["draw", "hit 9H S0"]);
    assert_eq!(st.lock(1), 2);
    play(&mut st, "discard 8D");
    assert_eq!(seat1_drops(&mut st, 3), vec![false, false, true]);
}

#[test]
fn tk_8_4_a_new_hit_during_a_locked_turn_extends_the_lock() {
    let mut st = lock_start(&game(&[]), "JC 2D");
    play_all(&mut st, &["draw", "hit 8H S0", "discard 2D"]);
    // Seat 1's locked turn; then seat 0 hits again.
    assert!(!can(&st, "drop"));
    draw_and_discard(&mut st);
    play(&mut st, "draw");
    play(&mut st, "hit 9H S0");
    assert_eq!(st.lock(1), 1);
    let drawn = mask_to_cards(st.hand(0) & !mask("2C 3D KS"))[0];
    play(&mut st, &format!("discard {drawn}"));
    assert_eq!(seat1_drops(&mut st, 2), vec![false, true]);
}

#[test]
fn tk_8_4_per_turn_all_hits_of_one_turn_count_once() {
    let g = game(&[("hit_lock_unit", s("per_turn"))]);
    let mut st = lock_start(&g, "JC 2D");
    play_all(&mut st, &["draw", "hit 8H S0", "hit 9H S0"]);
    assert_eq!(st.lock(1), 1);
    play(&mut st, "discard 2D");
    assert_eq!(seat1_drops(&mut st, 2), vec![false, true]);
}

#[test]
fn tk_8_4_per_turn_counts_once_per_owner() {
    // Seat 2 hits spreads of seat 1 and seat 0 in one turn: both are locked once.
    let g = game(&[("players", Int(3)), ("hit_lock_unit", s("per_turn"))]);
    let mut st = deal(
        &g,
        0,
        &["TC JC QC 2S 3S", "5H 6H 7H KS KD", "8H 9H KC 4D 4S"],
        Some("AC"),
        "2D 3D 8D 5C 6C",
    );
    play_all(&mut st, &["draw", "spread 5H 6H 7H", "discard 2D"]);
    play_all(&mut st, &["draw", "discard 3D"]);
    play_all(&mut st, &["draw", "spread TC JC QC", "discard 8D"]);
    play_all(&mut st, &["draw", "discard 5C"]);
    play_all(&mut st, &["draw", "hit 8H S0", "hit 9H S0", "hit KC S1"]);
    assert_eq!((st.lock(0), st.lock(1), st.lock(2)), (1, 1, 0));
    // Per card, the same hits lock seat 1 twice and seat 0 once.
    let g = game(&[("players", Int(3))]);
    let mut st = deal(
        &g,
        0,
        &["TC JC QC 2S 3S", "5H 6H 7H KS KD", "8H 9H KC 4D 4S"],
        Some("AC"),
        "2D 3D 8D 5C 6C",
    );
    play_all(&mut st, &["draw", "spread 5H 6H 7H", "discard 2D"]);
    play_all(&mut st, &["draw", "discard 3D"]);
    play_all(&mut st, &["draw", "spread TC JC QC", "discard 8D"]);
    play_all(&mut st, &["draw", "discard 5C"]);
    play_all(&mut st, &["draw", "hit 8H S0", "hit 9H S0", "hit KC S1"]);
    assert_eq!((st.lock(0), st.lock(1), st.lock(2)), (1, 2, 0));
}

#[test]
fn tk_8_4_hit_lock_per_hit_three_locks_three_turns() {
    let g = game(&[("hit_lock_per_hit", Int(3))]);
    let mut st = lock_start(&g, "JC 2D");
    play_all(&mut st, &["draw", "hit 8H S0"]);
    assert_eq!(st.lock(1), 3);
    play(&mut st, "discard 2D");
    assert_eq!(seat1_drops(&mut st, 4), vec![false, false, false, true]);
    // Two hits: six turns.
    let mut st = lock_start(&g, "JC 2D");
    play_all(&mut st, &["draw", "hit 8H S0", "hit 9H S0"]);
    assert_eq!(st.lock(1), 6);
    play(&mut st, "discard 2D");
    assert_eq!(
        seat1_drops(&mut st, 7),
        vec![false, false, false, false, false, false, true]
    );
}

#[test]
fn tk_8_4_own_turn_any_phase_a_locked_turn_has_no_drop_at_any_point() {
    let g = game(&[("drop_timing", s("own_turn_any_phase"))]);
    let mut st = lock_start(&g, "JC 2D KH");
    play_all(&mut st, &["draw", "hit 8H S0", "discard 2D"]);
    assert!(st.turn_locked());
    assert!(!can(&st, "drop"));
    play(&mut st, "draw");
    refused(&mut st, "drop");
    play(&mut st, "discard KH");
    draw_and_discard(&mut st);
    assert!(can(&st, "drop"));
    play(&mut st, "draw");
    assert!(can(&st, "drop"));
}

#[test]
fn tk_8_4_hit_lock_per_hit_zero_means_no_lock() {
    let g = game(&[("hit_lock_per_hit", Int(0))]);
    let mut st = lock_start(&g, "JC 2D");
    play_all(&mut st, &["draw", "hit 8H S0", "hit 9H S0", "discard 2D"]);
    assert_eq!(st.lock(1), 0);
    assert_eq!(seat1_drops(&mut st, 2), vec![true, true]);
}

#[test]
fn tk_8_4_hitting_your_own_spread_never_locks() {
    let g = game(&[]);
    let mut st = deal(
        &g,
        0,
        &["9D 2C 3D KS QS", "5H 6H 7H KC KD"],
        Some("4S"),
        "8H",
    );
    play_all(
        &mut st,
        &["draw", "spread 5H 6H 7H", "hit 8H S0", "discard KC"],
    );
    assert_eq!(st.spreads()[0].hits, 1);
    assert_eq!(st.lock(1), 0);
    draw_and_discard(&mut st);
    assert!(can(&st, "drop"));
    assert!(!st.turn_locked());
}

#[test]
fn tk_8_4_a_lock_stops_drops_only_tonking_out_is_allowed() {
    let g = game(&[]);
    let mut st = lock_start(&g, "JC 2D KH");
    play_all(&mut st, &["draw", "hit 8H S0", "discard 2D"]);
    assert!(!can(&st, "drop"));
    assert!(st.turn_locked());
    play_all(&mut st, &["draw", "spread KC KD KH"]);
    assert_over(
        &st,
        Ending::TonkOut {
            player: 1,
            paid: 2,
            double_double: false,
        },
        &[(0, 1, 2)],
    );
}

#[test]
fn tk_8_4_under_any_time_a_locked_player_is_offered_no_drop_window() {
    let g = game(&[("preset", s("wikipedia"))]);
    assert_eq!(g.config.drop_timing, DropTiming::AnyTime);
    let mut st = lock_start(&g, "JC 2D");
    assert_eq!(st.current_player(), Some(0));
    play(&mut st, "draw");
    assert_eq!(window_order(&st), vec![0, 1]);
    pass_windows(&mut st);
    play(&mut st, "hit 8H S0");
    assert_eq!(st.lock(1), 1);
    // Seat 1 is locked: left out of every window until its locked turn is over.
    assert_eq!(window_order(&st), vec![0]);
    pass_windows(&mut st);
    play(&mut st, "discard 2D");
    assert_eq!(window_order(&st), vec![0]);
    pass_windows(&mut st);
    assert_eq!(st.current_player(), Some(1));
    assert!(st.turn_locked());
    assert!(!can(&st, "drop"));
    play(&mut st, "draw");
    assert_eq!(window_order(&st), vec![0]);
    pass_windows(&mut st);
    let drawn = mask_to_cards(st.hand(1) & !mask("KC KD"))[0];
    play(&mut st, &format!("discard {drawn}"));
    // The locked turn is over: seat 1 is offered drops again.
    assert_eq!(window_order(&st), vec![0, 1]);
}

#[test]
fn tk_8_4_turn_locked_in_the_window_before_a_turn_describes_that_turn() {
    // `turn_locked` is "the turn player was locked at the start of this
    // turn". In the drop window before seat 0's turn (turn player 0, and
    // seat 0 is offered a drop there), it must not carry over seat 1's lock.
    let g = game(&[("preset", s("wikipedia"))]);
    let mut st = lock_start(&g, "JC 2D AC");
    for a in ["draw", "hit 8H S0", "discard 2D"] {
        pass_windows(&mut st);
        play(&mut st, a);
    }
    pass_windows(&mut st);
    assert_eq!(st.current_player(), Some(1));
    assert!(st.turn_locked());
    play(&mut st, "draw");
    pass_windows(&mut st);
    play(&mut st, "discard AC");
    assert_eq!(st.phase(), Phase::Window);
    assert_eq!(st.turn_player(), 0);
    assert_eq!(st.lock(0), 0);
    assert_eq!(window_order(&st), vec![0, 1]);
    assert!(
        !st.turn_locked() && !st.view(1).turn_locked,
        "turn player 0 is reported locked (seat 1's lock carried over)"
    );
}

#[test]
fn tk_8_6_only_runs_hittable() {
    let g = game(&[("players", Int(3)), ("only_runs_hittable", Bool(true))]);
    let mut st = deal(
        &g,
        0,
        &["9H 8H 5D 6S JH", "9C 9D 9S KC QD", "5H 6H 7H 2C 3S"],
        Some("AS"),
        "3C 3D 4D",
    );
    play_all(&mut st, &["draw", "spread 9C 9D 9S", "discard 3C"]);
    play_all(&mut st, &["draw", "spread 5H 6H 7H", "discard 3D"]);
    play(&mut st, "draw");
    refused(&mut st, "hit 9H S0");
    assert!(can(&st, "hit 8H S1"));
    play_all(&mut st, &["hit 8H S1", "hit 9H S1"]);
    assert_eq!(st.spreads()[1].cards_vec(), cards("5H 6H 7H 8H 9H"));
}

#[test]
fn tk_6_10_max_hits_per_turn_one() {
    let hands = ["9C 9D 4H 3H KS", "5H 6H 7H KC 9H"];
    let g = game(&[("max_hits_per_turn", Int(1))]);
    assert_eq!(g.config.max_hits_per_turn, Some(1));
    let mut st = deal(&g, 0, &hands, Some("AS"), "QC 8H");
    play_all(&mut st, &["draw", "spread 5H 6H 7H", "discard QC", "draw"]);
    play(&mut st, "hit 4H S0");
    assert!(legal_text(&st).iter().all(|t| !t.starts_with("hit")));
    refused(&mut st, "hit 3H S0");
    refused(&mut st, "hit 8H S0");
    // A new turn allows one hit again.
    play(&mut st, "discard KS");
    draw_and_discard(&mut st);
    play(&mut st, "draw");
    assert!(can(&st, "hit 3H S0"));
    // No limit by default.
    let mut st = deal(&game(&[]), 0, &hands, Some("AS"), "QC 8H");
    play_all(&mut st, &["draw", "spread 5H 6H 7H", "discard QC", "draw"]);
    play_all(&mut st, &["hit 4H S0", "hit 3H S0", "hit 8H S0"]);
}

#[test]
fn tk_6_10_discard_pickup_must_be_used() {
    let g = game(&[("discard_pickup_must_be_used", Bool(true))]);
    // The upcard 8H fits nothing in seat 1's hand: it may not be taken.
    let st = deal(&g, 0, &[PLAIN_C, "5C 6C 7D KC QD"], Some("8H"), "");
    assert!(!can(&st, "take"));
    // 8C makes a run with 6C 7C: it may be taken, and must be used before discarding.
    let mut st = deal(&g, 0, &[PLAIN_C, "6C 7C 2D KS QD"], Some("8C"), "");
    play(&mut st, "take");
    refused(&mut st, "discard KS");
    play(&mut st, "spread 6C 7C 8C");
    play(&mut st, "discard KS");
}

#[test]
fn tk_6_10_a_taken_card_cannot_be_left_unused_by_laying_its_partners_elsewhere() {
    // The issue's case: 7H fits 5H 6H, but laying 5H 5C 5D first would
    // leave it unusable; that lay is illegal, and so is any discard.
    let g = game(&[("discard_pickup_must_be_used", Bool(true))]);
    let mut st = deal(&g, 0, &[PLAIN_B, "5H 6H 5C 5D KS"], Some("7H"), "");
    play(&mut st, "take");
    refused(&mut st, "spread 5H 5C 5D");
    refused(&mut st, "discard 7H");
    refused(&mut st, "discard KS");
    assert_eq!(legal_text(&st), vec!["spread 5H 6H 7H"]);
    play(&mut st, "spread 5H 6H 7H");
    // Used: the discard is free again (5C 5D KS left).
    assert!(can(&st, "discard KS"));
    assert!(can(&st, "discard 5C"));
}

#[test]
fn tk_6_10_the_only_hit_of_a_turn_is_kept_for_the_taken_card() {
    // The issue's dead end: with max_hits_per_turn=1, hitting 9D onto TD JD QD
    // spent the only hit and left the taken KD unusable with no legal action.
    let g = game(&[
        ("discard_pickup_must_be_used", Bool(true)),
        ("max_hits_per_turn", Int(1)),
    ]);
    let mut st = deal(
        &g,
        0,
        &["9D 3C 4C 6S 7S", "TD JD QD KD 2H"],
        Some("AH"),
        "8C",
    );
    play_all(&mut st, &["draw", "spread TD JD QD", "discard KD", "take"]);
    refused(&mut st, "hit 9D S0");
    assert_eq!(legal_text(&st), vec!["hit KD S0"]);
    play(&mut st, "hit KD S0");
    assert!(!st.legal_actions().is_empty());
    assert!(can(&st, "discard 9D"));
    // Without the hit limit, 9D may hit first: KD still fits the other end.
    let g = game(&[("discard_pickup_must_be_used", Bool(true))]);
    let mut st = deal(
        &g,
        0,
        &["9D 3C 4C 6S 7S", "TD JD QD KD 2H"],
        Some("AH"),
        "8C",
    );
    play_all(
        &mut st,
        &["draw", "spread TD JD QD", "discard KD", "take", "hit 9D S0"],
    );
    refused(&mut st, "discard 3C");
    play(&mut st, "hit KD S0");
}

#[test]
fn tk_6_10_a_card_reachable_through_a_chain_of_hits_may_be_taken() {
    // 9H fits the run 5H 6H 7H only after 8H hits it: two hits, allowed
    // without a limit, not with max_hits_per_turn=1.
    let hands = ["8H 2C 3D 4S KC", "5H 6H 7H 9H JS"];
    for (limit, takes) in [(None, true), (Some(1), false)] {
        let mut o = vec![("discard_pickup_must_be_used", Bool(true))];
        if let Some(m) = limit {
            o.push(("max_hits_per_turn", Int(m)));
        }
        let g = game(&o);
        let mut st = deal(&g, 0, &hands, Some("AS"), "TC");
        play_all(&mut st, &["draw", "spread 5H 6H 7H", "discard 9H"]);
        assert_eq!(can(&st, "take"), takes, "limit {limit:?}");
        if takes {
            play(&mut st, "take");
            // 9H cannot hit yet, 8H may (it keeps 9H usable), nothing else.
            assert_eq!(legal_text(&st), vec!["hit 8H S0"]);
            play_all(&mut st, &["hit 8H S0", "hit 9H S0", "discard KC"]);
        }
    }
}

#[test]
fn tk_6_10_the_taker_may_not_drop_before_using_the_card_own_turn_any_phase() {
    // 8C goes with 6C 7C. Under own_turn_any_phase a drop is allowed after
    // drawing, but dropping now would end the hand with 8C unused.
    let hands = [PLAIN_C, "6C 7C 2D KS QD"];
    let o = [("drop_timing", s("own_turn_any_phase"))];
    let g = game(&[o[0].clone(), ("discard_pickup_must_be_used", Bool(true))]);
    let mut st = deal(&g, 0, &hands, Some("8C"), "");
    assert!(can(&st, "drop"));
    play(&mut st, "take");
    refused(&mut st, "drop");
    assert_eq!(legal_text(&st), vec!["spread 6C 7C 8C"]);
    play(&mut st, "spread 6C 7C 8C");
    // Used: the drop is back.
    assert!(can(&st, "drop"));
    assert!(can(&st, "discard KS"));
    // Without the flag the taker may drop holding the card (TK-6.8).
    let mut st = deal(&game(&o), 0, &hands, Some("8C"), "");
    play(&mut st, "take");
    assert!(can(&st, "drop"));
}

#[test]
fn tk_6_10_in_the_any_time_window_after_the_take_only_the_taker_may_not_drop() {
    let g = game(&[
        ("drop_timing", s("any_time")),
        ("discard_pickup_must_be_used", Bool(true)),
    ]);
    let mut st = deal(&g, 0, &[PLAIN_C, "6C 7C 2D KS QD"], Some("8C"), "");
    pass_windows(&mut st);
    play(&mut st, "take");
    // The window after the take: seat 1 (the taker) first, then seat 0.
    assert_eq!(st.phase(), Phase::Window);
    assert_eq!(window_order(&st), vec![1, 0]);
    assert_eq!(st.current_player(), Some(1));
    refused(&mut st, "drop");
    assert_eq!(legal_text(&st), vec!["pass"]);
    play(&mut st, "pass");
    // The other player may drop: the hand ends, which is not the taker's doing.
    assert_eq!(st.current_player(), Some(0));
    assert!(can(&st, "drop"));
    play(&mut st, "pass");
    play(&mut st, "spread 6C 7C 8C");
    // Once the card is used, the taker's own window offers the drop again.
    assert_eq!(st.current_player(), Some(1));
    assert!(can(&st, "drop"));
}

#[test]
fn tk_6_9_forbid_rediscard_the_taken_card_stays_even_after_other_cards_go_down() {
    // With forbid_rediscard the taken KH may not be thrown back while any
    // other card is in hand, whatever else the turn does; drops stay legal.
    let g = game(&[
        ("forbid_rediscard", Bool(true)),
        ("drop_timing", s("own_turn_any_phase")),
    ]);
    let mut st = deal(&g, 0, &[PLAIN_C, "5H 6H 7H 2C KS"], Some("KH"), "");
    play(&mut st, "take");
    refused(&mut st, "discard KH");
    play(&mut st, "spread 5H 6H 7H");
    refused(&mut st, "discard KH");
    assert!(can(&st, "discard 2C"));
    assert!(can(&st, "drop"));
    play(&mut st, "discard 2C");
    assert_eq!(st.hand_cards(1), cards("KH KS"));
}

#[test]
fn tk_6_10_tk_7_6_with_must_spread_the_taken_card_is_used_and_no_spread_stays() {
    // 8C completes 6C 7C; 9D 9H 9S is a book in hand. The discard needs both
    // down: the taken card used (TK-6.10) and no spread held (TK-7.6).
    let g = game(&[
        ("discard_pickup_must_be_used", Bool(true)),
        ("must_spread", Bool(true)),
    ]);
    let mut st = deal(&g, 0, &[PLAIN_A, "6C 7C 9D 9H 9S"], Some("8C"), "");
    play(&mut st, "take");
    assert!(legal_text(&st).iter().all(|t| !t.starts_with("discard")));
    play(&mut st, "spread 9D 9H 9S");
    // The book is down but 8C is not: still no discard (and no drop).
    assert!(legal_text(&st).iter().all(|t| !t.starts_with("discard")));
    play(&mut st, "spread 6C 7C 8C");
    // Empty hand: tonked out (TK-6.6).
    assert_eq!(st.phase(), Phase::Over);
    assert!(matches!(
        st.ending(),
        Some(Ending::TonkOut { player: 1, .. })
    ));
}

#[test]
fn tk_6_10_tk_10_1_a_taken_card_counts_among_the_whole_hand_in_one_turn() {
    // whole_hand_one_turn: the double needs all hand_size + 1 cards down in
    // one turn; the sixth card may be the one taken from the discard pile.
    let g = game(&[
        ("discard_pickup_must_be_used", Bool(true)),
        ("tonk_double_requires", s("whole_hand_one_turn")),
    ]);
    let mut st = deal(&g, 0, &[PLAIN_A, "6C 7C 9D 9H 9S"], Some("8C"), "");
    play_all(&mut st, &["take", "spread 9D 9H 9S", "spread 6C 7C 8C"]);
    assert_over(
        &st,
        Ending::TonkOut {
            player: 1,
            paid: 2,
            double_double: false,
        },
        &[(0, 1, 2)],
    );
}

#[test]
fn tk_6_10_tk_9_3_a_taken_card_that_completes_a_book_is_used_then_cleared() {
    // The taken 2H completes the hit book 2C 2D 2S: it was used in a hit
    // (TK-6.10), and at the end of the turn the book goes under the discard
    // pile (TK-9.3). That is not a rediscard: the top card is the discard.
    let g = game(&[
        ("discard_pickup_must_be_used", Bool(true)),
        ("clear_completed_books", Bool(true)),
    ]);
    let mut st = deal(
        &g,
        0,
        &["9D 8S 7C 4D 2H", "2C 2D 2S KC QC"],
        Some("5S"),
        "JD",
    );
    play_all(&mut st, &["draw", "spread 2C 2D 2S", "discard JD"]);
    // Seat 0 throws 2H, seat 1 takes it back at once.
    play_all(&mut st, &["draw", "discard 2H", "take"]);
    refused(&mut st, "discard 2H");
    refused(&mut st, "discard KC");
    play_all(&mut st, &["hit 2H S0", "discard KC"]);
    assert!(st.spreads()[0].cleared);
    assert_eq!(st.top_discard(), Some(card("KC")));
    assert_eq!(&st.discard_pile()[..4], cards("2C 2D 2H 2S").as_slice());
}

// ---------------------------------------------------------------------------
// TK-9: completed books
// ---------------------------------------------------------------------------

const BOOK_HANDS: [&str; 2] = ["2H 9D 8S 7C 4D", "2C 2D 2S KC QC"];

#[test]
fn tk_9_3_a_hit_completing_a_book_sends_it_under_the_discard_pile_at_the_end_of_the_turn() {
    let g = game(&[("clear_completed_books", Bool(true))]);
    let mut st = deal(&g, 0, &BOOK_HANDS, Some("5S"), "JD 5C");
    play_all(
        &mut st,
        &["draw", "spread 2C 2D 2S", "discard JD", "draw", "hit 2H S0"],
    );
    // Still on the table until the turn ends.
    assert!(!st.spreads()[0].cleared);
    assert_eq!(st.spreads()[0].cards.count_ones(), 4);
    assert_eq!(st.view(1).spreads.len(), 1);
    play(&mut st, "discard 5C");
    assert!(st.spreads()[0].cleared);
    assert_eq!(st.top_discard(), Some(card("5C")));
    assert_eq!(st.discard_pile(), cards("2C 2D 2H 2S 5S JD 5C").as_slice());
    assert!(st.card_locations_ok());
    for seat in 0..2 {
        assert!(st.view(seat).spreads.is_empty());
    }
    // The four cards never come back: the next player takes only 5C.
    play(&mut st, "take");
    assert_eq!(st.top_discard(), Some(card("JD")));
}

#[test]
fn tk_9_2_completed_books_stay_on_the_table_by_default() {
    let g = game(&[]);
    let mut st = deal(&g, 0, &BOOK_HANDS, Some("5S"), "JD 5C");
    play_all(
        &mut st,
        &[
            "draw",
            "spread 2C 2D 2S",
            "discard JD",
            "draw",
            "hit 2H S0",
            "discard 5C",
        ],
    );
    assert!(!st.spreads()[0].cleared);
    assert_eq!(st.discard_pile(), cards("5S JD 5C").as_slice());
    assert_eq!(st.view(0).spreads.len(), 1);
}

#[test]
fn tk_9_3_a_book_laid_with_all_four_cards_is_not_cleared() {
    let g = game(&[("clear_completed_books", Bool(true))]);
    let mut st = deal(
        &g,
        0,
        &["9D 8S 7C 4D 3H", "2C 2D 2S 2H KC"],
        Some("5S"),
        "JD",
    );
    play_all(&mut st, &["draw", "spread 2C 2D 2H 2S", "discard JD"]);
    draw_and_discard(&mut st);
    draw_and_discard(&mut st);
    assert!(!st.spreads()[0].cleared);
    assert_eq!(st.view(0).spreads.len(), 1);
    assert!(!st.discard_pile().contains(&card("2C")));
}

// ---------------------------------------------------------------------------
// TK-10: endings and default payouts
// ---------------------------------------------------------------------------

const TONK3: [&str; 3] = ["KS QD TC 6S 3D", "5H 6H 7H 2C 2D", "9S 8D 4C 3S JC"];

#[test]
fn tk_10_1_tonk_out_two_stakes_from_each() {
    for double in ["any", "new_spread", "whole_hand_one_turn"] {
        let g = game(&[("players", Int(3)), ("tonk_double_requires", s(double))]);
        let mut st = deal(&g, 0, &TONK3, Some("AH"), "2S");
        play_all(&mut st, &["draw", "spread 5H 6H 7H", "spread 2C 2D 2S"]);
        assert_over(
            &st,
            Ending::TonkOut {
                player: 1,
                paid: 2,
                double_double: false,
            },
            &[(0, 1, 2), (2, 1, 2)],
        );
        // No discard was made.
        assert_eq!(st.discard_pile(), &[card("AH")]);
        // Taking the discard instead of drawing is the same.
        let mut st = deal(&g, 0, &TONK3, Some("2S"), "");
        play_all(&mut st, &["take", "spread 2C 2D 2S", "spread 5H 6H 7H"]);
        assert_eq!(
            st.ending(),
            Some(Ending::TonkOut {
                player: 1,
                paid: 2,
                double_double: false
            })
        );
    }
}

/// Seat 1 lays 5H 6H 7H 8H in its first turn, keeping TH, then tonks out
/// with hits only (9H, TH) in its second turn.
fn tonk_by_hits(double: &str) -> TonkState {
    let g = game(&[("tonk_double_requires", s(double))]);
    let mut st = deal(
        &g,
        0,
        &["2C 3D 4S KC QD", "5H 6H 7H 8H TH"],
        Some("AS"),
        "KD QS 9H",
    );
    play_all(
        &mut st,
        &[
            "draw",
            "spread 5H 6H 7H 8H",
            "discard KD",
            "draw",
            "discard QS",
            "draw",
            "hit 9H S0",
            "hit TH S0",
        ],
    );
    st
}

#[test]
fn tk_10_1_new_spread_hits_only_pay_one() {
    let st = tonk_by_hits("any");
    assert_over(
        &st,
        Ending::TonkOut {
            player: 1,
            paid: 2,
            double_double: false,
        },
        &[(0, 1, 2)],
    );
    let st = tonk_by_hits("new_spread");
    assert_over(
        &st,
        Ending::TonkOut {
            player: 1,
            paid: 1,
            double_double: false,
        },
        &[(0, 1, 1)],
    );
}

/// Seat 1 lays a run in its first turn and tonks out with a new book in
/// its second, under `tonk_double_requires = requires`.
fn tonk_with_a_new_book(requires: &str) -> TonkState {
    let g = game(&[("tonk_double_requires", s(requires))]);
    let mut st = deal(
        &g,
        0,
        &["2H 3D 4S KS QD", "5H 6H 7H 2C 2D"],
        Some("AS"),
        "KD QS 2S",
    );
    play_all(
        &mut st,
        &[
            "draw",
            "spread 5H 6H 7H",
            "discard KD",
            "draw",
            "discard QS",
            "draw",
            "spread 2C 2D 2S",
        ],
    );
    st
}

#[test]
fn tk_10_1_new_spread_a_new_spread_in_the_finishing_turn_pays_two() {
    // Run in the first turn, a new book in the second (the finishing) turn.
    let st = tonk_with_a_new_book("new_spread");
    assert_eq!(
        st.ending(),
        Some(Ending::TonkOut {
            player: 1,
            paid: 2,
            double_double: false
        })
    );
}

#[test]
fn tk_10_1_whole_hand_one_turn_needs_all_six_cards_in_one_turn() {
    let st = tonk_by_hits("whole_hand_one_turn");
    assert_over(
        &st,
        Ending::TonkOut {
            player: 1,
            paid: 1,
            double_double: false,
        },
        &[(0, 1, 1)],
    );
    // A new spread in the finishing turn is not enough.
    let st = tonk_with_a_new_book("whole_hand_one_turn");
    assert_eq!(
        st.ending(),
        Some(Ending::TonkOut {
            player: 1,
            paid: 1,
            double_double: false
        })
    );
}

#[test]
fn tk_10_1_whole_hand_one_turn_six_cards_pay_two() {
    let g = game(&[("tonk_double_requires", s("whole_hand_one_turn"))]);
    let mut st = deal(
        &g,
        0,
        &["2H 3D 4S KS QD", "5H 6H 7H 2C 2D"],
        Some("AS"),
        "2S",
    );
    play_all(&mut st, &["draw", "spread 2C 2D 2S", "spread 5H 6H 7H"]);
    assert_over(
        &st,
        Ending::TonkOut {
            player: 1,
            paid: 2,
            double_double: false,
        },
        &[(0, 1, 2)],
    );
    // Spreads and hits together, all six cards in the first turn.
    let mut st = deal(
        &g,
        0,
        &["2H 3D 4S KS QD", "5H 6H 7H 8H 2D"],
        Some("AS"),
        "9H",
    );
    play_all(
        &mut st,
        &["draw", "spread 5H 6H 7H", "hit 8H S0", "hit 9H S0"],
    );
    assert_going(&st);
    let mut st = deal(
        &g,
        0,
        &["2H 3D 4S KS QD", "5H 6H 7H 8H 9H"],
        Some("AS"),
        "TH",
    );
    play_all(
        &mut st,
        &[
            "draw",
            "spread 5H 6H 7H",
            "hit 8H S0",
            "hit 9H S0",
            "hit TH S0",
        ],
    );
    assert_eq!(
        st.ending(),
        Some(Ending::TonkOut {
            player: 1,
            paid: 2,
            double_double: false
        })
    );
}

// ----- TK-10.3 / TK-11.1 drop settlements -----------------------------------

fn check_drop(counts: &[u32], d: u8, payout: DropPayout, want: &[(u8, u8, u32)], caught: bool) {
    let (t, c) = drop_settlement(counts, d, payout);
    let mut w = want.to_vec();
    w.sort_unstable();
    assert_eq!(sorted(&t), w, "{payout:?} counts {counts:?} dropper {d}");
    assert_eq!(c, caught, "{payout:?} counts {counts:?} dropper {d}");
}

#[test]
fn tk_10_3_drop_strictly_lowest_takes_one_from_each() {
    for payout in [DropPayout::Pagat, DropPayout::Wikipedia, DropPayout::Texas] {
        check_drop(&[5, 8, 20], 0, payout, &[(1, 0, 1), (2, 0, 1)], false);
        check_drop(
            &[9, 3, 4, 10],
            1,
            payout,
            &[(0, 1, 1), (2, 1, 1), (3, 1, 1)],
            false,
        );
        check_drop(&[7, 6], 1, payout, &[(0, 1, 1)], false);
    }
}

#[test]
fn tk_10_3_pagat_caught_dropper_worked_examples() {
    // D=12, X=8, Y=20 → D→X 2s, D→X 1s, Y→X 1s: X +4, D −3, Y −1.
    let (t, caught) = drop_settlement(&[12, 8, 20], 0, DropPayout::Pagat);
    assert!(caught);
    assert_eq!(net(&t, 3), vec![-3, 4, -1]);
    check_drop(
        &[12, 8, 20],
        0,
        DropPayout::Pagat,
        &[(0, 1, 2), (0, 1, 1), (2, 1, 1)],
        true,
    );
    // D=8, X=8, Y=20: a tie catches the dropper, same payments.
    check_drop(
        &[8, 8, 20],
        0,
        DropPayout::Pagat,
        &[(0, 1, 2), (0, 1, 1), (2, 1, 1)],
        true,
    );
    // Two players: a tie costs the dropper 2s + 1s.
    check_drop(
        &[10, 10],
        0,
        DropPayout::Pagat,
        &[(0, 1, 2), (0, 1, 1)],
        true,
    );
}

#[test]
fn tk_10_3_pagat_caught_two_stakes_to_everyone_at_or_below_the_dropper() {
    // D=10, X=10, Y=5: D→X 2 (≤ d), D→Y 2; Y lowest: D→Y 1, X→Y 1.
    let (t, _) = drop_settlement(&[10, 10, 5], 0, DropPayout::Pagat);
    assert_eq!(net(&t, 3), vec![-5, 1, 4]);
    check_drop(
        &[10, 10, 5],
        0,
        DropPayout::Pagat,
        &[(0, 1, 2), (0, 2, 2), (0, 2, 1), (1, 2, 1)],
        true,
    );
    // Two non-droppers tie for lowest: both are paid by everyone else.
    check_drop(
        &[10, 5, 5, 30],
        0,
        DropPayout::Pagat,
        &[
            (0, 1, 2),
            (0, 2, 2),
            (0, 1, 1),
            (0, 2, 1),
            (3, 1, 1),
            (3, 2, 1),
        ],
        true,
    );
    // The dropper need not be seat 0.
    check_drop(
        &[8, 20, 12],
        2,
        DropPayout::Pagat,
        &[(2, 0, 2), (2, 0, 1), (1, 0, 1)],
        true,
    );
}

#[test]
fn tk_11_1_wikipedia_drop_payout_examples() {
    // D=12, X=8, Y=20 → D→X 1s + 1s, Y→X 1s.
    let (t, caught) = drop_settlement(&[12, 8, 20], 0, DropPayout::Wikipedia);
    assert!(caught);
    assert_eq!(net(&t, 3), vec![-2, 3, -1]);
    check_drop(
        &[12, 8, 20],
        0,
        DropPayout::Wikipedia,
        &[(0, 1, 1), (0, 1, 1), (2, 1, 1)],
        true,
    );
    // (c) Tie with the dropper, nobody lower: 2s to the tied player, others pay it 1s.
    check_drop(
        &[8, 8, 20],
        0,
        DropPayout::Wikipedia,
        &[(0, 1, 2), (2, 1, 1)],
        true,
    );
    // (c) with two tied players: both are winners.
    check_drop(
        &[10, 10, 10, 30],
        0,
        DropPayout::Wikipedia,
        &[(0, 1, 2), (0, 2, 2), (3, 1, 1), (3, 2, 1)],
        true,
    );
    // (b) a player tied with D but someone lower: 1s only to those below d,
    // and the tied player is a non-winner who pays the winner.
    check_drop(
        &[10, 5, 10],
        0,
        DropPayout::Wikipedia,
        &[(0, 1, 1), (0, 1, 1), (2, 1, 1)],
        true,
    );
    // (b) two winners tied below the dropper: both paid.
    check_drop(
        &[10, 5, 5, 30],
        0,
        DropPayout::Wikipedia,
        &[
            (0, 1, 1),
            (0, 2, 1),
            (0, 1, 1),
            (0, 2, 1),
            (3, 1, 1),
            (3, 2, 1),
        ],
        true,
    );
}

#[test]
fn tk_11_1_texas_drop_payout_dropper_pays_two_to_the_lowest_nobody_else_pays() {
    check_drop(&[12, 8, 20], 0, DropPayout::Texas, &[(0, 1, 2)], true);
    check_drop(&[8, 8, 20], 0, DropPayout::Texas, &[(0, 1, 2)], true);
    check_drop(
        &[10, 5, 5, 30],
        0,
        DropPayout::Texas,
        &[(0, 1, 2), (0, 2, 2)],
        true,
    );
    check_drop(&[10, 10, 4], 0, DropPayout::Texas, &[(0, 2, 2)], true);
}

/// Three players, dealer 0 (the dropper D): X (seat 1) lays 5H 6H 7H and
/// keeps 4C 4D = 8; Y (seat 2) keeps 20; then D's turn comes round.
fn drop_hand(o: &[(&str, OptionValue)], d_hand: &str) -> TonkState {
    let mut o = o.to_vec();
    o.push(("players", Int(3)));
    let g = game(&o);
    let mut st = deal(
        &g,
        0,
        &[d_hand, "5H 6H 7H 4C 4D", "3H 4S 5C 2D 6D"],
        Some("KS"),
        "KD QS",
    );
    for a in [
        "draw",
        "spread 5H 6H 7H",
        "discard KD",
        "draw",
        "discard QS",
    ] {
        pass_windows(&mut st);
        play(&mut st, a);
    }
    // Under any_time the window before D's turn starts with D.
    assert_eq!(st.current_player(), Some(0));
    play(&mut st, "drop");
    st
}

const D12: &str = "AC 2C 3D 4H 2S";
const D8: &str = "AC AD 2C 2H 2S";

#[test]
fn tk_10_3_pagat_drop_through_a_whole_hand() {
    let st = drop_hand(&[], D12);
    assert_eq!((st.count(0), st.count(1), st.count(2)), (12, 8, 20));
    assert_over(
        &st,
        Ending::Drop {
            player: 0,
            caught: true,
        },
        &[(0, 1, 2), (0, 1, 1), (2, 1, 1)],
    );
    assert_eq!(st.returns(), vec![-3, 4, -1]);
    // Every hand is shown at a drop.
    let v = st.view(2);
    assert!(v.shown_hands.iter().all(Option::is_some));
    assert_eq!(v.shown_hands[0].as_ref().unwrap(), &cards(D12));

    let st = drop_hand(&[], D8);
    assert_eq!((st.count(0), st.count(1), st.count(2)), (8, 8, 20));
    assert_over(
        &st,
        Ending::Drop {
            player: 0,
            caught: true,
        },
        &[(0, 1, 2), (0, 1, 1), (2, 1, 1)],
    );
    assert_eq!(st.returns(), vec![-3, 4, -1]);
    // Strictly lowest.
    let st = drop_hand(&[], "AC AD AH 2C 2S");
    assert_eq!(st.count(0), 7);
    assert_over(
        &st,
        Ending::Drop {
            player: 0,
            caught: false,
        },
        &[(1, 0, 1), (2, 0, 1)],
    );
}

#[test]
fn tk_11_1_wikipedia_drop_through_a_whole_hand() {
    let w = [("preset", s("wikipedia"))];
    let st = drop_hand(&w, D12);
    assert_eq!(st.returns(), vec![-2, 3, -1]);
    assert_eq!(settlement(&st), vec![(0, 1, 1), (0, 1, 1), (2, 1, 1)]);
    let st = drop_hand(&w, D8);
    assert_eq!(settlement(&st), vec![(0, 1, 2), (2, 1, 1)]);
    assert_eq!(st.returns(), vec![-2, 3, -1]);
    // The drop_payout option alone, with the default timing.
    let st = drop_hand(&[("drop_payout", s("wikipedia"))], D12);
    assert_eq!(st.returns(), vec![-2, 3, -1]);
}

#[test]
fn tk_11_1_texas_drop_through_a_whole_hand() {
    let st = drop_hand(&[("preset", s("texas"))], D12);
    assert_over(
        &st,
        Ending::Drop {
            player: 0,
            caught: true,
        },
        &[(0, 1, 2)],
    );
    assert_eq!(st.returns(), vec![-2, 2, 0]);
    let st = drop_hand(&[("preset", s("texas"))], D8);
    assert_eq!(st.returns(), vec![-2, 2, 0]);
}

#[test]
fn tk_1_3_returns_are_stakes_times_the_basic_stake() {
    let st = drop_hand(&[("stake", Int(5))], D12);
    assert_eq!(settlement(&st), vec![(0, 1, 1), (0, 1, 2), (2, 1, 1)]);
    assert_eq!(st.returns(), vec![-15, 20, -5]);
}

// ----- TK-10.4 stock exhausted ----------------------------------------------

const STOCK3: [&str; 3] = ["KC QD JH TS 8C", "2C 3D 4H 5S 7C", "9C 8D 7H 6S QC"];
const STOCK3_TIE: [&str; 3] = ["KC QD JH TS 8C", "2C 3D 4H 5S 7C", "2D 3H 4S 5C 7D"];

/// Draws and discards until the stock is empty.
fn exhaust(st: &mut TonkState) {
    while st.stock_size() > 0 {
        draw_and_discard(st);
        assert_going(st);
    }
}

#[test]
fn tk_10_4_when_needed_play_goes_on_while_players_take_discards() {
    let g = game(&[("players", Int(3))]);
    let mut st = deal(&g, 0, &STOCK3, Some("AS"), "");
    assert_counts(&st, &[48, 21, 40]);
    exhaust(&mut st);
    // The next player may take the discard …
    assert_eq!(legal_text(&st), vec!["draw", "take", "drop"]);
    take_and_rediscard(&mut st);
    take_and_rediscard(&mut st);
    assert_going(&st);
    // … and the hand ends when a player would have to draw.
    play(&mut st, "draw");
    assert_over(
        &st,
        Ending::StockOut { winner: Some(1) },
        &[(0, 1, 1), (2, 1, 1)],
    );
    let v = st.view(0);
    assert!(v.shown_hands.iter().all(Option::is_some));
}

#[test]
fn tk_10_4_the_player_facing_the_empty_stock_may_drop_first() {
    let g = game(&[("players", Int(3))]);
    let mut st = deal(&g, 0, &STOCK3, Some("AS"), "");
    exhaust(&mut st);
    while st.current_player() != Some(1) {
        take_and_rediscard(&mut st);
    }
    assert!(can(&st, "drop"));
    play(&mut st, "drop");
    assert_over(
        &st,
        Ending::Drop {
            player: 1,
            caught: false,
        },
        &[(0, 1, 1), (2, 1, 1)],
    );
}

#[test]
fn tk_10_4_stock_out_tie_void_by_default_or_all_paid() {
    let g = game(&[("players", Int(3))]);
    assert_eq!(g.config.stock_out_tie, StockOutTie::Void);
    let mut st = deal(&g, 0, &STOCK3_TIE, Some("AS"), "");
    assert_counts(&st, &[48, 21, 21]);
    exhaust(&mut st);
    play(&mut st, "draw");
    assert_over(&st, Ending::Void { stock_out: true }, &[]);

    let g = game(&[("players", Int(3)), ("stock_out_tie", s("all_paid"))]);
    let mut st = deal(&g, 0, &STOCK3_TIE, Some("AS"), "");
    exhaust(&mut st);
    play(&mut st, "draw");
    assert_over(
        &st,
        Ending::StockOut { winner: None },
        &[(0, 1, 1), (0, 2, 1)],
    );
    assert_eq!(st.returns(), vec![-2, 1, 1]);
}

#[test]
fn tk_10_4_immediately_ends_at_the_end_of_the_turn_that_drew_the_last_card() {
    let g = game(&[("players", Int(3)), ("stock_out_end", s("immediately"))]);
    assert_eq!(g.config.stock_out_end, StockOutEnd::Immediately);
    let mut st = deal(&g, 0, &STOCK3, Some("AS"), "");
    while st.stock_size() > 1 {
        draw_and_discard(&mut st);
        assert_going(&st);
    }
    let p = st.current_player().unwrap();
    let before = st.hand(p);
    play(&mut st, "draw");
    assert_eq!(st.stock_size(), 0);
    assert_going(&st);
    let drawn = mask_to_cards(st.hand(p) & !before)[0];
    play(&mut st, &format!("discard {drawn}"));
    assert_over(
        &st,
        Ending::StockOut { winner: Some(1) },
        &[(0, 1, 1), (2, 1, 1)],
    );
}

/// Take the discard and throw it back `turns` times, checking the hand goes on.
#[track_caller]
fn idle_turns(st: &mut TonkState, turns: usize) {
    for _ in 0..turns {
        assert_going(st);
        take_and_rediscard(st);
    }
}

#[test]
fn tk_10_7_taking_discards_does_not_end_the_hand_before_max_idle_rounds() {
    // The issue's reproduction: six take-and-rediscard turns used to end
    // the hand as a "stock out" with 41 cards in the stock.
    let g = game(&[]);
    assert_eq!(g.config.max_idle_rounds, 10);
    let mut st = deal(&g, 0, &[PLAIN_B, "4D 8C TS KC JD"], Some("AS"), "");
    idle_turns(&mut st, 6);
    assert_going(&st);
    assert_eq!(st.stock_size(), 41);
    // Ten full rounds of two turns: the twentieth idle turn stalls the hand.
    idle_turns(&mut st, 13);
    assert_going(&st);
    take_and_rediscard(&mut st);
    // Settled as a stock out (TK-10.4): seat 1 (count 42) is beaten by seat 0 (35).
    assert_over(&st, Ending::Stalled { winner: Some(0) }, &[(1, 0, 1)]);
    assert_eq!(st.ending().unwrap().category(), "stalled");
    assert_eq!(st.stock_size(), 41);
    assert_eq!(st.shown_hands(), 0b11);
}

#[test]
fn tk_10_7_max_idle_rounds_flag_counts_full_rounds_and_a_stock_draw_restarts_it() {
    let g = game(&[("max_idle_rounds", Int(3))]);
    let mut st = deal(&g, 0, &[STOCK3[0], STOCK3[1]], Some("9D"), "");
    idle_turns(&mut st, 5);
    take_and_rediscard(&mut st);
    assert_over(&st, Ending::Stalled { winner: Some(1) }, &[(0, 1, 1)]);
    assert!(st.stock_size() > 0);

    // A stock draw starts the count again.
    let mut st = deal(&g, 0, &[STOCK3[0], STOCK3[1]], Some("9D"), "");
    idle_turns(&mut st, 5);
    draw_and_discard(&mut st);
    idle_turns(&mut st, 5);
    take_and_rediscard(&mut st);
    assert_eq!(st.ending(), Some(Ending::Stalled { winner: Some(1) }));

    // Three players: three rounds are nine turns.
    let g = game(&[("players", Int(3)), ("max_idle_rounds", Int(3))]);
    let mut st = deal(&g, 0, &STOCK3, Some("9D"), "");
    idle_turns(&mut st, 8);
    take_and_rediscard(&mut st);
    assert_eq!(st.ending(), Some(Ending::Stalled { winner: Some(1) }));
}

#[test]
fn tk_10_7_a_stalled_tie_is_settled_by_stock_out_tie_but_reported_stalled() {
    for (tie, transfers) in [("void", vec![]), ("all_paid", vec![(0, 1, 1), (0, 2, 1)])] {
        let g = game(&[
            ("players", Int(3)),
            ("max_idle_rounds", Int(1)),
            ("stock_out_tie", s(tie)),
        ]);
        let mut st = deal(&g, 0, &STOCK3_TIE, Some("9D"), "");
        idle_turns(&mut st, 3);
        assert_over(&st, Ending::Stalled { winner: None }, &transfers);
        assert_eq!(st.ending().unwrap().category(), "stalled", "{tie}");
    }
}

#[test]
fn tk_10_7_after_the_stock_runs_out_the_guard_ends_endless_discard_taking() {
    let g = game(&[("max_idle_rounds", Int(2))]);
    let mut st = deal(&g, 0, &[STOCK3[0], STOCK3[1]], Some("9D"), "");
    exhaust(&mut st);
    idle_turns(&mut st, 3);
    take_and_rediscard(&mut st);
    assert_eq!(st.ending(), Some(Ending::Stalled { winner: Some(1) }));
    assert_eq!(st.stock_size(), 0);
}

// ---------------------------------------------------------------------------
// TK-11: double-double, spades bet, presets
// ---------------------------------------------------------------------------

/// A (seat 1) holds 5H 6H 2C 2D 2S, draws 7H and tonks out laying a run.
fn double_double(mode: &str, b_hand: &str) -> TonkState {
    let g = game(&[("double_double", s(mode))]);
    let mut st = deal(&g, 0, &[b_hand, "5H 6H 2C 2D 2S"], Some("KS"), "7H");
    play_all(&mut st, &["draw", "spread 5H 6H 7H", "spread 2C 2D 2S"]);
    st
}

#[test]
fn tk_11_2_double_double_responder_a_pays_b_four() {
    let st = double_double("responder", "8H 9H 4H 3H 2H");
    assert_over(
        &st,
        Ending::TonkOut {
            player: 1,
            paid: 4,
            double_double: true,
        },
        &[(1, 0, 4)],
    );
    assert_eq!(st.returns(), vec![4, -4]);
}

#[test]
fn tk_11_2_double_double_tonker_b_pays_a_four() {
    let st = double_double("tonker", "8H 9H 4H 3H 2H");
    assert_over(
        &st,
        Ending::TonkOut {
            player: 1,
            paid: 4,
            double_double: true,
        },
        &[(0, 1, 4)],
    );
    assert_eq!(st.returns(), vec![-4, 4]);
}

#[test]
fn tk_11_2_double_double_counts_chained_lay_offs() {
    // 9H needs 8H first, 3H needs 4H first.
    for mode in ["responder", "tonker"] {
        let st = double_double(mode, "8H 9H TH 4H 3H");
        assert_eq!(
            st.ending(),
            Some(Ending::TonkOut {
                player: 1,
                paid: 4,
                double_double: true
            })
        );
    }
    // Without 8H, 9H has nowhere to go.
    let st = double_double("responder", "9H TH 4H 3H JH");
    assert_over(
        &st,
        Ending::TonkOut {
            player: 1,
            paid: 2,
            double_double: false,
        },
        &[(0, 1, 2)],
    );
}

#[test]
fn tk_11_2_double_double_only_when_b_can_lay_off_everything() {
    for mode in ["responder", "tonker"] {
        let st = double_double(mode, "8H 9H 4H 2H KD");
        assert_over(
            &st,
            Ending::TonkOut {
                player: 1,
                paid: 2,
                double_double: false,
            },
            &[(0, 1, 2)],
        );
    }
    // Off by default.
    let g = game(&[]);
    assert_eq!(g.config.double_double, DoubleDouble::Off);
    let mut st = deal(
        &g,
        0,
        &["8H 9H 4H 3H 2H", "5H 6H 2C 2D 2S"],
        Some("KS"),
        "7H",
    );
    play_all(&mut st, &["draw", "spread 5H 6H 7H", "spread 2C 2D 2S"]);
    assert_over(
        &st,
        Ending::TonkOut {
            player: 1,
            paid: 2,
            double_double: false,
        },
        &[(0, 1, 2)],
    );
}

#[test]
fn tk_11_2_double_double_only_when_the_finishing_turn_laid_a_run() {
    // The run was laid a turn earlier; the finishing turn lays a book.
    for mode in ["responder", "tonker"] {
        let g = game(&[("double_double", s(mode))]);
        let mut st = deal(
            &g,
            0,
            &["8H 9H 4H 3H 2H", "5H 6H 7H 2C 2D"],
            Some("KS"),
            "KD QS 2S",
        );
        play_all(
            &mut st,
            &[
                "draw",
                "spread 5H 6H 7H",
                "discard KD",
                "draw",
                "discard QS",
                "draw",
                "spread 2C 2D 2S",
            ],
        );
        assert_over(
            &st,
            Ending::TonkOut {
                player: 1,
                paid: 2,
                double_double: false,
            },
            &[(0, 1, 2)],
        );
    }
}

#[test]
fn tk_11_2_double_double_needs_two_players() {
    for mode in ["responder", "tonker"] {
        let m = config_error::<TonkGame>(&[("players", Int(3)), ("double_double", s(mode))]).1;
        assert!(m.contains("two players") && m.contains("TK-11.2"), "{m}");
    }
    let g = game(&[("players", Int(2)), ("double_double", s("tonker"))]);
    assert_eq!(g.config.double_double, DoubleDouble::Tonker);
}

// ----- TK-11.3 spades bet ----------------------------------------------------

const SPADES3: [&str; 3] = ["KS QC JD TH 6C", "5S 9S 2C 3D 4H", "AS 7C 8D 9H JC"];

/// Deals SPADES3 (or other hands) and answers the bet in order: seat 1, 2, 0.
fn spades(o: &[(&str, OptionValue)], hands: &[&str; 3], ins: [bool; 3]) -> TonkState {
    let mut o = o.to_vec();
    o.push(("players", Int(3)));
    let g = game(&o);
    let mut st = deal(&g, 0, hands, Some("2H"), "");
    assert_eq!(st.phase(), Phase::Spades);
    for (k, &inn) in ins.iter().enumerate() {
        assert_eq!(st.current_player(), Some((1 + k as u8) % 3));
        assert_eq!(legal_text(&st), vec!["spades in", "spades out"]);
        assert!(st.side_bet_settlement().is_empty());
        play(&mut st, if inn { "spades in" } else { "spades out" });
    }
    st
}

#[test]
fn tk_11_3_spades_bet_decided_in_order_from_left_of_the_dealer() {
    let g = game(&[("players", Int(3)), ("spades_bet", Int(1))]);
    for dealer in 0..3u8 {
        let mut st = g.deal(40 + u64::from(dealer), Some(dealer)).unwrap();
        assert_eq!(st.phase(), Phase::Spades);
        for k in 1..=3u8 {
            assert_eq!(st.current_player(), Some((dealer + k) % 3));
            play(&mut st, "spades out");
        }
        if !st.is_terminal() {
            assert_eq!(st.current_player(), Some((dealer + 1) % 3));
            assert_eq!(st.phase(), Phase::TurnStart);
        }
    }
    // No bet without the option.
    let st = game(&[("players", Int(3))]).deal(40, Some(0)).unwrap();
    assert_ne!(st.phase(), Phase::Spades);
}

#[test]
fn tk_11_3_highest_spade_among_participants_takes_the_pot_ace_high() {
    let st = spades(&[("spades_bet", Int(1))], &SPADES3, [true, true, true]);
    assert_eq!(st.spade_shown(1), Some(card("9S")));
    assert_eq!(st.spade_shown(2), Some(card("AS")));
    assert_eq!(st.spade_shown(0), Some(card("KS")));
    assert_eq!(sorted(st.side_bet_settlement()), vec![(0, 2, 1), (1, 2, 1)]);
    // Settled at once; the hand itself goes on.
    assert_eq!(st.returns(), vec![-1, -1, 2]);
    assert_going(&st);
    assert_eq!(st.phase(), Phase::TurnStart);
    assert!(st.settlement().is_empty());
}

#[test]
fn tk_11_3_spades_ace_low() {
    let st = spades(
        &[("spades_bet", Int(2)), ("spades_ace_high", Bool(false))],
        &SPADES3,
        [true, true, true],
    );
    assert_eq!(st.spade_shown(2), Some(card("AS")));
    assert_eq!(sorted(st.side_bet_settlement()), vec![(1, 0, 2), (2, 0, 2)]);
    assert_eq!(st.returns(), vec![4, -2, -2]);
}

#[test]
fn tk_11_3_non_participants_show_nothing_and_pay_nothing() {
    let st = spades(&[("spades_bet", Int(1))], &SPADES3, [true, true, false]);
    assert_eq!(st.spade_shown(0), None);
    assert_eq!(sorted(st.side_bet_settlement()), vec![(1, 2, 1)]);
    assert_eq!(st.view(1).known_cards[0], Vec::<Card>::new());
    assert_eq!(st.view(1).spades_in, 0b110);
    // With seat 2 out, seat 0's king beats seat 1's nine.
    let st = spades(&[("spades_bet", Int(1))], &SPADES3, [true, false, true]);
    assert_eq!(st.spade_shown(2), None);
    assert_eq!(sorted(st.side_bet_settlement()), vec![(1, 0, 1)]);
}

#[test]
fn tk_11_3_no_spade_among_participants_returns_the_pot() {
    let hands = ["QC JD TH 6C 3C", "5S 9S 2C 3D 4H", "7C 8D 9H JC 2D"];
    let st = spades(&[("spades_bet", Int(1))], &hands, [false, true, true]);
    assert!(st.side_bet_settlement().is_empty());
    assert_eq!(st.returns(), vec![0, 0, 0]);
    assert_eq!(st.spade_shown(1), None);
    // A lone participant has nobody to win from.
    let st = spades(&[("spades_bet", Int(1))], &SPADES3, [true, false, false]);
    assert!(st.side_bet_settlement().is_empty());
    assert_eq!(st.spade_shown(1), Some(card("9S")));
}

#[test]
fn tk_11_3_shown_spades_become_known_cards_in_views() {
    let st = spades(&[("spades_bet", Int(1))], &SPADES3, [true, true, true]);
    let v0 = st.view(0);
    assert_eq!(v0.known_cards[1], cards("9S"));
    assert_eq!(v0.known_cards[2], cards("AS"));
    assert!(v0.known_cards[0].is_empty());
    assert_eq!(
        v0.spades_shown,
        vec![Some(card("KS")), Some(card("9S")), Some(card("AS"))]
    );
    assert_eq!(st.view(1).known_cards[0], cards("KS"));
    assert_eq!(st.known_cards(2), mask("AS"));
    // Only the highest spade is shown: 5S stays hidden.
    assert!(!v0.known_cards[1].contains(&card("5S")));
    // Observation: opponents' known cards (block after the spreads).
    let o = st.observation(0);
    let base = 156 + 52 * 3;
    assert_eq!(o[base + usize::from(card("9S").code())], 1.0);
    assert_eq!(o[base + 52 + usize::from(card("AS").code())], 1.0);
    assert_eq!(o[base + usize::from(card("5S").code())], 0.0);
}

#[test]
fn tk_10_6_spades_bet_settled_when_the_hand_is_won_at_the_deal_or_void() {
    // Seat 2 holds 49 (with TS): the deal win waits for the bet.
    let hands = ["5S 2C 3D 4H 8C", "9S 7C 8D 9H JC", H49];
    let st = spades(&[("spades_bet", Int(1))], &hands, [true, true, true]);
    assert_eq!(st.ending(), Some(Ending::DealWin { player: 2, paid: 2 }));
    assert_eq!(settlement(&st), vec![(0, 2, 2), (1, 2, 2)]);
    assert_eq!(st.spade_shown(2), Some(card("TS")));
    assert_eq!(sorted(st.side_bet_settlement()), vec![(0, 2, 1), (1, 2, 1)]);
    assert_eq!(st.returns(), vec![-3, -3, 6]);
    // Void deal (two 49/50 holders): only the side bet moves money.
    let hands = [H50, "9S 7C 8D 9H JC", H49];
    let st = spades(&[("spades_bet", Int(1))], &hands, [true, false, true]);
    assert_eq!(st.ending(), Some(Ending::Void { stock_out: false }));
    assert!(st.settlement().is_empty());
    // Seat 0 shows QS, seat 1 shows 9S.
    assert_eq!(sorted(st.side_bet_settlement()), vec![(1, 0, 1)]);
    assert_eq!(st.returns(), vec![1, -1, 0]);
    // A void stock out also keeps the side bet.
    let g = game(&[("players", Int(3)), ("spades_bet", Int(1))]);
    let mut st = deal(&g, 0, &STOCK3_TIE, Some("AS"), "");
    play_all(&mut st, &["spades in", "spades in", "spades in"]);
    exhaust(&mut st);
    play(&mut st, "draw");
    assert_eq!(st.ending(), Some(Ending::Void { stock_out: true }));
    assert!(!st.side_bet_settlement().is_empty());
    assert_eq!(st.returns(), net(st.side_bet_settlement(), 3));
}

// ----- TK-11.4 presets and configuration errors ----------------------------

#[test]
fn tk_11_4_presets_set_the_listed_values() {
    let p = game(&[]).config;
    assert_eq!(p.preset, Preset::Pagat);
    assert_eq!(p.drop_payout, DropPayout::Pagat);
    assert!(!p.aces_high);
    assert_eq!(p.drop_timing, DropTiming::StartOfTurn);
    assert_eq!(p.hit_lock_per_hit, 1);
    assert_eq!(p.stock_out_tie, StockOutTie::Void);
    assert_eq!(p.deal_wins, DealWins::Pagat);
    assert_eq!(p.tonk_double_requires, DoubleRequires::Any);
    assert_eq!(p.stock_out_end, StockOutEnd::WhenNeeded);
    assert_eq!(p.double_double, DoubleDouble::Off);
    assert_eq!(p.spades_bet, None);
    assert!(p.upcard && !p.low_13 && !p.low_9 && !p.must_spread && !p.clear_completed_books);
    assert_eq!(game(&[("preset", s("pagat"))]).config, p);

    let w = game(&[("preset", s("wikipedia"))]).config;
    assert_eq!(w.preset, Preset::Wikipedia);
    assert_eq!(w.drop_payout, DropPayout::Wikipedia);
    assert!(w.aces_high);
    assert_eq!(w.drop_timing, DropTiming::AnyTime);
    assert_eq!(w.hit_lock_per_hit, 1);
    assert_eq!(w.stock_out_tie, StockOutTie::Void);

    let t = game(&[("preset", s("texas"))]).config;
    assert_eq!(t.preset, Preset::Texas);
    assert_eq!(t.drop_payout, DropPayout::Texas);
    assert_eq!(t.deal_wins, DealWins::Texas);
    assert_eq!(t.tonk_double_requires, DoubleRequires::Any);
    assert_eq!(t.drop_timing, DropTiming::StartOfTurn);
}

#[test]
fn tk_11_4_explicit_options_override_presets_in_any_order() {
    let a = game(&[
        ("preset", s("wikipedia")),
        ("drop_timing", s("start_of_turn")),
        ("ace_in_runs", s("low")),
    ])
    .config;
    let b = game(&[
        ("drop_timing", s("start_of_turn")),
        ("ace_in_runs", s("low")),
        ("preset", s("wikipedia")),
    ])
    .config;
    assert_eq!(a, b);
    assert_eq!(a.drop_timing, DropTiming::StartOfTurn);
    assert!(!a.aces_high);
    assert_eq!(a.drop_payout, DropPayout::Wikipedia);
    let t = game(&[("preset", s("texas")), ("deal_wins", s("pagat"))]).config;
    assert_eq!(t.deal_wins, DealWins::Pagat);
    assert_eq!(t.drop_payout, DropPayout::Texas);
    // Options round trip through to_options, whatever the preset.
    for o in [
        vec![("preset", s("wikipedia")), ("players", Int(4))],
        vec![("preset", s("texas")), ("spades_bet", Int(3))],
        vec![("hand_size", s("by_players")), ("players", Int(3))],
    ] {
        let c = game(&o).config;
        assert_eq!(TonkGame::from_options(&c.to_options()).unwrap().config, c);
    }
}

#[test]
fn tk_11_4_invalid_combinations_raise_invalid_config_naming_the_option() {
    // (options, the option the error names, what its message says)
    type Case<'a> = (Vec<(&'a str, OptionValue)>, &'a str, &'a str);
    let cases: Vec<Case> = vec![
        (
            vec![("players", Int(3)), ("double_double", s("responder"))],
            "double_double",
            "two players",
        ),
        (
            vec![("players", Int(6)), ("hand_size", Int(9))],
            "hand_size",
            "52",
        ),
        (vec![("colour", s("red"))], "colour", "unknown Tonk option"),
        (
            vec![
                ("hit_lock_unit", s("per_turn")),
                ("hit_lock_per_hit", Int(0)),
            ],
            "hit_lock_unit",
            "hit_lock_per_hit is 0",
        ),
        (
            vec![("must_spread_aces_exempt", Bool(false))],
            "must_spread_aces_exempt",
            "must_spread",
        ),
        (
            vec![("spades_ace_high", Bool(false))],
            "spades_ace_high",
            "spades_bet",
        ),
        (
            vec![("players", Int(7))],
            "players",
            "players must be 2 to 6 (TK-1.2), got 7",
        ),
        (
            vec![("hand_size", Int(26))],
            "hand_size",
            "hand_size must be by_players or 2 to 25 (TK-2.3), got 26",
        ),
        (vec![("hand_size", Int(1))], "hand_size", "2 to 25"),
        (
            vec![("players", Int(3)), ("hand_size", Int(17))],
            "hand_size",
            "52",
        ),
        (
            vec![("max_idle_rounds", Int(0))],
            "max_idle_rounds",
            "1 to 1000 (TK-10.7)",
        ),
        (
            vec![("max_idle_rounds", Int(1001))],
            "max_idle_rounds",
            "TK-10.7",
        ),
        (vec![("hand_size", s("lots"))], "hand_size", "got \"lots\""),
        (
            vec![("drop_timing", s("whenever"))],
            "drop_timing",
            "one of start_of_turn, own_turn_any_phase, any_time",
        ),
        (
            vec![("preset", s("vegas"))],
            "preset",
            "one of pagat, wikipedia, texas",
        ),
        (
            vec![("max_hits_per_turn", Int(2))],
            "max_hits_per_turn",
            "none or 1",
        ),
        (
            vec![("spades_bet", Int(0))],
            "spades_bet",
            "none or 1 to 1000",
        ),
        (
            vec![("stake", Int(0))],
            "stake",
            "stake must be 1 to 1000000",
        ),
        (vec![("upcard", s("maybe"))], "upcard", "true or false"),
        (vec![("players", s("three"))], "players", "got \"three\""),
        (
            vec![("players", Int(2)), ("players", Int(3))],
            "players",
            "twice",
        ),
        (
            vec![("hit_lock_per_hit", Int(-1))],
            "hit_lock_per_hit",
            "0 to 12",
        ),
    ];
    for (o, option, why) in cases {
        let (named, m) = config_error::<TonkGame>(&o);
        assert_eq!(named.as_deref(), Some(option), "{o:?}: {m}");
        assert!(m.contains(why), "{o:?}: message {m:?} should say {why:?}");
    }
}

#[test]
fn tk_options_the_schema_lists_every_option_once_with_its_rule() {
    use cardtable_core::games::tonk::SCHEMA;
    let names: Vec<&str> = SCHEMA.names().collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), names.len());
    // to_options writes every option, in the schema's order, with a value it takes.
    let c = game(&[]).config;
    let opts = c.to_options();
    assert_eq!(
        opts.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(),
        names
    );
    for (k, v) in &opts {
        let spec = SCHEMA.spec(k).unwrap();
        assert!(spec.check(v).is_ok(), "{k}={v}");
        assert!(spec.rule.starts_with("TK-"), "{k}");
        assert!(!spec.help.is_empty(), "{k}");
    }
}

// ---------------------------------------------------------------------------
// TK-13: the action surface
// ---------------------------------------------------------------------------

#[test]
fn tk_13_every_action_round_trips_through_its_text() {
    let g = game(&[]);
    let mut bad = Vec::new();
    for a in 0..action::COUNT {
        let act = Action::decode(a).unwrap();
        assert_eq!(act.encode(), a);
        let text = g.action_to_string(a).unwrap();
        assert_eq!(text, act.to_string());
        match parse_action(&text) {
            Ok(back) if back.encode() == a => {}
            other => bad.push(format!("{a} {text:?} -> {other:?}")),
        }
        // Case and spacing do not matter.
        if let Ok(back) = parse_action(&format!("  {}  ", text.to_uppercase())) {
            assert_eq!(back, parse_action(&text).unwrap());
        }
    }
    assert!(Action::decode(action::COUNT).is_err());
    assert!(g.action_to_string(u16::MAX).is_err());
    assert!(
        bad.is_empty(),
        "{} actions do not round trip: {bad:#?}",
        bad.len()
    );
}

#[test]
fn tk_13_a_thirteen_card_run_with_a_high_ace_reads_back_as_itself() {
    // Twelve cards 2H..KH and a drawn AH: with low_or_high, both A..K and
    // 2..A are legal lays, and each must read back from its own text.
    let g = game(&[("hand_size", Int(12)), ("ace_in_runs", s("low_or_high"))]);
    let mut st = deal(
        &g,
        0,
        &[
            "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC",
            "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
        ],
        Some("KC"),
        "AH",
    );
    play(&mut st, "draw");
    let lays: Vec<u16> = st
        .legal_actions()
        .into_iter()
        .filter(|&a| {
            matches!(Action::decode(a), Ok(Action::LaySpread(i))
                if spread_catalogue()[usize::from(i)].mask.count_ones() == 13)
        })
        .collect();
    assert_eq!(lays.len(), 2, "A..K and 2..A");
    for a in lays {
        let text = g.action_to_string(a).unwrap();
        assert_eq!(
            parse_action(&text).unwrap().encode(),
            a,
            "{text:?} reads back as another action"
        );
    }
}

#[test]
fn tk_13_a_joker_token_is_an_error_naming_it_never_another_action() {
    // The joker's card code (52) is the id of "draw": it must not alias it.
    for text in ["discard JK", "hit JK S0", "spread JK 2S 3S", "discard jk"] {
        match parse_action(text) {
            Err(CoreError::IllegalAction(m)) => {
                assert!(m.to_lowercase().contains("\"jk\""), "{text}: {m}");
                assert!(m.contains("TK-1.1"), "{text}: {m}");
            }
            other => panic!("{text}: expected an error, got {other:?}"),
        }
    }
    // A bad card token is named too.
    match parse_action("discard 1S") {
        Err(CoreError::IllegalAction(m)) => assert!(m.contains("1S"), "{m}"),
        other => panic!("expected an error, got {other:?}"),
    }
}

#[test]
fn tk_13_action_text_examples() {
    assert_eq!(act("draw"), action::DRAW_STOCK);
    assert_eq!(act("take"), action::TAKE_DISCARD);
    assert_eq!(act("drop"), action::DROP);
    assert_eq!(act("pass"), action::PASS);
    assert_eq!(act("claim 49"), action::CLAIM_49);
    assert_eq!(act("spades in"), action::SPADES_IN);
    assert_eq!(act("spades out"), action::SPADES_OUT);
    assert_eq!(act("discard 7H"), u16::from(card("7H").code()));
    assert_eq!(
        act("hit 8H S3"),
        Action::Hit {
            spread: 3,
            card: card("8H")
        }
        .encode()
    );
    let i = spread_catalogue()
        .iter()
        .position(|sh| sh.mask == mask("5H 6H 7H"))
        .unwrap() as u16;
    assert_eq!(act("spread 5H 6H 7H"), Action::LaySpread(i).encode());
    assert_eq!(act("spread 7H 5H 6H"), act("spread 5H 6H 7H"));
    for bad in [
        "",
        "jump",
        "discard 1H",
        "hit 8H",
        "hit 8H S17",
        "spread 5H 6H 8H",
    ] {
        assert!(
            matches!(parse_action(bad), Err(CoreError::IllegalAction(_))),
            "{bad:?}"
        );
    }
}

#[test]
fn tk_13_legal_actions_sorted_and_illegal_actions_rejected_unchanged() {
    let mut rng = GameRng::new(5);
    for (ci, g) in [
        game(&[]),
        game(&[("preset", s("wikipedia")), ("players", Int(3))]),
        game(&[
            ("spades_bet", Int(1)),
            ("deal_wins", s("forty_nine_in_turn")),
        ]),
    ]
    .iter()
    .enumerate()
    {
        for seed in 0..40u64 {
            let mut st = g.deal(seed, None).unwrap();
            while !st.is_terminal() {
                let legal = st.legal_actions();
                assert!(!legal.is_empty());
                assert!(legal.windows(2).all(|w| w[0] < w[1]), "not sorted");
                for a in 0..action::COUNT {
                    let listed = legal.binary_search(&a).is_ok();
                    assert_eq!(st.is_legal(a), listed, "config {ci} seed {seed} action {a}");
                    if !listed && a % 97 == seed as u16 % 97 {
                        let before = st.clone();
                        assert!(matches!(
                            st.apply_action(a),
                            Err(CoreError::IllegalAction(_))
                        ));
                        assert_eq!(st, before);
                    }
                }
                let before = st.clone();
                assert!(st.apply_action(u16::MAX).is_err());
                assert_eq!(st, before);
                let a = random_action(&st, &mut rng);
                st.apply_action(a).unwrap();
            }
            assert!(matches!(
                st.apply_action(action::DRAW_STOCK),
                Err(CoreError::GameOver)
            ));
        }
    }
}

#[test]
fn tk_13_spread_ids_are_stable_and_a_hit_names_the_id() {
    let g = game(&[("clear_completed_books", Bool(true))]);
    let mut st = deal(
        &g,
        0,
        &["2H 6H 7H 9D 4S", "2C 2D 2S 5H KC"],
        Some("5S"),
        "JD 8H 3C",
    );
    play_all(&mut st, &["draw", "spread 2C 2D 2S", "discard JD"]);
    play_all(
        &mut st,
        &["draw", "hit 2H S0", "spread 6H 7H 8H", "discard 9D"],
    );
    // S0 is cleared (TK-9.3) but S1 keeps its id.
    assert!(st.spreads()[0].cleared);
    assert_eq!(st.spreads()[1].id, 1);
    assert_eq!(st.spreads()[1].owner, 0);
    let v = st.view(1);
    assert_eq!(v.spreads.len(), 1);
    assert_eq!(v.spreads[0].id, 1);
    play(&mut st, "draw");
    refused(&mut st, "hit 5H S0");
    assert!(can(&st, "hit 5H S1"));
    play(&mut st, "hit 5H S1");
    assert_eq!(st.spreads()[1].cards_vec(), cards("5H 6H 7H 8H"));
    assert_eq!(st.spreads()[1].owner, 0);
    for (i, sp) in st.spreads().iter().enumerate() {
        assert_eq!(usize::from(sp.id), i);
    }
}

// ---------------------------------------------------------------------------
// Views, determinization, records
// ---------------------------------------------------------------------------

fn leak_configs() -> Vec<TonkGame> {
    vec![
        game(&[]),
        game(&[("players", Int(3))]),
        game(&[("preset", s("wikipedia")), ("players", Int(3))]),
        game(&[("preset", s("texas")), ("players", Int(4))]),
        game(&[
            ("players", Int(3)),
            ("spades_bet", Int(1)),
            ("deal_wins", s("forty_nine_in_turn")),
            ("low_13", Bool(true)),
        ]),
        game(&[
            ("hand_size", s("by_players")),
            ("clear_completed_books", Bool(true)),
            ("discard_pickup_must_be_used", Bool(true)),
        ]),
    ]
}

#[test]
fn views_never_leak_hidden_cards() {
    let mut rng = GameRng::new(31);
    let mut det_rng = GameRng::new(32);
    let (mut states, mut changed) = (0u32, 0u32);
    for (ci, g) in leak_configs().iter().enumerate() {
        for seed in 0..60u64 {
            let mut st = g.deal(1000 * ci as u64 + seed, None).unwrap();
            while !st.is_terminal() {
                for seat in 0..g.config.players {
                    let other = st.determinize(seat, &mut det_rng);
                    assert_eq!(
                        st.view(seat),
                        other.view(seat),
                        "config {ci} seed {seed}: view of seat {seat} depends on hidden cards"
                    );
                    assert_eq!(st.observation(seat), other.observation(seat));
                    assert_eq!(
                        st.observation(seat).len(),
                        TonkState::observation_size(g.players())
                    );
                    assert!(other.card_locations_ok());
                    // Not vacuous: the hidden cards really move.
                    states += 1;
                    let moved = (0..g.config.players)
                        .any(|p| p != seat && other.hand(p) != st.hand(p))
                        || other.stock() != st.stock();
                    changed += u32::from(moved);
                    // Own hand and public cards never move.
                    assert_eq!(other.hand(seat), st.hand(seat));
                    assert_eq!(other.discard_pile(), st.discard_pile());
                    assert_eq!(other.spreads(), st.spreads());
                }
                let a = random_action(&st, &mut rng);
                st.apply_action(a).unwrap();
            }
        }
    }
    assert!(states > 1000);
    assert!(
        f64::from(changed) > 0.9 * f64::from(states),
        "determinize changed hidden cards in only {changed} of {states} states"
    );
}

#[test]
fn views_show_own_hand_and_hide_other_hands() {
    let g = game(&[("players", Int(3))]);
    let mut st = deal(&g, 0, &[PLAIN_A, "5H 6H 7H KC QD", PLAIN_B], Some("9D"), "");
    let v = st.view(0);
    let mut own = cards(PLAIN_A);
    own.sort_by_key(|c| c.code());
    assert_eq!(v.hand, own);
    assert_eq!(v.hand_sizes, vec![5, 5, 5]);
    assert!(v.known_cards.iter().all(Vec::is_empty));
    assert!(v.shown_hands.iter().all(Option::is_none));
    assert_eq!(v.current_player, Some(1));
    assert!(v.legal_actions.is_empty());
    assert_eq!(st.view(1).legal_actions, st.legal_actions());
    // A card taken from the discard pile becomes known to everybody.
    play(&mut st, "take");
    assert_eq!(st.view(0).known_cards[1], cards("9D"));
    assert_eq!(st.view(2).known_cards[1], cards("9D"));
    assert!(st.view(1).known_cards[1].is_empty());
    play(&mut st, "discard 9D");
    assert!(st.view(0).known_cards[1].is_empty());
    // Observation layout: own hand in the first 52 entries only.
    let o = st.observation(0);
    for c in cards(PLAIN_A) {
        assert_eq!(o[usize::from(c.code())], 1.0);
    }
    assert_eq!(o[..52].iter().sum::<f32>(), 5.0);
    assert_eq!(o[52 + usize::from(card("9D").code())], 1.0);
}

#[test]
fn views_determinize_of_a_finished_hand_keeps_the_shown_hands() {
    // At the end of a drop every hand is shown, so nothing is hidden any more:
    // a state `seat` cannot tell apart must have the same shown hands.
    let st = drop_hand(&[], D12);
    let mut rng = GameRng::new(1);
    for seat in 0..3 {
        let other = st.determinize(seat, &mut rng);
        assert_eq!(
            st.view(seat).shown_hands,
            other.view(seat).shown_hands,
            "seat {seat}: the hands shown at the end change under determinize"
        );
        assert_eq!(st.view(seat), other.view(seat));
    }
}

#[test]
fn records_round_trip_through_json_and_replay() {
    let mut rng = GameRng::new(8);
    for (ci, g) in leak_configs().iter().enumerate() {
        for seed in 0..25u64 {
            let st = random_hand(g, 500 + seed + 100 * ci as u64, &mut rng);
            let names: Vec<String> = (0..g.players()).map(|p| format!("bot{p}")).collect();
            let rec = record_of(&st, names.clone()).unwrap();
            assert_eq!(rec.players, names);
            assert_eq!(rec.actions, st.history());
            let line = rec.to_json();
            assert!(!line.contains('\n'));
            let back = Record::from_json(&line).unwrap();
            assert_eq!(back, rec);
            assert_eq!(replayed(&back).unwrap(), st);
            assert_eq!(
                TonkState::replay(g, st.seed(), st.dealer(), st.history()).unwrap(),
                st
            );
        }
    }
    // A stacked deal records its deck.
    let st = drop_hand(&[], D12);
    let rec = record_of(&st, vec!["a".into(), "b".into(), "c".into()]).unwrap();
    assert!(rec.seed.is_none());
    assert_eq!(rec.deck.as_ref().unwrap().len(), 52);
    let back = Record::from_json(&rec.to_json()).unwrap();
    assert_eq!(replayed(&back).unwrap(), st);
}

#[test]
fn records_of_a_determinized_state_replay_to_it_or_fail() {
    // A record (and so a Python pickle) of a determinized state must not
    // silently replay into another state.
    let g = game(&[("players", Int(3))]);
    let mut st = g.deal(5, Some(0)).unwrap();
    let mut rng = GameRng::new(2);
    for _ in 0..4 {
        let a = random_action(&st, &mut rng);
        st.apply_action(a).unwrap();
    }
    assert_going(&st);
    let det = st.determinize(0, &mut GameRng::new(1));
    assert_ne!(det.hand(1), st.hand(1));
    // A determinized state has no record: the engine refuses to write one.
    let err = record_of(&det, vec!["?".into(); 3]).unwrap_err();
    assert!(err.to_string().contains("hidden cards"), "{err}");
    // And the real state's record replays to the real state.
    let rec = record_of(&st, vec!["?".into(); 3]).unwrap();
    assert_eq!(replayed(&rec).unwrap(), st);
}

#[test]
fn records_corrupted_fail_replay_with_invalid_record() {
    let g = game(&[("players", Int(3))]);
    let mut rng = GameRng::new(3);
    let mut st = random_hand(&g, 12, &mut rng);
    let mut seed = 12;
    while st.history().len() < 4 {
        seed += 1;
        st = random_hand(&g, seed, &mut rng);
    }
    let rec = record_of(&st, vec!["x".into(); 3]).unwrap();
    let invalid = |r: &Record| {
        let e = replayed(r).unwrap_err();
        assert!(matches!(e, CoreError::InvalidRecord(_)), "{e:?}");
        // Also through JSON.
        let e = Record::from_json(&r.to_json())
            .and_then(|r| replayed(&r))
            .unwrap_err();
        assert!(matches!(e, CoreError::InvalidRecord(_)), "{e:?}");
    };
    // A changed action: one that is not legal at that point.
    for i in 0..rec.actions.len() {
        let start = g.deal(seed, Some(st.dealer())).unwrap();
        let at = start.replay_actions(&rec.actions[..i]).unwrap();
        let bad_action = (0..action::COUNT).find(|&a| !at.is_legal(a)).unwrap();
        let mut r = rec.clone();
        r.actions[i] = bad_action;
        invalid(&r);
    }
    // A record cut short: the hand is still going after its actions.
    let mut r = rec.clone();
    r.actions.pop();
    invalid(&r);
    // Changed returns or ending.
    let mut r = rec.clone();
    if let Some(result) = r.result.as_mut() {
        result.returns[0] += 1;
        result.returns[1] -= 1;
    }
    invalid(&r);
    let mut r = rec.clone();
    if let Some(result) = r.result.as_mut() {
        result.ending = if result.ending == "void" {
            "tonk_out"
        } else {
            "void"
        }
        .into();
    }
    invalid(&r);
    // A changed deal.
    let mut r = rec.clone();
    r.seed = Some(seed + 1);
    let e = replayed(&r);
    assert!(e.is_err() || e.unwrap() != st);
    // Malformed JSON.
    for line in [
        "",
        "{}",
        "[1, 2]",
        r#"{"version": 99, "game": "tonk"}"#,
        &rec.to_json().replace("\"tonk\"", "\"spit\""),
    ] {
        assert!(matches!(
            Record::from_json(line).and_then(|r| replayed(&r)),
            Err(CoreError::InvalidRecord(_))
        ));
    }
}

mod action_text_props {
    use super::*;
    use proptest::prelude::*;

    /// Words that make up action texts, to mix with arbitrary text.
    const WORDS: [&str; 16] = [
        "draw", "take", "drop", "pass", "claim", "49", "spades", "in", "out", "discard", "hit",
        "spread", "S0", "S16", "JK", "7h",
    ];

    fn texts() -> impl Strategy<Value = String> {
        let word = prop_oneof![
            proptest::sample::select(WORDS.to_vec()).prop_map(str::to_string),
            "\\PC{0,4}",
            "[2-9TJQKA][CDHS]",
        ];
        prop_oneof![
            "\\PC{0,24}",
            proptest::collection::vec(word, 0..6).prop_map(|w| w.join(" ")),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        // TK-13: any text is an action that reads back as itself, or an
        // IllegalAction error; never a panic, and never a joker aliasing
        // another action.
        #[test]
        fn any_text_is_an_action_or_an_error(text in texts()) {
            match parse_action(&text) {
                Ok(a) => {
                    let id = a.encode();
                    prop_assert!(id < action::COUNT);
                    prop_assert_eq!(Action::decode(id).unwrap(), a);
                    let back = parse_action(&a.to_string()).unwrap();
                    prop_assert_eq!(back, a);
                    prop_assert!(!text.to_lowercase().split_whitespace().any(|w| w == "jk"));
                }
                Err(CoreError::IllegalAction(m)) => prop_assert!(m.contains("cannot read action")),
                Err(other) => prop_assert!(false, "{other:?}"),
            }
        }

        #[test]
        fn every_integer_decodes_or_is_an_error(id in any::<u16>()) {
            match Action::decode(id) {
                Ok(a) => prop_assert_eq!(a.encode(), id),
                Err(CoreError::IllegalAction(_)) => prop_assert!(id >= action::COUNT),
                Err(other) => prop_assert!(false, "{other:?}"),
            }
        }
    }
}

#[test]
fn records_keep_the_final_state_hash_and_replays_check_it() {
    let g = game(&[]);
    let mut st = g.deal(31, None).unwrap();
    let mut rng = GameRng::new(31);
    while !st.is_terminal() {
        let a = random_action(&st, &mut rng);
        st.apply_action(a).unwrap();
    }
    let line = record_of(&st, vec!["a".into(), "b".into()])
        .unwrap()
        .to_json();
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    let hash = v["result"]["hash"].as_str().unwrap().to_string();
    assert_eq!(hash.len(), 16);
    assert_eq!(replayed(&Record::from_json(&line).unwrap()).unwrap(), st);
    // Another hash: the replay says the final states differ.
    let other = if hash.starts_with('0') { "1" } else { "0" };
    let tampered = line.replace(&hash, &format!("{other}{}", &hash[1..]));
    match replayed(&Record::from_json(&tampered).unwrap()) {
        Err(CoreError::InvalidRecord(m)) => assert!(m.contains("final state"), "{m}"),
        other => panic!("{other:?}"),
    }
    // Records written before hashes existed still replay.
    let old = line.replace(&format!(",\"hash\":\"{hash}\""), "");
    assert!(!old.contains("hash"));
    assert_eq!(replayed(&Record::from_json(&old).unwrap()).unwrap(), st);
}

// ---------------------------------------------------------------------------
// Refusals: the rule and the sentence behind an illegal action
// ---------------------------------------------------------------------------

/// Asserts that `text` is refused by `rule`, with a reason containing
/// `says`, and that the error of applying it carries the same refusal.
#[track_caller]
fn refused_by(st: &mut TonkState, text: &str, rule: &str, says: &str) {
    let a = act(text);
    let r = st
        .refusal(parse_action(text).unwrap())
        .unwrap_or_else(|| panic!("{text} is legal; legal: {:?}", legal_text(st)));
    assert_eq!(r.rule, rule, "{text}: {r}");
    assert!(
        r.reason.contains(says),
        "{text}: {r:?} does not say {says:?}"
    );
    let before = st.clone();
    match st.apply_action(a) {
        Err(CoreError::IllegalAction(m)) => {
            let shown = parse_action(text).unwrap();
            assert_eq!(
                m,
                format!("{shown} is not legal now: {} ({rule})", r.reason)
            )
        }
        other => panic!("{text}: {other:?}"),
    }
    assert_eq!(*st, before);
}

#[test]
fn refusals_name_the_turn_rules_tk_6() {
    let g = game(&[]);
    let mut st = deal(&g, 0, &[PLAIN_A, "6C 7C 2D KS QD"], Some("8C"), "9H");
    // Nothing is played before the draw (TK-6.4), and there is no window to pass.
    refused_by(
        &mut st,
        "discard KS",
        "TK-6.4",
        "draw first: take the top of the stock or of the discard pile",
    );
    refused_by(&mut st, "spread 6C 7C 8C", "TK-6.4", "draw first");
    refused_by(&mut st, "pass", "TK-6.8", "no drop window");
    assert!(st.refusal(Action::DrawStock).is_none());
    assert!(st.refusal(Action::TakeDiscard).is_none());
    play(&mut st, "draw");
    refused_by(&mut st, "take", "TK-6.4", "exactly one card");
    refused_by(&mut st, "discard 7H", "TK-6.7", "you do not hold 7H");
    refused_by(
        &mut st,
        "drop",
        "TK-6.3",
        "only at the very start of your turn",
    );
    refused_by(&mut st, "spread 6C 7C 8C", "TK-6.5", "you do not hold 8C");
    refused_by(&mut st, "hit 9H S0", "TK-8.1", "there is no spread S0");
    assert!(st.refusal(Action::Discard(card("9H"))).is_none());
}

#[test]
fn refusals_name_the_taken_card_rules_tk_6_9_tk_6_10() {
    let g = game(&[("discard_pickup_must_be_used", Bool(true))]);
    let st = deal(&g, 0, &[PLAIN_C, "5C 6C 7D KC QD"], Some("8H"), "");
    assert_eq!(
        st.refusal(Action::TakeDiscard).unwrap().to_string(),
        "you may take 8H only if it can go into a spread or a hit this turn, and it cannot (TK-6.10)"
    );
    let mut st = deal(&g, 0, &[PLAIN_C, "5H 6H 5C 5D KS"], Some("7H"), "");
    play(&mut st, "take");
    refused_by(
        &mut st,
        "discard KS",
        "TK-6.10",
        "7H, taken from the discard pile, must go into a spread or a hit before you discard",
    );
    refused_by(&mut st, "spread 5H 5C 5D", "TK-6.10", "would leave 7H");
    let g = game(&[
        ("discard_pickup_must_be_used", Bool(true)),
        ("drop_timing", s("own_turn_any_phase")),
    ]);
    let mut st = deal(&g, 0, &[PLAIN_C, "5H 6H 5C 5D KS"], Some("7H"), "");
    play(&mut st, "take");
    refused_by(&mut st, "drop", "TK-6.10", "before you drop");
    // The only hit of a turn (max_hits_per_turn = 1).
    let g = game(&[("max_hits_per_turn", Int(1))]);
    let mut st = deal(
        &g,
        0,
        &["9C 9D 4H 3H KS", "5H 6H 7H KC 9H"],
        Some("AS"),
        "QC 8H",
    );
    play_all(
        &mut st,
        &["draw", "spread 5H 6H 7H", "discard QC", "draw", "hit 4H S0"],
    );
    refused_by(&mut st, "hit 3H S0", "TK-6.10", "max_hits_per_turn = 1");
    // forbid_rediscard.
    let g = game(&[("forbid_rediscard", Bool(true))]);
    let mut st = deal(&g, 0, &[PLAIN_B, PLAIN_A], Some("KH"), "");
    play(&mut st, "take");
    refused_by(
        &mut st,
        "discard KH",
        "TK-6.9",
        "you took KH from the discard pile",
    );
}

#[test]
fn refusals_name_the_drop_rules_tk_6_8_tk_8_4() {
    // A hit lock (TK-8.4).
    let mut st = lock_start(&game(&[]), "JC 2H");
    play_all(&mut st, &["draw", "hit 8H S0", "discard 2C"]);
    assert!(st.turn_locked() || st.lock(1) > 0);
    refused_by(&mut st, "drop", "TK-8.4", "hit lock");
    // any_time: drops only in the windows.
    let g = game(&[("drop_timing", s("any_time"))]);
    let mut st = deal(&g, 0, &[PLAIN_A, PLAIN_B], Some("AS"), "");
    refused_by(&mut st, "draw", "TK-6.8", "drop window");
    pass_windows(&mut st);
    refused_by(&mut st, "drop", "TK-6.8", "only in a drop window");
}

#[test]
fn refusals_name_the_spread_and_hit_rules_tk_7_tk_8_tk_9() {
    // TK-7.3: a high ace only with low_or_high.
    let g = game(&[]);
    let mut st = deal(&g, 0, &[PLAIN_A, "QH KH AH 3C 6D"], Some("9S"), "8D");
    play(&mut st, "draw");
    refused_by(
        &mut st,
        "spread QH KH AH",
        "TK-7.3",
        "QH KH AH is not a run",
    );
    // TK-7.6: must_spread names the spread to lay.
    let g = game(&[("must_spread", Bool(true))]);
    let mut st = deal(&g, 0, &[PLAIN_A, "5H 6H 7H KC 2D"], Some("9S"), "8D");
    play(&mut st, "draw");
    refused_by(
        &mut st,
        "discard KC",
        "TK-7.6",
        "lay 5H 6H 7H before you discard KC",
    );
    // TK-8.1: why a spread does not take a card.
    let g = game(&[]);
    let mut st = deal(
        &g,
        0,
        &["9C 9D 4H 3H KS", "5H 6H 7H KC 9H"],
        Some("AS"),
        "QC 8H",
    );
    play_all(&mut st, &["draw", "spread 5H 6H 7H", "discard QC", "draw"]);
    refused_by(&mut st, "hit 7H S0", "TK-8.1", "you do not hold 7H");
    refused_by(
        &mut st,
        "hit 9C S0",
        "TK-8.1",
        "9C is not of the suit of the run S0 (5H 6H 7H)",
    );
    refused_by(
        &mut st,
        "hit 3H S0",
        "TK-8.1",
        "3H does not extend S0 (5H 6H 7H) at either end: only 4H or 8H can hit it",
    );
    // TK-8.6: books may not be hit with only_runs_hittable.
    let g = game(&[("only_runs_hittable", Bool(true))]);
    let mut st = deal(&g, 0, &BOOK_HANDS, Some("5S"), "JD 5C");
    play_all(&mut st, &["draw", "spread 2C 2D 2S", "discard JD", "draw"]);
    refused_by(&mut st, "hit 2H S0", "TK-8.6", "only runs may be hit");
    // TK-8.1 and TK-9.3: a book of another rank, a cleared book.
    let g = game(&[("clear_completed_books", Bool(true))]);
    let mut st = deal(&g, 0, &BOOK_HANDS, Some("5S"), "JD 5C");
    play_all(&mut st, &["draw", "spread 2C 2D 2S", "discard JD", "draw"]);
    refused_by(
        &mut st,
        "hit 9D S0",
        "TK-8.1",
        "S0 (2C 2D 2S) is a book of 2s: 9D does not belong to it",
    );
    play_all(&mut st, &["hit 2H S0", "discard 5C"]);
    play(&mut st, "draw");
    let mut c = st.clone();
    let any = mask_to_cards(st.hand(1))[0];
    refused_by(
        &mut c,
        &format!("hit {any} S0"),
        "TK-9.3",
        "went under the discard pile",
    );
}

#[test]
fn refusals_name_the_claim_spades_and_ending_rules_tk_5_tk_10_tk_11() {
    let g = game(&[]);
    let mut st = deal(&g, 0, &[PLAIN_A, PLAIN_B], Some("AS"), "");
    refused_by(&mut st, "claim 49", "TK-5.4", "forty_nine_in_turn");
    refused_by(&mut st, "spades in", "TK-11.3", "no spades side bet");
    let g = game(&[("deal_wins", s("forty_nine_in_turn"))]);
    let mut st = deal(&g, 0, &[PLAIN_A, PLAIN_B], Some("AS"), "");
    refused_by(
        &mut st,
        "claim 49",
        "TK-5.4",
        "your dealt count was 35, not 49",
    );
    let g = game(&[("spades_bet", Int(1))]);
    let mut st = deal(&g, 0, &[PLAIN_A, PLAIN_B], Some("AS"), "");
    refused_by(&mut st, "draw", "TK-11.3", "spades in or spades out");
    play_all(&mut st, &["spades in", "spades out"]);
    refused_by(&mut st, "spades in", "TK-11.3", "decided once");
    play(&mut st, "drop");
    assert!(st.is_terminal());
    let r = st.refusal(Action::DrawStock).unwrap();
    assert_eq!(r.rule, "TK-10");
    // A finished hand still answers GameOver to apply_action.
    assert!(matches!(
        st.apply_action(action::DRAW_STOCK),
        Err(CoreError::GameOver)
    ));
}

#[test]
fn refusal_is_none_exactly_for_the_legal_actions_of_scenarios() {
    let g = game(&[("discard_pickup_must_be_used", Bool(true))]);
    let mut st = deal(&g, 0, &[PLAIN_C, "5H 6H 5C 5D KS"], Some("7H"), "");
    play(&mut st, "take");
    for a in 0..action::COUNT {
        let act = Action::decode(a).unwrap();
        assert_eq!(st.refusal(act).is_none(), st.is_legal(a), "{act}");
    }
}

// ---------------------------------------------------------------------------
// Take back: which legal actions a UI may offer to undo
// ---------------------------------------------------------------------------

#[test]
fn take_back_a_take_a_spread_or_a_hit_that_leave_the_turn_going() {
    let g = game(&[]);
    let mut st = deal(
        &g,
        0,
        &["9C 9D 4H 3H KS", "5H 6H 7H KC 9H"],
        Some("AS"),
        "QC 8H",
    );
    // The stock card is hidden until drawn; the discard is public.
    assert!(!st.can_take_back(Action::DrawStock));
    assert!(st.can_take_back(Action::TakeDiscard));
    // Illegal actions are never taken back.
    assert!(!st.can_take_back(Action::Discard(card("KC"))));
    play(&mut st, "draw");
    assert!(st.can_take_back(parse_action("spread 5H 6H 7H").unwrap()));
    assert!(!st.can_take_back(Action::Discard(card("KC"))));
    assert!(!st.can_take_back(Action::Drop));
    play_all(&mut st, &["spread 5H 6H 7H", "discard QC", "draw"]);
    assert!(st.can_take_back(parse_action("hit 4H S0").unwrap()));
    assert!(!st.can_take_back(parse_action("hit 3H S0").unwrap()));
}

#[test]
fn take_back_not_for_what_ends_the_hand_or_the_turn() {
    // A spread that empties the hand tonks out (TK-6.6): no take back.
    let g = game(&[]);
    let mut st = deal(&g, 0, &[PLAIN_C, "5H 6H 7H 8H 9H"], Some("TH"), "");
    assert!(st.can_take_back(Action::TakeDiscard));
    play(&mut st, "take");
    assert!(!st.can_take_back(parse_action("spread 5H 6H 7H 8H 9H TH").unwrap()));
    assert!(st.can_take_back(parse_action("spread 5H 6H 7H").unwrap()));
    // A hit that empties the hand.
    let g = game(&[]);
    let mut st = deal(
        &g,
        0,
        &["8H 2C 3D 4S KC", "5H 6H 7H 9H JS"],
        Some("AS"),
        "TC",
    );
    play_all(&mut st, &["draw", "spread 5H 6H 7H", "discard 9H", "take"]);
    // Seat 0 holds 8H 2C 3D 4S KC + 9H.
    assert!(st.can_take_back(parse_action("hit 8H S0").unwrap()));
    // Claims, spades bets, passes and drops are final.
    let g = game(&[
        ("spades_bet", Int(1)),
        ("deal_wins", s("forty_nine_in_turn")),
    ]);
    let st = deal(&g, 0, &[PLAIN_A, H49], Some("AS"), "");
    assert!(!st.can_take_back(Action::SpadesIn));
    assert!(!st.can_take_back(Action::SpadesOut));
    let mut st = st;
    play_all(&mut st, &["spades out", "spades out"]);
    assert!(can(&st, "claim 49"));
    assert!(!st.can_take_back(Action::Claim49));
    assert!(!st.can_take_back(Action::Drop));
    // Over: nothing.
    play(&mut st, "claim 49");
    assert!(!st.can_take_back(Action::TakeDiscard));
}

#[test]
fn take_back_under_any_time_only_while_the_same_player_decides() {
    let g = game(&[("drop_timing", s("any_time"))]);
    let mut st = deal(&g, 0, &[PLAIN_A, "6C 7C 2D KS QD"], Some("8C"), "");
    assert!(!st.can_take_back(Action::Pass));
    pass_windows(&mut st);
    // The take opens a window whose first slot is the taker's own.
    assert!(st.can_take_back(Action::TakeDiscard));
    // A locked taker sits out the window: the next decision is the other
    // player's, who may drop on what they saw.
    let mut st = lock_start(&g, "JC 2H");
    play_all(&mut st, &["draw"]);
    pass_windows(&mut st);
    play_all(&mut st, &["hit 8H S0"]);
    pass_windows(&mut st);
    play(&mut st, "discard 2C");
    pass_windows(&mut st);
    assert!(st.turn_locked());
    assert_eq!(st.current_player(), Some(1));
    assert!(can(&st, "take"));
    assert!(!st.can_take_back(Action::TakeDiscard));
}

#[test]
fn the_rules_summary_follows_the_options() {
    let text = |g: &TonkGame| -> String {
        g.config
            .rules_summary()
            .iter()
            .map(|p| format!("{} ({}): {}", p.title, p.rule, p.text))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let plain = text(&game(&[]));
    assert!(plain.contains("Count (TK-3): your count adds up the cards in your hand: A 1, 2-10 their number, J 10, Q 10, K 10."), "{plain}");
    assert!(plain.contains("a dealt count of 49 or 50 wins the hand at once"));
    assert!(plain.contains("You may drop at the start of your turn"));
    let varied = text(&game(&[
        ("face_values", s("eleven_twelve_thirteen")),
        ("drop_timing", s("any_time")),
        ("discard_pickup_must_be_used", Bool(true)),
        ("hit_lock_per_hit", Int(0)),
        ("stake", Int(5)),
        ("spades_bet", Int(2)),
    ]));
    assert!(varied.contains("J 11, Q 12, K 13."), "{varied}");
    assert!(varied.contains("in the drop window after every move"));
    assert!(varied.contains("(TK-6.10)"));
    assert!(!varied.contains("Hit lock (TK-8.4)"));
    assert!(varied.contains("Spades bet (TK-11.3)") && varied.contains("stakes of 5"));
}
