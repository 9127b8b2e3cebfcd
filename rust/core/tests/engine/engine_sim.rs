//! The generic random-play test (OpenSpiel's RandomSimTest) over the engine
//! layer's contract: written once against `Game`/`State`, run over every
//! registered game (one test per game, made from `for_each_game!`) and a
//! spread of its rule sets, in random play and in games between its bots.
//!
//! Every state is checked ([`check_state`]):
//! - the game's own invariants hold (`State::audit`: cards conserved);
//! - the decision agrees with the legal lists: one seat to move in a
//!   turn-based game, the seats with a move in a real-time one, a timer when
//!   nobody may act, no move and no timer once over;
//! - the legal lists are sorted; `is_legal` agrees with them;
//! - illegal actions of every kind (any id not in the list, an id beyond the
//!   range, the right action from the wrong seat) are rejected or bounce,
//!   and change nothing, also after the end;
//! - what front ends ask of every game: a refusal exactly when an action is
//!   not legal, naming a rule ID and saying why; a description of every
//!   action id; take-backs only of legal actions;
//! - observations have the game's size, lie in [0, 1] and are written as
//!   returned.
//!
//! What a seat sees, in both directions (checked every few states): the
//! state is re-dealt behind each seat's back (`determinize`) and every seat
//! compares the two states:
//! - a re-deal of what a seat cannot see changes neither its view nor its
//!   observation, nor what it may do (its legal actions, their
//!   descriptions, the refusals it gets);
//! - the converse: when a re-deal behind another seat's back changes what a
//!   seat may do (its own hand re-dealt), its observation changes; and
//!   whatever its observation tells apart, its view tells apart too. An
//!   observation that left out a card its seat can play fails here, and so
//!   does a view that left out a card the observation shows.
//!
//! Every game: it ends; the ending is one of its categories; returns are
//! zero-sum (when the game says so) and running returns finish at them; the
//! history replays to the same state, and the record replays through the
//! generic record format to the same fingerprint (a real-time game's timed
//! record, or its session's log); bots of every example spec answer legally
//! (a debug build stops on an illegal answer); the rule set reloads from
//! its options. Rule sets are drawn at random from each game's option
//! schema, so a new option is covered as soon as it is declared, and a new
//! game as soon as it is registered.
//!
//! The games' own test files call these checks with what only they know:
//! named rule sets, players that make long games, coverage of their endings.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use cardtable_core::engine::options::{OptionKind, OptionValue};
use cardtable_core::engine::realtime::Session;
use cardtable_core::engine::record::{record_of_events, record_of_state, replay, Record};
use cardtable_core::engine::{
    play_to_end, Applied, Bots as _, Controller, DealSource, Decision, Game, Intent, Millis,
    Refusal, State,
};
use cardtable_core::games::tonk::TonkGame;
use cardtable_core::{derive_seed, GameRng, Result};

/// What the checks went through, so that a test can show it reached what it
/// claims to check.
#[derive(Debug, Default)]
pub struct Seen {
    pub states: u64,
    /// States whose views were compared with re-dealt ones.
    pub views: u64,
    /// A seat's view changed when another seat's hidden cards were re-dealt:
    /// the game has cards private to a seat.
    pub private: u64,
    /// ... and what that seat may do changed with them: the converse check
    /// had something to catch.
    pub converse: u64,
    pub endings: BTreeMap<&'static str, u64>,
}

/// How a random player picks among the legal actions of the seat to move
/// (turn-based games).
pub type Policy<S> = fn(&S, &[u16], &mut GameRng) -> u16;

/// Any legal action, uniformly.
pub fn uniform<S>(_: &S, legal: &[u16], rng: &mut GameRng) -> u16 {
    legal[rng.below(legal.len() as u32) as usize]
}

/// `seat`'s legal actions now.
fn legal_of<S: State>(st: &S, seat: u8) -> Vec<u16> {
    let mut out = Vec::new();
    st.legal_actions(seat, &mut out);
    out
}

