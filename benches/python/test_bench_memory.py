"""Peak memory of ``cardtable simulate`` as the games grow (group
``simulate-memory``): Tonk, greedy against greedy, 0.5M games (the
baseline) and 8M games, each in a process of its own whose peak resident
memory goes in ``extra_info`` (``peak_rss_mb``). A run keeps its totals
per deal as sums, so the 8M-game run should peak within 1.1x of the
0.5M-game run's. In a smoke run (``--benchmark-disable``) the runs are
4,000 and 64,000 games.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

GAMES = {"baseline-500k": 500_000, "8m": 8_000_000}
SMOKE_GAMES = {"baseline-500k": 4_000, "8m": 64_000}
PEAK_SCRIPT = (
    "import resource, subprocess, sys; "
    "code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode; "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024); "
    "sys.exit(code)"
)


@pytest.mark.parametrize("run_size", list(GAMES))
def test_simulate_peak_memory(
    benchmark: BenchmarkFixture, bench_enabled: bool, run_size: str
) -> None:
    games = (GAMES if bench_enabled else SMOKE_GAMES)[run_size]
    benchmark.group = "simulate-memory"
    command = [sys.executable, "-m", "cardtable", "simulate", "tonk", "--games", str(games)]
    command += ["--bots", "greedy,greedy", "--seed", "1", "--no-progress"]
    peaks: list[int] = []

    def run() -> int:
        done = subprocess.run(
            [sys.executable, "-c", PEAK_SCRIPT, *command],
            check=False,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        peaks.append(int(done.stdout.split()[-1]))
        return games

    pedantic: Callable[..., int] = benchmark.pedantic  # untyped in pytest-benchmark
    assert pedantic(run, rounds=1, iterations=1) == games
    benchmark.extra_info.update(games_per_round=games, peak_rss_mb=round(max(peaks) / 2**20, 1))
