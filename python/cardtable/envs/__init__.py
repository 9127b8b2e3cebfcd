"""Learning environments of every registry game (``game_names()``), made from
the engine layer, none written for one game:

- PettingZoo AEC for the turn-based games (``TurnBasedEnv``), every seat an
  agent;
- PettingZoo Parallel for the real-time games over the lockstep ticks of
  rules RT-9 (c) (``RealTimeParallelEnv``; their AEC form is PettingZoo's
  ``parallel_to_aec`` of it), and for the turn-based games too, every agent
  acting each step and all but the seat to decide passing
  (``TurnBasedParallelEnv``);
- Gymnasium, one seat against the engine's bots (``SingleAgentEnv``),
  registered as ``cardtable/<Game>-v0`` (``three_thirteen``:
  ``cardtable/ThreeThirteen-v0``) when this package is imported;
- Gymnasium's vector API over many games stepped in one call in Rust
  (``VectorEnv``; ``cardtable._core.VectorEnv`` is the bare form).

Each game also has a PettingZoo-style module, ``cardtable.envs.<game>_v0``,
with ``env(**kwargs)`` and ``parallel_env(**kwargs)``, that passes
PettingZoo's whole test suite: its ``env()`` is PettingZoo's AEC conversion
of ``parallel_env()``, every agent acting once a cycle (the seats not to
decide pass, their mask holding only the pass id); ``envs.env(game)`` is the
turn-order AEC, where the seat to decide acts, several times running if the
rules say so::

    from cardtable.envs import tonk_v0
    env = tonk_v0.env(players=3, render_mode="ansi")
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else int(obs["action_mask"].nonzero()[0][0])
        env.step(action)

    import gymnasium, cardtable.envs
    gym_env = gymnasium.make("cardtable/Tonk-v0", opponents=["greedy"])
    vec_env = gymnasium.make_vec("cardtable/Tonk-v0", num_envs=256)  # the Rust VectorEnv

Every environment ends an episode after ``DEFAULT_MAX_STEPS`` steps unless
told otherwise (``max_steps``, ``max_cycles``, ``max_episode_steps``).
Stable-Baselines3's vector form is ``cardtable.envs.sb3.SB3VecEnv`` (the
``sb3`` extra).

Keywords are the game's rule options (``load_game``) and the environment's
own (see each class). Needs the ``envs`` extra: ``pip install 'cardtable[envs]'``.
"""

from __future__ import annotations

import sys
import types
from typing import Any, cast

try:
    import gymnasium
    import numpy  # noqa: F401 (the observations are numpy arrays)
    import pettingzoo
    from pettingzoo.utils.conversions import parallel_to_aec
except ImportError as error:
    raise ImportError(
        "cardtable.envs needs gymnasium, pettingzoo and numpy: pip install 'cardtable[envs]'"
    ) from error

from cardtable.envs._common import (
    DEFAULT_MAX_STEPS,
    Action,
    Observation,
    is_real_time,
)
from cardtable.envs.real_time import RealTimeParallelEnv
from cardtable.envs.single_agent import DEFAULT_OPPONENT, SingleAgentEnv
from cardtable.envs.turn_based import TurnBasedEnv
from cardtable.envs.turn_based_parallel import TurnBasedParallelEnv
from cardtable.envs.vector import VectorEnv
from cardtable.games import game_names, load_game

__all__ = [
    "DEFAULT_MAX_STEPS",
    "DEFAULT_OPPONENT",
    "ENV_MODULES",
    "RealTimeParallelEnv",
    "SingleAgentEnv",
    "TurnBasedEnv",
    "TurnBasedParallelEnv",
    "VectorEnv",
    "env",
    "gym_id",
    "parallel_env",
]


_REAL_TIME: dict[str, bool] = {}


def _real_time(game: str) -> bool:
    name = load_game(game).name  # the registry's spelling ("three-thirteen" is three_thirteen)
    if name not in _REAL_TIME:
        _REAL_TIME[name] = is_real_time(load_game(name))
    return _REAL_TIME[name]