/// A rule ID of the specification: two capitals, a dash, numbers and dots
/// (`TK-6.10`, `RT-5`).
fn is_rule_id(rule: &str) -> bool {
    let Some((prefix, number)) = rule.split_once('-') else {
        return false;
    };
    prefix.len() == 2
        && prefix.bytes().all(|b| b.is_ascii_uppercase())
        && !number.is_empty()
        && number
            .split('.')
            .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// What every front end asks of a state, for `seat` and action id `a`: a
/// refusal exactly when the action is not legal, with a rule ID and a
/// sentence; a description of every id below the game's count whose text is
/// the action's text, and an error beyond it.
fn check_contract<G: Game>(game: &G, st: &G::State, seat: u8, a: u16) {
    let legal = st.is_legal(seat, a);
    match st.refusal(seat, a) {
        None => assert!(legal, "{}: no refusal of illegal {a}", G::NAME),
        Some(r) => {
            assert!(!legal, "{}: legal {a} refused: {r}", G::NAME);
            assert!(
                is_rule_id(r.rule) && !r.reason.is_empty(),
                "{}: {r:?}",
                G::NAME
            );
        }
    }
    let count = game.num_distinct_actions() as u16;
    match st.describe_action(seat, a) {
        Ok(info) => {
            assert!(a < count, "{}: {a} described", G::NAME);
            assert_eq!(info.text, game.action_to_string(a).unwrap(), "{}", G::NAME);
            assert!(!info.kind.is_empty());
        }
        Err(_) => assert!(a >= count, "{}: {a} not described", G::NAME),
    }
}

/// `seat`'s observation has the game's size and lies in [0, 1], and writing
/// it over any content gives the same numbers.
fn check_observation<G: Game>(game: &G, st: &G::State, seat: u8) {
    let o = st.observation(seat);
    assert_eq!(o.len(), game.observation_size(), "{}", G::NAME);
    assert!(
        o.iter().all(|x| (0.0..=1.0).contains(x)),
        "{}: an observation outside [0, 1]",
        G::NAME
    );
    let mut written = vec![7.0f32; o.len()];
    st.write_observation(seat, &mut written);
    assert_eq!(written, o, "{}: the written observation differs", G::NAME);
}

/// What one seat sees of a state, and what it may do in it.
struct Sight<S: State> {
    view: S::View,
    observation: Vec<f32>,
    legal: Vec<u16>,
}

fn sight<S: State>(st: &S, seat: u8) -> Sight<S> {
    Sight {
        view: st.view(seat),
        observation: st.observation(seat),
        legal: legal_of(st, seat),
    }
}

/// `other` is `st` (which `seat` sees as `mine`) with what `redealt_for`
/// cannot see re-dealt. For `seat`: when it is the seat re-dealt for, its
/// view and observation are the same; whenever its view is the same, so is
/// its observation and what it may do (legal actions, their descriptions,
/// the refusals of `probes`). The converse: when what it may do changed,
/// its observation changed too (and so its view).
fn compare_seat<G: Game>(
    st: &G::State,
    mine: &Sight<G::State>,
    other: &G::State,
    seat: u8,
    redealt_for: u8,
    probes: &[u16],
    seen: &mut Seen,
) {
    let theirs = sight(other, seat);
    let same_view = mine.view == theirs.view;
    let same_observation = mine.observation == theirs.observation;
    if redealt_for == seat {
        assert!(same_view, "{}: the view of seat {seat} leaks", G::NAME);
        assert!(
            same_observation,
            "{}: the observation of seat {seat} leaks",
            G::NAME
        );
    } else if !same_view {
        seen.private += 1;
    }
    // The observation is read off the view: what it tells apart, the view
    // does too (a view that left out a card the observation shows fails).
    if same_view {
        assert!(
            same_observation,
            "{}: seat {seat}'s observation tells apart two states its view does not",
            G::NAME
        );
    }
    if mine.legal != theirs.legal {
        assert!(
            !same_observation,
            "{}: seat {seat} may do other things in two states its observation does not tell apart \
             (the observation misses a card the seat may play, or its moves depend on one it cannot see)",
            G::NAME
        );
        seen.converse += 1;
        return;
    }
    if !same_view {
        return;
    }
    for &a in mine.legal.iter().chain(probes) {
        assert_eq!(
            st.refusal(seat, a),
            other.refusal(seat, a),
            "{}: seat {seat}'s refusal of {a} depends on a card it cannot see",
            G::NAME
        );
        assert_eq!(
            st.describe_action(seat, a).ok(),
            other.describe_action(seat, a).ok(),
            "{}: seat {seat}'s description of {a} depends on a card it cannot see",
            G::NAME
        );
    }
}

/// How much of a state [`check_state`] checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Depth {
    /// The invariants, the decision, and a few action ids from every seat.
    Light,
    /// Also the observations, and the state re-dealt behind each seat's
    /// back and compared, seat by seat.
    Views,
    /// Also every action id, for the seats that may act.
    Full,
}

