//! The solver's fast path for hands without wild cards: no jokers, no card of
//! the wild rank and no duplicate card (so any deck count).
//!
//! The hand is one `u64` with bit `(rank - 1) * 4 + suit`, so the lowest set
//! bit is the lowest card in the solver's order (rank, then suit). Every meld
//! of one deck is precomputed once, grouped by its lowest card and sorted in
//! the solver's documented candidate order; the search is the same branch and
//! bound as the general path, so both return the same arrangement (a test
//! checks this on random hands).

use std::sync::OnceLock;

use super::rules::{AceMode, FaceValues, ResolvedRules};
use super::{join_touching, lower_bits_first, MeldKind, Solution};
use crate::card::Card;

/// Path entries at or above this mark a discard (`DISCARD_BASE + bit`).
const DISCARD_BASE: u16 = 0x8000;

#[derive(Clone, Copy)]
struct FastMeld {
    mask: u64,
    kind: MeldKind,
    /// Runs: rank of the first position (a high ace is 14); sets: the rank.
    lo: u8,
    suit: u8,
}

struct Table {
    melds: Vec<FastMeld>,
    /// Melds whose lowest card is bit `b`: `melds[start[b]..start[b + 1]]`.
    start: [u16; 53],
}

#[cfg(test)]
fn bit_of(card: Card) -> u32 {
    u32::from(card.rank() - 1) * 4 + u32::from(card.suit_index())
}

fn card_of(bit: u32) -> Card {
    Card::of((bit / 4) as u8 + 1, (bit % 4) as u8)
}

fn build(aces: AceMode) -> Table {
    let mut by_low: Vec<Vec<FastMeld>> = vec![Vec::new(); 52];
    let b = |rank: u8, suit: u8| 1u64 << ((u32::from(rank) - 1) * 4 + u32::from(suit));
    // Sets of 3 or 4 (a set of more naturals is never needed, see the solver notes).
    for rank in 1..=13u8 {
        for subset in 0u8..16 {
            let n = subset.count_ones();
            if n < 3 {
                continue;
            }
            let mut mask = 0;
            for suit in 0..4u8 {
                if subset & (1 << suit) != 0 {
                    mask |= b(rank, suit);
                }
            }
            by_low[mask.trailing_zeros() as usize].push(FastMeld {
                mask,
                kind: MeldKind::Set,
                lo: rank,
                suit: 0,
            });
        }
    }
    // Runs of 3 to 5 cards (longer ones split into these).
    for suit in 0..4u8 {
        for lo in 1..=12u8 {
            for len in 3..=5u8 {
                let hi = lo + len - 1;
                if hi > 14 || (hi == 14 && aces == AceMode::Low) || (hi == 14 && lo == 1) {
                    continue;
                }
                let mut mask = 0;
                for r in lo..=hi {
                    mask |= b(if r == 14 { 1 } else { r }, suit);
                }
                by_low[mask.trailing_zeros() as usize].push(FastMeld {
                    mask,
                    kind: MeldKind::Run,
                    lo,
                    suit,
                });
            }
        }
    }
    let mut melds = Vec::new();
    let mut start = [0u16; 53];
    for (i, list) in by_low.iter_mut().enumerate() {
        // The solver's order: runs before sets, then more cards, then lower cards.
        list.sort_by(|x, y| {
            y.kind
                .cmp(&x.kind)
                .then_with(|| y.mask.count_ones().cmp(&x.mask.count_ones()))
                .then_with(|| lower_bits_first(x.mask, y.mask))
        });
        start[i] = melds.len() as u16;
        melds.extend_from_slice(list);
    }
    start[52] = melds.len() as u16;
    Table { melds, start }
}

fn table(aces: AceMode) -> &'static Table {
    static LOW: OnceLock<Table> = OnceLock::new();
    static HIGH: OnceLock<Table> = OnceLock::new();
    match aces {
        AceMode::Low => LOW.get_or_init(|| build(AceMode::Low)),
        AceMode::HighOrLow => HIGH.get_or_init(|| build(AceMode::HighOrLow)),
    }
}

/// Bit of each card code in the fast path's layout; 255 for the joker.
const BIT_OF_CODE: [u8; 53] = {
    let mut t = [255u8; 53];
    let mut code = 0;
    while code < 52 {
        t[code] = ((code % 13) * 4 + code / 13) as u8;
        code += 1;
    }
    t
};

/// The hand as a bitset when the fast path applies: no jokers, no wild-rank
/// card, no duplicates.
pub(crate) fn hand_mask(hand: &[Card], rr: &ResolvedRules) -> Option<u64> {
    let mut mask = 0u64;
    let mut clash = false;
    for &c in hand {
        let b = BIT_OF_CODE[usize::from(c.code())];
        clash |= b == 255;
        let bit = 1u64 << (b & 63);
        clash |= mask & bit != 0;
        mask |= bit;
    }
    let wild_bits = match rr.wild {
        Some(w) => 0xFu64 << ((u32::from(w) - 1) * 4),
        None => 0,
    };
    if clash || mask & wild_bits != 0 {
        None
    } else {
        Some(mask)
    }
}

