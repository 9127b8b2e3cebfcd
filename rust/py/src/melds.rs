//! `MeldRules`, `Meld`, `Deadwood` and the single-hand solver functions.

use std::cell::RefCell;
use std::hash::{Hash, Hasher};

use cardtable_core::games::presets::meld_rules_of;
use cardtable_core::meld::{
    all_melds as core_all_melds, classify, legal_hits as core_legal_hits, ResolvedRules,
    RuleOptions, WildRank, MELD_SCHEMA, UNLIMITED,
};
use cardtable_core::{Card, Meld, MeldKind, MeldRules, Solution, Solver, Suit};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::cards::{card_from_any, cards_to_tuple, hand_from_any, PyCard};
use crate::errors::{py_result, InvalidConfigError};
use crate::options::{option_value, options_dict};

thread_local! {
    /// Scratch buffers reused by single-hand calls.
    static SOLVER: RefCell<Solver> = RefCell::new(Solver::new());
}

pub fn with_solver<R>(f: impl FnOnce(&mut Solver) -> R) -> R {
    SOLVER.with(|s| f(&mut s.borrow_mut()))
}

/// Meld and scoring rules: a preset (`tonk`, `gin`, `three_thirteen`) with options.
#[pyclass(
    name = "MeldRules",
    module = "cardtable._core",
    frozen,
    skip_from_py_object
)]
#[derive(Clone)]
pub struct PyMeldRules {
    pub rules: MeldRules,
    opts: RuleOptions,
}

fn config_err(msg: String) -> PyErr {
    InvalidConfigError::new_err(msg)
}

#[pymethods]
impl PyMeldRules {
    /// Meld rules of a game with options (keyword-only): aces, wild, round,
    /// max_wilds, all_wild_melds, jokers, face_values, decks. An option set
    /// to None keeps the game's value; an unknown one is an error.
    #[new]
    #[pyo3(signature = (game = "gin", **options))]
    fn new(game: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let preset = py_result(meld_rules_of(game))?;
        // None keeps the game's value (the name must still be an option).
        let mut given = Vec::new();
        for (key, value) in options.into_iter().flat_map(|d| d.iter()) {
            let key: String = key.extract()?;
            if value.is_none() && MELD_SCHEMA.spec(&key).is_some() {
                continue;
            }
            given.push((key.clone(), option_value(&key, &value)?));
        }
        let opts = py_result(RuleOptions::from_values(&given))?;
        let rules = py_result(preset.with_options(&opts))?;
        Ok(PyMeldRules { rules, opts })
    }

