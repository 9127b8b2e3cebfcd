"""Cards and hand notation: parsing, canonical text, codes, ordering, hashing, pickling."""

from __future__ import annotations

import copy
import itertools
import pickle
import random

import pytest

import cardtable
from cardtable import JOKER_CODE, Card, InvalidCardError, format_hand, parse_hand

CANONICAL_RANKS = "A23456789TJQK"
CANONICAL_SUITS = "CDHS"
SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}

# Every documented spelling of each rank (1 = ace ... 13 = king) and suit.
RANK_SPELLINGS: dict[str, int] = {
    "A": 1,
    "a": 1,
    **{str(n): n for n in range(2, 10)},
    "T": 10,
    "t": 10,
    "10": 10,
    "J": 11,
    "j": 11,
    "Q": 12,
    "q": 12,
    "K": 13,
    "k": 13,
}
SUIT_SPELLINGS: dict[str, str] = {
    "C": "C",
    "c": "C",
    "♣": "C",
    "D": "D",
    "d": "D",
    "♦": "D",
    "H": "H",
    "h": "H",
    "♥": "H",
    "S": "S",
    "s": "S",
    "♠": "S",
}

ALL_CARDS = [Card.from_code(code) for code in range(53)]


def expected_code(rank: int, suit: str) -> int:
    return CANONICAL_SUITS.index(suit) * 13 + rank - 1


def canonical_text(rank: int, suit: str) -> str:
    return CANONICAL_RANKS[rank - 1] + suit


@pytest.mark.parametrize("rank_text", list(RANK_SPELLINGS))
def test_every_rank_and_suit_spelling_parses(rank_text: str) -> None:
    rank = RANK_SPELLINGS[rank_text]
    for suit_text, suit in SUIT_SPELLINGS.items():
        card = Card(rank_text + suit_text)
        assert card.rank == rank
        assert card.suit == suit
        assert card.code == expected_code(rank, suit)
        assert str(card) == canonical_text(rank, suit)
        assert not card.is_joker


@pytest.mark.parametrize("text", ["JK", "jk", "Jk", "jK"])
def test_joker_spellings(text: str) -> None:
    joker = Card(text)
    assert joker.is_joker
    assert joker.code == JOKER_CODE == 52
    assert joker.rank == 0
    assert joker.suit is None
    assert str(joker) == "JK"
    assert repr(joker) == "Card('JK')"
    assert joker.symbol() == "JK"
    assert not joker.is_red


def test_canonical_text_of_every_code() -> None:
    texts = [str(c) for c in ALL_CARDS]
    expected = [r + s for s in CANONICAL_SUITS for r in CANONICAL_RANKS] + ["JK"]
    assert texts == expected
    assert str(Card("10d")) == "TD"
    assert str(Card("t♦")) == "TD"


def test_repr_is_evaluable() -> None:
    for card in ALL_CARDS:
        assert repr(card) == f"Card('{card}')"
        rebuilt = eval(repr(card), {"Card": Card})
        assert rebuilt == card
        assert isinstance(rebuilt, Card)


