//! The Python classes every game shares, over the core's registry
//! (`AnyGame`, `AnyState`, ...): `Game` and `State` with the whole engine
//! contract (legal actions, refusals, action descriptions, take-backs,
//! views), `load_game` and `replay_record`. A game's own class (e.g.
//! `TonkGame`) subclasses `Game`/`State` for what only it has; which class
//! wraps which game is decided in `registry.rs`. The drivers (`Bot`,
//! `Match`, `Simulation`) are in `play.rs`.

use cardtable_core::engine::record::Record;
use cardtable_core::games::registry::{self, AnyGame, AnyState};
use pyo3::exceptions::PyImportError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};

use crate::actions::PyActionInfo;
use crate::args;
use crate::cards::hand_from_any;
use crate::detach::detached;
use crate::errors::{py_result, InvalidConfigError};
use crate::options::{self, options_dict, options_from, PyOptionSpec};
use crate::registry::{game_object, state_object, view_object};

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

/// The games with melds, then the other names of their meld rules (`gin`):
/// what `MeldRules(game)`, `score --game` and `deal --game` take.
#[pyfunction]
pub fn meld_game_names() -> Vec<&'static str> {
    cardtable_core::games::presets::meld_game_names()
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

    /// The fewest seats this game may have (OpenSpiel's `min_num_players`).
    #[getter]
    fn min_players(&self) -> u8 {
        *self.game.player_range().start()
    }

    /// The most seats this game may have (OpenSpiel's `max_num_players`).
    #[getter]
    fn max_players(&self) -> u8 {
        *self.game.player_range().end()
    }

    /// The ladder of levels people pick opponents by, weakest first:
    /// (level, bot spec) for 'easy', 'normal', 'hard' and 'expert'. `Bot`
    /// reads a level as the spec it stands for.
    fn bot_levels(&self) -> Vec<(&'static str, &'static str)> {
        self.game.bot_levels().to_vec()
    }

    /// The rules in play, in words: `(title, rule, text)` per point (the
    /// goal, the card values, the phases, the variants in force), as this
    /// configuration has them (what `?` shows in `play`).
    fn rules_summary(&self) -> Vec<(&'static str, &'static str, String)> {
        self.game
            .rules_summary()
            .into_iter()
            .map(|p| (p.title, p.rule, p.text))
            .collect()
    }

    /// A spec of every kind of bot the game has (each one `Bot` reads).
    fn example_bots(&self) -> Vec<&'static str> {
        self.game.example_bots().to_vec()
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
    /// `new_initial_state()`: also each game's class's own (see `redeclare_hot_methods!`).
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

    /// Why `action` (an action id) is not legal for `seat` now (default:
    /// the seat to decide): None exactly when it is legal, otherwise
    /// `(rule, reason)`: the rule ID that forbids it (e.g. 'TK-6.10') and
    /// one sentence the player can act on. The same for every game, turn
    /// by turn or real time; in a real-time game give the seat. An integer
    /// that is no action raises IllegalActionError, a seat not at the table
    /// InvalidConfigError.
    #[pyo3(signature = (action, seat = None))]
    fn refusal(
        &self,
        action: &Bound<'_, PyAny>,
        seat: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<(&'static str, String)>> {
        let action = args::action(action, action_count(&self.game))?;
        let seat = self.acting_seat(seat)?;
        Ok(self.state.refusal(seat, action).map(|r| (r.rule, r.reason)))
    }

    /// What `action` is, for a table or a story: its kind, its cards, the
    /// seat, meld or pile it concerns, and its text (an `ActionInfo`). In a
    /// real-time game give the seat whose card it would move. An integer
    /// that is no action raises IllegalActionError.
    #[pyo3(signature = (action, seat = None))]
    fn describe_action(
        &self,
        action: &Bound<'_, PyAny>,
        seat: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyActionInfo> {
        let action = args::action(action, action_count(&self.game))?;
        let seat = self.acting_seat(seat)?;
        Ok(PyActionInfo(py_result(
            self.state.describe_action(seat, action),
        )?))
    }

    /// Whether the player to decide could take `action` back after making
    /// it, so that a front end can offer undo: it shows the player no hidden
    /// card and the same player goes on deciding in the same turn (taking
    /// the discard, laying a meld that does not empty the hand). False for
    /// a draw from the stock, a discard, anything that ends the turn, an
    /// illegal action, any integer that is no action, and in games where no
    /// move may be taken back.
    fn can_take_back(&self, action: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(args::int_or_none(action)?
            .and_then(|a| u16::try_from(a).ok())
            .is_some_and(|a| self.state.can_take_back(a)))
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
    /// `legal_actions()`: also each game's class's own (see `redeclare_hot_methods!`).
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

    /// The seat a contract call is about: the one given, else the seat to
    /// decide (any seat of a finished game: each refuses alike). A real-time
    /// game has no single seat to decide, so there it must be given.
    fn acting_seat(&self, seat: Option<&Bound<'_, PyAny>>) -> PyResult<u8> {
        if let Some(s) = seat {
            return self.seat(s);
        }
        if let Some(s) = self.state.current_player() {
            return Ok(s);
        }
        if self.game.is_real_time() && !self.state.is_terminal() {
            return Err(InvalidConfigError::new_err((
                format!(
                    "{} is played in real time, several seats at once: give the seat",
                    self.game.name()
                ),
                "seat",
            )));
        }
        Ok(0)
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
macro_rules! redeclare_hot_methods {
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
pub(crate) use redeclare_hot_methods;
