"""Seeded decks and deals, checked against an independent pure-Python
re-implementation of the shuffle.

The specification of a shuffle (see ``rust/core/src/rng.rs``):

* SplitMix64 (Steele, Lea, Flood 2014) expands the 64-bit seed: its first four
  outputs, each written little-endian, form the 32-byte ChaCha key.
* ChaCha with 8 rounds, 64-bit block counter starting at 0 (state words 12-13),
  nonce/stream 0 (words 14-15); each block yields sixteen 32-bit outputs in order.
* A bounded integer in ``0..n`` is Lemire's unbiased multiply-and-reject on
  32-bit outputs.
* Fisher-Yates from the last index down: for ``i`` from ``len - 1`` to 1, swap
  ``i`` with ``below(i + 1)``.
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
MASK32 = (1 << 32) - 1
CHACHA_CONSTANTS = (0x61707865, 0x3320646E, 0x79622D32, 0x6B206574)  # "expand 32-byte k"


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


def _rotl32(v: int, c: int) -> int:
    return ((v << c) & MASK32) | (v >> (32 - c))


def _quarter_round(x: list[int], a: int, b: int, c: int, d: int) -> None:
    x[a] = (x[a] + x[b]) & MASK32
    x[d] = _rotl32(x[d] ^ x[a], 16)
    x[c] = (x[c] + x[d]) & MASK32
    x[b] = _rotl32(x[b] ^ x[c], 12)
    x[a] = (x[a] + x[b]) & MASK32
    x[d] = _rotl32(x[d] ^ x[a], 8)
    x[c] = (x[c] + x[d]) & MASK32
    x[b] = _rotl32(x[b] ^ x[c], 7)


def chacha8_block(key: list[int], counter: int, nonce: int = 0) -> list[int]:
    """One ChaCha8 block: sixteen 32-bit words (64-bit counter, 64-bit nonce)."""
    state = [
        *CHACHA_CONSTANTS,
        *key,
        counter & MASK32,
        counter >> 32,
        nonce & MASK32,
        nonce >> 32,
    ]
    x = list(state)
    for _ in range(4):  # 4 double rounds = 8 rounds
        _quarter_round(x, 0, 4, 8, 12)
        _quarter_round(x, 1, 5, 9, 13)
        _quarter_round(x, 2, 6, 10, 14)
        _quarter_round(x, 3, 7, 11, 15)
        _quarter_round(x, 0, 5, 10, 15)
        _quarter_round(x, 1, 6, 11, 12)
        _quarter_round(x, 2, 7, 8, 13)
        _quarter_round(x, 3, 4, 9, 14)
    return [(a + b) & MASK32 for a, b in zip(x, state, strict=True)]


class ReferenceRng:
    """ChaCha8 keyed with four SplitMix64 outputs of the seed."""

    def __init__(self, seed: int) -> None:
        key_bytes = b""
        state = seed
        for _ in range(4):
            state, out = splitmix64_next(state)
            key_bytes += out.to_bytes(8, "little")
        self.key = [int.from_bytes(key_bytes[i : i + 4], "little") for i in range(0, 32, 4)]
        self.counter = 0
        self.buffer: list[int] = []
        self.position = 0

    def next_u32(self) -> int:
        if self.position == len(self.buffer):
            self.buffer = chacha8_block(self.key, self.counter)
            self.counter += 1
            self.position = 0
        word = self.buffer[self.position]
        self.position += 1
        return word

    def below(self, n: int) -> int:
        """Uniform in ``0..n`` (Lemire 2019, unbiased)."""
        m = self.next_u32() * n
        low = m & MASK32
        if low < n:
            threshold = ((1 << 32) - n) % n
            while low < threshold:
                m = self.next_u32() * n
                low = m & MASK32
        return m >> 32

    def shuffle(self, items: list[int]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
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


def test_reference_chacha8_zero_key_vector() -> None:
    """ChaCha8, 256-bit all-zero key, zero nonce: the published first block."""
    block = chacha8_block([0] * 8, 0)
    keystream = b"".join(w.to_bytes(4, "little") for w in block).hex()
    assert keystream == (
        "3e00ef2f895f40d67f5bb8e81f09a5a12c840ec3ce9a7f3b181be188ef711a1e"
        "984ce172b9216f419f445367456d5619314a42a3da86b001387bfdb80e0cfe42"
    )


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
    assert format_hand(shuffled_deck(42)[:10]) == "4C QH 8D 6D QC 3H JH QS TD AH"
    assert format_hand([Card.from_code(c) for c in reference_deck(42)[:10]]) == (
        "4C QH 8D 6D QC 3H JH QS TD AH"
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
    assert format_hand(d.hands[0]) == "4C 6D JH AH 5H"
    assert format_hand(d.hands[1]) == "QH QC QS QD 6S"
    assert format_hand(d.hands[2]) == "8D 3H TD 3S 7C"
    assert d.upcard == Card("2D")
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
