//! Why an action is not legal now (the rule and a sentence a player can act
//! on), and which legal actions a player could take back (TK-6 … TK-11).

use super::*;
use crate::engine::Refusal;

fn no(rule: &'static str, reason: impl Into<String>) -> Option<Refusal> {
    Some(Refusal::new(rule, reason))
}

fn cards_text(mask: u64) -> String {
    let v: Vec<String> = mask_cards(mask).iter().map(ToString::to_string).collect();
    v.join(" ")
}

fn shape_text(shape: &SpreadShape) -> String {
    let s = shape.laid(0, 0);
    let v: Vec<String> = s.cards_vec().iter().map(ToString::to_string).collect();
    v.join(" ")
}

fn spread_text(s: &Spread) -> String {
    let v: Vec<String> = s.cards_vec().iter().map(ToString::to_string).collect();
    format!("S{} ({})", s.id, v.join(" "))
}

fn rank_plural(rank: u8) -> String {
    let name = match rank {
        1 => "ace",
        11 => "jack",
        12 => "queen",
        13 => "king",
        r => return format!("{r}s"),
    };
    format!("{name}s")
}

impl TonkState {
    /// Why `act` is not legal now: `None` when it is legal, otherwise the
    /// rule that forbids it (its ID in `docs/rules.md`) and one sentence the
    /// player can act on, in the engine's card notation (`7H`). Agrees with
    /// [`TonkState::is_legal_action`] on every action, and names only what
    /// the player to decide may see.
    pub fn refusal(&self, act: Action) -> Option<Refusal> {
        use Action::*;
        match self.phase {
            Phase::Over => no(
                "TK-10",
                "the hand is over: exactly one ending ends a hand, and this one has ended",
            ),
            Phase::Spades => match act {
                SpadesIn | SpadesOut => None,
                _ => no(
                    "TK-11.3",
                    "first opt in or out of the spades side bet: spades in or spades out",
                ),
            },
            Phase::Window => match act {
                Pass => None,
                Drop => self.drop_refusal(),
                Claim49 => self.claim_refusal(),
                SpadesIn | SpadesOut => self.spades_refusal(),
                _ => no(
                    "TK-6.8",
                    "this is a drop window, offered to each player in turn: drop or pass",
                ),
            },
            Phase::TurnStart => match act {
                DrawStock => None,
                TakeDiscard => self.take_refusal(),
                Drop => self.drop_refusal(),
                Claim49 => self.claim_refusal(),
                Pass => no(
                    "TK-6.8",
                    "there is no drop window to pass: draw from the stock or take the discard",
                ),
                SpadesIn | SpadesOut => self.spades_refusal(),
                Discard(_) | LaySpread(_) | Hit { .. } => no(
                    "TK-6.4",
                    "draw first: take the top of the stock or of the discard pile",
                ),
            },
            Phase::Play => match act {
                DrawStock | TakeDiscard => no(
                    "TK-6.4",
                    "you have drawn this turn already: a turn takes exactly one card",
                ),
                Drop => self.drop_refusal(),
                Claim49 => self.claim_refusal(),
                Pass => no(
                    "TK-6.8",
                    "there is no drop window to pass: spread, hit or discard",
                ),
                SpadesIn | SpadesOut => self.spades_refusal(),
                Discard(c) => self.discard_refusal(c),
                LaySpread(i) => self.lay_refusal(i),
                Hit { spread, card } => self.hit_refusal(spread, card),
            },
        }
    }

    /// The sentence for a card taken from the discard pile and not yet used.
    fn pickup_unused_text(t: Card, doing: &str) -> String {
        format!(
            "{t}, taken from the discard pile, must go into a spread or a hit before you {doing}"
        )
    }

    fn spades_refusal(&self) -> Option<Refusal> {
        if self.cfg.spades_bet.is_none() {
            no("TK-11.3", "these rules have no spades side bet")
        } else {
            no(
                "TK-11.3",
                "the spades side bet is decided once, before the first turn",
            )
        }
    }

