//! Exact minimum deadwood (TT-7.1, TT-12.1) with wild cards, jokers and
//! several decks, and the best discard of a hand holding one card too many.
//!
//! # Method
//!
//! Branch and bound on the lowest undecided card. Cards other than jokers are
//! *positions*, sorted by rank (A..K), then suit (♣ ♦ ♥ ♠). For the lowest
//! undecided position the search tries every meld whose lowest natural card it
//! is, then (best-discard mode) discarding it, then leaving it unmatched; a
//! wild-rank card that is not used as itself goes to the *pool* of substitutes
//! instead. Jokers always go to the pool.
//!
//! Substitutes are interchangeable, so a meld only records how many it needs
//! (to fill the gaps of a run or reach three cards) and how many more it could
//! absorb under the per-meld limit (its *slack*). At a leaf the pool pays for
//! the substitutes; what is left is absorbed by slack, forms an all-wild meld
//! when allowed (TT-5.4), or stays unmatched, the cheapest cards last.
//!
//! Melds with more naturals than needed are never required: a set of six or
//! more naturals splits into two sets, and a run whose natural span exceeds
//! five ranks splits into two runs, with no more substitutes and no less slack.
//! So the candidates are sets of at most five naturals and runs whose naturals
//! span at most five ranks. Identical cards of several decks are taken in
//! position order, so each arrangement is visited once.
//!
//! # Tie-break
//!
//! Among arrangements with the minimum deadwood the solver returns the first
//! one found, which is well defined: the lowest undecided card is placed first;
//! its melds are tried ordered by fewest substitutes, then runs before sets,
//! then more cards, then lower cards; then (best discard) discarding it; then
//! leaving it unmatched. Leftover substitutes go to the earliest melds with
//! slack, jokers before wild-rank cards. Adjacent runs of one suit and sets of
//! one rank that were split by the search are joined again when the joined
//! meld is valid.

use std::cmp::Ordering;

use super::fast;
use super::rules::{AceMode, MeldRules, ResolvedRules, UNLIMITED};
use super::solution::Solution;
use super::{join_touching, lower_bits_first, MeldKind};
use crate::card::Card;
use crate::error::{CoreError, Result};

/// The largest hand the solver accepts for minimum deadwood; best discard takes one more.
pub const MAX_HAND: usize = 16;
pub(crate) const MAX_POS: usize = MAX_HAND + 1;
/// Slack of a meld with no limit on substitutes: more than any pool.
const SLACK_UNLIMITED: u16 = 64;
pub(crate) const MAX_MELDS: usize = 8;

const CHOICE_DEAD: u16 = u16::MAX;
const CHOICE_POOL: u16 = u16::MAX - 1;
const CHOICE_DISCARD: u16 = u16::MAX - 2;

#[derive(Clone, Copy)]
struct Pos {
    card: Card,
    rank: u8,
    suit: u8,
    value: u16,
    wild: bool,
}

/// A candidate meld: its natural cards as a mask over positions.
#[derive(Clone, Copy, Debug)]
struct Cand {
    mask: u32,
    /// Earlier identical copies that must not remain undecided when this meld is used.
    pred: u32,
    subs: u8,
    slack: u16,
    kind: MeldKind,
    /// Runs: rank of the first position; sets: the rank.
    lo: u8,
    /// Cards including the substitutes it needs.
    len: u8,
    naturals: u8,
}

impl Cand {
    /// The documented order of candidates for one lowest card.
    fn order(&self, other: &Cand) -> Ordering {
        self.subs
            .cmp(&other.subs)
            .then_with(|| other.kind.cmp(&self.kind)) // Run > Set in the enum, runs first
            .then_with(|| other.naturals.cmp(&self.naturals))
            .then_with(|| lower_bits_first(u64::from(self.mask), u64::from(other.mask)))
    }
}

/// Reusable solver: holds scratch buffers so repeated solves do not allocate.
#[derive(Default)]
pub struct Solver {
    pos: Vec<Pos>,
    cands: Vec<Cand>,
    start: Vec<u16>,
    tmp: Vec<Cand>,
}

