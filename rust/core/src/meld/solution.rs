//! The result of one solve: melds, unmatched cards and the discard, held
//! without heap allocation so that a batch of millions of hands allocates
//! nothing per hand.

use super::solver::{MAX_MELDS, MAX_POS};
use super::{Meld, MeldKind};
use crate::card::{Card, Suit};
use crate::error::{CoreError, Result};

/// The result of one solve, stored without heap allocation.
///
/// `cards` holds the melds' cards in meld order, then the unmatched cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    pub deadwood: u32,
    n_cards: u8,
    n_melds: u8,
    cards: [Card; MAX_POS + 1],
    /// End index (exclusive) of each meld in `cards`.
    meld_end: [u8; MAX_MELDS],
    meld_kind: [MeldKind; MAX_MELDS],
    /// Runs: first position rank; sets: rank (0 for an all-wild meld).
    meld_rank: [u8; MAX_MELDS],
    meld_suit: [u8; MAX_MELDS],
    /// Bit `i`: `cards[i]` is a substitute.
    subs: u32,
    discard: Option<Card>,
}

impl Solution {
    pub(crate) fn empty() -> Solution {
        Solution {
            deadwood: 0,
            n_cards: 0,
            n_melds: 0,
            cards: [Card::JOKER; MAX_POS + 1],
            meld_end: [0; MAX_MELDS],
            meld_kind: [MeldKind::Set; MAX_MELDS],
            meld_rank: [0; MAX_MELDS],
            meld_suit: [0; MAX_MELDS],
            subs: 0,
            discard: None,
        }
    }

    /// Appends a meld (before any unmatched card).
    pub(crate) fn push_meld(&mut self, kind: MeldKind, rank: u8, suit: u8, cards: &[(Card, bool)]) {
        let i = usize::from(self.n_melds);
        if i >= MAX_MELDS {
            return;
        }
        let mut k = usize::from(self.n_cards);
        for &(card, is_sub) in cards {
            if k >= self.cards.len() {
                break;
            }
            self.cards[k] = card;
            if is_sub {
                self.subs |= 1 << k;
            }
            k += 1;
        }
        self.n_cards = k as u8;
        self.meld_end[i] = k as u8;
        self.meld_kind[i] = kind;
        self.meld_rank[i] = rank;
        self.meld_suit[i] = suit;
        self.n_melds += 1;
    }

    /// Appends an unmatched card (after the melds).
    pub(crate) fn push_unmatched(&mut self, card: Card) {
        let k = usize::from(self.n_cards);
        if k < self.cards.len() {
            self.cards[k] = card;
            self.n_cards += 1;
        }
    }

    pub(crate) fn set_discard(&mut self, card: Card) {
        self.discard = Some(card);
    }

    /// A solution from its parts (for callers that rebuild a result, e.g. unpickling).
    pub fn from_parts(
        deadwood: u32,
        melds: &[Meld],
        unmatched: &[Card],
        discard: Option<Card>,
    ) -> Result<Solution> {
        let cards: usize = melds.iter().map(Meld::len).sum::<usize>() + unmatched.len();
        if melds.len() > MAX_MELDS || cards > MAX_POS + 1 {
            return Err(CoreError::hand(format!(
                "a result holds at most {MAX_MELDS} melds and {} cards",
                MAX_POS + 1
            )));
        }
        let mut sol = Solution::empty();
        sol.deadwood = deadwood;
        for m in melds {
            let cards: Vec<(Card, bool)> = m
                .cards
                .iter()
                .enumerate()
                .map(|(i, &c)| (c, m.is_substitute(i)))
                .collect();
            sol.push_meld(
                m.kind,
                m.rank.unwrap_or(0),
                m.suit.map_or(0, Suit::index),
                &cards,
            );
        }
        for &c in unmatched {
            sol.push_unmatched(c);
        }
        sol.discard = discard;
        Ok(sol)
    }

    pub fn meld_count(&self) -> usize {
        usize::from(self.n_melds)
    }

    fn meld_start(&self, i: usize) -> usize {
        if i == 0 {
            0
        } else {
            usize::from(self.meld_end[i - 1])
        }
    }

    /// Cards of meld `i`, in meld order.
    pub fn meld_cards(&self, i: usize) -> &[Card] {
        &self.cards[self.meld_start(i)..usize::from(self.meld_end[i])]
    }

    pub fn meld(&self, i: usize) -> Meld {
        let start = self.meld_start(i);
        let end = usize::from(self.meld_end[i]);
        let subs = (self.subs >> start) & ((1u32 << (end - start)) - 1);
        let kind = self.meld_kind[i];
        Meld {
            kind,
            cards: self.cards[start..end].to_vec(),
            substitutes: subs,
            rank: if self.meld_rank[i] == 0 {
                None
            } else {
                Some(self.meld_rank[i])
            },
            suit: if kind == MeldKind::Run {
                Suit::from_index(self.meld_suit[i])
            } else {
                None
            },
        }
    }

    pub fn melds(&self) -> Vec<Meld> {
        (0..self.meld_count()).map(|i| self.meld(i)).collect()
    }

    /// Cards left unmatched (their values make the deadwood), in card order.
    pub fn unmatched(&self) -> &[Card] {
        &self.cards[self.meld_start(self.meld_count())..usize::from(self.n_cards)]
    }

    /// The discarded card in best-discard mode.
    pub fn discard(&self) -> Option<Card> {
        self.discard
    }
}
