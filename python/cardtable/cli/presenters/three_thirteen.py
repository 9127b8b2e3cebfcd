"""Three Thirteen's presenter: how ``play three-thirteen`` draws the table
and reads a move, how ``replay --show`` tells a recorded game, and the words
``simulate three-thirteen`` uses.

The human sits at seat 0 and sees only ``state.view(0)``: the round, the
wild rank, their own hand (sorted, wilds marked ``~``, the card just drawn
last and marked ``*``), the discard pile's top, hand sizes and the cards
others took from the pile. Unless ``--no-hints``, the solver's best
arrangement of the hand and its deadwood are shown as a hint. Moves use a
numbered menu of the legal actions or mnemonics: ``d`` draw, ``p`` take the
discard, ``x 3`` discard slot 3, ``o 3`` go out discarding slot 3,
``g 3 1`` gift the joker in slot 3 to Player 1, ``t`` table your melds and
``l 3 M2`` lay slot 3 off on meld M2 (redemption round); ``s`` shows the
score sheet, ``?`` help, ``q`` quits (after a y/n). Every legal move, value
and score comes from the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import click

from cardtable._core import Card, Meld
from cardtable.cli.game_options import describe_options, rule_differences
from cardtable.cli.presenters.base import Presenter
from cardtable.cli.terminal import (
    HUMAN,
    NEW_MARK,
    MenuItem,
    Table,
    card_text,
    hand_order,
    signed,
)
from cardtable.games import Game, Match, State
from cardtable.games.three_thirteen import (
    ThreeThirteenGame,
    ThreeThirteenRound,
    ThreeThirteenState,
    ThreeThirteenView,
    describe_three_thirteen_action,
)

WILD_MARK = "~"
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
SIMPLE = {"d": "draw", "draw": "draw", "p": "take", "take": "take", "t": "table"}
END_NAMES = {
    "out": "went out",
    "stock_guard": "the stock ran out (TT-9.3)",
    "stalled": "nobody drew from the stock for too long (TT-9.3)",
}


def rank_name(rank: int) -> str:
    return RANK_NAMES.get(rank, str(rank))


class Wilds(Protocol):
    """A view or a round result: the engine says which cards are wild."""

    def is_wild(self, card: Card) -> bool: ...


def wild_text(card: Card, wilds: Wilds) -> str:
    return card_text(card) + (WILD_MARK if wilds.is_wild(card) else "")


def meld_text(meld: Meld, wilds: Wilds) -> str:
    """A meld's cards; a substitute wild shows what it stands for: ``8♥~(=7♥)``."""
    parts = []
    for i, c in enumerate(meld.cards):
        text = wild_text(c, wilds)
        stands = meld.represents(i)
        if i in meld.substitutes and stands is not None:
            text += f"(={stands.symbol()})"
        parts.append(text)
    return " ".join(parts)


@dataclass
class TurnNotes:
    """What the table remembers between two views of seat 0."""

    new_card: Card | None = None  # drawn or taken this turn: shown last, marked


