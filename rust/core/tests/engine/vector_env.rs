//! The vectorised environment against an independent replay: each row's
//! games are dealt again from their documented seeds and stepped one by one
//! through the plain `State` contract, and every output of every step must
//! match (observation of the seat to act, mask and legal list, rewards as
//! changes of the running returns, flags, the final observation of an
//! ended game). Also: the same outputs for any thread count; episode
//! rewards sum to the returns; an illegal action moves no row; bots answer
//! for their seats; truncation; real-time games are refused.

#![allow(clippy::unwrap_used, clippy::needless_range_loop)]

use cardtable_core::bots::reaction::Person;
use cardtable_core::engine::lockstep::LockstepEnv;
use cardtable_core::engine::options::OptionValue;
use cardtable_core::engine::realtime::Session;
use cardtable_core::engine::vector::{Outputs, VectorEnv};
use cardtable_core::engine::{Controller, Decision, Game, State};
use cardtable_core::games::speed::SpeedGame;
use cardtable_core::games::spit::SpitGame;
use cardtable_core::games::three_thirteen::ThreeThirteenGame;
use cardtable_core::games::tonk::TonkGame;
use cardtable_core::{derive_seed, CoreError, GameRng};

fn load<G: Game>(options: &[(&str, OptionValue)]) -> G {
    let o: Vec<(String, OptionValue)> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    G::from_options(&o).unwrap()
}

/// Owned output buffers of a vectorised environment.
#[derive(Clone, PartialEq, Debug)]
struct Buffers {
    observations: Vec<f32>,
    masks: Vec<u8>,
    legal: Vec<u16>,
    legal_counts: Vec<u32>,
    rewards: Vec<f32>,
    terminated: Vec<u8>,
    truncated: Vec<u8>,
    to_play: Vec<u8>,
    acted: Vec<u8>,
    final_observations: Vec<f32>,
}

impl Buffers {
    fn new<G: Game>(game: &G, rows: usize) -> Buffers {
        let (o, a, p) = (
            game.observation_size(),
            game.num_distinct_actions(),
            game.players(),
        );
        Buffers {
            observations: vec![0.0; rows * o],
            masks: vec![0; rows * a],
            legal: vec![0; rows * a],
            legal_counts: vec![0; rows],
            rewards: vec![0.0; rows * p],
            terminated: vec![0; rows],
            truncated: vec![0; rows],
            to_play: vec![0; rows],
            acted: vec![0; rows],
            final_observations: vec![0.0; rows * o],
        }
    }

    /// Buffers of a lockstep run with `k` agents (one more action id: wait).
    fn lockstep<G: Game>(game: &G, rows: usize, k: usize) -> Buffers {
        let (o, a, p) = (
            game.observation_size(),
            game.num_distinct_actions() + 1,
            game.players(),
        );
        Buffers {
            observations: vec![0.0; rows * k * o],
            masks: vec![0; rows * k * a],
            legal: vec![0; rows * k * a],
            legal_counts: vec![0; rows * k],
            rewards: vec![0.0; rows * p],
            terminated: vec![0; rows],
            truncated: vec![0; rows],
            to_play: vec![0; rows * k],
            acted: vec![0; rows * k],
            final_observations: vec![0.0; rows * k * o],
        }
    }

    /// A random entry of each legal list (per row and agent), with lists of
    /// width `a`.
    fn random_picks(&self, a: usize, rng: &mut GameRng) -> Vec<u16> {
        self.legal_counts
            .iter()
            .enumerate()
            .map(|(i, &n)| self.legal[i * a + rng.below(n) as usize])
            .collect()
    }

    fn outputs(&mut self) -> Outputs<'_> {
        Outputs {
            observations: &mut self.observations,
            masks: &mut self.masks,
            legal: &mut self.legal,
            legal_counts: &mut self.legal_counts,
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            to_play: &mut self.to_play,
            acted: &mut self.acted,
            final_observations: &mut self.final_observations,
        }
    }

    /// A random legal action per row, from the legal lists.
    fn random_actions<G: Game>(&self, game: &G, rng: &mut GameRng) -> Vec<u16> {
        let a = game.num_distinct_actions();
        self.legal_counts
            .iter()
            .enumerate()
            .map(|(row, &n)| self.legal[row * a + rng.below(n) as usize])
            .collect()
    }
}

