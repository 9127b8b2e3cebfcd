"""Issue 22 item 4: a game a guard stopped is a truncation, not a
termination, in every environment form (Gymnasium's convention).

Which endings are guards' is the engine's answer (``Game.guard_endings()``,
``State.is_truncated()``): Tonk's stall guard (TK-10.7, ``max_idle_rounds``)
and the real-time limits (RT-12, ``max_virtual_ms`` and ``max_deals``).
Before the fix the vectorised forms reported every such game as
``terminations=True, truncations=False``, and the turn-based AEC, Parallel
and single-agent forms did the same for Tonk's stall guard.

Tonk with ``max_idle_rounds=1`` and players who always take the discard
(then throw a card back) is stopped by the stall guard after one round:
``stalled``; gin rummy's players who always draw the upcard and discard
another card reach its upcard limit (GR-7.3). Every real-time game with
``max_virtual_ms=4000`` ends ``time_limit``.

The games come from the game table (``game_names()``): a game whose guard
endings are not written down here, or a turn-based game with guard endings
and no play here that reaches them, fails.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardtable import _core
from cardtable.games import game_names, load_game

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from cardtable import envs  # noqa: E402
from cardtable.envs.vector import VectorEnv  # noqa: E402

STALL: dict[str, Any] = {"max_idle_rounds": 1}
SHORT: dict[str, Any] = {"max_virtual_ms": 4_000}
REAL_TIME = [name for name in game_names() if load_game(name).real_time]

#: Each game's guard endings, as its rules name them.
GUARD_ENDINGS: dict[str, set[str]] = {
    "tonk": {"stalled"},  # TK-10.7
    "three_thirteen": set(),  # its guards (TT-9.3) end rounds, never the game
    "spit": {"time_limit", "max_deals"},  # RT-12
    "speed": {"time_limit", "max_deals"},  # RT-12
    "gin_rummy": {"upcard_limit"},  # GR-7.3
}


def easy_bot(name: str) -> str:
    """The game's weakest bot: slow enough that a game lasts past 4 s."""
    return dict(load_game(name).bot_levels())["easy"]


def idle_action(game: Any, legal: Any) -> int:
    """Take the discard when allowed, else throw a card back: the play that
    never draws from the stock nor lays a card, which TK-10.7 stops."""
    take = int(game.string_to_action("take"))
    actions = [int(a) for a in legal]
    if take in actions:
        return take
    discards = [a for a in actions if game.action_to_string(a).startswith("discard")]
    return (discards or actions)[0]


class TonkIdler:
    """Tonk's players who never draw from the stock (``idle_action``)."""

    def act(self, state: Any) -> int:
        return idle_action(state.game, state.legal_actions())


class UpcardIdler:
    """Gin rummy's players who always draw the upcard, then discard another
    card (GR-7.4 ends the game on two throw-backs in a row): they never draw
    from the stock nor knock, which GR-7.3 stops."""

    def __init__(self) -> None:
        self.drawn: dict[int, Any] = {}

    def act(self, state: Any) -> int:
        seat = state.current_player()
        actions = [int(a) for a in state.legal_actions()]
        draw = int(state.game.string_to_action("draw upcard"))
        if draw in actions:
            self.drawn[seat] = state.describe_action(draw).cards
            return draw
        infos = {a: state.describe_action(a) for a in actions}
        discards = [a for a in actions if infos[a].kind == "discard"]
        keep = [a for a in discards if infos[a].cards != self.drawn.get(seat)]
        return (keep or discards or actions)[0]


#: How to reach the guards of each turn-based game that has some: its
#: options and its players.
GUARD_PLAY: dict[str, tuple[dict[str, Any], type[TonkIdler | UpcardIdler]]] = {
    "tonk": (STALL, TonkIdler),
    "gin_rummy": ({}, UpcardIdler),
}
TURN_BASED_WITH_GUARDS = [
    name
    for name in game_names()
    if not load_game(name).real_time and load_game(name).guard_endings()
]


