//! An independent brute-force oracle for minimum deadwood, cross-checked
//! against the production solver on thousands of seeded random hands.
//!
//! The oracle is written from the meld rules of the specification only, not
//! from the solver or from `meld::classify`:
//!
//! - a meld has at least 3 cards; each card is a natural (plays as itself) or a
//!   substitute; jokers are always substitutes, wild-rank cards may be either,
//!   every other card is a natural;
//! - set: all naturals share one rank (duplicates allowed), no size limit;
//! - run: naturals of one suit with pairwise distinct ranks, the meld fills the
//!   consecutive positions `lo..lo+len-1`, naturals at their own rank, which
//!   lie within 1..=13 (ace low) or, with aces high-or-low, within 2..=14 (the
//!   ace at 14); never wrapping;
//! - substitutes per meld <= cap (255 = unlimited) and at least one natural,
//!   except that with `all_wild_melds` a meld of substitutes only is valid
//!   whatever the cap;
//! - deadwood = value of the cards in no meld, minimised over disjoint melds.
//!
//! Every subset of the hand is tested as a meld by brute force (every choice of
//! which wild-rank cards play as naturals, every run window), then a subset DP
//! partitions the hand into disjoint melds. It is slow and obviously correct.

#![allow(clippy::unwrap_used)]

use crate::common;

use std::panic::{catch_unwind, AssertUnwindSafe};

use cardtable_core::meld::{AceMode, FaceValues, MeldRules, WildRank, UNLIMITED};
use cardtable_core::{format_hand, parse_hand, Card, DeckSpec, GameRng, Solution, Solver, Suit};
use common::check_arrangement;

// ---------------------------------------------------------------------------
// The oracle
// ---------------------------------------------------------------------------

/// The rules as the oracle reads them, with the wild rank settled for one hand size.
#[derive(Clone, Copy)]
struct Env {
    rules: MeldRules,
    wild: Option<u8>,
    /// `None`: no limit on substitutes per meld.
    cap: Option<usize>,
    all_wild: bool,
    aces_high: bool,
}

impl Env {
    /// `size` is the number of cards the wild rank is resolved for.
    fn new(rules: &MeldRules, size: usize) -> Env {
        let wild = rules.resolve(size).unwrap().wild;
        Env {
            rules: *rules,
            wild,
            cap: if rules.max_wilds == UNLIMITED {
                None
            } else {
                Some(usize::from(rules.max_wilds))
            },
            all_wild: rules.all_wild_melds,
            aces_high: rules.aces == AceMode::HighOrLow,
        }
    }

    fn is_wild_rank(&self, c: Card) -> bool {
        !c.is_joker() && Some(c.rank()) == self.wild
    }

    /// Cost of the card when it is left unmatched.
    fn value(&self, c: Card) -> u32 {
        let r = &self.rules;
        if c.is_joker() {
            u32::from(r.joker_value)
        } else if self.is_wild_rank(c) {
            u32::from(r.wild_value)
        } else {
            match c.rank() {
                1 => u32::from(r.ace_value),
                k @ 11..=13 => match r.face_values {
                    FaceValues::Ten => 10,
                    FaceValues::Rank => u32::from(k),
                },
                k => u32::from(k),
            }
        }
    }

    /// Cards that can only ever be naturals: neither jokers nor of the wild rank.
    fn is_fixed_natural(&self, c: Card) -> bool {
        !c.is_joker() && !self.is_wild_rank(c)
    }
}

/// All naturals share one rank.
fn is_set(naturals: &[Card]) -> bool {
    naturals.iter().all(|c| c.rank() == naturals[0].rank())
}

/// The naturals fit in a run of `len` consecutive positions.
fn is_run(naturals: &[Card], len: usize, aces_high: bool) -> bool {
    let suit = naturals[0].suit();
    if naturals.iter().any(|c| c.suit() != suit) {
        return false;
    }
    for i in 0..naturals.len() {
        for j in i + 1..naturals.len() {
            if naturals[i].rank() == naturals[j].rank() {
                return false;
            }
        }
    }
    // Every window lo..=hi of `len` positions, within 1..=13, or within 2..=14
    // when aces may be high (a window never holds both 1 and 14).
    for lo in 1..=14usize {
        let hi = lo + len - 1;
        let window_ok = hi <= 13 || (aces_high && lo >= 2 && hi <= 14);
        if !window_ok {
            continue;
        }
        let inside = |p: usize| (lo..=hi).contains(&p);
        // Ranks are distinct, and an ace takes 14 only when 1 is outside the
        // window, so the naturals sit at distinct positions; the substitutes
        // fill exactly the other positions.
        let all_placed = naturals.iter().all(|c| {
            let r = usize::from(c.rank());
            inside(r) || (aces_high && r == 1 && inside(14))
        });
        if all_placed {
            return true;
        }
    }
    false
}

