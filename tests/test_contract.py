"""The contract every front end reads (issue 34 item 1), through the
bindings, for every game of the registry: at every decision of random
games, ``refusal`` is None exactly when an action is legal (and a refusal
names a rule), each legal action is described by the engine in its own
text, and the player ranges come from the game. The engine's own test of
the same is ``rust/core/tests/engine/engine_sim.rs``."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardtable.errors import CardGameError
from cardtable.games import Session, game_names, load_game


def check_decision(state: Any, game: Any, seat: int, legal: list[int]) -> None:
    actions = range(game.num_distinct_actions())
    for action in actions:
        refusal = state.refusal(action, seat=seat)
        assert (refusal is None) == (action in legal), (action, refusal)
        if refusal is not None:
            rule, reason = refusal
            assert rule, (action, refusal)
            assert reason, (action, refusal)
    for action in legal:
        info = state.describe_action(action, seat=seat)
        assert info.text == game.action_to_string(action)
        assert info.kind


@pytest.mark.parametrize("name", [n for n in game_names() if not load_game(n).real_time])
def test_turn_based_refusals_and_descriptions_follow_legality(name: str) -> None:
    game = load_game(name)
    rng = random.Random(name)
    decisions = 0
    for seed in range(40):
        state = game.new_initial_state(seed)
        while (seat := state.current_player()) is not None and decisions < 400:
            legal = list(state.legal_actions())
            check_decision(state, game, seat, legal)
            decisions += 1
            state.apply_action(rng.choice(legal))
    assert decisions >= 100


@pytest.mark.parametrize("name", [n for n in game_names() if load_game(n).real_time])
def test_real_time_refusals_and_descriptions_follow_legality(name: str) -> None:
    game = load_game(name)
    players = game.players
    session = Session(game, [None] * players, seed=4)
    rng = random.Random(name)
    checked = 0
    for _ in range(2000):
        if session.is_over():
            break
        for seat in range(players):
            legal = list(session.legal_actions(seat))
            check_decision(session.state, game, seat, legal)
            checked += 1
        moves = [
            (s, rng.choice(a)) for s in range(players) if (a := list(session.legal_actions(s)))
        ]
        session.step(moves[:1], dt=250)
    assert checked >= 50


@pytest.mark.parametrize("name", game_names())
def test_player_ranges_come_from_the_game(name: str) -> None:
    game = load_game(name)
    low, high = game.min_players, game.max_players
    assert 1 <= low <= game.players <= high
    if low == high:  # a fixed table: no option to change it
        assert "players" not in game.option_names()
        return
    for players in (low, high):
        assert load_game(name, players=players).players == players
    for players in (low - 1, high + 1):
        with pytest.raises(CardGameError):
            load_game(name, players=players)
