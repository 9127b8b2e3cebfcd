//! Tonk: game, state, views, bots, matches, simulation and records.

use cardtable_core::bots::tonk::{record_of, Bot};
use cardtable_core::bots::BotSpec;
use cardtable_core::engine::arena::Arena;
use cardtable_core::games::tonk::{
    action as tonk_action, parse_action, Action, Ending, Phase, Spread, TonkGame, TonkMatch,
    TonkRecord, TonkState, TonkView, OPTION_NAMES, SCHEMA,
};
use cardtable_core::games::OptionValue;
use cardtable_core::meld::MeldKind;
use cardtable_core::Card;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyInt, PyList, PyString, PyTuple};

use crate::args;
use crate::batch::{run_detached, threads_arg};
use crate::cards::{card_from_any, cards_to_tuple, hand_from_any, PyCard};
use crate::errors::{py_result, InvalidConfigError};
use crate::options::{self, PyOptionSpec};

fn option_value(key: &str, v: &Bound<'_, PyAny>) -> PyResult<OptionValue> {
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

fn options_from(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, OptionValue)>> {
    let mut out = Vec::new();
    if let Some(d) = kwargs {
        for (k, v) in d.iter() {
            let key: String = k.extract()?;
            out.push((key.clone(), option_value(&key, &v)?));
        }
    }
    Ok(out)
}

fn options_dict<'py>(
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

/// Tonk's parameters (rules specification §1); creates hands.
#[pyclass(
    name = "TonkGame",
    module = "cardtable._core",
    frozen,
    skip_from_py_object
)]
#[derive(Clone)]
pub struct PyTonkGame {
    pub game: TonkGame,
}

#[pymethods]
impl PyTonkGame {
    /// Tonk with rule options (keyword arguments, names as in TK-1..TK-13);
    /// unknown names, bad values and impossible combinations raise
    /// InvalidConfigError.
    #[new]
    #[pyo3(signature = (**options))]
    fn new(options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let opts = options_from(options)?;
        Ok(PyTonkGame {
            game: py_result(TonkGame::from_options(&opts))?,
        })
    }

