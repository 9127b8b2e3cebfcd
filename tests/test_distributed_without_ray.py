"""Ray is an optional extra: the package never imports it on its own, and
``--ray`` or ``cardtable.distributed`` without it say how to install it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardtable import _core, distributed
from cardtable.cli import main
from cardtable.games import Simulation, _summary_of, load_game, simulate
from cardtable.melds import MeldRules


def test_the_package_does_not_import_ray() -> None:
    code = (
        "import sys, cardtable, cardtable.games, cardtable.distributed, cardtable.cli; "
        "from cardtable.cli import main; "
        "assert 'ray' not in sys.modules, 'ray imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_ray_flag_without_ray_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails
    hands = tmp_path / "h.txt"
    hands.write_text("AS 2S 3S\n")
    for args in (
        ["score", str(hands), "--ray"],
        ["simulate", "tonk", "--bots", "greedy,random", "--ray=localhost:6379"],
    ):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2, result.output
        assert "pip install 'cardtable[ray]'" in result.output
        assert result.stdout == ""
    with pytest.raises(ImportError, match=r"pip install 'cardtable\[ray\]'"):
        distributed.simulate(load_game("tonk"), ["greedy", "random"], 10, seed=1)


def test_line_chunks_scored_apart_give_the_whole_output() -> None:
    """The cut into chunks of whole lines (without Ray: each chunk scored as
    a task would, numbered from its first line) changes no byte of the
    output, wherever the input's blocks were cut: inside a CRLF, inside or
    right after a line over the limit, at a last line without an end."""
    long = b"AS " * 22_000  # over MAX_LINE_BYTES
    data = b"AS 2S 3S KD\r\n" + long + b"\r\nXX\r" + long + b"\n\nKD\r\r\n" + long + b"\rQS QD QH"
    rules = MeldRules("gin")
    for fmt in ("text", "jsonl", "csv"):
        stream = _core.ScoreStream(rules, fmt, "f")
        want = stream.feed(data)[0] + stream.finish()[0]
        marks = [i for i, b in enumerate(data) if b in b"\r\n"]
        cuts = {1, len(data) - 1, *marks, *(m + 1 for m in marks), 65_000, 65_537, 66_100}
        for cut in sorted(c for c in cuts if 0 < c < len(data)):
            for chunk_bytes in (1, 70_000):
                blocks = [data[:cut], data[cut:]]
                out, line = b"", 1
                for chunk in distributed.line_chunks(blocks, chunk_bytes):
                    out += distributed._score_chunk(rules, fmt, "f", line, chunk.output, 1)[0]
                    line += chunk.lines
                assert out == want, (fmt, cut, chunk_bytes)


@pytest.mark.parametrize(
    ("name", "bots", "games"),
    [("tonk", ["greedy", "random", "greedy"], 150), ("spit", ["plain:normal", "smart:hard"], 20)],
)
def test_shards_absorbed_in_order_give_the_local_summary_with_its_distributions(
    name: str, bots: list[str], games: int
) -> None:
    """What a Ray run does, in one process: shards played apart (their
    tallies as bytes) and absorbed in order give exactly the local summary,
    the distributions of returns and game lengths included."""
    game = load_game(name, players=len(bots)) if name == "tonk" else load_game(name)
    want = simulate(game, bots, games, seed=6, chunk=5)
    run = Simulation(game, bots, games, 6)
    worker = Simulation(game, bots, games, 6)
    for start, stop in distributed.shard_bounds(run.total, len(bots), 4):
        tally, _ = worker.play_shard(start, stop)
        run.absorb(tally)
    assert _summary_of(run, 6, len(bots)) == want
    assert all(sum(c for _, c in b["return_distribution"]) == run.total for b in want["bots"])
    assert sum(c for _, c in want["length_distribution"]["actions"]) == run.total
    assert ("virtual_seconds" in want["length_distribution"]) == (name == "spit")
