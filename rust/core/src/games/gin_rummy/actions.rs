//! OpenSpiel's action ids (GR-2), card ids, the meld table, and the meld
//! helpers of the rules: deadwood (through the meld solver), the melds of
//! maximal arrangements (GR-5.3, GR-6.3) and the layoffs (GR-6.2).

use super::*;
use crate::engine::ActionInfo;

/// Action ids (GR-2.2).
pub mod action {
    /// Card actions are `0..CARDS`: the OpenSpiel card id.
    pub const CARDS: u16 = 52;
    pub const DRAW_UPCARD: u16 = 52;
    pub const DRAW_STOCK: u16 = 53;
    pub const PASS: u16 = 54;
    pub const KNOCK: u16 = 55;
    /// `MELD_BASE + m`: lay meld `m` (GR-2.3).
    pub const MELD_BASE: u16 = 56;
    pub const MELDS: u16 = 185;
    pub const COUNT: u16 = MELD_BASE + MELDS;
}

/// An OpenSpiel card id (GR-2.1): `suit * 13 + rank`, suits spades, clubs,
/// diamonds, hearts, ranks A..K as 0..12.
pub type CardId = u8;

/// The project's card of an OpenSpiel id (`None` beyond 51).
pub fn card_of_id(id: CardId) -> Option<Card> {
    if usize::from(id) >= DECK_SIZE {
        return None;
    }
    // OpenSpiel s, c, d, h = project suits 3, 0, 1, 2.
    let suit = (id / 13 + 3) % 4;
    Card::from_code(suit * 13 + id % 13).ok()
}

/// The OpenSpiel id of a card (`None` for the joker).
pub fn id_of_card(card: Card) -> Option<CardId> {
    if card.is_joker() || card.code() >= 52 {
        return None;
    }
    let (suit, rank) = (card.code() / 13, card.code() % 13);
    Some(((suit + 1) % 4) * 13 + rank)
}

/// The text of a card id, as the project writes cards (`7H`).
pub fn id_text(id: CardId) -> &'static str {
    card_of_id(id).map_or("??", Card::text)
}

/// A card's value (GR-1.2).
pub fn card_value(id: CardId) -> u32 {
    u32::from(id % 13 + 1).min(10)
}

/// The ids of a mask, lowest first.
pub fn ids(mask: u64) -> impl Iterator<Item = CardId> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            return None;
        }
        let b = m.trailing_zeros() as u8;
        m &= m - 1;
        Some(b)
    })
}

/// The total value of a mask's cards.
pub fn mask_value(mask: u64) -> u32 {
    ids(mask).map(card_value).sum()
}

/// The cards of a mask, sorted by the project's card code.
pub fn mask_cards(mask: u64) -> Vec<Card> {
    let mut v: Vec<Card> = ids(mask).filter_map(card_of_id).collect();
    v.sort_unstable();
    v
}

const fn build_melds() -> [u64; action::MELDS as usize] {
    let mut m = [0u64; action::MELDS as usize];
    let mut r = 0;
    while r < 13 {
        let all: u64 = (1 << r) | (1 << (r + 13)) | (1 << (r + 26)) | (1 << (r + 39));
        let mut s = 0;
        while s < 4 {
            m[5 * r + s] = all & !(1u64 << (r + 13 * s));
            s += 1;
        }
        m[5 * r + 4] = all;
        r += 1;
    }
    let bases = [65usize, 109, 149];
    let mut li = 0;
    while li < 3 {
        let len = 3 + li;
        let per = 14 - len;
        let mut suit = 0;
        while suit < 4 {
            let mut low = 0;
            while low < per {
                m[bases[li] + per * suit + low] = ((1u64 << len) - 1) << (suit * 13 + low);
                low += 1;
            }
            suit += 1;
        }
        li += 1;
    }
    m
}

/// The cards of every meld id (GR-2.3), as masks of card ids.
pub const MELD_MASKS: [u64; action::MELDS as usize] = build_melds();

/// Whether meld `m` is a set (a rank meld).
pub fn is_set(m: u8) -> bool {
    m < 65
}

/// The meld id of exactly these cards.
pub fn meld_of_mask(mask: u64) -> Option<u8> {
    MELD_MASKS
        .iter()
        .position(|&x| x == mask)
        .and_then(|i| u8::try_from(i).ok())
}

/// A meld's cards as text, lowest id first (`7H 8H 9H`).
pub fn meld_text(m: u8) -> String {
    let mask = MELD_MASKS.get(usize::from(m)).copied().unwrap_or(0);
    ids(mask).map(id_text).collect::<Vec<_>>().join(" ")
}

/// 185 bits: a set of meld ids.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MeldSet([u64; 3]);

impl MeldSet {
    pub fn insert(&mut self, m: u8) {
        if let Some(w) = self.0.get_mut(usize::from(m) / 64) {
            *w |= 1 << (m % 64);
        }
    }

