"""How long the card table takes to open (a benchmark, not a timed test).

Group ``table-open``: from ``cardtable play GAME`` on a pseudo-terminal
(80x24) until its first screen has been written (its keys line), a new
process each round, as a person meets it: Python, the package, Textual and
the first frame. The baseline is the same command in the stdin mode
(``--plain``, until its first prompt), which imports no Textual; both
with ``--delay 0`` (no pause before the bots' first moves).

Group ``table-mount``: in-process, headless, from making the app until its
table is drawn (imports done): what the table itself costs.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from cardtable.cli.app.settings import Opponent, Settings
from cardtable.cli.app.shell import CardTable

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")


def open_at_a_terminal(args: list[str], until: bytes, home: Path) -> float:
    """Seconds from starting ``cardtable play ARGS`` on an 80x24
    pseudo-terminal until ``until`` is on it; then the process is ended."""
    import pty

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TEXTUAL")}
    env.update({"TERM": "xterm-256color", "CARDTABLE_HISTORY": str(home / "h.sqlite3")})
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "cardtable", "play", *args],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        start_new_session=True,
    )
    os.close(slave)
    out = bytearray()
    try:
        while until not in out:
            assert time.perf_counter() - start < 60, bytes(out[-500:])
            ready, _, _ = select.select([master], [], [], 0.01)
            if ready:
                out.extend(os.read(master, 65536))
        return time.perf_counter() - start
    finally:
        process.kill()
        process.wait()
        os.close(master)


def delay(game: str) -> list[str]:
    """No pause between bot moves (a live game has none to set)."""
    return [] if game in ("spit", "speed") else ["--delay", "0"]


@pytest.mark.benchmark(group="table-open")
@pytest.mark.parametrize("game", ["tonk", "gin-rummy", "spit"])
def test_bench_play_opens_the_table(benchmark: BenchmarkFixture, game: str, tmp_path: Path) -> None:
    pedantic: Callable[..., object] = benchmark.pedantic  # untyped in pytest-benchmark
    pedantic(
        open_at_a_terminal,
        args=([game, "--seed", "1", *delay(game)], b"Esc quit", tmp_path),
        rounds=5,
        iterations=1,
    )


@pytest.mark.benchmark(group="table-open")
def test_bench_play_plain_baseline(benchmark: BenchmarkFixture, tmp_path: Path) -> None:
    pedantic: Callable[..., object] = benchmark.pedantic  # untyped in pytest-benchmark
    pedantic(
        open_at_a_terminal,
        # A named opponent: the ladder's normal level may drop before the
        # first prompt of this deal, and then no prompt comes.
        args=(
            ["tonk", "--seed", "1", "--delay", "0", "--plain", "--bots", "greedy"],
            b"Your choice",
            tmp_path,
        ),
        rounds=5,
        iterations=1,
    )


def mount(game: str, options: dict[str, object]) -> None:
    """Makes the app and runs it headless until its table is drawn."""
    settings = Settings(game, options, (Opponent("normal"),) * 3, 1, 0.0)

    async def run() -> None:
        app = CardTable(settings)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()

    asyncio.run(run())


@pytest.mark.benchmark(group="table-mount")
def test_bench_mount_the_turn_based_table(benchmark: BenchmarkFixture) -> None:
    pedantic: Callable[..., object] = benchmark.pedantic  # untyped in pytest-benchmark
    pedantic(mount, args=("tonk", {"players": 4}), rounds=10, iterations=1)
