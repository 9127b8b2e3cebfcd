"""Golden playthroughs: seeded games played by the Rust bots, pinned so that a
refactor of the engine or the bots cannot change a single decision
unnoticed. ``tests/data/playthroughs/<game>.jsonl`` holds one game per line.

Tonk (``tonk.jsonl``), one hand a line::

    {"options": {every option}, "seed": s, "dealer": d,
     "bots": ["greedy", "random", ...], "bot_seeds": [...],
     "actions": [...], "final": {"hands": [...], "discard_pile": "...",
     "stock_size": n, "spreads": [[owner, "cards"], ...],
     "returns": [...], "ending": {...}}}

Three Thirteen (``three_thirteen.jsonl``), one whole game (every round of
the schedule) a line::

    {"options": {every option}, "seed": s, "dealer": d,
     "bots": [...], "bot_seeds": [...], "actions": [...],
     "final": {"score_sheet": [[...], ...], "totals": [...],
     "returns": [...], "ending": "outright", "last_hands": ["...", ...],
     "fingerprint": "0123456789abcdef"}}

``cargo test`` (rust/core/tests/engine/playthroughs.rs) and pytest
(tests/test_playthroughs.py) both re-run the bots from their seeds, check
every action against the file, and compare the final state.

Regenerate (only when a rule or bot change is meant to change play, and say
so in the commit): ``python -m tests.playthroughs`` rewrites every file;
``python -m tests.playthroughs three_thirteen`` one game's.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cardtable.deck import derive_seed
from cardtable.games import Bot, load_game
from cardtable.games.three_thirteen import ThreeThirteenState
from cardtable.games.tonk import TonkBot, TonkGame, TonkState

DIR = Path(__file__).parent / "data" / "playthroughs"

#: Tonk's rule sets across presets and flags, and the bots that play them.
TONK_RULE_SETS: list[tuple[dict[str, Any], list[str]]] = [
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
TONK_HANDS_PER_SET = 20

#: Three Thirteen's rule sets: the defaults, jokers, two to five players,
#: extra rounds; the bots that play them (never only random ones, whose
#: games run to the stock guard of every round).
THREE_THIRTEEN_RULE_SETS: list[tuple[dict[str, Any], list[str]]] = [
    ({}, ["greedy", "greedy"]),
    ({}, ["strong:4", "greedy"]),
    ({"players": 3}, ["greedy", "random", "greedy"]),
    ({"players": 4, "jokers": "wild"}, ["greedy", "greedy", "strong:2", "greedy"]),
    (
        {"players": 5, "decks": 2, "jokers": "wild_giftable"},
        ["greedy", "greedy", "greedy", "greedy", "greedy"],
    ),
    ({"extra_rounds": 2, "max_wilds_per_meld": "unlimited"}, ["greedy", "strong:2"]),
    (
        {"players": 3, "ace_high_or_low": True, "face_values_11_12_13": True},
        ["greedy", "greedy", "random"],
    ),
    ({"schedule": "up_down", "double_jqk_rounds": True}, ["greedy", "greedy"]),
]
THREE_THIRTEEN_GAMES_PER_SET = 2


def cards_text(cards: Any) -> str:
    return " ".join(str(c) for c in cards)


def tonk_final_state(st: TonkState) -> dict[str, Any]:
    """What a Tonk playthrough pins at its end."""
    return {
        "hands": [cards_text(st.hand(p)) for p in range(st.players)],
        "discard_pile": cards_text(st.discard_pile),
        "stock_size": st.stock_size,
        "spreads": [[s.owner, cards_text(s.cards)] for s in st.spreads],
        "returns": st.returns(),
        "ending": st.ending,
    }


def three_thirteen_final_state(st: ThreeThirteenState) -> dict[str, Any]:
    """What a Three Thirteen playthrough pins at its end: the score sheet,
    the last round's hands, and the state's fingerprint (every card's
    place)."""
    last = st.last_round
    assert last is not None
    return {
        "score_sheet": st.score_sheet,
        "totals": st.totals,
        "returns": st.returns(),
        "ending": st.ending_category,
        "last_hands": [cards_text(seat.hand) for seat in last.seats],
        "fingerprint": st.fingerprint(),
    }


def play_tonk(options: dict[str, Any], bots: list[str], seed: int) -> dict[str, Any]:
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
        "final": tonk_final_state(st),
    }


def play_three_thirteen(options: dict[str, Any], bots: list[str], seed: int) -> dict[str, Any]:
    game = load_game("three_thirteen", **options)
    st = game.new_initial_state(seed)
    assert isinstance(st, ThreeThirteenState)
    bot_seeds = [derive_seed(seed, 100 + p) for p in range(len(bots))]
    players = [Bot(game, b, s) for b, s in zip(bots, bot_seeds, strict=True)]
    while (p := st.current_player()) is not None:
        st.apply_action(players[p].act(st))
    return {
        "options": game.options(),
        "seed": seed,
        "dealer": st.dealer,
        "bots": bots,
        "bot_seeds": bot_seeds,
        "actions": st.history(),
        "final": three_thirteen_final_state(st),
    }


def generate_tonk() -> list[dict[str, Any]]:
    out = []
    for k, (options, bots) in enumerate(TONK_RULE_SETS):
        for h in range(TONK_HANDS_PER_SET):
            out.append(play_tonk(options, bots, derive_seed(2026, k * 1000 + h)))
    return out


def generate_three_thirteen() -> list[dict[str, Any]]:
    out = []
    for k, (options, bots) in enumerate(THREE_THIRTEEN_RULE_SETS):
        for g in range(THREE_THIRTEEN_GAMES_PER_SET):
            out.append(play_three_thirteen(options, bots, derive_seed(1313, k * 1000 + g)))
    return out


#: Each game with a golden file, and how its file is made.
GENERATORS: dict[str, Callable[[], list[dict[str, Any]]]] = {
    "tonk": generate_tonk,
    "three_thirteen": generate_three_thirteen,
}


def path(game: str) -> Path:
    return DIR / f"{game}.jsonl"


def load(game: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path(game).read_text().splitlines() if line.strip()]


def write(game: str) -> None:
    lines = [json.dumps(r, separators=(",", ":")) + "\n" for r in GENERATORS[game]()]
    path(game).write_text("".join(lines))


if __name__ == "__main__":
    for name in sys.argv[1:] or list(GENERATORS):
        write(name)
