//! One turn-based game from one seat, the engine's bots at the others,
//! stepped in one call: the table beneath the Gymnasium environment
//! (`cardtable.envs.SingleAgentEnv`). A step applies the learner's action,
//! plays the bots up to the learner's next decision or the end, and writes
//! the learner's observation and action mask into numpy arrays of its own;
//! `observe` gives a seat's observation and mask of any state (the
//! PettingZoo environment's `observe`) in one call too.

use cardtable_core::engine::seeds::bot_seed;
use cardtable_core::engine::Decision;
use cardtable_core::games::registry::{AnyBot, AnyGame, AnyState};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyTuple;

use crate::args;
use crate::errors::{py_result, InvalidConfigError};
use crate::game::{PyGame, PyState};
use crate::registry::{state_object, view_object};
use crate::vector::{numpy, Array};

/// The learner's game: its state and the bots at the other seats.
struct Play {
    state: AnyState,
    /// The learner's running return as dealt, before anybody played.
    settled_at_start: i64,
    /// A bot per seat; None at the learner's. A Mutex makes them shareable
    /// between threads (a pyclass must be); `&mut self` already serialises
    /// their use, so it is only ever taken through `get_mut`.
    bots: std::sync::Mutex<Vec<Option<AnyBot>>>,
}

/// One game of a turn-based game from the learner's seat (see the module
/// documentation). `observation` and `action_mask` are read-only arrays
/// rewritten by every `start` and `step`: copy them to keep them.
#[pyclass(name = "SeatTable", module = "cardtable._core")]
pub struct PySeatTable {
    game: AnyGame,
    seat: u8,
    /// The bot spec of each seat; None at the learner's.
    specs: Vec<Option<String>>,
    play: Option<Play>,
    observation: Array<f32>,
    mask: Array<i8>,
    legal: Vec<u16>,
}

impl PySeatTable {
    fn play(&self) -> PyResult<&Play> {
        self.play
            .as_ref()
            .ok_or_else(|| PyRuntimeError::new_err("call start() first"))
    }

    /// The bots play until the learner is to decide or the game is over.
    fn play_bots(&mut self) -> PyResult<()> {
        let Some(play) = self.play.as_mut() else {
            return Ok(());
        };
        let bots = play
            .bots
            .get_mut()
            .map_err(|_| PyRuntimeError::new_err("a bot panicked earlier"))?;
        while let Decision::Seat(seat) = play.state.decision() {
            if seat == self.seat {
                break;
            }
            let bot = bots
                .get_mut(usize::from(seat))
                .and_then(Option::as_mut)
                .ok_or_else(|| PyRuntimeError::new_err(format!("no bot at seat {seat}")))?;
            let action = py_result(bot.act(&play.state, seat))?;
            py_result(play.state.apply_current(action))?;
        }
        Ok(())
    }

    /// The learner's observation, and its mask when it is to decide (all
    /// zeros otherwise), into the arrays.
    fn write_outputs(&mut self) {
        let Some(play) = self.play.as_ref() else {
            return;
        };
        // SAFETY: `&mut self` is held; the arrays are read-only to Python.
        let (observation, mask) = unsafe { (self.observation.slice(), self.mask.slice()) };
        play.state.write_observation(self.seat, observation);
        mask.fill(0);
        if play.state.current_player() == Some(self.seat) {
            self.legal.clear();
            play.state.legal_actions(self.seat, &mut self.legal);
            for &a in &self.legal {
                if let Some(m) = mask.get_mut(usize::from(a)) {
                    *m = 1;
                }
            }
        }
    }

    fn is_truncated(&self, state: &AnyState) -> bool {
        state
            .ending()
            .is_some_and(|e| self.game.guard_endings().contains(&e))
    }

    fn learner_return(&self, state: &AnyState) -> i64 {
        state
            .running_returns()
            .get(usize::from(self.seat))
            .copied()
            .unwrap_or(0)
    }
}

#[pymethods]
impl PySeatTable {
    /// `game` from seat `seat`, `opponents` the bot specs of the other
    /// seats in seat order. A real-time game, a seat out of range, a count
    /// of opponents other than the other seats' or a bad spec is refused.
    #[new]
    fn new(
        py: Python<'_>,
        game: &Bound<'_, PyGame>,
        seat: &Bound<'_, PyAny>,
        opponents: Vec<String>,
    ) -> PyResult<Self> {
        let game = game.get().game.clone();
        if game.is_real_time() {
            return Err(InvalidConfigError::new_err(format!(
                "{} is a real-time game: its table steps in lockstep ticks",
                game.name()
            )));
        }
        let players = game.players();
        let seat = args::seat(seat, u8::try_from(players).unwrap_or(u8::MAX), "seat")?;
        if opponents.len() + 1 != players {
            return Err(InvalidConfigError::new_err(format!(
                "{} opponents for the {} other seat(s) of {}",
                opponents.len(),
                players - 1,
                game.name()
            )));
        }
        let mut others = opponents.into_iter();
        let specs: Vec<Option<String>> = (0..players)
            .map(|s| {
                if s == usize::from(seat) {
                    None
                } else {
                    others.next()
                }
            })
            .collect();
        for spec in specs.iter().flatten() {
            py_result(game.bot(spec, 0))?; // a bad spec is refused, named
        }
        let np = numpy(py)?;
        let observation = Array::zeros(&np, &[game.observation_size()], "float32", "float32")?;
        let mask = Array::zeros(&np, &[game.num_distinct_actions()], "int8", "int8")?;
        Ok(PySeatTable {
            game,
            seat,
            specs,
            play: None,
            observation,
            mask,
            legal: Vec::with_capacity(64),
        })
    }

