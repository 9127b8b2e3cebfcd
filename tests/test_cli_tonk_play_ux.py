"""``cardtable play tonk`` as a new user meets it: hand order, pacing, help, drop
windows, the spades bet, confirmations, settlements explained, standings,
colours, ``--face-values`` spellings and seat numbers. Whole games go through
stdin with click's CliRunner, the expected games are replayed through the API.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

import pytest
from click.testing import CliRunner

from cardtable import Card
from cardtable.cli import main
from cardtable.cli import terminal as play_module
from cardtable.cli.presenters.tonk import TonkTable
from cardtable.cli.terminal import sort_hand
from cardtable.games.tonk import TonkGame

from .test_cli_tonk_play import expected_match, ledger_text, run, smart

ANY_TIME = {"drop_timing": "any_time"}
ANY_TIME_FLAGS = ["--drop-timing", "any-time"]


def hand_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("Your hand:")]


def slots_of(line: str) -> list[str]:
    """``Your hand: 1:A♠  2:5♥*   count 6`` -> ``['A♠', '5♥*']``."""
    return re.findall(r"\d+:(\S+)", line.split("   count")[0])


# --- 1. the hand keeps its order; the new card is last and marked ---------------------


def test_drawn_card_goes_last_marked_and_the_other_slots_stay() -> None:
    exp = expected_match(27, ["greedy"], {}, smart)
    result = run(["--seed", "27"], exp.inputs)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    draws = [i for i, line in enumerate(lines) if re.match(r"^You draw \S+ from the stock$", line)]
    assert len(draws) >= 2
    for i in draws:
        drawn = lines[i].split()[2]
        before = [line for line in lines[:i] if line.startswith("Your hand:")][-1]
        after = next(line for line in lines[i:] if line.startswith("Your hand:"))
        assert slots_of(after) == [*slots_of(before), drawn + "*"]
        assert after.endswith("(* new)")
    # Once the turn is over the hand is sorted again and nothing is marked.
    for line in hand_lines(result.output):
        cards = [Card(s.rstrip("*")) for s in slots_of(line)]
        if "*" not in line:
            assert cards == sort_hand(cards)


def test_the_last_slot_discards_the_card_just_drawn() -> None:
    # Seed 27, default rules: the human's first turn; "x 6" is the drawn card.
    result = run(["--seed", "27"], ["d", "x 6", "q", "y"])
    assert result.exit_code == 0, result.output
    drawn = re.search(r"^You draw (\S+) from the stock$", result.output, re.M)
    assert drawn is not None
    assert f"You discard {drawn.group(1)}\n" in result.output
    assert re.search(rf"  6\) x 6  discard {re.escape(drawn.group(1))}$", result.output, re.M)


# --- 2. pacing ------------------------------------------------------------------------


def pauses(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    calls: list[float] = []
    monkeypatch.setattr(play_module, "pause", calls.append)
    return calls


def bot_lines(out: str) -> list[str]:
    before_end = out.split("=== Hand 1 over")[0]
    return [line for line in before_end.splitlines() if re.match(r"^Player \d ", line)]


def test_delay_pauses_before_every_bot_move(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = pauses(monkeypatch)
    exp = expected_match(5, ["greedy", "greedy"], {}, smart)
    result = run(["--seed", "5", "--players", "3", "--delay", "0.25"], exp.inputs)
    assert result.exit_code == 0, result.output
    assert len(bot_lines(result.output)) >= 4
    assert calls == [0.25] * len(bot_lines(result.output))


def test_no_pause_when_output_is_not_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = pauses(monkeypatch)
    exp = expected_match(5, ["greedy", "greedy"], {}, smart)
    result = run(["--seed", "5", "--players", "3"], exp.inputs)
    assert result.exit_code == 0, result.output
    assert bot_lines(result.output)
    assert calls == []


def test_you_see_your_hand_before_a_bot_drops_out_of_turn() -> None:
    # A bot that drops at 50 or less drops in the first drop window, before any prompt.
    result = run(["--seed", "5", "--bots", "greedy:50", *ANY_TIME_FLAGS], ["n"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Your choice" not in out
    assert out.index("Your hand: 1:") < out.index("Player 1 drops!")


# --- 3. the header once, the table per turn -----------------------------------------


def test_header_once_and_on_request() -> None:
    exp = expected_match(5, ["greedy", "greedy"], {"stake": 2}, smart, hands=2)
    result = run(["--seed", "5", "--players", "3", "--stake", "2"], exp.inputs)
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.count("Rules: pagat rules, --stake 2") == 1
    assert out.count("Seats: ") == 1
    assert "--- dealer" not in out
    # After your own draw only your hand and the menu come again, not the table.
    for chunk in re.split(r"^You draw .*$", out, flags=re.M)[1:]:
        assert "Discard:" not in chunk[: chunk.index("Your choice")]
    # r shows the header again.
    again = run(["--seed", "27"], ["r", "q", "y"])
    assert again.exit_code == 0, again.output
    assert again.output.count("Rules: pagat rules") == 2
    assert again.output.count("Tonk: you against Player 1 (greedy); seed 27") == 2


# --- 4. settlements explained ----------------------------------------------------------


def test_the_stake_multiplies_once_tk_1_3() -> None:
    """TK-1.3: settlements are in stakes, shown with their money; the ledger
    and the standings are money already (the engine's returns) and are not
    multiplied again. Seed 3: the bot drops at once and is caught."""
    result = run(["--seed", "3", "--bots", "random", "--stake", "5"], ["d", "1", "q", "y"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Player 1 pays you 10 (2s)" in out
    assert "Player 1 pays you 5 (1s)" in out
    assert "This hand: you +15, Player 1 -15" in out
    assert "Standings after 1 hand (at a stake of 5):" in out
    assert re.search(r"^  seat 0  you +\+15$", out, re.M), out
    assert "+75" not in out
    assert TonkGame(stake=5).money(3) == 15


def names(players: int) -> list[str]:
    return ["you", *(f"Player {p}" for p in range(1, players))]


def transfer_line(payer: int, payee: int, amount: int, players: int) -> str:
    n = names(players)
    verb = "pay" if payer == 0 else "pays"
    return f"  {n[payer][0].upper() + n[payer][1:]} {verb} {n[payee]} {amount} - "


@pytest.mark.parametrize(
    ("seed", "category"),
    [(5, "drop_won"), (2, "caught"), (12, "out_by_discard"), (54, "tonk_out"),
     (69, "deal_win"), (182, "stock_out")],
)  # fmt: skip
def test_each_settlement_line_says_why(seed: int, category: str) -> None:
    exp = expected_match(seed, ["greedy", "greedy"], {}, smart)
    state = exp.states[0]
    assert state.ending is not None
    assert state.ending["category"] == category
    result = run(["--seed", str(seed), "--players", "3"], exp.inputs)
    assert result.exit_code == 0, result.output
    end = result.output.split("=== Hand 1 over")[1]
    reasons = state.settlement_reasons()
    assert state.settlement()
    lines = [x for x in end.splitlines() if re.match(r"^  \S+( \d)? pays? ", x)]
    assert len(lines) == len(state.settlement())
    for i, (payer, payee, units) in enumerate(state.settlement()):
        line = lines[i]
        assert line.startswith(transfer_line(payer, payee, units, 3))
        assert line.endswith(reasons[i][3])
        assert re.search(r"\(TK-\d+\.\d+", line), line


def test_spades_settlement_names_the_winning_spade() -> None:
    options = {**ANY_TIME, "spades_bet": 2}
    exp = expected_match(3, ["greedy", "greedy"], options, smart)
    state = exp.states[0]
    side = state.side_bet_settlement()
    assert side
    result = run(["--seed", "3", "--players", "3", *ANY_TIME_FLAGS, "--spades-bet", "2"],
                 exp.inputs)  # fmt: skip
    assert result.exit_code == 0, result.output
    end = result.output.split("=== Hand 1 over")[1]
    assert "Spades bet:\n" in end
    for payer, payee, units in side:
        spade = state.view(0).spades_shown[payee]
        assert spade is not None
        whose = "your" if payee == 0 else f"Player {payee}'s"
        assert (
            transfer_line(payer, payee, units, 3)
            + f"{whose} {spade.symbol()} is the highest spade shown (TK-11.3)"
        ) in end


# --- 5. drop windows: quiet, k in your menu, w to be asked -----------------------------


def test_any_time_windows_are_quiet_and_k_drops_from_your_menu() -> None:
    # Seed 27, smart: the human drops at 8 or less; under any_time from a window.
    exp = expected_match(27, ["greedy"], ANY_TIME, smart)
    state = exp.states[0]
    result = run(["--seed", "27", *ANY_TIME_FLAGS], exp.inputs)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Drop window" not in out
    assert out.count("Your choice:") == len(exp.inputs) - 1 - exp.inputs.count("y")
    assert f"Ledger after 1 hand: {ledger_text(exp.ledger)}" in out
    assert state.ending is not None
    if state.ending.get("player") == 0:
        assert "You drop!" in out


def test_w_asks_at_the_other_players_windows() -> None:
    exp = expected_match(3, ["greedy", "greedy"], ANY_TIME, smart, ask_windows=True)
    assert exp.inputs[0] == "w"
    result = run(["--seed", "3", "--players", "3", *ANY_TIME_FLAGS], exp.inputs)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "You will be asked at every drop window of the other players' turns." in out
    assert re.search(r"^Drop window \(Player \d's turn\): drop now\? \(your count \d+\)", out, re.M)
    assert "Your choice [pass]:" in out
    assert f"Ledger after 1 hand: {ledger_text(exp.ledger)}" in out


def test_w_without_drop_windows_says_so() -> None:
    result = run(["--seed", "27"], ["w", "q", "y"])
    assert result.exit_code == 0, result.output
    assert "There are no drop windows under these rules." in result.output


# --- 6. the spades bet is explained ----------------------------------------------------


def test_spades_bet_is_explained_when_asked() -> None:
    result = run(["--seed", "8", "--players", "3", "--spades-bet", "2", "--stake", "3"],
                 ["q", "y"])  # fmt: skip
    assert result.exit_code == 0, result.output
    out = re.sub(r"\s+", " ", result.output)
    assert "Side bet (TK-11.3): everyone who joins puts 6 (2s) into a pot" in out
    assert "the highest spade (ace high) takes the pot" in out
    assert out.index("Side bet (TK-11.3)") < out.index("Spades bet: join?")
    low = run(["--seed", "8", "--spades-bet", "1", "--no-spades-ace-high"], ["q", "y"])
    assert "(ace low)" in low.output


# --- 7. ? is help -----------------------------------------------------------------------


def test_question_mark_explains_commands_and_active_rules() -> None:
    exp = expected_match(27, ["greedy"], ANY_TIME, smart)
    result = run(["--seed", "27", *ANY_TIME_FLAGS], ["?", *exp.inputs])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Commands (at any prompt):" in out
    assert "k drop/knock (asks y/n)" in out
    assert "Rules that differ from the defaults:" in out
    assert "--drop-timing any_time: When a player may drop" in out
    flat = re.sub(r"\s+", " ", out)
    assert "windows in the other players' turns are passed for you unless you type w" in flat
    # The menu comes again and the game goes on as without the ?.
    help_at = out.index("Commands (at any prompt):")
    assert "Your move:" in out[help_at:]
    assert f"Ledger after 1 hand: {ledger_text(exp.ledger)}" in out


def test_question_mark_with_default_rules() -> None:
    result = run(["--seed", "27"], ["?", "q", "y"])
    assert result.exit_code == 0, result.output
    assert "Rules: the defaults (pagat)" in result.output
    assert "Drop windows:" not in result.output


# --- 8. confirmations and standings -------------------------------------------------


def test_drop_asks_and_n_goes_back() -> None:
    exp = expected_match(27, ["greedy"], {}, smart)
    k = exp.inputs.index("k")
    inputs = [*exp.inputs[:k], "k", "n", *exp.inputs[k:]]
    result = run(["--seed", "27"], inputs)
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.count("Drop now with a count of") == 2
    assert out.count("You drop!") == 1
    assert f"Ledger after 1 hand: {ledger_text(exp.ledger)}" in out


def test_quit_asks_and_n_goes_on() -> None:
    exp = expected_match(27, ["greedy"], {}, smart)
    result = run(["--seed", "27"], ["q", "maybe", "n", "quit", "no", *exp.inputs])
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.count("Quit the match? [y/n]") == 3
    assert "  answer y or n" in out
    assert f"Ledger after 1 hand: {ledger_text(exp.ledger)}" in out


def standings(amounts: Sequence[int], bots: Sequence[str]) -> list[str]:
    labels = ["you", *(f"Player {p} ({b})" for p, b in enumerate(bots, 1))]
    width = max(map(len, labels))
    return [
        f"  seat {p}  {label:<{width}}  {a:+d}" if a else f"  seat {p}  {label:<{width}}  0"
        for p, (label, a) in enumerate(zip(labels, amounts, strict=True))
    ]


def test_standings_at_the_end() -> None:
    exp = expected_match(5, ["greedy", "random"], {}, smart, hands=2)
    result = run(["--seed", "5", "--bots", "greedy,random"], exp.inputs)
    assert result.exit_code == 0, result.output
    tail = result.output.split("Standings after 2 hands:\n")[1]
    assert tail.splitlines()[:3] == standings(exp.ledger, ["greedy", "random"])
    assert tail.rstrip().endswith("Bye.")


def test_standings_when_quitting_mid_hand() -> None:
    exp = expected_match(27, ["greedy"], {}, smart, hands=2)
    # Quit at the first prompt of hand 2: hand 1 counts, hand 2 does not.
    first = exp.inputs.index("y", exp.inputs.index("k") + 2)
    result = run(["--seed", "27"], [*exp.inputs[: first + 1], "q", "y"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Standings after 1 hand (the unfinished hand does not count):" in out
    ledger = exp.states[0].returns()
    tail = out.split("does not count):\n")[1]
    assert tail.splitlines()[:2] == standings(ledger, ["greedy"])


# --- 9. NO_COLOR and TERM=dumb ----------------------------------------------------------


@pytest.mark.parametrize("env", [{"NO_COLOR": "1"}, {"TERM": "dumb"}])
def test_no_colour_from_the_environment(env: dict[str, str | None]) -> None:
    exp = expected_match(27, ["greedy"], {}, smart)
    coloured = run(["--seed", "27"], exp.inputs, color=True, env={"NO_COLOR": None})
    assert "\x1b[" in coloured.output
    plain = run(["--seed", "27"], exp.inputs, color=True, env=env)
    assert plain.exit_code == 0, plain.output
    assert "\x1b[" not in plain.output
    assert re.sub(r"\x1b\[\d+m", "", coloured.output) == plain.output


def test_empty_no_color_keeps_colour() -> None:
    exp = expected_match(27, ["greedy"], {}, smart)
    result = run(["--seed", "27"], exp.inputs, color=True, env={"NO_COLOR": "", "TERM": "xterm"})
    assert "\x1b[31m" in result.output


# --- 10. --face-values: one spelling everywhere ---------------------------------------------


@pytest.mark.parametrize("word", ["rank", "eleven-twelve-thirteen", "ELEVEN_TWELVE_THIRTEEN"])
def test_face_values_spellings_in_play(word: str) -> None:
    exp = expected_match(4, ["greedy", "greedy"], {"face_values": "rank"}, smart)
    state = exp.states[0]
    result = run(["--seed", "4", "--players", "3", "--face-values", word], exp.inputs)
    assert result.exit_code == 0, result.output
    # Shown by the engine's name (TK-3.3); score's word "rank" is accepted too.
    assert "Rules: pagat rules, --face-values eleven_twelve_thirteen" in result.output
    end = result.output.split("=== Hand 1 over")[1]
    for p in range(3):
        assert f"(count {state.count(p)})" in end


def test_face_values_same_words_in_score_and_simulate() -> None:
    runner = CliRunner()
    score = runner.invoke(main, ["score", "--face-values", "rank", "-"], input="KD QD\n")
    assert score.exit_code == 0, score.output
    for word in ("ten", "rank", "eleven_twelve_thirteen"):
        sim = runner.invoke(
            main,
            ["simulate", "tonk", "--games", "4", "--seed", "1", "--bots", "greedy,greedy",
             "--face-values", word],
        )  # fmt: skip
        assert sim.exit_code == 0, sim.output
        assert ("--face-values eleven_twelve_thirteen" in sim.output) == (word != "ten")
    bad = runner.invoke(main, ["simulate", "tonk", "--face-values", "twelve"])
    assert bad.exit_code == 2
    assert "'ten', 'eleven_twelve_thirteen', 'rank'" in bad.output
    helped = runner.invoke(main, ["play", "tonk", "--help"])
    assert "[ten|eleven_twelve_thirteen|rank]" in " ".join(helped.output.split())
    # The engine agrees that rank is J=11, Q=12, K=13.
    game = TonkGame(face_values="rank")
    assert (
        game.options()["face_values"]
        == TonkGame(face_values="eleven_twelve_thirteen").options()["face_values"]
    )


# --- 11. seats are numbered from 0 ---------------------------------------------------------


def test_seats_from_zero_everywhere() -> None:
    exp = expected_match(5, ["greedy", "random"], {}, smart)
    state = exp.states[0]
    result = run(["--seed", "5", "--bots", "greedy,random"], exp.inputs)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Seats: 0 you, 1 Player 1 (greedy), 2 Player 2 (random)" in out
    assert set(re.findall(r"Player (\d+)", out)) <= {"1", "2"}
    assert "seat 0  you" in out
    assert "seat 2  Player 2 (random)" in out
    # The seat in each settlement line is the engine's seat.
    for payer, payee, units in state.settlement():
        assert transfer_line(payer, payee, units, 3) in out
    # Records name the same seats: seat 0 is the human.
    assert state.to_record(["human", "greedy", "random"]).count('"human"') == 1


def test_a_stalled_hand_is_explained_with_its_rule() -> None:

    game = TonkGame(max_idle_rounds=1)
    state = game.state_from_hands(0, ["3D 6C 9S QC 7D", "4D 8C TS KC JD"], "AS")
    for _ in range(2):
        top = state.discard_pile[-1]
        state.apply_action(TonkGame().string_to_action("take"))
        state.apply_action(TonkGame().string_to_action(f"discard {top}"))
    table = TonkTable(game, ["you", "greedy"], color=False)
    assert state.ending is not None
    text = table.ending_text(state.ending)
    assert text == (
        "The hand stalled (1 full round with no stock draw and nothing put down, TK-10.7); "
        "you have the lowest count"
    )
    transfers, reasons = table.settlement_lines(state)
    assert transfers == [(1, 0, 1)]
    assert reasons == ["lowest count when the hand stalled (TK-10.7)"]


def test_the_hand_is_never_shown_twice_in_a_row() -> None:
    result = run(["--seed", "9", "--preset", "wikipedia"], ["d", "x 1", "q", "y"])
    lines = result.output.splitlines()
    repeats = [a for a, b in itertools.pairwise(lines) if a == b and a.startswith("Your hand")]
    assert repeats == []
    assert any(line.startswith("Your hand") for line in lines)
