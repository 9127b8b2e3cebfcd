//! Tonk's `expert`: `strong`'s rules of thumb, checked by search over
//! sampled worlds ([`crate::bots::search`]).
//!
//! - **Worlds**: the other hands dealt again as `strong` deals them (each
//!   opponent keeps the lowest of its hidden cards and as many extra cards
//!   as it drew from the stock twice over, TK-6.4), each world weighted by
//!   how well its hands fit what the opponents did in public: a card taken
//!   from the pile makes the cards that spread with it likelier, one thrown
//!   or passed up less likely ([`CardOdds`], read from the history).
//! - **Candidates**: `strong`'s own choice first; at the start of a turn,
//!   drop (TK-6.3) and the two
//!   draws (TK-6.4); in a drop window, drop or pass (TK-6.8); in play, each
//!   legal discard (TK-6.7) and the drop where it is allowed. Spreads and
//!   hits follow the greedy plan, which lays whatever lowers the count.
//! - **Values**: a drop is settled exactly in each world (TK-10.3); any
//!   other candidate is played on by greedy players (dropping at a count
//!   of 4 or less) to the end of the hand and settled. A world's value is the stakes won, plus a quarter of a
//!   stake for coming out ahead at all.
//! - **Gate**: `strong`'s choice stands unless another candidate beats it
//!   by more than a standard error of their paired difference over the
//!   same worlds ([`crate::bots::search::Evaluation::pick`]).

use crate::bots::search::{evaluate, CardOdds};
use crate::engine::{SeatView as _, State as _};
use crate::games::tonk::bots::{play_out, Greedy, Strong};
use crate::games::tonk::{action, Action, Phase, TonkSeatView, TonkState};
use crate::rng::GameRng;

/// Extra cards per stock draw an opponent keeps the lowest of (as `strong`).
const OPPONENT_BIAS: u8 = 2;
/// Standard errors by which a candidate must beat `strong`'s choice.
const GATE: f64 = 2.0;
/// The count at or below which the play-outs' greedy players drop: greedy's
/// own threshold (twice the hand size) made continuing look worse than it
/// is against `strong`, which drops later.
const ROLLOUT_DROP_AT: u32 = 4;
/// A stake's weight against coming out ahead.
const AHEAD: f64 = 0.25;

fn utility(r: i64) -> f64 {
    r as f64 + AHEAD * r.signum() as f64
}

/// The odds of each card (by card code) being in each seat's hidden hand,
/// from the public history: the `k`-th discard of the hand was made by the
/// `k`-th turn's player (TK-6.1, TK-6.7), who took the discard before it or
/// let it go by.
pub fn odds_from_history(view: &TonkSeatView<'_>) -> Vec<CardOdds> {
    let n = view.config().players;
    let mut odds = vec![CardOdds::default(); usize::from(n)];
    let rank_suit = |code: u8| (code % 13, code / 13);
    let mut turn = (view.dealer() + 1) % n;
    let mut top: Option<u8> = None;
    for &a in view.history() {
        let p = usize::from(turn);
        match Action::decode(a) {
            Ok(Action::TakeDiscard) => {
                if let Some(c) = top {
                    let (r, s) = rank_suit(c);
                    odds[p].took(r, s);
                }
            }
            Ok(Action::DrawStock) => {
                if let Some(c) = top {
                    let (r, s) = rank_suit(c);
                    odds[p].passed(r, s);
                }
            }
            Ok(Action::Discard(c)) => {
                let (r, s) = rank_suit(c.code());
                odds[p].threw(r, s);
                top = Some(c.code());
                turn = (turn + 1) % n;
            }
            _ => {}
        }
    }
    odds
}

/// Tonk's expert bot.
pub struct Expert {
    worlds: u32,
    rng: GameRng,
    strong: Strong,
    greedy: Greedy,
}

impl Expert {
    pub fn new(worlds: u32, seed: u64) -> Expert {
        let mut rng = GameRng::new(seed);
        let strong = Strong::new(64, rng.next_u64());
        Expert {
            worlds: worlds.max(1),
            rng,
            strong,
            greedy: Greedy::new(None),
        }
    }

    pub fn act(&mut self, view: &TonkSeatView<'_>) -> u16 {
        match view.phase() {
            Phase::TurnStart => {
                if view.is_legal(action::CLAIM_49) {
                    return action::CLAIM_49;
                }
                let draw = self.strong.act(view);
                let mut cands = vec![draw];
                for a in [action::DRAW_STOCK, action::TAKE_DISCARD, action::DROP] {
                    if a != draw && view.is_legal(a) {
                        cands.push(a);
                    }
                }
                self.search(view, cands)
            }
            Phase::Window => {
                if view.is_legal(action::CLAIM_49) {
                    return action::CLAIM_49;
                }
                let mut cands = vec![action::PASS];
                if view.is_legal(action::DROP) {
                    cands.push(action::DROP);
                }
                self.search(view, cands)
            }
            Phase::Play => {
                let g = self.greedy.act(view);
                if g >= action::LAY_BASE {
                    return g; // lays and hits as the greedy plan has them
                }
                let first = self.strong.discard_choice(view).unwrap_or(g);
                let mut cands = vec![first];
                for a in view.legal_action_list() {
                    if a != first && (a < 52 || a == action::DROP) {
                        cands.push(a);
                    }
                }
                self.search(view, cands)
            }
            _ => self.greedy.act(view),
        }
    }

    /// The candidate to play (the first, `strong`'s, unless another
    /// clearly beats it over the worlds).
    fn search(&mut self, view: &TonkSeatView<'_>, cands: Vec<u16>) -> u16 {
        if cands.len() < 2 {
            return cands.first().copied().unwrap_or(action::PASS);
        }
        let me = view.seat();
        let odds = odds_from_history(view);
        let seed = self.rng.next_u64();
        let view = *view;
        let eval = evaluate(
            self.worlds,
            cands.len(),
            seed,
            |_, rng| {
                let world = view.determinize_keeping_low(rng, OPPONENT_BIAS);
                let weight = world_weight(&world, me, &odds);
                (world, weight)
            },
            |world, c, _| {
                let mut s: TonkState = world.clone();
                if s.apply_action(cands[c]).is_err() {
                    return f64::NEG_INFINITY;
                }
                play_out(&mut s, &mut Greedy::new(Some(ROLLOUT_DROP_AT)));
                utility(s.returns()[usize::from(me)])
            },
        );
        cands[eval.pick(0, GATE)]
    }
}

/// How well a world's hidden hands fit the odds: the product, over the
/// other seats' cards nobody has seen, of each card's odds.
fn world_weight(world: &TonkState, me: u8, odds: &[CardOdds]) -> f64 {
    let mut w = 1.0;
    for p in 0..world.config().players {
        if p == me {
            continue;
        }
        let mut hidden = world.hand(p) & !world.known_cards(p);
        while hidden != 0 {
            let code = hidden.trailing_zeros() as usize;
            hidden &= hidden - 1;
            w *= odds[usize::from(p)].of(code);
        }
    }
    w
}
