//! Speed bots: the engine layer's reaction-time bots
//! ([`ReactionBot`], RT-3) with a Speed policy.
//!
//! A spec is `POLICY[:PRESET][,key=value...]` ([`BotSpec::parse`]) with the
//! policies `plain`, `smart`, `search`, `random` and `omniscient` and the
//! presets `easy`, `normal`, `hard`, `instant`: `smart:hard`,
//! `plain:instant`, `smart,reaction_median_ms=300`, `search,worlds=64`. A
//! policy decides from its seat's [`SpeedSeatView`] (RT-10): its own hand,
//! the face-up centre cards, the counts and the cards played; never the
//! opponent's hand or a face-down card (`omniscient`, for benchmarks only,
//! excepted).
//!
//! - `plain`: the first legal action (lowest id: the lowest card code, the
//!   left pile first; a draw only when nothing can be played).
//! - `random`: any legal action, uniformly.
//! - `search` (`worlds=N`) and, for benchmarks only, `omniscient`: `smart`
//!   checked by a look-ahead over sampled worlds (`search.rs`).
//! - `smart`: at equal speed a play both players can make goes to the one
//!   who happens to react first (RT-3), so what decides a deal is who is
//!   stuck more often: a player who can play while the other cannot plays
//!   unopposed. `smart` keeps track of the opponent's hand from public
//!   events ([`Tracker`], fed through [`Policy::observe`] after every
//!   change) and scores each legal play by what it leaves:
//!   - −6 × the chance that the opponent can play on the new tops
//!     (SD-2.1). The opponent's cards are modelled one by one among the
//!     cards this seat has not seen (its hands and every face-up centre
//!     card are seen, recycled ones included): at a stalemate (SD-3.1) no
//!     card of the opponent fits the tops, so those ranks are ruled out for
//!     every card it holds then; a card it plays leaves the model (the one
//!     most likely to have been it) and each refill (SD-2.2) is a fresh
//!     unknown. So it prefers plays that leave the opponent stuck and plays
//!     on the pile the opponent's cards would fit, and when the opponent is
//!     known to be stuck it holds back the card that would unlock it if
//!     another play exists;
//!   - its own hand afterwards: +1 for each pair of adjacent ranks left (a
//!     run is kept whole and loose cards go first), +0.5 for each rank of
//!     top some card left could go on, +1 for each card left of the played
//!     card's rank (duplicates are shed first);
//!   - −10 for a joker (SD-5), more than all the rest: the last resort.
//!
//!   It never waits while it can play (waiting hands the opponent the
//!   play; the waiting rules tried measured no better or worse), and with
//!   `auto_draw = false` it draws only when no play is left (drawing
//!   earlier measured worse). Ties go to the lowest id. Against `plain` at
//!   equal speed, over mirrored deals, it wins about 53–54% at every
//!   preset. Preferring a play after which one of its own cards fits the
//!   new top (a chain), the obvious idea, measured worse than `plain`
//!   (48–49%), presumably because the follow-up card waits on the pile the
//!   opponent is as likely to cover next, and it breaks up a run.

use crate::bots::reaction::{bot_grammar, BotSpec, Policy, RandomPolicy, ReactionBot};
use crate::card::Card;
use crate::engine::{Bots, Controller};
use crate::error::Result;
use crate::games::speed::search::{Search, Sight};
use crate::games::speed::{
    rank_mask_of, Action, Phase, SpeedGame, SpeedSeatView, SpeedState, HAND_SIZE, JOKERS_IN_PLAY,
};
use crate::rng::GameRng;

/// A Speed bot's spec: the engine's real-time spec.
pub type SpeedBotSpec = BotSpec;

/// The Speed policies, the default first.
pub const POLICIES: [&str; 5] = ["plain", "smart", "search", "random", "omniscient"];

/// The policies that search over sampled worlds and take `worlds=N`.
pub const SEARCHING: [&str; 2] = ["search", "omniscient"];

