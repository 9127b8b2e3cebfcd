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
