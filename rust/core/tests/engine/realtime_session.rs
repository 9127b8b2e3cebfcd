//! The real-time session (RT-1 … RT-9) on a toy race game: two seats play
//! cards onto one shared pile when their rank is next to its top (CM-3);
//! when nobody can play, an engine timer turns a new top card after 500 ms
//! (RT-7, RT-8). Small enough to check every event by hand.

#![allow(clippy::unwrap_used)]

use cardtable_core::bots::reaction::{BotSpec, Policy, ReactionBot, Timing};
use cardtable_core::engine::realtime::{
    IntentNote, PrivateNote, PublicNote, Session, SessionRules, Submitted, TieBreak, MAX_QUEUED,
};
use cardtable_core::engine::{
    ActionInfo, Applied, Bots, Controller, Decision, Millis, Refusal, SeatView, State,
};
use cardtable_core::error::{CoreError, Result};
use cardtable_core::GameRng;

const FLIP_DELAY: Millis = 500;

#[derive(Debug, Clone, PartialEq)]
struct Race {
    top: u8,
    hands: [Vec<u8>; 2],
    turn_up: Vec<u8>,
    now: Millis,
    stuck_since: Option<Millis>,
    history: Vec<u16>,
}

fn adjacent(a: u8, b: u8) -> bool {
    let d = (i16::from(a) - i16::from(b)).rem_euclid(13);
    d == 1 || d == 12
}

impl Race {
    fn new(top: u8, a: &[u8], b: &[u8], turn_up: &[u8]) -> Race {
        let mut r = Race {
            top,
            hands: [a.to_vec(), b.to_vec()],
            turn_up: turn_up.to_vec(),
            now: 0,
            stuck_since: None,
            history: Vec::new(),
        };
        r.check_stuck();
        r
    }

    fn can_play(&self, seat: u8) -> bool {
        self.hands[usize::from(seat)]
            .iter()
            .any(|&c| adjacent(c, self.top))
    }

    fn check_stuck(&mut self) {
        let stuck = !self.can_play(0) && !self.can_play(1) && !self.turn_up.is_empty();
        self.stuck_since = match (stuck, self.stuck_since) {
            (true, Some(t)) => Some(t),
            (true, None) => Some(self.now),
            (false, _) => None,
        };
    }
}

/// A seat's view of a race: nothing in it is hidden, so it may show all.
#[derive(Clone, Copy)]
struct RaceView<'a> {
    race: &'a Race,
    seat: u8,
}

impl SeatView for RaceView<'_> {
    type State = Race;
    fn seat(&self) -> u8 {
        self.seat
    }
    fn decision(&self) -> Decision {
        self.race.decision()
    }
    fn legal_actions(&self, out: &mut Vec<u16>) {
        self.race.legal_actions(self.seat, out)
    }
    fn can_act(&self) -> bool {
        self.race.can_act(self.seat)
    }
    fn is_legal(&self, action: u16) -> bool {
        self.race.is_legal(self.seat, action)
    }
    fn determinize(&self, rng: &mut GameRng) -> Race {
        self.race.determinize(self.seat, rng)
    }
}

impl State for Race {
    type View = (u8, Vec<u8>);
    type SeatView<'a> = RaceView<'a>;

    fn refusal(&self, seat: u8, action: u16) -> Option<Refusal> {
        (!self.is_legal(seat, action)).then(|| Refusal::new("RT-5", "not playable now"))
    }

    fn describe_action(&self, _: u8, action: u16) -> Result<ActionInfo> {
        Ok(ActionInfo::new("play", format!("play {action}")))
    }

