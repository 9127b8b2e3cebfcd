//! The Python classes every game shares, over the core's registry
//! (`AnyGame`, `AnyState`, ...): `Game`, `State`, `Bot`, `Simulation`,
//! `Match`, `load_game` and `replay_record`. A game's own class (e.g.
//! `TonkGame`) subclasses `Game`/`State` for what only it has; which class
//! wraps which game is decided in `registry.rs`.

use cardtable_core::engine::arena::{Distribution, Tally};
use cardtable_core::engine::options::OptionValue;
use cardtable_core::engine::record::Record;
use cardtable_core::games::registry::{self, AnyArena, AnyBot, AnyGame, AnyMatch, AnyState};
use pyo3::exceptions::{PyImportError, PyIndexError, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyInt, PyList, PyString};

use crate::args;
use crate::cards::hand_from_any;
use crate::detach::{detached, run_detached, run_interruptible, threads_arg};
use crate::errors::{py_result, GameOverError, InvalidConfigError};
use crate::options::{self, PyOptionSpec};
use crate::registry::{game_object, state_object, view_object};

pub fn option_value(key: &str, v: &Bound<'_, PyAny>) -> PyResult<OptionValue> {
    if v.is_instance_of::<PyBool>() {
        return Ok(OptionValue::Bool(v.extract()?));
    }
    if v.is_instance_of::<PyInt>() {
        return match args::int_or_none(v)? {
            Some(i) => Ok(OptionValue::Int(i)),
            None => Err(InvalidConfigError::new_err((
                format!("option {key}: {} is out of range", v.repr()?),
                key.to_string(),
            ))),
        };
    }
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(OptionValue::Str(s.to_str()?.to_string()));
    }
    if v.is_none() {
        return Ok(OptionValue::Str("none".into()));
    }
    Err(InvalidConfigError::new_err((
        format!(
            "option {key}: expected a string, integer or boolean, got {}",
            v.get_type().name()?
        ),
        key.to_string(),
    )))
}

/// Keyword arguments as engine options.
pub fn options_from(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, OptionValue)>> {
    let mut out = Vec::new();
    if let Some(d) = kwargs {
        for (k, v) in d.iter() {
            let key: String = k.extract()?;
            out.push((key.clone(), option_value(&key, &v)?));
        }
    }
    Ok(out)
}

pub fn options_dict<'py>(
    py: Python<'py>,
    opts: &[(String, OptionValue)],
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (k, v) in opts {
        match v {
            OptionValue::Bool(b) => d.set_item(k, b)?,
            OptionValue::Int(i) => d.set_item(k, i)?,
            OptionValue::Str(s) => d.set_item(k, s)?,
        }
    }
    Ok(d)
}

/// Every registered game's name (its registry key), in registration order.
#[pyfunction]
pub fn game_names() -> Vec<&'static str> {
    registry::GAMES.to_vec()
}

/// The game `name` (e.g. "tonk", "three_thirteen"; '-' and '_' alike)
/// with rule options as keywords; unknown names, bad values and impossible
/// combinations raise InvalidConfigError naming the option.
#[pyfunction]
#[pyo3(signature = (name, **options))]
pub fn load_game(
    py: Python<'_>,
    name: &str,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let game = py_result(AnyGame::load(name, &options_from(options)?))?;
    game_object(py, game)
}

/// The option schema of game `name`, without building one.
#[pyfunction]
pub fn option_schema(name: &str) -> PyResult<Vec<PyOptionSpec>> {
    Ok(options::schema(
        py_result(AnyGame::schema_of(name))?.options,
    ))
}

/// The option schema of the meld rules (`MeldRules(game, **options)`).
#[pyfunction]
pub fn meld_option_schema() -> Vec<PyOptionSpec> {
    options::schema(cardtable_core::meld::MELD_SCHEMA.options)
}

