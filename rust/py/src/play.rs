//! The Python classes that drive games: `Bot` (a Rust bot of any game),
//! `Match` (games with the deal passing left) and `Simulation` (a
//! bot-against-bot run, played in pieces).

use cardtable_core::engine::arena::{Distribution, Tally};
use cardtable_core::engine::record::Record;
use cardtable_core::games::registry::{AnyArena, AnyBot, AnyGame, AnyMatch};
use pyo3::exceptions::{PyIndexError, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

use crate::args;
use crate::detach::{detached, run_detached, run_interruptible, threads_arg};
use crate::errors::{py_result, GameOverError};
use crate::game::{PyGame, PyState};
use crate::registry::state_object;

/// A Rust bot of a game, by spec (e.g. 'random', 'greedy', 'strong:64').
#[pyclass(name = "Bot", module = "cardtable._core", subclass)]
pub struct PyBot {
    // A Mutex makes the bot shareable between threads (a pyclass must be);
    // the GIL already serialises calls.
    bot: std::sync::Mutex<AnyBot>,
    name: String,
}

impl PyBot {
    pub fn of(game: &AnyGame, spec: &str, seed: u64) -> PyResult<PyBot> {
        Ok(PyBot {
            name: py_result(game.bot_name(spec))?,
            bot: std::sync::Mutex::new(py_result(game.bot(spec, seed))?),
        })
    }
}

#[pymethods]
impl PyBot {
    #[new]
    fn new(game: &Bound<'_, PyGame>, spec: &str, seed: &Bound<'_, PyAny>) -> PyResult<Self> {
        PyBot::of(&game.get().game, spec, args::seed(seed)?)
    }

    /// The bot's canonical spec.
    #[getter]
    fn name(&self) -> String {
        self.name.clone()
    }

    /// The bot's action for the player to decide (it looks only at what that
    /// seat may see); always legal. A finished game raises GameOverError.
    fn act(&mut self, py: Python<'_>, state: &Bound<'_, PyState>) -> PyResult<u16> {
        let s = state.borrow().state.clone();
        let seat = s
            .current_player()
            .ok_or_else(|| GameOverError::new_err("the game is over"))?;
        let bot = self
            .bot
            .get_mut()
            .map_err(|_| PyRuntimeError::new_err("a bot panicked earlier"))?;
        detached(py, || bot.act(&s, seat))
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        Ok(format!(
            "{}('{}')",
            slf.get_type().name()?,
            slf.borrow().name
        ))
    }
}

/// A sequence of games with the deal passing left and a running ledger.
#[pyclass(name = "Match", module = "cardtable._core")]
pub struct PyMatch(AnyMatch);

#[pymethods]
impl PyMatch {
    #[new]
    fn new(game: &Bound<'_, PyGame>, seed: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyMatch(py_result(
            game.get().game.new_match(args::seed(seed)?),
        )?))
    }

    /// The next game, dealt by the current dealer.
    fn next_game(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let state = py_result(self.0.next_game())?;
        state_object(py, self.0.game(), state)
    }

    /// Books a finished game into the ledger and passes the deal left.
    fn record(&mut self, finished: &Bound<'_, PyState>) -> PyResult<()> {
        py_result(self.0.record(&finished.borrow().state))
    }

    #[getter]
    fn ledger(&self) -> Vec<i64> {
        self.0.ledger().to_vec()
    }

    #[getter]
    fn dealer(&self) -> u8 {
        self.0.dealer()
    }

    #[getter]
    fn games_played(&self) -> u64 {
        self.0.games_played()
    }

    #[getter]
    fn seed(&self) -> u64 {
        self.0.seed()
    }
}

/// A distribution as (value, games) pairs in increasing value.
fn distribution(d: &Distribution) -> Vec<(i64, u64)> {
    d.counts().collect()
}

/// A bot-against-bot run, played in pieces so callers can report progress.
#[pyclass(name = "Simulation", module = "cardtable._core")]
pub struct PySimulation {
    run: AnyArena,
    /// The exception of a signal (Ctrl-C) that stopped the last step, kept
    /// until `raise_interrupt` (or the next step) raises it.
    interrupt: Option<PyErr>,
}

#[pymethods]
impl PySimulation {
    /// `games` games (rounded up to whole seat rotations) of `bots` (one per seat).
    #[new]
    fn new(
        game: &Bound<'_, PyGame>,
        bots: Vec<String>,
        games: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let seed = args::seed(seed)?;
        let games = args::count(games, "games")?;
        Ok(PySimulation {
            run: py_result(game.get().game.arena(&bots, games, seed))?,
            interrupt: None,
        })
    }

    /// Raises the exception of the signal (Ctrl-C) that stopped the last
    /// step, once; nothing if none did.
    fn raise_interrupt(&mut self) -> PyResult<()> {
        self.interrupt.take().map_or(Ok(()), Err)
    }

    /// Whether a signal stopped the last step (its exception not raised yet).
    #[getter]
    fn interrupted(&self) -> bool {
        self.interrupt.is_some()
    }

    #[getter]
    fn total(&self) -> u64 {
        self.run.total()
    }

    #[getter]
    fn done(&self) -> u64 {
        self.run.done()
    }

