"""What every game's terminal table shares: cards with suit symbols and
colour, hand order, the y/n and quit prompts, seat names, pacing, the
engine's reasons for a refused move, and taking back one's own last moves
(``u``).

All input goes through ``click.prompt`` and all output through ``click.echo``,
so a whole match can be driven through standard input.
"""

from __future__ import annotations

import os
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import click

from cardtable._core import ActionInfo, Card
from cardtable.games import Match, State

HUMAN = 0  # the person sits at seat 0
TTY_DELAY = 0.6  # seconds between bot moves when standard output is a terminal
SUIT_ORDER = {"S": 0, "H": 1, "C": 2, "D": 3}  # black and red alternate
NEW_MARK = "*"


class QuitGameError(Exception):
    """The user typed q and confirmed it."""


def pause(seconds: float) -> None:
    """The pause between bot moves (one place, so tests can count the pauses)."""
    time.sleep(seconds)


def sort_hand(cards: Sequence[Card]) -> list[Card]:
    """Hand order on screen: by suit (♠ ♥ ♣ ♦), then rank, aces low."""
    return sorted(cards, key=lambda c: (SUIT_ORDER.get(c.suit or "", 4), c.rank))


def hand_order(cards: Sequence[Card], new: Card | None = None) -> list[Card]:
    """The slots: sorted, but the card just drawn or taken (``new``) last.
    Every card keeps its slot: with two decks a hand may hold two copies of
    ``new`` (CM-4), and only one of them goes last."""
    if new is None or new not in cards:
        return sort_hand(cards)
    rest = list(cards)
    rest.remove(new)
    return [*sort_hand(rest), new]


def card_text(card: Card) -> str:
    """The card with its suit symbol, red for hearts and diamonds (stripped when no colour)."""
    text = card.symbol()
    return click.style(text, fg="red") if card.is_red else text


def cards_text(cards: Sequence[Card]) -> str:
    return " ".join(card_text(c) for c in cards) if cards else "-"


def signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def colour_setting(no_color: bool) -> bool | None:
    """``False`` for --no-color, a set ``NO_COLOR`` or ``TERM=dumb``; else click decides."""
    if no_color or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return None


@dataclass(frozen=True)
class MenuItem:
    action: int
    mnemonic: str
    label: str


S = TypeVar("S", bound=State)


def refusal_text(state: State, action: int) -> str:
    """Why the engine refuses ``action`` now: ``not allowed: draw first: ... (TT-3.4)``."""
    why = state.refusal(action)
    if why is None:
        return "that move is not offered here: choose from the menu"
    rule, sentence = why
    return f"not allowed: {sentence} ({rule})"


class TakenBackError(Exception):
    """``u`` restored an earlier state: the decision is asked again from it."""


@dataclass
class Snapshot:
    """Seat 0's state just before one of its actions, for ``u``."""

    state: Any
    action: int
    allowed: bool  # the engine's can_take_back when it was made
    notes: Any  # what the table itself remembered then (the card just drawn, ...)
    words: str  # the action in a few words: "Taken back: taking the discard"


