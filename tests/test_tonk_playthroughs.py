"""Golden Tonk playthroughs through the Python API (see ``tests/playthroughs.py``):
the bots, re-run from their seeds, choose every recorded action, the hand ends
in the recorded state, and the file is exactly what the generator makes."""

from __future__ import annotations

import pytest

from cardtable.games.tonk import TonkBot, TonkGame

from . import playthroughs

RECORDS = playthroughs.load()


def test_the_file_covers_every_ending_and_hundreds_of_hands() -> None:
    assert len(RECORDS) >= 300
    endings = {r["final"]["ending"]["category"] for r in RECORDS}
    assert endings == set(TonkGame().ending_categories())
    assert len(TonkGame().ending_categories()) == 8


@pytest.mark.parametrize("index", range(0, len(RECORDS), 1))
def test_playthrough_replays_decision_for_decision(index: int) -> None:
    rec = RECORDS[index]
    game = TonkGame(**rec["options"])
    assert game.options() == rec["options"]
    st = game.new_initial_state(rec["seed"])
    assert st.dealer == rec["dealer"]
    bots = [TonkBot(b, s) for b, s in zip(rec["bots"], rec["bot_seeds"], strict=True)]
    for k, want in enumerate(rec["actions"]):
        p = st.current_player()
        assert p is not None, f"over after {k} actions"
        got = bots[p].act(st)
        assert got == want, f"action {k}: {st.action_to_string(got)} != {st.action_to_string(want)}"
        st.apply_action(got)
    assert st.is_terminal()
    assert playthroughs.final_state(st) == rec["final"]


def test_the_generator_reproduces_the_file() -> None:
    assert playthroughs.generate() == RECORDS
