"""Three Thirteen's presenter: the words of every teller (:mod:`.words`:
the narrator of actions, how wilds and melds are written, the help texts),
the stdin table of ``play three-thirteen`` (:mod:`.table`), the table app's
layout (:mod:`.layout`) and the story of ``replay --show`` (:mod:`.story`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from cardtable.cli.presenters.base import Presenter
from cardtable.cli.presenters.three_thirteen.layout import layout
from cardtable.cli.presenters.three_thirteen.story import show_record
from cardtable.cli.presenters.three_thirteen.table import ThreeThirteenTable
from cardtable.cli.presenters.three_thirteen.words import PLAY_HELP, SIMULATE_HELP
from cardtable.games import Game
from cardtable.games.three_thirteen import ThreeThirteenGame

__all__ = ["PRESENTER", "ThreeThirteenTable"]


def _table(
    game: Game, names: Sequence[str], color: bool | None, delay: float, extra: dict[str, Any]
) -> ThreeThirteenTable:
    assert isinstance(game, ThreeThirteenGame)
    return ThreeThirteenTable(game, names, color, delay, hints=not extra.get("no_hints", False))


PRESENTER = Presenter(
    title="Three Thirteen",
    unit="game",
    play_help=PLAY_HELP,
    simulate_help=SIMULATE_HELP,
    win_column="wins",
    win_note="wins: share of games with the lowest total (tied lowest totals share the win)",
    return_column="score margin",
    difference_label="paired score-margin difference",
    make_table=_table,
    layout=layout,
    show_record=show_record,
    play_options=(
        click.option(
            "--no-hints", is_flag=True, help="Do not show the best arrangement of your hand."
        ),
    ),
)