    /// A new game dealt from `seed`, each bot seeded from it (as every
    /// driver seeds seat s: `bot_seed(seed, s)`), played up to the
    /// learner's first decision. False when it ended before one.
    fn start(&mut self, seed: &Bound<'_, PyAny>) -> PyResult<bool> {
        let seed = args::seed(seed)?;
        let state = py_result(self.game.deal(seed, None))?;
        let bots = self
            .specs
            .iter()
            .enumerate()
            .map(|(s, spec)| {
                spec.as_deref()
                    .map(|spec| py_result(self.game.bot(spec, bot_seed(seed, s))))
                    .transpose()
            })
            .collect::<PyResult<Vec<_>>>()?;
        self.play = Some(Play {
            settled_at_start: self.learner_return(&state),
            state,
            bots: std::sync::Mutex::new(bots),
        });
        self.play_bots()?;
        self.write_outputs();
        Ok(!self.play()?.state.is_terminal())
    }

    /// The learner's action, then the bots' replies up to its next decision
    /// or the end; the arrays then show the new state. An action that is not
    /// legal now changes nothing. Returns (taken, the learner's running
    /// return, over, truncated): over when the game ended, truncated when a
    /// guard (`Game.guard_endings()`) ended it.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        // An integer that is no action id is simply not legal.
        let action = args::int_or_none(action)?.and_then(|a| u16::try_from(a).ok());
        let play = self.play()?;
        let legal = play.state.current_player() == Some(self.seat)
            && action.is_some_and(|a| play.state.is_legal(self.seat, a));
        if let (true, Some(action), Some(play)) = (legal, action, self.play.as_mut()) {
            py_result(play.state.apply_current(action))?;
            self.play_bots()?;
            self.write_outputs();
        }
        let state = &self.play()?.state;
        (
            legal,
            self.learner_return(state),
            state.is_terminal(),
            self.is_truncated(state),
        )
            .into_pyobject(py)
    }

    /// The learner's running return as the game was dealt.
    #[getter]
    fn settled_at_start(&self) -> PyResult<i64> {
        Ok(self.play()?.settled_at_start)
    }

    /// The learner's running return now.
    fn settled(&self) -> PyResult<i64> {
        Ok(self.learner_return(&self.play()?.state))
    }

    fn over(&self) -> PyResult<bool> {
        Ok(self.play()?.state.is_terminal())
    }

    /// Whether a guard ended the game.
    fn truncated(&self) -> PyResult<bool> {
        Ok(self.is_truncated(&self.play()?.state))
    }

    /// Whether the learner won the finished game.
    fn won(&self) -> PyResult<bool> {
        Ok(self.play()?.state.won(self.seat))
    }

    /// The cards the learner must still shed (None in a game not won so).
    fn cards_left(&self) -> PyResult<Option<usize>> {
        Ok(self.play()?.state.cards_left(self.seat))
    }

    /// The learner's legal actions now (empty unless it is to decide).
    fn legal_actions(&self) -> PyResult<Vec<u16>> {
        let state = &self.play()?.state;
        let mut out = Vec::new();
        if state.current_player() == Some(self.seat) {
            state.legal_actions(self.seat, &mut out);
        }
        Ok(out)
    }

    /// (observation_size,) float32: the learner's observation.
    #[getter]
    fn observation(&self, py: Python<'_>) -> Py<PyAny> {
        self.observation.array.clone_ref(py)
    }

    /// (num_distinct_actions,) int8: 1 for each legal action of the learner.
    #[getter]
    fn action_mask(&self, py: Python<'_>) -> Py<PyAny> {
        self.mask.array.clone_ref(py)
    }

    /// A copy of the game in progress.
    fn state(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        state_object(py, self.game.clone(), self.play()?.state.clone())
    }

    /// What the learner sees.
    fn view(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        view_object(py, self.play()?.state.view(self.seat))
    }
}

/// `numpy.empty`, looked up once.
static NUMPY_EMPTY: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// A new one-dimensional numpy array of `len` items of `dtype`, and its
/// buffer to fill.
fn new_array<'py, T: pyo3::buffer::Element>(
    py: Python<'py>,
    len: usize,
    dtype: &str,
) -> PyResult<(Bound<'py, PyAny>, pyo3::buffer::PyBuffer<T>)> {
    let empty =
        NUMPY_EMPTY.get_or_try_init(py, || numpy(py)?.getattr("empty").map(Bound::unbind))?;
    let array = empty.bind(py).call1((len, dtype))?;
    let buffer = pyo3::buffer::PyBuffer::<T>::get(&array)?;
    Ok((array, buffer))
}

/// `seat`'s observation of `state` (float32) and its action mask (int8: 1
/// for each legal action, all zeros unless `seat` is to decide), as new
/// numpy arrays.
#[pyfunction]
pub fn observe<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyState>,
    seat: &Bound<'py, PyAny>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let st = state.borrow();
    let players = u8::try_from(st.game.players()).unwrap_or(u8::MAX);
    let seat = args::seat(seat, players, "seat")?;
    let (observation, obs_buffer) = new_array::<f32>(py, st.game.observation_size(), "float32")?;
    let (mask, mask_buffer) = new_array::<i8>(py, st.game.num_distinct_actions(), "int8")?;
    let mut values = vec![0f32; obs_buffer.item_count()];
    st.state.write_observation(seat, &mut values);
    obs_buffer.copy_from_slice(py, &values)?;
    let mut marks = vec![0i8; mask_buffer.item_count()];
    if st.state.current_player() == Some(seat) {
        let mut legal = Vec::with_capacity(64);
        st.state.legal_actions(seat, &mut legal);
        for a in legal {
            if let Some(m) = marks.get_mut(usize::from(a)) {
                *m = 1;
            }
        }
    }
    mask_buffer.copy_from_slice(py, &marks)?;
    Ok((observation, mask))
}
