"""``cardtable score``: batch-score hand files.

Files are streamed in 1 MiB blocks and pipes in whatever each read gives;
the Rust core keeps the unfinished line between blocks (at most
MAX_LINE_BYTES of it) and parses, solves and records each block's lines in
parallel, so memory stays flat whatever the input and the output keeps input
order. A file is read, scored and written by the core's pipeline, on threads
of its own, with the interpreter released. The records are text (``text``,
``jsonl``, ``csv``) or, for Parquet, Arrow columns built by the core.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any, Generic, Protocol, TypeVar

import click

from cardtable import _core
from cardtable.cli import cluster
from cardtable.cli.arrow_io import arrow_kind, check_column, hand_columns
from cardtable.cli.io import (
    EXIT_REJECTED,
    EXIT_STATUS_HELP,
    Input,
    Output,
    StreamError,
    guarded,
    open_output,
    regular_size,
)
from cardtable.cli.options import build_meld_rules, meld_rule_options
from cardtable.cli.progress import Bar, shown
from cardtable.melds import MeldRules

CHUNK_BYTES = 1 << 20

R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)

OnBlock = Callable[[int, int, int, int], object]


class Tally:
    """Bytes read, lines and records over all inputs, drawn on the bar."""

    def __init__(self, bar: Bar) -> None:
        self.bar = bar
        self.nbytes = self.lines = self.scored = self.rejected = 0

    def add(self, nbytes: int, lines: int, scored: int = 0, rejected: int = 0) -> None:
        self.nbytes += nbytes
        self.lines += lines
        self.scored += scored
        self.rejected += rejected
        self.bar.update(self.nbytes, count=self.lines)


class RecordStream(Protocol[R_co]):
    """The core's scorer of one input (``ScoreStream``, ``ArrowScoreStream``)."""

    def feed(self, data: bytes) -> tuple[R_co, int, int, int]: ...
    def finish(self) -> tuple[R_co, int, int, int]: ...
    def feed_arrow(self, data: Any) -> tuple[R_co, int, int, int]: ...
    def pipe(
        self, input: int, target: Any, on_block: OnBlock, block_bytes: int = ..., /
    ) -> None: ...


class Sink(Protocol, Generic[R]):
    """Where records go, and the scorer that makes them."""

    name: str
    # The core's name for these records: text, jsonl, csv or arrow.
    records_format: str

    def stream(
        self, rules: MeldRules, label: str | None, threads: int | None
    ) -> RecordStream[R]: ...
    def write(self, records: R) -> None: ...
    def flush(self) -> None: ...
    def pipe(self, stream: RecordStream[R], source: Input, on_block: OnBlock) -> bool: ...
    def close(self) -> None: ...
    def end(self) -> None: ...


def _pipe(
    stream: RecordStream[Any], source: Input, in_fd: int, target: Any, on_block: OnBlock, name: str
) -> None:
    """Runs the core's pipeline from ``source`` (open as ``in_fd``) into
    ``target`` (a descriptor, or a callable taking each block's records)."""
    try:
        stream.pipe(in_fd, target, on_block, CHUNK_BYTES)
    except OSError as e:
        # The pipeline's own failures name their side; any other error
        # (from the progress bar, say) is not about these streams.
        if e.filename == "input":
            raise StreamError(f"cannot read {source.name!r}", e) from e
        if e.filename == "output":
            raise StreamError(f"cannot write {name}", e) from e
        raise


class TextSink:
    """Records in a text format (``text``, ``jsonl``, ``csv``) to an output."""

    def __init__(self, out: Output, fmt: str) -> None:
        self.out = out
        self.name = out.name
        self.records_format = fmt

    def stream(self, rules: MeldRules, label: str | None, threads: int | None) -> _core.ScoreStream:
        return _core.ScoreStream(rules, self.records_format, label, threads)

    def write(self, records: bytes) -> None:
        self.out.write(records)

    def flush(self) -> None:
        self.out.flush()

    def pipe(self, stream: RecordStream[bytes], source: Input, on_block: OnBlock) -> bool:
        """Scores a file into an output with a descriptor through the core's
        pipeline (False when either has none)."""
        in_fd = source.descriptor()
        out_fd = self.out.descriptor() if in_fd is not None and os.name == "posix" else None
        if in_fd is None or out_fd is None:
            return False
        _pipe(stream, source, in_fd, out_fd, on_block, self.name)
        return True

    def close(self) -> None:
        """Text is complete once written."""

    def end(self) -> None:
        """After an interruption: the output's last line is ended on exit."""


