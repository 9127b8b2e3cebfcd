"""``cardtable score``: batch-score hand files.

Files are streamed in chunks of whole lines; each chunk is parsed, solved and
formatted by the Rust core in parallel, so memory stays flat whatever the
file size and the output keeps input order.
"""

from __future__ import annotations

import os
import sys
import time
from typing import IO, Any

import click

from cardtable import _core
from cardtable.cli.options import build_meld_rules, meld_rule_options
from cardtable.melds import MeldRules

CHUNK_BYTES = 1 << 20


class Progress:
    """A one-line progress report on stderr (only when stderr is a terminal)."""

    def __init__(self, enabled: bool, total_bytes: int | None) -> None:
        self.enabled = enabled
        self.total = total_bytes
        self.start = time.monotonic()
        self.done_bytes = 0
        self.lines = 0

    def update(self, nbytes: int, lines: int) -> None:
        self.done_bytes += nbytes
        self.lines += lines
        if not self.enabled:
            return
        elapsed = max(time.monotonic() - self.start, 1e-9)
        rate = self.lines / elapsed
        if self.total:
            frac = min(self.done_bytes / self.total, 1.0)
            bar = "#" * int(frac * 30)
            text = f"[{bar:<30}] {frac:6.1%}  {self.lines:,} lines  {rate:,.0f} lines/s"
        else:
            text = f"{self.lines:,} lines  {rate:,.0f} lines/s"
        click.echo("\r" + text, file=sys.stderr, nl=False)

    def finish(self) -> None:
        if self.enabled:
            click.echo("", file=sys.stderr)


def _open_input(name: str) -> tuple[IO[bytes], int | None, bool]:
    if name == "-":
        return sys.stdin.buffer, None, False
    try:
        f = open(name, "rb")  # noqa: SIM115 - closed by the caller
    except OSError as e:
        raise click.FileError(name, hint=e.strerror) from e
    try:
        size: int | None = os.fstat(f.fileno()).st_size
    except OSError:
        size = None
    return f, size, True


def score_stream(
    source: IO[bytes],
    out: IO[bytes],
    rules: MeldRules,
    fmt: str,
    label: str | None,
    threads: int | None,
    progress: Progress,
) -> tuple[int, int]:
    """Scores one input; returns (scored, rejected)."""
    scored = rejected = 0
    line = 1
    carry = b""
    while True:
        block = source.read(CHUNK_BYTES)
        if not block:
            data, carry = carry, b""
        else:
            data = carry + block
            cut = data.rfind(b"\n")
            if cut < 0:
                carry = data
                continue
            data, carry = data[: cut + 1], data[cut + 1 :]
        if data:
            text, ok, bad, lines = _core.score_chunk(data, line, rules, fmt, label, threads)
            out.write(text)
            scored += ok
            rejected += bad
            line += lines
            progress.update(len(data), lines)
        if not block:
            return scored, rejected


@click.command("score")
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
    "--output", "-o", type=click.Path(dir_okay=False, allow_dash=True), help="Write here."
)
@click.option("--threads", type=click.IntRange(min=1), help="Worker threads (default: all cores).")
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Progress on stderr (default: when stderr is a terminal).",
)
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
    spaces or commas); blank lines and # comments are skipped; '-' or no file
    reads standard input. Every line gets a record, in input order; a bad line
    gets an error record and scoring goes on.

    Exit status: 0 when every line scored, 1 when some were rejected, 2 on
    usage errors.
    """
    rules = build_meld_rules(rule_params)
    names = list(files) or ["-"]
    with_file = len(names) > 1
    show = sys.stderr.isatty() if progress is None else progress
    out_file: IO[bytes]
    if output is None or output == "-":
        out_file = sys.stdout.buffer
        close_out = False
    else:
        try:
            out_file = open(output, "wb")  # noqa: SIM115 - closed below
        except OSError as e:
            raise click.FileError(output, hint=e.strerror) from e
        close_out = True
    scored = rejected = 0
    try:
        out_file.write(_core.score_header(fmt, with_file).encode())
        for name in names:
            source, size, close_in = _open_input(name)
            bar = Progress(show, size)
            try:
                ok, bad = score_stream(
                    source, out_file, rules, fmt, name if with_file else None, threads, bar
                )
            finally:
                bar.finish()
                if close_in:
                    source.close()
            scored += ok
            rejected += bad
        out_file.flush()
    finally:
        if close_out:
            out_file.close()
    if rejected:
        click.echo(
            f"cardtable score: {rejected} of {scored + rejected} lines rejected "
            "(see the records with an error)",
            file=sys.stderr,
        )
        sys.exit(1)
