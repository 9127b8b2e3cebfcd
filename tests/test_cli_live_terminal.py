"""``cardtable play spit|speed`` as a person at a terminal meets it: a real
process under a pseudo-terminal, keys written to it and signals sent to it;
what it leaves on the terminal and its exit status. (The screen itself is
driven headless in ``test_cli_live.py``.)"""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cardtable.cli import main
from cardtable.cli.io import EXIT_INTERRUPTED
from cardtable.games import replay_record

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")

SIGINT = "SIGINT"


def play_at_a_terminal(
    args: list[str],
    keys: list[bytes | str | float],
    env: dict[str, str] | None = None,
    wait_for: bytes = b"Esc quit",
) -> tuple[int, bytes]:
    """Runs ``cardtable play ARGS`` on a 100x30 pseudo-terminal, waits for the
    screen (``wait_for``: the keys line), writes each of ``keys`` (sends
    SIGINT for ``SIGINT``, waits that many seconds for a number) and returns
    the exit status and everything written to the terminal."""
    import fcntl
    import pty
    import struct
    import termios

    environ = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TEXTUAL")}
    environ.update({"TERM": "xterm-256color", **(env or {})})
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    process = subprocess.Popen(
        [sys.executable, "-m", "cardtable", "play", *args],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=environ,
        start_new_session=True,
    )
    os.close(slave)
    out = bytearray()

    def read(until: Any, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end and not until():
            ready, _, _ = select.select([master], [], [], 0.05)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # the process has gone and closed its side
                    return
                if not chunk:
                    return
                out.extend(chunk)

    try:
        read(lambda: wait_for in out, 30)
        assert wait_for in out, bytes(out[-2000:])
        read(lambda: False, 0.3)  # the screen is up and reading keys
        for key in keys:
            if key == SIGINT:
                process.send_signal(signal.SIGINT)
            elif isinstance(key, float):
                read(lambda: False, key)
            else:
                assert isinstance(key, bytes)
                os.write(master, key)
            read(lambda: False, 0.2)
        read(lambda: process.poll() is not None, 30)
        read(lambda: False, 0.3)  # what it wrote last
        status = process.wait(10)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(master)
    return status, bytes(out)


def after_the_screen(out: bytes) -> list[str]:
    """The lines written after the screen closed (the alternate screen left)."""
    tail = out.rsplit(b"\x1b[?1049l", 1)[-1]
    text = re.sub(r"\x1b\[[0-9;?<>=]*[A-Za-z]", "", tail.decode("utf-8", "replace"))
    return [line.strip("\r") for line in text.splitlines() if line.strip()]


CTRL_C = b"\x03"
ESC = b"\x1b"


@pytest.mark.parametrize(
    ("game", "key"),
    [("spit", CTRL_C), ("spit", SIGINT), ("speed", CTRL_C), ("speed", SIGINT)],
)
def test_ctrl_c_and_a_sigint_exit_130_after_the_standings_keeping_the_record(
    tmp_path: Path, game: str, key: bytes | str
) -> None:
    record = tmp_path / "games.jsonl"
    status, out = play_at_a_terminal(
        [game, "--seed", "3", "--bot", "plain:easy", "--record", str(record)], [b"q", key]
    )
    lines = after_the_screen(out)
    assert status == EXIT_INTERRUPTED, lines
    unit = "game" if game == "spit" else "deal"
    assert lines == [
        f"{game.capitalize()}: you against Player 1 (plain:easy); seed 3",
        f"Standings after 0 {unit}s (the unfinished {unit} does not count):",
        f"  seat 0  you                    0 {unit}s won",
        f"  seat 1  Player 1 (plain:easy)  0 {unit}s won",
        "Interrupted.",
    ]
    (line,) = record.read_text().splitlines()
    assert json.loads(line)["seed"] == 3
    replay_record(line)


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_escape_quits_with_status_0_after_the_standings(game: str) -> None:
    status, out = play_at_a_terminal([game, "--seed", "3"], [ESC, b"y"])
    lines = after_the_screen(out)
    assert status == 0, lines
    assert lines[0] == f"{game.capitalize()}: you against Player 1 (normal); seed 3"
    assert lines[1].startswith("Standings after 0 ")
    assert lines[-1] == "Bye."
    assert len(lines) == 5  # the standings once


@pytest.mark.parametrize(
    ("game", "standings"),
    [
        (
            "spit",
            [
                "Game over: nobody wins (time limit).",
                "Standings after 0 games (the unfinished game does not count):",
            ],
        ),
        ("speed", ["Game over: the bot wins (time limit).", "Standings after 1 deal:"]),
    ],
)
def test_once_the_game_is_over_q_quits_with_the_result_and_the_standings_once(
    game: str, standings: list[str]
) -> None:
    # The game ends by its time limit 2 s in; then q quits (it plays a card
    # while the game goes on).
    args = [game, "--seed", "3", "--bot", "plain:instant", "--max-virtual-ms", "2000"]
    status, out = play_at_a_terminal(args, [3.0, b"q"])
    lines = after_the_screen(out)
    assert status == 0, lines
    assert lines[1:3] == standings
    assert lines[-1] == "Bye."
    assert sum(line.startswith("Standings after") for line in lines) == 1


# SGR parameters that choose a colour: 30-38, 40-48, 90-97, 100-107 (38 and
# 48 with a 256-colour or RGB value); 39 and 49 (the terminal's own) are not.
COLOUR_PARAMETERS = {*range(30, 39), *range(40, 49), *range(90, 98), *range(100, 108)}


def colour_codes(out: bytes) -> list[bytes]:
    found = []
    for match in re.finditer(rb"\x1b\[([0-9;:]*)m", out):
        numbers = [int(p) for p in re.split(rb"[;:]", match.group(1)) if p]
        if numbers and (numbers[0] in COLOUR_PARAMETERS or any(n in (38, 48) for n in numbers)):
            found.append(match.group(0))
    return found


@pytest.mark.parametrize(
    ("args", "env"),
    [([], {"NO_COLOR": "1"}), ([], {"TERM": "dumb"}), (["--no-color"], {})],
    ids=["NO_COLOR", "TERM=dumb", "--no-color"],
)
def test_no_color_term_dumb_and_the_flag_write_no_colour_codes(
    args: list[str], env: dict[str, str]
) -> None:
    status, out = play_at_a_terminal(["spit", "--seed", "3", *args], [ESC, b"y"], env)
    assert status == 0
    assert b"\x1b[1m" in out or b";1m" in out or b"\x1b[1;" in out  # bold is kept
    assert colour_codes(out) == []


def test_the_screen_is_in_colour_otherwise() -> None:
    status, out = play_at_a_terminal(["spit", "--seed", "3"], [ESC, b"y"])
    assert status == 0
    assert colour_codes(out)


def test_play_prints_the_standings_however_the_screen_closes(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from cardtable.cli import play
    from cardtable.cli.app.shell import CardTable

    def interrupted(app: CardTable) -> None:
        app.interrupted = True

    def sigint_before_the_screen(app: CardTable) -> None:
        raise KeyboardInterrupt

    def quit_(app: CardTable) -> None:
        pass

    monkeypatch.setattr(play, "at_a_terminal", lambda: True)
    runner = CliRunner()
    for run, status, last in (
        (interrupted, EXIT_INTERRUPTED, "Interrupted."),
        (sigint_before_the_screen, EXIT_INTERRUPTED, "Interrupted."),
        (quit_, 0, "Bye."),
    ):
        monkeypatch.setattr(CardTable, "run", run)
        record = tmp_path / f"{run.__name__}.jsonl"
        result = runner.invoke(
            main, ["play", "speed", "--seed", "4", "--bot", "plain:easy", "--record", str(record)]
        )
        assert result.exit_code == status, result.output
        assert result.output.splitlines() == [
            "Speed: you against Player 1 (plain:easy); seed 4",
            "Standings after 0 deals (the unfinished deal does not count):",
            "  seat 0  you                    0 deals won",
            "  seat 1  Player 1 (plain:easy)  0 deals won",
            last,
        ]
        assert len(record.read_text().splitlines()) == 1