    /// Mirrors [`TonkState::may_drop`].
    fn drop_refusal(&self) -> Option<Refusal> {
        if self.current == self.turn_player {
            if let Some(t) = self.unused_pickup() {
                return no("TK-6.10", Self::pickup_unused_text(t, "drop"));
            }
        }
        let locked = || {
            no(
                "TK-8.4",
                "another player hit your spread, so you are under a hit lock: no drop this turn",
            )
        };
        match (self.cfg.drop_timing, self.phase) {
            (DropTiming::AnyTime, Phase::Window) => None,
            (DropTiming::AnyTime, _) => no(
                "TK-6.8",
                "with drop_timing = any_time you drop only in a drop window, offered after every action",
            ),
            (_, Phase::TurnStart) | (DropTiming::OwnTurnAnyPhase, Phase::Play) => {
                if self.turn.locked {
                    locked()
                } else {
                    None
                }
            }
            (DropTiming::StartOfTurn, Phase::Play) => no(
                "TK-6.3",
                "you may drop only at the very start of your turn, before drawing",
            ),
            _ => no("TK-6.8", "no drop is offered now"),
        }
    }

    /// Mirrors [`TonkState::can_claim_49`].
    fn claim_refusal(&self) -> Option<Refusal> {
        if self.cfg.deal_wins != DealWins::FortyNineInTurn {
            return no(
                "TK-5.4",
                "a 49 is claimed in turn only with deal_wins = forty_nine_in_turn",
            );
        }
        let p = self.turn_player;
        let first = "a 49 is claimed at the start of your first turn, before drawing";
        match self.phase {
            Phase::TurnStart => {}
            Phase::Window if self.current != p => {
                return no(
                    "TK-5.4",
                    "only the player whose first turn is starting may claim a 49",
                )
            }
            Phase::Window if self.window.is_some_and(|w| w.resume == Phase::TurnStart) => {}
            _ => return no("TK-5.4", first),
        }
        if self.had_turn & (1 << p) != 0 {
            return no(
                "TK-5.4",
                "a 49 is claimed only at your first turn, and you have had it",
            );
        }
        let dealt = self.dealt[usize::from(p)];
        if dealt != 49 {
            return no(
                "TK-5.4",
                format!("your dealt count was {dealt}, not 49: there is nothing to claim"),
            );
        }
        None
    }

    /// Mirrors [`TonkState::may_take_discard`].
    fn take_refusal(&self) -> Option<Refusal> {
        let Some(&top) = self.pile.last() else {
            return no("TK-6.4", "the discard pile is empty: draw from the stock");
        };
        if self.may_take_discard() {
            None
        } else {
            no(
                "TK-6.10",
                format!(
                    "you may take {top} only if it can go into a spread or a hit this turn, and it cannot"
                ),
            )
        }
    }

    /// Mirrors [`TonkState::may_discard`].
    fn discard_refusal(&self, c: Card) -> Option<Refusal> {
        let hand = self.hands[usize::from(self.current)];
        let bit = card_bit(c);
        if hand & bit == 0 {
            return no("TK-6.7", format!("you do not hold {c}"));
        }
        if self.cfg.forbid_rediscard && self.turn.took == Some(c) && hand.count_ones() > 1 {
            return no(
                "TK-6.9",
                format!(
                    "you took {c} from the discard pile this turn and may not throw it back while you hold other cards"
                ),
            );
        }
        if let Some(t) = self.pending_pickup() {
            return no("TK-6.10", Self::pickup_unused_text(t, "discard"));
        }
        if self.cfg.must_spread {
            if let Some(i) = held_spread(hand & !bit, &self.cfg) {
                let shape = spread_catalogue()[usize::from(i)];
                return no(
                    "TK-7.6",
                    format!(
                        "no spread may stay in your hand (must_spread): lay {} before you discard {c}",
                        shape_text(&shape)
                    ),
                );
            }
        }
        None
    }

    fn lay_refusal(&self, i: u16) -> Option<Refusal> {
        let hand = self.hands[usize::from(self.current)];
        let shape = spread_catalogue()[usize::from(i)];
        let missing = shape.mask & !hand;
        if missing != 0 {
            return no("TK-6.5", format!("you do not hold {}", cards_text(missing)));
        }
        if shape.hi == 14 && !self.cfg.aces_high {
            return no(
                "TK-7.3",
                format!(
                    "with ace_in_runs = low the ace is below the 2 only: {} is not a run",
                    shape_text(&shape)
                ),
            );
        }
        if let Some(t) = self.pending_pickup() {
            if !self.keeps_usable(t, Action::LaySpread(i)) {
                return no(
                    "TK-6.10",
                    format!(
                        "laying {} would leave {t}, taken from the discard pile, with no spread or hit to go into this turn",
                        shape_text(&shape)
                    ),
                );
            }
        }
        None
    }

