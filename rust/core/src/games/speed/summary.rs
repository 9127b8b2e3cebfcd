//! The rules in play, in words (what `?` shows in `play speed`).

use super::*;
use crate::engine::summary::RulePoint;

impl SpeedConfig {
    /// Every point a player needs, as this configuration has it (SD-1 … SD-5).
    pub fn rules_summary(&self) -> Vec<RulePoint> {
        let each = self.cards_per_player();
        let equal = if self.equal_rank_play {
            "; a card of the same rank may go on it too (SD-5)"
        } else {
            ""
        };
        let refill = if self.auto_draw {
            "after each card you play, your hand refills from your draw pile by itself"
        } else {
            "draw from your draw pile yourself while your hand holds fewer than 5 cards"
        };
        let recycle = match self.recycle {
            Recycle::Merged => {
                "the centre piles but their top cards are shuffled into new side piles"
            }
            Recycle::PerPile => {
                "each centre pile but its top card is shuffled into the side pile next to it"
            }
        };
        let mut out = vec![
            RulePoint::new(
                "Goal",
                "SD-4.1",
                "be the first to play every card of your hand and your draw pile.",
            ),
            RulePoint::new(
                "Deal",
                "SD-1.2",
                format!(
                    "two side piles of {} cards and two centre cards, face down; {each} cards each: {HAND_SIZE} in your hand, the rest your draw pile. Each deal starts with the centre cards turning up.",
                    self.side_pile_size
                ),
            ),
            RulePoint::new(
                "Play",
                "SD-2.1",
                format!(
                    "there are no turns: both play at once, as fast as they can. Play a card of your hand onto either centre pile when its rank is one above or below the pile's top, an ace between K and 2, whatever the suit{equal}. A card that no longer fits when it lands bounces back (RT-5)."
                ),
            ),
            RulePoint::new("Refill", "SD-2.2", format!("{refill}.")),
            RulePoint::new(
                "Stuck",
                "SD-3",
                format!(
                    "when neither player can play and both hands are full, each side pile turns a card onto the centre pile next to it; once the side piles are empty, {recycle}. If nobody can play for two passes, the player with fewer cards wins the deal (SD-3.5)."
                ),
            ),
        ];
        if self.jokers {
            out.push(RulePoint::new(
                "Jokers",
                "SD-5",
                "two wild jokers: one played from your hand takes the rank you give it; one turned up from a side pile takes any card.",
            ));
        }
        let scoring = match (self.scoring, self.match_format) {
            (true, MatchFormat::Target) => Some(format!(
                "the winner of a deal scores a point for every card the other has left ({}); deals go on until someone has {} points.",
                if self.score_counts_hand { "hand and draw pile" } else { "draw pile only" },
                self.target_score
            )),
            (true, MatchFormat::BestOf3) => Some(format!(
                "best of three deals; the winner of a deal scores a point for every card the other has left ({}).",
                if self.score_counts_hand { "hand and draw pile" } else { "draw pile only" },
            )),
            (false, MatchFormat::BestOf3) => Some("best of three deals.".to_string()),
            (false, MatchFormat::Target) => None,
        };
        if let Some(text) = scoring {
            out.push(RulePoint::new("Match", "SD-4.2", text));
        }
        out
    }
}