struct Search<'a> {
    pos: &'a [Pos],
    cands: &'a [Cand],
    start: &'a [u16],
    wild_mask: u32,
    jokers: u8,
    wild_value: u16,
    joker_value: u16,
    all_wild: bool,
    discard_mode: bool,
    best: u32,
    path: [(u8, u16); MAX_POS],
    best_path: [(u8, u16); MAX_POS],
    best_len: usize,
    best_joker_discard: bool,
}

impl Solver {
    pub fn new() -> Solver {
        Solver::default()
    }

    /// Minimum deadwood of `hand` under `rules`, with one optimal arrangement.
    pub fn solve(&mut self, hand: &[Card], rules: &MeldRules) -> Result<Solution> {
        self.checked_run(hand, rules, false, true)
    }

    /// Minimum deadwood only (skips building the arrangement).
    pub fn deadwood(&mut self, hand: &[Card], rules: &MeldRules) -> Result<u32> {
        check_size(hand, false)?;
        let rr = resolve_for(rules, hand.len())?;
        match fast::hand_mask(hand, &rr) {
            // Distinct cards without jokers fit every deck: no deck check needed.
            Some(mask) => Ok(fast::deadwood(mask, &rr)),
            None => {
                rules.deck.check_hand(hand)?;
                Ok(self.general(hand, &rr, false, false).deadwood)
            }
        }
    }

    /// Best discard of a hand holding one card more than its size: the
    /// discard is part of the search (never "best grouping, then drop the
    /// biggest leftover"). With a wild rank by hand size, the rank follows the
    /// hand size after the discard.
    pub fn best_discard(&mut self, hand: &[Card], rules: &MeldRules) -> Result<Solution> {
        self.checked_run(hand, rules, true, true)
    }

    /// Deadwood after the best discard, without building the arrangement.
    pub fn best_discard_deadwood(&mut self, hand: &[Card], rules: &MeldRules) -> Result<u32> {
        Ok(self.checked_run(hand, rules, true, false)?.deadwood)
    }

    fn checked_run(
        &mut self,
        hand: &[Card],
        rules: &MeldRules,
        discard: bool,
        arrange: bool,
    ) -> Result<Solution> {
        check_size(hand, discard)?;
        let rr = resolve_for(rules, hand.len() - usize::from(discard))?;
        match fast::hand_mask(hand, &rr) {
            Some(mask) => Ok(fast::solve(mask, &rr, discard, arrange)),
            None => {
                rules.deck.check_hand(hand)?;
                Ok(self.general(hand, &rr, discard, arrange))
            }
        }
    }

    /// The general search, bypassing the fast path (tests compare the two).
    #[doc(hidden)]
    pub fn solve_general(&mut self, hand: &[Card], rr: &ResolvedRules, discard: bool) -> Solution {
        self.general(hand, rr, discard, true)
    }

    /// The general search (wild cards, jokers, duplicates).
    fn general(
        &mut self,
        hand: &[Card],
        rr: &ResolvedRules,
        discard: bool,
        arrange: bool,
    ) -> Solution {
        let jokers = self.load(hand, rr);
        self.generate(rr, jokers);
        let mut s = Search {
            pos: &self.pos,
            cands: &self.cands,
            start: &self.start,
            wild_mask: self
                .pos
                .iter()
                .enumerate()
                .filter(|(_, p)| p.wild)
                .fold(0, |m, (i, _)| m | 1 << i),
            jokers,
            wild_value: u16::from(rr.rules.wild_value),
            joker_value: u16::from(rr.rules.joker_value),
            all_wild: rr.rules.all_wild_melds,
            discard_mode: discard,
            best: u32::MAX,
            path: [(0, 0); MAX_POS],
            best_path: [(0, 0); MAX_POS],
            best_len: 0,
            best_joker_discard: false,
        };
        let all = if self.pos.len() >= 32 {
            u32::MAX
        } else {
            (1u32 << self.pos.len()) - 1
        };
        s.dfs(all, 0, 0, 0, 0, false, 0);
        let mut sol = Solution::empty();
        sol.deadwood = s.best;
        if arrange {
            let (path, len, joker_discard) = (s.best_path, s.best_len, s.best_joker_discard);
            self.materialize(&path[..len], joker_discard, jokers, rr, &mut sol);
        }
        sol
    }