/// Brute force: is this multiset of cards one valid meld?
fn is_meld(cards: &[Card], env: &Env) -> bool {
    let k = cards.len();
    if k < 3 {
        return false;
    }
    let flexible: Vec<usize> = (0..k).filter(|&i| env.is_wild_rank(cards[i])).collect();
    // Try every choice of which wild-rank cards play as naturals.
    for choice in 0u32..(1 << flexible.len()) {
        let mut naturals = Vec::with_capacity(k);
        for (i, &c) in cards.iter().enumerate() {
            if c.is_joker() {
                continue; // always a substitute
            }
            if let Some(j) = flexible.iter().position(|&x| x == i) {
                if choice >> j & 1 == 0 {
                    continue; // this wild-rank card is a substitute
                }
            }
            naturals.push(c);
        }
        let subs = k - naturals.len();
        if naturals.is_empty() {
            if env.all_wild {
                return true; // substitutes only: whatever the cap
            }
            continue;
        }
        if env.cap.is_some_and(|cap| subs > cap) {
            continue;
        }
        if is_set(&naturals) || is_run(&naturals, k, env.aces_high) {
            return true;
        }
    }
    false
}

/// A necessary condition for a meld, monotone under taking subsets: the cards
/// that can only be naturals all share a rank, or share a suit with distinct
/// ranks. (Every choice in `is_meld` keeps them all as naturals.)
fn may_be_meld(cards: &[Card], env: &Env) -> bool {
    let fixed: Vec<Card> = cards
        .iter()
        .copied()
        .filter(|&c| env.is_fixed_natural(c))
        .collect();
    if fixed.is_empty() || is_set(&fixed) {
        return true;
    }
    let suit = fixed[0].suit();
    if fixed.iter().any(|c| c.suit() != suit) {
        return false;
    }
    let mut ranks: Vec<u8> = fixed.iter().map(|c| c.rank()).collect();
    ranks.sort_unstable();
    ranks.windows(2).all(|w| w[0] != w[1])
}

/// Every subset of the hand (as a bit mask) that is a valid meld.
fn meld_masks(hand: &[Card], env: &Env, prefilter: bool) -> Vec<u32> {
    let n = hand.len();
    let mut out = Vec::new();
    let mut buf = Vec::with_capacity(n);
    for mask in 1u32..(1 << n) {
        if mask.count_ones() < 3 {
            continue;
        }
        buf.clear();
        buf.extend((0..n).filter(|&i| mask >> i & 1 == 1).map(|i| hand[i]));
        if prefilter && !may_be_meld(&buf, env) {
            continue;
        }
        if is_meld(&buf, env) {
            out.push(mask);
        }
    }
    out
}

/// Minimum deadwood of `hand` under `env`, by a DP over subsets: the lowest
/// card of a subset is either unmatched or in a meld inside the subset.
fn oracle_with(hand: &[Card], env: &Env) -> u32 {
    let n = hand.len();
    assert!(n <= 16, "hand too large for the oracle");
    let mut by_low: Vec<Vec<u32>> = vec![Vec::new(); n.max(1)];
    for m in meld_masks(hand, env, true) {
        by_low[m.trailing_zeros() as usize].push(m);
    }
    let values: Vec<u32> = hand.iter().map(|&c| env.value(c)).collect();
    let size = 1usize << n;
    let mut f = vec![0u32; size];
    for mask in 1..size {
        let m32 = mask as u32;
        let i = m32.trailing_zeros() as usize;
        let mut best = values[i] + f[mask & !(1 << i)];
        for &meld in &by_low[i] {
            if meld & m32 == meld {
                best = best.min(f[(m32 & !meld) as usize]);
            }
        }
        f[mask] = best;
    }
    f[size - 1]
}

/// Minimum deadwood of `hand`, the wild rank resolved for its size.
fn oracle(hand: &[Card], rules: &MeldRules) -> u32 {
    oracle_with(hand, &Env::new(rules, hand.len()))
}

/// Minimum over each discard of the minimum deadwood of the rest, the wild
/// rank resolved for `hand.len() - 1`.
fn oracle_discard(hand: &[Card], rules: &MeldRules) -> u32 {
    let env = Env::new(rules, hand.len() - 1);
    (0..hand.len())
        .map(|d| {
            let mut rest = hand.to_vec();
            rest.remove(d);
            oracle_with(&rest, &env)
        })
        .min()
        .unwrap()
}

// ---------------------------------------------------------------------------
// Cross-checking
// ---------------------------------------------------------------------------

