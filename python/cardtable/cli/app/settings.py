"""What one match at the card table is made of: the game, its rule
options, the opponents (each by level or by bot spec), the seed and the
pace. ``play GAME`` makes a :class:`Settings` from its flags, and the
table's new-game screen makes another from the person's choices. No
Textual here (``play`` in the stdin mode reads the same settings)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from cardtable.cli.presenters import PRESENTERS
from cardtable.deck import bot_seed
from cardtable.games import Bot, Game, load_game

DEFAULT_LEVEL = "normal"
"""The opponents' level when neither ``--level`` nor ``--bots`` says."""


def levels(game: Game) -> list[str]:
    """The ladder's levels, weakest first (``Game.bot_levels``)."""
    return [level for level, _ in game.bot_levels()]


@dataclass(frozen=True)
class Opponent:
    """One opponent's seat: a level of the ladder or a bot spec."""

    spec: str
    """What ``Bot`` reads: a level (``hard``) or a spec (``strong:50``)."""

    def level(self, game: Game) -> str | None:
        """The level, when the seat was chosen by level."""
        word = self.spec.strip().lower()
        return word if word in levels(game) else None


@dataclass(frozen=True)
class Settings:
    """A match's settings; the same settings and seed play the same games."""

    game: str
    """The registry name: ``three_thirteen``."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """The rule options given (``players`` among them for games that have it)."""
    opponents: tuple[Opponent, ...] = ()
    """Seat 1 onwards."""
    seed: int | None = None
    """The match seed (None: a fresh one for each match)."""
    delay: float = 0.6
    """Seconds between two bot moves of a turn-based game."""
    hints: bool = True
    telegraph: bool | None = None
    """A live game's telegraph (None: on against an easy opponent)."""

    @property
    def title(self) -> str:
        return PRESENTERS[self.game].title

    def rule_options(self) -> dict[str, Any]:
        """The options the engine is given: a live game's defaults (Spit
        flips by itself, HC-5) under the ones given."""
        return {**PRESENTERS[self.game].live_defaults, **self.options}

    def build(self) -> Game:
        """The game these settings play (InvalidConfigError names a bad option)."""
        return load_game(self.game, **self.rule_options())

    def bots(self, game: Game, seed: int) -> list[Bot | None]:
        """Seat 0 is the person; each opponent's bot is seeded as in every
        driver (``bot_seed(seed, seat)``)."""
        return [None] + [
            Bot(game, o.spec, bot_seed(seed, seat)) for seat, o in enumerate(self.opponents, 1)
        ]

    def names(self, game: Game) -> list[str]:
        """Each opponent's canonical bot spec (``Bot.name``), seat 1 onwards."""
        return [Bot(game, o.spec, 0).name for o in self.opponents]

    def levels(self, game: Game) -> list[str | None]:
        """Each seat's level (None for the person and for a bot given by spec)."""
        return [None, *(o.level(game) for o in self.opponents)]

    def with_level(self, level: str) -> Settings:
        """Every opponent at ``level``."""
        return replace(self, opponents=tuple(Opponent(level) for _ in self.opponents))


def opponents_for(
    game: Game, players: int, given: Sequence[str] | None, level: Sequence[str] | None
) -> tuple[Opponent, ...]:
    """The opponents of a ``players``-seat game: the ``--bots`` specs, or
    ``--level`` (one level for every opponent, or one per seat), or the
    default level."""
    if given is not None:
        return tuple(Opponent(spec) for spec in given)
    words = list(level or [DEFAULT_LEVEL])
    if len(words) == 1:
        words *= players - 1
    return tuple(Opponent(word) for word in words)
