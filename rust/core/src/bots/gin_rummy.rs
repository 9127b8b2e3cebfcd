//! Gin Rummy bots (random, greedy): the engine layer's controllers for
//! Gin Rummy. A bot decides from a [`GinRummySeatView`]: its own hand and
//! the table (the upcard, laid melds); every deadwood comes from the meld
//! solver.

use crate::engine::{Controller, Intent, Millis, SeatView as _};
use crate::error::{CoreError, Result};
use crate::games::gin_rummy::{
    action, best_discard_deadwood, card_value, deadwood, ids, GinRummySeatView, GinRummyState,
    Phase, MELD_MASKS,
};
use crate::rng::GameRng;

/// A Gin Rummy bot as named on the command line: `random` or `greedy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GinRummyBotSpec {
    /// A uniform legal action.
    Random,
    /// Takes the upcard when it lowers its deadwood, discards to the least
    /// deadwood, knocks as soon as it may, lays the melds that leave the
    /// least deadwood and lays off every card it can.
    Greedy,
}

impl GinRummyBotSpec {
    pub fn parse(text: &str) -> Result<GinRummyBotSpec> {
        match text.trim().to_ascii_lowercase().as_str() {
            "random" => Ok(GinRummyBotSpec::Random),
            "greedy" => Ok(GinRummyBotSpec::Greedy),
            _ => Err(CoreError::config(format!(
                "unknown Gin Rummy bot {text:?}: expected random or greedy"
            ))),
        }
    }

    pub fn name(&self) -> String {
        match self {
            GinRummyBotSpec::Random => "random".into(),
            GinRummyBotSpec::Greedy => "greedy".into(),
        }
    }
}

/// A seeded Gin Rummy bot.
pub struct Bot {
    spec: GinRummyBotSpec,
    rng: GameRng,
    legal: Vec<u16>,
}

impl Bot {
    pub fn new(spec: GinRummyBotSpec, seed: u64) -> Bot {
        Bot {
            spec,
            rng: GameRng::new(seed),
            legal: Vec::new(),
        }
    }

    /// The bot's action for the view's seat (None when it is not to move).
    pub fn choose(&mut self, view: GinRummySeatView<'_>) -> Option<u16> {
        view.legal_actions(&mut self.legal);
        if self.legal.is_empty() {
            return None;
        }
        Some(match self.spec {
            GinRummyBotSpec::Random => *self.rng.choose(&self.legal)?,
            GinRummyBotSpec::Greedy => greedy(&view, &self.legal),
        })
    }
}

/// The greedy choice among `legal` for the view's seat.
pub fn greedy(view: &GinRummySeatView<'_>, legal: &[u16]) -> u16 {
    let hand = view.hand_mask();
    let has = |a: u16| legal.binary_search(&a).is_ok();
    let cards: Vec<u16> = legal
        .iter()
        .copied()
        .filter(|&a| a < action::CARDS)
        .collect();
    match view.phase() {
        Phase::FirstUpcard | Phase::Draw => {
            let better = view
                .upcard_id()
                .is_some_and(|u| best_discard_deadwood(hand | 1 << u) < deadwood(hand));
            if better && has(action::DRAW_UPCARD) {
                action::DRAW_UPCARD
            } else if has(action::PASS) {
                action::PASS
            } else {
                action::DRAW_STOCK
            }
        }
        Phase::Wall => {
            if has(action::KNOCK) {
                action::KNOCK
            } else {
                action::PASS
            }
        }
        Phase::Discard if has(action::KNOCK) => action::KNOCK,
        Phase::Discard | Phase::Knock if !cards.is_empty() && legal.len() == cards.len() => {
            best_discard(hand, &cards)
        }
        Phase::Discard => best_discard(hand, &cards),
        Phase::Layoff if !cards.is_empty() => cards
            .iter()
            .copied()
            .max_by_key(|&c| (card_value(c as u8), std::cmp::Reverse(c)))
            .unwrap_or(action::PASS),
        Phase::Knock | Phase::Layoff => best_meld(hand, legal),
        Phase::Over => legal.first().copied().unwrap_or(action::PASS),
    }
}

/// The discard leaving the least deadwood (then the highest card, then the lowest id).
fn best_discard(hand: u64, cards: &[u16]) -> u16 {
    cards
        .iter()
        .copied()
        .min_by_key(|&c| {
            (
                deadwood(hand & !(1u64 << c)),
                std::cmp::Reverse(card_value(c as u8)),
                c,
            )
        })
        .unwrap_or(action::PASS)
}

/// The meld leaving the least deadwood, or pass when none is legal.
fn best_meld(hand: u64, legal: &[u16]) -> u16 {
    legal
        .iter()
        .copied()
        .filter(|&a| a >= action::MELD_BASE)
        .min_by_key(|&a| {
            let m = MELD_MASKS[usize::from(a - action::MELD_BASE)];
            (deadwood(hand & !m), a)
        })
        .unwrap_or(action::PASS)
}

impl Controller<GinRummyState> for Bot {
    fn act(&mut self, view: GinRummySeatView<'_>, now: Millis) -> Option<Intent> {
        self.choose(view).map(|action| Intent { action, at: now })
    }
}

/// Every id of a mask (re-exported for tests).
pub fn card_ids(mask: u64) -> Vec<u8> {
    ids(mask).collect()
}
