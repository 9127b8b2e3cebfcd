"""min_deadwood_many: lists and 2-D code arrays, any thread count, equal to the
serial calls element by element (deadwood and arrangement)."""

from __future__ import annotations

import os
import random
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import cardtable
from cardtable import (
    Card,
    Deadwood,
    DeadwoodBatch,
    InvalidConfigError,
    InvalidHandError,
    best_discard,
    meld_rules,
    min_deadwood,
    min_deadwood_many,
)

ONE_DECK = list(range(52))
TWO_DECKS_JOKERS = list(range(52)) * 2 + [52] * 4

THREADS = [1, 2, None]


def random_hands(seed: int, deck: list[int], sizes: list[int], count: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [rng.sample(deck, sizes[i % len(sizes)]) for i in range(count)]


def padded(hands: list[list[int]], dtype: npt.DTypeLike, width: int | None = None) -> Any:
    """A 2-D array of codes, rows padded with -1 (signed dtypes only)."""
    cols = width if width is not None else max((len(h) for h in hands), default=0)
    out = np.full((len(hands), cols), -1, dtype=np.int64)
    for i, h in enumerate(hands):
        out[i, : len(h)] = h
    return out.astype(dtype)


def serial(hands: list[Any], **options: Any) -> list[Deadwood]:
    return [min_deadwood(h, **options) for h in hands]


def assert_batch_equals(batch: DeadwoodBatch, expected: list[Deadwood]) -> None:
    assert len(batch) == len(expected)
    assert batch.deadwoods == [d.deadwood for d in expected]
    assert batch.errors == {}
    # The stubs declare no __iter__: iteration goes through __getitem__ (via iter()).
    items = list(iter(batch))
    assert len(items) == len(expected)
    for i, (got, want) in enumerate(zip(items, expected, strict=True)):
        assert got == want, (i, got, want)


# ---------------------------------------------------------------------------
# Serial vs batch on thousands of random hands


BATCH_CONFIGS = [
    pytest.param({"game": "gin"}, ONE_DECK, [5], 5000, id="gin-5"),
    pytest.param({"game": "gin"}, ONE_DECK, [10], 5000, id="gin-10"),
    pytest.param({"game": "tonk", "aces": "high"}, ONE_DECK, [5], 3000, id="tonk-aces-high"),
    pytest.param(
        {"game": "three_thirteen", "jokers": True},
        TWO_DECKS_JOKERS,
        list(range(3, 14)),
        5000,
        id="three-thirteen-jokers",
    ),
]


@pytest.mark.parametrize(("options", "deck", "sizes", "count"), BATCH_CONFIGS)
def test_batch_equals_serial(
    options: dict[str, Any], deck: list[int], sizes: list[int], count: int
) -> None:
    hands = random_hands(count + len(sizes), deck, sizes, count)
    expected = serial(hands, **options)
    rules = meld_rules(**options)
    # A list of lists of codes, for every thread count.
    for threads in THREADS:
        batch = min_deadwood_many(hands, rules=rules, threads=threads)
        assert batch.deadwoods == [d.deadwood for d in expected], threads
    assert_batch_equals(min_deadwood_many(hands, rules=rules, threads=2), expected)
    # The same hands as text and as a padded int16 array.
    texts = [cardtable.format_hand(h) for h in hands]
    assert_batch_equals(min_deadwood_many(texts, **options), expected)
    array = padded(hands, np.int16)
    for threads in THREADS:
        by_array = min_deadwood_many(array, rules=rules, threads=threads)
        assert by_array.deadwoods == [d.deadwood for d in expected], threads
    assert_batch_equals(min_deadwood_many(array, rules=rules), expected)


def test_short_batches_solved_on_the_calling_thread_equal_long_ones() -> None:
    """A short list, tuple or array (up to 256 hands) is solved on the
    calling thread, a longer one by the pool: either way each hand gets the
    same deadwood, arrangement and error message, in order."""
    rng = random.Random(5)
    hands: list[Any] = [rng.sample(ONE_DECK, 1 + i % 12) for i in range(600)]
    for i in (3, 255, 256, 400):
        hands[i] = BAD_HANDS[(i % 3) + 3]
    whole = min_deadwood_many(hands, errors="collect", threads=2)
    for start, stop in ((0, 1), (0, 10), (0, 256), (0, 257), (250, 506), (256, 600)):
        part = hands[start:stop]
        shifted = {i - start: e for i, e in whole.errors.items() if start <= i < stop}
        for form in (part, tuple(part)):
            short = min_deadwood_many(form, errors="collect")
            assert short.deadwoods == whole.deadwoods[start:stop], (start, stop)
            assert short.errors == shifted
            assert list(short) == list(whole[start:stop])
        good = [h for h in part if isinstance(h, list) and max(h) < 52 and len(set(h)) == len(h)]
        array = padded(good, np.int8, width=12)
        by_array = min_deadwood_many(array)
        assert by_array.deadwoods == [min_deadwood(h).deadwood for h in good]
    with pytest.raises(InvalidHandError, match=r"^hand 3: "):
        min_deadwood_many(hands[:10])


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64])
def test_signed_arrays_with_padding(dtype: npt.DTypeLike) -> None:
    hands = random_hands(5, ONE_DECK, [3, 5, 7, 10], 400)
    expected = serial(hands)
    array = padded(hands, dtype, width=12)
    # Padding may sit anywhere in a row: move it to the front for half the rows.
    array[::2] = array[::2, ::-1]
    assert array.dtype == np.dtype(dtype)
    for threads in THREADS:
        batch = min_deadwood_many(array, game="gin", threads=threads)
        assert batch.deadwoods == [d.deadwood for d in expected]
    assert_batch_equals(
        min_deadwood_many(array, game="gin"),
        [min_deadwood([c for c in row if c >= 0]) for row in array.tolist()],
    )


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32, np.uint64])
def test_unsigned_arrays(dtype: npt.DTypeLike) -> None:
    """Unsigned arrays cannot hold the -1 padding: full rows of one size."""
    hands = random_hands(6, ONE_DECK, [10], 500)
    expected = serial(hands)
    array = np.array(hands, dtype=dtype)
    for threads in THREADS:
        batch = min_deadwood_many(array, game="gin", threads=threads)
        assert batch.deadwoods == [d.deadwood for d in expected]
    assert_batch_equals(min_deadwood_many(array, rules=meld_rules("gin")), expected)


