"""Gin Rummy's presenter: the words of every teller (:mod:`.words`: the
narrator of actions, what each phase asks, the help texts), the stdin
table of ``play gin-rummy`` (:mod:`.table`), the table app's layout
(:mod:`.layout`) and the story of ``replay --show`` (:mod:`.story`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from cardtable.cli.presenters.base import Presenter
from cardtable.cli.presenters.gin_rummy.layout import layout
from cardtable.cli.presenters.gin_rummy.story import show_record
from cardtable.cli.presenters.gin_rummy.table import GinRummyTable
from cardtable.cli.presenters.gin_rummy.words import PLAY_HELP, SIMULATE_HELP
from cardtable.games import Game
from cardtable.games.gin_rummy import GinRummyGame

__all__ = ["PRESENTER", "GinRummyTable"]


def _table(
    game: Game, names: Sequence[str], color: bool | None, delay: float, extra: dict[str, Any]
) -> GinRummyTable:
    assert isinstance(game, GinRummyGame)
    return GinRummyTable(game, names, color, delay, hints=not extra.get("no_hints", False))


PRESENTER = Presenter(
    title="Gin Rummy",
    unit="game",
    play_help=PLAY_HELP,
    simulate_help=SIMULATE_HELP,
    win_column="wins",
    win_note="wins: share of games with a positive score",
    return_column="points",
    difference_label="paired points difference",
    make_table=_table,
    layout=layout,
    show_record=show_record,
    play_options=(click.option("--no-hints", is_flag=True, help="Do not show your deadwood."),),
)
