//! Python bindings of cardtable-core: conversions, GIL handling and error
//! mapping only. Rules live in the core; the public API lives in the Python
//! package `cardtable`, which re-exports from this module.

mod actions;
mod args;
mod arrow;
mod batch;
mod cards;
mod deck;
mod detach;
mod errors;
mod game;
mod gather;
mod gin_rummy;
mod melds;
mod options;
mod parquet;
mod play;
mod records;
mod registry;
mod seat_table;
mod session;
mod speed;
mod spit;
mod stream;
mod three_thirteen;
mod tonk;
mod vector;
mod view_getters;

use pyo3::prelude::*;

#[pymodule]
mod _core {
    use pyo3::prelude::*;

    #[pymodule_export]
    use super::arrow::score_arrow;
    #[pymodule_export]
    use super::batch::{min_deadwood_many, PyDeadwoodBatch, PyDeadwoodBatchIter};
    #[pymodule_export]
    use super::cards::{format_hand_py, parse_hand_py, PyCard};
    #[pymodule_export]
    use super::deck::{bot_seed, deal, derive_seed, shuffle_many_into, shuffled_deck};
    #[pymodule_export]
    use super::melds::{
        all_melds, best_discard, can_go_out, check_meld, legal_hits, meld_rules_from, min_deadwood,
        PyDeadwood, PyMeld, PyMeldRules,
    };
    #[pymodule_export]
    use super::parquet::PyParquetWriter;
    #[pymodule_export]
    use super::records::{score_record_schema, PyScoredHands};
    #[pymodule_export]
    use super::stream::{score_header, PyArrowScoreStream, PyScoreStream};

    #[pymodule_export]
    use super::actions::PyActionInfo;
    #[pymodule_export]
    use super::game::{
        game_from, game_names, load_game, meld_game_names, meld_option_schema, option_schema,
        replay_record, PyGame, PyState,
    };
    #[pymodule_export]
    use super::gin_rummy::{gin_rummy_card, PyGinRummyGame, PyGinRummyState, PyGinRummyView};
    #[pymodule_export]
    use super::options::PyOptionSpec;
    #[pymodule_export]
    use super::play::{PyBot, PyMatch, PySimulation};
    #[pymodule_export]
    use super::seat_table::{observe, PySeatTable};
    #[pymodule_export]
    use super::session::PySession;
    #[pymodule_export]
    use super::speed::{PySpeedGame, PySpeedState, PySpeedView};
    #[pymodule_export]
    use super::spit::{PySpitGame, PySpitState, PySpitView};
    #[pymodule_export]
    use super::three_thirteen::{
        PyRoundResult, PySeatResult, PyTabledMeld, PyThreeThirteenGame, PyThreeThirteenState,
        PyThreeThirteenView,
    };
    #[pymodule_export]
    use super::tonk::{PyTonkBot, PyTonkGame, PyTonkSpread, PyTonkState, PyTonkView};
    #[pymodule_export]
    use super::vector::PyVectorEnv;

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        m.add("__version__", env!("CARGO_PKG_VERSION"))?;
        m.add("MAX_THREADS", super::detach::MAX_THREADS)?;
        m.add("MAX_LINE_BYTES", cardtable_core::batch::MAX_LINE_BYTES)?;
        m.add(
            "MAX_RECORD_BYTES",
            cardtable_core::engine::record::MAX_RECORD_BYTES,
        )
    }
}
