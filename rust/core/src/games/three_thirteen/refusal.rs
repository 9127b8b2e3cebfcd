//! Why an action is not legal now (the rule and a sentence a player can act
//! on), and which legal actions a player could take back (TT-3 … TT-10).

use super::*;
use crate::engine::Refusal;

impl ThreeThirteenState {
    /// Why `act` is not legal now: the rule and a sentence the player can
    /// act on; `None` when it is legal.
    pub fn refusal(&self, act: Action) -> Option<Refusal> {
        if self.is_legal_action(act) {
            return None;
        }
        Some(self.refusal_of_illegal(act))
    }

    fn refusal_of_illegal(&self, act: Action) -> Refusal {
        if self.is_terminal() {
            return Refusal::new("TT-8.1", "the game is over: every round has been played");
        }
        let drawing = self.phase == Phase::Draw;
        let draw_first = || {
            Refusal::new(
                "TT-3.4",
                "draw first: take the top card of the stock or of the discard pile",
            )
        };
        let drawn = || {
            Refusal::new(
                "TT-3.4",
                "you have drawn this turn: now discard one card (or go out)",
            )
        };
        let not_held = |c: Card| Refusal::new("TT-3.4", format!("you do not hold {c}"));
        let rediscard = |c: Card| {
            Refusal::new(
                "TT-3.5",
                format!(
                    "{c} was just taken from the discard pile and may not be discarded this turn (forbid_rediscard)"
                ),
            )
        };
        let discard_refusal = |c: Card| {
            if drawing {
                draw_first()
            } else if !self.holds(c) {
                not_held(c)
            } else {
                rediscard(c)
            }
        };
        let not_redemption = || {
            if !self.cfg.redemption_round {
                Refusal::new(
                    "TT-11.2",
                    "melds stay in the hand until the round is scored; they are tabled only in a redemption round (redemption_round)",
                )
            } else if self.out_player.is_none() {
                Refusal::new(
                    "TT-10.6",
                    "melds are tabled and cards laid off only in the last turns, after someone went out",
                )
            } else {
                draw_first()
            }
        };
        match act {
            Action::DrawStock => {
                if !drawing {
                    drawn()
                } else {
                    Refusal::new(
                        "TT-9.2",
                        "the stock is empty and the discards would rebuild nothing: take the top discard",
                    )
                }
            }
            Action::TakeDiscard => {
                if !drawing {
                    drawn()
                } else {
                    Refusal::new("TT-3.4", "the discard pile is empty: draw from the stock")
                }
            }
            Action::Discard(c) => discard_refusal(c),
            Action::GoOut(c) => {
                if drawing {
                    draw_first()
                } else if self.out_player.is_some() {
                    Refusal::new(
                        "TT-6.2",
                        "someone has gone out already: this is your last turn, so discard",
                    )
                } else if !self.discard_ok(c) {
                    discard_refusal(c)
                } else if self.cfg.jokers == Jokers::WildGiftable
                    && deadwood_without(self.hand(self.current), c, &self.rules) == 0
                {
                    Refusal::new(
                        "TT-6.1",
                        format!(
                            "to go out every card but the discard must be in a meld, and with {c} as the discard a joker is left unmelded (it scores 0 but is not in a meld)"
                        ),
                    )
                } else {
                    Refusal::new(
                        "TT-6.1",
                        format!(
                            "to go out every card but the discard must be in a meld: with {c} as the discard some cards are left over"
                        ),
                    )
                }
            }
            Action::Gift(s) => {
                if self.cfg.jokers != Jokers::WildGiftable {
                    Refusal::new(
                        "TT-10.4",
                        "jokers are gifted only when they are giftable (jokers=wild_giftable)",
                    )
                } else if drawing {
                    draw_first()
                } else if s >= self.n() || s == self.current {
                    Refusal::new(
                        "TT-10.4",
                        format!(
                            "a joker is gifted to another player at the table (seats 0..{}, not your own)",
                            self.n() - 1
                        ),
                    )
                } else if !self.holds(Card::JOKER) {
                    Refusal::new("TT-10.4", "you hold no joker to gift")
                } else {
                    rediscard(Card::JOKER)
                }
            }
            Action::Table => {
                if !self.redemption_turn() {
                    not_redemption()
                } else {
                    Refusal::new(
                        "TT-10.6",
                        "the solver finds no meld in your hand to table (keep one card for the discard)",
                    )
                }
            }
            Action::LayOff { card, meld } => {
                if !self.redemption_turn() {
                    not_redemption()
                } else if !self.holds(card) {
                    not_held(card)
                } else if usize::from(meld) >= self.tabled.len() {
                    Refusal::new("TT-10.6", format!("there is no tabled meld M{meld}"))
                } else {
                    Refusal::new(
                        "TT-10.6",
                        format!(
                            "{card} does not fit meld M{meld}: a lay-off must leave a valid meld within the wild limits"
                        ),
                    )
                }
            }
            Action::Pick(c) => {
                if !self.redemption_turn() {
                    not_redemption()
                } else if self.holds(c) {
                    Refusal::new("TT-10.6", format!("every {c} you hold is picked already"))
                } else {
                    not_held(c)
                }
            }
            Action::LayMeld => {
                if !self.redemption_turn() {
                    not_redemption()
                } else if self.building.is_empty() {
                    Refusal::new(
                        "TT-10.6",
                        "pick the cards of the meld first (pick C), then lay them down",
                    )
                } else if self.tabled.len() >= MAX_TABLED_MELDS {
                    Refusal::new(
                        "TT-10.6",
                        format!("the table holds {MAX_TABLED_MELDS} melds, the most there can be"),
                    )
                } else {
                    let cards: Vec<String> = self.building.iter().map(Card::to_string).collect();
                    Refusal::new(
                        "TT-4.1",
                        format!(
                            "{} is not a meld: a book is 3 or more cards of one rank, a run 3 or more in sequence in one suit (TT-4.2), each with at most {} wild(s) standing in (TT-5.3)",
                            cards.join(" "),
                            wild_limit_text(&self.rules)
                        ),
                    )
                }
            }
        }
    }

    /// Whether `act`, legal now, could be taken back once made: it shows the
    /// player no hidden card and the turn goes on after it (taking the
    /// discard; picking, tabling and laying off without emptying the hand).
    /// A stock draw shows a hidden card and a discard ends the turn.
    pub fn can_take_back(&self, act: Action) -> bool {
        if !self.is_legal_action(act) {
            return false;
        }
        let left = self.hand_size(self.current);
        match act {
            Action::TakeDiscard | Action::Pick(_) | Action::Table => true,
            Action::LayMeld => left > self.building.len(),
            Action::LayOff { .. } => left > 1,
            _ => false,
        }
    }
}
