"""What the shell asks of a game's table (:class:`Board`) and gives it
(:class:`Hooks`): a new game adds only its board. Both boards, the
turn-based one (:mod:`.turns`) and the live one (:mod:`.live`), are
Textual widgets that draw their table and read their keys; the shell owns
the header, the help, new games, quitting and the window."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from textual.widget import Widget

from cardtable.cli.app.settings import Settings
from cardtable.cli.finished import History, new_match_id
from cardtable.games import Game, State
from cardtable.history import opponents_text

SHELL_KEYS = frozenset({"n"})
"""Keys a board leaves to the shell unless it plays with them (``n``: a new game)."""


@dataclass
class Hooks:
    """The shell's services to a board."""

    say: Callable[[str, bool, float], None]
    """A message under the table: ``(text, bell, seconds)`` (ring too with
    ``bell``; ``seconds=0`` keeps it until the next one)."""
    changed: Callable[[], None]
    """The header, the standings or the key line changed: redraw them."""
    record: Callable[[str], None] | None = None
    """``--record``: appends one game's record line."""
    history: History | None = None


class Board(Widget):
    """One game's table inside the shell."""

    min_size: tuple[int, int] = (76, 22)
    """The columns and rows the table needs; a smaller window is asked to grow."""

    def __init__(self, settings: Settings, game: Game, hooks: Hooks) -> None:
        super().__init__()
        self.settings = settings
        self.game = game
        self.hooks = hooks
        self.names = settings.names(game)
        self.levels = settings.levels(game)
        self.match_id = new_match_id()
        self.started = time.time()

    # --- what the shell asks -----------------------------------------------------

    def quit_keys(self) -> frozenset[str]:
        """Keys that leave (the shell asks first while a game is under way)."""
        return frozenset({"q", "escape"})

    def status(self) -> str:
        """The header's right part: where the game stands."""
        return ""

    def standings(self) -> list[str]:
        """Where the match stands, for the header and after the app closes."""
        return []

    def hints(self) -> list[tuple[str, str]]:
        """The keys that matter now, for the bottom line."""
        return []

    def help_keys(self) -> list[tuple[str, str]]:
        """Every key of the table, for ``?``."""
        return []

    def help_notes(self) -> list[str]:
        """More lines for ``?``: what the phase asks, what marks mean."""
        return []

    def key(self, key: str) -> bool:
        """Handles a key; False when the table has no use for it."""
        return False

    def in_game(self) -> bool:
        """A game is under way: quitting or a new game abandons it."""
        return False

    def pause(self) -> None:
        """The help is open: a live clock stops."""

    def resume(self) -> None:
        """The help closed."""

    def abandon(self) -> None:
        """The person leaves a game under way: ``--record`` keeps it."""

    # --- what a board tells the shell ---------------------------------------------

    def opponents(self) -> str:
        """``normal x2`` or ``easy, strong:50``: each opponent's level, or its bot."""
        return opponents_text(
            level or name for name, level in zip(self.names, self.levels[1:], strict=True)
        )

    def against(self) -> str:
        """``Player 1 (normal), Player 2 (strong:50)``: each seat's level, or its bot."""
        return ", ".join(
            f"Player {seat} ({level or name})"
            for seat, (name, level) in enumerate(zip(self.names, self.levels[1:], strict=True), 1)
        )

    def keep(self, state: State, record: str, seed: int | None, started: float) -> None:
        """A finished game: ``--record`` and the history get it."""
        if self.hooks.record is not None:
            self.hooks.record(record)
        if self.hooks.history is not None:
            message = self.hooks.history.keep(
                self.game, state, record, self.names, self.levels, seed, self.match_id, started
            )
            if message is not None:
                self.hooks.say(message, False, 0)


def key_line(pairs: Sequence[tuple[str, str]]) -> str:
    """Keys and what they do, on one line: ``? help · n new game · q quit``."""
    return " · ".join(f"{key} {what}".strip() for key, what in pairs)