/// Every check on one state at virtual time `now` (0 in turn-based games),
/// to `depth`.
pub fn check_state<G: Game>(
    game: &G,
    st: &G::State,
    now: Millis,
    rng: &mut GameRng,
    depth: Depth,
    seen: &mut Seen,
) {
    if let Err(e) = st.audit() {
        panic!("{}: at {now} ms: {e}", G::NAME);
    }
    seen.states += 1;
    let n = game.players() as u8;
    let count = game.num_distinct_actions() as u16;
    let legal: Vec<Vec<u16>> = (0..n).map(|s| legal_of(st, s)).collect();
    let mut movers = 0u64;
    for (s, l) in (0..n).zip(&legal) {
        assert!(l.windows(2).all(|w| w[0] < w[1]), "{}: not sorted", G::NAME);
        assert_eq!(st.can_act(s), !l.is_empty(), "{}: can_act({s})", G::NAME);
        movers |= u64::from(!l.is_empty()) << s;
    }
    let decision = st.decision();
    assert_eq!(st.is_over(), decision == Decision::Terminal, "{}", G::NAME);
    match decision {
        Decision::Terminal => {
            assert_eq!(movers, 0, "{}: a move after the end", G::NAME);
            assert!(
                st.next_timer().is_none(),
                "{}: a timer after the end",
                G::NAME
            );
            let ending = st.ending().expect("a finished game has an ending");
            assert!(G::ending_categories().contains(&ending), "{ending}");
        }
        Decision::Seat(s) => {
            assert!(!G::REAL_TIME, "{}: a real-time game decided {s}", G::NAME);
            assert_eq!(movers, 1 << s, "{}: seat {s} to move", G::NAME);
        }
        Decision::Simultaneous(mask) => {
            assert!(
                G::REAL_TIME,
                "{}: a turn-based game decided {mask}",
                G::NAME
            );
            assert!(mask != 0 && mask == movers, "{}: mask {mask:b}", G::NAME);
        }
        Decision::Waiting => {
            assert!(G::REAL_TIME, "{}: a turn-based game is waiting", G::NAME);
            assert_eq!(movers, 0, "{}: a move while waiting", G::NAME);
            let t = st.next_timer();
            assert!(
                t.is_some(),
                "{}: waiting with no timer: a dead end",
                G::NAME
            );
        }
    }
    if !st.is_over() {
        assert!(
            st.ending().is_none(),
            "{}: an ending before the end",
            G::NAME
        );
    }

    // Probes: every id (Full) or a few at random, the ids beyond the range,
    // from every seat. An illegal one changes nothing.
    let probes: Vec<u16> = if depth == Depth::Full {
        (0..count).collect()
    } else {
        (0..6).map(|_| rng.below(u32::from(count)) as u16).collect()
    };
    let beyond = [count, u16::MAX];
    let mut work = st.clone();
    for (s, l) in (0..n).zip(&legal) {
        // Seats that may not act now are asked a few ids only.
        let asked = if l.is_empty() {
            &probes[..2]
        } else {
            &probes[..]
        };
        for &a in asked.iter().chain(&beyond).chain(l.first()) {
            let ok = l.binary_search(&a).is_ok();
            assert_eq!(st.is_legal(s, a), ok, "{}: is_legal({s}, {a})", G::NAME);
            check_contract(game, st, s, a);
            // A take-back is offered only for an action the seat to
            // decide may make.
            if st.can_take_back(a) {
                let Decision::Seat(mover) = decision else {
                    panic!("{}: a take-back with nobody to decide", G::NAME)
                };
                assert!(
                    st.is_legal(mover, a),
                    "{}: illegal {a} may be taken back",
                    G::NAME
                );
            }
            if !ok {
                let r = work.apply(s, a, now);
                assert!(
                    matches!(r, Err(_) | Ok(Applied::Bounced)),
                    "{}: illegal {a} of seat {s} landed",
                    G::NAME
                );
                assert!(
                    work == *st,
                    "{}: a rejected action changed the state",
                    G::NAME
                );
            }
        }
    }
    // The right action from the wrong seat.
    if let Decision::Seat(mover) = decision {
        for s in (0..n).filter(|&s| s != mover) {
            assert!(work.apply(s, legal[usize::from(mover)][0], now).is_err());
            assert!(
                work == *st,
                "{}: a wrong seat's action changed the state",
                G::NAME
            );
        }
    }

    if depth >= Depth::Views {
        seen.views += 1;
        let few: Vec<u16> = (0..6).map(|_| rng.below(u32::from(count)) as u16).collect();
        for s in 0..n {
            check_observation(game, st, s);
        }
        let sights: Vec<Sight<G::State>> = (0..n).map(|s| sight(st, s)).collect();
        for t in 0..n {
            let other = st.determinize(t, rng);
            if let Err(e) = other.audit() {
                panic!("{}: determinize({t}): {e}", G::NAME);
            }
            for s in 0..n {
                compare_seat::<G>(st, &sights[usize::from(s)], &other, s, t, &few, seen);
            }
        }
    }
}

