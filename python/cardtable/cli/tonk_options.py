"""Tonk rule flags shared by ``play tonk`` and ``simulate tonk``.

There is one flag per option of :meth:`TonkGame.option_names` (``hand_size``
becomes ``--hand-size``); only the flags a user gives reach
``TonkGame(**options)``, so the preset and the engine's defaults (such as
TK-2.3's "no deal-time wins unless the hand size is 5") apply to the rest.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import click

from cardtable.errors import InvalidConfigError
from cardtable.games.tonk import TonkBot, TonkGame

F = TypeVar("F", bound=Callable[..., Any])

PRESETS = ("pagat", "wikipedia", "texas")

if TYPE_CHECKING:  # click >= 8.2 makes these generic; older versions are not subscriptable
    ChoiceBase = click.Choice[str]
    ParamBase = click.ParamType[Any, Any]
else:
    ChoiceBase = click.Choice
    ParamBase = click.ParamType


def flag_name(option: str) -> str:
    """``double_double`` -> ``--double-double``."""
    return "--" + option.replace("_", "-")


class WordChoice(ChoiceBase):
    """A choice of keywords that accepts ``any_time``, ``any-time`` and ``ANY-TIME``.

    ``aliases`` are further spellings of a choice (not listed in the help), e.g.
    the engine's ``eleven_twelve_thirteen`` for ``rank``.
    """

    def __init__(self, choices: Sequence[str], aliases: dict[str, str] | None = None) -> None:
        super().__init__(choices)
        self.aliases = dict(aliases or {})

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str):
            value = value.strip().lower().replace("-", "_")
            value = self.aliases.get(value, value)
        return super().convert(value, param, ctx)


class NoneOrInt(ParamBase):
    """``none`` or an integer in a range (``--spades-bet``, ``--max-hits-per-turn``)."""

    def __init__(self, low: int, high: int, words: Sequence[str] = ()) -> None:
        self.low = low
        self.high = high
        self.words = tuple(words)
        self.name = "|".join(["none", *self.words, f"{low}..{high}" if low != high else str(low)])

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "[" + self.name + "]"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            text = str(value).strip().lower().replace("-", "_")
            if text == "none" or text in self.words:
                return text
            try:
                number = int(text)
            except ValueError:
                self.fail(f"{value!r} is not one of {self.name}", param, ctx)
        if not self.low <= number <= self.high:
            self.fail(f"{number} is not in {self.name}", param, ctx)
        return number


class HandSize(NoneOrInt):
    """``2..25`` or ``by_players``; the engine checks the deck's limit per player count (TK-2.3)."""

    def __init__(self) -> None:
        super().__init__(2, 25, ("by_players",))
        self.name = "2..25|by_players"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if str(value).strip().lower() == "none":
            self.fail("'none' is not a hand size: give 2..25 or by_players", param, ctx)
        return super().convert(value, param, ctx)


@dataclass(frozen=True)
class RuleFlag:
    """How one Tonk option appears on the command line."""

    kind: str  # "bool", "choice", "int" or "param"
    help: str
    choices: tuple[str, ...] = ()
    aliases: tuple[tuple[str, str], ...] = ()  # (another spelling, the choice it means)
    low: int = 0
    high: int = 0
    param: ParamBase | None = None


