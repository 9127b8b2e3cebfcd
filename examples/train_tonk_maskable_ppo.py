"""Trains MaskablePPO (sb3-contrib) on two-player Tonk against the random bot,
with no glue: the Rust vector environment is an SB3 ``VecEnv`` whose
``action_masks`` MaskablePPO reads. Then measures the policy against the
random and the greedy bot, every dealt hand counted (also those the deal
settles before the learner decides), with 95% confidence intervals.

    python examples/train_tonk_maskable_ppo.py [--quick] [--timesteps N] [--hands N] [--seed S]

Needs the ``sb3`` extra: ``pip install 'cardtable[sb3]'``. The default
budget (300,000 learner decisions) takes a few minutes on two cores;
``--quick`` (4,096 decisions, 300 hands) checks that it all runs.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import VecMonitor

from cardtable.envs import SingleAgentEnv
from cardtable.envs.sb3 import SB3VecEnv


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def evaluate(policy: MaskablePPO | None, opponent: str, hands: int, seed: int) -> dict[str, float]:
    """``hands`` dealt hands of the policy (None: a uniform random legal
    action) against ``opponent``: win rate with its interval, and the mean
    stake per hand with its normal interval."""
    env = SingleAgentEnv("tonk", opponents=opponent, count_undecided=False)
    rng = np.random.default_rng(seed)
    returns: list[float] = []
    wins = 0
    obs, info = env.reset(seed=seed)
    while len(returns) < hands:
        # Hands the deal settled before the learner's first decision count too.
        returns += info["undecided_returns"]
        wins += info["undecided_wins"]
        if len(returns) >= hands:
            break
        total, done = 0.0, False
        while not done:
            mask = env.action_masks()
            if policy is None:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                action = int(policy.predict(obs, action_masks=mask, deterministic=True)[0])
            obs, reward, terminated, truncated, _ = env.step(action)
            total += reward
            done = terminated or truncated
        wins += env.engine_state.won(0)
        returns.append(total)
        obs, info = env.reset()
    mean = float(np.mean(returns))
    half = 1.96 * float(np.std(returns, ddof=1)) / math.sqrt(len(returns))
    low, high = wilson(wins, len(returns))
    return {
        "hands": len(returns),
        "win": wins / len(returns),
        "win_low": low,
        "win_high": high,
        "stake": mean,
        "stake_half": half,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tiny budget: checks that it runs")
    parser.add_argument("--timesteps", type=int, help="learner decisions to train on")
    parser.add_argument("--hands", type=int, help="hands to evaluate against each bot")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    timesteps = args.timesteps or (4_096 if args.quick else 300_000)
    hands = args.hands or (300 if args.quick else 4_000)

    env = VecMonitor(SB3VecEnv("tonk", num_envs=64, opponents="random", seed=args.seed))
    model = MaskablePPO(
        "MultiInputPolicy",
        env,
        n_steps=64,
        batch_size=512,
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    start = time.perf_counter()
    model.learn(total_timesteps=timesteps)
    print(f"trained on {timesteps:,} decisions in {time.perf_counter() - start:.0f} s")

    print(f"{'player':<22} {'vs':<7} {'hands':>6}  {'win rate (95% CI)':<22} stake per hand")
    for name, policy in (("MaskablePPO", model), ("uniform random legal", None)):
        for opponent in ("random", "greedy"):
            r = evaluate(policy, opponent, hands, args.seed + 1)
            win = f"{100 * r['win']:5.1f}% [{100 * r['win_low']:.1f}, {100 * r['win_high']:.1f}]"
            stake = f"{r['stake']:+.3f} ± {r['stake_half']:.3f}"
            print(f"{name:<22} {opponent:<7} {r['hands']:>6}  {win:<22} {stake}")


if __name__ == "__main__":
    main()
