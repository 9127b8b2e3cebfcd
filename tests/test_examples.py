"""Every learning example in examples/ runs (``--quick``: small sizes) and
draws its plot: the README and docs/learning.md point people at them, so
they must not rot."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cardtable.games import game_names

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")
pytest.importorskip("matplotlib")

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
GAMES = game_names()  # every registered game has its learning example


@pytest.mark.parametrize("game", GAMES)
def test_the_learning_example_of_each_game_runs_and_draws_its_plot(
    game: str, tmp_path: Path
) -> None:
    script = EXAMPLES / f"learn_{game}.py"
    done = subprocess.run(
        [sys.executable, str(script), str(tmp_path), "--quick"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    plots = list(tmp_path.glob(f"{game}_simulation.*"))
    assert len(plots) == 1, done.stdout
    assert plots[0].stat().st_size > 1000
    assert "wrote" in done.stdout
