"""``cardtable simulate GAME --plot FILE``: one figure of a run's summary, PNG
or SVG, drawn with matplotlib (an optional extra: ``pip install 'cardtable[plot]'``).

Every number drawn comes from the summary that the text and JSON reports
print: (a) each bot's win rate with its 95% confidence interval, (b) each
bot's games per return, with its mean return, (c) the games per game length
(whole virtual seconds for a real-time game, actions otherwise), with its
mean. Matplotlib is imported only when a plot is asked for, and only through
its object-oriented API (a ``Figure`` of its own, no pyplot state).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from itertools import pairwise
from pathlib import PurePath
from typing import TYPE_CHECKING

import click

from cardtable.games.results import Distribution, Summary

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

MATPLOTLIB_MISSING = "matplotlib is not installed: pip install 'cardtable[plot]'"

#: The file formats, by suffix.
FORMATS = {".png": "png", ".svg": "svg"}


def plot_format(path: str) -> str:
    """``png`` or ``svg`` from the file's suffix (any case); ValueError otherwise."""
    suffix = PurePath(path).suffix.lower()
    if suffix not in FORMATS:
        raise ValueError(f"{path!r} is not a .png or .svg file")
    return FORMATS[suffix]


def check_plot_path(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """The ``--plot`` callback: a .png or .svg file."""
    if value is not None:
        try:
            plot_format(value)
        except ValueError as e:
            raise click.BadParameter(f"{e}: the plot is written as PNG or SVG") from e
    return value


def require() -> None:
    """A usage error if matplotlib is missing (checked before the run starts)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError as e:
        raise click.UsageError(f"--plot: {MATPLOTLIB_MISSING}") from e


@dataclass(frozen=True)
class Labels:
    """The words of the figure: the game's (from its presenter) and the run's options."""

    game: str
    """``Tonk``."""
    options: str
    """The preset and every option that differs from it: ``pagat rules, --stake 5``."""
    win: str
    """What a bot's ``positive_return_rate`` is called: ``positive return``, ``wins``."""
    returns: str
    """What a bot's return per game is: ``stakes per game``, ``score margin``."""
    unit: str
    """What one game is called: ``hand``, ``game``."""


#: A distribution spanning more values than this is drawn in wider bins.
MAX_BARS = 60
#: About how many bins a wide distribution is cut into.
BINS = 40
#: Returns of at most this many values get a tick each.
MAX_TICKS = 15


def bin_width(values: list[int]) -> int:
    """1 (a bar per value) for values spanning at most MAX_BARS integers;
    otherwise the least round width (1, 2, 5, 10, 20, 50, ...) that cuts
    their span into at most BINS bins."""
    if not values or values[-1] - values[0] < MAX_BARS:
        return 1
    span = values[-1] - values[0] + 1
    scale = 1
    while True:
        for step in (1, 2, 5):
            if step * scale * BINS >= span:
                return step * scale
        scale *= 10


def histogram(distribution: Distribution, width: int) -> Distribution:
    """Games per bin ``[low, low + width)``, ``low`` a multiple of ``width``,
    empty bins left out (width 1: the distribution itself)."""
    bins: dict[int, int] = {}
    for value, count in distribution:
        low = value // width * width
        bins[low] = bins.get(low, 0) + count
    return sorted(bins.items())


def _values(distribution: Distribution) -> tuple[list[int], list[int]]:
    return [v for v, _ in distribution], [c for _, c in distribution]


def _mean(distribution: Distribution) -> float:
    games = sum(c for _, c in distribution)
    return sum(v * c for v, c in distribution) / games if games else 0.0


def _gap(values: list[int]) -> int:
    """The least distance between two values (1 for fewer than two): bar widths."""
    steps = [b - a for a, b in pairwise(values)]
    return min(steps, default=1)


def _binned(label: str, width: int) -> str:
    return f"{label}, bins of {width}" if width > 1 else label


def _win_rates(ax: Axes, summary: Summary, labels: Labels) -> None:
    bots = summary["bots"]
    # Each bar's numbers under it: small bars leave no room inside.
    names = []
    for i, b in enumerate(bots, 1):
        low, high = b["positive_return_rate_ci"]
        names.append(
            f"{i}. {b['bot']}\n{100 * b['positive_return_rate']:.1f}% "
            f"[{100 * low:.1f}, {100 * high:.1f}]"
        )
    rates = [100 * b["positive_return_rate"] for b in bots]
    below = [100 * (b["positive_return_rate"] - b["positive_return_rate_ci"][0]) for b in bots]
    above = [100 * (b["positive_return_rate_ci"][1] - b["positive_return_rate"]) for b in bots]
    colors = [f"C{k}" for k in range(len(bots))]
    ax.bar(names, rates, yerr=[below, above], capsize=6, color=colors)
    ax.set_ylim(0, max(100.0, *(r + a for r, a in zip(rates, above, strict=True))))
    ax.set_ylabel(f"{labels.win} (% of {labels.unit}s)")
    ax.set_title(f"(a) {labels.win} per bot, 95% CI")


def _returns(ax: Axes, summary: Summary, labels: Labels) -> None:
    bots = summary["bots"]
    n = len(bots)
    every = sorted({v for b in bots for v, _ in b["return_distribution"]})
    width = bin_width(every)
    for k, b in enumerate(bots):
        values, counts = _values(histogram(b["return_distribution"], width))
        color = f"C{k}"
        label = f"{k + 1}. {b['bot']} (mean {b['stakes_per_game']:+.2f})"
        if width == 1:
            # The bots' bars side by side around each value.
            bar = 0.8 * _gap(every) / n
            offset = (k - (n - 1) / 2) * bar
            ax.bar([v + offset for v in values], counts, width=bar, color=color, label=label)
        else:
            # The bots' bars side by side within each bin.
            bar = width / n
            xs = [v + k * bar for v in values]
            ax.bar(xs, counts, width=bar, align="edge", color=color, label=label)
        ax.axvline(b["stakes_per_game"], color=color, linestyle="--", linewidth=1)
    if width == 1 and len(every) <= MAX_TICKS:
        ax.set_xticks(every)  # each value under its bars
    ax.set_xlabel(_binned(f"{labels.returns} (dashed: mean)", width))
    ax.set_ylabel(f"{labels.unit}s")
    ax.margins(y=0.2)  # room for the legend
    per = "bin" if width > 1 else "value"
    ax.set_title(f"(b) {labels.returns}: {labels.unit}s per {per}")
    ax.legend(fontsize="small")


def _lengths(ax: Axes, summary: Summary, labels: Labels) -> None:
    lengths = summary["length_distribution"]
    seconds = lengths.get("virtual_seconds")
    if seconds is not None:
        # Whole seconds, rounded down: a bar covers [s, s + width).
        width = bin_width([v for v, _ in seconds])
        values, counts = _values(histogram(seconds, width))
        ax.bar(values, counts, width=width, align="edge", color="C7", label=f"{labels.unit}s")
        mean = summary.get("virtual_seconds_per_game", _mean(seconds))
        ax.set_xlabel(_binned("virtual seconds (dashed: mean)", width))
    else:
        actions = lengths["actions"]
        width = bin_width([v for v, _ in actions])
        values, counts = _values(histogram(actions, width))
        if width == 1:
            ax.bar(values, counts, width=_gap(values), color="C7", label=f"{labels.unit}s")
        else:
            ax.bar(values, counts, width=width, align="edge", color="C7", label=f"{labels.unit}s")
        mean = _mean(actions)
        ax.set_xlabel(_binned("actions (dashed: mean)", width))
    ax.axvline(mean, color="black", linestyle="--", linewidth=1, label=f"mean {mean:,.1f}")
    deals = summary.get("deals_per_game", 1.0)
    shown = f", {deals:,.2f} deals on average" if deals != 1.0 else ""
    ax.set_ylabel(f"{labels.unit}s")
    ax.margins(y=0.2)  # room for the legend
    ax.set_title(f"(c) {labels.unit} length{shown}")
    ax.legend(fontsize="small")


def summary_figure(summary: Summary, labels: Labels) -> Figure:
    """The three panels of ``summary``; the title names the game, its
    options, the bots and the seed."""
    from matplotlib.figure import Figure

    bots = summary["bots"]
    games = summary["games"]
    n = len(bots)
    figure = Figure(figsize=(16, 5.5), layout="constrained")
    win, returns, lengths = figure.subplots(1, 3)
    _win_rates(win, summary, labels)
    _returns(returns, summary, labels)
    _lengths(lengths, summary, labels)
    seed = summary.get("seed")
    seeded = f", seed {seed}" if seed is not None else ""
    seats = ", ".join(f"{i}. {b['bot']}" for i, b in enumerate(bots, 1))
    figure.suptitle(
        f"{labels.game} simulation: {games:,} games ({games // n:,} deals x {n} seatings)"
        f"{seeded}\n{labels.options}\nbots: {seats}"
    )
    return figure


def render(figure: Figure, fmt: str) -> bytes:
    """The figure as PNG or SVG bytes; the same summary gives the same bytes
    (no date in an SVG, its element ids seeded)."""
    from matplotlib import rc_context

    buffer = io.BytesIO()
    metadata = {"Date": None} if fmt == "svg" else {}
    with rc_context({"svg.hashsalt": "cardtable"}):
        figure.savefig(buffer, format=fmt, metadata=metadata, dpi=100)
    return buffer.getvalue()
