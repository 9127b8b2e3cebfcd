"""Issue 38 item 7: random and mutated input never ends in a traceback and
never loses a good line. Random bytes go to ``cardtable score`` and
``cardtable replay``; good hands and good records go in among bad lines,
and each good one still gets its record (score) or is still valid (replay).
The Rust side fuzzes the record reader and ``replay`` over every game and
version (rust/core/tests/engine/record_fuzz.rs)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable import min_deadwood
from cardtable.cli import main
from cardtable.games import load_game, simulate

CLI = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

HANDS = ["AS 2S 3S KD", "7H 8H 9H 7C 7D", "4C 5C 6C", "KD QD", "10d j♦ Q♦"]

RECORDS: list[str] = []


def tonk_records() -> list[str]:
    if not RECORDS:
        simulate(load_game("tonk"), ["greedy", "random"], 6, 3, on_records=RECORDS.extend)
    return RECORDS


def run(command: str, path: Path) -> Result:
    result = CliRunner().invoke(main, [command, str(path)])
    assert result.exit_code in (0, 1), (result.exit_code, result.output, result.exception)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result


# A line of other bytes: no line end inside, no NUL (a NUL makes the whole
# file binary, refused in one line, which the next tests check).
BAD_LINE = st.binary(min_size=1, max_size=30).map(
    lambda b: b.replace(b"\n", b"").replace(b"\r", b"").replace(b"\0", b"")
)


@CLI
@given(st.binary(max_size=3000))
def test_random_bytes_to_score_are_answered_without_a_traceback(
    tmp_path: Path, data: bytes
) -> None:
    path = tmp_path / "noise"
    path.write_bytes(data)
    result = CliRunner().invoke(main, ["score", "--format", "jsonl", str(path)])
    assert result.exit_code in (0, 1), (result.exit_code, result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    if "binary data" in result.stderr:
        assert len(result.stderr.splitlines()) == 1
        assert result.stdout == ""
    else:  # one record per line that is not blank or a comment
        assert all(json.loads(line)["line"] >= 1 for line in result.stdout.splitlines())


@CLI
@given(st.lists(st.one_of(st.sampled_from(HANDS), BAD_LINE), min_size=1, max_size=30))
def test_good_hands_among_bad_lines_each_keep_their_record(
    tmp_path: Path, lines: list[str | bytes]
) -> None:
    path = tmp_path / "mixed.txt"
    body = [line.encode() if isinstance(line, str) else line for line in lines]
    path.write_bytes(b"\n".join(body) + b"\n")
    good = sum(len(line) for line in lines if isinstance(line, str))
    bad = sum(len(line) for line in lines if isinstance(line, bytes))
    result = CliRunner().invoke(main, ["score", "--format", "jsonl", str(path)])
    assert result.exit_code in (0, 1), result.output
    if "not scored" in result.stderr:
        # Refused whole, in one line: binary when much of it is not text, or
        # UTF-16 by the byte-order mark it starts with.
        assert len(result.stderr.splitlines()) == 1
        assert 2 * bad > good or body[0].startswith((b"\xff\xfe", b"\xfe\xff")), result.stderr
        return
    records = {r["line"]: r for r in map(json.loads, result.stdout.splitlines())}
    for number, line in enumerate(lines, 1):
        if isinstance(line, str):
            assert records[number]["deadwood"] == min_deadwood(line).deadwood, number


@CLI
@given(st.binary(max_size=3000))
def test_random_bytes_to_replay_are_answered_without_a_traceback(
    tmp_path: Path, data: bytes
) -> None:
    path = tmp_path / "noise.jsonl"
    path.write_bytes(data)
    run("replay", path)


@CLI
@given(st.lists(st.one_of(st.integers(0, 5), BAD_LINE), min_size=1, max_size=12))
def test_good_records_among_bad_lines_stay_valid(tmp_path: Path, picks: list[int | bytes]) -> None:
    records = tonk_records()
    lines = [records[p].encode() if isinstance(p, int) else b"{" + p for p in picks]
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    result = run("replay", path)
    if "cardtable replay:" in result.stderr:  # refused whole, in one line
        assert len(result.stderr.splitlines()) == 1
        return
    flagged = {int(line.split(":")[0].split()[1]) for line in result.stdout.splitlines()[:-1]}
    good = {n for n, p in enumerate(picks, 1) if isinstance(p, int)}
    bad = {n for n, p in enumerate(picks, 1) if not isinstance(p, int)}
    assert not flagged & good, result.stdout
    assert flagged <= bad
