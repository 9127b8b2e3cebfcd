//! What a seat may see (RT-10): views, observations, determinization and
//! the fingerprint.

use super::*;

/// What one seat sees of the game: never the opponent's hand or a
/// face-down card. Fixed-size (no allocation), so bots may take one on
/// every look.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SpeedView {
    pub seat: u8,
    pub phase: Phase,
    /// Index of the deal in play.
    pub deal: u16,
    /// The virtual time of the last commit or timer.
    pub now: Millis,
    /// The countdown or flip timer, when one runs (public: both see it).
    pub timer: Option<Millis>,
    /// The seat's own hand, by slot.
    pub hand: [Option<Card>; HAND_SIZE],
    /// Face-up centre tops (left, right); None before the turn-up.
    pub centre_top: [Option<Card>; 2],
    /// Their effective ranks: [`NO_TOP`], 1..=13 (a played joker's rank),
    /// or [`WILD_TOP`] (a joker turned up).
    pub centre_rank: [u8; 2],
    pub centre_size: [u8; 2],
    pub side_size: [u8; 2],
    /// By seat (not relative).
    pub draw_size: [u8; 2],
    pub hand_size: [u8; 2],
    pub recycles_since_play: u8,
    pub scores: [i64; 2],
    pub deal_wins: [u8; 2],
    pub last_deal: Option<DealResult>,
    /// Once over.
    pub returns: Option<[i64; 2]>,
    pub ending: Option<Ending>,
}

impl SpeedView {
    /// The cards in the own hand, in slot order.
    pub fn hand_cards(&self) -> impl Iterator<Item = Card> + '_ {
        self.hand.iter().flatten().copied()
    }

    /// The rank mask (bit r for ranks 1..=13) of cards that fit `pile`,
    /// under `equal_rank_play` when `equal` is set.
    pub fn rank_mask(&self, pile: usize, equal: bool) -> u16 {
        rank_mask_of(self.centre_rank[pile], equal)
    }
}

/// The ranks (bit r) that fit on a top of effective rank `top`.
pub fn rank_mask_of(top: u8, equal: bool) -> u16 {
    match top {
        NO_TOP => 0,
        WILD_TOP => ALL_RANKS,
        t if t <= 13 => {
            let up = t % 13 + 1;
            let down = (t + 11) % 13 + 1;
            (1 << up) | (1 << down) | if equal { 1 << t } else { 0 }
        }
        _ => 0,
    }
}

/// Entries of [`SpeedState::observation`].
pub const OBSERVATION_SIZE: usize = CARD_CODES * 3 + 15 * 2 + 8 + 4 + 2 + 5;

impl SpeedState {
    /// Everything `seat` may see.
    pub fn view(&self, seat: u8) -> SpeedView {
        let sz = |n: usize| n.min(255) as u8;
        let over = self.is_terminal();
        SpeedView {
            seat,
            phase: self.phase,
            deal: self.deal,
            now: self.now,
            timer: self.timer,
            hand: self.hand_slots(seat),
            centre_top: [self.centre_top(0), self.centre_top(1)],
            centre_rank: self.top,
            centre_size: [sz(self.centre[0].len()), sz(self.centre[1].len())],
            side_size: [sz(self.side[0].len()), sz(self.side[1].len())],
            draw_size: [sz(self.draw[0].len()), sz(self.draw[1].len())],
            hand_size: [sz(self.hand_len(0)), sz(self.hand_len(1))],
            recycles_since_play: self.recycles_since_play,
            scores: self.scores,
            deal_wins: self.deal_wins,
            last_deal: self.last_deal,
            returns: over.then_some(self.result),
            ending: self.ending,
        }
    }

