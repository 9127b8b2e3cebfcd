"""The exceptions of cardtable.

They are defined here, in plain Python, and raised by the compiled core, so
they pickle, type-check and subclass the standard exceptions that existing
``except`` clauses already catch::

    CardGameError(Exception)
    ├── InvalidCardError(CardGameError, ValueError)   bad token, hand that breaks the deck
    │   └── InvalidHandError                          duplicates, jokers not in play, size
    ├── InvalidConfigError(CardGameError, ValueError) unknown, out-of-range or contradictory options
    ├── InvalidRecordError(CardGameError, ValueError) a replay record that is not a valid game
    └── GameRuleError(CardGameError)
        ├── IllegalActionError                        an action not in legal_actions()
        └── GameOverError                             an action after the end
"""

from __future__ import annotations

__all__ = [
    "CardGameError",
    "GameOverError",
    "GameRuleError",
    "IllegalActionError",
    "InvalidCardError",
    "InvalidConfigError",
    "InvalidHandError",
    "InvalidRecordError",
]


class CardGameError(Exception):
    """Base class of every error raised by cardtable."""


class InvalidCardError(CardGameError, ValueError):
    """A token that is not a card, such as ``'1S'`` or ``'KX'``; the message names it."""


class InvalidHandError(InvalidCardError):
    """A hand that cannot come from the deck in play (duplicates, jokers) or has a bad size."""


class InvalidConfigError(CardGameError, ValueError):
    """Unknown, out-of-range or contradictory rule options.

    ``option`` names the option the error is about (``"hand_size"``), or is
    None when it is about no single one; the message says why in the engine's
    words, so a caller can point at its own spelling of the option (a CLI flag)
    without rewriting the message.
    """

    def __init__(self, message: str = "", option: str | None = None) -> None:
        super().__init__(message)
        self.option = option

    def __reduce__(self) -> tuple[type[InvalidConfigError], tuple[str, str | None]]:
        return (type(self), (str(self), self.option))


class InvalidRecordError(CardGameError, ValueError):
    """A game record that does not describe a valid game."""


class GameRuleError(CardGameError):
    """A move that the rules do not allow."""


class IllegalActionError(GameRuleError):
    """An action that is not among the state's legal actions; the state is unchanged."""


class GameOverError(GameRuleError):
    """An action applied to a finished game."""