    /// Sorts the hand into positions; returns the number of jokers.
    fn load(&mut self, hand: &[Card], rr: &ResolvedRules) -> u8 {
        self.pos.clear();
        let mut jokers = 0u8;
        for &c in hand {
            if c.is_joker() {
                jokers += 1;
            } else {
                self.pos.push(Pos {
                    card: c,
                    rank: c.rank(),
                    suit: c.suit_index(),
                    value: rr.value(c),
                    wild: rr.is_wild_rank(c),
                });
            }
        }
        self.pos.sort_unstable_by_key(|p| (p.rank, p.suit));
        jokers
    }

    /// Builds the candidate melds of every position, in the documented order.
    fn generate(&mut self, rr: &ResolvedRules, jokers: u8) {
        let n = self.pos.len();
        self.cands.clear();
        self.start.clear();
        let cap = rr.cap();
        let cap_n = if rr.rules.has_wilds() { cap } else { 0 };
        let high = rr.rules.aces == AceMode::HighOrLow;
        // Copies: dup_pred[i] = earlier positions holding the same card.
        let mut dup_pred = [0u32; MAX_POS];
        let mut wild_mask = 0u32;
        for (i, p) in self.pos.iter().enumerate() {
            if p.wild {
                wild_mask |= 1 << i;
            }
            dup_pred[i] = self.pos[..i]
                .iter()
                .enumerate()
                .filter(|(_, q)| q.card == p.card)
                .fold(0, |m, (j, _)| m | 1 << j);
        }
        // Positions by (suit, rank).
        let mut at: [[u32; 14]; 4] = [[0; 14]; 4];
        for (i, p) in self.pos.iter().enumerate() {
            at[usize::from(p.suit)][usize::from(p.rank)] |= 1 << i;
        }
        let slack_of = |subs: u8, len: u8, kind: MeldKind| -> u16 {
            if cap == UNLIMITED {
                if kind == MeldKind::Run {
                    u16::from(13 - len)
                } else {
                    SLACK_UNLIMITED
                }
            } else {
                let free = u16::from(cap_n.saturating_sub(subs));
                if kind == MeldKind::Run {
                    free.min(u16::from(13 - len))
                } else {
                    free
                }
            }
        };
        let pred_of = |mask: u32| -> u32 {
            let mut p = 0;
            let mut m = mask;
            while m != 0 {
                let i = m.trailing_zeros() as usize;
                p |= dup_pred[i];
                m &= m - 1;
            }
            p & !mask
        };
        let avail = |mask: u32| -> u8 { jokers + (wild_mask & !mask).count_ones() as u8 };
        let subs_ok = |subs: u8, mask: u32| -> bool {
            subs == 0 || ((cap_n == UNLIMITED || subs <= cap_n) && subs <= avail(mask))
        };

        for x in 0..n {
            self.start.push(self.cands.len() as u16);
            self.tmp.clear();
            let px = self.pos[x];
            let (r, s) = (px.rank, usize::from(px.suit));
            let bit = 1u32 << x;
            let later = !((bit << 1) - 1);

            // Sets of rank r: x plus other cards of that rank after x.
            let same_rank = at.iter().fold(0u32, |m, row| m | row[usize::from(r)]);
            let others = same_rank & later;
            let mut sub = others;
            loop {
                let nat = 1 + sub.count_ones() as u8;
                if nat <= 5 {
                    let subs = 3u8.saturating_sub(nat);
                    let mask = bit | sub;
                    if subs_ok(subs, mask) {
                        let len = nat + subs;
                        self.tmp.push(Cand {
                            mask,
                            pred: pred_of(mask),
                            subs,
                            slack: slack_of(subs, len, MeldKind::Set),
                            kind: MeldKind::Set,
                            lo: r,
                            len,
                            naturals: nat,
                        });
                    }
                }
                if sub == 0 {
                    break;
                }
                sub = (sub - 1) & others;
            }

            // Runs in suit s whose lowest natural is x (rank r), naturals
            // spanning at most five ranks; the top natural sits at rank t.
            let row = &at[s];
            for t in r..=(r + 4).min(13) {
                if t == r {
                    // x alone with two substitutes.
                    let mask = bit;
                    if subs_ok(2, mask) {
                        let lo = if r + 2 <= 13 { r } else { 11 };
                        self.tmp.push(Cand {
                            mask,
                            pred: pred_of(mask),
                            subs: 2,
                            slack: slack_of(2, 3, MeldKind::Run),
                            kind: MeldKind::Run,
                            lo,
                            len: 3,
                            naturals: 1,
                        });
                    }
                    continue;
                }
                let tops = row[usize::from(t)];
                if tops == 0 {
                    continue;
                }
                push_runs(
                    &mut self.tmp,
                    row,
                    bit,
                    r,
                    r + 1,
                    t,
                    t,
                    false,
                    &pred_of,
                    &subs_ok,
                    &slack_of,
                );
            }
            // Runs ending with x as a high ace: naturals from rank b up to the king.
            if high && r == 1 {
                for b in 10..=13u8 {
                    if row[usize::from(b)] == 0 {
                        continue;
                    }
                    push_runs(
                        &mut self.tmp,
                        row,
                        bit,
                        b,
                        b,
                        13,
                        14,
                        true,
                        &pred_of,
                        &subs_ok,
                        &slack_of,
                    );
                }
            }
            self.tmp.sort_by(Cand::order);
            self.cands.extend_from_slice(&self.tmp);
        }
        self.start.push(self.cands.len() as u16);
    }

