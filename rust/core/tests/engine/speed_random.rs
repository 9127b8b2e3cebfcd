//! Random-play tests of Speed on the virtual clock: random rule sets drawn
//! from the option schema, games between reaction-time bots (instant and
//! timed presets) run to the end through `Session::run`. After every event
//! (the session plays a checking wrapper of the state, which checks itself
//! after each commit, bounce and timer, from both seats): the audit (every card
//! in one place), the decision against the legal lists, `is_legal` against
//! the lists, bounces that change nothing, views and observations that do
//! not change when hidden cards are re-dealt. After the game: it ended
//! (before the time limit in nearly every game), returns are zero-sum, the
//! ending is a category, and the session's log replays on a fresh deal to
//! the same bounces and the same final fingerprint (RT-11).

#![allow(clippy::unwrap_used)]

use cardtable_core::engine::options::{OptionKind, OptionValue};
use cardtable_core::engine::realtime::{Committed, Session};
use cardtable_core::engine::{
    Applied, Controller, DealSource, Decision, Game, Intent, Millis, State,
};
use cardtable_core::games::speed::{
    action, SpeedGame, SpeedSeatView, SpeedState, SpeedView, SCHEMA,
};
use cardtable_core::{derive_seed, GameRng, Result};

/// A Speed state that checks its invariants after every change the
/// session makes (each commit, bounce and timer), from each seat's side.
#[derive(Clone)]
struct Checked {
    inner: SpeedState,
    rng: GameRng,
    changes: u64,
}

impl PartialEq for Checked {
    fn eq(&self, other: &Self) -> bool {
        self.inner == other.inner
    }
}

impl Checked {
    fn changed(&mut self) {
        if self.inner.is_over() {
            return;
        }
        self.changes += 1;
        for seat in 0..2 {
            let full = (self.changes + u64::from(seat)) % 3 == 0;
            check(&self.inner, seat, &mut self.rng, full);
        }
    }
}

