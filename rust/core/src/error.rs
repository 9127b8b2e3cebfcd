//! The one error type of the core. The bindings map each variant onto a Python
//! exception class (`cardtable.errors`); the CLI turns them into line errors.

use thiserror::Error;

/// Everything that can go wrong when the core is given user input.
///
/// The core never panics on user input: every malformed token, impossible
/// configuration or illegal move comes back as one of these.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CoreError {
    /// A token that is not a card, e.g. `1S`, `KX`, `10`.
    #[error("invalid card {token:?}: {reason}")]
    InvalidCard { token: String, reason: String },

    /// A hand that breaks the deck in play: too many copies of a card, a joker
    /// where none is in play, too many or too few cards.
    #[error("{0}")]
    InvalidHand(String),

    /// Unknown, out-of-range or contradictory options; `option` names the
    /// one it is about, when it is about one.
    #[error("{message}")]
    InvalidConfig {
        option: Option<String>,
        message: String,
    },

    /// An action that is not legal in the current state.
    #[error("{0}")]
    IllegalAction(String),

    /// The game is over: no action can be applied.
    #[error("the game is over")]
    GameOver,

    /// A record (replay file line) that does not describe a valid game.
    #[error("{0}")]
    InvalidRecord(String),
}

impl CoreError {
    pub(crate) fn hand(msg: impl Into<String>) -> Self {
        CoreError::InvalidHand(msg.into())
    }

    pub(crate) fn config(msg: impl Into<String>) -> Self {
        CoreError::InvalidConfig {
            option: None,
            message: msg.into(),
        }
    }

    /// A configuration error about one option.
    pub(crate) fn option(name: impl Into<String>, msg: impl Into<String>) -> Self {
        CoreError::InvalidConfig {
            option: Some(name.into()),
            message: msg.into(),
        }
    }
}

/// Result alias used across the core.
pub type Result<T, E = CoreError> = std::result::Result<T, E>;