    /// Plays up to `count` more games; with `record`, returns their JSON
    /// records. A signal (Ctrl-C) stops the step within a move: the games
    /// finished by then are kept (counted, and their records returned; a
    /// game finished after one given up is played again by a later step),
    /// and the signal's exception (KeyboardInterrupt) is raised by
    /// `raise_interrupt()`, or by the next step before it plays.
    #[pyo3(signature = (count, threads = None, record = false))]
    fn step(
        &mut self,
        py: Python<'_>,
        count: &Bound<'_, PyAny>,
        threads: Option<&Bound<'_, PyAny>>,
        record: bool,
    ) -> PyResult<Vec<String>> {
        self.raise_interrupt()?;
        let count = args::count(count, "count")?;
        let run = &mut self.run;
        let threads = threads_arg(threads)?;
        let (results, interrupt) =
            run_interruptible(py, threads, |stop| run.step_until(count, stop))?;
        self.interrupt = interrupt;
        let results = py_result(results)?;
        Ok(if record {
            self.run
                .records(&results)
                .iter()
                .map(Record::to_json)
                .collect()
        } else {
            Vec::new()
        })
    }

    /// Plays games `start..stop` (whole deals: multiples of the number of
    /// bots) without changing this run; returns their tally (bytes, for
    /// `absorb` on a copy of this run anywhere) and, with `record`, their
    /// JSON records in game order.
    #[pyo3(signature = (start, stop, threads = None, record = false))]
    fn play_shard<'py>(
        &self,
        py: Python<'py>,
        start: &Bound<'_, PyAny>,
        stop: &Bound<'_, PyAny>,
        threads: Option<&Bound<'_, PyAny>>,
        record: bool,
    ) -> PyResult<(Bound<'py, PyBytes>, Vec<String>)> {
        let start = args::count(start, "start")?;
        let stop = args::count(stop, "stop")?;
        let threads = threads_arg(threads)?;
        let run = &self.run;
        let (tally, results) =
            py_result(run_detached(py, threads, || run.play_shard(start, stop))?)?;
        py.check_signals()?;
        let records = if record {
            run.records(&results).iter().map(Record::to_json).collect()
        } else {
            Vec::new()
        };
        Ok((PyBytes::new(py, &tally.to_bytes()), records))
    }

    /// Takes the tally of the shard that starts where this run stands (from
    /// `play_shard` on a run of the same game, bots, games and seed); shards
    /// absorbed in order give exactly the summary of `step`. A tally out of
    /// order, of another run or already taken raises InvalidConfigError.
    fn absorb(&mut self, tally: &[u8]) -> PyResult<()> {
        let tally = py_result(Tally::from_bytes(tally))?;
        py_result(self.run.absorb(&tally))
    }

    /// Results so far: per bot win rate and return per game with 95%
    /// confidence intervals (deals as paired observations) and the games
    /// per return, endings, and the distributions of game length.
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.run.summary();
        let d = PyDict::new(py);
        d.set_item("game", self.run.game().name())?;
        d.set_item("games", s.games)?;
        let bots = PyList::empty(py);
        for b in &s.bots {
            let e = PyDict::new(py);
            e.set_item("bot", &b.bot)?;
            e.set_item("games", b.games)?;
            e.set_item("positive_return_rate", b.win_rate.mean)?;
            e.set_item(
                "positive_return_rate_ci",
                (b.win_rate.low(), b.win_rate.high()),
            )?;
            e.set_item("stakes_per_game", b.stakes.mean)?;
            e.set_item("stakes_per_game_ci", (b.stakes.low(), b.stakes.high()))?;
            e.set_item("return_distribution", distribution(&b.returns))?;
            bots.append(e)?;
        }
        d.set_item("bots", bots)?;
        let endings = PyDict::new(py);
        for (k, v) in &s.endings {
            endings.set_item(k, v)?;
        }
        d.set_item("endings", endings)?;
        if s.virtual_seconds > 0.0 {
            d.set_item("virtual_seconds_per_game", s.virtual_seconds)?;
        }
        d.set_item("deals_per_game", s.deals)?;
        let lengths = PyDict::new(py);
        lengths.set_item("actions", distribution(&s.lengths.actions))?;
        lengths.set_item("deals", distribution(&s.lengths.deals))?;
        if !s.lengths.virtual_seconds.is_empty() {
            lengths.set_item("virtual_seconds", distribution(&s.lengths.virtual_seconds))?;
        }
        d.set_item("length_distribution", lengths)?;
        // A bot bug the driver played around: only ever shown when it happened.
        if s.replaced_answers > 0 {
            d.set_item("replaced_answers", s.replaced_answers)?;
        }
        Ok(d)
    }

    /// Paired difference of the return per game between bots `a` and `b`
    /// (index in the bot list): (mean, low, high) of a 95% confidence interval.
    fn stake_difference(&self, a: usize, b: usize) -> PyResult<(f64, f64, f64)> {
        let n = self.run.bots();
        if a >= n || b >= n {
            return Err(PyIndexError::new_err(format!(
                "bot index out of range: the run has {n} bots"
            )));
        }
        let e = self.run.stake_difference(a, b);
        Ok((e.mean, e.low(), e.high()))
    }
}
