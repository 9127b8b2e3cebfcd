"""Seeded decks and deals, checked against an independent pure-Python
re-implementation of the shuffle.

The specification of a shuffle (see ``rust/core/src/rng.rs``):

* The generator is xoshiro256++ (Blackman and Vigna); its state is the first
  four outputs of SplitMix64 (Steele, Lea, Flood 2014) started at the seed.
* A shuffle's swap index in ``0..n`` is Lemire's unbiased multiply-and-reject
  on 16-bit values; the 16-bit values are the four quarters (lowest first) of
  successive 64-bit outputs.
* Fisher-Yates from the last index down: for ``i`` from ``len - 1`` to 1, swap
  ``i`` with ``below16(i + 1)``.
* The deck starts in canonical order: each copy of the 52 cards in code order
  (``AC..KC AD..KD AH..KH AS..KS``), then the jokers (two per deck).
* ``derive_seed(parent, i) = splitmix(splitmix(parent) ^ i)``, where
  ``splitmix(s)`` is the first output of a SplitMix64 generator with state ``s``.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import cardtable
from cardtable import (
    Card,
    Deal,
    InvalidConfigError,
    deal,
    derive_seed,
    format_hand,
    shuffle_many,
    shuffled_deck,
)

# ---------------------------------------------------------------------------
# The reference implementation

MASK64 = (1 << 64) - 1


def splitmix64_next(state: int) -> tuple[int, int]:
    """One SplitMix64 step: (new state, output)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def splitmix64_output(state: int) -> int:
    """The first output of a SplitMix64 generator whose state is ``state``."""
    return splitmix64_next(state)[1]


def reference_derive_seed(parent: int, index: int) -> int:
    return splitmix64_output(splitmix64_output(parent) ^ index)


def _rotl64(v: int, c: int) -> int:
    return ((v << c) & MASK64) | (v >> (64 - c))


