"""The history of the games played through ``cardtable play``: one SQLite
database in the user's data directory, written after every finished game
(``record_game``) and read by ``cardtable stats`` and ``cardtable history``.

Two terminals may play at once: the database is in WAL mode (readers never
wait for a writer), every write is one short ``BEGIN IMMEDIATE`` transaction
and the busy timeout lets the second writer wait for the first, so both
games land. The schema carries its version (``PRAGMA user_version``);
``_MIGRATIONS`` takes a database from any older version to this one inside a
write transaction, so two processes creating or upgrading it at once do it
once. A database of a newer release is left alone.

``record_game`` never raises: a locked, read-only, corrupt or unwritable
database gives one line naming the problem and the path, and the game goes
on (``--record`` files are written by ``play`` regardless). Readers raise
``HistoryError`` with such a line.

The module reads no game rules: what it stores (returns, who won, how the
game ended, its record) comes from the engine's state.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1
"""The version of the schema this release writes (``PRAGMA user_version``)."""

BUSY_TIMEOUT = 5.0
"""Seconds a writer waits for another one before calling the database locked."""

FILE_NAME = "history.sqlite3"

HISTORY_ENV = "CARDTABLE_HISTORY"
NO_HISTORY_ENV = "CARDTABLE_NO_HISTORY"

# _MIGRATIONS[v] takes the schema from version v to v + 1 (version 0 is a new
# file). A later release appends a step and raises SCHEMA_VERSION.
_MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        # One row per finished game; lists and options are JSON text, the
        # seed is text (a u64 does not fit SQLite's signed integers).
        """CREATE TABLE games (
            number INTEGER PRIMARY KEY AUTOINCREMENT,
            game TEXT NOT NULL,
            options TEXT NOT NULL,
            seats TEXT NOT NULL,
            levels TEXT NOT NULL,
            returns TEXT NOT NULL,
            won INTEGER NOT NULL,
            ending TEXT,
            record TEXT NOT NULL,
            seed TEXT,
            match_id TEXT,
            started REAL NOT NULL,
            finished REAL NOT NULL,
            cardtable TEXT NOT NULL
        )""",
        "CREATE INDEX games_by_game ON games (game, finished)",
    ),
)

# What a reader reads of a game (not its record, which only --show needs).
_COLUMNS = (
    "number, game, options, seats, levels, returns, won, ending, seed, match_id, started, finished"
)


@dataclass(frozen=True)
class FinishedGame:
    """One game finished through ``play``, as ``record_game`` stores it."""

    game: str
    """The registry name, e.g. ``tonk`` (``state.game.name``)."""
    options: dict[str, Any]
    """``game.given_options()``: the rule options that make the configuration."""
    seats: list[str]
    """Who sat where: ``you`` for the person at seat 0, else the bot's canonical spec."""
    levels: list[str | None]
    """Each seat's level when chosen by level; None for the person or a bot given by spec."""
    returns: list[int]
    """``state.returns()``: Tonk stakes, Three Thirteen and gin rummy points, Spit/Speed +1/-1/0."""
    won: bool
    """The person (seat 0) won: ``state.won(0)``."""
    ending: str | None
    """``state.ending_category``."""
    record: str
    """The game's replayable JSON record line (what ``--record`` writes)."""
    seed: int | None
    """The match seed ``play`` was given or drew."""
    match: str | None
    """An id shared by the games of one ``play`` session's match."""
    started: float
    """``time.time()`` when the game was dealt."""
    finished: float
    """``time.time()`` when it ended."""


@dataclass(frozen=True)
class StoredGame:
    """A game read back from the history (without its record: ``read_record``)."""

    number: int
    """Its number in the history (1 for the first game stored; never reused)."""
    game: str
    options: dict[str, Any]
    seats: list[str]
    levels: list[str | None]
    returns: list[int]
    won: bool
    ending: str | None
    seed: int | None
    match: str | None
    started: float
    finished: float

    @property
    def opponent_labels(self) -> list[str]:
        """Each other seat's level, or the bot's spec when it was not chosen by level."""
        return [
            level if level is not None else seat
            for seat, level in zip(self.seats[1:], self.levels[1:], strict=False)
        ]

    @property
    def opponents(self) -> str:
        """The opponents for people (``opponents_text``)."""
        return opponents_text(self.opponent_labels)

    @property
    def your_return(self) -> int:
        """The person's return (seat 0): stakes or points won, negative when lost."""
        return self.returns[0] if self.returns else 0


