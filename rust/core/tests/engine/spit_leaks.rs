//! Hidden information in Spit does not leak (RT-10): two states that
//! differ only in cards a seat cannot see give that seat the same
//! `view(seat)` and `observation(seat)`, and a change in a card it can see
//! changes its view.
//!
//! Which cards are hidden is decided here from the rules, not from the
//! engine's view code (nor from `determinize`, which shares its list of
//! hidden places with that code):
//!
//! - SP-1.2: a stock pile's top card is face up, the cards under it face
//!   down; SP-2.2: a face-down top stays face down until it is flipped. So
//!   the face-down cards of every stock pile are hidden, from both seats
//!   (RT-10: "face-down layout cards and spit cards are hidden from
//!   everyone, including their owner"), and the face-up ones (a stack of
//!   equal ranks included, SP-7.4) are seen by both.
//! - SP-1.2: the spit cards are kept face down and in order, and their
//!   owner may not look at them: hidden from both seats.
//! - SP-1.3, SP-2.4: the spit piles in the centre are face up: seen by both.
//! - SP-4.3: between deals each player gathers the pile they received,
//!   their stock-pile cards and their spit cards, and shuffles them; the
//!   engine shows the gathered cards as counts only until the new layout
//!   (the engine decision in `games::spit`): hidden from both seats.
//!
//! Nothing in Spit is private to one player, so the hidden cards are the
//! same for both seats and every partner state is checked from both.
//!
//! The states come from random play (random legal actions, with random
//! waits that let the engine timers fire) from random seeds, under every
//! combination of the rule options that change what is on the table
//! (`stock_piles`, `auto_flip`, `lone_spit_pile`, `stalemate`, `slap`,
//! `alternate_colours`, `stack_equal_ranks`, `merge_equal_at_setup`,
//! `equal_rank_play`: 512 sets), each with random timing, match and guard
//! options. Partner states are built with the raw card helpers
//! `SpitState::cards_by_place` / `with_cards`, which only move cards.

#![allow(clippy::unwrap_used)]

use cardtable_core::engine::options::OptionValue;
use cardtable_core::engine::{Game, Millis, State};
use cardtable_core::games::spit::{Phase, SpitCards, SpitGame, SpitState, SpitView, MAX_PILES};
use cardtable_core::{derive_seed, Card, GameRng};

/// A card's place, as the rules name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    /// Stock pile `pile` of `seat`, `index` from the bottom.
    Pile {
        seat: usize,
        pile: usize,
        index: usize,
    },
    /// `seat`'s spit cards, `index` from the bottom.
    Spit { seat: usize, index: usize },
    /// Spit pile `side` (L 0, R 1) in the centre, `index` from the bottom.
    Centre { side: usize, index: usize },
    /// The cards `seat` gathered between deals.
    Gathered { seat: usize, index: usize },
}

fn get(c: &SpitCards, p: Place) -> Card {
    match p {
        Place::Pile { seat, pile, index } => c.piles[seat][pile][index],
        Place::Spit { seat, index } => c.spit[seat][index],
        Place::Centre { side, index } => c.centre[side][index],
        Place::Gathered { seat, index } => c.gathered[seat][index],
    }
}

fn set(c: &mut SpitCards, p: Place, card: Card) {
    match p {
        Place::Pile { seat, pile, index } => c.piles[seat][pile][index] = card,
        Place::Spit { seat, index } => c.spit[seat][index] = card,
        Place::Centre { side, index } => c.centre[side][index] = card,
        Place::Gathered { seat, index } => c.gathered[seat][index] = card,
    }
}

fn swap(c: &mut SpitCards, a: Place, b: Place) {
    let (x, y) = (get(c, a), get(c, b));
    set(c, a, y);
    set(c, b, x);
}

/// The face-down stock cards of a pile: all but its face-up top cards
/// (SP-1.2, SP-2.2).
fn face_down(c: &SpitCards, seat: usize, pile: usize) -> usize {
    c.piles[seat][pile].len() - c.face_up[seat][pile]
}