    /// Turns the best path into melds and unmatched cards.
    fn materialize(
        &self,
        path: &[(u8, u16)],
        joker_discard: bool,
        jokers: u8,
        rr: &ResolvedRules,
        sol: &mut Solution,
    ) {
        let cap = rr.cap();
        let mut melds: Vec<Building> = Vec::with_capacity(MAX_MELDS);
        let mut unmatched: Vec<Card> = Vec::with_capacity(MAX_POS);
        let mut pool: Vec<Card> = Vec::with_capacity(MAX_POS);
        let mut discard = None;
        for &(x, choice) in path {
            let p = self.pos[usize::from(x)];
            match choice {
                CHOICE_DEAD => unmatched.push(p.card),
                CHOICE_POOL => pool.push(p.card),
                CHOICE_DISCARD => discard = Some(p.card),
                ci => {
                    let c = self.cands[usize::from(ci)];
                    melds.push(Building::from_cand(&c, &self.pos));
                }
            }
        }
        let mut joker_count = jokers;
        if joker_discard {
            discard = Some(Card::JOKER);
            joker_count -= 1;
        }
        for _ in 0..joker_count {
            pool.push(Card::JOKER);
        }
        // Most expensive substitutes are used first; the cheapest stay unmatched.
        let value = |c: &Card| rr.value(*c);
        pool.sort_by(|a, b| value(b).cmp(&value(a)).then(a.cmp(b)));
        let mut pool = pool.into_iter();
        for m in &mut melds {
            for _ in 0..m.needed {
                if let Some(c) = pool.next() {
                    m.fill(c);
                }
            }
        }
        let mut left: Vec<Card> = pool.collect();
        if rr.rules.all_wild_melds && left.len() >= 3 {
            melds.push(Building::all_wild(std::mem::take(&mut left)));
        } else {
            let mut rest = left.into_iter().peekable();
            for m in &mut melds {
                while rest.peek().is_some() && m.room(cap) > 0 {
                    if let Some(c) = rest.next() {
                        m.absorb(c, rr.rules.aces);
                    }
                }
            }
            left = rest.collect();
        }
        unmatched.extend(left);
        merge_split_melds(&mut melds, cap);
        unmatched.sort();
        for m in &melds {
            sol.push_meld(m.kind, m.lo, m.suit, &m.ordered());
        }
        for c in unmatched {
            sol.push_unmatched(c);
        }
        if let Some(d) = discard {
            sol.set_discard(d);
        }
    }
}

/// The rules for a hand of `cards` cards. An empty hand has deadwood 0 under
/// every preset: it needs no wild rank (Three Thirteen cannot derive one from
/// a size of 0, and need not).
fn resolve_for(rules: &MeldRules, cards: usize) -> Result<ResolvedRules> {
    if cards == 0 {
        Ok(ResolvedRules::fixed(*rules, None))
    } else {
        rules.resolve(cards)
    }
}