/// A finished game: its ending, its returns, and its record (the timed
/// `events` of a real-time game) replays to the same state.
pub fn check_finished<G: Game>(
    game: &G,
    st: &G::State,
    names: Vec<String>,
    events: Option<Vec<(u64, u8, u16, bool)>>,
    seen: &mut Seen,
) {
    assert!(st.is_over(), "{}: the game does not end", G::NAME);
    let ending = st.ending().unwrap();
    assert!(G::ending_categories().contains(&ending), "{ending}");
    *seen.endings.entry(ending).or_default() += 1;
    if G::ZERO_SUM {
        assert_eq!(
            st.returns().iter().sum::<i64>(),
            0,
            "{}: not zero-sum",
            G::NAME
        );
    }
    assert_eq!(st.running_returns(), st.returns(), "{}", G::NAME);
    let record = match events {
        Some(events) => record_of_events(game, st, names, events).unwrap(),
        None => record_of_state(game, st, names).unwrap(),
    };
    let line = record.to_json();
    let (_, replayed) = replay::<G>(&Record::from_json(&line).unwrap()).unwrap();
    assert_eq!(replayed.fingerprint(), st.fingerprint(), "{line}");
    if !G::REAL_TIME {
        // The history alone replays on the same deal.
        let DealSource::Seed(seed) = st.deal_source() else {
            return;
        };
        let mut again = game.deal(seed, Some(st.dealer())).unwrap();
        for &a in st.history() {
            let Decision::Seat(s) = again.decision() else {
                panic!("{}: the replay ended early", G::NAME)
            };
            again.apply(s, a, 0).unwrap();
        }
        assert!(again == *st, "{}: the history does not replay", G::NAME);
        assert_eq!(again.fingerprint(), st.fingerprint());
        // A state that differs has another fingerprint (the first deal of
        // another seed, almost surely).
        assert_ne!(
            game.deal(seed ^ 1, None).unwrap().fingerprint(),
            game.deal(seed, None).unwrap().fingerprint()
        );
    }
}

/// One game of random play of a turn-based game: the seat to move plays
/// what `policy` picks, every state checked (the views too at the first 4
/// actions, everything every 64th and at the end).
pub fn random_turn_based<G: Game>(
    game: &G,
    deal_seed: u64,
    rng: &mut GameRng,
    policy: Policy<G::State>,
    seen: &mut Seen,
) -> G::State {
    let mut st = game.deal(deal_seed, None).unwrap();
    for step in 0..500_000u32 {
        let Decision::Seat(seat) = st.decision() else {
            break;
        };
        let depth = match step {
            s if s % 64 == 0 => Depth::Full,
            0..4 => Depth::Views,
            _ => Depth::Light,
        };
        check_state(game, &st, 0, rng, depth, seen);
        let legal = legal_of(&st, seat);
        let a = policy(&st, &legal, rng);
        assert_eq!(st.apply(seat, a, 0).unwrap(), Applied::Done);
        if G::ZERO_SUM {
            assert_eq!(st.running_returns().iter().sum::<i64>(), 0);
        }
    }
    check_state(game, &st, 0, rng, Depth::Full, seen);
    let n = usize::from(game.players() as u8);
    check_finished(game, &st, vec!["random".into(); n], None, seen);
    st
}

