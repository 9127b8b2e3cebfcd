//! The one mapping from core errors to the Python exception classes defined in
//! `cardtable/errors.py`.

use cardtable_core::CoreError;
use pyo3::prelude::*;

pyo3::import_exception!(cardtable.errors, InvalidCardError);
pyo3::import_exception!(cardtable.errors, InvalidHandError);
pyo3::import_exception!(cardtable.errors, InvalidConfigError);
pyo3::import_exception!(cardtable.errors, InvalidRecordError);
pyo3::import_exception!(cardtable.errors, IllegalActionError);
pyo3::import_exception!(cardtable.errors, GameOverError);

/// Newtype so `?` converts core errors (the orphan rule forbids `From<CoreError> for PyErr`).
pub struct PyCoreError(pub CoreError);

impl From<CoreError> for PyCoreError {
    fn from(e: CoreError) -> Self {
        PyCoreError(e)
    }
}

impl From<PyCoreError> for PyErr {
    fn from(e: PyCoreError) -> PyErr {
        let msg = e.0.to_string();
        match e.0 {
            CoreError::InvalidCard { .. } => InvalidCardError::new_err(msg),
            CoreError::InvalidHand(_) => InvalidHandError::new_err(msg),
            CoreError::InvalidConfig { option, message } => {
                InvalidConfigError::new_err((message, option))
            }
            CoreError::InvalidRecord(_) => InvalidRecordError::new_err(msg),
            CoreError::IllegalAction(_) => IllegalActionError::new_err(msg),
            CoreError::GameOver => GameOverError::new_err(msg),
        }
    }
}

/// Converts a core result for the bindings.
pub fn py_result<T>(r: Result<T, CoreError>) -> PyResult<T> {
    r.map_err(|e| PyErr::from(PyCoreError(e)))
}
