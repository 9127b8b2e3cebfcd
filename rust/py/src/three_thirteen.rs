//! Three Thirteen's own Python classes: what only it has on top of the
//! shared `Game`/`State` (see `game.rs`): its constructor and schedule,
//! given deals, the score sheet, round results, the arrangement hint, its
//! view and its action descriptions.

use cardtable_core::engine::Game as _;
use cardtable_core::games::registry::{AnyGame, AnyState};
use cardtable_core::games::three_thirteen::{
    Action, RoundResult, SeatResult, TabledMeld, ThreeThirteenGame, ThreeThirteenState,
    ThreeThirteenView,
};
use cardtable_core::meld::Solution;
use cardtable_core::Card;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3::PyClassInitializer;

use crate::args;
use crate::cards::{card_from_any, hand_from_any, PyCard};
use crate::errors::py_result;
use crate::game::{options_from, PyGame, PyState};
use crate::melds::{PyDeadwood, PyMeld};
use crate::registry::state_object;

fn cards(v: &[Card]) -> Vec<PyCard> {
    v.iter().map(|&c| PyCard(c)).collect()
}

/// Three Thirteen's parameters (rules specification §2); creates games.
#[pyclass(
    name = "ThreeThirteenGame",
    module = "cardtable._core",
    extends = PyGame,
    frozen,
    skip_from_py_object
)]
pub struct PyThreeThirteenGame;

fn game_of(game: &PyGame) -> PyResult<&ThreeThirteenGame> {
    match &game.game {
        AnyGame::ThreeThirteen(g) => Ok(g),
        other => Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "not a Three Thirteen game: {}",
            other.name()
        ))),
    }
}

#[pymethods]
impl PyThreeThirteenGame {
    /// Three Thirteen with rule options (keyword arguments, names as in
    /// TT-1..TT-10 without the `three13.` prefix); unknown names, bad values
    /// and impossible combinations raise InvalidConfigError.
    #[new]
    #[pyo3(signature = (**options))]
    fn new(options: Option<&Bound<'_, PyDict>>) -> PyResult<PyClassInitializer<Self>> {
        let game = py_result(ThreeThirteenGame::from_options(&options_from(options)?))?;
        Ok(PyClassInitializer::from(PyGame { game: game.into() }).add_subclass(Self))
    }

    /// The rounds as `(cards_dealt, wild_rank)` (TT-2.3), rank 1 = ace … 13 = king.
    #[getter]
    fn schedule(slf: &Bound<'_, Self>) -> PyResult<Vec<(u8, u8)>> {
        let game = game_of(slf.as_super().get())?;
        Ok(game
            .schedule()
            .rounds()
            .iter()
            .map(|r| (r.cards, r.wild))
            .collect())
    }

    /// Decks in play (TT-1.2: `decks = auto` resolved).
    #[getter]
    fn decks(slf: &Bound<'_, Self>) -> PyResult<u8> {
        Ok(game_of(slf.as_super().get())?.config.deck().decks)
    }

    /// The rules in play, in words: `(title, rule, text)` per point, as this
    /// configuration has them (what `?` shows in `play`).
    fn rules_summary(slf: &Bound<'_, Self>) -> PyResult<Vec<(&'static str, &'static str, String)>> {
        Ok(game_of(slf.as_super().get())?
            .config
            .rules_summary()
            .into_iter()
            .map(|p| (p.title, p.rule, p.text))
            .collect())
    }

    /// A game whose round `round` (0 = the first of the schedule) deals each
    /// seat these cards, this upcard, and these next stock cards (top first);
    /// the rest of the stock follows in card order. Later rounds are dealt
    /// from the game's seed 0; such a game has no record.
    #[pyo3(signature = (dealer, hands, upcard, stock_top = None, round = 0))]
    fn state_from_hands(
        slf: &Bound<'_, Self>,
        dealer: &Bound<'_, PyAny>,
        hands: &Bound<'_, PyAny>,
        upcard: &Bound<'_, PyAny>,
        stock_top: Option<&Bound<'_, PyAny>>,
        round: usize,
    ) -> PyResult<Py<PyAny>> {
        let base = slf.as_super().get();
        let mut hs = Vec::new();
        for h in hands.try_iter()? {
            hs.push(hand_from_any(&h?)?);
        }
        let top = match stock_top {
            Some(t) => hand_from_any(t)?,
            None => Vec::new(),
        };
        let dealer = base.dealer_seat(dealer)?;
        let state = py_result(game_of(base)?.state_from_hands_at_round(
            round,
            dealer,
            &hs,
            card_from_any(upcard)?,
            &top,
        ))?;
        state_object(slf.py(), base.game.clone(), AnyState::ThreeThirteen(state))
    }
}