@dataclass(frozen=True)
class Standing:
    """The person's record against one set of opponents in one game."""

    game: str
    labels: tuple[str, ...]
    """Each opponent's level, or its bot spec when it was not chosen by level."""
    games: int
    wins: int
    total_return: int
    """The sum of the person's returns (the game's unit: stakes or points)."""
    best_streak: int
    """The most games won in a row."""
    current_streak: int
    """The games won in a row up to the last one (0 when the last was not won)."""

    @property
    def opponents(self) -> str:
        """The opponents for people (``opponents_text``)."""
        return opponents_text(self.labels)


class HistoryError(Exception):
    """The history cannot be read; the message is one line naming the problem and the path."""


class _UnusableError(Exception):
    """A problem found by this module (not by SQLite), already in words."""


def opponents_text(labels: Iterable[str]) -> str:
    """Opponents for people, runs of one label counted: ``normal``,
    ``hard x2``, ``easy, greedy``."""
    runs: list[tuple[str, int]] = []
    for label in labels:
        if runs and runs[-1][0] == label:
            runs[-1] = (label, runs[-1][1] + 1)
        else:
            runs.append((label, 1))
    return ", ".join(label if n == 1 else f"{label} x{n}" for label, n in runs)


def default_path() -> Path:
    """``$CARDTABLE_HISTORY`` when set (a file path), else
    ``$XDG_DATA_HOME/cardtable/history.sqlite3``, else
    ``~/.local/share/cardtable/history.sqlite3``."""
    given = os.environ.get(HISTORY_ENV)
    if given:
        return Path(given).expanduser()
    data = os.environ.get("XDG_DATA_HOME")
    # The XDG specification ignores a relative XDG_DATA_HOME.
    base = Path(data) if data and os.path.isabs(data) else Path.home() / ".local" / "share"
    return base / "cardtable" / FILE_NAME


def history_enabled(no_history_flag: bool) -> bool:
    """False with ``--no-history`` or when ``CARDTABLE_NO_HISTORY`` is set to
    a non-empty value other than ``0``."""
    if no_history_flag:
        return False
    return os.environ.get(NO_HISTORY_ENV, "") in ("", "0")


def record_game(
    finished: FinishedGame, path: Path | None = None, *, timeout: float = BUSY_TIMEOUT
) -> str | None:
    """Stores one finished game. Returns None when stored; otherwise one line
    saying why not (locked, read-only, corrupt, disk full ...) and where the
    database is. Never raises: the game goes on. ``timeout``: seconds to wait
    for another writer."""
    where = default_path() if path is None else Path(path)
    try:
        row = _row(finished)
        _make_directory(where)
        with _connection(where, timeout) as conn:
            _prepare(conn, timeout)
            with _transaction(conn):
                conn.execute(
                    "INSERT INTO games (game, options, seats, levels, returns, won, ending,"
                    " record, seed, match_id, started, finished, cardtable)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    row,
                )
    except Exception as e:  # whatever went wrong, the game goes on
        return f"game not saved in the history: {_reason(e, where, timeout)} ({where})"
    return None


def read_games(
    path: Path | None = None,
    *,
    game: str | None = None,
    limit: int | None = None,
    timeout: float = BUSY_TIMEOUT,
) -> list[StoredGame]:
    """The stored games, newest first (of ``game`` only when given, at most
    ``limit``); empty when there is no database yet. Raises HistoryError."""
    where = default_path() if path is None else Path(path)
    query = f"SELECT {_COLUMNS} FROM games"
    params: list[Any] = []
    if game is not None:
        query += " WHERE game = ?"
        params.append(game)
    query += " ORDER BY finished DESC, number DESC"
    if limit is not None:
        query += " LIMIT ?"
        params.append(limit)
    with _reading(where, timeout) as conn:
        if conn is None:
            return []
        rows = conn.execute(query, params).fetchall()
        return [_stored(row, where) for row in rows]


def read_record(
    number: int, path: Path | None = None, *, timeout: float = BUSY_TIMEOUT
) -> str | None:
    """The JSON record of game ``number``; None when the history has no such
    game. Raises HistoryError."""
    where = default_path() if path is None else Path(path)
    with _reading(where, timeout) as conn:
        if conn is None:
            return None
        row = conn.execute("SELECT record FROM games WHERE number = ?", (number,)).fetchone()
    if row is None:
        return None
    record = row[0]
    if not isinstance(record, str):
        raise HistoryError(f"game {number} of the history has no record text ({where})")
    return record


