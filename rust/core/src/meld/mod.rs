//! Melds: what they are, how to check one, which cards hit one, and every meld
//! a hand holds. The minimum-deadwood search lives in [`solver`].
//!
//! A meld is a set (book: three or more cards of one rank, TK-7.1, TT-4.1) or
//! a run (three or more consecutive ranks in one suit, TK-7.2, TT-4.2). Wild
//! cards (jokers and cards of the wild rank) may stand in for missing cards;
//! such a card is a *substitute*. A wild-rank card used as itself is a natural
//! and does not count towards the per-meld limit (TT-5.2, TT-5.3).

mod fast;
pub mod rules;
mod solution;
pub mod solver;

use std::fmt;

use crate::card::{Card, Rank, Suit};
use crate::error::{CoreError, Result};
pub use rules::{
    three_thirteen_wild_for_size, AceMode, FaceValues, MeldRules, ResolvedRules, RuleOptions,
    Unlimited, WildRank, MELD_OPTIONS, MELD_SCHEMA, UNLIMITED,
};
pub use solution::Solution;
pub use solver::{check_hand_size, Solver, MAX_HAND};

/// Set (book) or run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MeldKind {
    Set,
    Run,
}

impl MeldKind {
    pub fn name(self) -> &'static str {
        match self {
            MeldKind::Set => "set",
            MeldKind::Run => "run",
        }
    }
}

/// One meld with the role of every card.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Meld {
    pub kind: MeldKind,
    /// Runs: in position order, lowest first. Sets: naturals by suit, then substitutes.
    pub cards: Vec<Card>,
    /// Bit `i` is set when `cards[i]` is a substitute.
    pub substitutes: u32,
    /// Sets: the rank (`None` for a meld made only of substitutes, TT-5.4).
    /// Runs: the rank of the first position; position `i` is `rank + i`, where
    /// 14 is a high ace.
    pub rank: Option<Rank>,
    /// Runs: the suit.
    pub suit: Option<Suit>,
}

impl Meld {
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    pub fn is_substitute(&self, i: usize) -> bool {
        i < 32 && self.substitutes & (1 << i) != 0
    }

    pub fn substitute_count(&self) -> u32 {
        self.substitutes.count_ones()
    }

    /// The card a position stands for: itself for a natural, the missing card
    /// for a substitute (`None` for substitutes in a set, which stand for "any
    /// suit", and in an all-wild meld).
    pub fn represents(&self, i: usize) -> Option<Card> {
        let card = *self.cards.get(i)?;
        if !self.is_substitute(i) {
            return Some(card);
        }
        match (self.kind, self.rank, self.suit) {
            (MeldKind::Run, Some(lo), Some(s)) => {
                let r = lo + i as u8;
                Some(Card::at_run_position(r, s.index()))
            }
            _ => None,
        }
    }
}

