//! Game engines. Each game follows OpenSpiel's Game/State split: an immutable
//! game (parameters) creates mutable states; actions are small integers with
//! a text form; the deal is a recorded seeded chance event, so parameters,
//! seed and actions replay a game exactly.

pub mod tonk;

use std::fmt;

use crate::error::{CoreError, Result};

/// A rule option as given by a caller (CLI flag or Python keyword).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionValue {
    Bool(bool),
    Int(i64),
    Str(String),
}

impl fmt::Display for OptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Bool(b) => write!(f, "{b}"),
            OptionValue::Int(i) => write!(f, "{i}"),
            OptionValue::Str(s) => write!(f, "{s}"),
        }
    }
}

impl OptionValue {
    /// The value as a keyword: lower case, `-` read as `_`.
    pub(crate) fn word(&self, key: &str) -> Result<String> {
        match self {
            OptionValue::Str(s) => Ok(s.trim().to_ascii_lowercase().replace('-', "_")),
            other => Err(CoreError::config(format!(
                "{key} expects a name, got {other}"
            ))),
        }
    }

    pub(crate) fn boolean(&self, key: &str) -> Result<bool> {
        match self {
            OptionValue::Bool(b) => Ok(*b),
            OptionValue::Str(s) => match s.trim().to_ascii_lowercase().as_str() {
                "true" | "yes" | "on" | "1" => Ok(true),
                "false" | "no" | "off" | "0" => Ok(false),
                _ => Err(CoreError::config(format!(
                    "{key} expects true or false, got {s:?}"
                ))),
            },
            OptionValue::Int(i) => Err(CoreError::config(format!(
                "{key} expects true or false, got {i}"
            ))),
        }
    }

    pub(crate) fn integer(&self, key: &str) -> Result<i64> {
        match self {
            OptionValue::Int(i) => Ok(*i),
            OptionValue::Str(s) => s
                .trim()
                .parse()
                .map_err(|_| CoreError::config(format!("{key} expects an integer, got {s:?}"))),
            OptionValue::Bool(b) => Err(CoreError::config(format!(
                "{key} expects an integer, got {b}"
            ))),
        }
    }
}

/// One payment of a settlement, in units of the basic stake, with the rule
/// that makes it (for people reading a settlement).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Transfer {
    pub payer: u8,
    pub payee: u8,
    pub amount: u32,
    pub reason: &'static str,
}

impl Transfer {
    pub fn new(payer: u8, payee: u8, amount: u32, reason: &'static str) -> Transfer {
        Transfer {
            payer,
            payee,
            amount,
            reason,
        }
    }
}
