//! Real time on a virtual clock (rules specification §5, RT-1 … RT-9): the
//! one event queue every real-time game runs on. Its controllers (people,
//! and the reaction-time bots of RT-3) are in [`crate::bots::reaction`].
//!
//! A [`Session`] owns a state and one controller per seat. Everything that
//! will happen sits in one priority queue ordered by (time, tie key,
//! sequence) (RT-1): commits of intents, bot wake-ups and the state's engine
//! timers. An intent is checked when it commits, so the first card to land
//! stands and a late one bounces (RT-5); commits of the same millisecond are
//! ordered by [`TieBreak`] (RT-6), each seat has at most `hands` intents in
//! flight (RT-4), and a timer is only fired if the state still asks for it
//! (RT-7, RT-8). The session never reads the wall clock; its three run modes
//! (RT-9) are [`Session::run`] (batch), [`Session::advance_to`] with
//! [`Session::submit`] stamped by the caller's clock (people), and
//! [`Session::step`] (lockstep ticks for learning code).
//!
//! The session's *horizon* is the first millisecond whose events have not
//! run: every event before it has, none at or after it. An intent that
//! lands in a millisecond whose events have run is handled at once, after
//! them, so that stays true; one landing at the horizon or later waits and
//! is ordered among the events of its millisecond by the tie-break (a
//! lockstep tick's intents land at the horizon, RT-6). So the inputs with
//! the horizon each was handed in at replay the game whatever the caller's
//! advances were (RT-11).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};

use super::option_fields::choices;
use super::{Applied, Controller, Intent, Millis, State};
use crate::error::{CoreError, Result};
use crate::rng::GameRng;

choices! {
    /// How commits of the same millisecond are ordered (RT-6).
    pub enum TieBreak {
        /// A draw from the session's own tie-break stream.
        SeededCoin = "seeded_coin",
        /// Priority alternates between the seats from one conflict to the next.
        Alternate = "alternate",
        /// The lower seat first.
        SeatOrder = "seat_order",
    }
}

/// What a session needs besides its state and controllers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionRules {
    pub tie_break: TieBreak,
    /// Intents each seat may have in flight (RT-4).
    pub hands: u8,
    /// An intent while the hands are busy waits for a free hand instead of
    /// being refused (RT-4 `queue_inputs`).
    pub queue_inputs: bool,
    /// Seed of the tie-break stream (CM-6 (b)).
    pub tie_seed: u64,
    /// The game is stopped here whatever happens (RT-12).
    pub max_virtual_ms: Millis,
}

/// One committed intent, as the log and the records keep it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Committed {
    pub at: Millis,
    pub seat: u8,
    pub action: u16,
    /// No longer legal when it landed: nothing changed (RT-5).
    pub bounced: bool,
}

/// An intent handed to [`Session::submit`], as a record keeps it (RT-11):
/// the session's horizon then, the seat, the action and when it lands (at
/// the horizon at the earliest). Refused ones too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Input {
    pub horizon: Millis,
    pub seat: u8,
    pub action: u16,
    pub lands: Millis,
}

/// What a seat alone knows of its own intents (RT-10's private channel):
/// the opponent sees a card only when it lands or bounces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntentNote {
    /// On its way; it commits at `lands`.
    Issued { lands: Millis },
    /// Waiting for a free hand (RT-4 `queue_inputs`).
    Queued,
    /// A queued intent, sent now that a hand is free; it commits at `lands`.
    Released { lands: Millis },
    /// Every hand busy (RT-4): nothing will happen.
    Refused,
}

/// One entry of a seat's private channel: at `at`, intent `action`, meant
/// to land at `requested`, was ...
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrivateNote {
    pub at: Millis,
    pub action: u16,
    pub requested: Millis,
    pub note: IntentNote,
}

/// One entry of the public channel (RT-10): what everyone at the table sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PublicNote {
    /// A card landed or bounced.
    Commit(Committed),
    /// The engine moved the game on by itself at this time (a countdown
    /// ended, a spit or flip, a slap window closed, a new layout; RT-7),
    /// into this phase.
    Timer {
        at: Millis,
        phase: Option<&'static str>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    // The order of the variants is the order at one millisecond and tie key:
    // commits land first, then the engine's timers, then bots look again.
    Commit { seat: u8, action: u16 },
    Timer,
    Wake { seat: u8 },
}