crate::game::fast_path!(PyThreeThirteenGame, PyThreeThirteenState);
crate::registry::bind_classes!(ThreeThirteenGame => PyThreeThirteenGame, PyThreeThirteenState, PyThreeThirteenView);

/// A whole game of Three Thirteen in progress (mutable; `clone()` copies it).
#[pyclass(name = "ThreeThirteenState", module = "cardtable._core", extends = PyState, skip_from_py_object)]
pub struct PyThreeThirteenState;

fn state_of(state: &PyState) -> PyResult<&ThreeThirteenState> {
    match &state.state {
        AnyState::ThreeThirteen(s) => Ok(s),
        _ => Err(pyo3::exceptions::PyTypeError::new_err(
            "not a Three Thirteen state",
        )),
    }
}

#[pymethods]
impl PyThreeThirteenState {
    /// 'draw', 'discard' or 'over'.
    #[getter]
    fn phase(slf: PyRef<'_, Self>) -> PyResult<&'static str> {
        Ok(state_of(slf.as_super())?.phase().name())
    }

    #[getter]
    fn seed(slf: PyRef<'_, Self>) -> PyResult<u64> {
        Ok(state_of(slf.as_super())?.seed())
    }

    /// Index of the round in the schedule (equal to `rounds` once over).
    #[getter]
    fn round(slf: PyRef<'_, Self>) -> PyResult<usize> {
        Ok(state_of(slf.as_super())?.round())
    }

    #[getter]
    fn rounds(slf: PyRef<'_, Self>) -> PyResult<usize> {
        Ok(state_of(slf.as_super())?.round_count())
    }

    /// Cards dealt this round.
    #[getter]
    fn cards_dealt(slf: PyRef<'_, Self>) -> PyResult<usize> {
        Ok(state_of(slf.as_super())?.cards_dealt())
    }

    /// This round's wild rank, 1 = ace … 13 = king (TT-2.2).
    #[getter]
    fn wild_rank(slf: PyRef<'_, Self>) -> PyResult<u8> {
        Ok(state_of(slf.as_super())?.wild_rank())
    }

    /// Who deals this round (the deal passes left, TT-3.1); `dealer` is the first.
    #[getter]
    fn round_dealer(slf: PyRef<'_, Self>) -> PyResult<u8> {
        Ok(state_of(slf.as_super())?.round_dealer())
    }

    /// A player's hand (full information: use `view` for what a seat sees).
    fn hand(slf: PyRef<'_, Self>, player: &Bound<'_, PyAny>) -> PyResult<Vec<PyCard>> {
        let base = slf.as_super();
        Ok(cards(state_of(base)?.hand(base.seat(player)?)))
    }

    #[getter]
    fn stock_size(slf: PyRef<'_, Self>) -> PyResult<usize> {
        Ok(state_of(slf.as_super())?.stock_size())
    }

    /// Bottom card first.
    #[getter]
    fn discard_pile(slf: PyRef<'_, Self>) -> PyResult<Vec<PyCard>> {
        Ok(cards(state_of(slf.as_super())?.discard_pile()))
    }

    /// Each finished round's scores, one row per round (TT-7.4).
    #[getter]
    fn score_sheet(slf: PyRef<'_, Self>) -> PyResult<Vec<Vec<i64>>> {
        Ok(state_of(slf.as_super())?.score_sheet().to_vec())
    }

    /// Running totals (TT-7.4); the lowest wins (TT-8.1).
    #[getter]
    fn totals(slf: PyRef<'_, Self>) -> PyResult<Vec<i64>> {
        Ok(state_of(slf.as_super())?.totals().to_vec())
    }

    /// Who went out this round (None before anyone has).
    #[getter]
    fn out_player(slf: PyRef<'_, Self>) -> PyResult<Option<u8>> {
        Ok(state_of(slf.as_super())?.out_player())
    }

    /// The last finished round, every hand shown.
    #[getter]
    fn last_round(slf: PyRef<'_, Self>) -> PyResult<Option<PyRoundResult>> {
        Ok(state_of(slf.as_super())?
            .last_round()
            .cloned()
            .map(PyRoundResult))
    }

    /// Why `action` is not legal now, as `(rule, reason)`: the rule's ID in
    /// docs/rules.md and a sentence the player can act on; None when legal.
    fn refusal(
        slf: PyRef<'_, Self>,
        action: &Bound<'_, PyAny>,
    ) -> PyResult<Option<(&'static str, String)>> {
        let a = args::action(action, cardtable_core::games::three_thirteen::action::COUNT)?;
        let act = py_result(Action::decode(a))?;
        Ok(state_of(slf.as_super())?
            .refusal(act)
            .map(|r| (r.rule, r.reason)))
    }

    /// Whether `action`, legal now, could be taken back once made: it shows
    /// the player no hidden card and the turn goes on after it.
    fn can_take_back(slf: PyRef<'_, Self>, action: &Bound<'_, PyAny>) -> PyResult<bool> {
        let a = args::action(action, cardtable_core::games::three_thirteen::action::COUNT)?;
        let act = py_result(Action::decode(a))?;
        Ok(state_of(slf.as_super())?.can_take_back(act))
    }

    /// The cards the player to move has picked for the meld it is building
    /// (TT-10.6); they are still in its hand.
    #[getter]
    fn building(slf: PyRef<'_, Self>) -> PyResult<Vec<PyCard>> {
        Ok(cards(state_of(slf.as_super())?.building()))
    }

    /// The solver's best arrangement of a player's hand and its deadwood
    /// (TT-7.1, TT-12.1); with the drawn card in hand, also the best discard.
    fn best_arrangement(slf: PyRef<'_, Self>, player: &Bound<'_, PyAny>) -> PyResult<PyDeadwood> {
        let base = slf.as_super();
        let a = py_result(state_of(base)?.best_arrangement(base.seat(player)?))?;
        let sol = py_result(Solution::from_parts(
            a.deadwood,
            &a.melds,
            &a.unmatched,
            a.discard,
        ))?;
        Ok(PyDeadwood::from_solution(&sol))
    }
}

/// A meld laid on the table in a redemption round (TT-10.6), by its id.
#[pyclass(
    name = "ThreeThirteenTabledMeld",
    module = "cardtable._core",
    frozen,
    skip_from_py_object
)]
pub struct PyTabledMeld {
    id: usize,
    meld: TabledMeld,
}

