"""The ``cardtable`` command line: score hand files, deal, play, simulate, replay, and
the history of games played (stats, history)."""

from __future__ import annotations

import importlib

import click

from cardtable import __version__

# Each command's module, imported only when the command runs (or help lists
# it), so that ``cardtable score`` does not start by importing the games'
# terminal front ends.
_COMMANDS = {
    "score": ("cardtable.cli.score", "score_command"),
    "deal": ("cardtable.cli.deal", "deal_command"),
    "play": ("cardtable.cli.play", "play_group"),
    "simulate": ("cardtable.cli.simulate", "simulate_group"),
    "replay": ("cardtable.cli.replay", "replay_command"),
    "stats": ("cardtable.cli.history", "stats_command"),
    "history": ("cardtable.cli.history", "history_command"),
}


class _LazyGroup(click.Group):
    """A group whose commands are imported when first looked up."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(_COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in _COMMANDS:
            return None
        module, name = _COMMANDS[cmd_name]
        command = getattr(importlib.import_module(module), name)
        assert isinstance(command, click.Command)
        return command


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="cardtable")
def main() -> None:
    """cardtable: a rules engine for Tonk, Three Thirteen, Spit, Speed and Gin Rummy."""


__all__ = ["main"]
