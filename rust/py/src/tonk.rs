//! Tonk's own Python classes: what only Tonk has on top of the shared
//! `Game`/`State`/`Bot` (see `game.rs`): its constructor, given deals, the
//! spreads, counts and settlement, its view and its action descriptions.

use cardtable_core::engine::Game as _;
use cardtable_core::games::registry::{AnyGame, AnyState};
use cardtable_core::games::tonk::{Ending, Phase, Spread, TonkGame, TonkState, TonkView};
use cardtable_core::Card;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use pyo3::PyClassInitializer;

use crate::args;
use crate::cards::{card_from_any, cards_to_tuple, hand_from_any, PyCard};
use crate::errors::py_result;
use crate::errors::InvalidConfigError;
use crate::melds::PyDeadwood;
use crate::play::PyBot;
use crate::registry::state_object;

crate::registry::game_classes! {
    /// Tonk's parameters (rules specification §1); creates hands.
    game PyTonkGame = "TonkGame";
    /// One hand of Tonk in progress (mutable; `clone()` copies it).
    state PyTonkState = "TonkState";
    view PyTonkView;
    core Tonk(TonkGame, TonkState);
}

#[pymethods]
impl PyTonkGame {
    /// Cards dealt to each player.
    #[getter]
    fn hand_size(slf: &Bound<'_, Self>) -> PyResult<u8> {
        Ok(game_of(slf.as_super().get())?.config.hand_size)
    }

    /// An amount of `stakes` basic stakes in money: every payment is a
    /// multiple of the `stake` option (TK-1.3). Settlements are given in
    /// stakes; `returns()` and a match's ledger are already in money.
    fn money(slf: &Bound<'_, Self>, stakes: &Bound<'_, PyAny>) -> PyResult<i64> {
        let config = &game_of(slf.as_super().get())?.config;
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
        Ok(game_of(slf.as_super().get())?.draw_for_dealer(args::seed(seed)?))
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
        let state = py_result(game_of(base)?.state_from_hands(dealer, &hs, up, &top))?;
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

crate::view_getters::view_getters!(PyTonkSpread {
    id,
    owner,
    /// 'set' (book) or 'run'.
    kind: &'static str = |v| v.kind.name(),
    /// Cards added by hits.
    hits,
});

#[pymethods]
impl PyTonkSpread {
    /// Cards in order (runs low to high).
    #[getter]
    fn cards<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        cards_to_tuple(py, &self.0.cards_vec())
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

crate::view_getters::view_getters!(PyTonkView {
    seat,
    players,
    dealer,
    /// 'spades', 'drop_window', 'turn_start', 'play' or 'over'.
    phase: &'static str = |v| Phase::name(v.phase),
    current_player,
    turn_player,
    hand,
    hand_sizes,
    /// Bottom card first.
    discard_pile,
    top_discard: Option<PyCard> = |v| v.discard_pile.last().map(|&c| PyCard(c)),
    stock_size,
    spreads: Vec<PyTonkSpread> = |v| v.spreads.iter().map(|&s| PyTonkSpread(s)).collect(),
    /// Hit-lock counters per seat (TK-8.4).
    locks,
    /// True when the player whose turn it is cannot drop this turn.
    turn_locked,
    stock_draws,
    /// Cards of each other player's hand that everyone knows (taken from the
    /// discard pile, or shown for the spades bet); empty for this seat.
    known_cards,
    /// Seats in the spades side bet.
    spades_in: Vec<u32> =
        |v| (0..v.players).filter(|p| v.spades_in & (1 << p) != 0).map(u32::from).collect(),
    spades_shown,
    /// Hands shown at the end (None for hands not shown).
    shown_hands,
    returns,
    /// This seat's legal actions (empty when it is not its decision).
    legal_actions,
});

#[pymethods]
impl PyTonkView {
    #[getter]
    fn ending<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.0
            .ending
            .as_ref()
            .map(|e| ending_dict(py, e))
            .transpose()
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

#[pymethods]
impl PyTonkState {
    /// 'spades', 'drop_window', 'turn_start', 'play' or 'over'.
    #[getter]
    fn phase(slf: PyRef<'_, Self>) -> PyResult<&'static str> {
        Ok(Phase::name(state_of(slf.as_super())?.phase()))
    }

    #[getter]
    fn seed(slf: PyRef<'_, Self>) -> PyResult<u64> {
        Ok(state_of(slf.as_super())?.seed())
    }

    /// Whose turn it is (differs from `current_player` in drop windows and the spades bet).
    #[getter]
    fn turn_player(slf: PyRef<'_, Self>) -> PyResult<u8> {
        Ok(state_of(slf.as_super())?.turn_player())
    }

    /// A player's hand (full information: use `view` for what a seat sees).
    fn hand(slf: PyRef<'_, Self>, player: &Bound<'_, PyAny>) -> PyResult<Vec<PyCard>> {
        let base = slf.as_super();
        Ok(cards(&state_of(base)?.hand_cards(base.seat(player)?)))
    }

    /// A player's count (TK-3.2).
    fn count(slf: PyRef<'_, Self>, player: &Bound<'_, PyAny>) -> PyResult<u32> {
        let base = slf.as_super();
        Ok(state_of(base)?.count(base.seat(player)?))
    }

    #[getter]
    fn stock_size(slf: PyRef<'_, Self>) -> PyResult<usize> {
        Ok(state_of(slf.as_super())?.stock_size())
    }

    #[getter]
    fn discard_pile(slf: PyRef<'_, Self>) -> PyResult<Vec<PyCard>> {
        Ok(cards(state_of(slf.as_super())?.discard_pile()))
    }

    #[getter]
    fn spreads(slf: PyRef<'_, Self>) -> PyResult<Vec<PyTonkSpread>> {
        Ok(state_of(slf.as_super())?
            .spreads()
            .iter()
            .filter(|s| !s.cleared)
            .map(|&s| PyTonkSpread(s))
            .collect())
    }

    /// How the hand ended (None while it goes on).
    #[getter]
    fn ending<'py>(slf: PyRef<'_, Self>, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        state_of(slf.as_super())?
            .ending()
            .as_ref()
            .map(|e| ending_dict(py, e))
            .transpose()
    }

    /// The hand's settlement as (payer, payee, stakes) transfers (TK-10).
    fn settlement(slf: PyRef<'_, Self>) -> PyResult<Vec<(u8, u8, u32)>> {
        Ok(state_of(slf.as_super())?
            .settlement()
            .iter()
            .map(|t| (t.payer, t.payee, t.amount))
            .collect())
    }

    /// The transfers of `settlement()`, each with the rule that makes it:
    /// (payer, payee, stakes, reason).
    fn settlement_reasons(slf: PyRef<'_, Self>) -> PyResult<Vec<(u8, u8, u32, &'static str)>> {
        Ok(state_of(slf.as_super())?
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
        let sol = py_result(state_of(base)?.best_arrangement(seat))?;
        Ok(PyDeadwood::from_solution(&sol))
    }

    /// The spades side bet's settlement (TK-11.3).
    fn side_bet_settlement(slf: PyRef<'_, Self>) -> PyResult<Vec<(u8, u8, u32)>> {
        Ok(state_of(slf.as_super())?
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
