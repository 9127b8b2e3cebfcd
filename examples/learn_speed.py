"""Speed for learning code: Gymnasium's vector API over lockstep games in
Rust, a PettingZoo Parallel episode, and a plot. Trains nothing.

    python examples/learn_speed.py [OUT_DIR] [--quick]

1. ``cardtable.envs.VectorEnv``: 512 games against the ``plain`` bot at
   once, 50 ms ticks, Gymnasium's (observation dict, reward, terminated,
   truncated, info) with same-step resets; a policy that plays its first
   legal card (waiting only when it has none) against one that picks at
   random.
2. One PettingZoo Parallel episode between two first-card agents.
3. ``cardtable simulate speed --plot``: plain at its hard preset against easy.
"""

import sys
from pathlib import Path

import numpy as np

import cardtable.envs
from cardtable.cli import main as cli

out = Path(next((a for a in sys.argv[1:] if not a.startswith("--")), "."))
out.mkdir(parents=True, exist_ok=True)
quick = "--quick" in sys.argv
rng = np.random.default_rng(4)


def first_card(info: dict, rows: np.ndarray) -> np.ndarray:
    """Each row's first legal action: a card when there is one (waiting is last)."""
    return info["legal_actions"][rows, 0]


def random_action(info: dict, rows: np.ndarray) -> np.ndarray:
    picks = (rng.random(len(rows)) * info["legal_counts"]).astype(np.intp)
    return info["legal_actions"][rows, picks]


# 1. Two policies through the vector API, the same seeds for both.
rows, steps = (32, 300) if quick else (512, 3000)
for name, policy in [("first card", first_card), ("random", random_action)]:
    vec = cardtable.envs.VectorEnv("speed", rows, opponents=["plain"], seed=9, dt=50)
    obs, info = vec.reset()
    index = np.arange(rows)
    wins = games = 0
    for _ in range(steps):
        obs, reward, terminated, truncated, info = vec.step(policy(info, index))
        games += int(terminated.sum())
        wins += int((reward[terminated] > 0).sum())
    print(f"{name} against plain: won {wins} of {games} games that ended")

# 2. One Parallel episode.
env = cardtable.envs.speed_v0.parallel_env(dt=100)
observations, infos = env.reset(seed=2)
returns = dict.fromkeys(env.possible_agents, 0.0)
while env.agents:
    actions = {a: int(np.flatnonzero(observations[a]["action_mask"])[0]) for a in env.agents}
    observations, rewards, terminations, truncations, infos = env.step(actions)
    for agent, reward in rewards.items():
        returns[agent] += reward
print("one game, first card against first card:", returns)

# 3. A plot of a simulation.
games = 20 if quick else 2000
cli.main(
    [
        "simulate",
        "speed",
        "--bots",
        "plain:hard,plain:easy",
        "--games",
        str(games),
        "--seed",
        "1",
        "--plot",
        str(out / "speed_simulation.png"),
    ],
    standalone_mode=False,
)
print("wrote", out / "speed_simulation.png")