    fn seat_view(&self, seat: u8) -> RaceView<'_> {
        RaceView { race: self, seat }
    }

    fn decision(&self) -> Decision {
        if self.hands.iter().any(Vec::is_empty) {
            return Decision::Terminal;
        }
        let mask = u64::from(self.can_play(0)) | u64::from(self.can_play(1)) << 1;
        if mask == 0 {
            if self.turn_up.is_empty() {
                Decision::Terminal
            } else {
                Decision::Waiting
            }
        } else {
            Decision::Simultaneous(mask)
        }
    }

    fn legal_actions(&self, seat: u8, out: &mut Vec<u16>) {
        out.clear();
        if self.decision() == Decision::Terminal {
            return;
        }
        for &c in &self.hands[usize::from(seat)] {
            if adjacent(c, self.top) && !out.contains(&u16::from(c)) {
                out.push(u16::from(c));
            }
        }
        out.sort_unstable();
    }

    fn is_legal(&self, seat: u8, action: u16) -> bool {
        let mut v = Vec::new();
        self.legal_actions(seat, &mut v);
        v.contains(&action)
    }

    fn apply(&mut self, seat: u8, action: u16, now: Millis) -> Result<Applied> {
        if self.decision() == Decision::Terminal {
            return Err(CoreError::GameOver);
        }
        if action > 12 || seat > 1 {
            return Err(CoreError::IllegalAction(format!(
                "{action} is not an action"
            )));
        }
        self.now = now;
        if !self.is_legal(seat, action) {
            return Ok(Applied::Bounced);
        }
        let hand = &mut self.hands[usize::from(seat)];
        let i = hand.iter().position(|&c| u16::from(c) == action).unwrap();
        self.top = hand.remove(i);
        self.history.push(action);
        self.check_stuck();
        Ok(Applied::Done)
    }

    fn next_timer(&self) -> Option<Millis> {
        self.stuck_since.map(|t| t + FLIP_DELAY)
    }

    fn fire_timer(&mut self, now: Millis) {
        self.now = now;
        if let Some(c) = self.turn_up.pop() {
            self.top = c;
        }
        self.stuck_since = None;
        self.check_stuck();
    }

    fn view(&self, seat: u8) -> (u8, Vec<u8>) {
        (self.top, self.hands[usize::from(seat)].clone())
    }

    fn observation(&self, _seat: u8) -> Vec<f32> {
        vec![f32::from(self.top) / 12.0]
    }

    fn determinize(&self, _seat: u8, _rng: &mut GameRng) -> Self {
        self.clone()
    }

    fn returns(&self) -> Vec<i64> {
        match (self.hands[0].is_empty(), self.hands[1].is_empty()) {
            (true, false) => vec![1, -1],
            (false, true) => vec![-1, 1],
            _ => vec![0, 0],
        }
    }

    fn ending(&self) -> Option<&'static str> {
        (self.decision() == Decision::Terminal).then_some("over")
    }

    fn history(&self) -> &[u16] {
        &self.history
    }

    fn deal_source(&self) -> cardtable_core::engine::DealSource {
        cardtable_core::engine::DealSource::Unrecordable
    }

    fn fingerprint(&self) -> u64 {
        let mut h = cardtable_core::engine::Fingerprint::default();
        h.bytes(&[self.top])
            .bytes(&self.hands[0])
            .bytes(&self.hands[1]);
        h.finish()
    }
}

/// Plays the lowest legal card.
struct Lowest;

impl Policy<Race> for Lowest {
    fn choose(&mut self, _: RaceView<'_>, legal: &[u16], _: &mut GameRng) -> Option<u16> {
        legal.first().copied()
    }
}

/// A seat nobody drives (its intents come from `submit`).
struct Idle;

impl Controller<Race> for Idle {
    fn act(&mut self, _: RaceView<'_>, _: Millis) -> Option<cardtable_core::engine::Intent> {
        None
    }

    fn next_wake(&mut self, _: RaceView<'_>, _: Millis) -> Option<Millis> {
        None
    }
}

fn rules(tie_break: TieBreak, tie_seed: u64) -> SessionRules {
    SessionRules {
        tie_break,
        hands: 1,
        queue_inputs: false,
        tie_seed,
        max_virtual_ms: 1_000_000,
    }
}

fn idle_session(state: Race, tie_break: TieBreak, seed: u64) -> Session<Race> {
    Session::new(
        state,
        vec![Box::new(Idle), Box::new(Idle)],
        rules(tie_break, seed),
    )
}

#[test]
fn rt_5_the_first_card_to_land_stands_and_the_late_one_bounces() {
    // Top 5: both hold a 6; after one lands on it, the other 6 no longer fits.
    let mut s = idle_session(Race::new(5, &[6, 7], &[6, 2], &[]), TieBreak::SeatOrder, 0);
    assert!(s.submit(1, 6, 100).unwrap().accepted());
    assert!(s.submit(0, 6, 120).unwrap().accepted());
    s.advance_to(200).unwrap();
    let log = s.log();
    assert_eq!((log[0].seat, log[0].bounced, log[0].at), (1, false, 100));
    assert_eq!((log[1].seat, log[1].bounced, log[1].at), (0, true, 120));
    assert_eq!(s.state.hands[0], vec![6, 7], "a bounced card stays in hand");
    assert_eq!(s.state.top, 6);
    assert_eq!(s.now(), 200);
}

