"""``cardtable replay``: re-run and check game records of any game, or show one turn by turn.

A record is one JSON line as written by ``play GAME --record``, ``simulate
GAME --record`` or ``State.to_record``: the game and its rules, the seed (or
the stacked deck), the dealer, who sat where, the actions and the result.
Replaying dispatches on the record's game, re-deals it, applies every action
(each must be legal) and checks that it ends as recorded (and, when the
record has one, with the same final state hash). ``--show`` tells the game
with its presenter.
"""

from __future__ import annotations

import io
import json
import tempfile
from collections.abc import Generator
from typing import IO, Any

import click

from cardtable.cli.io import EXIT_REJECTED, EXIT_STATUS_HELP, Input, guarded
from cardtable.cli.presenters import PRESENTERS
from cardtable.errors import CardGameError
from cardtable.games import Game, State, load_game, replay_record


def check_line(line: str) -> str | None:
    """None when the record replays as recorded, else the error."""
    try:
        replay_record(line)
    except CardGameError as e:
        return str(e)
    except (ValueError, TypeError, OverflowError) as e:  # anything the binding rejects
        return f"{type(e).__name__}: {e}"
    return None


def _lines(stream: IO[bytes]) -> Generator[str]:
    """The lines of a UTF-8 stream one at a time (bad bytes replaced); a line
    ends at LF, CRLF or a lone CR, as in ``cardtable score``."""
    text = io.TextIOWrapper(stream, encoding="utf-8", errors="replace", newline=None)
    try:
        for line in text:
            yield line.rstrip("\n")
    finally:
        text.detach()  # leave the binary stream open for its owner


def _seekable(source: Input) -> IO[bytes]:
    """The input itself when it is a file, else a spooled copy (for --show,
    which reads line K first and then every record): disk, not memory."""
    if source.regular:
        return source.stream
    spool = tempfile.TemporaryFile()  # noqa: SIM115 - closed by the caller
    for block in source.blocks(1 << 20):
        spool.write(block)
    spool.seek(0)
    return spool


def _show(stream: IO[bytes], k: int, name: str) -> bool:
    """Prints the record on line K turn by turn; False when it cannot be shown."""
    record = None
    count = 0
    for count, line in enumerate(_lines(stream), 1):
        if count == k and line.strip():
            record = line
            break  # else read on: the message gives the file's line count
    if record is None:
        raise click.UsageError(
            f"--show {k}: line {k} of {name} holds no record ({count} line{'s' * (count != 1)})"
        )
    try:
        show_record(record, k)
    except click.ClickException as e:
        click.echo(f"cannot show line {k}: {e.format_message()}", err=True)
        return False
    finally:
        click.echo()
    return True


def deal_record(record: dict[str, Any]) -> tuple[Game, State, list[str]]:
    """The game of a record, its first state and who sat at each seat."""
    params = record.get("params")
    if not isinstance(params, dict):
        raise click.ClickException('the record has no "params" object')
    try:
        game = load_game(str(record.get("game", "")), **params)
        dealer = int(record["dealer"])
        if "deck" in record:
            state = game.state_from_deck(record["deck"], dealer)
        else:
            state = game.new_initial_state(int(record["seed"]), dealer)
    except (CardGameError, KeyError, TypeError, ValueError, OverflowError) as e:
        raise click.ClickException(f"cannot deal this record: {e}") from e
    names = record.get("players")
    return (
        game,
        state,
        [
            str(names[p]) if isinstance(names, list) and p < len(names) else "?"
            for p in range(game.players)
        ],
    )


def show_record(line: str, number: int) -> None:
    try:
        record = json.loads(line)
    except ValueError as e:
        raise click.ClickException(f"line {number} is not JSON: {e}") from e
    if not isinstance(record, dict):
        raise click.ClickException(f"line {number} is not a JSON object")
    game, state, names = deal_record(record)
    PRESENTERS[game.name].show_record(game, state, names, record)


@click.command("replay", epilog=EXIT_STATUS_HELP)
@click.argument("file", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option(
    "--show",
    type=click.IntRange(min=1),
    metavar="K",
    help="Print the game on line K turn by turn (omniscient: every hand is shown).",
)
@click.option("--quiet", "-q", is_flag=True, help="Print only the invalid records.")
@guarded("replay")
def replay_command(file: str, show: int | None, quiet: bool) -> None:
    """Re-run every game record in FILE (JSON lines, any game) and check each result.

    Records are read and checked one at a time, so memory stays flat. Blank
    lines are skipped; lines end at LF, CRLF or CR. Exit status 1 means some
    records are invalid (each is reported with its line number).
    """
    source = Input(file)
    stream = source.stream
    try:
        show_failed = False
        if show is not None:
            stream = _seekable(source)
            show_failed = not _show(stream, show, file)
            stream.seek(0)
        records = bad = 0
        for number, line in enumerate(_lines(stream), 1):
            if not line.strip():
                continue
            records += 1
            error = check_line(line)
            if error is not None:
                bad += 1
                click.echo(f"line {number}: {error}")
    finally:
        if stream is not source.stream:
            stream.close()
        source.close()
    if bad or show_failed:
        if not quiet:
            click.echo(f"{records} record{'s' * (records != 1)}, {bad} invalid")
        raise SystemExit(EXIT_REJECTED)
    if not quiet:
        if records == 0:
            click.echo("no records")
        else:
            click.echo(f"{records} record{'s' * (records != 1)}, all valid")