    /// Every option name.
    #[staticmethod]
    fn option_names() -> Vec<&'static str> {
        OPTION_NAMES.to_vec()
    }

    /// Every way a hand can end (`TonkState.ending["category"]`), in report order.
    #[staticmethod]
    fn ending_categories() -> Vec<&'static str> {
        Ending::CATEGORIES.to_vec()
    }

    /// Every option with the values it takes, its help text and its rule ID.
    #[staticmethod]
    fn option_schema() -> Vec<PyOptionSpec> {
        options::schema(SCHEMA.options)
    }

    #[getter]
    fn players(&self) -> usize {
        self.game.players()
    }

    /// Cards dealt to each player.
    #[getter]
    fn hand_size(&self) -> u8 {
        self.game.config.hand_size
    }

    /// Every option with its value.
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        options_dict(py, &self.game.config.to_options())
    }

    fn num_distinct_actions(&self) -> usize {
        self.game.num_distinct_actions()
    }

    /// Length of `TonkState.observation`.
    fn observation_size(&self) -> usize {
        TonkState::observation_size(self.game.players())
    }

    /// The dealer drawn for `seed` (TK-4.1).
    fn draw_for_dealer(&self, seed: &Bound<'_, PyAny>) -> PyResult<u8> {
        Ok(self.game.draw_for_dealer(args::seed(seed)?))
    }

    /// A new hand dealt from `seed`; without a dealer one is drawn (TK-4.1).
    #[pyo3(signature = (seed, dealer = None))]
    fn new_initial_state(
        &self,
        seed: &Bound<'_, PyAny>,
        dealer: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyTonkState> {
        let dealer = dealer.map(|d| self.dealer_seat(d)).transpose()?;
        Ok(PyTonkState {
            state: py_result(self.game.new_initial_state(args::seed(seed)?, dealer))?,
        })
    }

    /// A hand dealt from a given deck order (52 cards, top first).
    fn state_from_deck(
        &self,
        deck: &Bound<'_, PyAny>,
        dealer: &Bound<'_, PyAny>,
    ) -> PyResult<PyTonkState> {
        let cards = hand_from_any(deck)?;
        Ok(PyTonkState {
            state: py_result(self.game.state_from_deck(&cards, self.dealer_seat(dealer)?))?,
        })
    }

    /// A hand whose deal gives each seat these cards, this upcard, and these
    /// next stock cards (top first); the rest of the stock is in card order.
    #[pyo3(signature = (dealer, hands, upcard = None, stock_top = None))]
    fn state_from_hands(
        &self,
        dealer: &Bound<'_, PyAny>,
        hands: &Bound<'_, PyAny>,
        upcard: Option<&Bound<'_, PyAny>>,
        stock_top: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyTonkState> {
        let mut hs = Vec::new();
        for h in hands.try_iter()? {
            hs.push(hand_from_any(&h?)?);
        }
        let up = upcard.map(card_from_any).transpose()?;
        let top = match stock_top {
            Some(t) => hand_from_any(t)?,
            None => Vec::new(),
        };
        let dealer = self.dealer_seat(dealer)?;
        Ok(PyTonkState {
            state: py_result(self.game.state_from_hands(dealer, &hs, up, &top))?,
        })
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let defaults = TonkGame::from_options(&[])
            .map(|g| g.config.to_options())
            .unwrap_or_default();
        let mut parts = Vec::new();
        for (k, v) in self.game.config.to_options() {
            if defaults.iter().any(|(dk, dv)| *dk == k && *dv == v) {
                continue;
            }
            let obj = options_dict(py, &[(k.clone(), v)])?.get_item(&k)?;
            if let Some(o) = obj {
                parts.push(format!("{k}={}", o.repr()?));
            }
        }
        Ok(format!("TonkGame({})", parts.join(", ")))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyTonkGame>()
            .is_ok_and(|o| o.get().game == self.game)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.game.config.hash(&mut h);
        h.finish()
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyDict>,))> {
        let py = slf.py();
        let rebuild = py.import("cardtable._core")?.getattr("_tonk_game")?;
        Ok((rebuild, (slf.get().options(py)?,)))
    }
}

impl PyTonkGame {
    fn dealer_seat(&self, v: &Bound<'_, PyAny>) -> PyResult<u8> {
        args::seat(v, self.game.config.players, "dealer seat")
    }
}

/// Rebuilds a pickled `TonkGame`.
#[pyfunction]
#[pyo3(name = "_tonk_game")]
pub fn tonk_game_from(options: &Bound<'_, PyDict>) -> PyResult<PyTonkGame> {
    PyTonkGame::new(Some(options))
}

fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Spades => "spades",
        Phase::Window => "drop_window",
        Phase::TurnStart => "turn_start",
        Phase::Play => "play",
        Phase::Over => "over",
    }
}

/// A spread on the table, with its stable id.
#[pyclass(
    name = "TonkSpread",
    module = "cardtable._core",
    frozen,
    eq,
    skip_from_py_object
)]
#[derive(Clone, PartialEq, Eq)]
pub struct PyTonkSpread(pub Spread);

#[pymethods]
impl PyTonkSpread {
    #[getter]
    fn id(&self) -> u8 {
        self.0.id
    }

    #[getter]
    fn owner(&self) -> u8 {
        self.0.owner
    }

    /// 'set' (book) or 'run'.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.0.kind {
            MeldKind::Set => "set",
            MeldKind::Run => "run",
        }
    }

    /// Cards in order (runs low to high).
    #[getter]
    fn cards<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        cards_to_tuple(py, &self.0.cards_vec())
    }

    /// Cards added by hits.
    #[getter]
    fn hits(&self) -> u8 {
        self.0.hits
    }

    fn __repr__(&self) -> String {
        let cards: Vec<String> = self.0.cards_vec().iter().map(ToString::to_string).collect();
        format!(
            "<TonkSpread S{} of seat {}: {}>",
            self.0.id,
            self.0.owner,
            cards.join(" ")
        )
    }
}

