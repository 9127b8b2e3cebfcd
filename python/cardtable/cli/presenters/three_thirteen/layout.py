"""Three Thirteen's table in the card table app: the round, its size and
wild rank, the stock and the discard, the melds tabled in a redemption
round, your hand grouped by the solver's best arrangement (wilds marked
``~``, the card just drawn ``*``), its deadwood, each seat's total, and at
the end of each round its melds and points in the log."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rich.text import Text

from cardtable._core import ActionInfo, Card
from cardtable.cli.board import TurnLayout, Voice, card_symbols, cards_line, new_card_marks
from cardtable.cli.presenters.three_thirteen.words import (
    END_NAMES,
    WILD_MARK,
    meld_text,
    narrate,
    optional_commands,
    rank_name,
    wild_text,
)
from cardtable.cli.terminal import HUMAN, sort_hand
from cardtable.errors import CardGameError
from cardtable.games import Game, State
from cardtable.games.three_thirteen import ThreeThirteenGame, ThreeThirteenState

NEW_MARK = "*"


class ThreeThirteenLayout(TurnLayout):
    title = "Three Thirteen"
    unit = "game"
    kind_keys: ClassVar[Mapping[str, str]] = {
        "draw": "d", "take": "p", "out": "o", "table": "t", "pick": "a", "meld": "m",
        "layoff": "l", "gift": "g", "discard": "x",
    }  # fmt: skip

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        assert isinstance(game, ThreeThirteenGame)
        self.tt = game
        self.new_card: Card | None = None

    # --- what the table remembers ----------------------------------------------------

    def start(self, state: State) -> None:
        self.new_card = None

    def save(self) -> Any:
        return self.new_card

    def load(self, notes: Any) -> None:
        self.new_card = notes

    def observe(
        self, voice: Voice, seat: int, info: ActionInfo, before: Any, after: Any
    ) -> list[str]:
        if seat == HUMAN and info.kind in ("draw", "take"):
            new = [c for c in after.hand if after.hand.count(c) > before.hand.count(c)]
            self.new_card = new[0] if new else None
        elif after.current_player != HUMAN or after.round != before.round:
            self.new_card = None
        result = after.last_round
        if result is None or (
            before.last_round is not None and result.round == before.last_round.round
        ):
            return []
        how = END_NAMES.get(result.end, result.end)
        if result.out_player is not None:
            how = f"{voice.who(result.out_player)} went out"
        doubled = " (J/Q/K round: doubled, TT-10.7)" if result.doubled else ""
        out = [f"Round {result.round + 1} over: {how}{doubled}"]
        for p, seat_result in enumerate(result.seats):
            melds = " ".join(f"[{meld_text(m, result)}]" for m in seat_result.melds)
            out.append(f"  {voice.subject(p)}: {melds or '-'} → {seat_result.points} points")
        if after.phase != "over":
            out.append(
                f"Round {after.round + 1} of {after.rounds}: {after.cards_dealt} cards,"
                f" {rank_name(after.wild_rank)}s wild"
            )
        return out

    # --- the table ---------------------------------------------------------------------

    def seat_note(self, state: State, view: Any, seat: int) -> str:
        parts = [f"total {view.totals[seat]}"]
        if seat != HUMAN and view.known_cards[seat]:
            parts.append("took " + card_symbols(view.known_cards[seat]))
        if view.out_player == seat:
            parts.append("went out")
        return ", ".join(parts)

    def piles(self, view: Any) -> Text:
        out = Text(
            f"Round {view.round + 1}/{view.rounds}: {view.cards_dealt} cards,"
            f" {rank_name(view.wild_rank)}s wild",
            style="bold",
        )
        out.append(f" · Stock {view.stock_size}")
        if view.restocks:
            out.append(f" (rebuilt {view.restocks}x)")
        out.append(" · Discard ")
        top = view.top_discard
        out.append_text(cards_line([top]) if top is not None else Text("-"))
        if view.out_player is not None:
            left = view.last_turns_left
            out.append(f" · {left} last turn{'s' * (left != 1)}", style="bold")
        return out

    def tabled(self, view: Any, voice: Voice) -> list[Text]:
        out = [
            Text(f"M{t.id} {voice.whose(t.owner)}: {meld_text(t.meld, view)}") for t in view.tabled
        ]
        if view.building:
            built = " ".join(wild_text(c, view) for c in view.building)
            out.append(Text(f"Building a meld: {built}", style="bold"))
        return out

    def hand_groups(self, state: State, view: Any) -> list[list[Card]]:
        assert isinstance(state, ThreeThirteenState)
        best = state.best_arrangement(HUMAN)
        groups = [list(m.cards) for m in best.melds]
        rest = Counter(view.hand) - Counter(c for g in groups for c in g)
        loose = sort_hand(list(rest.elements()))
        if self.new_card in loose:
            loose.remove(self.new_card)
            loose.append(self.new_card)
        return [*groups, loose]

    def card_marks(self, view: Any, cards: Sequence[Card]) -> list[str]:
        marks = new_card_marks(cards, self.new_card, NEW_MARK)
        return [WILD_MARK if view.is_wild(c) else m for c, m in zip(cards, marks, strict=True)]

    def hand_note(self, state: State, view: Any) -> str:
        assert isinstance(state, ThreeThirteenState)
        best = state.best_arrangement(HUMAN)
        return f"deadwood {best.deadwood} · {rank_name(view.wild_rank)}s wild (~)"

    # --- moves -------------------------------------------------------------------------

    def move_label(self, state: State, info: ActionInfo) -> str:
        view = state.view(HUMAN)
        card = info.cards[0] if info.cards else None
        shown = wild_text(card, view) if card is not None else ""
        kind = info.kind
        if kind == "draw":
            return "draw from the stock"
        if kind == "take":
            top = view.top_discard
            return f"take {top.symbol() if top else 'the discard'}"
        if kind == "discard":
            return f"discard {shown}"
        if kind == "out":
            return f"go out, discarding {shown}"
        if kind == "gift":
            return f"give the joker to Player {info.seat}"
        if kind == "table":
            return "table your melds (the solver's arrangement)"
        if kind == "layoff":
            return f"lay {shown} off on M{info.meld}"
        if kind == "pick":
            return f"add {shown} to the meld you build"
        if kind == "meld":
            return "lay the cards picked down as one meld"
        return info.text

    def intended(self, state: State, kind: str, cards: Sequence[Card]) -> int | None:
        one = str(cards[0]) if len(cards) == 1 else ""
        texts = {
            "draw": "draw",
            "take": "take",
            "discard": f"discard {one}" if one else "",
            "out": f"out {one}" if one else "",
            "table": "table",
        }
        text = texts.get(kind, "")
        if not text:
            return None
        try:
            return state.string_to_action(text)
        except CardGameError:
            return None

    # --- words -------------------------------------------------------------------------

    def narrate(
        self, voice: Voice, seat: int, info: ActionInfo, before: Any, after: Any
    ) -> str | None:
        drawn = None
        if info.kind == "draw" and seat == HUMAN:
            got = [c for c in after.hand if after.hand.count(c) > before.hand.count(c)]
            drawn = got[0] if got else None
        return narrate(voice, seat, info, before, after, drawn)

    def phase_text(self, state: State, view: Any) -> str:
        if view.building:
            return "Add cards to the meld you build (a), then lay it down (m) (TT-10.6)."
        kinds = {state.describe_action(a).kind for a in view.legal_actions}
        if "draw" in kinds:
            return "Your turn: draw from the stock (d) or take the discard (p)."
        if {"table", "layoff", "pick"} & kinds:
            return (
                "Your last turn (TT-10.6): table melds (t, or a cards then m), lay cards off"
                " (l), then discard."
            )
        if view.out_player is not None:
            return "Your last turn: discard (x); your melds are scored with the round."
        return "Discard a card (x), or go out (o) when the rest is all in melds (TT-6)."

    def hint(self, state: State) -> str | None:
        assert isinstance(state, ThreeThirteenState)
        view = state.view(HUMAN)
        best = state.best_arrangement(HUMAN)
        melds = ", ".join(meld_text(m, view) for m in best.melds) or "no melds"
        extra = f", discarding {best.discard.symbol()}" if best.discard is not None else ""
        return f"Hint: {melds}; deadwood {best.deadwood}{extra}."

    def score_lines(self, state: State, voice: Voice) -> list[str]:
        view = state.view(HUMAN)
        if not view.score_sheet:
            return []
        totals = ", ".join(f"{voice.who(p)} {t}" for p, t in enumerate(view.totals))
        return [f"Totals after {len(view.score_sheet)} rounds: {totals}"]

    def end_lines(self, state: State, voice: Voice) -> list[str]:
        view = state.view(HUMAN)
        winners = [p for p in range(view.players) if state.won(p)]
        low = view.totals[winners[0]] if winners else min(view.totals)
        names = " and ".join(voice.who(p) for p in winners)
        verb = "share the win" if len(winners) > 1 else ("win" if winners == [HUMAN] else "wins")
        totals = ", ".join(f"{voice.who(p)} {t}" for p, t in enumerate(view.totals))
        return [f"Game over: {names} {verb} with {low} points.", f"Totals: {totals}"]

    def help_notes(self) -> list[str]:
        notes = [
            f"Your hand: the solver's best melds first, then the rest; {WILD_MARK} marks a"
            f" wild card, {NEW_MARK} the card you just drew or took.",
        ]
        gifts, redemption = optional_commands(self.tt)
        if not gifts.in_force:
            notes.append(f"g, the joker gift (TT-10.4), needs {gifts.flag}: not in these rules.")
        if not redemption.in_force:
            notes.append(
                "t, a, m and l, tabling melds and laying off in a last turn (TT-10.6), need"
                f" {redemption.flag}: not in these rules."
            )
        return notes


def layout(game: Game) -> ThreeThirteenLayout:
    return ThreeThirteenLayout(game)