def standings(games: Iterable[StoredGame]) -> list[Standing]:
    """The person's record per game and opponents (in the order each was
    first met), with streaks counted in the order the games finished."""
    groups: dict[tuple[str, tuple[str, ...]], list[StoredGame]] = {}
    for g in sorted(games, key=lambda g: (g.finished, g.number)):
        groups.setdefault((g.game, tuple(g.opponent_labels)), []).append(g)
    result = []
    for (game, labels), played in groups.items():
        best = current = 0
        for g in played:
            current = current + 1 if g.won else 0
            best = max(best, current)
        result.append(
            Standing(
                game=game,
                labels=labels,
                games=len(played),
                wins=sum(g.won for g in played),
                total_return=sum(g.your_return for g in played),
                best_streak=best,
                current_streak=current,
            )
        )
    return result


# --- Writing ---------------------------------------------------------------


def _row(finished: FinishedGame) -> tuple[Any, ...]:
    from cardtable import __version__

    return (
        finished.game,
        json.dumps(finished.options, sort_keys=True, default=str),
        json.dumps(list(finished.seats)),
        json.dumps(list(finished.levels)),
        json.dumps([int(r) for r in finished.returns]),
        int(bool(finished.won)),
        finished.ending,
        finished.record,
        None if finished.seed is None else str(int(finished.seed)),
        finished.match,
        float(finished.started),
        float(finished.finished),
        __version__,
    )


def _make_directory(path: Path) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise _UnusableError(
            f"cannot create the directory {str(path.parent)!r}: {e.strerror or e}"
        ) from e


@contextlib.contextmanager
def _connection(
    path: Path, timeout: float, *, uri: str | None = None
) -> Iterator[sqlite3.Connection]:
    """A connection in autocommit mode (transactions are begun by hand),
    closed on leaving."""
    target = path if uri is None else uri
    conn = sqlite3.connect(target, timeout=timeout, isolation_level=None, uri=uri is not None)
    try:
        yield conn
    finally:
        conn.close()


@contextlib.contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """A write transaction, begun at once (``IMMEDIATE``) so that two
    writers queue on the busy timeout instead of failing on an upgrade."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _prepare(conn: sqlite3.Connection, timeout: float) -> None:
    """WAL mode, and the schema created or brought up to this version."""
    _wal(conn, timeout)
    version = _user_version(conn)
    if version == SCHEMA_VERSION:
        return
    _check_version(version)
    with _transaction(conn):
        version = _user_version(conn)  # another process may have done it meanwhile
        _check_version(version)
        if version == 0 and _has_tables(conn):
            raise _UnusableError(_FOREIGN)
        for step in _MIGRATIONS[version:SCHEMA_VERSION]:
            for statement in step:
                conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION:d}")


def _wal(conn: sqlite3.Connection, timeout: float) -> None:
    """Sets WAL mode (kept in the file). Changing the mode may report busy
    without waiting on the busy timeout, so it is retried until ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL").fetchone()
            return
        except sqlite3.OperationalError as e:
            if not _is_busy(e) or time.monotonic() >= deadline:
                raise
            time.sleep(0.01)


def _user_version(conn: sqlite3.Connection) -> int:
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    return int(version)


