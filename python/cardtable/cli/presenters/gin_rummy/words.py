"""Gin Rummy's words: the one narrator of its actions (the stdin table,
the table app and ``replay --show`` tell moves with it), what each phase
asks of the player (the first upcard, the dead cards, the knock, the
layoffs, the wall), the endings and the help texts. Rule IDs are those of
docs/gin_rummy.md."""

from __future__ import annotations

from typing import Protocol

from cardtable._core import ActionInfo, Card

ENDINGS = {
    "gin": "gin",
    "knock": "a knock",
    "undercut": "an undercut",
    "knock_tie": "a knock with equal deadwood (GR-8.4)",
    "wall": "the wall: a draw (GR-7.1)",
    "repeated_move": "two throw-backs in a row: a draw (GR-7.4)",
    "upcard_limit": "the upcard limit: a draw (GR-7.3)",
}
# Words a user may type for the moves without a card, as the engine's texts.
SIMPLE = {"t": "draw upcard", "d": "draw stock", "p": "pass", "k": "knock"}


class Voice(Protocol):
    def says(self, seat: int, you: str, other: str) -> str: ...
    def who(self, seat: int) -> str: ...
    def card(self, card: Card) -> str: ...


def pass_words(phase: str, melds_next: bool) -> str:
    """What a pass (``p``) means in ``phase``: ``melds_next`` when the
    player's melds are still to lay after it (the layoffs' done)."""
    if phase == "first_upcard":
        return "pass the upcard"
    if phase == "knock":
        return "done: the cards still in your hand count as deadwood"
    if phase == "layoff":
        if melds_next:
            return "done laying off (then lay your melds)"
        return "done: the cards still in your hand count as deadwood"
    if phase == "wall":
        return "pass (the game ends as a draw, GR-7.1)"
    return "pass"


def phase_text(
    phase: str, mine: bool, knock_card: int, knocker: int | None, voice: Voice, melds_next: bool
) -> str:
    """What the player to move is to do now, and why (GR-3 … GR-7)."""
    if not mine:
        return "the other player is deciding"
    if phase == "first_upcard":
        return (
            "The first upcard (GR-3): take it, or pass it to the other player; if you both"
            " pass, the first player draws from the stock."
        )
    if phase == "draw":
        return "Draw the upcard or the top of the stock (GR-4.1)."
    if phase == "discard":
        return (
            "Discard a card: it becomes the upcard (GR-4.2). Or knock, when your deadwood after"
            f" the discard is at most {knock_card} (GR-5.1)."
        )
    if phase == "knock":
        return (
            "You knocked (GR-5): discard, then lay your melds one by one, then done; what stays"
            " in your hand counts as deadwood."
        )
    if phase == "layoff":
        who = voice.who(knocker) if knocker is not None else "the other player"
        if melds_next:
            return (
                f"{who[0].upper() + who[1:]} knocked (GR-6): lay cards off onto their melds,"
                " then done; then you lay your own melds."
            )
        return (
            "Lay your melds one by one, then done (GR-6.3): every card left in your hand counts"
            " as deadwood."
        )
    if phase == "wall":
        return (
            "The wall (GR-7.1): two cards are left in the stock and nobody draws them. Knock"
            " (taking the upcard) or pass, which ends the game as a draw."
        )
    return ""


DEAD_CARDS = "dead: under the upcard, nobody can take them (GR-4.1)"


def narrate(voice: Voice, seat: int, d: ActionInfo, phase: str, drawn: Card | None = None) -> str:
    """One sentence about ``seat``'s action ``d``, made in ``phase``: ``You
    draw 7♥ from the stock``, ``Player 1 lays 7♥ 8♥ 9♥``. A stock draw names
    its card only when the teller may see it (``drawn``)."""
    cards = " ".join(voice.card(c) for c in d.cards)
    says = voice.says
    if d.kind == "take":
        return says(seat, "take", "takes") + f" {cards or 'the upcard'}"
    if d.kind == "draw":
        shown = f" {voice.card(drawn)}" if drawn is not None else ""
        return says(seat, "draw", "draws") + f"{shown} from the stock"
    if d.kind == "pass":
        what = {
            "first_upcard": says(seat, "pass", "passes") + " on the upcard",
            "knock": says(seat, "are", "is") + " done laying melds",
            "layoff": says(seat, "are", "is") + " done",
            "wall": says(seat, "pass", "passes") + " at the wall",
        }
        return what.get(phase, says(seat, "pass", "passes"))
    if d.kind == "knock":
        return says(seat, "knock", "knocks") + "!"
    if d.kind == "meld":
        return says(seat, "lay", "lays") + f" {cards}"
    if d.kind == "layoff":
        return says(seat, "lay", "lays") + f" {cards} off"
    return says(seat, "discard", "discards") + f" {cards}"


PLAY_HELP = """Play Gin Rummy (OpenSpiel's rules, docs/gin_rummy.md) against a bot: you are
    seat 0; a game is one deal.

    At a terminal this opens the card table (arrows, Enter, letters, digits
    or the mouse; ? explains the rules, the phases and the keys). With
    standard input or output not a terminal (or --plain) it reads moves as
    lines: pick a menu number or type a mnemonic: t take the upcard, d draw
    from the stock, p pass or done, k knock, x 3 discard hand slot 3 (x 7h
    works too), l 3 lay slot 3 off, m 2 lay the menu's second meld; h turns
    the deadwood hint off and on, ? tells the rules and commands, q quits
    (asks y/n). Done with melds still in your hand asks whether to lay them
    first. A refused move says why, with the rule's ID. With --record, every
    game is appended as a JSON line for 'cardtable replay'.
    """

SIMULATE_HELP = """Play Gin Rummy bots against each other and report wins and points.

    Each deal is played once per rotation of the seats, and the results are
    paired by deal: per bot the win rate and the points per game with 95%
    confidence intervals, how games ended, and for two bots the paired
    difference of their points. The same seed gives the same numbers for any
    --threads.
    """
