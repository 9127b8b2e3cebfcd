"""``play three-thirteen`` in the stdin mode (lines in, lines out: for
pipes, scripts and tests): how the table is drawn and a move is read.

The human sits at seat 0 and sees only ``state.view(0)``: the round, the
wild rank, their own hand (sorted, wilds marked ``~``, the card just drawn
last and marked ``*``), the discard pile's top, hand sizes and the cards
others took from the pile. Unless ``--no-hints``, the solver's best
arrangement of the hand and its deadwood are shown as a hint. Moves use a
numbered menu of the legal actions or mnemonics: ``d`` draw, ``p`` take the
discard, ``x 3`` discard slot 3, ``o 3`` go out discarding slot 3,
``g 3 1`` gift the joker in slot 3 to Player 1 (``--jokers
wild-giftable``), ``t`` table the solver's melds, ``t 2C 2D 2H`` table
exactly those cards as one meld and ``l 3 M2`` lay slot 3 off on meld M2
(``--redemption-round``); ``u`` takes back your last move where the rules
allow it, ``s`` shows the score sheet, ``h`` the hint on or off, ``?`` the
goal, the rules in play and the commands, ``q`` quits (after a y/n). A
refused move says why, in the engine's words and with its rule. Every
legal move, value and score comes from the engine; moves are told by the
narrator of :mod:`.words`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from cardtable._core import ActionInfo, Card, Meld
from cardtable.cli.game_options import rule_differences
from cardtable.cli.presenters.three_thirteen.words import (
    END_NAMES,
    WILD_MARK,
    Wilds,
    narrate,
    optional_commands,
    rank_name,
)
from cardtable.cli.presenters.three_thirteen.words import meld_text as words_meld_text
from cardtable.cli.presenters.three_thirteen.words import wild_text as words_wild_text
from cardtable.cli.terminal import (
    HUMAN,
    NEW_MARK,
    MenuItem,
    Table,
    card_text,
    hand_order,
    refusal_text,
    signed,
)
from cardtable.errors import CardGameError
from cardtable.games import Match
from cardtable.games.three_thirteen import (
    ThreeThirteenGame,
    ThreeThirteenRound,
    ThreeThirteenState,
    ThreeThirteenView,
)

SIMPLE = {"d": "draw", "draw": "draw", "p": "take", "take": "take", "t": "table", "meld": "meld"}
TABLE_WORDS = {"t", "table"}


def wild_text(card: Card, wilds: Wilds) -> str:
    """A card in colour, marked when wild."""
    return words_wild_text(card, wilds, card_text)


def meld_text(meld: Meld, wilds: Wilds) -> str:
    return words_meld_text(meld, wilds, card_text)


@dataclass
class TurnNotes:
    """What the table remembers between two views of seat 0."""

    new_card: Card | None = None  # drawn or taken this turn: shown last, marked
    pending: list[int] = field(default_factory=list)  # the rest of ``t C C C``


@dataclass(frozen=True)
class Plan:
    """The actions one typed command stands for (``t 2C 2D 2H``: three picks
    and a meld), checked on a copy of the state before any is made."""

    actions: list[int]
    allowed_back: bool  # the engine would let every one of them be taken back
    words: str


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
        super().__init__(names, color, delay, hints)
        self.game = game
        self.notes = TurnNotes()
        self.shown_round = -1
        self.plan: Plan | None = None  # the typed command whose first action is chosen
        self.continuing = False  # the action chosen is the rest of a typed command

    # --- the table ---------------------------------------------------------------

    def start(self, state: ThreeThirteenState) -> None:
        self.state = state
        self.notes = TurnNotes()
        self.plan = None
        self.continuing = False
        self.forget_turns()
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
        new = self.notes.new_card
        for i, c in enumerate(slots, 1):
            # Only the last slot is the new card; a second copy of it sits in its place.
            mark = NEW_MARK if new is not None and i == len(slots) and c == new else ""
            cells.append(f"{i}:{wild_text(c, view)}{mark}")
        self.echo(f"Your hand ({rank_name(view.wild_rank)}s wild): " + "  ".join(cells))
        if view.building:
            built = " ".join(wild_text(c, view) for c in view.building)
            self.echo(f"Building a meld: {built}")
        if self.hints:
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

    # --- help: the goal, the rules in play, the commands ----------------------------

    def show_help(self) -> None:
        view = self.state.view(HUMAN)
        self.echo()
        # The rules as configured, in the engine's words, each under its rule ID.
        for title, rule, text in self.game.rules_summary():
            self.para(f"{title} ({rule}): {text}")
        self.para(
            f"Now: round {view.round + 1} of {view.rounds}, {view.cards_dealt} cards,"
            f" {rank_name(view.wild_rank)}s wild."
        )
        self.echo("Commands (at any prompt):")
        self.echo("  a menu number, or: d draw from the stock, p take the discard,")
        self.echo("  x 3 discard slot 3 (x 7h works too), o 3 go out discarding slot 3,")
        gifts, redemption = optional_commands(self.game)
        if gifts.in_force:
            self.echo(f"  {gifts.lines[0]},")
        if redemption.in_force:
            for line in redemption.lines:
                self.echo(f"  {line},")
        self.echo("  u take back your last move (while the rules allow it), s score sheet,")
        self.echo("  h hint on/off, r the match header, ? this help, q quits")
        for commands in (gifts, redemption):
            if not commands.in_force:
                self.echo(f"Not in these rules (they need {commands.flag}):")
                for line in commands.lines:
                    self.echo(f"  {line}")
        self.para(
            f"Wild cards are marked {WILD_MARK}; the card you just drew stays last, marked"
            f" {NEW_MARK}. Rule IDs in brackets are those of docs/rules.md."
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
            d = self.state.describe_action(a)
            kind, card = d.kind, (d.cards[0] if d.cards else None)
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
                    MenuItem(a, f"g {n} {d.seat}", f"give the joker to {self.who(d.seat or 0)}")
                )
            elif kind == "table":
                items.append(MenuItem(a, "t", "table your melds (the solver's arrangement)"))
            elif kind == "layoff" and card is not None:
                items.append(
                    MenuItem(a, f"l {n} M{d.meld}", f"lay {card_text(card)} off on M{d.meld}")
                )
            elif kind == "pick":
                continue  # one per card: typed as t C C C instead (see menu_notes)
            elif kind == "meld":
                built = " ".join(wild_text(c, view) for c in view.building)
                items.append(MenuItem(a, "meld", f"lay {built} down as one meld"))
            else:
                items.append(MenuItem(a, d.text, d.text))
        order = ["d", "p", "x", "o", "g", "t", "meld", "l"]

        def key(item: MenuItem) -> tuple[int, int]:
            head, _, rest = item.mnemonic.partition(" ")
            kind = order.index(head) if head in order else len(order)
            slot_number = rest.split(" ")[0]
            return kind, int(slot_number) if slot_number.isdigit() else 0

        return sorted(items, key=key)

    def menu_notes(self, view: ThreeThirteenView) -> list[str]:
        """Lines under the menu for moves it does not list one by one."""
        picks = any(self.state.describe_action(a).kind == "pick" for a in view.legal_actions)
        if not picks:
            return []
        if view.building:
            return ["      pick C   add card C to the meld you are building"]
        return ["      t C C C  table exactly those cards as one meld (t 1 2 3: by slot)"]

    def card_at(self, token: str, slots: Sequence[Card]) -> Card | str:
        """The card a word names: a slot number or a card such as 7h; or why none."""
        if token.isdigit():
            k = int(token)
            if not 1 <= k <= len(slots):
                return f"there is no slot {k}: your hand has {len(slots)} cards"
            return slots[k - 1]
        try:
            card = Card(token)
        except ValueError as e:
            return str(e)
        if card not in slots:
            return f"{card.symbol()} is not in your hand"
        return card

    def read_action(
        self,
        answer: str,
        state: ThreeThirteenState,
        view: ThreeThirteenView,
        items: Sequence[MenuItem],
    ) -> int | Plan | str:
        """The action (or the actions) an answer names, or why it names none."""
        text = answer.strip().lower()
        if text.isdigit():
            k = int(text)
            if 1 <= k <= len(items):
                return items[k - 1].action
            return f"choose 1 to {len(items)}"
        words = text.split()
        slots = self.slots(view)
        if words and words[0] in TABLE_WORDS and len(words) >= 2:
            return self.read_meld(words[1:], state, view, slots)
        if words and words[0] in {"x", "o", "g", "l", "pick"} and len(words) >= 2:
            card = self.card_at(words[1], slots)
            if isinstance(card, str):
                return card
            verb = {"x": "discard", "o": "out", "g": "gift", "l": "layoff", "pick": "pick"}
            rest = " ".join(words[2:]).upper()
            wanted = f"{verb[words[0]]} {card} {rest}".strip()
        elif text in SIMPLE:
            wanted = SIMPLE[text]
        else:
            return "type a menu number or a command (? for help)"
        try:
            action = state.string_to_action(wanted)
        except CardGameError as e:
            return str(e)
        if state.is_legal(action):
            return action
        return refusal_text(state, action)

    def read_meld(
        self,
        tokens: Sequence[str],
        state: ThreeThirteenState,
        view: ThreeThirteenView,
        slots: Sequence[Card],
    ) -> Plan | str:
        """``t 2C 2D 2H``: those cards picked and laid down as one meld (TT-10.6),
        tried on a copy first, so a meld the engine refuses changes nothing."""
        if view.building:
            built = " ".join(card_text(c) for c in view.building)
            return f"you are building a meld already ({built}): type meld to lay it down"
        if len(set(t for t in tokens if t.isdigit())) < sum(t.isdigit() for t in tokens):
            return "the same slot twice"
        cards = []
        for token in tokens:
            card = self.card_at(token, slots)
            if isinstance(card, str):
                return card
            cards.append(card)
        try:
            actions = [state.string_to_action(f"pick {c}") for c in cards]
            actions.append(state.string_to_action("meld"))
        except CardGameError as e:
            return str(e)
        trial = state.clone()
        allowed = True
        for action in actions:
            if not trial.is_legal(action):
                return refusal_text(trial, action)
            allowed = allowed and trial.can_take_back(action)
            trial.apply_action(action)
        shown = " ".join(card_text(c) for c in cards)
        return Plan(actions, allowed, f"tabling {shown}")

    def choose(self, state: ThreeThirteenState) -> int:
        view = state.view(HUMAN)
        if self.notes.pending:
            # The rest of a typed command, checked before its first action was made.
            action = self.notes.pending.pop(0)
            if action in view.legal_actions:
                self.continuing = True
                return action
            self.notes.pending.clear()
        self.plan = None
        if view.round != self.shown_round:
            self.show_round_start(view)
        self.echo()
        self.show_table(view)
        items = self.menu(view)
        while True:
            for i, item in enumerate(items, 1):
                self.echo(f"  {i:>2}. {item.mnemonic:<8} {item.label}")
            for line in self.menu_notes(view):
                self.echo(line)
            answer = self.prompt("Your move")
            word = answer.strip().lower()
            if word in {"?", "help"}:
                self.show_help()
                continue
            if word == "s":
                self.show_sheet(view)
                continue
            if word == "h":
                self.toggle_hints()
                continue
            if word == "r":
                self.show_header()
                continue
            if word in {"u", "undo"}:
                self.take_back()
                continue
            got = self.read_action(answer, state, view, items)
            if isinstance(got, str):
                self.echo(f"  {got}")
                continue
            if isinstance(got, Plan):
                self.plan = got
                self.notes.pending = got.actions[1:]
                return got.actions[0]
            return got

    def remember(self, state: ThreeThirteenState, action: int) -> None:
        """One snapshot per typed command: before its first action."""
        if self.continuing:
            self.continuing = False
            return
        super().remember(state, action)
        if self.plan is not None:
            last = self.taken[-1]
            last.allowed, last.words = self.plan.allowed_back, self.plan.words
            self.plan = None

    def save_notes(self) -> TurnNotes:
        return replace(self.notes, pending=[])

    def load_notes(self, notes: Any) -> None:
        assert isinstance(notes, TurnNotes)
        self.notes = replace(notes, pending=[])
        self.plan = None
        self.continuing = False

    def action_words(self, action: int) -> str:
        d = self.state.describe_action(action)
        kind, card = d.kind, (d.cards[0] if d.cards else None)
        shown = card_text(card) if card is not None else ""
        return {
            "draw": "the stock draw",
            "take": "taking the discard",
            "discard": f"the discard of {shown}",
            "out": f"going out with {shown}",
            "gift": "the joker's gift",
            "table": "tabling your melds",
            "layoff": f"laying {shown} off on M{d.meld}",
            "pick": f"picking {shown}",
            "meld": "laying the meld down",
        }.get(kind, d.text)

    def why_not_back(self, action: int) -> str:
        if self.state.describe_action(action).kind == "draw":
            return "you saw the card you drew: a stock draw cannot be taken back"
        return (
            f"{self.action_words(action)} cannot be taken back:"
            " it showed you a hidden card or ended your turn"
        )

    # --- what happened -------------------------------------------------------------

    def card(self, card: Card) -> str:
        """A card as this table shows it (the narrator's voice)."""
        return card_text(card)

    def describe(
        self, seat: int, d: ActionInfo, before: ThreeThirteenView, after: ThreeThirteenView
    ) -> str | None:
        if d.kind == "pick" and seat == HUMAN and self.notes.pending:
            return None  # part of t C C C: told once its meld is down
        drawn = None
        if d.kind == "draw" and seat == HUMAN:
            got = [c for c in after.hand if after.hand.count(c) > before.hand.count(c)]
            drawn = got[0] if got else None
        return narrate(self, seat, d, before, after, drawn)

    def show_action(
        self,
        seat: int,
        action: int,
        info: ActionInfo,
        before: ThreeThirteenView,
        after: ThreeThirteenView,
    ) -> None:
        kind = info.kind
        if seat == HUMAN and kind in {"draw", "take"}:
            new = [c for c in after.hand if after.hand.count(c) > before.hand.count(c)]
            self.notes.new_card = new[0] if new else None
        elif after.current_player != HUMAN or after.round != before.round:
            self.notes.new_card = None  # the turn is over (a redemption turn goes on)
        if seat != HUMAN:
            self.pace()
        line = self.describe(seat, info, before, after)
        if line is not None:
            self.echo(line)
        finished = after.last_round
        if finished is not None and (
            before.last_round is None or finished.round != before.last_round.round
        ):
            self.notes.pending.clear()
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
