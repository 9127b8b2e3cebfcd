"""``cardtable play tonk``: a match against the Rust bots in the terminal.

The human sits at seat 0 and sees only what ``state.view(0)`` shows: their
own hand, the table, the discard pile, card counts, locks and the cards that
everybody knows. Other hands appear only once the hand is over and they are
shown (``view.shown_hands``). Decisions use the numbered menu of HC-6, or its
mnemonics (``d``, ``p``, ``m 3 4 5``, ``h 2 S1``, ``x 4``, ``k``, ``c``,
``y``/``n``, ``pass``); ``q`` quits at any prompt.

All input goes through ``click.prompt`` and all output through ``click.echo``,
so a whole match can be driven through standard input.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import click

from cardtable._core import Card
from cardtable.cli.tonk_options import (
    build_game,
    describe_options,
    parse_bots,
    pop_rule_options,
    tonk_rule_options,
)
from cardtable.deck import derive_seed, new_seed
from cardtable.errors import CardGameError
from cardtable.games.tonk import (
    TonkBot,
    TonkGame,
    TonkMatch,
    TonkSpread,
    TonkState,
    TonkView,
    describe_tonk_action,
)

HUMAN = 0
SUIT_ORDER = {"S": 0, "H": 1, "C": 2, "D": 3}  # black and red alternate
KIND_NAMES = {"set": "book", "run": "run"}


class QuitGameError(Exception):
    """The user typed q."""


def sort_hand(cards: Sequence[Card]) -> list[Card]:
    """Hand order on screen: by suit (♠ ♥ ♣ ♦), then rank, aces low."""
    return sorted(cards, key=lambda c: (SUIT_ORDER.get(c.suit or "", 4), c.rank))


def card_text(card: Card) -> str:
    """The card with its suit symbol, red for hearts and diamonds (stripped when no colour)."""
    text = card.symbol()
    return click.style(text, fg="red") if card.is_red else text


def cards_text(cards: Sequence[Card]) -> str:
    return " ".join(card_text(c) for c in cards) if cards else "-"


def card_value(card: Card, face_values: str) -> int:
    if card.rank <= 10 or face_values != "ten":
        return card.rank
    return 10


def signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


@dataclass(frozen=True)
class MenuItem:
    action: int
    mnemonic: str
    label: str


class TonkTable:
    """The terminal side of one match: what seat 0 sees and types."""

    def __init__(self, game: TonkGame, names: Sequence[str], color: bool | None) -> None:
        self.game = game
        self.names = list(names)
        self.color = color
        self.face_values = str(game.options()["face_values"])
        self.stake = int(game.options()["stake"])
        self.shown_signature: Any = None
        self.shown_hand: tuple[Card, ...] = ()

    # --- output -------------------------------------------------------------

    def echo(self, text: str = "") -> None:
        click.echo(text, color=self.color)

    def who(self, seat: int) -> str:
        return "you" if seat == HUMAN else f"Player {seat}"

    def subject(self, seat: int) -> str:
        w = self.who(seat)
        return w[0].upper() + w[1:]

    def says(self, seat: int, you: str, other: str) -> str:
        """``You draw`` / ``Player 2 draws``."""
        return f"{self.subject(seat)} {you if seat == HUMAN else other}"

    def whose(self, seat: int) -> str:
        return "your" if seat == HUMAN else f"Player {seat}'s"

    def count(self, cards: Sequence[Card]) -> int:
        return sum(card_value(c, self.face_values) for c in cards)

    def money(self, units: int) -> int:
        return units * self.stake

    # --- the table -------------------------------------------------------------

    def signature(self, view: TonkView) -> Any:
        """What the table shows apart from the human's hand."""
        return (
            tuple(view.hand_sizes),
            tuple(view.discard_pile),
            view.stock_size,
            tuple((s.id, s.cards) for s in view.spreads),
            tuple(view.locks),
            view.turn_locked,
            view.turn_player,
            tuple(tuple(k) for k in view.known_cards),
            tuple(view.spades_shown),
        )

    def show_table(self, view: TonkView, force: bool = False) -> None:
        sig = self.signature(view)
        if sig == self.shown_signature and not force:
            if tuple(view.hand) != self.shown_hand:
                self.show_hand(view)
            return
        self.shown_signature = sig
        self.echo()
        turn = "your turn" if view.turn_player == HUMAN else f"{self.whose(view.turn_player)} turn"
        self.echo(f"--- dealer: {self.who(view.dealer)} - {turn} ---")
        if view.spreads:
            self.echo("Spreads:")
            for s in view.spreads:
                self.echo(f"  {self.spread_line(s)}")
        else:
            self.echo("Spreads: none")
        top = view.top_discard
        pile = len(view.discard_pile)
        discard = f"{card_text(top)} ({pile} card{'s' * (pile != 1)})" if top else "empty"
        self.echo(f"Discard: {discard}   Stock: {view.stock_size} cards")
        for p in range(view.players):
            if p == HUMAN:
                continue
            parts = [self.names[p], f"{view.hand_sizes[p]} cards"]
            if view.known_cards[p]:
                parts.append("known: " + cards_text(sort_hand(view.known_cards[p])))
            if view.locks[p]:
                parts.append(f"hit lock {view.locks[p]}")
            self.echo(f"  {self.subject(p)}: {'; '.join(parts)}")
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
        if view.locks[HUMAN]:
            self.echo(f"Hit lock: {view.locks[HUMAN]} (each of your turns takes one off)")
        if view.turn_locked and view.turn_player == HUMAN:
            self.echo("You cannot drop this turn (hit lock).")

    def show_hand(self, view: TonkView) -> None:
        self.shown_hand = tuple(view.hand)
        hand = sort_hand(view.hand)
        slots = "  ".join(f"{i}:{card_text(c)}" for i, c in enumerate(hand, 1))
        self.echo(f"Your hand: {slots}   count {self.count(hand)}")

    def spread_owner(self, spreads: Sequence[TonkSpread], sid: int) -> str:
        """`` (your run)`` or `` (Player 2's book)`` for spread ``sid``."""
        for s in spreads:
            if s.id == sid:
                return f" ({self.whose(s.owner)} {KIND_NAMES.get(s.kind, s.kind)})"
        return ""

    def spread_line(self, s: TonkSpread) -> str:
        hits = f", {s.hits} hit{'s' * (s.hits != 1)}" if s.hits else ""
        return f"S{s.id} {self.whose(s.owner)} {KIND_NAMES.get(s.kind, s.kind)}: " + (
            f"{cards_text(s.cards)}{hits}"
        )

    # --- the menu ---------------------------------------------------------------

    def menu(self, view: TonkView) -> list[MenuItem]:
        hand = sort_hand(view.hand)
        slot = {c: i for i, c in enumerate(hand, 1)}
        items = []
        for a in view.legal_actions:
            d = describe_tonk_action(a)
            kind = d["kind"]
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
                items.append(MenuItem(a, "k", f"drop (knock) with a count of {self.count(hand)}"))
            elif kind == "pass":
                items.append(MenuItem(a, "pass", "pass (do not drop)"))
            elif kind == "claim_49":
                items.append(MenuItem(a, "c", "claim your 49 on the deal"))
            elif kind == "spades_in":
                items.append(MenuItem(a, "y", "join the spades bet"))
            elif kind == "spades_out":
                items.append(MenuItem(a, "n", "stay out of the spades bet"))
            elif kind == "spread":
                cards = list(d["cards"])
                slots = " ".join(str(slot[c]) for c in sorted(cards, key=lambda c: slot[c]))
                items.append(MenuItem(a, f"m {slots}", f"spread {cards_text(cards)}"))
            elif kind == "hit":
                card, sid = d["card"], d["spread"]
                target = self.spread_owner(view.spreads, sid)
                items.append(
                    MenuItem(
                        a, f"h {slot[card]} S{sid}", f"hit {card_text(card)} on S{sid}{target}"
                    )
                )
            elif kind == "discard":
                card = d["card"]
                items.append(MenuItem(a, f"x {slot[card]}", f"discard {card_text(card)}"))
            else:
                items.append(MenuItem(a, d["text"], d["text"]))
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

    def read_action(self, text: str, view: TonkView, items: Sequence[MenuItem]) -> int | str:
        """The action a line of input names, or an error message."""
        words = text.strip().lower().replace(",", " ").split()
        if not words:
            return "type a menu number or a mnemonic (q quits, ? shows the table again)"
        legal = {m.action for m in items}
        if len(words) == 1 and words[0].isdigit():
            n = int(words[0])
            if 1 <= n <= len(items):
                return items[n - 1].action
            return f"no menu item {n}: choose 1 to {len(items)}"
        hand = sort_hand(view.hand)

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
        simple = {
            "d": 52, "draw": 52, "p": 53, "take": 53, "pick": 53, "k": 54, "drop": 54,
            "knock": 54, "pass": 55, "c": 56, "claim": 56, "y": 57, "yes": 57, "n": 58, "no": 58,
        }  # fmt: skip
        if view.phase == "drop_window" and head in {"n", "no"}:
            head = "pass"
        if head in simple and (not args or (head == "claim" and args == ["49"])):
            wanted = simple[head]
        elif head in {"x", "discard"} and len(args) == 1:
            card = card_at(args[0])
            if isinstance(card, str):
                return card
            wanted = card.code
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
            for m in items:
                d = describe_tonk_action(m.action)
                if d["kind"] == "spread" and set(d["cards"]) == set(cards):
                    return m.action
            return f"{cards_text(sort_hand(cards))} is not a spread you can lay now"
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
            for m in items:
                d = describe_tonk_action(m.action)
                if d["kind"] == "hit" and d["spread"] == sid and d["card"] == card:
                    return m.action
            return f"{card_text(card)} does not fit on S{sid} now"
        else:
            try:
                wanted = TonkState.string_to_action(text)
            except CardGameError:
                return f"{text.strip()!r}: type a menu number or a mnemonic such as d, x 2, k"
        if wanted in legal:
            return wanted
        if wanted == 54 and view.turn_locked:
            return "you cannot drop this turn (hit lock)"
        return "that move is not allowed now: choose from the menu"

    def prompt(self, text: str, default: str | None = None) -> str:
        answer: str = click.prompt(text, default=default, show_default=default is not None)
        if answer.strip().lower() in {"q", "quit", "exit"}:
            raise QuitGameError
        return answer

    def ask(self, state: TonkState) -> int:
        view = state.view(HUMAN)
        items = self.menu(view)
        window = view.phase == "drop_window"

        def show(force: bool = False) -> None:
            if window and not force:
                # Drop windows come after every action: one line, not the whole table.
                short = {"pass": "pass", "k": "k drop"}
                choices = "  ".join(
                    f"{i}) {short.get(m.mnemonic, m.mnemonic)}" for i, m in enumerate(items, 1)
                )
                count = self.count(view.hand)
                self.echo(f"Drop window: drop now? (your count {count})  {choices}")
                return
            self.show_table(view, force=force)
            if view.phase == "spades":
                self.echo("Spades bet: join?")
            elif window:
                self.echo("Drop window: drop now?")
            else:
                self.echo("Your move:")
            self.show_menu(items)

        show()
        while True:
            answer = self.prompt("Your choice", default="pass" if window else None)
            if answer.strip() in {"?", "help", "t", "table"}:
                show(force=True)
                continue
            got = self.read_action(answer, view, items)
            if isinstance(got, int):
                return got
            self.echo(f"  {got}")

    # --- what happened ------------------------------------------------------------

    def describe(self, seat: int, action: int, before: TonkView, after: TonkView) -> str | None:
        """One line about an action; a bot's stock draw never names the card."""
        d = describe_tonk_action(action)
        kind = d["kind"]
        if kind == "draw":
            if after.phase == "over" and before.stock_size == 0:
                return self.says(seat, "must draw", "must draw") + " from the empty stock"
            if seat == HUMAN:
                new = [c for c in after.hand if c not in before.hand]
                drawn = f" {card_text(new[0])}" if new else ""
                return f"You draw{drawn} from the stock"
            return self.says(seat, "draw", "draws") + " from the stock"
        if kind == "take":
            top = before.top_discard
            card = card_text(top) if top else "the discard"
            return self.says(seat, "pick up", "picks up") + f" {card} from the discard pile"
        if kind == "drop":
            return self.says(seat, "drop", "drops") + "!"
        if kind == "pass":
            return None
        if kind == "claim_49":
            return self.says(seat, "claim", "claims") + " a 49 on the deal"
        if kind == "spades_in":
            return self.says(seat, "join", "joins") + " the spades bet"
        if kind == "spades_out":
            return self.says(seat, "stay", "stays") + " out of the spades bet"
        if kind == "spread":
            old = {s.id for s in before.spreads}
            new_ids = [s.id for s in after.spreads if s.id not in old]
            where = f" as S{new_ids[0]}" if new_ids else ""
            return self.says(seat, "spread", "spreads") + f" {cards_text(d['cards'])}{where}"
        if kind == "hit":
            whose = self.spread_owner(before.spreads, d["spread"])
            hit = self.says(seat, "hit", "hits")
            return f"{hit} {card_text(d['card'])} on S{d['spread']}{whose}"
        if kind == "discard":
            return self.says(seat, "discard", "discards") + f" {card_text(d['card'])}"
        return f"{self.subject(seat)}: {d['text']}"

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

    def ending_text(self, ending: dict[str, Any], view: TonkView) -> str:
        cat = ending.get("category")
        p = ending.get("player")
        if cat == "tonk_out" and p is not None:
            extra = " - double-double!" if ending.get("double_double") else ""
            return f"{self.says(p, 'tonk out', 'tonks out')} (paid {ending.get('paid')}s){extra}"
        if cat == "out_by_discard" and p is not None:
            return self.says(p, "go out", "goes out") + " by discarding the last card"
        if cat == "drop_won" and p is not None:
            return self.says(p, "dropped", "dropped") + " with the lowest count"
        if cat == "caught" and p is not None:
            return (
                self.says(p, "dropped", "dropped")
                + " and "
                + ("were" if p == 0 else "was")
                + (" caught")
            )
        if cat == "stock_out":
            w = ending.get("winner")
            if w is None:
                return "The stock ran out; the lowest counts tie and are paid"
            return (
                f"The stock ran out; {self.who(w)} {'have' if w == 0 else 'has'} the lowest count"
            )
        if cat == "deal_win" and p is not None:
            return self.says(p, "win", "wins") + f" on the deal (paid {ending.get('paid')}s)"
        if cat == "void":
            why = (
                "the lowest counts tie at the stock out"
                if ending.get("stock_out")
                else ("two players won on the deal")
            )
            return f"Void hand: {why}; nobody pays"
        return str(ending)

    def show_transfers(self, title: str, transfers: Sequence[tuple[int, int, int]]) -> None:
        if not transfers:
            return
        self.echo(title)
        for payer, payee, units in transfers:
            verb = "pay" if payer == HUMAN else "pays"
            times = f" ({units}s)" if self.stake != 1 else ""
            self.echo(
                f"  {self.subject(payer)} {verb} {self.who(payee)} {self.money(units)}{times}"
            )

    def show_end(self, state: TonkState, number: int) -> None:
        view = state.view(HUMAN)
        ending = view.ending or {}
        self.echo()
        self.echo(f"=== Hand {number} over: {self.ending_text(ending, view)} ===")
        for p in range(view.players):
            shown = view.shown_hands[p]
            cards = shown if shown is not None else (view.hand if p == HUMAN else None)
            label = f"{self.subject(p)}:".ljust(10)
            if cards is None:
                self.echo(f"  {label} not shown ({view.hand_sizes[p]} cards)")
            else:
                hand = sort_hand(cards)
                self.echo(f"  {label} {cards_text(hand)}  (count {self.count(hand)})")
        settlement = state.settlement()
        self.show_transfers("Settlement:", settlement)
        if not settlement:
            self.echo("Settlement: nobody pays")
        self.show_transfers("Spades bet:", state.side_bet_settlement())
        returns = view.returns or state.returns()
        self.echo("This hand: " + self.money_line(returns))

    def money_line(self, amounts: Sequence[int]) -> str:
        return ", ".join(f"{self.who(p)} {signed(a)}" for p, a in enumerate(amounts))


