//! Arrow input through the PyCapsule interface (pyo3-arrow): a column of
//! hands — strings, or lists of card codes or tokens — is read straight
//! from its buffers by the worker threads. `score_arrow`'s results go out
//! as `records::PyScoredHands`.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Int16Type, Int32Type, Int64Type, Int8Type, UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{Array, ArrayRef, GenericListArray, OffsetSizeTrait, StructArray};
use arrow_buffer::NullBuffer;
use arrow_schema::{ArrowError, DataType, Field, FieldRef};
use cardtable_core::batch::{Records, ScoreStream, ScoredBlock};
use cardtable_core::{Card, MeldRules, Solution, Solver};
use pyo3::exceptions::PyTypeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3_arrow::input::AnyArray;
use rayon::prelude::*;

use crate::detach::{run_detached, threads_arg};
use crate::errors::InvalidConfigError;
use crate::gather::{card_of_code, HandBuf, HandSource};
use crate::melds::{rules_arg, PyMeldRules};
use crate::records::{scored_fields, PyScoredHands, RejectedLists, ResultColumns};

/// Whether `obj` speaks the Arrow PyCapsule interface.
pub fn is_arrow(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    let py = obj.py();
    Ok(obj.hasattr(intern!(py, "__arrow_c_array__"))?
        || obj.hasattr(intern!(py, "__arrow_c_stream__"))?)
}

fn arrow_err(e: ArrowError) -> PyErr {
    PyTypeError::new_err(e.to_string())
}

/// Applies `$int` to the integer array inside a [`Values`], `$text` to
/// the string one.
macro_rules! with_values {
    ($v:expr, $a:ident => $int:expr, $t:ident => $text:expr) => {
        match $v {
            Values::I8($a) => $int,
            Values::I16($a) => $int,
            Values::I32($a) => $int,
            Values::I64($a) => $int,
            Values::U8($a) => $int,
            Values::U16($a) => $int,
            Values::U32($a) => $int,
            Values::U64($a) => $int,
            Values::Text($t) => $text,
            Values::LargeText($t) => $text,
        }
    };
}

/// The cards of a list column's values.
enum Values {
    I8(arrow_array::Int8Array),
    I16(arrow_array::Int16Array),
    I32(arrow_array::Int32Array),
    I64(arrow_array::Int64Array),
    U8(arrow_array::UInt8Array),
    U16(arrow_array::UInt16Array),
    U32(arrow_array::UInt32Array),
    U64(arrow_array::UInt64Array),
    Text(arrow_array::StringArray),
    LargeText(arrow_array::LargeStringArray),
}

impl Values {
    fn of(values: &ArrayRef) -> Result<Values, String> {
        Ok(match values.data_type() {
            DataType::Int8 => Values::I8(values.as_primitive::<Int8Type>().clone()),
            DataType::Int16 => Values::I16(values.as_primitive::<Int16Type>().clone()),
            DataType::Int32 => Values::I32(values.as_primitive::<Int32Type>().clone()),
            DataType::Int64 => Values::I64(values.as_primitive::<Int64Type>().clone()),
            DataType::UInt8 => Values::U8(values.as_primitive::<UInt8Type>().clone()),
            DataType::UInt16 => Values::U16(values.as_primitive::<UInt16Type>().clone()),
            DataType::UInt32 => Values::U32(values.as_primitive::<UInt32Type>().clone()),
            DataType::UInt64 => Values::U64(values.as_primitive::<UInt64Type>().clone()),
            DataType::Utf8 => Values::Text(values.as_string::<i32>().clone()),
            DataType::LargeUtf8 => Values::LargeText(values.as_string::<i64>().clone()),
            other => {
                return Err(format!(
                "a list column of hands must hold integer card codes or card tokens, not {other}"
            ))
            }
        })
    }

    fn card(&self, j: usize) -> Result<Card, String> {
        macro_rules! code {
            ($a:expr) => {{
                if $a.is_null(j) {
                    return Err("a card is null".into());
                }
                let v = $a.value(j);
                match i64::try_from(v) {
                    Ok(code) => card_of_code(code),
                    Err(_) => Err(crate::gather::bad_code_message(&v.to_string())),
                }
            }};
        }
        with_values!(self, a => code!(a), t => token(t.is_null(j), || t.value(j)))
    }
}

fn token<'a>(null: bool, text: impl FnOnce() -> &'a str) -> Result<Card, String> {
    if null {
        return Err("a card is null".into());
    }
    Card::parse(text()).map_err(|e| e.to_string())
}

/// One chunk of a column of hands, read in place.
enum ArrowHands {
    Text(arrow_array::StringArray),
    LargeText(arrow_array::LargeStringArray),
    View(arrow_array::StringViewArray),
    Lists {
        /// Row i holds values `starts[i]..starts[i + 1]`.
        starts: Vec<usize>,
        nulls: Option<NullBuffer>,
        values: Values,
    },
}

