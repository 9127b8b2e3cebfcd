"""pytest-benchmark bench of Three Thirteen through the Python API.

``three-thirteen-simulate``: ``Simulation`` with two greedy bots on all
cores, full 11-round games: the workload of ``cardtable simulate
three-thirteen`` (target: 1,000 games/s on 2 cores).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from cardtable.games import Simulation, Summary
from cardtable.games.three_thirteen import ThreeThirteenGame

GAME = ThreeThirteenGame()
SIMULATED_GAMES = 4_000


@pytest.mark.benchmark(group="three-thirteen-simulate")
def test_three_thirteen_simulate_greedy_vs_greedy(benchmark: BenchmarkFixture) -> None:
    enabled = not benchmark.disabled
    games = SIMULATED_GAMES if enabled else 40

    def run() -> Summary:
        sim = Simulation(GAME, ["greedy", "greedy"], games, 42)
        while sim.done < sim.total:
            sim.step(1_000)
        return sim.summary()

    benchmark.extra_info["games_per_round"] = games
    pedantic: Callable[..., dict[str, object]] = benchmark.pedantic  # untyped upstream
    summary = pedantic(run, rounds=3 if enabled else 1, iterations=1)
    assert summary["games"] == games
