"""Speed (rules specification §4, SD-1 to SD-6), a real-time game.

It runs on the virtual clock (``cardtable.games.Session``, rules §5)::

    from cardtable.games import Session
    from cardtable.games.speed import SpeedGame
    game = SpeedGame(side_pile_size=10, scoring=True)    # options: game.option_schema()
    s = Session(game, ["smart:hard", "plain:normal"], seed=7)
    s.run(); s.state.returns(), s.state.ending_category

Actions (``game.action_to_string``): ``play 7H L`` / ``play 7H R`` (a card of
the hand, by card, onto the left or right centre pile), ``play JK L as 7``
(a joker as a rank), ``draw`` (with ``auto_draw=False``). Bots are
``POLICY:PRESET`` (``plain``, ``smart``, ``random``; ``easy``, ``normal``,
``hard``, ``instant``). Where the specification is silent the engine's
decisions are in ``rust/core/src/games/speed/mod.rs``.
"""

from __future__ import annotations

from cardtable._core import SpeedGame, SpeedState, SpeedView

__all__ = ["SpeedGame", "SpeedState", "SpeedView"]
