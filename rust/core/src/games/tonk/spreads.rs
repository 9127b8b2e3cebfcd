//! Books and runs: the catalogue of layable spreads, spreads on the table
//! and which cards may hit them (TK-7, TK-8).

use super::*;

/// A spread that can be laid from a hand: one entry of the fixed catalogue
/// behind the `LaySpread` actions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpreadShape {
    pub mask: u64,
    pub kind: MeldKind,
    /// Books: the rank. Runs: the first position (1..=12).
    pub lo: u8,
    /// Runs: the last position (14 = high ace). Books: the rank.
    pub hi: u8,
    pub suit: u8,
}

impl SpreadShape {
    /// Its cards in order (runs low to high).
    pub fn cards(&self) -> Vec<Card> {
        self.laid(0, 0).cards_vec()
    }

    /// This shape as a spread just laid by `owner`, with id `id`.
    pub fn laid(&self, id: u8, owner: u8) -> Spread {
        Spread {
            id,
            owner,
            kind: self.kind,
            cards: self.mask,
            lo: self.lo,
            hi: self.hi,
            suit: self.suit,
            hits: 0,
            cleared: false,
        }
    }
}

/// Books (4 triples and the quad per rank, rank order), then runs of 3..=13
/// cards per suit, ordered by suit, first position, length. Runs ending with
/// a high ace are only legal with `ace_in_runs = low_or_high` (TK-7.3).
pub fn spread_catalogue() -> &'static [SpreadShape] {
    static CAT: OnceLock<Vec<SpreadShape>> = OnceLock::new();
    CAT.get_or_init(|| {
        let mut v = Vec::with_capacity(373);
        for rank in 1..=13u8 {
            for subset in [0b0111u8, 0b1011, 0b1101, 0b1110, 0b1111] {
                let mut mask = 0u64;
                for suit in 0..4u8 {
                    if subset & (1 << suit) != 0 {
                        mask |= 1 << Card::of(rank, suit).code();
                    }
                }
                v.push(SpreadShape {
                    mask,
                    kind: MeldKind::Set,
                    lo: rank,
                    hi: rank,
                    suit: 0,
                });
            }
        }
        for suit in 0..4u8 {
            for lo in 1..=12u8 {
                for hi in (lo + 2)..=14u8 {
                    if hi - lo + 1 > 13 {
                        continue;
                    }
                    let mut mask = 0u64;
                    for r in lo..=hi {
                        mask |= 1 << Card::at_run_position(r, suit).code();
                    }
                    v.push(SpreadShape {
                        mask,
                        kind: MeldKind::Run,
                        lo,
                        hi,
                        suit,
                    });
                }
            }
        }
        v
    })
}

/// Catalogue indexes grouped by their lowest card code: `list[ranges[c]]`.
pub(super) struct ByLowCard {
    pub(super) list: Vec<u16>,
    pub(super) ranges: [(u16, u16); 52],
}

pub(super) fn spreads_by_low_card() -> &'static ByLowCard {
    static IDX: OnceLock<ByLowCard> = OnceLock::new();
    IDX.get_or_init(|| {
        let cat = spread_catalogue();
        let mut list = Vec::with_capacity(cat.len());
        let mut ranges = [(0u16, 0u16); 52];
        for (low, range) in ranges.iter_mut().enumerate() {
            let start = list.len() as u16;
            let mut ids: Vec<u16> = (0..cat.len() as u16)
                .filter(|&i| cat[usize::from(i)].mask.trailing_zeros() as usize == low)
                .collect();
            ids.sort_by_key(|&i| {
                let s = cat[usize::from(i)];
                (s.kind == MeldKind::Run, s.mask.count_ones(), i)
            });
            list.extend(ids);
            *range = (start, list.len() as u16);
        }
        ByLowCard { list, ranges }
    })
}

/// Catalogue indexes of every spread that can be laid from `hand`.
pub fn spreads_in(hand: u64, aces_high: bool, mut f: impl FnMut(u16)) {
    let ByLowCard { list, ranges } = spreads_by_low_card();
    let cat = spread_catalogue();
    let mut m = hand;
    while m != 0 {
        let low = m.trailing_zeros() as usize;
        m &= m - 1;
        let (a, b) = ranges[low];
        for &i in &list[usize::from(a)..usize::from(b)] {
            let s = cat[usize::from(i)];
            if s.mask & !hand == 0 && (s.hi != 14 || aces_high) {
                f(i);
            }
        }
    }
}

/// A spread on the table (TK-7.4, TK-8.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spread {
    /// Stable id within the hand (order of laying), so a hit names its target.
    pub id: u8,
    pub owner: u8,
    pub kind: MeldKind,
    pub cards: u64,
    /// Books: the rank. Runs: first position.
    pub lo: u8,
    /// Runs: last position (14 = high ace).
    pub hi: u8,
    pub suit: u8,
    /// Cards added by hits.
    pub hits: u8,
    /// Cleared to the bottom of the discard pile (TK-9.3).
    pub cleared: bool,
}

impl Spread {
    pub fn cards_vec(&self) -> Vec<Card> {
        match self.kind {
            MeldKind::Run => (self.lo..=self.hi)
                .map(|r| Card::at_run_position(r, self.suit))
                .collect(),
            MeldKind::Set => mask_cards(self.cards),
        }
    }

    /// Whether `card` may hit this spread (TK-8.1): the fourth card of a
    /// book, or the next rank at either end of a run (never wrapping).
    pub fn accepts(&self, card: Card, cfg: &TonkConfig) -> bool {
        if self.cleared || card.is_joker() {
            return false;
        }
        match self.kind {
            MeldKind::Set => {
                !cfg.only_runs_hittable
                    && card.rank() == self.lo
                    && self.cards & (1 << card.code()) == 0
            }
            MeldKind::Run => {
                if card.suit_index() != self.suit {
                    return false;
                }
                let r = card.rank();
                let below = self.lo >= 2 && r == self.lo - 1;
                let above = self.hi < 13 && r == self.hi + 1;
                let high_ace = cfg.aces_high && r == 1 && self.hi == 13 && self.lo > 1;
                below || above || high_ace
            }
        }
    }

    /// Adds a hit card: to a book, or at the end of a run it extends.
    pub(crate) fn add(&mut self, card: Card) {
        self.cards |= 1 << card.code();
        self.hits += 1;
        if self.kind == MeldKind::Run {
            let r = card.rank();
            if self.lo >= 2 && r == self.lo - 1 {
                self.lo -= 1;
            } else if r == 1 {
                self.hi = 14;
            } else {
                self.hi = r;
            }
        }
    }
}

pub(crate) fn mask_cards(mask: u64) -> Vec<Card> {
    let mut v = Vec::with_capacity(mask.count_ones() as usize);
    let mut m = mask;
    while m != 0 {
        let code = m.trailing_zeros() as u8;
        v.push(Card::of_code(code));
        m &= m - 1;
    }
    v
}

pub(super) fn card_bit(card: Card) -> u64 {
    1u64 << card.code()
}
