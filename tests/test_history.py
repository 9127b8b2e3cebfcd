"""The game history (``cardtable.history``): games stored and read back for
every game, the streak and return arithmetic, and a database that two
writers share, or that is locked, read-only, corrupt, full or unwritable."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from cardtable import history
from cardtable.games import Bot, Session, game_names, load_game, play_game, replay_record
from cardtable.history import (
    FinishedGame,
    HistoryError,
    Standing,
    StoredGame,
    default_path,
    history_enabled,
    read_games,
    read_record,
    record_game,
    standings,
)

HUMAN = "you"


def finished_game(
    name: str,
    seed: int,
    level: str = "normal",
    *,
    match: str | None = None,
    at: float = 1_700_000_000.0,
    **options: Any,
) -> FinishedGame:
    """A real game of ``name`` against bots of ``level``, as ``play`` stores
    it: turn-based games played to the end by the level's bots (seat 0
    too), real-time ones on a Session where seat 0 (the person) never moves."""
    game = load_game(name, **options)
    spec = dict(game.bot_levels())[level]
    canonical = Bot(game, spec, seed=0).name
    if game.real_time:
        session = Session(game, [None, *[spec] * (game.players - 1)], seed)
        session.run()
        state, record = session.state, session.to_record()
    else:
        state = play_game(game, [spec] * game.players, seed)
        record = state.to_record(["human", *[canonical] * (game.players - 1)])
    return FinishedGame(
        game=game.name,
        options=game.given_options(),
        seats=[HUMAN, *[canonical] * (game.players - 1)],
        levels=[None, *[level] * (game.players - 1)],
        returns=state.returns(),
        won=state.won(0),
        ending=state.ending_category,
        record=record,
        seed=seed,
        match=match,
        started=at,
        finished=at + 60.0,
    )


@pytest.fixture(scope="module")
def tonk_game() -> FinishedGame:
    return finished_game("tonk", 3)


def one_line(message: str | None, path: Path) -> str:
    """A record_game message: one line that names the database."""
    assert message is not None
    assert "\n" not in message
    assert str(path) in message
    return message


# --- Stored and read back --------------------------------------------------


@pytest.mark.parametrize("name", game_names())
def test_every_game_round_trips_through_its_record(tmp_path: Path, name: str) -> None:
    """What play stores comes back as stored, and its record replays
    (replay_record) to the same end (TK-, TT-, GR-, SP-, SD- records)."""
    path = tmp_path / "h.sqlite3"
    played = finished_game(name, 11, "hard", match="m-1")
    assert record_game(played, path) is None
    [stored] = read_games(path)
    assert stored.number == 1
    for field in ("game", "options", "seats", "levels", "returns", "won", "ending", "seed"):
        assert getattr(stored, field) == getattr(played, field), field
    assert (stored.match, stored.started, stored.finished) == (
        "m-1",
        played.started,
        played.finished,
    )
    record = read_record(stored.number, path)
    assert record == played.record
    replayed = replay_record(record)
    assert replayed.is_terminal()
    assert replayed.returns() == played.returns
    assert replayed.ending_category == played.ending
    assert replayed.won(0) == played.won


def test_options_levels_and_specs_are_kept(tmp_path: Path) -> None:
    """Rule options (given_options), three seats, and a bot chosen by spec
    (level None) next to one chosen by level."""
    path = tmp_path / "h.sqlite3"
    game = load_game("tonk", players=3, stake=2)
    state = play_game(game, ["greedy", "random", "strong"], 5)
    played = FinishedGame(
        game="tonk",
        options=game.given_options(),
        seats=[HUMAN, "random", "strong"],
        levels=[None, "easy", None],
        returns=state.returns(),
        won=state.won(0),
        ending=state.ending_category,
        record=state.to_record(),
        seed=2**64 - 1,  # the largest seed: does not fit SQLite's integers
        match=None,
        started=1.5,
        finished=2.5,
    )
    assert played.options  # the given options are stored, not the defaults
    assert record_game(played, path) is None
    [stored] = read_games(path)
    assert stored.options == played.options
    assert stored.levels == [None, "easy", None]
    assert stored.opponent_labels == ["easy", "strong"]
    assert stored.opponents == "easy, strong"
    assert stored.seed == 2**64 - 1
    assert stored.match is None


def test_games_are_numbered_and_read_newest_first(tmp_path: Path, tonk_game: FinishedGame) -> None:
    path = tmp_path / "h.sqlite3"
    at = [30.0, 10.0, 20.0, 20.0]  # finish times out of order, one tie
    for i, t in enumerate(at):
        name = "three_thirteen" if i == 1 else "tonk"
        game = tonk_game if name == "tonk" else finished_game(name, 1)
        assert record_game(replace(game, started=t - 1, finished=t), path) is None
    assert [g.number for g in read_games(path)] == [1, 4, 3, 2]  # a tie: the later number first
    assert [g.number for g in read_games(path, limit=2)] == [1, 4]
    assert [g.number for g in read_games(path, game="three_thirteen")] == [2]
    assert read_games(path, game="gin_rummy") == []
    assert read_record(5, path) is None


def test_no_database_reads_as_no_games(tmp_path: Path) -> None:
    path = tmp_path / "absent" / "h.sqlite3"
    assert read_games(path) == []
    assert read_record(1, path) is None
    assert not path.parent.exists()  # reading creates nothing
    empty = tmp_path / "empty.sqlite3"
    empty.touch()  # an empty file is an empty database
    assert read_games(empty) == []


def test_an_empty_file_becomes_a_history(tmp_path: Path, tonk_game: FinishedGame) -> None:
    path = tmp_path / "h.sqlite3"
    path.touch()
    assert record_game(tonk_game, path) is None
    assert len(read_games(path)) == 1


def test_the_database_is_in_wal_mode_with_its_schema_version(
    tmp_path: Path, tonk_game: FinishedGame
) -> None:
    path = tmp_path / "new" / "dir" / "h.sqlite3"  # directories are made
    assert record_game(tonk_game, path) is None
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA user_version").fetchone()[0] == history.SCHEMA_VERSION
    conn.close()


# --- Where and whether -----------------------------------------------------


def test_default_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CARDTABLE_HISTORY", str(tmp_path / "x.db"))
    assert default_path() == tmp_path / "x.db"
    monkeypatch.setenv("CARDTABLE_HISTORY", "")  # empty: unset
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_path() == tmp_path / "data" / "cardtable" / "history.sqlite3"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/data")  # ignored, as the XDG spec says
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    expected = tmp_path / "home" / ".local" / "share" / "cardtable" / "history.sqlite3"
    assert default_path() == expected
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_path() == expected


@pytest.mark.parametrize(
    ("value", "enabled"),
    [(None, True), ("", True), ("0", True), ("1", False), ("yes", False), ("true", False)],
)
def test_history_is_turned_off_by_the_flag_or_the_environment(
    monkeypatch: pytest.MonkeyPatch, value: str | None, enabled: bool
) -> None:
    if value is None:
        monkeypatch.delenv("CARDTABLE_NO_HISTORY", raising=False)
    else:
        monkeypatch.setenv("CARDTABLE_NO_HISTORY", value)
    assert history_enabled(False) is enabled
    assert history_enabled(True) is False  # --no-history


# --- Standings: hand-computed ----------------------------------------------


def stored(
    number: int,
    won: bool,
    ret: int,
    *,
    game: str = "tonk",
    at: float | None = None,
    seats: tuple[str, ...] = ("greedy",),
    levels: tuple[str | None, ...] = ("normal",),
) -> StoredGame:
    return StoredGame(
        number=number,
        game=game,
        options={},
        seats=[HUMAN, *seats],
        levels=[None, *levels],
        returns=[ret, -ret],
        won=won,
        ending=None,
        seed=number,
        match=None,
        started=0.0,
        finished=float(number) if at is None else at,
    )


def test_streaks_and_returns_against_hand_counts() -> None:
    """Tonk against normal: W W L W W W L W W (returns +1 +2 -1 +1 +1 +3 -2
    +1 +1): 7 wins, +7 stakes, best run 3, current run 2. Given shuffled,
    they are counted in the order they finished."""
    results = [(True, 1), (True, 2), (False, -1), (True, 1), (True, 1), (True, 3), (False, -2)]
    results += [(True, 1), (True, 1)]
    games = [stored(i, won, ret) for i, (won, ret) in enumerate(results, 1)]
    games.reverse()
    games[2], games[5] = games[5], games[2]
    assert standings(games) == [
        Standing(
            "tonk", ("normal",), games=9, wins=7, total_return=7, best_streak=3, current_streak=2
        )
    ]


def test_a_last_loss_ends_the_current_streak() -> None:
    games = [stored(1, True, 5), stored(2, True, 5), stored(3, False, -12)]
    [s] = standings(games)
    assert (s.best_streak, s.current_streak, s.total_return, s.wins) == (2, 0, -2, 2)


def test_groups_by_game_and_by_level_or_spec() -> None:
    """Levels that stand for one spec stay apart (hard and expert are both
    'strong' in Tonk); a bot given by spec is grouped by its spec; a loss in
    one group does not break another's streak."""
    games = [
        stored(1, True, 2, seats=("strong",), levels=("hard",)),
        stored(2, False, -1, seats=("strong",), levels=("expert",)),
        stored(3, True, 4, seats=("strong",), levels=("hard",)),
        stored(4, True, 1, seats=("strong",), levels=(None,)),
        stored(5, False, -30, game="three_thirteen"),
        stored(6, True, 3, seats=("strong",), levels=("hard",)),
        stored(7, True, 1, seats=("greedy", "greedy"), levels=("normal", "normal")),
        stored(8, True, 3, seats=("greedy", "random"), levels=("normal", "easy")),
    ]
    got = {(s.game, s.opponents): s for s in standings(games)}
    assert set(got) == {
        ("tonk", "hard"),
        ("tonk", "expert"),
        ("tonk", "strong"),
        ("three_thirteen", "normal"),
        ("tonk", "normal x2"),
        ("tonk", "normal, easy"),
    }
    hard = got["tonk", "hard"]
    assert (hard.games, hard.wins, hard.total_return, hard.best_streak, hard.current_streak) == (
        3,
        3,
        9,
        3,
        3,
    )
    expert = got["tonk", "expert"]
    assert (expert.games, expert.wins, expert.best_streak, expert.current_streak) == (1, 0, 0, 0)
    assert got["three_thirteen", "normal"].total_return == -30
    assert got["tonk", "normal x2"].labels == ("normal", "normal")