#[test]
fn rt_4_one_intent_in_flight_per_hand() {
    let mut s = idle_session(
        Race::new(5, &[6, 4, 7], &[9, 10], &[]),
        TieBreak::SeatOrder,
        0,
    );
    assert!(s.submit(0, 6, 100).unwrap().accepted());
    assert!(
        !s.submit(0, 4, 100).unwrap().accepted(),
        "the hand is busy until the card lands"
    );
    s.advance_to(100).unwrap();
    assert!(s.submit(0, 7, 150).unwrap().accepted());
}

#[test]
fn rt_10_the_public_channel_has_commits_and_timers_the_private_one_a_seats_intents() {
    // Nobody can play on 5: the engine turns up 8 at 500 ms; then seat 0
    // plays 9 (lands), tries 7 while its hand is busy (refused), and seat 1
    // plays 7 on 8 after the 9 landed (bounces).
    let mut s = idle_session(
        Race::new(5, &[9, 7], &[11, 10, 7], &[8]),
        TieBreak::SeatOrder,
        0,
    );
    s.advance_to(600).unwrap();
    assert!(s.submit(0, 9, 700).unwrap().accepted());
    assert_eq!(s.submit(0, 7, 700).unwrap(), Submitted::Refused);
    assert!(s.submit(1, 7, 710).unwrap().accepted());
    s.advance_to(800).unwrap();
    let commit = |at, seat, action, bounced| {
        PublicNote::Commit(cardtable_core::engine::realtime::Committed {
            at,
            seat,
            action,
            bounced,
        })
    };
    assert_eq!(
        s.public_notes(),
        vec![
            PublicNote::Timer {
                at: 500,
                phase: None
            },
            commit(700, 0, 9, false),
            commit(710, 1, 7, true),
        ]
    );
    let note = |at, action, requested, note| PrivateNote {
        at,
        action,
        requested,
        note,
    };
    assert_eq!(
        s.private_notes(0),
        &[
            note(600, 9, 700, IntentNote::Issued { lands: 700 }),
            note(600, 7, 700, IntentNote::Refused),
        ]
    );
    assert_eq!(
        s.private_notes(1),
        &[note(600, 7, 710, IntentNote::Issued { lands: 710 })]
    );
    assert!(s.private_notes(2).is_empty());
}

#[test]
fn rt_4_queue_inputs_holds_an_intent_until_a_hand_frees() {
    let mut s = Session::new(
        Race::new(5, &[6, 7, 1], &[8, 10], &[]),
        vec![Box::new(Idle), Box::new(Idle)],
        SessionRules {
            queue_inputs: true,
            ..rules(TieBreak::SeatOrder, 0)
        },
    );
    assert_eq!(s.submit(0, 6, 100).unwrap(), Submitted::Sent);
    assert_eq!(
        s.submit(0, 7, 90).unwrap(),
        Submitted::Queued,
        "the hand is busy"
    );
    assert_eq!(s.queued(0), 1);
    assert_eq!(s.in_flight(), vec![(100, 0, 6)]);
    // The 6 lands at 100; the queued 7 is sent then (its own time has
    // passed) and lands right after it, on the 6.
    s.advance_to(100).unwrap();
    let log: Vec<(u64, u8, u16, bool)> = s
        .log()
        .iter()
        .map(|c| (c.at, c.seat, c.action, c.bounced))
        .collect();
    assert_eq!(log, vec![(100, 0, 6, false), (100, 0, 7, false)]);
    assert_eq!(s.state.top, 7);
    assert_eq!(s.queued(0), 0);
    assert!(s.in_flight().is_empty());
    // A queue is bounded; the next one is refused.
    assert_eq!(s.submit(0, 1, 500).unwrap(), Submitted::Sent);
    for _ in 0..MAX_QUEUED {
        assert_eq!(s.submit(0, 1, 500).unwrap(), Submitted::Queued);
    }
    assert_eq!(s.submit(0, 1, 500).unwrap(), Submitted::Refused);
    // The other seat is not affected, and a seat that does not exist is refused.
    assert_eq!(s.submit(1, 8, 500).unwrap(), Submitted::Sent);
    assert_eq!(s.submit(2, 8, 500).unwrap(), Submitted::Refused);
}

