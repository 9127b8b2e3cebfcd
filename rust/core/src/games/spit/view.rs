//! What a seat may see (RT-10): views, observations, determinization and
//! the fingerprint. Everything face up is public; face-down stock cards,
//! spit cards and the cards gathered between deals are hidden from everyone,
//! their owner included, and shown as counts.

use super::*;

/// One stock pile as everyone sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PileView {
    pub face_down: u8,
    /// Bottom first, the top card last.
    pub face_up: Vec<Card>,
}

/// What one seat sees of the game (the same for both seats but `seat` and
/// `legal_actions`: nothing in Spit is private to one player).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpitView {
    pub seat: u8,
    pub now: Millis,
    pub phase: Phase,
    /// Per seat, its stock piles (`stock_piles` of them, left to right).
    pub piles: [Vec<PileView>; 2],
    pub spit_cards: [u8; 2],
    pub gathered: [u8; 2],
    /// The spit piles L and R, bottom first; empty when not started.
    pub centre: [Vec<Card>; 2],
    pub short_seat: Option<u8>,
    pub lone_pile: Option<u8>,
    pub declared: [bool; 2],
    pub claims: [Option<u8>; 2],
    pub received: [Option<u8>; 2],
    pub chooser: u8,
    pub deal_end: Option<DealEnd>,
    pub next_timer: Option<Millis>,
    pub wins: [u8; 2],
    pub game: u16,
    pub deals: u32,
    pub winner: Option<u8>,
    pub ending: Option<&'static str>,
    pub returns: Option<[i64; 2]>,
    pub legal_actions: Vec<u16>,
}

/// Size of [`SpitState::observation`].
pub const OBSERVATION_SIZE: usize =
    2 * MAX_PILES * OBS_PILE + 2 * 2 + 2 * OBS_CENTRE + 6 + 2 + 2 + 4 + 2 + 1;
const OBS_PILE: usize = 13 + 4 + 3;
const OBS_CENTRE: usize = 1 + 13 + 4 + 1;

impl SpitState {
    /// Everything `seat` may see.
    pub fn view(&self, seat: u8) -> SpitView {
        let n = usize::from(self.cfg.stock_piles);
        let piles = |s: usize| {
            self.piles[s][..n]
                .iter()
                .map(|p| PileView {
                    face_down: p.face_down() as u8,
                    face_up: p.face_up().to_vec(),
                })
                .collect()
        };
        let mut legal = Vec::new();
        self.legal_actions_into(seat, &mut legal);
        let over = self.is_terminal();
        SpitView {
            seat,
            now: self.now,
            phase: self.phase,
            piles: [piles(0), piles(1)],
            spit_cards: [self.spit[0].len() as u8, self.spit[1].len() as u8],
            gathered: [self.gathered[0].len() as u8, self.gathered[1].len() as u8],
            centre: [
                self.centre[0].cards().to_vec(),
                self.centre[1].cards().to_vec(),
            ],
            short_seat: self.short,
            lone_pile: self.lone_pile,
            declared: self.declared,
            claims: self.claims,
            received: self.received,
            chooser: self.chooser,
            deal_end: self.deal_end,
            next_timer: self.next_timer(),
            wins: self.wins,
            game: self.game,
            deals: self.deals,
            winner: self.winner,
            ending: self.ending_category(),
            returns: over.then(|| self.returns()),
            legal_actions: legal,
        }
    }

