//! Spit bots: reaction-time bots ([`ReactionBot`], RT-3) with one of two
//! policies. A policy decides from its seat's [`SpitSeatView`]: face-up
//! cards, the spit piles, counts, and its own legal actions, never a
//! face-down card.
//!
//! - `plain`: the first productive move in id order (plays first, then
//!   flips, moves that uncover a card, stacks that uncover a face-down
//!   card); the first pile in a slap window or a lone choice; `spit` in
//!   agreed mode when it has no productive move. It never makes a
//!   non-productive move (it waits instead).
//! - `smart`: scores its productive moves: plays over flips over moves,
//!   plays that uncover a face-down card or empty a pile, plays that let it
//!   play again, and it avoids plays that give the opponent a card to play
//!   on (it holds the card the opponent needs) and likes plays that cover a
//!   top the opponent could use. It slaps the smaller spit pile and, as a
//!   lone spitter, spits onto the larger pile (keeping the other small).

use crate::bots::reaction::{bot_grammar, BotSpec, Policy, RandomPolicy, ReactionBot};
use crate::card::Card;
use crate::engine::{Bots, Controller, SeatView as _};
use crate::error::Result;
use crate::games::spit::{action, Action, SpitGame, SpitSeatView, SpitState, MAX_PILES};
use crate::rng::GameRng;

/// A Spit bot's spec: `POLICY[:PRESET][,key=value]` (RT-3).
pub type SpitBotSpec = BotSpec;

/// The policies, the first the default.
pub const POLICIES: [&str; 3] = ["plain", "smart", "random"];

/// The policy a spec names.
pub fn policy(spec: &SpitBotSpec) -> Box<dyn Policy<SpitState>> {
    match spec.policy {
        "smart" => Box::new(Smart),
        "random" => Box::new(RandomPolicy),
        _ => Box::new(Plain),
    }
}

impl Bots<SpitGame> for BotSpec {
    /// Reads a spec such as `smart:hard` or `plain:instant`.
    fn parse(spec: &str) -> Result<BotSpec> {
        BotSpec::parse(spec, &POLICIES, &[])
    }

    fn grammar() -> String {
        bot_grammar(&POLICIES, &[])
    }

    fn name(&self) -> String {
        BotSpec::name(self)
    }

    fn build(&self, _game: &SpitGame, seed: u64) -> Box<dyn Controller<SpitState>> {
        Box::new(ReactionBot::new(self.timing, policy(self), seed))
    }

    fn examples() -> &'static [&'static str] {
        &[
            "plain:instant",
            "plain:hard",
            "smart:instant",
            "smart:easy",
            "random:normal",
        ]
    }

    /// The ladder of levels, weakest first: each beats the one below in
    /// 60–75% of games (measured in docs/bots.md, Levels).
    fn levels() -> &'static [(&'static str, &'static str)] {
        &[
            ("easy", "plain:easy"),
            ("normal", "plain:normal"),
            ("hard", "smart:normal,reaction_median_ms=1100"),
            ("expert", "smart:hard,reaction_median_ms=1000"),
        ]
    }
}

/// The first productive move (module docs).
#[derive(Debug, Clone, Copy, Default)]
pub struct Plain;

impl Policy<SpitState> for Plain {
    /// The same choice as [`Self::choose`] over every legal action, read off
    /// the view's bitsets (the hot path of a batch run): the lowest id that
    /// is productive or a slap or pile choice, else `spit` when stuck.
    fn choose_from_view(
        &mut self,
        view: SpitSeatView<'_>,
        _rng: &mut GameRng,
    ) -> Option<Option<u16>> {
        let (legal, productive) = view.action_bits();
        let choices = productive | legal & !((1u128 << action::SLAP_BASE) - 1);
        Some(if choices != 0 {
            Some(choices.trailing_zeros() as u16)
        } else {
            (legal >> action::SPIT & 1 == 1).then_some(action::SPIT)
        })
    }

    fn choose(&mut self, view: SpitSeatView<'_>, legal: &[u16], _rng: &mut GameRng) -> Option<u16> {
        let mut spit = false;
        for &a in legal {
            if a >= action::SLAP_BASE || view.is_productive(a) {
                return Some(a);
            }
            spit |= a == action::SPIT;
        }
        (spit && !view.has_productive_move()).then_some(action::SPIT)
    }
}

/// The scoring policy (module docs).
#[derive(Debug, Clone, Copy, Default)]
pub struct Smart;

impl Smart {
    /// How many of `seat`'s face-up tops fit on `top`.
    fn fitting(view: SpitSeatView<'_>, seat: u8, top: Card) -> i32 {
        (0..MAX_PILES)
            .filter_map(|p| view.pile(seat, p).top())
            .filter(|&c| view.fits(c, top))
            .count() as i32
    }

    fn score(view: SpitSeatView<'_>, a: Action) -> i32 {
        let seat = view.seat();
        let other = 1 - seat;
        match a {
            Action::Play { pile, side } => {
                let p = view.pile(seat, usize::from(pile));
                let Some(card) = p.top() else { return 0 };
                let mut s = 100;
                if p.face_up().len() == 1 && p.face_down() > 0 {
                    s += 30;
                }
                if p.len() == 1 {
                    s += 20;
                }
                // Own follow-ups on the card just played (not counting itself).
                s += 10 * (Self::fitting(view, seat, card) - i32::from(view.fits(card, card)));
                // The opponent's plays the new top gives, and those it takes away.
                s -= 25 * Self::fitting(view, other, card);
                if let Some(&top) = view.centre(side).last() {
                    s += 15 * Self::fitting(view, other, top);
                }
                s
            }
            Action::Flip { .. } => 90,
            Action::Stack { .. } => 85,
            Action::Move { .. } => 80,
            _ => 0,
        }
    }
}

impl Policy<SpitState> for Smart {
    fn choose(&mut self, view: SpitSeatView<'_>, legal: &[u16], _rng: &mut GameRng) -> Option<u16> {
        let seat = view.seat();
        let mut best: Option<(i32, u16)> = None;
        let mut spit = false;
        for &a in legal {
            let Ok(act) = Action::decode(a) else { continue };
            match act {
                Action::Slap { .. } => {
                    let (l, r) = (view.centre(0).len(), view.centre(1).len());
                    let side = if r < l || (r == l && seat == 1) { 1 } else { 0 };
                    let want = action::SLAP_BASE + side;
                    return Some(if legal.contains(&want) { want } else { a });
                }
                Action::Lone { .. } => {
                    let (l, r) = (view.centre(0).len(), view.centre(1).len());
                    let side = if r > l || (r == l && seat == 1) { 1 } else { 0 };
                    let want = action::LONE_BASE + side;
                    return Some(if legal.contains(&want) { want } else { a });
                }
                Action::Spit => spit = true,
                _ if view.is_productive(a) => {
                    let s = Self::score(view, act);
                    if best.is_none_or(|(b, _)| s > b) {
                        best = Some((s, a));
                    }
                }
                _ => {}
            }
        }
        match best {
            Some((_, a)) => Some(a),
            None => (spit && !view.has_productive_move()).then_some(action::SPIT),
        }
    }
}
