//! The integer action encoding and its text form (TK-13).

use super::*;
use crate::engine::ActionInfo;

/// Action encoding (TK-13). All actions are integers below [`action::COUNT`].
pub mod action {
    /// `0..=51`: discard that card code.
    pub const DISCARD_BASE: u16 = 0;
    pub const DRAW_STOCK: u16 = 52;
    pub const TAKE_DISCARD: u16 = 53;
    pub const DROP: u16 = 54;
    /// Decline: pass in a drop window.
    pub const PASS: u16 = 55;
    pub const CLAIM_49: u16 = 56;
    pub const SPADES_IN: u16 = 57;
    pub const SPADES_OUT: u16 = 58;
    /// `LAY_BASE + i`: lay catalogue spread `i` (see `spread_catalogue`).
    pub const LAY_BASE: u16 = 59;
    pub const LAY_COUNT: u16 = 373;
    /// `HIT_BASE + spread_id * 52 + card`: hit that card onto that spread.
    pub const HIT_BASE: u16 = LAY_BASE + LAY_COUNT;
    pub const COUNT: u16 = HIT_BASE + 17 * 52;
}

/// A decoded action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Discard(Card),
    DrawStock,
    TakeDiscard,
    Drop,
    Pass,
    Claim49,
    SpadesIn,
    SpadesOut,
    LaySpread(u16),
    Hit { spread: u8, card: Card },
}

impl Action {
    pub fn decode(a: u16) -> Result<Action> {
        use action::*;
        Ok(match a {
            0..=51 => Action::Discard(Card::of((a % 13) as u8 + 1, (a / 13) as u8)),
            DRAW_STOCK => Action::DrawStock,
            TAKE_DISCARD => Action::TakeDiscard,
            DROP => Action::Drop,
            PASS => Action::Pass,
            CLAIM_49 => Action::Claim49,
            SPADES_IN => Action::SpadesIn,
            SPADES_OUT => Action::SpadesOut,
            x if (LAY_BASE..HIT_BASE).contains(&x) => Action::LaySpread(x - LAY_BASE),
            x if (HIT_BASE..COUNT).contains(&x) => {
                let k = x - HIT_BASE;
                let code = (k % 52) as u8;
                Action::Hit {
                    spread: (k / 52) as u8,
                    card: Card::of_code(code),
                }
            }
            _ => {
                return Err(CoreError::IllegalAction(format!(
                    "{a} is not a Tonk action (0..{})",
                    COUNT
                )))
            }
        })
    }

    pub fn encode(self) -> u16 {
        use action::*;
        match self {
            Action::Discard(c) => DISCARD_BASE + u16::from(c.code()),
            Action::DrawStock => DRAW_STOCK,
            Action::TakeDiscard => TAKE_DISCARD,
            Action::Drop => DROP,
            Action::Pass => PASS,
            Action::Claim49 => CLAIM_49,
            Action::SpadesIn => SPADES_IN,
            Action::SpadesOut => SPADES_OUT,
            Action::LaySpread(i) => LAY_BASE + i,
            Action::Hit { spread, card } => {
                HIT_BASE + u16::from(spread) * 52 + u16::from(card.code())
            }
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Discard(c) => write!(f, "discard {c}"),
            Action::DrawStock => f.write_str("draw"),
            Action::TakeDiscard => f.write_str("take"),
            Action::Drop => f.write_str("drop"),
            Action::Pass => f.write_str("pass"),
            Action::Claim49 => f.write_str("claim 49"),
            Action::SpadesIn => f.write_str("spades in"),
            Action::SpadesOut => f.write_str("spades out"),
            Action::LaySpread(i) => {
                let shape = spread_catalogue()[usize::from(*i)];
                let cards: Vec<String> = match shape.kind {
                    MeldKind::Run => (shape.lo..=shape.hi)
                        .map(|r| Card::at_run_position(r, shape.suit).to_string())
                        .collect(),
                    MeldKind::Set => mask_cards(shape.mask)
                        .iter()
                        .map(ToString::to_string)
                        .collect(),
                };
                write!(f, "spread {}", cards.join(" "))
            }
            Action::Hit { spread, card } => write!(f, "hit {card} S{spread}"),
        }
    }
}