/// The meld-rule presets, by name (`MeldRules(game)`).
#[pyfunction]
pub fn meld_game_names() -> Vec<&'static str> {
    cardtable_core::meld::MeldGame::ALL
        .map(|g| g.name())
        .to_vec()
}

/// Rebuilds a pickled game.
#[pyfunction]
#[pyo3(name = "_game_from")]
pub fn game_from(py: Python<'_>, name: &str, options: &Bound<'_, PyDict>) -> PyResult<Py<PyAny>> {
    load_game(py, name, Some(options))
}

/// Re-runs a recorded game (one JSON line, of any game: text, or bytes as
/// read, which must be UTF-8) and checks its result; returns the final state.
#[pyfunction]
pub fn replay_record(py: Python<'_>, line: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let rec = match line.cast::<PyBytes>() {
        Ok(bytes) => Record::from_bytes(bytes.as_bytes()),
        Err(_) => Record::from_json(line.cast::<PyString>()?.to_str()?),
    };
    let rec = py_result(rec)?;
    let (game, state) = detached(py, || AnyGame::replay(&rec))?;
    state_object(py, game, state)
}

/// What `__reduce__` returns: a function and its arguments.
type Reduced<'py, Args> = (Bound<'py, PyAny>, Args);

/// The rules of one configuration of a game; creates its states.
#[pyclass(
    name = "Game",
    module = "cardtable._core",
    frozen,
    subclass,
    skip_from_py_object
)]
pub struct PyGame {
    pub game: AnyGame,
}

#[pymethods]
impl PyGame {
    /// The registry key, as records and the command line name it.
    #[getter]
    fn name(&self) -> &'static str {
        self.game.name()
    }

    #[getter]
    fn players(&self) -> usize {
        self.game.players()
    }

    /// Every option name.
    fn option_names(&self) -> Vec<&'static str> {
        self.game.schema().names().collect()
    }

    /// Every option with the values it takes, its help text and its rule ID.
    fn option_schema(&self) -> Vec<PyOptionSpec> {
        options::schema(self.game.schema().options)
    }

    /// Every way a game can end (`State.ending_category`), in report order.
    fn ending_categories(&self) -> Vec<&'static str> {
        self.game.ending_categories().to_vec()
    }

    /// The ending categories in which a guard stopped the game (a limit of
    /// the engine's: virtual time, deals, idle rounds), not its play: the
    /// learning environments report them as truncations.
    fn guard_endings(&self) -> Vec<&'static str> {
        self.game.guard_endings().to_vec()
    }

    /// Every option with its value.
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        options_dict(py, &self.game.to_options())
    }

    /// The options that make this configuration what it is: each one without
    /// which `options()` would load another game. A value the engine derives
    /// from other options (a preset's values, Tonk's deal-time wins under
    /// TK-2.3) or one equal to its default is not among them.
    fn given_options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        options_dict(py, &self.game.given_options())
    }

    /// The bot specs this game's `Bot` reads, for help texts, e.g.
    /// 'random, greedy[:drop_at], strong[:samples]'.
    #[getter]
    fn bot_grammar(&self) -> String {
        self.game.bot_grammar()
    }

    /// Action ids run from 0 to this, exclusive.
    fn num_distinct_actions(&self) -> usize {
        self.game.num_distinct_actions()
    }

    /// Whether the game runs on the virtual clock, several seats acting at
    /// once (Spit, Speed), rather than turn by turn.
    #[getter]
    fn real_time(&self) -> bool {
        self.game.is_real_time()
    }

    /// Length of `State.observation`.
    fn observation_size(&self) -> usize {
        self.game.observation_size()
    }

    /// Text of an action, e.g. 'discard 7H'.
    fn action_to_string(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        py_result(self.game.action_to_string(self.action(action)?))
    }

    /// The action a text names (the inverse of `action_to_string`).
    fn string_to_action(&self, text: &str) -> PyResult<u16> {
        py_result(self.game.string_to_action(text))
    }

    /// A new game dealt from `seed`; without a dealer the rules choose one.
    #[pyo3(signature = (seed, dealer = None))]
    fn new_initial_state(
        &self,
        py: Python<'_>,
        seed: &Bound<'_, PyAny>,
        dealer: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        self.new_state(py, seed, dealer)
    }

    /// A game dealt from a given deck order (top first), for games dealt
    /// from one deck.
    fn state_from_deck(
        &self,
        py: Python<'_>,
        deck: &Bound<'_, PyAny>,
        dealer: &Bound<'_, PyAny>,
    ) -> PyResult<Py<PyAny>> {
        let cards = hand_from_any(deck)?;
        let state = py_result(self.game.deal_from_deck(&cards, self.dealer_seat(dealer)?))?;
        state_object(py, self.game.clone(), state)
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let py = slf.py();
        let game = &slf.get().game;
        let defaults = AnyGame::load(game.name(), &[])
            .map(|g| g.to_options())
            .unwrap_or_default();
        let mut parts = Vec::new();
        for (k, v) in game.to_options() {
            if defaults.iter().any(|(dk, dv)| *dk == k && *dv == v) {
                continue;
            }
            if let Some(o) = options_dict(py, &[(k.clone(), v)])?.get_item(&k)? {
                parts.push(format!("{k}={}", o.repr()?));
            }
        }
        Ok(format!("{}({})", slf.get_type().name()?, parts.join(", ")))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyGame>()
            .is_ok_and(|o| o.get().game == self.game)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.game.name().hash(&mut h);
        for (k, v) in self.game.to_options() {
            k.hash(&mut h);
            format!("{v:?}").hash(&mut h);
        }
        h.finish()
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<Reduced<'py, (&'static str, Bound<'py, PyDict>)>> {
        let py = slf.py();
        let rebuild = py.import("cardtable._core")?.getattr("_game_from")?;
        let game = slf.get();
        Ok((rebuild, (game.game.name(), game.options(py)?)))
    }
}

