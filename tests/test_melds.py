"""Melds and minimum deadwood: the single-hand API, checked against the golden
files and against a brute-force oracle built on ``check_meld``."""

from __future__ import annotations

import functools
import pickle
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import cardtable
from cardtable import (
    Card,
    Deadwood,
    InvalidConfigError,
    InvalidHandError,
    Meld,
    MeldRules,
    all_melds,
    best_discard,
    can_go_out,
    check_meld,
    legal_hits,
    meld_rules,
    min_deadwood,
    min_deadwood_many,
)

from .golden import GOLDEN_NAMES, GoldenFile

# ---------------------------------------------------------------------------
# Helpers


def hand_forms(text: str) -> list[Any]:
    """The same hand as text, list of str, list of Card, list of int codes and a tuple."""
    cards = cardtable.parse_hand(text)
    return [
        text,
        text.replace(" ", ","),
        [str(c) for c in cards],
        cards,
        [c.code for c in cards],
        tuple(cards),
    ]


def is_wild(card: Card, wild_rank: int | None) -> bool:
    return card.is_joker or (wild_rank is not None and card.rank == wild_rank)


def candidate_melds(cards: list[Card], rules: MeldRules, size: int) -> list[int]:
    """Masks of every subset of ``cards`` that ``check_meld`` accepts.

    Subsets whose non-wild cards share neither a rank nor a suit cannot be
    melds and are skipped without asking.
    """
    wild_rank = rules.wild_rank_for(size)
    n = len(cards)
    out: list[int] = []
    for mask in range(1 << n):
        if mask.bit_count() < 3:
            continue
        chosen = [cards[i] for i in range(n) if mask >> i & 1]
        plain = [c for c in chosen if not is_wild(c, wild_rank)]
        same_rank = len({c.rank for c in plain}) <= 1
        same_suit = len({c.suit for c in plain}) <= 1
        if not (same_rank or same_suit):
            continue
        if check_meld(chosen, rules=rules, hand_size=size) is not None:
            out.append(mask)
    return out


def oracle_deadwood(cards: list[Card], rules: MeldRules, size: int | None = None) -> int:
    """Minimum deadwood by exhaustive search over partitions into valid melds."""
    n = len(cards)
    size = n if size is None else size
    values = [rules.value(c, size) for c in cards]
    by_lowest: dict[int, list[int]] = {i: [] for i in range(n)}
    for m in candidate_melds(cards, rules, size):
        by_lowest[(m & -m).bit_length() - 1].append(m)

    @functools.cache
    def best(mask: int) -> int:
        if mask == 0:
            return 0
        low = (mask & -mask).bit_length() - 1
        result = values[low] + best(mask & ~(1 << low))
        for m in by_lowest[low]:
            if m & mask == m:
                result = min(result, best(mask & ~m))
        return result

    return best((1 << n) - 1)


def oracle_best_discard(cards: list[Card], rules: MeldRules) -> int:
    return min(
        oracle_deadwood(cards[:i] + cards[i + 1 :], rules, len(cards) - 1)
        for i in range(len(cards))
    )


def assert_valid_arrangement(
    hand: Sequence[Card], result: Deadwood, rules: MeldRules, size: int | None = None
) -> None:
    """The melds and unmatched cards partition the hand (less the discard), every
    meld is valid and the deadwood is the value of the unmatched cards."""
    size = len(hand) if size is None else size
    used: Counter[Card] = Counter()
    for meld in result.melds:
        assert len(meld) >= 3
        assert check_meld(list(meld.cards), rules=rules, hand_size=size) is not None, meld
        used.update(meld.cards)
    used.update(result.unmatched)
    if result.discard is not None:
        used[result.discard] += 1
    assert used == Counter(hand)
    assert result.deadwood == sum(rules.value(c, size) for c in result.unmatched)


def random_hand(rng: random.Random, deck: list[int], size: int) -> list[Card]:
    return [Card.from_code(c) for c in rng.sample(deck, size)]