/// One row replayed through the `State` contract alone, with its bots
/// seeded as documented (`derive_seed(deal seed, 100 + seat)`).
struct Replay<G: Game> {
    game: G,
    seats: Vec<Option<G::BotSpec>>,
    bots: Vec<Option<Box<dyn Controller<G::State>>>>,
    seed: u64,
    row: usize,
    k: u64,
    state: G::State,
    running: Vec<i64>,
    episode_rewards: Vec<f64>,
}

impl<G: Game> Replay<G> {
    fn new(game: &G, seats: &[Option<G::BotSpec>], seed: u64, row: usize) -> Replay<G> {
        let mut r = Replay {
            game: game.clone(),
            seats: seats.to_vec(),
            bots: Vec::new(),
            seed,
            row,
            k: 0,
            state: game.deal(0, None).unwrap(),
            running: Vec::new(),
            episode_rewards: vec![0.0; game.players()],
        };
        r.deal();
        r
    }

    /// The row's next game that leaves an agent something to decide.
    fn deal(&mut self) {
        loop {
            let seed = derive_seed(derive_seed(self.seed, self.row as u64), self.k);
            self.k += 1;
            self.state = self.game.deal(seed, None).unwrap();
            self.bots = (0..self.game.players())
                .map(|s| {
                    self.seats
                        .get(s)
                        .cloned()
                        .flatten()
                        .map(|spec| self.game.new_bot(&spec, derive_seed(seed, 100 + s as u64)))
                })
                .collect();
            self.running = self.state.running_returns();
            self.episode_rewards = vec![0.0; self.game.players()];
            self.play_bots();
            if !self.state.is_over() {
                break;
            }
        }
    }

    fn play_bots(&mut self) {
        while let Decision::Seat(seat) = self.state.decision() {
            let Some(Some(bot)) = self.bots.get_mut(usize::from(seat)) else {
                return;
            };
            let a = bot.act(self.state.seat_view(seat), 0).unwrap().action;
            self.state.apply(seat, a, 0).unwrap();
        }
    }

    /// Checks row `row` of `b` shows this replay's state.
    fn check_shown(&self, b: &Buffers) {
        let (o, a) = (
            self.game.observation_size(),
            self.game.num_distinct_actions(),
        );
        let Decision::Seat(seat) = self.state.decision() else {
            panic!("row {} shows a game nobody can act in", self.row)
        };
        let r = self.row;
        assert_eq!(b.to_play[r], seat);
        assert_eq!(
            b.observations[r * o..(r + 1) * o],
            self.state.observation(seat)[..]
        );
        let mut legal = Vec::new();
        self.state.legal_actions(seat, &mut legal);
        let n = b.legal_counts[r] as usize;
        assert_eq!(b.legal[r * a..r * a + n], legal[..]);
        let mask: Vec<u16> = (0..a as u16)
            .filter(|&x| b.masks[r * a + usize::from(x)] == 1)
            .collect();
        assert_eq!(mask, legal);
    }

    /// Applies `action` and checks the row's step outputs.
    fn check_step(&mut self, action: u16, b: &Buffers, max_steps: Option<u64>, steps: &mut u64) {
        let (o, p) = (self.game.observation_size(), self.game.players());
        let r = self.row;
        let Decision::Seat(seat) = self.state.decision() else {
            panic!()
        };
        self.state.apply(seat, action, 0).unwrap();
        *steps += 1;
        self.play_bots();
        let running = self.state.running_returns();
        for s in 0..p {
            let want = (running[s] - self.running[s]) as f32;
            assert_eq!(b.rewards[r * p + s], want, "row {r} seat {s}");
            self.episode_rewards[s] += f64::from(want);
        }
        self.running = running;
        let over = self.state.is_over();
        // A guard's ending is a truncation (issue 22 item 4).
        let guard = over && G::ended_by_guard(&self.state);
        let cut = guard || (!over && max_steps.is_some_and(|m| *steps >= m));
        assert_eq!(b.terminated[r], u8::from(over && !guard), "row {r}");
        assert_eq!(b.truncated[r], u8::from(cut), "row {r}");
        assert_eq!(b.acted[r], seat);
        if over || cut {
            assert_eq!(
                b.final_observations[r * o..(r + 1) * o],
                self.state.observation(seat)[..]
            );
            if over {
                for s in 0..p {
                    assert_eq!(self.episode_rewards[s], self.state.returns()[s] as f64);
                }
            }
            *steps = 0;
            self.deal();
        }
        self.check_shown(b);
    }
}

