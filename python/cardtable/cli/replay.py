"""``cardtable replay``: re-run and check game records of any game, or show one turn by turn.

A record is one JSON line as written by ``play GAME --record``, ``simulate
GAME --record`` or ``State.to_record``: the game and its rules, the seed (or
the stacked deck), the dealer, who sat where, the actions and the result.
Replaying dispatches on the record's game, re-deals it, applies every action
(each must be legal) and checks that it ends as recorded (and, when the
record has one, with the same final state hash). ``--show`` tells the game
with its presenter.

Lines are read in blocks and cut here, one at a time: a line longer than
MAX_RECORD_BYTES (the longest record a game writes) is reported and skipped
without being held, so memory stays flat whatever the input. The record's
bytes go to the core as read: it refuses bytes that are not UTF-8, naming
the field that holds them.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Generator, Iterable, Iterator
from typing import IO, Any

import click

from cardtable import _core
from cardtable.cli.io import EXIT_REJECTED, EXIT_STATUS_HELP, Input, StreamError, guarded
from cardtable.cli.presenters import PRESENTERS
from cardtable.errors import CardGameError
from cardtable.games import Game, State, load_game, replay_record

BLOCK_BYTES = 1 << 20

UTF8_BOM = b"\xef\xbb\xbf"


def check_line(line: str | bytes) -> str | None:
    """None when the record replays as recorded, else the error."""
    try:
        replay_record(line)
    except CardGameError as e:
        return str(e)
    except (ValueError, TypeError, OverflowError) as e:  # anything the binding rejects
        return f"{type(e).__name__}: {e}"
    return None


def record_lines(blocks: Iterable[bytes], limit: int) -> Generator[bytes | None]:
    """The lines of a stream cut anywhere into ``blocks``, one at a time,
    without their ends (LF, CRLF or a lone CR, as in ``cardtable score``);
    None for a line longer than ``limit`` bytes, which is dropped as soon as
    it is over the limit."""
    line = bytearray()
    overlong = False
    after_cr = False  # the last block ended with CR: a LF first belongs to it
    for block in blocks:
        if after_cr and block.startswith(b"\n"):
            block = block[1:]
        after_cr = block.endswith(b"\r")
        for piece in block.splitlines(keepends=True):
            ended = piece.endswith((b"\n", b"\r"))
            body = piece.rstrip(b"\r\n") if ended else piece
            if not overlong:
                if len(line) + len(body) > limit:
                    overlong = True
                    line = bytearray()  # its memory goes at once
                else:
                    line += body
            if ended:
                yield None if overlong else bytes(line)
                line = bytearray()
                overlong = False
    if line or overlong:  # a last line without an end
        yield None if overlong else bytes(line)


def _records(blocks: Iterable[bytes]) -> Iterator[tuple[int, bytes | None]]:
    """(line number, record) for every line that is not blank; the record is
    None for a line over MAX_RECORD_BYTES. A UTF-8 byte-order mark at the
    start of the input is no part of the first record."""
    for number, line in enumerate(record_lines(blocks, _core.MAX_RECORD_BYTES), 1):
        if line is not None and number == 1:
            line = line.removeprefix(UTF8_BOM)
        if line is None or line.strip():
            yield number, line


def _blocks(stream: IO[bytes], name: str) -> Iterator[bytes]:
    """The blocks of a spooled copy (see :meth:`Input.blocks` for the input)."""
    while True:
        try:
            block = stream.read(BLOCK_BYTES)
        except OSError as e:
            raise StreamError(f"cannot read {name!r}", e) from e
        if not block:
            return
        yield block


def overlong(number: int) -> str:
    return f"line {number}: the line is longer than the limit of {_core.MAX_RECORD_BYTES} bytes"


def _seekable(source: Input) -> IO[bytes]:
    """The input itself when it is a file, else a spooled copy (for --show,
    which reads line K first and then every record): disk, not memory."""
    if source.regular:
        return source.stream
    spool = tempfile.TemporaryFile()  # noqa: SIM115 - closed by the caller
    for block in source.blocks(BLOCK_BYTES):
        spool.write(block)
    spool.seek(0)
    return spool


def _show(stream: IO[bytes], k: int, name: str) -> bool:
    """Prints the record on line K turn by turn; False when it cannot be shown."""
    record: bytes | None = None
    count = 0
    for count, line in enumerate(record_lines(_blocks(stream, name), _core.MAX_RECORD_BYTES), 1):
        if count == k and (line is None or line.strip()):
            if line is None:
                click.echo(f"cannot show {overlong(k)}", err=True)
                return False
            record = line.removeprefix(UTF8_BOM) if k == 1 else line
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


def show_record(line: str | bytes, number: int) -> None:
    try:
        text = line.decode() if isinstance(line, bytes) else line
    except UnicodeDecodeError as e:
        raise click.ClickException(
            f"line {number} is not valid UTF-8: byte {e.start + 1} of the line"
        ) from e
    try:
        record = json.loads(text)
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
    lines are skipped; lines end at LF, CRLF or CR. A record is UTF-8 JSON
    with each key once; a line longer than MAX_RECORD_BYTES (32 MiB) is an
    invalid record. Exit status 1 means some records are invalid (each is
    reported with its line number), or the file is UTF-16, UTF-32 or binary
    (one error on stderr names it).
    """
    source = Input(file)
    stream = source.stream
    try:
        wrong = source.wrong_encoding()
        if wrong is not None:
            click.echo(f"cardtable replay: {wrong}", err=True)
            raise SystemExit(EXIT_REJECTED)
        show_failed = False
        blocks = source.blocks(BLOCK_BYTES)
        if show is not None:
            stream = _seekable(source)
            show_failed = not _show(stream, show, file)
            stream.seek(0)
            blocks = _blocks(stream, file)
        records = bad = 0
        for number, line in _records(blocks):
            records += 1
            error = overlong(number) if line is None else check_line(line)
            if error is not None:
                bad += 1
                click.echo(error if line is None else f"line {number}: {error}")
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