/// An event, ordered by (time, class, tie key, sequence): the last three
/// are packed into `order` (2, 62 and 64 bits), so that the queue compares
/// two words, not four fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Event {
    at: Millis,
    order: u128,
    kind: Kind,
}

impl Event {
    fn seq(&self) -> u64 {
        self.order as u64
    }
}

/// The most events one batch run handles (RT-12's guard against a game that
/// churns without ending).
pub const MAX_EVENTS: u64 = 20_000_000;

/// The most commits one batch run makes (the same guard, on what a record
/// keeps): with it, the record of any game a batch run plays fits in
/// `record::MAX_RECORD_BYTES`, so that `replay` reads every record a
/// simulation writes. The longest games seen (random bots, 1000 deals of
/// Spit) make about a tenth of it.
pub const MAX_COMMITS: usize = 500_000;

/// The most deals one batch run plays (the same guard, on the deals a
/// record keeps): `max_deals` may ask for up to 50,000.
pub const MAX_DEALS: u32 = 20_000;

/// How often a bot that chose to wait looks again, at least.
pub const SCAN_MS: Millis = 50;

/// Intents a seat may have waiting for a free hand (RT-4 `queue_inputs`);
/// one more is refused.
pub const MAX_QUEUED: usize = 16;

/// What became of an intent handed to [`Session::submit`] (RT-4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Submitted {
    /// In flight: it commits at its time.
    Sent,
    /// Waiting for a free hand (`queue_inputs`); it is sent when one frees.
    Queued,
    /// The hands are busy (and no queue), the seat does not exist, or the
    /// game is over: nothing will happen.
    Refused,
}

impl Submitted {
    /// Whether the intent will commit (now or once a hand frees).
    pub fn accepted(self) -> bool {
        self != Submitted::Refused
    }
}

/// The running hash of a session's events, a word at a time (it is hashed
/// once per commit, so it must be cheap; records keep the final state's
/// fingerprint, not this).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct EventHash(u64);

impl Default for EventHash {
    fn default() -> Self {
        EventHash(0xcbf2_9ce4_8422_2325)
    }
}

impl EventHash {
    fn word(&mut self, v: u64) -> &mut Self {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x517c_c1b7_2722_0a95);
        self
    }
}

/// Marks an engine timer in the event hash (no commit word has these bits).
const TIMER_WORD: u64 = 1 << 63;

/// A game running on the virtual clock.
///
/// The queue of RT-1 is kept in three parts, because at most a few events
/// are ever due: the intents in flight, each seat's next look at the table
/// (a newer one replaces an older), and the state's next timer. The next
/// event is the least of them in (time, class, tie key, sequence) order.
pub struct Session<S: State> {
    pub state: S,
    controllers: Vec<Box<dyn Controller<S>>>,
    rules: SessionRules,
    commits: Vec<Event>,
    wakes: Vec<Option<Event>>,
    timer: Option<Event>,
    queued: Vec<VecDeque<(u16, Millis)>>,
    seq: u64,
    now: Millis,
    in_flight: Vec<u8>,
    tie_rng: GameRng,
    alternate: u8,
    log: Vec<Committed>,
    /// Indexes into `log` at which each engine timer fired (RT-10's public
    /// channel is the log with them merged in).
    timers: Vec<(usize, Millis, Option<&'static str>)>,
    private: Vec<Vec<PrivateNote>>,
    /// Every input, in the order handed in (kept with the private channels).
    inputs: Vec<Input>,
    /// Whether the private channels and the inputs are kept (batch runs and
    /// learning environments read only the public log, and skip them).
    keep_private: bool,
    hash: EventHash,
    timer_at: Option<Millis>,
    /// The first millisecond whose events have not run.
    horizon: Millis,
}

impl<S: State> Session<S> {
    /// A session at virtual time 0; every controller is asked when it first
    /// looks at the table.
    pub fn new(state: S, controllers: Vec<Box<dyn Controller<S>>>, rules: SessionRules) -> Self {
        let seats = controllers.len();
        let mut s = Session {
            state,
            controllers,
            rules,
            commits: Vec::new(),
            wakes: vec![None; seats],
            timer: None,
            queued: vec![VecDeque::new(); seats],
            seq: 0,
            now: 0,
            in_flight: vec![0; seats],
            tie_rng: GameRng::new(rules.tie_seed),
            alternate: 0,
            // A Spit game commits some 600 intents.
            log: Vec::with_capacity(1024),
            timers: Vec::new(),
            private: vec![Vec::new(); seats],
            inputs: Vec::new(),
            keep_private: true,
            hash: EventHash::default(),
            timer_at: None,
            horizon: 0,
        };
        s.after_change();
        s
    }