#[pymethods]
impl PyTabledMeld {
    /// The id lay-offs name (`layoff 7H M3`).
    #[getter]
    fn id(&self) -> usize {
        self.id
    }
    #[getter]
    fn owner(&self) -> u8 {
        self.meld.owner
    }
    #[getter]
    fn meld(&self) -> PyMeld {
        PyMeld(self.meld.meld.clone())
    }
    fn __repr__(&self) -> String {
        let cards: Vec<String> = self
            .meld
            .meld
            .cards
            .iter()
            .map(ToString::to_string)
            .collect();
        format!(
            "<ThreeThirteenTabledMeld M{} of seat {}: {}>",
            self.id,
            self.meld.owner,
            cards.join(" ")
        )
    }
}

fn tabled(melds: &[TabledMeld]) -> Vec<PyTabledMeld> {
    melds
        .iter()
        .enumerate()
        .map(|(id, m)| PyTabledMeld {
            id,
            meld: m.clone(),
        })
        .collect()
}

/// One seat's result of a finished round.
#[pyclass(
    name = "ThreeThirteenSeatResult",
    module = "cardtable._core",
    frozen,
    skip_from_py_object
)]
pub struct PySeatResult(SeatResult);

#[pymethods]
impl PySeatResult {
    /// The final hand (without tabled cards).
    #[getter]
    fn hand(&self) -> Vec<PyCard> {
        cards(&self.0.hand)
    }
    /// The solver's arrangement of it (TT-7.1).
    #[getter]
    fn melds(&self) -> Vec<PyMeld> {
        self.0.melds.iter().cloned().map(PyMeld).collect()
    }
    #[getter]
    fn unmatched(&self) -> Vec<PyCard> {
        cards(&self.0.unmatched)
    }
    #[getter]
    fn deadwood(&self) -> u32 {
        self.0.deadwood
    }
    /// Invalid go-out declarations this round (TT-10.9).
    #[getter]
    fn false_outs(&self) -> u32 {
        self.0.false_outs
    }
    /// The round score: deadwood (doubled in J/Q/K rounds) plus the penalties.
    #[getter]
    fn points(&self) -> i64 {
        self.0.points
    }
}

