"""Learning environments a learner uses with no glue: masks where outside
clients look for them, Gymnasium's vector entry point, the Stable-Baselines3
vector form and MaskablePPO, PettingZoo's whole test suite on the shipped
modules, evaluation that counts every dealt hand, default episode limits,
progress rewards and refused intents reported for the real-time games."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cardtable.games import game_names, load_game

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from pettingzoo.test.api_test import api_test  # noqa: E402
from pettingzoo.test.max_cycles_test import max_cycles_test  # noqa: E402
from pettingzoo.test.parallel_test import parallel_api_test  # noqa: E402
from pettingzoo.test.render_test import render_test  # noqa: E402
from pettingzoo.test.seed_test import parallel_seed_test, seed_test  # noqa: E402

from cardtable import envs  # noqa: E402
from cardtable.envs._common import Action, is_real_time  # noqa: E402

GAMES = game_names()
REAL_TIME = [n for n in GAMES if is_real_time(load_game(n))]
TURN_BASED = [n for n in GAMES if n not in REAL_TIME]
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

classic_convention = pytest.mark.filterwarnings(
    "ignore:Observation is not a NumPy array",
    "ignore:Observation space for each agent probably",
)


def legal(rng: np.random.Generator, mask: np.ndarray[Any, Any]) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


# --- 1. masks without glue ---------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_single_agent_action_masks_are_the_observation_mask_as_booleans(game: str) -> None:
    options: dict[str, Any] = {"max_virtual_ms": 20_000} if game in REAL_TIME else {}
    env = envs.SingleAgentEnv(game, **options)
    rng = np.random.default_rng(3)
    obs, _ = env.reset(seed=3)
    for _ in range(60):
        masks = env.action_masks()
        assert masks.dtype == np.bool_
        assert np.array_equal(masks, obs["action_mask"].astype(bool))
        assert masks.any()
        obs, _, terminated, truncated, _ = env.step(legal(rng, masks))
        if terminated or truncated:
            obs, _ = env.reset()


def test_action_masks_needs_a_reset_first() -> None:
    with pytest.raises(RuntimeError, match="reset"):
        envs.SingleAgentEnv("tonk").action_masks()


@pytest.mark.parametrize("game", REAL_TIME)
def test_real_time_parallel_mask_of_an_agent_is_there_between_observations(game: str) -> None:
    env = envs.RealTimeParallelEnv(game)
    obs, _ = env.reset(seed=5)
    for _ in range(30):
        for agent in env.agents:
            assert np.array_equal(env.action_mask(agent), obs[agent]["action_mask"])
        obs, *_ = env.step({})


@pytest.mark.parametrize("game", GAMES)
def test_vector_action_masks_match_the_observations(game: str) -> None:
    opponents = ["smart:easy"] if game in REAL_TIME else None
    env = envs.VectorEnv(game, 8, opponents=opponents, seed=2)
    obs, _ = env.reset(seed=2)
    masks = env.action_masks()
    assert masks.shape == (8, env.num_actions)
    assert masks.dtype == np.bool_
    assert np.array_equal(masks, obs["action_mask"].astype(bool))


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_make_vec_gives_the_rust_vector_env_of_the_single_env(game: str) -> None:
    vec = gymnasium.make_vec(envs.gym_id(game), num_envs=6, vectorization_mode="vector_entry_point")
    inner = vec.unwrapped
    assert isinstance(inner, envs.VectorEnv)
    assert inner.core.num_envs == 6
    single = gymnasium.make(envs.gym_id(game))
    assert inner.single_observation_space == single.observation_space
    assert inner.single_action_space == single.action_space
    # The default is the learner against the single environment's default bot.
    assert inner.core.is_agent(0)
    assert not inner.core.is_agent(1)
    rng = np.random.default_rng(0)
    obs, _ = vec.reset(seed=1)
    for _ in range(20):
        picks = [legal(rng, m) for m in obs["action_mask"]]
        obs, reward, _terminated, _truncated, _info = vec.step(np.array(picks))
        assert reward.shape == (6,)
    # Without a mode, make_vec takes the entry point too.
    plain = gymnasium.make_vec(envs.gym_id(game), num_envs=2, opponents=envs.DEFAULT_OPPONENT)
    assert isinstance(plain.unwrapped, envs.VectorEnv)


def test_make_vec_passes_rule_options_and_bots() -> None:
    vec = gymnasium.make_vec(
        "cardtable/ThreeThirteen-v0", num_envs=3, opponents="greedy", players=3
    )
    assert vec.unwrapped.game.players == 3
    with pytest.raises(ValueError, match="render"):
        gymnasium.make_vec("cardtable/Tonk-v0", num_envs=2, render_mode="ansi")


# --- the Stable-Baselines3 vector form ----------------------------------------------------------


def test_sb3_vec_env_follows_sb3_conventions() -> None:
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.vec_env import VecEnv

    from cardtable.envs.sb3 import SB3VecEnv

    env = SB3VecEnv("tonk", 16, opponents="random", seed=4)
    assert isinstance(env, VecEnv)
    obs = env.reset()
    assert obs["observation"].shape == (16, load_game("tonk").observation_size())
    rng = np.random.default_rng(4)
    ended = truncations = 0
    for _ in range(200):
        masks = np.stack(env.env_method("action_masks"))
        assert np.array_equal(masks, obs["action_mask"].astype(bool))
        assert env.has_attr("action_masks")
        obs, rewards, dones, infos = env.step(np.array([legal(rng, m) for m in masks]))
        assert rewards.dtype == np.float32
        assert len(infos) == 16
        for i in np.flatnonzero(dones):
            final = infos[i]["terminal_observation"]
            assert final["observation"].shape == obs["observation"][i].shape
            assert not final["action_mask"].any()
            truncations += infos[i]["TimeLimit.truncated"]
            ended += 1
        assert all("terminal_observation" not in infos[i] for i in np.flatnonzero(~dones))
    assert ended > 50
    # The same seed gives the same games.
    env.seed(4)
    again = env.reset()
    assert np.array_equal(
        again["observation"], SB3VecEnv("tonk", 16, seed=4).reset()["observation"]
    )


def test_sb3_vec_env_reports_a_step_limit_as_a_time_limit() -> None:
    pytest.importorskip("stable_baselines3")
    from cardtable.envs.sb3 import SB3VecEnv

    env = SB3VecEnv("three_thirteen", 4, seed=1, max_episode_steps=3)
    env.reset()
    rng = np.random.default_rng(1)
    for _step in range(3):
        _obs, _, dones, infos = env.step(np.array([legal(rng, m) for m in env.action_masks()]))
    assert dones.all()
    assert all(info["TimeLimit.truncated"] for info in infos)


def test_maskable_ppo_runs_on_the_vector_env_as_is() -> None:
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import is_masking_supported

    from cardtable.envs.sb3 import SB3VecEnv

    env = SB3VecEnv("tonk", 8, opponents="random", seed=1)
    assert is_masking_supported(env)
    model = MaskablePPO("MultiInputPolicy", env, n_steps=16, batch_size=64, seed=1, device="cpu")
    model.learn(total_timesteps=256)
    obs = env.reset()
    actions, _ = model.predict(obs, action_masks=env.action_masks())
    assert all(env.action_masks()[i, a] for i, a in enumerate(actions))


def test_the_maskable_ppo_example_trains_and_reports_win_rates_with_intervals() -> None:
    pytest.importorskip("sb3_contrib")
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "train_tonk_maskable_ppo.py"), "--quick", "--hands", "60"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    rows = [
        line for line in done.stdout.splitlines() if line.startswith(("MaskablePPO", "uniform"))
    ]
    assert len(rows) == 4, done.stdout
    for row in rows:
        assert "%" in row
        assert "[" in row  # the interval
        assert " 60 " in row


# --- 4. evaluation counts every dealt hand -----------------------------------------------------


def test_deals_that_decide_themselves_are_counted_not_hidden() -> None:
    """Through the env, a uniform learner against random is random against
    random: a fair game (the dealer is drawn from the seed), so its mean per
    dealt hand is 0. Without the hands the deal settled before the learner
    decided (re-dealt, about one in six) it was -0.2."""
    env = envs.SingleAgentEnv("tonk", opponents="random")
    rng = np.random.default_rng(0)
    hands, undecided, total = 0, 0, 0.0
    obs, info = env.reset(seed=0)
    while hands < 8000:
        hands += 1 + info["undecided"]
        undecided += info["undecided"]
        while True:
            obs, reward, terminated, truncated, _ = env.step(legal(rng, obs["action_mask"]))
            total += reward
            if terminated or truncated:
                break
        obs, info = env.reset()
    assert undecided > 0.08 * hands
    assert abs(total / hands) < 0.1


def test_the_skipped_deals_returns_are_what_the_engine_gave_them() -> None:
    env = envs.SingleAgentEnv("tonk", opponents="strong", count_undecided=True)
    plain = envs.SingleAgentEnv("tonk", opponents="strong", count_undecided=False)
    seen = 0
    for seed in range(300):
        obs, info = env.reset(seed=seed)
        _obs2, info2 = plain.reset(seed=seed)
        assert info == info2
        assert len(info["undecided_returns"]) == info["undecided"]
        assert 0 <= info["undecided_wins"] <= info["undecided"]
        action = int(np.flatnonzero(obs["action_mask"])[0])
        _, reward, *_ = env.step(action)
        _, reward2, *_ = plain.step(action)
        assert reward == reward2 + sum(info["undecided_returns"])
        seen += info["undecided"]
    assert seen > 10


# --- 5. PettingZoo's own tests on the shipped modules ------------------------------------------


@classic_convention
@pytest.mark.parametrize("game", GAMES)
def test_each_games_module_passes_pettingzoo_whole_test_suite(game: str) -> None:
    module = envs.ENV_MODULES[game]
    api_test(module.env(), num_cycles=200)
    parallel_api_test(module.parallel_env(), num_cycles=200)
    seed_test(module.env, num_cycles=100)
    parallel_seed_test(module.parallel_env, num_cycles=100)
    max_cycles_test(module)
    render_test(module.env)


@pytest.mark.parametrize("game", GAMES)
def test_human_render_prints_the_ansi_text(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    shown = envs.ENV_MODULES[game].env(render_mode="ansi")
    printed = envs.ENV_MODULES[game].env(render_mode="human")
    shown.reset(seed=9)
    printed.reset(seed=9)
    text = shown.render()
    assert isinstance(text, str)
    assert printed.render() is None
    assert capsys.readouterr().out == text
    single = envs.SingleAgentEnv(game, render_mode="human")
    single.reset(seed=9)
    assert single.render() is None
    assert "player_0's view" in capsys.readouterr().out


def test_the_turn_order_env_renders_for_humans_too(capsys: pytest.CaptureFixture[str]) -> None:
    env = envs.TurnBasedEnv("three_thirteen", render_mode="human")
    env.reset(seed=2)
    assert env.render() is None
    assert "legal:" in capsys.readouterr().out
    with pytest.raises(ValueError, match="human"):
        envs.TurnBasedEnv("tonk", render_mode="rgb_array")


# --- 6. learnable defaults ---------------------------------------------------------------------


def test_every_env_has_the_same_documented_default_limit() -> None:
    limit = envs.DEFAULT_MAX_STEPS
    assert limit >= 10_000
    assert envs.SingleAgentEnv("three_thirteen").max_steps == limit
    assert envs.TurnBasedEnv("tonk").max_cycles == limit
    assert envs.TurnBasedParallelEnv("tonk").max_cycles == limit
    assert envs.RealTimeParallelEnv("spit").max_cycles == limit
    assert "DEFAULT_MAX_STEPS" in (envs.SingleAgentEnv.__doc__ or "")


def test_an_unmasked_learner_is_cut_by_the_step_limit() -> None:
    # Three Thirteen refuses nearly every unmasked action: without a limit
    # such a learner's episode ran on for ever.
    env = envs.SingleAgentEnv("three_thirteen", max_steps=300)
    env.action_space.seed(1)
    env.reset(seed=1)
    steps, truncated = 0, False
    while not truncated:
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        assert not terminated
        steps += 1
    assert steps == 300
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env.reset()
    with pytest.raises(ValueError, match="max_steps"):
        envs.SingleAgentEnv("tonk", max_steps=0)


def test_vector_env_truncates_at_its_default_limit() -> None:
    env = envs.VectorEnv("three_thirteen", 2, max_episode_steps=5)
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=0)
    for _ in range(5):
        obs, _, terminated, truncated, _info = env.step(
            np.array([legal(rng, m) for m in obs["action_mask"]])
        )
    assert truncated.all()
    assert not terminated.any()


@pytest.mark.parametrize("game", REAL_TIME)
def test_progress_reward_pays_each_card_shed(game: str) -> None:
    """SP-5.1 / SD-4.1: the rewards of an episode sum to the game's return
    plus ``progress_reward`` times the cards the learner shed."""
    env = envs.SingleAgentEnv(game, opponents="smart:easy", progress_reward=0.5)
    plain = envs.SingleAgentEnv(game, opponents="smart:easy")
    rng = np.random.default_rng(2)
    obs, _ = env.reset(seed=2)
    plain.reset(seed=2)
    start = env.engine_state.cards_left(0)
    assert start is not None
    assert start > 0
    total = extra = 0.0
    for _ in range(400):
        action = legal(rng, obs["action_mask"])
        obs, reward, terminated, truncated, _ = env.step(action)
        _, plain_reward, *_ = plain.step(action)
        total += reward
        extra += reward - plain_reward
        if terminated or truncated:
            break
    left = env.engine_state.cards_left(0)
    assert left is not None
    shed = start - left
    assert shed > 0
    assert extra == pytest.approx(0.5 * shed)
    assert total == pytest.approx(env.engine_state.running_returns()[0] + 0.5 * shed)


def test_progress_reward_is_refused_for_games_not_won_by_shedding() -> None:
    with pytest.raises(ValueError, match="shedding"):
        envs.SingleAgentEnv("tonk", progress_reward=1.0)
    with pytest.raises(ValueError, match="finite"):
        envs.SingleAgentEnv("spit", progress_reward=float("nan"))


@pytest.mark.parametrize("game", REAL_TIME)
def test_real_time_refused_intents_are_reported(game: str) -> None:
    env = envs.SingleAgentEnv(game, opponents="smart:easy")
    obs, _ = env.reset(seed=4)
    refused = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, _, _, _, info = env.step(refused)
    assert info.get("illegal_action") is True
    assert env.wait_action is not None
    _, _, _, _, info = env.step(env.wait_action)
    assert "illegal_action" not in info
    parallel = envs.RealTimeParallelEnv(game)
    observed, _ = parallel.reset(seed=4)
    masked_out: dict[str, Action] = {
        a: int(np.flatnonzero(o["action_mask"] == 0)[0]) for a, o in observed.items()
    }
    _, _, _, _, infos = parallel.step(masked_out)
    assert all(info.get("bounced") for info in infos.values())
    _, _, _, _, infos = parallel.step({})
    assert not any(info.get("bounced") for info in infos.values())
