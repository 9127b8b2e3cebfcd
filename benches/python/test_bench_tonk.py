"""pytest-benchmark benches of the Tonk engine through the Python API.

Groups:

* ``tonk-step``: driving hands from Python, one step = ``legal_actions()`` then
  ``apply_action()``; the baseline is the same number of bare PyO3 calls
  (``current_player()`` twice), so the ratio shows what a step costs beyond
  crossing into Rust.
* ``tonk-simulate``: ``Simulation`` with two greedy bots on all cores, the
  workload of ``cardtable simulate tonk`` (target: 100,000 games/s on 2 cores).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from cardtable.games import Simulation, Summary
from cardtable.games.tonk import TonkGame, TonkState

GAME = TonkGame()
STEP_HANDS = 200
SIMULATED_GAMES = 100_000


def _recorded_hands() -> list[tuple[int, list[int]]]:
    """Seeded hands with their random action choices, played once up front."""
    rng = random.Random(7)
    hands = []
    for seed in range(STEP_HANDS):
        state = GAME.new_initial_state(seed)
        picks = []
        while not state.is_terminal():
            legal = state.legal_actions()
            i = rng.randrange(len(legal))
            picks.append(i)
            state.apply_action(legal[i])
        hands.append((seed, picks))
    return hands


HANDS = _recorded_hands()
STEPS = sum(len(p) for _, p in HANDS)


def _drive() -> int:
    steps = 0
    for seed, picks in HANDS:
        state: TonkState = GAME.new_initial_state(seed)
        for i in picks:
            legal = state.legal_actions()
            state.apply_action(legal[i])
            steps += 1
        assert state.is_terminal()
    return steps


def _bare_calls() -> int:
    steps = 0
    for seed, picks in HANDS:
        state = GAME.new_initial_state(seed)
        for _ in picks:
            state.current_player()
            state.current_player()
            steps += 1
    return steps


@pytest.mark.benchmark(group="tonk-step")
def test_tonk_step_from_python(benchmark: BenchmarkFixture) -> None:
    benchmark.extra_info["steps_per_round"] = STEPS
    assert benchmark(_drive) == STEPS


@pytest.mark.benchmark(group="tonk-step")
def test_tonk_step_bare_pyo3_call_baseline(benchmark: BenchmarkFixture) -> None:
    benchmark.extra_info["steps_per_round"] = STEPS
    assert benchmark(_bare_calls) == STEPS


@pytest.mark.benchmark(group="tonk-simulate")
def test_tonk_simulate_greedy_vs_greedy(benchmark: BenchmarkFixture) -> None:
    enabled = not benchmark.disabled
    games = SIMULATED_GAMES if enabled else 2_000

    def run() -> Summary:
        sim = Simulation(GAME, ["greedy", "greedy"], games, 42)
        while sim.done < sim.total:
            sim.step(20_000)
        return sim.summary()

    benchmark.extra_info["games_per_round"] = games
    pedantic: Callable[..., dict[str, object]] = benchmark.pedantic  # untyped upstream
    summary = pedantic(run, rounds=3 if enabled else 1, iterations=1)
    assert summary["games"] == games
