"""Gin Rummy through the Python API (``cardtable.games.gin_rummy``) and the
CLI (``play``, ``simulate``, ``replay`` through click's CliRunner).

The human policy in the CLI tests is a greedy bot at seat 0 whose actions
are typed as the engine's texts, so whole games run through stdin.
"""

from __future__ import annotations

import json
import pickle
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardtable import Card, IllegalActionError, InvalidConfigError
from cardtable.cli import main
from cardtable.deck import derive_seed
from cardtable.games import Bot, Match, load_game, play_game, replay_record
from cardtable.games.gin_rummy import GinRummyGame, GinRummyState, gin_rummy_card

DRAW_UPCARD, DRAW_STOCK, PASS, KNOCK = 52, 53, 54, 55
ENDINGS = {"gin", "knock", "undercut", "knock_tie", "wall", "repeated_move", "upcard_limit"}


def run(args: list[str], text: str = "") -> tuple[int, str]:
    result = CliRunner().invoke(main, args, input=text)
    return result.exit_code, result.output


def test_load_game_gives_the_gin_rummy_classes_and_openspiels_numbers() -> None:
    game = load_game("gin-rummy")
    assert isinstance(game, GinRummyGame)
    assert game.name == "gin_rummy"
    assert game.players == 2
    assert game.num_distinct_actions() == 241
    assert game.observation_size() == 644
    assert set(game.ending_categories()) == ENDINGS
    assert game.guard_endings() == ["upcard_limit"]
    assert game.options() == {
        "knock_card": 10,
        "gin_bonus": 25,
        "undercut_bonus": 25,
        "hand_size": 10,
        "oklahoma": False,
    }
    state = game.new_initial_state(7)
    assert isinstance(state, GinRummyState)
    assert state.phase == "first_upcard"
    assert state.current_player() == 0
    assert state.legal_actions() == [DRAW_UPCARD, PASS]
    assert len(state.hand(0)) == 10
    assert state.stock_size == 31
    assert state.observation(0).shape == (644,)


def test_options_round_trip_and_bad_ones_name_themselves() -> None:
    game = GinRummyGame(knock_card=5, oklahoma=True, hand_size=7)
    assert GinRummyGame(**game.options()) == game
    assert pickle.loads(pickle.dumps(game)) == game
    for bad, option in [({"knock_card": 11}, "knock_card"), ({"hand_size": 0}, "hand_size")]:
        with pytest.raises(InvalidConfigError) as e:
            GinRummyGame(**bad)
        assert e.value.option == option


def test_card_ids_are_openspiels_and_texts_read_back() -> None:
    assert gin_rummy_card(0) == Card("AS")
    assert gin_rummy_card(13) == Card("AC")
    assert gin_rummy_card(51) == Card("KH")
    assert gin_rummy_card(52) is None
    game = GinRummyGame()
    assert game.string_to_action("discard AS") == 0
    assert game.action_to_string(DRAW_STOCK) == "draw stock"
    assert game.action_to_string(56 + 65) == "meld AS 2S 3S"
    assert game.string_to_action("meld 3s as 2s") == 56 + 65


def test_a_given_deck_deals_and_illegal_moves_say_why() -> None:
    game = GinRummyGame()
    deck = "AS 2S 3S 4C 5C 6C 7D 8D 9D KH " + "2H 3H 4H 5H 6H 7H 8H 9H TH JH" + " QD 2C"
    state = game.state_from_deck(deck, 1)
    assert isinstance(state, GinRummyState)
    assert state.upcard == Card("QD")
    with pytest.raises(IllegalActionError):
        state.apply_action(KNOCK)
    assert state.refusal(KNOCK) is not None
    assert state.refusal(PASS) is None
    state.apply_action(PASS)
    state.apply_action(PASS)
    state.apply_action(DRAW_STOCK)  # 2C: KH's discard leaves 2
    assert state.deadwood(0) == 2
    assert KNOCK in state.legal_actions()
    view = state.view(1)
    assert view.hand_sizes == [11, 10]
    assert view.discard_pile == [Card("QD")]
    assert view.legal_actions == []


def test_bots_play_whole_games_and_greedy_beats_random() -> None:
    game = GinRummyGame()
    total = 0
    for seed in range(40):
        bots = ["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"]
        state = play_game(game, bots, seed)
        assert state.is_terminal()
        assert state.ending_category in ENDINGS
        assert sum(state.returns()) == 0
        total += state.returns()[seed % 2]
    assert total > 0


def test_a_record_replays_to_the_same_state() -> None:
    game = GinRummyGame(knock_card=7)
    state = play_game(game, ["greedy", "greedy"], 11)
    line = state.to_record(["a", "b"])
    assert json.loads(line)["game"] == "gin_rummy"
    again = replay_record(line)
    assert again.fingerprint() == state.fingerprint()
    assert again.returns() == state.returns()


def expected_game(seed: int) -> tuple[GinRummyState, list[str]]:
    """The first game ``play gin-rummy --seed seed`` plays, seat 0 greedy
    against the default opponent (the ``normal`` level)."""
    game = GinRummyGame()
    state = Match(game, seed).next_game()
    assert isinstance(state, GinRummyState)
    players = [Bot(game, "greedy", 1), Bot(game, "normal", derive_seed(seed, 101))]
    inputs = []
    while (p := state.current_player()) is not None:
        action = players[p].act(state)
        if p == 0:
            inputs.append(state.action_to_string(action))
        state.apply_action(action)
    return state, inputs


