"""Simulations and hand scoring on a Ray cluster (``pip install 'cardtable[ray]'``).

::

    from cardtable.distributed import connect, simulate, score_blocks
    connect("auto")                      # on a cluster node; connect() may start a local one
    summary = simulate(load_game("tonk"), ["strong", "greedy"], 20_000, seed=1)

A simulation is cut into shards of whole deals (games ``start..stop``, both
multiples of the number of bots); each shard is one Ray task that plays its
games in Rust and sends back their tally (and, if asked, their records). The
driver absorbs the tallies in shard order, so the summary is exactly, bit for
bit, the one ``cardtable.games.simulate`` gives for the same seed, whatever
the number of shards or workers: every game's seeds come from the run's seed
and the game's index, never from where it ran.

Scoring cuts the input into chunks of whole lines, ships their bytes (workers
may be remote) and returns each chunk's output in input order, exactly as
``cardtable score`` writes it (line numbers included).

A task whose worker dies (a crash, a lost node) is retried by Ray up to
``max_retries`` times; results are keyed by shard, so each is taken once.
Errors of the input (bad options, bad tallies) are not retried. What Ray's
driver prints of such faults goes to stderr (``connect``), never among the
output. Ray is only imported when one of these functions runs.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from cardtable import _core
from cardtable.deck import check_seed, new_seed
from cardtable.games import Game, Simulation, Summary, _summary_of

if TYPE_CHECKING:
    from cardtable.melds import MeldRules

__all__ = [
    "RAY_MISSING",
    "ScoredChunk",
    "connect",
    "line_chunks",
    "require_ray",
    "score_blocks",
    "shard_bounds",
    "simulate",
]

RAY_MISSING = "Ray is not installed: pip install 'cardtable[ray]'"

#: Bytes of input per scoring task (whole lines).
CHUNK_BYTES = 4 << 20


def require_ray() -> Any:
    """The ``ray`` module, or an ImportError that says how to install it."""
    try:
        import ray
    except ImportError as e:
        raise ImportError(RAY_MISSING) from e
    return ray


def connect(address: str | None = None, **init_options: Any) -> None:
    """Connects to the Ray cluster at ``address`` (``ray.init(address=...)``);
    without one, to the cluster Ray finds (``RAY_ADDRESS``, a running local
    one) or a new local one. Does nothing if Ray is already initialised.

    What Ray's driver prints of the cluster's doings (a worker that died, a
    task that will be retried, and with ``log_to_driver`` the workers' own
    output) goes to stderr, so that the program's stdout holds only what it
    writes itself; call ``ray.init`` yourself to keep Ray's way."""
    ray = require_ray()
    if not ray.is_initialized():
        _ray_prints_to_stderr()
        ray.init(address=address, **init_options)