fn check_size(hand: &[Card], discard: bool) -> Result<()> {
    check_hand_size(hand.len(), discard)
}

/// The size limits of the solver: up to [`MAX_HAND`] cards, one more for a
/// best discard (which also needs at least one card).
pub fn check_hand_size(cards: usize, discard: bool) -> Result<()> {
    let max = if discard { MAX_HAND + 1 } else { MAX_HAND };
    if cards > max {
        return Err(CoreError::hand(format!(
            "{cards} cards: the solver takes hands of up to {max} cards"
        )));
    }
    if discard && cards == 0 {
        return Err(CoreError::hand("an empty hand has nothing to discard"));
    }
    Ok(())
}

/// Emits runs whose naturals are `fixed` plus, for each rank in `from..=to`,
/// either one copy of that rank (in `row`) or a gap, with the rank `top`
/// required. `bottom_fixed` marks the high-ace family, where the run's lowest
/// natural rank `from` is required and the fixed card sits at position 14.
#[allow(clippy::too_many_arguments)]
fn push_runs(
    out: &mut Vec<Cand>,
    row: &[u32; 14],
    fixed: u32,
    lo_nat: u8,
    from: u8,
    to: u8,
    top: u8,
    high_ace: bool,
    pred_of: &dyn Fn(u32) -> u32,
    subs_ok: &dyn Fn(u8, u32) -> bool,
    slack_of: &dyn Fn(u8, u8, MeldKind) -> u16,
) {
    // Options per rank in from..=to: gap (0) or one of the copies.
    let mut ranks: [u8; 5] = [0; 5];
    let mut opts: [[u32; 4]; 5] = [[0; 4]; 5];
    let mut counts: [usize; 5] = [0; 5];
    let mut m = 0usize;
    for q in from..=to {
        let copies = row[usize::from(q)];
        let required = if high_ace { q == lo_nat } else { q == top };
        let mut k = 0;
        if !required {
            opts[m][k] = 0;
            k += 1;
        }
        let mut c = copies;
        while c != 0 && k < 4 {
            opts[m][k] = c & c.wrapping_neg();
            k += 1;
            c &= c - 1;
        }
        if k == 0 {
            return;
        }
        ranks[m] = q;
        counts[m] = k;
        m += 1;
    }
    let _ = ranks;
    let (span_lo, span_hi) = if high_ace {
        (lo_nat, 14u8)
    } else {
        (lo_nat, top)
    };
    let span = span_hi - span_lo + 1;
    let mut idx = [0usize; 5];
    loop {
        let mut mask = fixed;
        for i in 0..m {
            mask |= opts[i][idx[i]];
        }
        let naturals = mask.count_ones() as u8;
        let (len, pad) = if span < 3 { (3u8, 3 - span) } else { (span, 0) };
        let subs = (span - naturals) + pad;
        if subs_ok(subs, mask) {
            let lo = if pad == 0 || (!high_ace && span_lo + len - 1 <= 13) {
                span_lo
            } else {
                span_hi + 1 - len
            };
            out.push(Cand {
                mask,
                pred: pred_of(mask),
                subs,
                slack: slack_of(subs, len, MeldKind::Run),
                kind: MeldKind::Run,
                lo,
                len,
                naturals,
            });
        }
        // Next combination.
        let mut i = 0;
        loop {
            if i == m {
                return;
            }
            idx[i] += 1;
            if idx[i] < counts[i] {
                break;
            }
            idx[i] = 0;
            i += 1;
        }
    }
}