impl PyGame {
    /// `new_initial_state()`: also each game's class's own (see `fast_path!`).
    pub fn new_state(
        &self,
        py: Python<'_>,
        seed: &Bound<'_, PyAny>,
        dealer: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let dealer = dealer.map(|d| self.dealer_seat(d)).transpose()?;
        let state = py_result(self.game.deal(args::seed(seed)?, dealer))?;
        state_object(py, self.game.clone(), state)
    }

    pub fn dealer_seat(&self, v: &Bound<'_, PyAny>) -> PyResult<u8> {
        args::seat(v, self.seats(), "dealer seat")
    }

    fn seats(&self) -> u8 {
        u8::try_from(self.game.players()).unwrap_or(u8::MAX)
    }

    fn action(&self, v: &Bound<'_, PyAny>) -> PyResult<u16> {
        args::action(v, action_count(&self.game))
    }
}

fn action_count(game: &AnyGame) -> u16 {
    u16::try_from(game.num_distinct_actions()).unwrap_or(u16::MAX)
}

/// One game in progress (mutable; `clone()` copies it).
#[pyclass(
    name = "State",
    module = "cardtable._core",
    subclass,
    skip_from_py_object
)]
pub struct PyState {
    pub game: AnyGame,
    pub state: AnyState,
}

#[pymethods]
impl PyState {
    /// The player to decide; None once the game is over.
    fn current_player(&self) -> Option<u8> {
        self.state.current_player()
    }

    /// The legal actions of the player to decide, sorted (empty at the end).
    fn legal_actions(&self) -> Vec<u16> {
        self.legal_actions_vec()
    }

    /// Whether `action` is legal now (False for any integer that is not an action).
    fn is_legal(&self, action: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Some(seat) = self.state.current_player() else {
            return Ok(false);
        };
        Ok(args::int_or_none(action)?
            .and_then(|a| u16::try_from(a).ok())
            .is_some_and(|a| self.state.is_legal(seat, a)))
    }