#[test]
fn rt_6_same_millisecond_commits_follow_the_tie_break() {
    let play = |tie_break, seed| {
        let mut s = idle_session(Race::new(5, &[6, 1], &[6, 2], &[]), tie_break, seed);
        s.submit(0, 6, 300).unwrap();
        s.submit(1, 6, 300).unwrap();
        s.advance_to(300).unwrap();
        let winner = s.log().iter().find(|c| !c.bounced).unwrap().seat;
        (winner, s.event_hash())
    };
    assert_eq!(play(TieBreak::SeatOrder, 1).0, 0);
    // The seeded coin: the same seed, the same winner; both winners occur.
    let winners: Vec<u8> = (0..40)
        .map(|seed| play(TieBreak::SeededCoin, seed).0)
        .collect();
    assert!(winners.contains(&0) && winners.contains(&1));
    for seed in 0..40 {
        assert_eq!(
            play(TieBreak::SeededCoin, seed),
            play(TieBreak::SeededCoin, seed)
        );
    }
}

#[test]
fn rt_6_alternate_gives_the_next_conflict_to_the_other_seat() {
    let mut s = idle_session(
        Race::new(5, &[6, 7, 1], &[6, 7, 2], &[]),
        TieBreak::Alternate,
        0,
    );
    s.submit(0, 6, 100).unwrap();
    s.submit(1, 6, 100).unwrap();
    s.advance_to(100).unwrap();
    let first = s.log().iter().find(|c| !c.bounced).unwrap().seat;
    s.submit(0, 7, 200).unwrap();
    s.submit(1, 7, 200).unwrap();
    s.advance_to(200).unwrap();
    let second = s.log()[2..].iter().find(|c| !c.bounced).unwrap().seat;
    assert_ne!(first, second);
}

#[test]
fn rt_7_rt_8_a_stalemate_timer_fires_after_its_delay_and_is_cancelled_by_a_change() {
    // Nobody can play on 5 (hands 9 and 11): the engine turns up 8 at 500 ms.
    let mut s = idle_session(
        Race::new(5, &[9, 1], &[11, 2], &[8]),
        TieBreak::SeatOrder,
        0,
    );
    assert_eq!(s.state.decision(), Decision::Waiting);
    s.advance_to(499).unwrap();
    assert_eq!(s.state.top, 5);
    s.advance_to(500).unwrap();
    assert_eq!(s.state.top, 8);
    // Now seat 0 plays 9 at 600; the board is stuck again (top 9: 1? no; 11? no)
    // with nothing left to turn up: the game is over by the race's rule.
    s.submit(0, 9, 600).unwrap();
    s.advance_to(600).unwrap();
    assert_eq!(s.state.decision(), Decision::Terminal);
}

#[test]
fn rt_3_rt_9_bots_with_reaction_times_race_in_batch_and_the_faster_wins_more() {
    let timing = |median| Timing {
        reaction_median_ms: median,
        reaction_sigma: 0.3,
        motor_ms: 100,
        miss_rate: 0.0,
    };
    let mut fast_wins = 0;
    for seed in 0..200u64 {
        let mut rng = GameRng::new(seed);
        let mut cards: Vec<u8> = (0..13).chain(0..13).collect();
        rng.shuffle(&mut cards);
        let state = Race::new(cards[0], &cards[1..9], &cards[9..17], &cards[17..]);
        let bots: Vec<Box<dyn Controller<Race>>> = vec![
            Box::new(ReactionBot::new(timing(300), Box::new(Lowest), seed * 2)),
            Box::new(ReactionBot::new(
                timing(900),
                Box::new(Lowest),
                seed * 2 + 1,
            )),
        ];
        let mut s = Session::new(state.clone(), bots, rules(TieBreak::SeededCoin, seed));
        assert!(s.run().unwrap(), "every race ends");
        fast_wins += usize::from(s.state.returns()[0] > 0);
        // The same seeds give the same game, event for event.
        let bots: Vec<Box<dyn Controller<Race>>> = vec![
            Box::new(ReactionBot::new(timing(300), Box::new(Lowest), seed * 2)),
            Box::new(ReactionBot::new(
                timing(900),
                Box::new(Lowest),
                seed * 2 + 1,
            )),
        ];
        let mut again = Session::new(state, bots, rules(TieBreak::SeededCoin, seed));
        again.run().unwrap();
        assert_eq!(again.log(), s.log());
        assert_eq!(again.event_hash(), s.event_hash());
    }
    assert!(fast_wins > 120, "the faster bot won {fast_wins} of 200");
}

