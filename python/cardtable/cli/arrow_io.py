"""Arrow and Parquet inputs of ``cardtable score`` (pyarrow: the ``arrow`` extra).

Inputs are read one record batch at a time and only the column of hands is
loaded, so memory stays flat; the Rust core reads each batch's column in
place (``feed_arrow``). Parquet output needs no pyarrow: the core writes it
(``ParquetWriter``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import click

from cardtable import _core

# Suffix -> how the file is read.
ARROW_INPUTS = {
    ".parquet": "parquet",
    ".pq": "parquet",
    ".arrow": "ipc_file",
    ".feather": "ipc_file",
    ".ipc": "ipc_file",
    ".arrows": "ipc_stream",
}

# Rows per record batch read from a Parquet file.
BATCH_ROWS = 1 << 16

INSTALL_HINT = "pip install 'cardtable[arrow]'"


def arrow_kind(name: str) -> str | None:
    """How to read input ``name`` when it is an Arrow or Parquet file."""
    if name == "-":
        return None
    return ARROW_INPUTS.get(os.path.splitext(name)[1].lower())


def pyarrow_module(why: str) -> Any:
    """pyarrow, or a usage error that says how to install it."""
    try:
        import pyarrow
    except ImportError:
        raise click.UsageError(f"{why} needs pyarrow: {INSTALL_HINT}") from None
    return pyarrow


def pick_column(names: list[str], column: str | None, source: str) -> str:
    """The column of hands: ``--column``, else the only column, else ``hand``."""
    if column is not None:
        if column not in names:
            raise click.UsageError(
                f"{source} has no column {column!r} (its columns: {', '.join(names)})"
            )
        return column
    if len(names) == 1:
        return names[0]
    if "hand" in names:
        return "hand"
    raise click.UsageError(
        f"{source} has several columns ({', '.join(names)}): name the one of hands with --column"
    )


def check_column(name: str, kind: str, column: str | None) -> None:
    """Fails (usage error) before any output when ``name`` has no such
    column, or when its type is not one the core reads hands from."""
    pa = pyarrow_module(f"reading {name}")
    try:
        if kind == "parquet":
            import pyarrow.parquet as pq

            schema = pq.read_schema(name)
        elif kind == "ipc_file":
            with pa.memory_map(name) as source:
                schema = pa.ipc.open_file(source).schema
        else:
            with pa.OSFile(name) as source, pa.ipc.open_stream(source) as reader:
                schema = reader.schema
    except (pa.ArrowException, OSError) as e:
        raise click.UsageError(f"cannot read {name} as {kind.replace('_', ' ')}: {e}") from None
    col = pick_column(schema.names, column, name)
    check_column_type(name, col, schema.field(col).type)


def check_column_type(name: str, column: str, arrow_type: Any) -> None:
    """A usage error naming the column and its type when the core does not
    read hands from that type. The core is asked (an empty column of the
    type), so the types it takes are stated in one place, the core's."""
    pa = pyarrow_module(f"reading {name}")
    try:
        empty = pa.array([], type=arrow_type)
    except (pa.ArrowException, TypeError, ValueError):
        return  # a type pyarrow cannot build empty: the scoring itself will say
    try:
        _core.ScoreStream(_core.MeldRules(), "jsonl").feed_arrow(empty)
    except TypeError as e:
        raise click.UsageError(
            f"{name}: column {column!r} is of type {arrow_type}, not a column of hands: {e}"
        ) from None


def hand_columns(name: str, kind: str, column: str | None) -> Iterator[Any]:
    """The column of hands of each record batch of file ``name``."""
    pa = pyarrow_module(f"reading {name}")
    if kind == "parquet":
        import pyarrow.parquet as pq

        parquet = pq.ParquetFile(name)
        col = pick_column(parquet.schema_arrow.names, column, name)
        for batch in parquet.iter_batches(batch_size=BATCH_ROWS, columns=[col]):
            yield batch.column(0)
    elif kind == "ipc_file":
        with pa.memory_map(name) as source:
            reader = pa.ipc.open_file(source)
            col = pick_column(reader.schema.names, column, name)
            for i in range(reader.num_record_batches):
                yield reader.get_batch(i).column(col)
    else:
        with pa.OSFile(name) as source, pa.ipc.open_stream(source) as reader:
            col = pick_column(reader.schema.names, column, name)
            for batch in reader:
                yield batch.column(col)
