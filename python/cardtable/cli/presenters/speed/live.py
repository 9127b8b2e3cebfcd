"""Speed's presenter: the live screen (HC-3 keys, HC-4 display), the words of
``simulate speed`` and the timed story of ``replay --show``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from cardtable._core import Card
from cardtable.cli.live import Choice, Standings, won
from cardtable.errors import CardGameError
from cardtable.games import Game
from cardtable.tables import NO_MARKS, Marks
from cardtable.tables.speed import draw, rank_text, top_text, verdict

LEFT_KEYS = "qwert"
RIGHT_KEYS = "asdfg"
# A joker's rank, after its key: the key of each rank letter of the engine's
# notation (``play JK L as T``) and the rank as the table writes it.
RANK_KEYS = {
    "a": "A", "1": "A", "2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7",
    "8": "8", "9": "9", "0": "T", "t": "T", "j": "J", "q": "Q", "k": "K",
}  # fmt: skip
KEY_OF_RANK = {"A": "a", "T": "0", "J": "j", "Q": "q", "K": "k"}
KEYS = [
    ("q-t", "play hand slot 1-5 onto the left centre pile"),
    ("a-g", "... onto the right centre pile"),
    ("JK", "its key, then its rank: a 2-9 0 j q k (0 is 10)"),
    ("space", "draw (with --no-auto-draw)"),
]


MIN_SIZE = (60, 20)  # as Spit's: the same screen around a smaller table


class SpeedLive:
    """The live screen's Speed: its keys (HC-3) and its table
    (:mod:`cardtable.tables.speed`).

    A joker is played in two keys: its slot's key names the pile, then a
    rank key the rank it stands for, among those the engine offers (SD-5).
    """

    title = "Speed"
    keys: Sequence[tuple[str, str]] = KEYS
    min_size = MIN_SIZE
    quit_keys = frozenset({"escape"})

    def __init__(self) -> None:
        self.joker: tuple[int, str] | None = None
        """The joker being played: its hand slot and pile, until its rank is chosen."""

    def render(self, view: Any, game: Game, marks: Marks = NO_MARKS) -> Text:
        waiting = self.joker[0] if self.joker is not None else None
        return draw(view, game, marks, waiting)

    def standings(self, view: Any, game: Game) -> Standings:
        """Deals won (one deal, or several with ``scoring`` or ``match``), and
        the points with ``scoring``."""
        scoring = bool(game.options().get("scoring"))
        tallies = tuple(
            won(w, "deal") + (f", {points} point{'s' * (points != 1)}" if scoring else "")
            for w, points in zip(view.deal_wins, view.scores, strict=True)
        )
        # A deal the time limit decided counts (RT-12); one it cut off before
        # its centre cards turned up does not.
        played = view.finished_deals
        return Standings(
            unit="deal",
            played=played,
            unfinished=view.ending is None or played <= view.deal,
            tallies=tallies,
            result=verdict(view) if view.ending else None,
        )

    # --- keys -----------------------------------------------------------------------

    def action_for(
        self, key: str, view: Any, game: Game, legal: Sequence[int]
    ) -> int | str | Choice | None:
        if self.choice(view, game, legal) is not None:
            rank = RANK_KEYS.get(key)
            if rank is not None:
                return self.joker_as(rank, game, legal)
            self.joker = None  # another key: the joker stays in the hand
        if key in (" ", "space"):
            return game.string_to_action("draw")
        if key not in LEFT_KEYS and key not in RIGHT_KEYS:
            return None
        side = "L" if key in LEFT_KEYS else "R"
        slot = (LEFT_KEYS if side == "L" else RIGHT_KEYS).index(key)
        card = view.hand[slot]
        if card is None:
            return f"slot {slot + 1} is empty"
        if not card.is_joker:
            try:
                return game.string_to_action(f"play {card} {side}")
            except CardGameError as e:
                return str(e)
        ranks = self.joker_ranks(side, game, legal)
        if len(ranks) == 1:
            return next(iter(ranks.values()))
        if not ranks:  # not now: the engine says why
            return game.string_to_action(f"play JK {side} as A")
        self.joker = (slot, side)
        return Choice(f"JK onto {side}: press the rank it stands for")

    def joker_ranks(self, side: str, game: Game, legal: Sequence[int]) -> dict[str, int]:
        """The ranks the engine lets a joker take on ``side`` now (SD-5),
        by rank letter, and their actions."""
        ranks = {}
        for a in legal:
            words = game.action_to_string(a).split()  # play JK L as 7
            if words[:3] == ["play", "JK", side] and len(words) == 5:
                ranks[words[4]] = a
        return ranks

    def joker_as(self, rank: str, game: Game, legal: Sequence[int]) -> int:
        """The open joker played as ``rank`` (refused, and still open, when
        the engine does not offer that rank)."""
        assert self.joker is not None
        side = self.joker[1]
        action = game.string_to_action(f"play JK {side} as {rank}")
        if action in legal:
            self.joker = None
        return action

    def choice(
        self, view: Any, game: Game, legal: Sequence[int]
    ) -> Sequence[tuple[str, str]] | None:
        if self.joker is None:
            return None
        slot, side = self.joker
        card = view.hand[slot]
        ranks = self.joker_ranks(side, game, legal)
        if card is None or not card.is_joker or not ranks:
            self.joker = None  # played, or no longer playable there
            return None
        if len(ranks) > 3:  # on a joker turned up: any rank
            keys = " ".join(KEY_OF_RANK.get(r, r) for r in ranks)
            return [(keys, f"JK's rank on {top_text(view, side)}")]
        return [(KEY_OF_RANK.get(r, r), f"JK as {rank_text(r)}") for r in ranks]

    def cancel(self) -> None:
        self.joker = None

    def hint(self, view: Any, game: Game, legal: Sequence[int]) -> Sequence[tuple[str, str]]:
        if view.phase == "countdown":
            return [("", "get ready")]
        if view.phase == "stalemate":
            return [("", "stuck: the side piles turn up")]
        if view.phase != "playing":
            return []
        keys = [("q-t a-g", "play")]
        if any(c is not None and c.is_joker for c in view.hand):
            keys = [("q-t a-g", "play (JK: then its rank)")]
        if any(game.action_to_string(a) == "draw" for a in legal):
            keys.append(("space", "draw"))
        return keys

    # --- telling moves --------------------------------------------------------------

    def describe(self, action: int, seat: int, view: Any, game: Game) -> str:
        words = game.action_to_string(action).split()
        if words[0] != "play":
            return " ".join(words)
        return f"{self.card_words(words)} on {top_text(view, words[2])}"

    def tell(self, commits: Sequence[tuple[int, int, bool]], view: Any, game: Game) -> list[str]:
        told = []
        for _seat, action, _bounced in commits:
            words = game.action_to_string(action).split()
            if words[0] == "play":
                told.append(f"{self.card_words(words)} onto {words[2]}")
            else:
                told.append(" ".join(words))
        return told

    def card_words(self, words: list[str]) -> str:
        """``7♥``, or ``JK as 10``, from ``play 7H L`` or ``play JK L as T``."""
        if words[1] == "JK":
            return f"JK as {rank_text(words[4])}"
        return Card(words[1]).symbol()

    def refusal(self, action: int, seat: int, state: Any) -> tuple[str, str] | None:
        why: tuple[str, str] | None = state.refusal(action, seat)
        return why