def test_array_layouts() -> None:
    hands = random_hands(7, ONE_DECK, [6], 300)
    expected = [d.deadwood for d in serial(hands)]
    array = np.array(hands, dtype=np.int64)
    assert min_deadwood_many(np.asfortranarray(array)).deadwoods == expected
    assert min_deadwood_many(array[::3]).deadwoods == expected[::3]
    assert min_deadwood_many(array[:, ::-1]).deadwoods == expected
    assert min_deadwood_many(np.full((4, 5), -1, dtype=np.int32)).deadwoods == [0, 0, 0, 0]
    assert len(min_deadwood_many(np.zeros((0, 5), dtype=np.int64))) == 0


def test_array_of_empty_rows_keeps_one_result_per_row() -> None:
    """Shape (3, 0): three empty hands, so three results (each deadwood 0)."""
    batch = min_deadwood_many(np.zeros((3, 0), dtype=np.int64))
    assert batch.deadwoods == [0, 0, 0]
    assert len(batch) == 3


def test_big_endian_array() -> None:
    """Card codes in a non-native byte order are still the same codes."""
    hands = random_hands(8, ONE_DECK, [5], 50)
    expected = [d.deadwood for d in serial(hands)]
    swapped = np.array(hands, dtype=np.dtype(np.int32).newbyteorder())
    assert swapped.tolist() == hands
    assert min_deadwood_many(swapped).deadwoods == expected