impl fmt::Display for Meld {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.cards.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

/// Checks a group of cards as one meld and returns its reading with the fewest
/// substitutes, or `None` when the cards form no valid meld. With `kind`, only
/// that kind is considered (a hit must keep a set a set and a run a run).
pub fn classify(cards: &[Card], rr: &ResolvedRules, kind: Option<MeldKind>) -> Option<Meld> {
    if cards.len() < 3 || cards.len() > 32 {
        return None;
    }
    let set = if kind != Some(MeldKind::Run) {
        classify_set(cards, rr)
    } else {
        None
    };
    let run = if kind != Some(MeldKind::Set) {
        classify_run(cards, rr)
    } else {
        None
    };
    match (set, run) {
        (Some(s), Some(r)) => Some(if r.substitute_count() < s.substitute_count() {
            r
        } else {
            s
        }),
        (s, r) => s.or(r),
    }
}

fn subs_allowed(rr: &ResolvedRules, subs: usize, naturals: usize) -> bool {
    if naturals == 0 {
        return rr.rules.all_wild_melds;
    }
    let cap = rr.cap();
    cap == UNLIMITED || subs <= usize::from(cap)
}

fn classify_set(cards: &[Card], rr: &ResolvedRules) -> Option<Meld> {
    let plain: Vec<Card> = cards.iter().copied().filter(|&c| !rr.is_wild(c)).collect();
    let rank = match plain.first() {
        Some(c) => {
            if plain.iter().any(|p| p.rank() != c.rank()) {
                return None;
            }
            Some(c.rank())
        }
        None => cards
            .iter()
            .find(|c| rr.is_wild_rank(**c))
            .map(|c| c.rank()),
    };
    let (mut naturals, mut subs): (Vec<Card>, Vec<Card>) = match rank {
        Some(r) => cards.iter().partition(|c| !c.is_joker() && c.rank() == r),
        None => (Vec::new(), cards.to_vec()),
    };
    let (rank, naturals_n) = if subs_allowed(rr, subs.len(), naturals.len()) {
        (rank, naturals.len())
    } else if rr.rules.all_wild_melds && plain.is_empty() {
        // Every card is wild: an all-wild meld whatever the limit says (TT-5.4).
        subs.append(&mut naturals);
        (None, 0)
    } else {
        return None;
    };
    naturals.sort();
    subs.sort();
    let mut out = naturals;
    out.extend_from_slice(&subs);
    let substitutes = ((1u64 << out.len()) - (1u64 << naturals_n)) as u32;
    Some(Meld {
        kind: MeldKind::Set,
        cards: out,
        substitutes,
        rank,
        suit: None,
    })
}

fn classify_run(cards: &[Card], rr: &ResolvedRules) -> Option<Meld> {
    let n = cards.len();
    if n > 13 {
        return None;
    }
    let plain: Vec<Card> = cards.iter().copied().filter(|&c| !rr.is_wild(c)).collect();
    let wild_rank_cards: Vec<Card> = cards
        .iter()
        .copied()
        .filter(|&c| rr.is_wild_rank(c))
        .collect();
    let high_ok = rr.rules.aces == AceMode::HighOrLow;
    let mut best: Option<Meld> = None;
    // Candidate suits: that of the plain cards, or (all wild) each wild-rank card's suit.
    let suits: Vec<u8> = match plain.first() {
        Some(c) => {
            if plain.iter().any(|p| p.suit_index() != c.suit_index()) {
                return None;
            }
            vec![c.suit_index()]
        }
        None => {
            let mut s: Vec<u8> = wild_rank_cards.iter().map(|c| c.suit_index()).collect();
            s.sort_unstable();
            s.dedup();
            s
        }
    };
    for suit in suits {
        // Naturals: the plain cards, plus at most one wild-rank card of this suit as itself.
        let mut choices: Vec<Option<Card>> = vec![None];
        if let Some(w) = wild_rank_cards.iter().find(|c| c.suit_index() == suit) {
            choices.push(Some(*w));
        }
        for extra in choices {
            let mut naturals = plain.clone();
            if let Some(w) = extra {
                naturals.push(w);
            }
            let mut ranks: Vec<u8> = naturals.iter().map(|c| c.rank()).collect();
            ranks.sort_unstable();
            if ranks.windows(2).any(|w| w[0] == w[1]) {
                continue;
            }
            let subs_n = n - naturals.len();
            if !subs_allowed(rr, subs_n, naturals.len()) {
                continue;
            }
            // An ace may sit low (1) or, with high-or-low, high (14).
            let ace_positions: &[u8] = if ranks.first() == Some(&1) && high_ok {
                &[1, 14]
            } else {
                &[1]
            };
            for &ace_at in ace_positions {
                let mut pos: Vec<u8> = ranks
                    .iter()
                    .map(|&r| if r == 1 { ace_at } else { r })
                    .collect();
                pos.sort_unstable();
                let n_i = n as i32;
                let (lo_nat, hi_nat) = match (pos.first(), pos.last()) {
                    (Some(&a), Some(&b)) => (i32::from(a), i32::from(b)),
                    _ => (i32::MAX, i32::MIN),
                };
                // Allowed positions: [1, 13] with a low ace, [2, 14] with a high
                // one; with no natural ace and high-or-low aces, [1, 14] (a run
                // of at most 13 cannot hold both ends, so it never wraps).
                let has_ace = ranks.first() == Some(&1);
                let (rmin, rmax) = match (has_ace, ace_at, high_ok) {
                    (true, 14, _) => (2, 14),
                    (true, _, _) | (false, _, false) => (1, 13),
                    (false, _, true) => (1, 14),
                };
                let lower = rmin.max(hi_nat.saturating_sub(n_i - 1));
                let upper = lo_nat.min(rmax + 1 - n_i);
                if lower > upper {
                    continue;
                }
                // Prefer a window inside 1..=13, as low as the naturals allow.
                let lo_i = upper.min(14 - n_i).max(lower);
                let lo = lo_i as u8;
                // Lay the cards out.
                let mut slots: Vec<Option<Card>> = vec![None; n];
                for c in &naturals {
                    let r = if c.rank() == 1 { ace_at } else { c.rank() };
                    slots[usize::from(r - lo)] = Some(*c);
                }
                let mut subs: Vec<Card> = cards.to_vec();
                for c in &naturals {
                    if let Some(i) = subs.iter().position(|x| x == c) {
                        subs.remove(i);
                    }
                }
                subs.sort();
                let mut it = subs.into_iter();
                let mut out = Vec::with_capacity(n);
                let mut mask = 0u32;
                for (i, s) in slots.into_iter().enumerate() {
                    match s {
                        Some(c) => out.push(c),
                        None => {
                            mask |= 1 << i;
                            out.push(it.next()?);
                        }
                    }
                }
                let m = Meld {
                    kind: MeldKind::Run,
                    cards: out,
                    substitutes: mask,
                    rank: Some(lo),
                    suit: Suit::from_index(suit),
                };
                if best
                    .as_ref()
                    .is_none_or(|b| m.substitute_count() < b.substitute_count())
                {
                    best = Some(m);
                }
            }
        }
    }
    best
}

/// Whether `card` may be added to `meld` (TK-8.1): the meld plus the card is
/// still a valid meld of the same kind.
pub fn can_hit(card: Card, meld: &Meld, rr: &ResolvedRules) -> bool {
    let mut cards = meld.cards.clone();
    cards.push(card);
    classify(&cards, rr, Some(meld.kind)).is_some()
}

/// Every legal hit of a hand onto table melds, as `(hand index, meld index)`
/// pairs in hand order; identical cards are reported once, at their first index.
pub fn legal_hits(hand: &[Card], table: &[Meld], rr: &ResolvedRules) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (i, &c) in hand.iter().enumerate() {
        if hand[..i].contains(&c) {
            continue;
        }
        for (j, m) in table.iter().enumerate() {
            if can_hit(c, m, rr) {
                out.push((i, j));
            }
        }
    }
    out
}

