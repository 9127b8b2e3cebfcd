"""The ``cardtable`` command line: score hand files, deal, play, simulate and replay."""

from __future__ import annotations

import click

from cardtable import __version__
from cardtable.cli.deal import deal_command
from cardtable.cli.play import play_group
from cardtable.cli.replay import replay_command
from cardtable.cli.score import score_command
from cardtable.cli.simulate import simulate_group


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="cardtable")
def main() -> None:
    """cardtable: a rules engine for Tonk, Three Thirteen, Spit and Speed."""


main.add_command(score_command)
main.add_command(deal_command)
main.add_command(play_group)
main.add_command(simulate_group)
main.add_command(replay_command)

__all__ = ["main"]
