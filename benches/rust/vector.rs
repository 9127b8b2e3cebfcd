//! The vectorised environment: self-play steps per second with every output
//! written (observations, masks, legal lists, rewards, flags), all cores.
//! The caller's side is a seeded random pick from each row's legal list.
//! Targets (issue: learning environments): 1,000,000 Tonk steps/s and
//! 200,000 Three Thirteen steps/s on 2 cores; the Python-level comparison
//! with RLCard and OpenSpiel is `benches/python/test_bench_envs.py`.

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

fn self_play<G: Game>(c: &mut Criterion, name: &str, game: G) {
    let mut g = c.benchmark_group("vector_env");
    g.sample_size(20);
    g.throughput(Throughput::Elements((ROWS * STEPS) as u64));
    let a = game.num_distinct_actions();
    g.bench_function(format!("{name}_self_play_{ROWS}_rows"), |b| {
        let mut env = VectorEnv::new(game.clone(), ROWS, 1, Vec::new(), None).unwrap();
        let mut buf = Buffers::new(&game);
        env.reset(None, &mut buf.outputs()).unwrap();
        let mut rng = GameRng::new(3);
        let mut actions = vec![0u16; ROWS];
        b.iter(|| {
            for _ in 0..STEPS {
                for (row, act) in actions.iter_mut().enumerate() {
                    let n = buf.legal_counts[row];
                    *act = buf.legal[row * a + rng.below(n) as usize];
                }
                env.step(&actions, &mut buf.outputs()).unwrap();
            }
        });
    });
    g.finish();
}

fn vector_env(c: &mut Criterion) {
    self_play(c, "tonk", TonkGame::from_options(&[]).unwrap());
    self_play(
        c,
        "three_thirteen",
        ThreeThirteenGame::from_options(&[]).unwrap(),
    );
}

criterion_group!(benches, vector_env);
criterion_main!(benches);
