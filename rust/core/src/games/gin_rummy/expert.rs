//! Gin rummy's search bots, `strong` and `expert` (and the benchmark-only
//! `omniscient`): perfect-information Monte Carlo over sampled worlds
//! ([`crate::bots::search`]).
//!
//! # How a decision is made
//!
//! - **Worlds.** The cards the bot cannot see (the other hand's hidden
//!   cards and the stock) are dealt again, many times. `expert` deals the
//!   other hand with odds read from its public actions ([`opponent_odds`]:
//!   a card it took from the upcard, threw, or let go by, GR-10.1);
//!   `strong` deals uniformly; `omniscient` keeps the other hand as it is
//!   and shuffles only the stock (the headroom left to inference).
//! - **Candidates.** Draw: the upcard or the stock (or pass the first
//!   upcard, GR-3). Discard: the few discards that leave the least
//!   deadwood, and every way to knock (GR-5): each knock discard with each
//!   arrangement of melds that leaves at most the knock card. Wall (GR-7):
//!   pass, or each way to knock with the upcard.
//! - **Values.** A knock is scored exactly in each world: the other player
//!   lays off what fits the chosen melds (the lay-offs that leave it the
//!   least deadwood, GR-6), then GR-8 scores. So the bot knocks when its
//!   knock is rarely undercut, plays on for gin or a lower count when that
//!   is worth more, and lays out the melds that leave the least to lay off.
//!   Any other candidate is played on to the end of the hand by a fast
//!   greedy policy for both players ([`Sim`]: take the upcard when it lowers
//!   the deadwood, shed to the least deadwood, knock as soon as it may, lay
//!   off what helps). The value of an end is mostly whether the bot won,
//!   partly by how much: `sign(r) + r / 50` for a return `r`.
//! - **Its own lay-offs** (the other player knocked) are exact: the cards
//!   and melds that leave the least deadwood.
//!
//! The budget is a number of worlds per decision, never a time, so a game
//! replays exactly from its seed.

use crate::bots::search::{evaluate, weighted_deal, CardOdds};
use crate::engine::SeatView as _;
use crate::rng::GameRng;

use super::hand::{arrangements, best_discard, best_discard_deadwood, best_melds, deadwood};
use super::{
    action, all_layoffs, ids, mask_value, GinRummySeatView, Phase, MELD_MASKS, WALL_STOCK,
};

const ALL_CARDS: u64 = (1 << 52) - 1;

/// Discards the search weighs at most, the least deadwood first.
const DISCARDS: usize = 5;
/// Ways to knock it weighs at most.
const KNOCKS: usize = 12;
/// The share of the other player's stock draws modelled as a chance to
/// better its hand ([`BaseWorld::deal`]): with every draw, the worlds' other
/// hands had far less deadwood than real ones (a player keeps what it
/// drew, not the best of all it might have held); 0.4 matched the mean
/// deadwood of `simple`'s real hands over the course of a hand.
const IMPROVE: f64 = 0.4;
/// Standard errors by which a candidate must beat the rule of thumb's.
const GATE: f64 = 1.0;
/// A return's weight in a world's value, against winning or losing.
const POINTS: f64 = 1.0 / 50.0;

/// The value of a return `r` for the bot: mostly whether it won.
fn utility(r: i64) -> f64 {
    (r.signum() as f64) + r as f64 * POINTS
}

/// What the other hand was dealt from in the worlds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Worlds {
    /// Every hidden card alike.
    Uniform,
    /// With odds from the other player's public actions.
    Inferred,
    /// The other hand as it is (benchmarks only).
    Omniscient,
}

/// A way to knock: the discard after the knock and the melds to lay.
#[derive(Debug, Clone, PartialEq, Eq)]
struct KnockPlan {
    discard: u8,
    melds: Vec<u8>,
}

/// The rules a world needs (GR-5.1, GR-8).
#[derive(Debug, Clone, Copy)]
struct Scoring {
    knock: u32,
    gin: i64,
    undercut: i64,
}

impl Scoring {
    /// The knocker's return: its deadwood `dk`, the defender's `dd` (GR-8.1).
    fn knocker_return(&self, dk: u32, dd: u32) -> i64 {
        let mut r = i64::from(dd) - i64::from(dk);
        if dk == 0 {
            r += self.gin;
        }
        if r < 0 {
            r -= self.undercut;
        }
        r
    }
}