/// Rules with the wild rank pinned to what it is for `size` cards, so that a
/// hand can be shrunk without moving the wild rank.
fn pinned(rules: &MeldRules, size: usize) -> MeldRules {
    let mut r = *rules;
    r.wild = match rules.resolve(size).unwrap().wild {
        Some(w) => WildRank::Fixed(w),
        None => WildRank::None,
    };
    r
}

fn describe(hand: &[Card], rules: &MeldRules) -> String {
    format!(
        "hand [{}] ({} cards), rules {{{rules}}}",
        format_hand(hand),
        hand.len()
    )
}

struct Checker {
    name: &'static str,
    solver: Solver,
    hands: usize,
    failed_hands: usize,
    failures: Vec<(usize, String)>,
}

impl Checker {
    fn new(name: &'static str) -> Checker {
        Checker {
            name,
            solver: Solver::new(),
            hands: 0,
            failed_hands: 0,
            failures: Vec::new(),
        }
    }

    fn fail(&mut self, len: usize, msg: String) {
        self.failures.push((len, msg));
    }

    /// Solver deadwood for a hand, or None when it errs.
    fn solver_deadwood(&mut self, hand: &[Card], rules: &MeldRules) -> Option<u32> {
        self.solver.solve(hand, rules).ok().map(|s| s.deadwood)
    }

    /// Removes cards one at a time while the solver still disagrees with the oracle.
    fn minimise(&mut self, hand: &[Card], rules: &MeldRules) -> (Vec<Card>, MeldRules) {
        let rules = pinned(rules, hand.len());
        let mut h = hand.to_vec();
        'outer: loop {
            for i in 0..h.len() {
                let mut t = h.clone();
                t.remove(i);
                if t.is_empty() {
                    continue;
                }
                if self.solver_deadwood(&t, &rules) != Some(oracle(&t, &rules)) {
                    h = t;
                    continue 'outer;
                }
            }
            break;
        }
        (h, rules)
    }

    /// The solver's arrangement, checked independently of `classify`: a
    /// partition of the hand (minus the discard) into oracle-valid melds and
    /// unmatched cards whose value is the deadwood; then the shared helper.
    fn check_solution(&mut self, hand: &[Card], sol: &Solution, rules: &MeldRules, env: &Env) {
        let mut problems = Vec::new();
        let mut all: Vec<Card> = Vec::new();
        for m in sol.melds() {
            if !is_meld(&m.cards, env) {
                problems.push(format!("meld {m} is not valid for the oracle"));
            }
            all.extend(m.cards.iter().copied());
        }
        all.extend(sol.unmatched().iter().copied());
        if let Some(d) = sol.discard() {
            all.push(d);
        }
        let mut a = all.clone();
        let mut h = hand.to_vec();
        a.sort();
        h.sort();
        if a != h {
            problems.push(format!(
                "arrangement [{}] is not a partition of the hand",
                format_hand(&all)
            ));
        }
        let dw: u32 = sol.unmatched().iter().map(|&c| env.value(c)).sum();
        if dw != sol.deadwood {
            problems.push(format!(
                "unmatched cards [{}] are worth {dw}, solution says {}",
                format_hand(sol.unmatched()),
                sol.deadwood
            ));
        }
        let helper = catch_unwind(AssertUnwindSafe(|| check_arrangement(hand, sol, rules)));
        if let Err(e) = helper {
            let text = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            problems.push(format!("check_arrangement failed: {text}"));
        }
        if !problems.is_empty() {
            self.fail(
                hand.len(),
                format!("{}: {}", describe(hand, rules), problems.join("; ")),
            );
        }
    }

    /// Minimum deadwood: solver (solve and deadwood) against the oracle.
    fn solve(&mut self, hand: &[Card], rules: &MeldRules) {
        let before = self.failures.len();
        self.solve_inner(hand, rules);
        self.count(before);
    }

    /// Counts the hand, and counts it as failed if it added failures.
    fn count(&mut self, before: usize) {
        self.hands += 1;
        if self.failures.len() > before {
            self.failed_hands += 1;
        }
    }

    fn solve_inner(&mut self, hand: &[Card], rules: &MeldRules) {
        let env = Env::new(rules, hand.len());
        let expected = oracle_with(hand, &env);
        let sol = match self.solver.solve(hand, rules) {
            Ok(s) => s,
            Err(e) => {
                self.fail(
                    hand.len(),
                    format!(
                        "{}: oracle {expected}, solver error {e}",
                        describe(hand, rules)
                    ),
                );
                return;
            }
        };
        if sol.deadwood != expected {
            let (mh, mr) = self.minimise(hand, rules);
            let mo = oracle(&mh, &mr);
            let ms = self.solver_deadwood(&mh, &mr);
            self.fail(
                hand.len(),
                format!(
                    "{}: oracle {expected}, solver {}; minimised: {}: oracle {mo}, solver {ms:?}",
                    describe(hand, rules),
                    sol.deadwood,
                    describe(&mh, &mr)
                ),
            );
        }
        match self.solver.deadwood(hand, rules) {
            Ok(dw) if dw == expected => {}
            other => self.fail(
                hand.len(),
                format!(
                    "{}: oracle {expected}, Solver::deadwood {other:?}",
                    describe(hand, rules)
                ),
            ),
        }
        self.check_solution(hand, &sol, rules, &env);
    }

    /// Best discard: solver against the oracle's minimum over discards.
    fn best_discard(&mut self, hand: &[Card], rules: &MeldRules) {
        let before = self.failures.len();
        self.best_discard_inner(hand, rules);
        self.count(before);
    }

    fn best_discard_inner(&mut self, hand: &[Card], rules: &MeldRules) {
        let env = Env::new(rules, hand.len() - 1);
        let expected = oracle_discard(hand, rules);
        let sol = match self.solver.best_discard(hand, rules) {
            Ok(s) => s,
            Err(e) => {
                self.fail(
                    hand.len(),
                    format!(
                        "{}: oracle {expected}, solver error {e}",
                        describe(hand, rules)
                    ),
                );
                return;
            }
        };
        if sol.deadwood != expected {
            self.fail(
                hand.len(),
                format!(
                    "{}: best discard: oracle {expected}, solver {} (discard {:?})",
                    describe(hand, rules),
                    sol.deadwood,
                    sol.discard()
                ),
            );
        }
        match sol.discard() {
            None => self.fail(
                hand.len(),
                format!("{}: best discard names no discard", describe(hand, rules)),
            ),
            Some(d) => {
                // The named discard achieves the deadwood.
                let mut rest = hand.to_vec();
                let i = rest.iter().position(|&c| c == d).unwrap();
                rest.remove(i);
                let got = oracle_with(&rest, &env);
                if got != sol.deadwood {
                    self.fail(
                        hand.len(),
                        format!(
                            "{}: discarding {d} leaves deadwood {got} for the oracle, solver says {}",
                            describe(hand, rules),
                            sol.deadwood
                        ),
                    );
                }
            }
        }
        self.check_solution(hand, &sol, rules, &env);
    }

    fn finish(mut self) {
        if self.failures.is_empty() {
            eprintln!("{}: {} hands agree", self.name, self.hands);
            return;
        }
        self.failures.sort_by_key(|(len, _)| *len);
        let shown: Vec<String> = self
            .failures
            .iter()
            .take(15)
            .map(|(_, m)| format!("  - {m}"))
            .collect();
        panic!(
            "{}: {} of {} hands disagree with the oracle, {} problems (smallest hands first):\n{}",
            self.name,
            self.failed_hands,
            self.hands,
            self.failures.len(),
            shown.join("\n")
        );
    }
}

