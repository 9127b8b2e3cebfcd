"""``cardtable stats`` and ``cardtable history`` on a history in tmp_path
(``CARDTABLE_HISTORY``): tables, JSON, filters, ``--show`` told as
``replay --show`` tells it, and a history that cannot be read."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cardtable.cli import main
from cardtable.games import game_names
from cardtable.history import FinishedGame, read_games, record_game

from .test_history import finished_game


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "data" / "history.sqlite3"
    monkeypatch.setenv("CARDTABLE_HISTORY", str(path))
    return path


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def store(path: Path, games: Sequence[FinishedGame]) -> None:
    for g in games:
        assert record_game(g, path) is None


def tonk(won: bool, ret: int, at: float, level: str = "normal") -> FinishedGame:
    """A stored Tonk hand with the outcome given (the record is a real one)."""
    base = finished_game("tonk", 3, level)
    return replace(base, won=won, returns=[ret, -ret], started=at - 30, finished=at)


def rows(output: str) -> list[list[str]]:
    """The plain table's rows, cells split on runs of two or more spaces."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith(("game", "#")))
    return [re.split(r"\s{2,}", line.strip()) for line in lines[start:]]


# --- stats -----------------------------------------------------------------


def test_stats_with_no_history(db: Path) -> None:
    result = run("stats")
    assert result.exit_code == 0
    assert result.output == (
        f"no games yet in the history ({db}): 'cardtable play' adds every game played\n"
    )
    assert not db.exists()
    as_json = json.loads(run("stats", "--format", "json").output)
    assert as_json == {"path": str(db), "games": 0, "standings": []}


def test_stats_table_against_hand_counts(db: Path) -> None:
    """Tonk against normal: W W L W (returns +2 +1 -3 +1): 3 wins, +1
    stakes, best run 2, current run 1; against expert one loss; and a Three
    Thirteen game won."""
    store(
        db,
        [
            tonk(True, 2, 100),
            tonk(True, 1, 200),
            tonk(False, -3, 300),
            tonk(False, -4, 350, "expert"),
            tonk(True, 1, 400),
            replace(finished_game("three_thirteen", 2), won=True, returns=[17, -17], finished=500),
        ],
    )
    result = run("stats")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == f"6 games in the history ({db})"
    assert rows(result.output) == [
        ["game", "opponents", "games", "wins", "return", "best streak", "current streak"],
        ["tonk", "normal", "4", "3", "+1 stakes", "2", "1"],
        ["tonk", "expert", "1", "0", "-4 stakes", "0", "0"],
        ["three-thirteen", "normal", "1", "1", "+17 points", "1", "1"],
    ]
    data = json.loads(run("stats", "--format", "json").output)
    assert data["games"] == 6
    assert data["standings"][0] == {
        "game": "tonk",
        "opponents": ["normal"],
        "games": 4,
        "wins": 3,
        "return": 1,
        "unit": "stakes",
        "best_streak": 2,
        "current_streak": 1,
    }
    only = run("stats", "--game", "three-thirteen")
    assert rows(only.output)[1:] == [["three-thirteen", "normal", "1", "1", "+17 points", "1", "1"]]
    assert run("stats", "--game", "gin_rummy").output.startswith("no gin-rummy games yet")


def test_stats_orders_opponents_by_level(db: Path) -> None:
    store(
        db, [tonk(True, 1, 100, "expert"), tonk(True, 1, 200, "easy"), tonk(True, 1, 300, "hard")]
    )
    assert [r[1] for r in rows(run("stats").output)[1:]] == ["easy", "hard", "expert"]


def test_stats_unknown_game_is_a_usage_error(db: Path) -> None:
    result = run("stats", "--game", "poker")
    assert result.exit_code == 2
    assert "no game 'poker'" in result.output


@pytest.mark.parametrize("command", ["stats", "history"])
def test_an_unreadable_history_is_one_line_and_exit_2(db: Path, command: str) -> None:
    db.parent.mkdir(parents=True)
    db.write_bytes(b"not a database at all\n" * 100)
    result = run(command)
    assert result.exit_code == 2
    assert result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith(f"cardtable {command}: cannot read the history: ")
    assert "not a SQLite database" in line
    assert str(db) in line


# --- history ---------------------------------------------------------------


