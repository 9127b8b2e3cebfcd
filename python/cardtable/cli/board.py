"""What a turn-based game's table shows in the card table app, and which
moves it offers: :class:`TurnLayout`, one per game (each presenter's
``layout`` module), read by the app's generic table
(:mod:`cardtable.cli.app.turns`).

The defaults read only the engine's contract (``legal_actions``,
``describe_action``, ``refusal``, ``cards_left``, ``returns``), so a new
game's layout says only what its table has of its own: its piles, its
tabled melds, how its hand is grouped, the words of its moves. No Textual
here: a layout gives text (Rich ``Text``) and moves, the app draws them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rich.text import Text

from cardtable._core import ActionInfo, Card
from cardtable.cli.terminal import HUMAN, signed, sort_hand
from cardtable.games import Game, Match, State


@dataclass(frozen=True)
class Move:
    """One choice the table offers: usually one action of the engine, or a
    few made together (the gin rummy "lay my best melds, then done")."""

    actions: tuple[int, ...]
    kind: str
    """The engine's kind of the first action (``ActionInfo.kind``)."""
    label: str
    """What it does, in the table's card symbols: ``discard 8♦``."""
    cards: tuple[Card, ...] = ()
    """The cards of the hand it uses: choosing a card narrows to its moves."""
    key: str = ""
    """The letter of its kind (``d``, ``x``): pressing it plays the move,
    or narrows to the moves of that kind."""
    confirm: str | None = None
    """A question asked before the move is made (a drop, a knock)."""
    then: int | None = None
    """An action for seat 0's next decision, if it is still legal then (a
    Tonk drop window passed with the next turn's move chosen)."""


def card_symbols(cards: Sequence[Card]) -> str:
    return " ".join(c.symbol() for c in cards)


def card_cell(card: Card) -> Text:
    """A card in its symbols, red suits red and bold (the symbol tells the
    suit without colour)."""
    return Text(card.symbol(), style="bold red" if card.is_red else "bold")


def cards_line(cards: Sequence[Card]) -> Text:
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(card_cell(c))
    return out


@dataclass
class Voice:
    """Who tells a move at the table: the person at seat 0 is "you"."""

    names: Sequence[str] = field(default_factory=list)

    def who(self, seat: int) -> str:
        return "you" if seat == HUMAN else f"Player {seat}"

    def subject(self, seat: int) -> str:
        w = self.who(seat)
        return w[0].upper() + w[1:]

    def says(self, seat: int, you: str, other: str) -> str:
        return f"{self.subject(seat)} {you if seat == HUMAN else other}"

    def verb(self, seat: int, you: str, other: str) -> str:
        return you if seat == HUMAN else other

    def whose(self, seat: int) -> str:
        return "your" if seat == HUMAN else f"Player {seat}'s"

    def card(self, card: Card) -> str:
        return card.symbol()

    def seat_label(self, seat: int) -> str:
        """``you`` / ``Player 2 (greedy)``."""
        if seat == HUMAN or seat >= len(self.names):
            return self.who(seat)
        return f"Player {seat} ({self.names[seat]})"


def new_card_marks(cards: Sequence[Card], new: Card | None, mark: str) -> list[str]:
    """``mark`` under the last copy of the card just drawn (with two decks a
    hand may hold two)."""
    marks = ["" for _ in cards]
    if new is not None and new in cards:
        marks[len(cards) - 1 - list(reversed(cards)).index(new)] = mark
    return marks