fn check_against_replay<G: Game>(game: G, rows: usize, steps: usize, max_steps: Option<u64>) {
    check_with_bots(game, Vec::new(), rows, steps, max_steps)
}

fn check_with_bots<G: Game>(
    game: G,
    seats: Vec<Option<G::BotSpec>>,
    rows: usize,
    steps: usize,
    max_steps: Option<u64>,
) {
    let seed = 77;
    let mut env = VectorEnv::new(game.clone(), rows, seed, seats.clone(), max_steps).unwrap();
    let mut b = Buffers::new(&game, rows);
    env.reset(Some(seed), &mut b.outputs()).unwrap();
    let mut replays: Vec<Replay<G>> = (0..rows)
        .map(|r| Replay::new(&game, &seats, seed, r))
        .collect();
    let mut counts = vec![0u64; rows];
    for r in &replays {
        r.check_shown(&b);
    }
    let mut rng = GameRng::new(5);
    let mut ended = 0;
    for _ in 0..steps {
        let actions = b.random_actions(&game, &mut rng);
        env.step(&actions, &mut b.outputs()).unwrap();
        for (r, &a) in actions.iter().enumerate() {
            replays[r].check_step(a, &b, max_steps, &mut counts[r]);
        }
        ended += b.terminated.iter().map(|&t| usize::from(t)).sum::<usize>();
        ended += b.truncated.iter().map(|&t| usize::from(t)).sum::<usize>();
    }
    assert!(ended > 0, "{}: no game ended in the test", G::NAME);
}

#[test]
fn tonk_self_play_matches_a_replay_of_every_row() {
    check_against_replay(load::<TonkGame>(&[]), 24, 400, None);
    let three = load::<TonkGame>(&[("players", OptionValue::Int(3))]);
    check_against_replay(three, 9, 300, None);
}

#[test]
fn three_thirteen_self_play_matches_a_replay_of_every_row() {
    // Without restocks a round of random play ends when the stock runs out (TT-9.3).
    let short = load::<ThreeThirteenGame>(&[("max_restocks", OptionValue::Int(0))]);
    check_against_replay(short, 3, 3000, None);
}

/// Issue 22 item 4: a hand TK-10.7's stall guard stops is truncated, not
/// terminated (players who only take the discard and throw a card back).
#[test]
fn a_tonk_hand_the_stall_guard_stops_is_a_truncation() {
    let game = load::<TonkGame>(&[("max_idle_rounds", OptionValue::Int(1))]);
    assert_eq!(TonkGame::guard_endings(), ["stalled"]);
    let take = game.string_to_action("take").unwrap();
    let rows = 6;
    let mut env = VectorEnv::new(game, rows, 3, Vec::new(), None).unwrap();
    let mut b = Buffers::new(&game, rows);
    env.reset(None, &mut b.outputs()).unwrap();
    let a = game.num_distinct_actions();
    let mut truncated = 0;
    for _ in 0..40 {
        let actions: Vec<u16> = (0..rows)
            .map(|r| {
                let legal = &b.legal[r * a..r * a + b.legal_counts[r] as usize];
                let discard = legal.iter().copied().find(|&x| {
                    game.action_to_string(x)
                        .is_ok_and(|t| t.starts_with("discard"))
                });
                if legal.contains(&take) {
                    take
                } else {
                    discard.unwrap_or(legal[0])
                }
            })
            .collect();
        env.step(&actions, &mut b.outputs()).unwrap();
        assert!(b.terminated.iter().all(|&t| t == 0));
        truncated += b.truncated.iter().map(|&t| usize::from(t)).sum::<usize>();
    }
    assert!(truncated >= rows, "{truncated} truncations");
}

#[test]
fn truncation_cuts_a_game_at_the_step_limit_and_deals_the_next() {
    check_against_replay(load::<ThreeThirteenGame>(&[]), 5, 200, Some(30));
}