def test_equal_finish_times_are_ordered_by_number() -> None:
    games = [stored(2, False, -1, at=5.0), stored(1, True, 1, at=5.0)]
    [s] = standings(games)
    assert (s.best_streak, s.current_streak) == (1, 0)  # game 1 (won) came before game 2


def test_no_games_no_standings() -> None:
    assert standings([]) == []


# --- Two writers at once ---------------------------------------------------

_WRITER = textwrap.dedent(
    """
    import json, sys, time
    from dataclasses import replace
    from pathlib import Path
    from cardtable.history import FinishedGame, record_game
    path, writer, count = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    start = float(sys.argv[4])
    game = FinishedGame(**json.loads(Path(sys.argv[5]).read_text()))
    while time.time() < start:  # every writer starts at once
        time.sleep(0.001)
    for i in range(count):
        message = record_game(replace(game, match=f"{writer}:{i}"), path)
        if message is not None:
            print(message)
    """
)


def start_writers(
    path: Path, game: FinishedGame, writers: int, count: int
) -> list[subprocess.Popen[str]]:
    start = time.time() + 1.0  # after every interpreter has started
    payload = path.with_name(path.name + ".game.json")
    payload.write_text(json.dumps(game.__dict__))
    return [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                _WRITER,
                str(path),
                str(w),
                str(count),
                str(start),
                str(payload),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for w in range(writers)
    ]


