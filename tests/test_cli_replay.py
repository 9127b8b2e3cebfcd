"""``cardtable replay``: validation of record files, corrupted lines, ``--show``."""

from __future__ import annotations

import io
import itertools
import json
import random
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from cardtable._core import MAX_RECORD_BYTES
from cardtable.cli import main
from cardtable.cli.terminal import sort_hand
from cardtable.games.tonk import TonkBot, TonkGame, replay_tonk_record, simulate


def replay(args: Sequence[str], stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, ["replay", *args], input=stdin)


def sim_records(games: int, bots: Sequence[str], seed: int, **options: object) -> list[str]:
    lines: list[str] = []
    simulate(TonkGame(players=len(bots), **options), bots, games, seed, on_records=lines.extend)
    return lines


@pytest.fixture
def records() -> list[str]:
    return sim_records(12, ["greedy", "random"], 21)


def write(tmp_path: Path, lines: Sequence[str], name: str = "games.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def long_record(records: Sequence[str]) -> int:
    """Index of a record with several actions (one worth corrupting)."""
    return next(i for i, r in enumerate(records) if len(json.loads(r)["actions"]) >= 4)


def test_valid_file(tmp_path: Path, records: list[str]) -> None:
    result = replay([str(write(tmp_path, records))])
    assert result.exit_code == 0
    assert result.output == "12 records, all valid\n"
    quiet = replay([str(write(tmp_path, records)), "--quiet"])
    assert quiet.exit_code == 0
    assert quiet.output == ""


def test_blank_lines_are_skipped_and_line_numbers_kept(tmp_path: Path, records: list[str]) -> None:
    lines = ["", records[0], "   ", records[1], "{not json"]
    result = replay([str(write(tmp_path, lines))])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "line 5: not JSON: key must be a string at line 1 column 2",
        "3 records, 1 invalid",
    ]


def test_changed_action_is_reported_with_its_line(tmp_path: Path, records: list[str]) -> None:
    k = long_record(records)
    data = json.loads(records[k])
    data["actions"][1] = 999  # a hit onto a spread that does not exist
    lines = list(records)
    lines[k] = json.dumps(data)
    result = replay([str(write(tmp_path, lines))])
    assert result.exit_code == 1
    out = result.output.splitlines()
    assert len(out) == 2
    assert out[0].startswith(f"line {k + 1}: action 2 of ")
    assert " (999): " in out[0]
    assert "is not legal" in out[0]
    assert out[1] == "12 records, 1 invalid"


def test_changed_returns_are_reported(tmp_path: Path, records: list[str]) -> None:
    lines = list(records)
    data = json.loads(lines[2])
    real = data["result"]["returns"]
    data["result"]["returns"] = [real[1], real[0]] if real[0] != real[1] else [7, -7]
    lines[2] = json.dumps(data)
    data = json.loads(lines[5])
    data["result"]["ending"] = "tonk_out" if data["result"]["ending"] != "tonk_out" else "void"
    lines[5] = json.dumps(data)
    result = replay([str(write(tmp_path, lines)), "-q"])
    assert result.exit_code == 1
    out = result.output.splitlines()
    assert [line.split(":")[0] for line in out] == ["line 3", "line 6"]
    assert "the record says" in out[0]
    assert "the replay gives" in out[0]


def test_truncated_record_is_invalid_but_unfinished_record_is_valid(
    tmp_path: Path, records: list[str]
) -> None:
    k = long_record(records)
    data = json.loads(records[k])
    data["actions"] = data["actions"][:-1]
    unfinished = dict(data, result=None)
    result = replay([str(write(tmp_path, [json.dumps(data), json.dumps(unfinished)]))])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"line 1: the record says the game ended ({data['result']['ending']}) but after its "
        f"{len(data['actions'])} actions it is still going",
        "2 records, 1 invalid",
    ]


def test_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    result = replay([str(tmp_path / "nope.jsonl")])
    assert result.exit_code == 2
    assert "does not exist" in result.output


def test_standard_input(records: list[str]) -> None:
    result = replay(["-"], stdin="\n".join(records[:3]) + "\n")
    assert result.exit_code == 0
    assert result.output == "3 records, all valid\n"