/// Every place no seat can see (SP-1.2, SP-2.2, SP-4.3, RT-10), grouped by
/// the pile it is in: face-down stock cards pile by pile, spit cards and
/// gathered cards seat by seat.
fn hidden_zones(c: &SpitCards) -> Vec<Vec<Place>> {
    let mut zones = Vec::new();
    for seat in 0..2 {
        for pile in 0..MAX_PILES {
            zones.push(
                (0..face_down(c, seat, pile))
                    .map(|index| Place::Pile { seat, pile, index })
                    .collect(),
            );
        }
        zones.push(
            (0..c.spit[seat].len())
                .map(|index| Place::Spit { seat, index })
                .collect(),
        );
        zones.push(
            (0..c.gathered[seat].len())
                .map(|index| Place::Gathered { seat, index })
                .collect(),
        );
    }
    zones.retain(|z: &Vec<Place>| !z.is_empty());
    zones
}

/// Every place both seats see (SP-1.2, SP-1.3, SP-2.4, SP-7.4), and
/// whether it is the top of its pile.
fn visible(c: &SpitCards) -> Vec<(Place, bool)> {
    let mut v = Vec::new();
    for seat in 0..2 {
        for pile in 0..MAX_PILES {
            let n = c.piles[seat][pile].len();
            for index in face_down(c, seat, pile)..n {
                v.push((Place::Pile { seat, pile, index }, index + 1 == n));
            }
        }
    }
    for side in 0..2 {
        let n = c.centre[side].len();
        for index in 0..n {
            v.push((Place::Centre { side, index }, index + 1 == n));
        }
    }
    v
}

fn pick<T: Copy>(rng: &mut GameRng, xs: &[T]) -> T {
    xs[rng.below(xs.len() as u32) as usize]
}

/// What the run went through, so that the test shows it reached every
/// kind of state it claims to check.
#[derive(Debug, Default)]
struct Coverage {
    states: usize,
    phases: [usize; 6],
    /// States with hidden cards moved by a partner (not the same cards).
    moved: usize,
    gathered: usize,
    single_pile: usize,
    stacked: usize,
    spit_cards: usize,
    /// Checks that a visible change changes the view.
    visible_changes: usize,
    /// Finished games by ending.
    endings: std::collections::BTreeMap<&'static str, usize>,
    /// Games of a match after the first.
    later_games: usize,
}

fn phase_index(p: Phase) -> usize {
    Phase::ALL.iter().position(|&q| q == p).unwrap()
}

/// The views and observations of both seats.
fn seen(s: &SpitState) -> [(SpitView, Vec<f32>); 2] {
    [0u8, 1].map(|seat| (State::view(s, seat), State::observation(s, seat)))
}