    #[getter]
    fn game(&self) -> &'static str {
        self.rules.game
    }

    #[getter]
    fn decks(&self) -> u8 {
        self.rules.deck.decks
    }

    /// Jokers in play (two per deck when jokers are on).
    #[getter]
    fn jokers(&self) -> u8 {
        self.rules.deck.jokers
    }

    /// 'low' or 'high' (high or low, never wrapping).
    #[getter]
    fn aces(&self) -> &'static str {
        self.rules.aces.name()
    }

    /// The fixed wild rank, or None (no wild rank, or one that follows the hand size).
    #[getter]
    fn wild(&self) -> Option<u8> {
        match self.rules.wild {
            WildRank::Fixed(r) => Some(r),
            _ => None,
        }
    }

    /// True when the wild rank follows the hand size (Three Thirteen, TT-2.2).
    #[getter]
    fn wild_by_hand_size(&self) -> bool {
        self.rules.wild == WildRank::ByHandSize
    }

    /// Substitutes allowed per meld; None means unlimited.
    #[getter]
    fn max_wilds(&self) -> Option<u8> {
        if self.rules.max_wilds == UNLIMITED {
            None
        } else {
            Some(self.rules.max_wilds)
        }
    }

    #[getter]
    fn all_wild_melds(&self) -> bool {
        self.rules.all_wild_melds
    }

    /// 'ten' (J/Q/K = 10) or 'rank' (J/Q/K = 11/12/13).
    #[getter]
    fn face_values(&self) -> &'static str {
        self.rules.face_values.name()
    }

    #[getter]
    fn ace_value(&self) -> u8 {
        self.rules.ace_value
    }

    #[getter]
    fn wild_value(&self) -> u8 {
        self.rules.wild_value
    }

    #[getter]
    fn joker_value(&self) -> u8 {
        self.rules.joker_value
    }

    /// The wild rank for a hand of this many cards (None when nothing is wild by rank).
    fn wild_rank_for(&self, hand_size: usize) -> PyResult<Option<u8>> {
        py_result(self.rules.wild_rank_for(hand_size))
    }

    /// What an unmatched card costs in a hand of `hand_size` cards.
    #[pyo3(signature = (card, hand_size = None))]
    fn value(&self, card: &Bound<'_, PyAny>, hand_size: Option<usize>) -> PyResult<u16> {
        let c = card_from_any(card)?;
        Ok(resolved(&self.rules, hand_size)?.value(c))
    }

    /// The options given at construction, as keyword arguments.
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        options_dict(py, &self.opts.to_options())
    }

    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (&'static str, Bound<'py, PyDict>))> {
        let rebuild = py.import("cardtable._core")?.getattr("_meld_rules")?;
        Ok((rebuild, (self.rules.game, self.options(py)?)))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let mut s = format!("MeldRules('{}'", self.rules.game);
        for (k, v) in self.options(py)?.iter() {
            s.push_str(&format!(", {}={}", k, v.repr()?));
        }
        s.push(')');
        Ok(s)
    }

    fn __str__(&self) -> String {
        self.rules.to_string()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyMeldRules>()
            .is_ok_and(|o| o.get().rules == self.rules)
    }

    fn __hash__(&self) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.rules.hash(&mut h);
        h.finish()
    }
}

/// One meld: a set or a run, with the role of every card.
#[pyclass(
    name = "Meld",
    module = "cardtable._core",
    frozen,
    eq,
    hash,
    from_py_object
)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyMeld(pub Meld);

#[pymethods]
impl PyMeld {
    /// A meld from its kind ('set' or 'run'), its cards in meld order and the
    /// indexes of the cards that are substitutes. This records a meld; use
    /// `check_meld` to test whether cards form a valid one.
    #[new]
    #[pyo3(signature = (kind, cards, substitutes = Vec::new()))]
    fn new(kind: &str, cards: &Bound<'_, PyAny>, substitutes: Vec<usize>) -> PyResult<Self> {
        let kind = match kind {
            "set" => MeldKind::Set,
            "run" => MeldKind::Run,
            _ => {
                return Err(config_err(format!(
                    "meld kind must be 'set' or 'run', got {kind:?}"
                )))
            }
        };
        let cards = hand_from_any(cards)?;
        let mut mask = 0u32;
        for i in substitutes {
            if i >= cards.len() || i >= 32 {
                return Err(config_err(format!("substitute index {i} out of range")));
            }
            mask |= 1 << i;
        }
        let first_natural = (0..cards.len()).find(|&i| mask & (1 << i) == 0);
        let (rank, suit) = match (kind, first_natural) {
            (_, None) => (None, None),
            (MeldKind::Set, Some(i)) => (Some(cards[i].rank()), None),
            (MeldKind::Run, Some(i)) => {
                let c = cards[i];
                let r = if c.rank() == 1 && i > 0 { 14 } else { c.rank() };
                (r.checked_sub(i as u8).filter(|&r| r >= 1), c.suit())
            }
        };
        Ok(PyMeld(Meld {
            kind,
            cards,
            substitutes: mask,
            rank,
            suit,
        }))
    }

