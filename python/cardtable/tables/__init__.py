"""How a real-time game's table is drawn as text: what the live screen of
``cardtable play`` shows and what the learning environments' ``render()``
gives, so the library draws a table without its command line.

A game that has a drawing has a module here named after it (``spit``,
``speed``) with ``draw(view, game, marks)``; :func:`draw` finds it by the
game's name. Every card comes from the seat's view, so a drawing never shows
a card hidden from that seat.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rich.text import Text

if TYPE_CHECKING:
    from cardtable._core import Card
    from cardtable.games import Game

BOUNCE_STYLE = "bold black on yellow"
INCOMING_STYLE = "bold underline magenta"


@dataclass(frozen=True)
class Marks:
    """What a drawing highlights besides the view itself."""

    bounced: frozenset[int] = frozenset()
    """Your actions that bounced a moment ago (HC-4): their cards flash."""
    incoming: tuple[int, ...] = field(default=())
    """The bot's actions in flight, soonest first (only with ``telegraph``)."""


NO_MARKS = Marks()


def card_text(card: Card | None) -> Text:
    """A card in its symbols, red suits red; ``··`` for no card."""
    if card is None:
        return Text("··", style="dim")
    return Text(card.symbol(), style="bold red" if card.is_red else "bold")


def words_of(game: Game, actions: Sequence[int] | frozenset[int]) -> list[list[str]]:
    """Actions as the engine writes them, split into words (``play 3 L``):
    what a drawing reads to find the card an action moves."""
    return [game.action_to_string(a).split() for a in actions]


def draw(game: Game, view: Any, marks: Marks = NO_MARKS) -> Text | None:
    """``view`` drawn as its game's table, or None for a game with no drawing."""
    try:
        module = importlib.import_module(f"{__name__}.{game.name}")
    except ModuleNotFoundError as e:
        if e.name != f"{__name__}.{game.name}":
            raise
        return None
    drawn: Text = module.draw(view, game, marks)
    return drawn
