"""What the two PettingZoo Parallel forms share (real-time games in
lockstep ticks, turn-based games one decision a step): every seat an agent,
the game's actions and one more id, the spaces, seeding and the checks of
an action dict."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import ParallelEnv

from cardtable.envs._common import (
    RENDER_MODES,
    Action,
    Observation,
    ViewText,
    agent_names,
    check_limit,
    check_render_mode,
    new_rng,
    observation_space,
)
from cardtable.games import Game, State

__all__ = ["ParallelForm"]


class ParallelForm(ParallelEnv[str, Observation, Action], ABC):
    """Agents ``player_0`` .. ``player_{n-1}`` at seats 0 .. n-1, action
    space ``Discrete(num_distinct_actions() + 1)``: the last id
    (``extra_action``) is the environment's own, waiting or passing."""

    def __init__(
        self,
        game: Game,
        *,
        render_fps: float,
        max_cycles: int | None,
        render_mode: str | None,
    ) -> None:
        self.game = game
        self.metadata = {
            "render_modes": RENDER_MODES,
            "name": f"{game.name}_v0",
            "render_fps": render_fps,
        }
        self.render_mode = check_render_mode(render_mode)
        self.max_cycles = check_limit("max_cycles", max_cycles)
        self.extra_action = game.num_distinct_actions()
        self.num_actions = self.extra_action + 1
        self.possible_agents = agent_names(game.players)
        self.agents = []
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        # One space object per agent, so that seeding one does not seed another.
        self.observation_spaces = {
            a: observation_space(game, self.num_actions) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.num_actions) for a in self.possible_agents}
        self._view_text = ViewText(game)
        self._rng: np.random.Generator | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def action_mask(self, agent: str) -> NDArray[np.int8]:
        """``agent``'s legal actions now, the extra id included where it
        is (what its observation's ``action_mask`` says)."""
        return self._mask(self._seat[agent])

    @abstractmethod
    def _mask(self, seat: int) -> NDArray[np.int8]:
        """``seat``'s mask now (the form says what is legal)."""

    def _observations(self, state: State) -> dict[str, Observation]:
        return {
            agent: {
                "observation": state.observation(self._seat[agent]),
                "action_mask": self._mask(self._seat[agent]),
            }
            for agent in self.agents
        }

    def _generator(self, seed: int | None) -> np.random.Generator:
        """The generator deals are drawn from: a new one for a seed (or the
        first reset), else the one of the last seed."""
        if seed is not None or self._rng is None:
            self._rng = new_rng(seed)
        return self._rng

    def _checked(self, actions: Mapping[str, Action]) -> list[tuple[str, int, int]]:
        """(agent, seat, action) of each entry, once each is known to be a
        live agent's id in the action space."""
        if not self.agents:
            raise RuntimeError("the game is over: call reset()")
        out = []
        for agent, action in actions.items():
            if agent not in self.agents:
                raise ValueError(f"{agent!r} is not an agent of this game in progress")
            if not 0 <= action < self.num_actions:
                raise ValueError(
                    f"{agent}: action {action} is outside Discrete({self.num_actions})"
                )
            out.append((agent, self._seat[agent], int(action)))
        return out
