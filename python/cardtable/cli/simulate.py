"""``cardtable simulate tonk``: bot-against-bot games in parallel, with confidence intervals.

Every deal is played once per seat rotation (so ``--games`` is rounded up to a
multiple of the number of bots) and the results are paired by deal. Games are
seeded from the run's seed and their index, never from the thread that plays
them, so the same seed gives the same output for any ``--threads``.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import click

from cardtable import _core
from cardtable.cli.io import EXIT_STATUS_HELP, Output, guarded, open_output
from cardtable.cli.tonk_options import (
    build_game,
    describe_options,
    parse_bots,
    pop_rule_options,
    schema,
    tonk_rule_options,
)
from cardtable.deck import new_seed
from cardtable.games.tonk import Summary, simulate

# What the rate column (JSON: "win_rate") measures: with three or more
# players several bots can gain in one game, so the rates need not sum to 100%.
POSITIVE_RETURN_NOTE = (
    "positive return: share of games a bot ended with a gain (several bots can gain in one game)"
)


class Progress:
    """A one-line progress bar on stderr."""

    def __init__(self, enabled: bool, total: int) -> None:
        self.enabled = enabled
        self.total = total
        self.start = time.monotonic()

    def update(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        rate = done / max(time.monotonic() - self.start, 1e-9)
        frac = done / total if total else 1.0
        bar = "#" * int(frac * 30)
        text = f"[{bar:<30}] {frac:6.1%}  {done:,}/{total:,} games  {rate:,.0f} games/s"
        click.echo("\r" + text, file=sys.stderr, nl=False)

    def finish(self) -> None:
        if self.enabled:
            click.echo("", file=sys.stderr)


def _interval(mean: float, ci: tuple[float, float] | list[float], fmt: str) -> str:
    return f"{mean:{fmt}} [{ci[0]:{fmt}}, {ci[1]:{fmt}}]"


def text_report(summary: Summary, game_text: str, requested: int) -> list[str]:
    games = summary["games"]
    bots = summary["bots"]
    n = len(bots)
    rounded = f" (--games {requested} rounded up to whole rotations)" if games != requested else ""
    lines = [
        f"Tonk simulation: {games:,} games, {games // n:,} deals x {n} seatings{rounded}",
        f"seed {summary['seed']}; {game_text}",
        "",
        f"{'bot':<16} {'positive return [95% CI]':<26} stakes per game [95% CI]",
    ]
    for i, b in enumerate(bots, 1):
        label = f"{i}. {b['bot']}"
        win = _interval(100 * b["win_rate"], [100 * x for x in b["win_rate_ci"]], "5.1f")
        stakes = _interval(b["stakes_per_game"], b["stakes_per_game_ci"], "+.3f")
        lines.append(f"{label:<16} {win + ' %':<26} {stakes}")
    lines.append(POSITIVE_RETURN_NOTE)
    diff = summary.get("stake_difference")
    if diff is not None:
        mean, low, high = diff
        names = f"{bots[0]['bot']} - {bots[1]['bot']}"
        lines.append("")
        lines.append(
            f"paired stake difference ({names}): {_interval(mean, (low, high), '+.3f')} per game"
        )
    lines.append("")
    lines.append("how hands ended:")
    endings = summary["endings"]
    total = sum(endings.values()) or 1
    # Every ending category of the game, in the engine's order.
    for key, count in endings.items():
        label = key.replace("_", " ")
        lines.append(f"  {label:<16} {count:>9,}  {100 * count / total:5.1f} %")
    return lines


def json_report(summary: Summary, options: dict[str, Any], requested: int) -> dict[str, Any]:
    bots = [
        {
            "bot": b["bot"],
            "games": b["games"],
            "win_rate": b["win_rate"],
            "win_rate_ci": list(b["win_rate_ci"]),
            "stakes_per_game": b["stakes_per_game"],
            "stakes_per_game_ci": list(b["stakes_per_game_ci"]),
        }
        for b in summary["bots"]
    ]
    out: dict[str, Any] = {
        "game": "tonk",
        "seed": summary["seed"],
        "games": summary["games"],
        "requested_games": requested,
        "options": options,
        "bots": bots,
        "endings": dict(summary["endings"]),
    }
    diff = summary.get("stake_difference")
    if diff is not None:
        mean, low, high = diff
        out["stake_difference"] = {"bots": [0, 1], "mean": mean, "ci": [low, high]}
    return out


@click.group("simulate")
def simulate_group() -> None:
    """Bot-against-bot simulations."""


@simulate_group.command("tonk", epilog=EXIT_STATUS_HELP)
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    help="Games to play (rounded up to a multiple of the number of bots).",
)
@click.option(
    "--bots",
    callback=parse_bots,
    required=True,
    metavar="BOT,BOT[,...]",
    help="One bot per seat: random, greedy[:drop_at], strong[:samples].",
)
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), help="Seed (default: a fresh one).")
@click.option(
    "--threads",
    type=click.IntRange(1, _core.MAX_THREADS),
    help=f"Worker threads, 1 to {_core.MAX_THREADS} (default: all cores).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Output format.",
)
@click.option(
    "--record",
    type=click.Path(dir_okay=False, writable=True),
    help="Write every game to this file as a JSON line (see 'cardtable replay').",
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Progress bar on stderr (default: when stderr is a terminal).",
)
@tonk_rule_options("Players ({players}).  [default: the number of bots]")
@guarded("simulate")
def simulate_tonk_command(
    games: int,
    bots: list[str],
    seed: int | None,
    threads: int | None,
    fmt: str,
    record: str | None,
    progress: bool | None,
    **params: Any,
) -> None:
    """Play Tonk bots against each other and report win rates and stakes.

    Each deal is played once per rotation of the seats, and the results are
    paired by deal: per bot the positive-return rate (the share of games it
    ended with a gain; JSON "win_rate") and the stakes won per game with 95%
    confidence intervals, how hands ended, and for two bots the paired
    difference of their stakes. The same seed gives the same numbers for any
    --threads.

    Rule flags take values spelt either way (any_time or any-time); only the
    flags given change the preset.
    """
    options = pop_rule_options(params)
    players = options.pop("players", None)
    if players is not None and players != len(bots):
        raise click.UsageError(
            f"--players {players} needs {players} bots in --bots (one per seat), "
            f"got {len(bots)}: {','.join(bots)}"
        )
    seats = schema()["players"]
    if not (seats.minimum or 0) <= len(bots) <= (seats.maximum or 0):
        raise click.UsageError(
            f"--bots: Tonk takes {seats.values_text} players ({seats.rule}), got {len(bots)} bots"
        )
    game = build_game({"players": len(bots), **options})
    seed = new_seed() if seed is None else seed
    n = len(bots)
    total = -(-games // n) * n
    chunk = max(n, min(4096, -(-total // 100)))
    bar = Progress(sys.stderr.isatty() if progress is None else progress, total)
    out: Output | None = None
    if record is not None:
        out = open_output(record, option="--record")

    def write(records: list[str]) -> None:
        if out is not None:
            out.write("".join(r + "\n" for r in records).encode())

    try:
        summary = simulate(
            game,
            bots,
            games,
            seed,
            threads=threads,
            chunk=chunk,
            on_records=write if out is not None else None,
            on_progress=bar.update,
        )
    finally:
        bar.finish()
        if out is not None:
            out.close()
    if fmt == "json":
        click.echo(json.dumps(json_report(summary, game.options(), games)))
        return
    for line in text_report(summary, describe_options(game), games):
        click.echo(line)
