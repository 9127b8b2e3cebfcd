//! The bots of every game, one file each, and the reaction-time bots the
//! real-time games share ([`reaction`]). Bots run in Rust so batches of
//! games run in parallel without the interpreter; each decides from its own
//! seat's view of a game (`engine::State::SeatView`).

pub mod gin_rummy;
pub mod reaction;
pub mod speed;
pub mod spit;
pub mod three_thirteen;
pub mod tonk;
