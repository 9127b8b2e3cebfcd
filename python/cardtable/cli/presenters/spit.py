"""Spit's presenter: the live screen (HC-2 keys, HC-4 display), the words of
``simulate spit`` and the timed story of ``replay --show``."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from cardtable._core import Card
from cardtable.cli.live import keys_text
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


def card_text(card: Card) -> Text:
    return Text(card.symbol(), style="bold red" if card.is_red else "bold")


class SpitLive:
    title = "Spit"
    keys_help = keys_text(KEYS)
    quit_keys = frozenset({"escape", "ctrl+c"})

    def render(self, view: Any, game: Game) -> Text:
        out = Text()
        for seat, label in ((1, "bot "), (0, "you ")):
            if seat == 0:
                out.append("\n")
                self.centre(out, view)
                out.append("\n\n")
            out.append(label, style="bold" if seat == 0 else "dim")
            for p, (down, up) in enumerate(view.piles[seat], 1):
                out.append(f" {p}:")
                if up:
                    out.append_text(card_text(up[-1]))
                else:
                    out.append("··" if not down else "▒▒")
                if down:
                    out.append(f"+{down}", style="dim")
            out.append(f"   spit cards {view.spit_cards[seat]}\n")
        out.append(f"\n{view.phase}", style="italic")
        if view.ending:
            winner = "you win" if view.winner == 0 else "the bot wins"
            out.append(f" — {winner} ({view.ending.replace('_', ' ')})", style="bold")
        return out

    def centre(self, out: Text, view: Any) -> None:
        out.append("       ")
        for side, pile in zip("LR", view.centre, strict=True):
            out.append(f"{side}[")
            if pile:
                out.append_text(card_text(pile[-1]))
                out.append(f" x{len(pile)}", style="dim")
            else:
                out.append("  ")
            out.append("]   ")

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


PLAY_HELP = """Play Spit live against a bot: both of you play at once, as fast as you can.

    Keys (no Enter): q w e r t play the top of your stock pile 1-5 onto the
    left spit pile, a s d f g onto the right one; z x c v b flip pile 1-5 (or
    move its top card to an empty slot); space spits when stuck (--stalemate
    agreed); h / l slap the left / right pile at the end of a deal; p pauses,
    ? shows the keys, Esc quits. A card that no longer fits when it
    lands bounces back (it flashes). The clock is virtual: the same --seed and
    the same keys at the same times give the same game, and --record keeps
    them for 'cardtable replay'.
    """

SIMULATE_HELP = real_time_simulate_help("Spit")

PRESENTER = Presenter(
    title="Spit",
    unit="game",
    bots_help="POLICY:PRESET (plain, smart, random; easy, normal, hard, instant)",
    play_help=PLAY_HELP,
    simulate_help=SIMULATE_HELP,
    win_column="wins",
    win_note="wins: share of games won",
    return_column="return",
    difference_label="paired return difference",
    make_table=None,
    show_record=show_timed_record,
    live=lambda game: SpitLive(),
    default_bot="smart:normal",
)
