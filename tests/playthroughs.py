"""Golden Tonk playthroughs: seeded hands played by the Rust bots, pinned so
that a refactor of the engine or the bots cannot change a single decision
unnoticed. ``tests/data/playthroughs/tonk.jsonl`` holds one hand per line:

    {"options": {every option}, "seed": s, "dealer": d,
     "bots": ["greedy", "random", ...], "bot_seeds": [...],
     "actions": [...], "final": {"hands": [...], "discard_pile": "...",
     "stock_size": n, "spreads": [[owner, "cards"], ...],
     "returns": [...], "ending": {...}}}

``cargo test`` (rust/core/tests/engine/playthroughs.rs) and pytest
(tests/test_tonk_playthroughs.py) both re-run the bots from their seeds,
check every action against the file, and compare the final state.

Regenerate (only when a rule change is meant to change play, and say so in
the commit): ``python -m tests.playthroughs > tests/data/playthroughs/tonk.jsonl``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from cardtable.deck import derive_seed
from cardtable.games.tonk import TonkBot, TonkGame, TonkState

PATH = Path(__file__).parent / "data" / "playthroughs" / "tonk.jsonl"

#: Rule sets across presets and flags, and the bots that play them.
RULE_SETS: list[tuple[dict[str, Any], list[str]]] = [
    ({}, ["greedy", "greedy"]),
    ({}, ["greedy:0", "greedy:0"]),
    ({}, ["random", "random"]),
    ({"players": 3}, ["greedy", "random", "greedy"]),
    ({"preset": "wikipedia", "players": 3}, ["random", "greedy", "random"]),
    ({"preset": "texas"}, ["greedy", "random"]),
    ({"players": 4, "hand_size": "by_players"}, ["greedy", "greedy", "random", "random"]),
    (
        {"players": 3, "deal_wins": "forty_nine_in_turn", "low_13": True, "spades_bet": 2},
        ["random", "greedy", "greedy"],
    ),
    (
        {
            "must_spread": True,
            "forbid_rediscard": True,
            "max_hits_per_turn": 1,
            "clear_completed_books": True,
            "stock_out_end": "immediately",
            "stock_out_tie": "all_paid",
        },
        ["greedy", "random"],
    ),
    (
        {
            "drop_timing": "own_turn_any_phase",
            "hit_lock_per_hit": 3,
            "hit_lock_unit": "per_turn",
            "only_runs_hittable": True,
            "discard_pickup_must_be_used": True,
            "upcard": False,
        },
        ["random", "greedy"],
    ),
    (
        {"discard_pickup_must_be_used": True, "max_hits_per_turn": 1, "max_idle_rounds": 2},
        ["random", "greedy:0"],
    ),
    (
        {
            "double_double": "responder",
            "tonk_double_requires": "new_spread",
            "ace_in_runs": "low_or_high",
            "face_values": "eleven_twelve_thirteen",
        },
        ["greedy:0", "greedy:4"],
    ),
    ({"max_idle_rounds": 1, "stock_out_tie": "all_paid"}, ["greedy:0", "random"]),
    ({"players": 3, "stock_out_end": "immediately"}, ["greedy:0", "greedy:0", "greedy:0"]),
    (
        {"players": 6, "tonk_double_requires": "whole_hand_one_turn", "drop_payout": "wikipedia"},
        ["greedy", "random", "greedy", "random", "greedy", "random"],
    ),
    ({"hand_size": 13, "deal_wins": "pagat"}, ["greedy:0", "random"]),
    ({"players": 3, "hand_size": 16}, ["random", "greedy:0", "greedy"]),
    ({"drop_timing": "any_time", "deal_wins": "forty_nine_in_turn"}, ["strong:16", "greedy"]),
    ({}, ["strong:24", "random"]),
]
HANDS_PER_SET = 20


def final_state(st: TonkState) -> dict[str, Any]:
    """What a playthrough pins at its end."""
    return {
        "hands": [" ".join(str(c) for c in st.hand(p)) for p in range(st.players)],
        "discard_pile": " ".join(str(c) for c in st.discard_pile),
        "stock_size": st.stock_size,
        "spreads": [[s.owner, " ".join(str(c) for c in s.cards)] for s in st.spreads],
        "returns": st.returns(),
        "ending": st.ending,
    }


def play(options: dict[str, Any], bots: list[str], seed: int) -> dict[str, Any]:
    game = TonkGame(**options)
    st = game.new_initial_state(seed)
    bot_seeds = [derive_seed(seed, 100 + p) for p in range(len(bots))]
    players = [TonkBot(b, s) for b, s in zip(bots, bot_seeds, strict=True)]
    while (p := st.current_player()) is not None:
        st.apply_action(players[p].act(st))
    return {
        "options": game.options(),
        "seed": seed,
        "dealer": st.dealer,
        "bots": bots,
        "bot_seeds": bot_seeds,
        "actions": st.history(),
        "final": final_state(st),
    }


def generate() -> list[dict[str, Any]]:
    out = []
    for k, (options, bots) in enumerate(RULE_SETS):
        for h in range(HANDS_PER_SET):
            out.append(play(options, bots, derive_seed(2026, k * 1000 + h)))
    return out


def load() -> list[dict[str, Any]]:
    return [json.loads(line) for line in PATH.read_text().splitlines() if line.strip()]


if __name__ == "__main__":
    for record in generate():
        sys.stdout.write(json.dumps(record, separators=(",", ":")) + "\n")
