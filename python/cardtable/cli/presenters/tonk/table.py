"""``play tonk`` in the stdin mode (lines in, lines out: for pipes,
scripts and tests): how a hand is drawn and a move is read.

The human sits at seat 0 and sees only what ``state.view(0)`` shows: their
own hand, the table, the discard pile, card counts, locks and the cards that
everybody knows. Other hands appear only once the hand is over and they are
shown (``view.shown_hands``). Decisions use the numbered menu of HC-6, or its
mnemonics (``d``, ``p``, ``m 3 4 5``, ``h 2 S1``, ``x 4``, ``k``, ``c``,
``y``/``n``, ``pass``); ``?`` tells the goal, the rules in play and the
commands, ``h`` turns the hint line on and off (``--no-hints``), ``u``
takes back your last move where the rules allow it, ``q`` quits (after a
y/n) at any prompt. A refused move says why, in the engine's words and with
its rule. Each move is told by the narrator of :mod:`.words`.

The hand keeps one order: sorted by suit and rank, with the card just drawn
or picked up last (marked ``*``) until the turn ends, so the other slot
numbers do not move. Drop windows (``drop_timing = any_time``) are folded
into the human's own menus (``k`` is there whenever a drop is allowed);
windows in the other players' turns are passed quietly unless the human
asked to be asked (``w``). Every count, value and legal move comes from the
engine.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import click

from cardtable._core import ActionInfo, Card
from cardtable.cli.game_options import rule_differences
from cardtable.cli.presenters.tonk.words import (
    ACTION,
    DROP,
    PASS,
    SIMPLE_WORDS,
    Tabletop,
    ending_sentence,
    hint,
    narrate,
    spread_name,
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
    sort_hand,
)
from cardtable.errors import CardGameError
from cardtable.games import Bot, Match
from cardtable.games.tonk import (
    TonkEnding,
    TonkGame,
    TonkSpread,
    TonkState,
    TonkView,
)


class TonkTable(Table[TonkState]):
    """The terminal side of one Tonk match: what seat 0 sees and types."""

    def __init__(
        self,
        game: TonkGame,
        names: Sequence[str],
        color: bool | None,
        delay: float = 0.0,
        hints: bool = True,
    ) -> None:
        super().__init__(names, color, delay, hints)
        self.game = game
        self.options = game.options()
        self.stake = int(self.options["stake"])
        self.adviser = Bot(game, "greedy", 0)  # the hint's "the greedy bot would"
        self.new_card: Card | None = None  # drawn or taken this turn: shown last, marked
        self.turn_shown = False  # the whole table was shown since the last bot move
        self.shown_spreads: Any = None
        self.queued: int | None = None  # chosen at a drop window, for the turn that follows
        self.ask_windows = False  # w: ask at the drop windows of other players' turns

    # --- output -------------------------------------------------------------

    def money(self, units: int) -> int:
        """``units`` basic stakes in money (TK-1.3, the engine's sum)."""
        return self.game.money(units)

    def my_count(self) -> int:
        return self.state.count(HUMAN)

    def windows_possible(self) -> bool:
        return self.options.get("drop_timing") == "any_time"

    # --- the header, help and rules ------------------------------------------------

    def show_rules(self) -> None:
        diffs = rule_differences(self.game)
        if not diffs:
            self.echo("Rules: the defaults (pagat); see --help for every flag.")
            return
        self.echo("Rules that differ from the defaults:")
        for flag, value, text in diffs:
            self.echo(f"  {flag} {value}: {text}")

    def show_goal(self) -> None:
        """The goal and the rules in play, in the engine's words, each under its rule ID."""
        for title, rule, text in self.game.rules_summary():
            self.para(f"{title} ({rule}): {text}")

    def show_help(self) -> None:
        self.echo()
        self.show_goal()
        self.echo("Commands (at any prompt):")
        self.echo("  a menu number, or: d draw, p pick up the discard, m 1 2 3 spread slots 1 2 3,")
        self.echo("  h 2 S1 hit with slot 2 on spread S1, x 4 discard slot 4 (a card works too:")
        self.echo("  x 7h), k drop/knock (asks y/n), c claim a 49, y/n join or skip the spades bet")
        self.echo("  u takes back your last move (while the rules allow it), h the hint on/off,")
        self.echo("  t shows the table, r the match header, ? this help, q quits (asks y/n)")
        self.para(
            f"Your hand is sorted by suit and rank; a card you just drew or picked up stays last,"
            f" marked {NEW_MARK}, until your turn ends, so the other slots keep their numbers."
        )
        if self.windows_possible():
            state = "on" if self.ask_windows else "off"
            self.para(
                "Drop windows: anybody may drop after any move. In your own turn k is in the menu"
                " whenever you may drop; windows in the other players' turns are passed for you"
                f" unless you type w, which asks you at each of them (now {state})."
            )
        self.show_rules()

    # --- the table -------------------------------------------------------------

    def show_table(self, view: TonkView) -> None:
        self.echo()
        self.show_spreads(view)
        top = view.top_discard
        pile = len(view.discard_pile)
        discard = f"{card_text(top)} ({pile} card{'s' * (pile != 1)})" if top else "empty"
        self.echo(f"Discard: {discard}   Stock: {view.stock_size} cards")
        for p in range(view.players):
            if p == HUMAN:
                continue
            parts = [f"{view.hand_sizes[p]} cards"]
            if view.known_cards[p]:
                parts.append("known: " + cards_text(sort_hand(view.known_cards[p])))
            if view.locks[p]:
                parts.append(f"hit lock {view.locks[p]}")
            self.echo(f"  {self.seat_label(p)}: {'; '.join(parts)}")
        if view.spades_in and view.phase == "spades":
            self.echo(
                "Spades bet so far: " + ", ".join(self.who(p) for p in view.spades_in) + " in"
            )
        elif view.spades_in:
            shown = []
            for p in view.spades_in:
                c = view.spades_shown[p]
                shown.append(f"{self.who(p)} {card_text(c) if c else 'no spade'}")
            self.echo("Spades bet: " + ", ".join(shown))
        self.show_hand(view)
        self.show_lock(view)
        self.turn_shown = True

    def show_spreads(self, view: TonkView) -> None:
        self.shown_spreads = [(s.id, s.cards) for s in view.spreads]
        if view.spreads:
            self.echo("Spreads:")
            for s in view.spreads:
                self.echo(f"  {self.spread_line(s)}")
        else:
            self.echo("Spreads: none")

    def show_lock(self, view: TonkView) -> None:
        if view.locks[HUMAN]:
            self.echo(f"Hit lock: {view.locks[HUMAN]} (each of your turns takes one off)")
        if view.turn_locked and view.turn_player == HUMAN:
            self.echo("You cannot drop this turn (hit lock).")

    def slots(self, view: TonkView) -> list[Card]:
        return hand_order(view.hand, self.new_card)

    def show_hand(self, view: TonkView) -> None:
        hand = self.slots(view)
        marks = []
        for i, c in enumerate(hand, 1):
            if c == self.new_card and i == len(hand):
                marks.append(f"{i}:" + click.style(card_text(c) + NEW_MARK, bold=True))
            else:
                marks.append(f"{i}:{card_text(c)}")
        line = f"Your hand: {'  '.join(marks) or '-'}   count {self.my_count()}"
        if self.new_card in hand:
            line += f"   ({NEW_MARK} new)"
        if line != self.last_line:
            self.echo(line)

    def spread_owner(self, spreads: Sequence[TonkSpread], sid: int) -> str:
        """`` (your run)`` or `` (Player 2's book)`` for spread ``sid``."""
        target = next((s for s in spreads if s.id == sid), None)
        return f" ({spread_name(self, target)})" if target is not None else ""

    def spread_line(self, s: TonkSpread) -> str:
        hits = f", {s.hits} hit{'s' * (s.hits != 1)}" if s.hits else ""
        return f"S{s.id} {spread_name(self, s)}: {cards_text(s.cards)}{hits}"

    # --- the menu ---------------------------------------------------------------

    def menu(self, view: TonkView, actions: Sequence[int] | None = None) -> list[MenuItem]:
        hand = self.slots(view)
        slot = {c: i for i, c in enumerate(hand, 1)}
        items = []
        for a in view.legal_actions if actions is None else actions:
            d = self.state.describe_action(a)
            kind = d.kind
            if kind == "draw":
                label = (
                    f"draw from the stock ({view.stock_size} cards)"
                    if view.stock_size
                    else "draw: the stock is empty, which ends the hand"
                )
                items.append(MenuItem(a, "d", label))
            elif kind == "take":
                top = view.top_discard
                items.append(MenuItem(a, "p", f"pick up {card_text(top) if top else 'discard'}"))
            elif kind == "drop":
                items.append(MenuItem(a, "k", f"drop (knock) with a count of {self.my_count()}"))
            elif kind == "pass":
                items.append(MenuItem(a, "pass", "pass (do not drop)"))
            elif kind == "claim_49":
                items.append(MenuItem(a, "c", "claim your 49 on the deal"))
            elif kind == "spades_in":
                items.append(MenuItem(a, "y", "join the spades bet"))
            elif kind == "spades_out":
                items.append(MenuItem(a, "n", "stay out of the spades bet"))
            elif kind == "spread":
                cards = list(d.cards)
                slots = " ".join(str(slot[c]) for c in sorted(cards, key=lambda c: slot[c]))
                items.append(MenuItem(a, f"m {slots}", f"spread {cards_text(cards)}"))
            elif kind == "hit":
                card, sid = (d.cards[0] if d.cards else None), d.meld
                assert card is not None
                assert sid is not None
                target = self.spread_owner(view.spreads, sid)
                items.append(
                    MenuItem(
                        a, f"h {slot[card]} S{sid}", f"hit {card_text(card)} on S{sid}{target}"
                    )
                )
            elif kind == "discard":
                card = d.cards[0] if d.cards else None
                assert card is not None
                items.append(MenuItem(a, f"x {slot[card]}", f"discard {card_text(card)}"))
            else:
                items.append(MenuItem(a, d.text, d.text))
        items.sort(key=self._menu_key)
        return items

    @staticmethod
    def _menu_key(m: MenuItem) -> tuple[int, list[int], int]:
        """Menu order: y n pass d p c, then spreads, hits, discards by slot, then k."""
        words = m.mnemonic.split()
        group = {"y": 0, "n": 1, "pass": 2, "d": 3, "p": 4, "c": 5, "m": 6, "h": 7, "x": 8}
        slots = [int(w) for w in words[1:] if w.isdigit()]
        return group.get(words[0], 9), slots, m.action

    def show_menu(self, items: Sequence[MenuItem]) -> None:
        width = max(len(m.mnemonic) for m in items)
        for i, m in enumerate(items, 1):
            self.echo(f"  {i:>2}) {m.mnemonic:<{width}}  {m.label}")

    def read_action(self, text: str, state: TonkState, items: Sequence[MenuItem]) -> int | str:
        """The action a line of input names, or why it names none that can be
        played now (the engine's reason and rule, for a move of the game)."""
        view = state.view(HUMAN)
        words = text.strip().lower().replace(",", " ").split()
        if not words:
            return "type a menu number or a mnemonic (? helps, q quits)"
        legal = {m.action for m in items}
        if len(words) == 1 and words[0].isdigit():
            n = int(words[0])
            if 1 <= n <= len(items):
                return items[n - 1].action
            return f"no menu item {n}: choose 1 to {len(items)}"
        hand = self.slots(view)

        def card_at(word: str) -> Card | str:
            if word.isdigit():
                i = int(word)
                if 1 <= i <= len(hand):
                    return hand[i - 1]
                return f"no slot {i}: your hand has slots 1 to {len(hand)}"
            try:
                c = Card(word)
            except ValueError:
                return f"{word!r} is neither a hand slot nor a card"
            if c not in hand:
                return f"{card_text(c)} is not in your hand"
            return c

        head, args = words[0], words[1:]
        wanted: int | None = None
        if view.phase == "drop_window" and head in {"n", "no"}:
            head = "pass"
        if head in SIMPLE_WORDS and (not args or (head == "claim" and args == ["49"])):
            wanted = ACTION[SIMPLE_WORDS[head]]
        elif head in {"x", "discard"} and len(args) == 1:
            card = card_at(args[0])
            if isinstance(card, str):
                return card
            wanted = self.game.string_to_action(f"discard {card}")
        elif head in {"m", "meld", "spread"} and len(args) < 3:
            return "a spread needs three or more cards: m 1 2 3"
        elif head in {"m", "meld", "spread"}:
            cards = []
            for w in args:
                card = card_at(w)
                if isinstance(card, str):
                    return card
                cards.append(card)
            if len(set(cards)) != len(cards):
                return "the same card twice"
            try:
                wanted = self.game.string_to_action("spread " + " ".join(map(str, cards)))
            except CardGameError:
                return (
                    f"{cards_text(sort_hand(cards))} is not a spread: a book is 3 or 4 cards"
                    " of one rank, a run 3 or more in sequence in one suit (TK-7)"
                )
        elif head in {"h", "hit"} and len(args) == 2:
            card = card_at(args[0])
            if isinstance(card, str):
                return card
            match = re.fullmatch(r"@?s?(\d+)", args[1])
            if match is None:
                return f"{args[1]!r} is not a spread id such as S0"
            sid = int(match.group(1))
            if not any(s.id == sid for s in view.spreads):
                return f"there is no spread S{sid} on the table"
            wanted = self.game.string_to_action(f"hit {card} S{sid}")
        else:
            try:
                wanted = self.game.string_to_action(text)
            except CardGameError:
                return f"{text.strip()!r}: type a menu number or a mnemonic such as d, x 2, k"
        if wanted in legal:
            return wanted
        return refusal_text(state, wanted)

    # --- decisions ------------------------------------------------------------------

    def preview(self, state: TonkState) -> TonkState | None:
        """The state after everybody passes this drop window, when it is seat 0's move."""
        after = state.clone()
        while after.phase == "drop_window" and after.current_player() is not None:
            if PASS not in after.legal_actions():
                return None
            after.apply_action(PASS)
        return after if after.current_player() == HUMAN else None

    def choose(self, state: TonkState) -> int:
        """Seat 0's action: a queued choice, a quiet pass, or an answer at a prompt."""
        view = state.view(HUMAN)
        queued, self.queued = self.queued, None
        if queued is not None and view.phase != "drop_window" and queued in view.legal_actions:
            return queued
        if view.phase == "drop_window":
            kinds = {self.state.describe_action(a).kind for a in view.legal_actions}
            if kinds <= {"drop", "pass"}:
                ahead = self.preview(state)
                if ahead is not None:
                    # Your own move comes next: one menu, with k in it.
                    drops = [a for a in view.legal_actions if a != PASS]
                    return self.ask(ahead, extra=drops)
                if self.ask_windows and "drop" in kinds:
                    return self.ask_window(state, view)
                return PASS
        return self.ask(state)

    def ask(self, state: TonkState, extra: Sequence[int] = ()) -> int:
        """A full menu. ``extra`` (the drop of a window) joins the moves of ``state``,
        the turn after the window; any other choice passes the window and is queued."""
        view = state.view(HUMAN)
        items = self.menu(view, [*view.legal_actions, *extra])
        window = view.phase == "drop_window"

        def show(full: bool) -> None:
            if full or not self.turn_shown:
                self.show_table(view)
            else:
                if [(s.id, s.cards) for s in view.spreads] != self.shown_spreads:
                    self.show_spreads(view)
                self.show_hand(view)
            if self.hints:
                self.echo(self.hint_line(state, items))
            if view.phase == "spades":
                self.explain_spades()
                self.echo("Spades bet: join?")
            elif window:
                self.echo("Drop window (Enter passes):")
            else:
                self.echo("Your move:")
            self.show_menu(items)

        show(False)
        while True:
            answer = self.prompt("Your choice", default="pass" if window else None)
            if self.prompt_command(answer, lambda: show(False), lambda: show(True)):
                continue
            got = self.read_choice(answer, state, items)
            if got is None:
                continue
            if got in extra or window:
                return got
            if extra:
                self.queued = got
                return PASS
            return got

    def ask_window(self, state: TonkState, view: TonkView) -> int:
        """One line for a drop window in another player's turn (after w)."""
        items = self.menu(view)
        choices = "  ".join(
            f"{i}) {'k drop' if m.mnemonic == 'k' else m.mnemonic}" for i, m in enumerate(items, 1)
        )
        line = (
            f"Drop window ({self.whose(view.turn_player)} turn): drop now? "
            f"(your count {state.count(HUMAN)})  {choices}"
        )
        self.echo(line)
        while True:
            answer = self.prompt("Your choice", default="pass")
            if self.prompt_command(answer, lambda: self.echo(line), lambda: self.show_table(view)):
                if answer.strip().lower() == "w" and not self.ask_windows:
                    return PASS
                continue
            got = self.read_choice(answer, state, items)
            if got is not None:
                return got

    def prompt_command(
        self, answer: str, after_help: Callable[[], None], table: Callable[[], None]
    ) -> bool:
        """The commands of every prompt: ? help, t table, r header, w windows,
        h the hint, u take back (which raises TakenBackError when it does)."""
        word = answer.strip().lower()
        if word in {"?", "help"}:
            self.show_help()
            after_help()
        elif word in {"t", "table"}:
            table()
        elif word in {"r", "rules"}:
            self.show_header()
        elif word == "w":
            self.toggle_windows()
        elif word in {"h", "hint", "hints"}:
            self.toggle_hints()
        elif word in {"u", "undo"}:
            self.take_back()
        else:
            return False
        return True

    def hint_line(self, state: TonkState, items: Sequence[MenuItem]) -> str:
        """The solver's best spreads of your hand and the count they leave (with
        the best discard, once you have drawn), and what the greedy bot would
        do here; all from the engine (:func:`.words.hint`)."""
        h = hint(state, self.adviser, HUMAN)
        discard = f", discarding {card_text(h.discard)}" if h.discard is not None else ""
        if h.spreads:
            spreads = ", ".join(cards_text(s) for s in h.spreads)
            line = f"Hint: best spreads {spreads} (count {h.count} left{discard})"
        else:
            line = "Hint: no spread in your hand" + (
                f"; best discard {card_text(h.discard)}" if h.discard is not None else ""
            )
        item = next((m for m in items if m.action == h.advice), None)
        said = f"{item.mnemonic}, {item.label}" if item else state.describe_action(h.advice).text
        if h.advice_count is not None:
            said += f" (count {h.advice_count} left)"
        return f"{line}; the greedy bot would: {said}"

    def read_choice(self, answer: str, state: TonkState, items: Sequence[MenuItem]) -> int | None:
        """The action an answer names (a drop only once confirmed), or None after saying why."""
        got = self.read_action(answer, state, items)
        if isinstance(got, str):
            self.echo(f"  {got}")
            return None
        if got == DROP and not self.confirm_drop():
            return None
        return got

    def toggle_windows(self) -> None:
        if not self.windows_possible():
            self.echo("  There are no drop windows under these rules.")
            return
        self.ask_windows = not self.ask_windows
        if self.ask_windows:
            self.echo("  You will be asked at every drop window of the other players' turns.")
        else:
            self.echo("  Drop windows of the other players' turns are passed for you again.")

    def confirm_drop(self) -> bool:
        count = self.my_count()
        return self.yes_no(
            "Drop now" + (f" with a count of {count}" if count is not None else "") + "?"
        )

    def explain_spades(self) -> None:
        bet = self.options.get("spades_bet")
        amount = f"{self.money(bet)}" if isinstance(bet, int) else "the stake"
        if isinstance(bet, int) and self.stake != 1:
            amount += f" ({bet}s)"
        ace = "ace high" if self.options.get("spades_ace_high") else "ace low"
        self.para(
            f"Side bet (TK-11.3): everyone who joins puts {amount} into a pot and shows the"
            f" highest spade of their dealt hand; the highest spade ({ace}) takes the pot."
            " If nobody who joined has a spade, the pot is returned."
        )

    # --- what happened ------------------------------------------------------------

    def card(self, card: Card) -> str:
        """A card as this table shows it (the narrator's voice)."""
        return card_text(card)

    def describe(self, seat: int, d: ActionInfo, before: TonkView, after: TonkView) -> str | None:
        """One line about an action (a quiet pass: none); a bot's stock draw
        never names the card."""
        if d.kind == "pass":
            return None
        drawn = None
        if d.kind == "draw" and seat == HUMAN:
            new = [c for c in after.hand if c not in before.hand]
            drawn = new[0] if new else None
        return narrate(self, seat, d, Tabletop.of(before), Tabletop.of(after), drawn)

    # --- taking back ---------------------------------------------------------------

    def remember(self, state: TonkState, action: int) -> None:
        if action != PASS:  # a quiet pass of a drop window is no move of yours to take back
            super().remember(state, action)

    def save_notes(self) -> Card | None:
        return self.new_card

    def load_notes(self, notes: Any) -> None:
        self.new_card = notes
        self.queued = None
        self.turn_shown = False  # the whole table again, as it was

    def action_words(self, action: int) -> str:
        d = self.state.describe_action(action)
        kind = d.kind
        if kind == "draw":
            return "the stock draw"
        if kind == "take":
            return "picking up the discard"
        if kind == "spread":
            return f"the spread {cards_text(d.cards)}"
        card = d.cards[0] if d.cards else None
        if kind == "hit" and card is not None:
            return f"the hit of {card_text(card)} on S{d.meld}"
        if kind == "discard" and card is not None:
            return f"the discard of {card_text(card)}"
        return repr(d.text)

    def why_not_back(self, action: int) -> str:
        if self.state.describe_action(action).kind == "draw":
            return "you saw the card you drew: a stock draw cannot be taken back"
        return (
            f"{self.action_words(action)} cannot be taken back:"
            " it showed you a hidden card or ended your turn"
        )

    # --- what happened, continued ------------------------------------------------------

    def show_action(
        self, seat: int, action: int, info: ActionInfo, before: TonkView, after: TonkView
    ) -> None:
        """Prints the action and keeps track of the card just drawn."""
        line = self.describe(seat, info, before, after)
        if line is not None:
            if seat != HUMAN:
                self.pace()
            self.echo(line)
        if self.queued is not None and after.phase == "over":
            move = self.state.describe_action(self.queued).text
            self.echo(f"(The hand is over: your {move!r} was not played.)")
            self.queued = None
        if seat != HUMAN and info.kind not in {
            "pass",
            "spades_in",
            "spades_out",
        }:
            self.turn_shown = False
        if seat == HUMAN and info.kind in {"draw", "take"}:
            new = [c for c in after.hand if c not in before.hand]
            self.new_card = new[0] if new else None
        if after.turn_player != HUMAN or after.phase == "over":
            self.new_card = None
        if before.phase == "spades" and after.phase != "spades":
            self.show_spades(after)

    def show_spades(self, view: TonkView) -> None:
        if not view.spades_in:
            self.echo("Nobody joined the spades bet.")
            return
        for p in view.spades_in:
            c = view.spades_shown[p]
            shown = card_text(c) if c else "no spade"
            self.echo(
                f"{self.subject(p)} {'show' if p == HUMAN else 'shows'} {shown} for the spades bet"
            )

    def ending_text(self, ending: TonkEnding) -> str:
        return ending_sentence(ending, self, self.options)

    def show_transfers(
        self, title: str, transfers: Sequence[tuple[int, int, int]], reasons: Sequence[str]
    ) -> None:
        if not transfers:
            return
        self.echo(title)
        for (payer, payee, units), why in zip(transfers, reasons, strict=True):
            verb = "pay" if payer == HUMAN else "pays"
            times = f" ({units}s)" if self.stake != 1 else ""
            self.echo(
                f"  {self.subject(payer)} {verb} {self.who(payee)} {self.money(units)}{times}"
                f" - {why}"
            )

    def settlement_lines(self, state: TonkState) -> tuple[list[tuple[int, int, int]], list[str]]:
        """The transfers and the rule behind each, as the engine gives them."""
        detailed = state.settlement_reasons()
        return [(a, b, n) for a, b, n, _ in detailed], [why for *_, why in detailed]

    def show_end(self, state: TonkState, number: int) -> None:
        view = state.view(HUMAN)
        ending = view.ending
        told = self.ending_text(ending) if ending is not None else "the hand is over"
        self.echo()
        self.echo(f"=== Hand {number} over: {told} ===")
        for p in range(view.players):
            shown = view.shown_hands[p]
            cards = shown if shown is not None else (view.hand if p == HUMAN else None)
            label = f"{self.subject(p)}:".ljust(10)
            if cards is None:
                self.echo(f"  {label} not shown ({view.hand_sizes[p]} cards)")
            else:
                hand = sort_hand(cards)
                self.echo(f"  {label} {cards_text(hand)}  (count {state.count(p)})")
        settlement, reasons = self.settlement_lines(state)
        self.show_transfers("Settlement:", settlement, reasons)
        if not settlement:
            self.echo("Settlement: nobody pays")
        side = list(state.side_bet_settlement())
        side_reasons = []
        for _, payee, _ in side:
            c = view.spades_shown[payee]
            side_reasons.append(
                f"{self.whose(payee)} {card_text(c)} is the highest spade shown (TK-11.3)"
                if c is not None
                else "the spades bet (TK-11.3)"
            )
        self.show_transfers("Spades bet:", side, side_reasons)
        if view.spades_in and not side:
            self.echo("Spades bet: nobody pays (no spade won the pot)")
        returns = view.returns or state.returns()
        self.echo("This hand: " + self.money_line(returns))

    def money_line(self, amounts: Sequence[int]) -> str:
        return ", ".join(f"{self.who(p)} {signed(a)}" for p, a in enumerate(amounts))

    def start(self, state: TonkState) -> None:
        """A new hand: nothing drawn or queued yet; your hand before anybody moves."""
        self.state = state
        self.new_card = None
        self.queued = None
        self.forget_turns()
        self.show_table(state.view(HUMAN))

    def show_ledger(self, match: Match) -> None:
        played = match.games_played
        self.echo(
            f"Ledger after {played} hand{'s' * (played != 1)}: {self.money_line(match.ledger)}"
        )

    def show_standings(self, match: Match, unfinished: bool = False) -> None:
        """The ledger (in money: the engine's returns already count the stake)."""
        played = match.games_played
        notes = [f"at a stake of {self.stake}"] if self.stake != 1 else []
        if unfinished:
            notes.append("the unfinished hand does not count")
        note = f" ({'; '.join(notes)})" if notes else ""
        self.echo(f"Standings after {played} hand{'s' * (played != 1)}{note}:")
        labels = [self.seat_label(p) for p in range(len(match.ledger))]
        width = max(len(label) for label in labels)
        for p, amount in enumerate(match.ledger):
            self.echo(f"  seat {p}  {labels[p]:<{width}}  {signed(amount)}")
