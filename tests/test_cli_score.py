"""``cardtable score``: formats, line numbers, errors, exit codes, large files."""

from __future__ import annotations

import csv
import io
import json
import random
import select
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

import pytest
from click.testing import CliRunner, Result

import cardtable
from cardtable import format_hand, min_deadwood, min_deadwood_many
from cardtable.cli import main
from cardtable.cli.score import CHUNK_BYTES

from .golden import GOLDEN_NAMES, GoldenFile

RECORD_KEYS = ["line", "hand", "deadwood", "melds", "unmatched"]
ERROR_KEYS = ["line", "hand", "error"]


def score(args: Sequence[str], stdin: bytes | str | None = None) -> Result:
    return CliRunner().invoke(main, ["score", *args], input=stdin)


def jsonl(result: Result) -> list[dict[str, Any]]:
    return [json.loads(line) for line in result.stdout.splitlines()]


def expected_record(line: int, hand: str, **options: Any) -> dict[str, Any]:
    d = min_deadwood(hand, **options)
    return {
        "line": line,
        "hand": format_hand(hand),
        "deadwood": d.deadwood,
        "melds": [[str(c) for c in m.cards] for m in d.melds],
        "unmatched": [str(c) for c in d.unmatched],
    }


@pytest.fixture
def hands_file(tmp_path: Path) -> Path:
    path = tmp_path / "hands.txt"
    path.write_text(
        "# a comment line\n"
        "\n"
        "AS 2S 3S KD\n"
        "as,2s,3s  # trailing comment\n"
        "   \n"
        "7H 8H 9H 7C 7D\n"
        "A♠ 10♦ Q♥ K♣\n",
        encoding="utf-8",
    )
    return path


# ---------------------------------------------------------------------------
# Records


def test_jsonl_record_shape(hands_file: Path) -> None:
    result = score(["--format", "jsonl", str(hands_file)])
    assert result.exit_code == 0, result.output
    records = jsonl(result)
    assert records[0] == {
        "line": 3,
        "hand": "AS 2S 3S KD",
        "deadwood": 10,
        "melds": [["AS", "2S", "3S"]],
        "unmatched": ["KD"],
    }
    for record in records:
        assert list(record) == RECORD_KEYS
    assert [r["line"] for r in records] == [3, 4, 6, 7]
    assert records[1] == expected_record(4, "AS 2S 3S")
    assert records[2] == expected_record(6, "7H 8H 9H 7C 7D")
    assert records[3] == expected_record(7, "AS TD QH KC")
    assert result.stdout.splitlines()[0] == (
        '{"line": 3, "hand": "AS 2S 3S KD", "deadwood": 10, "melds": [["AS", "2S", "3S"]], '
        '"unmatched": ["KD"]}'
    )


def test_stdin_dash_and_no_file(hands_file: Path) -> None:
    data = hands_file.read_bytes()
    from_file = score(["--format", "jsonl", str(hands_file)])
    dash = score(["--format", "jsonl", "-"], stdin=data)
    none = score(["--format", "jsonl"], stdin=data)
    assert dash.exit_code == none.exit_code == 0
    assert dash.stdout == none.stdout == from_file.stdout
    assert len(jsonl(dash)) == 4


def test_bad_lines_get_error_records_and_scoring_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(
        "AS 2S 3S\n"
        "as zz 3s\n"
        "AS AS 2D  # duplicate\n"
        "JK 2C 3C\n"
        '1S, "X\n' + " ".join(str(cardtable.Card.from_code(c)) for c in range(17)) + "\n"
        "7H 8H 9H\n",
        encoding="utf-8",
    )
    result = score(["--format", "jsonl", str(path)])
    assert result.exit_code == 1
    assert "5 of 7 lines rejected" in result.stderr
    records = jsonl(result)
    assert [r["line"] for r in records] == [1, 2, 3, 4, 5, 6, 7]
    assert records[0] == expected_record(1, "AS 2S 3S")
    assert records[6] == expected_record(7, "7H 8H 9H")
    for record in records[1:6]:
        assert list(record) == ERROR_KEYS
    assert records[1]["hand"] == "as zz 3s"  # as written
    assert "zz" in records[1]["error"]
    assert records[2]["hand"] == "AS AS 2D"  # the comment is not part of the hand
    assert "duplicate" in records[2]["error"]
    assert "joker" in records[3]["error"].lower()
    assert records[4]["hand"] == '1S, "X'
    assert '"1S"' in records[4]["error"]
    assert "17 cards" in records[5]["error"]


def test_invalid_utf8_line_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "latin1.txt"
    path.write_bytes(b"AS 2S 3S\n\xff\xfe KD\n4C 5C 6C\n")
    result = score(["--format", "jsonl", str(path)])
    assert result.exit_code == 1
    records = jsonl(result)
    assert [r["line"] for r in records] == [1, 2, 3]
    assert "UTF-8" in records[1]["error"]
    assert records[2]["deadwood"] == 0


