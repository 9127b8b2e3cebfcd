"""Fixtures of the Python benchmarks: sizes and the generated CLI input file.

Run for real (release build)::

    maturin develop --release
    pytest benches/python --benchmark-enable --benchmark-json=/tmp/bench.json
    python benches/python/ratios.py /tmp/bench.json

With ``--benchmark-disable`` (the default in pyproject) every bench runs once
as a smoke test, on smaller inputs.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import cardtable

CLI_LINES_ENV = "CARDTABLE_BENCH_LINES"
CLI_LINES_BENCHMARK = 1_000_000
CLI_LINES_SMOKE = 20_000
CLI_SEED = 20_240_601
CARD_TEXT = [str(cardtable.Card.from_code(c)) for c in range(53)]


def benchmarks_enabled(config: pytest.Config) -> bool:
    """Mirrors pytest-benchmark: --benchmark-enable overrides --benchmark-disable."""
    return not (config.getoption("benchmark_disable") and not config.getoption("benchmark_enable"))


@pytest.fixture(scope="session")
def bench_enabled(request: pytest.FixtureRequest) -> bool:
    return benchmarks_enabled(request.config)


@pytest.fixture(scope="session")
def cli_lines(bench_enabled: bool) -> int:
    """Lines of the CLI input: $CARDTABLE_BENCH_LINES, else 1,000,000 when
    benchmarking and 20,000 for a smoke run."""
    env = os.environ.get(CLI_LINES_ENV)
    if env:
        return int(env.replace("_", ""))
    return CLI_LINES_BENCHMARK if bench_enabled else CLI_LINES_SMOKE


def text_lines(codes: np.ndarray[tuple[int, int], np.dtype[np.uint8]]) -> bytes:
    """Hands as text, one per line ('4C QH 8D ...\\n'), built without a Python loop."""
    names = np.frombuffer("".join(CARD_TEXT).encode(), dtype=np.uint8).reshape(53, 2)
    n, size = codes.shape
    out = np.full((n, size, 3), ord(" "), dtype=np.uint8)
    out[:, :, :2] = names[codes]
    out[:, -1, 2] = ord("\n")
    return out.tobytes()


@pytest.fixture(scope="session")
def cli_input(
    tmp_path_factory: pytest.TempPathFactory, cli_lines: int
) -> tuple[Path, np.ndarray[tuple[int], np.dtype[np.int64]]]:
    """A file of random 10-card gin hands and the deadwood of each line.

    The expected deadwoods come from ``min_deadwood_many`` on the same codes;
    the bench checks every record of the CLI output against them.
    """
    rng = np.random.default_rng(CLI_SEED)
    decks = np.tile(np.arange(52, dtype=np.uint8), (cli_lines, 1))
    codes = rng.permuted(decks, axis=1)[:, :10]
    path = tmp_path_factory.mktemp("cli") / "hands.txt"
    path.write_bytes(text_lines(codes))
    batch = cardtable.min_deadwood_many(codes, rules=cardtable.meld_rules("gin"))
    expected = np.array(batch.deadwoods, dtype=np.int64)
    return path, expected