/// One game of random play of a real-time game (RT-5, RT-7, RT-8): a
/// random seat with a move plays a random legal action at a random later
/// time, timers fire when due (and now and then when everybody waits for
/// one), every state checked; the timed record replays to the same state.
fn random_real_time<G: Game>(game: &G, deal_seed: u64, rng: &mut GameRng, seen: &mut Seen) {
    let n = game.players() as u8;
    let limit = game.session_rules(deal_seed).max_virtual_ms;
    let mut st = game.deal(deal_seed, None).unwrap();
    // Its seats act at once on the clock, never one turn at a time.
    assert!(
        !matches!(st.decision(), Decision::Seat(_)),
        "{}: REAL_TIME, but dealt {:?}",
        G::NAME,
        st.decision()
    );
    let mut now = 0u64;
    let mut events = Vec::new();
    for step in 0..2_000_000u32 {
        if st.is_over() {
            break;
        }
        let depth = if step % 64 == 0 {
            Depth::Full
        } else {
            Depth::Light
        };
        check_state(game, &st, now, rng, depth, seen);
        let mask = match st.decision() {
            Decision::Terminal => break,
            Decision::Waiting => {
                let t = st.next_timer().unwrap();
                assert!(t >= now, "{}: a timer in the past", G::NAME);
                now = t;
                st.fire_timer(now);
                continue;
            }
            Decision::Simultaneous(mask) => mask,
            Decision::Seat(s) => 1u64 << s,
        };
        assert!(
            now <= limit,
            "{}: the game outlived its time limit",
            G::NAME
        );
        // A pending timer may come first (and must, once it is due).
        if let Some(t) = st.next_timer() {
            if t <= now || rng.below(4) == 0 {
                now = now.max(t);
                st.fire_timer(now);
                continue;
            }
        }
        let seats: Vec<u8> = (0..n).filter(|s| mask >> s & 1 == 1).collect();
        let seat = seats[rng.below(seats.len() as u32) as usize];
        let legal = legal_of(&st, seat);
        // As the session does: timers due before the commit fire first.
        let at = now + u64::from(rng.below(400));
        if st.next_timer().is_some_and(|t| t < at) {
            continue;
        }
        now = at;
        let a = legal[rng.below(legal.len() as u32) as usize];
        let applied = st.apply(seat, a, now).unwrap();
        events.push((now, seat, a, applied == Applied::Bounced));
    }
    check_state(game, &st, now, rng, Depth::Full, seen);
    let names = vec!["random".into(); usize::from(n)];
    check_finished(game, &st, names, Some(events), seen);
}

/// A state that checks itself after every change a driver makes (each
/// commit, bounce and timer), so that games between bots are checked at
/// every state they reach (the views every 16th, everything every 256th
/// and at the end). Bots see the wrapped state's seat view.
#[derive(Clone)]
struct Checked<G: Game> {
    game: G,
    inner: G::State,
    rng: GameRng,
    changes: u64,
    seen: std::sync::Arc<std::sync::Mutex<Seen>>,
}

impl<G: Game> Checked<G> {
    fn changed(&mut self, now: Millis) {
        self.changes += 1;
        let depth = if self.changes % 256 == 0 || self.inner.is_over() {
            Depth::Full
        } else if self.changes % 16 == 0 {
            Depth::Views
        } else {
            Depth::Light
        };
        let mut seen = self.seen.lock().unwrap();
        check_state(
            &self.game,
            &self.inner,
            now,
            &mut self.rng,
            depth,
            &mut seen,
        );
    }
}

impl<G: Game> PartialEq for Checked<G> {
    fn eq(&self, other: &Self) -> bool {
        self.inner == other.inner
    }
}

impl<G: Game> State for Checked<G> {
    type View = <G::State as State>::View;
    type SeatView<'a>
        = <G::State as State>::SeatView<'a>
    where
        Self: 'a;
    fn seat_view(&self, seat: u8) -> Self::SeatView<'_> {
        self.inner.seat_view(seat)
    }
    fn decision(&self) -> Decision {
        self.inner.decision()
    }
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }
    fn legal_actions(&self, seat: u8, out: &mut Vec<u16>) {
        self.inner.legal_actions(seat, out)
    }
    fn can_act(&self, seat: u8) -> bool {
        self.inner.can_act(seat)
    }
    fn is_legal(&self, seat: u8, action: u16) -> bool {
        self.inner.is_legal(seat, action)
    }
    fn refusal(&self, seat: u8, action: u16) -> Option<Refusal> {
        self.inner.refusal(seat, action)
    }
    fn describe_action(&self, seat: u8, action: u16) -> Result<cardtable_core::engine::ActionInfo> {
        self.inner.describe_action(seat, action)
    }
    fn apply(&mut self, seat: u8, action: u16, now: Millis) -> Result<Applied> {
        let applied = self.inner.apply(seat, action, now);
        self.changed(now);
        applied
    }
    fn next_timer(&self) -> Option<Millis> {
        self.inner.next_timer()
    }
    fn fire_timer(&mut self, now: Millis) {
        self.inner.fire_timer(now);
        self.changed(now);
    }
    fn view(&self, seat: u8) -> Self::View {
        self.inner.view(seat)
    }
    fn observation(&self, seat: u8) -> Vec<f32> {
        self.inner.observation(seat)
    }
    fn determinize(&self, seat: u8, rng: &mut GameRng) -> Self {
        Checked {
            inner: self.inner.determinize(seat, rng),
            ..self.clone()
        }
    }
    fn returns(&self) -> Vec<i64> {
        self.inner.returns()
    }
    fn ending(&self) -> Option<&'static str> {
        self.inner.ending()
    }
    fn history(&self) -> &[u16] {
        self.inner.history()
    }
    fn deal_source(&self) -> DealSource {
        self.inner.deal_source()
    }
    fn fingerprint(&self) -> u64 {
        self.inner.fingerprint()
    }
}

