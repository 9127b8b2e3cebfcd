//! Speed's searching policies: `search`, `smart` with a look-ahead over
//! what the other seat can hold, and `omniscient`, the same search handed
//! the other hand (for benchmarks: it reads a card its seat cannot see).
//! Both are perfect-information Monte Carlo ([`crate::bots::search`]).
//!
//! At a choice `search` deals the cards it cannot see again, many times
//! ([`tracked_world`]): the other hand with the odds `smart`'s
//! [`Tracker`] keeps of it (a rank ruled out by a stalemate is never
//! dealt, SD-3.1), the rest into both draw piles and the side piles. It
//! plays each candidate in every such world, plays the deal out, and keeps
//! the candidate that wins the most deals. A play-out models two players
//! of equal speed: whenever both can play, either is as likely to be first
//! (RT-3); each plays a random card of those that fit (a joker only when
//! nothing else fits); stalemates flip as the rules say (SD-3).
//!
//! - candidates: every play of a card that is not a joker, and `smart`'s
//!   choice (which may be a joker);
//! - values: `+1` for a deal won, `−1` for a deal lost, `0` for a drawn
//!   deal, plus the difference of the cards left over 52 (a close loss is
//!   better than a rout);
//! - `smart`'s choice stands unless another candidate beats it by more than
//!   [`GATE_Z`] standard errors of their paired difference over the same
//!   worlds ([`crate::bots::search::Evaluation::pick`]);
//! - the budget is a number of worlds (`worlds=N` in the spec, default
//!   [`DEFAULT_WORLDS`]), dealt from a seed drawn from the bot's own
//!   stream, so a game replays exactly from its seed on any thread count.
//!
//! Random play-outs measured as good as play-outs by `smart`'s one-step
//! score and are several times cheaper.

use crate::bots::reaction::Policy;
use crate::bots::search::{evaluate, weighted_deal};
use crate::card::Card;
use crate::engine::{Decision, SeatView as _, State as _};
use crate::games::speed::bots::{Smart, Tracker};
use crate::games::speed::{action, SpeedSeatView, SpeedState};
use crate::rng::GameRng;

/// Worlds a decision samples unless the spec says otherwise.
pub const DEFAULT_WORLDS: u32 = 256;
/// How many standard errors a candidate must beat `smart`'s choice by.
pub const GATE_Z: f64 = 1.0;
/// Commits and timers a play-out runs at most (a deal takes about 60).
const MAX_STEPS: usize = 2_000;

/// Where a searching policy's worlds come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sight {
    /// The seat's view: the hidden cards dealt again ([`tracked_world`]).
    SeatView,
    /// The other hand as it is; only the face-down piles dealt again
    /// (benchmarks only).
    OtherHand,
}

/// `smart` with a look-ahead over sampled worlds (see the module notes).
#[derive(Debug, Clone, Copy)]
pub struct Search {
    pub smart: Smart,
    pub worlds: u32,
    pub sight: Sight,
}

impl Search {
    pub fn new(worlds: Option<u32>, sight: Sight) -> Search {
        Search {
            smart: Smart::default(),
            worlds: worlds.unwrap_or(DEFAULT_WORLDS).max(1),
            sight,
        }
    }
}

impl Policy<SpeedState> for Search {
    fn observe(&mut self, view: SpeedSeatView<'_>) {
        self.smart.observe(view);
    }

    fn choose(&mut self, view: SpeedSeatView<'_>, legal: &[u16], rng: &mut GameRng) -> Option<u16> {
        let default = self.smart.choose(view, legal, rng)?;
        let mut candidates: Vec<u16> = legal
            .iter()
            .copied()
            .filter(|&a| a < action::JOKER_BASE)
            .collect();
        let default_index = match candidates.iter().position(|&a| a == default) {
            Some(i) => i,
            None => {
                candidates.push(default);
                candidates.len() - 1
            }
        };
        if candidates.len() < 2 {
            return Some(default);
        }
        let me = view.seat();
        let seed = rng.next_u64();
        let tracker = self.smart.tracker;
        let sight = self.sight;
        let evaluation = evaluate(
            self.worlds,
            candidates.len(),
            seed,
            |_, rng| {
                let world = match sight {
                    Sight::SeatView => tracked_world(&view, &tracker, rng),
                    Sight::OtherHand => piles_dealt_again(&view, rng),
                };
                (world, 1.0)
            },
            |world, c, rng| play_out(world, me, candidates[c], rng),
        );
        Some(candidates[evaluation.pick(default_index, GATE_Z)])
    }
}

