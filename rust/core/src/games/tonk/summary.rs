//! The rules in play, in words (what `?` shows in `play tonk`).

use super::*;
use crate::engine::summary::{card_values_text, RulePoint};

impl TonkConfig {
    /// Every point a player needs, as this configuration has it (TK-1 … TK-11).
    pub fn rules_summary(&self) -> Vec<RulePoint> {
        let values = card_values_text(|rank| self.card_value(Card::of(rank, 0)));
        let drop = match self.drop_timing {
            DropTiming::StartOfTurn => "at the start of your turn, before you draw",
            DropTiming::OwnTurnAnyPhase => "at any point of your turn before you discard",
            DropTiming::AnyTime => "at any time, in the drop window after every move",
        };
        let aces = if self.aces_high {
            "ace low or high, never wrapping"
        } else {
            "ace low"
        };
        let hits = if self.only_runs_hittable {
            "a run"
        } else {
            "any spread"
        };
        let mut turn = format!(
            "draw one card, from the stock or the top of the discard pile; lay spreads and hit as you like; then discard one card. You may drop {drop} (TK-6.8)."
        );
        if self.forbid_rediscard {
            turn.push_str(" The card you took from the discard pile may not be discarded again that turn (TK-6.9).");
        }
        if self.discard_pickup_must_be_used {
            turn.push_str(" A card you take from the discard pile must go into a spread or a hit that turn (TK-6.10).");
        }
        if let Some(m) = self.max_hits_per_turn {
            turn.push_str(&format!(" At most {m} hit(s) a turn (TK-6.10)."));
        }
        let mut spreads = format!(
            "a book is 3 or 4 cards of one rank, a run 3 or more in sequence in one suit ({aces}); cards in spreads no longer count. A hit (TK-8.1) adds a card of your hand to {hits} on the table, yours or another player's."
        );
        if self.must_spread {
            spreads.push_str(" A spread you hold must be laid before you discard (TK-7.6).");
        }
        let mut out = vec![
            RulePoint::new(
                "Goal",
                "TK-10",
                "get rid of your cards, or hold the lowest count when the hand ends.",
            ),
            RulePoint::new(
                "Count",
                "TK-3",
                format!("your count adds up the cards in your hand: {values}."),
            ),
            RulePoint::new(
                "Deal",
                "TK-2",
                format!(
                    "{} cards to each of {} players.",
                    self.hand_size, self.players
                ),
            ),
            RulePoint::new("Your turn", "TK-6.2", turn),
            RulePoint::new("Spreads", "TK-7", spreads),
            RulePoint::new(
                "The end",
                "TK-10",
                "the hand ends when somebody tonks out, putting every card down in spreads and hits (TK-10.1), goes out with the last discard (TK-10.2), or drops: a drop shows every hand, and a dropper without the strictly lowest count is caught and pays (TK-10.3). If the stock runs out, the lowest count wins (TK-10.4).",
            ),
        ];
        if self.hit_lock_per_hit > 0 {
            let each = match self.hit_lock_unit {
                LockUnit::PerCard => "card",
                LockUnit::PerTurn => "turn's hits",
            };
            let turns = if self.hit_lock_per_hit == 1 {
                "your next turn".to_string()
            } else {
                format!("{} of your turns", self.hit_lock_per_hit)
            };
            out.push(RulePoint::new(
                "Hit lock",
                "TK-8.4",
                format!(
                    "each {each} another player hits onto your spreads stops you dropping in {turns}."
                ),
            ));
        }
        let mut deal: Vec<String> = Vec::new();
        match self.deal_wins {
            DealWins::Pagat => deal.push("a dealt count of 49 or 50 wins the hand at once".into()),
            DealWins::FiftyOnly => deal.push("a dealt count of 50 wins the hand at once".into()),
            DealWins::Texas => deal.push(
                "a dealt count of 50 or 49 wins the hand at once (50 pays more)".into(),
            ),
            DealWins::FortyNineInTurn => deal.push(
                "a dealt count of 50 wins the hand at once, and a 49 does when its holder claims it at the start of their first turn".into(),
            ),
            DealWins::None => {}
        }
        if self.low_13 {
            deal.push("a dealt count of 13 or less wins 2s at once".into());
        }
        if self.low_9 {
            deal.push("a dealt count of 9 or less wins 3s at once".into());
        }
        if !deal.is_empty() {
            out.push(RulePoint::new(
                "On the deal",
                "TK-5",
                format!(
                    "{}; two such hands make the deal void (TK-5.5).",
                    deal.join("; ")
                ),
            ));
        }
        if let Some(bet) = self.spades_bet {
            out.push(RulePoint::new(
                "Spades bet",
                "TK-11.3",
                format!(
                    "before the first turn each player may put {bet} stake(s) into a side pot; the highest spade among those who did takes it."
                ),
            ));
        }
        out.push(RulePoint::new(
            "Stakes",
            "TK-1.3",
            format!(
                "payments are counted in stakes of {}; at the end of a hand each payment says who pays whom and why.",
                self.stake
            ),
        ));
        out
    }
}
