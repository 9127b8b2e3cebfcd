"""Melds and minimum deadwood.

Every function takes the rules either as ``game=`` plus options, or as a
prepared :class:`MeldRules` through ``rules=``::

    min_deadwood("AS 2S 3S KD", game="gin")
    min_deadwood(hand, game="three_thirteen", jokers=True, max_wilds="unlimited")
    rules = MeldRules("three_thirteen", round=5); min_deadwood(hand, rules=rules)

Options (keyword-only; unknown or contradictory ones raise
:class:`~cardtable.errors.InvalidConfigError`):

``aces``            ``"low"`` (A-2-3) or ``"high"`` (also Q-K-A, never K-A-2)
``wild``            wild rank (Three Thirteen; default: follows the hand size)
``round``           Three Thirteen round 1-13, which sets the wild rank
``max_wilds``       substitutes per meld: an integer or ``"unlimited"``
``all_wild_melds``  a meld of three or more substitutes is valid
``jokers``          two jokers per deck, wild, 20 points unmatched
``face_values``     ``"ten"`` (J/Q/K = 10) or ``"rank"`` (11/12/13)
``decks``           number of decks (Three Thirteen; Tonk and gin use one)

``game`` is a registered game with melds (``"tonk"``, ``"three_thirteen"``,
``"gin_rummy"``; ``meld_game_names()``), whose own rules these are. The
default, ``"gin"``, is another name of gin rummy's: plain rummy melds (one
deck, aces low, no wild cards, J/Q/K = 10), which are also Tonk's.

The functions are implemented in the compiled core (``cardtable._core``);
building rules with options costs a little, so in a loop pass ``rules=`` (or
use :func:`meld_rules`, which caches).
"""

from __future__ import annotations

from typing import Any

from cardtable._core import (
    Deadwood,
    DeadwoodBatch,
    Meld,
    MeldRules,
    ScoredHands,
    all_melds,
    best_discard,
    can_go_out,
    check_meld,
    legal_hits,
    min_deadwood,
    min_deadwood_many,
    score_arrow,
)

__all__ = [
    "Deadwood",
    "DeadwoodBatch",
    "Meld",
    "MeldRules",
    "ScoredHands",
    "all_melds",
    "best_discard",
    "can_go_out",
    "check_meld",
    "legal_hits",
    "meld_rules",
    "min_deadwood",
    "min_deadwood_many",
    "score_arrow",
]

_CACHE: dict[Any, MeldRules] = {}
_CACHE_LIMIT = 512


def meld_rules(game: str = "gin", **options: Any) -> MeldRules:
    """The :class:`MeldRules` of a game with options; cached, so cheap to call again."""
    key: Any = (game, tuple(sorted(options.items()))) if options else game
    try:
        return _CACHE[key]
    except KeyError:
        pass
    except TypeError:  # an unhashable option value: build without caching
        return MeldRules(game, **options)
    rules = MeldRules(game, **options)
    if len(_CACHE) >= _CACHE_LIMIT:
        _CACHE.clear()
    _CACHE[key] = rules
    return rules
