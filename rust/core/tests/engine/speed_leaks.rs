//! Hidden information in Speed does not leak (RT-10): two states that
//! differ only in cards a seat cannot see give that seat the same
//! `view(seat)` and `observation(seat)` (and the same legal actions), and a
//! change in a card it can see changes both.
//!
//! Which cards a seat sees is decided here from the rules, not from the
//! engine's view code (nor from `determinize` or `unseen_cards`, which
//! live next to it):
//!
//! - SD-1.3: a seat's hand is hidden from the opponent: its own hand is
//!   seen, the opponent's hand is hidden;
//! - SD-1.2: both draw piles and both side piles are face down: hidden from
//!   both seats (a seat's own draw pile included: RT-10 "draw piles
//!   hidden");
//! - SD-1.4: the two centre cards stay face down until they are turned up
//!   when the countdown ends: hidden during the countdown, and still hidden
//!   when the game ends in a countdown (the time limit, RT-12);
//! - SD-2.1, SD-3.2: the centre piles' top cards are face up: seen by both.
//!   The cards under a top were seen when they landed; they are neither
//!   moved here nor required to show (the view gives a pile's size only).
//!
//! A partner state must also agree with what the rules make public about
//! the opponent's hand, or it is not a state the seat could be in:
//!
//! - SD-3.1: in a stalemate nobody can play, so no card of either hand fits
//!   a centre top;
//! - SD-3.1, SD-2.2: outside a stalemate someone can play or draw (or the
//!   stalemate would have been declared), so when the seat itself cannot,
//!   the opponent can.
//!
//! The fit is computed here from CM-3, SD-2.1 and SD-5 (adjacent ranks with
//! wrap-around, equal ranks under `equal_rank_play`, a joker in hand fits
//! any top, anything fits a joker turned up). Random partners that break
//! these facts are drawn again.
//!
//! The states come from random play (random legal actions of random seats,
//! the engine timers as they come due) from random seeds, under every
//! combination of `auto_draw`, `recycle`, `scoring`, `score_counts_hand`,
//! `match`, `equal_rank_play` and `jokers` (128 sets), each with a random
//! `side_pile_size` and random timing and guard options. Partner states are
//! built with the raw card helpers `SpeedState::cards_by_place` /
//! `with_cards`, which only move cards.

#![allow(clippy::unwrap_used)]

use cardtable_core::engine::options::OptionValue;
use cardtable_core::engine::{Game, Millis, State};
use cardtable_core::games::speed::{
    DealEnd, Layout, Phase, SpeedCards, SpeedConfig, SpeedGame, SpeedState, SpeedView, HAND_SIZE,
};
use cardtable_core::{derive_seed, Card, GameRng};

/// A card's place, as the rules name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    Hand {
        seat: usize,
        slot: usize,
    },
    /// A draw pile, `index` from the bottom.
    Draw {
        seat: usize,
        index: usize,
    },
    /// A side pile (left 0, right 1), `index` from the bottom.
    Side {
        pile: usize,
        index: usize,
    },
    /// A centre pile (left 0, right 1), `index` from the bottom.
    Centre {
        pile: usize,
        index: usize,
    },
}

fn get(c: &SpeedCards, p: Place) -> Card {
    match p {
        Place::Hand { seat, slot } => c.hands[seat][slot].unwrap(),
        Place::Draw { seat, index } => c.draw[seat][index],
        Place::Side { pile, index } => c.side[pile][index],
        Place::Centre { pile, index } => c.centre[pile][index],
    }
}

fn set(c: &mut SpeedCards, p: Place, card: Card) {
    match p {
        Place::Hand { seat, slot } => c.hands[seat][slot] = Some(card),
        Place::Draw { seat, index } => c.draw[seat][index] = card,
        Place::Side { pile, index } => c.side[pile][index] = card,
        Place::Centre { pile, index } => c.centre[pile][index] = card,
    }
}

fn swap(c: &mut SpeedCards, a: Place, b: Place) {
    let (x, y) = (get(c, a), get(c, b));
    set(c, a, y);
    set(c, b, x);
}

fn pick<T: Copy>(rng: &mut GameRng, xs: &[T]) -> T {
    xs[rng.below(xs.len() as u32) as usize]
}

/// Whether the centre cards are face down (SD-1.4): in a countdown, or in a
/// game that ended during one.
fn centre_face_down(st: &SpeedState, last_live: Phase) -> bool {
    match st.phase() {
        Phase::Countdown => true,
        Phase::Over => last_live == Phase::Countdown,
        _ => false,
    }
}