/// The policy a spec names (`plain` for any other name).
pub fn policy(spec: &BotSpec) -> Box<dyn Policy<SpeedState>> {
    match spec.policy {
        "smart" => Box::<Smart>::default(),
        "search" => Box::new(Search::new(spec.worlds, Sight::SeatView)),
        "omniscient" => Box::new(Search::new(spec.worlds, Sight::OtherHand)),
        "random" => Box::new(RandomPolicy),
        _ => Box::new(Plain),
    }
}

impl Bots<SpeedGame> for BotSpec {
    /// Reads a spec such as `smart:hard` or `plain:instant`.
    fn parse(spec: &str) -> Result<BotSpec> {
        BotSpec::parse(spec, &POLICIES, &SEARCHING)
    }

    fn grammar() -> String {
        bot_grammar(&POLICIES, &SEARCHING)
    }

    fn name(&self) -> String {
        BotSpec::name(self)
    }

    fn build(&self, _game: &SpeedGame, seed: u64) -> Box<dyn Controller<SpeedState>> {
        Box::new(ReactionBot::new(self.timing, policy(self), seed))
    }

    fn examples() -> &'static [&'static str] {
        &[
            "plain:instant",
            "plain:hard",
            "smart:instant",
            "smart:easy",
            "search:instant,worlds=8",
            "random:normal",
        ]
    }

    /// The ladder of levels, weakest first: each beats the one below in
    /// 60–75% of games (measured in docs/bots.md, Levels).
    fn levels() -> &'static [(&'static str, &'static str)] {
        &[
            ("easy", "plain:easy,reaction_median_ms=1100"),
            ("normal", "plain:normal"),
            ("hard", "smart:normal,reaction_median_ms=750"),
            ("expert", "smart:hard,reaction_median_ms=600"),
        ]
    }
}

/// The first legal action.
#[derive(Debug, Clone, Copy, Default)]
pub struct Plain;

impl Policy<SpeedState> for Plain {
    fn choose(
        &mut self,
        _view: SpeedSeatView<'_>,
        legal: &[u16],
        _rng: &mut GameRng,
    ) -> Option<u16> {
        legal.first().copied()
    }
}

/// Rank index of the joker in a [`Tracker`]'s weights and in fit masks
/// (ranks are 1..=13, so bit 0 is free).
const JOKER: usize = 0;

/// Bit `code` for each of the four cards of rank `r` (1..=13).
const fn codes_of_rank(r: u64) -> u64 {
    (1 << (r - 1)) | (1 << (r + 12)) | (1 << (r + 25)) | (1 << (r + 38))
}

/// The ranks (bit r, and bit 0 for a joker) that could go on tops of
/// these effective ranks: a joker goes on any face-up top.
fn fit_of(tops: [u8; 2], equal: bool) -> u16 {
    let m = rank_mask_of(tops[0], equal) | rank_mask_of(tops[1], equal);
    if m == 0 {
        0
    } else {
        m | 1 << JOKER
    }
}

/// The bit of a card in a card-code mask (jokers have none).
fn code_bit(c: Card) -> u64 {
    if c.is_joker() {
        0
    } else {
        1 << c.code()
    }
}

/// What one seat has learnt of the opponent's hand from public events
/// (RT-10): the cards it has seen (its own hands, every face-up centre
/// card), the opponent's plays (the commits of cards it never held), and
/// the stalemates (SD-3.1: then no card of the opponent fits the tops).
///
/// The opponent's hand is modelled card by card: each holds a card it has
/// not seen, and `weight[slot][rank]` scales that rank's chance (0: ruled
/// out by a stalemate). A card the opponent plays removes the card most
/// likely to have been it; each refill adds a card about which nothing is
/// known. Fixed-size: no allocation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tracker {
    started: bool,
    deal: u16,
    /// Commits of `history()` read so far.
    history: usize,
    /// Cards seen (bit per code 0..52): in the own hand or face up.
    known: u64,
    /// Cards held at some time: the own plays are these.
    held: u64,
    /// Jokers seen at once, at most (their codes are all the same).
    jokers_known: u8,
    /// Jokers in the own hand at the last look.
    jokers_held: u8,
    /// Centre cards read, per pile.
    centre_read: [usize; 2],
    weight: [[f32; 14]; HAND_SIZE],
    /// The opponent's cards in the model (its hand size).
    cards: usize,
    /// Commits, phase and flips at the last look: nothing else changes
    /// what it may see.
    stamp: (usize, Phase, u16),
}

