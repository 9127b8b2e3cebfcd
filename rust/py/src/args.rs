//! Integer arguments as Python gives them: any `int` (or object with
//! `__index__`, such as numpy integers), of any size. Out-of-range values
//! raise the library's error for that argument, never `OverflowError`.

use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;

use crate::errors::{IllegalActionError, InvalidConfigError};

/// The value, or `None` when it does not fit an `i64` (a non-integer is a `TypeError`).
pub fn int_or_none(v: &Bound<'_, PyAny>) -> PyResult<Option<i64>> {
    match v.extract::<i64>() {
        Ok(i) => Ok(Some(i)),
        Err(e) if e.is_instance_of::<PyOverflowError>(v.py()) => Ok(None),
        Err(e) => Err(e),
    }
}

fn describe(v: &Bound<'_, PyAny>) -> String {
    v.repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// A `u64`; out of range is an InvalidConfigError saying `expected`.
fn u64_arg(v: &Bound<'_, PyAny>, expected: &str) -> PyResult<u64> {
    match v.extract::<u64>() {
        Ok(n) => Ok(n),
        Err(e) if e.is_instance_of::<PyOverflowError>(v.py()) => Err(InvalidConfigError::new_err(
            format!("{expected}, got {}", describe(v)),
        )),
        Err(e) => Err(e),
    }
}

/// A seed: 0 to 2**64 - 1.
pub fn seed(v: &Bound<'_, PyAny>) -> PyResult<u64> {
    u64_arg(v, "seed must be an integer from 0 to 2**64 - 1")
}

/// A seat of a table of `players`.
pub fn seat(v: &Bound<'_, PyAny>, players: u8, what: &str) -> PyResult<u8> {
    int_or_none(v)?
        .and_then(|i| u8::try_from(i).ok())
        .filter(|&s| s < players)
        .ok_or_else(|| {
            InvalidConfigError::new_err(format!(
                "no {what} {}: seats are 0 to {}",
                describe(v),
                players.saturating_sub(1)
            ))
        })
}

/// An action id below `count`.
pub fn action(v: &Bound<'_, PyAny>, count: u16) -> PyResult<u16> {
    int_or_none(v)?
        .and_then(|i| u16::try_from(i).ok())
        .filter(|&a| a < count)
        .ok_or_else(|| {
            IllegalActionError::new_err(format!(
                "{} is not an action: actions are 0 to {}",
                describe(v),
                count - 1
            ))
        })
}

/// A count of games (or steps): 0 to 2**64 - 1.
pub fn count(v: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
    u64_arg(v, &format!("{what} must be a whole number of 0 or more"))
}