/// The places `seat` cannot see, pile by pile (SD-1.2, SD-1.3, SD-1.4).
fn hidden_zones(c: &SpeedCards, seat: usize, face_down: bool) -> Vec<Vec<Place>> {
    let opp = 1 - seat;
    let mut zones = vec![(0..HAND_SIZE)
        .filter(|&slot| c.hands[opp][slot].is_some())
        .map(|slot| Place::Hand { seat: opp, slot })
        .collect::<Vec<_>>()];
    for s in 0..2 {
        zones.push(
            (0..c.draw[s].len())
                .map(|index| Place::Draw { seat: s, index })
                .collect(),
        );
        zones.push(
            (0..c.side[s].len())
                .map(|index| Place::Side { pile: s, index })
                .collect(),
        );
        if face_down {
            zones.push(
                (0..c.centre[s].len())
                    .map(|index| Place::Centre { pile: s, index })
                    .collect(),
            );
        }
    }
    zones.retain(|z| !z.is_empty());
    zones
}

/// The places `seat` sees: its hand (SD-1.3) and the face-up centre tops
/// (SD-2.1).
fn visible(c: &SpeedCards, seat: usize, face_down: bool) -> Vec<Place> {
    let mut v: Vec<Place> = (0..HAND_SIZE)
        .filter(|&slot| c.hands[seat][slot].is_some())
        .map(|slot| Place::Hand { seat, slot })
        .collect();
    if !face_down {
        for pile in 0..2 {
            if let Some(index) = c.centre[pile].len().checked_sub(1) {
                v.push(Place::Centre { pile, index });
            }
        }
    }
    v
}

/// Whether a card from the hand may go on a centre top of effective rank
/// `top` (0: none face up, 1..=13, 14: a joker turned up): CM-3, SD-2.1,
/// SD-5.
fn fits(card: Card, top: u8, equal: bool) -> bool {
    match top {
        0 => false,
        14 => true,
        t if card.is_joker() => (1..=13).contains(&t),
        t => {
            let d = (i32::from(card.rank()) - i32::from(t)).rem_euclid(13);
            d == 1 || d == 12 || (equal && d == 0)
        }
    }
}

/// Whether the cards agree with what the phase makes public (SD-3.1,
/// SD-2.2): in a stalemate no hand card fits; in play someone can play or
/// draw.
fn consistent(st: &SpeedState, c: &SpeedCards, tops: [u8; 2]) -> bool {
    let cfg = st.config();
    let plays = |s: usize| {
        c.hands[s]
            .iter()
            .flatten()
            .any(|&x| tops.iter().any(|&t| fits(x, t, cfg.equal_rank_play)))
    };
    let draws = |s: usize| {
        !cfg.auto_draw && !c.draw[s].is_empty() && c.hands[s].iter().any(Option::is_none)
    };
    match st.phase() {
        Phase::Stalemate => !plays(0) && !plays(1),
        Phase::Playing => (0..2).any(|s| plays(s) || draws(s)),
        Phase::Countdown | Phase::Over => true,
    }
}

/// What the run went through, so that the test shows it reached every
/// kind of state it claims to check.
#[derive(Debug, Default)]
struct Coverage {
    states: usize,
    phases: [usize; 4],
    /// Partners with hidden cards moved (not the same cards).
    moved: usize,
    /// Random partners drawn again for breaking a public fact.
    redrawn: usize,
    /// States where no consistent re-deal of every hidden card was found.
    no_partner: usize,
    over_face_down: usize,
    opponent_joker: usize,
    short_hand: usize,
    recycled: usize,
    visible_changes: usize,
    /// `determinize` calls that moved a card.
    determinized: usize,
    endings: std::collections::BTreeMap<&'static str, usize>,
    /// States after a deal that ended by the deadlock guard (SD-3.5).
    after_deadlock: usize,
    later_deals: usize,
}

fn phase_index(p: Phase) -> usize {
    [
        Phase::Countdown,
        Phase::Playing,
        Phase::Stalemate,
        Phase::Over,
    ]
    .iter()
    .position(|&q| q == p)
    .unwrap()
}

/// What `seat` is shown, and may do.
fn seen(s: &SpeedState, seat: u8) -> (SpeedView, Vec<f32>, Vec<u16>) {
    let mut legal = Vec::new();
    s.legal_actions(seat, &mut legal);
    (State::view(s, seat), State::observation(s, seat), legal)
}

fn tops(st: &SpeedState) -> [u8; 2] {
    [st.top_rank(0), st.top_rank(1)]
}

