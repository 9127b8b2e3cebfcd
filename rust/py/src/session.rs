//! `Session`: any game on the virtual clock (RT-9), for people and learning
//! code: bots at some seats, a person or an agent at the others, intents
//! stamped with virtual time, the clock advanced by the caller.

use cardtable_core::engine::realtime::{IntentNote, PublicNote};
use cardtable_core::engine::seeds::bot_seed;
use cardtable_core::games::registry::{AnyGame, AnySession};
use std::sync::{Mutex, MutexGuard};

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::args;
use crate::detach::detached;
use crate::errors::py_result;
use crate::game::PyGame;
use crate::registry::{state_object, view_object};

/// A game running on the virtual clock (milliseconds): `bots[seat]` is a
/// bot spec or None for a seat the caller drives with `submit`/`step`.
#[pyclass(name = "Session", module = "cardtable._core")]
pub struct PySession {
    game: AnyGame,
    names: Vec<String>,
    /// Each seat's bot seed, None for a seat the caller drives (RT-11).
    bot_seeds: Vec<Option<u64>>,
    // A Mutex makes the session shareable between threads (a pyclass must
    // be); the GIL already serialises calls.
    inner: Mutex<AnySession>,
}

#[pymethods]
impl PySession {
    #[new]
    fn new(
        game: &Bound<'_, PyGame>,
        bots: Vec<Option<String>>,
        seed: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let game = game.get().game.clone();
        let seed = args::seed(seed)?;
        let mut names = Vec::new();
        for b in &bots {
            names.push(match b {
                Some(spec) => py_result(game.bot_name(spec))?,
                None => "human".to_string(),
            });
        }
        let inner = py_result(game.session(seed, &bots))?;
        let bot_seeds = (0..bots.len())
            .map(|seat| bots[seat].as_ref().map(|_| bot_seed(seed, seat)))
            .collect();
        Ok(PySession {
            game,
            names,
            bot_seeds,
            inner: Mutex::new(inner),
        })
    }

    /// The virtual time, in milliseconds.
    #[getter]
    fn now(&self) -> PyResult<u64> {
        Ok(self.lock()?.now())
    }

    fn is_over(&self) -> PyResult<bool> {
        Ok(self.lock()?.is_over())
    }

    /// Who sits at each seat: bot specs, or "human".
    #[getter]
    fn players(&self) -> Vec<String> {
        self.names.clone()
    }

    /// An intent of `seat` landing at `at` ms (default: now; a time before
    /// now is now). One landing at a millisecond whose events have run
    /// (after `advance_to` it) is handled at once, after them. False when
    /// that seat's hands are all busy (RT-4; under `queue_inputs` it waits
    /// for a free hand instead, and counts as taken) or the game is over;
    /// whether it lands or bounces is decided when it commits (RT-5).
    #[pyo3(signature = (seat, action, at = None))]
    fn submit(
        &mut self,
        seat: &Bound<'_, PyAny>,
        action: &Bound<'_, PyAny>,
        at: Option<u64>,
    ) -> PyResult<bool> {
        let seat = args::seat(seat, self.seats(), "seat")?;
        let count = u16::try_from(self.game.num_distinct_actions()).unwrap_or(u16::MAX);
        let action = args::action(action, count)?;
        let at = match at {
            Some(at) => at,
            None => self.lock()?.now(),
        };
        Ok(py_result(self.lock()?.submit(seat, action, at))?.accepted())
    }

    /// The intents in flight, soonest first: (commit time, seat, action).
    /// A screen can show a bot's card on its way (HC-4 `telegraph`).
    fn in_flight(&self) -> PyResult<Vec<(u64, u8, u16)>> {
        Ok(self.lock()?.in_flight())
    }

    /// Intents of `seat` waiting for a free hand (RT-4 `queue_inputs`).
    fn queued(&self, seat: &Bound<'_, PyAny>) -> PyResult<usize> {
        let seat = args::seat(seat, self.seats(), "seat")?;
        Ok(self.lock()?.queued(seat))
    }

    /// Runs every event up to virtual time `t` (real-time play: `t` is the
    /// wall clock's elapsed milliseconds).
    fn advance_to(&mut self, py: Python<'_>, t: u64) -> PyResult<()> {
        let inner = self.inner_mut()?;
        detached(py, || inner.advance_to(t))
    }

    /// Lockstep tick (RT-9 (c)): each `(seat, action)` lands now, ordered by
    /// the tie-break among everything else of this millisecond; then the
    /// clock moves `dt` ms (the events of its last millisecond are the next
    /// tick's). Returns which intents were taken (a busy hand refuses one).
    #[pyo3(signature = (actions, dt = 100))]
    fn step(
        &mut self,
        actions: Vec<(Bound<'_, PyAny>, Bound<'_, PyAny>)>,
        dt: u64,
    ) -> PyResult<Vec<bool>> {
        let count = u16::try_from(self.game.num_distinct_actions()).unwrap_or(u16::MAX);
        let mut intents = Vec::with_capacity(actions.len());
        for (seat, action) in &actions {
            intents.push((
                args::seat(seat, self.seats(), "seat")?,
                args::action(action, count)?,
            ));
        }
        let taken = py_result(self.inner_mut()?.step(&intents, dt))?;
        Ok(taken.into_iter().map(|t| t.accepted()).collect())
    }