/// The least deadwood a defender holding `hand` can reach by laying off
/// onto `melds` (GR-6.2), with the lay-offs made so far `laid`, and the
/// cards to lay off for it, in a legal order.
fn defend(hand: u64, melds: &[u8], laid: u64) -> (u32, Vec<u8>) {
    let mut best = (deadwood(hand), Vec::new());
    if best.0 == 0 {
        return best;
    }
    let fits = all_layoffs(melds, laid) & hand;
    for c in ids(fits) {
        let (dw, mut path) = defend(hand & !(1u64 << c), melds, laid | 1u64 << c);
        if dw < best.0 {
            path.insert(0, c);
            best = (dw, path);
        }
    }
    best
}

/// The deadwood of [`defend`] alone.
fn defended(hand: u64, melds: &[u8]) -> u32 {
    fn walk(hand: u64, melds: &[u8], laid: u64, best: &mut u32) {
        *best = (*best).min(deadwood(hand));
        if *best == 0 {
            return;
        }
        for c in ids(all_layoffs(melds, laid) & hand) {
            walk(hand & !(1u64 << c), melds, laid | 1u64 << c, best);
        }
    }
    let mut best = u32::MAX;
    walk(hand, melds, 0, &mut best);
    best
}

/// A knock by `knocker` holding `hand` (one card over): the best discard,
/// the arrangement with the least deadwood, the defender's best lay-offs.
fn knock_return(hand: u64, defender: u64, s: &Scoring) -> i64 {
    let (d, _) = best_discard(hand);
    let rest = hand & !(1u64 << d);
    let melds = best_melds(rest);
    let used = melds
        .iter()
        .fold(0u64, |u, &m| u | MELD_MASKS[usize::from(m)]);
    let dk = mask_value(rest & !used);
    let dd = if dk == 0 {
        deadwood(defender)
    } else {
        defended(defender, &melds)
    };
    s.knocker_return(dk, dd)
}

/// Where a world is in a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// The first upcard is offered (GR-3); bit `s` of the mask: `s` passed.
    FirstUpcard(u8),
    Draw,
    Discard,
    Wall,
}

/// One world: both hands, the stock in order, the upcard and whose turn
/// it is; played on by the greedy policy to the end of the hand.
#[derive(Debug, Clone, Copy)]
struct Sim {
    hands: [u64; 2],
    stock: [u8; 52],
    len: u8,
    next: u8,
    upcard: Option<u8>,
    current: u8,
    step: Step,
}

impl Sim {
    fn stock_left(&self) -> usize {
        usize::from(self.len - self.next)
    }

    fn draw_stock(&mut self) {
        let p = usize::from(self.current);
        self.upcard = None;
        if self.next < self.len {
            self.hands[p] |= 1u64 << self.stock[usize::from(self.next)];
            self.next += 1;
        }
        self.step = Step::Discard;
    }

    fn take_upcard(&mut self) {
        let p = usize::from(self.current);
        if let Some(u) = self.upcard.take() {
            self.hands[p] |= 1u64 << u;
        }
        self.step = Step::Discard;
    }

    fn discard(&mut self, c: u8) {
        let p = usize::from(self.current);
        self.hands[p] &= !(1u64 << c);
        self.upcard = Some(c);
        self.current = 1 - self.current;
        self.step = if self.stock_left() == WALL_STOCK {
            Step::Wall
        } else {
            Step::Draw
        };
    }

    /// Whether the greedy policy takes the upcard into `hand`.
    fn wants_upcard(hand: u64, up: u8) -> bool {
        best_discard_deadwood(hand | 1u64 << up) < deadwood(hand)
    }

