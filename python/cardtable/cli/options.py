"""Options shared by several commands: the meld rules of ``score`` and friends."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from cardtable._core import meld_game_names, meld_option_schema
from cardtable.cli.game_options import WordChoice, flag_name, param_type
from cardtable.errors import CardGameError
from cardtable.melds import MeldRules

F = TypeVar("F", bound=Callable[..., Any])


def meld_rule_options(f: F) -> F:
    """Adds --game and one flag per meld-rule option (from the engine's
    meld-rule schema: its values, ranges, help and rule IDs) to a command."""
    decorators = [
        click.option(
            "--game",
            type=WordChoice(meld_game_names()),
            default="gin",
            show_default=True,
            help="The game whose meld rules and card values score the hands (gin: gin rummy's).",
        ),
    ]
    for spec in meld_option_schema():
        flag = flag_name(spec.name)
        text = f"{spec.help} ({spec.rule})"
        kind = param_type(spec)
        if kind is None:
            # --x / --no-x; neither keeps the game's value.
            decorators.append(
                click.option(f"{flag}/--no-{flag[2:]}", spec.name, default=None, help=text)
            )
        else:
            decorators.append(click.option(flag, spec.name, type=kind, default=None, help=text))
    for d in reversed(decorators):
        f = d(f)
    return f


def build_meld_rules(params: dict[str, Any]) -> MeldRules:
    """MeldRules from the parsed options; a rules error is a usage error (exit 2)."""
    options = {spec.name: params.pop(spec.name) for spec in meld_option_schema()}
    game = params.pop("game")
    given = {k: v for k, v in options.items() if v is not None}
    try:
        return MeldRules(game, **given)
    except CardGameError as e:
        flag_names = {k: "--" + k.replace("_", "-") for k in options}
        message = str(e)
        for k, flag in flag_names.items():
            message = message.replace(f"option {k} ", f"option {flag} ")
        raise click.UsageError(message) from e
