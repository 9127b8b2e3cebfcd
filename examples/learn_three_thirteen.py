"""Three Thirteen for learning code: a Gymnasium learner seat against a bot,
the vectorised environment against bots, and a plot. Trains nothing.

    python examples/learn_three_thirteen.py [OUT_DIR] [--quick]

1. ``gymnasium.make("cardtable/ThreeThirteen-v0")``: seat 1 against the
   greedy bot, taking the first legal action; rewards arrive once per round
   (each round's points, zero-sum) and add up to the game's returns.
2. 256 games at a time in Rust, a random learner against the greedy bot:
   rewards per round, averaged over the games that ended.
3. ``cardtable simulate three-thirteen --plot``: strong against greedy.
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
env = gymnasium.make("cardtable/ThreeThirteen-v0", opponents=["greedy"], seat=1)
obs, info = env.reset(seed=3)
rounds, total, done = 0, 0.0, False
while not done:
    action = int(np.flatnonzero(obs["action_mask"])[0])
    obs, reward, terminated, truncated, info = env.step(action)
    rounds += reward != 0
    total += float(reward)
    done = terminated or truncated
print(f"one game against greedy: {total:+.0f} over {rounds} scored rounds")

# 2. Many games at once, the learner at seat 0 against greedy.
rows, steps = (32, 100) if quick else (256, 2000)
vec = cardtable.envs.VectorEnv("three_thirteen", rows, opponents=["greedy"], seed=5, copy=False)
obs, info = vec.reset()
returns = np.zeros(rows)
finished = []
for _ in range(steps):
    picks = (rng.random(rows) * info["legal_counts"]).astype(np.intp)
    obs, reward, terminated, truncated, info = vec.step(
        info["legal_actions"][np.arange(rows), picks]
    )
    returns += reward
    for i in np.flatnonzero(terminated):
        finished.append(returns[i])
        returns[i] = 0.0
if finished:
    print(
        f"random against greedy: {len(finished)} games ended, mean return {np.mean(finished):+.1f}"
    )
else:
    print(f"random against greedy: no game ended in {steps} steps (a game is 11 rounds)")

# 3. A plot of a simulation.
games = 20 if quick else 400
cli.main(
    [
        "simulate",
        "three-thirteen",
        "--bots",
        "strong:8,greedy",
        "--games",
        str(games),
        "--seed",
        "1",
        "--plot",
        str(out / "three_thirteen_simulation.svg"),
    ],
    standalone_mode=False,
)
print("wrote", out / "three_thirteen_simulation.svg")
