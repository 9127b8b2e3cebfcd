//! The integer action encoding and its text form (TT-12.3).

use super::*;
use crate::engine::ActionInfo;

/// Action encoding (TT-12.3). Every action is an integer below [`action::COUNT`];
/// a card is its code (0..=51, 52 the joker): copies are interchangeable (CM-4).
pub mod action {
    use super::{CARD_CODES, MAX_PLAYERS, MAX_TABLED_MELDS};

    /// `DISCARD_BASE + code`: discard that card (TT-3.4).
    pub const DISCARD_BASE: u16 = 0;
    /// `OUT_BASE + code`: go out with that card as the discard (TT-6.1).
    pub const OUT_BASE: u16 = DISCARD_BASE + CARD_CODES as u16;
    /// Draw the top of the stock (rebuilding it when empty, TT-9.1).
    pub const DRAW_STOCK: u16 = OUT_BASE + CARD_CODES as u16;
    /// Take the top of the discard pile.
    pub const TAKE_DISCARD: u16 = DRAW_STOCK + 1;
    /// Table the solver's best arrangement of the hand (TT-10.6).
    pub const TABLE: u16 = TAKE_DISCARD + 1;
    /// `GIFT_BASE + seat`: put a joker in that seat's area as the discard (TT-10.4).
    pub const GIFT_BASE: u16 = TABLE + 1;
    /// `LAYOFF_BASE + meld * 53 + code`: lay that card off on tabled meld `meld` (TT-10.6).
    pub const LAYOFF_BASE: u16 = GIFT_BASE + MAX_PLAYERS as u16;
    /// `PICK_BASE + code`: pick a held card for the meld being built (TT-10.6).
    pub const PICK_BASE: u16 = LAYOFF_BASE + (MAX_TABLED_MELDS * CARD_CODES) as u16;
    /// Lay the picked cards down as one meld (TT-10.6).
    pub const LAY_MELD: u16 = PICK_BASE + CARD_CODES as u16;
    pub const COUNT: u16 = LAY_MELD + 1;
}

/// A decoded action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    Discard(Card),
    GoOut(Card),
    DrawStock,
    TakeDiscard,
    Table,
    Gift(u8),
    LayOff {
        card: Card,
        meld: u8,
    },
    /// Put a held card into the meld being built (a redemption last turn).
    Pick(Card),
    /// Table the picked cards as one meld.
    LayMeld,
}

fn card_of(code: u16) -> Card {
    Card::from_code(code as u8).unwrap_or(Card::JOKER)
}

impl Action {
    pub fn decode(a: u16) -> Result<Action> {
        use action::*;
        let codes = CARD_CODES as u16;
        Ok(match a {
            x if x < OUT_BASE => Action::Discard(card_of(x - DISCARD_BASE)),
            x if x < DRAW_STOCK => Action::GoOut(card_of(x - OUT_BASE)),
            DRAW_STOCK => Action::DrawStock,
            TAKE_DISCARD => Action::TakeDiscard,
            TABLE => Action::Table,
            x if x < LAYOFF_BASE => Action::Gift((x - GIFT_BASE) as u8),
            x if x < PICK_BASE => {
                let k = x - LAYOFF_BASE;
                Action::LayOff {
                    card: card_of(k % codes),
                    meld: (k / codes) as u8,
                }
            }
            x if x < LAY_MELD => Action::Pick(card_of(x - PICK_BASE)),
            LAY_MELD => Action::LayMeld,
            _ => {
                return Err(CoreError::IllegalAction(format!(
                    "{a} is not a Three Thirteen action (0..{COUNT})"
                )))
            }
        })
    }

    pub fn encode(self) -> u16 {
        use action::*;
        let codes = CARD_CODES as u16;
        match self {
            Action::Discard(c) => DISCARD_BASE + u16::from(c.code()),
            Action::GoOut(c) => OUT_BASE + u16::from(c.code()),
            Action::DrawStock => DRAW_STOCK,
            Action::TakeDiscard => TAKE_DISCARD,
            Action::Table => TABLE,
            Action::Gift(s) => GIFT_BASE + u16::from(s),
            Action::LayOff { card, meld } => {
                LAYOFF_BASE + u16::from(meld) * codes + u16::from(card.code())
            }
            Action::Pick(c) => PICK_BASE + u16::from(c.code()),
            Action::LayMeld => LAY_MELD,
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Discard(c) => write!(f, "discard {c}"),
            Action::GoOut(c) => write!(f, "out {c}"),
            Action::DrawStock => f.write_str("draw"),
            Action::TakeDiscard => f.write_str("take"),
            Action::Table => f.write_str("table"),
            Action::Gift(s) => write!(f, "gift JK {s}"),
            Action::LayOff { card, meld } => write!(f, "layoff {card} M{meld}"),
            Action::Pick(c) => write!(f, "pick {c}"),
            Action::LayMeld => f.write_str("meld"),
        }
    }
}

