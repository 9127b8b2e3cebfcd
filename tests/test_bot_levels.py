"""The ladder of bot levels (easy, normal, hard, expert): the same words
name the same bots in Python as on the command line, and the benchmark-only
``omniscient`` gin rummy bot is no level."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from cardtable.cli import main
from cardtable.games import Bot, game_names, load_game

LEVELS = ["easy", "normal", "hard", "expert"]


@pytest.mark.parametrize("name", game_names())
def test_every_game_has_the_four_levels_and_each_reads_as_its_spec(name: str) -> None:
    game = load_game(name)
    levels = game.bot_levels()
    assert [level for level, _ in levels] == LEVELS
    for level, spec in levels:
        assert Bot(game, level, 1).name == Bot(game, spec, 1).name
        assert "omniscient" not in spec


def test_the_expert_level_is_the_expert_bot_in_the_turn_based_games() -> None:
    for name in ("tonk", "three_thirteen", "gin_rummy"):
        game = load_game(name)
        assert dict(game.bot_levels())["expert"] == "expert"
        assert Bot(game, "expert", 1).name == "expert"


def test_simulate_reads_a_level_as_on_the_python_side() -> None:
    result = CliRunner().invoke(
        main,
        ["simulate", "gin-rummy", "--bots", "normal,easy", "--games", "4", "--seed", "3"],
    )
    assert result.exit_code == 0, result.output
    game = load_game("gin_rummy")
    for level in ("normal", "easy"):
        assert Bot(game, level, 1).name in result.output


@pytest.mark.parametrize("name", ["tonk", "three_thirteen", "gin_rummy"])
def test_the_lowest_level_of_a_turn_based_game_is_a_careless_greedy(name: str) -> None:
    """``random`` is no opponent a person picks (``greedy`` beats it in
    80-100% of games): ``easy`` is ``greedy`` slipping on a share of its
    decisions, tuned so that each level beats the one below in 60-75%."""
    spec = dict(load_game(name).bot_levels())["easy"]
    assert spec.split(":")[0] == "careless"