def _ray_prints_to_stderr() -> None:
    """Points the driver's printing of cluster messages at stderr.

    Ray (checked on 2.60) prints them with ``print_to_stdstream`` of
    ``ray._private.worker``: the errors the raylets publish (``(raylet) A
    worker died...``, ``... the task will be retried``) from a thread that
    runs whatever ``log_to_driver`` says, always to ``sys.stdout``, and the
    workers' lines (``log_to_driver``) to the stream they came from; the
    lines it holds back to count repeats are flushed to the same streams at
    ``ray.shutdown``. Marking every message as stderr's sends them all, and
    those flushes, to stderr. Ray offers no option for it (``log_to_driver``
    and ``LoggingConfig`` leave the error thread alone), hence the private
    hook; it must be in place before ``ray.init``, which binds it for the
    workers' lines. A Ray without it is left as it is (``tests/test_ray_faults.py``
    checks the stdout of a run whose worker is killed)."""
    import ray._private.worker as ray_worker

    original = getattr(ray_worker, "print_to_stdstream", None)
    if original is None or getattr(original, "_to_stderr", False):
        return

    def to_stderr(data: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        return original({**data, "is_err": True}, *args, **kwargs)

    to_stderr._to_stderr = True  # type: ignore[attr-defined]
    ray_worker.print_to_stdstream = to_stderr


def _cluster_cpus() -> int:
    ray = require_ray()
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def shard_bounds(total: int, bots: int, shards: int) -> list[tuple[int, int]]:
    """Cuts games ``0..total`` (whole rotations of ``bots``) into at most
    ``shards`` shards of whole deals, as even as they come, in order."""
    if bots < 1 or total % bots:
        raise ValueError(f"{total} games are not whole rotations of {bots} bots")
    if shards < 1:
        raise ValueError(f"shards must be 1 or more, got {shards}")
    deals = total // bots
    shards = min(shards, deals) or 1
    per, extra = divmod(deals, shards)
    bounds: list[tuple[int, int]] = []
    start = 0
    for k in range(shards):
        stop = start + (per + (k < extra)) * bots
        bounds.append((start, stop))
        start = stop
    return bounds


def _play_shard(
    game: Game,
    bots: list[str],
    games: int,
    seed: int,
    start: int,
    stop: int,
    threads: int | None,
    record: bool,
) -> tuple[bytes, list[str]]:
    """One shard, on a worker: a copy of the run plays games ``start..stop``."""
    return Simulation(game, bots, games, seed).play_shard(
        start, stop, threads=threads, record=record
    )


def _in_order(
    refs: Sequence[Any], on_done: Callable[[int, int], None] | None
) -> Iterator[tuple[int, Any]]:
    """Waits for every task of ``refs`` (one per shard) and yields
    ``(shard, result)`` in shard order, each shard once, while reporting
    ``on_done(shards done, shards)`` as tasks finish in any order."""
    ray = require_ray()
    waiting = {ref: k for k, ref in enumerate(refs)}
    ready: dict[int, Any] = {}
    taken = done = 0
    try:
        while waiting:
            finished, _ = ray.wait(list(waiting), num_returns=1)
            for ref in finished:
                k = waiting.pop(ref)
                ready[k] = ray.get(ref)
                done += 1
                if on_done is not None:
                    on_done(done, len(refs))
            while taken in ready:
                yield taken, ready.pop(taken)
                taken += 1
    finally:
        for ref in waiting:
            ray.cancel(ref)


def simulate(
    game: Game,
    bots: Sequence[str],
    games: int,
    seed: int | None = None,
    *,
    shards: int | None = None,
    cpus_per_shard: int = 1,
    max_retries: int = 3,
    on_records: Callable[[list[str]], None] | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> Summary:
    """``cardtable.games.simulate`` on the Ray cluster (``connect`` first, or
    a local cluster is started): the same summary for the same seed.

    ``shards`` (default: four per CPU of the cluster, at most one per deal)
    tasks of ``cpus_per_shard`` CPUs each, playing on that many threads;
    ``on_records`` gets each shard's records in game order;
    ``on_progress(shards done, shards)`` is called as shards finish.
    """
    ray = require_ray()
    connect()
    s = new_seed() if seed is None else check_seed(seed)
    bots = list(bots)
    run = Simulation(game, bots, games, s)
    if cpus_per_shard < 1:
        raise ValueError(f"cpus_per_shard must be 1 or more, got {cpus_per_shard}")
    count = 4 * _cluster_cpus() if shards is None else shards
    bounds = shard_bounds(run.total, len(bots), count)
    # SPREAD: the shards go to every node of the cluster, not first to the
    # driver's until it is half busy.
    task = ray.remote(_play_shard).options(
        num_cpus=cpus_per_shard, max_retries=max_retries, scheduling_strategy="SPREAD"
    )
    record = on_records is not None
    refs = [
        task.remote(game, bots, games, s, start, stop, cpus_per_shard, record)
        for start, stop in bounds
    ]
    for _, (tally, records) in _in_order(refs, on_progress):
        run.absorb(tally)
        if on_records is not None:
            on_records(records)
    return _summary_of(run, s, len(bots))


class ScoredChunk(NamedTuple):
    """One chunk's output and counts, as ``ScoreStream.feed`` gives them,
    plus the input bytes it stands for. The output is bytes of text, or for
    the format ``arrow`` a pyarrow Table of the records."""

    output: Any
    scored: int
    rejected: int
    lines: int
    nbytes: int


def _count_lines(data: bytes) -> int:
    """Line ends in ``data``: LF, CRLF and a lone CR each end one line."""
    return data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")


def line_chunks(blocks: Iterable[bytes], chunk_bytes: int = CHUNK_BYTES) -> Iterator[ScoredChunk]:
    """Re-cuts ``blocks`` (an input cut anywhere) into chunks of whole lines
    of about ``chunk_bytes``: ``ScoredChunk(data, 0, 0, lines, input bytes)``.

    A CRLF is never split. A line longer than MAX_LINE_BYTES is shortened to
    MAX_LINE_BYTES + 1 bytes (the scorer reports it over the limit, echoing
    its start, as it would the whole line), so memory stays bounded.
    """
    limit = _core.MAX_LINE_BYTES
    whole: list[bytes] = []
    size = 0
    tail = bytearray()  # the start of an unfinished line
    skipping = False  # that line is over the limit: drop the rest of it
    after_cr = False  # the last block ended with CR: a LF first belongs to it
    consumed = 0

    def cut() -> ScoredChunk:
        nonlocal whole, size, consumed
        data = b"".join(whole)
        chunk = ScoredChunk(data, 0, 0, _count_lines(data), consumed)
        whole, size, consumed = [], 0, 0
        return chunk

    for block in blocks:
        consumed += len(block)
        if after_cr and block[:1] == b"\n":
            block = block[1:]
        if not block:
            continue
        after_cr = False
        last = max(block.rfind(b"\n"), block.rfind(b"\r"))
        if last < 0:
            if not skipping:
                tail += block
                if len(tail) > limit:
                    del tail[limit + 1 :]
                    skipping = True
            continue
        head, rest = block[: last + 1], block[last + 1 :]
        if skipping:
            first = min(i for i in (head.find(b"\n"), head.find(b"\r")) if i >= 0)
            end = first + (2 if head[first : first + 2] == b"\r\n" else 1)
            tail += head[first:end]
            head = head[end:]
            skipping = False
        piece = bytes(tail) + head
        tail.clear()
        whole.append(piece)
        size += len(piece)
        after_cr = not rest and block.endswith(b"\r")
        if rest:
            tail += rest
            if len(tail) > limit:
                del tail[limit + 1 :]
                skipping = True
        if size >= chunk_bytes:
            yield cut()
    if tail:  # a last line without an end of line
        whole.append(bytes(tail))
    if whole or consumed:
        chunk = cut()
        yield chunk._replace(lines=chunk.lines + (1 if tail else 0))


def _stream(
    rules: MeldRules, fmt: str, file: str | None, threads: int | None = None, first_line: int = 1
) -> _core.ScoreStream | _core.ArrowScoreStream:
    """The core's scorer of ``fmt`` (``arrow``: records as Arrow columns)."""
    if fmt == "arrow":
        return _core.ArrowScoreStream(rules, file, threads, first_line)
    return _core.ScoreStream(rules, fmt, file, threads, first_line)


def _score_chunk(
    rules: MeldRules, fmt: str, file: str | None, first_line: int, data: bytes, threads: int
) -> tuple[Any, int, int, int]:
    """One chunk of whole lines, on a worker, numbered from ``first_line``."""
    if fmt == "arrow":
        import pyarrow as pa

        arrow = _core.ArrowScoreStream(rules, file, threads, first_line)
        fed, ok, bad, lines = arrow.feed(data)
        end, ok2, bad2, lines2 = arrow.finish()
        table = pa.concat_tables([pa.table(fed), pa.table(end)])
        return table, ok + ok2, bad + bad2, lines + lines2
    text = _core.ScoreStream(rules, fmt, file, threads, first_line)
    output, ok, bad, lines = text.feed(data)
    tail, ok2, bad2, lines2 = text.finish()
    return output + tail, ok + ok2, bad + bad2, lines + lines2


def score_blocks(
    blocks: Iterable[bytes],
    rules: MeldRules,
    fmt: str,
    *,
    file: str | None = None,
    chunk_bytes: int = CHUNK_BYTES,
    in_flight: int | None = None,
    cpus_per_chunk: int = 1,
    max_retries: int = 3,
) -> Iterator[ScoredChunk]:
    """Scores an input (``blocks``: its bytes, cut anywhere) on the Ray
    cluster and yields each chunk's output in input order, the same bytes as
    ``ScoreStream(rules, fmt, file)`` fed the whole input (``fmt``: ``text``,
    ``jsonl``, ``csv``; the header is the caller's, ``score_header``), or for
    ``fmt`` ``arrow`` the records of ``ArrowScoreStream`` as pyarrow Tables
    (pyarrow is needed on the workers). At most
    ``in_flight`` chunks (default: two per CPU of the cluster) are out at once,
    so memory stays bounded whatever the input's size."""
    ray = require_ray()
    connect()
    if chunk_bytes < 1:
        raise ValueError(f"chunk_bytes must be 1 or more, got {chunk_bytes}")
    _stream(rules, fmt, file)  # bad options fail here, not on a worker
    window = 2 * _cluster_cpus() if in_flight is None else max(1, in_flight)
    task = ray.remote(_score_chunk).options(
        num_cpus=cpus_per_chunk, max_retries=max_retries, scheduling_strategy="SPREAD"
    )
    pending: deque[tuple[Any, int]] = deque()
    line = 1

    def oldest() -> ScoredChunk:
        ref, nbytes = pending.popleft()
        text, ok, bad, lines = ray.get(ref)
        return ScoredChunk(text, ok, bad, lines, nbytes)

    try:
        for chunk in line_chunks(blocks, chunk_bytes):
            pending.append(
                (task.remote(rules, fmt, file, line, chunk.output, cpus_per_chunk), chunk.nbytes)
            )
            line += chunk.lines
            while len(pending) >= window:
                yield oldest()
        while pending:
            yield oldest()
    finally:
        for ref, _ in pending:
            ray.cancel(ref)
