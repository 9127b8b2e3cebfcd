"""What a game's presenter gives the generic commands: its words, its
terminal table for ``play``, and its turn-by-turn story for ``replay --show``."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardtable.cli.board import TurnLayout
from cardtable.cli.live import LivePresenter
from cardtable.cli.terminal import Table
from cardtable.games import Game, State

# A click decorator that adds one option to a command.
OptionDecorator = Callable[[Callable[..., Any]], Callable[..., Any]]


@dataclass(frozen=True)
class Presenter:
    title: str
    """The game's name for people: ``Tonk``."""
    unit: str
    """What one state of the game is, for people: a Tonk ``hand``, a Three Thirteen ``game``."""
    play_help: str
    simulate_help: str
    win_column: str
    """The simulate report's rate column (JSON ``positive_return_rate``)."""
    win_note: str
    return_column: str
    """The simulate report's return column (JSON ``stakes_per_game``)."""
    difference_label: str
    make_table: (
        Callable[[Game, Sequence[str], bool | None, float, dict[str, Any]], Table[Any]] | None
    )
    """``(game, names, color, delay, extra)``: the play table; ``extra`` holds the values
    of ``play_options``. None for a game that has no terminal play yet (``play`` then
    has no subcommand for it)."""
    show_record: Callable[[Game, State, Sequence[str], dict[str, Any]], None]
    """``(game, start, names, record)``: prints a record turn by turn from its first state."""
    play_options: Sequence[OptionDecorator] = field(default_factory=tuple)
    """Flags only this game's ``play`` has (their values reach ``make_table``)."""
    layout: Callable[[Game], TurnLayout] | None = None
    """A turn-based game's table in the card table app (``play`` at a terminal)."""
    live: Callable[[Game], LivePresenter] | None = None
    """A real-time game's live screen (``play`` runs it on the virtual clock)."""
    live_defaults: Mapping[str, Any] = field(default_factory=dict)
    """Rule options live ``play`` sets unless a flag says otherwise (HC-5:
    Spit flips face-down cards by itself, as flipping by key is tedious)."""
    default_bot: str = "greedy"
    """The opponent ``play`` seats when ``--bot`` is not given."""
