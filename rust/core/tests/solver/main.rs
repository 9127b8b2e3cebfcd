//! The meld solver against independent oracles and checked hands.
//!
//! One test binary for all of them: each binary links the whole crate, so
//! few binaries build faster than one per file.

#[path = "../common/mod.rs"]
mod common;

mod fast_path;
mod golden;
mod oracle;
