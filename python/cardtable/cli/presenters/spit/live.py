"""Spit's presenter: the live screen (HC-2 keys, HC-4 display), the words of
``simulate spit`` and the timed story of ``replay --show``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from cardtable._core import Card
from cardtable.cli.live import Choice, Standings, won
from cardtable.errors import CardGameError
from cardtable.games import Game
from cardtable.tables import NO_MARKS, Marks
from cardtable.tables.spit import SIDES, draw, top_of, verdict

LEFT_KEYS = "qwert"
RIGHT_KEYS = "asdfg"
FLIP_KEYS = "zxcvb"
KEYS = [
    ("q-t", "play stock pile 1-5 onto the left spit pile"),
    ("a-g", "... onto the right spit pile"),
    ("z-b", "pile 1-5: flip it, or move its top to a space"),
    ("space", "Spit! (when stuck, with --stalemate agreed)"),
    ("h / l", "end of a deal: slap the left / right pile"),
]


# The endings that finish a game; the guards (max_deals, time_limit) cut it short.
GAME_ENDINGS = frozenset({"out_of_cards", "single_pile_short_out"})

MIN_SIZE = (60, 20)  # the table (56 columns, 8 lines), the ticker or the keys, the hint


def symbol(card: Card | None) -> str:
    return "a card" if card is None else card.symbol()


class SpitLive:
    """The live screen's Spit: its keys (HC-2) and its table
    (:mod:`cardtable.tables.spit`)."""

    title = "Spit"
    keys: Sequence[tuple[str, str]] = KEYS
    min_size = MIN_SIZE
    quit_keys = frozenset({"escape"})

    def render(self, view: Any, game: Game, marks: Marks = NO_MARKS) -> Text:
        return draw(view, game, marks)

    def standings(self, view: Any, game: Game) -> Standings:
        """Games won (one game, or a best-of-N match with ``match_games``)."""
        return Standings(
            unit="game",
            played=sum(view.wins),
            unfinished=view.ending not in GAME_ENDINGS,
            tallies=tuple(won(w, "game") for w in view.wins),
            result=verdict(view) if view.ending else None,
        )

    # --- keys -----------------------------------------------------------------------

    def action_for(
        self, key: str, view: Any, game: Game, legal: Sequence[int]
    ) -> int | str | Choice | None:
        text = self.text_for(key, view, game, legal)
        if text is None:
            return None
        try:
            return game.string_to_action(text)
        except CardGameError as e:
            return str(e)

    def text_for(self, key: str, view: Any, game: Game, legal: Sequence[int]) -> str | None:
        if key in LEFT_KEYS:
            return f"play {LEFT_KEYS.index(key) + 1} L"
        if key in RIGHT_KEYS:
            return f"play {RIGHT_KEYS.index(key) + 1} R"
        if key in FLIP_KEYS:
            return self.own_pile_move(FLIP_KEYS.index(key), view, game, legal)
        if key in (" ", "space"):
            return "spit"
        if key in ("h", "left"):
            return "lone L" if view.phase == "lone_choice" else "slap L"
        if key in ("l", "right"):
            return "lone R" if view.phase == "lone_choice" else "slap R"
        return None

    def own_pile_move(self, p: int, view: Any, game: Game, legal: Sequence[int]) -> str:
        """z-b on pile ``p``: the engine's legal move of its top card (a
        flip, a move into a space, or a stack onto an equal rank, in that
        order), so that every card the engine can move the keys can move;
        when none is legal, the move whose refusal explains why."""
        pile = p + 1
        offered = [game.action_to_string(a) for a in legal]
        for verb in ("flip", "move", "stack"):
            for text in offered:
                words = text.split()
                if words[0] == verb and words[1] == str(pile):
                    return text
        if p >= len(view.piles[view.seat]):  # pile 5 of 4: the engine says so
            return f"flip {pile}"
        down, up = view.piles[view.seat][p]
        if down or not up:
            return f"flip {pile}"
        other = 1 if p else 2
        return f"move {pile} {other}"

    def choice(
        self, view: Any, game: Game, legal: Sequence[int]
    ) -> Sequence[tuple[str, str]] | None:
        return None  # every Spit move is one key

    def cancel(self) -> None:
        pass

    def hint(self, view: Any, game: Game, legal: Sequence[int]) -> Sequence[tuple[str, str]]:
        """At the end of a deal the slap (or choice) keys with the piles'
        sizes, at a lone spit the pile keys; in play the play keys."""
        verbs = {game.action_to_string(a).split()[0] for a in legal}
        sizes = [len(pile) for pile in view.centre]
        if "slap" in verbs:
            verb = "slap" if game.options().get("slap", True) else "take"
            return [
                ("h", f"{verb} L ({sizes[0]} cards)"),
                ("l", f"{verb} R ({sizes[1]} cards)"),
            ]
        if "lone" in verbs:
            return [("h", "spit alone onto L"), ("l", "spit alone onto R")]
        if view.phase == "slap":
            return [("", "the deal is over")]
        if view.phase == "lone_choice":
            return [("", "the bot chooses its pile")]
        if view.phase in ("countdown", "regather"):
            return [("", "get ready")]
        keys = [("q-t a-g", "play")]
        if "spit" in verbs:
            keys.append(("space", "spit"))
        elif verbs & {"flip", "move", "stack"}:
            keys.append(("z-b", "flip/move"))
        return keys

    # --- telling moves --------------------------------------------------------------

    def describe(self, action: int, seat: int, view: Any, game: Game) -> str:
        words = game.action_to_string(action).split()
        if words[0] == "play":
            p, side = int(words[1]) - 1, words[2]
            card = top_of(view.piles[seat][p]) if p < len(view.piles[seat]) else None
            pile = view.centre[SIDES.index(side)]
            if card is None:
                return f"pile {p + 1} onto {side}"
            onto = f"on {pile[-1].symbol()}" if pile else f"onto {side}"
            return f"{card.symbol()} {onto}"
        return self.plain(words)

    def tell(self, commits: Sequence[tuple[int, int, bool]], view: Any, game: Game) -> list[str]:
        # A card played onto a spit pile is on it now, under the ones played
        # onto it after it: count those back from the top.
        later = {side: 0 for side in SIDES}
        told = []
        for seat, action, bounced in reversed(commits):
            words = game.action_to_string(action).split()
            if words[0] == "play":
                p, side = int(words[1]) - 1, words[2]
                if bounced:
                    card = top_of(view.piles[seat][p])
                else:
                    pile = view.centre[SIDES.index(side)]
                    k = later[side]
                    later[side] += 1
                    card = pile[-1 - k] if k < len(pile) else None
                told.append(f"{symbol(card)} onto {side}")
            elif words[0] in ("move", "stack") and not bounced:
                card = top_of(view.piles[seat][int(words[2]) - 1])
                told.append(f"{words[0]} {symbol(card)} to pile {words[2]}")
            else:
                told.append(self.plain(words))
        return told[::-1]

    def plain(self, words: list[str]) -> str:
        """The moves that need no card named: ``flip pile 3``, ``slap L``."""
        verb = words[0]
        if verb == "flip":
            return f"flip pile {words[1]}"
        if verb in ("move", "stack"):
            return f"{verb} pile {words[1]} to pile {words[2]}"
        if verb == "lone":
            return f"spit alone onto {words[1]}"
        return " ".join(words)

    def refusal(self, action: int, seat: int, state: Any) -> tuple[str, str] | None:
        why: tuple[str, str] | None = state.refusal(action, seat)
        return why