def test_list_input_forms() -> None:
    hands = random_hands(9, ONE_DECK, [4, 8], 200)
    expected = serial(hands)
    forms: list[Any] = [
        hands,
        [cardtable.format_hand(h) for h in hands],
        [",".join(str(Card.from_code(c)) for c in h) for h in hands],
        [[Card.from_code(c) for c in h] for h in hands],
        [[str(Card.from_code(c)).lower() for c in h] for h in hands],
        tuple(tuple(h) for h in hands),
        (h for h in hands),
    ]
    for form in forms:
        assert_batch_equals(min_deadwood_many(form), expected)
    assert len(min_deadwood_many([])) == 0
    assert min_deadwood_many([[], ""]).deadwoods == [0, 0]


def test_lists_longer_than_a_chunk_keep_order_and_errors_in_every_form() -> None:
    # Lists are gathered and solved in chunks of 4,096 hands that overlap:
    # results and error indexes must not depend on where a chunk ends.
    hands = random_hands(17, ONE_DECK, [3, 10], 10_000)
    bad: dict[int, Any] = {0: "AS ZZ", 4095: [0, 99], 4096: "QD QD", 9999: ["AS", "1S"]}
    for form in (
        lambda h: cardtable.format_hand(h),
        lambda h: [str(Card.from_code(c)) for c in h],
        lambda h: list(h),
        lambda h: [Card.from_code(c) for c in h],
    ):
        given: list[Any] = [form(h) for h in hands]
        for i, b in bad.items():
            given[i] = b
        batch = min_deadwood_many(given, errors="collect", threads=2)
        assert sorted(batch.errors) == sorted(bad)
        for i, b in bad.items():
            with pytest.raises((cardtable.InvalidCardError, InvalidHandError)) as info:
                min_deadwood(b)
            assert batch.errors[i] == str(info.value)
        good = [i for i in range(len(hands)) if i not in bad]
        expected = [min_deadwood(hands[i]).deadwood for i in good]
        assert [batch.deadwoods[i] for i in good] == expected
        # Each hand's arrangement is read back from its chunk.
        for i in (1, 4094, 4097, 8191, 8192, 9998):
            serial, item = min_deadwood(hands[i]), batch[i]
            assert item is not None
            assert (item.melds, item.unmatched) == (serial.melds, serial.unmatched)
        with pytest.raises(InvalidHandError, match=r"^hand 0: "):
            min_deadwood_many(given)


def test_mixed_card_forms_in_one_list() -> None:
    class Code:
        def __init__(self, code: int) -> None:
            self.code = code

        def __index__(self) -> int:
            return self.code

    hand: list[Any] = ["10♦", "JD", Card.from_code(13 + 11), np.int16(13 + 12), Code(13 + 8), True]
    assert min_deadwood_many([hand, tuple(hand)]).deadwoods == [min_deadwood(hand).deadwood] * 2
    assert min_deadwood_many([hand], errors="collect").errors == {}


def test_a_card_conversion_that_empties_its_list_is_safe() -> None:
    # A fallback conversion runs Python code, which may change the very
    # list being read: the read must stop where the list now ends.
    hand: list[Any] = ["AS", "2S"]

    class Shrinking:
        def __index__(self) -> int:
            hand.clear()
            return 2

    hand.append(Shrinking())
    hand.append("4S")
    batch = min_deadwood_many([hand], errors="collect")
    assert batch.deadwoods == [min_deadwood(["AS", "2S", 2]).deadwood]


def test_a_hand_conversion_that_empties_the_batch_is_safe() -> None:
    # A hand of any other kind than str, list or tuple is converted by
    # Python code, which may change the batch itself: the batch is read one
    # hand at a time, and reading stops where the batch now ends.
    batch: list[Any] = ["AS 2S", [13, 14]]

    class Emptying:
        def __iter__(self) -> Any:
            batch.clear()
            return iter(["3S", "4S"])

    batch += [Emptying(), "5S 6S", [0, 1], Emptying()]
    result = min_deadwood_many(batch, errors="collect")
    hands: list[Any] = [["AS", "2S"], [13, 14], ["3S", "4S"]]
    assert result.deadwoods == [min_deadwood(h).deadwood for h in hands]
    assert batch == []