/// A world for `view`'s seat: the cards it cannot see dealt again, the
/// other hand card by card with the tracker's odds of each rank, the rest
/// shuffled into the face-down piles. The unseen cards come in card order
/// before the generator deals them, so the world depends on what the seat
/// sees and the generator only.
pub fn tracked_world(view: &SpeedSeatView<'_>, tracker: &Tracker, rng: &mut GameRng) -> SpeedState {
    let mut pool = view.unseen_cards();
    let need = view.hand_len(1 - view.seat().min(1));
    let mut hand: Vec<Card> = Vec::with_capacity(need);
    let rank = |c: &Card| {
        if c.is_joker() {
            0
        } else {
            usize::from(c.rank())
        }
    };
    for odds in tracker.card_weights().iter().take(need) {
        let weights: Vec<f64> = pool.iter().map(|c| f64::from(odds[rank(c)])).collect();
        if let Some(&i) = weighted_deal(&weights, 1, rng).first() {
            hand.push(pool.remove(i));
        }
    }
    // A hand the tracker does not cover (it always should): uniformly.
    while hand.len() < need && !pool.is_empty() {
        let i = rng.below(pool.len() as u32) as usize;
        hand.push(pool.remove(i));
    }
    rng.shuffle(&mut pool);
    view.world(&hand, &pool)
}

/// The other hand as it is, the face-down piles dealt again (the
/// `omniscient` policy's worlds).
fn piles_dealt_again(view: &SpeedSeatView<'_>, rng: &mut GameRng) -> SpeedState {
    let state = view.full_state();
    let hand = state.hand(1 - view.seat().min(1));
    let mut pool = view.unseen_cards();
    for c in &hand {
        if let Some(i) = pool.iter().position(|x| x == c) {
            pool.remove(i);
        }
    }
    rng.shuffle(&mut pool);
    view.world(&hand, &pool)
}

/// Plays `first` for `me` in `world`, then the deal out between two
/// random players of equal speed; the value of how it ended for `me`.
pub fn play_out(world: &SpeedState, me: u8, first: u16, rng: &mut GameRng) -> f64 {
    let mut s = world.clone();
    let deal = s.deal_index();
    if s.apply(me, first, s.now()).is_err() {
        return 0.0;
    }
    let mut legal = Vec::with_capacity(32);
    for _ in 0..MAX_STEPS {
        if s.deal_index() != deal {
            break;
        }
        match s.decision() {
            Decision::Simultaneous(mask) => {
                let seat = if mask & 3 == 3 {
                    rng.below(2) as u8
                } else {
                    mask.trailing_zeros() as u8
                };
                s.legal_actions(seat, &mut legal);
                let Some(action) = random_play(&legal, rng) else {
                    break;
                };
                if s.apply(seat, action, s.now()).is_err() {
                    break;
                }
            }
            Decision::Waiting => match s.next_timer() {
                Some(t) => s.fire_timer(t.max(s.now())),
                None => break,
            },
            Decision::Terminal | Decision::Seat(_) => break,
        }
    }
    value_for(&s, me, deal)
}

/// A random play of a card that is not a joker; a joker's play only when
/// there is none; a draw only when nothing can be played. `legal` is
/// sorted: the plays of cards first.
fn random_play(legal: &[u16], rng: &mut GameRng) -> Option<u16> {
    match legal
        .iter()
        .take_while(|&&a| a < action::JOKER_BASE)
        .count()
    {
        0 => legal.first().copied(),
        n => Some(legal[rng.below(n as u32) as usize]),
    }
}

