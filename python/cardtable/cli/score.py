"""``cardtable score``: batch-score hand files.

Files are streamed in 1 MiB blocks and pipes in whatever each read gives;
the Rust core keeps the unfinished line between blocks (at most
MAX_LINE_BYTES of it) and parses, solves and formats each block's lines in
parallel, so memory stays flat whatever the input and the output keeps input
order.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from cardtable import _core, distributed
from cardtable.cli import cluster
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
from cardtable.cli.progress import Bar, shown
from cardtable.melds import MeldRules

CHUNK_BYTES = 1 << 20


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


def score_stream(
    source: Input,
    out: Output,
    rules: MeldRules,
    fmt: str,
    label: str | None,
    threads: int | None,
    tally: Tally,
) -> None:
    """Scores one input here."""
    stream = _core.ScoreStream(rules, fmt, label, threads)
    for block in source.blocks(CHUNK_BYTES):
        text, ok, bad, lines = stream.feed(block)
        out.write(text)
        if not source.regular:
            out.flush()  # a filter in a pipeline answers each block at once
        tally.add(len(block), lines, ok, bad)
    text, ok, bad, lines = stream.finish()
    out.write(text)
    tally.add(0, lines, ok, bad)


def score_on_ray(
    source: Input,
    out: Output,
    rules: MeldRules,
    fmt: str,
    label: str | None,
    threads: int | None,
    tally: Tally,
) -> None:
    """Scores one input on the Ray cluster: chunks of whole lines, written
    back in input order."""
    chunks = distributed.score_blocks(
        source.blocks(CHUNK_BYTES),
        rules,
        fmt,
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
    type=click.Choice(["text", "jsonl", "csv"]),
    default="text",
    show_default=True,
    help="Output format.",
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
    In CSV and text output, control characters of an echoed line are written
    as \\uXXXX escapes.
    """
    rules = build_meld_rules(rule_params)
    names = list(files) or ["-"]
    with_file = len(names) > 1
    if ray_address is not None:
        _core.ScoreStream(rules, fmt)  # bad options are ours to report, before Ray starts
        cluster.require()
    out = open_output(output, names)
    if ray_address is not None:
        cluster.connect(ray_address)
    run = score_stream if ray_address is None else score_on_ray
    sizes = [regular_size(name) for name in names]
    total = None if None in sizes else sum(s or 0 for s in sizes)
    with Bar(shown(progress), total, "bytes", counted="lines") as bar:
        tally = Tally(bar)
        out.write(_core.score_header(fmt, with_file).encode())
        for name in names:
            if with_file:
                bar.update(tally.nbytes, description=name)
            source = Input(name)
            try:
                run(source, out, rules, fmt, name if with_file else None, threads, tally)
            finally:
                source.close()
        out.flush()
        out.close()
    scored, rejected = tally.scored, tally.rejected
    if rejected:
        click.echo(
            f"cardtable score: {rejected} of {scored + rejected} lines rejected "
            "(see the records with an error)",
            file=sys.stderr,
        )
        sys.exit(EXIT_REJECTED)