/// A bot of the game playing the checked state.
struct Driven<G: Game>(Box<dyn Controller<G::State>>);

impl<G: Game> Controller<Checked<G>> for Driven<G> {
    fn act(&mut self, view: <G::State as State>::SeatView<'_>, now: Millis) -> Option<Intent> {
        self.0.act(view, now)
    }
    fn next_wake(
        &mut self,
        view: <G::State as State>::SeatView<'_>,
        now: Millis,
    ) -> Option<Millis> {
        self.0.next_wake(view, now)
    }
    fn observe(&mut self, view: <G::State as State>::SeatView<'_>) {
        self.0.observe(view)
    }
    fn look_again(
        &mut self,
        view: <G::State as State>::SeatView<'_>,
        now: Millis,
    ) -> Option<Millis> {
        self.0.look_again(view, now)
    }
}

/// One game between bots of `specs` (seat by seat), run as the arena runs it
/// (a real-time game through a session), every state checked; every bot
/// answer is legal (a debug build stops on an illegal one); the record
/// (a real-time game's session log) replays to the same state.
fn bot_game<G: Game>(game: &G, specs: &[&str], deal_seed: u64, seen: &mut Seen) -> G::State {
    let shared = std::sync::Arc::new(std::sync::Mutex::new(std::mem::take(seen)));
    let state = Checked {
        game: game.clone(),
        inner: game.deal(deal_seed, None).unwrap(),
        rng: GameRng::new(derive_seed(deal_seed, 400)),
        changes: 0,
        seen: shared.clone(),
    };
    let mut bots: Vec<Box<dyn Controller<Checked<G>>>> = specs
        .iter()
        .enumerate()
        .map(|(seat, spec)| {
            let bot = game.bot(spec, derive_seed(deal_seed, 100 + seat as u64));
            Box::new(Driven::<G>(bot.unwrap())) as Box<dyn Controller<Checked<G>>>
        })
        .collect();
    let names: Vec<String> = specs.iter().map(|s| s.to_string()).collect();
    let (st, events) = if G::REAL_TIME {
        let mut session = Session::new(state, bots, game.session_rules(deal_seed));
        assert!(session.run().unwrap(), "{}: {specs:?} did not end", G::NAME);
        let events: Vec<_> = session
            .log()
            .iter()
            .map(|c| (c.at, c.seat, c.action, c.bounced))
            .collect();
        let landed = events.iter().filter(|e| !e.3).count();
        let st = session.state.inner;
        assert_eq!(
            landed,
            st.history().len(),
            "{}: history = landed commits",
            G::NAME
        );
        (st, Some(events))
    } else {
        let mut state = state;
        let replaced = play_to_end(&mut state, &mut bots, 1_000_000).unwrap();
        assert_eq!(replaced, 0, "{}: {specs:?} answered illegally", G::NAME);
        (state.inner, None)
    };
    *seen = std::mem::take(&mut shared.lock().unwrap());
    check_finished(game, &st, names, events, seen);
    st
}

/// A random rule set of `G` drawn from its schema: each option given with
/// probability 1/2, with a random value of its kind (integers half the
/// time near the low end, where the rules change most, else anywhere in
/// their range). None when the engine rejects
/// the combination, which it must do with an error naming an option.
fn random_rules<G: Game>(rng: &mut GameRng) -> Option<G> {
    let mut given = Vec::new();
    for spec in G::schema().options {
        if rng.below(2) == 0 {
            continue;
        }
        let int = |rng: &mut GameRng, min: i64, max: i64| {
            let span = if rng.below(2) == 0 {
                (max - min).clamp(0, 12)
            } else {
                (max - min).clamp(0, i64::from(u32::MAX - 1))
            };
            min + i64::from(rng.below(span as u32 + 1))
        };
        let value = match spec.kind {
            OptionKind::Bool => OptionValue::Bool(rng.below(2) == 1),
            OptionKind::Int { min, max } => OptionValue::Int(int(rng, min, max)),
            OptionKind::Choice { choices, .. } => {
                OptionValue::Str(choices[rng.below(choices.len() as u32) as usize].into())
            }
            OptionKind::IntOrWord { min, max, words } => {
                if !words.is_empty() && rng.below(2) == 0 {
                    OptionValue::Str(words[rng.below(words.len() as u32) as usize].into())
                } else {
                    OptionValue::Int(int(rng, min, max))
                }
            }
        };
        given.push((spec.name.to_string(), value));
    }
    let game = G::from_options(&given).ok()?;
    // The rule set reloads from its options, and from those given only.
    assert!(
        G::from_options(&game.to_options()).unwrap() == game,
        "{}: {given:?} does not reload from its options",
        G::NAME
    );
    assert!(
        G::from_options(&game.given_options()).unwrap() == game,
        "{}: {given:?} does not reload from its given options",
        G::NAME
    );
    Some(game)
}

