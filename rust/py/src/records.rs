//! Scored hands as Arrow. The one schema of a scored hand is declared here:
//! `score_arrow`'s struct column and the records of `cardtable score
//! --format parquet` share its result columns, filled by one builder. The
//! hand-file scorer that gives record batches (`ArrowScoreStream`) builds
//! its records on the worker threads and hands them to Python as Arrow.

use std::sync::Arc;

use arrow_array::builder::{ArrayBuilder, Int64Builder, ListBuilder, StringBuilder, UInt32Builder};
use arrow_array::{ArrayRef, RecordBatch, StringArray, StructArray};
use arrow_schema::{ArrowError, DataType, Field, FieldRef, Fields, Schema, SchemaRef};
use cardtable_core::batch::{BlockSink, Piece, Records, ScoreStream, ScoredBlock};
use cardtable_core::{Card, Solution};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::arrow::PyScoredHands;
use crate::batch::StreamRun;
use crate::melds::PyMeldRules;

/// How a rejected hand's melds and unmatched cards are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RejectedLists {
    /// Empty lists: every row of `score_arrow`'s column has lists.
    Empty,
    /// Nulls: a record of `cardtable score` has no melds or unmatched cards
    /// when its hand was rejected (its JSON record has no such keys).
    Null,
}

/// A list of cards, each as its token ("AS").
fn cards_type() -> DataType {
    DataType::List(Arc::new(Field::new("item", DataType::Utf8, true)))
}

/// The result of a scored hand: its minimum deadwood, its melds and
/// unmatched cards, or what was wrong with it.
fn result_fields(rejected: RejectedLists) -> Vec<Field> {
    let lists_nullable = rejected == RejectedLists::Null;
    vec![
        Field::new("deadwood", DataType::UInt32, true),
        Field::new(
            "melds",
            DataType::List(Arc::new(Field::new("item", cards_type(), true))),
            lists_nullable,
        ),
        Field::new("unmatched", cards_type(), lists_nullable),
        Field::new("error", DataType::Utf8, true),
    ]
}

/// The fields of `score_arrow`'s struct column.
pub fn scored_fields() -> Fields {
    Fields::from(result_fields(RejectedLists::Empty))
}

/// The columns of `cardtable score`'s records, the keys of its JSON Lines
/// records in order: `file` (when several inputs go to one output), `line`,
/// `hand`, then the result. Every column may be null, as a key may be
/// missing from a JSON record.
pub fn record_schema(with_file: bool) -> SchemaRef {
    let mut fields = Vec::with_capacity(7);
    if with_file {
        fields.push(Field::new("file", DataType::Utf8, true));
    }
    fields.push(Field::new("line", DataType::Int64, true));
    fields.push(Field::new("hand", DataType::Utf8, true));
    fields.extend(result_fields(RejectedLists::Null));
    Arc::new(Schema::new(fields))
}

/// The field of a column of records (a stream of record batches).
pub fn record_field(schema: &SchemaRef) -> FieldRef {
    Arc::new(Field::new(
        "records",
        DataType::Struct(schema.fields().clone()),
        false,
    ))
}

/// Builds the result columns, row by row.
pub struct ResultColumns {
    deadwood: UInt32Builder,
    melds: ListBuilder<ListBuilder<StringBuilder>>,
    unmatched: ListBuilder<StringBuilder>,
    error: StringBuilder,
    rejected_lists: RejectedLists,
}

impl ResultColumns {
    pub fn new(rejected_lists: RejectedLists) -> ResultColumns {
        ResultColumns {
            deadwood: UInt32Builder::new(),
            melds: ListBuilder::new(ListBuilder::new(StringBuilder::new())),
            unmatched: ListBuilder::new(StringBuilder::new()),
            error: StringBuilder::new(),
            rejected_lists,
        }
    }

    pub fn scored(&mut self, sol: &Solution) {
        self.deadwood.append_value(sol.deadwood);
        for i in 0..sol.meld_count() {
            for c in sol.meld_cards(i) {
                self.melds.values().values().append_value(c.text());
            }
            self.melds.values().append(true);
        }
        self.melds.append(true);
        for c in sol.unmatched() {
            self.unmatched.values().append_value(c.text());
        }
        self.unmatched.append(true);
        self.error.append_null();
    }

