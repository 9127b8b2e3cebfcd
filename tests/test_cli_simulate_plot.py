"""``cardtable simulate GAME --plot FILE``, and the distributions of the
summary it draws: every number of the figure is the summary's (the JSON
report of the same command), its titles name the game, options, bots and
seed, and the distributions agree with the summary's means."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import numpy as np
import pytest
from click.testing import CliRunner, Result
from matplotlib.axes import Axes
from matplotlib.container import BarContainer
from matplotlib.figure import Figure

from cardtable.cli import main, plot
from cardtable.cli.simulate import QUANTILES, quantile

#: One small run of each game: (command, bots, games, more flags).
RUNS = [
    ("tonk", "greedy,random,greedy:6", 60, ["--stake", "5"]),
    ("three-thirteen", "greedy,random", 10, []),
    ("spit", "plain:normal,smart:hard", 6, []),
    ("speed", "plain:normal,smart:normal", 6, []),
]
TITLES = {"tonk": "Tonk", "three-thirteen": "Three Thirteen", "spit": "Spit", "speed": "Speed"}
OPTIONS = {
    "tonk": "pagat rules, --stake 5",
    "three-thirteen": "default rules",
    "spit": "default rules",
    "speed": "default rules",
}

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def simulate(args: Sequence[str]) -> Result:
    return CliRunner().invoke(main, ["simulate", *args])


def run_args(game: str, bots: str, games: int, extra: list[str], seed: int = 4) -> list[str]:
    return [game, "--bots", bots, "--games", str(games), "--seed", str(seed), *extra]


@pytest.fixture
def figures(monkeypatch: pytest.MonkeyPatch) -> list[Figure]:
    """The figures ``--plot`` draws, kept as they are written."""
    drawn: list[Figure] = []
    real = plot.summary_figure

    def keep(summary: Any, labels: plot.Labels) -> Figure:
        figure = real(summary, labels)
        drawn.append(figure)
        return figure

    monkeypatch.setattr(plot, "summary_figure", keep)
    return drawn


def bars(ax: Axes) -> list[BarContainer]:
    return [c for c in ax.containers if isinstance(c, BarContainer)]


def heights(container: BarContainer) -> list[float]:
    return [patch.get_height() for patch in container.patches]


def lefts(container: BarContainer) -> list[float]:
    return [patch.get_x() for patch in container.patches]


def mean_lines(ax: Axes) -> list[float]:
    """The x of each vertical (mean) line, in drawing order."""
    xs = []
    for line in ax.lines:
        x = np.asarray(line.get_xdata(), dtype=float)
        if len(x) == 2 and x[0] == x[1]:
            xs.append(float(x[0]))
    return xs


@pytest.mark.parametrize("suffix", [".png", ".svg"])
@pytest.mark.parametrize(("game", "bots", "games", "extra"), RUNS, ids=[r[0] for r in RUNS])
def test_plot_writes_a_png_or_svg_file(
    tmp_path: Path, game: str, bots: str, games: int, extra: list[str], suffix: str
) -> None:
    path = tmp_path / f"run{suffix}"
    result = simulate([*run_args(game, bots, games, extra), "--plot", str(path)])
    assert result.exit_code == 0, result.output
    # The text report is printed as without --plot.
    plain = simulate(run_args(game, bots, games, extra))
    assert result.stdout == plain.stdout
    data = path.read_bytes()
    if suffix == ".png":
        assert data.startswith(PNG_SIGNATURE)
        width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        assert (width, height) == (1600, 550)
    else:
        root = ElementTree.fromstring(data)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert b"<dc:date>" not in data  # no date: the same run gives the same file


@pytest.mark.parametrize(("game", "bots", "games", "extra"), RUNS, ids=[r[0] for r in RUNS])
def test_the_figure_draws_the_numbers_of_the_json_summary(
    tmp_path: Path,
    figures: list[Figure],
    game: str,
    bots: str,
    games: int,
    extra: list[str],
) -> None:
    path = tmp_path / "run.png"
    args = [*run_args(game, bots, games, extra), "--format", "json", "--plot", str(path)]
    result = simulate(args)
    assert result.exit_code == 0, result.output
    summary: dict[str, Any] = json.loads(result.stdout)
    (figure,) = figures
    win, returns, lengths = figure.axes
    names = bots.split(",")

    # The titles say which game, options, bots and seed.
    title = figure.get_suptitle()
    assert title.startswith(f"{TITLES[game]} simulation: {summary['games']:,} games")
    assert f"seed {summary['seed']}" in title
    assert OPTIONS[game] in title.splitlines()
    assert f"bots: {', '.join(f'{i}. {b}' for i, b in enumerate(names, 1))}" in title

    # (a) Win rates and their confidence intervals, in percent.
    (rates,) = bars(win)
    assert heights(rates) == pytest.approx(
        [100 * b["positive_return_rate"] for b in summary["bots"]]
    )
    assert rates.errorbar is not None
    segments = rates.errorbar.lines[2][0].get_segments()
    assert [y for s in segments for y in (s[0][1], s[1][1])] == pytest.approx(
        [100 * y for b in summary["bots"] for y in b["positive_return_rate_ci"]]
    )
    ticks = [t.get_text() for t in win.get_xticklabels()]
    assert [t.splitlines()[0] for t in ticks] == [f"{i}. {b}" for i, b in enumerate(names, 1)]

    # (b) Each bot's games per return (or per bin of returns), and its mean.
    every = sorted({v for b in summary["bots"] for v, _ in b["return_distribution"]})
    width = plot.bin_width(every)
    drawn = bars(returns)
    assert len(drawn) == len(names)
    for k, (container, bot) in enumerate(zip(drawn, summary["bots"], strict=True)):
        binned = plot.histogram([(v, c) for v, c in bot["return_distribution"]], width)
        assert heights(container) == [c for _, c in binned]
        assert sum(heights(container)) == summary["games"]
        # Every bar of a bot sits the same distance from its value or bin.
        shifts = {round(x - v, 9) for x, (v, _) in zip(lefts(container), binned, strict=True)}
        assert len(shifts) == 1, k
    assert mean_lines(returns) == pytest.approx([b["stakes_per_game"] for b in summary["bots"]])

    # (c) Games per length: virtual seconds for a real-time game, else actions.
    length = summary["length_distribution"]
    (drawn_lengths,) = bars(lengths)
    if "virtual_seconds" in length:
        measure = length["virtual_seconds"]
        want_mean = summary["virtual_seconds_per_game"]
        assert "virtual seconds" in lengths.get_xlabel()
    else:
        measure = length["actions"]
        want_mean = sum(v * c for v, c in measure) / summary["games"]
        assert "actions" in lengths.get_xlabel()
    width = plot.bin_width([v for v, _ in measure])
    binned = plot.histogram([(v, c) for v, c in measure], width)
    assert heights(drawn_lengths) == [c for _, c in binned]
    assert mean_lines(lengths) == pytest.approx([want_mean])


def test_wide_distributions_are_drawn_in_round_bins() -> None:
    assert plot.bin_width([]) == 1
    assert plot.bin_width([-3, 3]) == 1
    assert plot.bin_width([0, plot.MAX_BARS - 1]) == 1
    assert plot.bin_width([0, plot.MAX_BARS]) == 2
    assert plot.bin_width([-487, 487]) == 25 * 2  # 975 values in at most 40 bins of 50
    assert plot.bin_width([0, 399]) == 10
    assert plot.histogram([(-7, 1), (-1, 2), (0, 3), (4, 1), (5, 2)], 5) == [
        (-10, 1),
        (-5, 2),
        (0, 4),
        (5, 2),
    ]
    assert plot.histogram([(1, 2), (3, 4)], 1) == [(1, 2), (3, 4)]


def test_json_distributions_agree_with_the_means() -> None:
    for game, bots, games, extra in RUNS:
        result = simulate([*run_args(game, bots, games, extra), "--format", "json"])
        assert result.exit_code == 0, result.output
        summary = json.loads(result.stdout)
        total = summary["games"]
        for bot in summary["bots"]:
            dist = bot["return_distribution"]
            assert [v for v, _ in dist] == sorted({v for v, _ in dist})
            assert all(c > 0 for _, c in dist)
            assert sum(c for _, c in dist) == bot["games"] == total
            mean = sum(v * c for v, c in dist) / total
            assert mean == pytest.approx(bot["stakes_per_game"], abs=1e-9)
        length = summary["length_distribution"]
        assert sum(c for _, c in length["actions"]) == total
        deals = sum(v * c for v, c in length["deals"]) / total
        assert deals == pytest.approx(summary["deals_per_game"])
        if game in ("spit", "speed"):
            seconds = sum(v * c for v, c in length["virtual_seconds"]) / total
            # Whole seconds, rounded down.
            assert seconds <= summary["virtual_seconds_per_game"] < seconds + 1
        else:
            assert "virtual_seconds" not in length


def test_text_report_gives_the_quantiles_of_the_distributions() -> None:
    args = run_args("tonk", "greedy,random", 200, [])
    data = json.loads(simulate([*args, "--format", "json"]).stdout)
    lines = simulate(args).stdout.splitlines()
    header = next(i for i, x in enumerate(lines) if x.startswith("stakes per game "))
    assert lines[header].split()[-5:] == [name for _, name in QUANTILES]
    for i, bot in enumerate(data["bots"], 1):
        row = lines[header + i]
        assert row.startswith(f"{i}. {bot['bot']}")
        want = [quantile(bot["return_distribution"], q) for q, _ in QUANTILES]
        assert [int(x) for x in row.split()[-5:]] == want
    actions = data["length_distribution"]["actions"]
    want_line = ", ".join(f"{name} {quantile(actions, q):,}" for q, name in QUANTILES)
    assert f"actions per hand: {want_line}" in lines


def test_quantiles_of_a_distribution() -> None:
    dist = [(-2, 1), (0, 2), (5, 1)]
    assert [quantile(dist, q) for q, _ in QUANTILES] == [-2, -2, 0, 0, 5]
    assert quantile([(7, 3)], 0.5) == 7
    with pytest.raises(ValueError, match="no games"):
        quantile([], 0.5)


def test_the_same_run_gives_the_same_svg(tmp_path: Path) -> None:
    one, two = tmp_path / "one.svg", tmp_path / "two.svg"
    for path in (one, two):
        args = [*run_args("spit", "plain:normal,smart:hard", 4, []), "--plot", str(path)]
        assert simulate(args).exit_code == 0
    assert one.read_bytes() == two.read_bytes()


@pytest.mark.parametrize("name", ["out.pdf", "out", "out.png.txt", "png"])
def test_a_plot_that_is_not_png_or_svg_is_a_usage_error(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    result = simulate(["tonk", "--bots", "greedy,random", "--plot", str(path)])
    assert result.exit_code == 2
    assert "Invalid value for '--plot'" in result.stderr
    assert "not a .png or .svg file" in result.stderr
    assert result.stdout == ""
    assert not path.exists()


def test_suffixes_in_any_case(tmp_path: Path) -> None:
    path = tmp_path / "RUN.PNG"
    result = simulate(["tonk", "--bots", "greedy,random", "--games", "4", "--plot", str(path)])
    assert result.exit_code == 0, result.output
    assert path.read_bytes().startswith(PNG_SIGNATURE)


def test_plot_without_matplotlib_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    path = tmp_path / "out.png"
    result = simulate(["tonk", "--bots", "greedy,random", "--plot", str(path)])
    assert result.exit_code == 2
    assert "--plot: matplotlib is not installed: pip install 'cardtable[plot]'" in result.stderr
    assert result.stdout == ""
    assert not path.exists()


def test_plot_and_record_cannot_be_one_file(tmp_path: Path) -> None:
    path = tmp_path / "games.png"
    result = simulate(
        ["tonk", "--bots", "greedy,random", "--record", str(path), "--plot", str(path)]
    )
    assert result.exit_code == 2
    assert "also the --record file" in result.stderr


def test_a_plot_that_cannot_be_opened_is_a_usage_error(tmp_path: Path) -> None:
    result = simulate(["tonk", "--bots", "greedy,random", "--plot", str(tmp_path / "no/x.png")])
    assert result.exit_code == 2
    assert "cannot open" in result.stderr
    assert result.stdout == ""


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_plot_that_cannot_be_written_is_status_3_after_the_report(tmp_path: Path) -> None:
    path = tmp_path / "full.png"
    path.symlink_to("/dev/full")
    result = simulate(["tonk", "--bots", "greedy,random", "--games", "4", "--plot", str(path)])
    assert result.exit_code == 3
    assert "cannot write" in result.stderr
    assert result.stdout.startswith("Tonk simulation: 4 games")
