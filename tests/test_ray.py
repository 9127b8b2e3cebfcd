"""Simulation and scoring on a Ray cluster (``cardtable.distributed``,
``--ray``): one local two-CPU cluster for the module. The results must be
exactly those of a local run, whatever the cut into shards, and a worker
that dies mid-shard must neither lose nor double count its shard."""

from __future__ import annotations

import json
import os
import random
import runpy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cardtable import _core, distributed
from cardtable.cli import main
from cardtable.cli import score as score_cli
from cardtable.errors import InvalidConfigError
from cardtable.games import Game, Simulation, load_game, simulate
from cardtable.melds import MeldRules

ray = pytest.importorskip("ray")

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module", autouse=True)
def cluster() -> Iterator[None]:
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        # Small, so that the cluster starts under a virtual memory limit.
        object_store_memory=128 * 2**20,
    )
    yield
    ray.shutdown()


def test_shard_bounds_are_whole_deals_in_order() -> None:
    assert distributed.shard_bounds(12, 3, 3) == [(0, 6), (6, 9), (9, 12)]
    assert distributed.shard_bounds(4, 2, 10) == [(0, 2), (2, 4)]
    with pytest.raises(ValueError, match="whole rotations"):
        distributed.shard_bounds(5, 2, 2)
    with pytest.raises(ValueError, match="shards"):
        distributed.shard_bounds(4, 2, 0)


@pytest.mark.parametrize(
    ("game", "bots", "games"),
    [
        (load_game("tonk"), ["greedy", "random"], 1001),
        (load_game("tonk", players=3), ["greedy", "random", "greedy"], 300),
        (load_game("spit"), ["plain:normal", "smart:hard"], 60),
    ],
    ids=["tonk", "tonk-3", "spit"],
)
def test_ray_summary_is_the_local_one(game: Game, bots: list[str], games: int) -> None:
    want = simulate(game, bots, games, seed=9, chunk=7)
    # The comparison covers the distributions too.
    assert all(b["return_distribution"] for b in want["bots"])
    assert want["length_distribution"]["actions"]
    progress: list[tuple[int, int]] = []
    for shards in (1, 3, 8):
        got = distributed.simulate(
            game,
            bots,
            games,
            seed=9,
            shards=shards,
            on_progress=lambda done, total: progress.append((done, total)),
        )
        assert got == want, shards
    assert progress[-1] == (8, 8)
    assert sorted(p[0] for p in progress[-8:]) == list(range(1, 9))


def test_ray_records_come_in_game_order() -> None:
    game = load_game("spit")
    bots = ["plain:normal", "plain:hard"]
    local: list[str] = []
    simulate(game, bots, 20, seed=4, chunk=3, on_records=local.extend)
    remote: list[str] = []
    distributed.simulate(game, bots, 20, seed=4, shards=6, on_records=remote.extend)
    assert remote == local
    assert len(local) == 20