#[test]
fn rt_12_the_virtual_time_limit_stops_a_game() {
    // A bot that waits forever: the session stops at max_virtual_ms.
    struct Waits;
    impl Policy<Race> for Waits {
        fn choose(&mut self, _: RaceView<'_>, _: &[u16], _: &mut GameRng) -> Option<u16> {
            None
        }
    }
    let bots: Vec<Box<dyn Controller<Race>>> = vec![
        Box::new(ReactionBot::new(Timing::PRESETS[3].1, Box::new(Waits), 1)),
        Box::new(ReactionBot::new(Timing::PRESETS[3].1, Box::new(Waits), 2)),
    ];
    let mut r = rules(TieBreak::SeatOrder, 0);
    r.max_virtual_ms = 10_000;
    let mut s = Session::new(Race::new(5, &[6], &[4], &[]), bots, r);
    assert!(!s.run().unwrap());
    assert_eq!(s.now(), 10_000);
}

#[test]
fn rt_3_a_waiting_bot_looks_again_when_the_state_changes_or_its_patience_runs_out() {
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::sync::Arc;
    struct Counting(Arc<AtomicU32>, Option<Millis>);
    impl Policy<Race> for Counting {
        fn choose(&mut self, _: RaceView<'_>, _: &[u16], _: &mut GameRng) -> Option<u16> {
            self.0.fetch_add(1, Ordering::Relaxed);
            None
        }
        fn patience_ms(&self) -> Option<Millis> {
            self.1
        }
    }
    let looks = |patience| {
        let count = Arc::new(AtomicU32::new(0));
        let bots: Vec<Box<dyn Controller<Race>>> = vec![
            Box::new(ReactionBot::new(
                Timing::PRESETS[3].1,
                Box::new(Counting(count.clone(), patience)),
                1,
            )),
            Box::new(Idle),
        ];
        let mut r = rules(TieBreak::SeatOrder, 0);
        r.max_virtual_ms = 1_000;
        let mut s = Session::new(Race::new(5, &[6], &[4], &[]), bots, r);
        assert!(!s.run().unwrap(), "nobody plays: the time limit stops it");
        count.load(Ordering::Relaxed)
    };
    // Nothing changes: a deterministic policy that waits is asked once...
    assert_eq!(looks(None), 1);
    // ...and one with patience every 200 ms (at 0, 200, ..., 1000).
    assert_eq!(looks(Some(200)), 6);
}

