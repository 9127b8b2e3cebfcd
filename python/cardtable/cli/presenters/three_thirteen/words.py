"""Three Thirteen's words: the one narrator of its actions (the stdin
table, the table app and ``replay --show`` tell moves with it), how cards,
wilds and melds are written, the commands only some rules have, and the
help texts. Rule IDs are those of docs/rules.md."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from cardtable._core import ActionInfo, Card, Meld
from cardtable.games.three_thirteen import ThreeThirteenGame, ThreeThirteenView

WILD_MARK = "~"
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
END_NAMES = {
    "out": "went out",
    "stock_guard": "the stock ran out (TT-9.3)",
    "stalled": "nobody drew from the stock for too long (TT-9.3)",
}

Show = Callable[[Card], str]


def symbol(card: Card) -> str:
    return card.symbol()


def rank_name(rank: int) -> str:
    return RANK_NAMES.get(rank, str(rank))


class Wilds(Protocol):
    """A view or a round result: the engine says which cards are wild."""

    def is_wild(self, card: Card) -> bool: ...


def wild_text(card: Card, wilds: Wilds, show: Show = symbol) -> str:
    return show(card) + (WILD_MARK if wilds.is_wild(card) else "")


def meld_text(meld: Meld, wilds: Wilds, show: Show = symbol) -> str:
    """A meld's cards; a substitute wild shows what it stands for: ``8♥~(=7♥)``."""
    parts = []
    for i, c in enumerate(meld.cards):
        text = wild_text(c, wilds, show)
        stands = meld.represents(i)
        if i in meld.substitutes and stands is not None:
            text += f"(={stands.symbol()})"
        parts.append(text)
    return " ".join(parts)


@dataclass(frozen=True)
class OptionalCommands:
    """Commands that only some rules allow, with the flag that brings them."""

    in_force: bool
    flag: str
    lines: tuple[str, ...]


def optional_commands(game: ThreeThirteenGame) -> tuple[OptionalCommands, OptionalCommands]:
    """The joker gift (TT-10.4) and the redemption round's commands
    (TT-10.6): whether the rules in play have them, and the flag that does."""
    options = game.options()
    gifts = OptionalCommands(
        options.get("jokers") == "wild_giftable",
        "--jokers wild-giftable",
        ("g 3 1 gift the joker in slot 3 to Player 1 (TT-10.4)",),
    )
    redemption = OptionalCommands(
        bool(options.get("redemption_round")),
        "--redemption-round",
        (
            "t table your melds (TT-10.6)",
            "t 2C 2D 2H (or t 1 2 3) table exactly those cards as one meld",
            "l 3 M2 lay slot 3 off on meld M2",
        ),
    )
    return gifts, redemption


class Voice(Protocol):
    def who(self, seat: int) -> str: ...
    def subject(self, seat: int) -> str: ...
    def says(self, seat: int, you: str, other: str) -> str: ...
    def card(self, card: Card) -> str: ...


def narrate(
    voice: Voice,
    seat: int,
    d: ActionInfo,
    before: ThreeThirteenView,
    after: ThreeThirteenView,
    drawn: Card | None = None,
) -> str:
    """One sentence about ``seat``'s action ``d``, from views before and
    after it (the actor's or seat 0's): ``You draw 7♥~ from the stock``,
    ``Player 2 lays down M3: 7♥ 8♥ 9♥``. A stock draw names its card only
    when the teller may see it (``drawn``)."""
    kind, card = d.kind, (d.cards[0] if d.cards else None)
    says, show = voice.says, voice.card

    def wild(c: Card) -> str:
        return wild_text(c, before, show)

    if kind == "draw":
        shown = f" {wild(drawn)}" if drawn is not None else ""
        return says(seat, "draw", "draws") + f"{shown} from the stock"
    if kind == "take":
        top = before.top_discard
        return says(seat, "take", "takes") + f" {show(top) if top else 'the discard'}"
    if kind == "discard" and card is not None:
        return says(seat, "discard", "discards") + f" {wild(card)}"
    if kind == "out" and card is not None:
        if after.round == before.round and after.false_outs[seat] > before.false_outs[seat]:
            return (
                says(seat, "declare", "declares")
                + f" going out with {wild(card)}, but the hand is not all"
                " in melds: a penalty (TT-10.9)"
            )
        return says(seat, "go", "goes") + f" out, discarding {wild(card)}!"
    if kind == "gift":
        return says(seat, "give", "gives") + f" a joker to {voice.who(d.seat or 0)}"
    if kind == "table":
        return says(seat, "table", "tables") + " melds"
    if kind == "layoff" and card is not None:
        return says(seat, "lay", "lays") + f" {show(card)} off on M{d.meld}"
    if kind == "pick" and card is not None:
        return says(seat, "pick", "picks") + f" {wild(card)} for a meld"
    if kind == "meld":
        old = {t.id for t in before.tabled}
        new = [t for t in after.tabled if t.id not in old]
        shown = f" M{new[0].id}: {meld_text(new[0].meld, after, show)}" if new else " a meld"
        return says(seat, "lay", "lays") + f" down{shown}"
    return f"{voice.subject(seat)}: {d.text}"


PLAY_HELP = """Play Three Thirteen against bots: you are seat 0; a game is every round of
    the schedule (3 to 13 cards, the wild rank rising with them), the deal
    passing left each round.

    At each decision pick a menu number or type a mnemonic: d draw from the
    stock, p take the discard, x 3 discard hand slot 3, o 3 go out discarding
    slot 3, g 3 1 gift the joker in slot 3 to Player 1 (--jokers
    wild-giftable), t table the solver's melds, t 2C 2D 2H table exactly
    those cards as one meld and l 3 M2 lay slot 3 off on meld M2
    (--redemption-round); u takes back your last move while the rules allow
    it (taking the discard or tabling, never a stock draw), s shows the score
    sheet, h turns the hint off and on, ? tells the goal, the rules in play
    and the commands, q quits (asks y/n). A refused move says why, with the
    rule's ID in docs/rules.md.

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
