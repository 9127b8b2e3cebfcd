"""The Gymnasium environment of every registry game: one seat for the
learner, the engine's bots at the others (registered as
``cardtable/<Game>-v0`` by ``import cardtable.envs``)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
from gymnasium import spaces

from cardtable.deck import derive_seed
from cardtable.envs._common import (
    RENDER_MODES,
    TURN_BASED_RENDER_FPS,
    Action,
    Observation,
    ViewText,
    action_mask,
    check_render_mode,
    draw_seed,
    is_real_time,
    observation_space,
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
    - ``render_mode``: None or ``"ansi"`` (the learner's view as text).
    - every other keyword is a rule option of the game (``load_game``).

    Spaces: observation ``Dict(observation=Box(0, 1, (observation_size,),
    float32), action_mask=Box(0, 1, (n,), int8))`` and ``Discrete(n)``: n is
    ``num_distinct_actions()`` for a turn-based game, one more for a
    real-time game, whose last id (``wait_action``) is "no intent this tick".

    A step of a turn-based game is the learner's decision and the bots'
    replies up to its next decision or the end. An action outside the mask is
    refused: nothing changes, the reward is 0 and ``info["illegal_action"]``
    is True (Gymnasium's checker, like plain learners, samples without
    the mask). A deal that ends before the learner's first decision (a Tonk
    deal win, or an opponent going out first) is dealt again.

    A step of a real-time game is one lockstep tick (``Session.step``): the
    learner's intent lands now and the clock moves ``dt`` ms while the bots
    play on their reaction times. An intent the mask did not allow bounces
    as it lands, like a person's key (RT-5).

    Reward: the change of the learner's ``running_returns()`` over the step,
    so an episode's rewards sum to its ``returns()`` (Tonk: one hand; Three
    Thirteen: a whole game, paid round by round). The game ending by its
    rules terminates the episode; a guard's ending (the engine's
    ``game.guard_endings()``: Tonk's stall guard ``max_idle_rounds``, the
    real-time ``max_virtual_ms`` and ``max_deals``) truncates it. ``gymnasium.make``'s
    ``max_episode_steps`` adds a step limit.

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
        **options: Any,
    ) -> None:
        self.game: Game = load_game(game, **options)
        self.render_mode = check_render_mode(render_mode)
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
        self.num_actions = self._table.num_actions
        self.wait_action = self.num_actions - 1 if self.real_time else None
        self.action_space = spaces.Discrete(self.num_actions)
        self.observation_space = observation_space(self.game, self.num_actions)
        self._view_text = ViewText(self.game)
        self._settled = 0
        self._started = False

    @property
    def engine_state(self) -> State:
        """The engine's state of the game: a turn-based game's own (do not
        change it), a real-time session's copy as of the last tick."""
        return self._table.state_now()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deals a new game; ``options`` is unused."""
        super().reset(seed=seed)
        while not self._table.start(draw_seed(self.np_random)):
            pass  # the deal ended before the learner's first decision
        self._settled = self._table.settled_at_start
        self._started = True
        return self._table.observation(), {}

    def step(self, action: Action) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        if not self._started:
            raise RuntimeError("call reset() first")
        if not 0 <= action < self.num_actions:
            raise ValueError(f"action {action} is outside Discrete({self.num_actions})")
        if self._table.over():
            raise RuntimeError("the game is over: call reset()")
        info: dict[str, Any] = {}
        if not self._table.act(int(action)):
            info["illegal_action"] = True
        settled = self._table.settled()
        reward = float(settled - self._settled)
        self._settled = settled
        over = self._table.over()
        truncated = self._table.truncated()
        return self._table.observation(), reward, over and not truncated, truncated, info

    def render(self) -> str | None:
        if self.render_mode is None:
            warn_no_render_mode()
            return None
        return self._view_text(self.seat, self._table.view(), self._table.legal_actions())

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

    @abstractmethod
    def start(self, seed: int) -> bool:
        """A new game; False when it ended before the learner had a decision."""

    @abstractmethod
    def act(self, action: int) -> bool:
        """The learner's action and the bots' play up to the next step; False
        when the action was refused."""

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


class _TurnBasedTable(_Table):
    def __init__(self, game: Game, seat: int, opponents: Sequence[str]) -> None:
        self.game = game
        self.seat = seat
        self.num_actions = game.num_distinct_actions()
        others = [s for s in range(game.players) if s != seat]
        self.opponents = dict(zip(others, opponents, strict=True))
        self.bots: dict[int, Bot] = {}
        self.state: State | None = None
        self.settled_at_start = 0

    def start(self, seed: int) -> bool:
        self.state = self.game.new_initial_state(seed)
        # Seat s's bot from the deal's seed and 1 + s, as in play_game's convention.
        self.bots = {
            s: Bot(self.game, spec, derive_seed(seed, 1 + s)) for s, spec in self.opponents.items()
        }
        self.settled_at_start = self.state.running_returns()[self.seat]
        self._play_bots(self.state)
        return not self.state.is_terminal()

    def act(self, action: int) -> bool:
        state = self.state_now()
        if not state.is_legal(action):
            return False
        state.apply_action(action)
        self._play_bots(state)
        return True

    def _play_bots(self, state: State) -> None:
        while True:
            seat = state.current_player()
            if seat is None or seat == self.seat:
                return
            state.apply_action(self.bots[seat].act(state))

    def legal_actions(self) -> list[int]:
        state = self.state_now()
        return state.legal_actions() if state.current_player() == self.seat else []

    def observation(self) -> Observation:
        return {
            "observation": self.state_now().observation(self.seat),
            "action_mask": action_mask(self.num_actions, self.legal_actions()),
        }

    def view(self) -> Any:
        return self.state_now().view(self.seat)


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

    def start(self, seed: int) -> bool:
        self.session = Session(self.game, self.bots, seed)
        self.state = self.session.state
        self.settled_at_start = self.state.running_returns()[self.seat]
        # A new session is at time 0 with nothing played: the first tick is the learner's.
        return True

    def act(self, action: int) -> bool:
        session = self._session()
        intents = [] if action == self.wait_action else [(self.seat, action)]
        session.step(intents, self.dt)
        self.state = session.state
        return True  # an intent is checked when it lands: a refused one bounces

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
