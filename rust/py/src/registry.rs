//! Which Python class wraps each registered game, state and view. Each
//! game's binding file says it once (`bind_classes!`); the functions here
//! are generated from the core's table of games, so a game whose file does
//! not say it fails to compile.

use cardtable_core::engine::{Game, State};
use cardtable_core::games::registry::{AnyGame, AnyState, AnyView};
use pyo3::prelude::*;
use pyo3::PyClassInitializer;

use crate::game::{PyGame, PyState};

/// The Python classes of a game: its `Game` and `State` subclasses and its
/// view class.
pub trait GameClasses: Game {
    fn game_object(py: Python<'_>, base: PyClassInitializer<PyGame>) -> PyResult<Py<PyAny>>;
    fn state_object(py: Python<'_>, base: PyClassInitializer<PyState>) -> PyResult<Py<PyAny>>;
    fn view_object(py: Python<'_>, view: <Self::State as State>::View) -> PyResult<Py<PyAny>>;
}

/// `bind_classes!(CoreGame => GameClass, StateClass, ViewClass)`: the view
/// class is a newtype over the core's view.
macro_rules! bind_classes {
    ($game:ty => $py_game:ident, $py_state:ident, $py_view:ident) => {
        impl $crate::registry::GameClasses for $game {
            fn game_object(
                py: ::pyo3::Python<'_>,
                base: ::pyo3::PyClassInitializer<$crate::game::PyGame>,
            ) -> ::pyo3::PyResult<::pyo3::Py<::pyo3::PyAny>> {
                Ok(::pyo3::Py::new(py, base.add_subclass($py_game))?.into_any())
            }
            fn state_object(
                py: ::pyo3::Python<'_>,
                base: ::pyo3::PyClassInitializer<$crate::game::PyState>,
            ) -> ::pyo3::PyResult<::pyo3::Py<::pyo3::PyAny>> {
                Ok(::pyo3::Py::new(py, base.add_subclass($py_state))?.into_any())
            }
            fn view_object(
                py: ::pyo3::Python<'_>,
                view: <<$game as ::cardtable_core::engine::Game>::State as ::cardtable_core::engine::State>::View,
            ) -> ::pyo3::PyResult<::pyo3::Py<::pyo3::PyAny>> {
                Ok(::pyo3::Py::new(py, $py_view(view))?.into_any())
            }
        }
    };
}
pub(crate) use bind_classes;

macro_rules! object_constructors {
    ($($variant:ident => $game:ty,)*) => {
        /// The game's own `Game` subclass.
        pub fn game_object(py: Python<'_>, game: AnyGame) -> PyResult<Py<PyAny>> {
            let base = PyClassInitializer::from(PyGame { game: game.clone() });
            match game {
                $(AnyGame::$variant(_) => <$game as GameClasses>::game_object(py, base),)*
            }
        }

        /// The game's own `State` subclass.
        pub fn state_object(py: Python<'_>, game: AnyGame, state: AnyState) -> PyResult<Py<PyAny>> {
            match state {
                $(AnyState::$variant(_) => {
                    <$game as GameClasses>::state_object(py, PyClassInitializer::from(PyState { game, state }))
                })*
            }
        }

        /// The game's view class.
        pub fn view_object(py: Python<'_>, view: AnyView) -> PyResult<Py<PyAny>> {
            match view {
                $(AnyView::$variant(v) => <$game as GameClasses>::view_object(py, v),)*
            }
        }
    };
}

cardtable_core::for_each_game!(object_constructors);
