"""Live play on the virtual clock (RT-9 (b)): what a game's live screen is
made of (the Textual app itself is :mod:`cardtable.cli.live_app`, imported
only to play: Textual takes a third of a second to load).

The engine and its clock stay in Rust (``cardtable.games.Session``); this
screen only maps the wall clock to virtual milliseconds (frozen while
paused), stamps each key with that time, hands it to the session as an
intent of seat 0, and redraws the view at most ``fps`` times a second. A
game supplies a :class:`LivePresenter`: how to draw a view and which action
a key means. A bounced card is highlighted for a moment and a key that
means nothing flashes and rings the bell; neither changes anything (HC-2,
HC-4). With ``telegraph`` the bot's cards in flight are marked during their
motor time (HC-4, for learners). ``p`` pauses, ``?`` shows the keys, ``q``
(or Escape) quits, saving the record when asked to (games that play on
``q`` quit on Esc), and Textual restores the terminal. Ctrl-C, as a key or
as a signal, leaves the same way but marks the game interrupted (exit 130).
Whichever way the screen closes, ``play`` then prints the game's
:class:`Standings` below the command line, as the turn-based games do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from cardtable.games import Game

if TYPE_CHECKING:
    from rich.text import Text

HUMAN = 0
FLASH_SECONDS = 0.6
QUIT_KEYS = frozenset({"q", "escape"})
INTERRUPT_KEY = "ctrl+c"  # leaves like a quit key, but as an interruption (exit 130)
KEY_NAMES = {"escape": "Esc"}


@dataclass(frozen=True)
class Marks:
    """What the screen highlights besides the view itself."""

    bounced: frozenset[int] = frozenset()
    """Your actions that bounced a moment ago (HC-4): their cards flash."""
    incoming: tuple[int, ...] = field(default=())
    """The bot's actions in flight, soonest first (only with ``telegraph``)."""


@dataclass(frozen=True)
class Standings:
    """Where a live game (or match) stands when its screen closes."""

    unit: str
    """What is counted: Spit's ``game``, Speed's ``deal``."""
    played: int
    """How many of them are finished."""
    unfinished: bool
    """Whether one was under way (it does not count)."""
    tallies: tuple[str, ...]
    """Per seat, what it won: ``1 game won``."""
    result: str | None = None
    """Once the game is over: ``you win (out of cards)``."""

    def lines(self, labels: Sequence[str]) -> list[str]:
        """The turn-based games' standings (``play tonk``) with one line
        of result before them when the game is over."""
        out = [f"Game over: {self.result}."] if self.result else []
        note = f" (the unfinished {self.unit} does not count)" if self.unfinished else ""
        out.append(f"Standings after {self.played} {self.unit}{'s' * (self.played != 1)}{note}:")
        width = max(len(label) for label in labels)
        for p, (label, tally) in enumerate(zip(labels, self.tallies, strict=True)):
            out.append(f"  seat {p}  {label:<{width}}  {tally}")
        return out


def won(n: int, unit: str) -> str:
    """``1 game won``, ``0 deals won``."""
    return f"{n} {unit}{'s' * (n != 1)} won"


def key_names(keys: frozenset[str]) -> str:
    """The quit keys as the screen names them: ``q or Esc``."""
    names = [KEY_NAMES.get(k, k) for k in sorted(keys, key=lambda k: (len(k), k))]
    return " or ".join(names)


NO_MARKS = Marks()
BOUNCE_STYLE = "bold black on yellow"
INCOMING_STYLE = "bold underline magenta"


class LivePresenter(Protocol):
    """How one real-time game looks and which key is which move."""

    title: str
    keys_help: str
    quit_keys: frozenset[str]
    """Keys that end the game (Spit and Speed play on ``q``: Esc quits there).
    Ctrl-C always leaves too, as an interruption."""

    def render(self, view: Any, game: Game, marks: Marks) -> Text | str:
        """The table as seat 0 sees it, with `marks` highlighted."""
        ...

    def action_for(self, key: str, view: Any, game: Game) -> int | str | None:
        """The action a key means, why it means none now (a message), or
        None when it is no key of this game."""
        ...

    def standings(self, view: Any, game: Game) -> Standings:
        """Where the game stands in ``view``: shown when the screen closes."""
        ...


def words_of(game: Game, actions: Sequence[int] | frozenset[int]) -> list[list[str]]:
    """Actions as the engine writes them, split into words (``play 3 L``):
    what a presenter reads to find the card an action moves."""
    return [game.action_to_string(a).split() for a in actions]


def keys_text(pairs: Sequence[tuple[str, str]]) -> str:
    """A key map as help lines: ``a  play the first card``."""
    width = max((len(key) for key, _ in pairs), default=0)
    return "\n".join(f"{key:>{width}}  {what}" for key, what in pairs)
