"""The rich side of the progress bars (imported only when one is shown,
so that a command without a bar does not pay for rich's import)."""

from __future__ import annotations

import sys
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

__all__ = ["start"]


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


def start(total: float | None, unit: str, counted: str | None) -> tuple[Progress, Any]:
    """A started rich progress display on stderr with one task (what
    :class:`cardtable.cli.progress.Bar` draws), and that task."""
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
    progress = Progress(
        *columns,
        console=console,
        transient=False,
        redirect_stdout=False,
        redirect_stderr=False,
    )
    if counted is None:
        task = progress.add_task("", total=total)
    else:
        task = progress.add_task("", total=total, count=0, rated=0)
    progress.start()
    return progress, task