def finish(processes: list[subprocess.Popen[str]]) -> None:
    for p in processes:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        assert out == "", out  # no game was refused


def test_concurrent_writers_lose_no_game(tmp_path: Path, tonk_game: FinishedGame) -> None:
    """Four processes write 40 games each into one new database (creating
    its schema at once) while this one reads it: every game lands, once,
    and the reader never fails."""
    path = tmp_path / "h.sqlite3"
    processes = start_writers(path, tonk_game, writers=4, count=40)
    seen = 0
    while any(p.poll() is None for p in processes):
        now = len(read_games(path))  # WAL: a reader does not wait for the writers
        assert now >= seen
        seen = now
        time.sleep(0.01)
    finish(processes)
    games = read_games(path)
    assert len(games) == 160
    assert sorted(g.match or "" for g in games) == sorted(
        f"{w}:{i}" for w in range(4) for i in range(40)
    )
    assert sorted(g.number for g in games) == list(range(1, 161))


@pytest.mark.parametrize("attempt", range(3))
def test_schema_creation_is_safe_when_processes_start_at_once(
    tmp_path: Path, tonk_game: FinishedGame, attempt: int
) -> None:
    path = tmp_path / f"h{attempt}.sqlite3"
    finish(start_writers(path, tonk_game, writers=6, count=1))
    assert len(read_games(path)) == 6


