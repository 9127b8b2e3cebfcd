"""Tonk's words: the one narrator of its actions (what ``play`` and the
table app tell of each move and what ``replay --show`` tells of a record),
the ending sentence, the words a user may type, and the help texts.

Everything told comes from the engine: the action's description
(``State.describe_action``), the table before and after it, and the card a
stock draw gave when the teller may see it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from cardtable._core import ActionInfo, Card
from cardtable.games.tonk import TonkEnding, TonkGame, TonkSpread, TonkState, TonkView

KIND_NAMES = {"set": "book", "run": "run"}

_TONK = TonkGame()

# Words a user may type for the actions without arguments, as the engine's action texts.
SIMPLE_WORDS = {
    "d": "draw", "draw": "draw", "p": "take", "take": "take", "pick": "take",
    "k": "drop", "drop": "drop", "knock": "drop", "pass": "pass",
    "c": "claim 49", "claim": "claim 49", "y": "spades in", "yes": "spades in",
    "n": "spades out", "no": "spades out",
}  # fmt: skip
ACTION = {text: _TONK.string_to_action(text) for text in set(SIMPLE_WORDS.values())}
DROP = ACTION["drop"]
PASS = ACTION["pass"]


class Voice(Protocol):
    """Who tells a hand: ``play`` speaks to seat 0 as "you", ``replay --show``
    names every seat."""

    def who(self, seat: int) -> str: ...
    def says(self, seat: int, you: str, other: str) -> str: ...
    def verb(self, seat: int, you: str, other: str) -> str: ...
    def whose(self, seat: int) -> str: ...
    def card(self, card: Card) -> str: ...


@dataclass(frozen=True)
class Tabletop:
    """What the narrator reads of the table on either side of an action."""

    spreads: Sequence[TonkSpread]
    top: Card | None
    stock: int
    over: bool

    @classmethod
    def of(cls, table: TonkView | TonkState) -> Tabletop:
        pile = table.discard_pile
        return cls(
            table.spreads, pile[-1] if pile else None, table.stock_size, table.phase == "over"
        )


def spread_name(voice: Voice, spread: TonkSpread) -> str:
    """``Player 2's run``."""
    return f"{voice.whose(spread.owner)} {KIND_NAMES.get(spread.kind, spread.kind)}"


def narrate(
    voice: Voice,
    seat: int,
    d: ActionInfo,
    before: Tabletop,
    after: Tabletop,
    drawn: Card | None = None,
    stock_count: bool = False,
) -> str:
    """One sentence about ``seat``'s action ``d``: ``You draw 7♥ from the
    stock``, ``Player 2 (greedy) hits 7♥ on S1 (Player 1's run)``. A stock
    draw names its card only when the teller may see it (``drawn``);
    ``stock_count`` adds what is left of the stock."""
    says = voice.says
    kind = d.kind
    card = d.cards[0] if d.cards else None
    if kind == "draw":
        if after.over and before.stock == 0:
            return says(seat, "must draw", "must draw") + " from the empty stock"
        shown = f" {voice.card(drawn)}" if drawn is not None else ""
        left = f" ({after.stock} left)" if stock_count else ""
        return says(seat, "draw", "draws") + f"{shown} from the stock{left}"
    if kind == "take":
        top = voice.card(before.top) if before.top is not None else "the discard"
        return says(seat, "pick up", "picks up") + f" {top} from the discard pile"
    if kind == "drop":
        return says(seat, "drop", "drops") + "!"
    if kind == "pass":
        return says(seat, "pass", "passes")
    if kind == "claim_49":
        return says(seat, "claim", "claims") + " a 49 on the deal"
    if kind == "spades_in":
        return says(seat, "join", "joins") + " the spades bet"
    if kind == "spades_out":
        return says(seat, "stay", "stays") + " out of the spades bet"
    if kind == "spread":
        old = {s.id for s in before.spreads}
        new = [s.id for s in after.spreads if s.id not in old]
        where = f" as S{new[0]}" if new else ""
        cards = " ".join(voice.card(c) for c in d.cards)
        return says(seat, "spread", "spreads") + f" {cards}{where}"
    if kind == "hit" and card is not None:
        target = next((s for s in before.spreads if s.id == d.meld), None)
        whose = f" ({spread_name(voice, target)})" if target is not None else ""
        return says(seat, "hit", "hits") + f" {voice.card(card)} on S{d.meld}{whose}"
    if kind == "discard" and card is not None:
        return says(seat, "discard", "discards") + f" {voice.card(card)}"
    return f"{voice.who(seat)}: {d.text}"


@dataclass(frozen=True)
class Hint:
    """The solver's best spreads of a hand, the count they leave and the
    discard that leaves it, and the greedy bot's move, naming one discard
    when two are as good (issue 38: never "best discard 8♦; the bot would
    discard 8♠" for cards that leave the same count)."""

    spreads: tuple[tuple[Card, ...], ...]
    count: int
    discard: Card | None
    advice: int
    """The greedy bot's action."""
    advice_count: int | None
    """The count the bot's discard leaves, when it is another card than the
    solver's and leaves more."""


