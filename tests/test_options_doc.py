"""docs/options.md is what docs/gen_options.py makes from the engine's option
schema now, so the option tables cannot drift from the engine."""

from __future__ import annotations

import runpy
from pathlib import Path

from cardtable.games import game_names, option_schema

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_options_doc_is_generated_from_the_schema() -> None:
    render = runpy.run_path(str(DOCS / "gen_options.py"))["render"]
    assert (DOCS / "options.md").read_text(encoding="utf-8") == render(), (
        "docs/options.md is stale: run python docs/gen_options.py"
    )


def test_options_doc_has_every_option_of_every_game() -> None:
    text = (DOCS / "options.md").read_text(encoding="utf-8")
    for game in game_names():
        assert f"\n## {game}\n" in text
        for spec in option_schema(game):
            assert f"| `{spec.name}` |" in text
            assert spec.rule in text