fn ending_dict<'py>(py: Python<'py>, e: &Ending) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("category", e.category())?;
    match *e {
        Ending::TonkOut {
            player,
            paid,
            double_double,
        } => {
            d.set_item("player", player)?;
            d.set_item("paid", paid)?;
            d.set_item("double_double", double_double)?;
        }
        Ending::OutByDiscard { player } => d.set_item("player", player)?,
        Ending::Drop { player, caught } => {
            d.set_item("player", player)?;
            d.set_item("caught", caught)?;
        }
        Ending::StockOut { winner } | Ending::Stalled { winner } => d.set_item("winner", winner)?,
        Ending::DealWin { player, paid } => {
            d.set_item("player", player)?;
            d.set_item("paid", paid)?;
        }
        Ending::Void { stock_out } => d.set_item("stock_out", stock_out)?,
    }
    Ok(d)
}

/// What one seat may see of a hand: never a card hidden from it.
#[pyclass(
    name = "TonkView",
    module = "cardtable._core",
    frozen,
    skip_from_py_object
)]
pub struct PyTonkView(TonkView);

fn cards(v: &[Card]) -> Vec<PyCard> {
    v.iter().map(|&c| PyCard(c)).collect()
}

#[pymethods]
impl PyTonkView {
    #[getter]
    fn seat(&self) -> u8 {
        self.0.seat
    }
    #[getter]
    fn players(&self) -> u8 {
        self.0.players
    }
    #[getter]
    fn dealer(&self) -> u8 {
        self.0.dealer
    }
    /// 'spades', 'drop_window', 'turn_start', 'play' or 'over'.
    #[getter]
    fn phase(&self) -> &'static str {
        phase_name(self.0.phase)
    }
    #[getter]
    fn current_player(&self) -> Option<u8> {
        self.0.current_player
    }
    #[getter]
    fn turn_player(&self) -> u8 {
        self.0.turn_player
    }
    #[getter]
    fn hand(&self) -> Vec<PyCard> {
        cards(&self.0.hand)
    }
    #[getter]
    fn hand_sizes(&self) -> Vec<u32> {
        self.0.hand_sizes.iter().map(|&x| u32::from(x)).collect()
    }
    /// Bottom card first.
    #[getter]
    fn discard_pile(&self) -> Vec<PyCard> {
        cards(&self.0.discard_pile)
    }
    #[getter]
    fn top_discard(&self) -> Option<PyCard> {
        self.0.discard_pile.last().map(|&c| PyCard(c))
    }
    #[getter]
    fn stock_size(&self) -> usize {
        self.0.stock_size
    }
    #[getter]
    fn spreads(&self) -> Vec<PyTonkSpread> {
        self.0.spreads.iter().map(|&s| PyTonkSpread(s)).collect()
    }
    /// Hit-lock counters per seat (TK-8.4).
    #[getter]
    fn locks(&self) -> Vec<u32> {
        self.0.locks.iter().map(|&x| u32::from(x)).collect()
    }
    /// True when the player whose turn it is cannot drop this turn.
    #[getter]
    fn turn_locked(&self) -> bool {
        self.0.turn_locked
    }
    #[getter]
    fn stock_draws(&self) -> Vec<u32> {
        self.0.stock_draws.iter().map(|&x| u32::from(x)).collect()
    }
    /// Cards of each other player's hand that everyone knows (taken from the
    /// discard pile, or shown for the spades bet); empty for this seat.
    #[getter]
    fn known_cards(&self) -> Vec<Vec<PyCard>> {
        self.0.known_cards.iter().map(|v| cards(v)).collect()
    }
    /// Seats in the spades side bet.
    #[getter]
    fn spades_in(&self) -> Vec<u32> {
        (0..self.0.players)
            .filter(|p| self.0.spades_in & (1 << p) != 0)
            .map(u32::from)
            .collect()
    }
    #[getter]
    fn spades_shown(&self) -> Vec<Option<PyCard>> {
        self.0.spades_shown.iter().map(|c| c.map(PyCard)).collect()
    }
    /// Hands shown at the end (None for hands not shown).
    #[getter]
    fn shown_hands(&self) -> Vec<Option<Vec<PyCard>>> {
        self.0
            .shown_hands
            .iter()
            .map(|h| h.as_ref().map(|v| cards(v)))
            .collect()
    }
    #[getter]
    fn ending<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.0
            .ending
            .as_ref()
            .map(|e| ending_dict(py, e))
            .transpose()
    }
    #[getter]
    fn returns(&self) -> Option<Vec<i64>> {
        self.0.returns.clone()
    }
    /// This seat's legal actions (empty when it is not its decision).
    #[getter]
    fn legal_actions(&self) -> Vec<u16> {
        self.0.legal_actions.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "<TonkView seat {} phase {} hand {:?}>",
            self.0.seat,
            phase_name(self.0.phase),
            self.0
                .hand
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
        )
    }
}

