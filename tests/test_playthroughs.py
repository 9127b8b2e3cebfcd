"""Golden playthroughs through the Python API (see ``tests/playthroughs.py``):
the bots, re-run from their seeds, choose every recorded action, the game
ends in the recorded state, and each file is exactly what the generator
makes. Tonk pins hundreds of hands; Three Thirteen whole games over its
variants (jokers, two to five players, extra rounds, the up-down schedule)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from cardtable.games import Bot, load_game
from cardtable.games.three_thirteen import ThreeThirteenState
from cardtable.games.tonk import TonkBot, TonkGame, TonkState

from . import playthroughs

TONK = playthroughs.load("tonk")
THREE_THIRTEEN = playthroughs.load("three_thirteen")


def replay(rec: dict[str, Any], game: Any, make_bot: Callable[[str, int], Any]) -> Any:
    """The bots of ``rec`` re-run from their seeds, each action checked
    against the file; returns the final state."""
    assert game.options() == rec["options"]
    st = game.new_initial_state(rec["seed"])
    assert st.dealer == rec["dealer"]
    bots = [make_bot(b, s) for b, s in zip(rec["bots"], rec["bot_seeds"], strict=True)]
    for k, want in enumerate(rec["actions"]):
        p = st.current_player()
        assert p is not None, f"over after {k} actions"
        got = bots[p].act(st)
        assert got == want, f"action {k}: {st.action_to_string(got)} != {st.action_to_string(want)}"
        st.apply_action(got)
    assert st.is_terminal()
    return st


def test_the_tonk_file_covers_every_ending_and_hundreds_of_hands() -> None:
    assert len(TONK) >= 300
    endings = {r["final"]["ending"]["category"] for r in TONK}
    assert endings == set(TonkGame().ending_categories())
    assert len(TonkGame().ending_categories()) == 8


@pytest.mark.parametrize("index", range(len(TONK)))
def test_tonk_playthrough_replays_decision_for_decision(index: int) -> None:
    rec = TONK[index]
    st = replay(rec, TonkGame(**rec["options"]), TonkBot)
    assert isinstance(st, TonkState)
    assert playthroughs.tonk_final_state(st) == rec["final"]


def test_the_three_thirteen_file_covers_its_variants_and_endings() -> None:
    game = load_game("three_thirteen")
    assert {r["final"]["ending"] for r in THREE_THIRTEEN} == set(game.ending_categories())
    assert {len(r["bots"]) for r in THREE_THIRTEEN} == {2, 3, 4, 5}
    options = [r["options"] for r in THREE_THIRTEEN]
    assert {o["jokers"] for o in options} == {"none", "wild", "wild_giftable"}
    assert any(o["extra_rounds"] > 0 for o in options)


@pytest.mark.parametrize("index", range(len(THREE_THIRTEEN)))
def test_three_thirteen_playthrough_replays_decision_for_decision(index: int) -> None:
    rec = THREE_THIRTEEN[index]
    game = load_game("three_thirteen", **rec["options"])
    st = replay(rec, game, lambda spec, seed: Bot(game, spec, seed))
    assert isinstance(st, ThreeThirteenState)
    assert playthroughs.three_thirteen_final_state(st) == rec["final"]


@pytest.mark.parametrize("game", sorted(playthroughs.GENERATORS))
def test_the_generator_reproduces_the_file(game: str) -> None:
    assert playthroughs.GENERATORS[game]() == playthroughs.load(game)
