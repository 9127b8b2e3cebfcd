//! The rules tests of every game, named after the rule IDs of `docs/rules.md`
//! and `docs/gin_rummy.md` (one module per game or rule block), and gin
//! rummy's games replayed against OpenSpiel's.
//!
//! One test binary for all of them: each binary links the whole crate, so
//! few binaries build faster than one per file.

#[path = "../common/mod.rs"]
mod common;

mod gin_rummy_openspiel;
mod gin_rummy_rules;
mod realtime_refusals;
mod speed_rules;
mod spit_rules;
mod three_thirteen_rules;
mod tonk_pickup;
mod tonk_refusals;
mod tonk_rules;
