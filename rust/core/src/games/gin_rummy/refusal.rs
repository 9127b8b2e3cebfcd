//! Why an action is not legal now: the rule that forbids it and a sentence
//! the player can act on (GR-3 … GR-8).

use super::*;
use crate::engine::Refusal;

impl GinRummyState {
    /// Why `a` is not legal now (the rule and a sentence), or None if it is.
    pub fn refusal(&self, a: u16) -> Option<Refusal> {
        if self.is_legal(a) {
            return None;
        }
        let text = action_text(a).unwrap_or_else(|_| format!("action {a}"));
        Some(match self.phase {
            Phase::Over => Refusal::new("GR-8.6", "the game is over"),
            _ if a >= action::COUNT => Refusal::new(
                "GR-2.2",
                format!("{a} is not an action: ids run 0..{}", action::COUNT),
            ),
            Phase::FirstUpcard if self.passed == [true, true] => Refusal::new(
                "GR-3.1",
                "both players passed the first upcard: draw from the stock",
            ),
            Phase::FirstUpcard => Refusal::new(
                "GR-3.1",
                format!("{text}: take the first upcard or pass"),
            ),
            Phase::Draw => Refusal::new(
                "GR-4.1",
                format!("{text}: draw the upcard or from the stock first"),
            ),
            Phase::Discard if a == action::KNOCK => Refusal::new(
                "GR-5.1",
                format!(
                    "no discard leaves deadwood of {} or less: you may not knock",
                    self.knock_card
                ),
            ),
            Phase::Discard => Refusal::new(
                "GR-4.2",
                format!("{text}: discard a card of your hand, or knock"),
            ),
            Phase::Knock if self.hand_over_size() => Refusal::new(
                "GR-5.2",
                format!(
                    "{text}: after knocking, discard a card that keeps deadwood at {} or less",
                    self.knock_card
                ),
            ),
            Phase::Knock => Refusal::new(
                "GR-5.3",
                format!(
                    "{text}: lay a meld of an arrangement with deadwood at {} or less, or pass once the rest is that low",
                    self.knock_card
                ),
            ),
            Phase::Layoff if !self.finished_layoffs => Refusal::new(
                "GR-6.2",
                format!("{text}: lay off a card that fits the knocker's melds, or pass"),
            ),
            Phase::Layoff => Refusal::new(
                "GR-6.3",
                format!("{text}: lay a meld of your hand, or pass"),
            ),
            Phase::Wall => Refusal::new(
                "GR-7.1",
                format!("{text}: at the wall you may only knock (if legal) or pass"),
            ),
        })
    }
}
