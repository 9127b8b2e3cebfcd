"""The Gymnasium environment of every registry game: one seat for the
learner, the engine's bots at the others (registered as
``cardtable/<Game>-v0`` by ``import cardtable.envs``)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from cardtable._core import SeatTable
from cardtable.envs._common import (
    DEFAULT_MAX_STEPS,
    RENDER_MODES,
    TURN_BASED_RENDER_FPS,
    Action,
    Observation,
    ViewText,
    action_mask,
    check_limit,
    check_render_mode,
    draw_seed,
    is_real_time,
    observation_space,
    present,
    warn_no_render_mode,
)
from cardtable.games import Bot, Game, Session, State, load_game

__all__ = ["DEFAULT_OPPONENT", "SingleAgentEnv"]

DEFAULT_OPPONENT = "random"
"""The bot at the other seats unless ``opponents`` says otherwise (every game has it)."""

DEFAULT_DT = 100
"""Milliseconds of virtual time per step of a real-time game (RT-9 (c))."""


class SingleAgentEnv(gym.Env[Observation, Action]):
    """One game of any registry game from one seat, the Rust bots playing
    the others.

    ``gymnasium.make("cardtable/Tonk-v0", opponents=["strong"], seat=1)``, or
    ``SingleAgentEnv("tonk", ...)``. Keywords:

    - ``opponents``: the bot specs of the other seats in seat order (a single
      spec: that bot at each of them); default ``"random"``. Specs are the
      game's (``random``, ``greedy``, ``strong`` for Tonk and Three Thirteen;
      ``POLICY:PRESET`` such as ``smart:hard`` for Spit and Speed); a bad one
      raises ``InvalidConfigError`` naming it. There must be one per other
      seat (``players`` is a rule option).
    - ``seat``: the learner's seat (default 0).
    - ``dt``: real-time games only, virtual ms per step (default 100).
    - ``render_mode``: None, ``"ansi"`` (the learner's view as text) or
      ``"human"`` (that text printed).
    - ``max_steps``: the episode is truncated after this many steps
      (default ``DEFAULT_MAX_STEPS``, 50,000; None: no limit but the game's).
    - ``count_undecided``: turn-based games, see "Deals that decide
      themselves" below (default True).
    - ``progress_reward``: Spit and Speed, a reward for each card the learner
      sheds (its ``cards_left`` falling; gathering cards back at a new
      layout pays it back negatively), added to the game's reward: a signal
      long before the game's end (default 0.0: the game's reward only).
    - every other keyword is a rule option of the game (``load_game``).

    Spaces: observation ``Dict(observation=Box(0, 1, (observation_size,),
    float32), action_mask=Box(0, 1, (n,), int8))`` and ``Discrete(n)``: n is
    ``num_distinct_actions()`` for a turn-based game, one more for a
    real-time game, whose last id (``wait_action``) is "no intent this tick".

    A step of a turn-based game is the learner's decision and the bots'
    replies up to its next decision or the end. An action outside the mask is
    refused: nothing changes, the reward is 0 and ``info["illegal_action"]``
    is True (Gymnasium's checker, like plain learners, samples without
    the mask). ``action_masks()`` gives the mask of now as booleans (the
    method MaskablePPO looks for).

    Deals that decide themselves: a deal that ends before the learner's
    first decision (a Tonk deal win, or an opponent going out first) is
    dealt again, and ``reset``'s info says how many were skipped
    (``info["undecided"]``), how many of them the learner won
    (``info["undecided_wins"]``) and what it won in each
    (``info["undecided_returns"]``, a list). With ``count_undecided`` (the default)
    that return is added to the episode's first reward, so the rewards of
    a run sum to what the learner won over every deal dealt, as the game
    reckons it; the mean per deal is that sum over episodes plus skipped
    deals.

    A step of a real-time game is one lockstep tick (``Session.step``): the
    learner's intent lands now and the clock moves ``dt`` ms while the bots
    play on their reaction times. An intent the mask did not allow bounces
    as it lands, like a person's key (RT-5); ``info["illegal_action"]`` is
    True then, as for a refused turn-based action.

    Reward: the change of the learner's ``running_returns()`` over the step,
    so an episode's rewards sum to its ``returns()`` (Tonk: one hand; Three
    Thirteen: a whole game, paid round by round). The game ending by its
    rules terminates the episode; a guard's ending (the engine's
    ``game.guard_endings()``: Tonk's stall guard ``max_idle_rounds``, the
    real-time ``max_virtual_ms`` and ``max_deals``) and ``max_steps``
    truncate it.

    Seeding: ``reset(seed=s)`` seeds Gymnasium's ``np_random``; each reset
    draws the deal's seed from it, and the bots' seeds follow from that.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (Gymnasium reads the class's)
        "render_modes": RENDER_MODES,
        "render_fps": TURN_BASED_RENDER_FPS,
    }

    def __init__(
        self,
        game: str,
        *,
        opponents: str | Sequence[str] | None = None,
        seat: int = 0,
        dt: int | None = None,
        render_mode: str | None = None,
        max_steps: int | None = DEFAULT_MAX_STEPS,
        count_undecided: bool = True,
        progress_reward: float = 0.0,
        **options: Any,
    ) -> None:
        self.game: Game = load_game(game, **options)
        self.render_mode = check_render_mode(render_mode)
        self.max_steps = check_limit("max_steps", max_steps)
        self.count_undecided = count_undecided
        players = self.game.players
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat}: {self.game.name} has seats 0 to {players - 1}")
        self.seat = seat
        specs = _opponent_specs(opponents, players - 1, self.game.name)
        for spec in specs:
            Bot(self.game, spec, 0)  # a bad spec raises InvalidConfigError naming it
        self.opponents = specs
        self.real_time = is_real_time(self.game)
        if self.real_time:
            if dt is not None and dt < 1:
                raise ValueError(f"dt must be at least 1 ms, got {dt}")
            tick = DEFAULT_DT if dt is None else dt
            self._table: _Table = _RealTimeTable(self.game, seat, specs, tick)
            self.metadata = {**self.metadata, "render_fps": 1000 / tick}
        else:
            if dt is not None:
                raise ValueError(f"dt is for real-time games; {self.game.name} is turn-based")
            self._table = _TurnBasedTable(self.game, seat, specs)
        if progress_reward:
            if self.game.new_initial_state(0).cards_left(seat) is None:
                raise ValueError(
                    f"progress_reward is for games won by shedding cards; {self.game.name} "
                    "is not one"
                )
            if not -1e6 <= progress_reward <= 1e6:  # also refuses NaN
                raise ValueError(f"progress_reward must be a finite number, got {progress_reward}")
        self.progress_reward = float(progress_reward)
        self.num_actions = self._table.num_actions
        self.wait_action = self.num_actions - 1 if self.real_time else None
        self.action_space = spaces.Discrete(self.num_actions)
        self.observation_space = observation_space(self.game, self.num_actions)
        self._view_text = ViewText(self.game)
        self._settled = 0
        self._cards_left = 0
        self._carried = 0.0
        self._steps = 0
        self._started = False

    @property
    def engine_state(self) -> State:
        """A copy of the engine's state of the game: a turn-based game's as
        of now, a real-time session's as of the last tick."""
        return self._table.state_now()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deals a new game; ``options`` is unused."""
        super().reset(seed=seed)
        wins, returns = 0, []
        while not self._table.start(draw_seed(self.np_random)):
            # The deal ended before the learner's first decision.
            wins += self._table.won()
            returns.append(self._table.settled() - self._table.settled_at_start)
        self._settled = self._table.settled_at_start
        self._cards_left = self._table.cards_left()
        self._carried = float(sum(returns)) if self.count_undecided else 0.0
        self._steps = 0
        self._started = True
        info = {"undecided": len(returns), "undecided_wins": wins, "undecided_returns": returns}
        return self._table.observation(), info

    def action_masks(self) -> NDArray[np.bool_]:
        """The learner's legal actions now, as booleans over the action
        space (a real-time game's wait always among them): MaskablePPO's
        ``action_masks`` method, the observation's ``action_mask``."""
        if not self._started:
            raise RuntimeError("call reset() first")
        return self._table.observation()["action_mask"].astype(bool)

    def legal_actions(self) -> list[int]:
        """The learner's legal actions now, sorted (a real-time game's wait
        not among them): the ids the mask marks, as a list (cheaper than
        reading the mask back for a policy that picks from a list)."""
        if not self._started:
            raise RuntimeError("call reset() first")
        return self._table.legal_actions()

    def step(self, action: Action) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        if not self._started:
            raise RuntimeError("call reset() first")
        if not 0 <= action < self.num_actions:
            raise ValueError(f"action {action} is outside Discrete({self.num_actions})")
        if self._table.over() or self._table.stopped:
            raise RuntimeError("the episode is over: call reset()")
        info: dict[str, Any] = {}
        taken, settled, over, guard = self._table.play(action)
        if not taken:
            info["illegal_action"] = True
        self._steps += 1
        reward = float(settled - self._settled) + self._carried
        self._settled = settled
        self._carried = 0.0
        if self.progress_reward:
            left = self._table.cards_left()
            reward += self.progress_reward * (self._cards_left - left)
            self._cards_left = left
        truncated = guard or (
            not over and self.max_steps is not None and self._steps >= self.max_steps
        )
        if truncated:
            self._table.stop()
        return self._table.observation(), reward, over and not truncated, truncated, info

    def render(self) -> str | None:
        if self.render_mode is None:
            warn_no_render_mode()
            return None
        text = self._view_text(self.seat, self._table.view(), self._table.legal_actions())
        return present(self.render_mode, text)

    def close(self) -> None:
        """Nothing to release: the game lives in the engine's memory."""


def _opponent_specs(opponents: str | Sequence[str] | None, count: int, game: str) -> list[str]:
    if opponents is None:
        return [DEFAULT_OPPONENT] * count
    if isinstance(opponents, str):
        return [opponents] * count
    specs = list(opponents)
    if len(specs) != count:
        raise ValueError(
            f"{len(specs)} opponents for the {count} other seat(s) of {game}: give one "
            "spec per other seat (or change the rule option players)"
        )
    return specs


class _Table(ABC):
    """One game from the learner's seat: what the environment asks of a
    turn-based or a real-time game."""

    num_actions: int
    settled_at_start: int
    seat: int
    state: State | None
    stopped = False
    """The episode was truncated by ``max_steps``: no more steps."""

    @abstractmethod
    def start(self, seed: int) -> bool:
        """A new game; False when it ended before the learner had a decision."""

    @abstractmethod
    def act(self, action: int) -> bool:
        """The learner's action and the bots' play up to the next step; False
        when the action was refused."""

    def play(self, action: Action) -> tuple[bool, int, bool, bool]:
        """:meth:`act`, then (taken, the learner's running return, over,
        truncated by a guard)."""
        taken = self.act(int(action))
        return taken, self.settled(), self.over(), self.truncated()

    @abstractmethod
    def legal_actions(self) -> list[int]: ...

    @abstractmethod
    def observation(self) -> Observation: ...

    @abstractmethod
    def view(self) -> Any: ...

    def state_now(self) -> State:
        if self.state is None:
            raise RuntimeError("call reset() first")
        return self.state

    def settled(self) -> int:
        """The learner's running return."""
        return self.state_now().running_returns()[self.seat]

    def over(self) -> bool:
        return self.state_now().is_terminal()

    def truncated(self) -> bool:
        """Whether a guard ended the game (the engine's ``Game.guard_endings()``)."""
        return self.state_now().is_truncated()

    def won(self) -> bool:
        """Whether the learner won the finished game."""
        return self.state_now().won(self.seat)

    def cards_left(self) -> int:
        """The cards the learner must still shed (0 in a game not won so)."""
        return self.state_now().cards_left(self.seat) or 0

    def stop(self) -> None:
        self.stopped = True


class _TurnBasedTable(_Table):
    """The engine's ``SeatTable``: a step is one call that plays the
    learner's action and the bots' replies and writes the learner's
    observation and mask; the environment hands out copies of them."""

    def __init__(self, game: Game, seat: int, opponents: Sequence[str]) -> None:
        self.game = game
        self.seat = seat
        self.num_actions = game.num_distinct_actions()
        self.core = SeatTable(game, seat, list(opponents))
        self.state: State | None = None  # the engine's copy is read through state_now()
        self.started = False
        self.settled_at_start = 0

    def state_now(self) -> State:
        """A copy of the game in progress."""
        if not self.started:
            raise RuntimeError("call reset() first")
        return self.core.state()

    def start(self, seed: int) -> bool:
        self.stopped = False
        decided = self.core.start(seed)
        self.started = True
        self.settled_at_start = self.core.settled_at_start
        return decided

    def act(self, action: int) -> bool:
        taken, *_ = self.core.step(action)
        return taken

    def play(self, action: Action) -> tuple[bool, int, bool, bool]:
        return self.core.step(action)

    def settled(self) -> int:
        return self.core.settled()

    def over(self) -> bool:
        return self.core.over()

    def truncated(self) -> bool:
        return self.core.truncated()

    def won(self) -> bool:
        return self.core.won()

    def cards_left(self) -> int:
        return self.core.cards_left() or 0

    def legal_actions(self) -> list[int]:
        return self.core.legal_actions()

    def observation(self) -> Observation:
        return {
            "observation": self.core.observation.copy(),
            "action_mask": self.core.action_mask.copy(),
        }

    def view(self) -> Any:
        return self.core.view()


class _RealTimeTable(_Table):
    def __init__(self, game: Game, seat: int, opponents: Sequence[str], dt: int) -> None:
        self.game = game
        self.seat = seat
        self.dt = dt
        self.wait_action = game.num_distinct_actions()
        self.num_actions = self.wait_action + 1
        self.bots: list[str | None] = list(opponents)
        self.bots.insert(seat, None)
        self.session: Session | None = None
        self.state: State | None = None  # the session's state after the last tick (a copy)
        self.settled_at_start = 0
        self._log_read = 0  # the session's commits read so far

    def start(self, seed: int) -> bool:
        self.stopped = False
        self.session = Session(self.game, self.bots, seed)
        self._log_read = 0
        self.state = self.session.state
        self.settled_at_start = self.state.running_returns()[self.seat]
        # A new session is at time 0 with nothing played: the first tick is the learner's.
        return True

    def act(self, action: int) -> bool:
        session = self._session()
        if action == self.wait_action:
            session.step([], self.dt)
            taken = True
        else:
            # A busy hand refuses the intent; one the rules refuse bounces as it lands.
            [taken] = session.step([(self.seat, action)], self.dt)
        commits = session.log(self._log_read)
        self._log_read += len(commits)
        self.state = session.state
        bounced = any(seat == self.seat and bounce for _, seat, _, bounce in commits)
        return taken and not bounced

    def _session(self) -> Session:
        if self.session is None:
            raise RuntimeError("call reset() first")
        return self.session

    def legal_actions(self) -> list[int]:
        return self._session().legal_actions(self.seat)

    def observation(self) -> Observation:
        mask = action_mask(self.num_actions, self.legal_actions())
        mask[self.wait_action] = 1
        return {"observation": self.state_now().observation(self.seat), "action_mask": mask}

    def view(self) -> Any:
        return self._session().view(self.seat)
