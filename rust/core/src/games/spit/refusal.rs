//! Why an action is not legal now, with the rule that forbids it: what a
//! screen tells a person whose key asks for a move the rules refuse.

use super::*;
use crate::engine::{Refusal, State as _};

fn no(rule: &'static str, reason: impl Into<String>) -> Refusal {
    Refusal::new(rule, reason)
}

impl SpitState {
    /// Why `seat` may not take `action` now: None exactly when it is legal,
    /// otherwise the rule of `docs/rules.md` that forbids it (`"SP-2.1"`)
    /// and one sentence the player can act on. Piles are numbered 1..=5 as
    /// on the screen; no card is named (the screen shows them).
    pub fn refusal(&self, seat: u8, action: u16) -> Option<Refusal> {
        if self.is_legal(seat, action) {
            return None;
        }
        let Ok(act) = Action::decode(action) else {
            return Some(no("SP-8", format!("{action} is not a Spit action")));
        };
        if seat >= 2 {
            return Some(no("SP-1.1", "Spit has two seats, 0 and 1"));
        }
        Some(match self.phase {
            Phase::Over => no("SP-5.1", "the game is over"),
            Phase::Countdown => no(
                "SP-1.3",
                "wait for the spit: play starts when the spit cards turn up",
            ),
            Phase::Regather => no("SP-4.3", "the cards are being gathered for the next layout"),
            Phase::LoneChoice if usize::from(self.lone_seat) == usize::from(seat) => no(
                "SP-3.3",
                "you spit alone: first choose the spit pile you spit on",
            ),
            Phase::LoneChoice => no(
                "SP-3.3",
                "the other player spits alone and is choosing a spit pile",
            ),
            Phase::Slap => self.slap_refusal(seat, act),
            Phase::Playing => self.play_refusal(usize::from(seat), act),
        })
    }

    /// At the end of a deal only a claim (or the chooser's choice) is legal.
    fn slap_refusal(&self, seat: u8, act: Action) -> Refusal {
        let claim = matches!(act, Action::Slap { .. });
        match (self.cfg.slap, claim) {
            (true, true) => no("SP-4.2", "you have claimed a spit pile already"),
            (true, false) if self.claims[usize::from(seat)].is_some() => no(
                "SP-4.2",
                "the deal is over: the new layout comes when the piles are taken",
            ),
            (true, false) => no(
                "SP-4.2",
                "the deal is over: slap a spit pile (the smaller is better)",
            ),
            (false, _) if seat != self.chooser => no(
                "SP-4.4",
                "the deal is over: the other player chooses a spit pile",
            ),
            (false, _) => no("SP-4.4", "the deal is over: choose the spit pile you take"),
        }
    }

    fn play_refusal(&self, s: usize, act: Action) -> Refusal {
        let n = self.piles_n();
        let missing = |p: u8| usize::from(p) >= n;
        let too_many = || no("SP-7.1", format!("there are only {n} stock piles"));
        match act {
            Action::Play { pile, side } => {
                if missing(pile) {
                    return too_many();
                }
                if let Some(why) = self.top_refusal(s, pile) {
                    return why;
                }
                let (Some(card), Some(top)) = (
                    self.piles[s][usize::from(pile)].top(),
                    self.centre[usize::from(side)].top(),
                ) else {
                    return no("SP-6.1", "only one spit pile is in play this deal");
                };
                self.fit_refusal(card, top)
            }
            Action::Flip { pile } => {
                if self.cfg.auto_flip {
                    no(
                        "SP-2.2",
                        "face-down cards turn up by themselves in this game",
                    )
                } else if missing(pile) {
                    too_many()
                } else if self.piles[s][usize::from(pile)].is_empty() {
                    no("SP-2.2", format!("stock pile {} is empty", pile + 1))
                } else {
                    no(
                        "SP-2.2",
                        format!("the top of stock pile {} is face up already", pile + 1),
                    )
                }
            }
            Action::Move { from, to } => {
                if missing(from) || missing(to) {
                    return too_many();
                }
                if let Some(why) = self.top_refusal(s, from) {
                    return why;
                }
                if from == to {
                    return no("SP-2.3", "a card moves to another position");
                }
                no("SP-2.3", format!("position {} is not empty", to + 1))
            }
            Action::Stack { from, to } => {
                if !self.cfg.stack_equal_ranks {
                    return no("SP-7.4", "stacking equal ranks is off in this game");
                }
                if missing(from) || missing(to) {
                    return too_many();
                }
                if let Some(why) = self.top_refusal(s, from) {
                    return why;
                }
                let onto = &self.piles[s][usize::from(to)];
                match onto.top() {
                    _ if from == to => no("SP-7.4", "a card stacks onto another pile"),
                    _ if onto.len() >= PILE_CAP => no(
                        "SP-7.4",
                        format!("stock pile {} holds no more cards", to + 1),
                    ),
                    None => no(
                        "SP-7.4",
                        format!("stock pile {} has no face-up top to stack onto", to + 1),
                    ),
                    Some(_) => no("SP-7.4", "a card stacks only onto a top of the same rank"),
                }
            }
            Action::Spit => match self.cfg.stalemate {
                StalemateMode::Strict => no(
                    "SP-3.5",
                    "the spit comes by itself at a stalemate (stalemate strict)",
                ),
                StalemateMode::Agreed => no(
                    "SP-3.5",
                    "you have said spit: it comes when the other player says it too",
                ),
            },
            Action::Slap { .. } => no("SP-4.2", "the spit piles are slapped at the end of a deal"),
            Action::Lone { .. } => no("SP-3.3", "nobody is spitting alone now"),
        }
    }

    /// Why the top of `seat`'s stock pile cannot leave it: an empty pile or
    /// a face-down top.
    fn top_refusal(&self, s: usize, pile: u8) -> Option<Refusal> {
        let p = &self.piles[s][usize::from(pile)];
        if p.is_empty() {
            Some(no("SP-2.1", format!("stock pile {} is empty", pile + 1)))
        } else if p.top_face_down() {
            Some(no(
                "SP-2.2",
                format!(
                    "the top of stock pile {} is face down: flip it first",
                    pile + 1
                ),
            ))
        } else {
            None
        }
    }

    /// Why `card` does not go onto a spit pile topped by `top`.
    fn fit_refusal(&self, card: Card, top: Card) -> Refusal {
        if self.fits_by_rank(card, top) {
            // Only the colour rule can refuse a card whose rank fits.
            return no("SP-7.3", "the colours must differ");
        }
        if card.rank() == top.rank() {
            return no("SP-7.4", "equal ranks only with equal-rank play");
        }
        no("SP-2.1", "the ranks are not one apart (A and K are)")
    }
}