/// The bot lineups of a game: each example spec at seat 0 against the next
/// one at every other seat.
fn lineups<G: Game>(players: usize) -> Vec<Vec<&'static str>> {
    let examples = G::example_bots();
    (0..examples.len())
        .map(|i| {
            let other = examples[(i + 1) % examples.len()];
            std::iter::once(examples[i])
                .chain(std::iter::repeat_n(other, players - 1))
                .collect()
        })
        .collect()
}

/// Random play over `rules`, `games_each` games each, and one game of each
/// bot lineup under each.
fn play_rule_sets<G: Game>(rules: &[G], games_each: u64, seed: u64, seen: &mut Seen) {
    let mut rng = GameRng::new(seed);
    for (r, game) in rules.iter().enumerate() {
        assert!(
            G::PLAYERS.contains(&(game.players() as u8)),
            "{}: {} players, outside {:?}",
            G::NAME,
            game.players(),
            G::PLAYERS
        );
        for g in 0..games_each {
            let deal_seed = derive_seed(seed, (r as u64) << 16 | g);
            if G::REAL_TIME {
                random_real_time(game, deal_seed, &mut rng, seen);
            } else {
                random_turn_based(game, deal_seed, &mut rng, uniform, seen);
            }
        }
        for (i, lineup) in lineups::<G>(game.players()).iter().enumerate() {
            bot_game(
                game,
                lineup,
                derive_seed(seed ^ 0xb07, (r * 64 + i) as u64),
                seen,
            );
        }
    }
}

/// The bot specs of `G` read and name themselves, and its ladder of levels
/// names a bot of the game at every level.
fn check_bot_specs<G: Game>() {
    for spec in G::example_bots() {
        let parsed = G::parse_bot(spec).unwrap();
        assert_eq!(
            G::parse_bot(&G::bot_name(&parsed)).unwrap().name(),
            G::bot_name(&parsed)
        );
    }
    let levels: Vec<&str> = G::bot_levels().iter().map(|(l, _)| *l).collect();
    assert_eq!(levels, cardtable_core::engine::LEVELS, "{}", G::NAME);
    for (level, spec) in G::bot_levels() {
        let by_level = G::bot_name(&G::parse_bot(level).unwrap());
        assert_eq!(
            by_level,
            G::bot_name(&G::parse_bot(spec).unwrap()),
            "{}",
            G::NAME
        );
    }
}

/// The whole generic test of one game: its defaults and 12 random rule sets
/// from its schema, two random games each, and its bots.
fn every_invariant<G: Game>() {
    check_bot_specs::<G>();
    let mut rng = GameRng::new(0x5eed);
    let mut rules = vec![G::from_options(&[]).unwrap()];
    for _ in 0..12 * 20 {
        if rules.len() == 13 {
            break;
        }
        rules.extend(random_rules::<G>(&mut rng));
    }
    assert_eq!(
        rules.len(),
        13,
        "{}: too few valid random rule sets",
        G::NAME
    );
    let mut seen = Seen::default();
    play_rule_sets(&rules, 2, 1, &mut seen);
    eprintln!("{}: {seen:?}", G::NAME);
    // A game with cards private to a seat had the converse checked.
    assert!(
        seen.private == 0 || seen.converse > 0,
        "{}: {seen:?}",
        G::NAME
    );
    assert!(seen.views > 50, "{}: {seen:?}", G::NAME);
}

macro_rules! one_test_per_game {
    ($($variant:ident => $game:ty,)*) => {
        $(
            #[test]
            #[allow(non_snake_case)]
            fn $variant() {
                super::every_invariant::<$game>();
            }
        )*
    };
}

/// One test per registered game, so that the games run side by side.
mod every_registered_game_keeps_every_invariant {
    cardtable_core::for_each_game!(one_test_per_game);
}

fn tonk() -> TonkGame {
    TonkGame::from_options(&[]).unwrap()
}