class ThreeThirteenTable(Table[ThreeThirteenState]):
    """The terminal side of one Three Thirteen match."""

    def __init__(
        self,
        game: ThreeThirteenGame,
        names: Sequence[str],
        color: bool | None,
        delay: float = 0.0,
        hints: bool = True,
    ) -> None:
        super().__init__(names, color, delay)
        self.game = game
        self.hints = hints
        self.state: ThreeThirteenState | None = None
        self.notes = TurnNotes()
        self.shown_round = -1

    # --- the table ---------------------------------------------------------------

    def start(self, state: ThreeThirteenState) -> None:
        self.state = state
        self.notes = TurnNotes()
        self.shown_round = -1
        self.show_round_start(state.view(HUMAN))

    def show_round_start(self, view: ThreeThirteenView) -> None:
        self.shown_round = view.round
        self.echo()
        self.echo(
            f"--- Round {view.round + 1} of {view.rounds}: {view.cards_dealt} cards, "
            f"{rank_name(view.wild_rank)}s wild; {self.who(view.dealer)} "
            f"deal{'s' * (view.dealer != HUMAN)} ---"
        )

    def slots(self, view: ThreeThirteenView) -> list[Card]:
        return hand_order(view.hand, self.notes.new_card)

    def show_table(self, view: ThreeThirteenView) -> None:
        top = view.top_discard
        self.echo(
            f"Discard: {card_text(top) if top is not None else '-'}   "
            f"stock: {view.stock_size} cards"
            + (f" (rebuilt {view.restocks}x)" if view.restocks else "")
        )
        others = []
        for p in range(view.players):
            if p == HUMAN:
                continue
            known = view.known_cards[p]
            seen = f", took {' '.join(card_text(c) for c in known)}" if known else ""
            others.append(f"{self.who(p)} {view.hand_sizes[p]} cards{seen}")
        self.echo("Others: " + "; ".join(others))
        if view.out_player is not None:
            self.echo(
                f"{self.subject(view.out_player)} went out: "
                f"{view.last_turns_left} last turn{'s' * (view.last_turns_left != 1)} to go"
            )
        for t in view.tabled:
            self.echo(f"  M{t.id} ({self.who(t.owner)}): {meld_text(t.meld, view)}")
        slots = self.slots(view)
        cells = []
        for i, c in enumerate(slots, 1):
            mark = NEW_MARK if c == self.notes.new_card and c in view.hand else ""
            cells.append(f"{i}:{wild_text(c, view)}{mark}")
        self.echo(f"Your hand ({rank_name(view.wild_rank)}s wild): " + "  ".join(cells))
        if self.hints and self.state is not None:
            best = self.state.best_arrangement(HUMAN)
            melds = ", ".join(meld_text(m, view) for m in best.melds) or "no melds"
            extra = f"; discard {card_text(best.discard)}" if best.discard is not None else ""
            self.echo(f"Hint: {melds}; deadwood {best.deadwood}{extra}")

    def show_sheet(self, view: ThreeThirteenView) -> None:
        if not view.score_sheet:
            self.echo("Score sheet: no round scored yet")
            return
        schedule = self.game.schedule
        width = max(8, *(len(self.who(p)) + 1 for p in range(view.players)))
        self.echo("Score sheet:")
        self.echo(
            "  round  cards wild " + "".join(f"{self.who(p):>{width}}" for p in range(view.players))
        )
        for i, row in enumerate(view.score_sheet):
            cards, wild = schedule[view.first_round + i]
            self.echo(
                f"  {view.first_round + i + 1:>5}  {cards:>5} {rank_name(wild):>4} "
                + "".join(f"{x:>{width}}" for x in row)
            )
        self.echo("  total" + " " * 11 + "".join(f"{x:>{width}}" for x in view.totals))

    # --- help ----------------------------------------------------------------------

    def show_help(self) -> None:
        self.echo()
        self.echo("Commands (at any prompt):")
        self.echo("  a menu number, or: d draw from the stock, p take the discard,")
        self.echo("  x 3 discard slot 3 (x 7h works too), o 3 go out discarding slot 3,")
        self.echo("  g 3 1 gift the joker in slot 3 to Player 1, t table your melds,")
        self.echo("  l 3 M2 lay slot 3 off on meld M2 (redemption round),")
        self.echo("  s score sheet, h hint on/off, r the match header, ? this help, q quits")
        self.para(
            f"Wild cards are marked {WILD_MARK}; the card you just drew stays last, marked"
            f" {NEW_MARK}. To go out, every card but the one you discard must be in melds"
            " (TT-6.1); then everybody else has one more turn."
        )
        diffs = rule_differences(self.game)
        if diffs:
            self.echo("Rules that differ from the defaults:")
            for flag, value, text in diffs:
                self.echo(f"  {flag} {value}: {text}")
        else:
            self.echo("Rules: the defaults; see --help for every flag.")

    # --- decisions --------------------------------------------------------------------

    def menu(self, view: ThreeThirteenView) -> list[MenuItem]:
        slot = {c: i for i, c in enumerate(self.slots(view), 1)}
        items = []
        for a in view.legal_actions:
            d = describe_three_thirteen_action(a)
            kind, card = d["kind"], d["card"]
            n = slot.get(card) if card is not None else None
            if kind == "draw":
                items.append(MenuItem(a, "d", "draw from the stock"))
            elif kind == "take":
                top = view.top_discard
                items.append(MenuItem(a, "p", f"take {card_text(top) if top else 'the discard'}"))
            elif kind == "discard" and card is not None:
                items.append(MenuItem(a, f"x {n}", f"discard {wild_text(card, view)}"))
            elif kind == "out" and card is not None:
                items.append(MenuItem(a, f"o {n}", f"go out, discarding {wild_text(card, view)}"))
            elif kind == "gift" and card is not None:
                items.append(
                    MenuItem(
                        a, f"g {n} {d['seat']}", f"give the joker to {self.who(d['seat'] or 0)}"
                    )
                )
            elif kind == "table":
                items.append(MenuItem(a, "t", "table your melds"))
            elif kind == "layoff" and card is not None:
                items.append(
                    MenuItem(a, f"l {n} M{d['meld']}", f"lay {card_text(card)} off on M{d['meld']}")
                )
            else:
                items.append(MenuItem(a, d["text"], d["text"]))
        order = ["d", "p", "x", "o", "g", "t", "l"]

        def key(item: MenuItem) -> tuple[int, int]:
            head, _, rest = item.mnemonic.partition(" ")
            kind = order.index(head) if head in order else len(order)
            slot_number = rest.split(" ")[0]
            return kind, int(slot_number) if slot_number.isdigit() else 0

        return sorted(items, key=key)

    def read_action(
        self, answer: str, view: ThreeThirteenView, items: Sequence[MenuItem]
    ) -> int | str:
        """The action an answer names, or why it names none."""
        text = answer.strip().lower()
        if text.isdigit():
            k = int(text)
            if 1 <= k <= len(items):
                return items[k - 1].action
            return f"choose 1 to {len(items)}"
        words = text.split()
        slots = self.slots(view)
        if words and words[0] in {"x", "o", "g", "l"} and len(words) >= 2:
            token = words[1]
            card: Card | None = None
            if token.isdigit():
                k = int(token)
                if not 1 <= k <= len(slots):
                    return f"there is no slot {k}: your hand has {len(slots)} cards"
                card = slots[k - 1]
            else:
                try:
                    card = Card(token)
                except ValueError as e:
                    return str(e)
                if card not in slots:
                    return f"{card.symbol()} is not in your hand"
            verb = {"x": "discard", "o": "out", "g": "gift", "l": "layoff"}[words[0]]
            rest = " ".join(words[2:])
            wanted = f"{verb} {card} {rest}".strip()
        elif text in SIMPLE:
            wanted = SIMPLE[text]
        else:
            return "type a menu number or a command (? for help)"
        for item in items:
            if describe_three_thirteen_action(item.action)["text"].lower() == wanted.lower():
                return item.action
        if wanted.startswith("out "):
            return "you cannot go out with that discard: the rest is not all in melds (TT-6.1)"
        return "that move is not allowed now: choose from the menu"

    def decide(self, state: ThreeThirteenState) -> int:
        self.state = state
        view = state.view(HUMAN)
        if view.round != self.shown_round:
            self.show_round_start(view)
        self.echo()
        self.show_table(view)
        items = self.menu(view)
        while True:
            for i, item in enumerate(items, 1):
                self.echo(f"  {i:>2}. {item.mnemonic:<8} {item.label}")
            answer = self.prompt("Your move")
            word = answer.strip().lower()
            if word in {"?", "help"}:
                self.show_help()
                continue
            if word == "s":
                self.show_sheet(view)
                continue
            if word == "h":
                self.hints = not self.hints
                self.echo(f"  hints {'on' if self.hints else 'off'}")
                continue
            if word == "r":
                self.show_header()
                continue
            got = self.read_action(answer, view, items)
            if isinstance(got, str):
                self.echo(f"  {got}")
                continue
            return got

    # --- what happened -------------------------------------------------------------

    def describe(
        self, seat: int, action: int, before: ThreeThirteenView, after: ThreeThirteenView
    ) -> str:
        d = describe_three_thirteen_action(action)
        kind, card = d["kind"], d["card"]
        wild = before
        if kind == "draw":
            got = [c for c in after.hand if after.hand.count(c) > before.hand.count(c)]
            if seat == HUMAN and got:
                return f"You draw {wild_text(got[0], wild)} from the stock"
            return self.says(seat, "draw", "draws") + " from the stock"
        if kind == "take":
            top = before.top_discard
            return self.says(seat, "take", "takes") + f" {card_text(top) if top else 'the discard'}"
        if kind == "discard" and card is not None:
            return self.says(seat, "discard", "discards") + f" {wild_text(card, wild)}"
        if kind == "out" and card is not None:
            if after.round == before.round and after.false_outs[seat] > before.false_outs[seat]:
                return (
                    self.says(seat, "declare", "declares")
                    + f" going out with {wild_text(card, wild)}, but the hand is not all"
                    " in melds: a penalty (TT-10.9)"
                )
            return self.says(seat, "go", "goes") + f" out, discarding {wild_text(card, wild)}!"
        if kind == "gift":
            return self.says(seat, "give", "gives") + f" a joker to {self.who(d['seat'] or 0)}"
        if kind == "table":
            return self.says(seat, "table", "tables") + " melds"
        if kind == "layoff" and card is not None:
            return self.says(seat, "lay", "lays") + f" {card_text(card)} off on M{d['meld']}"
        return f"{self.subject(seat)}: {d['text']}"

    def after_action(
        self, seat: int, action: int, before: ThreeThirteenView, after: ThreeThirteenView
    ) -> None:
        kind = describe_three_thirteen_action(action)["kind"]
        if seat == HUMAN and kind in {"draw", "take"}:
            new = [c for c in after.hand if after.hand.count(c) > before.hand.count(c)]
            self.notes.new_card = new[0] if new else None
        elif seat == HUMAN:
            self.notes.new_card = None
        if seat != HUMAN:
            self.pace()
        self.echo(self.describe(seat, action, before, after))
        finished = after.last_round
        if finished is not None and (
            before.last_round is None or finished.round != before.last_round.round
        ):
            self.show_round_end(finished, after)
            if after.phase != "over":
                self.show_round_start(after)

    def show_round_end(self, result: ThreeThirteenRound, view: ThreeThirteenView) -> None:
        how = END_NAMES.get(result.end, result.end)
        if result.out_player is not None:
            how = f"{self.who(result.out_player)} went out"
        doubled = " (J/Q/K round: doubled, TT-10.7)" if result.doubled else ""
        self.echo()
        self.echo(f"Round {result.round + 1} over: {how}{doubled}")
        for p, seat in enumerate(result.seats):
            melds = "  ".join(f"[{meld_text(m, result)}]" for m in seat.melds)
            loose = " ".join(wild_text(c, result) for c in seat.unmatched)
            penalty = f", {seat.false_outs} false out(s)" if seat.false_outs else ""
            self.echo(
                f"  {self.subject(p):<9} {melds or '-'}  deadwood {loose or '-'}"
                f" = {seat.deadwood}{penalty}: {seat.points} points"
            )
        self.show_sheet(view)

    def show_end(self, state: ThreeThirteenState, number: int) -> None:
        view = state.view(HUMAN)
        winners = [p for p in range(view.players) if state.won(p)]
        low = view.totals[winners[0]] if winners else min(view.totals)
        names = " and ".join(self.who(p) for p in winners)
        self.echo()
        verb = "share the win" if len(winners) > 1 else ("win" if winners == [HUMAN] else "wins")
        self.echo(f"=== Game {number} over: {names} {verb} with {low} points ===")

    def show_ledger(self, match: Match) -> None:
        played = match.games_played
        margins = ", ".join(f"{self.who(p)} {signed(x)}" for p, x in enumerate(match.ledger))
        self.echo(f"Margins after {played} game{'s' * (played != 1)}: {margins}")

    def show_standings(self, match: Match, unfinished: bool = False) -> None:
        played = match.games_played
        note = " (the unfinished game does not count)" if unfinished else ""
        self.echo(f"Standings after {played} game{'s' * (played != 1)}{note}:")
        labels = [self.seat_label(p) for p in range(len(match.ledger))]
        width = max(len(label) for label in labels)
        for p, margin in enumerate(match.ledger):
            self.echo(f"  seat {p}  {labels[p]:<{width}}  {signed(margin)}")