    pub fn contains(&self, m: u8) -> bool {
        self.0
            .get(usize::from(m) / 64)
            .is_some_and(|w| w >> (m % 64) & 1 == 1)
    }

    pub fn iter(&self) -> impl Iterator<Item = u8> + '_ {
        (0..3u8).flat_map(move |w| ids(self.0[usize::from(w)]).map(move |b| w * 64 + b))
    }
}

/// The melds made of cards of `hand`, in id order.
pub fn melds_in(hand: u64, out: &mut Vec<u8>) {
    out.clear();
    for (i, &m) in MELD_MASKS.iter().enumerate() {
        if m & hand == m {
            out.push(i as u8);
        }
    }
}

/// OpenSpiel's `LegalMelds(hand, threshold)` (u:380-394): every meld of a
/// maximal arrangement of `hand` whose unmelded value is at most `threshold`.
pub fn legal_melds(hand: u64, threshold: u32) -> MeldSet {
    let mut cands = Vec::new();
    melds_in(hand, &mut cands);
    let mut out = MeldSet::default();
    let mut chosen = Vec::new();
    let total = mask_value(hand);
    groups(&cands, 0, 0, &mut chosen, total, threshold, &mut out);
    out
}

fn groups(
    cands: &[u8],
    start: usize,
    used: u64,
    chosen: &mut Vec<u8>,
    total: u32,
    threshold: u32,
    out: &mut MeldSet,
) {
    let mut maximal = true;
    for (i, &m) in cands.iter().enumerate() {
        let mask = MELD_MASKS[usize::from(m)];
        if mask & used == 0 {
            maximal = false;
            if i >= start {
                chosen.push(m);
                groups(cands, i + 1, used | mask, chosen, total, threshold, out);
                chosen.pop();
            }
        }
    }
    if maximal && !chosen.is_empty() && total - mask_value(used) <= threshold {
        for &m in chosen.iter() {
            out.insert(m);
        }
    }
}

/// The melds (ids, GR-2.3) of an arrangement of `hand` that leaves the
/// least deadwood: what a player lays to count least (GR-5.3, GR-6.3). A
/// run of six or more is two melds, as OpenSpiel lays it. Ties: the first
/// arrangement found, deciding the lowest undecided card first (deadwood,
/// then each meld it is in, in id order).
pub fn best_melds(hand: u64) -> Vec<u8> {
    let mut cands = Vec::new();
    melds_in(hand, &mut cands);
    let mut best = None;
    arrange(hand, 0, &cands, &mut Vec::new(), &mut best);
    best.map(|(_, melds)| melds).unwrap_or_default()
}

/// Decides the lowest card of `rest`: deadwood, or one of the melds holding
/// it; keeps in `best` the first arrangement with the least deadwood.
fn arrange(
    rest: u64,
    dead: u32,
    cands: &[u8],
    chosen: &mut Vec<u8>,
    best: &mut Option<(u32, Vec<u8>)>,
) {
    if best.as_ref().is_some_and(|(least, _)| dead >= *least) {
        return;
    }
    if rest == 0 {
        *best = Some((dead, chosen.clone()));
        return;
    }
    let low = rest & rest.wrapping_neg();
    let value = ids(low).map(card_value).sum::<u32>();
    arrange(rest & !low, dead + value, cands, chosen, best);
    for &m in cands {
        let mask = MELD_MASKS[usize::from(m)];
        if mask & low != 0 && mask & rest == mask {
            chosen.push(m);
            arrange(rest & !mask, dead, cands, chosen, best);
            chosen.pop();
        }
    }
}

/// OpenSpiel's `AllLayoffs` (u:413-434, GR-6.2): the cards that fit the
/// knocker's `melds` after the `layoffs` made so far, as a mask.
pub fn all_layoffs(melds: &[u8], layoffs: u64) -> u64 {
    let mut out = 0u64;
    for &m in melds {
        let mask = MELD_MASKS.get(usize::from(m)).copied().unwrap_or(0);
        if is_set(m) {
            if mask.count_ones() == 3 {
                let rank = mask.trailing_zeros() % 13;
                let all = (0..4).fold(0u64, |a, s| a | 1 << (rank + 13 * s));
                out |= all & !mask;
            }
        } else {
            let ends = |run: u64| -> u64 {
                let lo = run.trailing_zeros();
                let hi = 63 - run.leading_zeros();
                let mut e = 0u64;
                if lo % 13 > 0 {
                    e |= 1 << (lo - 1);
                }
                if hi % 13 < 12 {
                    e |= 1 << (hi + 1);
                }
                e
            };
            let extended = mask | (ends(mask) & layoffs);
            out |= ends(extended);
        }
    }
    out
}