    /// 'set' or 'run'.
    #[getter]
    fn kind(&self) -> &'static str {
        self.0.kind.name()
    }

    #[getter]
    fn cards<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        cards_to_tuple(py, &self.0.cards)
    }

    /// Indexes (into `cards`) of the substitutes.
    #[getter]
    fn substitutes(&self) -> Vec<usize> {
        (0..self.0.cards.len())
            .filter(|&i| self.0.is_substitute(i))
            .collect()
    }

    /// The cards that play as themselves.
    #[getter]
    fn naturals<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let v: Vec<Card> = (0..self.0.cards.len())
            .filter(|&i| !self.0.is_substitute(i))
            .map(|i| self.0.cards[i])
            .collect();
        cards_to_tuple(py, &v)
    }

    /// Sets: the rank (None for an all-wild meld). Runs: rank of the first position (14 = high ace).
    #[getter]
    fn rank(&self) -> Option<u8> {
        self.0.rank
    }

    /// Runs: the suit letter.
    #[getter]
    fn suit(&self) -> Option<char> {
        self.0.suit.map(Suit::letter)
    }

    /// The card position `i` stands for (None for a substitute in a set).
    fn represents(&self, i: usize) -> Option<PyCard> {
        self.0.represents(i).map(PyCard)
    }

    fn __len__(&self) -> usize {
        self.0.cards.len()
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(cards_to_tuple(py, &self.0.cards)?
            .into_any()
            .try_iter()?
            .into_any())
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    /// Text with suit symbols, substitutes marked with '*'.
    fn symbols(&self) -> String {
        let mut parts = Vec::with_capacity(self.0.cards.len());
        for (i, c) in self.0.cards.iter().enumerate() {
            let mut t = c.symbol_text();
            if self.0.is_substitute(i) {
                t.push('*');
            }
            parts.push(t);
        }
        parts.join(" ")
    }

    fn __repr__(&self) -> String {
        let subs = self.substitutes();
        if subs.is_empty() {
            format!("Meld('{}', '{}')", self.0.kind.name(), self.0)
        } else {
            format!(
                "Meld('{}', '{}', substitutes={:?})",
                self.0.kind.name(),
                self.0,
                subs
            )
        }
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (
        Bound<'py, pyo3::types::PyType>,
        (&'static str, String, Vec<usize>),
    ) {
        let me = slf.get();
        (
            slf.get_type(),
            (me.0.kind.name(), me.0.to_string(), me.substitutes()),
        )
    }
}

/// The result of a solve: minimum deadwood and one optimal arrangement.
/// Holds the compact core result; melds and cards are built on access.
#[pyclass(
    name = "Deadwood",
    module = "cardtable._core",
    frozen,
    eq,
    skip_from_py_object
)]
#[derive(Clone, PartialEq, Eq)]
pub struct PyDeadwood(Solution);

impl PyDeadwood {
    pub fn from_solution(s: &Solution) -> PyDeadwood {
        PyDeadwood(*s)
    }
}

#[pymethods]
impl PyDeadwood {
    #[new]
    #[pyo3(signature = (deadwood, melds, unmatched, discard = None))]
    fn new(
        deadwood: u32,
        melds: Vec<PyMeld>,
        unmatched: &Bound<'_, PyAny>,
        discard: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let melds: Vec<Meld> = melds.into_iter().map(|m| m.0).collect();
        let unmatched = hand_from_any(unmatched)?;
        let discard = discard.map(card_from_any).transpose()?;
        Ok(PyDeadwood(py_result(Solution::from_parts(
            deadwood, &melds, &unmatched, discard,
        ))?))
    }

    /// Value of the unmatched cards.
    #[getter]
    fn deadwood(&self) -> u32 {
        self.0.deadwood
    }

    #[getter]
    fn melds(&self) -> Vec<PyMeld> {
        (0..self.0.meld_count())
            .map(|i| PyMeld(self.0.meld(i)))
            .collect()
    }

