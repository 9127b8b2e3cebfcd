//! The rules tests of every game, named after the rule IDs of `docs/rules.md`
//! (one module per game or rule block).
//!
//! One test binary for all of them: each binary links the whole crate, so
//! few binaries build faster than one per file.

mod speed_rules;
mod spit_rules;
mod three_thirteen_rules;
mod tonk_pickup;
mod tonk_refusals;
mod tonk_rules;