/// Parses the text form of an action (as printed by `Display`).
pub fn parse_action(text: &str) -> Result<Action> {
    let t = text.trim().to_ascii_lowercase();
    let words: Vec<&str> = t.split_whitespace().collect();
    let bad = || CoreError::IllegalAction(format!("cannot read action {text:?}"));
    // TK-1.1: no jokers; a joker's code would otherwise alias another action.
    let card = |token: &str| -> Result<Card> {
        let c = Card::parse(token)
            .map_err(|e| CoreError::IllegalAction(format!("cannot read action {text:?}: {e}")))?;
        if c.is_joker() {
            return Err(CoreError::IllegalAction(format!(
                "cannot read action {text:?}: {token:?} is a joker, and Tonk has none (TK-1.1)"
            )));
        }
        Ok(c)
    };
    Ok(match words.as_slice() {
        ["draw"] => Action::DrawStock,
        ["take"] => Action::TakeDiscard,
        ["drop"] => Action::Drop,
        ["pass"] => Action::Pass,
        ["claim", "49"] => Action::Claim49,
        ["spades", "in"] => Action::SpadesIn,
        ["spades", "out"] => Action::SpadesOut,
        ["discard", c] => Action::Discard(card(c)?),
        ["hit", c, s] => {
            let id: u8 = s.trim_start_matches('s').parse().map_err(|_| bad())?;
            if usize::from(id) >= MAX_SPREADS {
                return Err(bad());
            }
            Action::Hit {
                spread: id,
                card: card(c)?,
            }
        }
        ["spread", cards @ ..] => {
            let mut mask = 0u64;
            for c in cards {
                mask |= card_bit(card(c)?);
            }
            // The cards name the shape, except for the two 13-card runs of a
            // suit with a high-or-low ace (A..K and 2..A): the first card
            // written tells them apart, as `Display` writes runs low to high.
            let first = card(cards.first().ok_or_else(bad)?)?;
            let cat = spread_catalogue();
            let mut same = (0..cat.len()).filter(|&i| cat[i].mask == mask);
            let i = same.next().ok_or_else(bad)?;
            let i = match same.next() {
                Some(j)
                    if !(cat[i].kind == MeldKind::Run && first.rank() == 1 && cat[i].lo == 1) =>
                {
                    j
                }
                _ => i,
            };
            Action::LaySpread(i as u16)
        }
        _ => return Err(bad()),
    })
}

impl Action {
    /// What the action is, for a front end (TK-13): its kind, the cards it
    /// moves (a spread's cards, the card hit or discarded) and the spread it
    /// hits.
    pub fn describe(self) -> ActionInfo {
        let text = self.to_string();
        match self {
            Action::Discard(c) => ActionInfo::new("discard", text).cards([c]),
            Action::DrawStock => ActionInfo::new("draw", text),
            Action::TakeDiscard => ActionInfo::new("take", text),
            Action::Drop => ActionInfo::new("drop", text),
            Action::Pass => ActionInfo::new("pass", text),
            Action::Claim49 => ActionInfo::new("claim_49", text),
            Action::SpadesIn => ActionInfo::new("spades_in", text),
            Action::SpadesOut => ActionInfo::new("spades_out", text),
            Action::LaySpread(i) => ActionInfo::new("spread", text).cards(
                spread_catalogue()
                    .get(usize::from(i))
                    .map(SpreadShape::cards)
                    .unwrap_or_default(),
            ),
            Action::Hit { spread, card } => ActionInfo::new("hit", text).cards([card]).meld(spread),
        }
    }
}
