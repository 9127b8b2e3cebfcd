"""Seeded decks and deals.

Every shuffle is reproducible from its seed (an integer 0 to 2**64 - 1) on any
platform and version: the generator is xoshiro256++ seeded by SplitMix64
from the seed, and the shuffle is our own Fisher-Yates (see docs/solver.md).
Index 0 of a shuffled deck is its top card.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardtable import _core
from cardtable._core import Card
from cardtable.errors import InvalidConfigError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "Deal",
    "bot_seed",
    "deal",
    "derive_seed",
    "new_seed",
    "shuffle_many",
    "shuffled_deck",
]

_SEED_MAX = 2**64 - 1


def new_seed() -> int:
    """A fresh random seed, for callers that did not give one (report it to reproduce)."""
    return int.from_bytes(os.urandom(8), "little")


def check_seed(seed: int) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= _SEED_MAX:
        raise InvalidConfigError(f"seed must be an integer from 0 to 2**64 - 1, got {seed!r}")
    return seed


def derive_seed(seed: int, index: int) -> int:
    """Seed of the ``index``-th child stream of ``seed`` (how batches seed each game)."""
    return _core.derive_seed(check_seed(seed), check_seed(index))


def bot_seed(seed: int, seat: int) -> int:
    """Seed of the bot at ``seat`` of the game seeded with ``seed``: how every
    driver (``simulate``, ``play``, ``play_game``, sessions, environments)
    seeds a seat's bot."""
    return _core.bot_seed(check_seed(seed), seat)


def shuffled_deck(seed: int, *, decks: int = 1, jokers: bool = False) -> list[Card]:
    """The deck shuffled with ``seed``: ``decks`` decks, two jokers per deck with ``jokers``."""
    return _core.shuffled_deck(check_seed(seed), decks, jokers)


@dataclass(frozen=True)
class Deal:
    """A reproducible deal: ``hands[0]`` is the first player to receive cards."""

    game: str
    seed: int
    hands: tuple[tuple[Card, ...], ...]
    upcard: Card | None
    stock: tuple[Card, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seed": self.seed,
            "hands": [[str(c) for c in h] for h in self.hands],
            "upcard": None if self.upcard is None else str(self.upcard),
            "stock": [str(c) for c in self.stock],
        }


def deal(
    game: str = "tonk",
    players: int = 2,
    seed: int | None = None,
    *,
    hand_size: int | None = None,
    round: int | None = None,
    decks: int | None = None,
    jokers: bool = False,
    upcard: bool | None = None,
) -> Deal:
    """Shuffle with ``seed`` and deal one card at a time to each player.

    Defaults per game: Tonk 5 cards (TK-2.1), gin 10, Three Thirteen ``round + 2``
    cards from two decks (TT-1.2, TT-2.1); an upcard starts the discard pile.
    Without a seed a fresh one is drawn and recorded in the result.
    """
    s = new_seed() if seed is None else check_seed(seed)
    key, hands, up, stock = _core.deal(
        game,
        s,
        players,
        hand_size=hand_size,
        round=round,
        decks=decks,
        jokers=jokers,
        upcard=upcard,
    )
    return Deal(key, s, tuple(tuple(h) for h in hands), up, tuple(stock))


def shuffle_many(
    n: int,
    seed: int,
    *,
    decks: int = 1,
    jokers: bool = False,
    threads: int | None = None,
) -> npt.NDArray[np.uint8]:
    """``n`` shuffled decks as an ``(n, deck size)`` uint8 array of card codes.

    Row ``i`` is ``shuffled_deck(derive_seed(seed, i))``, so the array is the
    same for any thread count. Needs numpy.
    """
    try:
        import numpy as np
    except ImportError as e:  # pragma: no cover - exercised only without numpy
        raise ImportError("shuffle_many returns a numpy array: pip install numpy") from e
    if n < 0:
        raise InvalidConfigError(f"n must be non-negative, got {n}")
    size = len(_core.shuffled_deck(0, decks, jokers))  # also checks decks
    out = np.empty((n, size), dtype=np.uint8)
    _core.shuffle_many_into(out, check_seed(seed), decks, jokers, threads)
    return out
