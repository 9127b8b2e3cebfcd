"""Gin Rummy for learning code: a Gymnasium learner seat against a bot,
the vectorised environment against bots, and a plot. Trains nothing.

    python examples/learn_gin_rummy.py [OUT_DIR] [--quick]

1. ``gymnasium.make("cardtable/GinRummy-v0")``: seat 1 against the greedy
   bot, taking the first legal action; the reward arrives at the end (the
   returns are OpenSpiel's, zero-sum). Observations are OpenSpiel's 644 floats.
2. 256 games at a time in Rust, a random learner against the greedy bot.
3. ``cardtable simulate gin-rummy --plot``: greedy against random.
"""

import sys
from pathlib import Path

import gymnasium
import numpy as np

import cardtable.envs
from cardtable.cli import main as cli

out = Path(next((a for a in sys.argv[1:] if not a.startswith("--")), "."))
out.mkdir(parents=True, exist_ok=True)
quick = "--quick" in sys.argv
rng = np.random.default_rng(2)

# 1. One seat against a bot, Gymnasium style.
env = gymnasium.make("cardtable/GinRummy-v0", opponents=["greedy"], seat=1)
obs, info = env.reset(seed=3)
steps, total, done = 0, 0.0, False
while not done:
    action = int(np.flatnonzero(obs["action_mask"])[0])
    obs, reward, terminated, truncated, info = env.step(action)
    steps += 1
    total += float(reward)
    done = terminated or truncated
print(f"one game against greedy: {total:+.0f} after {steps} moves")

# 2. Many games at once, the learner at seat 0 against greedy.
rows, steps = (32, 200) if quick else (256, 4000)
vec = cardtable.envs.VectorEnv("gin_rummy", rows, opponents=["greedy"], seed=5, copy=False)
vec_obs, info = vec.reset()
returns = np.zeros(rows)
finished = []
for _ in range(steps):
    picks = (rng.random(rows) * info["legal_counts"]).astype(np.intp)
    vec_obs, rewards, ended, cut, info = vec.step(info["legal_actions"][np.arange(rows), picks])
    returns += rewards
    for i in np.flatnonzero(ended | cut):
        finished.append(returns[i])
        returns[i] = 0.0
if finished:
    print(
        f"random against greedy: {len(finished)} games ended, mean return {np.mean(finished):+.1f}"
    )
else:
    print(f"random against greedy: no game ended in {steps} steps")

# 3. A plot of a simulation.
games = 20 if quick else 400
cli.main(
    [
        "simulate",
        "gin-rummy",
        "--bots",
        "greedy,random",
        "--games",
        str(games),
        "--seed",
        "1",
        "--plot",
        str(out / "gin_rummy_simulation.svg"),
    ],
    standalone_mode=False,
)
print("wrote", out / "gin_rummy_simulation.svg")
