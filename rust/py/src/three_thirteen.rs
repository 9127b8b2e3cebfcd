//! Three Thirteen's own Python classes: what only it has on top of the
//! shared `Game`/`State` (see `game.rs`): its constructor and schedule,
//! given deals, the score sheet, round results, the arrangement hint, its
//! view and its action descriptions.

use cardtable_core::games::registry::AnyState;
use cardtable_core::games::three_thirteen::{
    RoundResult, SeatResult, TabledMeld, ThreeThirteenGame, ThreeThirteenState, ThreeThirteenView,
};
use cardtable_core::meld::Solution;
use cardtable_core::Card;
use pyo3::prelude::*;

use crate::cards::{card_from_any, hand_from_any, PyCard};
use crate::errors::py_result;
use crate::melds::{PyDeadwood, PyMeld};
use crate::registry::state_object;

fn cards(v: &[Card]) -> Vec<PyCard> {
    v.iter().map(|&c| PyCard(c)).collect()
}

crate::registry::game_classes! {
    /// Three Thirteen's parameters (rules specification §2); creates games.
    game PyThreeThirteenGame = "ThreeThirteenGame";
    /// A whole game of Three Thirteen in progress (mutable; `clone()` copies it).
    state PyThreeThirteenState = "ThreeThirteenState";
    view PyThreeThirteenView;
    core ThreeThirteen(ThreeThirteenGame, ThreeThirteenState);
}

#[pymethods]
impl PyThreeThirteenGame {
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

crate::view_getters::view_getters!(PySeatResult {
    /// The final hand (without tabled cards).
    hand,
    /// The solver's arrangement of it (TT-7.1).
    melds: Vec<PyMeld> = |v| v.melds.iter().cloned().map(PyMeld).collect(),
    unmatched,
    deadwood,
    /// Invalid go-out declarations this round (TT-10.9).
    false_outs,
    /// The round score: deadwood (doubled in J/Q/K rounds) plus the penalties.
    points,
});

/// A finished round: how it ended and every hand shown.
#[pyclass(
    name = "ThreeThirteenRound",
    module = "cardtable._core",
    frozen,
    skip_from_py_object
)]
pub struct PyRoundResult(RoundResult);

crate::view_getters::view_getters!(PyRoundResult {
    /// Index of the round in the schedule.
    round,
    cards,
    wild_rank: u8 = |v| v.wild,
    dealer,
    /// 'out', 'stock_guard' or 'stalled'.
    end: &'static str = |v| v.end.name(),
    /// Who went out ('out' rounds).
    out_player: Option<u8> = |v| match v.end {
        cardtable_core::games::three_thirteen::RoundEnd::Out { player } => Some(player),
        _ => None,
    },
    /// Whether penalties were doubled (TT-10.7).
    doubled,
    tabled: Vec<PyTabledMeld> = |v| tabled(&v.tabled),
    seats: Vec<PySeatResult> = |v| v.seats.iter().cloned().map(PySeatResult).collect(),
});

#[pymethods]
impl PyRoundResult {
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

crate::view_getters::view_getters!(PyThreeThirteenView {
    seat,
    players,
    round,
    rounds,
    cards_dealt,
    /// 1 = ace … 13 = king.
    wild_rank,
    /// Who deals this round.
    dealer,
    /// 'draw', 'discard' or 'over'.
    phase: &'static str = |v| v.phase.name(),
    current_player,
    hand,
    hand_sizes,
    /// Bottom first.
    discard_pile,
    top_discard: Option<PyCard> = |v| v.discard_pile.last().map(|&c| PyCard(c)),
    stock_size,
    /// Stock rebuilds this round (TT-9).
    restocks,
    /// The card taken from the discard pile this turn.
    taken,
    /// Cards each other seat took from the discard pile and still holds.
    known_cards,
    /// Who went out this round.
    out_player,
    /// Last turns still to play after someone went out (TT-6.2).
    last_turns_left,
    /// Melds on the table (redemption round, TT-10.6).
    tabled: Vec<PyTabledMeld> = |v| tabled(&v.tabled),
    /// The cards this seat has picked for the meld it is building (TT-10.6).
    building,
    /// Jokers gifted into each seat's area this round (TT-10.4).
    gifted,
    /// False outs this round per seat (TT-10.9).
    false_outs,
    /// Schedule index of the score sheet's first row.
    first_round,
    score_sheet,
    totals,
    /// The last finished round, every hand shown.
    last_round: Option<PyRoundResult> = |v| v.last_round.clone().map(PyRoundResult),
    returns,
    /// This seat's legal actions (empty when it is not its decision).
    legal_actions,
});

#[pymethods]
impl PyThreeThirteenView {
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