    #[getter]
    fn unmatched<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        cards_to_tuple(py, self.0.unmatched())
    }

    /// The card to discard (best_discard results only).
    #[getter]
    fn discard(&self) -> Option<PyCard> {
        self.0.discard().map(PyCard)
    }

    /// A JSON-ready dict: deadwood, melds (lists of card text), unmatched (and discard).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("deadwood", self.0.deadwood)?;
        let melds: Vec<Vec<String>> = (0..self.0.meld_count())
            .map(|i| {
                self.0
                    .meld_cards(i)
                    .iter()
                    .map(ToString::to_string)
                    .collect()
            })
            .collect();
        d.set_item("melds", melds)?;
        let un: Vec<String> = self.0.unmatched().iter().map(ToString::to_string).collect();
        d.set_item("unmatched", un)?;
        if let Some(c) = self.0.discard() {
            d.set_item("discard", c.to_string())?;
        }
        Ok(d)
    }

    fn __repr__(&self) -> String {
        let melds: Vec<String> = (0..self.0.meld_count())
            .map(|i| PyMeld(self.0.meld(i)).__repr__())
            .collect();
        let un: Vec<String> = self
            .0
            .unmatched()
            .iter()
            .map(|c| format!("Card('{c}')"))
            .collect();
        let mut s = format!(
            "Deadwood(deadwood={}, melds=[{}], unmatched=[{}]",
            self.0.deadwood,
            melds.join(", "),
            un.join(", ")
        );
        if let Some(c) = self.0.discard() {
            s.push_str(&format!(", discard=Card('{c}')"));
        }
        s.push(')');
        s
    }

    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (
        Bound<'py, pyo3::types::PyType>,
        (u32, Vec<PyMeld>, Vec<PyCard>, Option<PyCard>),
    ) {
        let me = slf.get();
        (
            slf.get_type(),
            (
                me.0.deadwood,
                me.melds(),
                me.0.unmatched().iter().map(|&c| PyCard(c)).collect(),
                me.0.discard().map(PyCard),
            ),
        )
    }
}

/// The rules of a call: `rules=` or `game` with options (never both).
pub fn rules_arg(
    py: Python<'_>,
    game: Option<&str>,
    rules: Option<&Bound<'_, PyMeldRules>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<MeldRules> {
    let has_options = options.is_some_and(|d| !d.is_empty());
    match rules {
        Some(r) if game.is_none() && !has_options => Ok(r.get().rules),
        Some(_) => Err(config_err(
            "pass either rules= or a game with options, not both".into(),
        )),
        None if !has_options => py_result(meld_rules_of(game.unwrap_or("gin"))),
        None => {
            let built = py
                .get_type::<PyMeldRules>()
                .call((game.unwrap_or("gin"),), options)?;
            Ok(built.cast::<PyMeldRules>()?.get().rules)
        }
    }
}

/// Minimum deadwood of a hand and one optimal arrangement.
///
/// Rules: `game` ("gin" by default, "tonk", "three_thirteen") with options, or
/// a prepared `rules=MeldRules(...)`. Ties between optimal arrangements follow
/// the documented search order. An empty hand has deadwood 0 under every preset.
#[pyfunction]
#[pyo3(signature = (hand, game = None, *, rules = None, **options))]
pub fn min_deadwood(
    py: Python<'_>,
    hand: &Bound<'_, PyAny>,
    game: Option<&str>,
    rules: Option<&Bound<'_, PyMeldRules>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyDeadwood> {
    let rules = rules_arg(py, game, rules, options)?;
    let cards = hand_from_any(hand)?;
    let sol = with_solver(|s| s.solve(&cards, &rules));
    Ok(PyDeadwood::from_solution(&py_result(sol)?))
}

/// Best discard of a hand holding one card more than its size. The discard
/// is part of the search (a minimum over every discard); `.discard` names it.
#[pyfunction]
#[pyo3(signature = (hand, game = None, *, rules = None, **options))]
pub fn best_discard(
    py: Python<'_>,
    hand: &Bound<'_, PyAny>,
    game: Option<&str>,
    rules: Option<&Bound<'_, PyMeldRules>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyDeadwood> {
    let rules = rules_arg(py, game, rules, options)?;
    let cards = hand_from_any(hand)?;
    let sol = with_solver(|s| s.best_discard(&cards, &rules));
    Ok(PyDeadwood::from_solution(&py_result(sol)?))
}

