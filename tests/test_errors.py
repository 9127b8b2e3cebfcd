"""The exception hierarchy: standard bases, pickling, and what the library raises."""

from __future__ import annotations

import pickle

import pytest

import cardtable
from cardtable import errors
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

ALL_ERRORS: list[type[CardGameError]] = [
    CardGameError,
    InvalidCardError,
    InvalidHandError,
    InvalidConfigError,
    InvalidRecordError,
    GameRuleError,
    IllegalActionError,
    GameOverError,
]


def test_hierarchy() -> None:
    assert issubclass(CardGameError, Exception)
    assert issubclass(InvalidCardError, CardGameError)
    assert issubclass(InvalidCardError, ValueError)
    assert issubclass(InvalidHandError, InvalidCardError)
    assert issubclass(InvalidHandError, ValueError)
    assert issubclass(InvalidHandError, CardGameError)
    assert issubclass(InvalidConfigError, CardGameError)
    assert issubclass(InvalidConfigError, ValueError)
    assert not issubclass(InvalidConfigError, InvalidCardError)
    assert issubclass(InvalidRecordError, CardGameError)
    assert issubclass(InvalidRecordError, ValueError)
    assert issubclass(GameRuleError, CardGameError)
    assert not issubclass(GameRuleError, ValueError)
    assert issubclass(IllegalActionError, GameRuleError)
    assert issubclass(GameOverError, GameRuleError)
    assert not issubclass(GameOverError, IllegalActionError)


def test_exported_from_the_package() -> None:
    for cls in ALL_ERRORS:
        assert getattr(cardtable, cls.__name__) is cls
        assert getattr(errors, cls.__name__) is cls
        assert cls.__module__ == "cardtable.errors"
    assert sorted(errors.__all__) == sorted(c.__name__ for c in ALL_ERRORS)


@pytest.mark.parametrize("cls", ALL_ERRORS, ids=lambda c: c.__name__)
def test_exceptions_pickle(cls: type[CardGameError]) -> None:
    original = cls("something is wrong: 'AS'")
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(original, protocol=protocol))
        assert type(back) is cls
        assert back.args == original.args
        assert str(back) == str(original)


def test_raised_errors_are_these_classes() -> None:
    with pytest.raises(InvalidCardError) as card:
        cardtable.Card("ZZ")
    assert type(card.value) is InvalidCardError
    with pytest.raises(InvalidHandError) as hand:
        cardtable.min_deadwood("AS AS")
    assert type(hand.value) is InvalidHandError
    with pytest.raises(InvalidConfigError) as config:
        cardtable.MeldRules("rummy")
    assert type(config.value) is InvalidConfigError
    # Errors raised by the compiled core pickle too.
    for exc in (card.value, hand.value, config.value):
        back = pickle.loads(pickle.dumps(exc))
        assert type(back) is type(exc)
        assert str(back) == str(exc)


def test_existing_except_clauses_catch_them() -> None:
    with pytest.raises(ValueError, match="duplicate"):
        cardtable.min_deadwood("AS AS")
    with pytest.raises(ValueError, match="unknown game"):
        cardtable.min_deadwood("AS", game="rummy")
    with pytest.raises(CardGameError):
        cardtable.parse_hand("1S")
    with pytest.raises(CardGameError):
        cardtable.shuffled_deck(-1)