def test_blank_lines_comments_and_crlf(tmp_path: Path) -> None:
    lf = "#header\n\nAS 2S 3S KD\n  # indented comment\n\t\n7H 8H 9H #x\nKD QD\n"
    crlf = lf.replace("\n", "\r\n")
    (tmp_path / "lf.txt").write_bytes(lf.encode())
    (tmp_path / "crlf.txt").write_bytes(crlf.encode())
    a = score(["--format", "jsonl", str(tmp_path / "lf.txt")])
    b = score(["--format", "jsonl", str(tmp_path / "crlf.txt")])
    assert a.exit_code == b.exit_code == 0
    assert a.stdout == b.stdout
    assert [r["line"] for r in jsonl(a)] == [3, 6, 7]
    assert [r["hand"] for r in jsonl(a)] == ["AS 2S 3S KD", "7H 8H 9H", "KD QD"]
    c = score(["--format", "csv", str(tmp_path / "crlf.txt")])
    assert "\r" not in c.stdout


def test_empty_input() -> None:
    result = score(["--format", "jsonl"], stdin=b"")
    assert result.exit_code == 0
    assert result.stdout == ""
    only_comments = score(["--format", "csv"], stdin=b"# nothing\n\n")
    assert only_comments.exit_code == 0
    assert only_comments.stdout == "line,hand,deadwood,melds,unmatched,error\n"


# ---------------------------------------------------------------------------
# CSV and text


def test_csv_header_and_quoting(tmp_path: Path) -> None:
    path = tmp_path / "h.txt"
    path.write_text('AS,2S,3S,KD\n5C 6C 7C 5H 6H 7H 9S\nAS, "X\nQD\n', encoding="utf-8")
    result = score(["--format", "csv", str(path)])
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == "line,hand,deadwood,melds,unmatched,error"
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [r["line"] for r in rows] == ["1", "2", "3", "4"]
    assert rows[0] == {
        "line": "1",
        "hand": "AS 2S 3S KD",
        "deadwood": "10",
        "melds": "AS 2S 3S",
        "unmatched": "KD",
        "error": "",
    }
    two = min_deadwood("5C 6C 7C 5H 6H 7H 9S")
    assert rows[1]["deadwood"] == "9"
    assert rows[1]["melds"] == "|".join(" ".join(str(c) for c in m.cards) for m in two.melds)
    assert rows[1]["unmatched"] == "9S"
    assert rows[2]["hand"] == 'AS, "X'  # quoted, with the quote doubled
    assert rows[2]["deadwood"] == rows[2]["melds"] == rows[2]["unmatched"] == ""
    assert '"X' in rows[2]["error"]
    assert rows[3]["deadwood"] == "10"


def test_text_format_uses_suit_symbols(hands_file: Path) -> None:
    result = score([str(hands_file)])  # text is the default
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["line", "deadwood", "melds", "unmatched"]
    first = lines[1]
    assert first.split()[:2] == ["3", "10"]
    assert "[A♠ 2♠ 3♠]" in first
    assert first.endswith("K♦")
    assert "10♦" in lines[4]
    bad = score(["--format", "text"], stdin="AS ZZ\n")
    assert bad.exit_code == 1
    assert "error:" in bad.stdout
    assert "ZZ" in bad.stdout


# ---------------------------------------------------------------------------
# Output file, threads, several files