fn run_threads<G: Game>(game: &G, threads: usize, seats: Vec<Option<G::BotSpec>>) -> Vec<Buffers> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let rows = 300;
        let mut env = VectorEnv::new(game.clone(), rows, 9, seats, None).unwrap();
        let mut b = Buffers::new(game, rows);
        env.reset(None, &mut b.outputs()).unwrap();
        let mut rng = GameRng::new(1);
        let mut seen = vec![b.clone()];
        for _ in 0..60 {
            let actions = b.random_actions(game, &mut rng);
            env.step(&actions, &mut b.outputs()).unwrap();
            seen.push(b.clone());
        }
        seen
    })
}

#[test]
fn the_outputs_are_the_same_for_any_thread_count() {
    let g = load::<TonkGame>(&[]);
    assert_eq!(
        run_threads(&g, 1, Vec::new()),
        run_threads(&g, 2, Vec::new())
    );
    let bots = vec![None, Some(TonkGame::parse_bot("greedy").unwrap())];
    assert_eq!(run_threads(&g, 1, bots.clone()), run_threads(&g, 3, bots));
}

#[test]
fn a_learner_against_bots_matches_a_replay_and_its_rewards_sum_to_its_returns() {
    // Replays check that the learner's seat is the one shown, that the bots
    // answered as the same seeded bots do, and that a finished game's
    // rewards sum to its returns.
    for (learner, spec) in [(0usize, "greedy"), (1, "random"), (1, "strong:8")] {
        let mut seats = vec![Some(TonkGame::parse_bot(spec).unwrap()); 2];
        seats[learner] = None;
        check_with_bots(load::<TonkGame>(&[]), seats, 12, 120, None);
    }
    let mut seats = vec![Some(ThreeThirteenGame::parse_bot("greedy").unwrap()); 3];
    seats[2] = None;
    let three = load::<ThreeThirteenGame>(&[("players", OptionValue::Int(3))]);
    check_with_bots(three, seats, 3, 900, None);
}