def env(game: str, **kwargs: Any) -> pettingzoo.AECEnv[str, Observation, Action | None]:
    """The PettingZoo AEC environment of a game: ``TurnBasedEnv`` for a
    turn-based game, ``parallel_to_aec(RealTimeParallelEnv(...))`` for a
    real-time one. ``kwargs``: rule options and the class's own keywords."""
    if _real_time(game):
        # PettingZoo types a converted environment's actions as optional (a
        # finished agent's None, which the converter handles itself).
        parallel = cast(
            "pettingzoo.ParallelEnv[str, Observation, Any]", RealTimeParallelEnv(game, **kwargs)
        )
        return parallel_to_aec(parallel)
    return TurnBasedEnv(game, **kwargs)


def parallel_env(game: str, **kwargs: Any) -> RealTimeParallelEnv | TurnBasedParallelEnv:
    """The PettingZoo Parallel environment of a game: lockstep ticks for a
    real-time game, one decision a step (the others passing) for a
    turn-based one."""
    if _real_time(game):
        return RealTimeParallelEnv(game, **kwargs)
    return TurnBasedParallelEnv(game, **kwargs)


def gym_id(game: str) -> str:
    """The Gymnasium id of a game: ``three_thirteen`` is ``cardtable/ThreeThirteen-v0``."""
    name = load_game(game).name
    return "cardtable/" + "".join(word.capitalize() for word in name.split("_")) + "-v0"


def _game_module(name: str) -> types.ModuleType:
    """``cardtable.envs.<name>_v0``: the game's environments, PettingZoo style."""
    module = types.ModuleType(
        f"{__name__}.{name}_v0", f"Learning environments of {name} (see cardtable.envs)."
    )

    def game_env(**kwargs: Any) -> pettingzoo.AECEnv[str, Observation, Action | None]:
        # PettingZoo types a converted environment's actions as optional (a
        # finished agent's None, which the converter handles itself).
        parallel = cast(
            "pettingzoo.ParallelEnv[str, Observation, Any]", parallel_env(name, **kwargs)
        )
        return parallel_to_aec(parallel)

    game_env.__doc__ = (
        f"parallel_to_aec(cardtable.envs.parallel_env({name!r}, **kwargs)): the AEC "
        "environment every agent acts in once a cycle (PettingZoo's convention; "
        f"cardtable.envs.env({name!r}) is the turn-order form)."
    )
    module.env = game_env  # type: ignore[attr-defined]

    def game_parallel_env(**kwargs: Any) -> RealTimeParallelEnv | TurnBasedParallelEnv:
        return parallel_env(name, **kwargs)

    game_parallel_env.__doc__ = (
        f"cardtable.envs.parallel_env({name!r}, **kwargs): the Parallel environment."
    )
    module.parallel_env = game_parallel_env  # type: ignore[attr-defined]
    module.gym_id = gym_id(name)  # type: ignore[attr-defined]
    return module


ENV_MODULES: dict[str, types.ModuleType] = {}
"""Each game's module ``cardtable.envs.<game>_v0``, by registry name."""

for _name in game_names():
    _module = _game_module(_name)
    ENV_MODULES[_name] = _module
    sys.modules[_module.__name__] = _module  # so that `import cardtable.envs.tonk_v0` works
    globals()[f"{_name}_v0"] = _module
    __all__ += [f"{_name}_v0"]  # generated from the registry
    if gym_id(_name) not in gymnasium.registry:  # a reload must not register twice
        gymnasium.register(
            gym_id(_name),
            entry_point="cardtable.envs.single_agent:SingleAgentEnv",
            vector_entry_point="cardtable.envs.vector:learner_vector_env",
            kwargs={"game": _name},
        )


def __getattr__(attribute: str) -> types.ModuleType:
    # Reached only for a name the loop above did not make: say which games
    # there are. (It also tells type checkers that `envs.<game>_v0` is a module.)
    modules = ", ".join(f"{name}_v0" for name in ENV_MODULES)
    raise AttributeError(f"module {__name__!r} has no attribute {attribute!r} (games: {modules})")
