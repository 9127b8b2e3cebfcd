"""Game engines. ``load_game(name, **options)`` builds a game by name."""

from __future__ import annotations

from typing import Any

from cardtable.errors import InvalidConfigError
from cardtable.games.tonk import TonkGame

__all__ = ["GAMES", "TonkGame", "load_game"]

GAMES = ("tonk",)


def load_game(name: str, **options: Any) -> TonkGame:
    """The game ``name`` with rule options (see each game's module)."""
    key = name.strip().lower().replace("-", "_")
    if key == "tonk":
        return TonkGame(**options)
    raise InvalidConfigError(f"unknown game {name!r}: available games are {', '.join(GAMES)}")
