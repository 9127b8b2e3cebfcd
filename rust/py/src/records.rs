//! Scored hands as Arrow. The one schema of a scored hand is declared here:
//! `score_arrow`'s struct column and the records of `cardtable score
//! --format parquet` share its result columns, filled by one builder. The
//! records of the hand-file scorer are built on the worker threads, and
//! `ScoredHands` hands either to Python as Arrow.

use std::sync::Arc;

use arrow_array::builder::{ArrayBuilder, Int64Builder, ListBuilder, StringBuilder, UInt32Builder};
use arrow_array::{Array, ArrayRef, RecordBatch, StringArray, StructArray};
use arrow_schema::{ArrowError, DataType, Field, FieldRef, Fields, Schema, SchemaRef};
use cardtable_core::batch::{Piece, Records, ScoredBlock};
use cardtable_core::{Card, Solution};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyTuple};
use pyo3_arrow::ffi::{to_array_pycapsules, to_schema_pycapsule, to_stream_pycapsule};
use pyo3_arrow::ffi::{ArrayIterator, ArrayReader};

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

    /// A piece's records as one record batch; the piece is then empty.
    fn finish(&self, piece: &mut RecordColumns) -> Result<RecordBatch, ArrowError> {
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
        RecordBatch::try_new(self.schema.clone(), columns)
    }

    /// A block's records, a record batch per non-empty piece.
    pub fn batches(
        &self,
        block: &mut ScoredBlock<RecordColumns>,
    ) -> Result<Vec<RecordBatch>, ArrowError> {
        let mut batches = Vec::with_capacity(block.pieces().len());
        for piece in block.pieces_mut() {
            if piece.len() > 0 {
                batches.push(self.finish(piece)?);
            }
        }
        Ok(batches)
    }

    /// A block's records for Python: a struct column, a chunk per
    /// non-empty piece.
    pub fn block(&self, block: &mut ScoredBlock<RecordColumns>) -> PyResult<PyScoredHands> {
        let chunks = self
            .batches(block)
            .map_err(arrow_error)?
            .into_iter()
            .map(|b| Arc::new(StructArray::from(b)) as ArrayRef)
            .collect();
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

/// The columns of `cardtable score`'s records (file, line, hand, deadwood,
/// melds, unmatched, error), as an empty `ScoredHands`: its
/// `__arrow_c_schema__` is the schema (`pyarrow.schema()` takes it).
#[pyfunction]
#[pyo3(signature = (with_file = false))]
pub fn score_record_schema(with_file: bool) -> PyScoredHands {
    PyScoredHands::new(Vec::new(), record_field(&record_schema(with_file)))
}

/// Scored hands as Arrow: one struct column in chunks. From `score_arrow`,
/// the results (`deadwood`, `melds`, `unmatched`, `error`), one chunk per
/// chunk of the input; from the hand-file scorer, its records (see
/// `records::record_schema`).
#[pyclass(name = "ScoredHands", module = "cardtable._core", frozen)]
pub struct PyScoredHands {
    chunks: Vec<ArrayRef>,
    field: FieldRef,
}

impl PyScoredHands {
    /// `chunks` of the column of `field`.
    pub fn new(chunks: Vec<ArrayRef>, field: FieldRef) -> PyScoredHands {
        PyScoredHands { chunks, field }
    }

    pub fn is_empty(&self) -> bool {
        self.chunks.iter().all(|c| c.is_empty())
    }

    /// The chunks of the column.
    pub fn chunks(&self) -> &[ArrayRef] {
        &self.chunks
    }

    fn reader(&self) -> Box<dyn ArrayReader + Send> {
        Box::new(ArrayIterator::new(
            self.chunks.clone().into_iter().map(Ok),
            self.field.clone(),
        ))
    }
}

#[pymethods]
impl PyScoredHands {
    fn __len__(&self) -> usize {
        self.chunks.iter().map(|c| c.len()).sum()
    }

    /// Chunks of the column (one per chunk of the input).
    #[getter]
    fn num_chunks(&self) -> usize {
        self.chunks.len()
    }

    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyCapsule>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        Ok(to_stream_pycapsule(py, self.reader(), requested_schema)?)
    }

    /// The whole column as one array (chunks are joined when there are several).
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyCapsule>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let joined: ArrayRef = match self.chunks.as_slice() {
            [] => arrow_array::new_empty_array(self.field.data_type()),
            [one] => one.clone(),
            many => {
                let refs: Vec<&dyn Array> = many.iter().map(|c| c.as_ref()).collect();
                arrow_select::concat::concat(&refs)
                    .map_err(|e| PyTypeError::new_err(e.to_string()))?
            }
        };
        Ok(to_array_pycapsules(
            py,
            self.field.clone(),
            joined.as_ref(),
            requested_schema,
        )?)
    }

    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        Ok(to_schema_pycapsule(py, self.field.as_ref())?)
    }

    fn __repr__(&self) -> String {
        format!(
            "<ScoredHands of {} hands in {} chunk(s)>",
            self.__len__(),
            self.chunks.len()
        )
    }
}
