//! Tonk's own Python classes: what only Tonk has on top of the shared
//! `Game`/`State`/`Bot` (see `game.rs`): its constructor, given deals, the
//! spreads, counts and settlement, its view and its action descriptions.

use cardtable_core::engine::Game as _;
use cardtable_core::games::registry::{AnyGame, AnyState};
use cardtable_core::games::tonk::{
    action as tonk_action, Action, Ending, Phase, Spread, TonkGame, TonkState, TonkView,
};
use cardtable_core::Card;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use pyo3::PyClassInitializer;

use crate::args;
use crate::cards::{card_from_any, cards_to_tuple, hand_from_any, PyCard};
use crate::errors::py_result;
use crate::errors::InvalidConfigError;
use crate::game::{options_from, PyBot, PyGame, PyState};
use crate::melds::PyDeadwood;
use crate::registry::state_object;

/// Tonk's parameters (rules specification §1); creates hands.
#[pyclass(
    name = "TonkGame",
    module = "cardtable._core",
    extends = PyGame,
    frozen,
    skip_from_py_object
)]
pub struct PyTonkGame;

fn tonk_of(game: &PyGame) -> PyResult<&TonkGame> {
    match &game.game {
        AnyGame::Tonk(g) => Ok(g),
        other => Err(PyTypeError::new_err(format!(
            "not a Tonk game: {}",
            other.name()
        ))),
    }
}

#[pymethods]
impl PyTonkGame {
    /// Tonk with rule options (keyword arguments, names as in TK-1..TK-13);
    /// unknown names, bad values and impossible combinations raise
    /// InvalidConfigError.
    #[new]
    #[pyo3(signature = (**options))]
    fn new(options: Option<&Bound<'_, PyDict>>) -> PyResult<PyClassInitializer<Self>> {
        let game = py_result(TonkGame::from_options(&options_from(options)?))?;
        Ok(PyClassInitializer::from(PyGame { game: game.into() }).add_subclass(PyTonkGame))
    }

    /// Cards dealt to each player.
    #[getter]
    fn hand_size(slf: &Bound<'_, Self>) -> PyResult<u8> {
        Ok(tonk_of(slf.as_super().get())?.config.hand_size)
    }

    /// The rules in play, in words: `(title, rule, text)` per point, as this
    /// configuration has them (what `?` shows in `play`).
    fn rules_summary(slf: &Bound<'_, Self>) -> PyResult<Vec<(&'static str, &'static str, String)>> {
        Ok(tonk_of(slf.as_super().get())?
            .config
            .rules_summary()
            .into_iter()
            .map(|p| (p.title, p.rule, p.text))
            .collect())
    }

    /// An amount of `stakes` basic stakes in money: every payment is a
    /// multiple of the `stake` option (TK-1.3). Settlements are given in
    /// stakes; `returns()` and a match's ledger are already in money.
    fn money(slf: &Bound<'_, Self>, stakes: &Bound<'_, PyAny>) -> PyResult<i64> {
        let config = &tonk_of(slf.as_super().get())?.config;
        args::int_or_none(stakes)?
            .and_then(|n| config.money(n))
            .ok_or_else(|| {
                InvalidConfigError::new_err(format!(
                    "{stakes} stakes of {} do not fit a 64-bit amount",
                    config.stake
                ))
            })
    }

    /// The dealer drawn for `seed` (TK-4.1).
    fn draw_for_dealer(slf: &Bound<'_, Self>, seed: &Bound<'_, PyAny>) -> PyResult<u8> {
        Ok(tonk_of(slf.as_super().get())?.draw_for_dealer(args::seed(seed)?))
    }