def play_hand(table: TonkTable, state: TonkState, bots: Sequence[TonkBot | None]) -> None:
    """Plays one hand to its end; raises QuitGameError when the user quits."""
    while True:
        seat = state.current_player()
        if seat is None:
            return
        before = state.view(HUMAN)
        if seat == HUMAN:
            action = table.ask(state)
        else:
            bot = bots[seat]
            assert bot is not None
            action = bot.act(state)
        state.apply_action(action)
        after = state.view(HUMAN)
        line = table.describe(seat, action, before, after)
        if line is not None:
            table.echo(line)
        if before.phase == "spades" and after.phase != "spades":
            table.show_spades(after)


def _bots_and_players(bots: list[str] | None, players: int | None) -> tuple[list[str], int]:
    if bots is None:
        n = 2 if players is None else players
        return ["greedy"] * (n - 1), n
    if players is not None and players != len(bots) + 1:
        raise click.UsageError(
            f"--players {players} needs {players - 1} bot{'s' * (players != 2)} in --bots "
            f"(one per seat besides yours), got {len(bots)}: {','.join(bots)}"
        )
    if not 1 <= len(bots) <= 5:
        raise click.UsageError(f"--bots: Tonk takes 1 to 5 bots besides you, got {len(bots)}")
    return bots, len(bots) + 1


