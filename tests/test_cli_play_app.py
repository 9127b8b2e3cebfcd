"""``cardtable play`` around the card table: levels and bots on the
command line, the history of the games finished through ``play`` in both
modes (and a database that cannot take them, which never stops a game),
and the paths without a terminal: the stdin mode for the turn-based games,
one line and exit 2 for the live ones."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardtable.cli import main
from cardtable.games import Bot, load_game
from cardtable.history import read_games

from . import test_games_gin_rummy as gin
from .app_harness import play_to_the_end, text_of, turn_app, turns
from .test_cli_live_terminal import after_the_screen, play_at_a_terminal


def history() -> Path:
    return Path(os.environ["CARDTABLE_HISTORY"])


def gin_inputs(seed: int) -> list[str]:
    """What a person types to play ``play gin-rummy --seed seed``'s first game
    as the greedy bot would, then "n" (no other game)."""
    _state, inputs = gin.expected_game(seed)
    return [*inputs, "n"]


def run(args: list[str], lines: list[str], **env: str) -> tuple[int, str, str]:
    """Exit status, everything written (stdout and stderr) and stderr alone."""
    result = CliRunner().invoke(main, args, input="\n".join(lines) + "\n", env=env)
    return result.exit_code, result.output, result.stderr


# --- levels ----------------------------------------------------------------------------


def test_level_seats_every_opponent_at_that_level_or_one_level_per_seat(tmp_path: Path) -> None:
    ladder = dict(load_game("tonk").bot_levels())
    record = tmp_path / "r.jsonl"
    args = ["play", "tonk", "--seed", "3", "--record", str(record), "--no-color"]
    code, out, _ = run([*args, "--players", "3", "--level", "hard"], ["q", "y"])
    assert code == 0, out
    hard = load_game("tonk").bot_levels()
    assert f"Player 1 ({dict(hard)['hard']})" in out
    code, out, _ = run([*args, "--level", "easy,hard"], ["q", "y"])
    assert code == 0, out
    players = [json.loads(line)["players"] for line in record.read_text().splitlines()]
    assert players[0][1:] == [ladder["hard"], ladder["hard"]]
    assert players[1][1:] == [ladder["easy"], ladder["hard"]]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--level", "hard", "--bots", "greedy"], "--bots and --level both choose"),
        (["--level", "grandmaster"], "'grandmaster' is not a level: choose from easy, normal"),
        (["--players", "3", "--level", "easy,hard,hard"], "--players 3 needs 2 opponents"),
    ],
)
def test_level_errors_are_usage_errors(args: list[str], message: str) -> None:
    code, out, _ = run(["play", "tonk", *args], [])
    assert code == 2
    assert message in out


# --- the history ---------------------------------------------------------------------------


def test_the_stdin_mode_keeps_each_finished_game_in_the_history() -> None:
    code, out, err = run(["play", "gin-rummy", "--seed", "21", "--no-color"], gin_inputs(21))
    assert code == 0, out
    assert err == ""  # stored: nothing to say
    (stored,) = read_games(history())
    state, _ = gin.expected_game(21)
    assert stored.game == "gin_rummy"
    assert stored.seats == ["you", Bot(load_game("gin_rummy"), "normal", 1).name]
    assert stored.levels == [None, "normal"]
    assert stored.returns == state.returns()
    assert stored.ending == state.ending_category
    assert stored.seed == 21


def test_no_history_and_its_variable_keep_nothing() -> None:
    args = ["play", "gin-rummy", "--seed", "21", "--no-color"]
    code, out, _ = run([*args, "--no-history"], gin_inputs(21))
    assert code == 0, out
    code, out, _ = run(args, gin_inputs(21), CARDTABLE_NO_HISTORY="1")
    assert code == 0, out
    assert read_games(history()) == []


@pytest.mark.parametrize("broken", ["corrupt", "directory"])
def test_a_failing_database_says_so_once_and_the_stdin_mode_plays_on(broken: str) -> None:
    path = history()
    if broken == "corrupt":
        path.write_bytes(b"this is not an SQLite database" * 100)
    else:
        path.mkdir()
    # Two games: the complaint comes once, and both games are played.
    inputs = gin_inputs(21)[:-1]
    code, out, err = run(
        ["play", "gin-rummy", "--seed", "21", "--no-color", "--plain"], [*inputs, "y", "q", "y"]
    )
    assert code == 0, out
    assert "=== Game 1 over: " in out
    assert "=== Game 2: " in out
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("game not saved in the history: ")
    assert str(path) in lines[0]


def test_a_failing_database_is_one_line_at_the_table_and_the_game_goes_on() -> None:
    history().write_bytes(b"this is not an SQLite database" * 100)
    app = turn_app("gin_rummy", 2, 11)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await play_to_the_end(pilot, app)
            message = text_of(app, "#message")
            assert message.startswith("game not saved in the history: "), message
            await pilot.press("enter")  # the next game
            board = turns(app)
            assert not board.over
            assert board.number == 2
            await pilot.press("ctrl+c")

    asyncio.run(play())


# --- without a terminal ------------------------------------------------------------------


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_a_live_game_without_a_terminal_refuses_in_one_line_with_exit_2(game: str) -> None:
    code, out, err = run(["play", game], [])
    assert code == 2
    assert out == err
    assert err.splitlines() == [
        f"cardtable play {game}: {game.capitalize()} is played live at a terminal, and"
        " standard input is not one (the turn-based games play from a pipe)"
    ]


def test_a_live_game_in_a_pipe_writes_no_escape_codes_and_ends() -> None:
    """``play spit < /dev/null | cat``: one line on stderr, nothing on the
    pipe, exit 2 (it used to draw the screen into the pipe and never end)."""
    with open(os.devnull) as nothing:
        done = subprocess.run(
            [sys.executable, "-m", "cardtable", "play", "spit"],
            stdin=nothing,
            capture_output=True,
            timeout=60,
            check=False,
        )
    assert done.returncode == 2
    assert done.stdout == b""
    assert b"\x1b" not in done.stderr
    assert len(done.stderr.splitlines()) == 1


# --- at a terminal -----------------------------------------------------------------------


def test_a_turn_based_game_at_a_terminal_opens_the_table_and_prints_the_standings() -> None:
    status, out = play_at_a_terminal(["gin-rummy", "--seed", "11"], [b"q"])
    lines = after_the_screen(out)
    assert status == 0, lines
    assert b"Your hand" in out
    assert lines[0] == "Gin Rummy: you against Player 1 (normal); seed 11"
    assert lines[1] == "Standings after 0 games:"
    assert lines[-1] == "Bye."


def test_plain_keeps_the_stdin_mode_at_a_terminal() -> None:
    status, out = play_at_a_terminal(
        ["gin-rummy", "--seed", "11", "--plain"], [b"q\n", b"y\n"], wait_for=b"Your move"
    )
    assert status == 0
    assert b"Your move:" in out or b"Your move" in out
    assert b"\x1b[?1049h" not in out  # no full screen
