//! The rules in play, in words (what `?` shows in `play spit`).

use super::*;
use crate::engine::summary::RulePoint;

impl SpitConfig {
    /// Every point a player needs, as this configuration has it (SP-1 … SP-7).
    pub fn rules_summary(&self) -> Vec<RulePoint> {
        let piles = usize::from(self.stock_piles);
        let layout = piles * (piles + 1) / 2;
        let colours = if self.alternate_colours {
            " and of the other colour (SP-7.3)"
        } else {
            ""
        };
        let equal = if self.equal_rank_play {
            "; a card of the same rank may go on it too (SP-7.4)"
        } else {
            ""
        };
        let flip = if self.auto_flip {
            "A face-down top card turns up by itself"
        } else {
            "Turn a face-down top card up yourself"
        };
        let stack = if self.stack_equal_ranks {
            ", or onto one of your top cards of the same rank (SP-7.4)"
        } else {
            ""
        };
        let stalemate = match self.stalemate {
            StalemateMode::Strict => "after a moment",
            StalemateMode::Agreed => "after a moment, or as soon as both players press spit",
        };
        let new_layout = if self.slap {
            "both players slap a spit pile: the first slap takes the pile it names (the smaller is the one to want) and the other player gets the other"
        } else {
            "the player who emptied the layout (or who has fewer cards left) chooses a spit pile and the other gets the other"
        };
        let mut out = vec![
            RulePoint::new(
                "Goal",
                "SP-5.1",
                "be the first with no cards at all: no cards in your stock piles and no spit cards.",
            ),
            RulePoint::new(
                "Deal",
                "SP-1.2",
                format!(
                    "26 cards each, dealt into {piles} stock piles of 1 to {piles} cards ({layout} cards, each top card face up); the rest are your spit cards, face down. Each deal starts with both players spitting a card onto their spit pile."
                ),
            ),
            RulePoint::new(
                "Play",
                "SP-2.1",
                format!(
                    "there are no turns: both play at once, as fast as they can. Play a top card of your stock piles onto either spit pile when its rank is one above or below the pile's top{colours}, an ace between K and 2{equal}. A card that no longer fits when it lands bounces back (RT-5)."
                ),
            ),
            RulePoint::new(
                "Your piles",
                "SP-2.2",
                format!(
                    "{flip}; a top card may move into an empty pile position{stack} (SP-2.3)."
                ),
            ),
            RulePoint::new(
                "Stuck",
                "SP-3",
                format!(
                    "when neither player can move, each player who has spit cards spits one onto their spit pile, {stalemate}; a player alone with spit cards spits onto one pile for the rest of the deal."
                ),
            ),
            RulePoint::new(
                "New deal",
                "SP-4",
                format!(
                    "when a player has emptied every stock pile, or nobody can move and nobody has spit cards, {new_layout}. Each takes a pile into their cards and deals a new layout."
                ),
            ),
            RulePoint::new(
                "One pile",
                "SP-6",
                "a player who starts a deal without spit cards plays on the other's pile alone: emptying the layout first wins the game.",
            ),
        ];
        if self.match_games > 1 {
            out.push(RulePoint::new(
                "Match",
                "SP-5.3",
                format!("best of {} games.", self.match_games),
            ));
        }
        out
    }
}
