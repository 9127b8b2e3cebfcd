"""The PettingZoo Parallel form of every turn-based game (Tonk, Three
Thirteen, and any turn-based game the registry adds): every agent acts each
step, as in the real-time games' Parallel environment, for multi-agent code
that drives all agents at once."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from cardtable.envs._common import (
    DEFAULT_MAX_STEPS,
    TURN_BASED_RENDER_FPS,
    Action,
    Observation,
    action_mask,
    draw_seed,
    is_real_time,
    present,
    warn_no_render_mode,
)
from cardtable.envs._parallel import ParallelForm
from cardtable.games import Game, State, load_game

__all__ = ["TurnBasedParallelEnv"]


class TurnBasedParallelEnv(ParallelForm):
    """One game of a turn-based registry game, every seat an agent, as a
    PettingZoo Parallel environment.

    ``TurnBasedParallelEnv("tonk", players=3)``: the keywords other than
    ``max_cycles`` and ``render_mode`` are the game's rule options.

    - A step is one decision of the game: every live agent gives an action,
      and the one of the seat to decide is played. The others pass.
    - Action space ``Discrete(num_distinct_actions() + 1)``: the game's
      actions and one more, the last id (``pass_action``), for "nothing to
      do": the only id in the mask of a seat that is not to decide, never in
      the mask of the seat that is.
    - An action outside the agent's mask changes nothing, as a real-time
      intent that no longer fits bounces (``infos[agent]["bounced"]``); the
      seat to decide is still to decide. (The turn-order AEC environment,
      ``cardtable.envs.env``, raises instead.)
    - Observation, rewards (each seat's change of ``running_returns()``),
      seeding and the skipped deals that decide themselves are those of
      ``TurnBasedEnv``. A guard's ending (``game.guard_endings()``) and
      ``max_cycles`` steps (default ``DEFAULT_MAX_STEPS``, 50,000; None: no
      limit but the game's) truncate every agent.
    - ``action_mask(agent)``: the agent's mask now.
    - ``render()`` returns the view of the seat to decide
      (``render_mode="ansi"``) or prints it (``"human"``).
    - Its AEC conversion (PettingZoo's ``parallel_to_aec``) is the game's
      module's ``env()``: every agent acts once a cycle, as PettingZoo's
      test suite (``max_cycles_test`` among them) expects.
    """

    def __init__(
        self,
        game: str,
        *,
        max_cycles: int | None = DEFAULT_MAX_STEPS,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        loaded: Game = load_game(game, **options)
        if is_real_time(loaded):
            raise ValueError(f"{loaded.name} is a real-time game: use cardtable.envs.parallel_env")
        super().__init__(
            loaded,
            render_fps=TURN_BASED_RENDER_FPS,
            max_cycles=max_cycles,
            render_mode=render_mode,
        )
        self.pass_action = self.extra_action
        self._state: State | None = None
        self._settled: list[int] = []
        self._steps = 0

    @property
    def engine_state(self) -> State:
        """The engine's state of the game in progress (not a copy: do not change it)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        """Deals a new game; ``options`` is unused."""
        rng = self._generator(seed)
        state = self.game.new_initial_state(draw_seed(rng))
        while state.is_terminal():  # decided by the deal: nothing to learn
            state = self.game.new_initial_state(draw_seed(rng))
        self._state = state
        self.agents = self.possible_agents[:]
        self._settled = state.running_returns()
        self._steps = 0
        return self._observations(state), {a: {} for a in self.agents}

    def step(
        self, actions: dict[str, Action]
    ) -> tuple[
        dict[str, Observation],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        state = self.engine_state
        mover = state.current_player()
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        for agent, seat, action in self._checked(actions):
            if seat == mover and state.is_legal(action):
                state.apply_action(action)
            elif seat == mover or action != self.pass_action:
                infos[agent]["bounced"] = True
        self._steps += 1
        settled = state.running_returns()
        rewards = {a: float(settled[s] - self._settled[s]) for a, s in self._seat.items()}
        self._settled = settled
        # A guard's ending (the engine's Game.guard_endings()) is a truncation.
        guarded = state.is_truncated()
        terminated = state.is_terminal() and not guarded
        truncated = guarded or (
            not state.is_terminal()
            and self.max_cycles is not None
            and self._steps >= self.max_cycles
        )
        observations = self._observations(state)
        terminations = dict.fromkeys(self.agents, terminated)
        truncations = dict.fromkeys(self.agents, truncated)
        if terminated or truncated:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        if self.render_mode is None:
            warn_no_render_mode()
            return None
        state = self.engine_state
        seat = state.current_player()
        if seat is None:
            seat = 0
        text = self._view_text(seat, state.view(seat), state.legal_actions())
        return present(self.render_mode, text)

    def close(self) -> None:
        """Nothing to release: the game lives in the engine's memory."""

    def _mask(self, seat: int) -> NDArray[np.int8]:
        state = self.engine_state
        if seat == state.current_player():
            return action_mask(self.num_actions, state.legal_actions())
        return action_mask(self.num_actions, [self.pass_action])
