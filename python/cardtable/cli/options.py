"""Options shared by several commands: the meld rules of ``score`` and friends."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from cardtable.errors import CardGameError
from cardtable.melds import MeldRules

F = TypeVar("F", bound=Callable[..., Any])

GAMES = ("tonk", "gin", "three-thirteen")


def _check_rank(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    text = value.strip().upper()
    if text in {"A", "T", "J", "Q", "K"} or text in {str(n) for n in range(2, 11)}:
        return text
    raise click.BadParameter(f"{value!r} is not a rank: use A, 2-10, J, Q or K")


def _check_max_wilds(
    ctx: click.Context, param: click.Parameter, value: str | None
) -> int | str | None:
    if value is None:
        return None
    text = value.strip().lower()
    if text == "unlimited":
        return "unlimited"
    if text.isdigit() and int(text) >= 1:
        return int(text)
    raise click.BadParameter(f"{value!r} is not a positive integer or 'unlimited'")


def meld_rule_options(f: F) -> F:
    """Adds --game and the meld-rule options to a command."""
    decorators = [
        click.option(
            "--game",
            type=click.Choice([*GAMES, "three_thirteen"]),
            default="gin",
            show_default=True,
            help="Rules preset (melds and card values).",
        ),
        click.option(
            "--aces",
            type=click.Choice(["low", "high"]),
            help="Aces low only (A-2-3), or high or low without wrapping (Q-K-A too).",
        ),
        click.option(
            "--wild",
            metavar="RANK",
            callback=_check_rank,
            help="Wild rank (three-thirteen; default: follows the hand size, 3..13 -> 3..K, "
            "14 -> A, 15 -> 2).",
        ),
        click.option(
            "--max-wilds",
            metavar="N|unlimited",
            callback=_check_max_wilds,
            help="Substitutes per meld (three-thirteen: 1).",
        ),
        click.option(
            "--all-wild-melds",
            is_flag=True,
            default=None,
            help="A meld of three or more wild cards is valid.",
        ),
        click.option(
            "--jokers", is_flag=True, default=None, help="Two jokers per deck, wild (20 unmatched)."
        ),
        click.option(
            "--face-values",
            type=click.Choice(["ten", "rank"]),
            help="J/Q/K count 10, or 11/12/13.",
        ),
        click.option("--decks", type=click.IntRange(1, 8), help="Decks (three-thirteen: 2)."),
    ]
    for d in reversed(decorators):
        f = d(f)
    return f


def build_meld_rules(params: dict[str, Any]) -> MeldRules:
    """MeldRules from the parsed options; a rules error is a usage error (exit 2)."""
    options = {
        "aces": params.pop("aces"),
        "wild": params.pop("wild"),
        "max_wilds": params.pop("max_wilds"),
        "all_wild_melds": params.pop("all_wild_melds"),
        "jokers": params.pop("jokers"),
        "face_values": params.pop("face_values"),
        "decks": params.pop("decks"),
    }
    game = params.pop("game").replace("-", "_")
    given = {k: v for k, v in options.items() if v is not None}
    try:
        return MeldRules(game, **given)
    except CardGameError as e:
        flag_names = {k: "--" + k.replace("_", "-") for k in options}
        message = str(e)
        for k, flag in flag_names.items():
            message = message.replace(f"option {k} ", f"option {flag} ")
        raise click.UsageError(message) from e
