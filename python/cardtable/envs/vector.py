"""Many games stepped in one call, behind Gymnasium's vector API.

The games run in Rust (``cardtable._core.VectorEnv``): one call steps every
sub-environment on all cores and writes observations, action masks, legal
action lists, rewards and flags into numpy arrays in place. This class adds
Gymnasium's spaces and return values::

    env = VectorEnv("tonk", num_envs=1024, seed=7)               # self-play
    env = VectorEnv("tonk", num_envs=1024, opponents=["greedy"])  # vs a bot
    obs, info = env.reset(seed=7)
    obs, reward, terminated, truncated, info = env.step(actions)

* Observations are a dict of batched arrays, as in the single environments:
  ``"observation"`` (num_envs, observation_size) float32 and
  ``"action_mask"`` (num_envs, num_distinct_actions) int8, both of the seat
  to act. ``info["legal_actions"]`` and ``info["legal_counts"]`` give the
  same legal actions as lists (row i's first ``legal_counts[i]`` entries),
  which makes sampling a legal action O(1) per row.
* Rewards are changes of each seat's running returns over the step (the
  caller's action and the bots' replies): Tonk pays at the end of a hand
  (and its spades side bet when it is shown), Three Thirteen after each
  round. With opponents, the reward is the learner's; in self-play it is the
  seat's that acted, and ``info["rewards"]`` has every seat's.
* A game its rules end is terminated; one a guard stopped (the engine's
  ``game.guard_endings()``: Tonk's stall guard, the real-time time and deal
  limits) or that reached ``max_episode_steps`` is truncated, never both.
* Resets are automatic and in the same step (``AutoresetMode.SAME_STEP``):
  a row whose game ended shows its next game, with the last observation in
  ``info["final_obs"]`` (an object array, None for other rows, as
  Gymnasium's own vector environments give it).
* Real-time games (Spit, Speed) step in lockstep ticks of ``dt`` ms (rules
  RT-9 (c)) with one learner against bots: its action space has one more
  id, the last, meaning "no intent this tick" (always legal), as in the
  single environments; ``info["acted"]`` says whether its intent was taken.
  Their self-play, several agents at once, is the Rust environment's
  (``VectorEnv.core`` shapes have an agent axis) or PettingZoo's Parallel
  environment's.
* Game ``k`` of row ``i`` is dealt from ``derive_seed(derive_seed(seed, i),
  k)``: the same for any number of threads.
* With ``copy=False`` the arrays returned are the environment's own,
  read-only and overwritten by the next step: the fastest form, for loops
  that consume each step before the next.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from cardtable import _core
from cardtable.envs._common import DEFAULT_MAX_STEPS, observation_space
from cardtable.envs.single_agent import DEFAULT_OPPONENT

__all__ = ["VectorEnv", "learner_vector_env"]


def load(game: str | _core.Game, options: dict[str, Any]) -> _core.Game:
    """The game a registry name and rule options name, or a given Game."""
    if isinstance(game, str):
        loaded: _core.Game = _core.load_game(game, **options)
        return loaded
    if options:
        raise TypeError("rule options go with a game name, not with a Game object")
    return game


class VectorEnv(gymnasium.vector.VectorEnv[dict[str, Any], Any, Any]):
    """``num_envs`` games of ``game`` (a registry name or a ``Game``) with
    its rule options as keywords. ``opponents``: bot specs for the seats
    other than ``seat`` (the learner's), in seat order; None for self-play,
    where the caller plays every seat."""

    def __init__(
        self,
        game: str | _core.Game,
        num_envs: int,
        *,
        opponents: Sequence[str] | None = None,
        seat: int = 0,
        seed: int = 0,
        max_episode_steps: int | None = DEFAULT_MAX_STEPS,
        dt: int | None = None,
        threads: int | None = None,
        copy: bool = True,
        **options: Any,
    ) -> None:
        game = load(game, options)
        seats: list[str | None] | None = None
        if opponents is not None:
            seats = list(opponents)
            seats.insert(seat, None)
        elif game.real_time:
            raise ValueError(
                f"{game.name} is real-time: give opponents for the learner to face (several "
                "agents at once are VectorEnv.core's or the PettingZoo Parallel environment's)"
            )
        self.metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}
        self._core = _core.VectorEnv(
            game,
            num_envs,
            seed,
            seats,
            max_episode_steps=max_episode_steps,
            dt=dt,
            threads=threads,
        )
        self._learner = seat if opponents is not None else None
        self._copy = copy
        self._real_time = self._core.real_time
        self.num_envs = num_envs
        core = self._core
        # The Rust arrays are made once and written in place by every step:
        # their Gymnasium-shaped views are taken once too, so a step does no
        # attribute look-ups or reshapes (issue 23 item 3's overhead).
        self._observation = self._shaped(core.observations)
        self._action_mask = self._shaped(core.action_masks)
        self._legal = self._shaped(core.legal_actions)
        self._legal_counts = self._shaped(core.legal_counts)
        # Per row, whatever the game (no agent axis).
        self._rewards = core.rewards
        self._terminated = core.terminations
        self._truncated = core.truncations
        self._to_play = self._shaped(core.to_play)
        self._acted = self._shaped(core.acted)
        self._learner_reward = None if self._learner is None else self._rewards[:, seat]
        self._rows = np.arange(num_envs)
        self.game = game
        # A real-time game's learner may also wait: one more id, the last.
        wait = self._core.wait_action
        self._actions = game.num_distinct_actions() + (0 if wait is None else 1)
        self.num_actions = self._actions
        """The size of the action space (a real-time learner's wait included)."""
        self.single_observation_space = observation_space(game, self._actions)
        self.single_action_space = gymnasium.spaces.Discrete(self._actions)
        # A finished game's mask: nothing is legal (shared, read-only).
        self._no_actions = np.zeros(self._actions, dtype=np.int8)
        self._no_actions.flags.writeable = False
        # copy=False: each row's final observation as a dict of views of the
        # Rust buffer, made once (the buffer is the environment's for life).
        self._final_views = np.full(num_envs, None, dtype=object)
        # copy=False: the one object array `final_obs` is given as (an
        # object array of 1,024 Nones costs more to make than a Tonk step's
        # other outputs), and the rows it filled last.
        self._final_obs = np.full(num_envs, None, dtype=object)
        self._final_rows = np.zeros(0, dtype=np.intp)
        if not copy:
            finals = self._shaped(self._core.final_observations)
            self._final_views[:] = [
                {"observation": row, "action_mask": self._no_actions} for row in finals
            ]
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def action_masks(self) -> np.ndarray[Any, Any]:
        """(num_envs, n) bool: each row's legal actions now (the
        observation's ``action_mask`` as booleans; MaskablePPO's method)."""
        return self._action_mask.astype(bool)

    @property
    def core(self) -> _core.VectorEnv:
        """The Rust environment, whose arrays this class returns."""
        return self._core

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray[Any, Any]], dict[str, Any]]:
        """New games everywhere: with ``seed`` (an int), the run starts again
        from it; without, each row deals its next game."""
        if isinstance(seed, list):
            raise TypeError("seed the whole vector with one integer (rows derive theirs)")
        self._core.reset(seed)
        return self._observations(), self._infos(ended=None)

    def step(
        self, actions: Any
    ) -> tuple[
        dict[str, np.ndarray[Any, Any]],
        np.ndarray[Any, Any],
        np.ndarray[Any, Any],
        np.ndarray[Any, Any],
        dict[str, Any],
    ]:
        self._core.step(actions)
        if self._learner_reward is not None:
            reward = self._out(self._learner_reward)
        else:
            # Self-play of a turn-based game: the reward of the seat that acted.
            reward = self._rewards[self._rows, self._acted]
        terminated, truncated = self._terminated, self._truncated
        return (
            self._observations(),
            reward,
            self._out(terminated),
            self._out(truncated),
            self._infos(terminated | truncated),
        )

    def _out(self, array: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        """An output (one of the shaped views), copied unless ``copy=False``."""
        return array.copy() if self._copy else array

    def _shaped(self, array: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        """The one agent axis of a real-time run dropped (a view)."""
        if self._real_time:
            return array.reshape(self.num_envs, *array.shape[2:])
        return array

    def _legal_lists(self) -> np.ndarray[Any, Any]:
        """The legal lists, cut to the longest: row i's first
        ``legal_counts[i]`` entries (a copy a few columns wide, not one as
        wide as the action space)."""
        width = int(self._legal_counts.max(initial=0))
        return self._out(self._legal[:, :width])

    def _observations(self) -> dict[str, np.ndarray[Any, Any]]:
        return {
            "observation": self._out(self._observation),
            "action_mask": self._out(self._action_mask),
        }

    def _infos(self, ended: np.ndarray[Any, Any] | None) -> dict[str, Any]:
        infos: dict[str, Any] = {
            "to_play": self._out(self._to_play),
            "legal_actions": self._legal_lists(),
            "legal_counts": self._out(self._legal_counts),
        }
        if ended is None:
            return infos
        infos["acted"] = self._out(self._acted)
        infos["rewards"] = self._out(self._rewards)
        rows = np.flatnonzero(ended)
        if len(rows):
            # Gymnasium's form: an object array, a dict per ended row and
            # None for the others.
            if self._copy:
                # One copy of the ended rows, a dict of views of it per row.
                final = np.full(self.num_envs, None, dtype=object)
                finals = self._shaped(self._core.final_observations)[rows]
                final[rows] = [{"observation": o, "action_mask": self._no_actions} for o in finals]
            else:
                # The environment's own dicts of views of its own buffer, in
                # its own object array (valid until the next step, as every
                # output of copy=False).
                final = self._final_obs
                final[self._final_rows] = None
                final[rows] = self._final_views[rows]
                self._final_rows = rows
            infos["final_obs"] = final
            infos["_final_obs"] = ended  # made afresh by each step
        return infos


def learner_vector_env(
    game: str,
    num_envs: int = 1,
    *,
    opponents: str | Sequence[str] | None = None,
    seat: int = 0,
    render_mode: str | None = None,
    **kwargs: Any,
) -> VectorEnv:
    """``gymnasium.make_vec("cardtable/<Game>-v0", num_envs=n)``'s
    environment: the Rust ``VectorEnv`` of the learner at ``seat`` against
    the same opponents as ``gymnasium.make``'s (``opponents``: one bot spec
    for every other seat, a list of one per other seat, default ``"random"``).
    Other keywords are ``VectorEnv``'s and the game's rule options."""
    if render_mode is not None:
        raise ValueError("the vector environment does not render: render a single environment")
    players = load(game, {k: v for k, v in kwargs.items() if k not in _VECTOR_KEYWORDS}).players
    if opponents is None or isinstance(opponents, str):
        specs = [opponents or DEFAULT_OPPONENT] * (players - 1)
    else:
        specs = list(opponents)
    return VectorEnv(game, num_envs, opponents=specs, seat=seat, **kwargs)


#: VectorEnv's own keywords (the rest are rule options).
_VECTOR_KEYWORDS = frozenset({"seed", "max_episode_steps", "dt", "threads", "copy"})
