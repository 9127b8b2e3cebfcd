"""Progress bars on stderr, drawn by rich.

A bar is shown when stderr is a terminal (``--progress``/``--no-progress``
force it on or off); ``NO_COLOR`` or ``TERM=dumb`` turn its colours off.
It never writes to standard output, so the results stay clean.
"""

from __future__ import annotations

import sys
from types import TracebackType
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Column
from rich.text import Text

from cardtable.cli.terminal import colour_setting

__all__ = ["Bar", "shown"]


def shown(flag: bool | None) -> bool:
    """Whether to draw a bar: ``--progress``/``--no-progress``, else when
    stderr is a terminal."""
    return sys.stderr.isatty() if flag is None else flag


class _Rate(ProgressColumn):
    """Items per second (of the task's ``rated`` field, or its progress)."""

    def __init__(self, unit: str) -> None:
        super().__init__(table_column=Column(no_wrap=True))
        self.unit = unit

    def render(self, task: Task) -> Text:
        elapsed = task.elapsed or 0.0
        done = float(task.fields.get("rated", task.completed))
        rate = done / elapsed if elapsed > 0 else 0.0
        return Text(f"{rate:,.0f} {self.unit}/s")


class _Count(ProgressColumn):
    """``done/total unit``, or ``done unit`` when the total is not known."""

    def __init__(self, unit: str, field: str | None) -> None:
        super().__init__(table_column=Column(no_wrap=True))
        self.unit = unit
        self.field = field

    def render(self, task: Task) -> Text:
        if self.field is not None:
            return Text(f"{int(task.fields.get(self.field, 0)):,} {self.unit}")
        if task.total is None:
            return Text(f"{int(task.completed):,} {self.unit}")
        return Text(f"{int(task.completed):,}/{int(task.total):,} {self.unit}")


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
        self._task = None
        if not enabled:
            return
        console = Console(
            file=sys.stderr,
            force_terminal=True,
            no_color=colour_setting(False) is False,
            highlight=False,
        )
        # One line whatever the width: the description (a file name) gives way.
        columns: list[str | ProgressColumn] = [
            TextColumn(
                "{task.description}",
                table_column=Column(no_wrap=True, overflow="ellipsis", ratio=1),
            ),
            BarColumn(bar_width=24),
            TaskProgressColumn(),
        ]
        if counted is None:
            columns += [_Count(unit, None), _Rate(unit)]
        else:
            columns += [_Count(counted, "count"), _Rate(counted)]
        columns.append(TimeElapsedColumn())
        # The results go to their own streams: rich must not take over sys.stdout.
        self._progress = Progress(
            *columns,
            console=console,
            transient=False,
            redirect_stdout=False,
            redirect_stderr=False,
        )
        if counted is None:
            self._task = self._progress.add_task("", total=total)
        else:
            self._task = self._progress.add_task("", total=total, count=0, rated=0)
        self._progress.start()

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
