//! The vectorised environment: self-play steps per second with every output
//! written (observations, masks, legal lists, rewards, flags), all cores.
//! The caller's side is a seeded random pick from each row's legal list.
//!
//! Two workloads per game: `*_after_reset`, the first steps after a reset
//! (every row in its first deal: Three Thirteen's 3-card round), and
//! `*_whole_games`, steps once the rows have played long enough (more than
//! a whole game each) that their games are spread over every round: the
//! steady state of training, late 13-card rounds included. Targets (issue:
//! learning environments, over whole games, 2 cores): 2,000,000 Tonk and
//! 1,000,000 Three Thirteen steps/s. The Python-level comparison with RLCard
//! and OpenSpiel is `benches/python/test_bench_envs.py`.

#![allow(clippy::unwrap_used)]

use cardtable_core::engine::vector::{Outputs, VectorEnv};
use cardtable_core::engine::Game;
use cardtable_core::games::three_thirteen::ThreeThirteenGame;
use cardtable_core::games::tonk::TonkGame;
use cardtable_core::GameRng;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const ROWS: usize = 1024;
const STEPS: usize = 50;

struct Buffers {
    observations: Vec<f32>,
    masks: Vec<u8>,
    legal: Vec<u16>,
    legal_counts: Vec<u32>,
    rewards: Vec<f32>,
    flags: [Vec<u8>; 4],
    final_observations: Vec<f32>,
}

impl Buffers {
    fn new<G: Game>(game: &G) -> Buffers {
        let (o, a, p) = (
            game.observation_size(),
            game.num_distinct_actions(),
            game.players(),
        );
        Buffers {
            observations: vec![0.0; ROWS * o],
            masks: vec![0; ROWS * a],
            legal: vec![0; ROWS * a],
            legal_counts: vec![0; ROWS],
            rewards: vec![0.0; ROWS * p],
            flags: [vec![0; ROWS], vec![0; ROWS], vec![0; ROWS], vec![0; ROWS]],
            final_observations: vec![0.0; ROWS * o],
        }
    }

    fn outputs(&mut self) -> Outputs<'_> {
        let [terminated, truncated, to_play, acted] = &mut self.flags;
        Outputs {
            observations: &mut self.observations,
            masks: &mut self.masks,
            legal: &mut self.legal,
            legal_counts: &mut self.legal_counts,
            rewards: &mut self.rewards,
            terminated,
            truncated,
            to_play,
            acted,
            final_observations: &mut self.final_observations,
        }
    }
}

/// Self-play rows stepped with a random legal action each.
struct Run<G: Game> {
    env: VectorEnv<G>,
    buf: Buffers,
    rng: GameRng,
    actions: Vec<u16>,
    width: usize,
}

impl<G: Game> Run<G> {
    fn new(game: &G) -> Run<G> {
        let mut env = VectorEnv::new(game.clone(), ROWS, 1, Vec::new(), None).unwrap();
        let mut buf = Buffers::new(game);
        env.reset(None, &mut buf.outputs()).unwrap();
        Run {
            env,
            buf,
            rng: GameRng::new(3),
            actions: vec![0u16; ROWS],
            width: game.num_distinct_actions(),
        }
    }

    fn steps(&mut self, steps: usize) {
        for _ in 0..steps {
            for (row, act) in self.actions.iter_mut().enumerate() {
                let n = self.buf.legal_counts[row];
                *act = self.buf.legal[row * self.width + self.rng.below(n) as usize];
            }
            self.env
                .step(&self.actions, &mut self.buf.outputs())
                .unwrap();
        }
    }
}

/// `warm_up`: steps played before the timing (0: right after the reset).
fn self_play<G: Game>(c: &mut Criterion, name: &str, game: G, workload: &str, warm_up: usize) {
    let mut g = c.benchmark_group("vector_env");
    g.sample_size(20);
    g.throughput(Throughput::Elements((ROWS * STEPS) as u64));
    g.bench_function(format!("{name}_self_play_{ROWS}_rows_{workload}"), |b| {
        let mut run = Run::new(&game);
        run.steps(warm_up);
        b.iter(|| run.steps(STEPS));
    });
    g.finish();
}

/// Steps after which every row has played more than one whole game of
/// random self-play (Three Thirteen: about 7,000 decisions a game, at
/// most about 9,000; a Tonk hand: a few dozen), so that the rows' games
/// are spread over all their rounds.
const WHOLE_GAMES_WARM_UP: usize = 12_000;

fn vector_env(c: &mut Criterion) {
    let tonk = TonkGame::from_options(&[]).unwrap();
    let three_thirteen = ThreeThirteenGame::from_options(&[]).unwrap();
    self_play(c, "tonk", tonk, "after_reset", 0);
    self_play(c, "three_thirteen", three_thirteen, "after_reset", 0);
    self_play(c, "tonk", tonk, "whole_games", 1_000);
    self_play(
        c,
        "three_thirteen",
        three_thirteen,
        "whole_games",
        WHOLE_GAMES_WARM_UP,
    );
}

criterion_group!(benches, vector_env);
criterion_main!(benches);
