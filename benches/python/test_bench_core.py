"""pytest-benchmark benches of cardtable against its baselines.

Groups (the baseline of a group is the bench whose name contains ``openspiel``
or ``numpy``; ``ratios.py`` prints the speed-ups):

* ``deadwood-5-random``, ``deadwood-10-random``: random gin hands; OpenSpiel's
  ``GinRummyUtils.min_deadwood`` in a Python loop vs ``min_deadwood_many`` on a
  2-D numpy array and on a list of lists.
* ``deadwood-13-dense``: 13 of the 15 cards of five random ranks in three
  random suits (many overlapping melds).
* ``deadwood-small-1``, ``-10``, ``-100``: ``min_deadwood_many`` on a short
  Python list of 10-card hands (int codes) vs OpenSpiel in a loop over the
  same hands: the fixed cost of a batch call.
* ``deadwood-single-10``: one call at a time, ``min_deadwood`` vs OpenSpiel,
  with the deadwood read, and with the whole result read (melds and
  unmatched cards too).
* ``three-thirteen-13-kings-jokers``: 13-card Three Thirteen hands (kings wild)
  holding all four kings and two jokers.
* ``shuffle``: ``shuffle_many`` vs ``numpy.random.Generator.permuted``.
* ``cli-score``: ``cardtable score --format jsonl`` (to a new file and over
  the last output) on a file of random 10-card hands, as a subprocess.
* ``cli-score-parquet``: ``--format parquet`` against ``--format jsonl``
  (the baseline), both to a new file; each records its peak memory.
* ``cli-score-startup``: ``cardtable score`` of a one-line file against
  the interpreter starting alone (the baseline).

Every bench checks its results (against OpenSpiel when it is installed), so a
broken build cannot look fast. OpenSpiel is optional: only its own benches skip
without it.
"""

from __future__ import annotations

import functools
import importlib
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from pytest_benchmark.fixture import BenchmarkFixture

import cardtable

OPENSPIEL_REASON = "OpenSpiel baseline: pip install open_spiel"

RANDOM_HANDS = 20_000  # hands per round of the batch benches
DENSE_HANDS = 10_000
SINGLE_CALLS = 1_000  # calls per round of the single-call benches
TT_HANDS = 10_000
TT_SINGLE_CALLS = 2_000
SHUFFLES = 100_000
SHUFFLE_SEED = 12_345

GIN = cardtable.meld_rules("gin")
THREE_THIRTEEN_JOKERS = cardtable.meld_rules("three_thirteen", jokers=True)

Codes = npt.NDArray[np.int8]


# ---------------------------------------------------------------------------
# Inputs (seeded)


def random_hands(count: int, size: int, seed: int) -> Codes:
    """``count`` random hands of ``size`` distinct cards (our codes)."""
    rng = np.random.default_rng(seed)
    decks = np.tile(np.arange(52, dtype=np.int8), (count, 1))
    return np.ascontiguousarray(rng.permuted(decks, axis=1)[:, :size])


def dense_hands(count: int, seed: int) -> Codes:
    """13 of the 15 cards of five random ranks in three random suits."""
    rng = np.random.default_rng(seed)
    out = np.empty((count, 13), dtype=np.int8)
    for i in range(count):
        ranks = rng.choice(13, 5, replace=False)
        suits = rng.choice(4, 3, replace=False)
        cards = (suits[:, None] * 13 + ranks[None, :]).ravel()
        out[i] = rng.choice(cards, 13, replace=False)
    return out


def kings_and_jokers_hands(count: int, seed: int) -> Codes:
    """13 cards from two decks with jokers: KC KD KH KS, two jokers and 7 others."""
    rng = np.random.default_rng(seed)
    others = np.array([c for c in range(52) if c % 13 != 12] * 2, dtype=np.int8)
    out = np.empty((count, 13), dtype=np.int8)
    out[:, :6] = [12, 25, 38, 51, 52, 52]
    for i in range(count):
        out[i, 6:] = rng.choice(others, 7, replace=False)
    return np.ascontiguousarray(rng.permuted(out, axis=1))


