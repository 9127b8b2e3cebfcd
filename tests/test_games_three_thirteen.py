"""Three Thirteen through the Python API (``cardtable.games.three_thirteen``).

The round scores are checked against ``cardtable.min_deadwood`` called with
the meld rules the options stand for (TT-5, TT-7, TT-10), a second path into
the solver that does not go through the engine's own scoring.
"""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from cardtable import Card, IllegalActionError, InvalidConfigError, MeldRules, min_deadwood
from cardtable.games import Bot, play_game, replay_record
from cardtable.games.three_thirteen import (
    ThreeThirteenGame,
    ThreeThirteenState,
)

DRAW, TAKE = 106, 107


def test_the_schedule_is_data_and_follows_the_variants() -> None:
    up = ThreeThirteenGame().schedule
    assert up == [(k, k) for k in range(3, 14)]  # TT-2.2: rank index = cards dealt
    down = ThreeThirteenGame(schedule="up_down").schedule
    assert len(down) == 22  # TT-10.5
    assert down == up + up[::-1]
    extra = ThreeThirteenGame(extra_rounds=2).schedule
    assert extra[-2:] == [(14, 1), (15, 2)]  # TT-10.3: aces, then twos wild


def test_options_round_trip_and_bad_ones_name_themselves() -> None:
    game = ThreeThirteenGame(players=4, jokers="wild", max_wilds_per_meld="unlimited")
    assert ThreeThirteenGame(**game.options()) == game
    assert pickle.loads(pickle.dumps(game)) == game
    assert ThreeThirteenGame(players=8).decks == 3  # TT-1.2
    cases: list[tuple[dict[str, Any], str]] = [
        ({"players": 9}, "players"),
        ({"players": 4, "decks": 1}, "decks"),
        ({"jokers": "maybe"}, "jokers"),
        ({"false_out_penalty": 7}, "false_out_penalty"),
        ({"schedule": "down"}, "schedule"),
    ]
    for bad, option in cases:
        with pytest.raises(InvalidConfigError) as e:
            ThreeThirteenGame(**bad)
        assert e.value.option == option, bad


def test_going_out_needs_the_rest_in_melds_and_others_get_one_last_turn() -> None:
    game = ThreeThirteenGame(players=3)
    # Round 1 (3 cards, threes wild): seat 1 (left of dealer 0) plays first.
    state = game.state_from_hands(0, ["2C 9D KD", "5H 6H 9S", "QC QS 4D"], "KS", stock_top="7H")
    assert state.current_player() == 1
    state.apply_action(DRAW)  # 7H: 5H 6H 7H is a run
    outs = [a for a in state.legal_actions() if state.describe_action(a).kind == "out"]
    assert [state.action_to_string(a) for a in outs] == ["out 9S"]  # TT-6.1
    with pytest.raises(IllegalActionError):
        state.apply_action(state.string_to_action("out 5H"))
    state.apply_action(outs[0])
    assert state.out_player == 1
    assert state.current_player() == 2  # TT-6.2: clockwise from the one who went out
    state.apply_action(TAKE)  # 9S
    state.apply_action(state.string_to_action("discard 4D"))
    assert state.current_player() == 0
    state.apply_action(DRAW)
    state.apply_action(state.string_to_action("discard KD"))
    # The round is scored: seat 1 out (0), others by their deadwood (TT-7).
    assert state.round == 1
    result = state.last_round
    assert result is not None
    assert result.out_player == 1
    assert result.seats[1].points == 0
    assert state.score_sheet[0][1] == 0