    /// Plays the world to the end with the greedy policy for both seats:
    /// the return of seat `me`.
    fn play_out(mut self, me: u8, s: &Scoring) -> i64 {
        for _ in 0..200 {
            let p = usize::from(self.current);
            let hand = self.hands[p];
            match self.step {
                Step::FirstUpcard(passed) => {
                    let up = self.upcard;
                    if passed == 3 {
                        self.draw_stock();
                    } else if up.is_some_and(|u| Sim::wants_upcard(hand, u)) {
                        self.take_upcard();
                    } else {
                        // GR-3.1: after two passes the first player draws.
                        self.step = Step::FirstUpcard(passed | 1 << p);
                        self.current = 1 - self.current;
                    }
                }
                Step::Draw => {
                    if self.upcard.is_some_and(|u| Sim::wants_upcard(hand, u)) {
                        self.take_upcard();
                    } else {
                        self.draw_stock();
                    }
                }
                Step::Discard => {
                    let (d, dw) = best_discard(hand);
                    if dw <= s.knock {
                        let r = knock_return(hand, self.hands[1 - p], s);
                        return if self.current == me { r } else { -r };
                    }
                    self.discard(d);
                }
                Step::Wall => {
                    let Some(u) = self.upcard else { return 0 };
                    let with = hand | 1u64 << u;
                    if best_discard_deadwood(with) <= s.knock {
                        let r = knock_return(with, self.hands[1 - p], s);
                        return if self.current == me { r } else { -r };
                    }
                    return 0; // GR-7.2: a pass at the wall is a draw.
                }
            }
        }
        0
    }
}

/// What the bot may do now, as the search weighs it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Candidate {
    /// An action whose end the greedy play-out finds.
    Play(u16),
    /// A knock (at the wall, with the upcard), laid out this way.
    Knock(KnockPlan),
}

/// The odds of each card (by OpenSpiel id) being in `other`'s hidden hand,
/// from the public history (GR-10.1): the upcards it took, threw away and
/// let go by, replayed from the first upcard on; and its stock draws.
pub fn opponent_odds(view: &GinRummySeatView<'_>, other: u8) -> Reading {
    let mut odds = CardOdds::default();
    let mut stock_draws = 0;
    let rank_suit = |c: u8| (c % 13, c / 13);
    let mut up = Some(view.first_upcard_id());
    let mut current = view.first_player();
    let mut first = true;
    for &a in view.history() {
        match a {
            action::PASS if first => {
                if let (Some(u), true) = (up, current == other) {
                    let (r, s) = rank_suit(u);
                    odds.passed(r, s);
                }
                current = 1 - current;
            }
            action::DRAW_UPCARD => {
                if let (Some(u), true) = (up, current == other) {
                    let (r, s) = rank_suit(u);
                    odds.took(r, s);
                }
                first = false;
                up = None;
            }
            action::DRAW_STOCK => {
                if let (Some(u), true) = (up, current == other && !first) {
                    let (r, s) = rank_suit(u);
                    odds.passed(r, s);
                }
                if current == other {
                    stock_draws += 1;
                }
                first = false;
                up = None;
            }
            c if c < action::CARDS => {
                if current == other {
                    let (r, s) = rank_suit(c as u8);
                    odds.threw(r, s);
                }
                up = Some(c as u8);
                current = 1 - current;
            }
            // A knock: the hand is being laid out, play is over.
            _ => break,
        }
    }
    Reading { odds, stock_draws }
}

/// What the public history tells of the other player's hand.
#[derive(Debug, Clone, Copy)]
pub struct Reading {
    /// The odds of each card being among its hidden cards.
    pub odds: CardOdds,
    /// How many times it drew from the stock.
    pub stock_draws: usize,
}

/// The card the player to move just took from the upcard, if its last
/// action was that take (throwing it straight back only risks GR-7.4).
fn just_taken(view: &GinRummySeatView<'_>) -> Option<u8> {
    let h = view.history();
    if h.last() != Some(&action::DRAW_UPCARD) {
        return None;
    }
    match h.iter().rev().nth(1) {
        Some(&c) if c < action::CARDS => Some(c as u8),
        _ => Some(view.first_upcard_id()),
    }
}

/// A search bot (`strong`, `expert`, `omniscient`).
pub struct SearchBot {
    worlds: u32,
    dealt: Worlds,
    rng: GameRng,
    /// The knock it chose, played out over the next decisions (GR-5.2, GR-5.3).
    plan: Option<KnockPlan>,
    legal: Vec<u16>,
}

impl SearchBot {
    pub fn new(worlds: u32, dealt: Worlds, seed: u64) -> SearchBot {
        SearchBot {
            worlds: worlds.max(1),
            dealt,
            rng: GameRng::new(seed),
            plan: None,
            legal: Vec::new(),
        }
    }