    /// A flat observation in `[0, 1]` for learning code, from `seat`'s point
    /// of view ("own" is `seat`, "opponent" the other), [`OBSERVATION_SIZE`]
    /// entries. Layout, in order:
    ///
    /// 1. own hand, 53 entries by card code (the joker last, count / 2);
    /// 2. left centre top, one-hot by code (53; all zero before the turn-up);
    /// 3. right centre top, the same;
    /// 4. left top's effective rank one-hot, 15 entries (0 none, 1..13, 14 wild);
    /// 5. right top's, the same;
    /// 6. sizes: left and right centre pile / 54, left and right side pile /
    ///    27, own draw pile / 27, opponent's draw pile / 27, own hand / 5,
    ///    opponent's hand / 5;
    /// 7. phase one-hot: countdown, playing, stalemate, over;
    /// 8. 1 if `seat` has a legal action, 1 if a countdown or flip timer runs;
    /// 9. own score / target, opponent's score / target (capped at 1), own
    ///    deal wins / 2, opponent's / 2 (capped), deal index / max_deals.
    pub fn observation(&self, seat: u8) -> Vec<f32> {
        let mut o = vec![0f32; OBSERVATION_SIZE];
        let me = usize::from(seat.min(1));
        let opp = 1 - me;
        for c in self.hands[me].iter().flatten() {
            let k = usize::from(c.code());
            o[k] = if c.is_joker() { o[k] + 0.5 } else { 1.0 };
        }
        for p in 0..2u8 {
            if let Some(c) = self.centre_top(p) {
                o[CARD_CODES * (1 + usize::from(p)) + usize::from(c.code())] = 1.0;
            }
        }
        let mut base = CARD_CODES * 3;
        for p in 0..2 {
            o[base + usize::from(self.top[p].min(14))] = 1.0;
            base += 15;
        }
        let f = |n: usize, d: f32| (n as f32 / d).min(1.0);
        let sizes = [
            f(self.centre[0].len(), 54.0),
            f(self.centre[1].len(), 54.0),
            f(self.side[0].len(), 27.0),
            f(self.side[1].len(), 27.0),
            f(self.draw[me].len(), 27.0),
            f(self.draw[opp].len(), 27.0),
            f(self.hand_len(me as u8), 5.0),
            f(self.hand_len(opp as u8), 5.0),
        ];
        o[base..base + 8].copy_from_slice(&sizes);
        base += 8;
        o[base + self.phase.index()] = 1.0;
        base += 4;
        if usize::from(seat) < PLAYERS && self.active_mask() & (1 << seat) != 0 {
            o[base] = 1.0;
        }
        if self.timer.is_some() {
            o[base + 1] = 1.0;
        }
        base += 2;
        let target = self.cfg.target_score.max(1) as f32;
        o[base] = (self.scores[me].max(0) as f32 / target).min(1.0);
        o[base + 1] = (self.scores[opp].max(0) as f32 / target).min(1.0);
        o[base + 2] = (f32::from(self.deal_wins[me]) / 2.0).min(1.0);
        o[base + 3] = (f32::from(self.deal_wins[opp]) / 2.0).min(1.0);
        o[base + 4] = (f32::from(self.deal) / f32::from(self.cfg.max_deals.max(1))).min(1.0);
        o
    }

    /// The cards `seat` cannot see: the opponent's hand, both draw piles,
    /// the side piles and, before the turn-up, the centre cards.
    pub fn unseen_cards(&self, seat: u8) -> Vec<Card> {
        let me = usize::from(seat.min(1));
        let mut pool: Vec<Card> = self.hands[1 - me].iter().flatten().copied().collect();
        for v in self.draw.iter().chain(&self.side) {
            pool.extend_from_slice(v);
        }
        if self.phase == Phase::Countdown {
            for c in &self.centre {
                pool.extend_from_slice(c);
            }
        }
        pool
    }

