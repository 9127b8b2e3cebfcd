//! Speed bots: the engine layer's reaction-time bots
//! ([`ReactionBot`], RT-3) with a Speed policy.
//!
//! A spec is `POLICY[:PRESET][,key=value...]` ([`BotSpec::parse`]) with the
//! policies `plain` and `smart` and the presets `easy`, `normal`, `hard`,
//! `instant`: `smart:hard`, `plain:instant`, `smart,reaction_median_ms=300`.
//! A policy looks only at its seat's [`SpeedView`] (and the rules).
//!
//! - `plain`: the first legal action (lowest id: the lowest card code, the
//!   left pile first; a draw only when nothing can be played).
//! - `smart`: scores each legal play by what it leaves: the cards of its
//!   own hand that will still fit (a chain it can play at once, +10 each),
//!   the cards it has not seen that would fit the new tops (the opponent's
//!   chances, −1 each, so it prefers plays that leave the opponent stuck),
//!   and keeps a joker while another play exists (−30). It plays rather than
//!   draws, and draws (manual draw) only when no play is left.

use crate::engine::realtime::{BotSpec, Policy, ReactionBot};
use crate::engine::Controller;
use crate::error::Result;
use crate::games::speed::{action, rank_mask_of, Action, SpeedState, SpeedView};
use crate::rng::GameRng;

/// A Speed bot's spec: the engine's real-time spec.
pub type SpeedBotSpec = BotSpec;

/// The Speed policies, the default first.
pub const POLICIES: [&str; 3] = ["plain", "smart", "random"];

/// Reads a Speed bot spec (errors name the spec).
pub fn parse_bot(spec: &str) -> Result<SpeedBotSpec> {
    BotSpec::parse(spec, &POLICIES)
}

/// The policy a spec names (`plain` for any other name).
pub fn policy(name: &str) -> Box<dyn Policy<SpeedState>> {
    match name {
        "smart" => Box::new(Smart),
        "random" => Box::new(crate::engine::realtime::RandomPolicy),
        _ => Box::new(Plain),
    }
}

/// A seeded bot of this spec.
pub fn new_bot(spec: &SpeedBotSpec, seed: u64) -> Box<dyn Controller<SpeedState>> {
    Box::new(ReactionBot::new(spec.timing, policy(spec.policy), seed))
}

/// The first legal action.
#[derive(Debug, Clone, Copy, Default)]
pub struct Plain;

impl Policy<SpeedState> for Plain {
    fn choose(
        &mut self,
        _state: &SpeedState,
        _seat: u8,
        legal: &[u16],
        _rng: &mut GameRng,
    ) -> Option<u16> {
        legal.first().copied()
    }
}

/// Plays that chain and leave the opponent stuck (see the module notes).
#[derive(Debug, Clone, Copy, Default)]
pub struct Smart;

impl Smart {
    /// The score of one legal action for the seat that sees `v`.
    pub fn score(v: &SpeedView, equal: bool, unseen: &[i32; 14], a: u16) -> i32 {
        let (played, pile, rank) = match Action::decode(a) {
            Ok(Action::Play { card, pile }) => (card, pile, card.rank()),
            Ok(Action::Joker { pile, rank }) => (crate::card::Card::JOKER, pile, rank),
            _ => return 0,
        };
        let mut tops = v.centre_rank;
        tops[usize::from(pile)] = rank;
        let fit = rank_mask_of(tops[0], equal) | rank_mask_of(tops[1], equal);
        let mut skipped = false;
        let mut chain = 0;
        for c in v.hand_cards() {
            if c == played && !skipped {
                skipped = true;
                continue;
            }
            if c.is_joker() || fit & (1 << c.rank()) != 0 {
                chain += 1;
            }
        }
        let risk: i32 = (1..=13)
            .filter(|&r| fit & (1 << r) != 0)
            .map(|r| unseen[r])
            .sum();
        let joker = if played.is_joker() { 30 } else { 0 };
        100 + 10 * chain - risk - joker
    }
}

impl Policy<SpeedState> for Smart {
    fn choose(
        &mut self,
        state: &SpeedState,
        seat: u8,
        legal: &[u16],
        _rng: &mut GameRng,
    ) -> Option<u16> {
        let v = state.view(seat);
        let equal = state.config().equal_rank_play;
        // Cards of each rank it has not seen: 4, less its hand and the tops.
        let mut unseen = [4i32; 14];
        unseen[0] = 0;
        for c in v.hand_cards().chain(v.centre_top.iter().flatten().copied()) {
            if !c.is_joker() {
                unseen[usize::from(c.rank())] -= 1;
            }
        }
        let mut best: Option<(i32, u16)> = None;
        for &a in legal {
            let s = if a == action::DRAW {
                0
            } else {
                Smart::score(&v, equal, &unseen, a)
            };
            if best.is_none_or(|(b, _)| s > b) {
                best = Some((s, a));
            }
        }
        best.map(|(_, a)| a)
    }
}