// ---------------------------------------------------------------------------
// Hand generators
// ---------------------------------------------------------------------------

fn card_of(rank: u8, suit: u8) -> Card {
    Card::new(rank, Suit::from_index(suit).unwrap()).unwrap()
}

/// `decks` copies of the 52 cards, then `jokers` jokers.
fn full_pool(decks: u8, jokers: u8) -> Vec<Card> {
    let mut v = Vec::new();
    for _ in 0..decks {
        v.extend((0..52u8).map(|c| Card::from_code(c).unwrap()));
    }
    v.extend(std::iter::repeat_n(Card::JOKER, usize::from(jokers)));
    v
}

/// `n` cards drawn without replacement from `pool`, in random order.
fn draw(rng: &mut GameRng, pool: &[Card], n: usize) -> Vec<Card> {
    let mut p = pool.to_vec();
    rng.shuffle(&mut p);
    p.truncate(n);
    p
}

fn between(rng: &mut GameRng, lo: usize, hi: usize) -> usize {
    lo + rng.below((hi - lo + 1) as u32) as usize
}

/// `nranks` consecutive ranks (wrapping K -> A, so Q-K-A and K-A-2 windows
/// occur) in `nsuits` distinct random suits, `copies` of each card.
fn dense_pool(rng: &mut GameRng, nranks: usize, nsuits: usize, copies: usize) -> Vec<Card> {
    let start = rng.below(13) as usize;
    let mut suits = vec![0u8, 1, 2, 3];
    rng.shuffle(&mut suits);
    let mut v = Vec::new();
    for j in 0..nranks {
        let rank = ((start + j) % 13 + 1) as u8;
        for &s in &suits[..nsuits] {
            for _ in 0..copies {
                v.push(card_of(rank, s));
            }
        }
    }
    v
}