    /// The bot's action for the view's seat (None when it is not to move).
    pub fn choose(&mut self, view: GinRummySeatView<'_>) -> Option<u16> {
        view.legal_actions(&mut self.legal);
        match self.legal.as_slice() {
            [] => return None,
            [only] => return Some(*only),
            _ => {}
        }
        let hand = view.hand_mask();
        Some(match view.phase() {
            Phase::FirstUpcard | Phase::Draw => {
                let rule = super::bots::greedy(&view, &self.legal);
                let mut cands = vec![Candidate::Play(rule)];
                cands.extend(
                    self.legal
                        .iter()
                        .filter(|&&a| a != rule)
                        .map(|&a| Candidate::Play(a)),
                );
                self.search(&view, cands)
            }
            Phase::Discard => {
                let mut cands = Vec::new();
                if self.legal.contains(&action::KNOCK) {
                    cands.extend(
                        knock_plans(hand, view.knock_card())
                            .into_iter()
                            .map(Candidate::Knock),
                    );
                }
                cands.extend(self.discards(&view, hand));
                self.search(&view, cands)
            }
            Phase::Wall => {
                let mut cands = Vec::new();
                if let (true, Some(u)) = (self.legal.contains(&action::KNOCK), view.upcard_id()) {
                    cands.extend(
                        knock_plans(hand | 1u64 << u, view.knock_card())
                            .into_iter()
                            .map(Candidate::Knock),
                    );
                }
                cands.push(Candidate::Play(action::PASS));
                self.search(&view, cands)
            }
            Phase::Knock => self.lay_out(&view, hand),
            Phase::Layoff => self.lay_off(&view, hand),
            Phase::Over => return None,
        })
    }

    /// The discards that leave the least deadwood (then the highest card).
    fn discards(&self, view: &GinRummySeatView<'_>, hand: u64) -> Vec<Candidate> {
        let back = just_taken(view);
        let mut all: Vec<(u32, u32, u16)> = self
            .legal
            .iter()
            .filter(|&&a| a < action::CARDS && Some(a as u8) != back)
            .map(|&a| {
                let c = a as u8;
                (deadwood(hand & !(1u64 << c)), 10 - super::card_value(c), a)
            })
            .collect();
        if all.is_empty() {
            all.extend(back.map(|c| (0, 0, u16::from(c))));
        }
        all.sort_unstable();
        all.truncate(DISCARDS);
        all.into_iter()
            .map(|(_, _, a)| Candidate::Play(a))
            .collect()
    }

    /// The candidate with the best mean value over the worlds, as an
    /// action (a knock's plan is kept for the lay-out); the first candidate
    /// is the rule of thumb's, kept unless another clearly beats it.
    fn search(&mut self, view: &GinRummySeatView<'_>, cands: Vec<Candidate>) -> u16 {
        if cands.len() == 1 {
            return self.commit(&cands[0]);
        }
        let me = view.seat();
        let cfg = view.config();
        let scoring = Scoring {
            knock: u32::from(view.knock_card()),
            gin: i64::from(cfg.gin_bonus),
            undercut: i64::from(cfg.undercut_bonus),
        };
        let base = self.base_world(view);
        let seed = self.rng.next_u64();
        let eval = evaluate(
            self.worlds,
            cands.len(),
            seed,
            |_, rng| (base.deal(rng), 1.0),
            |sim, c, _| utility(play(sim, &cands[c], me, &scoring)),
        );
        self.commit(&cands[eval.pick(0, GATE)])
    }

    fn commit(&mut self, c: &Candidate) -> u16 {
        match c {
            Candidate::Play(a) => *a,
            Candidate::Knock(plan) => {
                self.plan = Some(plan.clone());
                action::KNOCK
            }
        }
    }

