"""Shared fixtures of the cardtable test suite."""

from __future__ import annotations

from pathlib import Path

import pytest

from .golden import GoldenFile, load_golden

DATA_DIR = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The directory of checked hands (``tests/data/*.jsonl``)."""
    return DATA_DIR


@pytest.fixture(scope="session")
def golden_files(data_dir: Path) -> dict[str, GoldenFile]:
    """Every golden file in the data directory, parsed, by file stem."""
    return {p.stem: load_golden(p) for p in sorted(data_dir.glob("*.jsonl"))}


@pytest.fixture(autouse=True)
def _private_history(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No test writes the user's game history: the games a test plays
    through ``cardtable play`` go to a database of its own, and history is
    on whatever the developer's environment says."""
    path = tmp_path_factory.mktemp("history") / "history.sqlite3"
    monkeypatch.setenv("CARDTABLE_HISTORY", str(path))
    monkeypatch.delenv("CARDTABLE_NO_HISTORY", raising=False)
