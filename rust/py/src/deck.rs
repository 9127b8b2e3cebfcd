//! Seeded decks and deals.

use cardtable_core::deck::shuffle_many_into as core_shuffle_many_into;
use cardtable_core::{deal as core_deal, DeckSpec};
use pyo3::buffer::PyBuffer;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::batch::{run_detached, threads_arg};
use crate::cards::PyCard;
use crate::errors::{py_result, InvalidConfigError};

fn spec(decks: i64, jokers: bool) -> PyResult<DeckSpec> {
    let d = u8::try_from(decks).map_err(|_| {
        InvalidConfigError::new_err(format!(
            "decks must be between 1 and {}, got {decks}",
            DeckSpec::MAX_DECKS
        ))
    })?;
    py_result(DeckSpec::new(d, jokers))
}

/// The deck shuffled with `seed`, top card first.
#[pyfunction]
#[pyo3(signature = (seed, decks = 1, jokers = false))]
pub fn shuffled_deck(seed: u64, decks: i64, jokers: bool) -> PyResult<Vec<PyCard>> {
    Ok(spec(decks, jokers)?
        .shuffled(seed)
        .into_iter()
        .map(PyCard)
        .collect())
}

/// Shuffles with `seed` and deals `hand_size` cards to each player in turn,
/// then turns up one card when `upcard` is set. Returns (hands, upcard, stock).
#[pyfunction]
#[pyo3(signature = (seed, players, hand_size, decks = 1, jokers = false, upcard = true))]
#[allow(clippy::type_complexity)]
pub fn deal(
    seed: u64,
    players: usize,
    hand_size: usize,
    decks: i64,
    jokers: bool,
    upcard: bool,
) -> PyResult<(Vec<Vec<PyCard>>, Option<PyCard>, Vec<PyCard>)> {
    let d = py_result(core_deal(
        spec(decks, jokers)?,
        seed,
        players,
        hand_size,
        upcard,
    ))?;
    Ok((
        d.hands
            .into_iter()
            .map(|h| h.into_iter().map(PyCard).collect())
            .collect(),
        d.upcard.map(PyCard),
        d.stock.into_iter().map(PyCard).collect(),
    ))
}

/// Fills a writable, C-contiguous 2-D uint8 buffer (N x deck size) with
/// shuffled decks: row i is the deck shuffled with derive_seed(seed, i).
#[pyfunction]
#[pyo3(signature = (out, seed, decks = 1, jokers = false, threads = None))]
pub fn shuffle_many_into(
    py: Python<'_>,
    out: &Bound<'_, PyAny>,
    seed: u64,
    decks: i64,
    jokers: bool,
    threads: Option<&Bound<'_, PyAny>>,
) -> PyResult<()> {
    let threads = threads_arg(threads)?;
    let s = spec(decks, jokers)?;
    let buf = PyBuffer::<u8>::get(out)?;
    if buf.readonly()
        || !buf.is_c_contiguous()
        || buf.dimensions() != 2
        || buf.shape()[1] != s.size()
    {
        return Err(PyTypeError::new_err(format!(
            "out must be a writable C-contiguous uint8 array of shape (N, {})",
            s.size()
        )));
    }
    let len = buf.item_count();
    let addr = buf.buf_ptr() as usize;
    let result = run_detached(py, threads, move || {
        // SAFETY: `buf` keeps the exporter's memory alive and writable for the
        // whole call; the shape and contiguity were checked above, and this
        // slice is the only Rust reference to it. As with any buffer released
        // to threads, concurrent writers in Python would race with us.
        let slice = unsafe { std::slice::from_raw_parts_mut(addr as *mut u8, len) };
        core_shuffle_many_into(s, seed, slice)
    })?;
    drop(buf);
    py_result(result)
}

/// Seed of the `index`-th child stream of `seed` (how batches seed each game).
#[pyfunction]
pub fn derive_seed(seed: u64, index: u64) -> u64 {
    cardtable_core::derive_seed(seed, index)
}