impl Search<'_> {
    #[allow(clippy::too_many_arguments)]
    fn dfs(
        &mut self,
        rem: u32,
        acc: u32,
        k: u8,
        slack: u16,
        wr_pool: u8,
        discarded: bool,
        depth: usize,
    ) {
        if acc >= self.best {
            return;
        }
        if rem == 0 {
            self.leaf(acc, k, slack, wr_pool, discarded, depth);
            return;
        }
        // Not enough wild cards left for the substitutes already promised.
        if u32::from(k)
            > u32::from(self.jokers) + u32::from(wr_pool) + (rem & self.wild_mask).count_ones()
        {
            return;
        }
        let x = rem.trailing_zeros() as usize;
        let bit = 1u32 << x;
        let from = usize::from(self.start[x]);
        let to = usize::from(self.start[x + 1]);
        for ci in from..to {
            let c = self.cands[ci];
            if c.mask & !rem != 0 || c.pred & rem != 0 {
                continue;
            }
            self.path[depth] = (x as u8, ci as u16);
            self.dfs(
                rem & !c.mask,
                acc,
                k + c.subs,
                slack.saturating_add(c.slack).min(SLACK_UNLIMITED),
                wr_pool,
                discarded,
                depth + 1,
            );
        }
        if self.discard_mode && !discarded {
            self.path[depth] = (x as u8, CHOICE_DISCARD);
            self.dfs(rem & !bit, acc, k, slack, wr_pool, true, depth + 1);
        }
        let p = self.pos[x];
        if p.wild {
            self.path[depth] = (x as u8, CHOICE_POOL);
            self.dfs(rem & !bit, acc, k, slack, wr_pool + 1, discarded, depth + 1);
        } else {
            self.path[depth] = (x as u8, CHOICE_DEAD);
            self.dfs(
                rem & !bit,
                acc + u32::from(p.value),
                k,
                slack,
                wr_pool,
                discarded,
                depth + 1,
            );
        }
    }

    fn leaf(&mut self, acc: u32, k: u8, slack: u16, wr_pool: u8, discarded: bool, depth: usize) {
        let mut jokers = self.jokers;
        let joker_discard = self.discard_mode && !discarded;
        if joker_discard {
            if jokers == 0 {
                return;
            }
            jokers -= 1;
        }
        let pool = u16::from(jokers) + u16::from(wr_pool);
        let k = u16::from(k);
        if k > pool {
            return;
        }
        let left = pool - k;
        let cost = if self.all_wild && left >= 3 {
            0
        } else {
            let unmatched = left.saturating_sub(slack);
            // The cheapest `unmatched` cards of the pool stay unmatched.
            let (cheap, cheap_n, dear) = if self.wild_value <= self.joker_value {
                (self.wild_value, u16::from(wr_pool), self.joker_value)
            } else {
                (self.joker_value, u16::from(jokers), self.wild_value)
            };
            let a = unmatched.min(cheap_n);
            u32::from(a) * u32::from(cheap) + u32::from(unmatched - a) * u32::from(dear)
        };
        let total = acc + cost;
        if total < self.best {
            self.best = total;
            self.best_len = depth;
            self.best_path[..depth].copy_from_slice(&self.path[..depth]);
            self.best_joker_discard = joker_discard;
        }
    }
}

/// A meld being laid out: naturals at their places, substitutes added later.
struct Building {
    kind: MeldKind,
    /// Runs: first position; sets: rank (0 for all-wild).
    lo: u8,
    suit: u8,
    /// Runs: slot per position lo..lo+len (`None` until a substitute fills it).
    slots: Vec<Option<(Card, bool)>>,
    /// Sets: naturals, then substitutes.
    cards: Vec<(Card, bool)>,
    needed: u8,
    subs: u8,
}

impl Building {
    fn from_cand(c: &Cand, pos: &[Pos]) -> Building {
        let mut naturals: Vec<Pos> = Vec::new();
        let mut m = c.mask;
        while m != 0 {
            naturals.push(pos[m.trailing_zeros() as usize]);
            m &= m - 1;
        }
        match c.kind {
            MeldKind::Set => {
                naturals.sort_by_key(|p| p.card);
                Building {
                    kind: MeldKind::Set,
                    lo: c.lo,
                    suit: 0,
                    slots: Vec::new(),
                    cards: naturals.iter().map(|p| (p.card, false)).collect(),
                    needed: c.subs,
                    subs: 0,
                }
            }
            MeldKind::Run => {
                let mut slots = vec![None; usize::from(c.len)];
                let suit = naturals.first().map_or(0, |p| p.suit);
                for p in &naturals {
                    let r = if p.rank == 1 && c.lo >= 10 {
                        14
                    } else {
                        p.rank
                    };
                    if let Some(slot) = slots.get_mut(usize::from(r - c.lo)) {
                        *slot = Some((p.card, false));
                    }
                }
                Building {
                    kind: MeldKind::Run,
                    lo: c.lo,
                    suit,
                    slots,
                    cards: Vec::new(),
                    needed: c.subs,
                    subs: 0,
                }
            }
        }
    }