class TurnLayout:
    """A turn-based game's table in the app. Subclasses override what their
    game has of its own; every method reads the engine."""

    title = "Game"
    unit = "game"
    """What one state of the game is for people: Tonk's ``hand``."""
    kind_keys: ClassVar[Mapping[str, str]] = {}
    """The key of each kind of move (``{"draw": "d"}``), for the move list,
    the letters that play or narrow, and the help. Never ``n``, ``q`` or
    ``?``: the shell's keys (new game, quit, help)."""
    key_help: Sequence[tuple[str, str]] = ()
    """The game's own keys besides the move letters, for the help."""

    def __init__(self, game: Game) -> None:
        self.game = game

    # --- what the table remembers ---------------------------------------------------

    def start(self, state: State) -> None:
        """A new game is dealt."""

    def observe(
        self, voice: Voice, seat: int, info: ActionInfo, before: Any, after: Any
    ) -> list[str]:
        """Sees a move made (after its narration); returns more log lines
        (a round's end)."""
        return []

    def save(self) -> Any:
        """What the layout remembers (restored by a take-back)."""
        return None

    def load(self, notes: Any) -> None:
        """Restores what :meth:`save` gave."""

    def key(self, key: str, state: State) -> str | None:
        """A key of the game's own (not a move's letter): a message when it
        was one, None otherwise."""
        return None

    # --- the seats ---------------------------------------------------------------

    def seat_note(self, state: State, view: Any, seat: int) -> str:
        """What the seat line says after the card count (a lock, a count)."""
        return ""

    def seat_score(self, state: State, seat: int) -> str:
        """The seat's score in this game so far, for the seat line."""
        return ""

    # --- the middle of the table ------------------------------------------------

    def piles(self, view: Any) -> Text:
        """The stock and the discard pile, on one line."""
        return Text()

    def tabled(self, view: Any, voice: Voice) -> list[Text]:
        """The spreads or melds on the table, one line each."""
        return []

    # --- the hand ------------------------------------------------------------------

    def hand_groups(self, state: State, view: Any) -> list[list[Card]]:
        """Seat 0's hand in groups: its melds first, then the rest, sorted."""
        return [sort_hand(view.hand)]

    def card_marks(self, view: Any, cards: Sequence[Card]) -> list[str]:
        """A mark under each card of the hand as shown (a wild: ``~``)."""
        return ["" for _ in cards]

    def hand_note(self, state: State, view: Any) -> str:
        """A word about the hand: its count or deadwood."""
        return ""

    # --- moves -----------------------------------------------------------------------

    def moves(self, state: State) -> list[Move]:
        """The moves seat 0 may make now: one per legal action, in the
        engine's words and the table's order."""
        out = []
        for a in state.legal_actions():
            info = state.describe_action(a)
            out.append(self.move(state, a, info))
        return sorted(out, key=self.order)

    def move(self, state: State, action: int, info: ActionInfo) -> Move:
        return Move(
            (action,),
            info.kind,
            self.move_label(state, info),
            tuple(info.cards),
            self.kind_keys.get(info.kind, ""),
        )

    def move_label(self, state: State, info: ActionInfo) -> str:
        """``discard 8♦``: the engine's kind and the cards in symbols."""
        cards = card_symbols(info.cards)
        return f"{info.kind.replace('_', ' ')} {cards}".strip()

    def order(self, move: Move) -> tuple[int, int, str]:
        """Moves by kind (in the order of ``kind_keys``), then card."""
        kinds = list(self.kind_keys)
        rank = kinds.index(move.kind) if move.kind in kinds else len(kinds)
        first = move.cards[0].code if move.cards else -1
        return rank, first, move.label

    def auto(self, state: State) -> int | None:
        """A move the table makes for seat 0 without asking (None: ask)."""
        return None

    def intended(self, state: State, kind: str, cards: Sequence[Card]) -> int | None:
        """The action a key and the chosen cards stand for, legal or not (so
        that the engine can say why not), or None."""
        return None

    # --- words ---------------------------------------------------------------------

    def narrate(
        self, voice: Voice, seat: int, info: ActionInfo, before: Any, after: Any
    ) -> str | None:
        """One line about ``seat``'s move (None: nothing worth telling)."""
        cards = card_symbols(info.cards)
        return f"{voice.subject(seat)}: {info.kind.replace('_', ' ')} {cards}".strip()

    def last_move(self, voice: Voice, seat: int, line: str) -> str:
        """The seat line's "last move": the narration without its subject."""
        subject = voice.subject(seat)
        return line[len(subject) + 1 :] if line.startswith(subject + " ") else line

    def phase_text(self, state: State, view: Any) -> str:
        """What seat 0 is to do now, in a few words."""
        return "your move"

    def hint(self, state: State) -> str | None:
        """The hint line (the solver's and a bot's advice), if the game has one."""
        return None

    def score_lines(self, state: State, voice: Voice) -> list[str]:
        """The scores of the game so far, under the hint."""
        return []

    def end_lines(self, state: State, voice: Voice) -> list[str]:
        """How a finished game ended and what each seat got."""
        returns = state.returns()
        return [
            f"Ended: {(state.ending_category or 'over').replace('_', ' ')}",
            "This "
            + self.unit
            + ": "
            + ", ".join(f"{voice.who(p)} {signed(r)}" for p, r in enumerate(returns)),
        ]

    def ledger_line(self, match: Match, voice: Voice) -> str:
        """Where the match stands, on one line."""
        played = match.games_played
        return f"After {played} {self.unit}{'s' * (played != 1)}: " + ", ".join(
            f"{voice.who(p)} {signed(x)}" for p, x in enumerate(match.ledger)
        )

    def help_notes(self) -> list[str]:
        """Lines of the help about this table (what the marks mean)."""
        return []
