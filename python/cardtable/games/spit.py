"""Spit (rules specification §3, SP-1 to SP-8), a real-time game.

It runs on the virtual clock (``cardtable.games.Session``, rules §5)::

    from cardtable.games import Session
    from cardtable.games.spit import SpitGame
    game = SpitGame(stock_piles=5, slap=True)           # options: game.option_schema()
    s = Session(game, ["smart:hard", "plain:normal"], seed=7)
    s.run(); s.state.returns(), s.state.ending_category

Actions (``game.action_to_string``): ``play P L``/``play P R`` (the top of
stock pile P, 1-based, onto the left or right spit pile), ``flip P``,
``move P Q``, ``stack P Q``, ``spit``, ``slap L``/``slap R``, ``lone L``/
``lone R``. Bots are ``POLICY:PRESET`` (``plain``, ``smart``, ``random``;
``easy``, ``normal``, ``hard``, ``instant``) with optional
``,reaction_median_ms=...``. Where the specification is silent the engine's
decisions are in ``rust/core/src/games/spit/mod.rs``.
"""

from __future__ import annotations

from cardtable._core import SpitGame, SpitState, SpitView

__all__ = ["SpitGame", "SpitState", "SpitView"]