def test_show_prints_the_game_turn_by_turn(tmp_path: Path, records: list[str]) -> None:
    k = long_record(records)
    path = write(tmp_path, records)
    result = replay([str(path), "--show", str(k + 1)])
    assert result.exit_code == 0, result.output
    out = result.output.splitlines()
    data = json.loads(records[k])
    state = replay_tonk_record(records[k])
    game = TonkGame(**data["params"])
    start = game.new_initial_state(data["seed"], data["dealer"])
    assert out[0] == (
        f"Tonk, 2 players, seed {data['seed']}, dealer Player {data['dealer']} "
        f"({data['players'][data['dealer']]})"
    )
    # The deal shows every hand (a replay is omniscient).
    for p in range(2):
        hand = " ".join(c.symbol() for c in sort_hand(start.hand(p)))
        assert f"  Player {p} ({data['players'][p]}): {hand}  (count {start.count(p)})" in out
    assert any(line.startswith("Turn 1: Player ") for line in out)
    # Every action appears in order, told by the narrator with its actor and
    # its cards; a stock draw names the card drawn (a replay is omniscient).
    verbs = {"draw": "draws", "take": "picks up", "discard": "discards", "spread": "spreads",
             "hit": "hits", "drop": "drops!", "pass": "passes", "claim_49": "claims"}  # fmt: skip
    replayed = game.new_initial_state(data["seed"], data["dealer"])
    lines = iter(out)
    for a in data["actions"]:
        actor = replayed.current_player()
        assert actor is not None
        info = replayed.describe_action(a)
        cards = "".join(f" {c.symbol()}" for c in info.cards)
        text = f"  Player {actor} ({data['players'][actor]}) {verbs[info.kind]}{cards}"
        hand_before = replayed.hand(actor)
        replayed.apply_action(a)
        if info.kind == "pass" and not replayed.is_terminal():
            continue  # a drop window's passes are told together
        line = next(x for x in lines if x.startswith(text))
        if info.kind == "draw" and replayed.stock_size < start.stock_size:
            (drawn,) = [c for c in replayed.hand(actor) if c not in hand_before]
            assert line == f"{text} {drawn.symbol()} from the stock ({replayed.stock_size} left)"
    ending = state.ending
    assert ending is not None
    assert any(line.startswith(f"Ending: {ending['category']} - ") for line in out)
    returns = ", ".join(
        f"Player {p} {r:+d}" if r else f"Player {p} 0" for p, r in enumerate(state.returns())
    )
    assert f"Returns: {returns}" in out
    assert out[-1] == "12 records, all valid"