    /// Runs to the end (bots only) or to the game's time limit; True when
    /// the game ended by its rules.
    fn run(&mut self, py: Python<'_>) -> PyResult<bool> {
        let inner = self.inner_mut()?;
        detached(py, || inner.run())
    }

    /// A copy of the state now.
    #[getter]
    fn state(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        state_object(py, self.game.clone(), self.lock()?.state())
    }

    /// What `seat` sees now.
    fn view(&self, py: Python<'_>, seat: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let seat = args::seat(seat, self.seats(), "seat")?;
        view_object(py, self.lock()?.state().view(seat))
    }

    /// The legal actions of `seat` now.
    fn legal_actions(&self, seat: &Bound<'_, PyAny>) -> PyResult<Vec<u16>> {
        let seat = args::seat(seat, self.seats(), "seat")?;
        let mut out = Vec::new();
        self.lock()?.state().legal_actions(seat, &mut out);
        Ok(out)
    }

    /// Every commit so far: (at_ms, seat, action, bounced); from the
    /// `start`-th on with `start` (a reader that keeps its place reads each
    /// commit once).
    #[pyo3(signature = (start = 0))]
    fn log(&self, start: usize) -> PyResult<Vec<(u64, u8, u16, bool)>> {
        Ok(self
            .lock()?
            .log()
            .iter()
            .skip(start)
            .map(|c| (c.at, c.seat, c.action, c.bounced))
            .collect())
    }

    /// The event channels (RT-10), as dicts in the order things happened.
    /// Without `seat`, the public channel, what everyone sees: `{"at",
    /// "kind": "landed" | "bounced", "seat", "action"}` for each commit and
    /// `{"at", "kind": "timer", "phase"}` when the engine moved the game on
    /// (into that phase). With `seat`, that seat's private channel: its own
    /// intents when issued, `{"at", "kind": "issued" | "queued" | "released"
    /// | "refused", "action", "lands"}` (`lands`: when an issued or released
    /// one commits; "released": a queued one sent once a hand freed).
    #[pyo3(signature = (seat = None))]
    fn events<'py>(
        &self,
        py: Python<'py>,
        seat: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let inner = self.lock()?;
        let mut out = Vec::new();
        match seat {
            None => {
                for note in inner.public_notes() {
                    let d = PyDict::new(py);
                    match note {
                        PublicNote::Commit(c) => {
                            d.set_item("at", c.at)?;
                            d.set_item("kind", if c.bounced { "bounced" } else { "landed" })?;
                            d.set_item("seat", c.seat)?;
                            d.set_item("action", c.action)?;
                        }
                        PublicNote::Timer { at, phase } => {
                            d.set_item("at", at)?;
                            d.set_item("kind", "timer")?;
                            d.set_item("phase", phase)?;
                        }
                    }
                    out.push(d);
                }
            }
            Some(seat) => {
                let seat = args::seat(seat, self.seats(), "seat")?;
                for n in inner.private_notes(seat) {
                    let (kind, lands) = match n.note {
                        IntentNote::Issued { lands } => ("issued", Some(lands)),
                        IntentNote::Released { lands } => ("released", Some(lands)),
                        IntentNote::Queued => ("queued", None),
                        IntentNote::Refused => ("refused", None),
                    };
                    let d = PyDict::new(py);
                    d.set_item("at", n.at)?;
                    d.set_item("kind", kind)?;
                    d.set_item("action", n.action)?;
                    d.set_item("lands", lands)?;
                    out.push(d);
                }
            }
        }
        Ok(out)
    }

    /// The hash of the event log replays are checked against (hexadecimal).
    fn event_hash(&self) -> PyResult<String> {
        Ok(format!("{:016x}", self.lock()?.event_hash()))
    }

    /// The game so far as one JSON record with its timed events.
    fn to_record(&self) -> PyResult<String> {
        let record = self
            .lock()?
            .record(&self.game, self.names.clone(), self.bot_seeds.clone());
        Ok(py_result(record)?.to_json())
    }
}

impl PySession {
    fn lock(&self) -> PyResult<MutexGuard<'_, AnySession>> {
        self.inner
            .lock()
            .map_err(|_| PyRuntimeError::new_err("the session panicked earlier"))
    }

    fn inner_mut(&mut self) -> PyResult<&mut AnySession> {
        self.inner
            .get_mut()
            .map_err(|_| PyRuntimeError::new_err("the session panicked earlier"))
    }

    fn seats(&self) -> u8 {
        u8::try_from(self.game.players()).unwrap_or(u8::MAX)
    }
}