    /// Applies an action of the player to decide; an illegal one raises
    /// IllegalActionError and leaves the state unchanged.
    fn apply_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        self.apply_current(action)
    }

    fn is_terminal(&self) -> bool {
        self.state.is_terminal()
    }

    /// Whether a guard ended the game (its ending is one of
    /// `Game.guard_endings()`): a limit, not the play, stopped it, which
    /// learning environments report as a truncation. `is_terminal()` is
    /// true then too.
    fn is_truncated(&self) -> bool {
        self.state
            .ending()
            .is_some_and(|e| self.game.guard_endings().contains(&e))
    }

    /// What each player won (zero-sum; see the game's documentation for its unit).
    fn returns(&self) -> Vec<i64> {
        self.state.returns()
    }

    /// What each player has won so far: `returns()` once the game is over,
    /// before that what has been settled (Tonk's spades side bet, Three
    /// Thirteen's rounds once scored): a step's reward is its change.
    fn running_returns(&self) -> Vec<i64> {
        self.state.running_returns()
    }

    /// Whether `player` won the finished game (ties may share a win).
    fn won(&self, player: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.state.won(self.seat(player)?))
    }

    /// The cards `player` must still get rid of to win, in a game won by
    /// shedding them all (Spit: stock, spit and gathered cards; Speed: hand
    /// and draw pile); None in the other games.
    fn cards_left(&self, player: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
        Ok(self.state.cards_left(self.seat(player)?))
    }

    /// How the game ended (one of `Game.ending_categories()`); None while it goes on.
    #[getter]
    fn ending_category(&self) -> Option<&'static str> {
        self.state.ending()
    }

    /// Deals (hands, rounds, layouts) dealt so far, this one included.
    #[getter]
    fn deals_played(&self) -> u32 {
        self.state.deals_played()
    }

    fn history(&self) -> Vec<u16> {
        self.state.history().to_vec()
    }

    #[getter]
    fn dealer(&self) -> u8 {
        self.state.dealer()
    }

    #[getter]
    fn players(&self) -> usize {
        self.game.players()
    }

    /// The game this state belongs to.
    #[getter]
    fn game(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        game_object(py, self.game.clone())
    }

    /// Text of an action, e.g. 'discard 7H'.
    fn action_to_string(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let a = args::action(action, action_count(&self.game))?;
        py_result(self.game.action_to_string(a))
    }

    /// The action a text names (the inverse of `action_to_string`).
    fn string_to_action(&self, text: &str) -> PyResult<u16> {
        py_result(self.game.string_to_action(text))
    }

    /// What `player` may see: the game's view class.
    fn view(&self, py: Python<'_>, player: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        view_object(py, self.state.view(self.seat(player)?))
    }

    /// A flat float32 numpy observation from `player`'s point of view (its
    /// layout is in the game's documentation); needs numpy.
    fn observation<'py>(
        &self,
        py: Python<'py>,
        player: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let player = self.seat(player)?;
        let np = py.import("numpy").map_err(|_| {
            PyImportError::new_err("observation returns a numpy array: pip install numpy")
        })?;
        let o = self.state.observation(player);
        let bytes: Vec<u8> = o.iter().flat_map(|x| x.to_le_bytes()).collect();
        np.call_method1("frombuffer", (PyBytes::new(py, &bytes), "<f4"))?
            .call_method1("astype", ("float32",))
    }

    /// The same observation as a list of floats (no numpy needed).
    fn observation_list(&self, player: &Bound<'_, PyAny>) -> PyResult<Vec<f32>> {
        Ok(self.state.observation(self.seat(player)?))
    }

    /// A state `player` cannot tell from this one: hidden cards re-dealt with `seed`.
    fn determinize(
        &self,
        py: Python<'_>,
        player: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
    ) -> PyResult<Py<PyAny>> {
        let player = self.seat(player)?;
        let mut rng = cardtable_core::GameRng::new(args::seed(seed)?);
        let state = self.state.determinize(player, &mut rng);
        state_object(py, self.game.clone(), state)
    }

    /// The game as a replayable JSON record (`players` names each seat). A
    /// state made by `determinize` has none (its hidden cards were re-dealt).
    #[pyo3(signature = (players = None))]
    fn to_record(&self, players: Option<Vec<String>>) -> PyResult<String> {
        let names = players.unwrap_or_else(|| vec!["?".into(); self.game.players()]);
        Ok(py_result(self.game.record_of_state(&self.state, names))?.to_json())
    }

    /// A hash of the whole state, the one records keep (hexadecimal).
    fn fingerprint(&self) -> String {
        format!("{:016x}", self.state.fingerprint())
    }

    fn clone(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        state_object(py, self.game.clone(), self.state.clone())
    }

    fn __copy__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        self.clone(py)
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        self.clone(py)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let py = slf.py();
        let rebuild = py.import("cardtable._core")?.getattr("replay_record")?;
        Ok((rebuild, (slf.borrow().to_record(None)?,)))
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let s = slf.borrow();
        Ok(format!(
            "<{} dealer {} {} after {} actions>",
            slf.get_type().name()?,
            s.state.dealer(),
            s.state.ending().unwrap_or("in play"),
            s.state.history().len()
        ))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyState>()
            .is_ok_and(|o| o.borrow().state == self.state)
    }
}

