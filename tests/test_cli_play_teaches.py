"""``cardtable play tonk`` and ``play three-thirteen`` teach as they go: every
copy of a card stays on screen, ``?`` tells the goal and the rules in play,
a refused move says why (the engine's sentence and rule), Tonk has a hint
line like Three Thirteen's, ``u`` takes back a move where the rules allow
it, and a Three Thirteen redemption turn lays down exactly the cards named
(``t 2C 2D 2H``). Expected texts come from the engine's API, as the
command's do.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Sequence
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from cardtable import Card
from cardtable.cli.play import play_one
from cardtable.cli.presenters.three_thirteen import ThreeThirteenTable
from cardtable.cli.presenters.tonk import TonkTable
from cardtable.cli.terminal import hand_order
from cardtable.deck import derive_seed
from cardtable.games import Bot, Match
from cardtable.games.three_thirteen import ThreeThirteenGame, ThreeThirteenState
from cardtable.games.tonk import TonkGame, TonkState

from . import test_cli_three_thirteen as tt
from . import test_cli_tonk_play as tonk

DRAW, TAKE, TABLE = 106, 107, 108  # Three Thirteen's actions, as the engine numbers them


def flat(text: str) -> str:
    """Output with its line wrapping undone."""
    return re.sub(r"\s+", " ", text)


def drive(
    table: ThreeThirteenTable | TonkTable,
    state: ThreeThirteenState | TonkState,
    bots: Sequence[Bot | None],
    lines: Sequence[str],
) -> str:
    """Plays ``state`` at ``table`` (the command's loop) with ``lines`` as the
    input, until the game ends or the input does; returns the output."""
    text = "".join(f"{line}\n" for line in lines)
    # click.Abort: the end of the input.
    with CliRunner().isolation(input=text) as (out, _, _), contextlib.suppress(click.Abort):
        play_one(table, state, bots)
    return out.getvalue().decode()


def tt_first_decision(seed: int, **options: object) -> ThreeThirteenState:
    """The state at seat 0's first decision of ``play three-thirteen --seed seed``."""
    game = ThreeThirteenGame(**options)
    state = Match(game, seed).next_game()
    assert isinstance(state, ThreeThirteenState)
    bot = Bot(game, "greedy", derive_seed(seed, 101))
    while state.current_player() != 0:
        state.apply_action(bot.act(state))
    return state


def tonk_first_decision(seed: int, **options: object) -> TonkState:
    """The state at seat 0's first decision of ``play tonk --seed seed`` (one bot)."""
    game = TonkGame(**options)
    state = Match(game, seed).next_game()
    assert isinstance(state, TonkState)
    bot = Bot(game, "greedy", derive_seed(seed, 101))
    while state.current_player() != 0:
        state.apply_action(bot.act(state))
    return state


def refused(state: ThreeThirteenState | TonkState, text: str) -> str:
    """The line the table prints when ``text`` is refused in ``state``."""
    why = state.refusal(state.string_to_action(text))
    assert why is not None, text
    return f"  not allowed: {why[1]} ({why[0]})\n"


# --- 1. two copies of a card (two decks) --------------------------------------------


def test_hand_order_keeps_every_copy_and_puts_one_new_copy_last() -> None:
    hand = [Card("7H"), Card("9S"), Card("KD"), Card("7H")]
    assert hand_order(hand, Card("7H")) == [Card("9S"), Card("7H"), Card("KD"), Card("7H")]
    assert hand_order(hand) == [Card("9S"), Card("7H"), Card("7H"), Card("KD")]


def test_drawing_a_second_copy_shows_both_and_the_hint_counts_the_hand_on_screen() -> None:
    game = ThreeThirteenGame()
    state = game.state_from_hands(1, ["7H 9S KD", "2C 3D 4S"], "5C", stock_top="7H")
    table = ThreeThirteenTable(game, ["you", "greedy"], color=False)
    out = drive(table, state, [None, Bot(game, "greedy", 1)], ["d"])
    assert "You draw 7♥ from the stock" in out
    after = out[out.index("You draw 7♥") :]
    hand = next(line for line in after.splitlines() if line.startswith("Your hand"))
    assert hand == "Your hand (3s wild): 1:9♠  2:7♥  3:K♦  4:7♥*"
    best = table.state.best_arrangement(0)
    assert sorted(table.state.view(0).hand) == sorted(Card(c) for c in ["7H", "7H", "9S", "KD"])
    assert f"deadwood {best.deadwood}" in after
    # Copies are alike (CM-4): discarding 7♥ is offered once, as the new card's slot.
    assert "x 4      discard 7♥" in after
    assert "x 2 " not in after


# --- 2. ? tells the goal and the rules in play -----------------------------------------


def test_question_mark_tells_tonks_goal_and_rules_as_configured() -> None:
    result = tonk.run(["--seed", "27"], ["?", "q", "y"])
    assert result.exit_code == 0, result.output
    out = flat(result.output)
    assert "Goal (TK-10): get rid of your cards, or hold the lowest count" in out
    assert (
        "Count (TK-3): your count adds up the cards in your hand:"
        " A 1, 2-10 their number, J 10, Q 10, K 10." in out
    )
    assert "You may drop at the start of your turn, before you draw (TK-6.8)." in out
    assert "in one suit (ace low);" in out
    assert "Hit lock (TK-8.4): each card another player hits onto your spreads" in out
    assert "a dealt count of 49 or 50 wins the hand at once" in out
    assert "Commands (at any prompt):" in out
    assert out.index("Goal (TK-10)") < out.index("Commands (at any prompt):")

    flags = ["--face-values", "rank", "--ace-in-runs", "high", "--drop-timing", "any-time"]
    flags += ["--hit-lock-per-hit", "0", "--hand-size", "7", "--stake", "5"]
    result = tonk.run(["--seed", "27", *flags], ["?", "q", "y"])
    assert result.exit_code == 0, result.output
    out = flat(result.output)
    assert "in your hand: A 1, 2-10 their number, J 11, Q 12, K 13." in out
    assert "ace low or high, never wrapping" in out
    assert "at any time, in the drop window after every move (TK-6.8)" in out
    assert "Hit lock (TK-8.4)" not in out
    assert "On the deal (TK-5)" not in out  # other hand sizes have no deal-time wins (TK-2.3)
    assert "payments are counted in stakes of 5" in out


def test_question_mark_tells_three_thirteens_goal_schedule_and_wilds() -> None:
    code, out = tt.run(["play", "three-thirteen", "--seed", "8", "--no-color"], "?\nq\ny\n")
    assert code == 0, out
    text = flat(out)
    assert "Goal (TT-8.1): the lowest total after the last round wins." in text
    assert "Rounds (TT-2): 11 rounds of 3 (3s), 4 (4s)," in text
    assert "13 (Ks) cards" in text
    assert "Now: round 1 of 11, 3 cards, 3s wild." in text
    assert "at most 1 per meld" in text
    assert "Deadwood (TT-7.2): A 1, 2-10 their number, J 10, Q 10, K 10; an unused wild 15" in text
    assert "Redemption (TT-10.6)" not in text
    assert text.index("Goal (TT-8.1)") < text.index("Commands (at any prompt):")

    flags = ["--schedule", "up-down", "--redemption-round", "--max-wilds-per-meld", "unlimited"]
    flags += ["--ace-high-or-low"]
    code, out = tt.run(["play", "three-thirteen", "--seed", "8", "--no-color", *flags], "?\nq\ny\n")
    assert code == 0, out
    text = flat(out)
    schedule = ThreeThirteenGame(schedule="up_down").schedule
    assert f"Rounds (TT-2): {len(schedule)} rounds of 3 (3s)," in text
    assert "any number of them per meld" in text
    assert "Deadwood (TT-7.2): A 15," in text
    assert "Redemption (TT-10.6)" in text
    assert "t 2C 2D 2H (or t 1 2 3) table exactly those cards as one meld" in text


# --- 3. a refused move says why ------------------------------------------------------------


def test_a_refused_three_thirteen_move_gives_the_engines_reason_and_rule() -> None:
    state = tt_first_decision(8)
    first = hand_order(state.view(0).hand)[0]
    code, out = tt.run(["play", "three-thirteen", "--seed", "8", "--no-color"], "x 1\nq\ny\n")
    assert code == 0, out
    line = refused(state, f"discard {first}")
    assert line.endswith("(TT-3.4)\n")
    assert line in out
    assert "choose from the menu" not in out


def test_a_refused_tonk_move_gives_the_engines_reason_and_rule() -> None:
    state = tonk_first_decision(27)
    first = hand_order(state.view(0).hand)[0]
    result = tonk.run(["--seed", "27"], ["x 1", "q", "y"])
    assert result.exit_code == 0, result.output
    assert refused(state, f"discard {first}") in result.output
    assert "choose from the menu" not in result.output


# --- 4. Tonk's hint line ------------------------------------------------------------------


def test_tonk_shows_a_hint_with_the_greedy_bots_move_unless_no_hints() -> None:
    state = tonk_first_decision(27)
    table = TonkTable(state.game, ["you", "greedy"], color=False)
    table.state = state
    items = table.menu(state.view(0))
    advice = Bot(state.game, "greedy", 0).act(state)
    item = next(m for m in items if m.action == advice)
    result = tonk.run(["--seed", "27"], ["q", "y"])
    assert result.exit_code == 0, result.output
    hint = next(line for line in result.output.splitlines() if line.startswith("Hint: "))
    assert hint.endswith(f"; the greedy bot would: {item.mnemonic}, {item.label}")
    assert result.output.index("Your hand:") < result.output.index("Hint: ")
    quiet = tonk.run(["--seed", "27", "--no-hints"], ["q", "y"])
    assert quiet.exit_code == 0, quiet.output
    assert "Hint:" not in quiet.output


def test_h_turns_tonks_hint_off_and_on() -> None:
    result = tonk.run(["--seed", "27"], ["h", "t", "h", "t", "q", "y"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "  hints off\n" in out
    assert "  hints on\n" in out
    off, on = out.index("  hints off"), out.index("  hints on")
    assert "Hint:" not in out[off:on]
    assert "Hint:" in out[on:]


def test_tonks_hint_names_the_best_spreads_and_what_they_leave() -> None:
    game = TonkGame()
    state = game.state_from_hands(1, ["5H 6H 7H KS 2C", "3D 8C TS QC JD"], "9D")
    assert state.current_player() == 0
    table = TonkTable(game, ["you", "greedy"], color=False)
    table.state = state
    line = click.unstyle(table.hint_line(state, table.menu(state.view(0))))
    assert line.startswith("Hint: best spreads 5♥ 6♥ 7♥ (count 12 left)")


def test_tonks_hint_names_one_discard_when_two_leave_the_same_count() -> None:
    """Issue 38 item 6: the solver's best discard (10♦) and the greedy bot's
    (J♠) are worth the same (TK-3): the hint names one card, not
    "best discard 10♦; the greedy bot would: ..., discard J♠"."""
    game = TonkGame()
    state = game.state_from_hands(1, ["4C 9C 7D TD KH", "3D 8C 5S QC 2D"], "6S", ["JS"])
    state.apply_action(game.string_to_action("draw"))
    advice = state.describe_action(Bot(game, "greedy", 0).act(state))
    assert advice.kind == "discard"
    assert state.best_arrangement(0).discard != advice.cards[0]  # the two differ
    table = TonkTable(game, ["you", "greedy"], color=False)
    table.state = state
    line = click.unstyle(table.hint_line(state, table.menu(state.view(0))))
    named = set(re.findall(r"discard(?:ing)? ([^\s;,)]+)", line))
    assert named == {advice.cards[0].symbol()}, line


# --- 5. u takes back your own move, where the rules allow it --------------------------------


def test_u_takes_back_taking_the_discard_but_not_a_stock_draw(tmp_path: Path) -> None:
    state = tt_first_decision(8)
    record = tmp_path / "r.jsonl"
    lines = ["u", "p", "u", "d", "u", "x 1", "u", "q", "y"]
    code, out = tt.run(
        ["play", "three-thirteen", "--seed", "8", "--no-color", "--record", str(record)],
        "\n".join(lines) + "\n",
    )
    assert code == 0, out
    assert "  nothing to take back: you have not moved yet\n" in out
    assert "  Taken back: taking the discard\n" in out
    assert "  you saw the card you drew: a stock draw cannot be taken back\n" in out
    assert "  nothing to take back: the others have moved since your last move\n" in out
    # The match went on from the state before the take: the record has no take.
    played = json.loads(record.read_text().splitlines()[0])["actions"]
    before = len(state.history())
    assert played[:before] == state.history()
    assert played[before] == DRAW
    assert TAKE not in played[before:]
    assert state.action_to_string(played[before + 1]).startswith("discard ")


def test_u_in_tonk_takes_back_a_pick_up_and_the_hand_goes_on_without_it(tmp_path: Path) -> None:
    exp = tonk.expected_match(27, ["greedy"], {}, tonk.smart)
    record = tmp_path / "r.jsonl"
    # Pick up the discard, take it back, then play the hand as the expected one.
    result = tonk.run(["--seed", "27", "--record", str(record)], ["p", "u", *exp.inputs])
    assert result.exit_code == 0, result.output
    assert "  Taken back: picking up the discard\n" in result.output
    assert tonk.records(record) == [exp.states[0].to_record(["human", "greedy"])]


# --- 6. a redemption last turn lays down exactly the cards named ----------------------------


def redemption_turn() -> tuple[ThreeThirteenGame, ThreeThirteenState]:
    """Round 2 (4 cards, 4s wild) with a redemption round: Player 1 draws 9♥
    and goes out with 6♥-9♥; seat 0 holds 2♣ 2♦ 2♥ 9♠ and draws Q♠ next."""
    game = ThreeThirteenGame(redemption_round=True)
    state = game.state_from_hands(
        0, ["2C 2D 2H 9S", "6H 7H 8H KD"], "3D", stock_top="9H QS", round=1
    )
    state.apply_action(DRAW)
    state.apply_action(state.string_to_action("out KD"))
    assert state.current_player() == 0
    return game, state


def test_table_with_cards_lays_exactly_those_down_and_u_takes_it_back() -> None:
    game, state = redemption_turn()
    table = ThreeThirteenTable(game, ["you", "greedy"], color=False)
    out = drive(table, state, [None, Bot(game, "greedy", 1)], ["d", "t 2c 2d 2h", "u"])
    assert "t C C C  table exactly those cards as one meld" in out
    assert "You lay down M1: 2♣ 2♦ 2♥" in out
    assert "  Taken back: tabling 2♣ 2♦ 2♥\n" in out
    live = table.state
    assert [t.id for t in live.view(0).tabled] == [0]
    assert sorted(live.view(0).hand) == sorted(Card(c) for c in ["2C", "2D", "2H", "9S", "QS"])
    assert live.view(0).building == []


def test_table_with_cards_that_are_no_meld_changes_nothing_and_says_why() -> None:
    game, state = redemption_turn()
    table = ThreeThirteenTable(game, ["you", "greedy"], color=False)
    out = drive(table, state, [None, Bot(game, "greedy", 1)], ["d", "t 2C 2D 9S"])
    trial = table.state.clone()
    for c in ["2C", "2D", "9S"]:
        trial.apply_action(trial.string_to_action(f"pick {c}"))
    assert refused(trial, "meld") in out
    live = table.state
    assert live.history()[-1] == DRAW  # nothing was picked or laid down
    assert live.view(0).building == []
    assert len(live.view(0).tabled) == 1


def test_table_alone_is_still_the_solvers_arrangement_and_the_turn_goes_on() -> None:
    game, state = redemption_turn()
    table = ThreeThirteenTable(game, ["you", "greedy"], color=False)
    out = drive(table, state, [None, Bot(game, "greedy", 1)], ["d", "t", "x qs"])
    assert "You table melds" in out
    assert "You discard Q♠" in out
    assert TABLE in table.state.history()


@pytest.mark.parametrize("text", ["t 1 1 2", "t 2C 2D 2H 2H"])
def test_table_with_a_slot_twice_or_a_card_too_often_is_refused(text: str) -> None:
    game, state = redemption_turn()
    table = ThreeThirteenTable(game, ["you", "greedy"], color=False)
    out = drive(table, state, [None, Bot(game, "greedy", 1)], ["d", text])
    assert "  the same slot twice\n" in out or "not allowed: " in out
    assert table.state.history()[-1] == DRAW