    pub fn rejected(&mut self, msg: &str) {
        self.deadwood.append_null();
        let lists = self.rejected_lists == RejectedLists::Empty;
        self.melds.append(lists);
        self.unmatched.append(lists);
        self.error.append_value(msg);
    }

    /// The columns so far, in the order of the fields; the builder is then
    /// empty.
    pub fn finish(&mut self) -> [ArrayRef; 4] {
        [
            Arc::new(self.deadwood.finish()),
            Arc::new(self.melds.finish()),
            Arc::new(self.unmatched.finish()),
            Arc::new(self.error.finish()),
        ]
    }

    /// Everything so far as `score_arrow`'s struct column.
    pub fn finish_struct(&mut self) -> StructArray {
        StructArray::new(scored_fields(), self.finish().to_vec(), None)
    }
}

/// One worker's share of a block's records, as Arrow builders.
pub struct RecordColumns {
    line: Int64Builder,
    hand: StringBuilder,
    result: ResultColumns,
    /// A scored hand's text, written here before it is appended.
    text: String,
}

impl Default for RecordColumns {
    fn default() -> RecordColumns {
        RecordColumns {
            line: Int64Builder::new(),
            hand: StringBuilder::new(),
            result: ResultColumns::new(RejectedLists::Null),
            text: String::new(),
        }
    }
}

impl RecordColumns {
    fn len(&self) -> usize {
        self.line.len()
    }
}

impl Piece for RecordColumns {
    fn clear(&mut self) {
        if self.len() > 0 {
            *self = RecordColumns::default();
        }
    }
}

/// `cardtable score`'s records as Arrow columns ([`record_schema`]).
#[derive(Clone)]
pub struct ArrowRecords {
    schema: SchemaRef,
    file: Option<String>,
}

impl ArrowRecords {
    pub fn new(file: Option<&str>) -> ArrowRecords {
        ArrowRecords {
            schema: record_schema(file.is_some()),
            file: file.map(str::to_owned),
        }
    }

    /// A piece's records as one record batch, as a struct array; the piece
    /// is then empty.
    fn finish(&self, piece: &mut RecordColumns) -> Result<ArrayRef, ArrowError> {
        let rows = piece.len();
        let mut columns: Vec<ArrayRef> = Vec::with_capacity(self.schema.fields().len());
        if let Some(file) = &self.file {
            columns.push(Arc::new(StringArray::from_iter_values(
                std::iter::repeat_n(file, rows),
            )));
        }
        columns.push(Arc::new(piece.line.finish()));
        columns.push(Arc::new(piece.hand.finish()));
        columns.extend(piece.result.finish());
        let batch = RecordBatch::try_new(self.schema.clone(), columns)?;
        Ok(Arc::new(StructArray::from(batch)))
    }

    /// A block's records (its non-empty pieces, each a chunk), for Python.
    fn block(&self, block: &mut ScoredBlock<RecordColumns>) -> PyResult<PyScoredHands> {
        let mut chunks = Vec::with_capacity(block.pieces().len());
        for piece in block.pieces_mut() {
            if piece.len() > 0 {
                chunks.push(self.finish(piece).map_err(arrow_error)?);
            }
        }
        Ok(PyScoredHands::new(chunks, record_field(&self.schema)))
    }
}

fn arrow_error(e: ArrowError) -> PyErr {
    PyValueError::new_err(format!("cannot build the records: {e}"))
}

fn line_number(line: u64) -> i64 {
    i64::try_from(line).unwrap_or(i64::MAX)
}

impl Records for ArrowRecords {
    type Piece = RecordColumns;

    fn scored(&self, piece: &mut RecordColumns, line: u64, hand: &[Card], sol: &Solution) {
        piece.line.append_value(line_number(line));
        piece.text.clear();
        for (i, c) in hand.iter().enumerate() {
            if i > 0 {
                piece.text.push(' ');
            }
            c.push_text(&mut piece.text);
        }
        piece.hand.append_value(&piece.text);
        piece.result.scored(sol);
    }

    fn rejected(&self, piece: &mut RecordColumns, line: u64, written: &str, msg: &str) {
        piece.line.append_value(line_number(line));
        piece.hand.append_value(written);
        piece.result.rejected(msg);
    }
}

/// Hands each scored block to a Python callable, as Arrow (blocks without
/// records are skipped). Its exception stops the pipeline.
struct PythonSink<'a> {
    records: ArrowRecords,
    write: &'a Py<PyAny>,
}

