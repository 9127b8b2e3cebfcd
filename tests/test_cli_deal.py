"""``cardtable deal``: reproducible text and JSON deals, and usage errors."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

import pytest
from click.testing import CliRunner, Result

from cardtable import deal
from cardtable.cli import main


def run(args: Sequence[str]) -> Result:
    return CliRunner().invoke(main, ["deal", *args])


def test_text_deal_seed_42() -> None:
    result = run(["--game", "tonk", "--players", "3", "--seed", "42"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "tonk, 3 players, 5 cards each, seed 42",
        "player 0: 10♠ J♥ 8♠ 5♥ 3♠",
        "player 1: 8♣ 5♣ 10♥ A♣ 7♠",
        "player 2: Q♥ K♠ Q♠ 6♥ 10♦",
        "upcard:   9♠",
        "stock:    36 cards",
    ]
    assert run(["--game", "tonk", "--players", "3", "--seed", "42"]).stdout == result.stdout


def test_text_matches_the_api() -> None:
    result = run(["--game", "gin", "--players", "2", "--seed", "7"])
    assert result.exit_code == 0
    d = deal("gin", 2, 7)
    lines = result.stdout.splitlines()
    assert lines[0] == "gin_rummy, 2 players, 10 cards each, seed 7"
    for i, hand in enumerate(d.hands):
        # Seat i of the API (and of records) is "player i" here too.
        assert lines[1 + i] == f"player {i}: " + " ".join(c.symbol() for c in hand)
    assert d.upcard is not None
    assert lines[3] == f"upcard:   {d.upcard.symbol()}"
    assert lines[4] == f"stock:    {len(d.stock)} cards"


@pytest.mark.parametrize(
    ("args", "game", "players", "kwargs"),
    [
        (["--game", "tonk", "--players", "3", "--seed", "42"], "tonk", 3, {}),
        (["--seed", "0"], "tonk", 2, {}),
        (["--game", "gin", "--seed", str(2**64 - 1)], "gin", 2, {}),
        (
            ["--game", "three-thirteen", "--round", "3", "--seed", "5"],
            "three_thirteen",
            2,
            {"round": 3},
        ),
        (
            [
                "--game",
                "three_thirteen",
                "--players",
                "4",
                "--jokers",
                "--decks",
                "3",
                "--seed",
                "9",
            ],
            "three_thirteen",
            4,
            {"jokers": True, "decks": 3},
        ),
        (["--game", "tonk", "--hand-size", "7", "--seed", "11"], "tonk", 2, {"hand_size": 7}),
    ],
)
def test_json_deal(args: list[str], game: str, players: int, kwargs: dict[str, object]) -> None:
    result = run([*args, "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    seed = data["seed"]
    assert data == deal(game, players, seed, **kwargs).to_dict()  # type: ignore[arg-type]
    assert run([*args, "--format", "json"]).stdout == result.stdout
    assert len(data["hands"]) == players


def test_deal_without_seed_reports_it() -> None:
    result = run(["--game", "gin"])
    assert result.exit_code == 0
    line = result.stdout.splitlines()[0]
    match = re.match(r"gin_rummy, 2 players, 10 cards each, seed (\d+)$", line)
    assert match is not None
    again = run(["--game", "gin", "--seed", match.group(1)])
    assert again.stdout == result.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["--players", "0"],
        ["--players", "-1"],
        ["--players", "13"],
        ["--game", "gin", "--players", "6"],
        ["--seed", "-1"],
        ["--seed", str(2**64)],
        ["--seed", "abc"],
        ["--game", "poker"],
        ["--game", "gin", "--jokers"],
        ["--game", "gin", "--decks", "2"],
        ["--game", "tonk", "--round", "3"],
        ["--game", "three-thirteen", "--round", "14"],
        ["--game", "three-thirteen", "--round", "3", "--hand-size", "4"],
        ["--game", "tonk", "--players", "11", "--seed", "1"],
        ["--hand-size", "0"],
        ["--decks", "9"],
        ["--format", "xml"],
    ],
)
def test_bad_options_exit_2(args: list[str]) -> None:
    result = run(args)
    assert result.exit_code == 2, result.output
    assert "Error" in result.output


def test_game_names_the_registered_game_as_play_does() -> None:
    """`--game gin_rummy` deals gin rummy's hands (GR-1.3), as `play gin-rummy`
    does; `gin` is another name of it; a game not dealt in hands is refused."""
    for name in ["gin_rummy", "gin-rummy", "gin"]:
        result = run(["--game", name, "--seed", "7"])
        assert result.exit_code == 0, result.output
        assert result.stdout.startswith("gin_rummy, 2 players, 10 cards each, seed 7")
    refused = run(["--game", "spit"])
    assert refused.exit_code == 2
    assert "spit" in refused.output