/// Every check on one state, for one seat.
fn check_seat(
    st: &SpeedState,
    seat: u8,
    face_down: bool,
    rng: &mut GameRng,
    cov: &mut Coverage,
    ctx: &str,
) {
    let me = usize::from(seat);
    let cards = st.cards_by_place();
    let before = seen(st, seat);
    let zones = hidden_zones(&cards, me, face_down);
    let hidden: Vec<Place> = zones.iter().flatten().copied().collect();
    let tops_now = tops(st);
    assert!(
        consistent(st, &cards, tops_now),
        "{ctx}: the test's reading of SD-3.1 disagrees with the state"
    );

    let mut partners: Vec<(&str, SpeedCards)> = Vec::new();
    if !hidden.is_empty() {
        // Every hidden card dealt again at random (drawn again until it
        // agrees with the public facts).
        let pool: Vec<Card> = hidden.iter().map(|&p| get(&cards, p)).collect();
        let mut found = None;
        for _ in 0..200 {
            let mut deal = pool.clone();
            rng.shuffle(&mut deal);
            let mut c = cards.clone();
            for (&p, &x) in hidden.iter().zip(&deal) {
                set(&mut c, p, x);
            }
            if consistent(st, &c, tops_now) {
                found = Some(c);
                break;
            }
            cov.redrawn += 1;
        }
        match found {
            Some(c) => partners.push(("all hidden cards re-dealt", c)),
            None => cov.no_partner += 1,
        }
        // Two hidden cards swapped.
        for _ in 0..20 {
            let mut c = cards.clone();
            swap(&mut c, pick(rng, &hidden), pick(rng, &hidden));
            if consistent(st, &c, tops_now) {
                partners.push(("two hidden cards swapped", c));
                break;
            }
        }
        // One hidden pile's order reversed (the opponent's hand, a draw
        // pile, a side pile, face-down centre cards).
        let z = &zones[rng.below(zones.len() as u32) as usize];
        let mut c = cards.clone();
        let mut order: Vec<Card> = z.iter().map(|&p| get(&cards, p)).collect();
        order.reverse();
        for (&p, &x) in z.iter().zip(&order) {
            set(&mut c, p, x);
        }
        partners.push(("one hidden pile reversed", c));
    }
    for (what, c) in &partners {
        let other = st
            .with_cards(c)
            .unwrap_or_else(|e| panic!("{ctx}: {what}: {e}"));
        other
            .audit()
            .unwrap_or_else(|e| panic!("{ctx}: {what}: not a state: {e}"));
        if *c != cards {
            cov.moved += 1;
        }
        let after = seen(&other, seat);
        assert_eq!(
            before.0, after.0,
            "{ctx}: seat {seat}'s view shows a hidden card ({what}; RT-10, SD-1.2, SD-1.3)"
        );
        assert_eq!(
            before.1, after.1,
            "{ctx}: seat {seat}'s observation shows a hidden card ({what}; RT-10, SD-1.2, SD-1.3)"
        );
        assert_eq!(
            before.2, after.2,
            "{ctx}: seat {seat}'s legal actions depend on a hidden card ({what})"
        );
    }

    // `determinize` (for bots and the older random tests) may move cards
    // the seat cannot see only, and must keep the public facts.
    let masked = |c: &SpeedCards| {
        let mut m = c.clone();
        for p in hidden_zones(c, me, face_down).into_iter().flatten() {
            set(&mut m, p, Card::JOKER);
        }
        m
    };
    let d = State::determinize(st, seat, rng);
    d.audit()
        .unwrap_or_else(|e| panic!("{ctx}: determinize: {e}"));
    let dc = d.cards_by_place();
    assert_eq!(
        masked(&dc),
        masked(&cards),
        "{ctx}: determinize moves a card seat {seat} sees"
    );
    assert!(
        consistent(st, &dc, tops(&d)),
        "{ctx}: determinize breaks a public fact (SD-3.1)"
    );
    if dc != cards {
        cov.determinized += 1;
    }

    // The other way: a card the seat sees (in its hand, a centre top)
    // changes place with a hidden card or another seen card, keeping the
    // public facts; its view and its observation must show it.
    let vis = visible(&cards, me, face_down);
    if vis.is_empty() {
        return;
    }
    let mut tried = 0;
    let mut changes = 0;
    while tried < 20 && changes < 2 {
        tried += 1;
        let a = pick(rng, &vis);
        let b = if changes == 0 && !hidden.is_empty() {
            pick(rng, &hidden)
        } else {
            pick(rng, &vis)
        };
        if get(&cards, a) == get(&cards, b) {
            continue; // the same card (two jokers), or the same place
        }
        let mut c = cards.clone();
        swap(&mut c, a, b);
        let other = st.with_cards(&c).unwrap();
        if !consistent(st, &c, tops(&other)) {
            continue;
        }
        changes += 1;
        cov.visible_changes += 1;
        let after = seen(&other, seat);
        assert_ne!(
            before.0, after.0,
            "{ctx}: seat {seat}'s view misses a card it sees changing ({a:?} <-> {b:?}; SD-1.3, SD-2.1)"
        );
        // The observation shows the hand by card, not by slot.
        let slots_only = matches!((a, b), (Place::Hand { .. }, Place::Hand { .. }));
        if !slots_only {
            assert_ne!(
                before.1, after.1,
                "{ctx}: seat {seat}'s observation misses a card it sees changing ({a:?} <-> {b:?})"
            );
        }
    }
}

