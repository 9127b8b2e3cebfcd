//! The rules in play, in words (what `?` shows in `play three-thirteen`).

use super::*;
use crate::engine::summary::{card_values_text, rank_plural, RulePoint};
use crate::meld::UNLIMITED;

impl ThreeThirteenConfig {
    /// Every point a player needs, as this configuration has it (TT-2 … TT-10).
    pub fn rules_summary(&self) -> Vec<RulePoint> {
        let schedule = self.schedule();
        let rounds: Vec<String> = schedule
            .rounds()
            .iter()
            .map(|r| format!("{} ({})", r.cards, rank_plural(r.wild)))
            .collect();
        let aces = if self.ace_high_or_low {
            "ace low or high, never wrapping; a run holds one ace at most"
        } else {
            "ace low"
        };
        let per_meld = if self.max_wilds_per_meld == UNLIMITED {
            "any number of them".to_string()
        } else {
            format!("at most {}", self.max_wilds_per_meld)
        };
        let jokers = match self.jokers {
            Jokers::None => "",
            _ => ", and so do the jokers (TT-10.4)",
        };
        let alone = if self.all_wild_melds {
            "; three or more wilds alone make a meld (TT-5.4)"
        } else {
            ""
        };
        let rediscard = if self.forbid_rediscard {
            " A card taken from the discard pile may not be discarded again that turn (TT-3.5)."
        } else {
            ""
        };
        let false_out = match self.false_out_penalty {
            Some(points) => format!(
                " A declaration that is not fully melded costs {points} and the turn ends with its discard (TT-10.9)."
            ),
            None => String::new(),
        };
        // Values of natural cards: valued with no wild rank in play.
        let natural = ResolvedRules::fixed(self.meld_rules(13), None);
        let rules = natural.rules;
        let value = |rank: u8| u32::from(natural.value(Card::of(rank, 0)));
        let mut jokers_cost = String::new();
        match self.jokers {
            Jokers::None => {}
            Jokers::Wild => jokers_cost = format!(", an unused joker {}", rules.joker_value),
            Jokers::WildGiftable => jokers_cost = ", an unused joker 0".to_string(),
        }
        let doubled = if self.double_jqk_rounds {
            " Rounds whose wild rank is J, Q or K count double (TT-10.7)."
        } else {
            ""
        };
        let mut out = vec![
            RulePoint::new(
                "Goal",
                "TT-8.1",
                "the lowest total after the last round wins. Each round, get your hand into melds: the cards left over (deadwood) are your points for the round (TT-7).",
            ),
            RulePoint::new(
                "Rounds",
                "TT-2",
                format!(
                    "{} rounds of {} cards, the wild rank in brackets.",
                    rounds.len(),
                    rounds.join(", ")
                ),
            ),
            RulePoint::new(
                "Melds",
                "TT-4",
                format!(
                    "a book is 3 or more cards of one rank, a run 3 or more in sequence in one suit ({aces}); a card is in one meld at most."
                ),
            ),
            RulePoint::new(
                "Wilds",
                "TT-5",
                format!(
                    "a card of the round's wild rank stands in for any card of a meld{jokers}, {per_meld} per meld, or stands as itself (TT-5.2){alone}."
                ),
            ),
            RulePoint::new(
                "Your turn",
                "TT-3.4",
                format!(
                    "draw one card, from the stock or the top of the discard pile, then discard one. Melds stay in your hand.{rediscard}"
                ),
            ),
            RulePoint::new(
                "Going out",
                "TT-6",
                format!(
                    "when every card but the one you discard is in melds; each other player then has one last turn, and the round is scored.{false_out}"
                ),
            ),
            RulePoint::new(
                "Deadwood",
                "TT-7.2",
                format!(
                    "{}; an unused wild {}{jokers_cost}.{doubled}",
                    card_values_text(value),
                    rules.wild_value
                ),
            ),
            RulePoint::new(
                "Stock",
                "TT-9",
                format!(
                    "an empty stock is made again from the discards but the top one; once it has been made {} time(s) in a round nobody went out of, the round is scored when it runs out again (TT-9.3).",
                    self.max_restocks
                ),
            ),
        ];
        if self.jokers == Jokers::WildGiftable {
            out.push(RulePoint::new(
                "Gifts",
                "TT-10.4",
                "as your discard you may put a joker in another player's area instead of on the pile; it leaves play and scores nothing.",
            ));
        }
        if self.redemption_round {
            out.push(RulePoint::new(
                "Redemption",
                "TT-10.6",
                "the melds of whoever goes out are tabled; in your last turn after that you may table melds of your own and lay cards off on any tabled meld. Emptying your hand that way scores 0.",
            ));
        }
        out
    }
}
