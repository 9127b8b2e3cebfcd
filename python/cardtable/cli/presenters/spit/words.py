"""Spit's help texts: ``play spit`` and ``simulate spit``."""

from __future__ import annotations

from cardtable.cli.presenters.timed import real_time_simulate_help

PLAY_HELP = """Play Spit live against a bot: both of you play at once, as fast as you can.

    Keys (no Enter): q w e r t play the top of your stock pile 1-5 onto the
    left spit pile, a s d f g onto the right one; z x c v b flip pile 1-5, or
    move its top card to a space (or, with --stack-equal-ranks, onto an equal
    rank); face-down cards turn up by themselves unless --no-auto-flip; space
    spits when stuck (--stalemate agreed); h / l slap the left / right pile
    at the end of a deal. p pauses, ? shows the keys, Esc quits (Ctrl-C too,
    with exit status 130; q too once the game is over), and the standings
    follow. The bottom line names the keys that matter now; a move the rules
    refuse says why, with its rule (SP-...). A card that no longer fits when
    it lands bounces back (it flashes). The screen needs 60x20 or more. The
    clock is virtual: the same --seed and the same keys at the same times
    give the same game, and --record keeps them for 'cardtable replay'.
    """

SIMULATE_HELP = real_time_simulate_help("Spit")