/// Cards that belong to at least one meld inside `m` (sets of 3+ of a rank,
/// runs of 3+ in a suit); the others can only be unmatched.
pub(crate) fn meldable(m: u64, aces: AceMode) -> u64 {
    const LOW_BITS: u64 = 0x5555_5555_5555_5555;
    const PAIRS: u64 = 0x3333_3333_3333_3333;
    const ONES: u64 = 0x1111_1111_1111_1111;
    const FOURS: u64 = 0x4444_4444_4444_4444;
    const DECK: u64 = (1 << 52) - 1;
    // Cards per rank: one nibble per rank.
    let c = m - ((m >> 1) & LOW_BITS);
    let c = (c & PAIRS) + ((c >> 2) & PAIRS);
    // A nibble's bit 0 is set when its rank has 3 or 4 cards (count + 1 has bit 2 set).
    let three = ((c + ONES) & FOURS) >> 2;
    let sets = m & (three * 0xF);
    // Runs: three cards of a suit at consecutive ranks; a high ace sits above the king.
    let ext = match aces {
        AceMode::Low => m,
        AceMode::HighOrLow => m | ((m & 0xF) << 52),
    };
    let starts = ext & (ext >> 4) & (ext >> 8);
    let runs = starts | (starts << 4) | (starts << 8);
    sets | (runs & DECK) | ((runs >> 52) & 0xF)
}

/// What an unmatched card costs (no wild cards on this path).
fn value_of(bit: u32, rr: &ResolvedRules) -> u32 {
    let rank = bit / 4 + 1;
    match rank {
        1 => u32::from(rr.rules.ace_value),
        11..=13 if rr.rules.face_values == FaceValues::Ten => 10,
        r => r,
    }
}

struct Search<'a> {
    table: &'a Table,
    rr: &'a ResolvedRules,
    discard_mode: bool,
    best: u32,
    /// Melds chosen (table indexes) and the discard (`DISCARD_BASE + bit`);
    /// unmatched cards are what is left.
    path: [u16; 18],
    best_path: [u16; 18],
    best_len: usize,
}

impl Search<'_> {
    fn dfs(&mut self, rem: u64, acc: u32, discarded: bool, depth: usize) {
        if acc >= self.best {
            return;
        }
        // Cards in no meld of what is left can only stay unmatched (unless a
        // discard is still to be chosen): settle them at once. They would
        // have no other option in the search, so its order is unchanged.
        let (rem, acc) = if !self.discard_mode || discarded {
            let m = meldable(rem, self.rr.rules.aces);
            if m == rem {
                (rem, acc)
            } else {
                (rem & m, acc + mask_value(rem & !m, self.rr))
            }
        } else {
            (rem, acc)
        };
        if acc >= self.best {
            return;
        }
        if rem == 0 {
            if self.discard_mode && !discarded {
                return;
            }
            self.best = acc;
            self.best_len = depth;
            self.best_path[..depth].copy_from_slice(&self.path[..depth]);
            return;
        }
        let x = rem.trailing_zeros() as usize;
        let bit = 1u64 << x;
        let (from, to) = (
            usize::from(self.table.start[x]),
            usize::from(self.table.start[x + 1]),
        );
        for i in from..to {
            let m = self.table.melds[i].mask;
            if m & !rem == 0 {
                self.path[depth] = i as u16;
                self.dfs(rem & !m, acc, discarded, depth + 1);
            }
        }
        if self.discard_mode && !discarded {
            self.path[depth] = DISCARD_BASE + x as u16;
            self.dfs(rem & !bit, acc, true, depth + 1);
        }
        self.dfs(
            rem & !bit,
            acc + value_of(x as u32, self.rr),
            discarded,
            depth,
        );
    }
}

fn mask_value(mut m: u64, rr: &ResolvedRules) -> u32 {
    let mut v = 0;
    while m != 0 {
        v += value_of(m.trailing_zeros(), rr);
        m &= m - 1;
    }
    v
}

/// Minimum deadwood only: the same search without recording the path.
struct Lean<'a> {
    table: &'a Table,
    rr: &'a ResolvedRules,
    best: u32,
}

impl Lean<'_> {
    fn dfs(&mut self, rem: u64, acc: u32) {
        let m = meldable(rem, self.rr.rules.aces);
        let acc = if m == rem {
            acc
        } else {
            acc + mask_value(rem & !m, self.rr)
        };
        let rem = rem & m;
        if acc >= self.best {
            return;
        }
        if rem == 0 {
            self.best = acc;
            return;
        }
        let x = rem.trailing_zeros() as usize;
        let (from, to) = (
            usize::from(self.table.start[x]),
            usize::from(self.table.start[x + 1]),
        );
        for i in from..to {
            let m = self.table.melds[i].mask;
            if m & !rem == 0 {
                self.dfs(rem & !m, acc);
            }
        }
        self.dfs(rem & !(1u64 << x), acc + value_of(x as u32, self.rr));
    }
}

