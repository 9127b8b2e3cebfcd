"""Gin Rummy's presenter: how ``play gin-rummy`` draws the table and reads a
move, how ``replay --show`` tells a recorded game, and the words
``simulate gin-rummy`` uses.

The human sits at seat 0 and sees only ``state.view(0)``: the upcard, the
dead cards, the stock size, the other hand's size and the cards it took
from the upcard, the laid melds and their own hand (sorted, the card just
drawn last and marked ``*``) with its deadwood as a hint. Moves use a
numbered menu of the legal actions or mnemonics: ``t`` take the upcard,
``d`` draw from the stock, ``p`` pass, ``k`` knock, ``x 3`` discard slot 3
(``x 7h`` works too), ``l 3`` lay slot 3 off, ``m 2`` lay the second meld
of the menu; the engine's texts (``discard 7H``, ``meld 7H 8H 9H``) work too.
``?`` tells the rules and commands, ``h`` the hint on or off, ``q`` quits.
Every legal move, value and score comes from the engine (docs/gin_rummy.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import click

from cardtable._core import Card
from cardtable.cli.game_options import describe_options, rule_differences
from cardtable.cli.presenters.base import Presenter
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
from cardtable.games import Game, Match, State
from cardtable.games.gin_rummy import GinRummyGame, GinRummyState, GinRummyView, gin_rummy_card

DRAW_UPCARD, DRAW_STOCK, PASS, KNOCK, MELD_BASE = 52, 53, 54, 55, 56
ENDINGS = {
    "gin": "gin",
    "knock": "a knock",
    "undercut": "an undercut",
    "knock_tie": "a knock with equal deadwood (GR-8.4)",
    "wall": "the wall: a draw (GR-7.1)",
    "repeated_move": "two throw-backs in a row: a draw (GR-7.4)",
    "upcard_limit": "the upcard limit: a draw (GR-7.3)",
}
SIMPLE = {"t": "draw upcard", "d": "draw stock", "p": "pass", "k": "knock"}
PASS_WORDS = {
    "first_upcard": "pass the upcard",
    "knock": "done laying melds",
    "layoff": "done",
    "wall": "pass (the game ends as a draw)",
}


def action_cards(game: Game, action: int) -> list[Card]:
    """The cards of a card or meld action."""
    if action < DRAW_UPCARD:
        card = gin_rummy_card(action)
        return [card] if card is not None else []
    if action >= MELD_BASE:
        return [Card(t) for t in game.action_to_string(action).split()[1:]]
    return []


@dataclass
class TurnNotes:
    new_card: Card | None = None  # drawn this turn: shown last, marked


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
        dead = view.discard_pile[-5:]
        self.echo(
            f"Upcard: {up}   stock: {view.stock_size} cards   dead: {cards_text(dead)}"
            + (" ..." if len(view.discard_pile) > 5 else "")
        )
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
            self.echo(f"Hint: your deadwood is {view.deadwood} (knock at {view.knock_card})")

    def show_help(self) -> None:
        self.echo()
        self.para(
            "Goal: meld your hand into sets (3 or 4 of a rank) and runs (3 or more in a suit,"
            " ace low) and knock when your deadwood is at most the knock card; the winner"
            " scores the difference in deadwood, plus the gin bonus with no deadwood; an"
            " opponent with less deadwood undercuts the knocker. Rule IDs are those of"
            " docs/gin_rummy.md."
        )
        self.echo("Commands (at any prompt):")
        self.echo("  a menu number, or: t take the upcard, d draw from the stock, p pass,")
        self.echo("  k knock, x 3 discard slot 3 (x 7h works too), l 3 lay slot 3 off,")
        self.echo("  m 2 lay the menu's second meld; h hint on/off, r header, ? help, q quits")
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
            if a == DRAW_UPCARD:
                up = card_text(view.upcard) if view.upcard is not None else "the upcard"
                items.append(MenuItem(a, "t", f"take {up}"))
            elif a == DRAW_STOCK:
                items.append(MenuItem(a, "d", "draw from the stock"))
            elif a == PASS:
                items.append(MenuItem(a, "p", PASS_WORDS.get(view.phase, "pass")))
            elif a == KNOCK:
                items.append(MenuItem(a, "k", "knock"))
            elif a < DRAW_UPCARD:
                card = action_cards(self.game, a)[0]
                verb = "l" if view.phase == "layoff" else "x"
                word = "lay off" if verb == "l" else "discard"
                items.append(
                    MenuItem(a, f"{verb} {slot.get(card, 0)}", f"{word} {card_text(card)}")
                )
            else:
                melds += 1
                meld = cards_text(action_cards(self.game, a))
                items.append(MenuItem(a, f"m {melds}", f"lay meld {meld}"))

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
                    return got
                self.echo(f"  {got}")

    def save_notes(self) -> TurnNotes:
        return TurnNotes(self.notes.new_card)

    def load_notes(self, notes: Any) -> None:
        assert isinstance(notes, TurnNotes)
        self.notes = TurnNotes(notes.new_card)

    def action_words(self, action: int) -> str:
        return self.game.action_to_string(action)

    def why_not_back(self, action: int) -> str:
        return f"{self.action_words(action)} cannot be taken back: every move shows a card"

    def describe(self, seat: int, action: int, before: GinRummyView, after: GinRummyView) -> str:
        cards = cards_text(action_cards(self.game, action))
        if action == DRAW_UPCARD:
            up = card_text(before.upcard) if before.upcard is not None else "the upcard"
            return self.says(seat, "take", "takes") + f" {up}"
        if action == DRAW_STOCK:
            got = [c for c in after.hand if c not in before.hand]
            if seat == HUMAN and got:
                return f"You draw {card_text(got[0])} from the stock"
            return self.says(seat, "draw", "draws") + " from the stock"
        if action == PASS:
            return self.says(seat, "pass", "passes")
        if action == KNOCK:
            return self.says(seat, "knock", "knocks") + "!"
        if action >= MELD_BASE:
            return self.says(seat, "lay", "lays") + f" {cards}"
        if before.phase == "layoff":
            return self.says(seat, "lay", "lays") + f" {cards} off"
        return self.says(seat, "discard", "discards") + f" {cards}"

    def show_action(
        self, seat: int, action: int, before: GinRummyView, after: GinRummyView
    ) -> None:
        if seat == HUMAN and action in {DRAW_UPCARD, DRAW_STOCK}:
            new = [c for c in after.hand if c not in before.hand]
            self.notes.new_card = new[0] if new else None
        elif after.current_player != HUMAN:
            self.notes.new_card = None
        if seat != HUMAN:
            self.pace()
        self.echo(self.describe(seat, action, before, after))

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


def show_record(game: Game, state: State, names: Sequence[str], record: dict[str, Any]) -> None:
    """A recorded game turn by turn, omnisciently (both hands shown)."""
    assert isinstance(game, GinRummyGame)
    assert isinstance(state, GinRummyState)
    who = [f"Player {p} ({names[p]})" for p in range(2)]
    click.echo(f"Gin Rummy, dealer {who[state.dealer]}; rules: {describe_options(game)}")
    for p in range(2):
        click.echo(f"  {who[p]}: {cards_text(state.hand(p))}")
    up = state.upcard
    click.echo(
        f"  upcard {card_text(up) if up is not None else '-'}, knock card {state.knock_card}"
    )
    actions = record.get("actions")
    if not isinstance(actions, list):
        raise click.ClickException('the record has no "actions" list')
    for i, action in enumerate(actions, 1):
        seat = state.current_player()
        if seat is None:
            raise click.ClickException(f"action {i} comes after the end of the game")
        try:
            text = state.action_to_string(action)
            cards = action_cards(game, action)
            taken = state.upcard
            before = set(state.hand(seat))
            state.apply_action(action)
        except (ValueError, TypeError, OverflowError) as e:
            raise click.ClickException(f"action {i} ({action}): {e}") from e
        # Cards as the rest of the story shows them (symbols), with the card
        # a draw took.
        if cards:
            text = f"{text.split()[0]} {cards_text(cards)}"
        if action == DRAW_STOCK:
            text += " " + cards_text([c for c in state.hand(seat) if c not in before])
        elif action == DRAW_UPCARD and taken is not None:
            text += " " + card_text(taken)
        click.echo(f"  {i:>4}. {who[seat]}: {text}")
    if state.is_terminal():
        click.echo()
        dead = state.final_deadwood
        if dead is not None:
            click.echo("Deadwood: " + ", ".join(f"{who[p]} {d}" for p, d in enumerate(dead)))
        click.echo(
            f"Ended {state.ending_category}; returns "
            + ", ".join(f"Player {p} {signed(r)}" for p, r in enumerate(state.returns()))
        )


PLAY_HELP = """Play Gin Rummy (OpenSpiel's rules, docs/gin_rummy.md) against a bot: you are
    seat 0; a game is one deal.

    At each decision pick a menu number or type a mnemonic: t take the
    upcard, d draw from the stock, p pass, k knock, x 3 discard hand slot 3
    (x 7h works too), l 3 lay slot 3 off, m 2 lay the menu's second meld;
    h turns the deadwood hint off and on, ? tells the rules and commands, q
    quits (asks y/n). A refused move says why, with the rule's ID. With
    --record, every game is appended as a JSON line for 'cardtable replay'.
    """

SIMULATE_HELP = """Play Gin Rummy bots against each other and report wins and points.

    Each deal is played once per rotation of the seats, and the results are
    paired by deal: per bot the win rate and the points per game with 95%
    confidence intervals, how games ended, and for two bots the paired
    difference of their points. The same seed gives the same numbers for any
    --threads.
    """


def _table(
    game: Game, names: Sequence[str], color: bool | None, delay: float, extra: dict[str, Any]
) -> GinRummyTable:
    assert isinstance(game, GinRummyGame)
    return GinRummyTable(game, names, color, delay, hints=not extra.get("no_hints", False))


PRESENTER = Presenter(
    title="Gin Rummy",
    unit="game",
    play_help=PLAY_HELP,
    simulate_help=SIMULATE_HELP,
    win_column="wins",
    win_note="wins: share of games with a positive score",
    return_column="points",
    difference_label="paired points difference",
    make_table=_table,
    show_record=show_record,
    play_options=(click.option("--no-hints", is_flag=True, help="Do not show your deadwood."),),
)