fn with_aces_high(mut r: MeldRules) -> MeldRules {
    r.aces = AceMode::HighOrLow;
    if r.game == "three_thirteen" {
        r.ace_value = 15; // TT-10.1, as the preset with options would
    }
    r
}

fn with_jokers(mut r: MeldRules) -> MeldRules {
    r.deck = DeckSpec::new(r.deck.decks, true).unwrap();
    r
}

fn with_cap(mut r: MeldRules, cap: u8, all_wild: bool) -> MeldRules {
    r.max_wilds = cap;
    r.all_wild_melds = all_wild;
    r
}

// ---------------------------------------------------------------------------
// The oracle checks itself
// ---------------------------------------------------------------------------

#[test]
fn oracle_prefilter_drops_no_meld() {
    // The prefilter in `meld_masks` only skips subsets that cannot be melds.
    let mut rng = GameRng::new(0x5eed_0001);
    let configs = [
        with_jokers(with_cap(MeldRules::three_thirteen(), UNLIMITED, true)),
        with_aces_high(with_jokers(MeldRules::three_thirteen())),
        with_aces_high(MeldRules::tonk()),
    ];
    for rules in &configs {
        let pool = full_pool(rules.deck.decks, rules.deck.jokers);
        for i in 0..150 {
            let n = between(&mut rng, 3, 9);
            let hand = if i % 2 == 0 {
                draw(&mut rng, &pool, n)
            } else {
                let p = dense_pool(&mut rng, 4, 2, usize::from(rules.deck.decks));
                let mut h = draw(&mut rng, &p, n.min(p.len()) - 1);
                h.push(*rng.choose(&pool).unwrap());
                h
            };
            if rules.deck.check_hand(&hand).is_err() || hand.len() < 3 {
                continue;
            }
            let env = Env::new(rules, hand.len());
            assert_eq!(
                meld_masks(&hand, &env, true),
                meld_masks(&hand, &env, false),
                "{}",
                describe(&hand, rules)
            );
        }
    }
}

// ---------------------------------------------------------------------------
// 1. Uniform one-deck hands, no wilds
// ---------------------------------------------------------------------------

#[test]
fn uniform_one_deck_no_wilds() {
    let mut face_rank_high = with_aces_high(MeldRules::gin());
    face_rank_high.face_values = FaceValues::Rank;
    let configs = [
        ("tonk", MeldRules::tonk()),
        ("gin", MeldRules::gin()),
        ("tonk aces high", with_aces_high(MeldRules::tonk())),
        ("gin aces high, J/Q/K by rank", face_rank_high),
    ];
    let pool = full_pool(1, 0);
    for (k, (name, rules)) in configs.iter().enumerate() {
        let mut c = Checker::new(name);
        let mut rng = GameRng::new(1000 + k as u64);
        for _ in 0..2500 {
            let n = between(&mut rng, 3, 11);
            let hand = draw(&mut rng, &pool, n);
            c.solve(&hand, rules);
        }
        c.finish();
    }
}

// ---------------------------------------------------------------------------
// 2. Meld-dense hands: few ranks, few suits
// ---------------------------------------------------------------------------

#[test]
fn meld_dense_one_copy() {
    let configs = [
        ("dense tonk", MeldRules::tonk()),
        ("dense tonk aces high", with_aces_high(MeldRules::tonk())),
        ("dense three thirteen", MeldRules::three_thirteen()),
        (
            "dense three thirteen aces high, jokers",
            with_aces_high(with_jokers(MeldRules::three_thirteen())),
        ),
    ];
    for (k, (name, rules)) in configs.iter().enumerate() {
        let mut c = Checker::new(name);
        let mut rng = GameRng::new(2000 + k as u64);
        for _ in 0..2000 {
            let nranks = between(&mut rng, 4, 5);
            let nsuits = between(&mut rng, 2, 3);
            let mut pool = dense_pool(&mut rng, nranks, nsuits, 1);
            if rules.deck.jokers > 0 {
                pool.push(Card::JOKER);
                pool.push(Card::JOKER);
            }
            let n = between(&mut rng, 3, pool.len().min(11));
            let hand = draw(&mut rng, &pool, n);
            c.solve(&hand, rules);
        }
        c.finish();
    }
}

// ---------------------------------------------------------------------------
// 3. Three Thirteen, two decks, wild rank by hand size
// ---------------------------------------------------------------------------

