//! Seeded decks and deals.

use cardtable_core::deck::shuffle_many_into as core_shuffle_many_into;
use cardtable_core::games::presets::deal_rules_of;
use cardtable_core::DeckSpec;
use pyo3::buffer::PyBuffer;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::args;
use crate::cards::PyCard;
use crate::detach::{run_detached, threads_arg};
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

/// Shuffles with `seed` and deals one card at a time to each player as
/// `game` deals (its hand size, decks and upcard, with these overrides);
/// returns (game, hands, upcard, stock).
#[pyfunction]
#[pyo3(signature = (game, seed, players, hand_size = None, round = None, decks = None, jokers = false, upcard = None))]
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
pub fn deal(
    game: &str,
    seed: u64,
    players: &Bound<'_, PyAny>,
    hand_size: Option<&Bound<'_, PyAny>>,
    round: Option<&Bound<'_, PyAny>>,
    decks: Option<&Bound<'_, PyAny>>,
    jokers: bool,
    upcard: Option<bool>,
) -> PyResult<(&'static str, Vec<Vec<PyCard>>, Option<PyCard>, Vec<PyCard>)> {
    let int = |v: Option<&Bound<'_, PyAny>>, name: &str| -> PyResult<Option<i64>> {
        v.filter(|o| !o.is_none())
            .map(|o| {
                args::int_or_none(o)?.ok_or_else(|| {
                    InvalidConfigError::new_err((
                        format!(
                            "{name} {} is out of range",
                            o.repr().map(|r| r.to_string()).unwrap_or_default()
                        ),
                        name.to_string(),
                    ))
                })
            })
            .transpose()
    };
    let (name, rules) = py_result(deal_rules_of(
        game,
        int(hand_size, "hand_size")?,
        int(round, "round")?,
        int(decks, "decks")?,
        jokers,
        upcard,
    ))?;
    let players = int(Some(players), "players")?
        .and_then(|p| usize::try_from(p).ok())
        .filter(|&p| p >= 1)
        .ok_or_else(|| {
            InvalidConfigError::new_err((
                format!(
                    "players must be at least 1, got {}",
                    players.repr().map(|r| r.to_string()).unwrap_or_default()
                ),
                "players".to_string(),
            ))
        })?;
    let d = py_result(rules.deal(seed, players))?;
    Ok((
        name,
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

/// Seed of the bot at `seat` of the game seeded with `seed`: how every
/// driver seeds a seat's bot (CM-6).
#[pyfunction]
pub fn bot_seed(seed: u64, seat: usize) -> u64 {
    cardtable_core::engine::seeds::bot_seed(seed, seat)
}
