"""The learning environments (``cardtable.envs``): PettingZoo's and
Gymnasium's own checkers on every registry game, and what the checkers do
not look at: masks are the engine's legal actions, rewards add up to the
engine's returns, seeds fix whole trajectories, a seat's text shows only
what it may see, and bad options, bots and actions fail clearly."""

from __future__ import annotations

import inspect
import re
import subprocess
import sys
import types
from collections.abc import Callable
from typing import Any, cast

import numpy as np
import pytest

from cardtable import IllegalActionError, InvalidConfigError
from cardtable._core import observe
from cardtable.games import game_names, load_game
from cardtable.games.three_thirteen import ThreeThirteenState
from cardtable.games.tonk import TonkState

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo import ParallelEnv  # noqa: E402
from pettingzoo.test.api_test import api_test  # noqa: E402
from pettingzoo.test.max_cycles_test import max_cycles_test  # noqa: E402
from pettingzoo.test.parallel_test import parallel_api_test  # noqa: E402
from pettingzoo.test.seed_test import parallel_seed_test, seed_test  # noqa: E402
from pettingzoo.utils.conversions import parallel_to_aec  # noqa: E402

from cardtable import envs  # noqa: E402
from cardtable.envs._common import Action, draw_seed, is_real_time, new_rng  # noqa: E402

GAMES = game_names()
REAL_TIME = [n for n in GAMES if is_real_time(load_game(n))]
TURN_BASED = [n for n in GAMES if n not in REAL_TIME]

# Rule variants the checkers run on too: more seats, and the rules that make
# seats decide out of turn (Tonk's drop windows) or settle mid-game (the spades bet).
TURN_BASED_CASES = [
    ("tonk", {}),
    ("tonk", {"players": 3}),
    ("tonk", {"preset": "wikipedia", "spades_bet": 1}),
    ("three_thirteen", {}),
    ("three_thirteen", {"players": 3, "jokers": "wild"}),
    ("gin_rummy", {}),
    ("gin_rummy", {"knock_card": 5, "oklahoma": True}),
]
REAL_TIME_CASES = [
    ("spit", {}),
    ("spit", {"stock_piles": 4, "slap": False}),
    ("speed", {}),
    ("speed", {"jokers": True, "scoring": True}),
]
OPPONENTS = {
    "tonk": "strong",
    "three_thirteen": "greedy",
    "spit": "smart:hard",
    "speed": "plain:instant",
    "gin_rummy": "greedy",
}


def test_every_registered_game_has_checker_cases_and_an_opponent() -> None:
    # A new game is checked as soon as it is registered: its cases must be here.
    cased = {game for game, _ in TURN_BASED_CASES + REAL_TIME_CASES}
    assert cased == set(GAMES) == set(OPPONENTS)
    assert {g for g, _ in REAL_TIME_CASES} == set(REAL_TIME)


# api_test warns about PettingZoo's own classic convention, a Dict
# observation holding the action mask, which it exempts by its own
# environments' names only.
classic_convention = pytest.mark.filterwarnings(
    "ignore:Observation is not a NumPy array",
    "ignore:Observation space for each agent probably",
)

CARD = re.compile(r"(?<![0-9A-Za-z])(?:[2-9TJQKA][CDHS]|JK)(?![0-9A-Za-z])")


def choose(rng: np.random.Generator, mask: np.ndarray[Any, Any]) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def legal_of(mask: np.ndarray[Any, Any]) -> list[int]:
    return [int(a) for a in np.flatnonzero(mask)]