class ParquetSink:
    """Records as Arrow columns to a Parquet file (``--format parquet``),
    written by the core a row group per block: no pyarrow needed."""

    records_format = "arrow"

    def __init__(self, out: Output, with_file: bool) -> None:
        self.out = out
        self.name = out.name
        fd = out.descriptor()
        target: int | Any = out.stream if fd is None else fd
        with self._errors():
            self.parquet = _core.ParquetWriter(target, with_file, out.name)

    @contextlib.contextmanager
    def _errors(self) -> Iterator[None]:
        try:
            yield
        except OSError as e:
            raise StreamError(f"cannot write {self.name}", e) from e

    def stream(
        self, rules: MeldRules, label: str | None, threads: int | None
    ) -> _core.ArrowScoreStream:
        return _core.ArrowScoreStream(rules, label, threads)

    def write(self, records: Any) -> None:
        """Writes ``records`` (the core's, or a pyarrow table of them from
        Ray) as a row group."""
        with self._errors():
            self.parquet.write(records)

    def flush(self) -> None:
        """The row groups written so far reach the output (a pipe's blocks,
        as they come)."""
        self.out.flush()

    def pipe(self, stream: RecordStream[Any], source: Input, on_block: OnBlock) -> bool:
        """Scores a file through the core's pipeline, which writes each
        block's records from its writer thread (False for an input without
        a descriptor)."""
        in_fd = source.descriptor()
        if in_fd is None:
            return False
        _pipe(stream, source, in_fd, self.parquet, on_block, self.name)
        return True

    def close(self) -> None:
        """Writes the footer: the file is complete, of the row groups written."""
        with self._errors():
            self.parquet.close()

    def end(self) -> None:
        """After an interruption: the file is closed on the row groups
        written (the core's pipeline stops between blocks)."""
        self.close()


def score_arrow_file(
    name: str,
    kind: str,
    column: str | None,
    out: Sink[R],
    rules: MeldRules,
    label: str | None,
    threads: int | None,
    tally: Tally,
) -> None:
    """Scores the column of hands of an Arrow or Parquet file, one record
    batch at a time (row r is line r + 1)."""
    stream = out.stream(rules, label, threads)
    for hands in hand_columns(name, kind, column):
        records, ok, bad, lines = stream.feed_arrow(hands)
        out.write(records)
        tally.add(0, lines, ok, bad)


def score_stream(
    source: Input,
    out: Sink[R],
    rules: MeldRules,
    label: str | None,
    threads: int | None,
    tally: Tally,
) -> None:
    """Scores one input here. A file is scored by the core's pipeline when
    the output allows: it reads, scores and writes on threads of its own,
    detached. Otherwise (a pipe in, or a stream without a descriptor) each
    block is scored and written in turn, so that a filter in a pipeline
    answers each block at once."""
    stream = out.stream(rules, label, threads)
    if out.pipe(stream, source, tally.add):
        return
    for block in source.blocks(CHUNK_BYTES):
        records, ok, bad, lines = stream.feed(block)
        out.write(records)
        out.flush()
        tally.add(len(block), lines, ok, bad)
    records, ok, bad, lines = stream.finish()
    out.write(records)
    tally.add(0, lines, ok, bad)


def score_on_ray(
    source: Input,
    out: Sink[R],
    rules: MeldRules,
    label: str | None,
    threads: int | None,
    tally: Tally,
) -> None:
    """Scores one input on the Ray cluster: chunks of whole lines, written
    back in input order."""
    from cardtable import distributed  # imported for --ray only, not at every start

    chunks = distributed.score_blocks(
        source.blocks(CHUNK_BYTES),
        rules,
        out.records_format,
        file=label,
        chunk_bytes=distributed.CHUNK_BYTES,
        cpus_per_chunk=threads or 1,
    )
    for chunk in chunks:
        out.write(chunk.output)
        if not source.regular:
            out.flush()
        tally.add(chunk.nbytes, chunk.lines, chunk.scored, chunk.rejected)


