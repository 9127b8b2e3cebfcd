"""Spit's presenter: the live screen (HC-2 keys, HC-4 display), the words of
``simulate spit`` and the timed story of ``replay --show``."""

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
FLIP_KEYS = "zxcvb"
KEYS = [
    ("q-t", "play the top of stock pile 1-5 onto the LEFT spit pile"),
    ("a-g", "... onto the RIGHT spit pile"),
    ("z-b", "pile 1-5: flip its face-down top, or move its top to an empty slot"),
    ("space", "Spit! (when stuck, under --stalemate agreed)"),
    ("h / l", "slap the left / right pile at the end of a deal"),
    ("p ? Esc", "pause, these keys, quit"),
]


# The endings that finish a game; the guards (max_deals, time_limit) cut it short.
GAME_ENDINGS = frozenset({"out_of_cards", "single_pile_short_out"})

CELL = 8  # columns per stock pile
LABEL = 6  # columns of the row label


def card_text(card: Card) -> Text:
    return Text(card.symbol(), style="bold red" if card.is_red else "bold")


def marked_piles(words: list[list[str]]) -> set[int]:
    """Stock piles (1-5) the actions take a card from (``play 3 L``, ``flip 2``,
    ``move 2 4``, ``stack 1 3``)."""
    return {int(w[1]) for w in words if len(w) >= 2 and w[0] != "slap" and w[1].isdigit()}


def marked_sides(words: list[list[str]]) -> set[str]:
    """Spit piles (L, R) the actions play onto or claim."""
    return {w[-1] for w in words if w and w[-1] in ("L", "R")}


class SpitLive:
    """HC-4: the bot's row at the top, the spit piles in the middle, yours
    at the bottom, pile numbers under the piles; suits coloured."""

    title = "Spit"
    keys_help = keys_text(KEYS)
    quit_keys = frozenset({"escape"})

    def render(self, view: Any, game: Game, marks: Marks = NO_MARKS) -> Text:
        bounced = words_of(game, marks.bounced)
        incoming = words_of(game, marks.incoming)
        bot = 1 - view.seat
        out = Text()
        self.row(out, view, bot, "bot", marked_piles(incoming), INCOMING_STYLE)
        out.append("\n")
        self.centre(out, view, marked_sides(incoming), marked_sides(bounced))
        out.append("\n\n")
        self.row(out, view, view.seat, "you", marked_piles(bounced), BOUNCE_STYLE)
        out.append(f"\n{view.phase}", style="italic")
        if view.ending:
            out.append(f" — {verdict(view)}", style="bold")
        return out

    def standings(self, view: Any, game: Game) -> Standings:
        """Games won (one game, or a best-of-N match with ``match_games``)."""
        return Standings(
            unit="game",
            played=sum(view.wins),
            unfinished=view.ending not in GAME_ENDINGS,
            tallies=tuple(won(w, "game") for w in view.wins),
            result=verdict(view) if view.ending else None,
        )

    def row(
        self, out: Text, view: Any, seat: int, label: str, marked: set[int], mark_style: str
    ) -> None:
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
        out.append("\n")

    def centre(self, out: Text, view: Any, incoming: set[str], bounced: set[str]) -> None:
        out.append(" " * (LABEL + CELL))
        for side, pile in zip("LR", view.centre, strict=True):
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

    def action_for(self, key: str, view: Any, game: Game) -> int | str | None:
        text = self.text_for(key, view)
        if text is None:
            return None
        try:
            action = game.string_to_action(text)
        except CardGameError as e:
            return str(e)
        if action not in view.legal_actions:
            return f"{text}: not possible now"
        return action

    def text_for(self, key: str, view: Any) -> str | None:
        if key in LEFT_KEYS:
            return f"play {LEFT_KEYS.index(key) + 1} L"
        if key in RIGHT_KEYS:
            return f"play {RIGHT_KEYS.index(key) + 1} R"
        if key in FLIP_KEYS:
            p = FLIP_KEYS.index(key)
            down, up = view.piles[view.seat][p]
            if down and not up:
                return f"flip {p + 1}"
            empty = [i for i, (d, u) in enumerate(view.piles[view.seat]) if not d and not u]
            return f"move {p + 1} {empty[0] + 1}" if empty else f"flip {p + 1}"
        if key in (" ", "space"):
            return "spit"
        if key in ("h", "left"):
            return "lone L" if view.phase == "lone_choice" else "slap L"
        if key in ("l", "right"):
            return "lone R" if view.phase == "lone_choice" else "slap R"
        return None


def verdict(view: Any) -> str:
    """``you win (out of cards)``; a guard ending has no winner."""
    if view.winner is None:
        who = "nobody wins"
    else:
        who = "you win" if view.winner == view.seat else "the bot wins"
    return f"{who} ({view.ending.replace('_', ' ')})"


PLAY_HELP = """Play Spit live against a bot: both of you play at once, as fast as you can.

    Keys (no Enter): q w e r t play the top of your stock pile 1-5 onto the
    left spit pile, a s d f g onto the right one; z x c v b flip pile 1-5 (or
    move its top card to an empty slot; face-down cards turn up by themselves
    unless --no-auto-flip); space spits when stuck (--stalemate
    agreed); h / l slap the left / right pile at the end of a deal; p pauses,
    ? shows the keys, Esc quits (Ctrl-C too, with exit status 130), and the
    standings follow. A card that no longer fits when it
    lands bounces back (it flashes). The clock is virtual: the same --seed and
    the same keys at the same times give the same game, and --record keeps
    them for 'cardtable replay'.
    """

SIMULATE_HELP = real_time_simulate_help("Spit")

PRESENTER = Presenter(
    title="Spit",
    unit="game",
    play_help=PLAY_HELP,
    simulate_help=SIMULATE_HELP,
    win_column="wins",
    win_note="wins: share of games won",
    return_column="return",
    difference_label="paired return difference",
    make_table=None,
    show_record=show_timed_record,
    live=lambda game: SpitLive(),
    live_defaults={"auto_flip": True},
    default_bot="smart:normal",
)