/// Every distinct meld that can be formed from the hand's cards (each a
/// sub-multiset of the hand that is a valid meld), sorted by size, then cards.
/// It takes the hands the solver takes, one card more than minimum
/// deadwood (a hand about to discard).
pub fn all_melds(hand: &[Card], rr: &ResolvedRules) -> Result<Vec<Meld>> {
    if hand.len() > MAX_HAND + 1 {
        return Err(CoreError::hand(format!(
            "{} cards: all_melds takes hands of up to {} cards",
            hand.len(),
            MAX_HAND + 1
        )));
    }
    let mut cards = hand.to_vec();
    cards.sort();
    let n = cards.len();
    // Identical cards: a subset may use copy i only if it uses every earlier copy.
    let mut prev_copy = [usize::MAX; 32];
    for i in 1..n {
        if cards[i] == cards[i - 1] {
            prev_copy[i] = i - 1;
        }
    }
    let wild: u32 = (0..n)
        .filter(|&i| rr.is_wild(cards[i]))
        .fold(0, |m, i| m | 1 << i);
    let mut out = Vec::new();
    let mut buf = Vec::with_capacity(n);
    for subset in 0u32..(1u32 << n) {
        if subset.count_ones() < 3 {
            continue;
        }
        let mut ok = true;
        let mut same_rank = true;
        let mut same_suit = true;
        let mut first: Option<Card> = None;
        buf.clear();
        for i in 0..n {
            if subset & (1 << i) == 0 {
                continue;
            }
            if prev_copy[i] != usize::MAX && subset & (1 << prev_copy[i]) == 0 {
                ok = false;
                break;
            }
            let c = cards[i];
            buf.push(c);
            if wild & (1 << i) == 0 {
                match first {
                    None => first = Some(c),
                    Some(f) => {
                        same_rank &= f.rank() == c.rank();
                        same_suit &= f.suit_index() == c.suit_index();
                    }
                }
            }
        }
        if !ok || !(same_rank || same_suit) {
            continue;
        }
        if let Some(m) = classify(&buf, rr, None) {
            out.push(m);
        }
    }
    out.sort_by(|a, b| {
        a.cards
            .len()
            .cmp(&b.cards.len())
            .then_with(|| sorted(&a.cards).cmp(&sorted(&b.cards)))
    });
    Ok(out)
}

