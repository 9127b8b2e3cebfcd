"""Speed's presenter: the live screen (HC-3 keys, HC-4 display), the words of
``simulate speed`` and the timed story of ``replay --show``."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from cardtable._core import Card
from cardtable.cli.live import (
    BOUNCE_STYLE,
    INCOMING_STYLE,
    NO_MARKS,
    Marks,
    Standings,
    keys_text,
    won,
    words_of,
)
from cardtable.cli.presenters.base import Presenter
from cardtable.cli.presenters.timed import real_time_simulate_help, show_timed_record
from cardtable.errors import CardGameError
from cardtable.games import Game

LEFT_KEYS = "qwert"
RIGHT_KEYS = "asdfg"
KEYS = [
    ("q-t", "play hand slot 1-5 onto the LEFT centre pile"),
    ("a-g", "... onto the RIGHT centre pile"),
    ("space", "draw (with --no-auto-draw)"),
    ("p ? Esc", "pause, these keys, quit"),
]


def card_text(card: Card | None) -> Text:
    if card is None:
        return Text("··", style="dim")
    return Text(card.symbol(), style="bold red" if card.is_red else "bold")


CELL = 6  # columns per hand slot
LABEL = 6  # columns of the row label


class SpeedLive:
    """HC-4: the bot's hand (face down) at the top, the centre and side
    piles in the middle, your hand at the bottom with its slot numbers."""

    title = "Speed"
    keys_help = keys_text(KEYS)
    quit_keys = frozenset({"escape"})

    def render(self, view: Any, game: Game, marks: Marks = NO_MARKS) -> Text:
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
        for side, top, size in zip("LR", view.centre_top, view.centre_size, strict=True):
            cell = Text(f"{side}[")
            cell.append_text(card_text(top))
            cell.append(f" x{size}]", style="dim" if top is None else "")
            flying = [w[1] for w in incoming if w[2] == side]
            if any(w[2] == side for w in bounced if len(w) >= 3):
                cell.stylize(BOUNCE_STYLE)
            out.append_text(cell)
            if flying:
                out.append(f" <- {flying[0]}", style=INCOMING_STYLE)
            out.append("  ")
        out.append(f" side {view.side_size[1]:>2}\n\n")
        out.append(f"{'you':<{LABEL}}", style="bold")
        for card in view.hand:
            cell = card_text(card)
            if card is not None and str(card) in bounced_cards:
                cell.stylize(BOUNCE_STYLE)
            out.append_text(cell)
            out.append(" " * max(1, CELL - cell.cell_len))
        out.append(f"{view.draw_size[view.seat]} to draw\n")
        out.append(" " * LABEL)
        for slot in range(1, len(view.hand) + 1):
            out.append(f"{slot:<{CELL}}", style="dim")
        out.append("\n")
        out.append(f"\n{view.phase}", style="italic")
        if view.ending:
            out.append(f" — {verdict(view)}", style="bold")
        return out

    def standings(self, view: Any, game: Game) -> Standings:
        """Deals won (one deal, or several with ``scoring`` or ``match``), and
        the points with ``scoring``."""
        # The deal under way is finished only when the game ended with it:
        # the time limit cuts it short.
        done = view.ending is not None and view.ending != "time_limit"
        scoring = bool(game.options().get("scoring"))
        tallies = tuple(
            won(w, "deal") + (f", {points} point{'s' * (points != 1)}" if scoring else "")
            for w, points in zip(view.deal_wins, view.scores, strict=True)
        )
        return Standings(
            unit="deal",
            played=view.deal + done,
            unfinished=not done,
            tallies=tallies,
            result=verdict(view) if view.ending else None,
        )

    def action_for(self, key: str, view: Any, game: Game) -> int | str | None:
        if key in (" ", "space"):
            text = "draw"
        elif key in LEFT_KEYS or key in RIGHT_KEYS:
            side = "L" if key in LEFT_KEYS else "R"
            slot = (LEFT_KEYS if side == "L" else RIGHT_KEYS).index(key)
            card = view.hand[slot]
            if card is None:
                return f"slot {slot + 1} is empty"
            if card.is_joker:
                top = view.centre_top[0 if side == "L" else 1]
                return "a joker needs a rank: not from this key map" if top else "no pile yet"
            text = f"play {card} {side}"
        else:
            return None
        try:
            return game.string_to_action(text)
        except CardGameError as e:
            return str(e)


def verdict(view: Any) -> str:
    """``you win (emptied)``, ``a draw (draw)``."""
    mine = (view.returns or [0, 0])[view.seat]
    who = "you win" if mine > 0 else ("a draw" if mine == 0 else "the bot wins")
    return f"{who} ({view.ending.replace('_', ' ')})"


PLAY_HELP = """Play Speed live against a bot: both of you play at once, as fast as you can.

    Keys (no Enter): q w e r t play hand slot 1-5 onto the left centre pile,
    a s d f g onto the right one; space draws (with --no-auto-draw); p
    pauses, ? shows the keys, Esc quits (Ctrl-C too, with exit status 130),
    and the standings follow. A card that no longer fits when
    it lands bounces back (it flashes). When nobody can play, the side piles
    flip. The clock is virtual: the same --seed and the same keys at the same
    times give the same game, and --record keeps them for 'cardtable replay'.
    """

SIMULATE_HELP = real_time_simulate_help("Speed")

PRESENTER = Presenter(
    title="Speed",
    unit="game",
    play_help=PLAY_HELP,
    simulate_help=SIMULATE_HELP,
    win_column="wins",
    win_note="wins: share of games won",
    return_column="return",
    difference_label="paired return difference",
    make_table=None,
    show_record=show_timed_record,
    live=lambda game: SpeedLive(),
    default_bot="smart:normal",
)
