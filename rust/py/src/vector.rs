//! `VectorEnv`: the core's vectorised environments (turn-based games by
//! actions, real-time ones in lockstep ticks) over numpy arrays it owns.
//! The arrays are made once; every `reset`/`step` writes them in place with
//! the GIL released, so a step of N games is one call and no copy.

use cardtable_core::engine::vector::Outputs;
use cardtable_core::games::registry::{AnyGame, AnyVector};
use pyo3::buffer::{Element, PyBuffer};
use pyo3::exceptions::{PyImportError, PyIndexError, PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use std::sync::{Mutex, MutexGuard};

use crate::args;
use crate::detach::{run_detached, threads_arg};
use crate::errors::{py_result, IllegalActionError};
use crate::game::PyGame;
use crate::registry::{game_object, state_object};

/// A numpy array this environment owns, with its buffer held open so the
/// memory stays put and writable for the environment's life.
pub(crate) struct Array<T: Element> {
    pub(crate) array: Py<PyAny>,
    buffer: PyBuffer<T>,
}

impl<T: Element> Array<T> {
    /// `numpy.zeros(shape, dtype)`; `raw` is the dtype the buffer is read as
    /// (bool arrays are written through a uint8 view of the same memory).
    pub(crate) fn zeros(
        np: &Bound<'_, PyAny>,
        shape: &[usize],
        dtype: &str,
        raw: &str,
    ) -> PyResult<Self> {
        let array = np.call_method1("zeros", (shape.to_vec(), dtype))?;
        let view = if raw == dtype {
            array.clone()
        } else {
            array.call_method1("view", (raw,))?
        };
        let buffer = PyBuffer::<T>::get(&view)?;
        if buffer.readonly() || !buffer.is_c_contiguous() {
            return Err(PyTypeError::new_err(
                "numpy made an array that is not writable",
            ));
        }
        // Read-only to Python: a write there would race with a step.
        array.getattr("flags")?.setattr("writeable", false)?;
        Ok(Array {
            array: array.unbind(),
            buffer,
        })
    }

    /// The array's memory as a slice.
    ///
    /// # Safety
    /// The caller must be the only one writing the memory while the slice
    /// lives: this environment's methods take `&mut self`, and the arrays are
    /// read-only to Python.
    pub(crate) unsafe fn slice<'a>(&self) -> &'a mut [T] {
        let len = self.buffer.item_count();
        // SAFETY: the held buffer keeps the memory alive, writable and
        // contiguous for `len` items (checked in `zeros`); exclusivity is
        // the caller's promise.
        unsafe { std::slice::from_raw_parts_mut(self.buffer.buf_ptr().cast::<T>(), len) }
    }
}

/// N games stepped at a time (see the core's `engine::vector` and
/// `engine::lockstep`). The array shapes below are those of a turn-based
/// game; a real-time one has an agent axis after the first
/// ((num_envs, agents, ...)) and one more action id, `wait_action`.
#[pyclass(name = "VectorEnv", module = "cardtable._core")]
pub struct PyVectorEnv {
    game: AnyGame,
    // A Mutex makes the environment shareable between threads (a pyclass
    // must be); `&mut self` already serialises calls.
    env: Mutex<AnyVector>,
    /// The agent seats (real-time) or None (turn-based: the seat to act).
    agents: Option<Vec<u8>>,
    threads: Option<usize>,
    arrays: Arrays,
}

/// Every output array.
struct Arrays {
    observations: Array<f32>,
    masks: Array<i8>,
    legal: Array<u16>,
    legal_counts: Array<u32>,
    rewards: Array<f32>,
    terminated: Array<u8>,
    truncated: Array<u8>,
    to_play: Array<u8>,
    acted: Array<u8>,
    final_observations: Array<f32>,
}

impl Arrays {
    /// Every output array as the core's output slices.
    ///
    /// # Safety
    /// As [`Array::slice`]: the caller holds the environment exclusively.
    unsafe fn outputs<'a>(&self) -> Outputs<'a> {
        // SAFETY: see the function's contract; i8 and u8 have one layout.
        unsafe {
            let masks: &mut [i8] = self.masks.slice();
            Outputs {
                observations: self.observations.slice(),
                masks: std::slice::from_raw_parts_mut(masks.as_mut_ptr().cast::<u8>(), masks.len()),
                legal: self.legal.slice(),
                legal_counts: self.legal_counts.slice(),
                rewards: self.rewards.slice(),
                terminated: self.terminated.slice(),
                truncated: self.truncated.slice(),
                to_play: self.to_play.slice(),
                acted: self.acted.slice(),
                final_observations: self.final_observations.slice(),
            }
        }
    }
}

/// Reads the actions: `per_row` integers per sub-environment (shape
/// (rows,) or (rows, per_row)), each an id below `count`.
fn actions_from(
    np: &Bound<'_, PyAny>,
    actions: &Bound<'_, PyAny>,
    rows: usize,
    per_row: usize,
    count: usize,
) -> PyResult<Vec<u16>> {
    let array = np.call_method1("ascontiguousarray", (actions, "int64"))?;
    let buffer = PyBuffer::<i64>::get(&array)?;
    let values = buffer.to_vec(actions.py())?;
    let shape_ok = match buffer.shape() {
        [n] => *n == rows * per_row && (per_row == 1 || rows == 1),
        [n, k] => *n == rows && *k == per_row,
        _ => false,
    };
    if !shape_ok {
        let want = if per_row == 1 {
            format!("({rows},)")
        } else {
            format!("({rows}, {per_row})")
        };
        return Err(PyTypeError::new_err(format!(
            "actions must be one integer per sub-environment and agent: shape {want}, got {:?}",
            buffer.shape()
        )));
    }
    values
        .iter()
        .enumerate()
        .map(|(i, &a)| {
            u16::try_from(a)
                .ok()
                .filter(|&a| usize::from(a) < count)
                .ok_or_else(|| {
                    IllegalActionError::new_err(format!(
                        "sub-environment {}: action {a} is not an action id (0 to {})",
                        i / per_row,
                        count - 1
                    ))
                })
        })
        .collect()
}

pub(crate) fn numpy(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    py.import("numpy").map(Bound::into_any).map_err(|_| {
        PyImportError::new_err("the environments write numpy arrays: pip install numpy")
    })
}

#[pymethods]
impl PyVectorEnv {
    /// `num_envs` games of `game`. `opponents[seat]` is a bot spec, or None
    /// for a seat the caller plays (default: every seat, self-play).
    /// `max_episode_steps` cuts a game short (truncation) after that many
    /// caller actions. Every sub-environment is dealt its first game; call
    /// `reset()` to read the first observations. A `num_envs` the memory
    /// available cannot hold is refused (InvalidConfigError naming it, with
    /// the bytes needed and available).
    #[new]
    #[pyo3(signature = (game, num_envs, seed, opponents = None, max_episode_steps = None, dt = None, threads = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game: &Bound<'_, PyGame>,
        num_envs: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
        opponents: Option<Vec<Option<String>>>,
        max_episode_steps: Option<&Bound<'_, PyAny>>,
        dt: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let game = game.get().game.clone();
        let rows = usize::try_from(args::count(num_envs, "num_envs")?).unwrap_or(usize::MAX);
        let seed = args::seed(seed)?;
        let max_steps = max_episode_steps
            .filter(|m| !m.is_none())
            .map(|m| args::count(m, "max_episode_steps"))
            .transpose()?;
        let dt = dt
            .filter(|d| !d.is_none())
            .map(|d| args::count(d, "dt"))
            .transpose()?;
        let threads = threads_arg(threads)?;
        let opponents = opponents.unwrap_or_default();
        let env = py_result(run_detached(py, threads, || {
            game.vector_env(rows, seed, &opponents, max_steps, dt)
        })?)?;
        let np = numpy(py)?;
        let (o, p) = (game.observation_size(), game.players());
        let agents = match &env {
            AnyVector::TurnBased(_) => None,
            AnyVector::Lockstep(v) => Some(v.agents().to_vec()),
        };
        // Per row: one seat's outputs (turn-based), or each agent's, with
        // one more action id for waiting (lockstep).
        let (lead, a): (Vec<usize>, usize) = match &agents {
            None => (vec![rows], game.num_distinct_actions()),
            Some(k) => (vec![rows, k.len()], game.num_distinct_actions() + 1),
        };
        let with = |tail: &[usize]| [lead.as_slice(), tail].concat();
        let arrays = Arrays {
            observations: Array::zeros(&np, &with(&[o]), "float32", "float32")?,
            masks: Array::zeros(&np, &with(&[a]), "int8", "int8")?,
            legal: Array::zeros(&np, &with(&[a]), "uint16", "uint16")?,
            legal_counts: Array::zeros(&np, &with(&[]), "uint32", "uint32")?,
            rewards: Array::zeros(&np, &[rows, p], "float32", "float32")?,
            terminated: Array::zeros(&np, &[rows], "bool", "uint8")?,
            truncated: Array::zeros(&np, &[rows], "bool", "uint8")?,
            to_play: Array::zeros(&np, &with(&[]), "uint8", "uint8")?,
            acted: Array::zeros(&np, &with(&[]), "uint8", "uint8")?,
            final_observations: Array::zeros(&np, &with(&[o]), "float32", "float32")?,
        };
        Ok(PyVectorEnv {
            game,
            env: Mutex::new(env),
            agents,
            threads,
            arrays,
        })
    }

    /// A new game in every sub-environment: with `seed`, the run starts
    /// again from it; without, each deals its next game.
    #[pyo3(signature = (seed = None))]
    fn reset(&mut self, py: Python<'_>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let seed = seed.filter(|s| !s.is_none()).map(args::seed).transpose()?;
        let threads = self.threads;
        // SAFETY: `&mut self` is held for the whole call.
        let mut out = unsafe { self.arrays.outputs() };
        let env = self.env_mut()?;
        py_result(run_detached(py, threads, || env.reset(seed, &mut out))?)
    }

    /// Plays one action per sub-environment (for its seat to act), then the
    /// bots' replies; rewrites every output array. An illegal action raises
    /// IllegalActionError naming its sub-environment, and nothing moves.
    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let np = numpy(py)?;
        let (per_row, count) = match &self.agents {
            None => (1, self.game.num_distinct_actions()),
            Some(k) => (k.len(), self.game.num_distinct_actions() + 1),
        };
        let rows = self.env_mut()?.rows();
        let actions = actions_from(&np, actions, rows, per_row, count)?;
        let threads = self.threads;
        // SAFETY: `&mut self` is held for the whole call.
        let mut out = unsafe { self.arrays.outputs() };
        let env = self.env_mut()?;
        py_result(run_detached(py, threads, || env.step(&actions, &mut out))?)?;
        py.check_signals()
    }

    #[getter]
    fn num_envs(&self) -> PyResult<usize> {
        Ok(self.env()?.rows())
    }

    #[getter]
    fn game(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        game_object(py, self.game.clone())
    }

    /// Whether the caller plays `seat` (the other seats are bots).
    fn is_agent(&self, seat: &Bound<'_, PyAny>) -> PyResult<bool> {
        let seats = u8::try_from(self.game.players()).unwrap_or(u8::MAX);
        let seat = args::seat(seat, seats, "seat")?;
        Ok(match &*self.env()? {
            AnyVector::TurnBased(v) => v.is_agent(seat),
            AnyVector::Lockstep(v) => v.agents().contains(&seat),
        })
    }

    /// Whether the games run on the clock, in lockstep ticks: the outputs
    /// then have one row per agent (`agents`), over one more action id,
    /// `wait_action` (no intent this tick).
    #[getter]
    fn real_time(&self) -> bool {
        self.agents.is_some()
    }

    /// The agent seats of a real-time run, in the order of the per-agent
    /// outputs (None for a turn-based run: each row shows its seat to act).
    #[getter]
    fn agents(&self) -> Option<Vec<usize>> {
        // Seats as a list of integers (a Vec<u8> would become bytes).
        self.agents
            .as_ref()
            .map(|a| a.iter().map(|&s| usize::from(s)).collect())
    }

    /// The action id of waiting (real-time runs; None for turn-based).
    #[getter]
    fn wait_action(&self) -> Option<usize> {
        self.agents
            .as_ref()
            .map(|_| self.game.num_distinct_actions())
    }

    /// (num_envs, observation_size) float32: the observation of each
    /// sub-environment's seat to act.
    #[getter]
    fn observations(&self, py: Python<'_>) -> Py<PyAny> {
        self.arrays.observations.array.clone_ref(py)
    }

    /// (num_envs, num_distinct_actions) int8: 1 for each legal action.
    #[getter]
    fn action_masks(&self, py: Python<'_>) -> Py<PyAny> {
        self.arrays.masks.array.clone_ref(py)
    }

    /// (num_envs, num_distinct_actions) uint16: the legal actions, sorted;
    /// row i's first `legal_counts[i]` entries.
    #[getter]
    fn legal_actions(&self, py: Python<'_>) -> Py<PyAny> {
        self.arrays.legal.array.clone_ref(py)
    }

    /// (num_envs,) uint32: how many legal actions each row has.
    #[getter]
    fn legal_counts(&self, py: Python<'_>) -> Py<PyAny> {
        self.arrays.legal_counts.array.clone_ref(py)
    }

    /// (num_envs, players) float32: each seat's reward over the last step.
    #[getter]
    fn rewards(&self, py: Python<'_>) -> Py<PyAny> {
        self.arrays.rewards.array.clone_ref(py)
    }

    /// (num_envs,) bool: the game ended by its rules in the last step (and
    /// was replaced).
    #[getter]
    fn terminations(&self, py: Python<'_>) -> Py<PyAny> {
        self.arrays.terminated.array.clone_ref(py)
    }

    /// (num_envs,) bool: a guard ended the game (`Game.guard_endings()`) or
    /// it hit `max_episode_steps` in the last step (and was replaced).
    #[getter]
    fn truncations(&self, py: Python<'_>) -> Py<PyAny> {
        self.arrays.truncated.array.clone_ref(py)
    }

    /// (num_envs,) uint8: the seat to act, whose observation is shown.
    #[getter]
    fn to_play(&self, py: Python<'_>) -> Py<PyAny> {
        self.arrays.to_play.array.clone_ref(py)
    }

    /// (num_envs,) uint8: the seat that acted in the last step.
    #[getter]
    fn acted(&self, py: Python<'_>) -> Py<PyAny> {
        self.arrays.acted.array.clone_ref(py)
    }

    /// (num_envs, observation_size) float32: for rows that ended in the last
    /// step, the last observation of the seat that acted.
    #[getter]
    fn final_observations(&self, py: Python<'_>) -> Py<PyAny> {
        self.arrays.final_observations.array.clone_ref(py)
    }

    /// Games that ended before any agent acted, and their returns per seat
    /// (they were skipped: nothing to decide; real-time games have none).
    fn undecided(&self) -> PyResult<(u64, Vec<i64>)> {
        Ok(match &*self.env()? {
            AnyVector::TurnBased(v) => {
                let u = v.undecided();
                (u.games, u.returns)
            }
            AnyVector::Lockstep(_) => (0, vec![0; self.game.players()]),
        })
    }

    /// A copy of the game in progress in sub-environment `index`.
    fn state(&self, py: Python<'_>, index: usize) -> PyResult<Py<PyAny>> {
        let env = self.env()?;
        let state = env.state(index).ok_or_else(|| {
            PyIndexError::new_err(format!(
                "sub-environment {index} out of range: there are {}",
                env.rows()
            ))
        })?;
        state_object(py, self.game.clone(), state)
    }

    /// The deal seed of game `k` (0 first) of sub-environment `index`.
    fn deal_seed(&self, index: usize, k: u64) -> PyResult<u64> {
        Ok(self.env()?.deal_seed(index, k))
    }
}

impl PyVectorEnv {
    fn env(&self) -> PyResult<MutexGuard<'_, AnyVector>> {
        self.env
            .lock()
            .map_err(|_| PyRuntimeError::new_err("the environment panicked earlier"))
    }

    fn env_mut(&mut self) -> PyResult<&mut AnyVector> {
        self.env
            .get_mut()
            .map_err(|_| PyRuntimeError::new_err("the environment panicked earlier"))
    }
}