impl Default for Tracker {
    fn default() -> Self {
        Tracker {
            started: false,
            deal: 0,
            history: 0,
            known: 0,
            held: 0,
            jokers_known: 0,
            jokers_held: 0,
            centre_read: [0; 2],
            weight: [[1.0; 14]; HAND_SIZE],
            cards: 0,
            stamp: (0, Phase::Countdown, 0),
        }
    }
}

impl Tracker {
    /// Reads what changed since the last look; looking twice at one state
    /// changes nothing.
    pub fn observe(&mut self, view: &SpeedSeatView<'_>) {
        let stamp = (view.history().len(), view.phase(), view.flips());
        if self.started && view.deal_index() == self.deal && self.stamp == stamp {
            return;
        }
        self.read(view);
        self.stamp = stamp;
    }

    fn read(&mut self, view: &SpeedSeatView<'_>) {
        let seat = crate::engine::SeatView::seat(view);
        let deal = view.deal_index();
        // A new deal, or (a policy reused) another game: start again.
        if !self.started || deal != self.deal || view.history().len() < self.history {
            *self = Tracker {
                started: true,
                deal,
                history: view.history().len(),
                ..Tracker::default()
            };
        }
        let mut jokers = 0u8;
        for c in view.hand_slots().into_iter().flatten() {
            if c.is_joker() {
                jokers += 1;
            } else {
                self.known |= code_bit(c);
                self.held |= code_bit(c);
            }
        }
        let history = view.history();
        if history.len() > self.history {
            // Jokers that left the own hand since the last look were its own plays.
            let mut own_jokers = self.jokers_held.saturating_sub(jokers);
            let mut unseen = None;
            for &a in &history[self.history..] {
                let rank = match Action::decode(a) {
                    Ok(Action::Play { card, .. }) if self.held & code_bit(card) == 0 => {
                        usize::from(card.rank())
                    }
                    Ok(Action::Joker { .. }) if own_jokers == 0 => JOKER,
                    Ok(Action::Joker { .. }) => {
                        own_jokers -= 1;
                        continue;
                    }
                    _ => continue,
                };
                let u = *unseen.get_or_insert_with(|| self.unseen(view));
                self.remove_likeliest(rank, &u);
            }
        }
        self.history = history.len();
        self.jokers_held = jokers;
        // The refills: fresh cards (SD-2.2); the model follows the hand size.
        let size = view.hand_len(u8::from(seat == 0)).min(HAND_SIZE);
        for w in &mut self.weight[self.cards.min(size)..size] {
            *w = [1.0; 14];
        }
        self.cards = size;
        let phase = view.phase();
        if phase == Phase::Countdown {
            return;
        }
        let mut jokers_seen = jokers;
        for p in 0..2u8 {
            let pile = view.centre_pile(p);
            let read = &mut self.centre_read[usize::from(p)];
            if *read != pile.len() {
                // A recycle (SD-3.4) took cards away: read the pile again.
                let from = if *read > pile.len() { 0 } else { *read };
                for &c in &pile[from..] {
                    self.known |= code_bit(c);
                }
                *read = pile.len();
            }
            if view.config().jokers {
                jokers_seen += pile.iter().filter(|c| c.is_joker()).count() as u8;
            }
        }
        self.jokers_known = self.jokers_known.max(jokers_seen);
        if phase == Phase::Stalemate {
            // SD-3.1: no card of the opponent fits the tops.
            let tops = [view.top_rank(0), view.top_rank(1)];
            let fit = fit_of(tops, view.config().equal_rank_play);
            for w in &mut self.weight[..self.cards] {
                for (r, x) in w.iter_mut().enumerate() {
                    if fit & (1 << r) != 0 {
                        *x = 0.0;
                    }
                }
            }
        }
    }