    /// What the worlds of this decision are dealt from.
    fn base_world(&self, view: &GinRummySeatView<'_>) -> BaseWorld {
        let me = view.seat();
        let other = 1 - me;
        let known = view.known_mask(other);
        let (step, current) = match view.phase() {
            Phase::FirstUpcard => {
                let h = view.history();
                let passes = h.iter().filter(|&&a| a == action::PASS).count();
                let passed = match passes {
                    0 => 0,
                    1 => 1 << (1 - me),
                    _ => 3,
                };
                (Step::FirstUpcard(passed), me)
            }
            Phase::Draw => (Step::Draw, me),
            Phase::Wall => (Step::Wall, me),
            _ => (Step::Discard, me),
        };
        if self.dealt == Worlds::Omniscient {
            let state = view.full_state();
            let mut stock: Vec<u8> = state.stock_ids().to_vec();
            stock.sort_unstable();
            return BaseWorld {
                mine: view.hand_mask(),
                known: state.hand_mask(other),
                pool: stock,
                weights: Vec::new(),
                hidden: 0,
                improve: 0,
                upcard: view.upcard_id(),
                me,
                current,
                step,
            };
        }
        let mut seen = view.hand_mask() | known;
        seen |= view.pile_ids().iter().fold(0u64, |m, &c| m | 1u64 << c);
        if let Some(u) = view.upcard_id() {
            seen |= 1u64 << u;
        }
        for s in 0..2 {
            for &m in view.laid_melds(s) {
                seen |= MELD_MASKS[usize::from(m)];
            }
        }
        seen |= view.layoff_ids().iter().fold(0u64, |m, &c| m | 1u64 << c);
        let pool: Vec<u8> = ids(ALL_CARDS & !seen).collect();
        let hidden = view.hand_len(other) - known.count_ones() as usize;
        let reading = opponent_odds(view, other);
        let weights = if self.dealt == Worlds::Inferred {
            pool.iter()
                .map(|&c| reading.odds.of(usize::from(c)))
                .collect()
        } else {
            vec![1.0; pool.len()]
        };
        BaseWorld {
            mine: view.hand_mask(),
            known,
            pool,
            weights,
            hidden,
            improve: (reading.stock_draws as f64 * IMPROVE).round() as usize,
            upcard: view.upcard_id(),
            me,
            current,
            step,
        }
    }

    /// The knock's discard, then its melds, then pass (GR-5.2, GR-5.3).
    fn lay_out(&mut self, view: &GinRummySeatView<'_>, hand: u64) -> u16 {
        let over = view.hand_len(view.seat()) > usize::from(view.config().hand_size);
        if over {
            let plan = match self.plan.take() {
                Some(p) if hand >> p.discard & 1 == 1 => p,
                _ => {
                    // No plan of its own (not reached: every knock is planned).
                    let cands: Vec<Candidate> = knock_plans(hand, view.knock_card())
                        .into_iter()
                        .map(Candidate::Knock)
                        .collect();
                    if !cands.is_empty() {
                        self.search(view, cands);
                    }
                    match self.plan.take() {
                        Some(p) => p,
                        None => KnockPlan {
                            discard: best_discard(hand).0,
                            melds: Vec::new(),
                        },
                    }
                }
            };
            let a = u16::from(plan.discard);
            if self.legal.contains(&a) {
                self.plan = Some(plan);
                return a;
            }
            return self
                .legal
                .iter()
                .copied()
                .filter(|&x| x < action::CARDS)
                .min_by_key(|&c| deadwood(hand & !(1u64 << c)))
                .unwrap_or(self.legal[0]);
        }
        let planned = self
            .plan
            .as_ref()
            .map(|p| p.melds.clone())
            .unwrap_or_default();
        planned
            .into_iter()
            .chain(best_melds(hand))
            .map(|m| action::MELD_BASE + u16::from(m))
            .find(|a| self.legal.contains(a))
            .unwrap_or(action::PASS)
    }

    /// The defender's lay-offs and melds that leave the least deadwood (GR-6).
    fn lay_off(&mut self, view: &GinRummySeatView<'_>, hand: u64) -> u16 {
        let laying_off = self.legal.iter().any(|&a| a < action::CARDS);
        if laying_off {
            let Some(k) = view.knocker() else {
                return action::PASS;
            };
            let laid = view.layoff_ids().iter().fold(0u64, |m, &c| m | 1u64 << c);
            let (_, path) = defend(hand, view.laid_melds(k), laid);
            return path
                .first()
                .map(|&c| u16::from(c))
                .filter(|a| self.legal.contains(a))
                .unwrap_or(action::PASS);
        }
        best_melds(hand)
            .into_iter()
            .map(|m| action::MELD_BASE + u16::from(m))
            .find(|a| self.legal.contains(a))
            .unwrap_or(action::PASS)
    }
}