def test_lists_longer_than_a_gathered_chunk_mix_every_kind_of_hand() -> None:
    # A list is gathered in chunks of 4,096 hands, solved by the worker
    # threads while the next is gathered; every kind of hand (other types,
    # bad or non-ASCII tokens, wrong sizes) must get the serial call's
    # result, in its place, whatever the thread count.
    rng = random.Random(23)

    class Text(str):
        pass

    kinds: list[Any] = [
        lambda h: cardtable.format_hand(h),
        lambda h: [str(Card.from_code(c)) for c in h],
        lambda h: [str(Card.from_code(c)).lower() for c in h],
        lambda h: list(h),
        lambda h: [Card.from_code(c) for c in h],
        lambda h: tuple(h),
        lambda h: [Text(Card.from_code(c)) for c in h],
        lambda h: " ".join(Card.from_code(c).symbol() for c in h),
        lambda h: [*h, 99],
        lambda h: [*h, "ZZ"],
        lambda h: list(h) * 3,
        lambda h: np.array(h, dtype=np.int64),
    ]
    n = 70_000
    hands: list[Any] = []
    for _ in range(n):
        codes = rng.sample(range(52), rng.randint(0, 10))
        # Mostly the common forms, some of every other kind.
        k = rng.randrange(len(kinds)) if rng.random() < 0.05 else rng.randrange(5)
        hands.append(kinds[k](codes))
    serial: list[int | None] = []
    for h in hands:
        try:
            serial.append(min_deadwood(h).deadwood)
        except (cardtable.InvalidCardError, InvalidHandError):
            serial.append(None)
    for threads in (1, 2):
        batch = min_deadwood_many(hands, errors="collect", threads=threads)
        assert batch.deadwoods == serial
        assert sorted(batch.errors) == [i for i, d in enumerate(serial) if d is None]
        for i in (0, 4_095, 4_096, 65_536, n - 1):
            item, one = batch[i], min_deadwood(hands[i]) if serial[i] is not None else None
            assert (item is None) == (one is None)
            if item is not None and one is not None:
                assert (item.melds, item.unmatched) == (one.melds, one.unmatched)


def test_subclasses_of_str_list_and_int_read_as_their_base() -> None:
    # Exact types take the fast paths; subclasses take the general ones.
    class Text(str):
        pass

    class Cards(list[Any]):
        pass

    class Code(int):
        pass

    hand = [0, 1, 2, 13, 27]
    forms: list[Any] = [
        hand,
        Text(cardtable.format_hand(hand)),
        Cards(hand),
        [Code(c) for c in hand],
        Cards(Text(str(Card.from_code(c))) for c in hand),
    ]
    expected = min_deadwood(hand).deadwood
    assert min_deadwood_many(forms).deadwoods == [expected] * len(forms)
    # An int equal to a code but not the interpreter's shared object.
    big = 10**30
    assert min_deadwood_many([[big - big + 5, (big + 7) - big]]).deadwoods == [
        min_deadwood([5, 7]).deadwood
    ]


def test_strings_read_inline_or_through_the_interpreter_agree() -> None:
    # ASCII strings are read inline; suit symbols (not ASCII) and a str
    # subclass go through the interpreter; a lone surrogate has no UTF-8 and
    # is its hand's error, named as the serial call names it.
    hands: list[Any] = [
        ["AS", "2S", "3S", "KD"],
        ["A♠", "2♠", "3♠", "K♦"],
        "A♠ 2♠ 3♠ 10♦",
        ["10♦", "J♦", "Q♦", "AS"],
        ["AS", "\ud800"],
        "AS \ud800",
    ]
    batch = min_deadwood_many(hands, errors="collect")
    assert sorted(batch.errors) == [4, 5]
    assert "surrogates not allowed" in batch.errors[4]
    assert batch.deadwoods[:4] == [min_deadwood(h).deadwood for h in hands[:4]]