/// A list column (32- or 64-bit offsets) of hands.
fn lists<O: OffsetSizeTrait>(l: &GenericListArray<O>) -> Result<ArrowHands, String> {
    Ok(ArrowHands::Lists {
        starts: l.value_offsets().iter().map(|o| o.as_usize()).collect(),
        nulls: l.nulls().cloned(),
        values: Values::of(l.values())?,
    })
}

impl ArrowHands {
    fn of(array: &ArrayRef) -> Result<ArrowHands, String> {
        Ok(match array.data_type() {
            DataType::Utf8 => ArrowHands::Text(array.as_string::<i32>().clone()),
            DataType::LargeUtf8 => ArrowHands::LargeText(array.as_string::<i64>().clone()),
            DataType::Utf8View => ArrowHands::View(array.as_string_view().clone()),
            DataType::List(_) => lists(array.as_list::<i32>())?,
            DataType::LargeList(_) => lists(array.as_list::<i64>())?,
            DataType::FixedSizeList(_, size) => {
                let l = array.as_fixed_size_list();
                let size = *size as usize;
                ArrowHands::Lists {
                    starts: (0..=l.len()).map(|i| (l.offset() + i) * size).collect(),
                    nulls: l.nulls().cloned(),
                    values: Values::of(l.values())?,
                }
            }
            other => {
                return Err(format!(
                    "a column of hands must hold strings ('AS 2S 3S') or lists of card codes or tokens, not {other}"
                ))
            }
        })
    }
}

impl Values {
    /// Value `j` as given (for an error record).
    fn text(&self, j: usize) -> String {
        macro_rules! shown {
            ($a:expr) => {
                if $a.is_null(j) {
                    "null".to_string()
                } else {
                    $a.value(j).to_string()
                }
            };
        }
        with_values!(self, a => shown!(a), t => shown!(t))
    }
}

impl ArrowHands {
    /// Row `i`: its text, or the range of its cards in the values; None
    /// for a null row.
    fn row(&self, i: usize) -> Option<Row<'_>> {
        let text = |null: bool, s| (!null).then_some(Row::Text(s));
        match self {
            ArrowHands::Text(a) => text(a.is_null(i), a.value(i)),
            ArrowHands::LargeText(a) => text(a.is_null(i), a.value(i)),
            ArrowHands::View(a) => text(a.is_null(i), a.value(i)),
            ArrowHands::Lists { starts, nulls, .. } => {
                (!nulls.as_ref().is_some_and(|n| n.is_null(i)))
                    .then(|| Row::Cards(starts[i]..starts[i + 1]))
            }
        }
    }

    fn values(&self) -> Option<&Values> {
        match self {
            ArrowHands::Lists { values, .. } => Some(values),
            _ => None,
        }
    }

    /// Row `i` as given: its text, or its cards' values joined by spaces
    /// (empty for a null row).
    fn text(&self, i: usize) -> String {
        match (self.row(i), self.values()) {
            (Some(Row::Text(s)), _) => s.to_string(),
            (Some(Row::Cards(range)), Some(values)) => {
                let shown: Vec<String> = range.map(|j| values.text(j)).collect();
                shown.join(" ")
            }
            _ => String::new(),
        }
    }
}

/// One row of a column of hands.
enum Row<'a> {
    Text(&'a str),
    Cards(std::ops::Range<usize>),
}

impl HandSource for ArrowHands {
    fn len(&self) -> usize {
        match self {
            ArrowHands::Text(a) => a.len(),
            ArrowHands::LargeText(a) => a.len(),
            ArrowHands::View(a) => a.len(),
            ArrowHands::Lists { starts, .. } => starts.len().saturating_sub(1),
        }
    }

    fn hand(&self, i: usize, discard: bool) -> Result<HandBuf, String> {
        match (self.row(i), self.values()) {
            (Some(Row::Text(text)), _) => HandBuf::parse(text, discard),
            (Some(Row::Cards(range)), Some(values)) => {
                HandBuf::collect(range.map(|j| values.card(j)), discard)
            }
            _ => Err("the hand is null".into()),
        }
    }
}

/// The column `column` of a struct chunk (a table's record batch), or the
/// chunk itself when it is not a struct.
fn select(chunk: ArrayRef, field: &FieldRef, column: Option<&str>) -> PyResult<ArrayRef> {
    let DataType::Struct(fields) = field.data_type() else {
        return match column {
            None => Ok(chunk),
            Some(c) => Err(InvalidConfigError::new_err(format!(
                "column {c:?} given, but the data is one column of {}",
                field.data_type()
            ))),
        };
    };
    let names: Vec<&str> = fields.iter().map(|f| f.name().as_str()).collect();
    let index = match column {
        Some(c) => names.iter().position(|n| *n == c).ok_or_else(|| {
            InvalidConfigError::new_err(format!(
                "no column {c:?}: the data has {}",
                names.join(", ")
            ))
        })?,
        None if names.len() == 1 => 0,
        None => {
            return Err(InvalidConfigError::new_err(format!(
                "the data has several columns ({}): name the one of hands with column=",
                names.join(", ")
            )))
        }
    };
    Ok(chunk.as_struct().column(index).clone())
}

