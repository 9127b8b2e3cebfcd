"""Gin rummy's table in the card table app: the upcard, the stock, the
dead cards (under the upcard, nobody can take them), the melds laid and
the cards laid off, your hand grouped by the engine's best melds with your
deadwood and the knock card, and a line that says what the phase asks
(the first upcard, the knock, the layoffs, the wall).

After a knock, done with melds still in your hand is two moves: lay the
best melds, then done; or done without them, which asks first (issue 35:
every card then counts as deadwood)."""

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
from cardtable.cli.presenters.gin_rummy.words import (
    ENDINGS,
    narrate,
    pass_words,
    phase_text,
)
from cardtable.cli.terminal import HUMAN, signed, sort_hand
from cardtable.errors import CardGameError
from cardtable.games import Game, State
from cardtable.games.gin_rummy import GinRummyView

NEW_MARK = "*"
DEAD_SHOWN = 4  # the dead cards shown (the newest)


class GinRummyLayout(TurnLayout):
    title = "Gin Rummy"
    unit = "game"
    kind_keys: ClassVar[Mapping[str, str]] = {
        "take": "t", "draw": "d", "knock": "k", "meld": "m", "layoff": "l", "discard": "x",
        "pass": "p",
    }  # fmt: skip

    def __init__(self, game: Game) -> None:
        super().__init__(game)
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
        if seat == HUMAN and info.kind in ("take", "draw"):
            new = [c for c in after.hand if c not in before.hand]
            self.new_card = new[0] if new else None
        elif after.current_player != HUMAN:
            self.new_card = None
        return []

    # --- the table ---------------------------------------------------------------------

    def seat_note(self, state: State, view: Any, seat: int) -> str:
        parts = []
        if seat != HUMAN and view.known_cards[seat]:
            parts.append("took " + card_symbols(view.known_cards[seat]))
        if view.knocker == seat:
            parts.append("knocked")
        return ", ".join(parts)

    def piles(self, view: Any) -> Text:
        out = Text("Upcard ", style="bold")
        out.append_text(cards_line([view.upcard]) if view.upcard is not None else Text("-"))
        out.append(f" · Stock {view.stock_size}")
        if view.discard_pile:
            dead = view.discard_pile[-DEAD_SHOWN:]
            more = "… " if len(view.discard_pile) > DEAD_SHOWN else ""
            out.append(f" · Dead ({len(view.discard_pile)}): {more}")
            out.append_text(cards_line(dead))
        return out

    def tabled(self, view: Any, voice: Voice) -> list[Text]:
        out = []
        for seat in range(len(view.melds)):
            if not view.melds[seat]:
                continue
            line = Text(f"{voice.whose(seat).capitalize()} melds: ", style="bold")
            for meld in view.melds[seat]:
                line.append("[")
                line.append_text(cards_line(meld))
                line.append("] ")
            out.append(line)
        if view.layoffs:
            line = Text("Laid off: ", style="bold")
            line.append_text(cards_line(view.layoffs))
            out.append(line)
        return out

    def hand_groups(self, state: State, view: Any) -> list[list[Card]]:
        """The engine's best melds first, then the rest; the card just drawn last."""
        groups = [list(m) for m in view.best_melds]
        rest = Counter(view.hand) - Counter(c for g in groups for c in g)
        loose = sort_hand(list(rest.elements()))
        if self.new_card in loose:
            loose.remove(self.new_card)
            loose.append(self.new_card)
        return [*groups, loose]

    def card_marks(self, view: Any, cards: Sequence[Card]) -> list[str]:
        return new_card_marks(cards, self.new_card, NEW_MARK)

    def hand_note(self, state: State, view: Any) -> str:
        return f"deadwood {view.deadwood} · knock at {view.knock_card}"

    # --- moves -------------------------------------------------------------------------

    def moves(self, state: State) -> list[Move]:
        moves = super().moves(state)
        view = state.view(HUMAN)
        assert isinstance(view, GinRummyView)
        laying = any(m.kind == "meld" for m in moves)
        if not laying or not view.best_melds:
            return moves
        # Done while melds are still in the hand: lay them first, or be asked.
        lays = tuple(
            state.string_to_action("meld " + " ".join(map(str, m))) for m in view.best_melds
        )
        out = []
        for m in moves:
            if m.kind != "pass":
                out.append(m)
                continue
            shown = ", ".join(card_symbols(meld) for meld in view.best_melds)
            out.append(Move((*lays, *m.actions), "pass", f"lay {shown}, then done", key="p"))
            out.append(
                Move(
                    m.actions,
                    "pass",
                    "done without laying your melds (they count as deadwood)",
                    confirm=f"Your melds {shown} are still in your hand: they count as"
                    " deadwood if you finish now. Finish anyway?",
                )
            )
        return out

    def move_label(self, state: State, info: ActionInfo) -> str:
        cards = card_symbols(info.cards)
        view = state.view(HUMAN)
        if info.kind == "take":
            return f"take the upcard {cards}"
        if info.kind == "draw":
            return "draw from the stock"
        if info.kind == "pass":
            kinds = {state.describe_action(a).kind for a in state.legal_actions()}
            return pass_words(view.phase, "layoff" in kinds)
        if info.kind == "knock":
            return "knock"
        if info.kind == "meld":
            return f"lay the meld {cards}"
        if info.kind == "layoff":
            return f"lay {cards} off"
        return f"discard {cards}"

    def intended(self, state: State, kind: str, cards: Sequence[Card]) -> int | None:
        one = str(cards[0]) if len(cards) == 1 else ""
        texts = {
            "take": "draw upcard",
            "draw": "draw stock",
            "knock": "knock",
            "pass": "pass",
            "discard": f"discard {one}" if one else "",
            "layoff": f"layoff {one}" if one else "",
            "meld": "meld " + " ".join(map(str, cards)) if len(cards) >= 3 else "",
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
            got = [c for c in after.hand if c not in before.hand]
            drawn = got[0] if got else None
        return narrate(voice, seat, info, before.phase, drawn)

    def phase_text(self, state: State, view: Any) -> str:
        kinds = {state.describe_action(a).kind for a in view.legal_actions}
        return phase_text(
            view.phase,
            view.current_player == HUMAN,
            view.knock_card,
            view.knocker,
            Voice(),
            view.phase == "layoff" and "layoff" in kinds,
        )

    def hint(self, state: State) -> str | None:
        view = state.view(HUMAN)
        melds = ", ".join(card_symbols(m) for m in view.best_melds) or "none yet"
        return f"Hint: your best melds {melds}; deadwood {view.deadwood}."

    def end_lines(self, state: State, voice: Voice) -> list[str]:
        view = state.view(HUMAN)
        how = ENDINGS.get(view.ending or "", view.ending or "over")
        out = [f"Game over: {how}."]
        hands = view.hands or [[], []]
        for p in range(2):
            melds = " ".join(f"[{card_symbols(m)}]" for m in view.melds[p])
            dead = f" deadwood {view.final_deadwood[p]}" if view.final_deadwood else ""
            out.append(f"{voice.subject(p)}: {melds} {card_symbols(hands[p])}{dead}".strip())
        returns = view.returns or state.returns()
        out.append(
            "This game: " + ", ".join(f"{voice.who(p)} {signed(r)}" for p, r in enumerate(returns))
        )
        return out

    def help_notes(self) -> list[str]:
        return [
            "Your hand: the engine's best melds first, then the rest; * marks the card you"
            " just drew. The deadwood shown is what the rest is worth after your best discard.",
            "Dead cards: every upcard buried by a stock draw goes under it; nobody can take"
            " them any more (GR-4.1).",
            "The wall (GR-7.1): when two cards are left in the stock nobody draws; the player"
            " to move knocks (taking the upcard) or passes, and a pass ends the game as a draw.",
        ]


def layout(game: Game) -> GinRummyLayout:
    return GinRummyLayout(game)