def test_a_killed_worker_loses_and_doubles_no_shard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Shard 2's first attempt kills its worker process; Ray retries it (a
    worker death is a system failure) and its tally is taken once."""
    game = load_game("tonk")
    bots = ["greedy", "random"]
    want = simulate(game, bots, 400, seed=3)
    marker = tmp_path / "killed"
    attempts = tmp_path / "attempts"
    real = distributed._play_shard

    def dies_once(*args: Any) -> tuple[bytes, list[str]]:
        start = args[4]
        with open(attempts, "a") as f:
            f.write(f"{start}\n")
        if start == 100 and not marker.exists():
            marker.write_text("killed")
            os._exit(1)
        return real(*args)

    monkeypatch.setattr(distributed, "_play_shard", dies_once)
    got = distributed.simulate(game, bots, 400, seed=3, shards=4, max_retries=2)
    assert marker.exists()
    starts = attempts.read_text().split()
    assert starts.count("100") == 2  # killed, then retried
    assert sorted(set(starts)) == ["0", "100", "200", "300"]
    assert got == want


def test_a_shard_that_keeps_failing_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def always_dies(*args: Any) -> tuple[bytes, list[str]]:
        os._exit(1)

    monkeypatch.setattr(distributed, "_play_shard", always_dies)
    with pytest.raises(ray.exceptions.RayError):
        distributed.simulate(load_game("tonk"), ["greedy", "random"], 10, seed=1, max_retries=1)


def test_a_tally_from_another_run_is_refused() -> None:
    game = load_game("tonk")
    tally, _ = Simulation(game, ["greedy", "random"], 10, 1).play_shard(0, 4)
    with pytest.raises(InvalidConfigError, match="another run"):
        Simulation(game, ["greedy", "random"], 10, 2).absorb(tally)


def run_cli(args: list[str]) -> Any:
    return CliRunner().invoke(main, args)


def test_cli_simulate_ray_is_the_local_run(tmp_path: Path) -> None:
    args = ["simulate", "tonk", "--games", "600", "--bots", "greedy,random", "--seed", "5"]
    local = run_cli([*args, "--format", "json", "--record", str(tmp_path / "l.jsonl")])
    remote = run_cli(
        [*args, "--format", "json", "--record", str(tmp_path / "r.jsonl"), "--ray", "--shards", "7"]
    )
    assert local.exit_code == remote.exit_code == 0, remote.output
    assert json.loads(remote.stdout) == json.loads(local.stdout)
    assert (tmp_path / "r.jsonl").read_bytes() == (tmp_path / "l.jsonl").read_bytes()
    text = run_cli([*args, "--ray"])
    assert text.stdout == run_cli(args).stdout
    # The same summary, the same figure.
    plots = [tmp_path / "local.svg", tmp_path / "ray.svg"]
    assert run_cli([*args, "--plot", str(plots[0])]).exit_code == 0
    assert run_cli([*args, "--plot", str(plots[1]), "--ray"]).exit_code == 0
    assert plots[1].read_bytes() == plots[0].read_bytes()


def test_cli_ray_usage_errors() -> None:
    bad = run_cli(["simulate", "tonk", "--bots", "greedy,random", "--shards", "2"])
    assert bad.exit_code == 2
    assert "--shards is for --ray runs" in bad.output
    bad = run_cli(["score", "--ray", "hands.txt"])
    assert bad.exit_code == 2
    assert "not a Ray address" in bad.output


HARD_INPUT = (
    b"\xef\xbb\xbfAS 2S 3S KD\n"
    b"# a comment\r\n"
    b"\n"
    b"XX 2S\r"
    b"7H 8H 9H TH JH QH KH AH 2C 3C\r\n"
    b",,,\n"
    + b"AS " * 30_000
    + b"\n"
    + b"\xff\xfe bad utf-8\n"
    + b"KC KD KH 4S\r"
    + b"2D " * 22_000
    + b"\r\n"
    + b"QS QD QH"
)


def local_output(data: bytes, rules: MeldRules, fmt: str, file: str | None = None) -> bytes:
    stream = _core.ScoreStream(rules, fmt, file)
    text, *_ = stream.feed(data)
    end, *_ = stream.finish()
    return text + end


@pytest.mark.parametrize("fmt", ["text", "jsonl", "csv"])
def test_score_blocks_give_the_local_bytes_for_any_cut(fmt: str) -> None:
    rules = MeldRules("gin")
    want = local_output(HARD_INPUT, rules, fmt, "f.txt")
    rng = random.Random(fmt)
    for chunk_bytes in (1, 40, 5000, 1 << 20):
        cuts = sorted(rng.sample(range(1, len(HARD_INPUT)), 30))
        ends = [*cuts, len(HARD_INPUT)]
        blocks = [HARD_INPUT[a:b] for a, b in zip([0, *cuts], ends, strict=True)]
        got = list(
            distributed.score_blocks(blocks, rules, fmt, file="f.txt", chunk_bytes=chunk_bytes)
        )
        assert b"".join(c.output for c in got) == want, chunk_bytes
        assert sum(c.nbytes for c in got) == len(HARD_INPUT)
        assert sum(c.rejected for c in got) == 5
        assert sum(c.scored for c in got) == 4


def test_line_chunks_hold_no_overlong_line() -> None:
    line = b"AS " * 100_000
    blocks = [line[i : i + 1000] for i in range(0, len(line), 1000)] + [b"\nKD\n"]
    chunks = list(distributed.line_chunks(blocks, 10))
    # The long line is cut to one byte over the limit (then its end, and KD).
    assert max(len(c.output) for c in chunks) <= _core.MAX_LINE_BYTES + 1 + len(b"\nKD\n")
    assert sum(c.lines for c in chunks) == 2


@pytest.mark.parametrize("fmt", ["text", "jsonl", "csv"])
def test_cli_score_ray_is_byte_identical(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(HARD_INPUT)
    good = tmp_path / "good.txt"
    good.write_bytes(b"".join(b"AS 2S 3S %dH\n" % (n % 9 + 2) for n in range(3000)))
    for files in ([str(bad)], [str(good)], [str(bad), str(good)]):
        args = ["score", "--format", fmt, *files]
        local = run_cli(args)
        # Small reads and chunks: many tasks, lines cut across reads.
        monkeypatch.setattr(score_cli, "CHUNK_BYTES", 777)
        monkeypatch.setattr(distributed, "CHUNK_BYTES", 5000)
        remote = run_cli([*args, "--ray"])
        monkeypatch.undo()
        assert remote.exit_code == local.exit_code, remote.output
        assert remote.stdout_bytes == local.stdout_bytes
        assert remote.stderr == local.stderr
    assert local.exit_code == 1


def test_cli_score_ray_writes_parquet_and_refuses_arrow_inputs(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    hands = tmp_path / "hands.txt"
    hands.write_bytes(HARD_INPUT)
    local, remote = tmp_path / "local.parquet", tmp_path / "remote.parquet"
    assert run_cli(["score", str(hands), "--format", "parquet", "-o", str(local)]).exit_code == 1
    result = run_cli(["score", str(hands), "--format", "parquet", "-o", str(remote), "--ray"])
    assert result.exit_code == 1, result.output
    assert pq.read_table(remote).equals(pq.read_table(local))
    result = run_cli(["score", str(local), "--column", "hand", "--ray"])
    assert result.exit_code == 2
    assert "Parquet and Arrow inputs are scored here" in result.output


# Ray Data warns about its own deprecated settings when it starts.
@pytest.mark.filterwarnings("ignore::DeprecationWarning:ray.data")
def test_ray_data_pipeline_scores_a_directory(tmp_path: Path) -> None:
    example = ROOT / "examples" / "ray_data_score.py"
    # The docs show this very pipeline (docs/ray.md, linked from the README).
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    code = example.read_text()
    body = code[code.index("def score_batch") : code.index('if __name__ == "__main__"')].strip()
    assert any(body in page.read_text(encoding="utf-8") for page in pages)
    pipeline = runpy.run_path(str(example))
    hands = tmp_path / "hands"
    hands.mkdir()
    (hands / "a.txt").write_text("AS 2S 3S KD\n\n7H 8H 9H\n")
    (hands / "b.txt").write_text("XX\nKC KD KH 4S 5S\n")
    rows = sorted(
        (Path(r["path"]).name, r["hand"], int(r["deadwood"]), r["error"])
        for r in pipeline["score_directory"](str(hands)).iter_rows()
    )
    assert [r[:3] for r in rows] == [
        ("a.txt", "7H 8H 9H", 0),
        ("a.txt", "AS 2S 3S KD", 10),
        ("b.txt", "KC KD KH 4S 5S", 9),
        ("b.txt", "XX", -1),
    ]
    assert rows[3][3].startswith('invalid card "XX"')
    assert all(r[3] == "" for r in rows[:3])
