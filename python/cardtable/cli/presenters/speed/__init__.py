"""Speed's presenter: its live screen (:mod:`.live`: the keys and the
table), its help texts (:mod:`.words`) and the timed story of ``replay
--show`` (:mod:`cardtable.cli.presenters.timed`)."""

from __future__ import annotations

from cardtable.cli.presenters.base import Presenter
from cardtable.cli.presenters.speed.live import SpeedLive
from cardtable.cli.presenters.speed.words import PLAY_HELP, SIMULATE_HELP
from cardtable.cli.presenters.timed import show_timed_record

__all__ = ["PRESENTER", "SpeedLive"]

PRESENTER = Presenter(
    title="Speed",
    unit="game",
    play_help=PLAY_HELP,
    simulate_help=SIMULATE_HELP,
    win_column="wins",
    win_note="wins: share of games won",
    return_column="return",
    difference_label="paired return difference",
    make_table=None,
    show_record=show_timed_record,
    live=lambda game: SpeedLive(),
    default_bot="smart:normal",
)