    fn hit_refusal(&self, spread: u8, card: Card) -> Option<Refusal> {
        if !self.hits_allowed() {
            return no(
                "TK-6.10",
                "one hit per turn (max_hits_per_turn = 1), and you have made it",
            );
        }
        if self.hands[usize::from(self.current)] & card_bit(card) == 0 {
            return no("TK-8.1", format!("you do not hold {card}"));
        }
        let Some(s) = self.spreads.get(usize::from(spread)) else {
            return no(
                "TK-8.1",
                format!("there is no spread S{spread} on the table"),
            );
        };
        if s.cleared {
            return no(
                "TK-9.3",
                format!("S{spread} was a completed book and went under the discard pile"),
            );
        }
        if !s.accepts(card, &self.cfg) {
            return Some(self.why_not_accepted(s, card));
        }
        if let Some(t) = self.pending_pickup() {
            if !self.keeps_usable(t, Action::Hit { spread, card }) {
                return no(
                    "TK-6.10",
                    format!(
                        "hitting {card} on S{spread} would leave {t}, taken from the discard pile, with no spread or hit to go into this turn"
                    ),
                );
            }
        }
        None
    }

    /// Why spread `s` does not take `card` (TK-8.1, TK-8.6, TK-7.3).
    fn why_not_accepted(&self, s: &Spread, card: Card) -> Refusal {
        let name = spread_text(s);
        match s.kind {
            MeldKind::Set => {
                if self.cfg.only_runs_hittable {
                    Refusal::new(
                        "TK-8.6",
                        format!("only runs may be hit (only_runs_hittable), and {name} is a book"),
                    )
                } else if card.rank() != s.lo {
                    Refusal::new(
                        "TK-8.1",
                        format!(
                            "{name} is a book of {}: {card} does not belong to it",
                            rank_plural(s.lo)
                        ),
                    )
                } else {
                    Refusal::new(
                        "TK-8.1",
                        format!("{name} already holds all four {}", rank_plural(s.lo)),
                    )
                }
            }
            MeldKind::Run => {
                if card.suit_index() != s.suit {
                    return Refusal::new(
                        "TK-8.1",
                        format!("{card} is not of the suit of the run {name}"),
                    );
                }
                if card.rank() == 1 && s.hi == 13 && s.lo > 1 && !self.cfg.aces_high {
                    return Refusal::new(
                        "TK-7.3",
                        format!("with ace_in_runs = low the ace cannot follow the king of {name}"),
                    );
                }
                let mut ends: Vec<String> = Vec::new();
                if s.lo >= 2 {
                    ends.push(Card::of(s.lo - 1, s.suit).to_string());
                }
                if s.hi < 13 {
                    ends.push(Card::of(s.hi + 1, s.suit).to_string());
                } else if s.hi == 13 && s.lo > 1 && self.cfg.aces_high {
                    ends.push(Card::of(1, s.suit).to_string());
                }
                let takes = if ends.is_empty() {
                    "nothing can extend it".to_string()
                } else {
                    format!("only {} can hit it", ends.join(" or "))
                };
                Refusal::new(
                    "TK-8.1",
                    format!("{card} does not extend {name} at either end: {takes}"),
                )
            }
        }
    }

    /// Whether `act`, legal now, could be taken back by the player who makes
    /// it, so that a UI can offer undo: it shows that player no hidden card,
    /// and after it the hand goes on with the same player still to decide
    /// in the same turn (nobody else has seen it and acted). True only for a
    /// take of the discard, a spread or a hit that leave the hand unfinished
    /// (and, under `any_time`, do not hand a drop window to another player
    /// first); false for a draw from the stock, a discard, a drop, a pass, a
    /// 49 claim, the spades bet, and every illegal action.
    pub fn can_take_back(&self, act: Action) -> bool {
        if !matches!(
            act,
            Action::TakeDiscard | Action::LaySpread(_) | Action::Hit { .. }
        ) || !self.is_legal_action(act)
        {
            return false;
        }
        let p = self.current;
        let mut after = self.clone();
        after.apply_unchecked(act);
        after.current_player() == Some(p) && after.turn_player == p
    }
}

/// A book or run in `hand` that `must_spread` forbids keeping (TK-7.6), the
/// first in catalogue order (see `holds_spread`).
pub(super) fn held_spread(hand: u64, cfg: &TonkConfig) -> Option<u16> {
    let mut found = None;
    spreads_in(hand, cfg.aces_high, |i| {
        let s = spread_catalogue()[usize::from(i)];
        if found.is_none() && !(cfg.must_spread_aces_exempt && s.kind == MeldKind::Set && s.lo == 1)
        {
            found = Some(i);
        }
    });
    found
}
