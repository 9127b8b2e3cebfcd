//! Rule options between Python and the engine: keyword arguments read as
//! engine options and options written back as a dict, and a game's option
//! schema as Python objects (for keyword docs and CLI flags).

use cardtable_core::engine::options::{OptionKind, OptionSpec, OptionValue};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString};

use crate::args;
use crate::errors::InvalidConfigError;

/// One rule option of a game: its name, the values it takes, its help text
/// and the rule that defines it (the schema the engine checks options with).
#[pyclass(
    name = "OptionSpec",
    module = "cardtable._core",
    frozen,
    skip_from_py_object
)]
pub struct PyOptionSpec(pub &'static OptionSpec);

#[pymethods]
impl PyOptionSpec {
    #[getter]
    fn name(&self) -> &'static str {
        self.0.name
    }

    /// 'bool', 'int', 'choice' or 'int_or_word'.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.0.kind {
            OptionKind::Bool => "bool",
            OptionKind::Int { .. } => "int",
            OptionKind::Choice { .. } => "choice",
            OptionKind::IntOrWord { .. } => "int_or_word",
        }
    }

    /// The smallest number an 'int' or 'int_or_word' option takes.
    #[getter]
    fn minimum(&self) -> Option<i64> {
        match self.0.kind {
            OptionKind::Int { min, .. } | OptionKind::IntOrWord { min, .. } => Some(min),
            _ => None,
        }
    }

    /// The largest number an 'int' or 'int_or_word' option takes.
    #[getter]
    fn maximum(&self) -> Option<i64> {
        match self.0.kind {
            OptionKind::Int { max, .. } | OptionKind::IntOrWord { max, .. } => Some(max),
            _ => None,
        }
    }

    /// The words it takes: a 'choice' option's choices, an 'int_or_word'
    /// option's words (such as 'none').
    #[getter]
    fn words(&self) -> Vec<&'static str> {
        match self.0.kind {
            OptionKind::Choice { choices, .. } => choices.to_vec(),
            OptionKind::IntOrWord { words, .. } => words.to_vec(),
            _ => Vec::new(),
        }
    }

    /// Other spellings of choices: (alias, choice) pairs.
    #[getter]
    fn aliases(&self) -> Vec<(&'static str, &'static str)> {
        match self.0.kind {
            OptionKind::Choice { aliases, .. } => aliases.to_vec(),
            _ => Vec::new(),
        }
    }

    #[getter]
    fn help(&self) -> &'static str {
        self.0.help
    }

    /// The rule of the specification that defines it, e.g. 'TK-10.7'.
    #[getter]
    fn rule(&self) -> &'static str {
        self.0.rule
    }

    /// The values it takes in words: 'true or false', '1 to 1000', ...
    #[getter]
    fn values_text(&self) -> String {
        self.0.values_text()
    }

    fn __repr__(&self) -> String {
        format!(
            "<OptionSpec {} ({}): {}>",
            self.0.name,
            self.0.rule,
            self.0.values_text()
        )
    }
}

/// The schema of a game as Python objects.
pub fn schema(options: &'static [OptionSpec]) -> Vec<PyOptionSpec> {
    options.iter().map(PyOptionSpec).collect()
}

/// One keyword's value as an engine option (`None` is the word `none`).
pub fn option_value(key: &str, v: &Bound<'_, PyAny>) -> PyResult<OptionValue> {
    if v.is_instance_of::<PyBool>() {
        return Ok(OptionValue::Bool(v.extract()?));
    }
    if v.is_instance_of::<PyInt>() {
        return match args::int_or_none(v)? {
            Some(i) => Ok(OptionValue::Int(i)),
            None => Err(InvalidConfigError::new_err((
                format!("option {key}: {} is out of range", v.repr()?),
                key.to_string(),
            ))),
        };
    }
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(OptionValue::Str(s.to_str()?.to_string()));
    }
    if v.is_none() {
        return Ok(OptionValue::Str("none".into()));
    }
    Err(InvalidConfigError::new_err((
        format!(
            "option {key}: expected a string, integer or boolean, got {}",
            v.get_type().name()?
        ),
        key.to_string(),
    )))
}

/// Keyword arguments as engine options.
pub fn options_from(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, OptionValue)>> {
    let mut out = Vec::new();
    if let Some(d) = kwargs {
        for (k, v) in d.iter() {
            let key: String = k.extract()?;
            out.push((key.clone(), option_value(&key, &v)?));
        }
    }
    Ok(out)
}

pub fn options_dict<'py>(
    py: Python<'py>,
    opts: &[(String, OptionValue)],
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (k, v) in opts {
        match v {
            OptionValue::Bool(b) => d.set_item(k, b)?,
            OptionValue::Int(i) => d.set_item(k, i)?,
            OptionValue::Str(s) => d.set_item(k, s)?,
        }
    }
    Ok(d)
}