def test_buffers_kept_between_calls_hold_nothing_of_the_last_call() -> None:
    # Gathering buffers are kept for the next call (gather.rs): a batch of
    # long texts, then one of token lists and codes, each longer than a
    # chunk, must equal their serial results.
    rng = random.Random(11)
    long_texts = [
        ",  ".join(str(Card.from_code(c)) for c in rng.sample(range(52), 10)) for _ in range(9000)
    ]
    tokens: list[Any] = [
        [str(Card.from_code(c)) for c in rng.sample(range(52), 5)] for _ in range(9000)
    ]
    tokens[4500] = ["AS", "XX"]
    codes = [rng.sample(range(52), 7) for _ in range(9000)]
    for hands in (long_texts, tokens, codes, long_texts[:100]):
        batch = min_deadwood_many(hands, errors="collect")
        serial: list[int | None] = []
        for h in hands:
            try:
                serial.append(min_deadwood(h).deadwood)
            except cardtable.InvalidCardError:
                serial.append(None)
        assert batch.deadwoods == serial


# ---------------------------------------------------------------------------
# Errors


BAD_HANDS: list[Any] = ["AS 2S 3S", "KD", "QD", "AS ZZ", "AS AS", [0, 1, 99], "7H 8H 9H"]


def test_errors_raise_names_the_index() -> None:
    with pytest.raises(InvalidHandError, match=r"^hand 3: .*ZZ"):
        min_deadwood_many(BAD_HANDS)
    with pytest.raises(InvalidHandError, match=r"^hand 3: .*ZZ"):
        min_deadwood_many(BAD_HANDS, errors="raise", threads=1)
    with pytest.raises(InvalidHandError, match=r"^hand 1: .*duplicate"):
        min_deadwood_many(np.array([[0, 1, 2], [5, 5, -1]], dtype=np.int8))
    with pytest.raises(InvalidHandError, match=r"^hand 2: .*99"):
        min_deadwood_many(np.array([[0, 1, 2], [5, 6, -1], [99, 1, 2]], dtype=np.int64))


def test_errors_collect() -> None:
    batch = min_deadwood_many(BAD_HANDS, errors="collect")
    assert len(batch) == len(BAD_HANDS)
    assert sorted(batch.errors) == [3, 4, 5]
    assert "ZZ" in batch.errors[3]
    assert "duplicate" in batch.errors[4]
    assert "99" in batch.errors[5]
    assert batch.deadwoods == [0, 10, 10, None, None, None, 0]
    assert batch[3] is None
    assert batch[4] is None
    assert batch[5] is None
    assert batch[0] == min_deadwood("AS 2S 3S")
    assert batch[-1] == min_deadwood("7H 8H 9H")
    items = list(iter(batch))
    assert [item is None for item in items] == [False, False, False, True, True, True, False]
    # Each message is what the serial call raises for that hand.
    for i, message in batch.errors.items():
        with pytest.raises(cardtable.InvalidCardError) as info:
            min_deadwood(BAD_HANDS[i])
        assert message == str(info.value)


@pytest.mark.parametrize("form", ["list", "array"])
@pytest.mark.parametrize(
    ("size", "discard"),
    [(17, False), (18, False), (18, True)],
    ids=["17-min", "18-min", "18-discard"],
)
def test_error_messages_match_the_serial_call(form: str, size: int, discard: bool) -> None:
    """The batch reports for a rejected hand what min_deadwood/best_discard raise."""
    hand = list(range(size))
    call = best_discard if discard else min_deadwood
    with pytest.raises(InvalidHandError) as info:
        call(hand)
    hands: Any = [hand] if form == "list" else np.array([hand], dtype=np.int64)
    batch = min_deadwood_many(hands, errors="collect", discard=discard)
    assert batch.errors == {0: str(info.value)}
    with pytest.raises(InvalidHandError) as raised:
        min_deadwood_many(hands, discard=discard)
    assert str(raised.value) == f"hand 0: {info.value}"


