"""The exit statuses and I/O failures every command shares (cardtable.cli.io)."""

from __future__ import annotations

import errno
import io
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from cardtable.cli import main
from cardtable.cli.io import (
    EXIT_BROKEN_PIPE,
    EXIT_INTERRUPTED,
    EXIT_IO,
    Output,
    StreamError,
    guarded,
)
from cardtable.games.tonk import TonkGame, simulate

HAS_DEV_FULL = Path("/dev/full").exists()


def _command(failure: BaseException, sink: io.BytesIO) -> click.Command:
    @click.command()
    @guarded("test")
    def cmd() -> None:
        out = Output(sink, "sink", close=False)
        ctx = click.get_current_context()
        ctx.meta.setdefault("cardtable.outputs", []).append(out)
        out.write(b"record 1\nrecord 2 half")
        raise failure

    return cmd


@pytest.mark.parametrize(
    ("failure", "status", "stderr"),
    [
        (KeyboardInterrupt(), EXIT_INTERRUPTED, ""),
        (BrokenPipeError(errno.EPIPE, "Broken pipe"), EXIT_BROKEN_PIPE, ""),
        (
            StreamError("cannot write 'x'", OSError(errno.EPIPE, "Broken pipe")),
            EXIT_BROKEN_PIPE,
            "",
        ),
        (
            StreamError("cannot write 'x'", OSError(errno.ENOSPC, "No space left on device")),
            EXIT_IO,
            "cardtable test: cannot write 'x': No space left on device\n",
        ),
        (
            OSError(errno.EIO, "Input/output error"),
            EXIT_IO,
            "cardtable test: cannot write standard output: Input/output error\n",
        ),
    ],
)
def test_guarded_statuses(failure: BaseException, status: int, stderr: str) -> None:
    sink = io.BytesIO()
    result = CliRunner().invoke(_command(failure, sink), [])
    assert result.exit_code == status
    assert result.stderr == stderr
    if status == EXIT_INTERRUPTED:
        # What was written is kept, and ends on a whole line.
        assert sink.getvalue() == b"record 1\nrecord 2 half\n"


@pytest.mark.parametrize(
    "command",
    [["score"], ["deal"], ["replay"], ["simulate", "tonk"]],
)
def test_every_help_lists_the_exit_statuses(command: list[str]) -> None:
    text = " ".join(CliRunner().invoke(main, [*command, "--help"]).output.split())
    assert "Exit status: 0 all good; 1 some lines or records rejected; 2 usage error" in text
    assert "3 write or read failure" in text
    assert "130 interrupted; 141 broken pipe" in text


def _to_dev_full(args: list[str], stdout_full: bool) -> subprocess.CompletedProcess[bytes]:
    with open("/dev/full", "wb") as full:
        return subprocess.run(
            [sys.executable, "-m", "cardtable", *args],
            stdout=full if stdout_full else subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            check=False,
        )


@pytest.mark.skipif(not HAS_DEV_FULL, reason="needs /dev/full")
def test_deal_and_replay_write_errors_are_status_3(tmp_path: Path) -> None:
    records: list[str] = []
    simulate(TonkGame(), ["greedy", "random"], 4, 3, on_records=records.extend)
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(records) + "\n")
    for args in (
        ["deal", "--seed", "1"],
        ["replay", str(path)],
        ["replay", str(path), "--show", "1"],
    ):
        proc = _to_dev_full(args, stdout_full=True)
        assert proc.returncode == EXIT_IO, (args, proc.stderr)
        lines = proc.stderr.decode().splitlines()
        assert lines == [
            f"cardtable {args[0]}: cannot write standard output: No space left on device"
        ], args


@pytest.mark.skipif(not HAS_DEV_FULL, reason="needs /dev/full")
def test_simulate_record_write_error_is_status_3() -> None:
    proc = _to_dev_full(
        ["simulate", "tonk", "--bots", "greedy,greedy", "--games", "200", "--record", "/dev/full"],
        stdout_full=False,
    )
    assert proc.returncode == EXIT_IO, proc.stderr
    assert proc.stderr.decode().splitlines() == [
        "cardtable simulate: cannot write '/dev/full': No space left on device"
    ]


def test_simulate_record_that_cannot_be_opened_is_a_usage_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main,
        ["simulate", "tonk", "--bots", "greedy,greedy", "--record", str(tmp_path / "no/x.jsonl")],
    )
    assert result.exit_code == 2
    assert "cannot open" in result.output


@pytest.mark.parametrize("threads", ["0", "257", "200000"])
def test_simulate_threads_are_capped(threads: str) -> None:
    result = CliRunner().invoke(
        main, ["simulate", "tonk", "--bots", "greedy,greedy", "--threads", threads]
    )
    assert result.exit_code == 2
    assert "1<=x<=256" in result.output


def test_a_short_write_is_completed() -> None:
    """A raw stream (python -u) may take part of a write: the rest follows."""

    class Trickle(io.RawIOBase):
        def __init__(self) -> None:
            self.data = bytearray()

        def writable(self) -> bool:
            return True

        def write(self, b: Any) -> int:
            self.data += bytes(b[:3])
            return min(3, len(b))

    sink = Trickle()
    out = Output(sink, "sink", close=False)  # type: ignore[arg-type]
    out.write(b"record 1\nrecord 2\n")
    assert bytes(sink.data) == b"record 1\nrecord 2\n"
    out.end_line()
    assert bytes(sink.data) == b"record 1\nrecord 2\n"  # it ended on a whole line
    out.write(b"half")
    out.end_line()
    assert bytes(sink.data).endswith(b"record 2\nhalf\n")
