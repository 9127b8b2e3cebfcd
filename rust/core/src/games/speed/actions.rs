//! The integer action encoding and its text form (SD-6).

use super::*;

/// Action encoding: every action is an integer below [`action::COUNT`],
/// the same for every configuration.
pub mod action {
    /// `PLAY_BASE + code * 2 + pile`: play that card (code 0..=51) onto the
    /// left (0) or right (1) centre pile (SD-2.1).
    pub const PLAY_BASE: u16 = 0;
    /// `JOKER_BASE + pile * 13 + rank - 1`: play a joker as that rank (SD-5).
    pub const JOKER_BASE: u16 = PLAY_BASE + 52 * 2;
    /// Draw the top of the own draw pile (`auto_draw = false`, SD-2.2).
    pub const DRAW: u16 = JOKER_BASE + 2 * 13;
    pub const COUNT: u16 = DRAW + 1;
}

/// A decoded action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// A card of the 52 onto a centre pile (0 left, 1 right).
    Play {
        card: Card,
        pile: u8,
    },
    /// A joker onto a centre pile, as `rank` (1..=13).
    Joker {
        pile: u8,
        rank: Rank,
    },
    Draw,
}

impl Action {
    pub fn decode(a: u16) -> Result<Action> {
        use action::*;
        Ok(match a {
            x if x < JOKER_BASE => Action::Play {
                card: Card::of(
                    ((x - PLAY_BASE) / 2) as u8 % 13 + 1,
                    ((x - PLAY_BASE) / 26) as u8,
                ),
                pile: ((x - PLAY_BASE) % 2) as u8,
            },
            x if x < DRAW => Action::Joker {
                pile: ((x - JOKER_BASE) / 13) as u8,
                rank: ((x - JOKER_BASE) % 13) as u8 + 1,
            },
            DRAW => Action::Draw,
            _ => {
                return Err(CoreError::IllegalAction(format!(
                    "{a} is not a Speed action (0..{COUNT})"
                )))
            }
        })
    }

    /// The id of a decoded action (a joker given to `Play` is read as the
    /// joker played as an ace, and a pile or rank out of range is brought
    /// into range, so every value encodes to some id).
    pub fn encode(self) -> u16 {
        use action::*;
        match self {
            Action::Play { card, pile } if !card.is_joker() => {
                PLAY_BASE + u16::from(card.code()) * 2 + u16::from(pile.min(1))
            }
            Action::Play { pile, .. } => JOKER_BASE + u16::from(pile.min(1)) * 13,
            Action::Joker { pile, rank } => {
                JOKER_BASE + u16::from(pile.min(1)) * 13 + u16::from(rank.clamp(1, 13) - 1)
            }
            Action::Draw => DRAW,
        }
    }
}

/// `L` or `R`.
pub fn pile_letter(pile: u8) -> char {
    if pile == LEFT {
        'L'
    } else {
        'R'
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Play { card, pile } => write!(f, "play {card} {}", pile_letter(*pile)),
            Action::Joker { pile, rank } => write!(
                f,
                "play JK {} as {}",
                pile_letter(*pile),
                crate::card::rank_char(*rank)
            ),
            Action::Draw => f.write_str("draw"),
        }
    }
}

/// Parses the text form of an action (as `Display` writes it; case and
/// spacing are free, `left`/`right` may stand for `L`/`R` and `10` for `T`).
/// Errors name the token that cannot be read.
pub fn parse_action(text: &str) -> Result<Action> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let bad = |token: &str, why: &str| {
        CoreError::IllegalAction(format!("cannot read action {text:?}: {token:?} {why}"))
    };
    let Some(&verb) = words.first() else {
        return Err(CoreError::IllegalAction(format!(
            "cannot read action {text:?}: it is empty"
        )));
    };
    let pile = |token: &str| -> Result<u8> {
        match token.to_ascii_lowercase().as_str() {
            "l" | "left" => Ok(LEFT),
            "r" | "right" => Ok(RIGHT),
            _ => Err(bad(token, "is not a centre pile (L or R)")),
        }
    };
    match verb.to_ascii_lowercase().as_str() {
        "draw" => match words.get(1) {
            None => Ok(Action::Draw),
            Some(extra) => Err(bad(extra, "is one word too many")),
        },
        "play" => {
            let Some(&ct) = words.get(1) else {
                return Err(bad(verb, "needs a card and a pile (play 7H L)"));
            };
            let card = Card::parse(ct).map_err(|e| bad(ct, &format!("is not a card ({e})")))?;
            let Some(&pt) = words.get(2) else {
                return Err(bad(ct, "needs a pile after it (L or R)"));
            };
            let p = pile(pt)?;
            if card.is_joker() {
                match (words.get(3), words.get(4)) {
                    (Some(a), Some(r)) if a.eq_ignore_ascii_case("as") => {
                        let rank = crate::card::parse_rank(r)
                            .map_err(|_| bad(r, "is not a rank (A, 2-9, T, J, Q, K)"))?;
                        if let Some(extra) = words.get(5) {
                            return Err(bad(extra, "is one word too many"));
                        }
                        Ok(Action::Joker { pile: p, rank })
                    }
                    (Some(a), _) if !a.eq_ignore_ascii_case("as") => {
                        Err(bad(a, "should be \"as\" (play JK L as 7)"))
                    }
                    _ => Err(bad(ct, "needs the rank it is played as (play JK L as 7)")),
                }
            } else {
                match words.get(3) {
                    None => Ok(Action::Play { card, pile: p }),
                    Some(extra) if extra.eq_ignore_ascii_case("as") => {
                        Err(bad(extra, "only follows a joker (play JK L as 7)"))
                    }
                    Some(extra) => Err(bad(extra, "is one word too many")),
                }
            }
        }
        _ => Err(bad(
            verb,
            "is not an action (play CARD L|R, play JK L|R as RANK, draw)",
        )),
    }
}
