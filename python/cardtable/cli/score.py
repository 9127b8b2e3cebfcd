"""``cardtable score``: batch-score hand files.

Files are streamed in 1 MiB blocks and pipes in whatever each read gives;
the Rust core keeps the unfinished line between blocks (at most
MAX_LINE_BYTES of it) and parses, solves and formats each block's lines in
parallel, so memory stays flat whatever the input and the output keeps input
order.
"""

from __future__ import annotations

import sys
import time
from typing import Any, Protocol

import click

from cardtable import _core
from cardtable.cli.arrow_io import ParquetOutput, arrow_kind, check_column, hand_columns
from cardtable.cli.io import (
    EXIT_REJECTED,
    EXIT_STATUS_HELP,
    Input,
    Output,
    guarded,
    open_output,
    regular_size,
)
from cardtable.cli.options import build_meld_rules, meld_rule_options
from cardtable.melds import MeldRules

CHUNK_BYTES = 1 << 20


class Progress:
    """One progress line on stderr over all inputs (only when stderr is a terminal)."""

    def __init__(self, enabled: bool, total_bytes: int | None) -> None:
        self.enabled = enabled
        self.total = total_bytes
        self.start = time.monotonic()
        self.done_bytes = 0
        self.lines = 0
        self.name = ""

    def update(self, nbytes: int, lines: int) -> None:
        self.done_bytes += nbytes
        self.lines += lines
        if not self.enabled:
            return
        elapsed = max(time.monotonic() - self.start, 1e-9)
        rate = self.lines / elapsed
        where = f"{self.name}  " if self.name else ""
        if self.total:
            frac = min(self.done_bytes / self.total, 1.0)
            bar = "#" * int(frac * 30)
            text = f"{where}[{bar:<30}] {frac:6.1%}  {self.lines:,} lines  {rate:,.0f} lines/s"
        else:
            text = f"{where}{self.lines:,} lines  {rate:,.0f} lines/s"
        click.echo("\r\x1b[K" + text, file=sys.stderr, nl=False)

    def finish(self) -> None:
        if self.enabled:
            click.echo("", file=sys.stderr)


class Sink(Protocol):
    """Where records go: an output file, or a Parquet writer."""

    def write(self, data: bytes) -> None: ...
    def flush(self) -> None: ...


class ParquetSink:
    """JSON Lines records written as Parquet (``--format parquet``)."""

    def __init__(self, out: Output, with_file: bool) -> None:
        self.parquet = ParquetOutput(out.stream, with_file)

    def write(self, data: bytes) -> None:
        self.parquet.write(data)

    def flush(self) -> None:
        """Parquet is written in record batches; nothing to flush between them."""

    def close(self) -> None:
        self.parquet.close()


def score_arrow_file(
    name: str,
    kind: str,
    column: str | None,
    out: Sink,
    rules: MeldRules,
    fmt: str,
    label: str | None,
    threads: int | None,
    progress: Progress,
) -> tuple[int, int]:
    """Scores the column of hands of an Arrow or Parquet file, one record
    batch at a time (row r is line r + 1); returns (scored, rejected)."""
    scored = rejected = 0
    line = 1
    for hands in hand_columns(name, kind, column):
        text, ok, bad = _core.score_arrow_records(
            hands, fmt, rules=rules, threads=threads, first_line=line, file=label
        )
        out.write(text)
        scored += ok
        rejected += bad
        line += len(hands)
        progress.update(0, len(hands))
    return scored, rejected


def score_stream(
    source: Input,
    out: Sink,
    rules: MeldRules,
    fmt: str,
    label: str | None,
    threads: int | None,
    progress: Progress,
) -> tuple[int, int]:
    """Scores one input; returns (scored, rejected)."""
    scored = rejected = 0
    stream = _core.ScoreStream(rules, fmt, label, threads)
    for block in source.blocks(CHUNK_BYTES):
        text, ok, bad, lines = stream.feed(block)
        out.write(text)
        if not source.regular:
            out.flush()  # a filter in a pipeline answers each block at once
        scored += ok
        rejected += bad
        progress.update(len(block), lines)
    text, ok, bad, lines = stream.finish()
    out.write(text)
    progress.update(0, lines)
    return scored + ok, rejected + bad