RULE_FLAGS: dict[str, RuleFlag] = {
    "preset": RuleFlag("choice", "Rules preset (TK-11.4); the other flags override it.", PRESETS),
    "hand_size": RuleFlag(
        "param",
        "Cards dealt to each player; by_players deals 9 to 2 players, 7 to 3, 5 to 4+ "
        "and turns the deal-time wins off (TK-2).",
        param=HandSize(),
    ),
    "face_values": RuleFlag(
        "choice",
        "J, Q, K count 10 (ten) or 11, 12, 13 (rank, as in 'score'; also "
        "eleven_twelve_thirteen) (TK-3.3).",
        ("ten", "rank"),
        aliases=(("eleven_twelve_thirteen", "rank"),),
    ),
    "upcard": RuleFlag("bool", "Turn up a card to start the discard pile (TK-4.5)."),
    "deal_wins": RuleFlag(
        "choice",
        "Wins on the deal: 49 or 50 pay 2s (pagat), 50 only, 50 at once and 49 claimed "
        "in the first turn, Texas (50 pays 2s, 49 pays 1s), or none (TK-5.4).",
        ("pagat", "fifty_only", "forty_nine_in_turn", "texas", "none"),
    ),
    "low_13": RuleFlag("bool", "A count of 13 or less on the deal wins 2s (TK-5.4)."),
    "low_9": RuleFlag("bool", "A count of 9 or less on the deal wins 3s (TK-5.4)."),
    "drop_timing": RuleFlag(
        "choice",
        "When a player may drop: at the start of their turn, any time in their turn, "
        "or any time at all (drop windows) (TK-6.8).",
        ("start_of_turn", "own_turn_any_phase", "any_time"),
    ),
    "forbid_rediscard": RuleFlag(
        "bool", "The card taken from the discard pile may not be discarded again (TK-6.9)."
    ),
    "max_hits_per_turn": RuleFlag(
        "param", "Hits allowed per turn: none (no limit) or 1 (TK-6.10).", param=NoneOrInt(1, 1)
    ),
    "discard_pickup_must_be_used": RuleFlag(
        "bool", "A card taken from the discard pile must be spread or hit that turn (TK-6.10)."
    ),
    "must_spread": RuleFlag(
        "bool", "Keeping a book or run in hand at the discard is illegal (TK-7.6)."
    ),
    "must_spread_aces_exempt": RuleFlag(
        "bool", "With --must-spread, a book of aces may be kept (TK-7.6)."
    ),
    "ace_in_runs": RuleFlag(
        "choice",
        "Ace low only (A-2-3), or low or high (Q-K-A, never K-A-2) (TK-7.3).",
        ("low", "low_or_high"),
    ),
    "hit_lock_per_hit": RuleFlag(
        "int",
        "Turns a player may not drop for each card hit onto their spreads; 0: no lock (TK-8.4).",
        low=0,
        high=12,
    ),
    "hit_lock_unit": RuleFlag(
        "choice",
        "The lock counts each card hit, or each hitting turn (TK-8.4).",
        ("per_card", "per_turn"),
    ),
    "only_runs_hittable": RuleFlag("bool", "Hits may extend runs only, not books (TK-8.6)."),
    "clear_completed_books": RuleFlag(
        "bool", "A book completed by a hit goes under the discard pile (TK-9.3)."
    ),
    "tonk_double_requires": RuleFlag(
        "choice",
        "What a tonk out needs to be paid double: nothing more, a new spread in the "
        "finishing turn, or the whole hand put down in one turn (TK-10.1).",
        ("any", "new_spread", "whole_hand_one_turn"),
    ),
    "stock_out_tie": RuleFlag(
        "choice",
        "A tie for lowest when the stock runs out: void, or all tied are paid (TK-10.4).",
        ("void", "all_paid"),
    ),
    "stock_out_end": RuleFlag(
        "choice",
        "An empty stock ends the hand when someone must draw, or at once (TK-10.4).",
        ("when_needed", "immediately"),
    ),
    "drop_payout": RuleFlag(
        "choice", "How a drop is settled (TK-10.3, TK-11.1).", ("pagat", "wikipedia", "texas")
    ),
    "double_double": RuleFlag(
        "choice",
        "Tonk-out double-double, two players only: off, or who collects 4s (TK-11.2).",
        ("off", "responder", "tonker"),
    ),
    "spades_bet": RuleFlag(
        "param",
        "Spades side bet: none, or the stake of each player in (TK-11.3).",
        param=NoneOrInt(1, 1000),
    ),
    "spades_ace_high": RuleFlag("bool", "The ace is the highest spade in the side bet (TK-11.3)."),
    "stake": RuleFlag(
        "int", "The basic stake s; every payment is a multiple (TK-1.3).", low=1, high=1_000_000
    ),
    "max_idle_rounds": RuleFlag(
        "int",
        "End a hand, settled as a stock out but reported 'stalled', after this many full "
        "rounds with no stock draw and nothing put down (TK-10.7).",
        low=1,
        high=1000,
    ),
}


