"""Rule flags of every game for ``play GAME`` and ``simulate GAME``, made
from the engine's option schema (``option_schema(name)``): one flag per
option (``hand_size`` becomes ``--hand-size``) with the values, help text and
rule ID that the engine declares, so no range or help text is written here.

Only the flags a user gives reach ``load_game(name, **options)``, so the
preset and the engine's defaults (such as TK-2.3's "no deal-time wins unless
the hand size is 5") apply to the rest. An engine error names its option
(``InvalidConfigError.option``) and is shown, in the engine's words, as a
usage error on that flag.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar

import click

from cardtable._core import OptionSpec
from cardtable.errors import InvalidConfigError
from cardtable.games import Bot, Game, load_game
from cardtable.games import option_schema as engine_schema

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
def schema(game: str) -> dict[str, OptionSpec]:
    """The engine's options of ``game`` by name, in the engine's order."""
    return {spec.name: spec for spec in engine_schema(game)}


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


def help_text(game: str, name: str) -> str:
    """An option's help text and rule, as the engine declares them."""
    spec = schema(game)[name]
    return f"{spec.help} ({spec.rule})"


def show_value(value: Any) -> str:
    """An option value as the command line spells it."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def _defaults(game: str) -> dict[str, str]:
    """``[default: ...]`` text per option: the default, and presets that differ."""
    base = load_game(game).options()
    presets = (
        [p for p in schema(game)["preset"].words if p != base["preset"]] if "preset" in base else []
    )
    others = {p: load_game(game, preset=p).options() for p in presets}
    out = {}
    for name, value in base.items():
        text = show_value(value)
        diffs = [f"{p}: {show_value(o[name])}" for p, o in others.items() if o.get(name) != value]
        if name != "preset" and diffs:
            text += "; " + ", ".join(diffs)
        out[name] = text
    return out


def rule_names(game: str) -> list[str]:
    """The options that get a rule flag (every option but ``players``)."""
    return [n for n in schema(game) if n != "players"]


def _option(
    game: str, name: str, default_text: str | None, help: str | None = None
) -> Callable[[F], F]:
    spec = schema(game)[name]
    flag = flag_name(name)
    suffix = f"  [default: {default_text}]" if default_text is not None else ""
    text = (help or help_text(game, name)) + suffix
    kind = param_type(spec)
    if kind is None:
        return click.option(f"{flag}/--no-{flag[2:]}", name, default=None, help=text)
    return click.option(flag, name, type=kind, default=None, help=text)


def players_range(game: str) -> tuple[int, int]:
    """The numbers of players the engine allows (``Game.min_players`` and
    ``Game.max_players``)."""
    g = load_game(game)
    return g.min_players, g.max_players


def rule_options(
    game: str, players_help: str, command_defaults: Mapping[str, Any] | None = None
) -> Callable[[F], F]:
    """Adds ``--players`` and one flag per rule option of ``game`` to a
    command; ``{players}`` in its help becomes the range the engine allows.
    ``command_defaults`` are options this command sets unless told otherwise
    (their help says so)."""
    defaults = _defaults(game)
    for name, value in (command_defaults or {}).items():
        defaults[name] = f"{show_value(value)} here"
    low, high = players_range(game)

    def decorate(f: F) -> F:
        decorators = [_option(game, n, defaults.get(n)) for n in rule_names(game)]
        if "players" in schema(game):
            help = players_help.format(players=f"{low}-{high}")
            decorators.insert(0, _option(game, "players", None, help))
        for d in reversed(decorators):
            f = d(f)
        return f

    return decorate


def pop_rule_options(game: str, params: dict[str, Any]) -> dict[str, Any]:
    """Removes the rule flags from a command's parameters; returns the given ones."""
    given = {}
    for name in [*(["players"] if "players" in schema(game) else []), *rule_names(game)]:
        value = params.pop(name, None)
        if value is not None:
            given[name] = value
    return given


def build_game(game: str, options: dict[str, Any]) -> Game:
    """``load_game(game, **options)``; a rules error is a usage error on the flag it names."""
    try:
        return load_game(game, **options)
    except InvalidConfigError as e:
        given = " ".join(f"{flag_name(k)} {show_value(v)}" for k, v in options.items())
        message = f"{e} (given: {given})" if given else str(e)
        if e.option is not None:
            raise click.BadParameter(message, param_hint=f"'{flag_name(e.option)}'") from e
        raise click.UsageError(message) from e


@cache
def bot_grammar(game: str) -> str:
    """The bot specs ``game`` reads, in the engine's words: ``random, greedy, strong[:samples]``."""
    return load_game(game).bot_grammar


def bots_callback(
    game: str,
) -> Callable[[click.Context, click.Parameter, str | None], list[str] | None]:
    """A ``--bots`` callback for ``game``: ``greedy,strong:50`` becomes
    canonical bot names; an unknown one is a usage error."""
    kinds = bot_grammar(game)

    def parse(ctx: click.Context, param: click.Parameter, value: str | None) -> list[str] | None:
        if value is None:
            return None
        # key=value parts belong to the spec before them: smart:hard,motor_ms=90,plain
        names: list[str] = []
        for part in (v.strip() for v in value.split(",")):
            if "=" in part and names:
                names[-1] += "," + part
            else:
                names.append(part)
        if not value.strip() or any(not n for n in names):
            raise click.BadParameter(f"{value!r}: give bot names separated by commas ({kinds})")
        rules = load_game(game)
        out = []
        for n in names:
            try:
                out.append(Bot(rules, n, 0).name)
            except InvalidConfigError as e:
                raise click.BadParameter(str(e)) from e
        return out

    return parse


def describe_options(game: Game) -> str:
    """The preset (if the game has presets) and every option given besides
    it, e.g. ``pagat rules, --stake 5``; ``default rules`` otherwise. The
    engine says which options were given (``Game.given_options``), so a value
    it derived from them (a preset's, TK-2.3's deal-time wins) is not listed."""
    options = game.options()
    preset = str(options["preset"]) if "preset" in options else None
    diffs = [
        f"{flag_name(k)} {show_value(v)}"
        for k, v in game.given_options().items()
        if k not in ("preset", "players")
    ]
    return ", ".join([f"{preset or 'default'} rules", *diffs])


def rule_differences(game: Game) -> list[tuple[str, str, str]]:
    """``(flag, value, help)`` for every rule in play that differs from the
    engine's defaults for the same players (``players`` aside), including
    those a preset or another option brought."""
    players = {"players": game.players} if "players" in game.options() else {}
    base = load_game(game.name, **players).options()
    return [
        (flag_name(k), show_value(v), help_text(game.name, k))
        for k, v in game.options().items()
        if k != "players" and base.get(k) != v
    ]
