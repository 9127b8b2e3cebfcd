"""Arrow in and out: score_arrow and min_deadwood_many on pyarrow and Polars
data (PyCapsule interface), and ``cardtable score`` on Parquet and Arrow IPC
files (row r is line r + 1)."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import cardtable
from cardtable import InvalidConfigError, min_deadwood, min_deadwood_many, score_arrow
from cardtable.cli import main

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pl = pytest.importorskip("polars")

NULL = "the hand is null"
EMPTY = "the hand holds no card"


def random_hand_texts(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    deck = [str(cardtable.Card.from_code(c)) for c in range(52)]
    return [" ".join(rng.sample(deck, rng.randint(3, 11))) for _ in range(count)]


def expected_row(hand: Any) -> dict[str, Any]:
    """What a scored row holds for ``hand``: min_deadwood's arrangement, or its error."""
    try:
        d = min_deadwood(hand)
    except cardtable.CardGameError as e:
        return {"deadwood": None, "melds": [], "unmatched": [], "error": str(e)}
    return {
        "deadwood": d.deadwood,
        "melds": [[str(c) for c in m.cards] for m in d.melds],
        "unmatched": [str(c) for c in d.unmatched],
        "error": None,
    }


def test_strings_in_a_struct_column_out_with_errors_per_row() -> None:
    hands = ["AS 2S 3S KD", None, "AS ZZ", "", "4S 3D 3H 5D 3C 4C 6S 5H 2C 4H", "QD QD"]
    scored = score_arrow(pa.array(hands))
    assert len(scored) == len(hands)
    rows = pa.array(scored).to_pylist()
    assert rows[1] == {"deadwood": None, "melds": [], "unmatched": [], "error": NULL}
    assert rows[3]["error"] == EMPTY
    for i in (0, 2, 4, 5):
        assert rows[i] == expected_row(hands[i]), i
    assert pa.array(scored).type.names == ["deadwood", "melds", "unmatched", "error"]


def test_many_random_hands_equal_the_serial_solver() -> None:
    hands = random_hand_texts(3000, seed=5)
    rows = pa.array(score_arrow(pa.array(hands), threads=2)).to_pylist()
    assert rows == [expected_row(h) for h in hands]


@pytest.mark.parametrize(
    "kind",
    [
        pa.list_(pa.int8()),
        pa.list_(pa.uint16()),
        pa.large_list(pa.int64()),
        pa.list_(pa.int32(), 4),
    ],
    ids=["list-int8", "list-uint16", "large-list-int64", "fixed-size-list-int32"],
)
def test_lists_of_card_codes(kind: Any) -> None:
    good = [[0, 1, 2, 3], [13, 14, 15, 40]]
    hands: list[list[int] | None] = [*good, None, [0, 1, 2, 99]]
    array = pa.array(hands, type=kind)
    rows = pa.array(score_arrow(array)).to_pylist()
    assert rows[:2] == [expected_row(h) for h in good]
    assert rows[2]["error"] == NULL
    assert "99" in rows[3]["error"]
    batch = min_deadwood_many(array, errors="collect")
    assert batch.deadwoods[:2] == [min_deadwood(h).deadwood for h in good]
    assert sorted(batch.errors) == [2, 3]


def test_lists_of_tokens_and_a_null_card() -> None:
    array = pa.array([["AS", "2S", "3S"], ["KD", None], ["10♦", "JD", "QD"]])
    rows = pa.array(score_arrow(array)).to_pylist()
    assert rows[0] == expected_row("AS 2S 3S")
    assert rows[1]["error"] == "a card is null"
    assert rows[2] == expected_row("10♦ JD QD")


def test_chunked_arrays_keep_their_chunks_and_order() -> None:
    hands = random_hand_texts(900, seed=9)
    chunked = pa.chunked_array([hands[:100], hands[100:700], hands[700:]])
    scored = score_arrow(chunked)
    assert scored.num_chunks == 3
    table = pa.table(scored)
    assert table.num_rows == 900
    assert table.column("deadwood").to_pylist() == [min_deadwood(h).deadwood for h in hands]
    assert pa.array(scored).to_pylist() == table.to_pylist()


