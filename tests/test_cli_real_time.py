"""``simulate spit|speed`` and ``replay`` of their timed records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardtable.cli import main


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_simulate_reports_the_virtual_length_and_records_replay(tmp_path: Path, game: str) -> None:
    runner = CliRunner()
    record = tmp_path / "games.jsonl"
    bots = "plain:normal,reaction_median_ms=300,smart:normal"  # key=value stays with its spec
    args = ["simulate", game, "--games", "6", "--bots", bots, "--seed", "5", "--format", "json"]
    one = runner.invoke(main, [*args, "--threads", "1", "--record", str(record)])
    two = runner.invoke(main, [*args, "--threads", "2"])
    assert one.exit_code == 0, one.output
    assert one.output == two.output
    report = json.loads(one.output)
    assert [b["bot"] for b in report["bots"]] == [
        "plain:normal,reaction_median_ms=300",
        "smart:normal",
    ]
    assert report["virtual_seconds_per_game"] > 0
    assert report["deals_per_game"] >= 1
    text = runner.invoke(main, args[:-2])
    assert f"virtual seconds and {report['deals_per_game']:,.1f} deals on average" in text.output
    # Every ending category's count sits in one column, however long its name.
    endings = text.output.split("ended:\n")[1].splitlines()
    assert len(endings) == len(report["endings"])
    assert len({line.index(" %") for line in endings}) == 1
    checked = runner.invoke(main, ["replay", str(record)])
    assert checked.exit_code == 0, checked.output
    assert checked.output.strip() == "6 records, all valid"
    shown = runner.invoke(main, ["replay", str(record), "--show", "1"])
    assert shown.exit_code == 0, shown.output
    assert " s  Player " in shown.output
    assert "Ended " in shown.output
    lines = record.read_text().splitlines()
    data = json.loads(lines[0])
    data["events"][3][3] = not data["events"][3][3]
    (tmp_path / "bad.jsonl").write_text(json.dumps(data) + "\n")
    bad = runner.invoke(main, ["replay", str(tmp_path / "bad.jsonl")])
    assert bad.exit_code == 1
    assert "event 4 is " in bad.output


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_simulate_records_can_be_read_and_checked_without_re_running_them(
    tmp_path: Path, game: str
) -> None:
    """Issue 27 item 2: a simulate record carries its bots' seeds (it re-runs:
    ``replay`` checks it) and, for a reader, every deal's cards and each
    commit's card: the first deal is the documented shuffle of the seed
    (docs/records.md), checked with the pure-Python shuffle of
    tests/test_deck.py; a changed card is caught by ``replay``."""
    from cardtable import Card
    from tests.test_deck import reference_deck, reference_derive_seed

    runner = CliRunner()
    record = tmp_path / "games.jsonl"
    args = ["simulate", game, "--games", "4", "--bots", "smart:hard,plain:normal", "--seed", "3"]
    result = runner.invoke(main, [*args, "--record", str(record)])
    assert result.exit_code == 0, result.output
    lines = record.read_text().splitlines()
    names = {code: str(Card.from_code(code)) for code in range(53)}
    for line in lines:
        data = json.loads(line)
        assert data["version"] == 3
        assert len(data["bot_seeds"]) == 2
        assert all(isinstance(s, int) for s in data["bot_seeds"])
        deck = reference_deck(reference_derive_seed(reference_derive_seed(data["seed"], 0), 0))
        first = [packet.split() for packet in data["deals"][0]]
        dealt = [names[c] for c in deck]
        assert first == ([dealt[:26], dealt[26:]] if game == "spit" else [dealt])
        moved = [e for e in data["events"] if len(e) > 4]
        assert moved, "commits name their cards"
        if game == "speed":  # a Speed play names its card in its text too
            from cardtable.games import load_game

            speed = load_game("speed")
            for e in moved:
                assert e[4] in speed.action_to_string(e[2]).split()
    shown = runner.invoke(main, ["replay", str(record), "--show", "1"])
    assert shown.exit_code == 0, shown.output
    first = json.loads(lines[0])["events"][0]
    # Spit's actions name piles: the card follows; Speed's name it already.
    assert (f"[{first[4]}]" in shown.output) == (game == "spit")
    data = json.loads(lines[0])
    event = next(i for i, e in enumerate(data["events"]) if len(e) > 4)
    data["events"][event][4] = "ZZ"
    (tmp_path / "bad.jsonl").write_text(json.dumps(data) + "\n")
    bad = runner.invoke(main, ["replay", str(tmp_path / "bad.jsonl")])
    assert bad.exit_code == 1
    assert f"event {event + 1} of" in bad.output
    assert "the record says ZZ" in bad.output


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_each_line_simulate_records_re_runs_to_the_same_result(tmp_path: Path, game: str) -> None:
    """Issue 27 item 2 (RT-11): a line of ``simulate --record`` re-runs on its
    own. ``replay_record`` deals the game again from its seed and re-runs its
    bots from their seeds (``bot_seeds``): the same commits and event hash
    (checked by the replay), and the final state has the recorded ending,
    returns and fingerprint. With another seed for one bot the re-run is
    another game, and the replay says so: the events are re-run, not copied."""
    from cardtable import InvalidRecordError
    from cardtable._core import replay_record

    runner = CliRunner()
    record = tmp_path / "games.jsonl"
    bots = "smart:hard,plain:easy"
    args = ["simulate", game, "--games", "4", "--bots", bots, "--seed", "9", "--threads", "2"]
    result = runner.invoke(main, [*args, "--record", str(record)])
    assert result.exit_code == 0, result.output
    lines = record.read_text().splitlines()
    assert len(lines) == 4
    for line in lines:
        data = json.loads(line)
        assert data["players"] in (["smart:hard", "plain:easy"], ["plain:easy", "smart:hard"])
        assert data["events"], "the bots played"
        state = replay_record(line)
        assert state.is_terminal()
        assert state.ending_category == data["result"]["ending"]
        assert state.returns() == data["result"]["returns"]
        assert state.fingerprint() == data["result"]["hash"]
        one = tmp_path / "one.jsonl"
        one.write_text(line + "\n")
        checked = runner.invoke(main, ["replay", str(one)])
        assert checked.output == "1 record, all valid\n", checked.output
        other = dict(data, bot_seeds=[data["bot_seeds"][0] + 1, data["bot_seeds"][1]])
        with pytest.raises(InvalidRecordError, match="re-running the bots"):
            replay_record(json.dumps(other))


def test_simulate_counts_the_deals_each_spit_game_took(tmp_path: Path) -> None:
    from cardtable._core import replay_record

    runner = CliRunner()
    record = tmp_path / "games.jsonl"
    args = ["simulate", "spit", "--games", "8", "--bots", "plain:instant,smart:instant"]
    result = runner.invoke(main, [*args, "--format", "json", "--record", str(record)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    deals = [replay_record(line).deals_played for line in record.read_text().splitlines()]
    assert len(deals) == 8
    assert min(deals) >= 1
    assert report["deals_per_game"] == pytest.approx(sum(deals) / len(deals))


def test_live_play_sets_its_fairness_defaults_and_flags_override_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cardtable.cli import play
    from cardtable.cli.app.live import LiveBoard
    from cardtable.cli.app.shell import CardTable

    seen: list[tuple[dict[str, object], bool]] = []

    def fake_run(app: CardTable) -> None:
        assert isinstance(app.board, LiveBoard)
        seen.append((app.board.game.options(), app.board.telegraph))

    monkeypatch.setattr(CardTable, "run", fake_run)
    monkeypatch.setattr(play, "at_a_terminal", lambda: True)
    runner = CliRunner()
    for args in (["spit"], ["spit", "--no-auto-flip", "--bot", "plain:easy"], ["speed"]):
        result = runner.invoke(main, ["play", *args, "--seed", "1"])
        assert result.exit_code == 0, result.output
    # HC-5: Spit flips face-down cards by itself in the CLI unless told not to;
    # HC-4: the telegraph is on against an easy bot.
    flips_and_telegraphs = [(o.get("auto_flip"), t) for o, t in seen]
    assert flips_and_telegraphs == [(True, False), (False, True), (None, False)]


def test_play_for_real_time_games_takes_one_bot_and_checks_it() -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["play", "speed", "--bot", "clever"])
    assert result.exit_code == 2
    assert "clever" in result.output
    help_text = runner.invoke(main, ["play", "spit", "--help"]).output
    assert "--bot" in help_text
    assert "--telegraph" in help_text


def test_issue22_item6_games_a_guard_stops_are_counted_and_replay(tmp_path: Path) -> None:
    """Bots that overlook every play (miss_rate=1) and look again each
    millisecond, for up to a week of virtual time: the 20M-event guard
    stops both games. The endings table gives them their own row (every
    game is counted), and replay accepts the records simulate wrote."""
    blind = "plain:normal,miss_rate=1,reaction_median_ms=1"
    record = tmp_path / "stopped.jsonl"
    args = ["simulate", "speed", "--games", "2", "--seed", "1", "--bots", f"{blind},{blind}"]
    args += ["--max-virtual-ms", "604800000", "--record", str(record), "--format", "json"]
    runner = CliRunner()
    result = runner.invoke(main, args)
    assert result.exit_code == 0, result.output
    endings = json.loads(result.stdout)["endings"]
    assert sum(endings.values()) == 2
    assert endings["unfinished"] == 2
    for line in record.read_text().splitlines():
        data = json.loads(line)
        assert data["result"]["ending"] == "unfinished"
        assert data["events"] == []
        assert len(data["bot_seeds"]) == 2
    checked = runner.invoke(main, ["replay", str(record)])
    assert checked.exit_code == 0, checked.output
    assert checked.output == "2 records, all valid\n"


def test_issue22_item6_a_game_without_a_commit_is_a_real_time_record(tmp_path: Path) -> None:
    """Bots that overlook every play until the time limit: no commit at all,
    still a real-time record (bot seeds, event hash), and it replays."""
    blind = "plain:normal,miss_rate=1"
    record = tmp_path / "blind.jsonl"
    for game in ("spit", "speed"):
        args = ["simulate", game, "--games", "2", "--seed", "1", "--bots", f"{blind},{blind}"]
        runner = CliRunner()
        result = runner.invoke(main, [*args, "--record", str(record), "--format", "json"])
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["endings"]["time_limit"] == 2
        checked = runner.invoke(main, ["replay", str(record)])
        assert checked.output == "2 records, all valid\n", game


def test_speed_search_takes_a_budget_replays_from_its_seed_and_refuses_it_elsewhere(
    tmp_path: Path,
) -> None:
    """Issue 36: Speed's ``search`` (a look-ahead over sampled worlds) is
    named with its budget, plays the same on any thread count, and its
    games replay from their seeds; ``worlds=`` on another policy is refused
    in one line."""
    runner = CliRunner()
    record = tmp_path / "search.jsonl"
    bots = "search:instant,worlds=8,plain:instant"
    args = ["simulate", "speed", "--games", "4", "--bots", bots, "--seed", "3", "--format", "json"]
    one = runner.invoke(main, [*args, "--threads", "1", "--record", str(record)])
    two = runner.invoke(main, [*args, "--threads", "2"])
    assert one.exit_code == 0, one.output
    assert one.output == two.output
    report = json.loads(one.output)
    assert [b["bot"] for b in report["bots"]] == ["search:instant,worlds=8", "plain:instant"]
    checked = runner.invoke(main, ["replay", str(record)])
    assert checked.exit_code == 0, checked.output
    assert checked.output.strip() == "4 records, all valid"
    # The table's columns line up whatever the length of a spec.
    text = runner.invoke(main, args[:-2]).output.splitlines()
    rows = [line for line in text if line.startswith(("1. ", "2. "))]
    assert len(rows) == 4
    assert len({row.index("[") for row in rows[:2]}) == 1
    assert len({len(row) for row in rows[2:]}) == 1  # the quantiles, cell by cell
    # No line is wider than a terminal of 80 columns: the paired difference
    # puts its figure on a line of its own when the specs are long.
    assert max(len(line) for line in text) <= 80
    at = text.index("paired return difference (search:instant,worlds=8 - plain:instant):")
    assert text[at + 1].strip().endswith("per game")
    for spec, says in [
        (
            "smart:normal,worlds=8",
            "worlds= is for the searching policies (search, omniscient), not smart",
        ),
        ("search:normal,worlds=0", "worlds must be a whole number from 1 to 65536"),
    ]:
        bad = runner.invoke(main, ["simulate", "speed", "--games", "2", "--bots", f"{spec},plain"])
        assert bad.exit_code == 2, bad.output
        assert says in bad.output
    spit = runner.invoke(
        main, ["simulate", "spit", "--games", "2", "--bots", "smart,worlds=8,plain"]
    )
    assert spit.exit_code == 2
    assert "this game has none" in spit.output