/// A finished round: how it ended and every hand shown.
#[pyclass(
    name = "ThreeThirteenRound",
    module = "cardtable._core",
    frozen,
    skip_from_py_object
)]
pub struct PyRoundResult(RoundResult);

#[pymethods]
impl PyRoundResult {
    /// Index of the round in the schedule.
    #[getter]
    fn round(&self) -> u8 {
        self.0.round
    }
    #[getter]
    fn cards(&self) -> u8 {
        self.0.cards
    }
    #[getter]
    fn wild_rank(&self) -> u8 {
        self.0.wild
    }
    #[getter]
    fn dealer(&self) -> u8 {
        self.0.dealer
    }
    /// 'out', 'stock_guard' or 'stalled'.
    #[getter]
    fn end(&self) -> &'static str {
        self.0.end.name()
    }
    /// Who went out ('out' rounds).
    #[getter]
    fn out_player(&self) -> Option<u8> {
        match self.0.end {
            cardtable_core::games::three_thirteen::RoundEnd::Out { player } => Some(player),
            _ => None,
        }
    }
    /// Whether penalties were doubled (TT-10.7).
    #[getter]
    fn doubled(&self) -> bool {
        self.0.doubled
    }
    #[getter]
    fn tabled(&self) -> Vec<PyTabledMeld> {
        tabled(&self.0.tabled)
    }
    #[getter]
    fn seats(&self) -> Vec<PySeatResult> {
        self.0.seats.iter().cloned().map(PySeatResult).collect()
    }

    /// Whether a card was wild in this round.
    fn is_wild(&self, card: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.0.is_wild(card_from_any(card)?))
    }
}

/// What one seat may see of a game: never a card hidden from it.
#[pyclass(
    name = "ThreeThirteenView",
    module = "cardtable._core",
    frozen,
    skip_from_py_object
)]
pub struct PyThreeThirteenView(pub ThreeThirteenView);