#[test]
fn three_thirteen_uniform() {
    let configs = [
        ("three thirteen", MeldRules::three_thirteen(), 2000),
        (
            "three thirteen aces high",
            with_aces_high(MeldRules::three_thirteen()),
            1500,
        ),
        (
            "three thirteen jokers",
            with_jokers(MeldRules::three_thirteen()),
            1500,
        ),
    ];
    for (k, (name, rules, count)) in configs.iter().enumerate() {
        let pool = full_pool(rules.deck.decks, rules.deck.jokers);
        let mut c = Checker::new(name);
        let mut rng = GameRng::new(3000 + k as u64);
        for _ in 0..*count {
            let n = between(&mut rng, 3, 13);
            let hand = draw(&mut rng, &pool, n);
            c.solve(&hand, rules);
        }
        c.finish();
    }
}

#[test]
fn three_thirteen_fourteen_and_fifteen_cards() {
    // 14 cards: aces wild; 15 cards: twos wild.
    let rules = MeldRules::three_thirteen();
    let pool = full_pool(2, 0);
    let mut c = Checker::new("three thirteen 14-15 cards");
    let mut rng = GameRng::new(3100);
    for i in 0..300 {
        let n = 14 + i % 2;
        let hand = draw(&mut rng, &pool, n);
        c.solve(&hand, &rules);
    }
    c.finish();
}

// ---------------------------------------------------------------------------
// 4. All four wild-rank cards and two jokers
// ---------------------------------------------------------------------------

fn wild_heavy(name: &'static str, rules: MeldRules, seed: u64, count: usize) {
    let mut c = Checker::new(name);
    let mut rng = GameRng::new(seed);
    for i in 0..count {
        let n = between(&mut rng, 7, 13);
        let w = rules.resolve(n).unwrap().wild.unwrap();
        let mut hand: Vec<Card> = (0..4).map(|s| card_of(w, s)).collect();
        hand.push(Card::JOKER);
        hand.push(Card::JOKER);
        // Fill with other cards: from both decks, or from a dense pool.
        let pool: Vec<Card> = if i % 2 == 0 {
            full_pool(2, 0)
        } else {
            dense_pool(&mut rng, 5, 2, 2)
        };
        let others: Vec<Card> = pool.into_iter().filter(|c| c.rank() != w).collect();
        hand.extend(draw(&mut rng, &others, n - 6));
        rng.shuffle(&mut hand);
        c.solve(&hand, &rules);
    }
    c.finish();
}

#[test]
fn wild_heavy_cap_1() {
    let r = with_jokers(MeldRules::three_thirteen());
    wild_heavy("4 wild-rank + 2 jokers, cap 1", r, 4001, 2000);
}

#[test]
fn wild_heavy_cap_2() {
    let r = with_cap(with_jokers(MeldRules::three_thirteen()), 2, false);
    wild_heavy("4 wild-rank + 2 jokers, cap 2", r, 4002, 2000);
}

#[test]
fn wild_heavy_unlimited() {
    let r = with_cap(with_jokers(MeldRules::three_thirteen()), UNLIMITED, false);
    wild_heavy("4 wild-rank + 2 jokers, unlimited", r, 4003, 2000);
}

#[test]
fn wild_heavy_unlimited_all_wild_melds() {
    let r = with_cap(with_jokers(MeldRules::three_thirteen()), UNLIMITED, true);
    wild_heavy(
        "4 wild-rank + 2 jokers, unlimited, all-wild melds",
        r,
        4004,
        2000,
    );
}

#[test]
fn wild_heavy_other_variants() {
    let r = with_cap(with_jokers(MeldRules::three_thirteen()), 1, true);
    wild_heavy(
        "4 wild-rank + 2 jokers, cap 1, all-wild melds",
        r,
        4005,
        1000,
    );
    let r = with_aces_high(with_cap(with_jokers(MeldRules::three_thirteen()), 2, false));
    wild_heavy("4 wild-rank + 2 jokers, cap 2, aces high", r, 4006, 1000);
}

// ---------------------------------------------------------------------------
// 5. Two decks, many duplicates
// ---------------------------------------------------------------------------

#[test]
fn two_deck_duplicates() {
    let base = MeldRules::three_thirteen();
    let mut no_wild = base;
    no_wild.wild = WildRank::None;
    let configs: [(&str, MeldRules); 4] = [
        ("duplicates, no wild rank", no_wild),
        ("duplicates, by hand size", base),
        (
            "duplicates, fixed wild in pool, unlimited",
            with_cap(base, UNLIMITED, false),
        ),
        (
            "duplicates, fixed wild in pool, cap 2, aces high, jokers",
            with_aces_high(with_jokers(with_cap(base, 2, false))),
        ),
    ];
    for (k, (name, rules)) in configs.iter().enumerate() {
        let mut c = Checker::new(name);
        let mut rng = GameRng::new(5000 + k as u64);
        for _ in 0..1500 {
            let nranks = between(&mut rng, 3, 4);
            let mut pool = dense_pool(&mut rng, nranks, 2, 2);
            let mut r = *rules;
            if k >= 2 {
                // A wild rank inside the pool most of the time.
                let w = rng.choose(&pool).unwrap().rank();
                r.wild = WildRank::Fixed(if rng.below(4) == 0 {
                    (w + 5) % 13 + 1
                } else {
                    w
                });
            }
            if r.deck.jokers > 0 {
                pool.push(Card::JOKER);
            }
            let n = between(&mut rng, 3, pool.len().min(12));
            let hand = draw(&mut rng, &pool, n);
            c.solve(&hand, &r);
        }
        c.finish();
    }
}