def test_show_three_players_with_windows_and_spades(tmp_path: Path) -> None:
    lines = sim_records(
        3, ["greedy", "greedy", "strong:20"], 8, drop_timing="any_time", spades_bet=1
    )
    result = replay([str(write(tmp_path, lines)), "--show", "2"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert re.search(r"^  drop window: (Player \d, )*Player \d pass$", out, re.M)
    assert re.search(r"^  spades bet: ", out, re.M)
    assert "Rules: pagat rules, --drop-timing any_time, --spades-bet 1" in out


def test_show_a_stacked_deck_and_an_unfinished_hand(tmp_path: Path) -> None:
    game = TonkGame(players=2)
    deck = [c for s in "SHDC" for c in (f"{r}{s}" for r in "A23456789TJQK")]
    state = game.state_from_deck(deck, 1)
    bots = [TonkBot("greedy", 1), TonkBot("greedy", 2)]
    for _ in range(3):
        p = state.current_player()
        assert p is not None
        state.apply_action(bots[p].act(state))
    path = write(tmp_path, [state.to_record(["a", "b"])])
    result = replay([str(path), "--show", "1"])
    assert result.exit_code == 0, result.output
    assert "a stacked deck" in result.output
    assert "The record stops before the end" in result.output
    assert result.output.endswith("1 record, all valid\n")


def test_show_of_a_bad_record(tmp_path: Path, records: list[str]) -> None:
    k = long_record(records)
    data = json.loads(records[k])
    data["actions"][1] = 999
    path = write(tmp_path, [json.dumps(data)])
    result = replay([str(path), "--show", "1"])
    assert result.exit_code == 1
    # Both the turn-by-turn display and the check name the second action.
    message = "(999): hit 9S S10 is not legal now: "
    assert "cannot show line 1: action 2 of " in result.stderr
    assert message in result.stderr
    assert "line 1: action 2 of " in result.stdout
    assert message in result.stdout
    assert "Turn 1: " in result.stdout


@pytest.mark.parametrize("k", ["3", "0"])
def test_show_outside_the_file_is_a_usage_error(tmp_path: Path, k: str, records: list[str]) -> None:
    result = replay([str(write(tmp_path, records[:2])), "--show", k])
    assert result.exit_code == 2
    assert "--show" in result.output


def test_show_from_standard_input(records: list[str]) -> None:
    """--show K reads line K first, then checks every record: a pipe is
    spooled to disk for that, never held in memory."""
    k = long_record(records)
    stdin = "\n".join(records) + "\n"
    from_pipe = replay(["-", "--show", str(k + 1)], stdin=stdin)
    assert from_pipe.exit_code == 0, from_pipe.output
    assert from_pipe.output.startswith("Tonk, 2 players")
    assert from_pipe.output.endswith("12 records, all valid\n")
    missing = replay(["-", "--show", "40"], stdin=stdin)
    assert missing.exit_code == 2
    assert "line 40 of - holds no record (12 lines)" in missing.output


@pytest.mark.parametrize("end", ["\r", "\r\n"])
def test_every_line_end_counts(tmp_path: Path, records: list[str], end: str) -> None:
    path = tmp_path / "cr.jsonl"
    path.write_bytes((end.join([records[0], "", "{bad", records[1]]) + end).encode())
    result = replay([str(path)])
    assert result.exit_code == 1
    assert result.output.splitlines()[0].startswith("line 3: not JSON")
    assert result.output.splitlines()[-1] == "3 records, 1 invalid"
    shown = replay([str(path), "--show", "4"])
    assert shown.output.startswith("Tonk, 2 players"), shown.output


def test_records_are_read_one_at_a_time(records: list[str]) -> None:
    """Replay reads its records from a stream of lines: an endless input
    still gives its first records (reading it whole never would)."""
    from cardtable.cli import replay as replay_module

    class Endless(io.RawIOBase):
        line = (records[0] + "\r\n").encode()

        def readable(self) -> bool:
            return True

        def readinto(self, buffer: Any) -> int:
            n = len(buffer)
            buffer[:n] = (self.line * (n // len(self.line) + 1))[:n]
            return n

    stream = io.BufferedReader(Endless())
    blocks = iter(lambda: stream.read(1 << 16), b"")
    lines = replay_module.record_lines(blocks, 1 << 20)
    assert list(itertools.islice(lines, 3)) == [records[0].encode()] * 3
    lines.close()


def test_show_a_stalled_hand_names_tk_10_7(tmp_path: Path) -> None:
    # TK-10.7: two idle rounds with max_idle_rounds=1 end the hand as "stalled".
    state = TonkGame(max_idle_rounds=1).state_from_hands(
        0, ["3D 6C 9S QC 7D", "4D 8C TS KC JD"], "AS"
    )
    for _ in range(2):
        top = state.discard_pile[-1]
        state.apply_action(TonkGame().string_to_action("take"))
        state.apply_action(TonkGame().string_to_action(f"discard {top}"))
    assert state.ending == {"category": "stalled", "winner": 0}
    result = replay([str(write(tmp_path, [state.to_record(["a", "b"])])), "--show", "1"])
    assert result.exit_code == 0, result.output
    assert "The hand stalled (1 full round with no stock draw and nothing put down, TK-10.7)" in (
        result.output
    )
    assert result.output.endswith("1 record, all valid\n")


# Issue 22 item 2: replay's memory is flat. The CLI runs in a child of a
# small Python parent that reports the child's peak resident set (KiB).
_PEAK_RSS = """
import resource, shutil, subprocess, sys
mode, path, *cli = sys.argv[1:]
with open(path, "rb") as f:
    if mode == "pipe":
        pipe = subprocess.PIPE
        run = subprocess.Popen(cli, stdin=pipe, stdout=pipe, stderr=pipe)
        with run.stdin:
            shutil.copyfileobj(f, run.stdin, 1 << 20)
        out, err = run.stdout.read(), run.stderr.read()  # a few lines
        run.wait()
    else:
        run = subprocess.run(cli, stdin=f, capture_output=True)
        out, err = run.stdout, run.stderr
sys.stdout.write(f"{run.returncode}\\n{resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}\\n")
sys.stdout.write(out.decode())
sys.stderr.write(err.decode())
"""

# Far below the inputs' sizes (300 MB, 1 GB); the cap on a record is 32 MiB.
FLAT_RSS_KIB = 200 * 1024


def replay_with_peak(path: Path, *args: str, pipe: bool = False) -> tuple[int, int, list[str]]:
    """(exit status, peak RSS in KiB, stdout lines) of ``cardtable replay
    ARGS`` with ``path`` as its standard input (through a pipe with ``pipe``)."""
    cli = [sys.executable, "-m", "cardtable", "replay", *args]
    mode = "pipe" if pipe else "file"
    run = subprocess.run(
        [sys.executable, "-c", _PEAK_RSS, mode, str(path), *cli],
        capture_output=True,
        check=True,
        text=True,
    )
    status, peak, *out = run.stdout.splitlines()
    return int(status), int(peak), out


def test_issue22_item2_a_nul_file_is_refused_as_binary_in_flat_memory(tmp_path: Path) -> None:
    nuls = tmp_path / "nul.bin"
    with nuls.open("wb") as f:
        f.truncate(1 << 30)  # a sparse gigabyte of NULs, without a line end
    status, peak, out = replay_with_peak(nuls, str(nuls))
    # Refused whole as binary data from its first bytes (issue 38 item 5),
    # without reading the gigabyte.
    assert status == 1
    assert out == []
    assert peak < FLAT_RSS_KIB, f"peak RSS {peak} KiB"
    result = replay([str(nuls)])
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        f"cardtable replay: {str(nuls)!r} is binary data, not text (a NUL byte at byte 1);"
        " cardtable reads UTF-8 text"
    )


def test_issue22_item2_a_huge_line_from_a_pipe_is_skipped_and_the_rest_checked(
    tmp_path: Path, records: list[str]
) -> None:
    """A 300 MB line between two records, piped in: one error naming its
    line and the limit, both records still checked, memory flat."""
    huge = tmp_path / "huge.jsonl"
    with huge.open("wb") as f:
        f.write(records[0].encode() + b"\n")
        block = b'{"actions":[' + b"1," * (1 << 19)
        for _ in range(300):
            f.write(block)
        f.write(b"1]}\r\n" + records[1].encode() + b"\n")
    status, peak, out = replay_with_peak(huge, "-", pipe=True)
    assert status == 1
    assert out == [
        f"line 2: the line is longer than the limit of {MAX_RECORD_BYTES} bytes",
        "3 records, 1 invalid",
    ]
    assert peak < FLAT_RSS_KIB, f"peak RSS {peak} KiB"
    # The longest line that is no longer than the limit is read (and refused
    # as a record, not as a line).
    edge = tmp_path / "edge.jsonl"
    edge.write_bytes(b" " * (MAX_RECORD_BYTES - 2) + b"{}\n")
    result = replay([str(edge)])
    assert result.output.splitlines()[0] == (
        'line 1: missing "version" (3 for a record written now)'
    )


def test_issue22_item2_an_overlong_line_cannot_be_shown(tmp_path: Path, records: list[str]) -> None:
    path = tmp_path / "long.jsonl"
    path.write_bytes(b"x" * (MAX_RECORD_BYTES + 1) + b"\n" + records[0].encode() + b"\n")
    result = CliRunner().invoke(main, ["replay", str(path), "--show", "1"])
    assert result.exit_code == 1
    assert result.stderr.startswith(
        f"cannot show line 1: the line is longer than the limit of {MAX_RECORD_BYTES} bytes"
    )
    assert result.stdout.splitlines()[-1] == "2 records, 1 invalid"


def test_issue22_item9_bytes_that_are_not_utf8_are_refused(
    tmp_path: Path, records: list[str]
) -> None:
    """Not replaced by U+FFFD and accepted: the line, the byte and the field
    are named."""
    bad = records[0].replace('"greedy"', '"gr@edy"').encode()
    at = bad.index(b"@")
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(records[1].encode() + b"\n" + bad.replace(b"@", b"\xe9") + b"\n")
    result = replay([str(path)])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f'line 2: not valid UTF-8: byte {at + 1} of the line (in "players[0]")',
        "2 records, 1 invalid",
    ]


@pytest.mark.parametrize(
    ("change", "says"),
    [
        # A key given twice: JSON readers differ on which one they keep.
        (
            lambda line: line.replace('"dealer":', '"dealer":0,"dealer":'),
            "duplicate field `dealer`",
        ),
        (
            lambda line: line.replace('"params":{', '"params":{"players":3,'),
            "duplicate option `players`",
        ),
        # One name per seat of the game the params make.
        (
            lambda line: line.replace('"players":[', '"players":["greedy",'),
            '"players" names 3 seats, but the game of "params" has 2',
        ),
        # Serde's errors name the field.
        (
            lambda line: line.replace('"returns":[', '"returns":["x",'),
            'not a record: "result.returns[0]": invalid type: string "x"',
        ),
    ],
)
def test_issue22_item9_malformed_records_name_their_field(
    tmp_path: Path, records: list[str], change: Any, says: str
) -> None:
    line = change(records[0])
    assert line != records[0]
    result = replay([str(write(tmp_path, [records[1], line]))])
    assert result.exit_code == 1
    first = result.output.splitlines()[0]
    assert first.startswith("line 2: ")
    assert says in first, first
    assert result.output.splitlines()[1] == "2 records, 1 invalid"


@pytest.mark.parametrize(
    ("encoding", "named"),
    [
        ("utf-16", "UTF-16 (little-endian)"),  # with its byte-order mark
        ("utf-16-le", "UTF-16 (little-endian)"),  # known by its NULs
        ("utf-16-be", "UTF-16 (big-endian)"),
        ("utf-32", "UTF-32 (little-endian)"),
    ],
)
def test_issue22_item11_a_utf16_file_is_one_error_naming_its_encoding(
    tmp_path: Path, records: list[str], encoding: str, named: str
) -> None:
    path = tmp_path / "wide.jsonl"
    path.write_bytes("".join(r + "\r\n" for r in records[:3]).encode(encoding))
    expected = f"cardtable replay: '{path}' is {named}; cardtable reads UTF-8"
    for args, stdin in (([str(path)], None), (["-"], path.read_bytes())):
        result = CliRunner().invoke(main, ["replay", *args], input=stdin)
        assert result.exit_code == 1
        assert result.stdout == ""
        shown = expected.replace(f"'{path}'", "standard input") if stdin else expected
        assert result.stderr.startswith(shown), result.stderr
        assert len(result.stderr.splitlines()) == 1


def test_issue38_item5_a_binary_file_is_one_error(tmp_path: Path) -> None:
    """Random bytes are one line naming the file, not an error per "line"."""
    path = tmp_path / "noise.bin"
    path.write_bytes(random.Random(3).randbytes(1 << 16))
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.startswith(f"cardtable replay: '{path}' is binary data, not text")
    assert len(result.stderr.splitlines()) == 1


RECORDS_DIR = Path(__file__).parent / "data" / "records"


def test_issue38_item3_a_record_of_every_version_replays_or_names_the_rule_changed_since() -> None:
    """Records written by the code of each version's day (tests/data/records)."""
    for path in sorted(RECORDS_DIR.glob("*.jsonl")):
        result = replay([str(path)])
        out = result.output.splitlines()
        count = len(path.read_text().splitlines())
        if path.name in ("v1_0040a7b.jsonl", "v1_b52c39d.jsonl"):
            assert result.exit_code == 1, result.output
            assert out[-1] == f"{count} records, 2 invalid"
            rule = "TT-6.1" if "0040a7b" in path.name else "SD-4.2"
            for line in out[:-1]:
                assert re.match(r"line \d+: a version 1 \w+ record, written before ", line), line
                assert rule in line, line
        else:
            assert result.exit_code == 0, (path.name, result.output)
            assert out == [f"{count} records, all valid"]


def test_issue38_item3_a_real_time_records_clock_is_checked(tmp_path: Path) -> None:
    """The referee's case: a Spit record whose clock_ms reads 1 while its
    events run for minutes is invalid, not "all valid"."""
    line = next(
        line
        for line in (RECORDS_DIR / "v3.jsonl").read_text().splitlines()
        if json.loads(line)["game"] == "spit" and "inputs" not in json.loads(line)
    )
    data = json.loads(line)
    data["clock_ms"] = 1
    result = replay([str(write(tmp_path, [line, json.dumps(data)]))])
    assert result.exit_code == 1
    assert result.output.splitlines()[0].startswith("line 2: event 1 of ")
    assert 'is after the record\'s "clock_ms" 1' in result.output
