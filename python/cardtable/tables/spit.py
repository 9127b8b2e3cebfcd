"""Spit's table (HC-4): the bot's row at the top, the spit piles in the
middle, yours at the bottom with pile numbers under the piles."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text

from cardtable.tables import BOUNCE_STYLE, INCOMING_STYLE, NO_MARKS, Marks, card_text, words_of

if TYPE_CHECKING:
    from cardtable._core import Card
    from cardtable.games import Game

SIDES = "LR"
CELL = 7  # columns per stock pile
LABEL = 6  # columns of the row label


def draw(view: Any, game: Game, marks: Marks = NO_MARKS) -> Text:
    """The table as ``view.seat`` sees it, with ``marks`` highlighted."""
    bounced = words_of(game, marks.bounced)
    incoming = words_of(game, marks.incoming)
    bot = 1 - view.seat
    out = Text()
    _row(out, view, bot, "bot", marked_piles(incoming), INCOMING_STYLE)
    out.append("\n\n")
    _centre(out, view, marked_sides(incoming), marked_sides(bounced))
    out.append("\n\n")
    _row(out, view, view.seat, "you", marked_piles(bounced), BOUNCE_STYLE)
    out.append(f"\n{view.phase.replace('_', ' ')}", style="italic")
    if view.ending:
        out.append(f" — {verdict(view)}", style="bold")
    return out


def top_of(pile: tuple[int, list[Card]]) -> Card | None:
    """A stock pile's face-up top card, if it has one."""
    return pile[1][-1] if pile[1] else None


def marked_piles(words: list[list[str]]) -> set[int]:
    """Stock piles (1-5) the actions take a card from (``play 3 L``, ``flip 2``,
    ``move 2 4``, ``stack 1 3``)."""
    return {int(w[1]) for w in words if len(w) >= 2 and w[0] != "slap" and w[1].isdigit()}


def marked_sides(words: list[list[str]]) -> set[str]:
    """Spit piles (L, R) the actions play onto or claim."""
    return {w[-1] for w in words if w and w[-1] in ("L", "R")}


def verdict(view: Any) -> str:
    """``you win (out of cards)``; a guard ending has no winner."""
    if view.winner is None:
        who = "nobody wins"
    else:
        who = "you win" if view.winner == view.seat else "the bot wins"
    return f"{who} ({view.ending.replace('_', ' ')})"


def _row(out: Text, view: Any, seat: int, label: str, marked: set[int], mark_style: str) -> None:
    out.append(f"{label:<{LABEL}}", style="bold" if seat == view.seat else "dim")
    for p, (down, up) in enumerate(view.piles[seat], 1):
        cell = Text()
        if up:
            cell.append_text(card_text(up[-1]))
        else:
            cell.append("▒▒" if down else "··", style="dim")
        if down:
            cell.append(f"+{down}", style="dim")
        if p in marked:
            cell.stylize(mark_style)
        out.append_text(cell)
        out.append(" " * max(1, CELL - cell.cell_len))
    out.append(f"spit cards {view.spit_cards[seat]}\n")
    out.append(" " * LABEL)
    for p in range(1, len(view.piles[seat]) + 1):
        out.append(f"{p:<{CELL}}", style="dim")


def _centre(out: Text, view: Any, incoming: set[str], bounced: set[str]) -> None:
    out.append(" " * (LABEL + CELL))
    for side, pile in zip(SIDES, view.centre, strict=True):
        cell = Text(f"{side}[")
        if pile:
            cell.append_text(card_text(pile[-1]))
            cell.append(f" x{len(pile)}", style="dim")
        else:
            cell.append("  ")
        cell.append("]")
        if side in bounced:
            cell.stylize(BOUNCE_STYLE)
        elif side in incoming:
            cell.stylize(INCOMING_STYLE)
        out.append_text(cell)
        out.append("   ")