/// The meld solver's gin rules (GR-1.2).
pub fn rules() -> MeldRules {
    MeldRules::gin()
}

fn cards_of(mask: u64, buf: &mut [Card; 16]) -> usize {
    let mut n = 0;
    for id in ids(mask) {
        if let (Some(c), Some(slot)) = (card_of_id(id), buf.get_mut(n)) {
            *slot = c;
            n += 1;
        }
    }
    n
}

/// The least deadwood of a hand (the meld solver).
pub fn deadwood(hand: u64) -> u32 {
    let mut buf = [Card::JOKER; 16];
    let n = cards_of(hand, &mut buf);
    Solver::new()
        .deadwood(&buf[..n], &rules())
        .unwrap_or_else(|_| mask_value(hand))
}

/// The least deadwood after the best discard of a hand one card over its
/// size (the meld solver, GR-5.1: exact, not OpenSpiel's heuristic).
pub fn best_discard_deadwood(hand: u64) -> u32 {
    if hand == 0 {
        return 0;
    }
    let mut buf = [Card::JOKER; 16];
    let n = cards_of(hand, &mut buf);
    Solver::new()
        .best_discard_deadwood(&buf[..n], &rules())
        .unwrap_or_else(|_| mask_value(hand))
}

/// The text of an action (GR-2.4); card actions read `discard C` whatever
/// the phase (`layoff C` is the same id).
pub fn action_text(a: u16) -> Result<String> {
    Ok(match a {
        x if x < action::CARDS => format!("discard {}", id_text(x as u8)),
        action::DRAW_UPCARD => "draw upcard".into(),
        action::DRAW_STOCK => "draw stock".into(),
        action::PASS => "pass".into(),
        action::KNOCK => "knock".into(),
        x if x < action::COUNT => format!("meld {}", meld_text((x - action::MELD_BASE) as u8)),
        _ => {
            return Err(CoreError::IllegalAction(format!(
                "{a} is not a Gin Rummy action (0..{})",
                action::COUNT
            )))
        }
    })
}

/// The action a text names (GR-2.4; case and spacing are free).
pub fn parse_action(text: &str) -> Result<u16> {
    let words: Vec<String> = text
        .split_whitespace()
        .map(|w| w.to_ascii_lowercase())
        .collect();
    let bad = |why: &str| CoreError::IllegalAction(format!("cannot read action {text:?}: {why}"));
    let card = |token: &str| -> Result<u16> {
        let c = Card::parse(token).map_err(|e| bad(&format!("{token:?} is not a card ({e})")))?;
        id_of_card(c)
            .map(u16::from)
            .ok_or_else(|| bad("there are no jokers in gin rummy"))
    };
    let w: Vec<&str> = words.iter().map(String::as_str).collect();
    match w.as_slice() {
        [] => Err(bad("it is empty")),
        ["draw", "upcard"] | ["take"] | ["upcard"] => Ok(action::DRAW_UPCARD),
        ["draw", "stock"] | ["draw"] | ["stock"] => Ok(action::DRAW_STOCK),
        ["pass"] => Ok(action::PASS),
        ["knock"] => Ok(action::KNOCK),
        ["discard" | "layoff", c] | [c] => card(c),
        ["meld", cards @ ..] if !cards.is_empty() => {
            let mut mask = 0u64;
            for c in cards {
                mask |= 1u64 << card(c)?;
            }
            meld_of_mask(mask)
                .map(|m| action::MELD_BASE + u16::from(m))
                .ok_or_else(|| bad("those cards are not one meld (GR-2.3)"))
        }
        _ => Err(bad(
            "expected discard C, layoff C, draw upcard, draw stock, pass, knock or meld C C C",
        )),
    }
}

impl GinRummyState {
    /// What action `a` is for the player to move now (GR-2.2): a card id is
    /// a discard, or a lay-off in the lay-off phase (GR-6.2); a meld id
    /// names its cards (GR-2.3); drawing the upcard names it.
    pub fn describe(&self, a: u16) -> Result<ActionInfo> {
        let text = action_text(a)?;
        Ok(match a {
            x if x < action::CARDS => {
                let kind = if self.phase() == Phase::Layoff {
                    "layoff"
                } else {
                    "discard"
                };
                ActionInfo::new(kind, text).cards(card_of_id(x as u8))
            }
            action::DRAW_UPCARD => ActionInfo::new("take", text).cards(self.upcard()),
            action::DRAW_STOCK => ActionInfo::new("draw", text),
            action::PASS => ActionInfo::new("pass", text),
            action::KNOCK => ActionInfo::new("knock", text),
            x => {
                let m = x - action::MELD_BASE;
                ActionInfo::new("meld", text)
                    .cards(mask_cards(MELD_MASKS[usize::from(m)]))
                    .meld(m as u8)
            }
        })
    }
}