#[pymethods]
impl PyThreeThirteenView {
    #[getter]
    fn seat(&self) -> u8 {
        self.0.seat
    }
    #[getter]
    fn players(&self) -> u8 {
        self.0.players
    }
    #[getter]
    fn round(&self) -> usize {
        self.0.round
    }
    #[getter]
    fn rounds(&self) -> usize {
        self.0.rounds
    }
    #[getter]
    fn cards_dealt(&self) -> u8 {
        self.0.cards_dealt
    }
    /// 1 = ace … 13 = king.
    #[getter]
    fn wild_rank(&self) -> u8 {
        self.0.wild_rank
    }
    /// Who deals this round.
    #[getter]
    fn dealer(&self) -> u8 {
        self.0.dealer
    }
    /// 'draw', 'discard' or 'over'.
    #[getter]
    fn phase(&self) -> &'static str {
        self.0.phase.name()
    }
    #[getter]
    fn current_player(&self) -> Option<u8> {
        self.0.current_player
    }
    #[getter]
    fn hand(&self) -> Vec<PyCard> {
        cards(&self.0.hand)
    }
    #[getter]
    fn hand_sizes(&self) -> Vec<u32> {
        // A list of integers: a Vec<u8> would become bytes.
        self.0.hand_sizes.iter().map(|&n| u32::from(n)).collect()
    }
    /// Bottom first.
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
    /// Stock rebuilds this round (TT-9).
    #[getter]
    fn restocks(&self) -> u8 {
        self.0.restocks
    }
    /// The card taken from the discard pile this turn.
    #[getter]
    fn taken(&self) -> Option<PyCard> {
        self.0.taken.map(PyCard)
    }
    /// Cards each other seat took from the discard pile and still holds.
    #[getter]
    fn known_cards(&self) -> Vec<Vec<PyCard>> {
        self.0.known_cards.iter().map(|v| cards(v)).collect()
    }
    /// Who went out this round.
    #[getter]
    fn out_player(&self) -> Option<u8> {
        self.0.out_player
    }
    /// Last turns still to play after someone went out (TT-6.2).
    #[getter]
    fn last_turns_left(&self) -> u8 {
        self.0.last_turns_left
    }
    /// Melds on the table (redemption round, TT-10.6).
    #[getter]
    fn tabled(&self) -> Vec<PyTabledMeld> {
        tabled(&self.0.tabled)
    }
    /// The cards this seat has picked for the meld it is building (TT-10.6).
    #[getter]
    fn building(&self) -> Vec<PyCard> {
        cards(&self.0.building)
    }
    /// Jokers gifted into each seat's area this round (TT-10.4).
    #[getter]
    fn gifted(&self) -> Vec<u32> {
        // A list of integers: a Vec<u8> would become bytes.
        self.0.gifted.iter().map(|&n| u32::from(n)).collect()
    }
    /// False outs this round per seat (TT-10.9).
    #[getter]
    fn false_outs(&self) -> Vec<u32> {
        // A list of integers: a Vec<u8> would become bytes.
        self.0.false_outs.clone()
    }
    /// Schedule index of the score sheet's first row.
    #[getter]
    fn first_round(&self) -> usize {
        self.0.first_round
    }
    #[getter]
    fn score_sheet(&self) -> Vec<Vec<i64>> {
        self.0.score_sheet.clone()
    }
    #[getter]
    fn totals(&self) -> Vec<i64> {
        self.0.totals.clone()
    }
    /// The last finished round, every hand shown.
    #[getter]
    fn last_round(&self) -> Option<PyRoundResult> {
        self.0.last_round.clone().map(PyRoundResult)
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

    /// Whether a card is wild this round (a joker, or of the wild rank).
    fn is_wild(&self, card: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.0.is_wild(card_from_any(card)?))
    }

    fn __repr__(&self) -> String {
        format!(
            "<ThreeThirteenView seat {} round {} of {} phase {} hand {:?}>",
            self.0.seat,
            self.0.round + 1,
            self.0.rounds,
            self.0.phase.name(),
            self.0
                .hand
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
        )
    }
}

/// Decodes an action into a dict describing it (for UIs): its kind ('draw',
/// 'take', 'discard', 'out', 'gift', 'table', 'layoff', 'pick', 'meld'), card, seat (gifts),
/// meld id (lay-offs) and text.
#[pyfunction]
pub fn describe_three_thirteen_action<'py>(
    py: Python<'py>,
    action: &Bound<'_, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let count = cardtable_core::games::three_thirteen::action::COUNT;
    let a = py_result(Action::decode(args::action(action, count)?))?;
    let (kind, card, seat, meld): (&str, Option<Card>, Option<u8>, Option<u8>) = match a {
        Action::Discard(c) => ("discard", Some(c), None, None),
        Action::GoOut(c) => ("out", Some(c), None, None),
        Action::DrawStock => ("draw", None, None, None),
        Action::TakeDiscard => ("take", None, None, None),
        Action::Table => ("table", None, None, None),
        Action::Gift(s) => ("gift", Some(Card::JOKER), Some(s), None),
        Action::LayOff { card, meld } => ("layoff", Some(card), None, Some(meld)),
        Action::Pick(c) => ("pick", Some(c), None, None),
        Action::LayMeld => ("meld", None, None, None),
    };
    let d = PyDict::new(py);
    d.set_item("kind", kind)?;
    d.set_item("card", card.map(PyCard))?;
    d.set_item("seat", seat)?;
    d.set_item("meld", meld)?;
    d.set_item("text", a.to_string())?;
    Ok(d)
}