/// One hand of Tonk in progress (mutable; `clone()` copies it).
#[pyclass(name = "TonkState", module = "cardtable._core", skip_from_py_object)]
#[derive(Clone)]
pub struct PyTonkState {
    pub state: TonkState,
}

#[pymethods]
impl PyTonkState {
    /// The player to decide; None once the hand is over.
    fn current_player(&self) -> Option<u8> {
        self.state.current_player()
    }

    /// Legal actions, sorted.
    fn legal_actions(&self) -> Vec<u16> {
        self.state.legal_actions()
    }

    /// Whether `action` is legal now (False for any integer that is not an action).
    fn is_legal(&self, action: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(args::int_or_none(action)?
            .and_then(|a| u16::try_from(a).ok())
            .is_some_and(|a| self.state.is_legal(a)))
    }

    /// Applies an action; an illegal one raises IllegalActionError and
    /// leaves the state unchanged.
    fn apply_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let a = args::action(action, tonk_action::COUNT)?;
        py_result(self.state.apply_action(a))
    }

    fn is_terminal(&self) -> bool {
        self.state.is_terminal()
    }

    /// Stake won by each player (zero-sum; zero until the end except a settled side bet).
    fn returns(&self) -> Vec<i64> {
        self.state.returns()
    }

    fn history(&self) -> Vec<u16> {
        self.state.history().to_vec()
    }

    fn clone(&self) -> PyTonkState {
        self.clone_impl()
    }

    fn __copy__(&self) -> PyTonkState {
        self.clone_impl()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyTonkState {
        self.clone_impl()
    }

    /// Text of an action, e.g. 'discard 7H', 'hit 8H S2', 'spread 5H 6H 7H'.
    #[staticmethod]
    fn action_to_string(action: &Bound<'_, PyAny>) -> PyResult<String> {
        py_result(TonkState::action_to_string(args::action(
            action,
            tonk_action::COUNT,
        )?))
    }

    /// The action a text names (the inverse of `action_to_string`).
    #[staticmethod]
    fn string_to_action(text: &str) -> PyResult<u16> {
        Ok(py_result(parse_action(text))?.encode())
    }

    /// 'spades', 'drop_window', 'turn_start', 'play' or 'over'.
    #[getter]
    fn phase(&self) -> &'static str {
        phase_name(self.state.phase())
    }

    #[getter]
    fn seed(&self) -> u64 {
        self.state.seed()
    }

    #[getter]
    fn dealer(&self) -> u8 {
        self.state.dealer()
    }

    #[getter]
    fn players(&self) -> u8 {
        self.state.config().players
    }

    /// Whose turn it is (differs from `current_player` in drop windows and the spades bet).
    #[getter]
    fn turn_player(&self) -> u8 {
        self.state.turn_player()
    }

    /// A player's hand (full information: use `view` for what a seat sees).
    fn hand(&self, player: &Bound<'_, PyAny>) -> PyResult<Vec<PyCard>> {
        Ok(cards(&self.state.hand_cards(self.seat(player)?)))
    }

    /// A player's count (TK-3.2).
    fn count(&self, player: &Bound<'_, PyAny>) -> PyResult<u32> {
        Ok(self.state.count(self.seat(player)?))
    }

    #[getter]
    fn stock_size(&self) -> usize {
        self.state.stock_size()
    }

    #[getter]
    fn discard_pile(&self) -> Vec<PyCard> {
        cards(self.state.discard_pile())
    }

    #[getter]
    fn spreads(&self) -> Vec<PyTonkSpread> {
        self.state
            .spreads()
            .iter()
            .filter(|s| !s.cleared)
            .map(|&s| PyTonkSpread(s))
            .collect()
    }

    /// How the hand ended (None while it goes on).
    #[getter]
    fn ending<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.state
            .ending()
            .as_ref()
            .map(|e| ending_dict(py, e))
            .transpose()
    }

    /// The hand's settlement as (payer, payee, stakes) transfers (TK-10).
    fn settlement(&self) -> Vec<(u8, u8, u32)> {
        self.state
            .settlement()
            .iter()
            .map(|t| (t.payer, t.payee, t.amount))
            .collect()
    }

    /// The transfers of `settlement()`, each with the rule that makes it:
    /// (payer, payee, stakes, reason).
    fn settlement_reasons(&self) -> Vec<(u8, u8, u32, &'static str)> {
        self.state
            .settlement()
            .iter()
            .map(|t| (t.payer, t.payee, t.amount, t.reason))
            .collect()
    }

    /// The spades side bet's settlement (TK-11.3).
    fn side_bet_settlement(&self) -> Vec<(u8, u8, u32)> {
        self.state
            .side_bet_settlement()
            .iter()
            .map(|t| (t.payer, t.payee, t.amount))
            .collect()
    }

    /// What `player` may see.
    fn view(&self, player: &Bound<'_, PyAny>) -> PyResult<PyTonkView> {
        Ok(PyTonkView(self.state.view(self.seat(player)?)))
    }

    /// A flat float32 numpy observation from `player`'s point of view (layout
    /// in the documentation of `cardtable.games.tonk`); needs numpy.
    fn observation<'py>(
        &self,
        py: Python<'py>,
        player: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let player = self.seat(player)?;
        let np = py.import("numpy").map_err(|_| {
            pyo3::exceptions::PyImportError::new_err(
                "observation returns a numpy array: pip install numpy",
            )
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
        player: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
    ) -> PyResult<PyTonkState> {
        let player = self.seat(player)?;
        let mut rng = cardtable_core::GameRng::new(args::seed(seed)?);
        Ok(PyTonkState {
            state: self.state.determinize(player, &mut rng),
        })
    }

    /// The hand as a replayable JSON record (`players` names each seat). A
    /// state made by `determinize` has none (its hidden cards were re-dealt).
    #[pyo3(signature = (players = None))]
    fn to_record(&self, players: Option<Vec<String>>) -> PyResult<String> {
        let names =
            players.unwrap_or_else(|| vec!["?".into(); usize::from(self.state.config().players)]);
        Ok(py_result(TonkRecord::from_state(&self.state, names))?.to_json())
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let py = slf.py();
        let rebuild = py
            .import("cardtable._core")?
            .getattr("replay_tonk_record")?;
        Ok((rebuild, (slf.borrow().to_record(None)?,)))
    }

    fn __repr__(&self) -> String {
        format!(
            "<TonkState seed {} dealer {} phase {} history {} actions>",
            self.state.seed(),
            self.state.dealer(),
            phase_name(self.state.phase()),
            self.state.history().len()
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyTonkState>()
            .is_ok_and(|o| o.borrow().state == self.state)
    }
}

impl PyTonkState {
    fn clone_impl(&self) -> PyTonkState {
        PyTonkState {
            state: self.state.clone(),
        }
    }

    fn seat(&self, player: &Bound<'_, PyAny>) -> PyResult<u8> {
        args::seat(player, self.state.config().players, "seat")
    }
}

/// Re-runs a recorded hand (one JSON line) and checks its result.
#[pyfunction]
pub fn replay_tonk_record(line: &str) -> PyResult<PyTonkState> {
    let rec = py_result(TonkRecord::from_json(line))?;
    Ok(PyTonkState {
        state: py_result(rec.replay())?,
    })
}

/// A Rust bot: 'random', 'greedy[:drop_at]' or 'strong[:samples]'.
#[pyclass(name = "TonkBot", module = "cardtable._core")]
pub struct PyTonkBot {
    bot: Bot,
    spec: BotSpec,
}

#[pymethods]
impl PyTonkBot {
    #[new]
    fn new(kind: &str, seed: &Bound<'_, PyAny>) -> PyResult<Self> {
        let spec = py_result(BotSpec::parse(kind))?;
        Ok(PyTonkBot {
            bot: Bot::new(spec, args::seed(seed)?),
            spec,
        })
    }

    #[getter]
    fn name(&self) -> String {
        self.spec.name()
    }

    /// The bot's action for the player to move (it looks only at that seat's
    /// view); always legal. A finished hand raises GameOverError.
    fn act(&mut self, py: Python<'_>, state: &PyTonkState) -> PyResult<u16> {
        if state.state.is_terminal() {
            return Err(crate::errors::GameOverError::new_err("the hand is over"));
        }
        let s = state.state.clone();
        let bot = &mut self.bot;
        py_result(py.detach(|| bot.act(&s)))
    }

    fn __repr__(&self) -> String {
        format!("TonkBot('{}')", self.spec.name())
    }
}

/// A sequence of hands with the dealer passing left and a running ledger.
#[pyclass(name = "TonkMatch", module = "cardtable._core")]
pub struct PyTonkMatch(TonkMatch);

#[pymethods]
impl PyTonkMatch {
    #[new]
    fn new(game: &PyTonkGame, seed: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyTonkMatch(TonkMatch::new(game.game, args::seed(seed)?)))
    }

    /// The next hand, dealt by the current dealer.
    fn next_hand(&self) -> PyResult<PyTonkState> {
        Ok(PyTonkState {
            state: py_result(self.0.next_hand())?,
        })
    }

    /// Books a finished hand into the ledger and passes the deal left.
    fn record(&mut self, hand: &PyTonkState) -> PyResult<()> {
        py_result(self.0.record(&hand.state))
    }

    #[getter]
    fn ledger(&self) -> Vec<i64> {
        self.0.ledger.clone()
    }

    #[getter]
    fn dealer(&self) -> u8 {
        self.0.dealer
    }

    #[getter]
    fn hands_played(&self) -> u64 {
        self.0.hands_played
    }

    #[getter]
    fn seed(&self) -> u64 {
        self.0.seed
    }
}