def hint(state: TonkState, adviser: Any, seat: int) -> Hint:
    """``seat``'s hint, all from the engine: ``best_arrangement`` and the
    adviser's (a greedy ``Bot``) move."""
    best = state.best_arrangement(seat)
    spreads = tuple(m.cards for m in best.melds)
    discard = best.discard
    advice: int = adviser.act(state)
    d = state.describe_action(advice)
    advice_count = None
    if d.kind == "discard" and d.cards and discard is not None and d.cards[0] != discard:
        after = state.clone()
        after.apply_action(advice)
        left = after.best_arrangement(seat)
        if left.deadwood == best.deadwood:
            # As good a discard: the hint names the bot's, with the spreads it leaves.
            spreads, discard = tuple(m.cards for m in left.melds), d.cards[0]
        else:
            advice_count = left.deadwood
    return Hint(spreads, best.deadwood, discard, advice, advice_count)


def ending_sentence(ending: TonkEnding, voice: Voice, options: dict[str, Any]) -> str:
    """How a hand ended, in one sentence (TK-10), for every teller."""
    cat = ending.get("category")
    p = ending.get("player")
    says = voice.says
    if cat == "tonk_out" and p is not None:
        extra = " - double-double!" if ending.get("double_double") else ""
        return f"{says(p, 'tonk out', 'tonks out')} (paid {ending.get('paid')}s){extra}"
    if cat == "out_by_discard" and p is not None:
        return says(p, "go out", "goes out") + " by discarding the last card"
    if cat == "drop_won" and p is not None:
        return says(p, "dropped", "dropped") + " with the lowest count"
    if cat == "caught" and p is not None:
        return says(p, "dropped and were caught", "dropped and was caught")
    if cat in {"stock_out", "stalled"}:
        if cat == "stock_out":
            why = "The stock ran out"
        else:
            rounds = options.get("max_idle_rounds")
            n = f"{rounds} full round{'' if rounds == 1 else 's'}"
            why = f"The hand stalled ({n} with no stock draw and nothing put down, TK-10.7)"
        w = ending.get("winner")
        if w is None:
            return f"{why}; the lowest counts tie"
        return f"{why}; {voice.who(w)} {voice.verb(w, 'have', 'has')} the lowest count"
    if cat == "deal_win" and p is not None:
        return says(p, "win", "wins") + f" on the deal (paid {ending.get('paid')}s)"
    if cat == "void":
        why = (
            "the lowest counts tie at the stock out"
            if ending.get("stock_out")
            else "two players won on the deal"
        )
        return f"Void hand: {why}; nobody pays"
    return f"The hand ended ({cat or ending})"


PLAY_HELP = """Play Tonk against bots: you are seat 0, the deal passes left each hand.

    At a terminal this opens the card table (arrows, Enter, letters, digits
    or the mouse; ? explains the rules and the keys). With standard input
    or output not a terminal (or --plain) it reads moves as lines: pick a
    menu number or type a mnemonic: d draw, p pick up the discard, m 3 4 5
    spread the cards in hand slots 3 4 5, h 2 S1 hit with slot 2 on spread
    S1, x 4 discard slot 4, k drop (knock), c claim a 49, y/n spades bet; u
    takes back your last move while the rules allow it (picking up the
    discard or a spread, never a stock draw), h alone turns the hint line
    off and on, ? tells the goal, the rules in play and the commands, t
    shows the table, q quits. Drops and quitting ask y/n. A refused move
    says why, with the rule's ID in docs/rules.md.

    The hint line (unless --no-hints) shows the solver's best spreads of your
    hand, the count they leave, and what the greedy bot would do.

    Seats are numbered from 0, as in records and 'simulate': you are seat 0
    and Player N sits at seat N.

    Under --drop-timing any-time, k is in your menu whenever you may drop;
    drop windows in the other players' turns are passed for you unless you
    type w at a prompt (w again stops it).

    Rule flags take values spelt either way (any_time or any-time); only the
    flags given change the preset. With --record, every hand (an unfinished
    one too, when you quit) is appended as a JSON line for 'cardtable replay'.
    """

SIMULATE_HELP = """Play Tonk bots against each other and report positive-return rates and stakes.

    Each deal is played once per rotation of the seats, and the results are
    paired by deal: per bot the positive-return rate (the share of games it
    ended with a gain; JSON "positive_return_rate") and the stakes won per game with 95%
    confidence intervals, how hands ended, and for two bots the paired
    difference of their stakes. The same seed gives the same numbers for any
    --threads.

    Rule flags take values spelt either way (any_time or any-time); only the
    flags given change the preset.
    """
