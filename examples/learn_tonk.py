"""Tonk for learning code: the PettingZoo loop, the vectorised environment and
a plot of a bot-against-bot run. Trains nothing; shows the pieces.

    python examples/learn_tonk.py [OUT_DIR] [--quick]

1. One three-player hand through the PettingZoo AEC environment, a random
   legal action per decision; its rewards add up to the hand's stakes.
2. 1,024 two-player hands at a time in Rust: a random legal action per row
   from the legal lists, every seat's action given here (self-play).
3. ``cardtable simulate tonk --plot``: greedy against random, as a PNG.
"""

import sys
import time
from pathlib import Path

import numpy as np

from cardtable import _core
from cardtable.cli import main as cli
from cardtable.envs import tonk_v0

out = Path(next((a for a in sys.argv[1:] if not a.startswith("--")), "."))
out.mkdir(parents=True, exist_ok=True)
quick = "--quick" in sys.argv
rng = np.random.default_rng(1)

# 1. The environment loop (PettingZoo AEC): the acting seat's observation and mask.
env = tonk_v0.env(players=3)
env.reset(seed=1)
totals = dict.fromkeys(env.possible_agents, 0.0)
for agent in env.agent_iter():
    obs, reward, termination, truncation, info = env.last()
    totals[agent] += reward
    action = None if termination or truncation else rng.choice(np.flatnonzero(obs["action_mask"]))
    env.step(action)
print("one hand, rewards per seat:", totals)

# 2. The vectorised environment: every row waits for its seat to act.
rows, steps = (64, 50) if quick else (1024, 300)
vec = _core.VectorEnv(_core.load_game("tonk"), rows, seed=1)
vec.reset()
hands, stakes, index = 0, np.zeros(2), np.arange(rows)
start = time.perf_counter()
for _ in range(steps):
    picks = (rng.random(rows) * vec.legal_counts).astype(np.intp)
    vec.step(vec.legal_actions[index, picks])
    hands += int(vec.terminations.sum())
    stakes += vec.rewards.sum(axis=0)
seconds = time.perf_counter() - start
print(
    f"{rows * steps:,} steps in {seconds:.2f} s ({rows * steps / seconds:,.0f} steps/s), "
    f"{hands:,} hands ended, stakes per seat {stakes}"
)

# 3. A plot of a simulation (the same numbers as its text and JSON summary).
games = 200 if quick else 4000
cli.main(
    [
        "simulate",
        "tonk",
        "--bots",
        "greedy,random",
        "--games",
        str(games),
        "--seed",
        "1",
        "--plot",
        str(out / "tonk_simulation.png"),
    ],
    standalone_mode=False,
)
print("wrote", out / "tonk_simulation.png")
