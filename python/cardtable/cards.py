"""Cards and hand notation.

A token is a rank ``A 2-9 T 10 J Q K`` (any case) followed by a suit ``C D H S``
(any case) or a suit symbol ``♣ ♦ ♥ ♠``; ``JK`` is a joker. Hands are tokens
separated by spaces or commas. Canonical text is ``AS``, ``TD``, ``JK``.

Card codes (used by the 2-D arrays of the batch functions) are
``suit * 13 + (rank - 1)`` with suits in the order clubs, diamonds, hearts,
spades: ``AC = 0``, ``KC = 12``, ``AD = 13``, ``KS = 51``, joker ``52``.
"""

from __future__ import annotations

from cardtable._core import Card, format_hand, parse_hand

__all__ = ["JOKER_CODE", "Card", "format_hand", "parse_hand"]

JOKER_CODE = 52