impl PyState {
    /// `legal_actions()`: also each game's class's own (see `fast_path!`).
    pub fn legal_actions_vec(&self) -> Vec<u16> {
        // Room for a typical turn's actions: no regrowth on the hot path.
        let mut out = Vec::with_capacity(32);
        if let Some(seat) = self.state.current_player() {
            self.state.legal_actions(seat, &mut out);
        }
        out
    }

    /// `apply_action()`, shared like `legal_actions_vec`.
    pub fn apply_current(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let a = args::action(action, action_count(&self.game))?;
        py_result(self.state.apply_current(a)).map(drop)
    }

    pub fn seat(&self, player: &Bound<'_, PyAny>) -> PyResult<u8> {
        let seats = u8::try_from(self.game.players()).unwrap_or(u8::MAX);
        args::seat(player, seats, "seat")
    }
}

/// The hot-path methods again on a game's own `Game` and `State` classes:
/// Python then finds them on the object's exact type, and PyO3's type check
/// is one comparison instead of a walk up to the base class (about 10% of a
/// Python-driven step). The bodies stay in `PyGame`/`PyState`.
macro_rules! fast_path {
    ($game:ty, $state:ty) => {
        #[pyo3::pymethods]
        impl $game {
            /// A new game dealt from `seed`; without a dealer the rules choose one.
            #[pyo3(signature = (seed, dealer = None))]
            fn new_initial_state(
                slf: &pyo3::Bound<'_, Self>,
                seed: &pyo3::Bound<'_, pyo3::PyAny>,
                dealer: Option<&pyo3::Bound<'_, pyo3::PyAny>>,
            ) -> pyo3::PyResult<pyo3::Py<pyo3::PyAny>> {
                slf.as_super().get().new_state(slf.py(), seed, dealer)
            }
        }

        #[pyo3::pymethods]
        impl $state {
            /// The legal actions of the player to decide, sorted (empty at the end).
            fn legal_actions(slf: pyo3::PyRef<'_, Self>) -> Vec<u16> {
                slf.as_super().legal_actions_vec()
            }

            /// Applies an action of the player to decide; an illegal one raises
            /// IllegalActionError and leaves the state unchanged.
            fn apply_action(
                mut slf: pyo3::PyRefMut<'_, Self>,
                action: &pyo3::Bound<'_, pyo3::PyAny>,
            ) -> pyo3::PyResult<()> {
                slf.as_super().apply_current(action)
            }
        }
    };
}
pub(crate) use fast_path;

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
            e.set_item("win_rate", b.win_rate.mean)?;
            e.set_item("win_rate_ci", (b.win_rate.low(), b.win_rate.high()))?;
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