@click.command("score", epilog=EXIT_STATUS_HELP)
@click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@meld_rule_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "jsonl", "csv", "parquet"]),
    default="text",
    show_default=True,
    help="Output format (parquet: the jsonl records' columns).",
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
    help=f"Worker threads, 1 to {_core.MAX_THREADS} (default: all cores; "
    "with --ray: CPUs and threads per Ray task, default 1).",
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Progress on stderr (default: when stderr is a terminal).",
)
@cluster.ray_options(None)
@guarded("score")
def score_command(
    files: tuple[str, ...],
    fmt: str,
    column: str | None,
    output: str | None,
    threads: int | None,
    progress: bool | None,
    ray_address: str | None,
    **rule_params: Any,
) -> None:
    """Score hands: minimum deadwood and one optimal arrangement per line.

    FILES hold one hand per line (tokens such as AS 10d Q♥ JK, separated by
    spaces or commas); lines end at LF, CRLF or a lone CR; blank lines and #
    comments are skipped; '-' or no file reads standard input. Every line gets
    a record, in input order; a bad line gets an error record and scoring goes
    on: a line without a card, or longer than MAX_LINE_BYTES (64 KiB), is one.
    A UTF-16 or UTF-32 file, or a binary one, is not scored: one error on
    stderr names it, and the exit status is 1.
    In CSV and text output, control characters of an echoed line are written
    as \\uXXXX escapes.

    Parquet (.parquet) and Arrow IPC (.arrow, .feather, .arrows) files are
    read one record batch at a time: their column of hands (--column) holds
    strings or lists of card codes or tokens, and row r is line r + 1; a null
    or empty hand gets an error record. Reading them needs pyarrow (pip
    install 'cardtable[arrow]'); writing --format parquet does not.
    """
    rules = build_meld_rules(rule_params)
    names = list(files) or ["-"]
    with_file = len(names) > 1
    kinds = [arrow_kind(name) for name in names]
    if column is not None and not any(kinds):
        raise click.UsageError("--column names the column of Parquet or Arrow inputs; none given")
    if ray_address is not None and any(kinds):
        raise click.UsageError(
            "--ray scores hand files; Parquet and Arrow inputs are scored here (drop --ray)"
        )
    for name, kind in zip(names, kinds, strict=True):
        if kind is not None:
            check_column(name, kind, column)
    if ray_address is not None:
        cluster.require()
    out = open_output(output, names)
    sink: Sink[Any] = ParquetSink(out, with_file) if fmt == "parquet" else TextSink(out, fmt)
    if ray_address is not None:
        cluster.connect(ray_address)
    run = score_stream if ray_address is None else score_on_ray
    # Arrow inputs count rows, not bytes: then the total is unknown.
    sizes = [None if kind else regular_size(name) for name, kind in zip(names, kinds, strict=True)]
    total = None if None in sizes else sum(s or 0 for s in sizes)
    unread = 0  # inputs in another encoding than UTF-8
    with Bar(shown(progress), total, "bytes", counted="lines") as bar:
        tally = Tally(bar)
        if fmt != "parquet":
            out.write(_core.score_header(fmt, with_file).encode())
        try:
            for name, kind in zip(names, kinds, strict=True):
                if with_file:
                    bar.update(tally.nbytes, description=name)
                label = name if with_file else None
                if kind is not None:
                    score_arrow_file(name, kind, column, sink, rules, label, threads, tally)
                    continue
                source = Input(name)
                try:
                    # One error for a file of another encoding, not one per line.
                    wrong = source.wrong_encoding()
                    if wrong is not None:
                        click.echo(f"cardtable score: not scored: {wrong}", file=sys.stderr)
                        unread += 1
                        continue
                    run(source, sink, rules, label, threads, tally)
                finally:
                    source.close()
        except KeyboardInterrupt:
            with contextlib.suppress(StreamError):
                sink.end()  # what was written stays whole
            raise
        sink.close()
        out.flush()
        out.close()
    scored, rejected = tally.scored, tally.rejected
    if rejected:
        click.echo(
            f"cardtable score: {rejected} of {scored + rejected} lines rejected "
            "(see the records with an error)",
            file=sys.stderr,
        )
    if rejected or unread:
        sys.exit(EXIT_REJECTED)