#[test]
fn bot_specs_read_policies_presets_and_keys_and_name_themselves() {
    let p = ["plain", "smart"];
    let s = BotSpec::parse("smart:hard", &p, &[]).unwrap();
    assert_eq!((s.policy, s.timing.reaction_median_ms), ("smart", 500));
    assert_eq!(s.name(), "smart:hard");
    assert_eq!(
        BotSpec::parse("hard", &p, &[]).unwrap().name(),
        "plain:hard"
    );
    assert_eq!(
        BotSpec::parse("Plain", &p, &[]).unwrap().name(),
        "plain:normal"
    );
    let t = BotSpec::parse("smart:normal,reaction_median_ms=300,miss_rate=0", &p, &[]).unwrap();
    assert_eq!(t.name(), "smart:normal,reaction_median_ms=300,miss_rate=0");
    assert_eq!(BotSpec::parse(&t.name(), &p, &[]).unwrap(), t);
    // `worlds=` belongs to the searching policies only, and names itself.
    let q = ["plain", "smart", "search"];
    let w = BotSpec::parse("search:hard,worlds=32", &q, &["search"]).unwrap();
    assert_eq!((w.policy, w.worlds), ("search", Some(32)));
    assert_eq!(w.name(), "search:hard,worlds=32");
    assert_eq!(BotSpec::parse(&w.name(), &q, &["search"]).unwrap(), w);
    assert_eq!(
        BotSpec::parse("search", &q, &["search"]).unwrap().worlds,
        None
    );
    for (bad, says) in [
        (
            "smart,worlds=32",
            "worlds= is for the searching policies (search), not smart",
        ),
        (
            "search,worlds=0",
            "worlds must be a whole number from 1 to 65536, got \"0\"",
        ),
        ("search,worlds=1.5", "worlds must be a whole number"),
        ("search,worlds=100000", "worlds must be a whole number"),
    ] {
        let e = BotSpec::parse(bad, &q, &["search"])
            .unwrap_err()
            .to_string();
        assert!(e.contains(says) && e.contains(bad), "{bad}: {e}");
    }
    let e = BotSpec::parse("smart,worlds=3", &p, &[])
        .unwrap_err()
        .to_string();
    assert!(e.contains("this game has none"), "{e}");
    for bad in [
        "clever",
        "smart:slow",
        "smart,speed=3",
        "smart,miss_rate=2",
        "smart,motor_ms=-1",
    ] {
        let e = BotSpec::parse(bad, &p, &[]).unwrap_err().to_string();
        assert!(
            e.contains(bad.split(',').next().unwrap()) || e.contains("bot"),
            "{bad}: {e}"
        );
    }
    let instant = Timing::PRESETS[3].1;
    assert_eq!(instant.reaction(&mut GameRng::new(1)), 0);
    let normal = Timing::PRESETS[1].1;
    let mut rng = GameRng::new(5);
    let mut v: Vec<Millis> = (0..2001).map(|_| normal.reaction(&mut rng)).collect();
    v.sort_unstable();
    let median = v[1000];
    assert!((800..1000).contains(&median), "median {median}");
}

// ---------------------------------------------------------------------------
// The race as a registered-style Game: the arena runs it on the session, and
// its record (timed events) replays through the one record format.
// ---------------------------------------------------------------------------

use cardtable_core::engine::arena::{play_game, Arena};
use cardtable_core::engine::options::{OptionValue, Schema};
use cardtable_core::engine::record::{record_of_result, replay, Record};
use cardtable_core::engine::Game;

#[derive(Debug, Clone, PartialEq, Eq)]
struct RaceGame;

static RACE_SCHEMA: Schema = Schema {
    game: "Race",
    options: &[],
};

fn deal_race(seed: u64) -> Race {
    let mut rng = GameRng::new(seed);
    let mut cards: Vec<u8> = (0..13).chain(0..13).collect();
    rng.shuffle(&mut cards);
    Race::new(cards[0], &cards[1..9], &cards[9..17], &cards[17..])
}

/// The deal's seed is needed by the record: keep it beside the race.
#[derive(Debug, Clone, PartialEq)]
struct Seeded(Race, u64);

impl State for Seeded {
    type View = (u8, Vec<u8>);
    type SeatView<'a> = RaceView<'a>;
    fn refusal(&self, seat: u8, action: u16) -> Option<Refusal> {
        self.0.refusal(seat, action)
    }
    fn describe_action(&self, seat: u8, action: u16) -> Result<ActionInfo> {
        self.0.describe_action(seat, action)
    }
    fn seat_view(&self, seat: u8) -> RaceView<'_> {
        self.0.seat_view(seat)
    }
    fn decision(&self) -> Decision {
        self.0.decision()
    }
    fn legal_actions(&self, seat: u8, out: &mut Vec<u16>) {
        self.0.legal_actions(seat, out)
    }
    fn is_legal(&self, seat: u8, action: u16) -> bool {
        self.0.is_legal(seat, action)
    }
    fn apply(&mut self, seat: u8, action: u16, now: Millis) -> Result<Applied> {
        self.0.apply(seat, action, now)
    }
    fn next_timer(&self) -> Option<Millis> {
        self.0.next_timer()
    }
    fn fire_timer(&mut self, now: Millis) {
        self.0.fire_timer(now)
    }
    fn view(&self, seat: u8) -> Self::View {
        self.0.view(seat)
    }
    fn observation(&self, seat: u8) -> Vec<f32> {
        self.0.observation(seat)
    }
    fn determinize(&self, seat: u8, rng: &mut GameRng) -> Self {
        Seeded(self.0.determinize(seat, rng), self.1)
    }
    fn returns(&self) -> Vec<i64> {
        self.0.returns()
    }
    fn ending(&self) -> Option<&'static str> {
        self.0.ending()
    }
    fn history(&self) -> &[u16] {
        self.0.history()
    }
    fn deal_source(&self) -> cardtable_core::engine::DealSource {
        cardtable_core::engine::DealSource::Seed(self.1)
    }
    fn fingerprint(&self) -> u64 {
        self.0.fingerprint()
    }
}