/// The solvers' tie-break between two card sets given as masks over cards
/// in position order (rank, then suit): the set holding the lowest card that
/// only one of them holds comes first.
pub(crate) fn lower_bits_first(a: u64, b: u64) -> std::cmp::Ordering {
    let d = a ^ b;
    if d == 0 {
        std::cmp::Ordering::Equal
    } else if a & d & d.wrapping_neg() != 0 {
        std::cmp::Ordering::Less
    } else {
        std::cmp::Ordering::Greater
    }
}

/// Joins melds that the search split (runs of one suit that touch, sets of
/// one rank) wherever `join(a, b)` merges `b` into `a`; both solvers use it.
/// The melds are `items[..len]`; returns how many remain, in order.
pub(crate) fn join_touching<T>(
    items: &mut [T],
    mut len: usize,
    mut join: impl FnMut(&mut T, &T) -> bool,
) -> usize {
    let mut i = 0;
    while i < len {
        let mut merged = false;
        let mut j = i + 1;
        while j < len {
            let (left, right) = items.split_at_mut(j);
            if join(&mut left[i], &right[0]) {
                items[j..len].rotate_left(1);
                len -= 1;
                merged = true;
            } else {
                j += 1;
            }
        }
        if !merged {
            i += 1;
        }
    }
    len
}