def test_output_file(hands_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    result = score(["--format", "jsonl", str(hands_file), "--output", str(out)])
    assert result.exit_code == 0
    assert result.stdout == ""
    assert out.read_text(encoding="utf-8") == score(["--format", "jsonl", str(hands_file)]).stdout
    short = tmp_path / "out.csv"
    assert score(["--format", "csv", str(hands_file), "-o", str(short)]).exit_code == 0
    assert short.read_text(encoding="utf-8").startswith("line,hand,")


def test_threads_give_identical_output(tmp_path: Path) -> None:
    rng = random.Random(3)
    path = tmp_path / "many.txt"
    path.write_text(
        "".join(format_hand(rng.sample(range(52), 10)) + "\n" for _ in range(5000)),
        encoding="utf-8",
    )
    for fmt in ("jsonl", "csv", "text"):
        one = score(["--format", fmt, "--threads", "1", str(path)])
        default = score(["--format", fmt, str(path)])
        two = score(["--format", fmt, "--threads", "2", str(path)])
        assert one.exit_code == default.exit_code == two.exit_code == 0
        assert one.stdout == default.stdout == two.stdout


def test_several_files_add_a_file_field(tmp_path: Path) -> None:
    a = tmp_path / "a.txt"
    b = tmp_path / "b.txt"
    a.write_text("AS 2S 3S KD\n\nQD\n", encoding="utf-8")
    b.write_text("# b\n7H 8H 9H\nKX\n", encoding="utf-8")
    result = score(["--format", "jsonl", str(a), str(b)])
    assert result.exit_code == 1
    records = jsonl(result)
    assert [(r["file"], r["line"]) for r in records] == [
        (str(a), 1),
        (str(a), 3),
        (str(b), 2),
        (str(b), 3),
    ]
    assert list(records[0]) == ["file", *RECORD_KEYS]
    assert list(records[3]) == ["file", *ERROR_KEYS]
    rows = list(csv.DictReader(io.StringIO(score(["--format", "csv", str(a), str(b)]).stdout)))
    assert list(rows[0]) == ["file", "line", "hand", "deadwood", "melds", "unmatched", "error"]
    assert [(r["file"], r["line"]) for r in rows] == [
        (str(a), "1"),
        (str(a), "3"),
        (str(b), "2"),
        (str(b), "3"),
    ]
    text = score(["--format", "text", str(a), str(b)]).stdout.splitlines()
    assert text[0].split()[0] == "file:line"
    assert text[1].split()[0] == f"{a}:1"
    assert text[3].split()[0] == f"{b}:2"
    # Standard input among files is labelled '-'.
    mixed = score(["--format", "jsonl", str(a), "-"], stdin="5C 6C 7C\n")
    assert [(r["file"], r["line"]) for r in jsonl(mixed)][-1] == ("-", 1)
    # One file: no file field.
    assert "file" not in jsonl(score(["--format", "jsonl", str(a)]))[0]


# ---------------------------------------------------------------------------
# Exit codes on usage errors


@pytest.mark.parametrize(
    "args",
    [
        ["--game", "poker"],
        ["--game", "tonk", "--jokers"],
        ["--game", "gin", "--decks", "2"],
        ["--game", "gin", "--wild", "5"],
        ["--game", "three-thirteen", "--max-wilds", "0"],
        ["--game", "three-thirteen", "--max-wilds", "many"],
        ["--game", "three-thirteen", "--wild", "Z"],
        ["--game", "three-thirteen", "--decks", "0"],
        ["--aces", "sideways"],
        ["--face-values", "twelve"],
        ["--format", "xml"],
        ["--threads", "0"],
        ["--threads", "-3"],
        ["--threads", "257"],
        ["--threads", "200000"],
        ["--no-such-option"],
    ],
)
def test_usage_errors_exit_2(args: list[str], hands_file: Path) -> None:
    result = score([*args, str(hands_file)])
    assert result.exit_code == 2, result.output
    assert "Usage:" in result.output or "Error" in result.output


def test_options_that_conflict_name_the_flag(hands_file: Path) -> None:
    result = score(["--game", "tonk", "--jokers", str(hands_file)])
    assert result.exit_code == 2
    assert "--jokers" in result.output


def test_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    result = score(["--format", "jsonl", str(tmp_path / "missing.txt")])
    assert result.exit_code == 2, (result.exit_code, result.output)


def test_exit_codes_for_scored_and_rejected() -> None:
    assert score([], stdin="AS 2S 3S\n").exit_code == 0
    assert score([], stdin="AS 2S 3S\nAS ZZ\n").exit_code == 1


def test_rule_options_change_the_score() -> None:
    line = "QS KS AS 5D 6D\n"
    low = jsonl(score(["--format", "jsonl", "--game", "tonk"], stdin=line))[0]
    high = jsonl(score(["--format", "jsonl", "--game", "tonk", "--aces", "high"], stdin=line))[0]
    assert low["deadwood"] == 32
    assert high["deadwood"] == 11
    rank = jsonl(score(["--format", "jsonl", "--face-values", "rank"], stdin="KD QD\n"))[0]
    assert rank["deadwood"] == 25
    wild = ["--format", "jsonl", "--game", "three-thirteen", "--wild", "9", "--jokers"]
    record = jsonl(score(wild, stdin="5H 9C 7H JK\n"))[0]
    assert record == expected_record(1, "5H 9C 7H JK", game="three_thirteen", wild=9, jokers=True)
    assert record["deadwood"] == 15  # 5H 9C 7H is a run; the joker costs more than 9C


# ---------------------------------------------------------------------------
# Golden files through the CLI


@pytest.mark.parametrize("name", GOLDEN_NAMES)
def test_golden_files_through_the_cli(
    name: str, golden_files: dict[str, GoldenFile], tmp_path: Path
) -> None:
    golden = golden_files[name]
    path = tmp_path / f"{name}.txt"
    path.write_text("".join(c.hand + "\n" for c in golden.cases), encoding="utf-8")
    result = score(["--format", "jsonl", *golden.flags, str(path)])
    assert result.exit_code == 0, result.output
    records = jsonl(result)
    assert [r["line"] for r in records] == list(range(1, len(golden.cases) + 1))
    for record, case in zip(records, golden.cases, strict=True):
        assert record["deadwood"] == case.deadwood, (name, case.hand)
        assert record["hand"] == format_hand(case.hand)
        assert record == expected_record(record["line"], case.hand, **golden.options)


# ---------------------------------------------------------------------------
# Files larger than one read chunk


def test_large_file_keeps_order_and_line_numbers(tmp_path: Path) -> None:
    rng = random.Random(2)
    lines: list[str] = []
    hands: list[tuple[int, str]] = []
    for n in range(1, 100_001):
        if n % 997 == 0:
            lines.append("# comment")
        elif n % 991 == 0:
            lines.append("")
        else:
            hand = format_hand(rng.sample(range(52), 10))
            text = hand.replace(" ", ",") if n % 5 == 0 else hand
            lines.append(text + ("\r" if n % 7 == 0 else ""))
            hands.append((n, hand))
    data = "\n".join(lines).encode()  # the last line has no newline
    assert len(data) > 2 * CHUNK_BYTES
    assert not data.endswith(b"\n")
    path = tmp_path / "big.txt"
    path.write_bytes(data)
    result = score(["--format", "jsonl", str(path)])
    assert result.exit_code == 0, result.stderr
    records = jsonl(result)
    assert [r["line"] for r in records] == [n for n, _ in hands]
    assert [r["hand"] for r in records] == [h for _, h in hands]
    expected = min_deadwood_many([h for _, h in hands], game="gin")
    assert [r["deadwood"] for r in records] == expected.deadwoods
    # The arrangement of a few records, including the last line.
    for i in (0, 1, len(hands) // 2, len(hands) - 1):
        n, hand = hands[i]
        assert records[i] == expected_record(n, hand)
    assert records[-1]["line"] == 100_000
    # Standard input gives the same.
    assert score(["--format", "jsonl"], stdin=data).stdout == result.stdout


# ---------------------------------------------------------------------------
# Defects found by outside testing


def test_output_that_is_an_input_is_refused_and_the_input_kept(tmp_path: Path) -> None:
    path = tmp_path / "h.txt"
    text = "AS 2S 3S\nKD QD JD\n"
    path.write_text(text)
    (tmp_path / "hard.txt").hardlink_to(path)
    (tmp_path / "soft.txt").symlink_to(path)
    for target in (path, tmp_path / "hard.txt", tmp_path / "soft.txt", Path(f"{tmp_path}/./h.txt")):
        result = score([str(path), "-o", str(target)])
        assert result.exit_code == 2, (target, result.output)
        assert "is the input" in result.output
        assert path.read_text() == text
    # Among several inputs, too; a different file is fine.
    other = tmp_path / "other.txt"
    other.write_text("7H 8H 9H\n")
    assert score([str(other), str(path), "-o", str(tmp_path / "soft.txt")]).exit_code == 2
    assert score([str(path), "-o", str(tmp_path / "out.txt")]).exit_code == 0
    assert path.read_text() == text


def test_output_that_is_standard_input_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "h.txt"
    path.write_text("AS 2S 3S\n")
    with path.open("rb") as stdin:
        proc = subprocess.run(
            [sys.executable, "-m", "cardtable", "score", "-o", str(path)],
            stdin=stdin,
            capture_output=True,
            check=False,
        )
    assert proc.returncode == 2, proc.stderr
    assert b"is the input standard input" in proc.stderr
    assert path.read_text() == "AS 2S 3S\n"


def test_an_output_that_cannot_be_opened_is_a_usage_error(tmp_path: Path) -> None:
    result = score(["-o", str(tmp_path / "no" / "such" / "dir.txt")], stdin="AS\n")
    assert result.exit_code == 2
    assert "cannot open" in result.output


@pytest.mark.parametrize("end", ["\r", "\n", "\r\n"])
def test_every_line_end_counts(end: str) -> None:
    result = score(["--format", "jsonl"], stdin=end.join(["AS 2S 3S", "KD QD JD", "9C 9H 9S", ""]))
    assert result.exit_code == 0
    records = jsonl(result)
    assert [(r["line"], r["hand"], r["deadwood"]) for r in records] == [
        (1, "AS 2S 3S", 0),
        (2, "KD QD JD", 0),
        (3, "9C 9H 9S", 0),
    ]


def test_mixed_line_ends_number_each_line() -> None:
    result = score(["--format", "jsonl"], stdin=b"AS\r\rKD\r\nQD\n\nJD")
    assert [(r["line"], r["hand"]) for r in jsonl(result)] == [
        (1, "AS"),
        (3, "KD"),
        (4, "QD"),
        (6, "JD"),
    ]


def test_an_overlong_line_is_an_error_record_and_scoring_goes_on(tmp_path: Path) -> None:
    limit = cardtable._core.MAX_LINE_BYTES
    path = tmp_path / "long.txt"
    with path.open("wb") as f:
        f.write(b"AS 2S 3S\n")
        f.write(b"KD " * (3 * CHUNK_BYTES // 3))  # a 3 MiB line, over several chunks
        f.write(b"\n7H 8H 9H\n")
        f.write(b"x" * (limit + 1))  # the last line, without an end
    result = score(["--format", "jsonl", str(path)])
    assert result.exit_code == 1
    records = jsonl(result)
    assert [r["line"] for r in records] == [1, 2, 3, 4]
    assert records[1]["error"] == f"the line is longer than the limit of {limit} bytes"
    assert records[1]["hand"].startswith("KD KD")
    assert records[2] == expected_record(3, "7H 8H 9H")
    assert "longer than the limit" in records[3]["error"]
    # Exactly the limit is still a line.
    assert score([], stdin=" " * (limit - 2) + "AS\n").exit_code == 0


@pytest.mark.parametrize("game", ["gin", "tonk", "three-thirteen"])
def test_a_line_without_a_card_is_an_error_under_every_game(game: str) -> None:
    result = score(["--format", "jsonl", "--game", game], stdin=",\n,,,\n , ,# note\n")
    assert result.exit_code == 1
    records = jsonl(result)
    assert [(r["line"], r["error"]) for r in records] == [
        (1, "the hand holds no card"),
        (2, "the hand holds no card"),
        (3, "the hand holds no card"),
    ]


def test_csv_and_text_never_pass_control_characters_through() -> None:
    # No NUL: a NUL makes an input binary data, refused whole (issue 38 item 5).
    stdin = b"AS \x1b[2J\x07 KD\nAS\x0b2S\n"
    for fmt in ("csv", "text"):
        result = score(["--format", fmt], stdin=stdin)
        assert result.exit_code == 1
        controls = [c for c in result.stdout if ord(c) < 0x20 and c != "\n"]
        assert controls == [], (fmt, result.stdout)
    rows = list(csv.reader(io.StringIO(score(["--format", "csv"], stdin=stdin).stdout)))
    assert rows[1][1] == "AS \\u001b[2J\\u0007 KD"
    assert len(rows) == 3
    assert all(len(r) == 6 for r in rows)


def test_emoji_suits_score(tmp_path: Path) -> None:
    result = score(["--format", "jsonl"], stdin="A♠️ 2♠️ 3♠️ K♦️\n")
    assert result.exit_code == 0
    assert jsonl(result) == [expected_record(1, "AS 2S 3S KD")]


def test_text_melds_stay_in_their_column() -> None:
    result = score([], stdin="AS 2S 3S 4S 5S 6S 7H 8H 9H TH JC QC KC KD\n")
    assert result.exit_code == 0
    header, first, *more = result.stdout.splitlines()
    assert first.index("K♦") == header.index("unmatched")
    assert more == [" " * 20 + "[J♣ Q♣ K♣]"]


def test_one_progress_line_names_each_file(tmp_path: Path) -> None:
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("AS 2S 3S\n")
    b.write_text("KD\n")
    args = ["score", "--progress", "--format", "jsonl", str(a), str(b)]
    result = CliRunner().invoke(main, args, env={"COLUMNS": "250"})
    assert result.exit_code == 0
    assert result.stdout == score(["--format", "jsonl", str(a), str(b)]).stdout
    assert str(a) in result.stderr  # each file's name is drawn as it starts
    assert str(b) in result.stderr
    assert result.stderr.count("\n") == 1  # one bar over all files, ended once
    last = result.stderr.rsplit("\r", 1)[-1]
    assert "100%" in last
    assert "2 lines" in last


def test_progress_is_one_line_on_a_narrow_terminal(tmp_path: Path) -> None:
    a = tmp_path / ("x" * 120 + ".txt")
    a.write_text("AS 2S 3S\n" * 3)
    result = CliRunner().invoke(
        main, ["score", "--progress", str(a), str(a)], env={"COLUMNS": "60"}
    )
    assert result.exit_code == 0
    assert result.stderr.count("\n") == 1


def test_progress_honours_no_color(tmp_path: Path) -> None:
    a = tmp_path / "a.txt"
    a.write_text("AS 2S 3S\n")
    colour = CliRunner().invoke(main, ["score", "--progress", str(a)], env={"NO_COLOR": None})
    plain = CliRunner().invoke(main, ["score", "--progress", str(a)], env={"NO_COLOR": "1"})
    assert colour.exit_code == plain.exit_code == 0
    assert "\x1b[3" in colour.stderr  # coloured by default
    assert "\x1b[3" not in plain.stderr
    assert "\x1b[9" not in plain.stderr
    assert "1 lines" in plain.stderr


def test_no_progress_by_default_off_a_terminal(tmp_path: Path) -> None:
    a = tmp_path / "a.txt"
    a.write_text("AS 2S 3S\n")
    assert score([str(a)]).stderr == ""
    assert score(["--no-progress", str(a)]).stderr == ""


def test_help_lists_the_exit_statuses() -> None:
    text = score(["--help"]).output
    for status in ("0 all good", "1 some lines", "2 usage", "3 write", "130", "141"):
        assert status in " ".join(text.split()), status


def test_score_imports_only_what_it_runs(hands_file: Path) -> None:
    """Commands are imported when they run, and rich when a bar is drawn:
    scoring a file loads neither the games' front ends nor rich nor Ray's
    helpers. The top-level help still lists every command."""
    code = (
        "import sys\n"
        "from cardtable.cli import main\n"
        f"main(['score', {str(hands_file)!r}, '--no-progress'], standalone_mode=False)\n"
        "loaded = [m for m in ('cardtable.cli.play', 'cardtable.cli.simulate', "
        "'cardtable.cli.presenters', 'cardtable.distributed', 'rich', 'cardtable.cli.history', "
        "'cardtable.history', 'sqlite3') if m in sys.modules]\n"
        "assert not loaded, loaded\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, check=False)
    assert run.returncode == 0, run.stderr.decode()
    listed = CliRunner().invoke(main, ["--help"]).output
    for command in ("score", "deal", "play", "simulate", "replay", "stats", "history"):
        assert f"  {command} " in listed, command


def _cli(*args: str, **kwargs: Any) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "cardtable", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        **kwargs,
    )


def _read_line(stream: IO[bytes]) -> bytes:
    """One line from a pipe; a deadlock guard, not a timing check."""
    ready, _, _ = select.select([stream], [], [], 120)
    assert ready, "no answer"
    return stream.readline()


def test_a_pipe_is_answered_block_by_block_then_ctrl_c_exits_130() -> None:
    proc = _cli("score", "--format", "jsonl", stdin=subprocess.PIPE)
    assert proc.stdin is not None
    assert proc.stdout is not None
    assert proc.stderr is not None
    # Each line is answered while the input is still open.
    for line, hand in enumerate(["AS 2S 3S", "KD QD JD"], 1):
        proc.stdin.write(hand.encode() + b"\n")
        proc.stdin.flush()
        assert json.loads(_read_line(proc.stdout))["line"] == line
    # A line split across writes waits for its end.
    proc.stdin.write(b"7H 8H")
    proc.stdin.flush()
    proc.stdin.write(b" 9H\n")
    proc.stdin.flush()
    assert json.loads(_read_line(proc.stdout))["hand"] == "7H 8H 9H"
    proc.send_signal(signal.SIGINT)
    rest, err = proc.communicate(timeout=120)
    assert proc.returncode == 130
    # Nothing more was due. (Had the signal landed inside a write, one more
    # newline would end the half-written line: never a half record.)
    assert rest in (b"", b"\n")
    assert b"Traceback" not in err
    assert b"Aborted" not in err


def test_a_closed_pipe_exits_quietly(tmp_path: Path) -> None:
    path = tmp_path / "many.txt"
    path.write_text("AS 2S 3S KD\n" * 300_000)
    proc = _cli("score", "--format", "jsonl", str(path))
    assert proc.stdout is not None
    assert proc.stderr is not None
    assert json.loads(_read_line(proc.stdout))["line"] == 1
    proc.stdout.close()  # as `| head -1` does
    err = proc.stderr.read()
    proc.stderr.close()
    assert proc.wait(timeout=300) == 141
    assert err == b""


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_write_error_is_one_line_and_status_3(hands_file: Path) -> None:
    with open("/dev/full", "wb") as full:
        to_stdout = subprocess.run(
            [sys.executable, "-m", "cardtable", "score", str(hands_file)],
            stdout=full,
            stderr=subprocess.PIPE,
            check=False,
        )
    to_file = subprocess.run(
        [sys.executable, "-m", "cardtable", "score", str(hands_file), "-o", "/dev/full"],
        capture_output=True,
        check=False,
    )
    for proc, where in ((to_stdout, "standard output"), (to_file, "'/dev/full'")):
        assert proc.returncode == 3
        assert proc.stderr.decode().splitlines() == [
            f"cardtable score: cannot write {where}: No space left on device"
        ]


def test_parquet_output_needs_no_pyarrow(tmp_path: Path) -> None:
    """The core writes the Parquet file: with pyarrow unimportable, a file
    (the core's pipeline) and standard input (block by block, through the
    writer's Python methods) still give files that Polars reads back as
    the JSON Lines records."""
    polars = pytest.importorskip("polars")
    path = tmp_path / "hands.txt"
    data = _mixed_file(path, 3_000)
    blocked = (
        "import sys; sys.modules['pyarrow'] = None; "
        "from cardtable.cli import main; main(sys.argv[1:])"
    )
    records = [
        json.loads(line)
        for line in CliRunner()
        .invoke(main, ["score", str(path), "--format", "jsonl"])
        .stdout.splitlines()
    ]
    for source in (str(path), "-"):
        out = tmp_path / "out.parquet"
        done = subprocess.run(
            [sys.executable, "-c", blocked, "score", source, "--format", "parquet", "-o", str(out)],
            input=data,
            capture_output=True,
            check=False,
        )
        assert done.returncode == 1, done.stderr  # some lines are rejected
        assert b"pyarrow" not in done.stderr
        rows = polars.read_parquet(out).to_dicts()
        assert len(rows) == len(records) > 2_500
        for row, record in zip(rows, records, strict=True):
            assert {k: v for k, v in row.items() if v is not None} == record


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_parquet_write_error_names_its_output(tmp_path: Path) -> None:
    """As for text, one line naming the output (it said "standard output"
    for any file before), status 3; a file through the core's pipeline
    (its records written from the writer thread), and standard input."""
    pytest.importorskip("pyarrow")
    path = tmp_path / "hands.txt"
    _mixed_file(path, 20_000)
    base = [sys.executable, "-m", "cardtable", "score", "--format", "parquet"]
    for source in ([str(path)], ["-"]):
        with open(path, "rb") as stdin, open("/dev/full", "wb") as full:
            to_stdout = subprocess.run(
                [*base, *source], stdin=stdin, stdout=full, stderr=subprocess.PIPE, check=False
            )
        with open(path, "rb") as stdin:
            to_file = subprocess.run(
                [*base, *source, "-o", "/dev/full"], stdin=stdin, capture_output=True, check=False
            )
        for proc, where in ((to_stdout, "standard output"), (to_file, "'/dev/full'")):
            assert proc.returncode == 3, proc.stderr
            assert proc.stderr.decode().splitlines() == [
                f"cardtable score: cannot write {where}: No space left on device"
            ]


# ---------------------------------------------------------------------------
# The core's pipeline: a file in and a file or pipe out is read, scored and
# written on threads of the core's own; a pipe in is scored block by block.


def _mixed_file(path: Path, lines: int) -> bytes:
    """Hands, comments, blanks, bad and over-long lines, every line end, and a
    last line without one; over several of the CLI's blocks."""
    rng = random.Random(7)
    parts: list[str] = []
    for n in range(1, lines + 1):
        if n % 101 == 0:
            text = "# comment"
        elif n % 103 == 0:
            text = "XX 2S 3S"
        elif n == lines // 2:
            text = "AS " * 30_000
        else:
            text = format_hand(rng.sample(range(53), 1 + n % 13))
        parts.append(text + ("\r\n", "\n", "\r")[n % 3])
    data = "".join(parts).encode() + b"KD QD"
    path.write_bytes(data)
    return data


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "text"])
def test_the_pipeline_writes_what_scoring_block_by_block_writes(tmp_path: Path, fmt: str) -> None:
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    data = _mixed_file(a, 150_000)
    assert len(data) > 2 * CHUNK_BYTES
    b.write_text("AS 2S 3S\nbad\n")

    def run(args: list[str], input: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(args, input=input, capture_output=True, check=False)

    base = [sys.executable, "-m", "cardtable", "score", "--format", fmt]
    # A pipe in: block by block (the reference).
    piped = run([*base, "-"], input=data)
    assert piped.returncode == 1
    # A file in, a file out; a file in, a pipe out; on one thread and on all.
    out = tmp_path / "out"
    to_file = run([*base, str(a), "-o", str(out), "--threads", "1"])
    assert to_file.returncode == 1, to_file.stderr
    assert out.read_bytes() == piped.stdout
    to_pipe = run([*base, str(a)])
    assert to_pipe.stdout == piped.stdout
    assert to_pipe.stderr == piped.stderr
    # Several files: one stream per file, one output. Under CliRunner the
    # output has no descriptor, so it is written block by block.
    both = run([*base, str(a), str(b)])
    assert both.returncode == 1
    assert both.stdout == score(["--format", fmt, str(a), str(b)]).stdout_bytes


def test_ctrl_c_stops_the_pipeline_on_a_whole_record(tmp_path: Path) -> None:
    path = tmp_path / "many.txt"
    path.write_bytes(b"AS 2S 3S 4S 5D 6D 7D KC QC JC\n" * 300_000)
    for threads in ([], ["--threads", "1"]):
        with _cli("score", "--format", "jsonl", str(path), *threads) as proc:
            assert proc.stdout is not None
            assert proc.stderr is not None
            # The run is under way and, with nobody reading, waits on the pipe.
            assert json.loads(_read_line(proc.stdout))["line"] == 1
            proc.send_signal(signal.SIGINT)
            rest = proc.stdout.read()  # through the same buffer as the first line
            assert proc.wait(timeout=120) == 130
            assert b"Traceback" not in proc.stderr.read()
        records = rest.splitlines()
        assert 0 < len(records) < 300_000 - 1
        assert rest.endswith(b"\n")
        assert json.loads(records[-1])["line"] == len(records) + 1


def _random_hands(path: Path, lines: int) -> None:
    rng = random.Random(5)
    path.write_text("".join(format_hand(rng.sample(range(52), 10)) + "\n" for _ in range(lines)))


def _whole_records(parquet: bytes) -> list[int]:
    """The line numbers of a Parquet file's records (it must be whole)."""
    pq = pytest.importorskip("pyarrow.parquet")
    lines: list[int] = pq.read_table(io.BytesIO(parquet)).column("line").to_pylist()
    return lines


def test_ctrl_c_leaves_a_parquet_file_of_whole_row_groups(tmp_path: Path) -> None:
    """Exit 130 as for text, and the Parquet written so far is a complete
    file (its footer written) of the records of the blocks scored: through
    the core's pipeline (a file in, a pipe out that nobody reads yet). It
    was cut short, without a footer, before the records came as Arrow."""
    pytest.importorskip("pyarrow")
    path = tmp_path / "many.txt"
    _random_hands(path, 300_000)
    for threads in ([], ["--threads", "1"]):
        with _cli("score", "--format", "parquet", str(path), *threads) as proc:
            assert proc.stdout is not None
            assert proc.stderr is not None
            # A row group is under way and, with nobody reading, waits on the pipe.
            ready, _, _ = select.select([proc.stdout], [], [], 120)
            assert ready
            head = proc.stdout.read(1 << 16)
            assert head.startswith(b"PAR1")
            proc.send_signal(signal.SIGINT)
            rest = proc.stdout.read()
            assert proc.wait(timeout=120) == 130
            assert proc.stderr.read() == b""
        lines = _whole_records(head + rest)
        assert 0 < len(lines) < 300_000
        assert lines == list(range(1, len(lines) + 1))


def test_ctrl_c_while_a_pipe_is_read_leaves_a_whole_parquet_file(tmp_path: Path) -> None:
    """Standard input a pipe: scored block by block; Ctrl-C while waiting for
    more input closes the file on the records of the blocks read."""
    pytest.importorskip("pyarrow")
    out = tmp_path / "out.parquet"
    with _cli("score", "--format", "parquet", "-o", str(out), stdin=subprocess.PIPE) as proc:
        assert proc.stdin is not None
        proc.stdin.write(b"AS 2S 3S KD\nXX\n7H 8H 9H\n")
        proc.stdin.flush()
        # A row group is out once the file holds more than its first magic.
        deadline = time.monotonic() + 120
        while out.stat().st_size <= 4 if out.exists() else True:
            assert time.monotonic() < deadline, "no row group written"
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=120) == 130
        assert proc.stderr is not None
        assert b"Traceback" not in proc.stderr.read()
    assert _whole_records(out.read_bytes()) == [1, 2, 3]


@pytest.mark.parametrize(
    ("encoding", "named"),
    [
        ("utf-16", "UTF-16 (little-endian)"),  # with its byte-order mark
        ("utf-16-le", "UTF-16 (little-endian)"),  # known by its NULs
        ("utf-16-be", "UTF-16 (big-endian)"),
    ],
)
def test_issue22_item11_a_utf16_file_is_one_error_and_the_others_are_scored(
    tmp_path: Path, encoding: str, named: str
) -> None:
    """Not an error record per line ("not valid UTF-8"): one line on stderr
    naming the encoding, the other inputs scored, exit status 1."""
    wide = tmp_path / "wide.txt"
    wide.write_bytes("AS 2S 3S\r\nKD QD\r\n".encode(encoding))
    good = tmp_path / "good.txt"
    good.write_text("4C 5C 6C\n", encoding="utf-8")
    result = score(["--format", "jsonl", str(wide), str(good)])
    assert result.exit_code == 1
    assert [(r["file"], r["deadwood"]) for r in jsonl(result)] == [(str(good), 0)]
    assert result.stderr == (
        f"cardtable score: not scored: '{wide}' is {named}; cardtable reads UTF-8 "
        "(convert it first, e.g. with iconv)\n"
    )
    # From a pipe too (the bytes it holds are looked at, and kept for the reader).
    proc = subprocess.run(
        [sys.executable, "-m", "cardtable", "score", "--format", "jsonl"],
        input=wide.read_bytes(),
        capture_output=True,
        check=False,
    )
    assert proc.returncode == 1
    assert proc.stdout == b""
    assert f"standard input is {named}".encode() in proc.stderr
    assert len(proc.stderr.splitlines()) == 1
    # A UTF-8 pipe is read whole after the look.
    proc = subprocess.run(
        [sys.executable, "-m", "cardtable", "score", "--format", "jsonl"],
        input=b"AS 2S 3S\n" * 5000,
        capture_output=True,
        check=True,
    )
    assert len(proc.stdout.splitlines()) == 5000


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (random.Random(5).randbytes(1 << 20), "a NUL byte at byte "),
        # No NUL in it, but mostly bytes of no text.
        (random.Random(6).randbytes(3000).replace(b"\0", b"\x80"), " are not text"),
    ],
    ids=["random", "no-nul"],
)
def test_issue38_item5_a_binary_file_is_one_error_and_the_others_are_scored(
    tmp_path: Path, data: bytes, why: str
) -> None:
    """Not an error record per "line" of random bytes: one line on stderr
    naming the file, the other inputs scored, exit status 1."""
    binary = tmp_path / "noise.bin"
    binary.write_bytes(data)
    good = tmp_path / "good.txt"
    good.write_text("4C 5C 6C\n# café\nKD QD\n", encoding="utf-8")
    result = score(["--format", "jsonl", str(binary), str(good)])
    assert result.exit_code == 1
    assert [(r["file"], r["deadwood"]) for r in jsonl(result)] == [(str(good), 0), (str(good), 20)]
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert result.stderr.startswith(f"cardtable score: not scored: '{binary}' is binary data")
    assert why in result.stderr
    # From a pipe too.
    proc = subprocess.run(
        [sys.executable, "-m", "cardtable", "score", "--format", "jsonl"],
        input=data,
        capture_output=True,
        check=False,
    )
    assert proc.returncode == 1
    assert proc.stdout == b""
    assert proc.stderr.startswith(b"cardtable score: not scored: standard input is binary data")
    assert len(proc.stderr.splitlines()) == 1


