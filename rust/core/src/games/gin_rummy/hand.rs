//! Deadwood on hand masks, fast, for the bots' searches: the same values as
//! the meld solver (`deadwood`, `best_discard_deadwood`; a test checks them
//! on random hands), without building cards or a solution. A search plays
//! thousands of hands to the end per decision, and each turn of each of
//! them asks these questions.
//!
//! The search is a branch over the lowest card left: it is either
//! unmelded, or in one of the melds of GR-2.3 whose lowest card it is (a
//! meld of the hand holding it has no lower card left). Cards that are in
//! no meld of the hand are set aside first, by bit arithmetic.

use std::sync::OnceLock;

use super::{card_value, ids, mask_value, MELD_MASKS};

/// Bits of the cards of rank `r` (ace 0) in every suit.
const fn rank_bits(r: u32) -> u64 {
    (1 << r) | (1 << (r + 13)) | (1 << (r + 26)) | (1 << (r + 39))
}

const ACES: u64 = rank_bits(0);
const TWOS: u64 = rank_bits(1);
const QUEENS: u64 = rank_bits(11);
const KINGS: u64 = rank_bits(12);
const SUIT: u64 = 0x1FFF;

/// The melds of GR-2.3 by their lowest card: (cards, value, meld id).
fn melds_by_low() -> &'static [Vec<(u64, u32, u8)>] {
    static TABLE: OnceLock<Vec<Vec<(u64, u32, u8)>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = vec![Vec::new(); 52];
        for (id, &m) in MELD_MASKS.iter().enumerate() {
            t[m.trailing_zeros() as usize].push((m, mask_value(m), id as u8));
        }
        t
    })
}

/// The cards of `hand` that are in some meld of `hand`: a run (the card and
/// two neighbours in its suit) or a set (three of its rank).
pub fn meldable(hand: u64) -> u64 {
    let below1 = (hand << 1) & !ACES;
    let below2 = (hand << 2) & !(ACES | TWOS);
    let above1 = (hand >> 1) & !KINGS;
    let above2 = (hand >> 2) & !(KINGS | QUEENS);
    let runs = (below1 & below2) | (below1 & above1) | (above1 & above2);
    let (a, b, c, d) = (
        hand & SUIT,
        hand >> 13 & SUIT,
        hand >> 26 & SUIT,
        hand >> 39 & SUIT,
    );
    let three = (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d);
    let sets = three | three << 13 | three << 26 | three << 39;
    hand & (runs | sets)
}

/// The largest value `hand` can put in melds.
pub fn melded_value(hand: u64) -> u32 {
    let hand = meldable(hand);
    if hand == 0 {
        return 0;
    }
    let low = hand.trailing_zeros() as usize;
    let mut best = melded_value(hand & (hand - 1));
    for &(m, v, _) in &melds_by_low()[low] {
        if m & hand == m {
            best = best.max(v + melded_value(hand & !m));
        }
    }
    best
}

/// The least deadwood of a hand (GR-1.2): its value less the most it can meld.
pub fn deadwood(hand: u64) -> u32 {
    mask_value(hand) - melded_value(hand)
}

/// The least deadwood after the best discard of `hand` (GR-5.1), with that
/// discard: of equal deadwoods, the highest card, then the lowest id. A card
/// in no meld leaves the rest's melds alone, so of those only the highest
/// needs a look.
pub fn best_discard(hand: u64) -> (u8, u32) {
    let total = mask_value(hand);
    let melds = meldable(hand);
    let mut best: Option<(u32, u32, u8)> = None;
    let mut consider = |card: u8, dw: u32| {
        let key = (dw, u32::MAX - card_value(card), card);
        if best.is_none_or(|b| key < b) {
            best = Some(key);
        }
    };
    let loose = hand & !melds;
    if loose != 0 {
        let all = melded_value(hand);
        let top = ids(loose)
            .max_by_key(|&c| (card_value(c), std::cmp::Reverse(c)))
            .unwrap_or(0);
        consider(top, total - all - card_value(top));
    }
    for c in ids(melds) {
        let rest = hand & !(1u64 << c);
        consider(c, total - card_value(c) - melded_value(rest));
    }
    best.map_or((0, 0), |(dw, _, c)| (c, dw))
}

/// [`best_discard`]'s deadwood alone.
pub fn best_discard_deadwood(hand: u64) -> u32 {
    if hand == 0 {
        return 0;
    }
    best_discard(hand).1
}