/// A bot-against-bot run, played in pieces so callers can report progress.
#[pyclass(name = "TonkSimulation", module = "cardtable._core")]
pub struct PyTonkSimulation(Arena<TonkGame>);

#[pymethods]
impl PyTonkSimulation {
    /// `games` games (rounded up to whole seat rotations) of `bots` (one per seat).
    #[new]
    fn new(
        game: &PyTonkGame,
        bots: Vec<String>,
        games: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let seed = args::seed(seed)?;
        let games = args::count(games, "games")?;
        let specs = bots
            .iter()
            .map(|b| py_result(BotSpec::parse(b)))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(PyTonkSimulation(py_result(Arena::new(
            game.game, specs, games, seed,
        ))?))
    }

    #[getter]
    fn total(&self) -> u64 {
        self.0.total
    }

    #[getter]
    fn done(&self) -> u64 {
        self.0.done
    }

    /// Plays up to `count` more games; with `record`, returns their JSON records.
    #[pyo3(signature = (count, threads = None, record = false))]
    fn step(
        &mut self,
        py: Python<'_>,
        count: &Bound<'_, PyAny>,
        threads: Option<&Bound<'_, PyAny>>,
        record: bool,
    ) -> PyResult<Vec<String>> {
        let count = args::count(count, "count")?;
        let run = &mut self.0;
        let threads = threads_arg(threads)?;
        let recs = run_detached(py, threads, || run.step(count))?;
        let recs = py_result(recs)?;
        py.check_signals()?;
        Ok(if record {
            recs.iter()
                .map(|r| record_of(&self.0.game, r, &self.0.specs).to_json())
                .collect()
        } else {
            Vec::new()
        })
    }

