"""The PettingZoo AEC environment of every turn-based game (Tonk, Three
Thirteen, and any turn-based game the registry adds)."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import AECEnv

from cardtable._core import observe
from cardtable.envs._common import (
    DEFAULT_MAX_STEPS,
    RENDER_MODES,
    TURN_BASED_RENDER_FPS,
    Action,
    Observation,
    ViewText,
    agent_names,
    check_limit,
    check_render_mode,
    draw_seed,
    is_real_time,
    new_rng,
    observation_space,
    present,
    warn_no_render_mode,
)
from cardtable.games import Game, State, load_game

__all__ = ["TurnBasedEnv"]


class TurnBasedEnv(AECEnv[str, Observation, Action | None]):
    """One game of a turn-based registry game, as a PettingZoo AEC environment.

    ``TurnBasedEnv("tonk", players=3, render_mode="ansi")``: the keywords other
    than ``render_mode`` and ``max_cycles`` are the game's rule options
    (``load_game``; a bad one raises ``InvalidConfigError`` naming it).

    - Agents ``player_0`` .. ``player_{n-1}`` sit at seats 0 .. n-1; the agent
      selected is the seat the engine asks to decide (``current_player()``),
      which may decide several times running (a Tonk turn is a draw, then
      spreads and hits, then a discard).
    - Observation: ``{"observation": state.observation(seat), "action_mask":
      int8 mask of state.legal_actions()}``; the mask of a seat that is not
      to decide is all zeros. Action space ``Discrete(num_distinct_actions())``.
    - An action outside the mask raises the engine's ``IllegalActionError``
      and changes nothing (the same agent is still to act).
    - Rewards: each step, every seat's change of ``state.running_returns()``
      (what it has won so far). An episode is one state of the game, so the
      rewards of an episode sum to ``state.returns()``: for Tonk one hand,
      paid when it ends (and the spades side bet when it settles); for Three
      Thirteen a whole game, each round's score margin paid when the round
      is scored.
    - A deal the rules settle before anybody decides (a Tonk deal win or
      void hand) leaves nothing to learn: ``reset`` deals again.
    - A game its rules end terminates every agent; one a guard ends (the
      engine's ``game.guard_endings()``: Tonk's stall guard, TK-10.7)
      truncates them, as Gymnasium's convention has it.
    - ``max_cycles``: when the seat to decide has already decided that many
      times, every agent is truncated (default ``DEFAULT_MAX_STEPS``, 50,000;
      None: games end by their own rules and guards only). PettingZoo's
      ``max_cycles_test`` does not fit this turn order: it plays actions
      sampled without the mask and expects one action per agent a cycle,
      while a Tonk turn is several decisions of one seat. The game's module
      (``cardtable.envs.tonk_v0.env()``) is the form that does: PettingZoo's
      AEC conversion of the Parallel environment.
    - ``action_mask(agent)``: the agent's mask now (what ``observe`` gives).
    - Seeding: ``reset(seed=s)`` deals from a seed drawn from Gymnasium's
      generator of ``s``; ``reset()`` draws the next one, so a seed fixes every
      later episode too.
    - ``render()`` returns the text of what the selected seat sees
      (``render_mode="ansi"``) or prints it (``"human"``).
    """

    def __init__(
        self,
        game: str,
        *,
        render_mode: str | None = None,
        max_cycles: int | None = DEFAULT_MAX_STEPS,
        **options: Any,
    ) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.game: Game = load_game(game, **options)
        if is_real_time(self.game):
            raise ValueError(
                f"{self.game.name} is a real-time game: use cardtable.envs.parallel_env"
            )
        self.metadata = {
            "render_modes": RENDER_MODES,
            "name": f"{self.game.name}_v0",
            "is_parallelizable": False,
            "render_fps": TURN_BASED_RENDER_FPS,
        }
        self.render_mode = check_render_mode(render_mode)
        self.max_cycles = check_limit("max_cycles", max_cycles)
        self.num_actions = self.game.num_distinct_actions()
        self.possible_agents = agent_names(self.game.players)
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        # One space object per agent, so that seeding one does not seed another.
        self.observation_spaces = {
            a: observation_space(self.game, self.num_actions) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.num_actions) for a in self.possible_agents}
        self._view_text = ViewText(self.game)
        self._rng: np.random.Generator | None = None
        self._state: State | None = None
        self._settled: list[int] = []
        self._decisions: list[int] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def engine_state(self) -> State:
        """The engine's state of the game in progress (not a copy: do not change it)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deals a new game; ``options`` is unused."""
        if seed is not None or self._rng is None:
            self._rng = new_rng(seed)
        state = self.game.new_initial_state(draw_seed(self._rng))
        while state.is_terminal():
            state = self.game.new_initial_state(draw_seed(self._rng))
        self._state = state
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._settled = state.running_returns()
        self._decisions = [0] * len(self.agents)
        self.agent_selection = self._agent_to_move(state)

    def observe(self, agent: str) -> Observation:
        # The observation and the mask in one call to the engine.
        observation, mask = observe(self.engine_state, self._seat[agent])
        return {"observation": observation, "action_mask": mask}

    def action_mask(self, agent: str) -> NDArray[np.int8]:
        """``agent``'s legal actions now (all zeros unless it is to decide)."""
        return observe(self.engine_state, self._seat[agent])[1]

    def step(self, action: Action | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is the action of a finished agent only")
        state = self.engine_state
        state.apply_action(action)  # an illegal action raises and changes nothing
        self._decisions[self._seat[agent]] += 1
        self._cumulative_rewards[agent] = 0.0
        settled = state.running_returns()
        for seat, a in enumerate(self.possible_agents):
            self.rewards[a] = float(settled[seat] - self._settled[seat])
        self._settled = settled
        if state.is_truncated():  # a guard's ending (Game.guard_endings())
            self.truncations = dict.fromkeys(self.agents, True)
        elif state.is_terminal():
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self._agent_to_move(state)
            seat = self._seat[self.agent_selection]
            if self.max_cycles is not None and self._decisions[seat] >= self.max_cycles:
                self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            warn_no_render_mode()
            return None
        state = self.engine_state
        seat = self._seat[self.agent_selection]
        legal = state.legal_actions() if state.current_player() == seat else []
        return present(self.render_mode, self._view_text(seat, state.view(seat), legal))

    def close(self) -> None:
        """Nothing to release: the game lives in the engine's memory."""

    def _agent_to_move(self, state: State) -> str:
        seat = state.current_player()
        assert seat is not None  # a turn-based state not over always has a seat to move
        return self.possible_agents[seat]