    /// A flat observation in `[0, 1]` of [`OBSERVATION_SIZE`] entries, from
    /// `seat`'s point of view (relative seat 0 is itself, relative side 0
    /// the spit pile it starts). In order:
    ///
    /// 1. per relative seat, per pile slot 1..=5, 20 entries: the face-up
    ///    top's rank one-hot (13, A first) and suit one-hot (4, C D H S),
    ///    face-down cards / 4 (capped), face-up cards / 4 (capped), 1 if empty;
    /// 2. per relative seat: spit cards / 26 (capped), gathered cards / 52;
    /// 3. per relative side, 19 entries: 1 if started, top rank one-hot (13),
    ///    top suit one-hot (4), cards / 52;
    /// 4. phase one-hot (countdown, playing, lone_choice, slap, regather, over);
    /// 5. per relative side: 1 if it is the lone spitter's pile;
    /// 6. per relative seat: 1 if it declared `spit`;
    /// 7. per relative seat, per relative side: 1 if it receives that pile;
    /// 8. per relative seat: games won / games needed;
    /// 9. 1 if single-pile mode.
    pub fn observation(&self, seat: u8) -> Vec<f32> {
        let me = usize::from(seat & 1);
        let rel = |k: usize| (me + k) % 2;
        let mut o = vec![0f32; OBSERVATION_SIZE];
        let mut at = 0;
        for k in 0..2 {
            for p in &self.piles[rel(k)] {
                if let Some(c) = p.top() {
                    o[at + usize::from(c.rank()) - 1] = 1.0;
                    if let Some(su) = c.suit() {
                        o[at + 13 + usize::from(su.index())] = 1.0;
                    }
                }
                o[at + 17] = (p.face_down() as f32 / 4.0).min(1.0);
                o[at + 18] = (f32::from(p.up) / 4.0).min(1.0);
                o[at + 19] = f32::from(u8::from(p.is_empty()));
                at += OBS_PILE;
            }
        }
        for k in 0..2 {
            o[at] = (self.spit[rel(k)].len() as f32 / 26.0).min(1.0);
            o[at + 1] = self.gathered[rel(k)].len() as f32 / 52.0;
            at += 2;
        }
        for k in 0..2 {
            let c = &self.centre[rel(k)];
            if let Some(t) = c.top() {
                o[at] = 1.0;
                o[at + usize::from(t.rank())] = 1.0;
                if let Some(su) = t.suit() {
                    o[at + 14 + usize::from(su.index())] = 1.0;
                }
                o[at + 18] = c.len() as f32 / 52.0;
            }
            at += OBS_CENTRE;
        }
        o[at + self.phase.index()] = 1.0;
        at += 6;
        for k in 0..2 {
            o[at + k] = f32::from(u8::from(self.lone_pile == Some(rel(k) as u8)));
        }
        at += 2;
        for k in 0..2 {
            o[at + k] = f32::from(u8::from(self.declared[rel(k)]));
        }
        at += 2;
        for k in 0..2 {
            for j in 0..2 {
                o[at + 2 * k + j] =
                    f32::from(u8::from(self.received[rel(k)] == Some(rel(j) as u8)));
            }
        }
        at += 4;
        let need = f32::from(self.cfg.wins_needed().max(1));
        for k in 0..2 {
            o[at + k] = (f32::from(self.wins[rel(k)]) / need).min(1.0);
        }
        at += 2;
        o[at] = f32::from(u8::from(self.short.is_some()));
        o
    }

    /// A state `seat` cannot tell from this one: every hidden card (face-down
    /// stock cards, spit cards, gathered cards of both seats) re-dealt at
    /// random into the same places. No record can deal it again.
    pub fn determinize(&self, _seat: u8, rng: &mut GameRng) -> SpitState {
        let mut s = self.clone();
        s.unrecordable = true;
        let mut hidden = [Card::JOKER; 52];
        let mut n = 0;
        s.for_each_hidden(|c| {
            hidden[n] = *c;
            n += 1;
        });
        rng.shuffle(&mut hidden[..n]);
        let mut k = 0;
        s.for_each_hidden(|c| {
            *c = hidden[k];
            k += 1;
        });
        s
    }

    /// Every hidden card's slot, in a fixed order.
    fn for_each_hidden(&mut self, mut f: impl FnMut(&mut Card)) {
        for seat in 0..2 {
            for p in &mut self.piles[seat] {
                let down = p.face_down();
                p.slots_mut()[..down].iter_mut().for_each(&mut f);
            }
            self.spit[seat].slots_mut().iter_mut().for_each(&mut f);
            self.gathered[seat].slots_mut().iter_mut().for_each(&mut f);
        }
    }

    /// A hash of everything in the state.
    pub fn fingerprint(&self) -> u64 {
        let mut h = Fingerprint::default();
        h.bytes(self.cfg.to_string().as_bytes());
        h.u64(self.seed).bytes(&[u8::from(self.unrecordable)]);
        let stack = |h: &mut Fingerprint, cards: &[Card]| {
            h.u64(cards.len() as u64);
            for c in cards {
                h.bytes(&[c.code()]);
            }
        };
        for seat in 0..2 {
            for p in &self.piles[seat] {
                stack(&mut h, p.cards());
                h.bytes(&[p.up]);
            }
            stack(&mut h, self.spit[seat].cards());
            stack(&mut h, self.centre[seat].cards());
            stack(&mut h, self.gathered[seat].cards());
        }
        let opt = |v: Option<u8>| v.map_or(255, |x| x);
        h.bytes(&[
            self.phase.index() as u8,
            opt(self.short),
            opt(self.lone_pile),
            self.lone_seat,
            u8::from(self.declared[0]),
            u8::from(self.declared[1]),
            opt(self.claims[0]),
            opt(self.claims[1]),
            opt(self.received[0]),
            opt(self.received[1]),
            self.chooser,
            self.wins[0],
            self.wins[1],
            opt(self.winner),
            self.ending.map_or(255, |e| e as u8),
        ]);
        h.u64(match self.deal_end {
            None => 0,
            Some(DealEnd::Stalemate) => 1,
            Some(DealEnd::Emptied(s)) => 2 + u64::from(s),
        });
        h.u64(self.now)
            .u64(self.timer.map_or(u64::MAX, |t| t))
            .u64(u64::from(self.game))
            .u64(u64::from(self.deals));
        h.u64(self.history.len() as u64);
        for &a in &self.history {
            h.bytes(&a.to_le_bytes());
        }
        h.finish()
    }
}