# --- A database that cannot take the game ------------------------------------


def test_locked_database(tmp_path: Path, tonk_game: FinishedGame) -> None:
    """A connection holding the write lock: the writer waits its timeout,
    then says so; readers still read (WAL); once the lock goes, games land."""
    path = tmp_path / "h.sqlite3"
    assert record_game(tonk_game, path) is None
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("DELETE FROM games")
    t0 = time.monotonic()
    message = one_line(record_game(tonk_game, path, timeout=0.3), path)
    assert time.monotonic() - t0 >= 0.3
    assert "locked" in message
    assert len(read_games(path)) == 1  # the uncommitted delete is not seen
    holder.execute("ROLLBACK")
    holder.close()
    assert record_game(tonk_game, path) is None
    assert len(read_games(path)) == 2


def test_a_writer_waits_for_a_short_lock(tmp_path: Path, tonk_game: FinishedGame) -> None:
    """Another process holding the lock for less than the timeout delays
    the game, and does not lose it."""
    path = tmp_path / "h.sqlite3"
    assert record_game(tonk_game, path) is None
    code = (
        "import sqlite3, sys, time\n"
        "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "c.execute('BEGIN IMMEDIATE'); print('locked', flush=True); time.sleep(0.5)\n"
        "c.execute('COMMIT')\n"
    )
    with subprocess.Popen(
        [sys.executable, "-c", code, str(path)], stdout=subprocess.PIPE
    ) as holder:
        assert holder.stdout is not None
        assert holder.stdout.readline() == b"locked\n"
        assert record_game(tonk_game, path, timeout=10) is None
        assert holder.wait(timeout=30) == 0
    assert len(read_games(path)) == 2


def test_not_a_database(tmp_path: Path, tonk_game: FinishedGame) -> None:
    path = tmp_path / "h.sqlite3"
    path.write_bytes(b"these are my notes, not a database\n" * 200)
    message = one_line(record_game(tonk_game, path), path)
    assert "not a SQLite database" in message
    assert path.read_bytes() == b"these are my notes, not a database\n" * 200  # untouched
    with pytest.raises(HistoryError, match="not a SQLite database") as e:
        read_games(path)
    assert str(path) in str(e.value)
    assert "\n" not in str(e.value)


def test_damaged_database(tmp_path: Path, tonk_game: FinishedGame) -> None:
    """A history whose pages after the first are overwritten: SQLite finds
    it damaged, on writing and on reading."""
    path = tmp_path / "h.sqlite3"
    for _ in range(20):
        assert record_game(tonk_game, path) is None
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    assert len(data) > 2 * page
    data[page:] = b"\x5a" * (len(data) - page)
    path.write_bytes(bytes(data))
    message = one_line(record_game(tonk_game, path), path)
    assert "damaged" in message
    with pytest.raises(HistoryError, match="damaged"):
        read_games(path)


def test_another_programs_database(tmp_path: Path, tonk_game: FinishedGame) -> None:
    path = tmp_path / "h.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE notes (text TEXT)")
    conn.close()
    message = one_line(record_game(tonk_game, path), path)
    assert "another program" in message
    with pytest.raises(HistoryError, match="another program"):
        read_games(path)
    with sqlite3.connect(path) as conn:  # no table was added to it
        tables = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    conn.close()
    assert tables == [("notes",)]