    pub fn now(&self) -> Millis {
        self.now
    }

    /// The final state and the log.
    pub fn into_parts(self) -> (S, Vec<Committed>) {
        (self.state, self.log)
    }

    /// Every commit so far, in order.
    pub fn log(&self) -> &[Committed] {
        &self.log
    }

    /// The public channel (RT-10): every commit and every engine timer, in
    /// the order they happened.
    pub fn public_notes(&self) -> Vec<PublicNote> {
        let mut out = Vec::with_capacity(self.log.len() + self.timers.len());
        let mut timers = self.timers.iter().peekable();
        for (i, c) in self.log.iter().enumerate() {
            while let Some(&&(_, at, phase)) = timers.peek().filter(|(k, ..)| *k == i) {
                out.push(PublicNote::Timer { at, phase });
                timers.next();
            }
            out.push(PublicNote::Commit(*c));
        }
        out.extend(timers.map(|&(_, at, phase)| PublicNote::Timer { at, phase }));
        out
    }

    /// `seat`'s private channel (RT-10): its own intents as it issued them,
    /// and what became of each at once (sent, queued, refused).
    pub fn private_notes(&self, seat: u8) -> &[PrivateNote] {
        self.private
            .get(usize::from(seat))
            .map_or(&[], Vec::as_slice)
    }

    fn note(&mut self, seat: u8, action: u16, requested: Millis, note: IntentNote) {
        if !self.keep_private {
            return;
        }
        if let Some(notes) = self.private.get_mut(usize::from(seat)) {
            notes.push(PrivateNote {
                at: self.now,
                action,
                requested,
                note,
            });
        }
    }

    /// Everything handed to [`Self::submit`], in the order handed in
    /// (None for a session that keeps no inputs). With the seed, the rules
    /// and the bots, they are the whole game (RT-11): see
    /// [`Self::event_hash`].
    pub fn inputs(&self) -> Option<&[Input]> {
        self.keep_private.then_some(self.inputs.as_slice())
    }

    /// The first millisecond whose events have not run: every event before
    /// it has, none at or after it. An intent handed in now lands there at
    /// the earliest.
    pub fn horizon(&self) -> Millis {
        self.horizon
    }

    /// The session without private channels (RT-10) and inputs: a batch
    /// run of bots or a learning environment reads only the public log and
    /// the event hash (and writes no record).
    pub fn without_private_notes(mut self) -> Self {
        self.keep_private = false;
        self.private.iter_mut().for_each(Vec::clear);
        self.inputs = Vec::new();
        self
    }

    /// A hash of the log (time, seat, action and bounce of every commit)
    /// and of the engine's timers: the event hash replays are checked
    /// against (RT-11).
    pub fn event_hash(&self) -> u64 {
        self.hash.0
    }

    pub fn is_over(&self) -> bool {
        self.state.is_over()
    }

    /// The tie key of `seat`'s commit under the tie-break rule (RT-6).
    fn tie_key(&mut self, seat: u8) -> u64 {
        match self.rules.tie_break {
            // 62 bits, to fit in `Event::order`.
            TieBreak::SeededCoin => self.tie_rng.next_u64() >> 2,
            TieBreak::SeatOrder => u64::from(seat),
            // The seat without priority sorts last; priority flips at each conflict.
            TieBreak::Alternate => u64::from(seat ^ self.alternate),
        }
    }

    fn push(&mut self, at: Millis, kind: Kind) {
        let (class, tie) = match kind {
            Kind::Commit { seat, .. } => (0u8, self.tie_key(seat)),
            Kind::Timer => (1u8, 0),
            // Bots that look at the same millisecond look in seat order:
            // a look changes nothing but the bot's own intent, whose
            // commit draws its own tie key, so the order favours nobody.
            Kind::Wake { seat } => (2u8, u64::from(seat)),
        };
        self.seq += 1;
        let ev = Event {
            at,
            order: u128::from(class) << 126 | u128::from(tie) << 64 | u128::from(self.seq),
            kind,
        };
        match kind {
            Kind::Commit { .. } => self.commits.push(ev),
            Kind::Timer => self.timer = Some(ev),
            Kind::Wake { seat } => self.wakes[usize::from(seat)] = Some(ev),
        }
    }

