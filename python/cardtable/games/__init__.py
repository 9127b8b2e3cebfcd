"""Game engines behind one API: ``load_game(name, **options)`` builds any
registered game (``game_names()``), and every game's states, bots, matches
and simulations share the classes below. A game's own module adds what only
it has (``cardtable.games.tonk``, ``cardtable.games.three_thirteen``)::

    from cardtable.games import load_game, Bot
    game = load_game("tonk", players=3)                  # options: game.option_schema()
    state = game.new_initial_state(seed=7)
    bots = [Bot(game, "greedy", seed=i) for i in range(game.players)]
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].act(state))
    state.returns(), state.ending_category

Every state answers the same questions a front end asks, for every game:
``legal_actions()``, ``refusal(action)`` (why a move is not allowed, with its
rule ID), ``describe_action(action)`` (an ``ActionInfo``: kind, cards, seat,
meld or pile, text) and ``can_take_back(action)``; every game says how many
seats it takes (``game.min_players``, ``game.max_players``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cardtable._core import (
    ActionInfo,
    Bot,
    Game,
    Match,
    Session,
    Simulation,
    State,
    game_names,
    option_schema,
    replay_record,
)
from cardtable._core import load_game as _load_game
from cardtable.deck import bot_seed, check_seed, new_seed
from cardtable.games.results import BotStats, PrivateEvent, PublicEvent, Summary

__all__ = [
    "ActionInfo",
    "Bot",
    "BotStats",
    "Game",
    "Match",
    "PrivateEvent",
    "PublicEvent",
    "Session",
    "Simulation",
    "SimulationInterrupted",
    "State",
    "Summary",
    "game_names",
    "load_game",
    "option_schema",
    "play_game",
    "replay_record",
    "simulate",
]


def load_game(name: str, **options: Any) -> Game:
    """The game ``name`` (``tonk``, ``three_thirteen``; ``-`` and ``_`` alike)
    with rule options; bad names, values and combinations raise
    InvalidConfigError naming the option."""
    game: Game = _load_game(name, **options)
    return game


def play_game(
    game: Game,
    bots: Sequence[str],
    seed: int | None = None,
    *,
    dealer: int | None = None,
) -> State:
    """Plays one game with Rust bots (one spec per seat); returns the final state.

    The deal comes from ``seed`` and the bot at seat ``i`` from
    ``bot_seed(seed, i)``, as in every driver (a real-time game runs on a
    ``Session`` of that seed instead).
    """
    if len(bots) != game.players:
        raise ValueError(f"{len(bots)} bots for {game.players} players")
    s = new_seed() if seed is None else check_seed(seed)
    if game.real_time:
        # The bots play on the virtual clock.
        session = Session(game, list(bots), s)
        session.run()
        real_time: State = session.state
        return real_time
    state = game.new_initial_state(s, dealer)
    players = [Bot(game, b, seed=bot_seed(s, i)) for i, b in enumerate(bots)]
    while True:
        p = state.current_player()
        if p is None:
            return state
        state.apply_action(players[p].act(state))


def simulate(
    game: Game,
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

    Ctrl-C stops the run within a move: the games finished by then are kept
    (``on_records`` has their records), and ``SimulationInterrupted``, a
    ``KeyboardInterrupt``, carries their summary.
    """
    s = new_seed() if seed is None else check_seed(seed)
    run = Simulation(game, list(bots), games, s)
    try:
        while run.done < run.total:
            records = run.step(chunk, threads=threads, record=on_records is not None)
            if on_records is not None:
                on_records(records)
            if on_progress is not None:
                on_progress(run.done, run.total)
            run.raise_interrupt()  # now that the games it finished are kept
    except KeyboardInterrupt as e:
        raise SimulationInterrupted(_summary_of(run, s, len(bots)), run.done, run.total) from e
    return _summary_of(run, s, len(bots))


class SimulationInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped ``simulate``: ``summary`` is that of the games played
    (``played`` of ``total``; the summary's figures are of whole deals)."""

    def __init__(self, summary: Summary, played: int, total: int) -> None:
        super().__init__(f"interrupted after {played} of {total} games")
        self.summary = summary
        self.played = played
        self.total = total


def _summary_of(run: Simulation, seed: int, bots: int) -> Summary:
    """A finished run's summary, with its seed and, for two bots, the paired
    stake difference."""
    summary = run.summary()
    summary["seed"] = seed
    if bots == 2:
        summary["stake_difference"] = run.stake_difference(0, 1)
    return summary
