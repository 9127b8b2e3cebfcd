"""Tonk rule flags shared by ``play tonk`` and ``simulate tonk``, made from
the engine's option schema (:meth:`TonkGame.option_schema`): one flag per
option (``hand_size`` becomes ``--hand-size``) with the values, help text and
rule ID that the engine declares, so no range or help text is written here.

Only the flags a user gives reach ``TonkGame(**options)``, so the preset and
the engine's defaults (such as TK-2.3's "no deal-time wins unless the hand
size is 5") apply to the rest. An engine error names its option
(``InvalidConfigError.option``) and is shown, in the engine's words, as a
usage error on that flag.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar

import click

from cardtable._core import OptionSpec
from cardtable.errors import InvalidConfigError
from cardtable.games.tonk import TonkBot, TonkGame

F = TypeVar("F", bound=Callable[..., Any])

if TYPE_CHECKING:  # click >= 8.2 makes these generic; older versions are not subscriptable
    ChoiceBase = click.Choice[str]
    ParamBase = click.ParamType[Any, Any]
else:
    ChoiceBase = click.Choice
    ParamBase = click.ParamType


def flag_name(option: str) -> str:
    """``double_double`` -> ``--double-double``."""
    return "--" + option.replace("_", "-")


def _keyword(value: str) -> str:
    return value.strip().lower().replace("-", "_")


class WordChoice(ChoiceBase):
    """A choice of keywords that accepts ``any_time``, ``any-time`` and ``ANY-TIME``,
    and the schema's other spellings (``rank`` for ``eleven_twelve_thirteen``)."""

    def __init__(self, choices: Sequence[str], aliases: Sequence[tuple[str, str]] = ()) -> None:
        self.aliases = dict(aliases)
        super().__init__([*choices, *self.aliases])

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str):
            value = _keyword(value)
        value = super().convert(value, param, ctx)
        return self.aliases.get(value, value)


class IntOrWord(ParamBase):
    """One of some words (``none``, ``by_players``) or a whole number in a range."""

    def __init__(self, low: int, high: int, words: Sequence[str]) -> None:
        self.low = low
        self.high = high
        self.words = tuple(words)
        numbers = f"{low}..{high}" if low != high else str(low)
        self.name = "|".join([*self.words, numbers])

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "[" + self.name + "]"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            text = _keyword(str(value))
            if text in self.words:
                return text
            try:
                number = int(text)
            except ValueError:
                self.fail(f"{value!r} is not one of {self.name}", param, ctx)
        if not self.low <= number <= self.high:
            self.fail(f"{number} is not in {self.name}", param, ctx)
        return number


@cache
def schema() -> dict[str, OptionSpec]:
    """The engine's Tonk options by name, in the engine's order."""
    return {spec.name: spec for spec in TonkGame.option_schema()}


def param_type(spec: OptionSpec) -> ParamBase | None:
    """The click type of an option (None for a bool, which is a --x/--no-x flag)."""
    low, high = spec.minimum, spec.maximum
    if spec.kind == "choice":
        return WordChoice(spec.words, spec.aliases)
    if spec.kind == "int" and low is not None and high is not None:
        return click.IntRange(low, high)
    if spec.kind == "int_or_word" and low is not None and high is not None:
        return IntOrWord(low, high, spec.words)
    return None


def help_text(name: str) -> str:
    """An option's help text and rule, as the engine declares them."""
    spec = schema()[name]
    return f"{spec.help} ({spec.rule})"


