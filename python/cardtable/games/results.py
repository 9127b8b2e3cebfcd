"""The shapes of what the engines hand back as dicts: endings and
simulation summaries. Typed here so that the CLI and user
code are checked against the engine's keys (mypy sees a renamed key)."""

from __future__ import annotations

from typing import Literal, NotRequired, Required, TypedDict

__all__ = [
    "BotStats",
    "Distribution",
    "IntentKind",
    "LengthDistribution",
    "PrivateEvent",
    "PublicEvent",
    "PublicEventKind",
    "Summary",
    "TonkEnding",
    "TonkEndingCategory",
]


TonkEndingCategory = Literal[
    "tonk_out", "out_by_discard", "drop_won", "caught", "stock_out", "stalled", "deal_win", "void"
]
"""Tonk's ending categories (``TonkGame().ending_categories()``, in its order)."""

PublicEventKind = Literal["landed", "bounced", "timer"]
IntentKind = Literal["issued", "queued", "released", "refused"]


class TonkEnding(TypedDict, total=False):
    """How a Tonk hand ended (``TonkState.ending``): ``category`` always, the
    other keys by category (TK-5, TK-10)."""

    category: Required[TonkEndingCategory]
    player: int
    paid: int
    double_double: bool
    caught: bool
    winner: int | None
    stock_out: bool


#: A distribution over games: ``(value, games)`` pairs in increasing value,
#: values no game had left out.
Distribution = list[tuple[int, int]]


class BotStats(TypedDict):
    """One bot's results in a simulation, with 95% confidence intervals."""

    bot: str
    games: int
    positive_return_rate: float
    """The share of games the bot ended with a positive return (a win in a
    game of one winner; with three or more Tonk players several bots can
    gain in one game, so the rates need not sum to 1)."""
    positive_return_rate_ci: tuple[float, float]
    stakes_per_game: float
    stakes_per_game_ci: tuple[float, float]
    return_distribution: Distribution
    """Games per return (the games of ``stakes_per_game``: whole deals)."""


class LengthDistribution(TypedDict):
    """Games per length (the games of ``endings``: every game played)."""

    actions: Distribution
    """Actions a game took."""
    deals: Distribution
    """Deals (hands, rounds, layouts) a game took."""
    virtual_seconds: NotRequired[Distribution]
    """Real-time games: whole seconds (rounded down) on the virtual clock."""


class Summary(TypedDict):
    """A simulation's results (``simulate``, ``Simulation.summary``); a
    bot's ``stakes_per_game`` is the game's return per game (Tonk: stakes)."""

    game: str
    games: int
    bots: list[BotStats]
    endings: dict[str, int]
    """Games per ending category of the game, in its order, then
    ``unfinished`` (games a batch guard stopped) when there were some: every
    game played is counted once."""
    seed: NotRequired[int]
    stake_difference: NotRequired[tuple[float, float, float]]
    virtual_seconds_per_game: NotRequired[float]
    """Real-time games: mean game length on the virtual clock."""
    deals_per_game: NotRequired[float]
    """Mean game length in deals (hands, rounds, layouts)."""
    length_distribution: LengthDistribution
    replaced_answers: NotRequired[int]
    """Bot answers that were not legal, replaced by the first legal action so
    that the game went on: a bug in a bot (never there with sound bots)."""


class PublicEvent(TypedDict):
    """One entry of a session's public channel (``Session.events()``, RT-10):
    a commit everyone saw land or bounce, or the engine moving the game on."""

    at: int
    kind: PublicEventKind
    seat: NotRequired[int]
    action: NotRequired[int]
    phase: NotRequired[str | None]
    """For a timer: the phase the game is in after it."""


class PrivateEvent(TypedDict):
    """One entry of a seat's private channel (``Session.events(seat)``,
    RT-10): one of its own intents, when it was issued."""

    at: int
    kind: IntentKind
    """``queued``: waiting for a free hand; ``released``: a queued one sent
    once a hand freed."""
    action: int
    lands: int | None
    """When an issued intent commits."""