    /// The next event due, if any.
    fn peek(&self) -> Option<Event> {
        let mut next = self.timer;
        for &ev in self.commits.iter().chain(self.wakes.iter().flatten()) {
            if next.is_none_or(|n| ev < n) {
                next = Some(ev);
            }
        }
        next
    }

    /// Removes `ev` (just returned by [`Self::peek`]) from the queue.
    fn take(&mut self, ev: Event) {
        match ev.kind {
            Kind::Commit { .. } => {
                if let Some(i) = self.commits.iter().position(|c| c.seq() == ev.seq()) {
                    self.commits.swap_remove(i);
                }
            }
            Kind::Timer => self.timer = None,
            Kind::Wake { seat } => self.wakes[usize::from(seat)] = None,
        }
    }

    /// After anything changed: the state's timer is (re)scheduled, and
    /// every controller with a free hand looks again (a newer wake replaces
    /// an older one; a busy seat looks when its card lands).
    fn after_change(&mut self) {
        if self.is_over() {
            return;
        }
        self.schedule_timer();
        for seat in 0..self.controllers.len() {
            if self.in_flight[seat] >= self.rules.hands {
                self.wakes[seat] = None;
                self.controllers[seat].observe(self.state.seat_view(seat as u8));
                continue;
            }
            let s = seat as u8;
            if let Some(at) = self.controllers[seat].next_wake(self.state.seat_view(s), self.now) {
                let at = at.max(self.now);
                if at == self.now && self.next_due_now_is_wake(seat) {
                    // The wake would be the very next event: it is handled
                    // here instead of going round the queue (an instant
                    // bot's every look), in the same order.
                    self.wakes[seat] = None;
                    self.look(s);
                } else {
                    self.push(at, Kind::Wake { seat: s });
                }
            }
        }
    }

    /// Whether a wake of `seat` due now would be the next event: nothing
    /// else is due now that sorts before it (a commit, the timer, an
    /// earlier seat's wake). Looking changes no state, so the wakes of one
    /// millisecond may be handled one after another as they are scheduled.
    fn next_due_now_is_wake(&self, seat: usize) -> bool {
        let now = self.now;
        !(self.commits.iter().any(|c| c.at == now)
            || self.timer.is_some_and(|t| t.at == now)
            || self.wakes[..seat].iter().flatten().any(|w| w.at == now))
    }

    fn schedule_timer(&mut self) {
        let next = self.state.next_timer();
        if next != self.timer_at {
            self.timer_at = next;
            match next {
                Some(at) => self.push(at.max(self.now), Kind::Timer),
                None => self.timer = None,
            }
        }
    }

    /// An intent of `seat` landing at `at` (a person's key, stamped with
    /// its virtual time; the motor time is already in it), or now if `at`
    /// is past. One landing in a millisecond whose events have all run
    /// (after `advance_to` that millisecond) is handled at once, after
    /// them; one landing at the horizon or later waits for its time and is
    /// ordered among the events of its millisecond by the tie-break (RT-6).
    /// While the seat's hands are all busy it is refused, or queued under
    /// `queue_inputs` and sent when a hand frees (RT-4). An error only if
    /// the state fails to apply it.
    pub fn submit(&mut self, seat: u8, action: u16, at: Millis) -> Result<Submitted> {
        let lands = at.max(self.now);
        self.hand_in(seat, action, at, lands)
    }

    /// A recorded input handed in again, landing where it landed (RT-11).
    pub(crate) fn hand_in_again(&mut self, input: Input) -> Result<Submitted> {
        self.hand_in(input.seat, input.action, input.lands, input.lands)
    }

