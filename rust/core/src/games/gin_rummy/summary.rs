//! The rules in play, in words (what `?` shows in `play gin-rummy`).

use super::*;
use crate::engine::summary::{card_values_text, RulePoint};

impl GinRummyConfig {
    /// Every point a player needs, as this configuration has it (GR-1 … GR-9).
    pub fn rules_summary(&self) -> Vec<RulePoint> {
        // Ranks 1..=13 of the first OpenSpiel suit are ids 0..=12 (GR-2.1).
        let values = card_values_text(|rank| card_value(rank.saturating_sub(1)));
        let knock = if self.oklahoma {
            "the knock card (set by the first upcard, GR-9.1)".to_string()
        } else if self.knock_card == 0 {
            "0: only gin may knock".to_string()
        } else {
            format!("{}", self.knock_card)
        };
        let mut out = vec![
            RulePoint::new(
                "Goal",
                "GR-8",
                "meld your hand into sets and runs and knock when the cards left over (your deadwood) are worth little; the knocker scores the difference between the two deadwoods.",
            ),
            RulePoint::new(
                "Melds",
                "GR-2.3",
                "a set is 3 or 4 cards of one rank, a run 3 or more in sequence in one suit (ace low, never wrapping); a card is in one meld at most. Deadwood is what is not in a meld.",
            ),
            RulePoint::new("Card values", "GR-1.2", format!("{values}.")),
            RulePoint::new(
                "Deal",
                "GR-1.3",
                format!(
                    "{} cards each; the next card is turned up as the upcard, the rest is the stock.",
                    self.hand_size
                ),
            ),
            RulePoint::new(
                "The first upcard",
                "GR-3",
                "the player who acts first may take the first upcard or pass; then the other may; if both pass, the first player draws from the stock.",
            ),
            RulePoint::new(
                "Your turn",
                "GR-4",
                "draw the upcard or the top of the stock, then discard one card: it becomes the upcard. Drawing from the stock buries the upcard on the discard pile: the dead cards, which nobody can take any more.",
            ),
            RulePoint::new(
                "Knocking",
                "GR-5",
                format!(
                    "instead of discarding you may knock when your deadwood after your best discard is at most {knock}: you discard, lay your melds one by one and say done; what you keep in your hand counts as deadwood, melds too."
                ),
            ),
            RulePoint::new(
                "After a knock",
                "GR-6",
                "the other player lays cards off onto the knocker's melds (not after gin), then lays its own melds and says done; every card left in its hand counts as its deadwood.",
            ),
            RulePoint::new(
                "The wall",
                "GR-7.1",
                "when a discard leaves two cards in the stock, nobody draws: the next player may knock (taking the upcard) or pass, which ends the game as a draw.",
            ),
            RulePoint::new(
                "Scoring",
                "GR-8",
                format!(
                    "the knocker scores the other's deadwood minus its own, plus {} for gin (no deadwood); if the other player has less deadwood it undercuts the knocker and scores the difference plus {}; equal deadwood scores nothing.",
                    self.gin_bonus, self.undercut_bonus
                ),
            ),
            RulePoint::new(
                "Draws",
                "GR-7.3",
                format!(
                    "the game is a draw, nobody scoring, at the {MAX_UPCARD_DRAWS}th draw of an upcard, or when both players in a row throw back the upcard they just took (GR-7.4)."
                ),
            ),
        ];
        if self.oklahoma {
            out.push(RulePoint::new(
                "Oklahoma",
                "GR-9.1",
                "the first upcard's value is the knock card of the deal (an ace: gin only).",
            ));
        }
        out
    }
}
