"""``cardtable replay``: re-run and check Tonk game records, or show one turn by turn.

A record is one JSON line as written by ``play tonk --record``, ``simulate
tonk --record`` or ``TonkState.to_record``: the rules, the seed (or the
stacked deck), the dealer, who sat where, the actions and the result.
Replaying re-deals the hand, applies every action (each must be legal) and
checks that the hand ends as recorded.
"""

from __future__ import annotations

import io
import json
import tempfile
from collections.abc import Generator, Sequence
from typing import IO, Any

import click

from cardtable._core import Card
from cardtable.cli.io import EXIT_REJECTED, EXIT_STATUS_HELP, Input, guarded
from cardtable.cli.play import sort_hand
from cardtable.cli.tonk_options import describe_options
from cardtable.errors import CardGameError
from cardtable.games.tonk import (
    TonkEnding,
    TonkGame,
    TonkState,
    describe_tonk_action,
    replay_tonk_record,
)

PASS = TonkState.string_to_action("pass")


def check_line(line: str) -> str | None:
    """None when the record replays as recorded, else the error."""
    try:
        replay_tonk_record(line)
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


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(c.symbol() for c in sort_hand(cards)) if cards else "-"


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


class Show:
    """Prints one record turn by turn, omnisciently."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        params = record.get("params")
        if not isinstance(params, dict):
            raise click.ClickException('the record has no "params" object')
        try:
            self.game = TonkGame(**params)
            dealer = int(record["dealer"])
            if "deck" in record:
                self.state = self.game.state_from_deck(record["deck"], dealer)
            else:
                self.state = self.game.new_initial_state(int(record["seed"]), dealer)
        except (CardGameError, KeyError, TypeError, ValueError, OverflowError) as e:
            raise click.ClickException(f"cannot deal this record: {e}") from e
        names = record.get("players")
        self.players = self.game.players
        self.names = [
            str(names[p]) if isinstance(names, list) and p < len(names) else "?"
            for p in range(self.players)
        ]

    def who(self, p: int) -> str:
        return f"Player {p} ({self.names[p]})"

    def run(self) -> None:
        s = self.state
        deal = f"seed {s.seed}" if "deck" not in self.record else "a stacked deck"
        click.echo(f"Tonk, {self.players} players, {deal}, dealer {self.who(s.dealer)}")
        click.echo(f"Rules: {describe_options(self.game)}")
        click.echo("Deal:")
        for p in range(self.players):
            click.echo(f"  {self.who(p)}: {_cards(s.hand(p))}  (count {s.count(p)})")
        top = s.discard_pile[-1].symbol() if s.discard_pile else "none"
        click.echo(f"  upcard: {top}   stock: {s.stock_size} cards")
        actions = self.record.get("actions")
        if not isinstance(actions, list):
            raise click.ClickException('the record has no "actions" list')
        turn = 0
        passes: list[int] = []
        # Actions are numbered from 1, as in the errors of replay_tonk_record.
        total = len(actions)
        for i, action in enumerate(actions, start=1):
            actor = s.current_player()
            if actor is None:
                raise click.ClickException(
                    f"action {i} of {total} ({action}): the hand is already over"
                )
            try:
                text = TonkState.action_to_string(action)
            except (CardGameError, TypeError, OverflowError) as e:
                raise click.ClickException(f"action {i} of {total} ({action}): {e}") from e
            if passes and (action != PASS or s.phase != "drop_window"):
                self.flush_passes(passes)
            if s.phase == "turn_start" and actor == s.turn_player:
                turn += 1
                hand = s.hand(actor)
                click.echo(
                    f"Turn {turn}: {self.who(actor)}  hand {_cards(hand)} (count {s.count(actor)})"
                )
            phase_before = s.phase
            hand_before = s.hand(actor)
            top_before = s.discard_pile[-1] if s.discard_pile else None
            stock_before = s.stock_size
            try:
                s.apply_action(action)
            except (CardGameError, TypeError, OverflowError) as e:
                raise click.ClickException(f"action {i} of {total} ({action}): {e}") from e
            if action == PASS and s.phase != "over":
                passes.append(actor)
                continue
            click.echo(f"  {self.line(actor, action, text, hand_before, top_before, stock_before)}")
            if phase_before == "spades" and s.phase != "spades":
                self.spades()
        self.flush_passes(passes)
        self.ending()

    def spades(self) -> None:
        view = self.state.view(0)
        if not view.spades_in:
            click.echo("  spades bet: nobody in")
        for p in view.spades_in:
            card = view.spades_shown[p]
            click.echo(f"  spades bet: {self.who(p)} shows {card.symbol() if card else 'no spade'}")

    def flush_passes(self, passes: list[int]) -> None:
        if passes:
            click.echo("  drop window: " + ", ".join(f"Player {p}" for p in passes) + " pass")
            passes.clear()

    def line(
        self,
        actor: int,
        action: int,
        text: str,
        hand_before: Sequence[Card],
        top_before: Card | None,
        stock_before: int,
    ) -> str:
        s = self.state
        d = describe_tonk_action(action)
        kind = d["kind"]
        head = f"{self.who(actor)}: {text}"
        if kind == "draw":
            new = [c for c in s.hand(actor) if c not in hand_before]
            if new:
                return f"{head} -> {new[0].symbol()} ({s.stock_size} left in the stock)"
            if stock_before == 0:
                return f"{head} -> the stock is empty"
        elif kind == "take" and top_before is not None:
            return f"{head} -> {top_before.symbol()}"
        elif kind in {"discard", "hit"}:
            where = f" on S{d['spread']}" if kind == "hit" else ""
            return f"{head} ({d['card'].symbol()}{where})"
        elif kind == "spread":
            ids = [sp.id for sp in s.spreads]
            new_id = f" as S{max(ids)}" if ids else ""
            return f"{head} ({_cards(d['cards'])}{new_id})"
        return head

    def ending_text(self, e: TonkEnding) -> str:
        cat = e.get("category")
        p = e.get("player")
        who = self.who(p) if isinstance(p, int) else "?"
        if cat == "tonk_out":
            dd = ", a double-double" if e.get("double_double") else ""
            return f"{who} tonked out, paid {e.get('paid')}s{dd}"
        if cat == "out_by_discard":
            return f"{who} went out by discarding the last card"
        if cat == "drop_won":
            return f"{who} dropped with the lowest count"
        if cat == "caught":
            return f"{who} dropped and was caught"
        if cat in {"stock_out", "stalled"}:
            w = e.get("winner")
            lowest = self.who(w) if isinstance(w, int) else "the tied lowest counts"
            why = (
                "the stock ran out"
                if cat == "stock_out"
                else "the hand stalled (TK-10.7: rounds with no stock draw and nothing put down)"
            )
            return f"{why}; {lowest} won"
        if cat == "deal_win":
            return f"{who} won on the deal, paid {e.get('paid')}s"
        if cat == "void":
            return "tie at the stock out" if e.get("stock_out") else "two deal-time winners"
        return str(e)

    def ending(self) -> None:
        s = self.state
        ending = s.ending
        if ending is None:
            click.echo(f"The record stops before the end (phase {s.phase}).")
            return
        click.echo(f"Ending: {ending['category']} - {self.ending_text(ending)}")
        for p in range(self.players):
            click.echo(f"  {self.who(p)}: {_cards(s.hand(p))}  (count {s.count(p)})")
        stake = int(self.game.options()["stake"])
        for title, transfers in (
            ("Settlement", s.settlement()),
            ("Spades bet", s.side_bet_settlement()),
        ):
            if transfers or title == "Settlement":
                click.echo(f"{title}:" + ("" if transfers else " nobody pays"))
            for payer, payee, units in transfers:
                click.echo(f"  Player {payer} pays Player {payee} {units * stake} ({units}s)")
        click.echo(
            "Returns: " + ", ".join(f"Player {p} {_signed(r)}" for p, r in enumerate(s.returns()))
        )


def show_record(line: str, number: int) -> None:
    try:
        record = json.loads(line)
    except ValueError as e:
        raise click.ClickException(f"line {number} is not JSON: {e}") from e
    if not isinstance(record, dict):
        raise click.ClickException(f"line {number} is not a JSON object")
    Show(record).run()


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
    """Re-run every Tonk record in FILE (JSON lines) and check each result.

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