def test_code_rank_suit_of_every_card() -> None:
    for code, card in enumerate(ALL_CARDS[:52]):
        assert card.code == code
        assert card.rank == code % 13 + 1
        assert card.suit == CANONICAL_SUITS[code // 13]
        assert card.is_red == (card.suit in ("D", "H"))
        assert Card(str(card)) == card
    assert Card("AC").code == 0
    assert Card("KC").code == 12
    assert Card("AD").code == 13
    assert Card("KS").code == 51


def test_symbol_text() -> None:
    assert Card("AS").symbol() == "A♠"
    assert Card("TD").symbol() == "10♦"
    assert Card("KC").symbol() == "K♣"
    assert Card("QH").symbol() == "Q♥"
    for card in ALL_CARDS[:52]:
        symbol = card.symbol()
        assert symbol.endswith(SYMBOLS[str(card)[-1]])
        assert Card(symbol) == card


def test_ordering_follows_code() -> None:
    shuffled = list(ALL_CARDS)
    random.Random(7).shuffle(shuffled)
    assert sorted(shuffled) == ALL_CARDS
    assert [c.code for c in sorted(shuffled)] == list(range(53))
    assert Card("KC") < Card("AD") < Card("AS") < Card("JK")
    assert Card("AS") <= Card("AS")
    assert Card("2S") > Card("AS")
    assert Card("2S") >= Card("2S")
    assert not Card("AS") < Card("AS")
    for a, b in itertools.pairwise(ALL_CARDS):
        assert a < b
        assert b > a
        assert a != b


def test_hashing_and_sets() -> None:
    assert hash(Card("as")) == hash(Card("AS")) == hash(Card("A♠"))
    spellings = ["AS", "as", "A♠", "aS", "10d", "TD", "t♦", "JK", "jk"]
    assert {Card(t) for t in spellings} == {Card("AS"), Card("TD"), Card("JK")}
    assert len(set(ALL_CARDS)) == 53
    counts: dict[Card, int] = {}
    for t in spellings:
        counts[Card(t)] = counts.get(Card(t), 0) + 1
    assert counts == {Card("AS"): 4, Card("TD"): 3, Card("JK"): 2}


def test_pickle_and_copy_round_trip() -> None:
    for card in ALL_CARDS:
        # Protocols 0 and 1 cannot pickle extension types built with __new__ arguments.
        for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
            back = pickle.loads(pickle.dumps(card, protocol=protocol))
            assert back == card
            assert back.code == card.code
            assert isinstance(back, Card)
        assert copy.copy(card) == card
        assert copy.deepcopy(card) == card
    assert pickle.loads(pickle.dumps(ALL_CARDS)) == ALL_CARDS


@pytest.mark.parametrize("code", range(53))
def test_from_code(code: int) -> None:
    card = Card.from_code(code)
    assert card.code == code
    assert card.is_joker == (code == 52)


@pytest.mark.parametrize("code", [53, -1, 255, 256, 1000, -53])
def test_from_code_out_of_range(code: int) -> None:
    with pytest.raises(InvalidCardError, match=str(code)):
        Card.from_code(code)


@pytest.mark.parametrize(
    "token", ["1S", "KX", "10", "S", "AAS", "11S", "J", "0H", "ZZ", "A", "10x", "JKR", "♠A"]
)
def test_bad_tokens_name_the_token(token: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        Card(token)
    assert isinstance(info.value, ValueError)
    assert f'"{token}"' in str(info.value)


def test_empty_token_is_invalid() -> None:
    with pytest.raises(InvalidCardError, match="empty"):
        Card("")


def test_parse_hand_splits_on_spaces_and_commas() -> None:
    expected = [Card("AS"), Card("2S"), Card("3S"), Card("KD")]
    assert parse_hand("AS 2S 3S KD") == expected
    assert parse_hand("AS,2S,3S,KD") == expected
    assert parse_hand(" AS,2s  3♠ ,, KD\t") == expected
    assert parse_hand("as, 2s,\n3s KD") == expected
    assert parse_hand("") == []
    assert parse_hand(" , ,") == []
    assert parse_hand("JK 10h") == [Card("JK"), Card("TH")]


def test_parse_hand_names_the_bad_token() -> None:
    with pytest.raises(InvalidCardError, match='"ZZ"'):
        parse_hand("AS ZZ 3S")
    with pytest.raises(InvalidCardError, match='"1S"'):
        parse_hand("AS,1S")


def test_format_hand() -> None:
    assert format_hand([Card("AS"), Card("TD"), Card("JK")]) == "AS TD JK"
    assert format_hand(["as", "10d", "jk"]) == "AS TD JK"
    assert format_hand([39, 22, 52]) == "AS TD JK"
    assert format_hand([Card("AS"), "td", 52]) == "AS TD JK"
    assert format_hand(("AS", "2S")) == "AS 2S"
    assert format_hand("as,td  jk") == "AS TD JK"
    assert format_hand([]) == ""
    assert format_hand(parse_hand(format_hand(ALL_CARDS))) == format_hand(ALL_CARDS)
    with pytest.raises(InvalidCardError):
        format_hand(["AS", "KX"])
    with pytest.raises(InvalidCardError):
        format_hand([0, 53])


def test_public_names() -> None:
    assert cardtable.Card is Card
    assert cardtable.JOKER_CODE == 52
    assert cardtable.parse_hand is parse_hand
    assert cardtable.format_hand is format_hand


def test_suit_symbols_with_the_emoji_variation_selector() -> None:
    """U+FE0F after a suit symbol (phones write 'A♠️') is not part of the card."""
    assert Card("A\u2660\ufe0f") == Card("AS")
    assert Card("10\u2666\ufe0f") == Card("TD")
    assert parse_hand("A♠️ 2♠️ 3♠️ K♣️") == parse_hand("AS 2S 3S KC")
    assert cardtable.min_deadwood("A♠️ 2♠️ 3♠️").deadwood == 0
    with pytest.raises(InvalidCardError, match="expected a suit"):
        Card("AS\ufe0f\ufe0f")