def _has_tables(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchone() is not None


def _check_version(version: int) -> None:
    if version > SCHEMA_VERSION:
        raise _UnusableError(
            f"it was written by a newer cardtable (history schema version {version};"
            f" this one reads up to {SCHEMA_VERSION})"
        )


_FOREIGN = "the file is a SQLite database of another program, not a cardtable history"
_MOVE_AWAY = "; move it away to start a new history"


def _is_busy(e: sqlite3.Error) -> bool:
    name = getattr(e, "sqlite_errorname", "") or ""
    return name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED"))


def _reason(e: Exception, path: Path, timeout: float) -> str:
    """What went wrong, in words, for one line that also names the path."""
    if isinstance(e, _UnusableError):
        return str(e) + (_MOVE_AWAY if str(e) == _FOREIGN else "")
    if isinstance(e, sqlite3.Error):
        name = getattr(e, "sqlite_errorname", "") or ""
        if _is_busy(e):
            return f"the database is locked by another program (waited {timeout:g} s)"
        if name.startswith("SQLITE_READONLY"):
            return _not_writable(path, "the database is read-only")
        if name == "SQLITE_NOTADB":
            return "the file is not a SQLite database" + _MOVE_AWAY
        if name.startswith("SQLITE_CORRUPT"):
            return "the database is damaged (corrupt)" + _MOVE_AWAY
        if name == "SQLITE_FULL":
            return "the disk is full"
        if name.startswith("SQLITE_CANTOPEN"):
            return _not_writable(path, "cannot open the database file")
        if name.startswith("SQLITE_IOERR"):
            return f"the disk failed to read or write it ({e})"
        return f"{e} ({name})" if name else str(e)
    if isinstance(e, OSError):
        return e.strerror or str(e)
    return f"{type(e).__name__}: {e}"


def _not_writable(path: Path, otherwise: str) -> str:
    """Why SQLite could not open or write the database, when the file system says."""
    if path.is_dir():
        return "the path is a directory"
    if path.exists() and not os.access(path, os.W_OK):
        return "the database file is read-only"
    if not os.access(path.parent, os.W_OK):
        return "its directory is read-only (SQLite needs to write its -wal and -shm files there)"
    return otherwise


# --- Reading ---------------------------------------------------------------


@contextlib.contextmanager
def _reading(path: Path, timeout: float) -> Iterator[sqlite3.Connection | None]:
    """A read-only connection to the history at the current schema version;
    None when there is no history (no file, or an empty one). SQLite's
    errors, here or in the caller's queries, become HistoryError."""
    if not path.exists():
        yield None
        return
    try:
        if path.is_dir():
            raise _UnusableError("the path is a directory")
        version, immutable = _readable(path, timeout)
        if version == 0:
            yield None
            return
        with _connection(path, timeout, uri=_uri(path, immutable=immutable)) as conn:
            yield conn
    except (sqlite3.Error, _UnusableError) as e:
        raise HistoryError(f"cannot read the history: {_reason(e, path, timeout)} ({path})") from e


def _readable(path: Path, timeout: float) -> tuple[int, bool]:
    """The schema version of the file (0: an empty database), after bringing
    an older one up to date, and whether it must be opened immutable: a WAL
    database in a directory that cannot be written has no -shm file to read
    it through, and as no one can be writing it, it is read as it stands."""
    for immutable in (False, True):
        with _connection(path, timeout, uri=_uri(path, immutable=immutable)) as conn:
            try:
                version = _user_version(conn)
                if version == 0 and _has_tables(conn):
                    raise _UnusableError(_FOREIGN)
            except sqlite3.OperationalError as e:
                if immutable or not _cannot_open(e):
                    raise
                continue
        _check_version(version)
        if 0 < version < SCHEMA_VERSION:
            with _connection(path, timeout) as conn:
                _prepare(conn, timeout)
            version = SCHEMA_VERSION
        return version, immutable
    raise AssertionError("unreachable: the immutable attempt returns or raises")


def _cannot_open(e: sqlite3.Error) -> bool:
    name = getattr(e, "sqlite_errorname", "") or ""
    return name.startswith(("SQLITE_CANTOPEN", "SQLITE_READONLY"))


def _uri(path: Path, *, immutable: bool) -> str:
    return path.resolve().as_uri() + ("?mode=ro&immutable=1" if immutable else "?mode=ro")


def _stored(row: tuple[Any, ...], path: Path) -> StoredGame:
    number = row[0]
    try:
        seed = row[8]
        return StoredGame(
            number=int(number),
            game=str(row[1]),
            options=_json(row[2], dict),
            seats=[str(s) for s in _json(row[3], list)],
            levels=[None if v is None else str(v) for v in _json(row[4], list)],
            returns=[int(r) for r in _json(row[5], list)],
            won=bool(row[6]),
            ending=None if row[7] is None else str(row[7]),
            seed=None if seed is None else int(seed),
            match=None if row[9] is None else str(row[9]),
            started=float(row[10]),
            finished=float(row[11]),
        )
    except (TypeError, ValueError) as e:
        raise HistoryError(f"game {number} of the history is damaged: {e} ({path})") from e


def _json(text: Any, kind: type) -> Any:
    value = json.loads(text)
    if not isinstance(value, kind):
        raise ValueError(f"expected a JSON {kind.__name__}, got {text!r}")
    return value


__all__ = [
    "BUSY_TIMEOUT",
    "HISTORY_ENV",
    "NO_HISTORY_ENV",
    "SCHEMA_VERSION",
    "FinishedGame",
    "HistoryError",
    "Standing",
    "StoredGame",
    "default_path",
    "history_enabled",
    "opponents_text",
    "read_games",
    "read_record",
    "record_game",
    "standings",
]