def test_a_table_column_is_named() -> None:
    table = pa.table({"id": [1, 2], "hand": ["AS 2S 3S", "KD QD JD 5C"]})
    rows = pa.array(score_arrow(table, "hand")).to_pylist()
    assert [r["deadwood"] for r in rows] == [0, 5]
    with pytest.raises(InvalidConfigError, match='no column "nope": the data has id, hand'):
        score_arrow(table, "nope")
    with pytest.raises(InvalidConfigError, match="several columns"):
        score_arrow(table)
    assert pa.array(score_arrow(table.select(["hand"]))).to_pylist() == rows
    with pytest.raises(InvalidConfigError, match='column "hand" given'):
        score_arrow(pa.array(["AS"]), "hand")


def test_wrong_types_are_named() -> None:
    with pytest.raises(TypeError, match="expected Arrow data"):
        score_arrow(["AS 2S 3S"])
    with pytest.raises(TypeError, match=r"lists of card codes or tokens, not Float64"):
        score_arrow(pa.array([1.5]))
    with pytest.raises(TypeError, match="integer card codes or card tokens, not Float32"):
        score_arrow(pa.array([[1.5]], type=pa.list_(pa.float32())))


def test_rules_and_discard() -> None:
    hands = pa.array(["KS KH 5C 5D 5H 2C 3C", "AS 3S 7S 5C 6C 7C 5D 2H 5H 6H 7H"])
    tonk = pa.array(score_arrow(hands, game="tonk")).field("deadwood").to_pylist()
    assert tonk == [min_deadwood(h, game="tonk").deadwood for h in hands.to_pylist()]
    discard = pa.array(score_arrow(hands, discard=True)).field("deadwood").to_pylist()
    assert discard == [cardtable.best_discard(h).deadwood for h in hands.to_pylist()]


def test_polars_series_in_and_out() -> None:
    series = pl.Series("hand", ["AS 2S 3S KD", None, "7H 8H 9H", "AS ZZ"])
    frame = pl.DataFrame(score_arrow(series))
    assert frame.columns == ["deadwood", "melds", "unmatched", "error"]
    assert frame["deadwood"].to_list() == [10, None, 0, None]
    assert frame["error"].to_list()[:3] == [None, NULL, None]
    assert frame["melds"].to_list()[0] == [["AS", "2S", "3S"]]
    out = pl.Series(score_arrow(series))
    assert out.dtype == pl.Struct
    assert out.struct.field("deadwood").to_list() == [10, None, 0, None]
    batch = min_deadwood_many(series, errors="collect")
    assert batch.deadwoods == [10, None, 0, None]
    assert batch.errors[1] == NULL
    frame_in = pl.DataFrame({"n": [1, 2], "hand": ["AS 2S 3S", "KD"]})
    assert pa.array(score_arrow(frame_in, "hand")).field("deadwood").to_pylist() == [0, 10]


def test_a_pandas_series_with_an_arrow_dtype_speaks_the_interface() -> None:
    pd = pytest.importorskip("pandas")
    s = pd.Series(["AS 2S 3S", "KD 5C"], dtype="string[pyarrow]")
    assert min_deadwood_many(s).deadwoods == [0, 15]


def test_a_duckdb_relation_speaks_the_interface() -> None:
    duckdb = pytest.importorskip("duckdb")
    rel = duckdb.sql("select * from (values ('AS 2S 3S'), ('KD 5C')) t(hand)")
    assert pa.array(score_arrow(rel, "hand")).field("deadwood").to_pylist() == [0, 15]


def test_min_deadwood_many_on_arrow_equals_the_list_path() -> None:
    hands = [*random_hand_texts(5000, seed=3), "AS ZZ", "QD QD"]
    from_arrow = min_deadwood_many(pa.array(hands), errors="collect")
    from_list = min_deadwood_many(hands, errors="collect")
    assert from_arrow.deadwoods == from_list.deadwoods
    assert from_arrow.errors == from_list.errors
    assert from_arrow[7] == from_list[7]