impl Bots<RaceGame> for BotSpec {
    fn parse(spec: &str) -> Result<BotSpec> {
        BotSpec::parse(spec, &["lowest"], &[])
    }
    fn grammar() -> String {
        cardtable_core::bots::reaction::bot_grammar(&["lowest"], &[])
    }
    fn name(&self) -> String {
        BotSpec::name(self)
    }
    fn examples() -> &'static [&'static str] {
        &["lowest"]
    }
    fn levels() -> &'static [(&'static str, &'static str)] {
        &[
            ("easy", "lowest:easy"),
            ("normal", "lowest:normal"),
            ("hard", "lowest:hard"),
            ("expert", "lowest:instant"),
        ]
    }
    fn build(&self, _: &RaceGame, seed: u64) -> Box<dyn Controller<Seeded>> {
        struct Low;
        impl Policy<Seeded> for Low {
            fn choose(&mut self, _: RaceView<'_>, legal: &[u16], _: &mut GameRng) -> Option<u16> {
                legal.first().copied()
            }
        }
        Box::new(ReactionBot::new(self.timing, Box::new(Low), seed))
    }
}

impl Game for RaceGame {
    type State = Seeded;
    const NAME: &'static str = "race";
    fn schema() -> &'static Schema {
        &RACE_SCHEMA
    }
    fn ending_categories() -> &'static [&'static str] {
        &["over"]
    }
    fn from_options(_: &[(String, OptionValue)]) -> Result<Self> {
        Ok(RaceGame)
    }
    fn to_options(&self) -> Vec<(String, OptionValue)> {
        Vec::new()
    }
    fn rules_summary(&self) -> Vec<cardtable_core::engine::summary::RulePoint> {
        Vec::new()
    }
    fn players(&self) -> usize {
        2
    }
    fn num_distinct_actions(&self) -> usize {
        13
    }
    fn observation_size(&self) -> usize {
        1
    }
    fn deal(&self, seed: u64, _: Option<u8>) -> Result<Seeded> {
        Ok(Seeded(deal_race(seed), seed))
    }
    fn action_to_string(&self, action: u16) -> Result<String> {
        Ok(format!("play {action}"))
    }
    fn string_to_action(&self, text: &str) -> Result<u16> {
        text.trim_start_matches("play ")
            .parse()
            .map_err(|_| CoreError::IllegalAction(text.into()))
    }
    type BotSpec = BotSpec;
    const PLAYERS: std::ops::RangeInclusive<u8> = 2..=2;
}

#[test]
fn rt_9_rt_11_the_arena_runs_real_time_games_and_their_records_replay_event_for_event() {
    let specs = [
        RaceGame::parse_bot("lowest:hard").unwrap(),
        RaceGame::parse_bot("lowest:normal").unwrap(),
    ];
    for index in 0..40u64 {
        let result = play_game(&RaceGame, &specs, 3, index).unwrap();
        assert!(!result.events.is_empty());
        assert!(result.virtual_ms > 0);
        assert_eq!(result.ending, "over");
        let names = ["lowest:hard".to_string(), "lowest:normal".to_string()];
        let line = record_of_result(&RaceGame, &result, &names).to_json();
        let rec = Record::from_json(&line).unwrap();
        let (_, state) = replay::<RaceGame>(&rec).unwrap();
        assert_eq!(state.fingerprint(), result.fingerprint, "{line}");
        // A changed bounce is caught.
        let mut bad = rec.clone();
        if let Some(events) = bad.events.as_mut() {
            events[0].bounced = !events[0].bounced;
        }
        assert!(replay::<RaceGame>(&bad).is_err());
    }
    // The same seed, the same run, for any thread count (games in parallel).
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut a = Arena::new(RaceGame, specs.to_vec(), 200, 9).unwrap();
            let results = a.step(200).unwrap();
            (results, a.summary().virtual_seconds)
        })
    };
    let (one, secs) = run(1);
    assert_eq!(one, run(2).0);
    assert!(secs > 0.0);
}