    /// Results so far: per bot win rate and stakes per game with 95%
    /// confidence intervals (deals as paired observations), and endings.
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.0.summary();
        let d = PyDict::new(py);
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
            bots.append(e)?;
        }
        d.set_item("bots", bots)?;
        let endings = PyDict::new(py);
        for (k, v) in &s.endings {
            endings.set_item(k, v)?;
        }
        d.set_item("endings", endings)?;
        Ok(d)
    }

    /// Paired difference of stakes per game between bots `a` and `b` (index
    /// in the bot list): (mean, low, high) of a 95% confidence interval.
    fn stake_difference(&self, a: usize, b: usize) -> PyResult<(f64, f64, f64)> {
        if a >= self.0.specs.len() || b >= self.0.specs.len() {
            return Err(PyTypeError::new_err("bot index out of range"));
        }
        let e = self.0.stake_difference(a, b);
        Ok((e.mean, e.low(), e.high()))
    }
}

/// Decodes an action into a dict describing it (for UIs).
#[pyfunction]
pub fn describe_tonk_action<'py>(
    py: Python<'py>,
    action: &Bound<'_, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let a = py_result(Action::decode(args::action(action, tonk_action::COUNT)?))?;
    let d = PyDict::new(py);
    let (kind, card, spread): (&str, Option<Card>, Option<u8>) = match a {
        Action::Discard(c) => ("discard", Some(c), None),
        Action::DrawStock => ("draw", None, None),
        Action::TakeDiscard => ("take", None, None),
        Action::Drop => ("drop", None, None),
        Action::Pass => ("pass", None, None),
        Action::Claim49 => ("claim_49", None, None),
        Action::SpadesIn => ("spades_in", None, None),
        Action::SpadesOut => ("spades_out", None, None),
        Action::LaySpread(_) => ("spread", None, None),
        Action::Hit { spread, card } => ("hit", Some(card), Some(spread)),
    };
    d.set_item("kind", kind)?;
    d.set_item("card", card.map(PyCard))?;
    d.set_item("spread", spread)?;
    if let Action::LaySpread(i) = a {
        let shape = cardtable_core::games::tonk::spread_catalogue()[usize::from(i)];
        let cards: Vec<Card> = match shape.kind {
            MeldKind::Run => (shape.lo..=shape.hi)
                .filter_map(|r| {
                    Card::new(
                        if r == 14 { 1 } else { r },
                        cardtable_core::Suit::from_index(shape.suit)?,
                    )
                    .ok()
                })
                .collect(),
            MeldKind::Set => (0..52u8)
                .filter(|c| shape.mask & (1u64 << c) != 0)
                .filter_map(|c| Card::from_code(c).ok())
                .collect(),
        };
        d.set_item("cards", cards_to_tuple(py, &cards)?)?;
    }
    d.set_item("text", a.to_string())?;
    Ok(d)
}