def _show(value: Any, name: str | None = None) -> str:
    """An option value as the command line spells it (``rank``, not ``eleven_twelve_thirteen``)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    spec = RULE_FLAGS.get(name) if name is not None else None
    if spec is not None:
        for alias, choice in spec.aliases:
            if value == alias:
                return choice
    return str(value)


def _defaults() -> dict[str, str]:
    """``[default: ...]`` text per option: the pagat value, and presets that differ."""
    base = TonkGame().options()
    others = {p: TonkGame(preset=p).options() for p in PRESETS if p != "pagat"}
    out = {}
    for name, value in base.items():
        text = _show(value, name)
        diffs = [f"{p}: {_show(o[name], name)}" for p, o in others.items() if o.get(name) != value]
        if name != "preset" and diffs:
            text += "; " + ", ".join(diffs)
        out[name] = text
    return out


def rule_names() -> list[str]:
    """The options that get a rule flag (every Tonk option but ``players``)."""
    return [n for n in TonkGame.option_names() if n != "players"]


def _rule_option(name: str, default_text: str | None) -> Callable[[F], F]:
    spec = RULE_FLAGS.get(name)
    flag = flag_name(name)
    suffix = f"  [default: {default_text}]" if default_text is not None else ""
    if spec is None:  # an option the engine grew after this table: pass it through as text
        return click.option(
            flag, name, metavar="VALUE", help=f"Tonk option {name}.{suffix}", default=None
        )
    if spec.kind == "bool":
        return click.option(f"{flag}/--no-{flag[2:]}", name, default=None, help=spec.help + suffix)
    param_type: ParamBase
    if spec.kind == "choice":
        param_type = WordChoice(spec.choices, dict(spec.aliases))
    elif spec.kind == "int":
        param_type = click.IntRange(spec.low, spec.high)
    else:
        assert spec.param is not None
        param_type = spec.param
    return click.option(flag, name, type=param_type, default=None, help=spec.help + suffix)


def tonk_rule_options(players_help: str) -> Callable[[F], F]:
    """Adds ``--players`` and one flag per Tonk rule option to a command."""
    defaults = _defaults()

    def decorate(f: F) -> F:
        decorators = [
            click.option("--players", type=click.IntRange(2, 6), default=None, help=players_help),
            *(_rule_option(n, defaults.get(n)) for n in rule_names()),
        ]
        for d in reversed(decorators):
            f = d(f)
        return f

    return decorate


def _flags_in(message: str) -> str:
    """An engine message with option names written as the flags that set them."""
    names = sorted(TonkGame.option_names(), key=len, reverse=True)
    compound = [n for n in names if "_" in n]
    if compound:
        pattern = r"(?<![\w-])(" + "|".join(map(re.escape, compound)) + r")(?!\w)"
        message = re.sub(pattern, lambda m: flag_name(m.group(1)), message)
    simple = [n for n in names if "_" not in n]
    pattern = r"(^|\boption |\binvalid )(" + "|".join(map(re.escape, simple)) + r")(?!\w)"
    return re.sub(pattern, lambda m: m.group(1) + flag_name(m.group(2)), message)


def pop_rule_options(params: dict[str, Any]) -> dict[str, Any]:
    """Removes the rule flags from a command's parameters; returns the given ones."""
    given = {}
    for name in ["players", *rule_names()]:
        value = params.pop(name, None)
        if value is not None:
            given[name] = value
    return given


def build_game(options: dict[str, Any]) -> TonkGame:
    """``TonkGame(**options)``; a rules error is a usage error naming the flags."""
    try:
        return TonkGame(**options)
    except InvalidConfigError as e:
        message = _flags_in(str(e))
        if "--" not in message and options:
            given = " ".join(f"{flag_name(k)} {_show(v, k)}" for k, v in options.items())
            message += f" (given: {given})"
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


def describe_options(game: TonkGame) -> str:
    """The preset and every option that differs from it, e.g. ``pagat rules, --stake 5``."""
    options = game.options()
    preset = str(options["preset"])
    # Against the preset with the same hand size, so TK-2.3's derived default is not listed.
    base = TonkGame(preset=preset, players=game.players, hand_size=options["hand_size"]).options()
    base["hand_size"] = TonkGame(preset=preset).options()["hand_size"]
    diffs = [
        f"{flag_name(k)} {_show(v, k)}"
        for k, v in options.items()
        if k != "players" and base.get(k) != v
    ]
    return ", ".join([f"{preset} rules", *diffs])


def rule_differences(game: TonkGame) -> list[tuple[str, str, str]]:
    """``(flag, value, help)`` for every option that differs from the engine's defaults.

    The defaults are ``TonkGame(players=...)`` with the same hand size, so the
    deal-time wins that TK-2.3 derives from the hand size are not listed again.
    """
    options = game.options()
    base = TonkGame(players=game.players, hand_size=options["hand_size"]).options()
    base["hand_size"] = TonkGame(players=game.players).options()["hand_size"]
    out = []
    for name, value in options.items():
        if name == "players" or base.get(name) == value:
            continue
        spec = RULE_FLAGS.get(name)
        out.append(
            (flag_name(name), _show(value, name), spec.help if spec else f"Tonk option {name}.")
        )
    return out
