"""The card table: one Textual app for every game (``cardtable play GAME``
at a terminal).

- :mod:`.settings`: what a match is made of (game, options, opponents by
  level or spec, seed, pace); no Textual.
- :mod:`.shell`: the app every game shares: the header and standings, the
  help overlay (``?``, which pauses a live clock), the new-game screen
  (``n``), quitting with a confirmation, the small-window guard, resizing,
  and no colour under ``NO_COLOR``/``TERM=dumb``.
- :mod:`.turns`: the table of a turn-based game, driven by the engine's
  contract and the game's :class:`cardtable.cli.board.TurnLayout`.
- :mod:`.live`: the table of a real-time game on the virtual clock,
  driven by the game's :class:`cardtable.cli.live.LivePresenter`.

Textual loads only with :mod:`.shell` (a third of a second): the other
commands, and ``play`` in the stdin mode, never import it.
"""
