"""Every game finished through ``play`` goes into the history
(:mod:`cardtable.history`), at the table and in the stdin mode alike,
unless ``--no-history`` or ``CARDTABLE_NO_HISTORY`` turns it off. A
database that cannot take it (locked, read-only, corrupt) gives one line,
shown once a session, and the game goes on."""

from __future__ import annotations

import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from cardtable.games import Game, State
from cardtable.history import FinishedGame, history_enabled, record_game


def new_match_id() -> str:
    """An id shared by the games of one match (one ``play`` session's)."""
    return uuid.uuid4().hex


@dataclass
class History:
    """Where ``play`` keeps its finished games, and whether it does."""

    enabled: bool
    path: Path | None = None
    """The database (None: ``cardtable.history.default_path()``)."""
    told: bool = field(default=False)

    @classmethod
    def for_play(cls, no_history: bool) -> History:
        return cls(history_enabled(no_history))

    def keep(
        self,
        game: Game,
        state: State,
        record: str,
        names: Sequence[str],
        levels: Sequence[str | None],
        seed: int | None,
        match: str | None,
        started: float,
    ) -> str | None:
        """Stores one finished game; returns the database's one-line
        complaint the first time it has one (None otherwise)."""
        if not self.enabled:
            return None
        finished = FinishedGame(
            game=game.name,
            options=game.given_options(),
            seats=["you", *names],
            levels=list(levels),
            returns=state.returns(),
            won=state.won(0),
            ending=state.ending_category,
            record=record,
            seed=seed,
            match=match,
            started=started,
            finished=time.time(),
        )
        message = record_game(finished, self.path)
        if message is None or self.told:
            return None
        self.told = True
        return message
