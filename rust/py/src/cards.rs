//! `Card` and the conversions from Python values to cards and hands.

use cardtable_core::{format_hand, parse_hand, Card};
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyInt, PyList, PyString, PyTuple};

use crate::errors::{py_result, InvalidCardError};

/// A playing card or a joker. Frozen, hashable, ordered by code.
#[pyclass(
    name = "Card",
    module = "cardtable._core",
    frozen,
    eq,
    ord,
    hash,
    str,
    from_py_object
)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PyCard(pub Card);

impl std::fmt::Display for PyCard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

#[pymethods]
impl PyCard {
    #[new]
    fn new(text: &str) -> PyResult<Self> {
        Ok(PyCard(py_result(Card::parse(text))?))
    }

    /// The card with this code (0 = AC ... 51 = KS, 52 = joker); any integer
    /// with `__index__` (numpy integers too).
    #[staticmethod]
    fn from_code(code: &Bound<'_, PyAny>) -> PyResult<Self> {
        match card_from_index(code)? {
            Some(card) => Ok(PyCard(card)),
            None => Err(PyTypeError::new_err(format!(
                "a card code is an integer, got {}",
                code.get_type().name()?
            ))),
        }
    }

    /// Code: suit * 13 + (rank - 1), suits C D H S; 52 for the joker.
    #[getter]
    fn code(&self) -> u8 {
        self.0.code()
    }

    /// 1 (ace) to 13 (king); 0 for the joker.
    #[getter]
    fn rank(&self) -> u8 {
        self.0.rank()
    }

    /// 'C', 'D', 'H' or 'S'; None for the joker.
    #[getter]
    fn suit(&self) -> Option<char> {
        self.0.suit().map(|s| s.letter())
    }

    #[getter]
    fn is_joker(&self) -> bool {
        self.0.is_joker()
    }

    /// True for hearts and diamonds.
    #[getter]
    fn is_red(&self) -> bool {
        self.0.suit().is_some_and(|s| s.is_red())
    }

    /// Text with a suit symbol, e.g. 'A♠', '10♦'; the joker is 'JK'.
    fn symbol(&self) -> String {
        self.0.symbol_text()
    }

    fn __repr__(&self) -> String {
        format!("Card('{}')", self.0)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, pyo3::types::PyType>, (String,)) {
        (slf.get_type(), (slf.get().0.to_string(),))
    }
}

fn bad_code(code: &str) -> PyErr {
    InvalidCardError::new_err(format!(
        "invalid card code {code}: codes run from 0 (AC) to 51 (KS), and 52 is the joker"
    ))
}

/// The card of an integer code: Python ints and anything with `__index__`
/// (numpy integer scalars). `None` when `obj` is not an integer at all.
/// Extracting an `i64` goes through `__index__` in C, so the common case
/// costs no Python call.
fn card_from_index(obj: &Bound<'_, PyAny>) -> PyResult<Option<Card>> {
    let code = match obj.extract::<i64>() {
        Ok(c) => c,
        // Too big for an i64: still an integer, named as given.
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
            return Err(bad_code(&obj.str()?.to_string()))
        }
        Err(_) => return Ok(None),
    };
    match u8::try_from(code)
        .ok()
        .and_then(|c| Card::from_code(c).ok())
    {
        Some(card) => Ok(Some(card)),
        None => Err(bad_code(&code.to_string())),
    }
}

/// A card from a `Card`, a token such as `'AS'`, or an integer code.
pub fn card_from_any(obj: &Bound<'_, PyAny>) -> PyResult<Card> {
    // Codes first: lists of ints are the batch hot path.
    if obj.is_instance_of::<PyInt>() {
        if let Some(card) = card_from_index(obj)? {
            return Ok(card);
        }
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return py_result(Card::parse(s.to_str()?));
    }
    if let Ok(c) = obj.cast::<PyCard>() {
        return Ok(c.get().0);
    }
    if let Some(card) = card_from_index(obj)? {
        return Ok(card);
    }
    Err(PyTypeError::new_err(format!(
        "expected a card (a Card, text such as 'AS', or a code 0-52), got {}",
        obj.get_type().name()?
    )))
}

/// A hand from text (`'AS 2S 3S'`, `'AS,2S'`) or an iterable of cards.
pub fn hand_from_any(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Card>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return py_result(parse_hand(s.to_str()?));
    }
    if let Ok(list) = obj.cast::<PyList>() {
        let mut out = Vec::with_capacity(list.len());
        for item in list.iter() {
            out.push(card_from_any(&item)?);
        }
        return Ok(out);
    }
    let mut out = Vec::new();
    for item in obj.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "expected a hand (text such as 'AS 2S 3S' or an iterable of cards), got {}",
            obj.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })? {
        out.push(card_from_any(&item?)?);
    }
    Ok(out)
}

/// One `Card` object per code, made once: a result's cards are these
/// shared objects (a `Card` is frozen), not a new object each.
static CARD_OBJECTS: PyOnceLock<Vec<Py<PyCard>>> = PyOnceLock::new();

/// The shared `Card` objects, by code (0..=52).
fn card_objects(py: Python<'_>) -> PyResult<&'static [Py<PyCard>]> {
    let objects = CARD_OBJECTS.get_or_try_init(py, || {
        (0..=Card::JOKER_CODE)
            .map(|code| Py::new(py, PyCard(py_result(Card::from_code(code))?)))
            .collect::<PyResult<Vec<_>>>()
    })?;
    Ok(objects)
}

/// A tuple of the shared `Card` objects of `cards`.
pub fn cards_to_tuple<'py>(py: Python<'py>, cards: &[Card]) -> PyResult<Bound<'py, PyTuple>> {
    let objects = card_objects(py)?;
    // Every card's code is below 53 (`Card::from_code` refuses others).
    PyTuple::new(
        py,
        cards
            .iter()
            .map(|c| objects[usize::from(c.code())].bind(py)),
    )
}

/// Parses a hand: tokens separated by spaces or commas.
#[pyfunction(name = "parse_hand")]
pub fn parse_hand_py(text: &str) -> PyResult<Vec<PyCard>> {
    Ok(py_result(parse_hand(text))?
        .into_iter()
        .map(PyCard)
        .collect())
}

/// Canonical text of a hand, e.g. 'AS TD JK'.
#[pyfunction(name = "format_hand")]
pub fn format_hand_py(hand: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(format_hand(&hand_from_any(hand)?))
}
