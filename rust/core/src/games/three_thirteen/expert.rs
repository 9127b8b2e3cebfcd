//! Three Thirteen's `expert`: `strong`'s rules of thumb, checked by search
//! over sampled worlds ([`crate::bots::search`]).
//!
//! - **Worlds**: the cards the bot has not seen dealt again
//!   ([`crate::engine::SeatView::determinize`]), each world weighted by how
//!   well the other hands fit the cards their players took from the pile
//!   (a taken card makes the cards that meld with it likelier,
//!   [`CardOdds`]).
//! - **Candidates**: `strong`'s choice first; at the draw, the other draw
//!   (TT-3.4); at the discard, the few discards that leave the least
//!   deadwood, and going out (TT-6.1) whenever it may.
//! - **Values**: each candidate is played on by greedy players for a few
//!   turns each, to the end of the round if it comes first; the value is
//!   the round's score margin (the others' mean less its own, TT-7), or,
//!   cut short, the margin of the deadwoods then.
//! - **Gate**: `strong`'s choice stands unless another beats it by more
//!   than a standard error of their paired difference over the same worlds.

use crate::bots::search::{evaluate, CardOdds};
use crate::engine::{SeatView as _, State as _};
use crate::games::three_thirteen::bots::{Greedy, Strong};
use crate::games::three_thirteen::{Action, Phase, ThreeThirteenSeatView, ThreeThirteenState};
use crate::rng::GameRng;

/// Standard errors by which a candidate must beat `strong`'s choice.
const GATE: f64 = 2.0;
/// Turns played on in each world before the deadwoods are compared.
const HORIZON: usize = 12;
/// Discards weighed at most besides `strong`'s.
const DISCARDS: usize = 3;

/// Three Thirteen's expert bot.
pub struct Expert {
    worlds: u32,
    rng: GameRng,
    strong: Strong,
    greedy: Greedy,
}

impl Expert {
    pub fn new(worlds: u32, seed: u64) -> Expert {
        let mut rng = GameRng::new(seed);
        let strong = Strong::new(24, rng.next_u64());
        Expert {
            worlds: worlds.max(1),
            rng,
            strong,
            greedy: Greedy::new(),
        }
    }

    pub fn act(&mut self, v: &ThreeThirteenSeatView<'_>) -> u16 {
        let first = self.strong.act(v);
        let legal = v.legal_action_list();
        let mut cands = vec![first];
        match v.phase() {
            Phase::Draw => {
                cands.extend(legal.iter().copied().filter(|&a| a != first));
            }
            Phase::Discard => {
                // Out is out (0 is the best score); in a last turn there
                // is nothing left to plan for.
                if matches!(Action::decode(first), Ok(Action::GoOut(_))) || v.in_last_turns() {
                    return first;
                }
                let hand = v.hand();
                let rules = v.rules();
                let mut discards: Vec<(u32, u16)> = legal
                    .iter()
                    .copied()
                    .filter(|&a| a != first)
                    .filter_map(|a| match Action::decode(a) {
                        Ok(Action::Discard(c)) => {
                            let mut rest = hand.to_vec();
                            if let Some(i) = rest.iter().position(|&h| h == c) {
                                rest.remove(i);
                            }
                            Some((self.greedy.deadwood_of(&rest, rules), a))
                        }
                        Ok(Action::GoOut(_)) => Some((0, a)),
                        _ => None,
                    })
                    .collect();
                discards.sort_unstable();
                cands.extend(discards.into_iter().take(DISCARDS).map(|(_, a)| a));
            }
            Phase::Over => return first,
        }
        if cands.len() < 2 {
            return first;
        }
        self.search(v, cands)
    }

    fn search(&mut self, v: &ThreeThirteenSeatView<'_>, cands: Vec<u16>) -> u16 {
        let me = v.seat();
        let n = v.players();
        let mut odds = vec![CardOdds::default(); usize::from(n)];
        for p in 0..n {
            for &c in v.known_cards(p) {
                if !c.is_joker() {
                    odds[usize::from(p)].took(c.rank() - 1, c.suit_index());
                }
            }
        }
        let seed = self.rng.next_u64();
        let view = *v;
        let round = v.round_index();
        let eval = evaluate(
            self.worlds,
            cands.len(),
            seed,
            |_, rng| {
                let world = view.determinize(rng);
                let weight = world_weight(&world, me, &odds);
                (world, weight)
            },
            |world, c, _| {
                let mut s: ThreeThirteenState = world.clone();
                if s.apply_action(cands[c]).is_err() {
                    return f64::NEG_INFINITY;
                }
                play_on(&mut s, round, me)
            },
        );
        cands[eval.pick(0, GATE)]
    }
}

/// Plays greedy for up to [`HORIZON`] turns or to the end of `round`:
/// the round's score margin of `me` (the others' mean less its own), or
/// the margin of the deadwoods when cut short.
fn play_on(s: &mut ThreeThirteenState, round: usize, me: u8) -> f64 {
    let n = s.config().players;
    let before = s.totals().to_vec();
    let mut greedy = Greedy::new();
    let mut turns = 0;
    while s.round() == round && !s.is_terminal() && turns < 2 * HORIZON {
        let Some(p) = s.current_player() else { break };
        let a = greedy.act(&s.seat_view(p));
        if s.apply_action(a).is_err() {
            break;
        }
        turns += 1;
    }
    let margin = |scores: &[i64]| -> f64 {
        let mine = scores[usize::from(me)] as f64;
        let others: f64 = scores.iter().sum::<i64>() as f64 - mine;
        others / f64::from(n - 1) - mine
    };
    if s.round() != round || s.is_terminal() {
        let delta: Vec<i64> = s.totals().iter().zip(&before).map(|(a, b)| a - b).collect();
        return margin(&delta);
    }
    let rules = *s.rules();
    let dw: Vec<i64> = (0..n)
        .map(|p| i64::from(greedy.deadwood_of(s.hand(p), &rules)))
        .collect();
    margin(&dw)
}

/// How well a world's hidden hands fit the odds: the product, over the
/// other seats' cards nobody has seen, of each card's odds.
fn world_weight(world: &ThreeThirteenState, me: u8, odds: &[CardOdds]) -> f64 {
    let mut w = 1.0;
    for p in 0..world.config().players {
        if p == me {
            continue;
        }
        let mut hand = world.hand(p).to_vec();
        for k in world.known_cards(p) {
            if let Some(i) = hand.iter().position(|h| h == k) {
                hand.remove(i);
            }
        }
        for c in hand {
            if !c.is_joker() {
                let i = usize::from(c.suit_index()) * 13 + usize::from(c.rank() - 1);
                w *= odds[usize::from(p)].of(i);
            }
        }
    }
    w
}