#[test]
fn an_illegal_action_is_an_error_naming_its_row_and_moves_no_row() {
    let game = load::<TonkGame>(&[]);
    let rows = 8;
    let mut env = VectorEnv::new(game, rows, 1, Vec::new(), None).unwrap();
    let mut b = Buffers::new(&game, rows);
    env.reset(None, &mut b.outputs()).unwrap();
    let mut rng = GameRng::new(4);
    let mut actions = b.random_actions(&game, &mut rng);
    let a = game.num_distinct_actions();
    let illegal = (0..a as u16)
        .find(|&x| b.masks[3 * a + usize::from(x)] == 0)
        .unwrap();
    let good = actions[3];
    actions[3] = illegal;
    let before = b.clone();
    match env.step(&actions, &mut b.outputs()) {
        Err(CoreError::IllegalAction(m)) => assert!(m.contains("sub-environment 3"), "{m}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(b, before, "outputs changed");
    actions[3] = good;
    env.step(&actions, &mut b.outputs()).unwrap();
    // The run goes on as if the bad call had not happened.
    let mut again = VectorEnv::new(game, rows, 1, Vec::new(), None).unwrap();
    let mut c = Buffers::new(&game, rows);
    again.reset(None, &mut c.outputs()).unwrap();
    again.step(&actions, &mut c.outputs()).unwrap();
    assert_eq!(b, c);
    assert!(env.step(&actions[..2], &mut b.outputs()).is_err());
}

#[test]
fn bad_configurations_are_errors_naming_the_option() {
    let game = load::<TonkGame>(&[]);
    let bot = || Some(TonkGame::parse_bot("random").unwrap());
    let option = |r: Result<VectorEnv<TonkGame>, CoreError>| match r {
        Err(CoreError::InvalidConfig { option, .. }) => option.unwrap_or_default(),
        Err(e) => panic!("{e:?}"),
        Ok(_) => panic!("accepted"),
    };
    assert_eq!(
        option(VectorEnv::new(game, 4, 0, vec![bot(), bot()], None)),
        "opponents"
    );
    assert_eq!(
        option(VectorEnv::new(game, 4, 0, vec![bot()], None)),
        "opponents"
    );
    assert_eq!(
        option(VectorEnv::new(game, 0, 0, Vec::new(), None)),
        "num_envs"
    );
    assert_eq!(
        option(VectorEnv::new(game, 4, 0, Vec::new(), Some(0))),
        "max_episode_steps"
    );
    assert!(matches!(
        VectorEnv::new(load::<SpeedGame>(&[]), 2, 0, Vec::new(), None),
        Err(CoreError::InvalidConfig { .. })
    ));
    let mut env = VectorEnv::new(game, 4, 0, Vec::new(), None).unwrap();
    let mut small = Buffers::new(&game, 3);
    match env.reset(None, &mut small.outputs()) {
        Err(CoreError::InvalidConfig { option, .. }) => {
            assert_eq!(option.as_deref(), Some("observations"))
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn games_the_deal_decides_are_counted_with_their_returns_and_skipped() {
    let game = load::<TonkGame>(&[]);
    let rows = 64;
    let seed = 21;
    let env = VectorEnv::new(game, rows, seed, Vec::new(), None).unwrap();
    // Independently: the first deals of each row that end at once.
    let mut games = 0;
    let mut returns = vec![0i64; 2];
    for row in 0..rows {
        for k in 0.. {
            let st = game
                .deal(derive_seed(derive_seed(seed, row as u64), k), None)
                .unwrap();
            if !st.is_over() {
                break;
            }
            games += 1;
            for (t, r) in returns.iter_mut().zip(st.returns()) {
                *t += r;
            }
        }
    }
    let u = env.undecided();
    assert_eq!((u.games, u.returns), (games, returns));
}

/// Lockstep rows replayed through sessions built as documented: the same
/// deal and bot seeds, a person at each agent seat, the same intents at the
/// same times.
fn check_lockstep<G: Game>(game: G, seats: Vec<Option<G::BotSpec>>, rows: usize, steps: usize) {
    let seed = 5;
    let dt = 100;
    let mut env = LockstepEnv::new(game.clone(), rows, seed, seats.clone(), dt, None).unwrap();
    // No seats given: every seat an agent.
    let seats = if seats.is_empty() {
        vec![None; game.players()]
    } else {
        seats
    };
    let agents: Vec<u8> = env.agents().to_vec();
    let k = agents.len();
    let mut b = Buffers::lockstep(&game, rows, k);
    env.reset(None, &mut b.outputs()).unwrap();
    let a = game.num_distinct_actions() + 1;
    let wait = env.wait();
    assert_eq!(usize::from(wait), game.num_distinct_actions());
    let session_of = |row: usize, g: u64| {
        let deal = derive_seed(derive_seed(seed, row as u64), g);
        let controllers: Vec<Box<dyn Controller<G::State>>> = seats
            .iter()
            .enumerate()
            .map(|(s, spec)| match spec {
                Some(spec) => game.new_bot(spec, derive_seed(deal, 100 + s as u64)),
                None => Box::new(Person) as Box<dyn Controller<G::State>>,
            })
            .collect();
        Session::new(
            game.deal(deal, None).unwrap(),
            controllers,
            game.session_rules(deal),
        )
    };
    let mut replays: Vec<(Session<G::State>, u64, Vec<f64>)> = (0..rows)
        .map(|r| (session_of(r, 0), 0, vec![0.0; game.players()]))
        .collect();
    let mut rng = GameRng::new(8);
    let o = game.observation_size();
    let mut ended = 0;
    for _ in 0..steps {
        let actions = b.random_picks(a, &mut rng);
        env.step(&actions, &mut b.outputs()).unwrap();
        for (r, (session, games, totals)) in replays.iter_mut().enumerate() {
            let now = session.now();
            let before = session.state.running_returns();
            // The tick by hand: each agent's intent handed in now, then every
            // event before the tick's end (RT-9 (c), RT-6).
            for (j, &seat) in agents.iter().enumerate() {
                let act = actions[r * k + j];
                let taken = act != wait && session.submit(seat, act, now).unwrap().accepted();
                assert_eq!(
                    b.acted[r * k + j],
                    u8::from(taken),
                    "row {r} agent {j} at {now} ms, action {act}"
                );
            }
            session.advance_before(now + dt).unwrap();
            if !session.is_over() && session.now() < game.session_rules(0).max_virtual_ms {
                let mine = env.session(r).unwrap();
                assert_eq!(mine.event_hash(), session.event_hash(), "row {r} at {now}");
            }
            let after = session.state.running_returns();
            for s in 0..game.players() {
                let reward = (after[s] - before[s]) as f32;
                assert_eq!(b.rewards[r * game.players() + s], reward);
                totals[s] += f64::from(reward);
            }
            let over = session.is_over();
            // The state's own time limit or deal count is a truncation (issue 22 item 4).
            let guard = over && G::ended_by_guard(&session.state);
            assert_eq!(b.terminated[r], u8::from(over && !guard), "row {r}");
            let cut = guard || (!over && session.now() >= game.session_rules(0).max_virtual_ms);
            assert!(session.now() <= game.session_rules(0).max_virtual_ms);
            assert_eq!(b.truncated[r], u8::from(cut), "row {r}");
            if over || cut {
                ended += 1;
                for (j, &seat) in agents.iter().enumerate() {
                    let base = (r * k + j) * o;
                    assert_eq!(
                        b.final_observations[base..base + o],
                        session.state.observation(seat)[..]
                    );
                }
                if over {
                    let returns = session.state.returns();
                    for s in 0..game.players() {
                        assert_eq!(
                            totals[s], returns[s] as f64,
                            "row {r}: rewards do not sum to the returns"
                        );
                    }
                }
                *games += 1;
                *session = session_of(r, *games);
                *totals = vec![0.0; game.players()];
            }
            for (j, &seat) in agents.iter().enumerate() {
                let base = (r * k + j) * o;
                assert_eq!(
                    b.observations[base..base + o],
                    session.state.observation(seat)[..]
                );
                let mut legal = Vec::new();
                session.state.legal_actions(seat, &mut legal);
                legal.push(wait);
                let n = b.legal_counts[r * k + j] as usize;
                assert_eq!(b.legal[(r * k + j) * a..(r * k + j) * a + n], legal[..]);
                assert_eq!(b.to_play[r * k + j], seat);
            }
        }
    }
    assert!(ended > 0, "{}: no game ended", G::NAME);
}

#[test]
fn spit_and_speed_in_lockstep_match_sessions_replayed_from_their_seeds() {
    check_lockstep(load::<SpeedGame>(&[]), Vec::new(), 4, 600);
    let bot = SpeedGame::parse_bot("plain:instant").unwrap();
    check_lockstep(load::<SpeedGame>(&[]), vec![None, Some(bot)], 4, 400);
    let bot = SpitGame::parse_bot("plain").unwrap();
    // A short time limit (RT-12) ends random play by truncation too.
    let spit = load::<SpitGame>(&[("max_virtual_ms", OptionValue::Int(60_000))]);
    check_lockstep(spit, vec![Some(bot), None], 3, 1500);
}

#[test]
fn lockstep_runs_are_the_same_for_any_thread_count_and_refuse_bad_actions() {
    let game = load::<SpeedGame>(&[]);
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut env = LockstepEnv::new(game, 150, 2, Vec::new(), 50, None).unwrap();
            let mut b = Buffers::lockstep(&game, 150, 2);
            env.reset(None, &mut b.outputs()).unwrap();
            let mut rng = GameRng::new(1);
            let mut seen = Vec::new();
            for _ in 0..80 {
                let actions = b.random_picks(game.num_distinct_actions() + 1, &mut rng);
                env.step(&actions, &mut b.outputs()).unwrap();
                seen.push(b.clone());
            }
            seen
        })
    };
    assert_eq!(run(1), run(2));
    let mut env = LockstepEnv::new(game, 3, 2, Vec::new(), 50, None).unwrap();
    let mut b = Buffers::lockstep(&game, 3, 2);
    env.reset(None, &mut b.outputs()).unwrap();
    let a = game.num_distinct_actions() + 1;
    let mut actions = vec![env.wait(); 6];
    let illegal = (0..a as u16 - 1)
        .find(|&x| b.masks[3 * a + usize::from(x)] == 0)
        .unwrap();
    actions[3] = illegal;
    let before = b.clone();
    match env.step(&actions, &mut b.outputs()) {
        Err(CoreError::IllegalAction(m)) => assert!(m.contains("sub-environment 1"), "{m}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(b, before);
    assert!(env.step(&actions[..4], &mut b.outputs()).is_err());
    assert!(matches!(
        LockstepEnv::new(game, 3, 2, Vec::new(), 0, None),
        Err(CoreError::InvalidConfig { .. })
    ));
    assert!(matches!(
        LockstepEnv::new(load::<TonkGame>(&[]), 3, 2, Vec::new(), 50, None),
        Err(CoreError::InvalidConfig { .. })
    ));
}