    /// Cards of each rank (index 0: jokers) this seat has not seen.
    pub fn unseen(&self, view: &SpeedSeatView<'_>) -> [f32; 14] {
        let mut u = [0f32; 14];
        if view.config().jokers {
            u[JOKER] = f32::from((JOKERS_IN_PLAY as u8).saturating_sub(self.jokers_known));
        }
        for (r, x) in u.iter_mut().enumerate().skip(1) {
            *x = (4 - (self.known & codes_of_rank(r as u64)).count_ones()) as f32;
        }
        u
    }

    /// The opponent played a card of rank `rank`: the card of the model
    /// most likely to have been it leaves.
    fn remove_likeliest(&mut self, rank: usize, unseen: &[f32; 14]) {
        let mut best: Option<(f32, usize)> = None;
        for (i, w) in self.weight[..self.cards].iter().enumerate() {
            let total: f32 = w.iter().zip(unseen).map(|(a, b)| a * b).sum();
            let p = if total > 0.0 { w[rank] / total } else { 0.0 };
            if best.is_none_or(|(b, _)| p > b) {
                best = Some((p, i));
            }
        }
        if let Some((_, i)) = best {
            self.weight[i] = self.weight[self.cards - 1];
            self.cards -= 1;
        }
    }

    /// For each of the opponent's cards, the chance of each rank.
    pub fn chances(&self, unseen: &[f32; 14]) -> [[f32; 14]; HAND_SIZE] {
        let mut out = [[0f32; 14]; HAND_SIZE];
        for (w, o) in self.weight[..self.cards].iter().zip(&mut out) {
            let total: f32 = w.iter().zip(unseen).map(|(a, b)| a * b).sum();
            if total > 0.0 {
                for r in 0..14 {
                    o[r] = w[r] * unseen[r] / total;
                }
            }
        }
        out
    }

    /// Each of the opponent's cards in the model: how much likelier than
    /// an unseen card of another rank a card of each rank is (index 0:
    /// jokers; 0: ruled out).
    pub fn card_weights(&self) -> &[[f32; 14]] {
        &self.weight[..self.cards]
    }

    /// The opponent's cards in the model.
    pub fn cards(&self) -> usize {
        self.cards
    }
}

/// The chance that at least one of the opponent's cards (`chances`, of
/// which the first `cards`) has a rank in `fit`.
fn chance_any(chances: &[[f32; 14]; HAND_SIZE], cards: usize, fit: u16) -> f32 {
    let mut none = 1.0;
    for c in &chances[..cards] {
        let mut p = 0.0;
        let mut m = fit;
        while m != 0 {
            p += c[m.trailing_zeros() as usize];
            m &= m - 1;
        }
        none *= 1.0 - p.min(1.0);
    }
    1.0 - none
}

/// Weights of [`Smart::score`] (see the module notes).
const W_OPPONENT: f32 = -6.0;
const W_RUN: f32 = 1.0;
const W_COVER: f32 = 0.5;
const W_DUPLICATE: f32 = 1.0;
const W_JOKER: f32 = -10.0;

/// What the own hand keeps for later when one of its cards is played:
/// pairs of adjacent ranks, the ranks of top some card could go on, and
/// cards of the played card's rank.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Leaves {
    pub runs: u32,
    pub cover: u32,
    pub duplicates: u32,
}

