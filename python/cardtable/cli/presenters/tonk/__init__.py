"""Tonk's presenter: the words of every teller (:mod:`.words`: the narrator
of actions, the ending sentence, the help texts), the stdin table of ``play
tonk`` (:mod:`.table`), the table app's layout (:mod:`.layout`) and the
story of ``replay --show`` (:mod:`.story`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from cardtable.cli.presenters.base import Presenter
from cardtable.cli.presenters.tonk.layout import layout
from cardtable.cli.presenters.tonk.story import TonkRecordShow
from cardtable.cli.presenters.tonk.table import TonkTable
from cardtable.cli.presenters.tonk.words import PLAY_HELP, SIMULATE_HELP
from cardtable.games import Game, State
from cardtable.games.tonk import TonkGame, TonkState

__all__ = ["PRESENTER", "TonkRecordShow", "TonkTable"]


def _table(
    game: Game, names: Sequence[str], color: bool | None, delay: float, extra: dict[str, Any]
) -> TonkTable:
    assert isinstance(game, TonkGame)
    return TonkTable(game, names, color, delay, hints=not extra.get("no_hints", False))


def _show(game: Game, state: State, names: Sequence[str], record: dict[str, Any]) -> None:
    assert isinstance(game, TonkGame)
    assert isinstance(state, TonkState)
    TonkRecordShow(game, state, names, record).run()


PRESENTER = Presenter(
    title="Tonk",
    unit="hand",
    play_help=PLAY_HELP,
    simulate_help=SIMULATE_HELP,
    win_column="positive return",
    win_note=(
        "positive return: share of games a bot ended with a gain"
        " (several bots can gain in one game)"
    ),
    return_column="stakes per game",
    difference_label="paired stake difference",
    make_table=_table,
    layout=layout,
    show_record=_show,
    play_options=(
        click.option(
            "--no-hints",
            is_flag=True,
            help="Do not show the hint line (your count, the best spreads, the greedy bot's move).",
        ),
    ),
)