/// True when some discard leaves every other card in melds (TT-6.1).
#[pyfunction]
#[pyo3(signature = (hand, game = None, *, rules = None, **options))]
pub fn can_go_out(
    py: Python<'_>,
    hand: &Bound<'_, PyAny>,
    game: Option<&str>,
    rules: Option<&Bound<'_, PyMeldRules>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<bool> {
    let rules = rules_arg(py, game, rules, options)?;
    let cards = hand_from_any(hand)?;
    let dw = with_solver(|s| s.best_discard_deadwood(&cards, &rules));
    Ok(py_result(dw)? == 0)
}

/// Every distinct meld that can be formed from the hand's cards.
#[pyfunction]
#[pyo3(signature = (hand, game = None, *, rules = None, **options))]
pub fn all_melds(
    py: Python<'_>,
    hand: &Bound<'_, PyAny>,
    game: Option<&str>,
    rules: Option<&Bound<'_, PyMeldRules>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<PyMeld>> {
    let rules = rules_arg(py, game, rules, options)?;
    let cards = hand_from_any(hand)?;
    py_result(rules.deck.check_hand(&cards))?;
    let rr = py_result(rules.resolve(cards.len()))?;
    Ok(py_result(core_all_melds(&cards, &rr))?
        .into_iter()
        .map(PyMeld)
        .collect())
}

/// Rules with the wild rank settled, for checks that have no hand size.
fn resolved(rules: &MeldRules, hand_size: Option<usize>) -> PyResult<ResolvedRules> {
    match (rules.wild, hand_size) {
        (WildRank::ByHandSize, None) => Err(config_err(
            "the wild rank follows the hand size under these rules: pass hand_size, or round= or wild=".into(),
        )),
        (_, size) => py_result(rules.resolve(size.unwrap_or(0))),
    }
}

/// The cards read as one meld (with the fewest substitutes), or None. When
/// the wild rank follows the hand size, pass `hand_size` (or `round`).
#[pyfunction]
#[pyo3(signature = (cards, game = None, *, rules = None, hand_size = None, **options))]
pub fn check_meld(
    py: Python<'_>,
    cards: &Bound<'_, PyAny>,
    game: Option<&str>,
    rules: Option<&Bound<'_, PyMeldRules>>,
    hand_size: Option<usize>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Option<PyMeld>> {
    let rules = rules_arg(py, game, rules, options)?;
    let cards = hand_from_any(cards)?;
    py_result(rules.deck.check_hand(&cards))?;
    let rr = resolved(&rules, hand_size)?;
    Ok(classify(&cards, &rr, None).map(PyMeld))
}

/// Cards of the hand that may hit the given table melds (TK-8.1), as
/// `(card, meld index)` pairs; identical cards are listed once.
#[pyfunction]
#[pyo3(signature = (hand, melds, game = None, *, rules = None, hand_size = None, **options))]
pub fn legal_hits(
    py: Python<'_>,
    hand: &Bound<'_, PyAny>,
    melds: Vec<PyMeld>,
    game: Option<&str>,
    rules: Option<&Bound<'_, PyMeldRules>>,
    hand_size: Option<usize>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<(PyCard, usize)>> {
    let rules = rules_arg(py, game, rules, options)?;
    let cards = hand_from_any(hand)?;
    py_result(rules.deck.check_hand(&cards))?;
    let rr = resolved(&rules, hand_size)?;
    let table: Vec<Meld> = melds.into_iter().map(|m| m.0).collect();
    Ok(core_legal_hits(&cards, &table, &rr)
        .into_iter()
        .map(|(i, j)| (PyCard(cards[i]), j))
        .collect())
}

/// Rebuilds pickled `MeldRules` (any pickle protocol).
#[pyfunction]
#[pyo3(name = "_meld_rules")]
pub fn meld_rules_from(game: &str, options: &Bound<'_, PyDict>) -> PyResult<PyMeldRules> {
    PyMeldRules::new(game, Some(options))
}
