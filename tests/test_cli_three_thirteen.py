"""``cardtable play/simulate three-thirteen`` and ``replay`` of its records.

The expected games are played again through the API (``Match`` and ``Bot``
with the command's seeds), and a human policy (a greedy bot at seat 0)
turns into the text a person would type, so whole games run through stdin.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner

from cardtable.cli import main
from cardtable.deck import derive_seed
from cardtable.games import Bot, Match, replay_record
from cardtable.games.three_thirteen import (
    ThreeThirteenGame,
    ThreeThirteenState,
)


def run(args: list[str], text: str = "") -> tuple[int, str]:
    result = CliRunner().invoke(main, args, input=text)
    return result.exit_code, result.output


def typed(state: ThreeThirteenState, action: int) -> str:
    """What a person types for an action (a card token, not a slot)."""
    d = state.describe_action(action)
    card = d.cards[0] if d.cards else None
    return {
        "draw": "d",
        "take": "p",
        "table": "t",
        "discard": f"x {card}",
        "out": f"o {card}",
        "gift": f"g {card} {d.seat}",
        "layoff": f"l {card} M{d.meld}",
    }[d.kind]


@dataclass
class Expected:
    state: ThreeThirteenState
    inputs: list[str]


def expected_game(seed: int, bots: list[str], **options: object) -> Expected:
    """The first game the command plays with ``--seed seed``, seat 0 greedy."""
    game = ThreeThirteenGame(players=len(bots) + 1, **options)
    state = Match(game, seed).next_game()
    players = [Bot(game, "greedy", 12345)] + [
        Bot(game, b, derive_seed(seed, 100 + i)) for i, b in enumerate(bots, 1)
    ]
    inputs = []
    while (p := state.current_player()) is not None:
        action = players[p].act(state)
        if p == 0:
            inputs.append(typed(state, action))
        state.apply_action(action)
    return Expected(state, inputs)


def test_a_whole_game_through_stdin_ends_as_the_api_plays_it(tmp_path: Path) -> None:
    exp = expected_game(21, ["greedy"])
    record = tmp_path / "games.jsonl"
    code, out = run(
        [
            *("play", "three-thirteen", "--seed", "21", "--bots", "greedy", "--no-color"),
            *("--record", str(record)),
        ],
        "\n".join([*exp.inputs, "n"]) + "\n",
    )
    assert code == 0, out
    state = exp.state
    assert "--- Round 1 of 11: 3 cards, 3s wild" in out
    assert "--- Round 11 of 11: 13 cards, Ks wild" in out
    assert "Hint:" in out
    low = min(state.totals)
    assert "=== Game 1 over: " in out
    assert f"with {low} points ===" in out
    # The last score sheet printed is the engine's.
    sheet = out[out.rindex("Score sheet:") :].splitlines()
    total = next(i for i, line in enumerate(sheet) if line.startswith("  total"))
    assert sheet[total - 1].split()[-2:] == [str(x) for x in state.score_sheet[-1]]
    assert sheet[total].split()[1:] == [str(t) for t in state.totals]
    assert out.rstrip().endswith("Bye.")
    lines = record.read_text().splitlines()
    assert len(lines) == 1
    assert json.loads(lines[0])["players"] == ["human", "greedy"]
    assert replay_record(lines[0]).fingerprint() == state.fingerprint()


def test_every_round_shows_the_hands_and_the_score_sheet() -> None:
    exp = expected_game(4, ["random", "greedy"])
    code, out = run(
        ["play", "three-thirteen", "--seed", "4", "--bots", "random,greedy", "--no-color"],
        "\n".join([*exp.inputs, "n"]) + "\n",
    )
    assert code == 0, out
    assert out.count("Score sheet:") >= 11
    for k in range(1, 12):
        assert f"Round {k} over:" in out
    assert "Player 2" in out


def test_bad_input_says_why_and_asks_again_and_no_hints_hides_the_hint() -> None:
    exp = expected_game(8, ["greedy"])
    bad = ["zz", "x 99", "x 7h 7h", "o", "42", "?", "s"]
    code, out = run(
        ["play", "three-thirteen", "--seed", "8", "--bots", "greedy", "--no-color", "--no-hints"],
        "\n".join([*bad, *exp.inputs, "n"]) + "\n",
    )
    assert code == 0, out
    assert "type a menu number or a command (? for help)" in out
    assert "choose 1 to 2" in out
    assert "Commands (at any prompt):" in out
    assert "Score sheet: no round scored yet" in out
    assert "Hint:" not in out


def test_a_false_out_is_refused_with_the_rule() -> None:
    # Round 1 with 3 cards: after drawing, "o" with a card whose rest is not
    # a meld is refused (TT-6.1) and the prompt comes back.
    game = ThreeThirteenGame()
    state = Match(game, 3).next_game()
    bots = [None, Bot(game, "greedy", derive_seed(3, 101))]
    inputs: list[str] = []
    while (p := state.current_player()) != 0:
        assert p is not None
        bot = bots[p]
        assert bot is not None
        state.apply_action(bot.act(state))
    inputs.append("d")
    state.apply_action(state.string_to_action("draw"))
    outs = {
        state.describe_action(a).cards[0]
        for a in state.legal_actions()
        if state.describe_action(a).kind == "out"
    }
    refused = next(c for c in state.view(0).hand if c not in outs)
    code, out = run(
        ["play", "three-thirteen", "--seed", "3", "--no-color"],
        "\n".join([*inputs, f"o {refused}", "q", "y"]) + "\n",
    )
    assert code == 0, out
    why = state.refusal(state.string_to_action(f"out {refused}"))
    assert why is not None
    assert why[0] == "TT-6.1"
    assert f"  not allowed: {why[1]} (TT-6.1)\n" in out


def test_quitting_keeps_the_unfinished_game_in_the_record(tmp_path: Path) -> None:
    exp = expected_game(30, ["strong:4"])
    record = tmp_path / "r.jsonl"
    code, out = run(
        [
            "play",
            "three-thirteen",
            "--seed",
            "30",
            "--bots",
            "strong:4",
            "--no-color",
            "--record",
            str(record),
        ],
        "\n".join([*exp.inputs[:5], "q", "n", "q", "y"]) + "\n",
    )
    assert code == 0, out
    assert "Quit the match? [y/n]" in out
    assert "(the unfinished game does not count)" in out
    assert out.rstrip().endswith("Bye.")
    line = record.read_text().splitlines()[0]
    assert json.loads(line)["result"] is None
    assert len(json.loads(line)["actions"]) > 5
    assert not replay_record(line).is_terminal()


def test_end_of_input_is_an_interrupt_with_standings() -> None:
    code, out = run(["play", "three-thirteen", "--seed", "2", "--no-color"], "d\n")
    assert code == 130, out
    assert "Standings after 0 games" in out


def test_player_limits_and_rule_errors_come_from_the_engine() -> None:
    code, out = run(["play", "three-thirteen", "--bots", ",".join(["greedy"] * 8)], "")
    assert code == 2
    assert "Three Thirteen takes 1 to 7 opponents besides you, got 8" in out
    code, out = run(["play", "three-thirteen", "--players", "4", "--decks", "1"], "")
    assert code == 2
    assert "'--decks'" in out
    code, out = run(["simulate", "three-thirteen", "--bots", "greedy,clever"], "")
    assert code == 2
    assert "clever" in out


def test_simulate_reports_wins_and_margins_the_same_for_any_thread_count(tmp_path: Path) -> None:
    args = [
        "simulate",
        "three-thirteen",
        "--bots",
        "greedy,random",
        "--games",
        "20",
        "--seed",
        "9",
        "--format",
        "json",
    ]
    code1, one = run([*args, "--threads", "1"])
    code2, two = run([*args, "--threads", "2", "--record", str(tmp_path / "s.jsonl")])
    assert code1 == code2 == 0
    assert one == two
    report = json.loads(one)
    assert report["game"] == "three_thirteen"
    assert report["games"] == 20
    assert set(report["endings"]) == {"outright", "shared"}
    greedy, rand = report["bots"]
    assert greedy["stakes_per_game"] > 0 > rand["stakes_per_game"]
    code, text = run(args[:-2])
    assert code == 0
    assert "Three Thirteen simulation: 20 games, 10 deals x 2 seatings" in text
    assert "score margin [95% CI]" in text
    assert "how games ended:" in text
    code, out = run(["replay", str(tmp_path / "s.jsonl")])
    assert code == 0, out
    assert out.strip() == "20 records, all valid"
    code, out = run(["replay", str(tmp_path / "s.jsonl"), "--show", "3"])
    assert code == 0, out
    assert "Round 11: 13 cards, Ks wild" in out
    assert "Totals:" in out
    assert "Ended " in out


def help_text(*flags: str) -> str:
    code, out = run(["play", "three-thirteen", "--seed", "8", "--no-color", *flags], "?\nq\ny\n")
    assert code == 0, out
    return out[out.index("Commands (at any prompt):") :]


def test_help_lists_the_gift_and_the_redemption_commands_only_with_their_flags() -> None:
    """Issue 38 item 6: ``?`` listed g and t as if every game had them; they
    need --jokers wild-giftable (TT-10.4) and --redemption-round (TT-10.6)."""
    plain = help_text()
    commands = plain.partition("Not in these rules")[0]
    assert "g 3 1" not in commands
    assert "t table your melds" not in commands
    assert "l 3 M2" not in commands
    assert "(they need --jokers wild-giftable):\n  g 3 1 gift the joker" in plain
    assert "(they need --redemption-round):\n  t table your melds (TT-10.6)" in plain
    full = help_text("--jokers", "wild-giftable", "--redemption-round")
    assert "Not in these rules" not in full
    assert "  g 3 1 gift the joker in slot 3 to Player 1 (TT-10.4),\n" in full
    assert "  t table your melds (TT-10.6),\n" in full
    assert "  l 3 M2 lay slot 3 off on meld M2,\n" in full