def test_play_a_whole_game_through_stdin_and_replay_it(tmp_path: Path) -> None:
    state, inputs = expected_game(21)
    record = tmp_path / "games.jsonl"
    code, out = run(
        ["play", "gin-rummy", "--seed", "21", "--no-color", "--record", str(record)],
        "\n".join(["zz", "?", *inputs, "n"]) + "\n",
    )
    assert code == 0, out
    assert "--- New deal: knock card 10" in out
    assert "type a menu number or a command (? for help)" in out
    assert "Commands (at any prompt):" in out
    assert "Hint: your deadwood is" in out
    assert "=== Game 1 over: " in out
    assert out.rstrip().endswith("Bye.")
    line = record.read_text().splitlines()[0]
    assert replay_record(line).fingerprint() == state.fingerprint()
    code, shown = run(["replay", str(record), "--show", "1"])
    assert code == 0, shown
    assert "Gin Rummy, dealer Player 1" in shown
    assert f"Ended {state.ending_category}" in shown
    # Cards are told in symbols everywhere in the story ("discard J♠", not "JS").
    assert not re.search(r"(discard|meld|upcard) .*\b([2-9TJQKA]|10)[CDHS]\b", shown)


def test_a_refused_knock_says_why_with_the_rule() -> None:
    code, out = run(["play", "gin-rummy", "--seed", "3", "--no-color"], "k\nq\ny\n")
    assert code == 0, out
    assert "not allowed:" in out
    assert "(GR-3.1)" in out


def test_simulate_reports_the_same_for_any_thread_count(tmp_path: Path) -> None:
    args = ["simulate", "gin-rummy", "--bots", "greedy,random", "--games", "20", "--seed", "9"]
    code1, one = run([*args, "--format", "json", "--threads", "1"])
    code2, two = run(
        [*args, "--format", "json", "--threads", "2", "--record", str(tmp_path / "s.jsonl")]
    )
    assert code1 == code2 == 0, one
    assert one == two
    report = json.loads(one)
    assert report["game"] == "gin_rummy"
    assert report["games"] == 20
    assert set(report["endings"]) <= ENDINGS
    greedy, rand = report["bots"]
    assert greedy["stakes_per_game"] > 0 > rand["stakes_per_game"]
    code, text = run(args)
    assert code == 0, text
    assert "Gin Rummy simulation: 20 games" in text
    code, out = run(["replay", str(tmp_path / "s.jsonl")])
    assert code == 0, out
    assert out.strip() == "20 records, all valid"


def until_my_layoffs(seed: int) -> tuple[GinRummyState, list[str]]:
    """``play gin-rummy --seed seed --bots greedy`` with seat 0 greedy, up
    to seat 0's first decision after the bot's knock (GR-6)."""
    game = GinRummyGame()
    state = Match(game, seed).next_game()
    assert isinstance(state, GinRummyState)
    players = [Bot(game, "greedy", 1), Bot(game, "greedy", derive_seed(seed, 101))]
    inputs: list[str] = []
    while (p := state.current_player()) is not None:
        if p == 0 and state.phase == "layoff":
            return state, inputs
        action = players[p].act(state)
        if p == 0:
            inputs.append(state.action_to_string(action))
        state.apply_action(action)
    raise AssertionError(f"seed {seed}: the bot did not knock")


@pytest.mark.parametrize("lay", [True, False])
def test_done_with_melds_in_hand_asks_to_lay_them_first(lay: bool) -> None:
    """Issue 35 item 6: done (p) after the bot's knock, before laying melds,
    counted every card as deadwood with no warning. Now it asks; yes lays
    the engine's best melds (GR-6.3) and leaves the least deadwood."""
    state, inputs = until_my_layoffs(5)
    view = state.view(0)
    melds = view.best_melds
    assert melds, "seed 5 leaves seat 0 melds to lay"
    pass_ = state.string_to_action("pass")
    state.apply_action(pass_)  # done laying off: the melds come next
    if lay:
        for meld in melds:
            state.apply_action(state.string_to_action("meld " + " ".join(map(str, meld))))
    state.apply_action(pass_)
    final = state.final_deadwood
    assert final is not None
    code, out = run(
        ["play", "gin-rummy", "--seed", "5", "--bots", "greedy", "--no-color"],
        "\n".join([*inputs, "p", "p", "y" if lay else "n", "n"]) + "\n",
    )
    assert code == 0, out
    shown = ", ".join(" ".join(c.symbol() for c in m) for m in melds)
    assert f"You still hold melds: {shown}. Not laid, they count as deadwood." in out
    assert "Lay them before you finish? [y/n]" in out
    assert f"deadwood {final[0]}" in out
    if lay:
        assert final[0] == view.deadwood  # the least deadwood of the hand
    else:
        assert final[0] > view.deadwood


def test_the_table_says_what_the_upcard_phase_the_dead_cards_and_the_wall_are() -> None:
    code, out = run(["play", "gin-rummy", "--seed", "3", "--no-color"], "?\nq\ny\n")
    assert code == 0, out
    assert "The first upcard (GR-3): take it, or pass it to the other player" in out
    game = GinRummyGame()
    for title, rule, _ in game.rules_summary():
        assert f"{title} ({rule}):" in out
    assert "The wall (GR-7.1)" in out
    assert "the dead cards" in out
