"""pytest-benchmark benches of the learning environments against RLCard and
OpenSpiel, in the same run.

Groups (steps per second = ``steps_per_round`` / mean):

* ``env-tonk``: two-player Tonk self-play through ``cardtable._core.VectorEnv``
  (1,024 rows, every seat's action chosen by the caller: a uniformly random
  legal action per row drawn with numpy from the legal lists; observations
  and masks written every step), over whole games: the rows first play
  long enough that their games are spread over every round (Three
  Thirteen's late 13-card rounds included), then the steps are timed.
  Target: 2,000,000 steps/s on 2 cores.
* ``env-three-thirteen``: the same for Three Thirteen. Target: 1,000,000.
* ``env-gymnasium-wrapper``: the same Tonk run (the learner against the
  random bot) through ``cardtable.envs.VectorEnv`` with ``copy=False`` and
  the raw Rust env side by side: the wrapper's cost (Gymnasium's tuple, the
  final observations of finished games) is their ratio. Target: 10%.
* ``env-single-gin-rummy``: one game at a time, gin rummy: the Gymnasium
  environment (``gymnasium.make("cardtable/GinRummy-v0")``, the learner
  against the random bot, a step being its decision and the bot's replies)
  and the PettingZoo AEC environment (self-play, ``agent_iter``/``last``/
  ``step``), each choosing a random legal action from the mask, against
  OpenSpiel's ``gin_rummy`` driven from Python (the baseline below) and a
  one-row raw ``VectorEnv``. Target: 10x OpenSpiel.
* The ``env-tonk`` and ``env-three-thirteen`` groups hold the baselines:
  OpenSpiel's ``gin_rummy`` driven from Python (random legal action,
  observation tensor and legal-action mask read every step; chance moves
  not counted) and RLCard's ``gin-rummy`` (random legal action; its step
  builds the observation). The nearest peers: neither has Tonk or Three
  Thirteen.

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


#: Steps after which every row has played more than a whole game of random
#: self-play (Three Thirteen: about 7,000 decisions, at most about 9,000).
WHOLE_GAMES_WARM_UP = {"tonk": 1_000, "three_thirteen": 12_000}


def vector_steps(name: str, steps: int, warm_up: int) -> Callable[[], int]:
    """A run of `steps` vector steps of `ROWS` rows, after `warm_up` steps
    played once (the rows' games then spread over all their rounds)."""
    env = _core.VectorEnv(_core.load_game(name), ROWS, seed=1, max_episode_steps=None)
    rows = np.arange(ROWS)
    rng = np.random.default_rng(0)
    legal, counts = env.legal_actions, env.legal_counts

    def play(n: int) -> int:
        for _ in range(n):
            picks = (rng.random(ROWS) * counts).astype(np.intp)
            env.step(legal[rows, picks])
        return ROWS * n

    env.reset()
    play(warm_up)
    return lambda: play(steps)


def pedantic(benchmark: BenchmarkFixture, run: Callable[[], int], rounds: int) -> int:
    call: Callable[..., int] = benchmark.pedantic  # untyped upstream
    return call(run, rounds=rounds if not benchmark.disabled else 1, iterations=1)


@pytest.mark.parametrize(
    ("group", "name", "steps"),
    [("env-tonk", "tonk", 100), ("env-three-thirteen", "three_thirteen", 60)],
)
def test_env_cardtable_vector_self_play_whole_games(
    benchmark: BenchmarkFixture, group: str, name: str, steps: int
) -> None:
    benchmark.group = group
    steps = steps if not benchmark.disabled else 2
    warm_up = WHOLE_GAMES_WARM_UP[name] if not benchmark.disabled else 2
    benchmark.extra_info["steps_per_round"] = ROWS * steps
    run = vector_steps(name, steps, warm_up)
    assert pedantic(benchmark, run, rounds=10) == ROWS * steps


def learner_steps(wrapped: bool, steps: int) -> Callable[[], int]:
    """Tonk, the learner against random: `steps` steps of the raw Rust env
    or of the Gymnasium wrapper (copy=False) over it."""
    from cardtable.envs import VectorEnv

    rng = np.random.default_rng(0)
    rows = np.arange(ROWS)
    step: Callable[[Any], object]
    if wrapped:
        env = VectorEnv("tonk", ROWS, opponents=["random"], seed=1, copy=False)
        env.reset(seed=1)
        core, step = env.core, env.step
    else:
        core = _core.VectorEnv(_core.load_game("tonk"), ROWS, 1, [None, "random"])
        core.reset()
        step = core.step

    def run() -> int:
        for _ in range(steps):
            picks = (rng.random(ROWS) * core.legal_counts).astype(np.intp)
            step(core.legal_actions[rows, picks])
        return ROWS * steps

    return run


@pytest.mark.parametrize("wrapped", [False, True], ids=["raw", "gymnasium"])
def test_env_gymnasium_wrapper_overhead(benchmark: BenchmarkFixture, wrapped: bool) -> None:
    pytest.importorskip("gymnasium")
    benchmark.group = "env-gymnasium-wrapper"
    steps = 200 if not benchmark.disabled else 2
    benchmark.extra_info["steps_per_round"] = ROWS * steps
    assert pedantic(benchmark, learner_steps(wrapped, steps), rounds=5) == ROWS * steps


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


SINGLE_STEPS = 5_000


def gymnasium_gin_rummy(steps: int) -> Callable[[], int]:
    """The Gymnasium environment, one learner step at a time."""
    gymnasium = pytest.importorskip("gymnasium")
    import cardtable.envs

    env = gymnasium.make(cardtable.envs.gin_rummy_v0.gym_id, opponents="random")
    legal_actions = env.unwrapped.legal_actions  # the mask's ids as a list
    rng = random.Random(0)
    env.reset(seed=0)

    def run() -> int:
        for _ in range(steps):
            legal = legal_actions()
            _, _, terminated, truncated, _ = env.step(rng.choice(legal))
            if terminated or truncated:
                env.reset()
        return steps

    return run


def aec_gin_rummy(steps: int) -> Callable[[], int]:
    """The PettingZoo AEC environment in self-play, one decision at a time."""
    pytest.importorskip("pettingzoo")
    from cardtable.envs import TurnBasedEnv

    env = TurnBasedEnv("gin_rummy")
    rng = random.Random(0)
    env.reset(seed=0)

    def run() -> int:
        done = 0
        while done < steps:
            _, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.reset()
                continue
            env.step(rng.choice(env.engine_state.legal_actions()))
            done += 1
        return done

    return run


def raw_one_row_gin_rummy(steps: int) -> Callable[[], int]:
    """A one-row ``VectorEnv``, the learner against random: the engine's
    work of a step with no Gymnasium around it."""
    env = _core.VectorEnv(_core.load_game("gin_rummy"), 1, 0, [None, "random"])
    env.reset()
    rng = random.Random(0)
    legal, counts = env.legal_actions, env.legal_counts

    def run() -> int:
        for _ in range(steps):
            env.step(legal[:, rng.randrange(int(counts[0]))])
        return steps

    return run


@pytest.mark.parametrize("kind", ["openspiel", "gymnasium", "pettingzoo-aec", "raw-one-row"])
def test_env_single_gin_rummy(benchmark: BenchmarkFixture, kind: str) -> None:
    benchmark.group = "env-single-gin-rummy"
    steps = SINGLE_STEPS if not benchmark.disabled else 50
    benchmark.extra_info["steps_per_round"] = steps
    make = {
        "openspiel": openspiel_gin_rummy,
        "gymnasium": gymnasium_gin_rummy,
        "pettingzoo-aec": aec_gin_rummy,
        "raw-one-row": raw_one_row_gin_rummy,
    }[kind]
    assert pedantic(benchmark, make(steps), rounds=5) == steps
