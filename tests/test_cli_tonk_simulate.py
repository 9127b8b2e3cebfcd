"""``cardtable simulate tonk``: reports, determinism across threads, records, usage errors."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from cardtable import InvalidConfigError
from cardtable.cli import main
from cardtable.cli.game_options import flag_name
from cardtable.cli.presenters import PRESENTERS
from cardtable.cli.simulate import json_report, text_report
from cardtable.games.tonk import TonkGame, replay_tonk_record, simulate


def run(args: Sequence[str]) -> Result:
    return CliRunner().invoke(main, ["simulate", "tonk", *args])


def as_json(result: Result) -> dict[str, Any]:
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_text_report_matches_the_api() -> None:
    result = run(["--games", "60", "--bots", "greedy,random", "--seed", "7"])
    assert result.exit_code == 0, result.output
    expected = simulate(TonkGame(players=2), ["greedy", "random"], 60, seed=7)
    lines = result.stdout.splitlines()
    assert lines[0] == "Tonk simulation: 60 games, 30 deals x 2 seatings"
    assert lines[1] == "seed 7; pagat rules"
    for i, bot in enumerate(expected["bots"], 1):
        low, high = bot["positive_return_rate_ci"]
        slow, shigh = bot["stakes_per_game_ci"]
        line = next(x for x in lines if x.startswith(f"{i}. {bot['bot']}"))
        numbers = [float(x) for x in re.findall(r"[-+]?\d+\.\d+", line)]
        assert numbers == pytest.approx(
            [
                100 * bot["positive_return_rate"],
                100 * low,
                100 * high,
                bot["stakes_per_game"],
                slow,
                shigh,
            ],
            abs=0.06,
        )
    mean, low, high = expected["stake_difference"]
    assert (
        f"paired stake difference (greedy - random): {mean:+.3f} [{low:+.3f}, {high:+.3f}] per game"
        in lines
    )
    assert "how hands ended:" in lines
    total = 0
    for key, label in [
        ("tonk_out", "tonk out"),
        ("out_by_discard", "out by discard"),
        ("drop_won", "drop won"),
        ("caught", "caught"),
        ("stock_out", "stock out"),
        ("deal_win", "deal win"),
        ("void", "void"),
    ]:
        line = next(x for x in lines if x.startswith(f"  {label} "))
        count = int(line.split()[-3].replace(",", ""))
        assert count == expected["endings"][key]
        total += count
    assert total == 60


def test_json_report_matches_the_api() -> None:
    data = as_json(
        run(["--games", "40", "--bots", "greedy:8,greedy", "--seed", "3", "--format", "json"])
    )
    game = TonkGame(players=2)
    expected = simulate(game, ["greedy:8", "greedy"], 40, seed=3)
    assert data["seed"] == 3
    assert data["games"] == 40
    assert data["requested_games"] == 40
    assert data["options"] == game.options()
    assert [b["bot"] for b in data["bots"]] == ["greedy:8", "greedy"]
    for got, want in zip(data["bots"], expected["bots"], strict=True):
        assert got["positive_return_rate"] == want["positive_return_rate"]
        assert got["positive_return_rate_ci"] == list(want["positive_return_rate_ci"])
        assert got["stakes_per_game"] == want["stakes_per_game"]
        assert got["stakes_per_game_ci"] == list(want["stakes_per_game_ci"])
    assert data["endings"] == expected["endings"]
    mean, low, high = expected["stake_difference"]
    assert data["stake_difference"] == {"bots": [0, 1], "mean": mean, "ci": [low, high]}


def test_replaced_bot_answers_are_reported_and_sound_bots_have_none() -> None:
    # A bot answer that is not legal is a bug the engine plays around (and a
    # debug build stops on): sound bots never give one, so the summary has
    # no count, and a count, had there been one, warns in both reports.
    game = TonkGame(players=2)
    summary = simulate(game, ["greedy", "random"], 20, seed=5)
    assert "replaced_answers" not in summary
    presenter = PRESENTERS["tonk"]
    clean = text_report(summary, presenter, "pagat rules", 20)
    assert not any("replaced" in line for line in clean)
    assert "replaced_answers" not in json_report(summary, game.options(), 20)
    summary["replaced_answers"] = 1234
    lines = text_report(summary, presenter, "pagat rules", 20)
    assert lines[-1] == (
        "warning: 1,234 bot answers were not legal and were replaced by the first legal "
        "action (a bug in a bot): the figures are not the bots' own"
    )
    assert json_report(summary, game.options(), 20)["replaced_answers"] == 1234


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_same_seed_same_output_for_any_thread_count(fmt: str) -> None:
    args = ["--games", "300", "--bots", "greedy,random,greedy:6", "--seed", "99", "--format", fmt]
    one = run([*args, "--threads", "1"])
    two = run([*args, "--threads", "2"])
    default = run(args)
    assert one.exit_code == 0, one.output
    assert one.stdout == two.stdout == default.stdout


def test_strong_bot_few_samples() -> None:
    args = ["--games", "8", "--bots", "strong:20,greedy", "--seed", "1", "--format", "json"]
    one = as_json(run([*args, "--threads", "1"]))
    two = as_json(run([*args, "--threads", "2"]))
    assert one == two
    assert [b["bot"] for b in one["bots"]] == ["strong:20", "greedy"]
    assert one["games"] == 8


def test_games_round_up_to_whole_rotations() -> None:
    result = run(["--games", "10", "--bots", "greedy,greedy,random", "--seed", "5"])
    assert result.exit_code == 0, result.output
    first = result.stdout.splitlines()[0]
    assert first == (
        "Tonk simulation: 12 games, 4 deals x 3 seatings (--games 10 rounded up to whole rotations)"
    )
    assert "paired stake difference" not in result.stdout
    data = as_json(
        run(["--games", "10", "--bots", "greedy,greedy,random", "--seed", "5", "--format", "json"])
    )
    assert data["games"] == 12
    assert data["requested_games"] == 10
    assert "stake_difference" not in data
    assert [b["bot"] for b in data["bots"]] == ["greedy", "greedy", "random"]


def test_fresh_seed_is_printed_and_repeats() -> None:
    result = run(["--games", "20", "--bots", "greedy,random"])
    assert result.exit_code == 0
    match = re.match(r"seed (\d+); ", result.stdout.splitlines()[1])
    assert match is not None
    again = run(["--games", "20", "--bots", "greedy,random", "--seed", match.group(1)])
    assert again.stdout == result.stdout
    data = as_json(run(["--games", "2", "--bots", "greedy,random", "--format", "json"]))
    assert isinstance(data["seed"], int)


def test_record_writes_replayable_games(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    args = ["--games", "30", "--bots", "greedy,random", "--seed", "12", "--record", str(path)]
    result = run([*args, "--threads", "2"])
    assert result.exit_code == 0, result.output
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 30
    endings: dict[str, int] = {}
    for line in lines:
        data = json.loads(line)
        assert sorted(data["players"]) == ["greedy", "random"]
        state = replay_tonk_record(line)
        assert state.is_terminal()
        assert state.returns() == data["result"]["returns"]
        endings[data["result"]["ending"]] = endings.get(data["result"]["ending"], 0) + 1
    summary = as_json(run([*args[:-2], "--format", "json"]))
    assert {k: v for k, v in summary["endings"].items() if v} == endings
    # The same records whatever the thread count.
    again = tmp_path / "again.jsonl"
    assert run([*args[:-1], str(again), "--threads", "1"]).exit_code == 0
    assert again.read_text(encoding="utf-8") == path.read_text(encoding="utf-8")
    checked = CliRunner().invoke(main, ["replay", str(path)])
    assert checked.exit_code == 0
    assert checked.output == "30 records, all valid\n"


def test_rule_flags_reach_the_game() -> None:
    base = ["--games", "4", "--bots", "greedy,greedy", "--seed", "1", "--format", "json"]
    options = as_json(run([*base, "--stake", "5", "--no-upcard", "--low-13"]))["options"]
    assert options["stake"] == 5
    assert options["upcard"] is False
    assert options["low_13"] is True
    wiki = as_json(run([*base, "--preset", "wikipedia"]))["options"]
    assert wiki["drop_timing"] == "any_time"
    assert wiki["drop_payout"] == "wikipedia"
    # A flag overrides the preset; only given flags are passed, so the rest stay the preset's.
    mixed = as_json(run([*base, "--preset", "wikipedia", "--drop-timing", "start-of-turn"]))
    assert mixed["options"]["drop_timing"] == "start_of_turn"
    assert mixed["options"]["ace_in_runs"] == "low_or_high"
    # TK-2.3: another hand size turns the deal-time wins off unless they are given.
    seven = as_json(run([*base, "--hand-size", "7"]))["options"]
    assert seven["hand_size"] == 7
    assert seven["deal_wins"] == "none"
    assert as_json(run([*base, "--hand-size", "by-players"]))["options"]["hand_size"] == (
        "by_players"
    )
    spades = as_json(run([*base, "--spades-bet", "3", "--max-hits-per-turn", "1"]))["options"]
    assert spades["spades_bet"] == 3
    assert spades["max_hits_per_turn"] == 1
    # TK-2.3: any hand size the deck allows.
    assert as_json(run([*base, "--hand-size", "25"]))["options"]["hand_size"] == 25


def test_max_idle_rounds_reaches_the_game_and_stalled_hands_are_counted() -> None:
    base = ["--games", "400", "--bots", "random,random", "--seed", "3", "--format", "json"]
    data = as_json(run([*base, "--max-idle-rounds", "1"]))
    assert data["options"]["max_idle_rounds"] == 1
    assert data["endings"]["stalled"] > 0
    assert sum(data["endings"].values()) == 400
    default = as_json(run(base))
    assert default["options"]["max_idle_rounds"] == 10
    assert default["endings"]["stalled"] < data["endings"]["stalled"]


@pytest.mark.parametrize("spelling", ["any_time", "any-time", "ANY-TIME"])
def test_choice_spellings(spelling: str) -> None:
    base = ["--games", "6", "--bots", "greedy,random", "--seed", "4", "--format", "json"]
    data = as_json(run([*base, "--drop-timing", spelling]))
    assert data["options"]["drop_timing"] == "any_time"
    assert data == as_json(run([*base, "--drop-timing", "any_time"]))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "greedy,wizard"], 'unknown bot "wizard"'),
        (["--bots", "greedy,strong:0"], "samples must be 1 to 4096"),
        (["--bots", "greedy"], "Tonk takes 2 to 6 players"),
        (["--bots", "greedy,greedy", "--players", "3"], "--players 3 needs 3 bots"),
        (
            ["--bots", "greedy,greedy,greedy", "--double-double", "responder"],
            "Invalid value for '--double-double': double_double needs exactly two players",
        ),
        (["--bots", "greedy,greedy", "--drop-timing", "whenever"], "'whenever' is not one of"),
        (["--bots", "greedy,greedy", "--hand-size", "26"], "26 is not in by_players|2..25"),
        (["--bots", "greedy,greedy,greedy", "--hand-size", "17"], "52"),
        (["--bots", "greedy,greedy", "--max-idle-rounds", "0"], "--max-idle-rounds"),
        (["--bots", "greedy,greedy", "--games", "0"], "--games"),
        (
            ["--bots", "greedy,greedy", "--no-must-spread-aces-exempt"],
            "Invalid value for '--must-spread-aces-exempt': must_spread_aces_exempt only "
            "applies with must_spread (TK-7.6)",
        ),
        (
            ["--bots", ",".join(["random"] * 6), "--hand-size", "9"],
            "(given: --players 6 --hand-size 9)",
        ),
        ([], "Missing option '--bots'"),
    ],
)
def test_usage_errors(args: list[str], message: str) -> None:
    result = run(["--games", "2", *args])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output


def test_usage_error_points_at_the_flag_with_the_engine_words() -> None:
    # InvalidConfigError.option names the option: the CLI names its flag and
    # keeps the engine's message as it is.
    result = run(["--bots", "greedy,greedy,greedy", "--double-double", "tonker"])
    assert result.exit_code == 2
    assert "Invalid value for '--double-double'" in result.output
    with pytest.raises(InvalidConfigError) as info:
        TonkGame(players=3, double_double="tonker")
    assert info.value.option == "double_double"
    assert str(info.value) in result.output


def test_help_lists_every_rule_flag_with_its_default() -> None:
    result = run(["--help"])
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    for name in TonkGame().option_names():
        assert flag_name(name) in text, name
    assert "--must-spread / --no-must-spread" in text
    assert "--preset [pagat|wikipedia|texas]" in text
    assert "--drop-timing [start_of_turn|own_turn_any_phase|any_time]" in text
    assert "[default: start_of_turn; wikipedia: any_time]" in text
    assert "[default: off]" in text
    assert "[default: the number of bots]" in text


def test_progress_goes_to_stderr_only() -> None:
    args = ["--games", "20", "--bots", "greedy,random", "--seed", "2"]
    plain = run(args)
    shown = run([*args, "--progress"])
    assert shown.exit_code == 0
    assert shown.stdout == plain.stdout
    assert "20/20 games" in shown.stderr
    assert plain.stderr == ""


def test_the_rate_column_says_what_it_measures() -> None:
    """The rate is the share of games with a positive return: with three bots
    the rates may sum past 100%, so the report defines it."""
    result = run(["--games", "90", "--bots", "strong,greedy,random", "--seed", "1"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "positive return [95% CI]" in lines[3]
    assert "win rate" not in result.stdout
    assert lines[4 + 3].startswith("positive return: share of games a bot ended with a gain")
