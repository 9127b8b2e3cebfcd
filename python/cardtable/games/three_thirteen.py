"""Three Thirteen (rules specification §2, TT-1 to TT-12).

One state is a whole game: every round of the schedule (``game.schedule``,
``(cards_dealt, wild_rank)`` pairs, TT-2.3) with a running score sheet and
the deal passing left each round::

    from cardtable.games import Bot
    from cardtable.games.three_thirteen import ThreeThirteenGame
    game = ThreeThirteenGame(players=3, jokers="wild")     # options: game.option_schema()
    state = game.new_initial_state(seed=7)
    bots = [Bot(game, "greedy", seed=i) for i in range(3)]
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].act(state))
    state.totals, state.score_sheet, state.returns()

Actions are integers with a text form (``state.action_to_string`` /
``string_to_action``): ``0..52`` discard that card code (52 is a joker),
``53 + code`` go out discarding that card, ``106`` draw from the stock,
``107`` take the discard, ``108`` table the best arrangement (redemption
round), ``109 + seat`` gift a joker to that seat, and ``117 + 53 * meld +
code`` lay that card off on tabled meld ``meld``; in a redemption last turn
(TT-10.6) ``2237 + code`` picks a held card for the meld being built and
``2290`` lays the picked cards down as one meld. Texts: ``draw``, ``take``,
``discard 7H``, ``out 7H``, ``gift JK 1``, ``table``, ``layoff 7H M3``,
``pick 7H``, ``meld``. ``state.describe_action(a)`` says what an action is
(its kind, card, seat and meld), as every game's states do.

``returns()`` is the zero-sum score margin, ``sum(totals) - players *
total``: positive for a total below the average; the lowest total(s) win
(``won``; TT-8.1) and the game ends ``outright`` or ``shared``.
``state.best_arrangement(seat)`` is the solver's arrangement of a hand (the
hint ``play three-thirteen`` shows), and ``state.last_round`` every hand of
the round just scored.

``state.observation(seat)`` is a float32 vector in [0, 1]: card-count blocks
of 53 (own hand, top discard, discard pile, tabled melds, the card taken
this turn, each opponent's known cards), six numbers per seat (hand size,
total, false outs, gifted jokers, went out, deals), the wild rank one-hot,
and the round progress and phase.
"""

from __future__ import annotations

from cardtable._core import (
    ThreeThirteenGame,
    ThreeThirteenRound,
    ThreeThirteenSeatResult,
    ThreeThirteenState,
    ThreeThirteenTabledMeld,
    ThreeThirteenView,
)

__all__ = [
    "ThreeThirteenGame",
    "ThreeThirteenRound",
    "ThreeThirteenSeatResult",
    "ThreeThirteenState",
    "ThreeThirteenTabledMeld",
    "ThreeThirteenView",
]