fn check(st: &SpeedState, last_live: Phase, rng: &mut GameRng, cov: &mut Coverage, ctx: &str) {
    let face_down = centre_face_down(st, last_live);
    let cards = st.cards_by_place();
    cov.states += 1;
    cov.phases[phase_index(st.phase())] += 1;
    cov.over_face_down += usize::from(st.phase() == Phase::Over && face_down);
    cov.short_hand += usize::from(
        cards.hands.iter().flatten().any(Option::is_none)
            && cards.draw.iter().all(|d| !d.is_empty()),
    );
    cov.recycled += usize::from(st.recycles() > 0);
    cov.later_deals += usize::from(st.deal_index() > 0);
    cov.after_deadlock += usize::from(st.last_deal().is_some_and(|d| d.end == DealEnd::Deadlock));
    if let Some(e) = st.ending() {
        *cov.endings.entry(e).or_default() += 1;
    }
    for seat in 0..2u8 {
        let opp = usize::from(1 - seat);
        cov.opponent_joker += usize::from(cards.hands[opp].iter().flatten().any(|c| c.is_joker()));
        check_seat(st, seat, face_down, rng, cov, &format!("{ctx} seat {seat}"));
    }
}

/// One of the 128 combinations of the rule options (bit by bit), with a
/// random side pile size and random timing and guard options.
fn rule_set(mask: u32, rng: &mut GameRng) -> Vec<(String, OptionValue)> {
    use OptionValue::{Bool, Int, Str};
    let bit = |i: u32| mask >> i & 1 == 1;
    let word = |w: &str| Str(w.to_string());
    // Large side piles leave small hands: stalemates, recycles and the
    // deadlock guard (SD-3.4, SD-3.5) come often.
    let side = match rng.below(4) {
        0 => 5,
        1 => 1 + i64::from(rng.below(20)),
        2 => 16 + i64::from(rng.below(5)),
        _ => 10,
    };
    let mut o = vec![
        ("auto_draw", Bool(!bit(0))),
        ("recycle", word(if bit(1) { "per_pile" } else { "merged" })),
        ("scoring", Bool(bit(2))),
        ("score_counts_hand", Bool(!bit(3))),
        ("match", word(if bit(4) { "best_of_3" } else { "target" })),
        ("equal_rank_play", Bool(bit(5))),
        ("jokers", Bool(bit(6))),
        ("side_pile_size", Int(side)),
        ("target_score", Int(1 + i64::from(rng.below(30)))),
        ("hands", Int(1 + i64::from(rng.below(2)))),
        (
            "tie_break",
            word(["seeded_coin", "alternate", "seat_order"][rng.below(3) as usize]),
        ),
        ("start_countdown_ms", Int(i64::from(rng.below(3)) * 750)),
        ("flip_delay_ms", Int(i64::from(rng.below(3)) * 350)),
    ];
    match rng.below(6) {
        0 => o.push(("max_deals", Int(1 + i64::from(rng.below(3))))),
        1 => {
            // A long countdown and a time limit that may fall in a later
            // deal's countdown (the centre cards then stay face down).
            o.retain(|(k, _)| *k != "start_countdown_ms");
            o.push(("start_countdown_ms", Int(20_000)));
            o.push(("max_virtual_ms", Int(20_001 + i64::from(rng.below(40_000)))));
        }
        _ => {}
    }
    o.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

/// A random position in the middle of a deal: random cards in small hands,
/// draw piles, side piles and centre piles, the rest out of play. Few cards
/// make stalemates, recycles and the deadlock guard (SD-3.3 … SD-3.5) come
/// often; the later deals of a match are dealt in full.
fn random_layout(game: &SpeedGame, rng: &mut GameRng) -> SpeedState {
    let mut deck: Vec<Card> = (0..52u8).map(|c| Card::from_code(c).unwrap()).collect();
    if game.config.jokers {
        deck.extend([Card::JOKER; 2]);
    }
    rng.shuffle(&mut deck);
    let mut take = |n: u32| {
        let n = (n as usize).min(deck.len());
        deck.split_off(deck.len() - n)
    };
    let hands = [take(1 + rng.below(5)), take(1 + rng.below(5))];
    let draw = [take(rng.below(7)), take(rng.below(7))];
    let side = [take(rng.below(5)), take(rng.below(5))];
    let centre = [take(1 + rng.below(4)), take(1 + rng.below(4))];
    game.state_from_layout(&Layout {
        hands,
        draw,
        side,
        centre,
    })
    .unwrap()
}

/// One random event: a random legal action of a random seat that may act,
/// a little later than now, or the engine timer when nobody may act or it
/// is due first.
fn step(st: &mut SpeedState, rng: &mut GameRng) {
    let mut legal = [Vec::new(), Vec::new()];
    for seat in 0..2u8 {
        st.legal_actions(seat, &mut legal[usize::from(seat)]);
    }
    let seats: Vec<u8> = (0..2u8)
        .filter(|&s| !legal[usize::from(s)].is_empty())
        .collect();
    let timer = State::next_timer(st);
    let at = st.now() + Millis::from(rng.below(400));
    if seats.is_empty() || timer.is_some_and(|t| t <= at) {
        st.fire_timer(timer.unwrap());
        return;
    }
    let seat = pick(rng, &seats);
    let a = pick(rng, &legal[usize::from(seat)]);
    st.apply(seat, a, at).unwrap();
}

#[test]
fn hidden_cards_do_not_show_and_visible_ones_do() {
    let mut rng = GameRng::new(0x5eed_1eac);
    let mut cov = Coverage::default();
    // Runs 0..512 start from a deal, 512..768 from a random position.
    for run in 0..768u32 {
        let mask = run % 128;
        let options = rule_set(mask, &mut rng);
        let game = SpeedGame::from_options(&options).unwrap();
        let seed = derive_seed(0x5eed, u64::from(run));
        let mut check_rng = GameRng::new(derive_seed(seed, 1));
        let mut st = if run < 512 {
            game.deal(seed, None).unwrap()
        } else {
            random_layout(&game, &mut check_rng)
        };
        let mut last_checked = None;
        let mut last_live = st.phase();
        for event in 0..3000 {
            // Every new phase, and one state in 10 at random.
            if last_checked != Some(st.phase()) || check_rng.below(10) == 0 {
                let ctx =
                    format!("run {run}: rule set {mask} {options:?} seed {seed} event {event}");
                check(&st, last_live, &mut check_rng, &mut cov, &ctx);
                last_checked = Some(st.phase());
            }
            if st.is_over() {
                break;
            }
            last_live = st.phase();
            step(&mut st, &mut check_rng);
        }
    }
    eprintln!("{cov:?}");
    for (i, &n) in cov.phases.iter().enumerate() {
        assert!(n > 0, "no state in phase {i}: {cov:?}");
    }
    // ("draw" is a deadlock or a match that ended level: rare, and no
    // other kind of state.)
    for e in ["emptied", "deadlock", "time_limit", "max_deals"] {
        assert!(cov.endings.contains_key(e), "no game ended {e}: {cov:?}");
    }
    assert!(cov.moved > 10_000, "{cov:?}");
    assert!(cov.visible_changes > 10_000, "{cov:?}");
    assert!(cov.no_partner * 100 <= cov.states, "{cov:?}");
    for n in [
        cov.over_face_down,
        cov.opponent_joker,
        cov.short_hand,
        cov.recycled,
        cov.later_deals,
        cov.after_deadlock,
        cov.redrawn,
        cov.determinized,
    ] {
        assert!(n > 0, "{cov:?}");
    }
}

/// The partner states above differ from the real ones in card identities
/// only: `with_cards` refuses anything else.
#[test]
fn with_cards_only_rearranges_cards() {
    let st = SpeedGame::new(SpeedConfig::default())
        .deal(3, None)
        .unwrap();
    let cards = st.cards_by_place();
    let same = st.with_cards(&cards).unwrap();
    assert_eq!(same.cards_by_place(), cards);
    for seat in 0..2 {
        assert_eq!(same.view(seat), st.view(seat));
    }
    // A card moved from a draw pile into a hand slot.
    let mut c = cards.clone();
    c.hands[0][0] = None;
    let x = cards.hands[0][0].unwrap();
    c.draw[0].push(x);
    assert!(st.with_cards(&c).is_err());
    // A card replaced by another.
    let mut c = cards.clone();
    c.side[0][0] = c.side[0][1];
    assert!(st.with_cards(&c).is_err());
}