def to_openspiel(codes: Codes) -> list[list[int]]:
    """OpenSpiel's card ints: suit * 13 + rank with suits s, c, d, h and rank 0 = ace.
    Ours: suit * 13 + rank - 1 with suits c, d, h, s."""
    c = codes.astype(np.int64)
    converted: list[list[int]] = (((c // 13 + 1) % 4) * 13 + c % 13).tolist()
    return converted


class HandSet:
    """One set of hands in every input form, and its reference deadwoods."""

    def __init__(self, codes: Codes) -> None:
        self.codes = codes
        self.lists: list[list[int]] = codes.tolist()
        self.cards = [[cardtable.Card.from_code(c) for c in h] for h in self.lists]
        self.tokens = [[str(c) for c in h] for h in self.cards]
        self.strings = [" ".join(t) for t in self.tokens]
        self.openspiel = to_openspiel(codes)
        self.size = codes.shape[1]

    @functools.cached_property
    def expected(self) -> list[int]:
        """OpenSpiel's deadwoods when it is installed, else one solve per hand."""
        try:
            pyspiel = importlib.import_module("pyspiel")
        except ImportError:
            return [cardtable.min_deadwood(h, rules=GIN).deadwood for h in self.lists]
        utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
        return [int(utils.min_deadwood(h)) for h in self.openspiel]


@functools.cache
def hand_set(kind: str, size: int) -> HandSet:
    if kind == "random":
        return HandSet(random_hands(RANDOM_HANDS, size, seed=size))
    if kind == "dense":
        return HandSet(dense_hands(DENSE_HANDS, seed=13))
    if kind == "single":
        return HandSet(random_hands(SINGLE_CALLS, size, seed=100 + size))
    raise ValueError(kind)


def openspiel_min_deadwood() -> Callable[[list[int]], int]:
    pyspiel = pytest.importorskip("pyspiel", reason=OPENSPIEL_REASON)
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    fn: Callable[[list[int]], int] = utils.min_deadwood
    return fn


def deadwoods_of(batch: cardtable.DeadwoodBatch) -> list[int]:
    values = batch.deadwoods
    assert None not in values
    return [v for v in values if v is not None]


def describe(benchmark: BenchmarkFixture, group: str, **info: Any) -> None:
    benchmark.group = group
    benchmark.extra_info.update(info)


# ---------------------------------------------------------------------------
# Minimum deadwood of many hands


BATCH_GROUPS = [
    pytest.param("random", 5, id="5-random"),
    pytest.param("random", 10, id="10-random"),
    pytest.param("dense", 13, id="13-dense"),
]


@pytest.mark.parametrize(("kind", "size"), BATCH_GROUPS)
def test_deadwood_openspiel(benchmark: BenchmarkFixture, kind: str, size: int) -> None:
    min_deadwood = openspiel_min_deadwood()
    hands = hand_set(kind, size)
    describe(benchmark, f"deadwood-{size}-{kind}", hand_size=size, hands_per_round=len(hands.lists))

    def run() -> list[int]:
        return [min_deadwood(h) for h in hands.openspiel]

    assert benchmark(run) == hands.expected


@pytest.mark.parametrize("threads", [None, 1], ids=["all-threads", "1-thread"])
@pytest.mark.parametrize(("kind", "size"), BATCH_GROUPS)
def test_deadwood_cardtable_array(
    benchmark: BenchmarkFixture, kind: str, size: int, threads: int | None
) -> None:
    hands = hand_set(kind, size)
    describe(
        benchmark,
        f"deadwood-{size}-{kind}",
        hand_size=size,
        hands_per_round=len(hands.lists),
        threads=threads or "all",
    )
    batch = benchmark(cardtable.min_deadwood_many, hands.codes, rules=GIN, threads=threads)
    assert deadwoods_of(batch) == hands.expected


LIST_FORMS = ["strings", "tokens", "lists", "cards"]


@pytest.mark.parametrize("form", LIST_FORMS)
@pytest.mark.parametrize(("kind", "size"), BATCH_GROUPS)
def test_deadwood_cardtable_list(
    benchmark: BenchmarkFixture, kind: str, size: int, form: str
) -> None:
    """Python lists: of hand strings ('AS 2S 3S'), of lists of tokens, of
    lists of int codes, of lists of ``Card`` objects."""
    hands = hand_set(kind, size)
    describe(
        benchmark,
        f"deadwood-{size}-{kind}",
        hand_size=size,
        hands_per_round=len(hands.lists),
        form=form,
    )
    batch = benchmark(cardtable.min_deadwood_many, getattr(hands, form), rules=GIN)
    assert deadwoods_of(batch) == hands.expected


# ---------------------------------------------------------------------------
# One call at a time


def test_single_openspiel(benchmark: BenchmarkFixture) -> None:
    min_deadwood = openspiel_min_deadwood()
    hands = hand_set("single", 10)
    describe(benchmark, "deadwood-single-10", hand_size=10, hands_per_round=SINGLE_CALLS)

    def run() -> list[int]:
        return [min_deadwood(h) for h in hands.openspiel]

    assert benchmark(run) == hands.expected


SMALL_BATCHES = [1, 10, 100]


@functools.cache
def small_batch(count: int) -> HandSet:
    return HandSet(random_hands(count, 10, seed=200 + count))


@pytest.mark.parametrize("count", SMALL_BATCHES)
def test_small_batch_openspiel(benchmark: BenchmarkFixture, count: int) -> None:
    min_deadwood = openspiel_min_deadwood()
    hands = small_batch(count)
    describe(benchmark, f"deadwood-small-{count}", hand_size=10, hands_per_round=count)

    def run() -> list[int]:
        return [min_deadwood(h) for h in hands.openspiel]

    assert benchmark(run) == hands.expected


@pytest.mark.parametrize("count", SMALL_BATCHES)
def test_small_batch_cardtable_list(benchmark: BenchmarkFixture, count: int) -> None:
    hands = small_batch(count)
    describe(benchmark, f"deadwood-small-{count}", hand_size=10, hands_per_round=count)
    batch = benchmark(cardtable.min_deadwood_many, hands.lists, rules=GIN)
    assert deadwoods_of(batch) == hands.expected


@pytest.mark.parametrize("count", SMALL_BATCHES)
def test_small_batch_cardtable_array(benchmark: BenchmarkFixture, count: int) -> None:
    hands = small_batch(count)
    describe(benchmark, f"deadwood-small-{count}", hand_size=10, hands_per_round=count)
    batch = benchmark(cardtable.min_deadwood_many, hands.codes, rules=GIN)
    assert deadwoods_of(batch) == hands.expected


def test_single_cardtable_result_read(benchmark: BenchmarkFixture) -> None:
    """The whole result read: deadwood, melds and unmatched cards."""
    hands = hand_set("single", 10)
    describe(benchmark, "deadwood-single-10", hand_size=10, hands_per_round=SINGLE_CALLS)
    min_deadwood = cardtable.min_deadwood

    def run() -> list[tuple[int, list[cardtable.Meld], tuple[cardtable.Card, ...]]]:
        out = []
        for h in hands.lists:
            result = min_deadwood(h, rules=GIN)
            out.append((result.deadwood, result.melds, result.unmatched))
        return out

    results = benchmark(run)
    assert [deadwood for deadwood, _, _ in results] == hands.expected
    for hand, (_, melds, unmatched) in zip(hands.lists, results, strict=True):
        assert sum(len(m.cards) for m in melds) + len(unmatched) == len(hand)


def test_single_cardtable(benchmark: BenchmarkFixture) -> None:
    hands = hand_set("single", 10)
    describe(benchmark, "deadwood-single-10", hand_size=10, hands_per_round=SINGLE_CALLS)
    min_deadwood = cardtable.min_deadwood

    def run() -> list[int]:
        return [min_deadwood(h, rules=GIN).deadwood for h in hands.lists]

    assert benchmark(run) == hands.expected


# ---------------------------------------------------------------------------
# Three Thirteen: 13 cards, kings wild, four kings and two jokers


@functools.cache
def three_thirteen_hands() -> tuple[Codes, list[list[int]], list[int]]:
    codes = kings_and_jokers_hands(TT_HANDS, seed=313)
    lists: list[list[int]] = codes.tolist()
    # Reference: one solve per hand, a different path from the parallel batch.
    expected = [cardtable.min_deadwood(h, rules=THREE_THIRTEEN_JOKERS).deadwood for h in lists]
    return codes, lists, expected


def check_arrangement(hand: list[int], result: cardtable.Deadwood) -> None:
    """Melds and unmatched cards partition the hand; melds valid; deadwood adds up."""
    used: Counter[cardtable.Card] = Counter(result.unmatched)
    for meld in result.melds:
        assert cardtable.check_meld(list(meld.cards), rules=THREE_THIRTEEN_JOKERS, hand_size=13)
        used.update(meld.cards)
    assert used == Counter(cardtable.Card.from_code(c) for c in hand)
    values = (THREE_THIRTEEN_JOKERS.value(c, 13) for c in result.unmatched)
    assert result.deadwood == sum(values)


def test_three_thirteen_kings_jokers_many(benchmark: BenchmarkFixture) -> None:
    codes, lists, expected = three_thirteen_hands()
    describe(benchmark, "three-thirteen-13-kings-jokers", hand_size=13, hands_per_round=len(lists))
    batch = benchmark(cardtable.min_deadwood_many, codes, rules=THREE_THIRTEEN_JOKERS)
    assert deadwoods_of(batch) == expected
    for i in range(0, len(lists), len(lists) // 50):
        item = batch[i]
        assert item is not None
        check_arrangement(lists[i], item)


def test_three_thirteen_kings_jokers_single(benchmark: BenchmarkFixture) -> None:
    _, lists, expected = three_thirteen_hands()
    hands = lists[:TT_SINGLE_CALLS]
    describe(benchmark, "three-thirteen-13-kings-jokers", hand_size=13, hands_per_round=len(hands))
    min_deadwood = cardtable.min_deadwood

    def run() -> list[cardtable.Deadwood]:
        return [min_deadwood(h, rules=THREE_THIRTEEN_JOKERS) for h in hands]

    results = benchmark(run)
    assert [r.deadwood for r in results] == expected[: len(hands)]
    for hand, result in zip(hands[:100], results[:100], strict=True):
        check_arrangement(hand, result)


# ---------------------------------------------------------------------------
# Shuffles


def check_permutations(decks: npt.NDArray[np.uint8]) -> None:
    assert decks.shape == (SHUFFLES, 52)
    assert np.array_equal(
        np.sort(decks, axis=1), np.tile(np.arange(52, dtype=np.uint8), (SHUFFLES, 1))
    )


def test_shuffle_numpy_permuted(benchmark: BenchmarkFixture) -> None:
    describe(benchmark, "shuffle", decks_per_round=SHUFFLES)

    def run() -> npt.NDArray[np.uint8]:
        base = np.tile(np.arange(52, dtype=np.uint8), (SHUFFLES, 1))
        return np.random.default_rng(SHUFFLE_SEED).permuted(base, axis=1)

    check_permutations(benchmark(run))


@pytest.mark.parametrize("threads", [None, 1], ids=["all-threads", "1-thread"])
def test_shuffle_cardtable(benchmark: BenchmarkFixture, threads: int | None) -> None:
    describe(benchmark, "shuffle", decks_per_round=SHUFFLES, threads=threads or "all")
    decks = benchmark(cardtable.shuffle_many, SHUFFLES, SHUFFLE_SEED, threads=threads)
    check_permutations(decks)
    for i in (0, 1, SHUFFLES - 1):
        deck = cardtable.shuffled_deck(cardtable.derive_seed(SHUFFLE_SEED, i))
        assert decks[i].tolist() == [c.code for c in deck]


# ---------------------------------------------------------------------------
# The CLI


DEADWOOD_FIELD = re.compile(rb'"deadwood": (\d+)')


@pytest.mark.parametrize("target", ["new-file", "overwrite"])
def test_cli_score_jsonl(
    benchmark: BenchmarkFixture,
    cli_input: tuple[Path, npt.NDArray[np.int64]],
    tmp_path: Path,
    target: str,
) -> None:
    """To a new file (the last round's output removed first, untimed), and
    over the last round's output: truncating a file of 160 MB frees its
    cached pages, and on ext4 closing a file truncated from full to empty
    starts its writeback (``auto_da_alloc``), some 70-90 ms that are the
    file system's."""
    path, expected = cli_input
    out = tmp_path / "scores.jsonl"
    describe(benchmark, "cli-score", hand_size=10, lines_per_round=len(expected), target=target)
    command = [sys.executable, "-m", "cardtable", "score", "--format", "jsonl", str(path)]
    command += ["-o", str(out)]

    def run() -> int:
        return subprocess.run(command, check=False).returncode

    def remove_output() -> None:
        if target == "new-file":
            out.unlink(missing_ok=True)

    pedantic: Callable[..., object] = benchmark.pedantic  # untyped in pytest-benchmark
    # One unmeasured round first, so that every measured overwrite replaces a full file.
    warmup = 1 if target == "overwrite" else 0
    assert pedantic(run, setup=remove_output, rounds=3, iterations=1, warmup_rounds=warmup) == 0
    data = out.read_bytes()
    assert data.count(b"\n") == len(expected)
    found = np.array([int(m) for m in DEADWOOD_FIELD.findall(data)], dtype=np.int64)
    assert np.array_equal(found, expected)


def peak_rss_command(command: list[str]) -> list[str]:
    """``command`` run by a Python wrapper that prints the child's peak
    resident memory (bytes) on its last line of stdout."""
    script = (
        "import resource, subprocess, sys; "
        "code = subprocess.run(sys.argv[1:]).returncode; "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024); "
        "sys.exit(code)"
    )
    return [sys.executable, "-c", script, *command]


@pytest.mark.parametrize("fmt", ["baseline-jsonl", "parquet"])
def test_cli_score_parquet(
    benchmark: BenchmarkFixture,
    cli_input: tuple[Path, npt.NDArray[np.int64]],
    tmp_path: Path,
    fmt: str,
) -> None:
    """``--format parquet`` to a new file, written in Rust (arrow-rs's
    ``parquet``) a row group per block, against ``--format jsonl`` (the
    baseline); the last round's peak memory goes in ``extra_info``."""
    path, expected = cli_input
    kind = fmt.removeprefix("baseline-")
    out = tmp_path / f"scores.{kind}"
    describe(benchmark, "cli-score-parquet", hand_size=10, lines_per_round=len(expected))
    command = [sys.executable, "-m", "cardtable", "score", "--format", kind, str(path)]
    command = peak_rss_command([*command, "-o", str(out)])
    peaks: list[int] = []

    def run() -> int:
        done = subprocess.run(command, check=False, capture_output=True, text=True)
        peaks.append(int(done.stdout.split()[-1]))
        return done.returncode

    def remove_output() -> None:
        out.unlink(missing_ok=True)

    pedantic: Callable[..., object] = benchmark.pedantic  # untyped in pytest-benchmark
    assert pedantic(run, setup=remove_output, rounds=3, iterations=1) == 0
    benchmark.extra_info["peak_rss_mb"] = round(max(peaks) / 2**20, 1)
    if kind == "jsonl":
        data = out.read_bytes()
        found = np.array([int(m) for m in DEADWOOD_FIELD.findall(data)], dtype=np.int64)
    else:
        pq = pytest.importorskip("pyarrow.parquet")  # to read it back only
        found = pq.read_table(out, columns=["deadwood"]).column(0).to_numpy()
    assert np.array_equal(found.astype(np.int64), expected)


@pytest.mark.parametrize("what", ["baseline-python", "score"])
def test_cli_score_startup(benchmark: BenchmarkFixture, tmp_path: Path, what: str) -> None:
    """``cardtable score`` of a one-line file to stdout (its start-up,
    imports included), against the interpreter starting and exiting."""
    path = tmp_path / "one.txt"
    path.write_text("AS 2S 3S KD\n")
    describe(benchmark, "cli-score-startup", lines_per_round=1)
    if what == "score":
        command = [sys.executable, "-m", "cardtable", "score", "--format", "jsonl", str(path)]
    else:
        command = [sys.executable, "-c", "pass"]

    def run() -> bytes:
        return subprocess.run(command, check=True, capture_output=True).stdout

    pedantic: Callable[..., bytes] = benchmark.pedantic  # untyped in pytest-benchmark
    output = pedantic(run, rounds=10, iterations=1)
    assert (b'"deadwood": 10' in output) == (what == "score")