def test_issue38_item5_text_with_a_few_bytes_of_another_encoding_is_still_scored(
    tmp_path: Path,
) -> None:
    """A Latin-1 byte in a comment or a hand is that line's error, not the
    file's: the other lines are scored."""
    mixed = tmp_path / "latin1.txt"
    mixed.write_bytes("AS 2S 3S\n# caf\xe9\nKD Q\xe9\n4C 5C 6C\n".encode("latin-1"))
    result = score(["--format", "jsonl", str(mixed)])
    assert result.exit_code == 1
    records = {r["line"]: r for r in jsonl(result)}
    assert "error" in records[3]
    assert [records[1]["deadwood"], records[4]["deadwood"]] == [0, 0]


def test_the_meld_presets_are_the_engines_in_any_spelling() -> None:
    """--game lists the engine's games with melds (and `gin`, another name of
    gin rummy's) and reads a name as the engine does: any case, `-` for `_`."""
    from cardtable._core import meld_game_names

    assert meld_game_names() == ["tonk", "three_thirteen", "gin_rummy", "gin"]
    help_text = score(["--help"]).stdout
    assert "tonk|three_thirteen|gin_rummy|gin" in help_text
    hand = "KS KH KD 5C 2D\n"
    expected = score(["--game", "three_thirteen", "--format", "jsonl"], hand).stdout
    # TT-2.1: in a five-card hand fives are wild, so 5C joins the kings.
    assert json.loads(expected)["deadwood"] == 2
    assert json.loads(score(["--game", "gin", "--format", "jsonl"], hand).stdout)["deadwood"] == 7
    # The game's name means the same as in play: gin rummy's rules.
    for name in ["gin_rummy", "gin-rummy"]:
        gin_rummy = score(["--game", name, "--format", "jsonl"], hand)
        assert json.loads(gin_rummy.stdout)["deadwood"] == 7, gin_rummy.output
    refused = score(["--game", "spit"], hand)
    assert refused.exit_code == 2
    assert "spit" in refused.output
    for spelling in ["three-thirteen", "THREE-THIRTEEN", "Three_Thirteen"]:
        result = score(["--game", spelling, "--format", "jsonl"], hand)
        assert result.exit_code == 0, result.output
        assert result.stdout == expected
    refused = score(["--game", "rummy"], hand)
    assert refused.exit_code == 2
    assert "rummy" in refused.output
