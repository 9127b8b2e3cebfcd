"""Gin Rummy (``docs/gin_rummy.md``, GR-1 to GR-10): OpenSpiel's ``gin_rummy``,
its rules, phases and action ids, so that OpenSpiel's games replay here::

    from cardtable.games import Bot
    from cardtable.games.gin_rummy import GinRummyGame
    game = GinRummyGame(knock_card=10)                  # options: game.option_schema()
    state = game.new_initial_state(seed=7)
    bots = [Bot(game, "greedy", seed=i) for i in range(2)]
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].act(state))
    state.returns(), state.ending_category, state.final_deadwood

Actions are OpenSpiel's integers (GR-2.2): ``0..51`` a card in OpenSpiel's
order (``suit * 13 + rank``, suits spades, clubs, diamonds, hearts;
``gin_rummy_card(id)`` gives its ``Card``) to discard or lay off, ``52`` draw
the upcard, ``53`` draw from the stock, ``54`` pass, ``55`` knock, ``56 + m``
lay meld ``m`` (0..184, GR-2.3). Texts: ``discard 7H`` (also ``layoff 7H``),
``draw upcard``, ``draw stock``, ``pass``, ``knock``, ``meld 7H 8H 9H``.

Phases (``state.phase``): ``first_upcard``, ``draw``, ``discard``, ``knock``
(the knocker's discard, then its melds), ``layoff`` (the opponent's layoffs,
then its melds), ``wall`` (two stock cards left: knock or pass) and ``over``.
``returns()`` is OpenSpiel's: the knocker wins the deadwood difference (plus
``gin_bonus`` for gin) or loses it plus ``undercut_bonus``; endings ``gin``,
``knock``, ``undercut``, ``knock_tie``, ``wall``, ``repeated_move`` and
``upcard_limit``.

``state.observation(seat)`` is OpenSpiel's 644-float layout: seat one-hot,
the seat's own hand, the seat to move, the knock card, the upcard, the dead
cards, the stock size and the laid melds (see ``view.rs`` in the core).
"""

from __future__ import annotations

from cardtable._core import GinRummyGame, GinRummyState, GinRummyView, gin_rummy_card

__all__ = ["GinRummyGame", "GinRummyState", "GinRummyView", "gin_rummy_card"]