impl State for Checked {
    type View = SpeedView;
    type SeatView<'a> = SpeedSeatView<'a>;
    fn seat_view(&self, seat: u8) -> SpeedSeatView<'_> {
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
    fn apply(&mut self, seat: u8, action: u16, now: Millis) -> Result<Applied> {
        let applied = self.inner.apply(seat, action, now);
        self.changed();
        applied
    }
    fn next_timer(&self) -> Option<Millis> {
        self.inner.next_timer()
    }
    fn fire_timer(&mut self, now: Millis) {
        self.inner.fire_timer(now);
        self.changed();
    }
    fn view(&self, seat: u8) -> SpeedView {
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

/// A Speed bot playing the checked state (it sees the same seat view).
struct Bot(Box<dyn Controller<SpeedState>>);

impl Controller<Checked> for Bot {
    fn act(&mut self, view: SpeedSeatView<'_>, now: Millis) -> Option<Intent> {
        self.0.act(view, now)
    }
    fn next_wake(&mut self, view: SpeedSeatView<'_>, now: Millis) -> Option<Millis> {
        self.0.next_wake(view, now)
    }
    fn observe(&mut self, view: SpeedSeatView<'_>) {
        self.0.observe(view)
    }
    fn look_again(&mut self, view: SpeedSeatView<'_>, now: Millis) -> Option<Millis> {
        self.0.look_again(view, now)
    }
}

fn check(st: &SpeedState, seat: u8, rng: &mut GameRng, full: bool) {
    st.audit().unwrap_or_else(|e| panic!("audit: {e}"));
    let mut legal = [Vec::new(), Vec::new()];
    for s in 0..2u8 {
        st.legal_actions(s, &mut legal[usize::from(s)]);
        let l = &legal[usize::from(s)];
        assert!(l.windows(2).all(|w| w[0] < w[1]), "not sorted: {l:?}");
    }
    let mask = u64::from(!legal[0].is_empty()) | u64::from(!legal[1].is_empty()) << 1;
    match st.decision() {
        Decision::Simultaneous(m) => assert_eq!(m, mask),
        Decision::Waiting => {
            assert_eq!(mask, 0);
            let t = st.next_timer().expect("waiting for a timer");
            assert!(t >= st.now(), "a timer in the past");
        }
        Decision::Terminal => assert_eq!(mask, 0),
        Decision::Seat(_) => panic!("Speed never decides for one seat"),
    }
    if full {
        for a in 0..action::COUNT {
            for s in 0..2u8 {
                let ok = legal[usize::from(s)].binary_search(&a).is_ok();
                assert_eq!(st.is_legal(s, a), ok, "is_legal({s}, {a})");
            }
        }
    }
    // An action that is not legal bounces and changes nothing (RT-5).
    let a = rng.below(u32::from(action::COUNT)) as u16;
    if legal[usize::from(seat)].binary_search(&a).is_err() {
        let mut c = st.clone();
        assert_eq!(c.apply(seat, a, st.now() + 1).unwrap(), Applied::Bounced);
        assert!(c == *st, "a bounce changed the state");
    }
    let mut c = st.clone();
    assert!(c.apply(seat, action::COUNT, st.now()).is_err());
    assert!(c == *st);
    // Views do not leak what the seat cannot see.
    if full {
        let d = st.determinize(seat, rng);
        d.audit().unwrap();
        assert_eq!(st.view(seat), d.view(seat), "the view of seat {seat} leaks");
        assert_eq!(st.observation(seat), d.observation(seat));
        let mut dl = Vec::new();
        d.legal_actions(seat, &mut dl);
        assert_eq!(
            dl,
            legal[usize::from(seat)],
            "own legal actions are public to the seat"
        );
    }
}

/// A rule set drawn from the schema: every option given with a random
/// value (times and guards within ranges that keep games short).
fn random_options(rng: &mut GameRng) -> Vec<(String, OptionValue)> {
    let mut o = Vec::new();
    for spec in SCHEMA.options {
        if rng.below(3) == 0 {
            continue; // left at its default
        }
        let v = match (spec.name, spec.kind) {
            ("start_countdown_ms", _) => OptionValue::Int(i64::from(rng.below(3000))),
            ("flip_delay_ms", _) => OptionValue::Int(i64::from(rng.below(1500))),
            ("target_score", _) => OptionValue::Int(1 + i64::from(rng.below(40))),
            ("max_deals", _) => OptionValue::Int(1 + i64::from(rng.below(6))),
            ("max_virtual_ms", _) => {
                if rng.below(4) == 0 {
                    OptionValue::Int(3001 + i64::from(rng.below(40_000)))
                } else {
                    continue;
                }
            }
            (_, OptionKind::Bool) => OptionValue::Bool(rng.below(2) == 1),
            (_, OptionKind::Int { min, max }) => {
                OptionValue::Int(min + i64::from(rng.below((max - min + 1) as u32)))
            }
            (_, OptionKind::Choice { choices, .. }) => {
                OptionValue::Str(choices[rng.below(choices.len() as u32) as usize].to_string())
            }
            (_, OptionKind::IntOrWord { min, .. }) => OptionValue::Int(min),
        };
        o.push((spec.name.to_string(), v));
    }
    o
}

/// Re-applies a session's log to a fresh deal: each commit in order, the
/// engine timers fired as the session fires them. A timer due before the
/// commit fires first; one due at the same millisecond fires first only if
/// the game waits for it and the commit landed (a session lands commits
/// queued for a millisecond before its timer, and a landed commit while
/// waiting means the timer had fired). Returns the final state.
fn replay(game: &SpeedGame, seed: u64, log: &[Committed]) -> SpeedState {
    let mut st = game.deal(seed, None).unwrap();
    for c in log {
        while let Some(t) = st.next_timer() {
            let due = t < c.at || (t == c.at && st.decision() == Decision::Waiting && !c.bounced);
            if !due {
                break;
            }
            st.fire_timer(t);
        }
        let applied = st.apply(c.seat, c.action, c.at).unwrap();
        assert_eq!(
            applied == Applied::Bounced,
            c.bounced,
            "replayed bounce at {c:?}"
        );
    }
    while let Some(t) = st.next_timer() {
        st.fire_timer(t);
    }
    st
}

const SPECS: [&str; 7] = [
    "plain:instant",
    "smart:instant",
    "plain:normal",
    "smart:normal",
    "smart:hard",
    "plain:easy",
    "smart,reaction_median_ms=200,miss_rate=0.3",
];

fn run_games(games: u64, seed: u64) {
    let mut rng = GameRng::new(seed);
    let mut endings = std::collections::BTreeMap::new();
    let mut timed_out_default = 0;
    let mut default_limit_games = 0;
    for g in 0..games {
        let opts = random_options(&mut rng);
        let game = SpeedGame::from_options(&opts).unwrap_or_else(|e| panic!("{opts:?}: {e}"));
        let deal_seed = derive_seed(seed, g);
        let specs = [
            SPECS[rng.below(SPECS.len() as u32) as usize],
            SPECS[rng.below(SPECS.len() as u32) as usize],
        ];
        let bots: Vec<Box<dyn Controller<Checked>>> = (0..2u64)
            .map(|i| {
                let bot = game
                    .bot(specs[i as usize], derive_seed(deal_seed, 300 + i))
                    .unwrap();
                Box::new(Bot(bot)) as Box<dyn Controller<Checked>>
            })
            .collect();
        let st = Checked {
            inner: game.deal(deal_seed, None).unwrap(),
            rng: GameRng::new(derive_seed(deal_seed, 400)),
            changes: 0,
        };
        let mut sess = Session::new(st, bots, game.session_rules(deal_seed));
        let ended = sess.run().unwrap();
        let st = &sess.state.inner;
        assert!(
            ended && st.is_over(),
            "game {g} {opts:?} {specs:?} did not end"
        );
        st.audit().unwrap();
        let r = st.returns();
        assert_eq!(r.iter().sum::<i64>(), 0, "zero-sum");
        let ending = st.ending().unwrap();
        assert!(SpeedGame::ending_categories().contains(&ending));
        *endings.entry(ending).or_insert(0u32) += 1;
        if game.config.session.max_virtual_ms == 3_600_000 {
            default_limit_games += 1;
            if ending == "time_limit" {
                timed_out_default += 1;
            }
        }
        let back = replay(&game, deal_seed, sess.log());
        assert_eq!(
            back.fingerprint(),
            st.fingerprint(),
            "game {g}: the log replays differently"
        );
        assert_eq!(back.history(), st.history());
        let landed = sess.log().iter().filter(|c| !c.bounced).count();
        assert_eq!(
            landed,
            st.history().len(),
            "history = committed, not bounced"
        );
    }
    assert!(
        timed_out_default * 100 <= default_limit_games,
        "{timed_out_default} of {default_limit_games} games hit the default time limit"
    );
    eprintln!("endings {endings:?} default-limit games {default_limit_games}");
    assert!(endings.len() >= 3, "endings seen: {endings:?}");
}

#[test]
fn random_rule_sets_and_bots_keep_every_invariant() {
    run_games(600, 0x5eed);
}

#[test]
fn instant_bots_default_rules_many_games() {
    let game = SpeedGame::from_options(&[]).unwrap();
    for g in 0..1000u64 {
        let bots: Vec<Box<dyn Controller<SpeedState>>> = (0..2)
            .map(|i| {
                game.bot(
                    if g % 2 == i {
                        "smart:instant"
                    } else {
                        "plain:instant"
                    },
                    g * 2 + i,
                )
                .unwrap()
            })
            .collect();
        let mut sess = Session::new(game.deal(g, None).unwrap(), bots, game.session_rules(g));
        assert!(sess.run().unwrap());
        assert!(sess.now() < 3_600_000);
        let back = replay(&game, g, sess.log());
        assert_eq!(back.fingerprint(), sess.state.fingerprint());
    }
}

/// Measures bot strength (run with `--ignored --nocapture`): smart against
/// plain at equal timing, and a faster bot against a slower one, seats
/// swapped every game.
#[test]
#[ignore = "a measurement for the report, not a check: run with --ignored --nocapture"]
fn measure_bot_strength() {
    let game = SpeedGame::from_options(&[]).unwrap();
    let games = 4000u64;
    for (a, b) in [
        ("smart:normal", "plain:normal"),
        ("smart:hard", "plain:hard"),
        ("smart:instant", "plain:instant"),
        ("plain:hard", "plain:normal"),
        ("plain:normal", "plain:easy"),
        ("plain:hard", "smart:normal"),
    ] {
        let (mut wins, mut draws) = (0u64, 0u64);
        for g in 0..games {
            let swap = g % 2 == 1;
            let specs = if swap { [b, a] } else { [a, b] };
            let bots: Vec<Box<dyn Controller<SpeedState>>> = (0..2u64)
                .map(|i| {
                    game.bot(specs[i as usize], derive_seed(g, 500 + i))
                        .unwrap()
                })
                .collect();
            let mut sess = Session::new(game.deal(g, None).unwrap(), bots, game.session_rules(g));
            sess.run().unwrap();
            let r = sess.state.returns();
            let mine = if swap { r[1] } else { r[0] };
            match mine.signum() {
                1 => wins += 1,
                0 => draws += 1,
                _ => {}
            }
        }
        eprintln!(
            "{a} vs {b}: {:.1}% wins, {:.1}% draws over {games} games",
            100.0 * wins as f64 / games as f64,
            100.0 * draws as f64 / games as f64
        );
    }
}
