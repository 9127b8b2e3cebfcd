//! A game's view class, declared field by field: `view_getters!` writes one
//! Python property per field of the core's view, each turned into Python by
//! [`PyValue`] (a card is a `Card`, a list of small numbers a list of ints,
//! never bytes), or by an expression where the field needs one.

use cardtable_core::Card;
use pyo3::prelude::*;
use pyo3::IntoPyObjectExt;

use crate::cards::PyCard;

/// A view field as a Python value.
pub trait PyValue {
    fn py_value<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>>;
}

macro_rules! py_value_as_is {
    ($($t:ty),*) => {
        $(impl PyValue for $t {
            fn py_value<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                (*self).into_bound_py_any(py)
            }
        })*
    };
}

py_value_as_is!(
    u8,
    u16,
    u32,
    u64,
    usize,
    i32,
    i64,
    bool,
    f32,
    f64,
    &'static str
);

impl PyValue for Card {
    fn py_value<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        PyCard(*self).into_bound_py_any(py)
    }
}

impl<T: PyValue> PyValue for Option<T> {
    fn py_value<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self {
            Some(v) => v.py_value(py),
            None => Ok(py.None().into_bound(py)),
        }
    }
}

impl<T: PyValue> PyValue for [T] {
    fn py_value<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let items = self
            .iter()
            .map(|v| v.py_value(py))
            .collect::<PyResult<Vec<_>>>()?;
        pyo3::types::PyList::new(py, items)?.into_bound_py_any(py)
    }
}

impl<T: PyValue> PyValue for Vec<T> {
    fn py_value<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.as_slice().py_value(py)
    }
}

impl<T: PyValue, const N: usize> PyValue for [T; N] {
    fn py_value<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.as_slice().py_value(py)
    }
}

/// `view_getters!(PyTonkView { seat, hand, /// doc  phase: &'static str = |v| v.phase.name(), })`:
/// a property per field of the wrapped core view (`self.0`); a plain name is
/// the field of that name through [`PyValue`], `name: T = |v| expr` the
/// expression's value (of type `T`) as PyO3 converts it.
macro_rules! view_getters {
    ($class:ident { $($(#[$doc:meta])* $field:ident $(: $ty:ty = |$v:ident| $expr:expr)?),* $(,)? }) => {
        #[::pyo3::pymethods]
        impl $class {
            $(
                $(#[$doc])*
                #[getter]
                fn $field<'py>(
                    &self,
                    py: ::pyo3::Python<'py>,
                ) -> ::pyo3::PyResult<::pyo3::Bound<'py, ::pyo3::PyAny>> {
                    $crate::view_getters::view_getters!(@value self py $field $($ty, |$v| $expr)?)
                }
            )*
        }
    };
    (@value $self:ident $py:ident $field:ident) => {
        $crate::view_getters::PyValue::py_value(&$self.0.$field, $py)
    };
    (@value $self:ident $py:ident $field:ident $ty:ty, |$v:ident| $expr:expr) => {{
        let $v = &$self.0;
        let value: $ty = $expr;
        ::pyo3::IntoPyObjectExt::into_bound_py_any(value, $py)
    }};
}
pub(crate) use view_getters;