class ReferenceRng:
    """xoshiro256++ seeded with four SplitMix64 outputs of the seed."""

    def __init__(self, seed: int, state: list[int] | None = None) -> None:
        if state is None:
            state = []
            sm = seed
            for _ in range(4):
                sm, out = splitmix64_next(sm)
                state.append(out)
        self.s = list(state)
        self.quarters: list[int] = []

    def next_u64(self) -> int:
        s = self.s
        result = (_rotl64((s[0] + s[3]) & MASK64, 23) + s[0]) & MASK64
        t = (s[1] << 17) & MASK64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl64(s[3], 45)
        return result

    def next_u16(self) -> int:
        if not self.quarters:
            word = self.next_u64()
            self.quarters = [(word >> (16 * k)) & 0xFFFF for k in range(4)]
        return self.quarters.pop(0)

    def below16(self, n: int) -> int:
        """Uniform in ``0..n`` for ``n <= 65536`` (Lemire 2019 on 16 bits, unbiased)."""
        m = self.next_u16() * n
        low = m & 0xFFFF
        if low < n:
            threshold = ((1 << 16) - n) % n
            while low < threshold:
                m = self.next_u16() * n
                low = m & 0xFFFF
        return m >> 16

    def shuffle(self, items: list[int]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below16(i + 1)
            items[i], items[j] = items[j], items[i]


def reference_deck(seed: int, decks: int = 1, jokers: bool = False) -> list[int]:
    """Card codes of the deck shuffled with ``seed``, top card first."""
    cards = list(range(52)) * decks + [52] * (2 * decks if jokers else 0)
    ReferenceRng(seed).shuffle(cards)
    return cards


def codes(cards: list[Card] | tuple[Card, ...]) -> list[int]:
    return [c.code for c in cards]


# ---------------------------------------------------------------------------
# The reference itself against published values


def test_reference_splitmix64_published_values() -> None:
    state, first = splitmix64_next(0)
    _, second = splitmix64_next(state)
    assert first == 0xE220A8397B1DCDAF
    assert second == 0x6E789E6AA1B965F4


def test_reference_xoshiro256pp_published_values() -> None:
    """xoshiro256++ from state {1, 2, 3, 4}: the reference C code's first outputs."""
    rng = ReferenceRng(0, state=[1, 2, 3, 4])
    assert [rng.next_u64() for _ in range(3)] == [41943041, 58720359, 3588806011781223]


# ---------------------------------------------------------------------------
# shuffled_deck and derive_seed against the reference

SEEDS = [
    0,
    1,
    2,
    42,
    2**32 - 1,
    2**32,
    2**63 - 1,
    2**63,
    2**64 - 2,
    2**64 - 1,
    *(random.Random(2024).getrandbits(64) for _ in range(60)),
]


def test_golden_seed_42() -> None:
    assert format_hand(shuffled_deck(42)[:10]) == "TS 8C QH JH 5C KS 8S TH QS 5H"
    assert format_hand([Card.from_code(c) for c in reference_deck(42)[:10]]) == (
        "TS 8C QH JH 5C KS 8S TH QS 5H"
    )


@pytest.mark.parametrize("seed", SEEDS)
def test_shuffled_deck_matches_reference(seed: int) -> None:
    deck = shuffled_deck(seed)
    assert len(deck) == 52
    assert codes(deck) == reference_deck(seed)
    assert sorted(codes(deck)) == list(range(52))


@pytest.mark.parametrize("seed", SEEDS[:12])
@pytest.mark.parametrize(("decks", "jokers"), [(1, True), (2, False), (2, True), (3, True)])
def test_shuffled_decks_and_jokers_match_reference(seed: int, decks: int, jokers: bool) -> None:
    deck = shuffled_deck(seed, decks=decks, jokers=jokers)
    assert len(deck) == 52 * decks + (2 * decks if jokers else 0)
    assert codes(deck) == reference_deck(seed, decks, jokers)
    assert sorted(codes(deck)) == sorted(list(range(52)) * decks + [52] * (len(deck) - 52 * decks))


def test_eight_decks_match_reference() -> None:
    deck = shuffled_deck(99, decks=8, jokers=True)
    assert len(deck) == 432
    assert codes(deck) == reference_deck(99, 8, True)


def test_derive_seed_matches_reference() -> None:
    rng = random.Random(5)
    parents = [0, 1, 42, 2**64 - 1, *(rng.getrandbits(64) for _ in range(40))]
    indexes = [0, 1, 2, 1000, 2**32, 2**64 - 1, *(rng.getrandbits(64) for _ in range(5))]
    for parent in parents:
        for index in indexes:
            assert derive_seed(parent, index) == reference_derive_seed(parent, index)
    assert derive_seed(42, 0) != derive_seed(42, 1)
    assert derive_seed(42, 0) != derive_seed(43, 0)


def test_same_seed_same_deck() -> None:
    assert shuffled_deck(7) == shuffled_deck(7)
    assert shuffled_deck(7) != shuffled_deck(8)
    assert cardtable.shuffled_deck is shuffled_deck


# ---------------------------------------------------------------------------
# deal


def assert_dealt_from(d: Deal, deck: list[Card], players: int, size: int, upcard: bool) -> None:
    """Round-robin from the top, then the upcard, then the stock."""
    assert len(d.hands) == players
    for i, hand in enumerate(d.hands):
        assert list(hand) == [deck[k * players + i] for k in range(size)]
    dealt = players * size
    if upcard:
        assert d.upcard == deck[dealt]
        assert list(d.stock) == deck[dealt + 1 :]
    else:
        assert d.upcard is None
        assert list(d.stock) == deck[dealt:]


@pytest.mark.parametrize("seed", [0, 42, 2**64 - 1, 123456789])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_deal_defaults_per_game(seed: int, players: int) -> None:
    one = shuffled_deck(seed)
    tonk = deal("tonk", players, seed)
    assert tonk.game == "tonk"
    assert tonk.seed == seed
    assert_dealt_from(tonk, one, players, 5, True)
    assert_dealt_from(deal("gin", players, seed), one, players, 10, True)
    two = shuffled_deck(seed, decks=2)
    tt = deal("three_thirteen", players, seed)
    assert tt.game == "three_thirteen"
    assert_dealt_from(tt, two, players, 3, True)
    for rnd in (1, 5, 13):
        assert_dealt_from(
            deal("three_thirteen", players, seed, round=rnd), two, players, rnd + 2, True
        )
    with_jokers = deal("three-thirteen", players, seed, round=4, jokers=True)
    assert_dealt_from(with_jokers, shuffled_deck(seed, decks=2, jokers=True), players, 6, True)


def test_deal_options() -> None:
    deck = shuffled_deck(9)
    assert_dealt_from(deal("tonk", 3, 9, upcard=False), deck, 3, 5, False)
    assert_dealt_from(deal("tonk", 2, 9, hand_size=7), deck, 2, 7, True)
    three = shuffled_deck(9, decks=3, jokers=True)
    assert_dealt_from(deal("three_thirteen", 5, 9, decks=3, jokers=True), three, 5, 3, True)
    full = deal("tonk", 4, 9, hand_size=13, upcard=False)
    assert_dealt_from(full, deck, 4, 13, False)
    assert full.stock == ()
    default = deal()
    assert default.game == "tonk"
    assert [len(h) for h in default.hands] == [5, 5]


def test_deal_layout_seed_42() -> None:
    d = deal("tonk", players=3, seed=42)
    assert format_hand(d.hands[0]) == "TS JH 8S 5H 3S"
    assert format_hand(d.hands[1]) == "8C 5C TH AC 7S"
    assert format_hand(d.hands[2]) == "QH KS QS 6H TD"
    assert d.upcard == Card("9S")
    assert len(d.stock) == 52 - 16


def test_deal_without_seed_records_a_fresh_one() -> None:
    first = deal("gin", 2)
    assert 0 <= first.seed < 2**64
    again = deal("gin", 2, first.seed)
    assert again == first
    assert deal("gin", 2).seed != first.seed  # 64 random bits: a repeat is negligible


def test_deal_to_dict_and_frozen() -> None:
    d = deal("tonk", 2, 42)
    data = d.to_dict()
    assert data == {
        "game": "tonk",
        "seed": 42,
        "hands": [[str(c) for c in h] for h in d.hands],
        "upcard": str(d.upcard),
        "stock": [str(c) for c in d.stock],
    }
    assert deal("tonk", 2, 42, upcard=False).to_dict()["upcard"] is None
    with pytest.raises(AttributeError):
        d.seed = 1  # type: ignore[misc]


@pytest.mark.parametrize(
    ("args", "kwargs", "match"),
    [
        (("poker",), {}, "unknown game"),
        (("tonk", 0, 1), {}, "players"),
        (("tonk", 11, 1), {}, "56 cards"),
        (("gin", 6, 1), {}, "cards"),
        (("tonk", 2, 1), {"hand_size": 0}, "hand_size"),
        (("gin", 2, 1), {"round": 3}, "round"),
        (("three_thirteen", 2, 1), {"round": 0}, "round"),
        (("three_thirteen", 2, 1), {"round": 14}, "round"),
        (("three_thirteen", 2, 1), {"round": 3, "hand_size": 5}, "round or hand_size"),
        (("gin", 2, 1), {"decks": 2}, "one deck"),
        (("tonk", 2, 1), {"jokers": True}, "jokers"),
        (("three_thirteen", 2, 1), {"decks": 0}, "decks"),
        (("three_thirteen", 2, 1), {"decks": 9}, "decks"),
    ],
)
def test_deal_errors(args: tuple[Any, ...], kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(InvalidConfigError, match=match):
        deal(*args, **kwargs)


# ---------------------------------------------------------------------------
# shuffle_many


def test_shuffle_many_rows_are_derived_decks() -> None:
    seed = 77
    out = shuffle_many(300, seed)
    assert out.shape == (300, 52)
    assert out.dtype == np.uint8
    for i in range(300):
        assert out[i].tolist() == codes(shuffled_deck(derive_seed(seed, i)))
    for i in (0, 1, 299):
        assert out[i].tolist() == reference_deck(reference_derive_seed(seed, i))


def test_shuffle_many_same_for_any_thread_count() -> None:
    one = shuffle_many(5000, 2**64 - 1, threads=1)
    two = shuffle_many(5000, 2**64 - 1, threads=2)
    default = shuffle_many(5000, 2**64 - 1)
    assert np.array_equal(one, two)
    assert np.array_equal(one, default)
    assert np.array_equal(np.sort(one, axis=1), np.tile(np.arange(52, dtype=np.uint8), (5000, 1)))
    assert len({row.tobytes() for row in one}) == 5000


def test_shuffle_many_decks_and_jokers() -> None:
    out = shuffle_many(50, 3, decks=2, jokers=True, threads=2)
    assert out.shape == (50, 108)
    for i in (0, 17, 49):
        assert out[i].tolist() == codes(shuffled_deck(derive_seed(3, i), decks=2, jokers=True))
        assert out[i].tolist() == reference_deck(reference_derive_seed(3, i), 2, True)
    assert shuffle_many(0, 1).shape == (0, 52)
    assert shuffle_many(1, 0)[0].tolist() == codes(shuffled_deck(derive_seed(0, 0)))


def test_shuffle_many_errors() -> None:
    with pytest.raises(InvalidConfigError, match="non-negative"):
        shuffle_many(-1, 1)
    with pytest.raises(InvalidConfigError, match="threads"):
        shuffle_many(3, 1, threads=0)
    with pytest.raises(InvalidConfigError, match="decks"):
        shuffle_many(3, 1, decks=0)


# ---------------------------------------------------------------------------
# Seeds and deck counts that are out of range

BAD_SEEDS: list[Any] = [-1, 2**64, 2**70, -(2**64), True, False, 1.0, "1"]


@pytest.mark.parametrize("seed", BAD_SEEDS, ids=repr)
def test_bad_seeds(seed: Any) -> None:
    with pytest.raises(InvalidConfigError, match="seed"):
        shuffled_deck(seed)
    with pytest.raises(InvalidConfigError, match="seed"):
        shuffle_many(2, seed)
    with pytest.raises(InvalidConfigError, match="seed"):
        deal("tonk", 2, seed)
    with pytest.raises(InvalidConfigError, match="seed"):
        derive_seed(seed, 0)
    with pytest.raises(InvalidConfigError, match="seed"):
        derive_seed(0, seed)


@pytest.mark.parametrize("decks", [0, 9, -1, 256])
def test_decks_out_of_range_are_config_errors(decks: int) -> None:
    """Like MeldRules(decks=...), every deck function answers InvalidConfigError."""
    with pytest.raises(InvalidConfigError, match="decks"):
        cardtable.MeldRules("three_thirteen", decks=decks)
    with pytest.raises(InvalidConfigError, match="decks"):
        shuffled_deck(1, decks=decks)
    with pytest.raises(InvalidConfigError, match="decks"):
        deal("three_thirteen", 2, 1, decks=decks)
    with pytest.raises(InvalidConfigError, match="decks"):
        shuffle_many(2, 1, decks=decks)