fn sorted(cards: &[Card]) -> Vec<Card> {
    let mut v = cards.to_vec();
    v.sort();
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::parse_hand;

    fn rr(rules: MeldRules, wild: Option<Rank>) -> ResolvedRules {
        ResolvedRules::fixed(rules, wild)
    }

    fn cls(text: &str, r: &ResolvedRules) -> Option<Meld> {
        classify(&parse_hand(text).unwrap(), r, None)
    }

    #[test]
    fn natural_sets_and_runs() {
        let t = rr(MeldRules::tonk(), None);
        assert_eq!(cls("7H 7C 7S", &t).unwrap().kind, MeldKind::Set);
        assert_eq!(cls("7H 7C 7S 7D", &t).unwrap().kind, MeldKind::Set);
        let run = cls("5H 3H 4H", &t).unwrap();
        assert_eq!(run.kind, MeldKind::Run);
        assert_eq!(run.to_string(), "3H 4H 5H");
        assert!(cls("AS 2S 3S", &t).is_some());
        assert!(
            cls("QS KS AS", &t).is_none(),
            "TK-7.3: ace low only by default"
        );
        assert!(cls("7H 7C", &t).is_none());
        assert!(cls("3H 4H 6H", &t).is_none());
        assert!(cls("3H 4H 5S", &t).is_none());
    }

    #[test]
    fn aces_high_never_wrap() {
        let mut rules = MeldRules::tonk();
        rules.aces = AceMode::HighOrLow;
        let t = rr(rules, None);
        assert!(cls("QS KS AS", &t).is_some());
        assert!(cls("JS QS KS AS", &t).is_some());
        assert!(cls("AS 2S 3S", &t).is_some());
        assert!(cls("KS AS 2S", &t).is_none(), "TK-7.3: K-A-2 never");
    }

    #[test]
    fn wilds_follow_tt5() {
        // Round 1: threes wild, one substitute per meld (TT-5.3).
        let tt = rr(MeldRules::three_thirteen(), Some(3));
        // TT-5.2: wild-rank cards used as themselves form a natural book.
        let m = cls("3H 3S 3D", &tt).unwrap();
        assert_eq!(m.substitute_count(), 0);
        // One substitute fills a gap.
        let m = cls("5H 3C 7H", &tt).unwrap();
        assert_eq!(m.kind, MeldKind::Run);
        assert_eq!(m.to_string(), "5H 3C 7H");
        assert_eq!(m.represents(1), Some(Card::parse("6H").unwrap()));
        // Two substitutes exceed the default limit.
        assert!(cls("5H 3C 3D", &tt).is_none());
        // A wild-rank card of the run's suit may be itself: 2H 3H 4H is natural.
        assert_eq!(cls("2H 3H 4H", &tt).unwrap().substitute_count(), 0);
        // Two decks: duplicates in a book (TT-4.1, seed 003's example).
        assert!(cls("7H 7C 7C", &tt).is_some());
        assert!(cls("7C 8C 8C", &tt).is_none());
        let mut unlimited = MeldRules::three_thirteen();
        unlimited.max_wilds = UNLIMITED;
        let u = rr(unlimited, Some(3));
        assert!(cls("5H 3C 3D", &u).is_some());
        assert!(cls("3C 3D 3S 3H 3C", &u).is_some());
        let mut allw = MeldRules::three_thirteen();
        allw.all_wild_melds = true;
        allw.deck.jokers = 4;
        let a = rr(allw, Some(3));
        // Three jokers: only as an all-wild meld (TT-5.4).
        let m = cls("JK JK JK", &a).unwrap();
        assert_eq!(m.rank, None);
        assert!(cls("JK JK JK", &tt).is_none());
    }

    #[test]
    fn hits_keep_the_kind() {
        let t = rr(MeldRules::tonk(), None);
        let run = cls("5H 6H 7H", &t).unwrap();
        let book = cls("9C 9D 9S", &t).unwrap();
        let hand = parse_hand("4H 8H 9H 9H 2C").unwrap();
        let hits = legal_hits(&hand, &[run.clone(), book.clone()], &t);
        assert_eq!(hits, vec![(0, 0), (1, 0), (2, 1)]);
        assert!(!can_hit(Card::parse("7H").unwrap(), &run, &t));
    }

    #[test]
    fn all_melds_lists_every_sub_meld() {
        let t = rr(MeldRules::gin(), None);
        let hand = parse_hand("3S 4S 5S 6S 6H 6D KC").unwrap();
        let melds: Vec<String> = all_melds(&hand, &t)
            .unwrap()
            .iter()
            .map(|m| m.to_string())
            .collect();
        // Runs 3-4-5, 4-5-6, 3-4-5-6 and the set of sixes (3 ways of 3, 1 of 4 - only 3 sixes here).
        assert_eq!(
            melds,
            vec!["6D 6H 6S", "3S 4S 5S", "4S 5S 6S", "3S 4S 5S 6S"]
        );
    }
}
