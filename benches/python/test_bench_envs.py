"""pytest-benchmark benches of the learning environments against RLCard and
OpenSpiel, in the same run.

Groups (steps per second = ``steps_per_round`` / mean):

* ``env-tonk``: two-player Tonk self-play through ``cardtable._core.VectorEnv``
  (1,024 rows, every seat's action chosen by the caller: a uniformly random
  legal action per row drawn with numpy from the legal lists; observations
  and masks written every step). Target: 1,000,000 steps/s on 2 cores.
* ``env-three-thirteen``: the same for Three Thirteen. Target: 200,000.
* Both groups hold the baselines: OpenSpiel's ``gin_rummy`` driven from
  Python (random legal action, observation tensor and legal-action mask read
  every step; chance moves not counted) and RLCard's ``gin-rummy`` (random
  legal action; its step builds the observation). The nearest peers: neither
  has Tonk or Three Thirteen.

Baselines skip when their package is missing (``make bench-python`` installs
them).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from cardtable import _core

ROWS = 1024
BASELINE_STEPS = 20_000


def vector_steps(name: str, steps: int) -> Callable[[], int]:
    """A run of `steps` vector steps of `ROWS` rows, from a fresh reset each round."""
    env = _core.VectorEnv(_core.load_game(name), ROWS, seed=1)
    rows = np.arange(ROWS)
    rng = np.random.default_rng(0)
    legal, counts = env.legal_actions, env.legal_counts

    def run() -> int:
        env.reset()
        for _ in range(steps):
            picks = (rng.random(ROWS) * counts).astype(np.intp)
            env.step(legal[rows, picks])
        return ROWS * steps

    return run


def pedantic(benchmark: BenchmarkFixture, run: Callable[[], int], rounds: int) -> int:
    call: Callable[..., int] = benchmark.pedantic  # untyped upstream
    return call(run, rounds=rounds if not benchmark.disabled else 1, iterations=1)


@pytest.mark.parametrize(
    ("group", "name", "steps"),
    [("env-tonk", "tonk", 100), ("env-three-thirteen", "three_thirteen", 60)],
)
def test_env_cardtable_vector_self_play(
    benchmark: BenchmarkFixture, group: str, name: str, steps: int
) -> None:
    benchmark.group = group
    steps = steps if not benchmark.disabled else 2
    benchmark.extra_info["steps_per_round"] = ROWS * steps
    assert pedantic(benchmark, vector_steps(name, steps), rounds=10) == ROWS * steps


def openspiel_gin_rummy(steps: int) -> Callable[[], int]:
    pyspiel: Any = pytest.importorskip(
        "pyspiel", reason="OpenSpiel baseline: pip install open_spiel"
    )
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(0)

    def run() -> int:
        state = game.new_initial_state()
        done = 0
        while done < steps:
            if state.is_terminal():
                state = game.new_initial_state()
            elif state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                player = state.current_player()
                state.observation_tensor(player)
                state.legal_actions_mask(player)
                state.apply_action(rng.choice(state.legal_actions()))
                done += 1
        return done

    return run


def rlcard_gin_rummy(steps: int) -> Callable[[], int]:
    rlcard: Any = pytest.importorskip("rlcard", reason="RLCard baseline: pip install rlcard")
    env = rlcard.make("gin-rummy", config={"seed": 0})
    rng = random.Random(0)

    def run() -> int:
        state, _ = env.reset()
        for _ in range(steps):
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            if env.is_over():
                state, _ = env.reset()
        return steps

    return run


@pytest.mark.parametrize("group", ["env-tonk", "env-three-thirteen"])
def test_env_gin_rummy_openspiel(benchmark: BenchmarkFixture, group: str) -> None:
    benchmark.group = group
    steps = BASELINE_STEPS if not benchmark.disabled else 200
    benchmark.extra_info["steps_per_round"] = steps
    assert pedantic(benchmark, openspiel_gin_rummy(steps), rounds=3) == steps


@pytest.mark.parametrize("group", ["env-tonk", "env-three-thirteen"])
def test_env_gin_rummy_rlcard(benchmark: BenchmarkFixture, group: str) -> None:
    benchmark.group = group
    steps = BASELINE_STEPS // 2 if not benchmark.disabled else 100
    benchmark.extra_info["steps_per_round"] = steps
    assert pedantic(benchmark, rlcard_gin_rummy(steps), rounds=3) == steps
