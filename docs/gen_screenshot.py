"""Writes docs/card-table.svg: the card table at 80x24, a Tonk hand against
four bots at the normal level (seed 12), as Textual's ``export_screenshot``
draws it.

    python docs/gen_screenshot.py
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from cardtable.cli.app.settings import Opponent, Settings
from cardtable.cli.app.shell import CardTable

OUT = Path(__file__).resolve().parent / "card-table.svg"


async def screenshot() -> str:
    settings = Settings("tonk", {"players": 5}, (Opponent("normal"),) * 4, seed=12, delay=0.0)
    app = CardTable(settings)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("d")  # draw: the hand, the hint and the discards to choose from
        await pilot.pause()
        return app.export_screenshot(title="cardtable play tonk --players 5")


def main() -> None:
    OUT.write_text(asyncio.run(screenshot()), encoding="utf-8")


if __name__ == "__main__":
    main()
