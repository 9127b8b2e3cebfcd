"""Tonk (rules specification §1, TK-1 to TK-13).

The engine follows OpenSpiel's Game/State split::

    from cardtable.games.tonk import TonkGame, TonkBot
    game = TonkGame(players=3, preset="pagat")          # options: game.option_schema()
    state = game.new_initial_state(seed=7)
    bots = [TonkBot("greedy", seed=i) for i in range(3)]   # or Bot(game, "greedy", i)
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].act(state))
    state.returns()                                      # stakes won, zero-sum

Actions are integers (``state.action_to_string`` / ``string_to_action``):
``0..51`` discard that card code, ``52`` draw, ``53`` take the discard, ``54``
drop, ``55`` pass (drop windows), ``56`` claim a 49, ``57``/``58`` in or out of
the spades bet, ``59 + i`` lay catalogue spread ``i``, and
``432 + 52 * spread_id + card`` hit that card onto that spread.
``state.describe_action(a)`` says what an action is (its kind, cards and
spread), as every game's states do.

``state.view(seat)`` is everything that seat may see, and
``state.observation(seat)`` the same as a float32 vector: own hand (52); top
discard (52); discard pile (52); cards in the spreads of each seat, relative to
the observer (52 each); cards known to be in each opponent's hand (52 each);
hand size / (hand_size + 1), hit lock / 3 (capped) and "showed a spade" per relative seat;
stock size / 52; phase one-hot (spades, drop window, turn start, play, over);
1 when the observer decides.

The deal is seeded (or given: ``state_from_hands``, ``state_from_deck``), so
``(options, seed, dealer, actions)`` replays a hand exactly; ``to_record`` and
``replay_record`` write and check such records as JSON lines. Matches
(``cardtable.games.Match``) and simulations (``simulate``) are shared by all
games.

``state.ending["category"]`` is one of ``tonk_out``, ``out_by_discard``,
``drop_won``, ``caught``, ``stock_out``, ``stalled``, ``deal_win``, ``void``;
``stalled`` is TK-10.7's guard (option ``max_idle_rounds``, default 10 full
rounds with no stock draw and nothing put down), settled as a stock out.
``state.settlement_reasons()`` gives each transfer with the rule behind it.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardtable._core import (
    TonkBot,
    TonkGame,
    TonkSpread,
    TonkState,
    TonkView,
    replay_record,
)
from cardtable.errors import InvalidRecordError
from cardtable.games import play_game, simulate
from cardtable.games.results import TonkEnding

__all__ = [
    "TonkBot",
    "TonkEnding",
    "TonkGame",
    "TonkSpread",
    "TonkState",
    "TonkView",
    "play_hand",
    "replay_tonk_record",
    "simulate",
]


def play_hand(
    game: TonkGame,
    bots: Sequence[str],
    seed: int | None = None,
    *,
    dealer: int | None = None,
) -> TonkState:
    """Plays one hand with Rust bots (one per seat) and returns the final state."""
    state = play_game(game, bots, seed, dealer=dealer)
    assert isinstance(state, TonkState)
    return state


def replay_tonk_record(line: str) -> TonkState:
    """Re-runs a recorded Tonk hand and checks its result (``replay_record``
    reads any game's records)."""
    state = replay_record(line)
    if not isinstance(state, TonkState):
        raise InvalidRecordError(f"not a Tonk record: it is a record of {state.game.name}")
    return state
