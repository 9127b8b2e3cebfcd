//! Random and bot playouts of whole Three Thirteen games over random variant
//! sets (OpenSpiel's RandomSimTest): every card in exactly one place, legal
//! actions sorted and non-empty until the end, `is_legal` agreeing with
//! `legal_actions`, illegal actions refused without change, every bot answer
//! legal, the score sheet equal to the solver's deadwood of each final hand,
//! zero-sum returns, records that replay to the same state, and views that
//! do not depend on the cards a seat cannot see.

#![allow(clippy::unwrap_used)]

use cardtable_core::bots::three_thirteen::Bot;
use cardtable_core::engine::options::OptionValue;
use cardtable_core::engine::record::{record_of_state, replay, Record};
use cardtable_core::engine::State;
use cardtable_core::games::three_thirteen::{
    action, Action, Phase, RoundEnd, ThreeThirteenBotSpec, ThreeThirteenGame, ThreeThirteenState,
};
use cardtable_core::{GameRng, Solver};

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

/// Illegal actions of several kinds are refused and change nothing.
fn probe_illegal(st: &mut ThreeThirteenState, legal: &[u16], rng: &mut GameRng, all: bool) {
    let Some(seat) = st.current_player() else {
        return;
    };
    let before = st.clone();
    let n = st.config().players;
    // Wrong seat.
    let other = (seat + 1 + rng.below(u32::from(n - 1)) as u8) % n;
    if let Some(&a) = legal.first() {
        assert!(State::apply(st, other, a, 0).is_err());
        assert!(!State::is_legal(st, other, a));
    }
    // Out-of-range ids.
    for a in [action::COUNT, action::COUNT + 1, u16::MAX] {
        assert!(st.apply_action(a).is_err());
        assert!(!st.is_legal(a));
    }
    // Legal-looking ids: every id not listed (all of them, or a sample).
    let ids: Vec<u16> = if all {
        (0..action::COUNT).collect()
    } else {
        (0..40)
            .map(|_| rng.below(u32::from(action::COUNT)) as u16)
            .collect()
    };
    for a in ids {
        let listed = legal.binary_search(&a).is_ok();
        assert_eq!(st.is_legal(a), listed, "is_legal({a}) disagrees");
        if !listed {
            assert!(st.apply_action(a).is_err(), "illegal {a} applied");
        }
    }
    assert_eq!(*st, before, "an illegal action changed the state");
}

/// Views and observations of `seat` are the same when what it cannot see is re-dealt.
fn check_hidden(st: &ThreeThirteenState, rng: &mut GameRng) {
    for seat in 0..st.config().players {
        let other = st.determinize(seat, rng);
        assert_eq!(st.view(seat), other.view(seat), "seat {seat}'s view leaks");
        assert_eq!(st.observation(seat), other.observation(seat));
        assert_eq!(other.stock_size(), st.stock_size());
        for p in 0..st.config().players {
            assert_eq!(other.hand(p).len(), st.hand(p).len());
        }
        assert!(other.card_counts_ok(), "determinize lost cards");
    }
}

/// What the playouts exercised: action kinds, round endings, restocks, false outs.
#[derive(Default, Debug)]
struct Seen {
    actions: [u64; 7],
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
    }
}

fn play_one(
    g: &ThreeThirteenGame,
    seed: u64,
    specs: &[ThreeThirteenBotSpec],
    rng: &mut GameRng,
    deep: bool,
    seen: &mut Seen,
) {
    let n = g.players();
    let mut st = g.new_game(seed, None).unwrap();
    let mut bots: Vec<Bot> = (0..n)
        .map(|i| Bot::new(specs[i % specs.len()], seed * 31 + i as u64))
        .collect();
    let mut solver = Solver::new();
    let size = ThreeThirteenState::observation_size(n);
    let mut rows = 0;
    let mut step = 0u64;
    let mut legal = Vec::new();
    while !st.is_terminal() {
        assert!(st.card_counts_ok(), "cards lost: {} seed {seed}", g.config);
        st.legal_actions_into(&mut legal);
        assert!(
            !legal.is_empty(),
            "no legal action: {} seed {seed}",
            g.config
        );
        assert!(
            legal.windows(2).all(|w| w[0] < w[1]),
            "legal actions not sorted"
        );
        let seat = st.current_player().unwrap();
        let mut via_trait = Vec::new();
        State::legal_actions(&st, seat, &mut via_trait);
        assert_eq!(via_trait, legal);
        if deep && step % 17 == 0 {
            probe_illegal(&mut st, &legal, rng, step % 51 == 0);
        }
        if deep && step % 23 == 0 {
            check_hidden(&st, rng);
            let o = st.observation(seat);
            assert_eq!(o.len(), size);
            assert!(o.iter().all(|x| (0.0..=1.0).contains(x)));
        }
        let a = bots[usize::from(seat)].choose(&st).unwrap();
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
    assert!(st.card_counts_ok());
    assert_eq!(st.score_sheet().len(), st.round_count());
    assert_eq!(st.phase(), Phase::Over);
    let r = State::returns(&st);
    assert_eq!(r.iter().sum::<i64>(), 0, "returns not zero-sum");
    check_hidden(&st, rng);
    // The record replays to the same state.
    let names = specs.iter().map(|s| s.name()).collect();
    let rec = record_of_state(g, &st, names).unwrap();
    let line = rec.to_json();
    let (_, again) = replay::<ThreeThirteenGame>(&Record::from_json(&line).unwrap()).unwrap();
    assert_eq!(again.fingerprint(), st.fingerprint());
    assert_eq!(again.totals(), st.totals());
}

#[test]
fn random_playouts_over_random_variants_keep_every_invariant() {
    use ThreeThirteenBotSpec::{Greedy, Random, Strong};
    let mut rng = GameRng::new(1313);
    let mut seen = Seen::default();
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
    // Every kind of action and of round ending came up.
    assert!(seen.actions.iter().all(|&k| k > 0), "{seen:?}");
    assert!(seen.ends[0] > 0 && seen.ends[1] > 0, "{seen:?}");
    assert!(seen.restocks > 0 && seen.false_outs > 0, "{seen:?}");
}

#[test]
fn default_games_replay_and_stay_zero_sum() {
    let g = ThreeThirteenGame::from_options(&[]).unwrap();
    let mut rng = GameRng::new(5);
    for seed in 0..12 {
        let mut seen = Seen::default();
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