@click.command("score", epilog=EXIT_STATUS_HELP)
@click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@meld_rule_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "jsonl", "csv", "parquet"]),
    default="text",
    show_default=True,
    help="Output format (parquet: the jsonl records' columns; needs pyarrow).",
)
@click.option(
    "--column",
    metavar="NAME",
    help="The column of hands of Parquet or Arrow inputs (default: the only column, else 'hand').",
)
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, allow_dash=True),
    help="Write here (never one of the inputs).",
)
@click.option(
    "--threads",
    type=click.IntRange(1, _core.MAX_THREADS),
    help=f"Worker threads, 1 to {_core.MAX_THREADS} (default: all cores).",
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Progress on stderr (default: when stderr is a terminal).",
)
@guarded("score")
def score_command(
    files: tuple[str, ...],
    fmt: str,
    column: str | None,
    output: str | None,
    threads: int | None,
    progress: bool | None,
    **rule_params: Any,
) -> None:
    """Score hands: minimum deadwood and one optimal arrangement per line.

    FILES hold one hand per line (tokens such as AS 10d Q♥ JK, separated by
    spaces or commas); lines end at LF, CRLF or a lone CR; blank lines and #
    comments are skipped; '-' or no file reads standard input. Every line gets
    a record, in input order; a bad line gets an error record and scoring goes
    on: a line without a card, or longer than MAX_LINE_BYTES (64 KiB), is one.
    In CSV and text output, control characters of an echoed line are written
    as \\uXXXX escapes.

    Parquet (.parquet) and Arrow IPC (.arrow, .feather, .arrows) files are
    read one record batch at a time: their column of hands (--column) holds
    strings or lists of card codes or tokens, and row r is line r + 1; a null
    or empty hand gets an error record. Both need pyarrow (pip install
    'cardtable[arrow]').
    """
    rules = build_meld_rules(rule_params)
    names = list(files) or ["-"]
    with_file = len(names) > 1
    show = sys.stderr.isatty() if progress is None else progress
    kinds = [arrow_kind(name) for name in names]
    if column is not None and not any(kinds):
        raise click.UsageError("--column names the column of Parquet or Arrow inputs; none given")
    for name, kind in zip(names, kinds, strict=True):
        if kind is not None:
            check_column(name, kind, column)
    out = open_output(output, names)
    sink: Sink = out
    records = fmt
    if fmt == "parquet":
        sink = ParquetSink(out, with_file)
        records = "jsonl"
    # Arrow inputs report rows, not bytes: then the total is unknown.
    sizes = [None if kind else regular_size(name) for name, kind in zip(names, kinds, strict=True)]
    bar = Progress(show, None if None in sizes else sum(s or 0 for s in sizes))
    scored = rejected = 0
    try:
        if fmt != "parquet":
            out.write(_core.score_header(fmt, with_file).encode())
        for name, kind in zip(names, kinds, strict=True):
            bar.name = name if with_file else ""
            label = name if with_file else None
            if kind is not None:
                ok, bad = score_arrow_file(
                    name, kind, column, sink, rules, records, label, threads, bar
                )
            else:
                source = Input(name)
                try:
                    ok, bad = score_stream(source, sink, rules, records, label, threads, bar)
                finally:
                    source.close()
            scored += ok
            rejected += bad
        if isinstance(sink, ParquetSink):
            sink.close()
        out.flush()
        out.close()
    finally:
        bar.finish()
    if rejected:
        click.echo(
            f"cardtable score: {rejected} of {scored + rejected} lines rejected "
            "(see the records with an error)",
            file=sys.stderr,
        )
        sys.exit(EXIT_REJECTED)