/// Every check on one state: partners that differ only in hidden cards
/// look the same to both seats; a visible change shows.
fn check(st: &SpitState, rng: &mut GameRng, cov: &mut Coverage, ctx: &str) {
    let cards = st.cards_by_place();
    assert_eq!(
        st.with_cards(&cards).map(|s| seen(&s)).ok(),
        Some(seen(st)),
        "{ctx}: putting the same cards back changes what is seen"
    );
    cov.states += 1;
    cov.phases[phase_index(st.phase())] += 1;
    cov.gathered += usize::from(cards.gathered.iter().any(|g| !g.is_empty()));
    cov.single_pile += usize::from(st.short_seat().is_some());
    cov.stacked += usize::from(cards.face_up.iter().flatten().any(|&n| n > 1));
    cov.spit_cards += usize::from(cards.spit.iter().all(|g| g.len() > 1));
    cov.later_games += usize::from(st.game_index() > 0);
    if let Some(e) = st.ending() {
        *cov.endings.entry(e).or_default() += 1;
    }
    let before = seen(st);
    let zones = hidden_zones(&cards);
    let hidden: Vec<Place> = zones.iter().flatten().copied().collect();

    let mut partners: Vec<(&str, SpitCards)> = Vec::new();
    if !hidden.is_empty() {
        // Every hidden card dealt again at random into the hidden places.
        let mut c = cards.clone();
        let mut pool: Vec<Card> = hidden.iter().map(|&p| get(&cards, p)).collect();
        rng.shuffle(&mut pool);
        for (&p, &x) in hidden.iter().zip(&pool) {
            set(&mut c, p, x);
        }
        partners.push(("all hidden cards re-dealt", c));
        // Two hidden cards swapped (often across zones and seats).
        let mut c = cards.clone();
        swap(&mut c, pick(rng, &hidden), pick(rng, &hidden));
        partners.push(("two hidden cards swapped", c));
        // One zone's order changed: a face-down pile, spit cards, gathered.
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
        let after = seen(&other);
        for seat in 0..2 {
            assert_eq!(
                before[seat].0, after[seat].0,
                "{ctx}: seat {seat}'s view shows a hidden card ({what}; RT-10, SP-1.2)"
            );
            assert_eq!(
                before[seat].1, after[seat].1,
                "{ctx}: seat {seat}'s observation shows a hidden card ({what}; RT-10, SP-1.2)"
            );
        }
    }

    // `determinize` (for bots and the older random tests) may move hidden
    // cards only: with them masked, its state has the same cards.
    let masked = |c: &SpitCards| {
        let mut m = c.clone();
        for p in hidden_zones(c).into_iter().flatten() {
            set(&mut m, p, Card::JOKER);
        }
        m
    };
    for seat in 0..2u8 {
        let d = State::determinize(st, seat, rng);
        d.audit()
            .unwrap_or_else(|e| panic!("{ctx}: determinize({seat}): {e}"));
        assert_eq!(
            masked(&d.cards_by_place()),
            masked(&cards),
            "{ctx}: determinize({seat}) moves a card a seat sees"
        );
    }

    // The other way: a card both seats see changes place with a hidden card
    // or with another seen card; both views must show it, and both
    // observations when a pile's top card changed (they show every top).
    let vis = visible(&cards);
    if vis.is_empty() {
        return;
    }
    let mut changes: Vec<(Place, Place, bool)> = Vec::new();
    let (v, top) = pick(rng, &vis);
    if !hidden.is_empty() {
        changes.push((v, pick(rng, &hidden), top));
    }
    let (w, top_w) = pick(rng, &vis);
    if w != v {
        changes.push((v, w, top || top_w));
    }
    for (a, b, top) in changes {
        let mut c = cards.clone();
        swap(&mut c, a, b);
        let other = st.with_cards(&c).unwrap();
        let after = seen(&other);
        cov.visible_changes += 1;
        for seat in 0..2 {
            assert_ne!(
                before[seat].0, after[seat].0,
                "{ctx}: seat {seat}'s view misses a face-up card moving ({a:?} <-> {b:?}; RT-10)"
            );
            if top {
                assert_ne!(
                    before[seat].1, after[seat].1,
                    "{ctx}: seat {seat}'s observation misses a top card changing ({a:?} <-> {b:?})"
                );
            }
        }
    }
}