class Table(ABC, Generic[S]):
    """The terminal side of one match: what seat 0 sees and types. Each
    game's presenter subclasses it (``start``, ``choose``, ``show_action``,
    ``show_end``, ``show_standings``).

    ``state`` is the game's live state: ``start`` sets it, and ``u`` (take
    back) in ``decide`` replaces it with a copy from before seat 0's last
    action, so the match loop goes on from ``table.state`` after each
    decision."""

    state: S

    def __init__(
        self, names: Sequence[str], color: bool | None, delay: float = 0.0, hints: bool = True
    ) -> None:
        self.names = list(names)
        self.color = color
        self.delay = delay
        self.hints = hints
        self.header: list[str] = []
        self.last_line = ""  # the last line written, so a hand is not shown twice running
        self.taken: list[Snapshot] = []  # seat 0's actions since another seat last moved
        self.moved = False  # seat 0 has acted in this game

    def echo(self, text: str = "") -> None:
        click.echo(text, color=self.color)
        self.last_line = text

    def who(self, seat: int) -> str:
        return "you" if seat == HUMAN else f"Player {seat}"

    def subject(self, seat: int) -> str:
        w = self.who(seat)
        return w[0].upper() + w[1:]

    def says(self, seat: int, you: str, other: str) -> str:
        """``You draw`` / ``Player 2 draws``."""
        return f"{self.subject(seat)} {you if seat == HUMAN else other}"

    def verb(self, seat: int, you: str, other: str) -> str:
        """``have`` / ``has``: the verb alone, for the middle of a sentence."""
        return you if seat == HUMAN else other

    def whose(self, seat: int) -> str:
        return "your" if seat == HUMAN else f"Player {seat}'s"

    def seat_label(self, seat: int) -> str:
        """``you`` / ``Player 2 (strong)``."""
        return "you" if seat == HUMAN else f"Player {seat} ({self.names[seat]})"

    def pace(self) -> None:
        if self.delay > 0:
            pause(self.delay)

    def para(self, text: str) -> None:
        """A paragraph of plain text, wrapped for an 80-column terminal."""
        self.echo(click.wrap_text(text, width=78, preserve_paragraphs=False))

    def show_header(self) -> None:
        for line in self.header:
            self.echo(line)

    def yes_no(self, question: str) -> bool:
        while True:
            answer: str = click.prompt(f"{question} [y/n]", default="", show_default=False)
            word = answer.strip().lower()
            if word in {"y", "yes"}:
                return True
            if word in {"n", "no"}:
                return False
            self.echo("  answer y or n")

    def prompt(self, text: str, default: str | None = None) -> str:
        while True:
            answer: str = click.prompt(text, default=default, show_default=default is not None)
            if answer.strip().lower() not in {"q", "quit", "exit"}:
                return answer
            if self.yes_no("Quit the match?"):
                raise QuitGameError

    def toggle_hints(self) -> None:
        self.hints = not self.hints
        self.echo(f"  hints {'on' if self.hints else 'off'}")

    # --- deciding, and taking back -----------------------------------------------

    def decide(self, state: S) -> int:
        """Seat 0's action, asked at the prompt. After a take-back (``u``) the
        action is for ``self.state``, the earlier copy, which the match then
        goes on from."""
        self.state = state
        while True:
            try:
                action = self.choose(self.state)
            except TakenBackError:
                continue
            self.remember(self.state, action)
            return action

    def remember(self, state: S, action: int) -> None:
        """Keeps a copy of the state before seat 0's ``action``, for ``u``."""
        self.moved = True
        allowed = state.can_take_back(action)
        notes = self.save_notes()
        self.taken.append(
            Snapshot(state.clone(), action, allowed, notes, self.action_words(action))
        )

    def take_back(self) -> None:
        """``u``: back to the state before seat 0's last action (raises
        TakenBackError to ask again from there), or says why not."""
        if not self.taken:
            if self.moved:
                self.echo("  nothing to take back: the others have moved since your last move")
            else:
                self.echo("  nothing to take back: you have not moved yet")
            return
        last = self.taken[-1]
        if not last.allowed:
            self.echo(f"  {self.why_not_back(last.action)}")
            return
        self.taken.pop()
        self.state = last.state
        self.load_notes(last.notes)
        self.echo(f"  Taken back: {last.words}")
        raise TakenBackError

    def forget_turns(self) -> None:
        """A new game: nothing to take back."""
        self.taken.clear()
        self.moved = False

    def after_action(
        self, seat: int, action: int, info: ActionInfo, before: Any, after: Any
    ) -> None:
        """Tells what ``seat`` did (``info``: the engine's description of the
        action, made before it), from seat 0's views before and after it.
        Once another seat has moved, seat 0's earlier moves stay made."""
        if seat != HUMAN:
            self.taken.clear()
        self.show_action(seat, action, info, before, after)

    # --- what each game's table draws and asks ------------------------------------

    @abstractmethod
    def start(self, state: S) -> None:
        """A new game (or hand) begins: show seat 0 what it sees."""

    @abstractmethod
    def choose(self, state: S) -> int:
        """Seat 0's action in ``state``, asked at the prompt (``u`` may raise
        TakenBackError through ``take_back``)."""

    @abstractmethod
    def show_action(
        self, seat: int, action: int, info: ActionInfo, before: Any, after: Any
    ) -> None:
        """Tells what ``seat`` did (``info`` describes the action), from seat
        0's views before and after it."""

    @abstractmethod
    def save_notes(self) -> Any:
        """What the table remembers about the turn (restored with a take-back)."""

    @abstractmethod
    def load_notes(self, notes: Any) -> None:
        """Restores what ``save_notes`` gave."""

    @abstractmethod
    def action_words(self, action: int) -> str:
        """An action in a few words, for ``Taken back: ...``."""

    @abstractmethod
    def why_not_back(self, action: int) -> str:
        """Why seat 0's last action cannot be taken back."""

    @abstractmethod
    def show_end(self, state: S, number: int) -> None:
        """The result of finished game ``number``."""

    @abstractmethod
    def show_ledger(self, match: Match) -> None:
        """One line: where the match stands after a game."""

    @abstractmethod
    def show_standings(self, match: Match, unfinished: bool = False) -> None:
        """The match's standings, when it ends."""