/// Every chunk of the hands of an Arrow object, read in place.
pub fn arrow_hands(
    obj: &Bound<'_, PyAny>,
    column: Option<&str>,
) -> PyResult<Vec<impl HandSource + use<>>> {
    arrow_chunks(obj, column)
}

fn arrow_chunks(obj: &Bound<'_, PyAny>, column: Option<&str>) -> PyResult<Vec<ArrowHands>> {
    let data: AnyArray = obj.extract()?;
    let reader = data.into_reader()?;
    let field = reader.field();
    let mut out = Vec::new();
    for chunk in reader {
        let chunk = select(chunk.map_err(arrow_err)?, &field, column)?;
        out.push(ArrowHands::of(&chunk).map_err(PyTypeError::new_err)?);
    }
    Ok(out)
}

/// A chunk's rows scored, as `score_arrow`'s struct column.
fn scored_chunk(rows: &[Result<Solution, String>]) -> StructArray {
    let mut columns = ResultColumns::new(RejectedLists::Empty);
    for row in rows {
        match row {
            Ok(sol) => columns.scored(sol),
            Err(e) => columns.rejected(e),
        }
    }
    columns.finish_struct()
}

fn score_rows(
    src: &impl HandSource,
    rules: &MeldRules,
    discard: bool,
) -> Vec<Result<Solution, String>> {
    (0..src.len())
        .into_par_iter()
        .with_min_len(256)
        .map_init(Solver::new, |s, i| {
            let hand = src.hand(i, discard)?;
            cardtable_core::batch::scored_hand(hand.as_ref())?;
            let sol = if discard {
                s.best_discard(hand.as_ref(), rules)
            } else {
                s.solve(hand.as_ref(), rules)
            };
            sol.map_err(|e| e.to_string())
        })
        .collect()
}

/// Scores the hands of Arrow data through `stream` as the lines from its
/// next one on (row r of the data is one line), a chunk of the data at a
/// time, detached; Ctrl-C is checked between chunks.
pub fn score_arrow_rows<K: Records>(
    py: Python<'_>,
    threads: Option<usize>,
    stream: &mut ScoreStream<K>,
    data: &Bound<'_, PyAny>,
    column: Option<&str>,
    out: &mut ScoredBlock<K::Piece>,
) -> PyResult<()> {
    for src in arrow_chunks(data, column)? {
        let cards = |i: usize, cards: &mut Vec<Card>| {
            cards.extend_from_slice(src.hand(i, false)?.as_ref());
            Ok(())
        };
        run_detached(py, threads, || {
            stream.score_rows_into(src.len(), cards, |i| src.text(i), out);
        })?;
        py.check_signals()?;
    }
    Ok(())
}

/// Scores a column of hands given as Arrow data (any object with
/// `__arrow_c_array__` or `__arrow_c_stream__`: a pyarrow array, chunked
/// array, table or record batch, a Polars Series or DataFrame, a DuckDB
/// relation...). Strings (`'AS 2S 3S'`) or lists of card codes or tokens;
/// `column` names the column of a table. Every row gets a result: deadwood,
/// melds and unmatched cards, or an error (a null or bad hand); rows keep
/// their order; an empty hand is an error, as a line without a card is to
/// `cardtable score`. Parsing and solving run detached, in parallel.
#[pyfunction]
#[pyo3(signature = (data, column = None, game = None, *, rules = None, threads = None, discard = false, **options))]
#[allow(clippy::too_many_arguments)]
pub fn score_arrow(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    column: Option<&str>,
    game: Option<&str>,
    rules: Option<&Bound<'_, PyMeldRules>>,
    threads: Option<&Bound<'_, PyAny>>,
    discard: bool,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyScoredHands> {
    let threads = threads_arg(threads)?;
    let rules = rules_arg(py, game, rules, options)?;
    if !is_arrow(data)? {
        return Err(PyTypeError::new_err(format!(
            "expected Arrow data (an object with __arrow_c_array__ or __arrow_c_stream__), got {}",
            data.get_type().name()?
        )));
    }
    let sources = arrow_hands(data, column)?;
    let mut chunks: Vec<ArrayRef> = Vec::with_capacity(sources.len());
    for src in &sources {
        let rows = run_detached(py, threads, || score_rows(src, &rules, discard))?;
        chunks.push(Arc::new(scored_chunk(&rows)));
        py.check_signals()?;
    }
    let field = Arc::new(Field::new(
        "scored",
        DataType::Struct(scored_fields()),
        false,
    ));
    Ok(PyScoredHands::new(chunks, field))
}