    fn hand_in(&mut self, seat: u8, action: u16, at: Millis, lands: Millis) -> Result<Submitted> {
        let s = usize::from(seat);
        if self.is_over() || s >= self.in_flight.len() {
            return Ok(Submitted::Refused);
        }
        if self.keep_private {
            self.inputs.push(Input {
                horizon: self.horizon,
                seat,
                action,
                lands,
            });
        }
        Ok(if self.in_flight[s] < self.rules.hands {
            self.dispatch(seat, action, at, lands, |lands| IntentNote::Issued {
                lands,
            });
            // A millisecond whose events have run is not left half done.
            if lands < self.horizon {
                self.run_before(self.horizon)?;
            }
            Submitted::Sent
        } else if self.rules.queue_inputs && self.queued[s].len() < MAX_QUEUED {
            self.queued[s].push_back((action, lands));
            self.note(seat, action, at, IntentNote::Queued);
            Submitted::Queued
        } else {
            self.note(seat, action, at, IntentNote::Refused);
            Submitted::Refused
        })
    }

    /// A bot's intent, issued while the session handles an event at `now`.
    fn send(&mut self, seat: u8, action: u16, at: Millis) {
        let lands = at.max(self.now);
        self.dispatch(seat, action, at, lands, |lands| IntentNote::Issued {
            lands,
        });
    }

    /// Sends a queued intent once a hand is free.
    fn release(&mut self, seat: u8, action: u16, at: Millis) {
        let lands = at.max(self.now);
        self.dispatch(seat, action, at, lands, |lands| IntentNote::Released {
            lands,
        });
    }

    fn dispatch(
        &mut self,
        seat: u8,
        action: u16,
        at: Millis,
        lands: Millis,
        note: fn(Millis) -> IntentNote,
    ) {
        self.note(seat, action, at, note(lands));
        self.in_flight[usize::from(seat)] += 1;
        self.push(lands, Kind::Commit { seat, action });
    }

    /// Intents waiting for a free hand, per seat (RT-4 `queue_inputs`).
    pub fn queued(&self, seat: u8) -> usize {
        self.queued.get(usize::from(seat)).map_or(0, VecDeque::len)
    }

    /// The intents in flight: (commit time, seat, action), soonest first.
    /// A screen may show them (the `telegraph` of HC-4).
    pub fn in_flight(&self) -> Vec<(Millis, u8, u16)> {
        let mut out: Vec<Event> = self.commits.clone();
        out.sort_unstable();
        out.iter()
            .filter_map(|e| match e.kind {
                Kind::Commit { seat, action } => Some((e.at, seat, action)),
                _ => None,
            })
            .collect()
    }

    /// Processes every event up to and including virtual time `t` (or until
    /// the game ends); the clock then reads `t`, and the horizon is `t + 1`.
    pub fn advance_to(&mut self, t: Millis) -> Result<()> {
        self.run_before(t.saturating_add(1))?;
        if !self.is_over() {
            self.now = self.now.max(t);
        }
        Ok(())
    }

    /// Processes every event before virtual time `t` (or until the game
    /// ends): the horizon is then `t`, the events of `t` itself still to
    /// run, and the clock reads `t`.
    pub fn advance_before(&mut self, t: Millis) -> Result<()> {
        self.run_before(t)?;
        if !self.is_over() {
            self.now = self.now.max(t);
        }
        Ok(())
    }

    fn run_before(&mut self, t: Millis) -> Result<()> {
        while let Some(ev) = self.peek() {
            if ev.at >= t || self.is_over() {
                break;
            }
            self.take(ev);
            self.now = ev.at;
            self.handle(ev)?;
        }
        self.horizon = self.horizon.max(t);
        Ok(())
    }

    /// A lockstep tick (RT-9 (c)): each `(seat, action)` is handed in, in
    /// this order, landing at the horizon (now, after a tick); then every
    /// event before `now + dt` runs. The events of the tick's end are left
    /// to the next tick, so whatever the step size the intents of one
    /// millisecond (the tick's, a bot's card landing then) are ordered by
    /// the tie-break (RT-6). The clock then reads `now + dt`.
    pub fn step(&mut self, intents: &[(u8, u16)], dt: Millis) -> Result<Vec<Submitted>> {
        let (now, horizon) = (self.now, self.horizon);
        let taken = intents
            .iter()
            .map(|&(seat, action)| self.submit(seat, action, horizon))
            .collect::<Result<Vec<Submitted>>>()?;
        self.advance_before(now.saturating_add(dt))?;
        Ok(taken)
    }