/// The value for `me` of a play-out that started in deal `deal`.
fn value_for(s: &SpeedState, me: u8, deal: u16) -> f64 {
    let (winner, left) = match s.last_deal() {
        Some(r) if r.deal == deal => (r.winner, r.cards_left.map(f64::from)),
        // The play-out stopped inside the deal: count the cards left.
        _ => (None, [s.cards_left(0) as f64, s.cards_left(1) as f64]),
    };
    let me = usize::from(me.min(1));
    let margin = (left[1 - me] - left[me]) / 52.0;
    match winner {
        Some(w) if usize::from(w) == me => 1.0 + margin,
        Some(_) => -1.0 + margin,
        None => margin,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::parse_hand;
    use crate::engine::arena::simulate;
    use crate::engine::{Bots, Game};
    use crate::games::speed::{Layout, Phase, SpeedBotSpec, SpeedGame};

    fn cards(text: &str) -> Vec<Card> {
        parse_hand(text).unwrap()
    }

    /// Seat 0 holds KH KS QD 2C 2D, seat 1 3H 3S 8C 8D AH, on tops 5H and
    /// TC: nobody can play (SD-3.1).
    fn stalemate() -> SpeedState {
        let game = SpeedGame::from_options(&[]).unwrap();
        game.state_from_layout(&Layout {
            hands: [cards("KH KS QD 2C 2D"), cards("3H 3S 8C 8D AH")],
            draw: [cards("4C 6D 9H"), cards("JC 7S 7D")],
            side: [cards("4D 6S JH"), cards("9D 5C AS")],
            centre: [cards("5H"), cards("TC")],
        })
        .unwrap()
    }

    #[test]
    fn a_world_deals_the_other_hand_no_rank_a_stalemate_ruled_out() {
        let state = stalemate();
        assert_eq!(state.phase(), Phase::Stalemate);
        let view = state.seat_view(0);
        let mut tracker = Tracker::default();
        tracker.observe(&view);
        let mut hidden = state.unseen_cards(0);
        hidden.sort_unstable();
        let mut rng = GameRng::new(11);
        for _ in 0..200 {
            let world = tracked_world(&view, &tracker, &mut rng);
            // Nothing of the other hand fits 5 or 10 (4, 6, 9, J).
            for c in world.hand(1) {
                assert!(![4, 6, 9, 11].contains(&c.rank()), "{c} fits a top");
            }
            // The own hand and the tops stay; the hidden cards are the same
            // cards in other places.
            assert_eq!(world.hand(0), state.hand(0));
            assert_eq!([world.top_rank(0), world.top_rank(1)], [5, 10]);
            let mut again = world.unseen_cards(0);
            again.sort_unstable();
            assert_eq!(again, hidden);
            assert_eq!(world.draw_pile(1).len(), 3);
        }
    }

    #[test]
    fn the_other_hand_as_it_is_only_the_face_down_piles_move() {
        let state = stalemate();
        let view = state.seat_view(0);
        let mut rng = GameRng::new(4);
        let moved = (0..50).any(|_| {
            let world = piles_dealt_again(&view, &mut rng);
            assert_eq!(world.hand(1), state.hand(1));
            world.draw_pile(0) != state.draw_pile(0)
        });
        assert!(moved);
    }

    #[test]
    fn a_play_out_values_an_emptied_hand_as_a_won_deal() {
        let game = SpeedGame::from_options(&[]).unwrap();
        // Seat 0's last card fits: playing it wins the deal (SD-4.1).
        let state = game
            .state_from_layout(&Layout {
                hands: [cards("6H"), cards("3H 3S 8C 8D AH")],
                draw: [vec![], cards("JC 7S 7D")],
                side: [cards("4D"), cards("9D")],
                centre: [cards("5H"), cards("TC")],
            })
            .unwrap();
        let play = action::PLAY_BASE + u16::from(cards("6H")[0].code()) * 2;
        let v = play_out(&state, 0, play, &mut GameRng::new(1));
        // Won, with the other seat's eight cards left: 1 + 8/52.
        assert!((v - (1.0 + 8.0 / 52.0)).abs() < 1e-9, "{v}");
        // Seen from the other seat, the same deal is lost.
        let mut won = state.clone();
        won.apply(0, play, 0).unwrap();
        assert!(value_for(&won, 1, 0) < -0.8);
    }

    #[test]
    fn a_searching_game_replays_from_its_seed_on_any_thread_count() {
        let game = SpeedGame::from_options(&[]).unwrap();
        let specs: Vec<SpeedBotSpec> = ["search:instant,worlds=6", "plain:instant"]
            .iter()
            .map(|s| <SpeedBotSpec as Bots<SpeedGame>>::parse(s).unwrap())
            .collect();
        let run = || {
            simulate(&game, &specs, 2, 17)
                .unwrap()
                .iter()
                .map(|r| (r.fingerprint, r.actions.clone()))
                .collect::<Vec<_>>()
        };
        let pool = |n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap()
        };
        let one = pool(1).install(run);
        assert_eq!(one, pool(3).install(run));
        assert!(one.iter().all(|(_, actions)| actions.len() > 10));
    }

    #[test]
    fn omniscient_reads_the_other_hand_so_the_seat_view_test_leaves_it_out() {
        use crate::engine::State as _;
        // Asked of a state and of the state with the hidden cards dealt
        // again, `omniscient` answers differently somewhere: it sees what
        // the seat cannot, which is what it is for.
        let game = SpeedGame::from_options(&[]).unwrap();
        let mut rng = GameRng::new(3);
        let mut differs = false;
        'games: for seed in 0..20 {
            let mut state = game.deal(seed, None).unwrap();
            for step in 0..200u64 {
                let Decision::Simultaneous(mask) = state.decision() else {
                    match state.next_timer() {
                        Some(t) if !state.is_over() => {
                            state.fire_timer(t);
                            continue;
                        }
                        _ => break,
                    }
                };
                let seat = mask.trailing_zeros() as u8;
                let hidden = state.determinize(seat, &mut rng);
                let mut a = game.bot("omniscient:instant,worlds=8", step).unwrap();
                let mut b = game.bot("omniscient:instant,worlds=8", step).unwrap();
                if a.act(state.seat_view(seat), state.now())
                    != b.act(hidden.seat_view(seat), state.now())
                {
                    differs = true;
                    break 'games;
                }
                let mut legal = Vec::new();
                state.legal_actions(seat, &mut legal);
                let pick = legal[rng.below(legal.len() as u32) as usize];
                state.apply(seat, pick, state.now()).unwrap();
            }
        }
        assert!(differs);
    }
}
