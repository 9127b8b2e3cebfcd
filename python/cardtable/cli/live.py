"""Live play on the virtual clock (RT-9 (b)): what a game's live screen is
made of (the table itself is :mod:`cardtable.cli.app.live`, in the card
table app, imported only to play: Textual takes a third of a second to
load).

The engine and its clock stay in Rust (``cardtable.games.Session``); this
screen only maps the wall clock to virtual milliseconds (frozen while
paused or while the window is too small), stamps each key with that time,
hands it to the session as an intent of seat 0, and redraws the view at
most ``fps`` times a second. A game supplies a :class:`LivePresenter`: how
to draw a view, which action a key means, and how to tell an action in the
table's card symbols. A key whose move the rules refuse says why, with the
engine's rule; a key that means nothing flashes and rings the bell; neither
changes anything (HC-2, HC-4). With ``telegraph`` the bot's cards in flight
are marked during their motor time (HC-4, for learners).

The bottom line always names the keys that matter now (``p`` pauses, ``?``
shows the help and stops the clock, Esc quits after a y/n; at the end of a
deal the keys that slap; once the game is over Enter deals another and
``q`` quits too, as nothing is left to play), and every key it names does
what it says. Ctrl-C, as a key or as a signal, leaves at once but marks
the game interrupted (exit 130). Whichever way the screen closes, ``play``
then prints the game's :class:`Standings` below the command line, as the
turn-based games do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from cardtable.games import Game
from cardtable.tables import Marks

if TYPE_CHECKING:
    from rich.text import Text

HUMAN = 0
FLASH_SECONDS = 0.6  # a bounced card's highlight
MESSAGE_SECONDS = 3.0  # time enough to read why a key did nothing
QUIT_KEYS = frozenset({"q", "escape"})
INTERRUPT_KEY = "ctrl+c"  # leaves like a quit key, but as an interruption (exit 130)
OVER_QUIT_KEY = "q"  # quits too once the game is over: no card is left to play
KEY_NAMES = {"escape": "Esc", "backspace": "Backspace", " ": "space"}
HINT_SEPARATOR = " · "


@dataclass(frozen=True)
class Choice:
    """A key began a move that needs one more key (a joker's rank): the
    presenter keeps it open and :meth:`LivePresenter.choice` says what to
    press next."""

    prompt: str


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


def key_name(key: str) -> str:
    """A key as the screen names it: ``Esc``, ``space``, ``q``."""
    return KEY_NAMES.get(key, key)


def key_names(keys: frozenset[str] | Sequence[str]) -> str:
    """Keys as the screen names them: ``q or Esc``."""
    names = [key_name(k) for k in sorted(keys, key=lambda k: (len(k), k))]
    return " or ".join(names)


def hint_line(pairs: Sequence[tuple[str, str]]) -> str:
    """Keys and what they do, on one line: ``p pause · ? keys · Esc quit``
    (the screen's bottom line; tests read the keys it names back from it)."""
    return HINT_SEPARATOR.join(f"{key} {what}".strip() for key, what in pairs)


class LivePresenter(Protocol):
    """How one real-time game looks and which key is which move."""

    title: str
    keys: Sequence[tuple[str, str]]
    """Every key of the game and what it does, for ``?`` (``p``, ``?`` and
    the quit keys are the screen's own and listed by it)."""
    min_size: tuple[int, int]
    """The columns and rows the screen needs; a smaller window is asked to
    grow (the table is never wrapped)."""
    quit_keys: frozenset[str]
    """Keys that end the game (Spit and Speed play on ``q``: Esc quits there).
    Ctrl-C always leaves too, as an interruption."""

    def render(self, view: Any, game: Game, marks: Marks) -> Text | str:
        """The table as seat 0 sees it, with `marks` highlighted."""
        ...

    def action_for(
        self, key: str, view: Any, game: Game, legal: Sequence[int]
    ) -> int | str | Choice | None:
        """The action a key means (legal or not: the screen asks the engine
        why not), why it means none now (a message), a :class:`Choice` that
        waits for one more key, or None when it is no key of this game."""
        ...

    def choice(
        self, view: Any, game: Game, legal: Sequence[int]
    ) -> Sequence[tuple[str, str]] | None:
        """While a :class:`Choice` is open, the keys that complete it, for
        the bottom line (it closes by itself once its move is no longer
        possible); None when none is open."""
        ...

    def cancel(self) -> None:
        """Closes an open :class:`Choice` (Esc)."""
        ...

    def hint(self, view: Any, game: Game, legal: Sequence[int]) -> Sequence[tuple[str, str]]:
        """The game's keys that matter in this phase, for the bottom line:
        ``[("q-t a-g", "play")]``, at the end of a Spit deal the slap keys;
        a pair with no key is a note (``("", "the bot chooses a pile")``)."""
        ...

    def describe(self, action: int, seat: int, view: Any, game: Game) -> str:
        """An action in the table's card symbols (``2♣ on 7♦``), from the
        view before it lands."""
        ...

    def tell(self, commits: Sequence[tuple[int, int, bool]], view: Any, game: Game) -> list[str]:
        """Commits ``(seat, action, bounced)`` that have just happened, in
        order, as the ticker shows them (``7♦ onto L``), from the view after
        the last of them."""
        ...

    def refusal(self, action: int, seat: int, state: Any) -> tuple[str, str] | None:
        """The engine's reason why ``seat`` may not take ``action`` in
        ``state`` now: ``(rule, sentence)``, or None when it may."""
        ...

    def standings(self, view: Any, game: Game) -> Standings:
        """Where the game stands in ``view``: shown when the screen closes."""
        ...


def keys_text(pairs: Sequence[tuple[str, str]]) -> str:
    """A key map as help lines: ``a  play the first card``."""
    width = max((len(key) for key, _ in pairs), default=0)
    return "\n".join(f"{key:>{width}}  {what}" for key, what in pairs)
