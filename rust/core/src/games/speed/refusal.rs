//! Why an action is not legal now, with the rule that forbids it: what a
//! screen tells a person whose key asks for a move the rules refuse.

use super::*;
use crate::engine::{Refusal, State as _};

fn no(rule: &'static str, reason: impl Into<String>) -> Refusal {
    Refusal::new(rule, reason)
}

/// A rank as the table writes it: `A`, `2` … `10`, `J`, `Q`, `K`.
fn rank_name(rank: Rank) -> String {
    if rank == 10 {
        "10".to_string()
    } else {
        crate::card::rank_char(rank).to_string()
    }
}

/// `6 or 8`, `5, 6 or 7`: the ranks of a mask (bit r for rank r).
fn ranks_text(mask: u16) -> String {
    let names: Vec<String> = (1..=13u8)
        .filter(|r| mask >> r & 1 == 1)
        .map(rank_name)
        .collect();
    match names.split_last() {
        None => "none".to_string(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

impl SpeedState {
    /// Why `seat` may not take `action` now: None exactly when it is legal,
    /// otherwise the rule of `docs/rules.md` that forbids it (`"SD-2.1"`)
    /// and one sentence the player can act on (no card is named: the
    /// screen shows them).
    pub fn refusal(&self, seat: u8, action: u16) -> Option<Refusal> {
        if self.is_legal(seat, action) {
            return None;
        }
        let Ok(act) = Action::decode(action) else {
            return Some(no("SD-6", format!("{action} is not a Speed action")));
        };
        if seat >= 2 {
            return Some(no("SD-1.1", "Speed has two seats, 0 and 1"));
        }
        let s = usize::from(seat);
        Some(match self.phase {
            Phase::Over => no("SD-4.1", "the game is over"),
            Phase::Countdown => no("SD-1.4", "wait for the centre cards to turn up"),
            Phase::Stalemate => no(
                "SD-3.2",
                "nobody can play: the side piles are turning up a card",
            ),
            Phase::Playing => match act {
                Action::Play { card, pile } => {
                    if !self.hands[s].contains(&Some(card)) {
                        no("SD-2.1", "that card is not in your hand")
                    } else {
                        self.rank_refusal(card.rank(), pile)
                    }
                }
                Action::Joker { pile, rank } => {
                    if !self.hands[s].contains(&Some(Card::JOKER)) {
                        no("SD-5", "you hold no joker")
                    } else {
                        let fits = self.rank_mask(usize::from(pile.min(1)));
                        no(
                            "SD-5",
                            format!(
                                "a joker here is {}, not {}",
                                ranks_text(fits),
                                rank_name(rank.clamp(1, 13))
                            ),
                        )
                    }
                }
                Action::Draw => {
                    if self.cfg.auto_draw {
                        no("SD-2.2", "your hand refills by itself in this game")
                    } else if self.draw[s].is_empty() {
                        no("SD-2.2", "your draw pile is empty")
                    } else {
                        no("SD-2.2", "your hand is full")
                    }
                }
            },
        })
    }

    /// Why a card of `rank` does not go onto centre pile `pile`.
    fn rank_refusal(&self, rank: Rank, pile: u8) -> Refusal {
        let top = self.top[usize::from(pile.min(1))];
        if rank == top && !self.cfg.equal_rank_play {
            return no("SD-5", "equal ranks only with equal-rank play");
        }
        no("SD-2.1", "the ranks are not one apart (A and K are)")
    }
}
