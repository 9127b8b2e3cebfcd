//! Game engines. Each game follows OpenSpiel's Game/State split: an immutable
//! game (parameters) creates mutable states; actions are small integers with
//! a text form; the deal is a recorded seeded chance event, so parameters,
//! seed and actions replay a game exactly.

pub mod gin_rummy;
pub mod presets;
pub mod registry;
pub mod seat_view;
pub mod speed;
pub mod spit;
pub mod three_thirteen;
pub mod tonk;

pub use crate::engine::options::OptionValue;

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