    /// A hand whose deal gives each seat these cards, this upcard, and these
    /// next stock cards (top first); the rest of the stock is in card order.
    #[pyo3(signature = (dealer, hands, upcard = None, stock_top = None))]
    fn state_from_hands(
        slf: &Bound<'_, Self>,
        dealer: &Bound<'_, PyAny>,
        hands: &Bound<'_, PyAny>,
        upcard: Option<&Bound<'_, PyAny>>,
        stock_top: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let base = slf.as_super().get();
        let mut hs = Vec::new();
        for h in hands.try_iter()? {
            hs.push(hand_from_any(&h?)?);
        }
        let up = upcard.map(card_from_any).transpose()?;
        let top = match stock_top {
            Some(t) => hand_from_any(t)?,
            None => Vec::new(),
        };
        let dealer = base.dealer_seat(dealer)?;
        let state = py_result(tonk_of(base)?.state_from_hands(dealer, &hs, up, &top))?;
        state_object(slf.py(), base.game.clone(), AnyState::Tonk(state))
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
        self.0.kind.name()
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
pub struct PyTonkView(pub TonkView);

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
        Phase::name(self.0.phase)
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
            Phase::name(self.0.phase),
            self.0
                .hand
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
        )
    }
}

crate::game::fast_path!(PyTonkGame, PyTonkState);
crate::registry::bind_classes!(TonkGame => PyTonkGame, PyTonkState, PyTonkView);

/// One hand of Tonk in progress (mutable; `clone()` copies it).
#[pyclass(name = "TonkState", module = "cardtable._core", extends = PyState, skip_from_py_object)]
pub struct PyTonkState;

fn tonk_state(state: &PyState) -> PyResult<&TonkState> {
    match &state.state {
        AnyState::Tonk(s) => Ok(s),
        _ => Err(PyTypeError::new_err("not a Tonk state")),
    }
}

#[pymethods]
impl PyTonkState {
    /// 'spades', 'drop_window', 'turn_start', 'play' or 'over'.
    #[getter]
    fn phase(slf: PyRef<'_, Self>) -> PyResult<&'static str> {
        Ok(Phase::name(tonk_state(slf.as_super())?.phase()))
    }

    #[getter]
    fn seed(slf: PyRef<'_, Self>) -> PyResult<u64> {
        Ok(tonk_state(slf.as_super())?.seed())
    }

    /// Whose turn it is (differs from `current_player` in drop windows and the spades bet).
    #[getter]
    fn turn_player(slf: PyRef<'_, Self>) -> PyResult<u8> {
        Ok(tonk_state(slf.as_super())?.turn_player())
    }

    /// A player's hand (full information: use `view` for what a seat sees).
    fn hand(slf: PyRef<'_, Self>, player: &Bound<'_, PyAny>) -> PyResult<Vec<PyCard>> {
        let base = slf.as_super();
        Ok(cards(&tonk_state(base)?.hand_cards(base.seat(player)?)))
    }

    /// A player's count (TK-3.2).
    fn count(slf: PyRef<'_, Self>, player: &Bound<'_, PyAny>) -> PyResult<u32> {
        let base = slf.as_super();
        Ok(tonk_state(base)?.count(base.seat(player)?))
    }

    #[getter]
    fn stock_size(slf: PyRef<'_, Self>) -> PyResult<usize> {
        Ok(tonk_state(slf.as_super())?.stock_size())
    }

    #[getter]
    fn discard_pile(slf: PyRef<'_, Self>) -> PyResult<Vec<PyCard>> {
        Ok(cards(tonk_state(slf.as_super())?.discard_pile()))
    }

    #[getter]
    fn spreads(slf: PyRef<'_, Self>) -> PyResult<Vec<PyTonkSpread>> {
        Ok(tonk_state(slf.as_super())?
            .spreads()
            .iter()
            .filter(|s| !s.cleared)
            .map(|&s| PyTonkSpread(s))
            .collect())
    }

    /// How the hand ended (None while it goes on).
    #[getter]
    fn ending<'py>(slf: PyRef<'_, Self>, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        tonk_state(slf.as_super())?
            .ending()
            .as_ref()
            .map(|e| ending_dict(py, e))
            .transpose()
    }