def dense_hand(rng: random.Random, deck: list[int], size: int, jokers: int = 0) -> list[Card]:
    """A hand drawn from five consecutive ranks in three suits (plus jokers): many melds."""
    low = rng.randrange(0, 9)
    suits = rng.sample(range(4), 3)
    pool = [c for c in deck if c != 52 and c % 13 in range(low, low + 5) and c // 13 in suits]
    pool += [52] * min(jokers, deck.count(52))
    return [Card.from_code(c) for c in rng.sample(pool, min(size, len(pool)))]


ONE_DECK = list(range(52))
TWO_DECKS_JOKERS = list(range(52)) * 2 + [52] * 4


# ---------------------------------------------------------------------------
# min_deadwood: input forms and the result object


SAMPLE_HANDS = [
    "AS 2S 3S KD",
    "4S 3D 3H 5D 3C 4C 6S 5H 2C 4H",
    "7H 8H 9H TH 7C 7D KS",
    "AC 2C 3C 4C 5C 6C 7C 8C 9C TC",
    "9S KH JC 5S 4C 8S QC 4D 9D 2D",
    "",
]


@pytest.mark.parametrize("text", SAMPLE_HANDS)
def test_min_deadwood_same_for_every_input_form(text: str) -> None:
    expected = min_deadwood(text)
    for form in hand_forms(text):
        assert min_deadwood(form) == expected
        assert min_deadwood(form, "gin") == expected
        assert min_deadwood(form, rules=meld_rules("gin")) == expected
    assert min_deadwood(iter(cardtable.parse_hand(text))) == expected


def test_min_deadwood_result_fields() -> None:
    result = min_deadwood("AS 2S 3S KD", game="gin")
    assert result.deadwood == 10
    assert result.melds == [Meld("run", "AS 2S 3S")]
    assert result.melds[0].kind == "run"
    assert result.melds[0].cards == (Card("AS"), Card("2S"), Card("3S"))
    assert result.unmatched == (Card("KD"),)
    assert result.discard is None
    assert result.to_dict() == {
        "deadwood": 10,
        "melds": [["AS", "2S", "3S"]],
        "unmatched": ["KD"],
    }
    assert min_deadwood("").deadwood == 0
    assert min_deadwood("7H 8H 9H 7C 7D").deadwood == 14  # 7H cannot be in both melds


def test_deadwood_and_meld_objects_pickle_and_repr() -> None:
    result = best_discard("AS 3S 7S 5C 6C 7C 5D 2H 5H 6H 7H")
    namespace = {"Deadwood": Deadwood, "Meld": Meld, "Card": Card}
    assert eval(repr(result), namespace) == result
    assert pickle.loads(pickle.dumps(result)) == result
    for meld in result.melds:
        assert eval(repr(meld), namespace) == meld
        assert pickle.loads(pickle.dumps(meld)) == meld
    wild = check_meld("5H 3C 7H", game="three_thirteen", round=1)
    assert wild is not None
    assert repr(wild) == "Meld('run', '5H 3C 7H', substitutes=[1])"
    assert eval(repr(wild), namespace) == wild
    assert pickle.loads(pickle.dumps(wild)) == wild


@pytest.mark.parametrize(
    ("text", "options"),
    [
        ("4S 3D 3H 5D 3C 4C 6S 5H 2C 4H", {"game": "gin"}),
        ("QS KS AS 2S 3S", {"game": "tonk", "aces": "high"}),
        ("3H 3S 3D 9C 9C 9D JK", {"game": "three_thirteen", "jokers": True}),
        ("5H 3C 7H 8H 8H 9S JK JK KD", {"game": "three_thirteen", "jokers": True, "round": 1}),
        (
            "2C 3C 4C 5C 6C 7C 8C JK JK",
            {
                "game": "three_thirteen",
                "jokers": True,
                "max_wilds": "unlimited",
                "all_wild_melds": True,
            },
        ),
        ("AC QC KC AS 2S 3S 7D 7D", {"game": "three_thirteen", "aces": "high"}),
    ],
)
def test_arrangement_is_a_partition_of_valid_melds(text: str, options: dict[str, Any]) -> None:
    rules = meld_rules(**options)
    hand = cardtable.parse_hand(text)
    result = min_deadwood(hand, **options)
    assert result == min_deadwood(hand, rules=rules)
    assert_valid_arrangement(hand, result, rules)
    assert result.deadwood == oracle_deadwood(hand, rules)


# ---------------------------------------------------------------------------
# Golden files


def test_golden_file_list_is_complete(data_dir: Path) -> None:
    assert sorted(p.stem for p in data_dir.glob("*.jsonl")) == sorted(GOLDEN_NAMES)


@pytest.mark.parametrize("name", GOLDEN_NAMES)
def test_golden_deadwoods(name: str, golden_files: dict[str, GoldenFile]) -> None:
    golden = golden_files[name]
    options = golden.options
    rules = meld_rules(**options)
    assert golden.cases
    for case in golden.cases:
        hand = cardtable.parse_hand(case.hand)
        result = min_deadwood(case.hand, **options)
        assert result.deadwood == case.deadwood, (golden.path.name, case.line, case.hand)
        assert min_deadwood(hand, rules=rules) == result
        assert_valid_arrangement(hand, result, rules)


@pytest.mark.parametrize("name", GOLDEN_NAMES)
def test_golden_meld_sets_are_optimal_arrangements(
    name: str, golden_files: dict[str, GoldenFile]
) -> None:
    """The data's own one_best_meld_set is valid and reaches the recorded deadwood."""
    golden = golden_files[name]
    rules = meld_rules(**golden.options)
    for case in golden.cases:
        hand = Counter(cardtable.parse_hand(case.hand))
        size = sum(hand.values())
        for meld_text in case.one_best_meld_set:
            meld_cards = [Card(t) for t in meld_text]
            assert check_meld(meld_cards, rules=rules, hand_size=size) is not None, case
            hand.subtract(meld_cards)
        assert min(hand.values(), default=0) >= 0, case
        assert sum(rules.value(c, size) * k for c, k in hand.items()) == case.deadwood, case


# ---------------------------------------------------------------------------
# Brute-force oracle on random and meld-dense hands


ORACLE_CONFIGS: list[tuple[str, dict[str, Any], list[int], list[int], int]] = [
    # (id, options, deck, hand sizes, hands)
    ("gin-10", {"game": "gin"}, ONE_DECK, [10], 150),
    ("gin-7", {"game": "gin"}, ONE_DECK, [7], 150),
    ("tonk-aces-high", {"game": "tonk", "aces": "high"}, ONE_DECK, [5], 300),
    ("tonk-face-rank", {"game": "tonk", "face_values": "rank"}, ONE_DECK, [5], 150),
    (
        "tt-jokers",
        {"game": "three_thirteen", "jokers": True},
        TWO_DECKS_JOKERS,
        [3, 4, 5, 6, 7, 8, 9, 10],
        300,
    ),
    (
        "tt-unlimited-all-wild",
        {
            "game": "three_thirteen",
            "jokers": True,
            "max_wilds": "unlimited",
            "all_wild_melds": True,
        },
        TWO_DECKS_JOKERS,
        [3, 5, 7, 8, 9],
        150,
    ),
    (
        "tt-aces-high-rank",
        {"game": "three_thirteen", "aces": "high", "face_values": "rank"},
        TWO_DECKS_JOKERS[:104],
        [4, 6, 8, 10],
        120,
    ),
    (
        "tt-wild-2",
        {"game": "three_thirteen", "wild": 2, "jokers": True, "max_wilds": 2},
        TWO_DECKS_JOKERS,
        [6, 9],
        100,
    ),
]


@pytest.mark.parametrize(
    ("options", "deck", "sizes", "count"),
    [pytest.param(*c[1:], id=c[0]) for c in ORACLE_CONFIGS],
)
def test_min_deadwood_matches_brute_force(
    options: dict[str, Any], deck: list[int], sizes: list[int], count: int
) -> None:
    rules = meld_rules(**options)
    jokers = 2 if options.get("jokers") else 0
    rng = random.Random(repr(options))
    for i in range(count):
        size = sizes[i % len(sizes)]
        hand = random_hand(rng, deck, size) if i % 2 else dense_hand(rng, deck, size, jokers)
        result = min_deadwood(hand, rules=rules)
        assert result.deadwood == oracle_deadwood(hand, rules), cardtable.format_hand(hand)
        assert_valid_arrangement(hand, result, rules)


def test_thirteen_cards_with_six_wilds_match_brute_force() -> None:
    """Three Thirteen, 13 cards (kings wild) holding four kings and two jokers."""
    configs: list[dict[str, Any]] = [
        {"game": "three_thirteen", "jokers": True},
        {"game": "three_thirteen", "jokers": True, "max_wilds": "unlimited"},
    ]
    for options in configs:
        rules = meld_rules(**options)
        rng = random.Random(13)
        others = [c for c in TWO_DECKS_JOKERS if c != 52 and c % 13 != 12]
        for i in range(12):
            rest = random_hand(rng, others, 7) if i % 2 else dense_hand(rng, others, 7)
            hand = cardtable.parse_hand("KC KD KH KS JK JK") + rest
            result = min_deadwood(hand, rules=rules)
            assert result.deadwood == oracle_deadwood(hand, rules), cardtable.format_hand(hand)
            assert_valid_arrangement(hand, result, rules)


@pytest.mark.parametrize(
    ("options", "deck", "size", "count"),
    [
        pytest.param({"game": "gin"}, ONE_DECK, 11, 30, id="gin-11"),
        pytest.param({"game": "tonk", "aces": "high"}, ONE_DECK, 6, 150, id="tonk-6"),
        pytest.param(
            {"game": "three_thirteen", "jokers": True}, TWO_DECKS_JOKERS, 7, 80, id="tt-7"
        ),
    ],
)
def test_best_discard_matches_brute_force(
    options: dict[str, Any], deck: list[int], size: int, count: int
) -> None:
    rules = meld_rules(**options)
    rng = random.Random(size)
    for i in range(count):
        hand = random_hand(rng, deck, size) if i % 2 else dense_hand(rng, deck, size, 2)
        result = best_discard(hand, rules=rules)
        assert result.deadwood == oracle_best_discard(hand, rules), cardtable.format_hand(hand)
        assert result.discard is not None
        assert result.discard in hand
        assert_valid_arrangement(hand, result, rules, size - 1)
        rest = list(hand)
        rest.remove(result.discard)
        assert min_deadwood(rest, rules=rules).deadwood == result.deadwood
        assert can_go_out(hand, rules=rules) == (result.deadwood == 0)


# ---------------------------------------------------------------------------
# best_discard, can_go_out


def test_best_discard_searches_every_discard() -> None:
    """The peers' trap: with 11 cards, two arrangements tie at 18 (two runs, or
    two sets). Dropping the biggest leftover of the sets arrangement gives 12;
    the discard searched as part of the solve gives 11 (discard 7S)."""
    hand = "AS 3S 7S 5C 6C 7C 5D 2H 5H 6H 7H"
    result = best_discard(hand, game="gin")
    assert result.deadwood == 11
    assert result.discard == Card("7S")
    assert result.to_dict()["discard"] == "7S"
    rest = [c for c in cardtable.parse_hand(hand) if c != Card("7S")]
    assert min_deadwood(rest, game="gin").deadwood == 11
    # The trap: an optimal 11-card arrangement whose largest leftover is a 6.
    gin = meld_rules("gin")
    sets = [cardtable.parse_hand("5C 5D 5H"), cardtable.parse_hand("7C 7H 7S")]
    assert all(check_meld(m, rules=gin) is not None for m in sets)
    leftover = Counter(cardtable.parse_hand(hand)) - Counter(sets[0] + sets[1])
    values = sorted(gin.value(c) for c in leftover.elements())
    assert sum(values) == min_deadwood(hand, game="gin").deadwood == 18
    assert sum(values) - values[-1] == 12
    assert best_discard(cardtable.parse_hand(hand), rules=gin) == result


def test_best_discard_errors() -> None:
    with pytest.raises(InvalidHandError):
        best_discard("")
    single = best_discard("AS")
    assert single.deadwood == 0
    assert single.discard == Card("AS")


def test_can_go_out() -> None:
    assert can_go_out("AS 2S 3S 7H 7C 7D KD", game="gin")
    assert not can_go_out("AS 2S 3S 7H 7C 7D KD QD", game="gin")
    assert can_go_out("7H 8H 9H 4C", game="tonk")
    # Three Thirteen, 4 cards -> 3 after the discard -> threes wild: 3C fills 4H 5H ?H
    assert can_go_out("4H 5H 3C 9C", game="three_thirteen")
    assert not can_go_out("4H 5H 8C 9C", game="three_thirteen")
    assert can_go_out("4H 5H JK 9C", game="three_thirteen", jokers=True)


# ---------------------------------------------------------------------------
# check_meld


@pytest.mark.parametrize(
    ("cards", "low", "high"),
    [
        ("AS 2S 3S", True, True),
        ("QS KS AS", False, True),
        ("JS QS KS AS", False, True),
        ("KS AS 2S", False, False),
        ("QS KS AS 2S", False, False),
        ("3H 4H 5H", True, True),
        ("5H 3H 4H", True, True),
        ("3H 4H 6H", False, False),
        ("3H 4H 5S", False, False),
        ("7H 7C 7S", True, True),
        ("7H 7C 7S 7D", True, True),
        ("7H 7C", False, False),
        ("7H 8H", False, False),
        ("AC AD AH AS", True, True),
    ],
)
def test_check_meld_aces(cards: str, low: bool, high: bool) -> None:
    assert (check_meld(cards) is not None) == low
    assert (check_meld(cards, game="tonk") is not None) == low
    assert (check_meld(cards, game="tonk", aces="high") is not None) == high
    assert (check_meld(cards, rules=meld_rules("gin", aces="high")) is not None) == high


def test_check_meld_reading() -> None:
    run = check_meld("5H 3H 4H")
    assert run is not None
    assert run.kind == "run"
    assert run.cards == (Card("3H"), Card("4H"), Card("5H"))
    assert run.suit == "H"
    assert run.rank == 3
    assert run.substitutes == []
    book = check_meld("7S 7C 7H")
    assert book is not None
    assert book.kind == "set"
    assert book.rank == 7
    assert sorted(book.cards) == [Card("7C"), Card("7H"), Card("7S")]
    high = check_meld("AS QS KS", aces="high")
    assert high is not None
    assert high.rank == 12
    assert high.cards == (Card("QS"), Card("KS"), Card("AS"))


def test_check_meld_three_thirteen_wild_rank() -> None:
    # Round 1: threes are wild. Threes used as themselves form a natural book.
    natural = check_meld("3H 3S 3D", game="three_thirteen", round=1)
    assert natural is not None
    assert natural.kind == "set"
    assert natural.substitutes == []
    # One substitute: 3C stands for 6H.
    run = check_meld("5H 3C 7H", game="three_thirteen", round=1)
    assert run is not None
    assert run.kind == "run"
    assert run.substitutes == [1]
    assert run.represents(1) == Card("6H")
    assert run.naturals == (Card("5H"), Card("7H"))
    assert run.symbols() == "5♥ 3♣* 7♥"
    # The same with the hand size instead of the round (3 cards: threes wild).
    assert check_meld("5H 3C 7H", game="three_thirteen", hand_size=3) == run
    assert check_meld("5H 3C 7H", game="three_thirteen", wild=3) == run
    # Two substitutes exceed the default limit of one per meld.
    assert check_meld("5H 3C 3D", game="three_thirteen", round=1) is None
    assert check_meld("5H 3C 3D", game="three_thirteen", round=1, max_wilds=2) is not None
    assert check_meld("5H 3C 3D", game="three_thirteen", round=1, max_wilds="unlimited")
    # Not wild in another round.
    assert check_meld("5H 3C 7H", game="three_thirteen", round=2) is None
    # Without the hand size the wild rank is unknown.
    with pytest.raises(InvalidConfigError):
        check_meld("5H 3C 7H", game="three_thirteen")


def test_check_meld_jokers_and_all_wild() -> None:
    tt: dict[str, Any] = {"game": "three_thirteen", "jokers": True, "round": 5}
    assert check_meld("9C JK JC", **tt) is not None
    assert check_meld("9C 9D JK", **tt) is not None
    assert check_meld("9C JK JK", **tt) is None  # two substitutes
    assert check_meld("JK JK JK", **tt) is None
    all_wild = check_meld("JK JK JK", **tt, all_wild_melds=True)
    assert all_wild is not None
    assert all_wild.rank is None


def test_check_meld_duplicates_with_two_decks() -> None:
    book = check_meld("7H 7C 7C", game="three_thirteen", round=1)
    assert book is not None
    assert book.kind == "set"
    assert check_meld("7C 8C 8C", game="three_thirteen", round=1) is None
    # Four copies of 7C need four decks (TT-1.3): two decks hold only two.
    assert check_meld("7C 7C 7C 7C", game="three_thirteen", round=1, decks=4) is not None
    with pytest.raises(InvalidHandError, match="3 copies of 7C"):
        check_meld("7C 7C 7C 7C", game="three_thirteen", round=1, decks=2)


def test_check_meld_rejects_duplicates_with_one_deck() -> None:
    """One deck holds one 7C: '7H 7C 7C' is no gin meld. Either answer is fine:
    no meld (None) or the InvalidHandError that min_deadwood and all_melds raise."""
    with pytest.raises(InvalidHandError):
        min_deadwood("7H 7C 7C", game="gin")
    with pytest.raises(InvalidHandError):
        all_melds("7H 7C 7C", game="gin")
    try:
        meld = check_meld("7H 7C 7C", game="gin")
    except InvalidHandError:
        return
    assert meld is None, f"check_meld accepted a meld with a duplicate card: {meld!r}"


# ---------------------------------------------------------------------------
# all_melds and legal_hits


def test_all_melds_lists_every_sub_meld() -> None:
    melds = all_melds("3S 4S 5S 6S 6H 6D KC")
    assert [str(m) for m in melds] == ["6D 6H 6S", "3S 4S 5S", "4S 5S 6S", "3S 4S 5S 6S"]
    assert [m.kind for m in melds] == ["set", "run", "run", "run"]


@pytest.mark.parametrize(
    "options",
    [
        {"game": "gin"},
        {"game": "tonk", "aces": "high"},
        {"game": "three_thirteen", "jokers": True},
    ],
    ids=["gin", "tonk-high", "tt-jokers"],
)
def test_all_melds_equals_brute_force(options: dict[str, Any]) -> None:
    rules = meld_rules(**options)
    deck = TWO_DECKS_JOKERS if options["game"] == "three_thirteen" else ONE_DECK
    rng = random.Random(11)
    for i in range(20):
        size = 5 + i % 4
        hand = dense_hand(rng, deck, size, 2)
        melds = all_melds(hand, rules=rules)
        keys = [tuple(sorted(m.cards)) for m in melds]
        assert len(set(keys)) == len(keys), "all_melds repeats a meld"
        expected = {
            tuple(sorted(hand[j] for j in range(len(hand)) if mask >> j & 1))
            for mask in candidate_melds(hand, rules, len(hand))
        }
        assert set(keys) == expected, cardtable.format_hand(hand)
        for meld in melds:
            assert not Counter(meld.cards) - Counter(hand)


def test_legal_hits() -> None:
    run = check_meld("5H 6H 7H")
    book = check_meld("9C 9D 9S")
    assert run is not None
    assert book is not None
    hits = legal_hits("4H 8H 9H 2C 3H", [run, book], game="tonk")
    assert hits == [(Card("4H"), 0), (Card("8H"), 0), (Card("9H"), 1)]
    assert legal_hits("2C 3H KD", [run, book]) == []
    # Aces high lets an ace hit J-Q-K; K-A-2 never.
    top = check_meld("JS QS KS")
    assert top is not None
    assert legal_hits("AS", [top]) == []
    assert legal_hits("AS", [top], aces="high") == [(Card("AS"), 0)]
    low = check_meld("AS 2S 3S")
    assert low is not None
    assert legal_hits("KS", [low], aces="high") == []


def test_legal_hits_with_wilds() -> None:
    run = check_meld("5H 6H 7H", game="three_thirteen", round=1)
    assert run is not None
    # Identical cards (two decks) are listed once; the wild 3C may hit as a substitute.
    hits = legal_hits("8H 8H 3C KD", [run], game="three_thirteen", round=1)
    assert hits == [(Card("8H"), 0), (Card("3C"), 0)]
    assert legal_hits("8H 3C", [run], game="three_thirteen", hand_size=3) == hits
    with pytest.raises(InvalidConfigError):
        legal_hits("8H", [run], game="three_thirteen")


# ---------------------------------------------------------------------------
# MeldRules


def test_presets() -> None:
    gin = MeldRules("gin")
    # `gin` is gin rummy's meld rules (GR-1.2): the game names them.
    assert (gin.game, gin.decks, gin.jokers, gin.aces) == ("gin_rummy", 1, 0, "low")
    assert MeldRules("gin_rummy") == gin
    assert gin.wild is None
    assert not gin.wild_by_hand_size
    assert gin.face_values == "ten"
    assert gin.ace_value == 1
    assert MeldRules() == gin
    tonk = MeldRules("tonk")
    assert tonk.game == "tonk"
    assert tonk.decks == 1
    tt = MeldRules("three_thirteen")
    assert (tt.decks, tt.jokers, tt.max_wilds) == (2, 0, 1)
    assert tt.wild_by_hand_size
    assert tt.wild is None
    assert tt.wild_value == 15
    assert tt.joker_value == 20
    assert MeldRules("three-thirteen") == tt
    assert MeldRules("three_thirteen", jokers=True).jokers == 4
    assert MeldRules("three_thirteen", jokers=True, decks=3).jokers == 6
    assert MeldRules("three_thirteen", max_wilds="unlimited").max_wilds is None
    assert MeldRules("three_thirteen", round=5).wild == 7
    assert MeldRules("three_thirteen", wild="K").wild == 13
    assert MeldRules("three_thirteen", wild=10).wild == 10
    assert MeldRules("three_thirteen", aces="high").ace_value == 15
    assert MeldRules("tonk", aces="high").ace_value == 1


def test_values() -> None:
    gin = MeldRules("gin")
    assert [gin.value(c) for c in ("AS", "7D", "TC", "JH", "QS", "KD")] == [1, 7, 10, 10, 10, 10]
    rank = MeldRules("gin", face_values="rank")
    assert [rank.value(c) for c in ("JH", "QS", "KD")] == [11, 12, 13]
    assert min_deadwood("KD QD 2C", game="gin", face_values="rank").deadwood == 27
    tt = MeldRules("three_thirteen", jokers=True)
    assert tt.value("5C", hand_size=5) == 15  # wild with five cards
    assert tt.value("5C", hand_size=6) == 5
    assert tt.value("JK", hand_size=6) == 20
    # Five cards: fives are wild, 5D completes the nines.
    assert min_deadwood("4C 5D 9H 9S KD", game="three_thirteen").deadwood == 14
    assert min_deadwood("AS KD 2C", game="three_thirteen", aces="high").deadwood == 27


@pytest.mark.parametrize(
    ("game", "options", "match"),
    [
        ("tonk", {"jokers": True}, "jokers"),
        ("tonk", {"wild": "5"}, "wild"),
        ("tonk", {"round": 3}, "round"),
        ("tonk", {"max_wilds": 1}, "max_wilds"),
        ("tonk", {"all_wild_melds": True}, "all_wild_melds"),
        ("gin", {"jokers": True}, "jokers"),
        ("gin", {"decks": 2}, "deck"),
        ("gin", {"wild": 7}, "wild"),
        ("three_thirteen", {"wild": 5, "round": 3}, "wild or round"),
        ("three_thirteen", {"max_wilds": 0}, "max_wilds"),
        ("three_thirteen", {"max_wilds": "0"}, "max_wilds"),
        ("three_thirteen", {"max_wilds": -1}, "max_wilds"),
        ("three_thirteen", {"round": 0}, "round"),
        ("three_thirteen", {"round": 14}, "round"),
        ("three_thirteen", {"round": -3}, "round"),
        ("three_thirteen", {"wild": 0}, "wild"),
        ("three_thirteen", {"wild": 14}, "wild"),
        ("three_thirteen", {"wild": "Z"}, "Z"),
        ("three_thirteen", {"decks": 0}, "decks"),
        ("three_thirteen", {"decks": 9}, "decks"),
        ("three_thirteen", {"decks": 300}, "decks"),
        ("three_thirteen", {"aces": "middle"}, "aces"),
        ("three_thirteen", {"face_values": "eleven"}, "face_values"),
        ("three_thirteen", {"jokers": "maybe"}, "jokers"),
        ("rummy", {}, "unknown game"),
        ("", {}, "unknown game"),
    ],
)
def test_invalid_rules(game: str, options: dict[str, Any], match: str) -> None:
    with pytest.raises(InvalidConfigError, match=match):
        MeldRules(game, **options)
    with pytest.raises(InvalidConfigError, match=match):
        min_deadwood("AS 2S 3S", game, **options)
    with pytest.raises(InvalidConfigError, match=match):
        meld_rules(game, **options)


def test_meld_rule_errors_name_their_option_as_game_options_do() -> None:
    # One schema for the meld rules: the error names the option and the rule.
    with pytest.raises(InvalidConfigError) as caught:
        MeldRules("three_thirteen", decks=9)
    assert caught.value.option == "decks"
    assert "1 to 8" in str(caught.value)
    assert "TT-1.2" in str(caught.value)
    with pytest.raises(InvalidConfigError) as caught:
        MeldRules("gin", jokerz=True)
    assert caught.value.option == "jokerz"
    # Text spellings are read as in every schema.
    assert MeldRules("three_thirteen", jokers="yes", wild="q", max_wilds="Unlimited").jokers == 4


def test_unknown_option_is_a_config_error() -> None:
    """The documented contract: unknown options raise InvalidConfigError."""
    with pytest.raises(InvalidConfigError):
        MeldRules("gin", jokerz=True)
    with pytest.raises(InvalidConfigError):
        min_deadwood("AS 2S 3S", game="gin", jokerz=True)


def test_rules_and_game_options_conflict() -> None:
    rules = meld_rules("gin")
    with pytest.raises(InvalidConfigError, match="not both"):
        min_deadwood("AS 2S 3S", "gin", rules=rules)
    with pytest.raises(InvalidConfigError, match="not both"):
        min_deadwood("AS 2S 3S", rules=rules, aces="high")
    with pytest.raises(InvalidConfigError, match="not both"):
        best_discard("AS 2S 3S KD", "tonk", rules=rules)
    with pytest.raises(InvalidConfigError, match="not both"):
        check_meld("AS 2S 3S", rules=rules, aces="high")
    with pytest.raises(InvalidConfigError, match="not both"):
        cardtable.min_deadwood_many(["AS 2S 3S"], "gin", rules=rules)


@pytest.mark.parametrize(
    "rules",
    [
        MeldRules("gin"),
        MeldRules("tonk", aces="high"),
        MeldRules("three_thirteen"),
        MeldRules("three_thirteen", round=7, jokers=True),
        MeldRules("three_thirteen", wild="Q", max_wilds="unlimited", all_wild_melds=True),
        MeldRules("three_thirteen", aces="high", face_values="rank", decks=3, max_wilds=2),
    ],
)
def test_rules_repr_is_evaluable_and_pickles(rules: MeldRules) -> None:
    rebuilt = eval(repr(rules), {"MeldRules": MeldRules})
    assert rebuilt == rules
    assert repr(rebuilt) == repr(rules)
    assert hash(rebuilt) == hash(rules)
    assert rebuilt.options() == rules.options()
    back = pickle.loads(pickle.dumps(rules))
    assert back == rules
    assert back.options() == rules.options()
    assert MeldRules(rules.game, **rules.options()) == rules


def test_rules_equality() -> None:
    assert MeldRules("gin") != MeldRules("tonk")
    assert MeldRules("gin") != MeldRules("gin", aces="high")
    assert MeldRules("three_thirteen", round=1) == MeldRules("three_thirteen", wild=3)
    assert len({MeldRules("gin"), MeldRules("gin"), MeldRules("tonk")}) == 2


def test_meld_rules_cache() -> None:
    first = meld_rules("three_thirteen", jokers=True, max_wilds="unlimited")
    again = meld_rules("three_thirteen", max_wilds="unlimited", jokers=True)
    assert first is again
    assert first == MeldRules("three_thirteen", jokers=True, max_wilds="unlimited")
    assert meld_rules("gin") is meld_rules("gin")
    assert meld_rules("gin") == MeldRules("gin")
    assert meld_rules() == MeldRules("gin")
    assert meld_rules("tonk") != meld_rules("gin")


# ---------------------------------------------------------------------------
# Hand sizes


@pytest.mark.parametrize(("size", "wild"), [*[(n, n) for n in range(3, 14)], (14, 1), (15, 2)])
def test_three_thirteen_wild_by_hand_size(size: int, wild: int) -> None:
    rules = MeldRules("three_thirteen")
    assert rules.wild_rank_for(size) == wild
    # A hand of `size` cards: a natural card of the wild rank costs 15 when unmatched.
    wild_card = Card.from_code(wild - 1)  # the club of the wild rank
    assert rules.value(wild_card, size) == 15
    filler = [c for c in range(13, 52) if c % 13 != wild - 1][: size - 1]
    hand = [wild_card, *(Card.from_code(c) for c in filler)]
    result = min_deadwood(hand, game="three_thirteen")
    assert_valid_arrangement(hand, result, rules)


@pytest.mark.parametrize("size", [1, 2, 16])
def test_three_thirteen_hand_size_out_of_range(size: int) -> None:
    rules = MeldRules("three_thirteen")
    hand = [Card.from_code(c) for c in range(size)]
    with pytest.raises(InvalidHandError, match="3 to 15"):
        rules.wild_rank_for(size)
    with pytest.raises(InvalidHandError, match="3 to 15"):
        min_deadwood(hand, game="three_thirteen")
    # With the wild rank given explicitly the size no longer matters (up to 16).
    assert min_deadwood(hand, game="three_thirteen", wild=5).deadwood >= 0


@pytest.mark.parametrize("game", ["gin", "tonk", "three_thirteen"])
@pytest.mark.parametrize("hand", [[], "", " , ,, "])
def test_an_empty_hand_has_deadwood_0_under_every_preset(game: str, hand: Any) -> None:
    """No wild rank is needed for no cards, so Three Thirteen agrees with the others."""
    result = min_deadwood(hand, game=game)
    assert (result.deadwood, result.melds, result.unmatched) == (0, [], ())
    assert min_deadwood_many([hand], game=game).deadwoods == [0]
    with pytest.raises(InvalidHandError, match="nothing to discard"):
        best_discard(hand, game=game)
    with pytest.raises(InvalidHandError, match="nothing to discard"):
        can_go_out(hand, game=game)


def test_hands_over_sixteen_cards_are_rejected() -> None:
    seventeen = [Card.from_code(c) for c in range(17)]
    with pytest.raises(InvalidHandError, match="17 cards"):
        min_deadwood(seventeen)
    with pytest.raises(InvalidHandError, match="17 cards"):
        min_deadwood(seventeen, game="three_thirteen", round=3)
    assert min_deadwood(seventeen[:16]).deadwood == 0
    assert best_discard(seventeen).deadwood == 0
    with pytest.raises(InvalidHandError, match="18 cards"):
        best_discard([Card.from_code(c) for c in range(18)])


def test_hands_that_break_the_deck() -> None:
    with pytest.raises(InvalidHandError, match="duplicate"):
        min_deadwood("AS AS 2D")
    with pytest.raises(InvalidHandError, match="joker"):
        min_deadwood("AS JK 2D", game="tonk")
    with pytest.raises(InvalidHandError, match="joker"):
        min_deadwood("AS JK 2D", game="three_thirteen")
    with pytest.raises(InvalidHandError):
        min_deadwood("AS AS AS 2D", game="three_thirteen")
    with pytest.raises(InvalidHandError):
        min_deadwood("JK JK JK JK JK 2D", game="three_thirteen", jokers=True)
    assert min_deadwood("AS AS 2D", game="three_thirteen").deadwood == 4
