//! The engine layer under random play, records, sessions, views and bots:
//! every game's invariants, replays, leak checks and strength checks.
//!
//! One test binary for all of them: each binary links the whole crate, so
//! few binaries build faster than one per file.

#[path = "../common/mod.rs"]
mod common;

mod arena_distributions;
mod arena_shards;
mod bot_views;
mod careless_bots;
mod engine_sim;
mod options_roundtrip;
mod playthroughs;
mod realtime_golden;
mod realtime_reaction;
mod realtime_records;
mod realtime_replay;
mod realtime_session;
mod record_fuzz;
mod record_versions;
mod speed_leaks;
mod speed_random;
mod speed_strength;
mod spit_bots;
mod spit_leaks;
mod three_thirteen_random;
mod three_thirteen_strength;
mod tonk_leaks;
mod tonk_random;
mod vector_env;