    /// Runs to the end of the game (batch mode), to `max_virtual_ms`, or to
    /// [`MAX_EVENTS`] events, [`MAX_COMMITS`] commits or [`MAX_DEALS`]
    /// deals. Returns whether the game ended on its own.
    pub fn run(&mut self) -> Result<bool> {
        Ok(self.run_until(&AtomicBool::new(false))? == Some(true))
    }

    /// [`Session::run`], stopping before the next event once `stop` is set
    /// (an interrupt): None then, else whether the game ended on its own.
    pub fn run_until(&mut self, stop: &AtomicBool) -> Result<Option<bool>> {
        let mut events = 0u64;
        while let Some(ev) = self.peek() {
            if stop.load(Ordering::Relaxed) {
                return Ok(None);
            }
            self.take(ev);
            events += 1;
            if events > MAX_EVENTS
                || self.log.len() >= MAX_COMMITS
                || self.state.deals_played() > MAX_DEALS
            {
                self.horizon = self.horizon.max(ev.at);
                return Ok(Some(false));
            }
            if self.is_over() {
                self.horizon = self.horizon.max(self.now.saturating_add(1));
                return Ok(Some(true));
            }
            if ev.at > self.rules.max_virtual_ms {
                self.now = self.rules.max_virtual_ms;
                self.horizon = self.horizon.max(self.now.saturating_add(1));
                return Ok(Some(false));
            }
            self.now = ev.at;
            self.horizon = self.horizon.max(ev.at);
            self.handle(ev)?;
        }
        // Nothing is due and nobody will act: the game stands still until
        // its time limit.
        if !self.is_over() {
            self.now = self.now.max(self.rules.max_virtual_ms);
        }
        self.horizon = self.horizon.max(self.now.saturating_add(1));
        Ok(Some(self.is_over()))
    }

    fn handle(&mut self, ev: Event) -> Result<()> {
        match ev.kind {
            Kind::Commit { seat, action } => {
                let s = usize::from(seat);
                self.in_flight[s] = self.in_flight[s].saturating_sub(1);
                let applied = match self.state.apply(seat, action, self.now) {
                    Ok(a) => a,
                    // An id that is no action at all, or a seat that may not
                    // act: it bounces like a card that no longer fits.
                    Err(CoreError::IllegalAction(_)) => Applied::Bounced,
                    Err(CoreError::GameOver) => return Ok(()),
                    Err(e) => return Err(e),
                };
                let bounced = applied == Applied::Bounced;
                // Commits sort before every other event of their millisecond.
                let conflict = self.commits.iter().min().is_some_and(|next| {
                    next.at == self.now
                        && matches!(next.kind, Kind::Commit { seat: other, .. } if other != seat)
                });
                if conflict {
                    self.alternate ^= 1;
                }
                self.log.push(Committed {
                    at: self.now,
                    seat,
                    action,
                    bounced,
                });
                self.hash
                    .word(self.now)
                    .word(u64::from(seat) | u64::from(bounced) << 8 | u64::from(action) << 16);
                if let Some((action, at)) = self.queued[s].pop_front() {
                    self.release(seat, action, at);
                }
                self.after_change();
            }
            Kind::Timer => {
                if self.state.next_timer() == Some(ev.at) && self.timer_at == Some(ev.at) {
                    self.timer_at = None;
                    self.state.fire_timer(self.now);
                    let phase = self.state.phase_name();
                    self.timers.push((self.log.len(), self.now, phase));
                    self.hash.word(self.now).word(TIMER_WORD);
                    self.after_change();
                } else {
                    self.schedule_timer();
                }
            }
            Kind::Wake { seat } => self.look(seat),
        }
        Ok(())
    }

    /// `seat`'s controller looks at the table now: it sends an intent or
    /// waits.
    fn look(&mut self, seat: u8) {
        let s = usize::from(seat);
        if self.in_flight[s] >= self.rules.hands {
            return;
        }
        let view = self.state.seat_view(seat);
        match self.controllers[s].act(view, self.now) {
            Some(Intent { action, at }) => self.send(seat, action, at),
            // It waits: it looks again when the state changes, or when it
            // says (never sooner than SCAN_MS, so that a waiting instant bot
            // cannot spin).
            None => {
                if let Some(at) = self.controllers[s].look_again(view, self.now) {
                    self.push(at.max(self.now + SCAN_MS), Kind::Wake { seat });
                }
            }
        }
    }
}
