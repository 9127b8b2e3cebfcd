"""``cardtable stats`` and ``cardtable history``: the person's record from
the games played through ``cardtable play`` (``cardtable.history``).

Both read the database at ``CARDTABLE_HISTORY`` or the user's data
directory. A table is drawn by rich on a terminal and written as plain
aligned text otherwise; ``--format json`` is for scripts. A history that
cannot be read is one line on stderr and exit status 2 (the command's input
cannot be read, as for every command).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, NoReturn

import click

from cardtable import history
from cardtable.cli.io import EXIT_REJECTED, EXIT_USAGE, guarded
from cardtable.errors import CardGameError
from cardtable.games import game_names, load_game

# What the person's return counts in each game (``state.returns()``): the
# stats and history columns say it; a game not named here uses "return".
UNITS = {
    "tonk": "stakes",
    "three_thirteen": "points",
    "gin_rummy": "points",
    "spit": "net wins",
    "speed": "net wins",
}

HISTORY_HELP = (
    "The history is the SQLite database $CARDTABLE_HISTORY, else "
    "$XDG_DATA_HOME/cardtable/history.sqlite3 (~/.local/share/cardtable/ when "
    "XDG_DATA_HOME is not set); 'cardtable play' adds every finished game to it "
    "unless --no-history or CARDTABLE_NO_HISTORY=1. Exit status: 0 done; 1 a "
    "game's record cannot be shown; 2 usage error or the history cannot be read "
    "(one line on stderr says why); 141 broken pipe."
)


def unit(game: str) -> str:
    return UNITS.get(game, "return")


def command_name(game: str) -> str:
    """The game as ``cardtable play`` names it: ``three-thirteen``."""
    return game.replace("_", "-")


def _game_option(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A registered game, ``-`` and ``_`` alike; None for every game."""
    if value is None:
        return None
    name = value.strip().lower().replace("-", "_")
    if name not in game_names():
        known = ", ".join(command_name(g) for g in game_names())
        raise click.BadParameter(f"no game {value!r} (the games: {known})")
    return name


game_option = click.option(
    "--game",
    callback=_game_option,
    metavar="GAME",
    help="Only this game (" + ", ".join(command_name(g) for g in game_names()) + ").",
)

format_option = click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text: a table (drawn by rich on a terminal); json: one JSON object, for scripts.",
)


def _read_games(path: Path, game: str | None, limit: int | None = None) -> list[history.StoredGame]:
    try:
        return history.read_games(path, game=game, limit=limit)
    except history.HistoryError as e:
        _unreadable(e)


def _unreadable(e: history.HistoryError) -> NoReturn:
    command = click.get_current_context().info_name
    click.echo(f"cardtable {command}: {e}", err=True)
    raise SystemExit(EXIT_USAGE)