def test_history_lists_newest_first(db: Path) -> None:
    store(
        db,
        [
            tonk(True, 2, 1_700_000_000),
            replace(finished_game("gin_rummy", 4, "easy"), finished=1_700_000_100),
            tonk(False, -1, 1_700_000_200, "hard"),
        ],
    )
    result = run("history")
    assert result.exit_code == 0, result.output
    table = rows(result.output)
    assert table[0] == ["#", "date", "game", "opponents", "outcome", "ending", "return"]
    assert [r[0] for r in table[1:]] == ["3", "2", "1"]
    endings = {g.number: (g.ending or "").replace("_", " ") for g in read_games(db)}
    assert table[1][2:] == ["tonk", "hard", "lost", endings[3], "-1 stakes"]
    assert table[3][2:] == ["tonk", "normal", "won", endings[1], "+2 stakes"]
    gin = read_games(db, game="gin_rummy")[0]
    assert table[2][2:5] == ["gin-rummy", "easy", "won" if gin.won else "lost"]
    assert table[2][6] == f"{gin.returns[0]:+d} points"
    assert [r[0] for r in rows(run("history", "--limit", "2").output)[1:]] == ["3", "2"]
    assert [r[0] for r in rows(run("history", "--game", "tonk").output)[1:]] == ["3", "1"]
    data = json.loads(run("history", "--format", "json", "--limit", "1").output)
    [newest] = data["games"]
    assert newest["number"] == 3
    assert newest["levels"] == [None, "hard"]
    assert newest["returns"] == [-1, 1]


def test_history_limit_defaults_to_twenty_and_zero_lists_all(db: Path) -> None:
    store(db, [tonk(True, 1, 1000 + i) for i in range(25)])
    assert len(rows(run("history").output)) == 1 + 20
    assert len(rows(run("history", "--limit", "0").output)) == 1 + 25


def test_history_with_no_games(db: Path) -> None:
    result = run("history")
    assert result.exit_code == 0
    assert result.output.startswith(f"no games yet in the history ({db})")


@pytest.mark.parametrize("name", game_names())
def test_show_tells_the_game_as_replay_does(db: Path, tmp_path: Path, name: str) -> None:
    """``history --show N`` prints what ``replay FILE --show K`` prints for
    the same record (replay then adds a blank line and its check)."""
    played = finished_game(name, 8, "normal")
    store(db, [tonk(True, 1, 1), played])
    record_file = tmp_path / "game.jsonl"
    record_file.write_text(played.record + "\n")
    replayed = run("replay", str(record_file), "--show", "1")
    assert replayed.exit_code == 0, replayed.output
    shown = run("history", "--show", "2")
    assert shown.exit_code == 0, shown.output
    assert shown.output.count("\n") > 3
    assert replayed.output == shown.output + "\n1 record, all valid\n"


def test_show_of_no_such_game_is_a_usage_error(db: Path) -> None:
    store(db, [tonk(True, 1, 1)])
    result = run("history", "--show", "7")
    assert result.exit_code == 2
    assert "the history has no game 7" in result.output


def test_show_of_a_damaged_record_is_one_line_and_exit_1(db: Path) -> None:
    store(db, [tonk(True, 1, 1)])
    with sqlite3.connect(db) as conn:
        conn.execute('UPDATE games SET record = \'{"game": "tonk"\' WHERE number = 1')
    conn.close()
    result = run("history", "--show", "1")
    assert result.exit_code == 1
    [line] = result.stderr.splitlines()
    assert line.startswith("cardtable history: cannot show game 1: ")
    assert "not JSON" in line


def test_listing_reads_no_presenter() -> None:
    """stats and history (without --show) import neither the games' front
    ends nor rich when the output is not a terminal."""
    code = (
        "import sys\n"
        "from cardtable.cli import main\n"
        "for args in (['stats'], ['history'], ['stats', '--format', 'json']):\n"
        "    try:\n"
        "        main(args, standalone_mode=False)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "loaded = [m for m in ('cardtable.cli.presenters', 'cardtable.cli.play', 'rich')"
        " if m in sys.modules]\n"
        "assert not loaded, loaded\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, check=False)
    assert result.returncode == 0, result.stderr.decode()


def test_help_names_the_database_and_the_switches() -> None:
    for command in ("stats", "history"):
        text = " ".join(run(command, "--help").output.split())
        for words in ("CARDTABLE_HISTORY", "XDG_DATA_HOME", "CARDTABLE_NO_HISTORY", "2 usage"):
            assert words in text, (command, words)


def test_stats_on_a_terminal_is_a_rich_table(db: Path) -> None:
    """On a terminal, rich draws the table (box lines); the figures are the same."""
    store(db, [tonk(True, 2, 100), tonk(True, 1, 200)])
    leader, follower = os.openpty()
    with subprocess.Popen(
        [sys.executable, "-m", "cardtable", "stats"],
        stdout=follower,
        stderr=subprocess.PIPE,
        env={**os.environ, "COLUMNS": "120", "TERM": "xterm"},
    ) as child:
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the terminal closed with the child
                break
            if not chunk:
                break
            chunks.append(chunk)
        assert child.wait(timeout=60) == 0
    os.close(leader)
    text = re.sub(r"\x1b\[[0-9;]*m", "", b"".join(chunks).decode())
    assert "┃" in text or "│" in text
    row = next(line for line in text.splitlines() if "normal" in line)
    assert [cell.strip() for cell in re.split("[│┃]", row) if cell.strip()] == [
        "tonk",
        "normal",
        "2",
        "2",
        "+3 stakes",
        "2",
        "2",
    ]
