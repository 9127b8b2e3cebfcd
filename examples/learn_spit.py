"""Spit for learning code: the PettingZoo Parallel environment over lockstep
ticks (rules RT-9 (c)), the vectorised lockstep environment, and a plot.
Trains nothing.

    python examples/learn_spit.py [OUT_DIR] [--quick]

1. Both seats as agents, 100 ms ticks: each tick every agent plays a random
   legal card or waits (the last action id); intents that no longer fit
   when they land bounce, as a person's would.
2. 128 games at a time in Rust, a random learner against the ``plain`` bot
   at its normal reaction speed: the learner's win rate over the games that end.
3. ``cardtable simulate spit --plot``: smart against plain.
"""

import sys
from pathlib import Path

import numpy as np

from cardtable import _core
from cardtable.cli import main as cli
from cardtable.envs import spit_v0

out = Path(next((a for a in sys.argv[1:] if not a.startswith("--")), "."))
out.mkdir(parents=True, exist_ok=True)
quick = "--quick" in sys.argv
rng = np.random.default_rng(3)

# 1. The Parallel loop: every live agent acts each tick.
env = spit_v0.parallel_env(dt=100, max_virtual_ms=60_000)
observations, infos = env.reset(seed=1)
ticks = 0
while env.agents:
    actions = {
        agent: int(rng.choice(np.flatnonzero(observations[agent]["action_mask"])))
        for agent in env.agents
    }
    observations, rewards, terminations, truncations, infos = env.step(actions)
    ticks += 1
print(f"one game, both seats random: {ticks} ticks ({ticks / 10:.0f} virtual seconds)")

# 2. The vectorised lockstep environment: one agent axis, the learner at seat 0.
rows, steps = (16, 200) if quick else (128, 3000)
game = _core.load_game("spit", max_virtual_ms=300_000)
vec = _core.VectorEnv(game, rows, seed=2, opponents=[None, "plain:normal"], dt=100)
vec.reset()
wins = games = 0
for _ in range(steps):
    picks = (rng.random(vec.legal_counts.shape) * vec.legal_counts).astype(np.intp)
    vec.step(np.take_along_axis(vec.legal_actions, picks[..., None], axis=2)[..., 0])
    ended = vec.terminations
    games += int(ended.sum())
    wins += int((vec.rewards[ended, 0] > 0).sum())
print(f"random learner against plain:normal: won {wins} of {games} games that ended")

# 3. A plot of a simulation.
games = 20 if quick else 2000
cli.main(
    [
        "simulate",
        "spit",
        "--bots",
        "smart,plain",
        "--games",
        str(games),
        "--seed",
        "1",
        "--plot",
        str(out / "spit_simulation.png"),
    ],
    standalone_mode=False,
)
print("wrote", out / "spit_simulation.png")