def test_bad_arguments() -> None:
    with pytest.raises(InvalidConfigError, match="errors"):
        min_deadwood_many(["AS"], errors="ignore")
    with pytest.raises(InvalidConfigError, match="threads"):
        min_deadwood_many(["AS"], threads=0)
    with pytest.raises(TypeError, match="2-D"):
        min_deadwood_many(np.zeros(3, dtype=np.int64))
    with pytest.raises(TypeError, match="integers"):
        min_deadwood_many(np.zeros((3, 3), dtype=np.float64))
    with pytest.raises(TypeError):
        min_deadwood_many(42)
    with pytest.raises(InvalidConfigError, match="unknown game"):
        min_deadwood_many(["AS"], game="poker")


# ---------------------------------------------------------------------------
# The DeadwoodBatch sequence


def test_batch_indexing_and_slicing() -> None:
    hands = random_hands(10, ONE_DECK, [10], 50)
    expected = serial(hands)
    batch = min_deadwood_many(np.array(hands, dtype=np.int32))
    n = len(batch)
    assert n == 50
    assert batch[0] == expected[0]
    assert batch[-1] == expected[-1]
    assert batch[-n] == expected[0]
    assert batch[n - 1] == expected[n - 1]
    assert batch[1:4] == expected[1:4]
    assert batch[::-1] == expected[::-1]
    assert batch[::7] == expected[::7]
    assert batch[-3:] == expected[-3:]
    assert batch[10:5] == []
    assert batch[:] == expected
    with pytest.raises(IndexError):
        batch[n]
    with pytest.raises(IndexError):
        batch[-n - 1]
    assert [d for d in iter(batch)] == expected
    assert "50 hands" in repr(batch)


def test_discard_equals_best_discard() -> None:
    configs: list[tuple[dict[str, Any], list[int], int]] = [
        ({"game": "gin"}, ONE_DECK, 11),
        ({"game": "tonk"}, ONE_DECK, 6),
        ({"game": "three_thirteen", "jokers": True}, TWO_DECKS_JOKERS, 8),
    ]
    for options, deck, size in configs:
        hands = random_hands(size, deck, [size], 2000)
        expected = [best_discard(h, **options) for h in hands]
        for threads in THREADS:
            batch = min_deadwood_many(hands, discard=True, threads=threads, **options)
            assert batch.deadwoods == [d.deadwood for d in expected]
        batch = min_deadwood_many(padded(hands, np.int8), discard=True, **options)
        assert_batch_equals(batch, expected)
        assert all(d is not None and d.discard is not None for d in iter(batch))


# ---------------------------------------------------------------------------
# Integers, padding and thread limits (outside testing found these)


@pytest.mark.parametrize(
    "dtype", [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]
)
def test_numpy_integer_scalars_are_card_codes(dtype: npt.DTypeLike) -> None:
    row = cardtable.shuffle_many(1, seed=1)[0, :10].astype(dtype)
    expected = min_deadwood([int(c) for c in row])
    assert min_deadwood(row) == expected  # a 1-D array: its items are numpy scalars
    assert min_deadwood(list(row)) == expected
    assert min_deadwood_many([row, list(row)]).deadwoods == [expected.deadwood] * 2
    assert Card.from_code(np.array([51], dtype=dtype)[0]) == Card("KS")


@pytest.mark.parametrize("code", [2**63, 2**64 + 3, -(2**63) - 1, 53, -2])
def test_a_bad_integer_code_is_named_as_given(code: int) -> None:
    with pytest.raises(cardtable.InvalidCardError, match=f"invalid card code {code}:"):
        min_deadwood([0, code])
    with pytest.raises(cardtable.InvalidCardError, match=f"invalid card code {code}:"):
        Card.from_code(code)
    batch = min_deadwood_many([[0, 1, 2], [0, code]], errors="collect")
    assert batch.deadwoods == [0, None]
    assert f"invalid card code {code}:" in batch.errors[1]


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64])
def test_only_minus_one_pads_a_code_array(dtype: npt.DTypeLike) -> None:
    low = np.iinfo(dtype).min
    array = np.array([[0, 1, -2], [0, 1, 2], [0, 1, -1], [low, 3, 4], [-1, -1, -1]], dtype=dtype)
    batch = min_deadwood_many(array, errors="collect")
    # Rows 0 and 3 are bad hands (their value named); the others are still scored.
    assert batch.deadwoods == [None, 0, 3, None, 0]
    assert sorted(batch.errors) == [0, 3]
    assert "invalid card code -2:" in batch.errors[0]
    assert f"invalid card code {low}:" in batch.errors[3]
    with pytest.raises(InvalidHandError, match="hand 0: invalid card code -2"):
        min_deadwood_many(array)