    fn all_wild(cards: Vec<Card>) -> Building {
        let n = cards.len() as u8;
        Building {
            kind: MeldKind::Set,
            lo: 0,
            suit: 0,
            slots: Vec::new(),
            cards: cards.into_iter().map(|c| (c, true)).collect(),
            needed: 0,
            subs: n,
        }
    }

    /// Puts a required substitute into the first gap (runs) or the set.
    fn fill(&mut self, card: Card) {
        self.subs += 1;
        match self.kind {
            MeldKind::Set => self.cards.push((card, true)),
            MeldKind::Run => {
                if let Some(slot) = self.slots.iter_mut().find(|s| s.is_none()) {
                    *slot = Some((card, true));
                }
            }
        }
    }

    /// How many more substitutes this meld can take.
    fn room(&self, cap: u8) -> usize {
        if self.kind == MeldKind::Set && self.lo == 0 {
            return 0;
        }
        let free = if cap == UNLIMITED {
            usize::MAX
        } else {
            usize::from(cap.saturating_sub(self.subs))
        };
        match self.kind {
            MeldKind::Set => free,
            MeldKind::Run => free.min(13 - self.slots.len()),
        }
    }

    /// Adds an extra substitute: to a set, or to a run above its top when
    /// that stays within A..K, else below its bottom, else as a high ace.
    fn absorb(&mut self, card: Card, aces: AceMode) {
        self.subs += 1;
        match self.kind {
            MeldKind::Set => self.cards.push((card, true)),
            MeldKind::Run => {
                let hi = self.lo + self.slots.len() as u8 - 1;
                let down_ok = self.lo >= 2 && !(self.lo == 2 && hi == 14);
                if hi < 13 || (!down_ok && aces == AceMode::HighOrLow && hi == 13 && self.lo > 1) {
                    self.slots.push(Some((card, true)));
                } else {
                    self.lo -= 1;
                    self.slots.insert(0, Some((card, true)));
                }
            }
        }
    }

    fn ordered(&self) -> Vec<(Card, bool)> {
        match self.kind {
            MeldKind::Set => self.cards.clone(),
            MeldKind::Run => self.slots.iter().flatten().copied().collect(),
        }
    }

    fn naturals_rank_span(&self) -> (u8, u8) {
        (self.lo, self.lo + self.slots.len() as u8 - 1)
    }
}

/// Joins runs of one suit that touch, and sets of one rank, when the joined
/// meld stays within the substitute limit (and a run within 13 cards).
fn merge_split_melds(melds: &mut Vec<Building>, cap: u8) {
    let within = |subs: u8| cap == UNLIMITED || subs <= cap || subs == 0;
    let len = melds.len();
    let kept = join_touching(melds, len, |a, b| {
        let joinable = a.kind == b.kind
            && within(a.subs + b.subs)
            && match a.kind {
                MeldKind::Set => a.lo != 0 && a.lo == b.lo,
                MeldKind::Run => {
                    let (alo, ahi) = a.naturals_rank_span();
                    let (blo, bhi) = b.naturals_rank_span();
                    a.suit == b.suit
                        && (ahi + 1 == blo || bhi + 1 == alo)
                        && a.slots.len() + b.slots.len() <= 13
                }
            };
        if joinable {
            a.subs += b.subs;
            match a.kind {
                MeldKind::Set => {
                    a.cards.extend_from_slice(&b.cards);
                    a.cards.sort_by_key(|&(c, sub)| (sub, c));
                }
                MeldKind::Run => {
                    if b.lo < a.lo {
                        a.slots.splice(0..0, b.slots.iter().copied());
                        a.lo = b.lo;
                    } else {
                        a.slots.extend_from_slice(&b.slots);
                    }
                }
            }
        }
        joinable
    });
    melds.truncate(kept);
}