    /// The hand's settlement as (payer, payee, stakes) transfers (TK-10).
    fn settlement(slf: PyRef<'_, Self>) -> PyResult<Vec<(u8, u8, u32)>> {
        Ok(tonk_state(slf.as_super())?
            .settlement()
            .iter()
            .map(|t| (t.payer, t.payee, t.amount))
            .collect())
    }

    /// The transfers of `settlement()`, each with the rule that makes it:
    /// (payer, payee, stakes, reason).
    fn settlement_reasons(slf: PyRef<'_, Self>) -> PyResult<Vec<(u8, u8, u32, &'static str)>> {
        Ok(tonk_state(slf.as_super())?
            .settlement()
            .iter()
            .map(|t| (t.payer, t.payee, t.amount, t.reason))
            .collect())
    }

    /// The solver's best spreads of a player's hand and the count they leave
    /// (TK-3, TK-7); while that player is to play, also the best discard.
    fn best_arrangement(slf: PyRef<'_, Self>, player: &Bound<'_, PyAny>) -> PyResult<PyDeadwood> {
        let base = slf.as_super();
        let seat = base.seat(player)?;
        let sol = py_result(tonk_state(base)?.best_arrangement(seat))?;
        Ok(PyDeadwood::from_solution(&sol))
    }

    /// Why `action` (an action id) is not legal now: None when it is legal,
    /// otherwise `(rule, reason)`: the rule ID of the rules specification
    /// that forbids it (e.g. 'TK-6.10') and one sentence the player can act
    /// on, naming cards as '7H'. The same refusal is the message of the
    /// IllegalActionError that `apply_action` raises. An integer that is no
    /// action raises IllegalActionError.
    fn refusal(
        slf: PyRef<'_, Self>,
        action: &Bound<'_, PyAny>,
    ) -> PyResult<Option<(&'static str, String)>> {
        let act = py_result(Action::decode(args::action(action, tonk_action::COUNT)?))?;
        Ok(tonk_state(slf.as_super())?
            .refusal(act)
            .map(|r| (r.rule, r.reason)))
    }

    /// Whether `action`, legal now, could be taken back by the player after
    /// making it, so that a UI can offer undo: True only for a take of the
    /// discard, a spread or a hit that shows the player no hidden card and
    /// after which the hand goes on with the same player still to decide in
    /// the same turn. False for a draw from the stock, a discard, a drop, a
    /// pass, a 49 claim, the spades bet, anything that ends the turn or the
    /// hand, an illegal action and any integer that is no action.
    fn can_take_back(slf: PyRef<'_, Self>, action: &Bound<'_, PyAny>) -> PyResult<bool> {
        let state = tonk_state(slf.as_super())?;
        Ok(args::int_or_none(action)?
            .and_then(|a| u16::try_from(a).ok())
            .and_then(|a| Action::decode(a).ok())
            .is_some_and(|act| state.can_take_back(act)))
    }

    /// The spades side bet's settlement (TK-11.3).
    fn side_bet_settlement(slf: PyRef<'_, Self>) -> PyResult<Vec<(u8, u8, u32)>> {
        Ok(tonk_state(slf.as_super())?
            .side_bet_settlement()
            .iter()
            .map(|t| (t.payer, t.payee, t.amount))
            .collect())
    }
}

/// A Tonk bot: 'random', 'greedy[:drop_at]' or 'strong[:samples]'.
#[pyclass(name = "TonkBot", module = "cardtable._core", extends = PyBot)]
pub struct PyTonkBot;

#[pymethods]
impl PyTonkBot {
    #[new]
    fn new(kind: &str, seed: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        let game = AnyGame::Tonk(py_result(TonkGame::from_options(&[]))?);
        let bot = PyBot::of(&game, kind, args::seed(seed)?)?;
        Ok(PyClassInitializer::from(bot).add_subclass(PyTonkBot))
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
        let cards = shape.cards();
        d.set_item("cards", cards_to_tuple(py, &cards)?)?;
    }
    d.set_item("text", a.to_string())?;
    Ok(d)
}
