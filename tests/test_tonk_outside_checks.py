"""Regressions for what outside testing found in the Tonk engine, through the
Python API, each named by the rule it enforces (docs/rules.md §1). The
reproductions are the ones the testers reported."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pytest

from cardtable import GameOverError, IllegalActionError, InvalidConfigError
from cardtable.games.tonk import TonkBot, TonkGame, TonkState, replay_tonk_record, simulate

S2A = TonkGame().string_to_action
DRAW = S2A("draw")


def act(state: TonkState, *texts: str) -> None:
    for text in texts:
        state.apply_action(S2A(text))


def legal_texts(state: TonkState) -> list[str]:
    return [TonkGame().action_to_string(a) for a in state.legal_actions()]


# --- TK-10.7: the stall guard -------------------------------------------------


def test_tk_10_7_taking_discards_goes_on_until_max_idle_rounds_then_stalls() -> None:
    st = TonkGame(players=2).state_from_hands(0, ["3D 6C 9S QC 7D", "4D 8C TS KC JD"], "AS")
    for _ in range(6):
        act(st, "take", "discard " + str(st.discard_pile[-1]))
    assert not st.is_terminal()
    assert st.stock_size == 41
    # Default max_idle_rounds = 10: twenty idle turns of two players.
    for _ in range(13):
        act(st, "take", "discard " + str(st.discard_pile[-1]))
    assert not st.is_terminal()
    act(st, "take", "discard " + str(st.discard_pile[-1]))
    assert st.is_terminal()
    assert st.ending == {"category": "stalled", "winner": 0}
    assert st.settlement() == [(1, 0, 1)]  # settled as a stock out (TK-10.4)
    assert st.stock_size == 41
    replayed = replay_tonk_record(st.to_record())
    assert replayed.ending == st.ending


def test_tk_10_7_max_idle_rounds_is_an_option_that_round_trips() -> None:
    game = TonkGame(max_idle_rounds=2)
    assert game.options()["max_idle_rounds"] == 2
    assert TonkGame().options()["max_idle_rounds"] == 10
    st = game.state_from_hands(0, ["3D 6C 9S QC 7D", "4D 8C TS KC JD"], "AS")
    for _ in range(4):
        assert not st.is_terminal()
        act(st, "take", "discard " + str(st.discard_pile[-1]))
    assert st.ending == {"category": "stalled", "winner": 0}
    for bad in (0, -1, 1001, "often"):
        with pytest.raises(InvalidConfigError, match="max_idle_rounds"):
            TonkGame(max_idle_rounds=bad)


# --- TK-6.10: discard_pickup_must_be_used --------------------------------------


def test_tk_6_10_the_taken_card_cannot_be_left_unused() -> None:
    game = TonkGame(players=2, discard_pickup_must_be_used=True)
    st = game.state_from_hands(0, ["3D 6C 9S QC 7D", "5H 6H 5C 5D KS"], "7H")
    act(st, "take")
    with pytest.raises(IllegalActionError):
        act(st, "spread 5H 5C 5D")
    with pytest.raises(IllegalActionError):
        act(st, "discard 7H")
    assert legal_texts(st) == ["spread 5H 6H 7H"]


def test_tk_6_10_no_dead_end_and_bots_answer_legally() -> None:
    game = TonkGame(discard_pickup_must_be_used=True, max_hits_per_turn=1)
    st = game.state_from_hands(0, ["9D 3C 4C 6S 7S", "TD JD QD KD 2H"], "AH", "8C")
    act(st, "draw", "spread TD JD QD", "discard KD", "take")
    with pytest.raises(IllegalActionError):
        act(st, "hit 9D S0")
    assert legal_texts(st) == ["hit KD S0"]
    for kind in ("random", "greedy", "strong:8"):
        a = TonkBot(kind, seed=1).act(st)
        assert st.is_legal(a), kind
        assert TonkGame().action_to_string(a) == "hit KD S0"


def test_tk_6_10_simulate_with_both_flags_finishes_every_hand() -> None:
    game = TonkGame(discard_pickup_must_be_used=True, max_hits_per_turn=1)
    summary = simulate(game, ["random", "greedy"], games=3000, seed=5)
    assert summary["games"] == 3000
    assert sum(summary["endings"].values()) == 3000


def test_bots_on_a_finished_hand_raise_game_over() -> None:
    st = TonkGame().new_initial_state(3)
    while not st.is_terminal():
        st.apply_action(TonkBot("greedy", seed=0).act(st))
    for kind in ("random", "greedy", "strong"):
        with pytest.raises(GameOverError):
            TonkBot(kind, seed=0).act(st)


# --- options round-trip -----------------------------------------------------------


def test_low_13_with_a_seven_card_hand_round_trips() -> None:
    g = TonkGame(hand_size=7, low_13=True)
    opts = g.options()
    assert opts["deal_wins"] == "none"
    assert opts["low_13"] is True
    assert TonkGame(**opts) == g
    assert pickle.loads(pickle.dumps(g)) == g
    st = g.new_initial_state(11)
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    assert pickle.loads(pickle.dumps(st)) == st
    assert replay_tonk_record(st.to_record()) == st


def random_options(rng: random.Random) -> dict[str, Any]:
    choices: dict[str, list[Any]] = {
        "preset": ["pagat", "wikipedia", "texas"],
        "players": [2, 3, 4, 5, 6],
        "hand_size": [2, 3, 5, 7, 9, 12, 13, 16, 20, 25, "by_players"],
        "face_values": ["ten", "eleven_twelve_thirteen"],
        "deal_wins": ["pagat", "fifty_only", "forty_nine_in_turn", "texas", "none"],
        "low_13": [True, False],
        "low_9": [True, False],
        "drop_timing": ["start_of_turn", "own_turn_any_phase", "any_time"],
        "max_hits_per_turn": [None, 1],
        "discard_pickup_must_be_used": [True, False],
        "must_spread": [True, False],
        "must_spread_aces_exempt": [True, False],
        "hit_lock_per_hit": [0, 1, 3],
        "hit_lock_unit": ["per_card", "per_turn"],
        "double_double": ["off", "responder", "tonker"],
        "spades_bet": [None, 1, 3],
        "spades_ace_high": [True, False],
        "max_idle_rounds": [1, 3, 10],
    }
    return {k: rng.choice(v) for k, v in choices.items() if rng.random() < 0.35}


def test_every_accepted_rule_set_round_trips_through_options_pickle_and_records() -> None:
    rng = random.Random(3412)
    accepted = 0
    for i in range(1500):
        opts = random_options(rng)
        try:
            g = TonkGame(**opts)
        except InvalidConfigError:
            continue
        accepted += 1
        assert TonkGame(**g.options()) == g, opts
        assert pickle.loads(pickle.dumps(g)) == g, opts
        st = g.new_initial_state(i)
        for _ in range(8):
            if st.is_terminal():
                break
            st.apply_action(rng.choice(st.legal_actions()))
        assert pickle.loads(pickle.dumps(st)) == st, opts
        assert replay_tonk_record(st.to_record()) == st, opts
    assert accepted > 300


# --- TK-1.1 and TK-13: action texts --------------------------------------------------


@pytest.mark.parametrize("text", ["discard JK", "hit JK S0", "spread JK 2S 3S"])
def test_tk_1_1_a_joker_token_is_an_error_naming_it(text: str) -> None:
    with pytest.raises(IllegalActionError, match=r"(?i)\"jk\".*TK-1\.1"):
        S2A(text)


def test_a_joker_discard_is_not_a_draw() -> None:
    assert S2A("discard AC") == 0
    assert S2A("draw") == DRAW
    with pytest.raises(IllegalActionError):
        S2A("discard JK")


# --- integers from Python ---------------------------------------------------------------


@pytest.mark.parametrize("action", [-1, 70000, 2**64, -(2**63) - 1, 10**30])
def test_out_of_range_actions_raise_the_library_errors(action: int) -> None:
    st = TonkGame().new_initial_state(1)
    before = st.clone()
    with pytest.raises(IllegalActionError):
        st.apply_action(action)
    assert st == before
    with pytest.raises(IllegalActionError):
        TonkGame().action_to_string(action)
    assert st.is_legal(action) is False


def test_numpy_integers_are_actions_and_seats() -> None:
    st = TonkGame().new_initial_state(1)
    a = st.legal_actions()[0]
    assert st.is_legal(np.int64(a))
    assert st.view(np.uint8(0)).seat == 0
    st.apply_action(np.int16(a))
    assert st.history() == [a]


@pytest.mark.parametrize("seat", [-1, 2, 2**70])
def test_bad_seats_raise_invalid_config_error_naming_the_seat(seat: int) -> None:
    st = TonkGame().new_initial_state(1)
    for call in (st.view, st.hand, st.count, st.observation, st.observation_list):
        with pytest.raises(InvalidConfigError, match="no seat"):
            call(seat)
    with pytest.raises(InvalidConfigError, match="no seat"):
        st.determinize(seat, 1)


@pytest.mark.parametrize("seed", [-1, 2**64])
def test_bad_seeds_raise_invalid_config_error(seed: int) -> None:
    game = TonkGame()
    with pytest.raises(InvalidConfigError, match="seed"):
        game.new_initial_state(seed)
    with pytest.raises(InvalidConfigError, match="seed"):
        TonkBot("random", seed)
    with pytest.raises(InvalidConfigError, match="seed"):
        game.new_initial_state(1).determinize(0, seed)


@pytest.mark.parametrize("players", [10**30, -(10**30)])
def test_huge_option_values_raise_invalid_config_error_naming_the_option(players: int) -> None:
    with pytest.raises(InvalidConfigError, match="players"):
        TonkGame(players=players)
    with pytest.raises(InvalidConfigError, match="dealer"):
        TonkGame().new_initial_state(1, dealer=players)


# --- TK-2.3: hand sizes -------------------------------------------------------------------


@pytest.mark.parametrize(("players", "most"), [(2, 25), (3, 16), (4, 12), (6, 8)])
def test_tk_2_3_every_hand_size_the_deck_allows_plays_with_well_formed_observations(
    players: int, most: int
) -> None:
    for size in (13 if most >= 13 else most, most):
        game = TonkGame(players=players, hand_size=size)
        assert game.hand_size == size
        rng = random.Random(size)
        st = game.new_initial_state(size)
        while not st.is_terminal():
            for seat in range(players):
                o = st.observation(seat)
                assert o.shape == (game.observation_size(),)
                assert float(o.min()) >= 0.0
                assert float(o.max()) <= 1.0
            st.apply_action(
                TonkBot("greedy", seed=0).act(st)
                if rng.random() < 0.5
                else rng.choice(st.legal_actions())
            )
    with pytest.raises(InvalidConfigError, match=r"52|2 to 25") as info:
        TonkGame(players=players, hand_size=most + 1)
    assert info.value.option == "hand_size"


# --- TK-5.4: a 49 under any_time ------------------------------------------------------------


def test_tk_5_4_the_49_claim_comes_before_the_any_time_drop_window() -> None:
    game = TonkGame(players=3, deal_wins="forty_nine_in_turn", drop_timing="any_time")
    # Seat 1 holds 49 and plays first; seat 2 (count 11) would drop at once.
    st = game.state_from_hands(0, ["2C 5D 8H JS 4C", "KC QD JH TS 9C", "AC 2D 3H 4S AD"], "AS")
    assert st.phase == "drop_window"
    assert st.current_player() == 1
    assert "claim 49" in legal_texts(st)
    act(st, "claim 49")
    assert st.ending == {"category": "deal_win", "player": 1, "paid": 2}


# --- settlements say why ----------------------------------------------------------------------


def test_settlement_reasons_name_the_rule_of_every_transfer() -> None:
    st = TonkGame(players=3).state_from_hands(
        0, ["2C 5D 8H JS 4C", "AC 2D 3H 4S AD", "3D 6C 9S QC 7D"], "AS"
    )
    act(st, "drop")
    reasons = st.settlement_reasons()
    assert [r[:3] for r in reasons] == st.settlement()
    assert all("TK-10.3" in r[3] for r in reasons)


# --- records ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("version", "says"), [(2, "version 2"), (None, 'missing "version"')])
def test_record_version_errors_read_as_json_not_rust(version: int | None, says: str) -> None:
    import json

    from cardtable import InvalidRecordError

    rec = json.loads(TonkGame().new_initial_state(1).to_record())
    if version is None:
        del rec["version"]
    else:
        rec["version"] = version
    with pytest.raises(InvalidRecordError, match=says) as info:
        replay_tonk_record(json.dumps(rec))
    assert "Some(" not in str(info.value)
    assert "None" not in str(info.value)


@pytest.mark.parametrize("threads", [0, -1, 257, 2**40, 2**70])
def test_simulation_threads_are_capped_with_the_library_error(threads: int) -> None:
    with pytest.raises(InvalidConfigError, match="threads"):
        simulate(TonkGame(), ["random", "random"], games=4, seed=1, threads=threads)


def test_simulation_counts_below_zero_are_config_errors() -> None:
    from cardtable.games import Simulation

    with pytest.raises(InvalidConfigError, match="games"):
        Simulation(TonkGame(), ["random", "random"], -1, 1)
    run = Simulation(TonkGame(), ["random", "random"], 4, 1)
    with pytest.raises(InvalidConfigError, match="count"):
        run.step(-1)
