"""Ray is an optional extra: the package never imports it on its own, and
``--ray`` or ``cardtable.distributed`` without it say how to install it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardtable import distributed
from cardtable.cli import main
from cardtable.games import load_game


def test_the_package_does_not_import_ray() -> None:
    code = (
        "import sys, cardtable, cardtable.games, cardtable.distributed, cardtable.cli; "
        "from cardtable.cli import main; "
        "assert 'ray' not in sys.modules, 'ray imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_ray_flag_without_ray_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails
    hands = tmp_path / "h.txt"
    hands.write_text("AS 2S 3S\n")
    for args in (
        ["score", str(hands), "--ray"],
        ["simulate", "tonk", "--bots", "greedy,random", "--ray=localhost:6379"],
    ):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2, result.output
        assert "pip install 'cardtable[ray]'" in result.output
        assert result.stdout == ""
    with pytest.raises(ImportError, match=r"pip install 'cardtable\[ray\]'"):
        distributed.simulate(load_game("tonk"), ["greedy", "random"], 10, seed=1)