def _show(value: Any) -> str:
    """An option value as the command line spells it."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def _defaults() -> dict[str, str]:
    """``[default: ...]`` text per option: the pagat value, and presets that differ."""
    base = TonkGame().options()
    presets = [p for p in schema()["preset"].words if p != base["preset"]]
    others = {p: TonkGame(preset=p).options() for p in presets}
    out = {}
    for name, value in base.items():
        text = _show(value)
        diffs = [f"{p}: {_show(o[name])}" for p, o in others.items() if o.get(name) != value]
        if name != "preset" and diffs:
            text += "; " + ", ".join(diffs)
        out[name] = text
    return out


def rule_names() -> list[str]:
    """The options that get a rule flag (every Tonk option but ``players``)."""
    return [n for n in schema() if n != "players"]


def _option(name: str, default_text: str | None, help: str | None = None) -> Callable[[F], F]:
    spec = schema()[name]
    flag = flag_name(name)
    suffix = f"  [default: {default_text}]" if default_text is not None else ""
    text = (help or help_text(name)) + suffix
    kind = param_type(spec)
    if kind is None:
        return click.option(f"{flag}/--no-{flag[2:]}", name, default=None, help=text)
    return click.option(flag, name, type=kind, default=None, help=text)


def tonk_rule_options(players_help: str) -> Callable[[F], F]:
    """Adds ``--players`` and one flag per Tonk rule option to a command;
    ``{players}`` in its help becomes the range the engine allows."""
    defaults = _defaults()
    spec = schema()["players"]
    players = f"{spec.minimum}-{spec.maximum}"

    def decorate(f: F) -> F:
        decorators = [
            _option("players", None, players_help.format(players=players)),
            *(_option(n, defaults.get(n)) for n in rule_names()),
        ]
        for d in reversed(decorators):
            f = d(f)
        return f

    return decorate


def pop_rule_options(params: dict[str, Any]) -> dict[str, Any]:
    """Removes the rule flags from a command's parameters; returns the given ones."""
    given = {}
    for name in ["players", *rule_names()]:
        value = params.pop(name, None)
        if value is not None:
            given[name] = value
    return given


def build_game(options: dict[str, Any]) -> TonkGame:
    """``TonkGame(**options)``; a rules error is a usage error on the flag it names."""
    try:
        return TonkGame(**options)
    except InvalidConfigError as e:
        given = " ".join(f"{flag_name(k)} {_show(v)}" for k, v in options.items())
        message = f"{e} (given: {given})" if given else str(e)
        if e.option is not None:
            raise click.BadParameter(message, param_hint=f"'{flag_name(e.option)}'") from e
        raise click.UsageError(message) from e


def parse_bots(ctx: click.Context, param: click.Parameter, value: str | None) -> list[str] | None:
    """``--bots greedy,strong:50``: canonical bot names; an unknown one is a usage error."""
    if value is None:
        return None
    names = [v.strip() for v in value.split(",")]
    if not value.strip() or any(not n for n in names):
        raise click.BadParameter(
            f"{value!r}: give bot names separated by commas "
            "(random, greedy[:drop_at], strong[:samples])"
        )
    out = []
    for n in names:
        try:
            out.append(TonkBot(n, 0).name)
        except InvalidConfigError as e:
            raise click.BadParameter(str(e)) from e
    return out


def _differences(game: TonkGame, base: dict[str, Any]) -> list[tuple[str, Any]]:
    """The options of ``game`` that differ from ``base`` (``players`` aside)."""
    return [(k, v) for k, v in game.options().items() if k != "players" and base.get(k) != v]


def _base(game: TonkGame, preset: str | None = None) -> dict[str, Any]:
    """The options of a game with the same players and hand size under ``preset`` (or the
    defaults): so the deal-time wins that TK-2.3 derives from the hand size are not listed."""
    options = game.options()
    extra = {} if preset is None else {"preset": preset}
    base = TonkGame(players=game.players, hand_size=options["hand_size"], **extra).options()
    base["hand_size"] = TonkGame(players=game.players, **extra).options()["hand_size"]
    return base


def describe_options(game: TonkGame) -> str:
    """The preset and every option that differs from it, e.g. ``pagat rules, --stake 5``."""
    preset = str(game.options()["preset"])
    diffs = [f"{flag_name(k)} {_show(v)}" for k, v in _differences(game, _base(game, preset))]
    return ", ".join([f"{preset} rules", *diffs])


def rule_differences(game: TonkGame) -> list[tuple[str, str, str]]:
    """``(flag, value, help)`` for every option that differs from the engine's defaults."""
    return [(flag_name(k), _show(v), help_text(k)) for k, v in _differences(game, _base(game))]
