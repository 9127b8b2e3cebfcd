//! Three Thirteen's own random play: bot lineups over random variant sets
//! (every state checked by the generic checks of `engine_sim`), each round
//! scored as the solver says, and every kind of action and of round ending
//! reached; adversarial players over every option set (TT-6, TT-9.3,
//! TT-10, with a refusal for each illegal action naming a TT rule); and
//! paired deals that differ only in a hidden card.

#![allow(clippy::unwrap_used)]

use crate::engine_sim::{check_finished, check_state, Depth, Seen as Checks};
use cardtable_core::engine::options::OptionValue;
use cardtable_core::engine::record::{record_of_state, replay, Record};
use cardtable_core::engine::State;
use cardtable_core::engine::{Bots as _, Game as _};
use cardtable_core::games::three_thirteen::bots::Bot;
use cardtable_core::games::three_thirteen::{
    action, Action, Jokers, Phase, RoundEnd, ThreeThirteenBotSpec, ThreeThirteenGame,
    ThreeThirteenState,
};
use cardtable_core::meld::MeldRules;
use cardtable_core::{Card, GameRng, Solver};

fn random_options(rng: &mut GameRng) -> Vec<(String, OptionValue)> {
    use OptionValue::{Bool, Int, Str};
    let mut o: Vec<(&str, OptionValue)> = Vec::new();
    let pick = |rng: &mut GameRng, xs: &[&str]| xs[rng.below(xs.len() as u32) as usize].to_string();
    // Mostly 2-4 players, sometimes more.
    let players = match rng.below(10) {
        0 => 5 + rng.below(4),
        1..=3 => 3,
        4 => 4,
        _ => 2,
    };
    o.push(("players", Int(i64::from(players))));
    if rng.below(4) == 0 {
        o.push(("decks", Int(1 + i64::from(rng.below(3)))));
    }
    if rng.below(4) == 0 {
        o.push(("schedule", Str(pick(rng, &["up", "up_down"]))));
    }
    o.push(("extra_rounds", Int(i64::from(rng.below(3)))));
    if rng.below(2) == 0 {
        let v = if rng.below(2) == 0 {
            Str("unlimited".into())
        } else {
            Int(1 + i64::from(rng.below(3)))
        };
        o.push(("max_wilds_per_meld", v));
    }
    for name in [
        "all_wild_melds",
        "forbid_rediscard",
        "ace_high_or_low",
        "face_values_11_12_13",
        "redemption_round",
        "double_jqk_rounds",
    ] {
        if rng.below(3) == 0 {
            o.push((name, Bool(true)));
        }
    }
    o.push(("jokers", Str(pick(rng, &["none", "wild", "wild_giftable"]))));
    if rng.below(3) == 0 {
        o.push(("false_out_penalty", Int(20)));
    }
    o.push(("max_restocks", Int(i64::from(rng.below(4)))));
    o.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

/// A game from random options; a deck count too small for the table is
/// refused, so those are drawn again.
fn random_game(rng: &mut GameRng) -> ThreeThirteenGame {
    loop {
        if let Ok(g) = ThreeThirteenGame::from_options(&random_options(rng)) {
            return g;
        }
    }
}

/// The round just finished is scored as the solver says (TT-6.3, TT-7,
/// TT-10.7, TT-10.9).
fn check_round_scores(g: &ThreeThirteenGame, st: &ThreeThirteenState, solver: &mut Solver) {
    let r = st.last_round().unwrap();
    let rules = g.config.meld_rules(r.wild);
    let doubled = g.config.double_jqk_rounds && (11..=13).contains(&r.wild);
    assert_eq!(r.doubled, doubled);
    let row = st.score_sheet().last().unwrap();
    for (p, seat) in r.seats.iter().enumerate() {
        let dw = solver.deadwood(&seat.hand, &rules).unwrap();
        assert_eq!(seat.deadwood, dw, "seat {p} deadwood");
        let mult = if doubled { 2 } else { 1 };
        let want = i64::from(dw) * mult + 20 * i64::from(seat.false_outs);
        assert_eq!(seat.points, want, "seat {p} points");
        assert_eq!(row[p], want);
        if r.end == (RoundEnd::Out { player: p as u8 }) {
            assert_eq!(dw, 0, "the player who went out is fully melded");
        }
        if seat.false_outs > 0 {
            assert!(g.config.false_out_penalty.is_some());
        }
    }
}

/// What the playouts exercised: action kinds, round endings, restocks, false outs.
#[derive(Default, Debug)]
struct Played {
    actions: [u64; 9],
    ends: [u64; 3],
    restocks: u64,
    false_outs: u64,
    steps: u64,
}

fn kind(a: Action) -> usize {
    match a {
        Action::DrawStock => 0,
        Action::TakeDiscard => 1,
        Action::Discard(_) => 2,
        Action::GoOut(_) => 3,
        Action::Gift(_) => 4,
        Action::Table => 5,
        Action::LayOff { .. } => 6,
        Action::Pick(_) => 7,
        Action::LayMeld => 8,
    }
}

/// One game between `specs` (round the table), every bot answer legal,
/// every round scored as the solver says, zero-sum, its record replayed;
/// with `deep`, every 17th state checked (the views every 51st) and the
/// end fully.
fn play_one(
    g: &ThreeThirteenGame,
    seed: u64,
    specs: &[ThreeThirteenBotSpec],
    rng: &mut GameRng,
    deep: bool,
    seen: &mut Played,
) {
    let n = g.players();
    let mut st = g.deal(seed, None).unwrap();
    let mut bots: Vec<Bot> = (0..n)
        .map(|i| Bot::new(specs[i % specs.len()], seed * 31 + i as u64))
        .collect();
    let mut solver = Solver::new();
    let mut checked = Checks::default();
    let mut rows = 0;
    let mut step = 0u64;
    let (mut legal, mut via_trait) = (Vec::new(), Vec::new());
    while !st.is_terminal() {
        if deep && step % 17 == 0 {
            let depth = if step % 51 == 0 {
                Depth::Views
            } else {
                Depth::Light
            };
            check_state(g, &st, 0, rng, depth, &mut checked);
        }
        st.legal_actions_into(&mut legal);
        let seat = st.current_player().unwrap();
        State::legal_actions(&st, seat, &mut via_trait);
        assert_eq!(via_trait, legal, "the engine trait lists other actions");
        let a = bots[usize::from(seat)].choose(st.seat_view(seat)).unwrap();
        assert!(
            legal.binary_search(&a).is_ok(),
            "{:?} chose illegal {} ({}) in {:?}",
            specs[usize::from(seat) % specs.len()],
            a,
            Action::decode(a).map(|x| x.to_string()).unwrap_or_default(),
            st.phase()
        );
        seen.actions[kind(Action::decode(a).unwrap())] += 1;
        if a == action::DRAW_STOCK && st.stock_size() == 0 {
            seen.restocks += 1;
        }
        st.apply_action(a).unwrap();
        if st.score_sheet().len() > rows {
            rows = st.score_sheet().len();
            check_round_scores(g, &st, &mut solver);
            let r = st.last_round().unwrap();
            seen.ends[match r.end {
                RoundEnd::Out { .. } => 0,
                RoundEnd::StockGuard => 1,
                RoundEnd::Stalled => 2,
            }] += 1;
            seen.false_outs += r.seats.iter().map(|x| u64::from(x.false_outs)).sum::<u64>();
        }
        step += 1;
        seen.steps += 1;
    }
    if deep {
        check_state(g, &st, 0, rng, Depth::Full, &mut checked);
    }
    assert_eq!(st.score_sheet().len(), st.round_count());
    assert_eq!(st.phase(), Phase::Over);
    assert_eq!(State::returns(&st).iter().sum::<i64>(), 0, "not zero-sum");
    // The record replays to the same state (the whole generic end check,
    // which replays the history a second time, for the deep games).
    // One name per seat: the bots' specs go round the table.
    let names: Vec<String> = (0..n)
        .map(|seat| specs[seat % specs.len()].name())
        .collect();
    if deep {
        check_finished(g, &st, names, None, &mut checked);
    } else {
        let line = record_of_state(g, &st, names).unwrap().to_json();
        let (_, again) = replay::<ThreeThirteenGame>(&Record::from_json(&line).unwrap()).unwrap();
        assert_eq!(again.fingerprint(), st.fingerprint(), "{line}");
    }
}

#[test]
fn random_playouts_over_random_variants_keep_every_invariant() {
    use ThreeThirteenBotSpec::{Greedy, Random, Strong};
    let mut rng = GameRng::new(1313);
    let mut seen = Played::default();
    let lineups: [&[ThreeThirteenBotSpec]; 4] = [
        &[Random],
        &[Greedy, Random],
        &[Greedy],
        &[Strong { samples: 3 }, Random, Greedy],
    ];
    for i in 0..320u64 {
        let g = random_game(&mut rng);
        let lineup = lineups[(i % 4) as usize];
        play_one(&g, 1000 + i, lineup, &mut rng, i % 3 == 0, &mut seen);
    }
    eprintln!("{seen:?}");
    // Every kind of action (picks and built melds: the adversarial test)
    // and of round ending came up.
    assert!(seen.actions[..7].iter().all(|&k| k > 0), "{seen:?}");
    assert!(seen.ends[0] > 0 && seen.ends[1] > 0, "{seen:?}");
    assert!(seen.restocks > 0 && seen.false_outs > 0, "{seen:?}");
}

#[test]
fn greedy_never_declares_a_false_out_in_default_games() {
    let g = ThreeThirteenGame::from_options(&[]).unwrap();
    let mut rng = GameRng::new(5);
    for seed in 0..12 {
        let mut seen = Played::default();
        play_one(
            &g,
            seed,
            &[ThreeThirteenBotSpec::Greedy],
            &mut rng,
            seed % 4 == 0,
            &mut seen,
        );
        assert_eq!(seen.false_outs, 0, "greedy never declares a false out");
    }
}

// ---------------------------------------------------------------------------
// Adversarial players over every option set (TT-6, TT-9.3, TT-10)
// ---------------------------------------------------------------------------

/// Every option that changes what players may do, in every combination.
fn every_option_set() -> Vec<Vec<(String, OptionValue)>> {
    use OptionValue::{Bool, Int, Str};
    let mut out = Vec::new();
    for bits in 0..(3 * 32) {
        let jokers = ["none", "wild", "wild_giftable"][bits % 3];
        let flag = |k: usize| (bits / 3) >> k & 1 == 1;
        let mut o = vec![("jokers".to_string(), Str(jokers.into()))];
        o.push(("redemption_round".into(), Bool(flag(0))));
        if flag(1) {
            o.push(("false_out_penalty".into(), Int(20)));
        }
        o.push(("forbid_rediscard".into(), Bool(flag(2))));
        if flag(3) {
            o.push(("max_wilds_per_meld".into(), Str("unlimited".into())));
        }
        o.push(("all_wild_melds".into(), Bool(flag(4))));
        o.push(("players".into(), Int(2 + (bits % 4) as i64 / 2)));
        o.push(("max_restocks".into(), Int((bits % 3) as i64)));
        out.push(o);
    }
    out
}

/// An adversarial player: always takes the discard, always tries to go out
/// (also with an invalid arrangement under a false-out penalty), gifts every
/// joker it can, and in a redemption last turn picks, melds and lays off at
/// random; otherwise random.
fn adversarial_choice(st: &ThreeThirteenState, legal: &[u16], rng: &mut GameRng) -> u16 {
    let roll = rng.below(1 << 16) as usize;
    let find = |f: &dyn Fn(Action) -> bool| {
        let hits: Vec<u16> = legal
            .iter()
            .copied()
            .filter(|&a| f(Action::decode(a).unwrap()))
            .collect();
        (!hits.is_empty()).then(|| hits[roll % hits.len()])
    };
    if let Some(a) = find(&|a| a == Action::TakeDiscard) {
        return a;
    }
    if let Some(a) = find(&|a| matches!(a, Action::GoOut(_))) {
        return a;
    }
    if let Some(a) = find(&|a| matches!(a, Action::Gift(_))) {
        return a;
    }
    if st.in_last_turns() && rng.below(4) != 0 {
        if let Some(a) = find(&|a| matches!(a, Action::LayMeld | Action::LayOff { .. })) {
            return a;
        }
        // Build one of the solver's melds card by card, or pick at random.
        let seat = st.current_player().unwrap();
        for m in st.best_arrangement(seat).unwrap().melds {
            let mut rest = m.cards.clone();
            if st
                .building()
                .iter()
                .all(|b| match rest.iter().position(|c| c == b) {
                    Some(i) => {
                        rest.remove(i);
                        true
                    }
                    None => false,
                })
            {
                if let Some(&c) = rest.first() {
                    let a = Action::Pick(c).encode();
                    if legal.contains(&a) && roll % 3 != 0 {
                        return a;
                    }
                }
            }
        }
        if st.building().len() < 4 {
            if let Some(a) = find(&|a| matches!(a, Action::Pick(_))) {
                return a;
            }
        }
    }
    legal[rng.below(legal.len() as u32) as usize]
}

/// Every card of `hand` is in a meld (TT-6.1), a 0-point joker included.
fn fully_melded(hand: &[Card], rules: &MeldRules, solver: &mut Solver) -> bool {
    let mut strict = *rules;
    strict.joker_value = 1;
    strict.wild_value = strict.wild_value.max(1);
    solver.solve(hand, &strict).unwrap().unmatched().is_empty()
}

#[test]
fn adversarial_players_keep_the_rules_over_every_option_set() {
    let mut rng = GameRng::new(2113);
    let mut solver = Solver::new();
    let mut kinds = [0u64; 9];
    let (mut outs, mut last_turn_rounds, mut checked_refusals) = (0u64, 0u64, 0u64);
    for (i, options) in every_option_set().iter().enumerate() {
        let g = ThreeThirteenGame::from_options(options).unwrap();
        let n = g.players() as u8;
        let mut st = g.deal(i as u64, None).unwrap();
        let mut legal = Vec::new();
        // The seats that had a last turn since the current round's out.
        let mut last_turns: Option<(u8, usize, Vec<u8>)> = None;
        let mut step = 0u64;
        while !st.is_terminal() {
            st.legal_actions_into(&mut legal);
            assert!(!legal.is_empty(), "dead end: {options:?}");
            assert!(st.card_counts_ok());
            let seat = st.current_player().unwrap();
            if step % 29 == 0 {
                // Every refused action says why (and only those).
                for a in 0..action::COUNT {
                    let act = Action::decode(a).unwrap();
                    let why = st.refusal(act);
                    assert_eq!(why.is_none(), st.is_legal(a), "{act}");
                    if let Some(w) = why {
                        assert!(w.rule.starts_with("TT-") && !w.reason.is_empty());
                    }
                }
                checked_refusals += 1;
            }
            let a = adversarial_choice(&st, &legal, &mut rng);
            let act = Action::decode(a).unwrap();
            kinds[kind(act)] += 1;
            let round = st.round();
            let was_out = st.out_player();
            let hand = st.hand(seat).to_vec();
            if let Some((_, r, seats)) = &mut last_turns {
                if *r == round && st.phase() == Phase::Draw {
                    assert!(!seats.contains(&seat), "a second last turn for seat {seat}");
                    seats.push(seat);
                }
            }
            st.apply_action(a).unwrap();
            if let (Action::GoOut(c), None) = (act, was_out) {
                let went_out = if st.round() == round && !st.is_terminal() {
                    st.out_player() == Some(seat)
                } else {
                    st.last_round().unwrap().end == (RoundEnd::Out { player: seat })
                };
                if went_out {
                    // TT-6.1: every card but the discard is in a meld.
                    let mut rest = hand.clone();
                    rest.remove(rest.iter().position(|&h| h == c).unwrap());
                    let rules = g.config.meld_rules(st_round_wild(&g, round));
                    assert!(fully_melded(&rest, &rules, &mut solver), "{rest:?}");
                    outs += 1;
                    last_turns = Some((seat, round, Vec::new()));
                }
            }
            if let Action::LayOff { meld, .. } = act {
                if st.round() == round {
                    let m = &st.tabled_melds()[usize::from(meld)].meld;
                    let rr = cardtable_core::meld::ResolvedRules::fixed(
                        *st.rules(),
                        Some(st.wild_rank()),
                    );
                    assert!(cardtable_core::meld::classify(&m.cards, &rr, None).is_some());
                }
            }
            if st.round() != round || st.is_terminal() {
                let r = st.last_round().unwrap();
                if let Some((p, r0, seats)) = last_turns.take() {
                    // TT-6.2: the round of an out ends as an out, after one
                    // last turn for every other seat.
                    assert_eq!(r0, round);
                    assert_eq!(r.end, RoundEnd::Out { player: p }, "{options:?}");
                    let mut others: Vec<u8> = (0..n).filter(|&s| s != p).collect();
                    let mut seen = seats.clone();
                    seen.sort_unstable();
                    others.retain(|s| seen.contains(s) || g.config.jokers == Jokers::WildGiftable);
                    assert_eq!(seen, others, "last turns {seats:?} of {n} seats");
                    last_turn_rounds += 1;
                } else {
                    assert!(!matches!(r.end, RoundEnd::Out { .. }));
                }
            }
            step += 1;
        }
        assert!(st.card_counts_ok());
        assert_eq!(State::returns(&st).iter().sum::<i64>(), 0);
    }
    eprintln!("kinds {kinds:?} outs {outs} last-turn rounds {last_turn_rounds}");
    assert!(
        kinds.iter().all(|&k| k > 0),
        "every kind of action: {kinds:?}"
    );
    assert!(outs > 50 && last_turn_rounds > 50 && checked_refusals > 100);
}

/// The wild rank of schedule round `round`.
fn st_round_wild(g: &ThreeThirteenGame, round: usize) -> u8 {
    g.schedule().get(round).unwrap().wild
}

// ---------------------------------------------------------------------------
// Paired states: what a seat cannot see does not reach its view
// ---------------------------------------------------------------------------

/// A player that often takes the discard and throws back a card of the same
/// code, the move that once revealed a hidden second copy.
fn copycat_choice(st: &ThreeThirteenState, legal: &[u16], rng: &mut GameRng) -> u16 {
    if legal.contains(&action::TAKE_DISCARD) && rng.below(3) != 0 {
        return action::TAKE_DISCARD;
    }
    if let Some(t) = st.taken_card() {
        let a = Action::Discard(t).encode();
        if legal.contains(&a) && rng.below(2) == 0 {
            return a;
        }
    }
    let discards: Vec<u16> = legal
        .iter()
        .copied()
        .filter(|&a| matches!(Action::decode(a), Ok(Action::Discard(_))))
        .collect();
    if !discards.is_empty() && rng.below(2) == 0 {
        return discards[rng.below(discards.len() as u32) as usize];
    }
    legal[rng.below(legal.len() as u32) as usize]
}

#[test]
fn paired_states_that_differ_only_in_hidden_cards_look_the_same_to_the_seat() {
    // Two deals that differ only in one card of a hidden hand swapped with a
    // stock card, driven by the same actions: while the observer's hand and
    // everything public agree, its view and observation must agree too.
    let mut rng = GameRng::new(77);
    let (mut compared, mut differing_states) = (0u64, 0u64);
    for trial in 0..400u64 {
        let g = random_game(&mut rng);
        let n = g.players();
        let round = rng.below(g.schedule().len().min(11) as u32) as usize;
        let k = usize::from(g.schedule().get(round).unwrap().cards);
        let mut deck = g.config.deck().shuffled(trial);
        let hands: Vec<Vec<Card>> = (0..n).map(|p| deck[p * k..(p + 1) * k].to_vec()).collect();
        let up = deck[n * k];
        let stock: Vec<Card> = deck.split_off(n * k + 1);
        let observer = rng.below(n as u32) as u8;
        let p = ((usize::from(observer) + 1 + rng.below(n as u32 - 1) as usize) % n) as u8;
        let i = rng.below(k as u32) as usize;
        // Not the last stock card: the deal puts it back as "the rest".
        let j = stock.len() - 2 - rng.below(stock.len().min(20) as u32 - 1) as usize;
        if stock[j] == hands[usize::from(p)][i] {
            continue;
        }
        let mut other_hands = hands.clone();
        let mut other_stock = stock.clone();
        other_hands[usize::from(p)][i] = stock[j];
        other_stock[j] = hands[usize::from(p)][i];
        let dealer = rng.below(n as u32) as u8;
        let mut a = g
            .state_from_hands_at_round(round, dealer, &hands, up, &stock[..stock.len() - 1])
            .unwrap();
        let mut b = g
            .state_from_hands_at_round(
                round,
                dealer,
                &other_hands,
                up,
                &other_stock[..stock.len() - 1],
            )
            .unwrap();
        let mut legal = Vec::new();
        for _ in 0..300 {
            if a.is_terminal() || a.round() != round {
                break;
            }
            let public_same = a.hand(observer) == b.hand(observer)
                && a.discard_pile() == b.discard_pile()
                && a.tabled_melds() == b.tabled_melds()
                && a.stock_size() == b.stock_size()
                && a.out_player() == b.out_player()
                && (0..n as u8).all(|s| a.false_outs(s) == b.false_outs(s))
                && a.round() == b.round();
            if !public_same {
                break;
            }
            assert_eq!(
                a.view(observer),
                b.view(observer),
                "trial {trial}: seat {observer}'s view leaks"
            );
            assert_eq!(
                a.observation(observer),
                b.observation(observer),
                "trial {trial}"
            );
            compared += 1;
            if a.hand(p) != b.hand(p) {
                differing_states += 1;
            }
            a.legal_actions_into(&mut legal);
            let act = copycat_choice(&a, &legal, &mut rng);
            a.apply_action(act).unwrap();
            if b.apply_action(act).is_err() {
                break;
            }
        }
    }
    eprintln!("compared {compared}, hidden hands differing in {differing_states}");
    assert!(differing_states > 1000, "{differing_states}");
}