/// Every way to knock holding `hand` (one card over): each discard that
/// leaves at most the knock card, with each maximal arrangement that does,
/// the least deadwood first, at most [`KNOCKS`].
fn knock_plans(hand: u64, knock_card: u8) -> Vec<KnockPlan> {
    let knock = u32::from(knock_card);
    let mut out: Vec<(u32, KnockPlan)> = Vec::new();
    for d in ids(hand) {
        let rest = hand & !(1u64 << d);
        if deadwood(rest) > knock {
            continue;
        }
        for melds in arrangements(rest, knock, KNOCKS) {
            let used = melds
                .iter()
                .fold(0u64, |u, &m| u | MELD_MASKS[usize::from(m)]);
            out.push((mask_value(rest & !used), KnockPlan { discard: d, melds }));
        }
    }
    out.sort_by_key(|(dw, _)| *dw);
    out.truncate(KNOCKS);
    out.into_iter().map(|(_, p)| p).collect()
}

/// What a decision's worlds are dealt from: the bot's hand, the other
/// hand's known cards, the unseen cards in card order with their weights,
/// and how many of them the other hand holds.
struct BaseWorld {
    mine: u64,
    known: u64,
    pool: Vec<u8>,
    weights: Vec<f64>,
    hidden: usize,
    /// Stock draws of the other player: chances it had to better its hand.
    improve: usize,
    upcard: Option<u8>,
    me: u8,
    current: u8,
    step: Step,
}

impl BaseWorld {
    fn deal(&self, rng: &mut GameRng) -> Sim {
        let mut other = self.known;
        let mut stock: Vec<u8> = if self.weights.is_empty() {
            // Omniscient: the other hand is known, the stock order is not.
            self.pool.clone()
        } else {
            let mut left: Vec<(u8, f64)> = self
                .pool
                .iter()
                .copied()
                .zip(self.weights.iter().copied())
                .collect();
            let draw = |left: &mut Vec<(u8, f64)>, rng: &mut GameRng| -> u8 {
                let w: Vec<f64> = left.iter().map(|x| x.1).collect();
                let i = weighted_deal(&w, 1, rng)[0];
                left.remove(i).0
            };
            let mut hidden = 0u64;
            for _ in 0..self.hidden {
                hidden |= 1u64 << draw(&mut left, rng);
            }
            // Each stock draw of the other player let it keep the better
            // of its hand and the card: its hand is that much better than
            // a fresh deal (the least deadwood of the cards it may hold).
            for _ in 0..self.improve {
                if left.len() <= WALL_STOCK {
                    break;
                }
                let c = draw(&mut left, rng);
                let all = self.known | hidden | 1u64 << c;
                let shed = ids(hidden | 1u64 << c)
                    .min_by_key(|&x| (deadwood(all & !(1u64 << x)), 10 - super::card_value(x)))
                    .unwrap_or(c);
                hidden = (hidden | 1u64 << c) & !(1u64 << shed);
                let w = self
                    .pool
                    .iter()
                    .position(|&p| p == shed)
                    .map_or(1.0, |i| self.weights[i]);
                left.push((shed, w));
                left.sort_unstable_by_key(|x| x.0);
            }
            other |= hidden;
            left.into_iter().map(|x| x.0).collect()
        };
        rng.shuffle(&mut stock);
        let mut sim = Sim {
            hands: [0; 2],
            stock: [0; 52],
            len: stock.len() as u8,
            next: 0,
            upcard: self.upcard,
            current: self.current,
            step: self.step,
        };
        sim.stock[..stock.len()].copy_from_slice(&stock);
        sim.hands[usize::from(self.me)] = self.mine;
        sim.hands[usize::from(1 - self.me)] = other;
        sim
    }
}

