"""``cardtable simulate GAME``: bot-against-bot games in parallel, with confidence intervals.

Every deal is played once per seat rotation (so ``--games`` is rounded up to a
multiple of the number of bots) and the results are paired by deal. Games are
seeded from the run's seed and their index, never from the thread that plays
them, so the same seed gives the same output for any ``--threads``. One
command per registered game; its words come from the game's presenter.
The reports give each bot's return per game and the game length as
quantiles of the summary's distributions (the JSON report: the whole
distributions); ``--plot FILE`` draws that summary (``cardtable.cli.plot``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

import click

from cardtable import _core, distributed
from cardtable.cli import cluster, plot
from cardtable.cli.game_options import (
    bot_grammar,
    bots_callback,
    build_game,
    describe_options,
    players_range,
    pop_rule_options,
    rule_options,
    schema,
)
from cardtable.cli.io import (
    EXIT_STATUS_HELP,
    Output,
    StreamError,
    guarded,
    is_same_file,
    open_output,
)
from cardtable.cli.presenters import PRESENTERS, Presenter, command_name
from cardtable.cli.progress import Bar, shown
from cardtable.deck import new_seed
from cardtable.errors import InvalidConfigError
from cardtable.games import (
    Game,
    Simulation,
    SimulationInterrupted,
    Summary,
    game_names,
    simulate,
)
from cardtable.games.results import Distribution


def _interval(mean: float, ci: tuple[float, float] | list[float], fmt: str) -> str:
    return f"{mean:{fmt}} [{ci[0]:{fmt}}, {ci[1]:{fmt}}]"


def quantile(distribution: Distribution, q: float) -> int:
    """The smallest value that at least a share ``q`` of the games reach
    (``q`` 0: the least value, 1: the greatest)."""
    games = sum(count for _, count in distribution)
    if games == 0:
        raise ValueError("a distribution of no games has no quantiles")
    seen = 0
    for value, count in distribution:
        seen += count
        if seen >= q * games:
            return value
    return distribution[-1][0]


#: The quantiles the text report gives of a distribution, with their headings.
QUANTILES = ((0.0, "min"), (0.25, "25%"), (0.5, "median"), (0.75, "75%"), (1.0, "max"))


def _quantile_cells(distribution: Distribution, fmt: str) -> str:
    return " ".join(f"{quantile(distribution, q):{fmt}}" for q, _ in QUANTILES)


def text_report(
    summary: Summary,
    presenter: Presenter,
    game_text: str,
    requested: int,
    interrupted: SimulationInterrupted | None = None,
) -> list[str]:
    games = summary["games"]
    bots = summary["bots"]
    n = len(bots)
    rounded = f" (--games {requested} rounded up to whole rotations)" if games != requested else ""
    if interrupted is not None:
        rounded = (
            f" (interrupted after {interrupted.played:,} of {interrupted.total:,} games; "
            "the figures are of whole deals)"
        )
    labels = [f"{i}. {b['bot']}" for i, b in enumerate(bots, 1)]
    # The bot column fits the longest spec (`search:normal,worlds=16`).
    width = max([16, *(len(label) + 1 for label in labels)])
    lines = [
        f"{presenter.title} simulation: {games:,} games, {games // n:,} deals x {n} seatings"
        f"{rounded}",
        f"seed {summary['seed']}; {game_text}",
        "",
        f"{'bot':<{width}} {presenter.win_column + ' [95% CI]':<26} "
        f"{presenter.return_column} [95% CI]",
    ]
    for label, b in zip(labels, bots, strict=True):
        win = _interval(
            100 * b["positive_return_rate"], [100 * x for x in b["positive_return_rate_ci"]], "5.1f"
        )
        stakes = _interval(b["stakes_per_game"], b["stakes_per_game_ci"], "+.3f")
        lines.append(f"{label:<{width}} {win + ' %':<26} {stakes}")
    lines.append(presenter.win_note)
    if games:
        # The spread of a bot's return around its mean, from its distribution.
        heading = " ".join(f"{name:>7}" for _, name in QUANTILES)
        lines.append("")
        lines.append(f"{presenter.return_column:<{width}} {heading}")
        for label, b in zip(labels, bots, strict=True):
            lines.append(f"{label:<{width}} {_quantile_cells(b['return_distribution'], '+7d')}")
    diff = summary.get("stake_difference")
    if diff is not None:
        mean, low, high = diff
        names = f"{bots[0]['bot']} - {bots[1]['bot']}"
        head = f"{presenter.difference_label} ({names}):"
        figure = f"{_interval(mean, (low, high), '+.3f')} per game"
        lines.append("")
        # On one line when it fits a terminal of 80 columns, else the
        # figure on the next line rather than cut by the terminal.
        if len(head) + 1 + len(figure) <= 80:
            lines.append(f"{head} {figure}")
        else:
            lines.extend([head, f"  {figure}"])
    # Games of one deal and no clock (a Tonk hand) have no length to tell.
    seconds = summary.get("virtual_seconds_per_game")
    deals = summary.get("deals_per_game", 1.0)
    if seconds is not None or deals != 1.0:
        length = [f"{seconds:,.1f} virtual seconds"] if seconds is not None else []
        length.append(f"{deals:,.1f} deals")
        lines.append("")
        lines.append(f"game length: {' and '.join(length)} on average")
    actions = summary["length_distribution"]["actions"]
    if actions:
        cells = ", ".join(f"{name} {quantile(actions, q):,}" for q, name in QUANTILES)
        lines.append(f"actions per {presenter.unit}: {cells}")
    lines.append("")
    lines.append(f"how {presenter.unit}s ended:")
    endings = summary["endings"]
    total = sum(endings.values()) or 1
    # Every ending category of the game, in the engine's order.
    width = max([16, *(len(key) for key in endings)])
    for key, count in endings.items():
        label = key.replace("_", " ")
        lines.append(f"  {label:<{width}} {count:>9,}  {100 * count / total:5.1f} %")
    replaced = summary.get("replaced_answers", 0)
    if replaced:
        lines.append("")
        lines.append(
            f"warning: {replaced:,} bot answers were not legal and were replaced by the "
            "first legal action (a bug in a bot): the figures are not the bots' own"
        )
    return lines


def _pairs(distribution: Distribution) -> list[list[int]]:
    return [[value, count] for value, count in distribution]


def json_report(
    summary: Summary,
    options: dict[str, Any],
    requested: int,
    interrupted: SimulationInterrupted | None = None,
) -> dict[str, Any]:
    bots = [
        {
            "bot": b["bot"],
            "games": b["games"],
            "positive_return_rate": b["positive_return_rate"],
            "positive_return_rate_ci": list(b["positive_return_rate_ci"]),
            "stakes_per_game": b["stakes_per_game"],
            "stakes_per_game_ci": list(b["stakes_per_game_ci"]),
            "return_distribution": _pairs(b["return_distribution"]),
        }
        for b in summary["bots"]
    ]
    out: dict[str, Any] = {
        "game": summary["game"],
        "seed": summary["seed"],
        "games": summary["games"],
        "requested_games": requested,
        "options": options,
        "bots": bots,
        "endings": dict(summary["endings"]),
    }
    if interrupted is not None:
        # Ctrl-C: the games played, of which "games" are the whole deals.
        out["interrupted"] = {"played": interrupted.played, "total": interrupted.total}
    if "virtual_seconds_per_game" in summary:
        out["virtual_seconds_per_game"] = summary["virtual_seconds_per_game"]
    if "deals_per_game" in summary:
        out["deals_per_game"] = summary["deals_per_game"]
    lengths = summary["length_distribution"]
    out["length_distribution"] = {
        "actions": _pairs(lengths["actions"]),
        "deals": _pairs(lengths["deals"]),
    }
    if "virtual_seconds" in lengths:
        out["length_distribution"]["virtual_seconds"] = _pairs(lengths["virtual_seconds"])
    diff = summary.get("stake_difference")
    if diff is not None:
        mean, low, high = diff
        out["stake_difference"] = {"bots": [0, 1], "mean": mean, "ci": [low, high]}
    if "replaced_answers" in summary:
        out["replaced_answers"] = summary["replaced_answers"]
    return out


class RecordFile:
    """The ``--record`` output. A write that fails (a full disk) ends the
    recording, not the run: the error waits in ``error`` until the report
    is out, as a plot's does."""

    def __init__(self, out: Output) -> None:
        self.out = out
        self.error: StreamError | None = None

    def write(self, records: list[str]) -> None:
        if self.error is None:
            try:
                self.out.write("".join(r + "\n" for r in records).encode())
            except StreamError as e:
                self.error = e

    def close(self) -> None:
        try:
            self.out.close()
        except StreamError as e:
            self.error = self.error or e


