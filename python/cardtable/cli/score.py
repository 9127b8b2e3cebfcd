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
from typing import Any

import click

from cardtable import _core
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


def score_stream(
    source: Input,
    out: Output,
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
    """
    rules = build_meld_rules(rule_params)
    names = list(files) or ["-"]
    with_file = len(names) > 1
    show = sys.stderr.isatty() if progress is None else progress
    out = open_output(output, names)
    sizes = [regular_size(name) for name in names]
    bar = Progress(show, None if None in sizes else sum(s or 0 for s in sizes))
    scored = rejected = 0
    try:
        out.write(_core.score_header(fmt, with_file).encode())
        for name in names:
            bar.name = name if with_file else ""
            source = Input(name)
            try:
                ok, bad = score_stream(
                    source, out, rules, fmt, name if with_file else None, threads, bar
                )
            finally:
                source.close()
            scored += ok
            rejected += bad
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
