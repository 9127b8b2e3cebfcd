//! Which Python class wraps each registered game, state and view: the one
//! place in the bindings that lists every game (one arm each).

use cardtable_core::games::registry::{AnyGame, AnyState, AnyView};
use pyo3::prelude::*;
use pyo3::PyClassInitializer;

use crate::game::{PyGame, PyState};
use crate::speed::{PySpeedGame, PySpeedState, PySpeedView};
use crate::spit::{PySpitGame, PySpitState, PySpitView};
use crate::three_thirteen::{PyThreeThirteenGame, PyThreeThirteenState, PyThreeThirteenView};
use crate::tonk::{PyTonkGame, PyTonkState, PyTonkView};

/// The game's own `Game` subclass.
pub fn game_object(py: Python<'_>, game: AnyGame) -> PyResult<Py<PyAny>> {
    let base = PyClassInitializer::from(PyGame { game: game.clone() });
    Ok(match game {
        AnyGame::Tonk(_) => Py::new(py, base.add_subclass(PyTonkGame))?.into_any(),
        AnyGame::ThreeThirteen(_) => {
            Py::new(py, base.add_subclass(PyThreeThirteenGame))?.into_any()
        }
        AnyGame::Spit(_) => Py::new(py, base.add_subclass(PySpitGame))?.into_any(),
        AnyGame::Speed(_) => Py::new(py, base.add_subclass(PySpeedGame))?.into_any(),
    })
}

/// The game's own `State` subclass.
pub fn state_object(py: Python<'_>, game: AnyGame, state: AnyState) -> PyResult<Py<PyAny>> {
    let base = |state| PyClassInitializer::from(PyState { game, state });
    Ok(match state {
        AnyState::Tonk(_) => Py::new(py, base(state).add_subclass(PyTonkState))?.into_any(),
        AnyState::ThreeThirteen(_) => {
            Py::new(py, base(state).add_subclass(PyThreeThirteenState))?.into_any()
        }
        AnyState::Spit(_) => Py::new(py, base(state).add_subclass(PySpitState))?.into_any(),
        AnyState::Speed(_) => Py::new(py, base(state).add_subclass(PySpeedState))?.into_any(),
    })
}

/// The game's view class.
pub fn view_object(py: Python<'_>, view: AnyView) -> PyResult<Py<PyAny>> {
    Ok(match view {
        AnyView::Tonk(v) => Py::new(py, PyTonkView(v))?.into_any(),
        AnyView::ThreeThirteen(v) => Py::new(py, PyThreeThirteenView(v))?.into_any(),
        AnyView::Spit(v) => Py::new(py, PySpitView(v))?.into_any(),
        AnyView::Speed(v) => Py::new(py, PySpeedView(v))?.into_any(),
    })
}
