"""Progress bars on stderr, drawn by rich.

A bar is shown when stderr is a terminal (``--progress``/``--no-progress``
force it on or off); ``NO_COLOR`` or ``TERM=dumb`` turn its colours off.
It never writes to standard output, so the results stay clean.
"""

from __future__ import annotations

import sys
from types import TracebackType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.progress import Progress

__all__ = ["Bar", "shown"]


def shown(flag: bool | None) -> bool:
    """Whether to draw a bar: ``--progress``/``--no-progress``, else when
    stderr is a terminal."""
    return sys.stderr.isatty() if flag is None else flag


class Bar:
    """One progress bar on stderr, or nothing when not ``enabled``.

    ``total`` (``None``: not known) is what ``update(completed=...)`` counts
    towards; ``unit`` names it. With ``counted``, the bar also shows a
    ``counted`` field (``update(count=...)``), e.g. lines while it counts
    bytes, and rates that instead.
    """

    def __init__(
        self, enabled: bool, total: float | None, unit: str, counted: str | None = None
    ) -> None:
        self._progress: Progress | None = None
        self._task: Any = None
        if not enabled:
            return
        from cardtable.cli import rich_bar

        self._progress, self._task = rich_bar.start(total, unit, counted)

    def update(
        self,
        completed: float,
        *,
        total: float | None = None,
        count: int | None = None,
        description: str | None = None,
    ) -> None:
        if self._progress is None or self._task is None:
            return
        # A new description is drawn at once (e.g. the next file's name).
        fields: dict[str, Any] = {} if count is None else {"count": count, "rated": count}
        self._progress.update(
            self._task,
            completed=completed,
            total=total,
            description=description,
            refresh=description is not None,
            **fields,
        )

    def close(self) -> None:
        if self._progress is not None:
            self._progress.refresh()
            self._progress.stop()
            self._progress = None

    def __enter__(self) -> Bar:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
