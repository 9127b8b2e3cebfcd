"""Screen snapshots of the card table: every game at 80x24 and 120x40, as
text, compared with the screens kept in ``tests/data/screens`` (set
``CARDTABLE_UPDATE_SCREENS=1`` to write them again after a deliberate
change, and read the difference). Under NO_COLOR the same screens carry
no colour at all."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from cardtable.cli.app.shell import CardTable

from .app_harness import colours_on_screen, live, live_app, screen_text, turn_app

SCREENS = Path(__file__).parent / "data" / "screens"
GAMES = ["tonk", "three_thirteen", "gin_rummy", "spit", "speed"]
SIZES = [(80, 24), (120, 40)]


def table(name: str, color: bool | None) -> tuple[CardTable, float]:
    """The table of ``name`` in a set deal: the turn-based games at seat 0's
    first decision (Tonk with five players), the live ones three seconds in
    (the fake clock moves on by the number returned)."""
    if name in ("spit", "speed"):
        app, _clock, _ = live_app(name, [None, "plain:normal"], 5, None, "normal")
        app.color = color
        return app, 3.0
    players = {"tonk": 5, "three_thirteen": 3}.get(name, 2)
    return turn_app(name, players, 12, color=color), 0.0


async def shown(name: str, size: tuple[int, int], color: bool | None) -> tuple[str, list[str]]:
    app, seconds = table(name, color)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        if seconds:
            board = live(app)
            clock = board.clock
            assert hasattr(clock, "t")
            clock.t += seconds
            board.tick()
            await pilot.pause(0.05)
        await pilot.pause()
        return screen_text(app), colours_on_screen(app)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", GAMES)
def test_the_screen_of_each_game_at_each_size(name: str, size: tuple[int, int]) -> None:
    text, colours = asyncio.run(shown(name, size, None))
    path = SCREENS / f"{name}-{size[0]}x{size[1]}.txt"
    if os.environ.get("CARDTABLE_UPDATE_SCREENS"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert len(lines) == size[1]
    assert max(len(line) for line in lines) <= size[0]
    assert colours  # in colour otherwise


@pytest.mark.parametrize("name", GAMES)
def test_under_no_color_the_same_screens_carry_no_colour(name: str) -> None:
    for size in SIZES:
        text, colours = asyncio.run(shown(name, size, False))
        assert colours == [], colours[:5]
        assert text == (SCREENS / f"{name}-{size[0]}x{size[1]}.txt").read_text(encoding="utf-8")