/// Parses the text form of an action (as `Display` writes it; case and
/// spacing are free). Errors name the token that cannot be read.
pub fn parse_action(text: &str) -> Result<Action> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let bad = |token: &str, why: &str| {
        CoreError::IllegalAction(format!("cannot read action {text:?}: {token:?} {why}"))
    };
    let card = |token: &str| -> Result<Card> {
        Card::parse(token).map_err(|e| bad(token, &format!("is not a card ({e})")))
    };
    let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
    let l: Vec<&str> = lower.iter().map(String::as_str).collect();
    let arity = |n: usize| -> Result<()> {
        if words.len() == n {
            Ok(())
        } else if words.len() > n {
            Err(bad(words[n], "is one word too many"))
        } else {
            Err(bad(
                words[0],
                &format!("needs {} more word(s)", n - words.len()),
            ))
        }
    };
    let Some(&verb) = l.first() else {
        return Err(CoreError::IllegalAction(format!(
            "cannot read action {text:?}: it is empty"
        )));
    };
    Ok(match verb {
        "draw" => {
            arity(1)?;
            Action::DrawStock
        }
        "take" => {
            arity(1)?;
            Action::TakeDiscard
        }
        "table" => {
            arity(1)?;
            Action::Table
        }
        "discard" => {
            arity(2)?;
            Action::Discard(card(words[1])?)
        }
        "pick" => {
            arity(2)?;
            Action::Pick(card(words[1])?)
        }
        "meld" => {
            arity(1)?;
            Action::LayMeld
        }
        "out" => {
            arity(2)?;
            Action::GoOut(card(words[1])?)
        }
        "gift" => {
            arity(3)?;
            if !card(words[1])?.is_joker() {
                return Err(bad(
                    words[1],
                    "is not a joker: only jokers are gifted (TT-10.4)",
                ));
            }
            let seat: u8 = words[2]
                .parse()
                .ok()
                .filter(|&s: &u8| usize::from(s) < MAX_PLAYERS)
                .ok_or_else(|| bad(words[2], &format!("is not a seat 0..{}", MAX_PLAYERS - 1)))?;
            Action::Gift(seat)
        }
        "layoff" => {
            arity(3)?;
            let c = card(words[1])?;
            let id = l[2]
                .strip_prefix('m')
                .and_then(|n| n.parse::<u8>().ok())
                .filter(|&m| usize::from(m) < MAX_TABLED_MELDS)
                .ok_or_else(|| {
                    bad(
                        words[2],
                        &format!("is not a meld id M0..M{}", MAX_TABLED_MELDS - 1),
                    )
                })?;
            Action::LayOff { card: c, meld: id }
        }
        _ => {
            return Err(bad(
                words[0],
                "is not an action (draw, take, discard C, out C, gift JK S, table, layoff C Mk, pick C, meld)",
            ))
        }
    })
}

impl Action {
    /// What the action is, for a front end: its kind, the card it moves,
    /// the seat a joker is gifted to (TT-10.4) and the tabled meld a card is
    /// laid off on (TT-10.6).
    pub fn describe(self) -> ActionInfo {
        let text = self.to_string();
        match self {
            Action::Discard(c) => ActionInfo::new("discard", text).cards([c]),
            Action::GoOut(c) => ActionInfo::new("out", text).cards([c]),
            Action::DrawStock => ActionInfo::new("draw", text),
            Action::TakeDiscard => ActionInfo::new("take", text),
            Action::Table => ActionInfo::new("table", text),
            Action::Gift(s) => ActionInfo::new("gift", text).cards([Card::JOKER]).seat(s),
            Action::LayOff { card, meld } => {
                ActionInfo::new("layoff", text).cards([card]).meld(meld)
            }
            Action::Pick(c) => ActionInfo::new("pick", text).cards([c]),
            Action::LayMeld => ActionInfo::new("meld", text),
        }
    }
}
