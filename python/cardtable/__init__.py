"""cardtable: a fast, exact rules engine for Tonk, Three Thirteen, Spit, Speed and Gin Rummy.

The core is Rust; this package is its typed Python API. Quick start::

    import cardtable
    cardtable.min_deadwood("AS 2S 3S KD", game="gin").deadwood       # 10
    cardtable.best_discard("AS 3S 7S 5C 6C 7C 5D 2H 5H 6H 7H").discard  # Card('7S')
    cardtable.deal("tonk", players=3, seed=42).hands
"""

from __future__ import annotations

from cardtable import errors
from cardtable._core import __version__
from cardtable.cards import JOKER_CODE, Card, format_hand, parse_hand
from cardtable.deck import Deal, deal, derive_seed, shuffle_many, shuffled_deck
from cardtable.errors import (
    CardGameError,
    GameOverError,
    GameRuleError,
    IllegalActionError,
    InvalidCardError,
    InvalidConfigError,
    InvalidHandError,
    InvalidRecordError,
)
from cardtable.melds import (
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
    meld_rules,
    min_deadwood,
    min_deadwood_many,
    score_arrow,
)

__all__ = [
    "JOKER_CODE",
    "Card",
    "CardGameError",
    "Deadwood",
    "DeadwoodBatch",
    "Deal",
    "GameOverError",
    "GameRuleError",
    "IllegalActionError",
    "InvalidCardError",
    "InvalidConfigError",
    "InvalidHandError",
    "InvalidRecordError",
    "Meld",
    "MeldRules",
    "ScoredHands",
    "__version__",
    "all_melds",
    "best_discard",
    "can_go_out",
    "check_meld",
    "deal",
    "derive_seed",
    "errors",
    "format_hand",
    "legal_hits",
    "meld_rules",
    "min_deadwood",
    "min_deadwood_many",
    "parse_hand",
    "score_arrow",
    "shuffle_many",
    "shuffled_deck",
]
