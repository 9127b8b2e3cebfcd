"""Each game's presenter, by registry name: the module of this package named
after the game (``cardtable.cli.presenters.<name>``) defines ``PRESENTER``.

``play``, ``simulate`` and ``replay`` make their subcommands from this table
and the engine's option schema, so a new game adds only its module.
"""

from __future__ import annotations

import importlib

from cardtable._core import game_names
from cardtable.cli.presenters.base import Presenter


def _presenter(game: str) -> Presenter:
    try:
        module = importlib.import_module(f"{__name__}.{game}")
    except ModuleNotFoundError as e:
        if e.name != f"{__name__}.{game}":
            raise
        raise ImportError(
            f"game {game!r} is registered but has no presenter: "
            f"add the module {__name__}.{game} defining PRESENTER"
        ) from e
    presenter: Presenter = module.PRESENTER
    return presenter


PRESENTERS: dict[str, Presenter] = {name: _presenter(name) for name in game_names()}

__all__ = ["PRESENTERS", "Presenter", "command_name"]


def command_name(game: str) -> str:
    """The subcommand of a game: ``three_thirteen`` is ``three-thirteen``."""
    return game.replace("_", "-")