@pytest.mark.parametrize("name", game_names())
def test_the_engine_names_each_games_guard_endings(name: str) -> None:
    """Issue 22 item 4: the guard endings come from Rust, among each game's endings."""
    assert name in GUARD_ENDINGS, f"{name}: write its guard endings in GUARD_ENDINGS"
    game = load_game(name)
    assert set(game.guard_endings()) == GUARD_ENDINGS[name]
    assert set(game.guard_endings()) <= set(game.ending_categories())
    assert not hasattr(envs, "GUARD_ENDINGS")  # no Python list of rule names


@pytest.mark.parametrize("name", TURN_BASED_WITH_GUARDS)
def test_every_guard_of_a_turn_based_game_ends_it_as_a_truncation(name: str) -> None:
    assert name in GUARD_PLAY, f"{name}: write in GUARD_PLAY how to reach its guards"
    options, player = GUARD_PLAY[name]
    game = load_game(name, **options)
    reached = set()
    for seed in range(4):
        state = game.new_initial_state(seed)
        players = player()
        while not state.is_terminal():
            assert not state.is_truncated()
            state.apply_action(players.act(state))
        assert state.is_truncated() == (state.ending_category in game.guard_endings())
        reached.add(state.ending_category)
    assert reached == set(game.guard_endings())


def test_a_stalled_tonk_state_is_truncated_and_terminal() -> None:
    game = load_game("tonk", **STALL)
    state = game.new_initial_state(3)
    assert not state.is_truncated()
    while not state.is_terminal():
        state.apply_action(idle_action(game, state.legal_actions()))
    assert state.ending_category == "stalled"
    assert state.is_truncated()
    # An ending of the rules is not a truncation.
    state = load_game("tonk").new_initial_state(3)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.ending_category != "stalled"
    assert not state.is_truncated()


def test_the_raw_vector_env_truncates_a_stalled_tonk_game() -> None:
    """Issue 22 item 4, ``_core.VectorEnv`` by actions: each row's flags are
    what its own state says when replayed here."""
    game = load_game("tonk", **STALL)
    env = _core.VectorEnv(game, 8, seed=1)
    env.reset()
    ended = 0
    for _ in range(40):
        actions = [
            idle_action(game, env.legal_actions[r, : env.legal_counts[r]])
            for r in range(env.num_envs)
        ]
        expected = []
        for r, a in enumerate(actions):
            state = env.state(r)  # a copy
            state.apply_action(a)
            expected.append(
                (state.is_terminal() and not state.is_truncated(), state.is_truncated())
            )
        env.step(np.array(actions))
        for r, (terminated, truncated) in enumerate(expected):
            assert bool(env.terminations[r]) == terminated
            assert bool(env.truncations[r]) == truncated
            ended += truncated
    assert ended >= 8
    assert not env.terminations.any()


@pytest.mark.parametrize("name", REAL_TIME)
def test_the_raw_lockstep_vector_env_truncates_at_the_time_limit(name: str) -> None:
    """Issue 22 item 4, ``_core.VectorEnv`` in lockstep ticks: the state's
    own time limit (RT-12) is a truncation, like the session's."""
    env = _core.VectorEnv(
        load_game(name, **SHORT), 3, seed=2, opponents=[None, easy_bot(name)], dt=100
    )
    env.reset()
    wait = np.full((3, 1), env.wait_action)
    cut = np.zeros(3, dtype=bool)
    for _ in range(45):
        env.step(wait)
        assert not (env.terminations & env.truncations).any()
        cut |= env.truncations
        if cut.all():
            break
    assert cut.all()
    assert not env.terminations.any()


def test_the_gymnasium_vector_env_truncates_a_stalled_tonk_game() -> None:
    env = VectorEnv("tonk", 4, seed=3, max_idle_rounds=1)
    game = env.game
    _, info = env.reset()
    truncations = 0
    for _ in range(30):
        actions = [
            idle_action(game, info["legal_actions"][r, : info["legal_counts"][r]]) for r in range(4)
        ]
        _, _, terminated, truncated, info = env.step(np.array(actions))
        assert not terminated.any()
        truncations += int(truncated.sum())
        if truncated.any():
            assert "final_obs" in info
    assert truncations >= 4


