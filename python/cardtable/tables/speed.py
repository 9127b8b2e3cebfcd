"""Speed's table (HC-4): the bot's hand (face down) at the top, the centre
and side piles in the middle, your hand at the bottom with its slot numbers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text

from cardtable._core import Card
from cardtable.tables import BOUNCE_STYLE, INCOMING_STYLE, NO_MARKS, Marks, card_text, words_of

if TYPE_CHECKING:
    from cardtable.games import Game

SIDES = "LR"
CELL = 6  # columns per hand slot
LABEL = 6  # columns of the row label


def draw(view: Any, game: Game, marks: Marks = NO_MARKS, waiting: int | None = None) -> Text:
    """The table as ``view.seat`` sees it, with ``marks`` highlighted and
    the hand slot ``waiting`` marked (a joker waiting for its rank)."""
    bounced = words_of(game, marks.bounced)
    # ``play 7H L`` (or ``play JK L as 7``): the card and the pile.
    bounced_cards = {w[1] for w in bounced if len(w) >= 3 and w[0] == "play"}
    incoming = [w for w in words_of(game, marks.incoming) if len(w) >= 3 and w[0] == "play"]
    out = Text()
    bot = 1 - view.seat
    out.append(f"{'bot':<{LABEL}}", style="dim")
    out.append("▒▒    " * view.hand_size[bot], style="dim")
    out.append(f"{view.draw_size[bot]} to draw\n\n", style="dim")
    out.append(f"  side {view.side_size[0]:>2}   ")
    for side, top, size, played_as in zip(
        SIDES, view.centre_top, view.centre_size, view.played_as, strict=True
    ):
        cell = Text(f"{side}[")
        if played_as is not None:  # a joker: what goes on it follows its rank
            cell.append(top_text(view, side), style="bold")
        else:
            cell.append_text(card_text(top))
        cell.append(f" x{size}]", style="dim" if top is None else "")
        flying = [Card(w[1]) for w in incoming if w[2] == side]
        if any(w[2] == side for w in bounced if len(w) >= 3):
            cell.stylize(BOUNCE_STYLE)
        out.append_text(cell)
        if flying:
            out.append(f" <- {flying[0].symbol()}", style=INCOMING_STYLE)
        out.append("  ")
    out.append(f" side {view.side_size[1]:>2}\n\n")
    out.append(f"{'you':<{LABEL}}", style="bold")
    for slot, card in enumerate(view.hand):
        cell = card_text(card)
        if card is not None and str(card) in bounced_cards:
            cell.stylize(BOUNCE_STYLE)
        if waiting == slot:
            cell.stylize(INCOMING_STYLE)
        out.append_text(cell)
        out.append(" " * max(1, CELL - cell.cell_len))
    out.append(f"{view.draw_size[view.seat]} to draw\n")
    out.append(" " * LABEL)
    for slot in range(1, len(view.hand) + 1):
        out.append(f"{slot:<{CELL}}", style="dim")
    out.append(f"\n{view.phase}", style="italic")
    if view.ending:
        out.append(f" — {verdict(view)}", style="bold")
    return out


def rank_text(rank: str) -> str:
    """A rank letter of the engine's notation as the table writes it (``T``: ``10``)."""
    return "10" if rank == "T" else rank


def top_text(view: Any, side: str) -> str:
    """A centre pile's top as the table draws it: ``K♣``, ``JK=7`` (a
    played joker and the rank it stands for), ``JK=any``, ``··``."""
    p = SIDES.index(side)
    top, played_as = view.centre_top[p], view.played_as[p]
    if top is None:
        return "··"
    if played_as is None:
        return str(top.symbol())
    return "JK=any" if played_as == "*" else f"JK={rank_text(played_as)}"


def verdict(view: Any) -> str:
    """``you win (emptied)``, ``a draw (draw)``."""
    mine = (view.returns or [0, 0])[view.seat]
    who = "you win" if mine > 0 else ("a draw" if mine == 0 else "the bot wins")
    return f"{who} ({view.ending.replace('_', ' ')})"
