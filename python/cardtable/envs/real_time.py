"""The PettingZoo Parallel environment of every real-time game (Spit, Speed,
and any game the registry adds on the virtual clock), over the lockstep run
mode of the rules, RT-9 (c): ``Session.step(joint_actions, dt)``."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from cardtable.envs._common import (
    DEFAULT_MAX_STEPS,
    Action,
    Observation,
    action_mask,
    draw_seed,
    is_real_time,
    present,
    warn_no_render_mode,
)
from cardtable.envs._parallel import ParallelForm
from cardtable.games import Game, Session, State, load_game

__all__ = ["RealTimeParallelEnv"]


class RealTimeParallelEnv(ParallelForm):
    """One game of a real-time registry game, every seat an agent, as a
    PettingZoo Parallel environment.

    ``RealTimeParallelEnv("spit", dt=100, stock_piles=4)``: the keywords other
    than ``dt``, ``max_cycles`` and ``render_mode`` are the game's rule
    options (``load_game``; a bad one raises ``InvalidConfigError`` naming it).

    - A step is one lockstep tick: every agent's action becomes an intent
      that lands now (same-millisecond intents are ordered by the game's
      ``tie_break``, RT-6), then the virtual clock moves ``dt`` ms (default
      100), in which the engine's timers run.
    - Action space ``Discrete(num_distinct_actions() + 1)``: the game's
      actions, and one more, the last id (``wait_action``), for "no intent
      this tick" (an environment convention, always in the mask). An agent
      left out of the action dict waits too.
    - Like a person's key, an intent is checked when it lands: one that the
      mask did not allow, or that another seat's commit just made illegal,
      bounces and changes nothing (RT-5); ``infos[agent]["bounced"]`` is
      True then (and for an intent a busy hand refused).
    - ``action_mask(agent)``: the agent's mask now.
    - Observation: ``{"observation": state.observation(seat), "action_mask":
      int8 mask of the seat's legal actions now, plus wait}``.
    - Rewards: each seat's change of ``running_returns()`` over the tick; they
      sum over an episode (one game, or match with ``match_games``) to
      ``returns()``. With ``progress_reward`` (default 0.0), each card a
      seat sheds (its ``cards_left`` falling) pays it that much more, and
      each card it gathers back costs as much: a signal long before the
      game's end.
    - The game ending by its rules terminates every agent; its guards
      (``game.guard_endings()``: ``max_virtual_ms``, ``max_deals``, RT-12)
      and ``max_cycles`` ticks (default ``DEFAULT_MAX_STEPS``, 50,000; the
      hour of ``max_virtual_ms`` comes first at the default ``dt``; None:
      the guards only) truncate them.
    - Seeding: ``reset(seed=s)`` starts a session from a seed drawn from
      Gymnasium's generator of ``s`` (the deal and the seeded tie-break coin);
      ``reset()`` draws the next one.
    - ``render()`` returns each seat's view in turn (``render_mode="ansi"``)
      or prints them (``"human"``).
    """

    def __init__(
        self,
        game: str,
        *,
        dt: int = 100,
        max_cycles: int | None = DEFAULT_MAX_STEPS,
        render_mode: str | None = None,
        progress_reward: float = 0.0,
        **options: Any,
    ) -> None:
        loaded: Game = load_game(game, **options)
        if not is_real_time(loaded):
            raise ValueError(f"{loaded.name} is turn-based: use cardtable.envs.env")
        if dt < 1:
            raise ValueError(f"dt must be at least 1 ms, got {dt}")
        super().__init__(
            loaded, render_fps=1000 / dt, max_cycles=max_cycles, render_mode=render_mode
        )
        if not -1e6 <= progress_reward <= 1e6:  # also refuses NaN
            raise ValueError(f"progress_reward must be a finite number, got {progress_reward}")
        self.progress_reward = float(progress_reward)
        self.dt = dt
        self.wait_action = self.extra_action
        self._session: Session | None = None
        self._settled: list[int] = []
        self._cards_left: list[int] = []
        self._log_read = 0
        self._ticks = 0

    @property
    def session(self) -> Session:
        """The engine's session of the game in progress."""
        if self._session is None:
            raise RuntimeError("call reset() first")
        return self._session

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        """Starts a new game; ``options`` is unused."""
        rng = self._generator(seed)
        self._session = Session(self.game, [None] * self.game.players, draw_seed(rng))
        self.agents = self.possible_agents[:]
        self._ticks = 0
        self._log_read = 0
        state = self._session.state
        self._settled = state.running_returns()
        self._cards_left = self._left(state)
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
        session = self.session
        intents = [(seat, a) for _, seat, a in self._checked(actions) if a != self.wait_action]
        taken = session.step(intents, self.dt)
        commits = session.log(self._log_read)
        self._log_read += len(commits)
        refused = {seat for (seat, _), took in zip(intents, taken, strict=True) if not took}
        refused |= {seat for _, seat, _, bounced in commits if bounced}
        self._ticks += 1
        state = session.state
        settled = state.running_returns()
        rewards = {a: float(settled[s] - self._settled[s]) for a, s in self._seat.items()}
        self._settled = settled
        if self.progress_reward:
            left = self._left(state)
            for agent, seat in self._seat.items():
                rewards[agent] += self.progress_reward * (self._cards_left[seat] - left[seat])
            self._cards_left = left
        over = state.is_terminal()
        # A guard's ending (the engine's Game.guard_endings()) is a truncation.
        truncated = state.is_truncated() or (
            self.max_cycles is not None and self._ticks >= self.max_cycles
        )
        terminated = over and not truncated
        observations = self._observations(state)
        terminations = dict.fromkeys(self.agents, terminated)
        truncations = dict.fromkeys(self.agents, truncated)
        infos: dict[str, dict[str, Any]] = {
            a: {"bounced": True} if self._seat[a] in refused else {} for a in self.agents
        }
        if terminated or truncated:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        if self.render_mode is None:
            warn_no_render_mode()
            return None
        session = self.session
        text = "\n".join(
            self._view_text(seat, session.view(seat), session.legal_actions(seat))
            for seat in range(self.game.players)
        )
        return present(self.render_mode, text)

    def close(self) -> None:
        """Nothing to release: the session lives in the engine's memory."""

    def _mask(self, seat: int) -> NDArray[np.int8]:
        mask = action_mask(self.num_actions, self.session.legal_actions(seat))
        mask[self.wait_action] = 1
        return mask

    def _left(self, state: State) -> list[int]:
        """Each seat's cards still to shed (``progress_reward``'s measure)."""
        return [state.cards_left(seat) or 0 for seat in range(self.game.players)]