def test_a_newer_schema_is_left_alone(tmp_path: Path, tonk_game: FinishedGame) -> None:
    path = tmp_path / "h.sqlite3"
    assert record_game(tonk_game, path) is None
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {history.SCHEMA_VERSION + 1}")
    conn.close()
    message = one_line(record_game(tonk_game, path), path)
    assert "newer cardtable" in message
    with pytest.raises(HistoryError, match="newer cardtable"):
        read_games(path)


def test_a_later_schema_migrates_an_older_database(
    tmp_path: Path, tonk_game: FinishedGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A release that adds a migration step upgrades the history on the next
    write, and on the next read, keeping every game."""
    written, read = tmp_path / "w.sqlite3", tmp_path / "r.sqlite3"
    for path in (written, read):
        assert record_game(tonk_game, path) is None
    step = ("ALTER TABLE games ADD COLUMN note TEXT",)
    monkeypatch.setattr(history, "_MIGRATIONS", (*history._MIGRATIONS, step))
    monkeypatch.setattr(history, "SCHEMA_VERSION", history.SCHEMA_VERSION + 1)
    assert record_game(tonk_game, written) is None
    assert len(read_games(written)) == 2
    assert len(read_games(read)) == 1
    for path in (written, read):
        with sqlite3.connect(path) as conn:
            assert conn.execute("PRAGMA user_version").fetchone()[0] == history.SCHEMA_VERSION
            columns = [row[1] for row in conn.execute("PRAGMA table_info(games)")]
        conn.close()
        assert "note" in columns


def test_directory_cannot_be_made(tmp_path: Path, tonk_game: FinishedGame) -> None:
    (tmp_path / "file").write_text("a file, not a directory")
    path = tmp_path / "file" / "cardtable" / "h.sqlite3"
    message = one_line(record_game(tonk_game, path), path)
    assert "cannot create the directory" in message


def test_the_path_is_a_directory(tmp_path: Path, tonk_game: FinishedGame) -> None:
    message = one_line(record_game(tonk_game, tmp_path), tmp_path)
    assert "is a directory" in message
    with pytest.raises(HistoryError, match="is a directory"):
        read_games(tmp_path)


def test_record_game_never_raises(tmp_path: Path, tonk_game: FinishedGame) -> None:
    """Whatever is wrong, even with the game given, the answer is a line."""
    path = tmp_path / "h.sqlite3"
    bad = replace(tonk_game, returns=["not a number"])  # type: ignore[list-item]
    message = one_line(record_game(bad, path), path)
    assert "ValueError" in message


# Dropping the permission checks' override, so that root obeys file modes.
_UNPRIVILEGED = ["--inh-caps=-dac_override,-dac_read_search"]
_UNPRIVILEGED += ["--bounding-set=-dac_override,-dac_read_search"]

_READ_ONLY_CHECK = textwrap.dedent(
    """
    import json, os, sys
    from pathlib import Path
    from cardtable.history import FinishedGame, HistoryError, read_games, record_game
    game = FinishedGame(**json.loads(sys.stdin.read()))
    out = {}
    for name in sys.argv[1:]:
        path = Path(name)
        out[name] = {"writable": os.access(path.parent, os.W_OK) and os.access(path, os.W_OK)}
        out[name]["message"] = record_game(game, path)
        try:
            out[name]["games"] = len(read_games(path))
        except HistoryError as e:
            out[name]["error"] = str(e)
    print(json.dumps(out))
    """
)


def unprivileged() -> list[str]:
    """The command prefix of a process that obeys file modes: root drops the
    capabilities that override them."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: file modes cannot be enforced")
    return ["setpriv", *_UNPRIVILEGED]


def run_without_write_permission(game: FinishedGame, *paths: Path) -> dict[str, Any]:
    """record_game and read_games on ``paths`` in a process that obeys file modes."""
    prefix = unprivileged()
    run = subprocess.run(
        [*prefix, sys.executable, "-c", _READ_ONLY_CHECK, *map(str, paths)],
        input=json.dumps(game.__dict__),
        capture_output=True,
        text=True,
        check=False,
    )
    if run.returncode != 0 and prefix and "setpriv" in run.stderr:
        pytest.skip(f"setpriv cannot drop capabilities here: {run.stderr.strip()}")
    assert run.returncode == 0, run.stderr
    out: dict[str, Any] = json.loads(run.stdout)
    for name, result in out.items():
        assert not result["writable"], f"{name} is still writable: the check proves nothing"
    return out


