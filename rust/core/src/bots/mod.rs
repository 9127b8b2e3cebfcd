//! What the bots of several games share: the reaction-time bots of the
//! real-time games ([`reaction`]) and the seat a person drives, and the
//! search over sampled worlds of the turn-based `expert` bots ([`search`])
//! and the slips of their `careless` ones ([`careless`]). Each game's own
//! bots live in its folder (`games/<game>/bots.rs`). Bots run in Rust so
//! batches of games run in parallel without the interpreter; each decides
//! from its own seat's view of a game (`engine::State::SeatView`).

pub mod careless;
pub mod reaction;
pub mod search;