# ---------------------------------------------------------------------------
# cardtable score on Parquet and Arrow IPC files


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def jsonl_of(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def test_parquet_rows_are_lines(tmp_path: Path) -> None:
    texts = random_hand_texts(200, seed=1)
    hands: list[str | None] = [*texts, None, "AS ZZ", ""]
    path = tmp_path / "hands.parquet"
    pq.write_table(pa.table({"id": list(range(len(hands))), "hand": hands}), path)
    result = run("score", str(path), "--format", "jsonl")
    assert result.exit_code == 1
    records = jsonl_of(result.stdout)
    assert [r["line"] for r in records] == list(range(1, len(hands) + 1))
    # The same hands as a text file score the same (apart from the lines
    # that a text file cannot hold: null and empty).
    text = tmp_path / "hands.txt"
    text.write_text("\n".join(texts) + "\n")
    from_text = jsonl_of(run("score", str(text), "--format", "jsonl").stdout)
    assert records[:200] == from_text
    assert records[200]["error"] == NULL
    assert records[201]["error"].startswith('invalid card "ZZ"')
    assert records[202]["error"] == EMPTY


def test_record_batches_are_streamed_and_lines_run_on(tmp_path: Path) -> None:
    hands = random_hand_texts(140_000, seed=2)
    path = tmp_path / "many.parquet"
    pq.write_table(pa.table({"hand": hands}), path, row_group_size=30_000)
    result = run("score", str(path), "--format", "csv")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "line,hand,deadwood,melds,unmatched,error"
    assert len(lines) == 140_001
    assert lines[-1].startswith("140000,")
    assert lines[70_001].split(",")[2] == str(min_deadwood(hands[70_000]).deadwood)


def test_arrow_ipc_files_and_code_lists(tmp_path: Path) -> None:
    import pyarrow.feather as feather

    codes = pa.array([[0, 1, 2], [13, 99], [40, 41, 42, 43]], type=pa.list_(pa.int16()))
    ipc = tmp_path / "codes.arrow"
    feather.write_feather(pa.table({"cards": codes}), ipc)
    records = jsonl_of(run("score", str(ipc), "--format", "jsonl").stdout)
    assert records[0]["hand"] == "AC 2C 3C"
    assert records[1] == {
        "line": 2,
        "hand": "13 99",
        "error": "invalid card code 99: codes run from 0 (AC) to 51 (KS), and 52 is the joker",
    }
    stream = tmp_path / "codes.arrows"
    schema = pa.schema([("cards", codes.type)])
    with pa.OSFile(str(stream), "wb") as sink, pa.ipc.new_stream(sink, schema) as writer:
        writer.write_table(pa.table({"cards": codes}))
    assert jsonl_of(run("score", str(stream), "--format", "jsonl").stdout) == records


def test_parquet_output_holds_the_jsonl_records(tmp_path: Path) -> None:
    text = tmp_path / "hands.txt"
    text.write_text("AS 2S 3S KD\n\n# a comment\nAS ZZ\n7H 8H 9H\n")
    out = tmp_path / "scored.parquet"
    result = run("score", str(text), "--format", "parquet", "-o", str(out))
    assert result.exit_code == 1
    table = pq.read_table(out)
    assert table.column_names == ["line", "hand", "deadwood", "melds", "unmatched", "error"]
    rows = table.to_pylist()
    records = jsonl_of(run("score", str(text), "--format", "jsonl").stdout)
    assert [r["line"] for r in rows] == [r["line"] for r in records] == [1, 4, 5]
    for row, record in zip(rows, records, strict=True):
        assert {k: v for k, v in row.items() if v is not None} == record
    # Several inputs: a file column first, and Parquet in gives Parquet out.
    parquet_in = tmp_path / "in.parquet"
    pq.write_table(pa.table({"hand": ["KD QD JD"]}), parquet_in)
    both = tmp_path / "both.parquet"
    run("score", str(text), str(parquet_in), "--format", "parquet", "-o", str(both))
    table = pq.read_table(both)
    assert table.column_names[0] == "file"
    assert table.column("file").to_pylist()[-1] == str(parquet_in)
    assert table.column("deadwood").to_pylist() == [10, None, 0, 0]


# The columns of ``--format parquet``: those of the JSON Lines records, each
# may be null (a rejected line's record has no deadwood, melds or unmatched).
CARDS = pa.list_(pa.string())
RECORD_SCHEMA = pa.schema(
    [
        ("line", pa.int64()),
        ("hand", pa.string()),
        ("deadwood", pa.uint32()),
        ("melds", pa.list_(CARDS)),
        ("unmatched", CARDS),
        ("error", pa.string()),
    ]
)


def mixed_lines(count: int) -> bytes:
    """Hands, comments, blank, bad and over-long lines, a line of separators,
    lower-case and suit-symbol tokens, every line end, and a last line
    without one."""
    rng = random.Random(11)
    deck = [str(cardtable.Card.from_code(c)) for c in range(53)]
    parts = []
    for n in range(1, count + 1):
        if n % 101 == 0:
            text = "# comment"
        elif n % 103 == 0:
            text = "XX 2S 3S"
        elif n % 107 == 0:
            text = ""
        elif n % 109 == 0:
            text = ", ,"
        elif n % 113 == 0:
            text = "as,2s , 3s 10h q\u2665"
        elif n == count // 2:
            text = "AS " * 30_000
        else:
            text = " ".join(rng.sample(deck, 1 + n % 13))
        parts.append(text + ("\n", "\r\n", "\r")[n % 3])
    return "".join(parts).encode() + b"KD QD"


def test_parquet_output_is_the_jsonl_records_read_under_its_schema(tmp_path: Path) -> None:
    """Parquet rows are the JSON Lines records, value for value: read back,
    a file equals the jsonl output read by pyarrow under the same schema.
    Both ways of scoring are covered: a file through the core's pipeline,
    standard input (no descriptor here) block by block."""
    import pyarrow.json as pj

    text = tmp_path / "mixed.txt"
    data = mixed_lines(6000)
    text.write_bytes(data)
    parquet_in = tmp_path / "in.parquet"
    pq.write_table(pa.table({"hand": ["KD QD JD", None, "", "AS ZZ"]}), parquet_in)

    def as_json(args: list[str], stdin: bytes | None = None) -> Any:
        result = CliRunner().invoke(main, ["score", *args, "--format", "jsonl"], input=stdin)
        assert result.exit_code == 1
        return result.stdout_bytes

    def as_parquet(args: list[str], stdin: bytes | None = None) -> Any:
        out = tmp_path / "out.parquet"
        result = CliRunner().invoke(
            main, ["score", *args, "--format", "parquet", "-o", str(out)], input=stdin
        )
        assert result.exit_code == 1, result.output
        assert "lines rejected" in result.stderr
        return pq.read_table(out)

    for args, stdin in (([str(text)], None), (["-"], data)):
        table = as_parquet(args, stdin)
        assert table.schema.equals(RECORD_SCHEMA)
        records = pj.read_json(
            io.BytesIO(as_json(args, stdin)),
            parse_options=pj.ParseOptions(explicit_schema=RECORD_SCHEMA),
        )
        assert table.num_rows == records.num_rows > 5000
        assert table.equals(records.select(RECORD_SCHEMA.names))
    # Several inputs, a Parquet one among them: a file column first.
    both = as_parquet([str(text), str(parquet_in)])
    schema = pa.schema([("file", pa.string()), *RECORD_SCHEMA])
    assert both.schema.equals(schema)
    records = pj.read_json(
        io.BytesIO(as_json([str(text), str(parquet_in)])),
        parse_options=pj.ParseOptions(explicit_schema=schema),
    )
    assert both.equals(records.select(schema.names))
    errors = both.column("error").to_pylist()[-3:]
    assert errors[:2] == [NULL, EMPTY]
    assert errors[2].startswith('invalid card "ZZ"')


def test_parquet_output_of_no_line_is_a_file_of_no_row(tmp_path: Path) -> None:
    empty, out = tmp_path / "empty.txt", tmp_path / "out.parquet"
    empty.write_text("# nothing\n\n")
    assert run("score", str(empty), "--format", "parquet", "-o", str(out)).exit_code == 0
    table = pq.read_table(out)
    assert table.num_rows == 0
    assert table.schema.equals(RECORD_SCHEMA)


def test_the_stream_of_arrow_records_numbers_text_and_rows_as_one_run_of_lines() -> None:
    stream = cardtable._core.ArrowScoreStream(cardtable.MeldRules(), "f.txt")
    first, ok, bad, lines = stream.feed(b"AS 2S 3S KD\n# comment\nKD QD")
    assert (ok, bad, lines) == (1, 0, 2)
    with pytest.raises(ValueError, match="unfinished line"):
        stream.feed_arrow(pa.array(["7H 8H 9H"]))
    end, ok, bad, lines = stream.finish()
    rows, ok, bad, lines = stream.feed_arrow(pa.array(["7H 8H 9H", None]))
    assert (ok, bad, lines) == (1, 1, 2)
    table = pa.concat_tables([pa.table(first), pa.table(end), pa.table(rows)])
    assert table.column("file").to_pylist() == ["f.txt"] * 4
    assert table.column("line").to_pylist() == [1, 3, 4, 5]
    assert table.column("hand").to_pylist() == ["AS 2S 3S KD", "KD QD", "7H 8H 9H", ""]
    assert table.column("error").to_pylist() == [None, None, None, NULL]
    assert table.schema.equals(pa.schema(cardtable._core.score_record_schema(with_file=True)))


def test_column_and_file_errors_are_usage_errors(tmp_path: Path) -> None:
    path = tmp_path / "two.parquet"
    pq.write_table(pa.table({"a": ["AS"], "b": ["KD"]}), path)
    result = run("score", str(path))
    assert result.exit_code == 2
    assert "several columns (a, b): name the one of hands with --column" in result.output
    assert "deadwood" not in result.stdout
    assert run("score", str(path), "--column", "b", "--format", "jsonl").exit_code == 0
    result = run("score", str(path), "--column", "nope")
    assert result.exit_code == 2
    assert "no column 'nope' (its columns: a, b)" in result.output
    bad = tmp_path / "bad.parquet"
    bad.write_text("not parquet")
    result = run("score", str(bad))
    assert result.exit_code == 2
    assert "cannot read" in result.output
    text = tmp_path / "h.txt"
    text.write_text("AS\n")
    result = run("score", str(text), "--column", "hand")
    assert result.exit_code == 2
    assert "--column names the column of Parquet or Arrow inputs" in result.output


def test_a_column_of_another_type_is_a_usage_error_naming_it(tmp_path: Path) -> None:
    """Issue 22 item 8: ``--column`` naming an integer (or any non-hand)
    column is a one-line usage error naming the column and its type, exit
    2, before any output; it was a traceback and exit 1."""
    path = tmp_path / "ids.parquet"
    pq.write_table(pa.table({"id": pa.array([1, 2], pa.int64()), "hand": ["AS 2S 3S", "KD"]}), path)
    result = run("score", str(path), "--column", "id")
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = [line for line in result.output.splitlines() if line.startswith("Error")]
    assert len(lines) == 1, result.output
    assert "column 'id' is of type int64" in lines[0]
    assert "strings" in lines[0]
    assert "Traceback" not in result.output
    assert "deadwood" not in result.stdout
    assert run("score", str(path), "--column", "hand", "--format", "jsonl").exit_code == 0
    # The only column, chosen without --column, of lists of floats; an Arrow IPC stream.
    floats = tmp_path / "floats.arrows"
    table = pa.table({"cards": pa.array([[1.0, 2.0]], pa.list_(pa.float32()))})
    with pa.OSFile(str(floats), "wb") as sink, pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    result = run("score", str(floats))
    assert result.exit_code == 2, result.output
    assert "column 'cards' is of type list<item: float>" in result.output


def test_the_parquet_writer_writes_a_row_group_per_write_to_a_python_stream() -> None:
    """``ParquetWriter`` on a stream without a descriptor: each write of the
    scorer's records (or of a pyarrow table of them) is a row group; a table
    of other columns is refused and writes nothing; closing twice is fine and
    a write after it names the closed output."""
    buffer = io.BytesIO()
    writer = cardtable._core.ParquetWriter(buffer, False, "the buffer")
    stream = cardtable._core.ArrowScoreStream(cardtable.MeldRules())
    first, *_ = stream.feed(b"AS 2S 3S KD\nXX\n")
    writer.write(first)
    end, *_ = stream.finish()
    writer.write(end)  # no rows: no row group
    writer.write(pa.table(stream.feed(b"7H 8H 9H\n")[0]))
    with pytest.raises(ValueError, match="not the records of cardtable score"):
        writer.write(pa.table({"line": pa.array([1], pa.int64())}))
    assert not writer.closed
    writer.close()
    writer.close()
    assert writer.closed
    with pytest.raises(OSError, match="the buffer is already closed"):
        writer.write(first)
    parquet = pq.ParquetFile(io.BytesIO(buffer.getvalue()))
    assert parquet.metadata.num_row_groups == 2
    table = parquet.read()
    assert table.schema.equals(RECORD_SCHEMA)
    assert table.column("deadwood").to_pylist() == [10, None, 0]
    assert table.column("line").to_pylist() == [1, 2, 3]
