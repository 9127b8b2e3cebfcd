"""Tonk (rules specification §1, TK-1 to TK-13).

The engine follows OpenSpiel's Game/State split::

    from cardtable.games.tonk import TonkGame, TonkBot
    game = TonkGame(players=3, preset="pagat")          # options: TonkGame.option_schema()
    state = game.new_initial_state(seed=7)
    bots = [TonkBot("greedy", seed=i) for i in range(3)]
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].act(state))
    state.returns()                                      # stakes won, zero-sum

Actions are integers (``TonkState.action_to_string`` / ``string_to_action``):
``0..51`` discard that card code, ``52`` draw, ``53`` take the discard, ``54``
drop, ``55`` pass (drop windows), ``56`` claim a 49, ``57``/``58`` in or out of
the spades bet, ``59 + i`` lay catalogue spread ``i``, and
``432 + 52 * spread_id + card`` hit that card onto that spread.

``state.view(seat)`` is everything that seat may see, and
``state.observation(seat)`` the same as a float32 vector: own hand (52); top
discard (52); discard pile (52); cards in the spreads of each seat, relative to
the observer (52 each); cards known to be in each opponent's hand (52 each);
hand size / (hand_size + 1), hit lock / 3 (capped) and "showed a spade" per relative seat;
stock size / 52; phase one-hot (spades, drop window, turn start, play, over);
1 when the observer decides.

The deal is seeded (or given: ``state_from_hands``, ``state_from_deck``), so
``(options, seed, dealer, actions)`` replays a hand exactly; ``to_record`` and
``replay_tonk_record`` write and check such records as JSON lines.

``state.ending["category"]`` is one of ``tonk_out``, ``out_by_discard``,
``drop_won``, ``caught``, ``stock_out``, ``stalled``, ``deal_win``, ``void``;
``stalled`` is TK-10.7's guard (option ``max_idle_rounds``, default 10 full
rounds with no stock draw and nothing put down), settled as a stock out.
``state.settlement_reasons()`` gives each transfer with the rule behind it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cardtable._core import (
    TonkBot,
    TonkGame,
    TonkMatch,
    TonkSimulation,
    TonkSpread,
    TonkState,
    TonkView,
    describe_tonk_action,
    replay_tonk_record,
)
from cardtable.deck import check_seed, new_seed
from cardtable.games.results import BotStats, Summary, TonkEnding

__all__ = [
    "BotStats",
    "Summary",
    "TonkBot",
    "TonkEnding",
    "TonkGame",
    "TonkMatch",
    "TonkSimulation",
    "TonkSpread",
    "TonkState",
    "TonkView",
    "describe_tonk_action",
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
    if len(bots) != game.players:
        raise ValueError(f"{len(bots)} bots for {game.players} players")
    s = new_seed() if seed is None else check_seed(seed)
    state = game.new_initial_state(s, dealer)
    players = [TonkBot(b, seed=(s + 1 + i) % 2**64) for i, b in enumerate(bots)]
    while True:
        p = state.current_player()
        if p is None:
            return state
        state.apply_action(players[p].act(state))


def simulate(
    game: TonkGame,
    bots: Sequence[str],
    games: int,
    seed: int | None = None,
    *,
    threads: int | None = None,
    chunk: int = 4096,
    on_records: Callable[[list[str]], None] | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> Summary:
    """Bot-against-bot games in parallel (in Rust); returns the summary.

    Every deal is played once per seat rotation, so ``games`` is rounded up to
    a multiple of the number of bots. The same seed gives the same results on
    any thread count. ``on_records`` receives each chunk's JSON records;
    ``on_progress(done, total)`` is called after each chunk.
    """
    s = new_seed() if seed is None else check_seed(seed)
    run = TonkSimulation(game, list(bots), games, s)
    while run.done < run.total:
        records = run.step(chunk, threads=threads, record=on_records is not None)
        if on_records is not None:
            on_records(records)
        if on_progress is not None:
            on_progress(run.done, run.total)
    summary = run.summary()
    summary["seed"] = s
    if len(bots) == 2:
        summary["stake_difference"] = run.stake_difference(0, 1)
    return summary
