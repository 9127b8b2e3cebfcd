"""Stable-Baselines3's vector form of every registry game: the Rust
``VectorEnv`` behind SB3's ``VecEnv`` API, the learner at one seat and the
engine's bots at the others, with the masks MaskablePPO asks for::

    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor
    from cardtable.envs.sb3 import SB3VecEnv

    env = VecMonitor(SB3VecEnv("tonk", num_envs=64, opponents="random", seed=1))
    model = MaskablePPO("MultiInputPolicy", env, seed=1).learn(100_000)

Needs the ``sb3`` extra: ``pip install 'cardtable[sb3]'``.

* Observations are the single environments' dict, batched:
  ``"observation"`` (num_envs, observation_size) float32 and
  ``"action_mask"`` (num_envs, n) int8. ``action_masks()`` gives the masks
  as booleans (``env_method("action_masks")``, MaskablePPO's call, gives
  them row by row).
* A step is the learner's decision and the bots' replies up to its next
  decision, as in ``SingleAgentEnv``; rewards are the learner's (Tonk: a
  hand, paid at its end; Three Thirteen: a whole game, paid round by round).
* Resets are automatic, SB3's way: a finished row shows its next game, its
  last observation in ``infos[i]["terminal_observation"]``, and
  ``infos[i]["TimeLimit.truncated"]`` says a limit (``max_episode_steps``,
  default ``DEFAULT_MAX_STEPS``, or a game guard) cut it.
* Seeding: ``seed(s)`` (SB3's) or ``seed=`` here fixes every row's games
  (row i's k-th game is dealt from ``derive_seed(derive_seed(s, i), k)``),
  for any number of threads.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

try:
    from stable_baselines3.common.vec_env import VecEnv
    from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices
except ImportError as error:
    raise ImportError(
        "cardtable.envs.sb3 needs Stable-Baselines3: pip install 'cardtable[sb3]'"
    ) from error

from cardtable.envs.vector import learner_vector_env

__all__ = ["SB3VecEnv"]

Batch = dict[str, np.ndarray[Any, Any]]
"""The observations of every row: the single observation's keys, batched."""

StepReturn = tuple[Batch, np.ndarray[Any, Any], np.ndarray[Any, Any], list[dict[str, Any]]]
"""SB3's step: observations, rewards, dones and one info dict per row."""


class SB3VecEnv(VecEnv):
    """``num_envs`` games of ``game`` for SB3: ``opponents`` (one bot spec
    for every other seat, or a list of one per other seat; default
    ``"random"``), the learner's ``seat``, and every other keyword
    ``VectorEnv``'s (``seed``, ``max_episode_steps``, ``dt``, ``threads``)
    or a rule option of the game."""

    def __init__(
        self,
        game: str,
        num_envs: int,
        *,
        opponents: str | Sequence[str] | None = None,
        seat: int = 0,
        **kwargs: Any,
    ) -> None:
        # copy=False: this class copies what it hands out, once.
        self.vector = learner_vector_env(
            game, num_envs, opponents=opponents, seat=seat, copy=False, **kwargs
        )
        self.game = self.vector.game
        self.render_mode = None  # SB3 asks; the rows do not render
        super().__init__(
            num_envs,
            self.vector.single_observation_space,
            self.vector.single_action_space,
        )
        self._actions: np.ndarray[Any, Any] | None = None
        self._no_actions = np.zeros(self.vector.num_actions, dtype=np.int8)

    def reset(self) -> Batch:
        """New games everywhere: from the seed ``seed()`` gave, if it gave
        one since the last reset; else each row deals its next game."""
        seed = self._seeds[0]
        obs, _ = self.vector.reset(seed=seed)
        self._reset_seeds()
        return _copied(obs)

    def step_async(self, actions: np.ndarray[Any, Any]) -> None:
        self._actions = np.asarray(actions)

    def step(self, actions: np.ndarray[Any, Any]) -> StepReturn:
        self.step_async(actions)
        return self.step_wait()

    def step_wait(self) -> StepReturn:
        if self._actions is None:
            raise RuntimeError("step_wait() without step_async()")
        obs, rewards, terminated, truncated, info = self.vector.step(self._actions)
        self._actions = None
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            final = info["final_obs"][i]
            infos[i]["terminal_observation"] = {
                "observation": np.array(final["observation"]),
                "action_mask": self._no_actions.copy(),
            }
            infos[i]["TimeLimit.truncated"] = bool(truncated[i])
        return _copied(obs), np.array(rewards, dtype=np.float32), dones.copy(), infos

    def action_masks(self) -> np.ndarray[Any, Any]:
        """(num_envs, n) bool: each row's legal actions now."""
        return self.vector.action_masks()

    def close(self) -> None:
        """Nothing to release: the games live in the engine's memory."""

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        value = getattr(self, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        raise AttributeError(
            f"{attr_name}: the rows of a cardtable vector share one engine; "
            "make a new SB3VecEnv with other settings"
        )

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        rows = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in rows]
        value = getattr(self, method_name)(*method_args, **method_kwargs)
        return [value for _ in rows]

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    def get_images(self) -> Sequence[np.ndarray[Any, Any] | None]:
        return [None for _ in range(self.num_envs)]

    def _get_indices(self, indices: VecEnvIndices) -> Iterable[int]:
        rows: Iterable[int] = super()._get_indices(indices)
        return rows


def _copied(obs: Batch) -> Batch:
    return {key: np.array(value) for key, value in obs.items()}