/// One of the 512 combinations of the rule options (bit by bit), with
/// random timing, match and guard options.
fn rule_set(mask: u32, rng: &mut GameRng) -> Vec<(String, OptionValue)> {
    use OptionValue::{Bool, Int, Str};
    let bit = |i: u32| mask >> i & 1 == 1;
    let word = |w: &str| Str(w.to_string());
    let mut o = vec![
        ("stock_piles", Int(if bit(0) { 4 } else { 5 })),
        ("auto_flip", Bool(bit(1))),
        (
            "lone_spit_pile",
            word(if bit(2) { "own" } else { "choose" }),
        ),
        ("stalemate", word(if bit(3) { "agreed" } else { "strict" })),
        ("slap", Bool(!bit(4))),
        ("alternate_colours", Bool(bit(5))),
        ("stack_equal_ranks", Bool(bit(6))),
        ("merge_equal_at_setup", Bool(bit(7))),
        ("equal_rank_play", Bool(bit(8))),
        ("hands", Int(1 + i64::from(rng.below(2)))),
        (
            "tie_break",
            word(["seeded_coin", "alternate", "seat_order"][rng.below(3) as usize]),
        ),
    ];
    if rng.below(3) == 0 {
        o.push(("match_games", Int(3)));
    }
    if rng.below(2) == 0 {
        o.push(("start_countdown_ms", Int(i64::from(rng.below(3)) * 750)));
        o.push(("spit_delay_ms", Int(i64::from(rng.below(3)) * 350)));
        o.push(("slap_window_ms", Int(i64::from(rng.below(3)) * 1500)));
        o.push(("regather_ms", Int(i64::from(rng.below(3)) * 500)));
    }
    match rng.below(8) {
        0 => o.push(("max_deals", Int(1 + i64::from(rng.below(3))))),
        // After the longest start countdown above (1,500 ms).
        1 => o.push(("max_virtual_ms", Int(1_501 + i64::from(rng.below(60_000))))),
        _ => {}
    }
    o.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

/// One random event: a random legal action of a random seat that may act,
/// a little later than now; or an engine timer, when nobody may act, when
/// it is due first, or (now and then) because both players wait for it
/// (a slap window or a lone spitter's choice running out).
fn step(st: &mut SpitState, rng: &mut GameRng) {
    let mut legal = [Vec::new(), Vec::new()];
    for seat in 0..2u8 {
        st.legal_actions(seat, &mut legal[usize::from(seat)]);
    }
    let seats: Vec<u8> = (0..2u8)
        .filter(|&s| !legal[usize::from(s)].is_empty())
        .collect();
    let timer = State::next_timer(st);
    let wait = st.phase_timer().is_some() && rng.below(8) == 0;
    let at = st.now() + Millis::from(rng.below(400));
    if seats.is_empty() || wait || timer.is_some_and(|t| t <= at) {
        st.fire_timer(timer.unwrap());
        return;
    }
    let seat = pick(rng, &seats);
    let l = &legal[usize::from(seat)];
    // Mostly productive moves (SP-3.1), so that deals come to an end.
    let productive: Vec<u16> = l
        .iter()
        .copied()
        .filter(|&a| st.is_productive(seat, a))
        .collect();
    let a = if !productive.is_empty() && rng.below(5) != 0 {
        pick(rng, &productive)
    } else {
        pick(rng, l)
    };
    st.apply(seat, a, at).unwrap();
}

#[test]
fn hidden_cards_do_not_show_and_visible_ones_do() {
    let mut rng = GameRng::new(0x5b17_1eac);
    let mut cov = Coverage::default();
    for run in 0..1024u32 {
        let mask = run % 512;
        let options = rule_set(mask, &mut rng);
        let game = SpitGame::from_options(&options).unwrap();
        let seed = derive_seed(0x5b17, u64::from(run));
        let mut st = game.deal(seed, None).unwrap();
        let mut check_rng = GameRng::new(derive_seed(seed, 1));
        let mut last_phase = None;
        for event in 0..3000 {
            // Every new phase, and one state in 25 at random.
            if last_phase != Some(st.phase()) || check_rng.below(25) == 0 {
                let ctx =
                    format!("run {run}: rule set {mask} {options:?} seed {seed} event {event}");
                check(&st, &mut check_rng, &mut cov, &ctx);
                last_phase = Some(st.phase());
            }
            if st.is_over() {
                break;
            }
            step(&mut st, &mut check_rng);
        }
    }
    eprintln!("{cov:?}");
    for (i, &n) in cov.phases.iter().enumerate() {
        assert!(n > 0, "no state in phase {:?}: {cov:?}", Phase::ALL[i]);
    }
    assert!(cov.moved > 10_000, "{cov:?}");
    assert!(cov.visible_changes > 10_000, "{cov:?}");
    for e in [
        "out_of_cards",
        "single_pile_short_out",
        "max_deals",
        "time_limit",
    ] {
        assert!(cov.endings.contains_key(e), "no game ended {e}: {cov:?}");
    }
    for n in [
        cov.gathered,
        cov.single_pile,
        cov.stacked,
        cov.spit_cards,
        cov.later_games,
    ] {
        assert!(n > 100, "{cov:?}");
    }
}

/// The partner states above differ from the real ones in card identities
/// only: `with_cards` refuses anything else.
#[test]
fn with_cards_only_rearranges_cards() {
    let st = SpitGame::default().deal(3, None).unwrap();
    let cards = st.cards_by_place();
    let same = st.with_cards(&cards).unwrap();
    assert_eq!(same.cards_by_place(), cards);
    for seat in 0..2 {
        assert_eq!(same.view(seat), st.view(seat));
    }
    // A card turned face up.
    let mut c = cards.clone();
    c.face_up[0][4] += 1;
    assert!(st.with_cards(&c).is_err());
    // A card moved from one pile to another.
    let mut c = cards.clone();
    let x = c.spit[0].pop().unwrap();
    c.spit[1].push(x);
    assert!(st.with_cards(&c).is_err());
    // A card twice.
    let mut c = cards.clone();
    c.spit[0][0] = c.spit[0][1];
    assert!(st.with_cards(&c).is_err());
}