impl BlockSink<RecordColumns> for PythonSink<'_> {
    type Error = PyErr;

    fn write_block(&mut self, block: &mut ScoredBlock<RecordColumns>) -> PyResult<()> {
        // Built here, on the writer thread, before the interpreter is needed.
        let records = self.records.block(block)?;
        if records.is_empty() {
            return Ok(());
        }
        Python::attach(|py| self.write.call1(py, (records,)).map(drop))
    }

    fn close(&mut self) -> PyResult<()> {
        Ok(())
    }
}

/// The hand-file scorer giving Arrow records (the columns of its JSON Lines
/// records, see [`record_schema`]): `feed` blocks cut anywhere, then
/// `finish`; each returns (records, scored, rejected, lines), the records
/// as `ScoredHands` (a struct column, one chunk per worker's share).
#[pyclass(name = "ArrowScoreStream", module = "cardtable._core")]
pub struct PyArrowScoreStream {
    run: StreamRun<ArrowRecords>,
}

type RecordsOut = (PyScoredHands, u64, u64, u64);

impl PyArrowScoreStream {
    fn out(&self, mut block: ScoredBlock<RecordColumns>) -> PyResult<RecordsOut> {
        let records = self.run.inner.records().block(&mut block)?;
        Ok((records, block.scored, block.rejected, block.lines))
    }
}

#[pymethods]
impl PyArrowScoreStream {
    #[new]
    #[pyo3(signature = (rules, file = None, threads = None, first_line = 1))]
    fn new(
        rules: &PyMeldRules,
        file: Option<&str>,
        threads: Option<&Bound<'_, PyAny>>,
        first_line: u64,
    ) -> PyResult<Self> {
        let inner = ScoreStream::with_records(rules.rules, ArrowRecords::new(file), first_line);
        Ok(PyArrowScoreStream {
            run: StreamRun::new(inner, threads)?,
        })
    }

    /// Scores the lines that `data` completes.
    fn feed(&mut self, py: Python<'_>, data: &[u8]) -> PyResult<RecordsOut> {
        let block = self.run.feed(py, data)?;
        self.out(block)
    }

    /// The end of the input: scores a last line without an end-of-line.
    fn finish(&mut self, py: Python<'_>) -> PyResult<RecordsOut> {
        let block = self.run.finish(py)?;
        self.out(block)
    }

    /// Scores the hands of Arrow data as the lines from the next one on (see
    /// `ScoreStream.feed_arrow`).
    #[pyo3(signature = (data, column = None))]
    fn feed_arrow(
        &mut self,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        column: Option<&str>,
    ) -> PyResult<RecordsOut> {
        let block = self.run.feed_arrow(py, data, column)?;
        self.out(block)
    }

    /// Scores everything the open file descriptor `input` holds, then
    /// finishes: reading, scoring and building the records overlap on
    /// threads of their own, detached. Each block's records go to
    /// `write(records)` in order, called attached from the writer thread;
    /// an exception it raises stops the run and is raised here. After each
    /// block, `on_block(bytes, lines, scored, rejected)` is called attached
    /// (and Ctrl-C is checked); an exception it raises stops the run once
    /// the blocks already scored are written. A failed read is an `OSError`
    /// whose `filename` is `"input"`.
    #[pyo3(signature = (input, write, on_block, block_bytes = 1 << 20))]
    fn pipe(
        &mut self,
        py: Python<'_>,
        input: i32,
        write: Py<PyAny>,
        on_block: Py<PyAny>,
        block_bytes: usize,
    ) -> PyResult<()> {
        let sink = PythonSink {
            records: self.run.inner.records().clone(),
            write: &write,
        };
        self.run
            .pipe(py, input, sink, &on_block, block_bytes, |e| e)
    }
}

/// The columns of `cardtable score`'s records (file, line, hand, deadwood,
/// melds, unmatched, error), as an empty `ScoredHands`: its
/// `__arrow_c_schema__` is the schema (`pyarrow.schema()` takes it).
#[pyfunction]
#[pyo3(signature = (with_file = false))]
pub fn score_record_schema(with_file: bool) -> PyScoredHands {
    PyScoredHands::new(Vec::new(), record_field(&record_schema(with_file)))
}