@pytest.mark.parametrize("threads", [0, -1, -(2**70), 257, 2**40, 2**70])
def test_thread_counts_outside_1_to_256_are_config_errors(threads: int) -> None:
    assert cardtable._core.MAX_THREADS == 256
    with pytest.raises(InvalidConfigError, match=f"threads must be 1 to 256.*got {threads}"):
        min_deadwood_many(["AS 2S 3S"], threads=threads)
    with pytest.raises(InvalidConfigError, match="threads must be 1 to 256"):
        cardtable.shuffle_many(2, seed=1, threads=threads)
    with pytest.raises(TypeError, match="threads must be an integer"):
        min_deadwood_many(["AS"], threads=1.5)  # type: ignore[arg-type]
    assert min_deadwood_many(["AS 2S 3S"], threads=256).deadwoods == [0]
    assert min_deadwood_many(["AS 2S 3S"], threads=np.int32(2)).deadwoods == [0]  # type: ignore[arg-type]


def test_the_tonk_simulation_shares_the_thread_limit() -> None:
    from cardtable.games.tonk import TonkGame, simulate

    with pytest.raises(InvalidConfigError, match="threads must be 1 to 256"):
        simulate(TonkGame(), ["greedy", "greedy"], 4, 1, threads=2**40)


def test_concurrent_calls_from_two_threads_share_the_pool_and_agree() -> None:
    # Both calls use the global pool (threads=None) at once: a list, read
    # on its thread while the workers solve, and an array, solved detached.
    # Neither may wait on the other's GIL, and each gets the serial results.
    rng = np.random.default_rng(5)
    codes = np.argsort(rng.random((20_000, 52)), axis=1)[:, :10].astype(np.int16)
    texts = [cardtable.format_hand([int(c) for c in row]) for row in codes]
    want = min_deadwood_many(codes, threads=1).deadwoods
    results: dict[str, list[int | None]] = {}

    def run(name: str, hands: Any) -> None:
        for _ in range(3):
            results[name] = min_deadwood_many(hands).deadwoods

    workers = [
        threading.Thread(target=run, args=("list", texts)),
        threading.Thread(target=run, args=("array", codes)),
    ]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=120)
        assert not w.is_alive(), "a concurrent batch call did not finish"
    assert results == {"list": want, "array": want}


def test_a_card_conversion_that_empties_its_own_hand_is_safe() -> None:
    # A list's cards are read borrowed; a card of another kind is converted
    # by Python code, held while it runs, and reading goes on with the list
    # as that code left it.
    hand: list[Any] = []

    class Clearing:
        def __index__(self) -> int:
            hand.clear()
            return 0

    hand += [1, Clearing(), 2, 3]
    result = min_deadwood_many([hand, [5, 6, 7]], errors="collect")
    assert result.deadwoods == [min_deadwood([1, 0]).deadwood, 0]
    assert hand == []


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="counts threads through /proc")
def test_many_thread_counts_do_not_keep_every_pool_alive() -> None:
    # One pool per distinct threads= value was kept for good: forty values
    # would keep 820 worker threads. A few pools are kept; the rest end.
    for threads in range(1, 41):
        assert min_deadwood_many(["AS 2S 3S"], threads=threads).deadwoods == [0]
    deadline = time.monotonic() + 10
    while len(os.listdir("/proc/self/task")) >= 200 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(os.listdir("/proc/self/task")) < 200