def meld_rules(game: ThreeThirteenGame, wild: int) -> MeldRules:
    """The meld rules TT options stand for, written from the rules
    specification independently of the engine's own mapping."""
    o: dict[str, Any] = game.options()
    limit = o["max_wilds_per_meld"]
    return MeldRules(
        "three_thirteen",
        wild=wild,
        max_wilds=limit,
        all_wild_melds=o["all_wild_melds"],
        aces="high" if o["ace_high_or_low"] else "low",
        face_values="rank" if o["face_values_11_12_13"] else "ten",
        jokers=o["jokers"] == "wild",
        decks=game.decks,
    )


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"players": 3, "jokers": "wild"},
        {"max_wilds_per_meld": "unlimited", "all_wild_melds": True},
        {"ace_high_or_low": True, "face_values_11_12_13": True, "double_jqk_rounds": True},
        {"players": 4, "schedule": "up_down", "extra_rounds": 1},
    ],
)
def test_every_round_score_is_the_solvers_deadwood_of_the_final_hand(
    options: dict[str, Any],
) -> None:
    game = ThreeThirteenGame(**options)
    doubled = bool(options.get("double_jqk_rounds"))
    for seed in range(3):
        state = game.new_initial_state(seed)
        bots = [Bot(game, ["greedy", "random", "strong:4"][p % 3], p) for p in range(game.players)]
        rounds = 0
        while (p := state.current_player()) is not None:
            before = state.round
            state.apply_action(bots[p].act(state))
            if state.round != before or state.is_terminal():
                result = state.last_round
                assert result is not None
                rounds += 1
                rules = meld_rules(game, result.wild_rank)
                for s, seat in enumerate(result.seats):
                    best = min_deadwood(seat.hand, rules=rules).deadwood
                    assert seat.deadwood == best, (seed, result.round, s)
                    factor = 2 if doubled and result.wild_rank >= 11 else 1
                    expected = 0 if best == 0 else best * factor
                    assert seat.points == expected + 20 * seat.false_outs
                    assert state.score_sheet[result.round - state.view(0).first_round][s] == (
                        seat.points
                    )
        assert rounds == len(game.schedule)
        assert [sum(col) for col in zip(*state.score_sheet, strict=True)] == state.totals
        assert sum(state.returns()) == 0


def test_the_hint_is_the_solvers_best_arrangement() -> None:
    game = ThreeThirteenGame()
    state = game.new_initial_state(17)
    state.apply_action(DRAW)
    me = state.current_player()
    assert me is not None
    hint = state.best_arrangement(me)
    direct = min_deadwood(state.hand(me), "three_thirteen", round=1)
    assert hint.deadwood <= direct.deadwood
    assert hint.discard is not None
    rest = list(state.hand(me))
    rest.remove(hint.discard)
    assert min_deadwood(rest, "three_thirteen", round=1).deadwood == hint.deadwood


def test_views_hide_other_hands_and_show_cards_taken_from_the_pile() -> None:
    game = ThreeThirteenGame()
    state = game.new_initial_state(5)
    p = state.current_player()
    assert p is not None
    top = state.view(p).top_discard
    state.apply_action(TAKE)
    other = 1 - p
    view = state.view(other)
    assert view.known_cards[p] == [top]
    assert sorted(c.code for c in view.hand) == sorted(c.code for c in state.hand(other))
    assert top not in view.hand or top in state.hand(other)
    assert len(view.hand_sizes) == 2
    assert view.legal_actions == []
    assert state.view(p).legal_actions == state.legal_actions()


def test_gifted_jokers_and_records_of_variants_replay() -> None:
    game = ThreeThirteenGame(jokers="wild_giftable", players=3, redemption_round=True)
    state = play_game(game, ["random", "greedy", "strong:4"], seed=12)
    assert isinstance(state, ThreeThirteenState)
    assert replay_record(state.to_record()) == state
    texts = {state.action_to_string(a).split()[0] for a in state.history()}
    assert {"draw", "discard"} <= texts
    assert Card("JK").is_joker


def test_issue38_item1_the_going_out_player_tables_a_giftable_joker() -> None:
    """TT-10.6 / TT-6.1, the referee's case: with jokers wild and giftable in
    the redemption round, the melds laid face up are those the go-out test
    counted, so no joker stays in the hand of the player who went out."""
    g = ThreeThirteenGame(players=2, jokers="wild_giftable", redemption_round=True)
    s = g.state_from_hands(
        0,
        ["2C 3C 5C 7C 9C JC KC 2S 4S 6S 9S TS", "8C 2D 4D 6D 7H 8H 9H TH QH 8S QS JK"],
        "JK",
        round=9,
    )
    for t in ("take", "out 6D"):
        s.apply_action(s.string_to_action(t))
    assert s.hand(1) == []