impl Leaves {
    /// What `hand` leaves without its card at `index`.
    pub fn of(hand: &[Card], index: usize) -> Leaves {
        let played = hand[index];
        let mut out = Leaves::default();
        let mut cover = 0u16;
        for (i, &c) in hand.iter().enumerate() {
            if i == index {
                continue;
            }
            if c.is_joker() {
                cover |= rank_mask_of(crate::games::speed::WILD_TOP, false);
                continue;
            }
            cover |= rank_mask_of(c.rank(), false);
            if !played.is_joker() && c.rank() == played.rank() {
                out.duplicates += 1;
            }
            for (j, &d) in hand.iter().enumerate().skip(i + 1) {
                if j != index
                    && !d.is_joker()
                    && rank_mask_of(c.rank(), false) & (1 << d.rank()) != 0
                {
                    out.runs += 1;
                }
            }
        }
        out.cover = cover.count_ones();
        out
    }
}

/// Plays that leave the opponent stuck and keep its own hand supple, with
/// what it has learnt of the opponent's hand (see the module notes).
#[derive(Debug, Clone, Copy, Default)]
pub struct Smart {
    pub tracker: Tracker,
}

impl Smart {
    /// The score of a play that puts a card of effective rank `rank` on
    /// `pile` and leaves `leaves` in the hand: `tops` are the centre tops'
    /// effective ranks before it, `opponent` the chances of the opponent's
    /// cards ([`Tracker::chances`]) and how many it holds.
    pub fn score(
        tops: [u8; 2],
        pile: u8,
        rank: u8,
        joker: bool,
        leaves: Leaves,
        equal: bool,
        opponent: (&[[f32; 14]; HAND_SIZE], usize),
    ) -> f32 {
        let mut new_tops = tops;
        new_tops[usize::from(pile) & 1] = rank;
        let fit = fit_of(new_tops, equal);
        W_OPPONENT * chance_any(opponent.0, opponent.1, fit)
            + W_RUN * leaves.runs as f32
            + W_COVER * leaves.cover as f32
            + W_DUPLICATE * leaves.duplicates as f32
            + if joker { W_JOKER } else { 0.0 }
    }
}

impl Policy<SpeedState> for Smart {
    fn observe(&mut self, view: SpeedSeatView<'_>) {
        self.tracker.observe(&view);
    }

    fn choose(
        &mut self,
        view: SpeedSeatView<'_>,
        legal: &[u16],
        _rng: &mut GameRng,
    ) -> Option<u16> {
        if legal.len() < 2 {
            return legal.first().copied();
        }
        self.tracker.observe(&view);
        let mut hand = [Card::JOKER; HAND_SIZE];
        let mut n = 0;
        for c in view.hand_slots().into_iter().flatten() {
            hand[n] = c;
            n += 1;
        }
        let hand = &hand[..n];
        let mut leaves: [Option<Leaves>; HAND_SIZE] = [None; HAND_SIZE];
        let tops = [view.top_rank(0), view.top_rank(1)];
        let equal = view.config().equal_rank_play;
        let chances = self.tracker.chances(&self.tracker.unseen(&view));
        let opponent = (&chances, self.tracker.cards());
        let mut best: Option<(f32, u16)> = None;
        for &a in legal {
            let (card, pile, rank) = match Action::decode(a) {
                Ok(Action::Play { card, pile }) => (card, pile, card.rank()),
                Ok(Action::Joker { pile, rank }) => (Card::JOKER, pile, rank),
                // A draw (manual draw) only when no play is left.
                _ => {
                    if best.is_none() {
                        best = Some((f32::MIN, a));
                    }
                    continue;
                }
            };
            let Some(i) = hand.iter().position(|&c| c == card) else {
                continue;
            };
            let left = *leaves[i].get_or_insert_with(|| Leaves::of(hand, i));
            let s = Smart::score(tops, pile, rank, card.is_joker(), left, equal, opponent);
            if best.is_none_or(|(b, _)| s > b) {
                best = Some((s, a));
            }
        }
        best.map(|(_, a)| a)
    }
}
