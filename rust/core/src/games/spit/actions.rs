//! The integer action encoding and its text form (SP-8).
//!
//! Piles are numbered 1..=5 in text (as on the keyboard map, HC-2) and
//! 0..=4 in [`Action`]; spit piles are `L` (side 0, started by seat 0) and
//! `R` (side 1, started by seat 1).

use super::*;

/// Action encoding (SP-8). Every action is an integer below [`action::COUNT`];
/// the ids are the same for 4 and 5 stock piles (pile 5 is then never legal).
pub mod action {
    use super::MAX_PILES;

    const P: u16 = MAX_PILES as u16;
    /// `PLAY_BASE + pile * 2 + side`: play that pile's top card onto that spit pile (SP-2.1).
    pub const PLAY_BASE: u16 = 0;
    /// `FLIP_BASE + pile`: turn that pile's face-down top card up (SP-2.2).
    pub const FLIP_BASE: u16 = PLAY_BASE + 2 * P;
    /// `MOVE_BASE + from * 5 + to`: move a top card into an empty position (SP-2.3).
    pub const MOVE_BASE: u16 = FLIP_BASE + P;
    /// `STACK_BASE + from * 5 + to`: stack a top card onto an equal rank (SP-7.4).
    pub const STACK_BASE: u16 = MOVE_BASE + P * P;
    /// Declare a stalemate (`stalemate = agreed`, SP-3.5).
    pub const SPIT: u16 = STACK_BASE + P * P;
    /// `SLAP_BASE + side`: claim (or choose) that spit pile at the end of a deal (SP-4.2, SP-4.4).
    pub const SLAP_BASE: u16 = SPIT + 1;
    /// `LONE_BASE + side`: the lone spitter's pile choice (SP-3.3).
    pub const LONE_BASE: u16 = SLAP_BASE + 2;
    pub const COUNT: u16 = LONE_BASE + 2;
}

/// A decoded action; piles are 0-based, sides 0 (L) and 1 (R).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    Play { pile: u8, side: u8 },
    Flip { pile: u8 },
    Move { from: u8, to: u8 },
    Stack { from: u8, to: u8 },
    Spit,
    Slap { side: u8 },
    Lone { side: u8 },
}

impl Action {
    pub fn decode(a: u16) -> Result<Action> {
        use action::*;
        let p = MAX_PILES as u16;
        Ok(match a {
            x if x < FLIP_BASE => Action::Play {
                pile: ((x - PLAY_BASE) / 2) as u8,
                side: ((x - PLAY_BASE) % 2) as u8,
            },
            x if x < MOVE_BASE => Action::Flip {
                pile: (x - FLIP_BASE) as u8,
            },
            x if x < STACK_BASE => Action::Move {
                from: ((x - MOVE_BASE) / p) as u8,
                to: ((x - MOVE_BASE) % p) as u8,
            },
            x if x < SPIT => Action::Stack {
                from: ((x - STACK_BASE) / p) as u8,
                to: ((x - STACK_BASE) % p) as u8,
            },
            SPIT => Action::Spit,
            x if x < LONE_BASE => Action::Slap {
                side: (x - SLAP_BASE) as u8,
            },
            x if x < COUNT => Action::Lone {
                side: (x - LONE_BASE) as u8,
            },
            _ => {
                return Err(CoreError::IllegalAction(format!(
                    "{a} is not a Spit action (0..{COUNT})"
                )))
            }
        })
    }

    /// The id; fields out of range (pile ≥ 5, side ≥ 2) are clamped into it.
    pub fn encode(self) -> u16 {
        use action::*;
        let p = MAX_PILES as u16;
        let pile = |x: u8| u16::from(x).min(p - 1);
        let side = |x: u8| u16::from(x).min(1);
        match self {
            Action::Play { pile: q, side: s } => PLAY_BASE + pile(q) * 2 + side(s),
            Action::Flip { pile: q } => FLIP_BASE + pile(q),
            Action::Move { from, to } => MOVE_BASE + pile(from) * p + pile(to),
            Action::Stack { from, to } => STACK_BASE + pile(from) * p + pile(to),
            Action::Spit => SPIT,
            Action::Slap { side: s } => SLAP_BASE + side(s),
            Action::Lone { side: s } => LONE_BASE + side(s),
        }
    }
}

/// `L` or `R`.
pub fn side_letter(side: u8) -> char {
    if side == 0 {
        'L'
    } else {
        'R'
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::Play { pile, side } => write!(f, "play {} {}", pile + 1, side_letter(side)),
            Action::Flip { pile } => write!(f, "flip {}", pile + 1),
            Action::Move { from, to } => write!(f, "move {} {}", from + 1, to + 1),
            Action::Stack { from, to } => write!(f, "stack {} {}", from + 1, to + 1),
            Action::Spit => f.write_str("spit"),
            Action::Slap { side } => write!(f, "slap {}", side_letter(side)),
            Action::Lone { side } => write!(f, "lone {}", side_letter(side)),
        }
    }
}

/// Parses the text form of an action (as `Display` writes it; case and
/// spacing are free, `left`/`right` may spell `L`/`R`). Errors name the
/// token that cannot be read.
pub fn parse_action(text: &str) -> Result<Action> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let bad = |token: &str, why: &str| {
        CoreError::IllegalAction(format!("cannot read action {text:?}: {token:?} {why}"))
    };
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
    let pile = |token: &str| -> Result<u8> {
        token
            .parse::<u8>()
            .ok()
            .filter(|p| (1..=MAX_PILES as u8).contains(p))
            .map(|p| p - 1)
            .ok_or_else(|| bad(token, &format!("is not a stock pile 1..{MAX_PILES}")))
    };
    let side = |token: &str| -> Result<u8> {
        match token.to_ascii_lowercase().as_str() {
            "l" | "left" => Ok(0),
            "r" | "right" => Ok(1),
            _ => Err(bad(token, "is not a spit pile (L or R)")),
        }
    };
    let Some(verb) = words.first().map(|w| w.to_ascii_lowercase()) else {
        return Err(CoreError::IllegalAction(format!(
            "cannot read action {text:?}: it is empty"
        )));
    };
    Ok(match verb.as_str() {
        "play" => {
            arity(3)?;
            Action::Play {
                pile: pile(words[1])?,
                side: side(words[2])?,
            }
        }
        "flip" => {
            arity(2)?;
            Action::Flip {
                pile: pile(words[1])?,
            }
        }
        "move" => {
            arity(3)?;
            Action::Move {
                from: pile(words[1])?,
                to: pile(words[2])?,
            }
        }
        "stack" => {
            arity(3)?;
            Action::Stack {
                from: pile(words[1])?,
                to: pile(words[2])?,
            }
        }
        "spit" => {
            arity(1)?;
            Action::Spit
        }
        "slap" => {
            arity(2)?;
            Action::Slap {
                side: side(words[1])?,
            }
        }
        "lone" => {
            arity(2)?;
            Action::Lone {
                side: side(words[1])?,
            }
        }
        _ => return Err(bad(
            words[0],
            "is not an action (play P L|R, flip P, move P Q, stack P Q, spit, slap L|R, lone L|R)",
        )),
    })
}