def show_record(game: Game, state: State, names: Sequence[str], record: dict[str, Any]) -> None:
    """A recorded game turn by turn, omnisciently (every hand shown)."""
    assert isinstance(game, ThreeThirteenGame)
    assert isinstance(state, ThreeThirteenState)
    who = [f"Player {p} ({names[p]})" for p in range(game.players)]
    click.echo(
        f"Three Thirteen, {game.players} players, seed {state.seed},"
        f" first dealer {who[state.dealer]}"
    )
    click.echo(f"Rules: {describe_options(game)}")
    actions = record.get("actions")
    if not isinstance(actions, list):
        raise click.ClickException('the record has no "actions" list')
    shown = -1
    for i, action in enumerate(actions, 1):
        if state.round != shown:
            shown = state.round
            click.echo()
            click.echo(
                f"Round {state.round + 1}: {state.cards_dealt} cards, "
                f"{rank_name(state.wild_rank)}s wild, dealer {who[state.round_dealer]}"
            )
            for p in range(game.players):
                view = state.view(p)
                hand = " ".join(wild_text(c, view) for c in view.hand)
                click.echo(f"  {who[p]}: {hand}")
        seat = state.current_player()
        if seat is None:
            raise click.ClickException(f"action {i} comes after the end of the game")
        try:
            text = state.action_to_string(action)
            state.apply_action(action)
        except (ValueError, TypeError, OverflowError) as e:
            raise click.ClickException(f"action {i} ({action}): {e}") from e
        click.echo(f"  {i:>4}. {who[seat]}: {text}")
        result = state.last_round
        if result is not None and (state.round != shown or state.is_terminal()):
            for p, seat_result in enumerate(result.seats):
                melds = "  ".join(f"[{meld_text(m, result)}]" for m in seat_result.melds)
                click.echo(f"      {who[p]}: {melds or '-'} -> {seat_result.points} points")
    click.echo()
    click.echo("Totals: " + ", ".join(f"{who[p]} {t}" for p, t in enumerate(state.totals)))
    if state.is_terminal():
        click.echo(
            f"Ended {state.ending_category}; returns "
            + ", ".join(f"Player {p} {signed(r)}" for p, r in enumerate(state.returns()))
        )