def _no_games(path: Path, game: str | None) -> str:
    which = "" if game is None else f"{command_name(game)} "
    return f"no {which}games yet in the history ({path}): 'cardtable play' adds every game played"


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]], right: set[int]) -> None:
    """Rows under headers: drawn by rich on a terminal, else plain text with
    columns aligned (two spaces between them), easy to read and to grep."""
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.table import Table

        table = Table(*headers)
        for i, column in enumerate(table.columns):
            column.justify = "right" if i in right else "left"
        for row in rows:
            table.add_row(*row)
        Console().print(table)
        return
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        padded = [
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(padded).rstrip()

    click.echo(line(headers))
    for row in rows:
        click.echo(line(row))


def _signed(value: int, game: str) -> str:
    return f"{value:+d} {unit(game)}"


# --- stats -----------------------------------------------------------------


def _ladder_key(standing: history.Standing) -> tuple[int, tuple[tuple[int, str], ...]]:
    """Games in registry order; opponents from the weakest level up, bots
    given by spec after the levels."""
    names = game_names()
    order = names.index(standing.game) if standing.game in names else len(names)
    try:
        levels = [level for level, _ in load_game(standing.game).bot_levels()]
    except CardGameError:  # a game this release does not know: its bots by name
        levels = []
    return order, tuple(
        (levels.index(label) if label in levels else len(levels), label)
        for label in standing.labels
    )


@click.command("stats", epilog=HISTORY_HELP)
@game_option
@format_option
@guarded("stats")
def stats_command(game: str | None, output_format: str) -> None:
    """Your record in the games played through 'cardtable play'.

    One row per game and opponents (the bots' levels; a bot chosen by its
    spec shows the spec): the games played, the games you won, your total
    return (Tonk stakes, Three Thirteen and gin rummy points, Spit and Speed
    net wins: games won less games lost), and your best and current runs of
    games won in a row.
    """
    path = history.default_path()
    games = _read_games(path, game)
    standings = sorted(history.standings(games), key=_ladder_key)
    if output_format == "json":
        click.echo(
            json.dumps(
                {
                    "path": str(path),
                    "games": len(games),
                    "standings": [
                        {
                            "game": s.game,
                            "opponents": list(s.labels),
                            "games": s.games,
                            "wins": s.wins,
                            "return": s.total_return,
                            "unit": unit(s.game),
                            "best_streak": s.best_streak,
                            "current_streak": s.current_streak,
                        }
                        for s in standings
                    ],
                }
            )
        )
        return
    if not games:
        click.echo(_no_games(path, game))
        return
    click.echo(f"{len(games)} game{'s' * (len(games) != 1)} in the history ({path})")
    _table(
        ["game", "opponents", "games", "wins", "return", "best streak", "current streak"],
        [
            [
                command_name(s.game),
                s.opponents,
                str(s.games),
                str(s.wins),
                _signed(s.total_return, s.game),
                str(s.best_streak),
                str(s.current_streak),
            ]
            for s in standings
        ],
        right={2, 3, 4, 5, 6},
    )


# --- history ---------------------------------------------------------------


def _date(timestamp: float) -> datetime:
    return datetime.fromtimestamp(timestamp).astimezone()


def _outcome(g: history.StoredGame) -> str:
    return "won" if g.won else "lost"


@click.command("history", epilog=HISTORY_HELP)
@game_option
@click.option(
    "--limit",
    type=click.IntRange(min=0),
    default=20,
    show_default=True,
    help="List at most this many games, newest first (0: all of them).",
)
@click.option(
    "--show",
    type=click.IntRange(min=1),
    metavar="N",
    help="Tell game N turn by turn, as 'cardtable replay FILE --show K' does "
    "(omniscient: every hand is shown).",
)
@format_option
@guarded("history")
def history_command(game: str | None, limit: int, show: int | None, output_format: str) -> None:
    """The games played through 'cardtable play', newest first.

    Each game has a number (the first game stored is 1): its date, the game,
    the opponents (their levels, or the bot's spec when it was chosen by
    spec), whether you won, how it ended and your return. '--show N' tells
    game N turn by turn from its record.
    """
    path = history.default_path()
    if show is not None:
        _show(path, show)
        return
    games = _read_games(path, game, limit or None)
    if output_format == "json":
        click.echo(json.dumps({"path": str(path), "games": [_game_json(g) for g in games]}))
        return
    if not games:
        click.echo(_no_games(path, game))
        return
    _table(
        ["#", "date", "game", "opponents", "outcome", "ending", "return"],
        [
            [
                str(g.number),
                _date(g.finished).strftime("%Y-%m-%d %H:%M"),
                command_name(g.game),
                g.opponents,
                _outcome(g),
                (g.ending or "").replace("_", " "),
                _signed(g.your_return, g.game),
            ]
            for g in games
        ],
        right={0, 6},
    )


def _game_json(g: history.StoredGame) -> dict[str, Any]:
    return {
        "number": g.number,
        "game": g.game,
        "options": g.options,
        "seats": g.seats,
        "levels": g.levels,
        "returns": g.returns,
        "won": g.won,
        "ending": g.ending,
        "seed": g.seed,
        "match": g.match,
        "started": _date(g.started).isoformat(timespec="seconds"),
        "finished": _date(g.finished).isoformat(timespec="seconds"),
    }


def _show(path: Path, number: int) -> None:
    """Tells game ``number`` with its presenter, as ``replay --show`` does."""
    try:
        record = history.read_record(number, path)
    except history.HistoryError as e:
        _unreadable(e)
    if record is None:
        raise click.BadParameter(
            f"the history has no game {number} ('cardtable history' lists them; {path})",
            param_hint="'--show'",
        )
    from cardtable.cli.replay import show_record  # the presenters: only for --show

    try:
        show_record(record, number)
    except click.ClickException as e:
        click.echo(f"cardtable history: cannot show game {number}: {e.format_message()}", err=True)
        raise SystemExit(EXIT_REJECTED) from e