/// The meld ids of one arrangement of `hand` with the least deadwood.
pub fn best_melds(hand: u64) -> Vec<u8> {
    let mut out = Vec::new();
    let mut left = meldable(hand);
    let mut target = melded_value(left);
    while target > 0 && left != 0 {
        let low = left.trailing_zeros() as usize;
        let rest = left & (left - 1);
        let found = melds_by_low()[low]
            .iter()
            .find(|&&(m, v, _)| m & left == m && v + melded_value(left & !m) == target);
        match found {
            Some(&(m, v, id)) => {
                out.push(id);
                left &= !m;
                target -= v;
            }
            None => left = rest,
        }
    }
    out
}

/// Every arrangement of `hand` (its meld ids) that leaves at most
/// `max_deadwood` unmelded and to which no meld of the hand's other cards
/// could be added, at most `limit` of them.
pub fn arrangements(hand: u64, max_deadwood: u32, limit: usize) -> Vec<Vec<u8>> {
    fn walk(
        left: u64,
        unmelded: u32,
        max: u32,
        chosen: &mut Vec<u8>,
        out: &mut Vec<Vec<u8>>,
        limit: usize,
    ) {
        if out.len() >= limit {
            return;
        }
        let melds = meldable(left);
        let loose = mask_value(left & !melds);
        if unmelded + loose + (mask_value(melds) - melded_value(melds)) > max {
            return;
        }
        if melds == 0 {
            out.push(chosen.clone());
            return;
        }
        let low = melds.trailing_zeros();
        let card = 1u64 << low;
        // The lowest meldable card in each meld it can start, or unmelded.
        for &(m, _, id) in &melds_by_low()[low as usize] {
            if m & melds == m {
                chosen.push(id);
                walk(left & !m, unmelded, max, chosen, out, limit);
                chosen.pop();
            }
        }
        walk(
            left & !card,
            unmelded + mask_value(card),
            max,
            chosen,
            out,
            limit,
        );
    }
    let mut out = Vec::new();
    walk(hand, 0, max_deadwood, &mut Vec::new(), &mut out, limit);
    // Keep the maximal ones: no meld of the leftover cards.
    out.retain(|a| {
        let used = a
            .iter()
            .fold(0u64, |u, &id| u | MELD_MASKS[usize::from(id)]);
        meldable(hand & !used) == 0
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::GameRng;

    fn random_hand(rng: &mut GameRng, n: usize) -> u64 {
        let mut ids: Vec<u8> = (0..52).collect();
        rng.shuffle(&mut ids);
        ids[..n].iter().fold(0, |m, &c| m | 1 << c)
    }

    /// Dense hands, most cards of few ranks and suits, so that melds abound.
    fn dense_hand(rng: &mut GameRng, n: usize) -> u64 {
        let mut ids: Vec<u8> = (0..52).filter(|c| c % 13 < 7 && c / 13 < 3).collect();
        rng.shuffle(&mut ids);
        ids[..n].iter().fold(0, |m, &c| m | 1 << c)
    }

    #[test]
    fn the_same_deadwood_as_the_solver() {
        let mut rng = GameRng::new(36);
        for i in 0..3000 {
            let n = 10 + i % 2;
            let hand = if i % 3 == 0 {
                random_hand(&mut rng, n)
            } else {
                dense_hand(&mut rng, n)
            };
            assert_eq!(deadwood(hand), super::super::deadwood(hand), "{hand:#x}");
            if n == 11 {
                let (card, dw) = best_discard(hand);
                assert_eq!(dw, super::super::best_discard_deadwood(hand), "{hand:#x}");
                assert_eq!(deadwood(hand & !(1 << card)), dw, "{hand:#x}");
            }
            let melds = best_melds(hand);
            let used = melds
                .iter()
                .fold(0u64, |u, &id| u | MELD_MASKS[usize::from(id)]);
            assert_eq!(mask_value(hand & !used), deadwood(hand), "{hand:#x}");
        }
    }

    #[test]
    fn arrangements_are_disjoint_maximal_and_within_the_limit() {
        // 3S4S5S6S7S 8S and 8C 8D: the run can end at 7S or give 6S7S8S up.
        let s = |r: u8| 1u64 << r;
        let hand = s(2) | s(3) | s(4) | s(5) | s(6) | s(7) | 1 << (13 + 7) | 1 << (26 + 7);
        let all = arrangements(hand, 10, 64);
        assert!(all.len() >= 2, "{all:?}");
        for a in &all {
            let mut used = 0u64;
            for &id in a {
                let m = MELD_MASKS[usize::from(id)];
                assert_eq!(used & m, 0);
                used |= m;
            }
            assert!(mask_value(hand & !used) <= 10);
        }
    }
}