/// Minimum deadwood of a wild-free hand (no discard), without an arrangement.
pub(crate) fn deadwood(mask: u64, rr: &ResolvedRules) -> u32 {
    let m = meldable(mask, rr.rules.aces);
    if m == 0 {
        // Most small hands: nothing melds, nothing to search.
        return mask_value(mask, rr);
    }
    let mut s = Lean {
        table: table(rr.rules.aces),
        rr,
        best: u32::MAX,
    };
    s.dfs(mask, 0);
    s.best
}

/// Solves a wild-free hand given as a bitset; `arrange` builds the arrangement.
pub(crate) fn solve(mask: u64, rr: &ResolvedRules, discard: bool, arrange: bool) -> Solution {
    let table = table(rr.rules.aces);
    let mut s = Search {
        table,
        rr,
        discard_mode: discard,
        best: u32::MAX,
        path: [0; 18],
        best_path: [0; 18],
        best_len: 0,
    };
    s.dfs(mask, 0, false, 0);
    let mut sol = Solution::empty();
    sol.deadwood = s.best;
    if !arrange {
        return sol;
    }
    let mut melds: [(u64, FastMeld); 8] = [(0, table.melds[0]); 8];
    let mut n_melds = 0usize;
    let mut dead = mask;
    for &step in &s.best_path[..s.best_len] {
        if step >= DISCARD_BASE {
            let x = u32::from(step - DISCARD_BASE);
            sol.set_discard(card_of(x));
            dead &= !(1 << x);
        } else {
            let fm = table.melds[usize::from(step)];
            dead &= !fm.mask;
            if n_melds < melds.len() {
                melds[n_melds] = (fm.mask, fm);
                n_melds += 1;
            }
        }
    }
    // Join runs of one suit that the search split (the general path does the same).
    let n_melds = join_touching(&mut melds, n_melds, |(am, a), (bm, b)| {
        let (alen, blen) = (am.count_ones() as u8, bm.count_ones() as u8);
        let touching = a.kind == MeldKind::Run
            && b.kind == MeldKind::Run
            && a.suit == b.suit
            && (a.lo + alen == b.lo || b.lo + blen == a.lo)
            && alen + blen <= 13;
        if touching {
            *am |= *bm;
            a.lo = a.lo.min(b.lo);
        }
        touching
    });
    let mut buf = [(Card::JOKER, false); 13];
    for &(mask, fm) in &melds[..n_melds] {
        let n = mask.count_ones() as usize;
        match fm.kind {
            MeldKind::Run => {
                for (k, slot) in buf.iter_mut().take(n).enumerate() {
                    let r = fm.lo + k as u8;
                    *slot = (Card::at_run_position(r, fm.suit), false);
                }
            }
            MeldKind::Set => {
                let mut mm = mask;
                for slot in buf.iter_mut().take(n) {
                    *slot = (card_of(mm.trailing_zeros()), false);
                    mm &= mm - 1;
                }
            }
        }
        sol.push_meld(fm.kind, fm.lo, fm.suit, &buf[..n]);
    }
    // Unmatched cards in card order (suit, then rank): walk the bits suit by suit.
    for suit in 0..4u32 {
        let mut d = dead & (0x1_1111_1111_1111u64 << suit);
        while d != 0 {
            sol.push_unmatched(card_of(d.trailing_zeros()));
            d &= d - 1;
        }
    }
    sol
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_round_trip() {
        for code in 0..52u8 {
            let c = Card::from_code(code).unwrap();
            assert_eq!(card_of(bit_of(c)), c);
        }
    }

    #[test]
    fn meldable_marks_exactly_the_cards_of_some_meld() {
        let mut rng = crate::rng::GameRng::new(3);
        for aces in [AceMode::Low, AceMode::HighOrLow] {
            let t = table(aces);
            for _ in 0..20_000 {
                let k = 3 + rng.below(12) as usize;
                let mut d: Vec<u32> = (0..52).collect();
                rng.shuffle(&mut d);
                let m = d[..k].iter().fold(0u64, |m, &b| m | 1 << b);
                let expect = t
                    .melds
                    .iter()
                    .filter(|f| f.mask & !m == 0)
                    .fold(0, |a, f| a | f.mask);
                assert_eq!(meldable(m, aces), expect, "{m:#x} {aces:?}");
            }
        }
    }

    #[test]
    fn tables_have_every_short_meld() {
        // 13 ranks x 5 sets; 4 suits x (11 + 10 + 9) runs, plus 3 high-ace runs per suit.
        assert_eq!(table(AceMode::Low).melds.len(), 65 + 120);
        assert_eq!(table(AceMode::HighOrLow).melds.len(), 65 + 132);
    }
}