PLAY_HELP = """Play Three Thirteen against bots: you are seat 0; a game is every round of
    the schedule (3 to 13 cards, the wild rank rising with them), the deal
    passing left each round.

    At each decision pick a menu number or type a mnemonic: d draw from the
    stock, p take the discard, x 3 discard hand slot 3, o 3 go out discarding
    slot 3, g 3 1 gift the joker in slot 3 to Player 1 (--jokers
    wild-giftable), t table your melds and l 3 M2 lay slot 3 off on meld M2
    (--redemption-round); s shows the score sheet, h turns the hint off and
    on, ? is help, q quits (asks y/n).

    The hint is the solver's best arrangement of your hand and its deadwood.
    Rule flags take values spelt either way (up_down or up-down). With
    --record, every game (an unfinished one too, when you quit) is appended
    as a JSON line for 'cardtable replay'.
    """

SIMULATE_HELP = """Play Three Thirteen bots against each other and report wins and scores.

    Each deal (a whole game's seed) is played once per rotation of the seats,
    and the results are paired by deal: per bot the win rate (lowest total;
    ties share) and the score margin per game (the others' totals minus its
    own, so higher is better) with 95% confidence intervals, how games
    ended, and for two bots the paired difference of their margins. The same
    seed gives the same numbers for any --threads.
    """


def _table(
    game: Game, names: Sequence[str], color: bool | None, delay: float, extra: dict[str, Any]
) -> ThreeThirteenTable:
    assert isinstance(game, ThreeThirteenGame)
    return ThreeThirteenTable(game, names, color, delay, hints=not extra.get("no_hints", False))


PRESENTER = Presenter(
    title="Three Thirteen",
    unit="game",
    bots_help="random, greedy, strong[:samples]",
    play_help=PLAY_HELP,
    simulate_help=SIMULATE_HELP,
    win_column="wins",
    win_note="wins: share of games with the lowest total (tied lowest totals share the win)",
    return_column="score margin",
    difference_label="paired score-margin difference",
    make_table=_table,
    show_record=show_record,
    play_options=(
        click.option(
            "--no-hints", is_flag=True, help="Do not show the best arrangement of your hand."
        ),
    ),
)
