"""``play gin-rummy`` in the stdin mode (lines in, lines out: for pipes,
scripts and tests): how the table is drawn and a move is read.

The human sits at seat 0 and sees only ``state.view(0)``: the upcard, the
dead cards, the stock size, the other hand's size and the cards it took
from the upcard, the laid melds and their own hand (sorted, the card just
drawn last and marked ``*``) with its deadwood as a hint, and a line that
says what the phase asks (the first upcard, the knock, the layoffs, the
wall). Moves use a numbered menu of the legal actions or mnemonics: ``t``
take the upcard, ``d`` draw from the stock, ``p`` pass or done, ``k``
knock, ``x 3`` discard slot 3 (``x 7h`` works too), ``l 3`` lay slot 3
off, ``m 2`` lay the second meld of the menu; the engine's texts
(``discard 7H``, ``meld 7H 8H 9H``) work too. Done with melds still in the
hand asks whether to lay them first (the engine's ``best_melds``).
``?`` tells the rules and commands, ``h`` the hint on or off, ``q`` quits.
Every legal move, value and score comes from the engine
(docs/gin_rummy.md); moves are told by the narrator of :mod:`.words`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cardtable._core import ActionInfo, Card
from cardtable.cli.game_options import rule_differences
from cardtable.cli.presenters.gin_rummy.words import (
    DEAD_CARDS,
    ENDINGS,
    SIMPLE,
    narrate,
    pass_words,
    phase_text,
)
from cardtable.cli.terminal import (
    HUMAN,
    NEW_MARK,
    MenuItem,
    Table,
    card_text,
    cards_text,
    hand_order,
    refusal_text,
    signed,
)
from cardtable.errors import CardGameError
from cardtable.games import Match
from cardtable.games.gin_rummy import GinRummyGame, GinRummyState, GinRummyView


@dataclass
class TurnNotes:
    new_card: Card | None = None  # drawn this turn: shown last, marked
    pending: list[int] = field(default_factory=list)  # the rest of "lay my melds, then done"


class GinRummyTable(Table[GinRummyState]):
    """The terminal side of one Gin Rummy match."""

    def __init__(
        self,
        game: GinRummyGame,
        names: Sequence[str],
        color: bool | None,
        delay: float = 0.0,
        hints: bool = True,
    ) -> None:
        super().__init__(names, color, delay, hints)
        self.game = game
        self.notes = TurnNotes()

    def start(self, state: GinRummyState) -> None:
        self.state = state
        self.notes = TurnNotes()
        self.forget_turns()
        view = state.view(HUMAN)
        self.echo()
        self.echo(
            f"--- New deal: knock card {view.knock_card}; "
            f"{self.who(view.first_player)} act{'s' * (view.first_player != HUMAN)} first ---"
        )

    def slots(self, view: GinRummyView) -> list[Card]:
        return hand_order(view.hand, self.notes.new_card)

    def show_table(self, view: GinRummyView) -> None:
        up = card_text(view.upcard) if view.upcard is not None else "-"
        self.echo(f"Upcard: {up}   stock: {view.stock_size} cards")
        if view.discard_pile:
            dead = view.discard_pile[-5:]
            more = "... " if len(view.discard_pile) > 5 else ""
            self.echo(f"Dead cards ({DEAD_CARDS}): {more}{cards_text(dead)}")
        other = 1 - HUMAN
        known = view.known_cards[other]
        took = f", took {cards_text(known)}" if known else ""
        self.echo(f"{self.subject(other)}: {view.hand_sizes[other]} cards{took}")
        for seat in (other, HUMAN):
            for meld in view.melds[seat]:
                self.echo(f"  {self.whose(seat)} meld: {cards_text(meld)}")
        if view.layoffs:
            self.echo(f"  laid off: {cards_text(view.layoffs)}")
        cells = []
        slots = self.slots(view)
        for i, c in enumerate(slots, 1):
            mark = NEW_MARK if c == self.notes.new_card and i == len(slots) else ""
            cells.append(f"{i}:{card_text(c)}{mark}")
        self.echo("Your hand: " + "  ".join(cells))
        if self.hints:
            melds = ", ".join(cards_text(m) for m in view.best_melds) or "none"
            self.echo(
                f"Hint: your deadwood is {view.deadwood} (knock at {view.knock_card});"
                f" your best melds: {melds}"
            )
        if view.current_player == HUMAN:
            self.para(self.phase_line(view))

    def melds_next(self, view: GinRummyView) -> bool:
        """In the lay-off step (cards to lay off), the player's melds come after done."""
        kinds = {self.state.describe_action(a).kind for a in view.legal_actions}
        return view.phase == "layoff" and "layoff" in kinds

    def phase_line(self, view: GinRummyView) -> str:
        return phase_text(
            view.phase, True, view.knock_card, view.knocker, self, self.melds_next(view)
        )

    def show_help(self) -> None:
        self.echo()
        # The rules as configured, in the engine's words, each under its rule ID.
        for title, rule, text in self.game.rules_summary():
            self.para(f"{title} ({rule}): {text}")
        self.para("Rule IDs are those of docs/gin_rummy.md.")
        self.echo("Commands (at any prompt):")
        self.echo("  a menu number, or: t take the upcard, d draw from the stock, p pass or done,")
        self.echo("  k knock, x 3 discard slot 3 (x 7h works too), l 3 lay slot 3 off,")
        self.echo("  m 2 lay the menu's second meld; h hint on/off, r header, ? help, q quits")
        self.echo("  Done with melds still in your hand asks whether to lay them first.")
        diffs = rule_differences(self.game)
        for flag, value, text in diffs:
            self.echo(f"  {flag} {value}: {text}")
        if not diffs:
            self.echo("Rules: the defaults; see --help for every flag.")

    def menu(self, view: GinRummyView) -> list[MenuItem]:
        slot = {c: i for i, c in enumerate(self.slots(view), 1)}
        items = []
        melds = 0
        for a in view.legal_actions:
            d = self.state.describe_action(a)
            if d.kind == "take":
                up = card_text(d.cards[0]) if d.cards else "the upcard"
                items.append(MenuItem(a, "t", f"take {up}"))
            elif d.kind == "draw":
                items.append(MenuItem(a, "d", "draw from the stock"))
            elif d.kind == "pass":
                items.append(MenuItem(a, "p", pass_words(view.phase, self.melds_next(view))))
            elif d.kind == "knock":
                items.append(MenuItem(a, "k", "knock"))
            elif d.kind in {"discard", "layoff"}:
                card = d.cards[0]
                verb = "l" if d.kind == "layoff" else "x"
                word = "lay off" if verb == "l" else "discard"
                items.append(
                    MenuItem(a, f"{verb} {slot.get(card, 0)}", f"{word} {card_text(card)}")
                )
            else:
                melds += 1
                items.append(MenuItem(a, f"m {melds}", f"lay meld {cards_text(d.cards)}"))

        def key(item: MenuItem) -> tuple[int, int]:
            head, _, rest = item.mnemonic.partition(" ")
            return "tdkxlmp".find(head), int(rest) if rest.isdigit() else 0

        return sorted(items, key=key)

    def read_action(
        self, answer: str, state: GinRummyState, view: GinRummyView, items: Sequence[MenuItem]
    ) -> int | str:
        text = answer.strip().lower()
        if text.isdigit():
            k = int(text)
            return items[k - 1].action if 1 <= k <= len(items) else f"choose 1 to {len(items)}"
        for item in items:
            if item.mnemonic == text:
                return item.action
        words = text.split()
        if len(words) == 2 and words[0] in {"x", "l"}:
            slots = self.slots(view)
            if words[1].isdigit():
                k = int(words[1])
                if not 1 <= k <= len(slots):
                    return f"there is no slot {k}: your hand has {len(slots)} cards"
                text = f"discard {slots[k - 1]}"
            else:
                text = f"discard {words[1]}"
        try:
            action = state.string_to_action(SIMPLE.get(text, text))
        except CardGameError:
            return "type a menu number or a command (? for help)"
        return action if state.is_legal(action) else refusal_text(state, action)

    def choose(self, state: GinRummyState) -> int:
        view = state.view(HUMAN)
        if self.notes.pending:
            # The rest of "lay my melds, then done", each checked as it comes.
            action = self.notes.pending.pop(0)
            if action in view.legal_actions:
                return action
            self.notes.pending.clear()
        self.echo()
        self.show_table(view)
        items = self.menu(view)
        while True:
            for i, item in enumerate(items, 1):
                self.echo(f"  {i:>2}. {item.mnemonic:<6} {item.label}")
            answer = self.prompt("Your move")
            word = answer.strip().lower()
            if word in {"?", "help"}:
                self.show_help()
            elif word == "h":
                self.toggle_hints()
            elif word == "r":
                self.show_header()
            elif word in {"u", "undo"}:
                self.take_back()
            else:
                got = self.read_action(answer, state, view, items)
                if isinstance(got, int):
                    return self.lay_first(state, view, got)
                self.echo(f"  {got}")

    def lay_first(self, state: GinRummyState, view: GinRummyView, action: int) -> int:
        """Done (pass) while melds are still in the hand and may be laid: ask
        whether to lay them first (they count as deadwood otherwise, GR-5.3,
        GR-6.3); yes lays the engine's best melds, then says done."""
        melds = view.best_melds
        laying = any(state.describe_action(a).kind == "meld" for a in view.legal_actions)
        if state.describe_action(action).kind != "pass" or not laying or not melds:
            return action
        shown = ", ".join(cards_text(m) for m in melds)
        self.echo(f"You still hold melds: {shown}. Not laid, they count as deadwood.")
        if not self.yes_no("Lay them before you finish?"):
            return action
        lays = [state.string_to_action("meld " + " ".join(map(str, m))) for m in melds]
        self.notes.pending = [*lays[1:], action]
        return lays[0]

    def save_notes(self) -> TurnNotes:
        return TurnNotes(self.notes.new_card)

    def load_notes(self, notes: Any) -> None:
        assert isinstance(notes, TurnNotes)
        self.notes = TurnNotes(notes.new_card)

    def card(self, card: Card) -> str:
        """A card as this table shows it (the narrator's voice)."""
        return card_text(card)

    def action_words(self, action: int) -> str:
        return self.game.action_to_string(action)

    def why_not_back(self, action: int) -> str:
        return f"{self.action_words(action)} cannot be taken back: every move shows a card"

    def describe(self, seat: int, d: ActionInfo, before: GinRummyView, after: GinRummyView) -> str:
        drawn = None
        if d.kind == "draw" and seat == HUMAN:
            got = [c for c in after.hand if c not in before.hand]
            drawn = got[0] if got else None
        return narrate(self, seat, d, before.phase, drawn)

    def show_action(
        self, seat: int, action: int, info: ActionInfo, before: GinRummyView, after: GinRummyView
    ) -> None:
        if seat == HUMAN and info.kind in {"take", "draw"}:
            new = [c for c in after.hand if c not in before.hand]
            self.notes.new_card = new[0] if new else None
        elif after.current_player != HUMAN:
            self.notes.new_card = None
        if seat != HUMAN:
            self.pace()
        self.echo(self.describe(seat, info, before, after))

    def show_end(self, state: GinRummyState, number: int) -> None:
        view = state.view(HUMAN)
        self.echo()
        hands = view.hands or [[], []]
        for p in range(2):
            melds = "  ".join(f"[{cards_text(m)}]" for m in view.melds[p])
            dead = f" deadwood {view.final_deadwood[p]}" if view.final_deadwood else ""
            self.echo(f"  {self.subject(p):<9} {melds} {cards_text(hands[p])}{dead}")
        how = ENDINGS.get(view.ending or "", view.ending or "")
        returns = view.returns or [0, 0]
        self.echo(f"=== Game {number} over: {how}; you {signed(returns[HUMAN])} ===")

    def show_ledger(self, match: Match) -> None:
        played = match.games_played
        margins = ", ".join(f"{self.who(p)} {signed(x)}" for p, x in enumerate(match.ledger))
        self.echo(f"Points after {played} game{'s' * (played != 1)}: {margins}")

    def show_standings(self, match: Match, unfinished: bool = False) -> None:
        played = match.games_played
        note = " (the unfinished game does not count)" if unfinished else ""
        self.echo(f"Standings after {played} game{'s' * (played != 1)}{note}:")
        for p, points in enumerate(match.ledger):
            self.echo(f"  seat {p}  {self.seat_label(p)}  {signed(points)}")
