"""Spit's presenter: its live screen (:mod:`.live`: the keys and the
table), its help texts (:mod:`.words`) and the timed story of ``replay
--show`` (:mod:`cardtable.cli.presenters.timed`)."""

from __future__ import annotations

from cardtable.cli.presenters.base import Presenter
from cardtable.cli.presenters.spit.live import SpitLive
from cardtable.cli.presenters.spit.words import PLAY_HELP, SIMULATE_HELP
from cardtable.cli.presenters.timed import show_timed_record

__all__ = ["PRESENTER", "SpitLive"]

PRESENTER = Presenter(
    title="Spit",
    unit="game",
    play_help=PLAY_HELP,
    simulate_help=SIMULATE_HELP,
    win_column="wins",
    win_note="wins: share of games won",
    return_column="return",
    difference_label="paired return difference",
    make_table=None,
    show_record=show_timed_record,
    live=lambda game: SpitLive(),
    live_defaults={"auto_flip": True},
    default_bot="smart:normal",
)
