"""Reading the golden files in ``tests/data``.

Each file starts with ``{"game": ..., "flags": [CLI flags]}``; every other line
is ``{"hand": ..., "deadwood": ..., "one_best_meld_set": [[card, ...], ...]}``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

GOLDEN_NAMES = ("gin10", "three13", "three13_jokers", "tonk5", "tonk_aces_high")
"""The golden files (a test checks that this list matches the data directory)."""


@dataclass(frozen=True)
class GoldenCase:
    line: int
    hand: str
    deadwood: int
    one_best_meld_set: list[list[str]]


@dataclass(frozen=True)
class GoldenFile:
    path: Path
    game: str
    flags: list[str]
    cases: list[GoldenCase]

    @property
    def options(self) -> dict[str, Any]:
        """The CLI flags as keyword options of the Python API."""
        return flags_to_options(self.flags)


def flags_to_options(flags: list[str]) -> dict[str, Any]:
    """``--game X`` -> ``game=X`` ('-' -> '_'), ``--aces high`` -> ``aces="high"``,
    ``--jokers`` -> ``jokers=True``."""
    options: dict[str, Any] = {}
    i = 0
    while i < len(flags):
        flag = flags[i]
        if flag == "--game":
            options["game"] = flags[i + 1].replace("-", "_")
            i += 2
        elif flag == "--aces":
            options["aces"] = flags[i + 1]
            i += 2
        elif flag == "--jokers":
            options["jokers"] = True
            i += 1
        else:
            raise ValueError(f"unexpected flag {flag!r} in a golden file")
    return options


def load_golden(path: Path) -> GoldenFile:
    lines = path.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    cases = [
        GoldenCase(
            line=n,
            hand=rec["hand"],
            deadwood=rec["deadwood"],
            one_best_meld_set=rec["one_best_meld_set"],
        )
        for n, rec in ((n, json.loads(text)) for n, text in enumerate(lines[1:], start=2))
    ]
    return GoldenFile(path=path, game=head["game"], flags=list(head["flags"]), cases=cases)