// ---------------------------------------------------------------------------
// 6. Best discard
// ---------------------------------------------------------------------------

#[test]
fn best_discard_gin() {
    let rules = MeldRules::gin();
    let pool = full_pool(1, 0);
    let mut c = Checker::new("best discard gin, 11 cards");
    let mut rng = GameRng::new(6001);
    for i in 0..600 {
        let hand = if i % 2 == 0 {
            draw(&mut rng, &pool, 11)
        } else {
            let p = dense_pool(&mut rng, 5, 3, 1);
            draw(&mut rng, &p, 11)
        };
        c.best_discard(&hand, &rules);
    }
    c.finish();
}

#[test]
fn best_discard_three_thirteen() {
    let configs = [
        (
            "best discard three thirteen",
            MeldRules::three_thirteen(),
            600,
        ),
        (
            "best discard three thirteen, jokers, cap 2, aces high",
            with_aces_high(with_cap(with_jokers(MeldRules::three_thirteen()), 2, false)),
            300,
        ),
    ];
    for (k, (name, rules, count)) in configs.iter().enumerate() {
        let pool = full_pool(rules.deck.decks, rules.deck.jokers);
        let mut c = Checker::new(name);
        let mut rng = GameRng::new(6100 + k as u64);
        for i in 0..*count {
            let n = between(&mut rng, 4, 14);
            let hand = if i % 2 == 0 {
                draw(&mut rng, &pool, n)
            } else {
                let mut p = dense_pool(&mut rng, 5, 2, 2);
                // Include the wild rank of the round (n - 1 cards kept).
                let w = rules.resolve(n - 1).unwrap().wild.unwrap();
                p.push(card_of(w, 0));
                p.push(card_of(w, 3));
                if rules.deck.jokers > 0 {
                    p.push(Card::JOKER);
                }
                let h = draw(&mut rng, &p, n.min(p.len()));
                if rules.deck.check_hand(&h).is_err() || h.len() < 4 {
                    continue;
                }
                h
            };
            c.best_discard(&hand, rules);
        }
        c.finish();
    }
}

// ---------------------------------------------------------------------------
// 7. Hand-written edge cases (expected values worked out by hand)
// ---------------------------------------------------------------------------

fn edge(c: &mut Checker, text: &str, rules: &MeldRules, expected: u32) {
    let hand = parse_hand(text).unwrap();
    let got = oracle(&hand, rules);
    assert_eq!(
        got,
        expected,
        "oracle disagrees with the hand computation for {}",
        describe(&hand, rules)
    );
    c.solve(&hand, rules);
}

