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

/// A game's Python classes, declared once: its `Game` subclass (built
/// from rule options as keywords), its `State` subclass with the hot
/// methods declared again on it (`redeclare_hot_methods!`), which classes
/// wrap the game (`bind_classes!`), and `game_of`/`state_of`, the game's
/// own configuration and state inside the shared classes.
///
/// ```ignore
/// game_classes! {
///     /// Gin Rummy's parameters; creates games.
///     game PyGinRummyGame = "GinRummyGame";
///     /// A game of Gin Rummy in progress.
///     state PyGinRummyState = "GinRummyState";
///     view PyGinRummyView;
///     core GinRummy(GinRummyGame, GinRummyState);
/// }
/// ```
macro_rules! game_classes {
    (
        $(#[$game_doc:meta])*
        game $py_game:ident = $game_name:literal;
        $(#[$state_doc:meta])*
        state $py_state:ident = $state_name:literal;
        view $py_view:ident;
        core $variant:ident($game:ty, $state:ty);
    ) => {
        $(#[$game_doc])*
        #[::pyo3::pyclass(
            name = $game_name,
            module = "cardtable._core",
            extends = $crate::game::PyGame,
            frozen,
            skip_from_py_object
        )]
        pub struct $py_game;

        #[::pyo3::pymethods]
        impl $py_game {
            /// The game with rule options as keywords (`option_names()`,
            /// docs/options.md); unknown names, bad values and impossible
            /// combinations raise InvalidConfigError naming the option.
            #[new]
            #[pyo3(signature = (**options))]
            fn new(
                options: Option<&::pyo3::Bound<'_, ::pyo3::types::PyDict>>,
            ) -> ::pyo3::PyResult<::pyo3::PyClassInitializer<Self>> {
                let options = $crate::options::options_from(options)?;
                let game = $crate::errors::py_result(
                    <$game as ::cardtable_core::engine::Game>::from_options(&options),
                )?;
                Ok(::pyo3::PyClassInitializer::from($crate::game::PyGame { game: game.into() })
                    .add_subclass(Self))
            }
        }

        $(#[$state_doc])*
        #[::pyo3::pyclass(
            name = $state_name,
            module = "cardtable._core",
            extends = $crate::game::PyState,
            skip_from_py_object
        )]
        pub struct $py_state;

        $crate::game::redeclare_hot_methods!($py_game, $py_state);
        $crate::registry::bind_classes!($game => $py_game, $py_state, $py_view);

        /// This game's configuration inside a `Game` (another game's is a TypeError).
        #[allow(dead_code)]
        fn game_of(game: &$crate::game::PyGame) -> ::pyo3::PyResult<&$game> {
            match &game.game {
                ::cardtable_core::games::registry::AnyGame::$variant(g) => Ok(g),
                #[allow(unreachable_patterns)]
                _ => Err(::pyo3::exceptions::PyTypeError::new_err(concat!("not a ", $game_name))),
            }
        }

        /// This game's state inside a `State` (another game's is a TypeError).
        #[allow(dead_code)]
        fn state_of(state: &$crate::game::PyState) -> ::pyo3::PyResult<&$state> {
            match &state.state {
                ::cardtable_core::games::registry::AnyState::$variant(s) => Ok(s),
                #[allow(unreachable_patterns)]
                _ => Err(::pyo3::exceptions::PyTypeError::new_err(concat!("not a ", $state_name))),
            }
        }
    };
}
pub(crate) use game_classes;

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