@click.group("simulate")
def simulate_group() -> None:
    """Bot-against-bot simulations."""


def run_simulation(
    name: str,
    presenter: Presenter,
    games: int,
    bots: list[str],
    seed: int | None,
    threads: int | None,
    fmt: str,
    record: str | None,
    progress: bool | None,
    ray_address: str | None,
    shards: int | None,
    plot_path: str | None,
    params: dict[str, Any],
) -> None:
    options = pop_rule_options(name, params)
    players = options.pop("players", None)
    if players is not None and players != len(bots):
        raise click.UsageError(
            f"--players {players} needs {players} bots in --bots (one per seat), "
            f"got {len(bots)}: {','.join(bots)}"
        )
    low, high = players_range(name)
    if not low <= len(bots) <= high:
        takes = f"{low}" if low == high else f"{low} to {high}"
        raise click.UsageError(
            f"--bots: {presenter.title} takes {takes} players, got {len(bots)} bots"
        )
    if "players" in schema(name):
        options = {"players": len(bots), **options}
    game = build_game(name, options)
    seed = new_seed() if seed is None else seed
    if shards is not None and ray_address is None:
        raise click.UsageError("--shards is for --ray runs")
    if ray_address is not None:
        cluster.require()
    plot_format = None
    if plot_path is not None:
        plot.require()
        plot_format = plot.plot_format(plot_path)
        if record is not None and (
            os.path.abspath(plot_path) == os.path.abspath(record) or is_same_file(plot_path, record)
        ):
            raise click.BadParameter(
                f"{plot_path!r} is also the --record file", param_hint="'--plot'"
            )
    n = len(bots)
    try:
        # The engine rounds up to whole rotations and refuses a run too long to count.
        total = Simulation(game, bots, games, seed).total
    except InvalidConfigError as e:
        raise click.BadParameter(str(e), param_hint="'--games'") from e
    chunk = max(n, min(4096, -(-total // 100)))
    records: RecordFile | None = None
    plot_out: Output | None = None
    if record is not None:
        records = RecordFile(open_output(record, option="--record"))
    if plot_path is not None:
        plot_out = open_output(plot_path, option="--plot")
    on_records = records.write if records is not None else None
    interrupted: SimulationInterrupted | None = None
    try:
        try:
            if ray_address is not None:
                cluster.connect(ray_address)
            summary = _play(
                game,
                bots,
                games,
                total,
                seed,
                threads,
                chunk,
                progress,
                ray_address,
                shards,
                on_records,
            )
        except SimulationInterrupted as e:
            # Ctrl-C: the games finished are recorded; report them, then exit 130.
            summary, interrupted = e.summary, e
        finally:
            if records is not None:
                records.close()
        if fmt == "json":
            click.echo(json.dumps(json_report(summary, game.options(), games, interrupted)))
        else:
            for line in text_report(summary, presenter, describe_options(game), games, interrupted):
                click.echo(line)
        if interrupted is not None:
            raise interrupted
        if plot_out is not None and plot_format is not None:
            # After the report, so that a plot that cannot be written loses no results.
            labels = plot.Labels(
                game=presenter.title,
                options=describe_options(game),
                win=presenter.win_column,
                returns=presenter.return_column,
                unit=presenter.unit,
            )
            plot_out.write(plot.render(plot.summary_figure(summary, labels), plot_format))
        if records is not None and records.error is not None:
            raise records.error  # after the report: a full disk loses no results
    finally:
        if plot_out is not None:
            plot_out.close()


def _play(
    game: Game,
    bots: list[str],
    games: int,
    total: int,
    seed: int,
    threads: int | None,
    chunk: int,
    progress: bool | None,
    ray_address: str | None,
    shards: int | None,
    on_records: Callable[[list[str]], None] | None,
) -> Summary:
    """The run, here or on the Ray cluster, with its progress bar."""
    if ray_address is None:
        with Bar(shown(progress), total, "games") as bar:
            return simulate(
                game,
                bots,
                games,
                seed,
                threads=threads,
                chunk=chunk,
                on_records=on_records,
                on_progress=lambda done, _: bar.update(done),
            )
    with Bar(shown(progress), None, "shards") as bar:
        return distributed.simulate(
            game,
            bots,
            games,
            seed,
            shards=shards,
            cpus_per_shard=threads or 1,
            on_records=on_records,
            on_progress=lambda done, all_: bar.update(done, total=all_),
        )


def simulate_command(name: str, presenter: Presenter) -> click.Command:
    """``simulate GAME``: the common flags and the game's rule flags."""

    def command(
        games: int,
        bots: list[str],
        seed: int | None,
        threads: int | None,
        fmt: str,
        record: str | None,
        progress: bool | None,
        ray_address: str | None,
        shards: int | None,
        plot_path: str | None,
        **params: Any,
    ) -> None:
        run_simulation(
            name,
            presenter,
            games,
            bots,
            seed,
            threads,
            fmt,
            record,
            progress,
            ray_address,
            shards,
            plot_path,
            params,
        )

    command.__doc__ = presenter.simulate_help
    decorators: list[Any] = [
        click.option(
            "--games",
            type=click.IntRange(1, 2**64 - 1),
            default=1000,
            show_default=True,
            help="Games to play (rounded up to a multiple of the number of bots).",
        ),
        click.option(
            "--bots",
            callback=bots_callback(name),
            required=True,
            metavar="BOT,BOT[,...]",
            help=f"One bot per seat: {bot_grammar(name)}.",
        ),
        click.option(
            "--seed", type=click.IntRange(0, 2**64 - 1), help="Seed (default: a fresh one)."
        ),
        click.option(
            "--threads",
            type=click.IntRange(1, _core.MAX_THREADS),
            help=f"Worker threads, 1 to {_core.MAX_THREADS} (default: all cores; "
            "with --ray: CPUs and threads per Ray task, default 1).",
        ),
        click.option(
            "--format",
            "fmt",
            type=click.Choice(["text", "json"]),
            default="text",
            show_default=True,
            help="Output format.",
        ),
        click.option(
            "--record",
            type=click.Path(dir_okay=False, writable=True),
            help="Write every game to this file as a JSON line (see 'cardtable replay').",
        ),
        click.option(
            "--progress/--no-progress",
            default=None,
            help="Progress bar on stderr (default: when stderr is a terminal).",
        ),
        click.option(
            "--plot",
            "plot_path",
            type=click.Path(dir_okay=False, writable=True),
            callback=plot.check_plot_path,
            metavar="FILE.png|FILE.svg",
            help="Draw the summary to this PNG or SVG file: win rates with their "
            "confidence intervals, returns and game lengths. Needs "
            "pip install 'cardtable[plot]'.",
        ),
        cluster.ray_options("games (whole deals)"),
        rule_options(name, "Players ({players}).  [default: the number of bots]"),
        guarded("simulate"),
    ]
    f: Any = command
    for d in reversed(decorators):
        f = d(f)
    return click.command(command_name(name), epilog=EXIT_STATUS_HELP)(f)


for _name in game_names():
    simulate_group.add_command(simulate_command(_name, PRESENTERS[_name]))