def play_aec(
    env: Any, seed: int, before_step: Callable[[str, dict[str, Any]], None] | None = None
) -> dict[str, float]:
    """Plays an AEC game with uniformly random legal actions; returns each
    agent's rewards summed."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        if before_step is not None:
            before_step(agent, obs)
        env.step(choose(rng, obs["action_mask"]))
    return totals


def play_parallel(env: Any, seed: int) -> tuple[dict[str, float], bool]:
    """Plays a Parallel game with uniformly random legal actions (waiting
    included); returns the rewards summed and whether it was truncated."""
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    truncated = False
    while env.agents:
        actions = {a: choose(rng, obs[a]["action_mask"]) for a in env.agents}
        obs, rewards, _, truncations, _ = env.step(actions)
        for agent, reward in rewards.items():
            totals[agent] += reward
        truncated = any(truncations.values())
    return totals, truncated


# --- PettingZoo's and Gymnasium's checkers ---------------------------------------------


@classic_convention
@pytest.mark.parametrize(("game", "options"), TURN_BASED_CASES)
def test_turn_based_env_passes_pettingzoo_api_and_seed_tests(
    game: str, options: dict[str, Any]
) -> None:
    api_test(envs.env(game, **options), num_cycles=300)
    seed_test(lambda: envs.env(game, **options), num_cycles=200)


@pytest.mark.parametrize(("game", "options"), REAL_TIME_CASES)
def test_real_time_env_passes_pettingzoo_parallel_tests(game: str, options: dict[str, Any]) -> None:
    parallel_api_test(envs.parallel_env(game, **options), num_cycles=500)
    parallel_seed_test(lambda: envs.parallel_env(game, **options), num_cycles=200)


@classic_convention
@pytest.mark.parametrize("game", REAL_TIME)
def test_real_time_aec_form_passes_api_and_max_cycles_tests(game: str) -> None:
    api_test(envs.env(game), num_cycles=300)
    # max_cycles_test samples actions without the mask and expects every
    # agent to act once a cycle: the lockstep ticks do both.
    max_cycles_test(envs.ENV_MODULES[game])


@pytest.mark.parametrize(("game", "options"), TURN_BASED_CASES)
def test_turn_based_parallel_form_passes_pettingzoo_parallel_tests(
    game: str, options: dict[str, Any]
) -> None:
    parallel_api_test(envs.parallel_env(game, **options), num_cycles=300)
    parallel_seed_test(lambda: envs.parallel_env(game, **options), num_cycles=200)


@classic_convention
@pytest.mark.parametrize("game", TURN_BASED)
def test_turn_based_parallel_form_and_its_aec_conversion_pass_max_cycles_test(game: str) -> None:
    # The turn-order AEC (envs.env) follows the game: one seat may decide
    # several times running, and a masked-out action raises. max_cycles_test
    # samples without the mask and expects one action per agent a cycle:
    # the Parallel form (every agent acts each step, masked-out actions
    # change nothing) and PettingZoo's AEC conversion of it do both.
    module = types.SimpleNamespace(
        env=lambda **kw: parallel_to_aec(
            cast("ParallelEnv[str, Any, Any]", envs.TurnBasedParallelEnv(game, **kw))
        ),
        parallel_env=lambda **kw: envs.TurnBasedParallelEnv(game, **kw),
    )
    api_test(module.env(), num_cycles=300)
    max_cycles_test(module)


@pytest.mark.parametrize("game", TURN_BASED)
def test_turn_based_parallel_form_plays_the_seat_to_decide_and_bounces_the_rest(
    game: str,
) -> None:
    env = envs.parallel_env(game)
    assert isinstance(env, envs.TurnBasedParallelEnv)
    obs, _ = env.reset(seed=4)
    rng = np.random.default_rng(4)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    while env.agents:
        state = env.engine_state
        mover = f"player_{state.current_player()}"
        for agent in env.agents:
            mask = obs[agent]["action_mask"]
            if agent == mover:
                assert list(np.flatnonzero(mask)) == state.legal_actions()
            else:
                assert list(np.flatnonzero(mask)) == [env.pass_action]
        before = state.clone()
        # A masked-out action of the mover changes nothing and is reported.
        illegal = int(np.flatnonzero(obs[mover]["action_mask"] == 0)[0])
        _, rewards, _, _, infos = env.step({mover: np.int64(illegal)})
        assert infos[mover]["bounced"]
        assert env.engine_state == before
        assert set(rewards.values()) == {0.0}
        actions: dict[str, Action] = {a: choose(rng, obs[a]["action_mask"]) for a in env.agents}
        obs, rewards, _, _, infos = env.step(actions)
        assert not any(i.get("bounced") for i in infos.values())
        for agent, reward in rewards.items():
            totals[agent] += reward
        steps += 1
    final = env.engine_state
    assert final.is_terminal()
    assert [totals[a] for a in env.possible_agents] == [float(x) for x in final.returns()]
    assert steps == len(final.history())


@pytest.mark.parametrize("game", GAMES)
def test_every_game_is_registered_with_gymnasium_and_passes_check_env(game: str) -> None:
    env = gymnasium.make(envs.gym_id(game))
    check_env(env.unwrapped)
    env = gymnasium.make(envs.gym_id(game), opponents=OPPONENTS[game], seat=1)
    check_env(env.unwrapped)


def test_gymnasium_ids_come_from_the_registry_names() -> None:
    assert envs.gym_id("three_thirteen") == "cardtable/ThreeThirteen-v0"
    assert envs.gym_id("three-thirteen") == "cardtable/ThreeThirteen-v0"
    ids = {envs.gym_id(name) for name in GAMES}
    assert ids == {i for i in gymnasium.registry if i.startswith("cardtable/")}
    env = gymnasium.make("cardtable/Tonk-v0", opponents=["greedy"])
    assert env.unwrapped.opponents == ["greedy"]
    # The module-qualified form imports cardtable.envs itself.
    env = gymnasium.make("cardtable.envs:cardtable/Tonk-v0", opponents=["greedy"])
    assert env.unwrapped.game.name == "tonk"


def test_every_game_has_a_module_with_its_environments() -> None:
    from cardtable.envs import tonk_v0

    assert tonk_v0 is envs.ENV_MODULES["tonk"] is sys.modules["cardtable.envs.tonk_v0"]
    for name, module in envs.ENV_MODULES.items():
        assert module.gym_id == envs.gym_id(name)
        assert module.env().metadata["name"] == f"{name}_v0"
        assert module.parallel_env().metadata["name"] == f"{name}_v0"
    with pytest.raises(AttributeError, match="tonk_v0"):
        _ = envs.chess_v0
    assert isinstance(envs.parallel_env("tonk"), envs.TurnBasedParallelEnv)
    with pytest.raises(ValueError, match="real-time"):
        envs.TurnBasedEnv("spit")
    with pytest.raises(ValueError, match="real-time"):
        envs.TurnBasedParallelEnv("speed")


# --- masks, rewards, seeds ----------------------------------------------------------------


@pytest.mark.parametrize(("game", "options"), TURN_BASED_CASES)
def test_turn_based_masks_are_the_legal_actions_and_rewards_sum_to_returns(
    game: str, options: dict[str, Any]
) -> None:
    env = envs.TurnBasedEnv(game, **options)
    hands = 20 if game == "tonk" else 1
    for seed in range(hands):

        def check_masks(agent: str, obs: dict[str, Any]) -> None:
            state = env.engine_state
            seat = env.possible_agents.index(agent)
            assert state.current_player() == seat
            assert legal_of(obs["action_mask"]) == state.legal_actions()
            for other in env.possible_agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
            assert np.array_equal(obs["observation"], state.observation(seat))

        totals = play_aec(env, seed, check_masks)
        returns = env.engine_state.returns()
        assert [totals[a] for a in env.possible_agents] == returns


def test_tonk_pays_at_the_end_of_the_hand_and_the_spades_bet_when_it_settles() -> None:
    cases: list[tuple[dict[str, Any], bool]] = [({}, False), ({"spades_bet": 1}, True)]
    for options, mid_hand in cases:
        env = envs.TurnBasedEnv("tonk", **options)
        paid_mid_hand = False
        for seed in range(40):
            env.reset(seed=seed)
            rng = np.random.default_rng(seed)
            while not env.engine_state.is_terminal():
                obs = env.observe(env.agent_selection)
                env.step(choose(rng, obs["action_mask"]))
                if not env.engine_state.is_terminal() and any(env.rewards.values()):
                    paid_mid_hand = True
        assert paid_mid_hand == mid_hand


def test_three_thirteen_pays_each_round_as_it_is_scored() -> None:
    env = envs.TurnBasedEnv("three_thirteen")
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    paid_rounds = []
    while not env.engine_state.is_terminal():
        state = env.engine_state
        assert isinstance(state, ThreeThirteenState)
        scored = len(state.score_sheet)
        env.step(choose(rng, env.observe(env.agent_selection)["action_mask"]))
        if any(env.rewards.values()):
            assert len(state.score_sheet) == scored + 1  # paid as a round is scored
            paid_rounds.append(scored)
    assert len(paid_rounds) > 1  # not only at the end of the game


@pytest.mark.parametrize(("game", "options"), REAL_TIME_CASES)
def test_real_time_masks_are_the_legal_actions_and_wait(game: str, options: dict[str, Any]) -> None:
    env = envs.RealTimeParallelEnv(game, **options)
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(300):
        for seat, agent in enumerate(env.agents):
            mask = obs[agent]["action_mask"]
            assert mask[env.wait_action] == 1
            assert legal_of(mask[: env.wait_action]) == env.session.legal_actions(seat)
        obs, *_ = env.step({a: choose(rng, obs[a]["action_mask"]) for a in env.agents})
        if not env.agents:
            break


@pytest.mark.parametrize(("game", "options"), REAL_TIME_CASES)
def test_real_time_rewards_sum_to_returns_and_guards_truncate(
    game: str, options: dict[str, Any]
) -> None:
    env = envs.RealTimeParallelEnv(game, **options)
    totals, truncated = play_parallel(env, seed=1)
    state = env.session.state
    assert [totals[a] for a in env.possible_agents] == state.returns()
    assert truncated == state.is_truncated()
    # The session's time limit stops the game undecided: a truncation.
    env = envs.RealTimeParallelEnv(game, **options, max_virtual_ms=4_000)
    totals, truncated = play_parallel(env, seed=1)
    assert truncated
    assert env.session.state.ending_category == "time_limit"
    # So does the environment's own tick budget, the game still going.
    env = envs.RealTimeParallelEnv(game, **options, max_cycles=3)
    totals, truncated = play_parallel(env, seed=1)
    assert truncated
    assert env.session.now == 3 * env.dt
    assert not env.session.is_over()


def test_the_guard_endings_are_the_real_time_games_own() -> None:
    for name in REAL_TIME:
        game = load_game(name)
        assert {"time_limit", "max_deals"} == set(game.guard_endings())
        assert set(game.ending_categories()) >= set(game.guard_endings())


def test_turn_based_max_cycles_stops_a_seat_at_its_budget_of_decisions() -> None:
    env = envs.TurnBasedEnv("three_thirteen", max_cycles=5)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    decisions = dict.fromkeys(env.possible_agents, 0)
    while not env.truncations[env.agent_selection]:
        agent = env.agent_selection
        env.step(choose(rng, env.observe(agent)["action_mask"]))
        decisions[agent] += 1
        assert not env.engine_state.is_terminal()
    assert decisions[env.agent_selection] == 5
    assert max(decisions.values()) == 5
    assert all(env.truncations.values())
    assert not any(env.terminations.values())


def test_same_seed_same_episode_and_reset_without_seed_goes_on() -> None:
    def trajectory(game: str, seed: int) -> tuple[list[int], list[int | str]]:
        env = envs.TurnBasedEnv(game)
        play_aec(env, seed)
        first = env.engine_state.history()
        env.reset()
        return first, [*env.engine_state.history(), env.engine_state.fingerprint()]

    for game in TURN_BASED:
        assert trajectory(game, 11) == trajectory(game, 11)
        assert trajectory(game, 11) != trajectory(game, 12)
    for game in REAL_TIME:
        one, two = envs.RealTimeParallelEnv(game), envs.RealTimeParallelEnv(game)
        assert play_parallel(one, 4) == play_parallel(two, 4)
        assert one.session.event_hash() == two.session.event_hash()
        one.reset()
        two.reset()
        assert one.session.event_hash() == two.session.event_hash()


def test_reset_deals_again_when_the_rules_settle_the_deal() -> None:
    env = envs.TurnBasedEnv("tonk")
    rng = new_rng(0)
    game = load_game("tonk")
    seeds = [draw_seed(rng) for _ in range(300)]
    assert any(game.new_initial_state(s).is_terminal() for s in seeds)  # deal wins, voids
    env.reset(seed=0)
    for _ in range(299):
        assert not env.engine_state.is_terminal()
        assert env.engine_state.current_player() == env.possible_agents.index(env.agent_selection)
        env.reset()


# --- errors ------------------------------------------------------------------------------------


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    env = envs.TurnBasedEnv("tonk")
    env.reset(seed=1)
    agent = env.agent_selection
    before = env.observe(agent)
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    assert env.agent_selection == agent
    after = env.observe(agent)
    assert all(np.array_equal(before[k], after[k]) for k in before)
    with pytest.raises(ValueError, match="None"):
        env.step(None)


def test_a_real_time_intent_the_mask_refuses_bounces() -> None:
    env = envs.RealTimeParallelEnv("spit")
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["player_0"]["action_mask"] == 0)[0])
    env.step({"player_0": illegal})
    assert env.session.log() == [(0, 0, illegal, True)]  # (at, seat, action, bounced)
    with pytest.raises(ValueError, match="outside"):
        env.step({"player_0": env.num_actions})
    with pytest.raises(ValueError, match="not an agent"):
        env.step({"player_7": env.wait_action})


def test_gymnasium_env_refuses_an_illegal_action_and_says_so() -> None:
    env = gymnasium.make("cardtable/Tonk-v0")
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    again, reward, terminated, truncated, info = env.step(illegal)
    assert info == {"illegal_action": True}
    assert (reward, terminated, truncated) == (0.0, False, False)
    assert all(np.array_equal(obs[k], again[k]) for k in obs)
    with pytest.raises(ValueError, match="outside"):
        env.step(env.action_space.n)


@pytest.mark.parametrize(
    "make",
    [
        lambda: envs.env("tonk", playrs=3),
        lambda: envs.parallel_env("spit", stock_pile=4),
        lambda: gymnasium.make("cardtable/ThreeThirteen-v0", jokrs="wild"),
    ],
)
def test_a_bad_rule_option_raises_naming_it(make: Callable[[], Any]) -> None:
    with pytest.raises(InvalidConfigError, match=r"playrs|stock_pile|jokrs"):
        make()


def test_a_bad_opponent_raises_naming_it() -> None:
    with pytest.raises(InvalidConfigError, match="bogus"):
        gymnasium.make("cardtable/Tonk-v0", opponents=["bogus"])
    with pytest.raises(InvalidConfigError, match="greedy"):
        gymnasium.make("cardtable/Spit-v0", opponents=["greedy"])  # Spit's bots are POLICY:PRESET
    with pytest.raises(ValueError, match="2 opponents"):
        gymnasium.make("cardtable/Tonk-v0", opponents=["random", "greedy"])
    with pytest.raises(ValueError, match="seat 3"):
        gymnasium.make("cardtable/Tonk-v0", seat=3)
    with pytest.raises(ValueError, match="real-time"):
        gymnasium.make("cardtable/Tonk-v0", dt=50)


def test_environment_keywords_are_no_rule_options() -> None:
    keywords = set()
    for cls in (envs.TurnBasedEnv, envs.RealTimeParallelEnv, envs.SingleAgentEnv):
        keywords |= {p for p in inspect.signature(cls).parameters if p not in ("game", "options")}
    for name in GAMES:
        assert not keywords & set(load_game(name).option_names())


def test_without_gymnasium_the_import_says_what_to_install() -> None:
    code = "import sys; sys.modules['gymnasium'] = None; import cardtable.envs"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert run.returncode != 0
    assert "pip install 'cardtable[envs]'" in run.stderr


# --- rendering ---------------------------------------------------------------------------------


def test_ansi_render_shows_the_acting_seats_cards_only() -> None:
    env = envs.TurnBasedEnv("tonk", players=3, render_mode="ansi")
    env.reset(seed=8)
    rng = np.random.default_rng(8)
    for _ in range(6):
        state = env.engine_state
        assert isinstance(state, TonkState)
        seat = env.possible_agents.index(env.agent_selection)
        text = env.render()
        assert isinstance(text, str)
        assert f"player_{seat}'s view" in text
        shown = set(CARD.findall(text))
        assert {str(c) for c in state.hand(seat)} <= shown
        view = state.view(seat)
        for other in range(3):
            if other != seat:
                hidden = {str(c) for c in state.hand(other)} - {
                    str(c) for c in view.known_cards[other]
                }
                assert not hidden & shown
        env.step(choose(rng, env.observe(env.agent_selection)["action_mask"]))
        if env.engine_state.is_terminal():
            break


def test_real_time_render_draws_each_seat_by_the_live_presenter() -> None:
    env = envs.RealTimeParallelEnv("speed", render_mode="ansi")
    env.reset(seed=2)
    env.step({})
    text = env.render()
    assert isinstance(text, str)
    assert "player_0's view" in text
    assert "player_1's view" in text
    gym_env = gymnasium.make("cardtable/Speed-v0", render_mode="ansi")
    gym_env.reset(seed=2)
    text = gym_env.render()
    assert isinstance(text, str)
    shown = set(text.split())  # the live screen writes cards as symbols: 10♦
    state = gym_env.unwrapped.engine_state
    assert {c.symbol() for c in state.view(0).hand if c is not None} <= shown
    assert not {c.symbol() for c in state.view(1).hand if c is not None} & shown


def test_rendering_needs_no_command_line() -> None:
    """The library draws its tables (cardtable.tables) without importing the
    click command line: a learner's process never loads it."""
    code = (
        "import sys, gymnasium, cardtable.envs\n"
        "for game in ('Spit', 'Speed', 'Tonk'):\n"
        "    env = gymnasium.make(f'cardtable/{game}-v0', render_mode='ansi')\n"
        "    env.reset(seed=1)\n"
        "    assert 'view' in env.render()\n"
        "print(sorted(m for m in sys.modules if m.startswith('cardtable.cli')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]", out


# --- the single-agent environment ------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_env_against_random_bots_plays_to_the_end(game: str) -> None:
    # Spit between random players can run to its hour-long time limit: a minute here.
    options = {"max_virtual_ms": 60_000} if game == "spit" else {}
    env = gymnasium.make(envs.gym_id(game), opponents="random", **options)
    rng = np.random.default_rng(0)
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        # The deals skipped before the learner's first decision are paid in its first reward.
        total = -float(sum(info["undecided_returns"]))
        while True:
            obs, reward, terminated, truncated, _ = env.step(choose(rng, obs["action_mask"]))
            total += reward
            if terminated or truncated:
                break
        state = env.unwrapped.engine_state
        assert state.is_terminal()
        assert total == state.returns()[0]
        assert truncated == state.is_truncated()


def test_gymnasium_env_seats_the_learner_anywhere() -> None:
    env = gymnasium.make(
        "cardtable/ThreeThirteen-v0", players=3, seat=2, opponents=["greedy", "strong"]
    )
    obs, _ = env.reset(seed=4)
    state = env.unwrapped.engine_state
    assert state.current_player() == 2
    assert np.array_equal(obs["observation"], state.observation(2))
    assert legal_of(obs["action_mask"]) == state.legal_actions()
    assert env.unwrapped.opponents == ["greedy", "strong"]


@pytest.mark.parametrize("game", [g for g in game_names() if not load_game(g).real_time])
def test_single_agent_steps_give_observations_of_their_own_and_the_legal_list(game: str) -> None:
    """A turn-based step is one engine call (``SeatTable``) writing arrays
    of its own: each step's observation and mask are copies a later step
    leaves alone; they equal the engine state's observation of the
    learner's seat and its legal actions, as does ``legal_actions()`` and
    ``observe`` (the AEC environment's observation)."""
    env = envs.SingleAgentEnv(game, seat=1)
    observation, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    kept = []
    for _ in range(40):
        state = env.engine_state
        legal = env.legal_actions()
        assert legal == state.legal_actions()
        assert np.flatnonzero(observation["action_mask"]).tolist() == legal
        assert np.array_equal(observation["observation"], state.observation(1))
        seen, mask = observe(state, 1)
        assert np.array_equal(seen, observation["observation"])
        assert np.array_equal(mask, observation["action_mask"])
        kept.append((observation, {k: v.copy() for k, v in observation.items()}))
        observation, _, terminated, truncated, _ = env.step(int(rng.choice(legal)))
        if terminated or truncated:
            observation, _ = env.reset()
    for given, copy in kept:
        assert all(np.array_equal(given[k], copy[k]) for k in copy)
    # The other seat's mask is empty while the learner is to decide.
    assert not observe(env.engine_state, 0)[1].any()