/// The return of seat `me` for candidate `c` in world `sim`.
fn play(sim: &Sim, c: &Candidate, me: u8, s: &Scoring) -> i64 {
    let mut sim = *sim;
    let p = usize::from(me);
    match c {
        Candidate::Knock(plan) => {
            let mut hand = sim.hands[p];
            if sim.step == Step::Wall {
                if let Some(u) = sim.upcard {
                    hand |= 1u64 << u;
                }
            }
            let rest = hand & !(1u64 << plan.discard);
            let used = plan
                .melds
                .iter()
                .fold(0u64, |u, &m| u | MELD_MASKS[usize::from(m)]);
            let dk = mask_value(rest & !used);
            let defender = sim.hands[1 - p];
            let dd = if dk == 0 {
                deadwood(defender)
            } else {
                defended(defender, &plan.melds)
            };
            s.knocker_return(dk, dd)
        }
        Candidate::Play(a) => {
            match (sim.step, *a) {
                (Step::Wall, action::PASS) => return 0,
                (Step::FirstUpcard(passed), action::PASS) => {
                    let passed = passed | 1 << p;
                    sim.step = Step::FirstUpcard(passed);
                    sim.current = 1 - sim.current;
                }
                (_, action::DRAW_UPCARD) => sim.take_upcard(),
                (_, action::DRAW_STOCK) => sim.draw_stock(),
                (Step::Discard, c) if c < action::CARDS => sim.discard(c as u8),
                _ => {}
            }
            sim.play_out(me, s)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_defender_lays_off_what_lowers_its_deadwood() {
        // Knocker's run 4S5S6S (meld 65 + 11 * 0 + 3); the defender holds
        // 7S 8S and high loose cards: laying off 7S then 8S saves 15.
        let run = 65 + 3;
        let s = |r: u8| 1u64 << r;
        let defender = s(6) | s(7) | 1 << (13 + 12) | 1 << (26 + 11);
        let (dw, path) = defend(defender, &[run], 0);
        assert_eq!(dw, 20);
        assert_eq!(path, vec![6, 7]);
        assert_eq!(defended(defender, &[run]), 20);
    }

    #[test]
    fn omniscient_reads_the_other_hand_so_the_seat_view_test_leaves_it_out() {
        use crate::engine::{Decision, Game, State};
        use crate::games::gin_rummy::GinRummyGame;
        // Asked the same question of a state and of the state with the
        // hidden cards re-dealt, `omniscient` answers differently somewhere:
        // it sees what the seat cannot, which is what it is for.
        let game = GinRummyGame::from_options(&[]).unwrap();
        let mut rng = GameRng::new(3);
        let mut differs = false;
        'games: for seed in 0..40 {
            let mut state = game.deal(seed, None).unwrap();
            let mut greedy = game.bot("greedy", 1).unwrap();
            while let Decision::Seat(seat) = state.decision() {
                let hidden = state.determinize(seat, &mut rng);
                let mut a = game.bot("omniscient:8", 9).unwrap();
                let mut b = game.bot("omniscient:8", 9).unwrap();
                if a.act(state.seat_view(seat), 0) != b.act(hidden.seat_view(seat), 0) {
                    differs = true;
                    break 'games;
                }
                let x = greedy.act(state.seat_view(seat), 0).unwrap().action;
                state.apply(seat, x, 0).unwrap();
            }
        }
        assert!(differs);
    }

    #[test]
    fn the_simple_bot_takes_an_upcard_only_into_a_meld_and_never_lays_off() {
        use crate::engine::{Game, State};
        use crate::games::gin_rummy::GinRummyGame;
        let game = GinRummyGame::from_options(&[]).unwrap();
        // Seat 0 holds 5H 6H and high loose cards; the upcard 7H melds.
        let deck = crate::card::parse_hand(
            "5H 6H KS KC QD JD 9C 8S 2D 3C  AS 2S 3S 4C 5C 6D 7D 8D 9S TS  7H",
        )
        .unwrap();
        let state = game.deal_from_deck(&deck, 1).unwrap();
        let mut bot = game.bot("simple", 1).unwrap();
        let a = bot.act(state.seat_view(0), 0).unwrap().action;
        assert_eq!(a, action::DRAW_UPCARD);
        // Seat 1 would not take a card that melds with nothing: with KH up
        // for seat 0's hand above, it passes.
        let deck = crate::card::parse_hand(
            "5H 6H KS 4C QD JD 9C 8S 2D 3C  AS 2S 3S 4D 5C 6D 7D 8D 9S TS  KH",
        )
        .unwrap();
        let state = game.deal_from_deck(&deck, 1).unwrap();
        let a = bot.act(state.seat_view(0), 0).unwrap().action;
        assert_eq!(a, action::PASS);
    }

    #[test]
    fn a_knock_is_scored_as_gr_8_scores_it() {
        let s = Scoring {
            knock: 10,
            gin: 25,
            undercut: 25,
        };
        assert_eq!(s.knocker_return(0, 12), 37);
        assert_eq!(s.knocker_return(5, 12), 7);
        assert_eq!(s.knocker_return(8, 5), -28);
        assert_eq!(s.knocker_return(6, 6), 0);
    }
}