def test_read_only_file_and_directory(tmp_path: Path, tonk_game: FinishedGame) -> None:
    """A history file without write permission, and one in a directory
    without it: the game is not stored, the line says which, and stats and
    history still read the games there."""
    read_only_file = tmp_path / "file" / "h.sqlite3"
    read_only_dir = tmp_path / "dir" / "h.sqlite3"
    for path in (read_only_file, read_only_dir):
        assert record_game(tonk_game, path) is None
    read_only_file.chmod(0o444)
    read_only_dir.parent.chmod(0o555)
    try:
        out = run_without_write_permission(tonk_game, read_only_file, read_only_dir)
    finally:
        read_only_dir.parent.chmod(0o755)
    for path, says in (
        (read_only_file, "file is read-only"),
        (read_only_dir, "directory is read-only"),
    ):
        result = out[str(path)]
        assert says in one_line(result["message"], path)
        assert result.get("games") == 1, result


def test_missing_directory_under_a_read_only_one(tmp_path: Path, tonk_game: FinishedGame) -> None:
    parent = tmp_path / "data"
    parent.mkdir()
    path = parent / "cardtable" / "h.sqlite3"
    code = (
        "import json, sys\nfrom pathlib import Path\n"
        "from cardtable.history import FinishedGame, record_game\n"
        "print(record_game(FinishedGame(**json.loads(sys.stdin.read())), Path(sys.argv[1])))\n"
    )
    prefix = unprivileged()
    parent.chmod(0o555)
    try:
        run = subprocess.run(
            [*prefix, sys.executable, "-c", code, str(path)],
            input=json.dumps(tonk_game.__dict__),
            capture_output=True,
            text=True,
            check=False,
        )
    finally:
        parent.chmod(0o755)
    assert run.returncode == 0, run.stderr
    message = one_line(run.stdout.strip(), path)
    assert "cannot create the directory" in message
    assert "Permission denied" in message
    assert not path.parent.exists()


# A small file system of our own (a user and mount namespace): a disk that
# fills, and one that is mounted read-only.
_ON_TMPFS = textwrap.dedent(
    """
    import json, subprocess, sys
    from dataclasses import replace
    from pathlib import Path
    from cardtable.history import FinishedGame, read_games, record_game
    game = FinishedGame(**json.loads(sys.stdin.read()))
    where = Path(sys.argv[1])
    path = where / "h.sqlite3"
    out = {"first": record_game(game, path)}
    out["big"] = record_game(replace(game, record="x" * 2_000_000), path)
    out["after"] = record_game(game, path)
    subprocess.run(["mount", "-o", "remount,ro", str(where)], check=True)
    out["read_only"] = record_game(game, path)
    out["games"] = len(read_games(path))
    print(json.dumps(out))
    """
)


def test_full_disk_and_read_only_file_system(tmp_path: Path, tonk_game: FinishedGame) -> None:
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("no unshare: cannot mount a small file system")
    where = tmp_path / "small"
    where.mkdir()
    script = f'mount -t tmpfs -o size=512k tmpfs "$1" && exec "{sys.executable}" -c "$2" "$1"'
    run = subprocess.run(
        [
            unshare,
            "--user",
            "--map-root-user",
            "--mount",
            "sh",
            "-c",
            script,
            "sh",
            str(where),
            _ON_TMPFS,
        ],
        input=json.dumps(tonk_game.__dict__),
        capture_output=True,
        text=True,
        check=False,
    )
    if run.returncode != 0 and not run.stdout:
        pytest.skip(f"cannot mount a file system here: {run.stderr.strip()}")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    path = where / "h.sqlite3"
    assert out["first"] is None
    assert "disk is full" in one_line(out["big"], path)
    assert out["after"] is None  # the full disk lost nothing already stored
    assert "read-only" in one_line(out["read_only"], path)
    assert out["games"] == 2