    /// A state `seat` cannot tell apart from this one: every card it cannot
    /// see dealt again at random, every count (and the opponent's occupied
    /// slots) kept. During a stalemate the opponent is dealt only cards that
    /// fit neither centre pile, as everybody knows it holds. No seed replays
    /// the result.
    pub fn determinize(&self, seat: u8, rng: &mut GameRng) -> SpeedState {
        let mut s = self.clone();
        s.history.clear();
        s.unrecordable = true;
        let me = usize::from(seat.min(1));
        let opp = 1 - me;
        let mut pool = self.unseen_cards(seat);
        rng.shuffle(&mut pool);
        // The opponent's hand first, consistent with what is public: during
        // a stalemate it holds no card that fits (the real hand is such a
        // choice, so there are enough); in play, when this seat cannot act
        // and the opponent cannot draw, it holds one that fits.
        let masks = [self.rank_mask(0), self.rank_mask(1)];
        let fits = |c: &Card| c.is_joker() || (masks[0] | masks[1]) & (1 << c.rank()) != 0;
        let stalemate = self.phase == Phase::Stalemate;
        let need = self.hand_len(opp as u8);
        let mut hand = Vec::with_capacity(need);
        let mut rest = Vec::with_capacity(pool.len());
        for c in pool {
            if hand.len() < need && !(stalemate && fits(&c)) {
                hand.push(c);
            } else {
                rest.push(c);
            }
        }
        let must_fit = self.phase == Phase::Playing
            && self.active_mask() & (1 << me) == 0
            && !self.can_draw(opp);
        if must_fit && !hand.iter().any(fits) {
            if let (Some(i), false) = (rest.iter().position(fits), hand.is_empty()) {
                let k = rng.below(hand.len() as u32) as usize;
                std::mem::swap(&mut hand[k], &mut rest[i]);
            }
        }
        let mut hand = hand.into_iter();
        for slot in s.hands[opp].iter_mut() {
            if slot.is_some() {
                *slot = hand.next();
            }
        }
        let mut rest = rest.into_iter();
        let mut refill = |v: &mut Vec<Card>| {
            for c in v.iter_mut() {
                if let Some(x) = rest.next() {
                    *c = x;
                }
            }
        };
        for v in s.draw.iter_mut() {
            refill(v);
        }
        for v in s.side.iter_mut() {
            refill(v);
        }
        if self.phase == Phase::Countdown {
            for v in s.centre.iter_mut() {
                refill(v);
            }
        }
        s
    }

    /// A hash of everything in the state (see `engine::State::fingerprint`),
    /// the virtual time and the timers included.
    pub fn fingerprint(&self) -> u64 {
        let mut h = engine::Fingerprint::default();
        let cards = |h: &mut engine::Fingerprint, cards: &[Card]| {
            h.u64(cards.len() as u64);
            for c in cards {
                h.bytes(&[c.code()]);
            }
        };
        h.bytes(&[
            self.phase.index() as u8,
            self.top[0],
            self.top[1],
            self.recycles_since_play,
            self.deal_wins[0],
            self.deal_wins[1],
            self.ending.map_or(255, |e| e as u8),
        ]);
        h.u64(u64::from(self.deal))
            .u64(u64::from(self.recycles))
            .u64(u64::from(self.flips))
            .u64(self.now)
            .u64(self.timer.map_or(u64::MAX, |t| t));
        for seat in 0..2 {
            for slot in &self.hands[seat] {
                h.bytes(&[slot.map_or(255, |c| c.code())]);
            }
            cards(&mut h, &self.draw[seat]);
            cards(&mut h, &self.side[seat]);
            cards(&mut h, &self.centre[seat]);
            h.i64(self.scores[seat]).i64(self.result[seat]);
        }
        cards(&mut h, &self.removed);
        if let Some(d) = self.last_deal {
            h.u64(u64::from(d.deal))
                .bytes(&[
                    d.end as u8,
                    d.winner.map_or(255, |w| w),
                    d.cards_left[0],
                    d.cards_left[1],
                ])
                .i64(d.points[0])
                .i64(d.points[1])
                .u64(d.at);
        }
        h.finish()
    }

    /// Text of an action (the same as `Action`'s `Display`).
    pub fn action_to_string(a: u16) -> Result<String> {
        Ok(Action::decode(a)?.to_string())
    }
}