def _append(path: str | None, line: str | None) -> None:
    """Appends one record line to ``path`` (just creates the file for ``None``)."""
    if path is None:
        return
    try:
        with open(path, "a", encoding="utf-8") as f:
            if line is not None:
                f.write(line + "\n")
    except OSError as e:
        raise click.FileError(path, hint=e.strerror) from e


@click.group("play")
def play_group() -> None:
    """Play a card game in the terminal against the bots."""


@play_group.command("tonk")
@click.option(
    "--bots",
    callback=parse_bots,
    metavar="BOT[,BOT...]",
    help="Opponents, one per seat after yours: random, greedy[:drop_at], strong[:samples]. "
    "[default: greedy for every other seat]",
)
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), help="Match seed (default: fresh).")
@click.option(
    "--record",
    type=click.Path(dir_okay=False, writable=True),
    help="Append each hand to this file as a JSON line (see 'cardtable replay').",
)
@click.option("--no-color", is_flag=True, help="No colours (also off when output is not a tty).")
@tonk_rule_options("Players, you included (2-6).  [default: the number of bots + 1]")
def play_tonk_command(
    bots: list[str] | None,
    seed: int | None,
    record: str | None,
    no_color: bool,
    **params: Any,
) -> None:
    """Play Tonk against bots: you are seat 0, the deal passes left each hand.

    At each decision pick a menu number or type a mnemonic: d draw, p pick up
    the discard, m 3 4 5 spread the cards in hand slots 3 4 5, h 2 S1 hit with
    slot 2 on spread S1, x 4 discard slot 4, k drop (knock), c claim a 49,
    y/n spades bet, pass in a drop window; ? shows the table, q quits.

    Rule flags take values spelt either way (any_time or any-time); only the
    flags given change the preset. With --record, every hand (an unfinished
    one too, when you quit) is appended as a JSON line for 'cardtable replay'.
    """
    options = pop_rule_options(params)
    bot_names, players = _bots_and_players(bots, options.pop("players", None))
    game = build_game({"players": players, **options})
    seed = new_seed() if seed is None else seed
    names = ["you", *bot_names]
    table = TonkTable(game, names, color=False if no_color else None)
    players_bots: list[TonkBot | None] = [None]
    players_bots += [TonkBot(b, derive_seed(seed, 100 + i)) for i, b in enumerate(bot_names, 1)]
    record_names = ["human", *bot_names]
    if record is not None:
        _append(record, None)  # fail now, not after the first hand
    match = TonkMatch(game, seed)
    against = ", ".join(f"Player {i} ({b})" for i, b in enumerate(bot_names, 1))
    table.echo(f"Tonk: you against {against}; seed {seed}")
    table.echo(f"Rules: {describe_options(game)}")
    number = 0
    while True:
        number += 1
        state = match.next_hand()
        table.echo()
        table.echo(
            f"=== Hand {number}: {table.who(state.dealer)} deal{'s' * (state.dealer != 0)} ==="
        )
        table.shown_signature = None
        try:
            play_hand(table, state, players_bots)
        except QuitGameError:
            _append(record, state.to_record(record_names))
            table.echo("Bye.")
            return
        except (click.Abort, KeyboardInterrupt):
            _append(record, state.to_record(record_names))
            raise
        match.record(state)
        _append(record, state.to_record(record_names))
        table.show_end(state, number)
        played = match.hands_played
        table.echo(
            f"Ledger after {played} hand{'s' * (played != 1)}: {table.money_line(match.ledger)}"
        )
        while True:
            answer = click.prompt("Another hand? [Y/n]", default="y", show_default=False)
            word = answer.strip().lower()
            if word in {"", "y", "yes"}:
                break
            if word in {"n", "no", "q", "quit", "exit"}:
                table.echo("Bye.")
                return
            table.echo("  answer y or n (q quits)")