@pytest.mark.parametrize("name", REAL_TIME)
def test_the_gymnasium_vector_env_truncates_at_the_time_limit(name: str) -> None:
    env = VectorEnv(name, 2, opponents=[easy_bot(name)], seed=4, dt=100, max_virtual_ms=4_000)
    env.reset()
    wait = env.core.wait_action
    seen = np.zeros(2, dtype=bool)
    for _ in range(45):
        _, _, terminated, truncated, _ = env.step(np.full(2, wait))
        assert not terminated.any()
        seen |= truncated
    assert seen.all()


def test_the_single_agent_env_truncates_a_stalled_tonk_game() -> None:
    env = gymnasium.make("cardtable/Tonk-v0", opponents="random", **STALL)
    game = load_game("tonk", **STALL)
    stalled = 0
    for seed in range(20):
        obs, _ = env.reset(seed=seed)
        while True:
            legal = [int(a) for a in np.flatnonzero(obs["action_mask"])]
            obs, _, terminated, truncated, _ = env.step(idle_action(game, legal))
            if terminated or truncated:
                break
        state = env.unwrapped.engine_state
        assert truncated == (state.ending_category == "stalled")
        assert terminated == (not truncated)
        stalled += truncated
    assert stalled > 0


@pytest.mark.parametrize("name", REAL_TIME)
def test_the_single_agent_env_truncates_at_the_time_limit(name: str) -> None:
    env = gymnasium.make(envs.gym_id(name), opponents=easy_bot(name), dt=100, **SHORT)
    env.reset(seed=1)
    wait = env.unwrapped.num_actions - 1
    for _ in range(60):
        _, _, terminated, truncated, _ = env.step(wait)
        if terminated or truncated:
            break
    assert env.unwrapped.engine_state.ending_category == "time_limit"
    assert truncated
    assert not terminated


def test_the_aec_env_truncates_a_stalled_tonk_game() -> None:
    env = envs.TurnBasedEnv("tonk", **STALL)
    env.reset(seed=5)
    game = env.game
    for agent in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            assert truncation, agent
            assert not termination, agent
            env.step(None)
            continue
        assert obs is not None
        env.step(idle_action(game, np.flatnonzero(obs["action_mask"])))
    assert env.engine_state.ending_category == "stalled"


def test_the_turn_based_parallel_env_truncates_a_stalled_tonk_game() -> None:
    env = envs.TurnBasedParallelEnv("tonk", **STALL)
    obs, _ = env.reset(seed=6)
    game = env.game
    while env.agents:
        mover = env.engine_state.current_player()
        actions: dict[str, Any] = {}
        for seat, agent in enumerate(env.agents):
            legal = np.flatnonzero(obs[agent]["action_mask"])
            actions[agent] = idle_action(game, legal) if seat == mover else env.pass_action
        obs, _, terminations, truncations, _ = env.step(actions)
    assert env.engine_state.ending_category == "stalled"
    assert all(truncations.values())
    assert not any(terminations.values())


@pytest.mark.parametrize("name", REAL_TIME)
def test_the_real_time_parallel_and_aec_envs_truncate_at_the_time_limit(name: str) -> None:
    env = envs.RealTimeParallelEnv(name, dt=100, **SHORT)
    env.reset(seed=7)
    while env.agents:
        _, _, terminations, truncations, _ = env.step(dict.fromkeys(env.agents, env.wait_action))
    assert env.session.state.ending_category == "time_limit"
    assert all(truncations.values())
    assert not any(terminations.values())
    aec: Any = envs.env(name, dt=100, **SHORT)
    aec.reset(seed=7)
    flags = set()
    for _ in aec.agent_iter():
        _, _, termination, truncation, _ = aec.last()
        if termination or truncation:
            flags.add((termination, truncation))
            aec.step(None)
        else:
            aec.step(aec.unwrapped.wait_action)
    assert flags == {(False, True)}
