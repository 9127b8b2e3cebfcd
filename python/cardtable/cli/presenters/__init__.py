"""Each game's presenter, by registry name: the one place the CLI lists the games.

A new game adds its module here; ``play``, ``simulate`` and ``replay`` make
their subcommands from this table and the engine's option schema.
"""

from __future__ import annotations

from cardtable.cli.presenters import speed, spit, three_thirteen, tonk
from cardtable.cli.presenters.base import Presenter

PRESENTERS: dict[str, Presenter] = {
    "tonk": tonk.PRESENTER,
    "three_thirteen": three_thirteen.PRESENTER,
    "spit": spit.PRESENTER,
    "speed": speed.PRESENTER,
}

__all__ = ["PRESENTERS", "Presenter", "command_name"]


def command_name(game: str) -> str:
    """The subcommand of a game: ``three_thirteen`` is ``three-thirteen``."""
    return game.replace("_", "-")
