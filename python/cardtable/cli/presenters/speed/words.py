"""Speed's help texts: ``play speed`` and ``simulate speed``."""

from __future__ import annotations

from cardtable.cli.presenters.timed import real_time_simulate_help

PLAY_HELP = """Play Speed live against a bot: both of you play at once, as fast as you can.

    Keys (no Enter): q w e r t play hand slot 1-5 onto the left centre pile,
    a s d f g onto the right one; a joker (--jokers) takes two keys: its
    slot's key, then the rank it stands for (a 2-9 0 j q k, 0 for 10; the
    bottom line names the ranks that fit, Esc puts it back); space draws
    (with --no-auto-draw). p pauses, ? shows the keys, Esc quits (Ctrl-C too,
    with exit status 130; q too once the game is over), and the standings
    follow. The bottom line names the keys that matter now; a move the rules
    refuse says why, with its rule (SD-...). A card that no longer fits when
    it lands bounces back (it flashes). When nobody can play, the side piles
    flip. The screen needs 60x20 or more. The clock is virtual: the same
    --seed and the same keys at the same times give the same game, and
    --record keeps them for 'cardtable replay'.
    """

SIMULATE_HELP = real_time_simulate_help("Speed")
