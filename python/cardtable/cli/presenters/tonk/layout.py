"""Tonk's table in the card table app: the stock and the discard, the
spreads (S0, S1 ... with their owners and hits), your hand grouped by the
solver's best spreads with the card just drawn marked ``*``, your count,
the hit locks, the spades bet, the hint (:func:`.words.hint`) and the
settlement at the end.

Drop windows (``--drop-timing any-time``) are folded into your own moves
as in the stdin table: in the window just before your turn the list
offers the drop and your turn's moves (choosing one passes the window,
then plays it); windows in the other players' turns are passed for you
unless ``w`` asks you at each of them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rich.text import Text

from cardtable._core import ActionInfo, Card
from cardtable.cli.board import (
    Move,
    TurnLayout,
    Voice,
    card_symbols,
    cards_line,
    new_card_marks,
)
from cardtable.cli.presenters.tonk.words import (
    PASS,
    Tabletop,
    ending_sentence,
    hint,
    narrate,
    spread_name,
)
from cardtable.cli.terminal import HUMAN, signed, sort_hand
from cardtable.errors import CardGameError
from cardtable.games import Bot, Game, State
from cardtable.games.tonk import TonkGame, TonkState

NEW_MARK = "*"


class TonkLayout(TurnLayout):
    title = "Tonk"
    unit = "hand"
    kind_keys: ClassVar[Mapping[str, str]] = {
        "draw": "d", "take": "p", "spread": "m", "hit": "h", "discard": "x", "drop": "k",
        "claim_49": "c", "spades_in": "y", "spades_out": "o", "pass": "",
    }  # fmt: skip
    key_help = (("w", "drop windows: ask me in the other players' turns too (any-time drops)"),)

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        assert isinstance(game, TonkGame)
        self.tonk = game
        self.options = game.options()
        self.adviser = Bot(game, "greedy", 0)  # the hint's "the greedy bot would"
        self.new_card: Card | None = None
        self.ask_windows = False

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
            new = [c for c in after.hand if c not in before.hand]
            self.new_card = new[0] if new else None
        if after.turn_player != HUMAN or after.phase == "over":
            self.new_card = None
        if before.phase == "spades" and after.phase != "spades":
            if not after.spades_in:
                return ["Nobody joined the spades bet."]
            out = []
            for p in after.spades_in:
                c = after.spades_shown[p]
                out.append(
                    voice.says(p, "show", "shows")
                    + f" {c.symbol() if c else 'no spade'} for the spades bet"
                )
            return out
        return []

    def key(self, key: str, state: State) -> str | None:
        if key != "w":
            return None
        if self.options.get("drop_timing") != "any_time":
            return "There are no drop windows under these rules."
        self.ask_windows = not self.ask_windows
        if self.ask_windows:
            return "You will be asked at every drop window of the other players' turns."
        return "Drop windows of the other players' turns are passed for you again."

    # --- the table ---------------------------------------------------------------------

    def seat_note(self, state: State, view: Any, seat: int) -> str:
        assert isinstance(state, TonkState)
        parts = []
        if seat != HUMAN and view.known_cards[seat]:
            parts.append("has " + card_symbols(sort_hand(view.known_cards[seat])))
        if view.locks[seat]:
            parts.append(f"hit lock {view.locks[seat]}")
        if seat in view.spades_in:
            parts.append("in the spades bet")
        return ", ".join(parts)

    def piles(self, view: Any) -> Text:
        out = Text(f"Stock {view.stock_size}", style="bold")
        out.append(" · Discard ")
        top = view.top_discard
        if top is not None:
            out.append_text(cards_line([top]))
            out.append(f" ({len(view.discard_pile)})")
        else:
            out.append("empty")
        return out

    def tabled(self, view: Any, voice: Voice) -> list[Text]:
        out = []
        for s in view.spreads:
            line = Text(f"S{s.id} {spread_name(voice, s)}: ", style="bold")
            line.append_text(cards_line(s.cards))
            if s.hits:
                line.append(f"  ({s.hits} hit{'s' * (s.hits != 1)})", style="dim")
            out.append(line)
        return out

    def hand_groups(self, state: State, view: Any) -> list[list[Card]]:
        """The solver's best spreads first, then the rest sorted; the card
        just drawn last."""
        assert isinstance(state, TonkState)
        best = state.best_arrangement(HUMAN)
        groups = [list(m.cards) for m in best.melds]
        rest = Counter(view.hand) - Counter(c for g in groups for c in g)
        loose = sort_hand(list(rest.elements()))
        if self.new_card in loose:
            loose.remove(self.new_card)
            loose.append(self.new_card)
        return [*groups, loose]

    def card_marks(self, view: Any, cards: Sequence[Card]) -> list[str]:
        return new_card_marks(cards, self.new_card, NEW_MARK)

    def hand_note(self, state: State, view: Any) -> str:
        assert isinstance(state, TonkState)
        lock = " · you may not drop this turn (hit lock)" if view.turn_locked else ""
        return f"count {state.count(HUMAN)}{lock}"

    # --- moves -------------------------------------------------------------------------

    def moves(self, state: State) -> list[Move]:
        assert isinstance(state, TonkState)
        if state.phase == "drop_window":
            ahead = self.preview(state)
            if ahead is not None:
                # Your own turn comes next: its moves, and the window's drop.
                own = [m for m in super().moves(state) if m.kind != "pass"]
                nexts = [
                    Move((PASS,), m.kind, m.label, m.cards, m.key, m.confirm, m.actions[0])
                    for m in super().moves(ahead)
                ]
                return sorted([*own, *nexts], key=self.order)
        return super().moves(state)

    def preview(self, state: TonkState) -> TonkState | None:
        """The state after everybody passes this drop window, when it is seat 0's move."""
        after = state.clone()
        while after.phase == "drop_window" and after.current_player() is not None:
            if PASS not in after.legal_actions():
                return None
            after.apply_action(PASS)
        return after if after.current_player() == HUMAN else None

    def auto(self, state: State) -> int | None:
        """A window in another player's turn is passed for you (unless ``w``)."""
        assert isinstance(state, TonkState)
        if state.phase != "drop_window" or self.preview(state) is not None:
            return None
        kinds = {state.describe_action(a).kind for a in state.legal_actions()}
        if kinds <= {"drop", "pass"} and not (self.ask_windows and "drop" in kinds):
            return PASS
        return None

    def move(self, state: State, action: int, info: ActionInfo) -> Move:
        move = super().move(state, action, info)
        if info.kind == "drop":
            assert isinstance(state, TonkState)
            question = f"Drop now with a count of {state.count(HUMAN)}?"
            return Move(move.actions, move.kind, move.label, move.cards, move.key, question)
        return move

    def move_label(self, state: State, info: ActionInfo) -> str:
        assert isinstance(state, TonkState)
        kind, cards = info.kind, card_symbols(info.cards)
        if kind == "draw":
            n = state.stock_size
            return f"draw from the stock ({n})" if n else "draw: the stock is empty (ends the hand)"
        if kind == "take":
            top = state.discard_pile[-1] if state.discard_pile else None
            return f"pick up {top.symbol() if top else 'the discard'}"
        if kind == "drop":
            return f"drop (knock) with a count of {state.count(HUMAN)}"
        if kind == "pass":
            return "pass (do not drop)"
        if kind == "claim_49":
            return "claim your 49 on the deal"
        if kind == "spades_in":
            return "join the spades bet"
        if kind == "spades_out":
            return "stay out of the spades bet"
        if kind == "spread":
            return f"spread {cards}"
        if kind == "hit":
            target = next((s for s in state.spreads if s.id == info.meld), None)
            whose = f" ({spread_name(Voice(), target)})" if target is not None else ""
            return f"hit {cards} on S{info.meld}{whose}"
        if kind == "discard":
            return f"discard {cards}"
        return info.text

    def intended(self, state: State, kind: str, cards: Sequence[Card]) -> int | None:
        texts = {
            "draw": "draw",
            "take": "take",
            "drop": "drop",
            "discard": f"discard {cards[0]}" if len(cards) == 1 else "",
            "spread": "spread " + " ".join(map(str, cards)) if len(cards) >= 3 else "",
        }
        text = texts.get(kind, "")
        if not text:
            return None
        try:
            return self.tonk.string_to_action(text)
        except CardGameError:
            return None

    # --- words -------------------------------------------------------------------------

    def narrate(
        self, voice: Voice, seat: int, info: ActionInfo, before: Any, after: Any
    ) -> str | None:
        if info.kind == "pass":
            return None
        drawn = None
        if info.kind == "draw" and seat == HUMAN:
            new = [c for c in after.hand if c not in before.hand]
            drawn = new[0] if new else None
        return narrate(voice, seat, info, Tabletop.of(before), Tabletop.of(after), drawn)

    def phase_text(self, state: State, view: Any) -> str:
        phase = view.phase
        if phase == "spades":
            bet = self.options.get("spades_bet")
            return (
                f"Spades bet (TK-11.3): join (y) to put {bet} stake(s) in the pot, or stay"
                " out (o); the highest spade of those who join takes it."
            )
        if phase == "turn_start":
            return "Your turn: draw from the stock (d) or pick up the discard (p)."
        if phase == "play":
            return "Spread (m) and hit (h) as you like, then discard (x) to end your turn."
        if phase == "drop_window":
            return "Drop window: drop now (k), or go on."
        return "Your move."

    def hint(self, state: State) -> str | None:
        assert isinstance(state, TonkState)
        h = hint(state, self.adviser, HUMAN)
        parts = []
        if h.spreads:
            parts.append("best spreads " + ", ".join(card_symbols(s) for s in h.spreads))
        left = f"count {h.count} left"
        if h.discard is not None:
            left += f" discarding {h.discard.symbol()}"
        parts.append(left)
        said = self.move_label(state, state.describe_action(h.advice))
        if h.advice_count is not None:
            said += f" (count {h.advice_count} left)"
        return "Hint: " + "; ".join(parts) + f". The greedy bot would {said}."

    def end_lines(self, state: State, voice: Voice) -> list[str]:
        """The ending, what each seat got, the payments and why, then the
        hands shown (the most needed first: a small window cuts the last)."""
        assert isinstance(state, TonkState)
        ending = state.ending
        told = ending_sentence(ending, voice, self.options) if ending else "the hand is over"
        returns = ", ".join(f"{voice.who(p)} {signed(r)}" for p, r in enumerate(state.returns()))
        out = [f"Hand over: {told}.", f"This hand: {returns}"]
        for payer, payee, units, why in state.settlement_reasons():
            pays = voice.says(payer, "pay", "pays")
            out.append(f"{pays} {voice.who(payee)} {self.tonk.money(units)} - {why}")
        for payer, payee, units in state.side_bet_settlement():
            pays = voice.says(payer, "pay", "pays")
            out.append(f"{pays} {voice.who(payee)} {self.tonk.money(units)} - the spades bet")
        view = state.view(HUMAN)
        for p in range(view.players):
            shown = view.shown_hands[p]
            cards = shown if shown is not None else (view.hand if p == HUMAN else None)
            if cards is not None:
                hand = card_symbols(sort_hand(cards)) or "no cards"
                out.append(f"{voice.subject(p)}: {hand} (count {state.count(p)})")
        return out

    def help_notes(self) -> list[str]:
        notes = [
            "Your hand: the solver's best spreads first, then the rest; * marks the card"
            " you just drew or picked up.",
        ]
        if self.options.get("drop_timing") == "any_time":
            notes.append(
                "Drop windows: in your own turn k is among your moves whenever you may drop;"
                " the windows of the other players' turns are passed for you unless you press w."
            )
        return notes


def layout(game: Game) -> TonkLayout:
    return TonkLayout(game)