#[test]
fn hand_written_edge_cases() {
    let tonk = MeldRules::tonk();
    let tonk_high = with_aces_high(MeldRules::tonk());
    let tt = MeldRules::three_thirteen();
    let tt_high = with_aces_high(MeldRules::three_thirteen());
    let tt_jk = with_jokers(MeldRules::three_thirteen());
    let mut c = Checker::new("edge cases");

    // A-2-3 is a run with aces low: 0.
    edge(&mut c, "AS 2S 3S", &tonk, 0);
    // Q-K-A is not a run with aces low: 10 + 10 + 1.
    edge(&mut c, "QS KS AS", &tonk, 21);
    // ... but it is with aces high-or-low: 0.
    edge(&mut c, "QS KS AS", &tonk_high, 0);
    // K-A-2 never wraps: 10 + 1 + 2.
    edge(&mut c, "KH AH 2H", &tonk_high, 13);
    // A whole suit A..K is one run of 13 (positions 1..13): 0.
    edge(
        &mut c,
        "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
        &tonk_high,
        0,
    );
    // Three Thirteen aces high: an unmatched ace costs 15; 3 cards, 3s wild,
    // none here: K + A + 2 = 10 + 15 + 2.
    edge(&mut c, "KS AS 2S", &tt_high, 27);
    // Two copies of AH (two decks), 6 cards, 6s wild: A-2-3 and Q-K-A with
    // aces high: 0; with aces low Q, K and one A are left: 10 + 10 + 1.
    edge(&mut c, "AH 2H 3H QH KH AH", &tt_high, 0);
    edge(&mut c, "AH 2H 3H QH KH AH", &tt, 21);
    // A set with a duplicate card (two decks): 3 cards, 3s wild: 0.
    edge(&mut c, "7C 7C 7D", &tt, 0);
    // A run may not repeat a rank: 7-8-9 of clubs plus a lone 7C (4s wild): 7.
    edge(&mut c, "7C 7C 8C 9C", &tt, 7);
    // 3 cards, 3s wild: 3D substitutes for the jack in J-Q-K: 0.
    edge(&mut c, "QS KS 3D", &tt, 0);
    // K with two wild 3s needs 2 substitutes (3D/3C cannot both be naturals
    // next to a K): cap 1 leaves everything: 10 + 15 + 15 ...
    edge(&mut c, "KS 3D 3C", &tt, 40);
    // ... unlimited: J-Q-K or a set of kings: 0.
    edge(&mut c, "KS 3D 3C", &with_cap(tt, UNLIMITED, false), 0);
    // 5 cards, 5s wild: 4-5-6-7 of hearts with 5H natural, 5C substituting
    // for 8H (or 3H): one substitute, 0.
    edge(&mut c, "4H 5H 6H 7H 5C", &tt, 0);
    // 6 cards, 6s wild: 4S-[6D as 5S]-6S natural and 9H-9D-[6C]: 0. The set
    // of three natural 6s would leave 4 + 9 + 9 = 22.
    edge(&mut c, "4S 6S 6D 6C 9H 9D", &tt, 0);
    // 5 cards, 5s wild, all five 5s: a natural set of five: 0.
    edge(&mut c, "5C 5D 5H 5S 5C", &tt, 0);
    // 5 cards, 5s wild, cap 1: only 2D-2H-JK melds; 9C + JK left: 9 + 20 = 29.
    edge(&mut c, "9C JK JK 2D 2H", &tt_jk, 29);
    // Cap 2: 9C-JK-JK, leaving 2D 2H: 4.
    edge(&mut c, "9C JK JK 2D 2H", &with_cap(tt_jk, 2, false), 4);
    // Unlimited + all-wild: the same 4 (only two substitutes in the hand).
    edge(
        &mut c,
        "9C JK JK 2D 2H",
        &with_cap(tt_jk, UNLIMITED, true),
        4,
    );
    // 5 cards, 5s wild, cap 1: 5C-5D-JK (natural 5s, one joker) leaves
    // JK + 9S = 29; nothing better (any meld with the 9S needs 2 substitutes).
    edge(&mut c, "5C 5D JK JK 9S", &tt_jk, 29);
    // Cap 1 with all-wild melds: JK-JK-5C-5D as substitutes only: 9.
    edge(&mut c, "5C 5D JK JK 9S", &with_cap(tt_jk, 1, true), 9);
    // Cap 2: 5C-5D natural set with two jokers: 9.
    edge(&mut c, "5C 5D JK JK 9S", &with_cap(tt_jk, 2, false), 9);
    // Aces high, jokers (4 cards, 4s wild): JK as Q in Q-K-A leaves 2H: 2;
    // K-A-2 never, and A-2-JK leaves KH (10).
    edge(&mut c, "KH AH JK 2H", &with_aces_high(tt_jk), 2);
    edge(&mut c, "KH AH JK 2H", &tt_jk, 10);
    // 4 cards, 4s wild, cap 1: 4H must play as itself so that the joker can
    // be the one substitute in 4H-5H-6H-JK: 0 (with 4H as a substitute too
    // only 4H-5H-6H melds and the joker costs 20).
    edge(&mut c, "4H 5H 6H JK", &tt_jk, 0);
    // 3 cards, 3s wild: 3C as itself with two jokers is a set of 3s with two
    // substitutes: cap 1 forbids it and all three are left: 20 + 20 + 15 ...
    edge(&mut c, "JK JK 3C", &tt_jk, 55);
    // ... unlimited: 0;
    edge(&mut c, "JK JK 3C", &with_cap(tt_jk, UNLIMITED, false), 0);
    // ... cap 1 with all-wild melds: three substitutes, whatever the cap: 0.
    edge(&mut c, "JK JK 3C", &with_cap(tt_jk, 1, true), 0);
    // 4 cards, 4s wild, two decks: JK-JK-JK-JK is no meld without all-wild
    // melds (80), and one with them (0).
    let mut tt_4jk = with_cap(tt, UNLIMITED, false);
    tt_4jk.deck = DeckSpec::new(2, true).unwrap();
    edge(&mut c, "JK JK JK JK", &tt_4jk, 80);
    tt_4jk.all_wild_melds = true;
    edge(&mut c, "JK JK JK JK", &tt_4jk, 0);
    c.finish();
}