#[test]
fn the_turn_based_driver_plays_as_the_tonk_arena_does() {
    use cardtable_core::engine::arena::play_game;
    use cardtable_core::games::tonk::TonkBotSpec;
    let game = tonk();
    let specs = [
        TonkBotSpec::parse("greedy").unwrap(),
        TonkBotSpec::parse("random").unwrap(),
    ];
    for index in 0..40u64 {
        let arena = play_game(&game, &specs, 9, index).unwrap();
        // The arena's seeding: the deal from the block, each bot from its game and seat.
        let mut st = game.deal(arena.seed, None).unwrap();
        let mut bots: Vec<Box<dyn Controller<_>>> = arena
            .seating
            .iter()
            .enumerate()
            .map(|(seat, &b)| {
                game.bot(
                    &specs[usize::from(b)].name(),
                    derive_seed(derive_seed(9, index), 100 + seat as u64),
                )
                .unwrap()
            })
            .collect();
        assert_eq!(play_to_end(&mut st, &mut bots, 10_000).unwrap(), 0);
        assert_eq!(st.history(), arena.actions.as_slice(), "game {index}");
        assert_eq!(State::returns(&st), arena.returns);
        assert_eq!(arena.replaced, 0, "game {index}: a bot answered illegally");
    }
}

/// A bot that answers an action that is not legal has a bug: a debug build
/// (every test run) stops on it; a release build plays the first legal
/// action instead, so the game goes on, and counts the replaced answers so
/// that no run's statistics hide them.
#[test]
#[cfg_attr(debug_assertions, should_panic(expected = "not a legal action"))]
fn an_illegal_bot_answer_stops_a_debug_build_and_is_counted_in_release() {
    use cardtable_core::engine::replaced_answers;
    use cardtable_core::games::tonk::{TonkSeatView, TonkState};
    struct Illegal;
    impl Controller<TonkState> for Illegal {
        fn act(&mut self, _: TonkSeatView<'_>, now: Millis) -> Option<Intent> {
            Some(Intent {
                action: u16::MAX,
                at: now,
            })
        }
    }
    let game = tonk();
    let mut st = game.deal(5, None).unwrap();
    let mut bots: Vec<Box<dyn Controller<TonkState>>> = vec![Box::new(Illegal)];
    for seat in 1..game.players() as u64 {
        bots.push(game.bot("greedy", seat).unwrap());
    }
    let before = replaced_answers();
    let replaced = play_to_end(&mut st, &mut bots, 10_000).unwrap();
    assert!(st.is_over());
    assert!(replaced > 0);
    assert!(replaced_answers() >= before + u64::from(replaced));
}

#[test]
fn the_registry_names_and_schema_belong_to_the_game() {
    assert_eq!(<TonkGame as Game>::NAME, "tonk");
    let names: Vec<&str> = <TonkGame as Game>::schema().names().collect();
    assert!(names.contains(&"max_idle_rounds"));
    assert!(<TonkGame as Game>::ending_categories().contains(&"stalled"));
}

/// Issue 22 item 5: a step stopped by its flag (Ctrl-C) keeps the games it
/// finished, in order, as a prefix of the run; the run goes on from there
/// and ends as one never stopped. Real-time games stop between events.
#[test]
fn a_stopped_arena_step_keeps_a_prefix_and_the_run_goes_on() {
    use cardtable_core::engine::arena::Arena;
    use cardtable_core::games::spit::SpitGame;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    fn check<G: Game>(game: G, bots: &[&str], games: u64, stop_after: Duration) {
        let specs: Vec<G::BotSpec> = bots.iter().map(|b| G::parse_bot(b).unwrap()).collect();
        let mut whole = Arena::new(game.clone(), specs.clone(), games, 21).unwrap();
        let expected = whole.step(games).unwrap();
        let mut run = Arena::new(game, specs, games, 21).unwrap();
        // Stopped before it starts: nothing played.
        assert!(run
            .step_until(games, &AtomicBool::new(true))
            .unwrap()
            .is_empty());
        assert_eq!(run.done, 0);
        let stop = AtomicBool::new(false);
        let mut got = std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(stop_after);
                stop.store(true, Ordering::Relaxed);
            });
            run.step_until(games, &stop).unwrap()
        });
        assert!(run.done < games, "{}: the stop came too late", G::NAME);
        assert_eq!(got.len() as u64, run.done);
        assert_eq!(got[..], expected[..got.len()]);
        while !run.is_done() {
            got.extend(run.step(7).unwrap());
        }
        assert_eq!(got, expected);
        assert_eq!(run.summary(), whole.summary());
    }
    check(
        tonk(),
        &["strong", "strong"],
        400,
        Duration::from_millis(200),
    );
    let spit = SpitGame::from_options(&[]).unwrap();
    check(spit, &["smart", "smart"], 2000, Duration::from_millis(100));
}
