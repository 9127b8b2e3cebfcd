"""Every code block of the README and of the guides in docs/ runs as written
(the front door and the manuals cannot rot).

Python blocks run, each in a fresh interpreter, in a scratch directory that
holds the files the pages name (``hands.txt``, ``a.txt``, ``hands/`` …);
every ``cardtable`` line of a shell block runs there too, in order (a later
line may read what an earlier one wrote), and must exit 0; JSON blocks
parse. What cannot run here is listed in ``NOT_RUN`` with the reason, so a
new block runs unless it is named there. ``docs/rules.md`` (the
specification) and ``docs/options.md`` (generated, tests/test_options_doc.py)
are not guides and hold no blocks to run.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
NOT_GUIDES = {"rules.md", "options.md"}
PAGES = [README, *sorted(p for p in (ROOT / "docs").glob("*.md") if p.name not in NOT_GUIDES)]

# Lines (or the start of a block) that are not run, and why.
NOT_RUN = {
    "pip install": "installs the package: the test runs in the installed one",
    "make test": "the whole suite: CI runs it",
    "maturin build": "a release build",
    "--ray=auto": "joins a running cluster on a cluster node (test_ray.py: --ray=ADDRESS)",
    "cardtable play spit": "live play needs a terminal (tests/test_cli_live_terminal.py)",
    "cardtable play speed": "live play needs a terminal (tests/test_cli_live_terminal.py)",
}


# Lines whose documented exit status is not 0.
EXIT_STATUS = {"with_errors.txt": 1}  # bad lines are reported and the status says so


@dataclass(frozen=True)
class Block:
    page: str  # the file, relative to the repository: README.md, docs/cli.md
    lang: str
    line: int  # 1-based line of the opening fence
    text: str

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}-{self.lang}"

    @property
    def where(self) -> str:
        return f"{self.page} line {self.line}"


def blocks(page: Path) -> list[Block]:
    out: list[Block] = []
    name = page.relative_to(ROOT).as_posix()
    lines = page.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^```(\w*)\s*$", lines[i])
        if m:
            start = i
            i += 1
            body: list[str] = []
            while i < len(lines) and not lines[i].startswith("```"):
                body.append(lines[i])
                i += 1
            out.append(Block(name, m.group(1), start + 1, "\n".join(body) + "\n"))
        i += 1
    return out


def skipped(text: str) -> str | None:
    for key, why in NOT_RUN.items():
        if key in text:
            return why
    return None


HAND_LINES = "AS 2S 3S KD\n7H 8H 9H\n# a comment\n\nKC KD KH 5S 5D\n"


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory with every file the pages' examples read."""
    d = tmp_path_factory.mktemp("readme")
    shutil.copytree(ROOT / "examples", d / "examples")
    (d / "docs").mkdir()
    for name in ("hands.txt", "a.txt", "b.txt"):
        (d / name).write_text(HAND_LINES, encoding="utf-8")
    (d / "hands").mkdir()
    (d / "hands" / "one.txt").write_text("AS 2S 3S KD\n7H 8H 9H\n", encoding="utf-8")
    (d / "hands" / "two.txt").write_text("KC KD KH 5S 5D\n", encoding="utf-8")
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(
        pa.table({"id": [1, 2], "hand": ["AS 2S 3S KD", "7H 8H 9H"]}), d / "hands.parquet"
    )
    return d


def env() -> dict[str, str]:
    e = dict(os.environ)
    # `cardtable` is the entry point installed beside this interpreter.
    e["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{e.get('PATH', '')}"
    e["NO_COLOR"] = "1"
    e.pop("RAY_ADDRESS", None)
    return e


ALL = [b for page in PAGES for b in blocks(page)]


def test_the_pages_have_the_blocks_this_test_knows() -> None:
    langs = {b.lang for b in ALL}
    assert langs <= {"python", "sh", "json", ""}, langs
    assert sum(b.lang == "python" for b in ALL) >= 8
    readme = [b for b in ALL if b.page == "README.md"]
    assert sum(b.lang == "python" for b in readme) >= 4
    # Every guide is read: a page in docs/ without blocks is fine, a missing one is not.
    assert {"README.md", "docs/python-api.md", "docs/cli.md", "docs/learning.md"} <= {
        b.page for b in ALL
    }


@pytest.mark.parametrize("block", [b for b in ALL if b.lang == "python"], ids=lambda b: b.id)
def test_python_block_runs_as_written(block: Block, scratch: Path) -> None:
    why = skipped(block.text)
    assert why is None, f"a Python block may not be skipped ({why})"
    done = subprocess.run(
        [sys.executable, "-c", block.text],
        cwd=scratch,
        env=env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, f"{block.where}:\n{done.stderr[-3000:]}"


def shell_lines(block: Block) -> list[str]:
    out = []
    for raw in block.text.splitlines():
        line = raw.split("  #", 1)[0].strip()  # a trailing comment
        if line:
            out.append(line)
    return out


@pytest.mark.parametrize("block", [b for b in ALL if b.lang == "sh"], ids=lambda b: b.id)
def test_shell_block_runs_as_written(block: Block, scratch: Path) -> None:
    ran = 0
    for line in shell_lines(block):
        for part in line.split("&&"):
            if skipped(part) is not None:
                continue
            words = shlex.split(part.strip())
            assert words[0] == "cardtable", f"{block.where}: {part!r} is not run"
            # `play` asks at the prompt: quit at once, as a person would.
            stdin = "q\ny\n" if words[1] == "play" else ""
            # Through the shell, for its globs (`hands/*.txt`).
            done = subprocess.run(
                ["bash", "-c", part.strip()],
                cwd=scratch,
                env=env(),
                input=stdin,
                capture_output=True,
                text=True,
                timeout=600,
            )
            want = next((code for key, code in EXIT_STATUS.items() if key in part), 0)
            assert done.returncode == want, (
                f"{block.where}: {part!r} exited {done.returncode}\n{done.stderr[-3000:]}"
            )
            ran += 1
    if ran == 0:
        pytest.skip(f"every line is listed in NOT_RUN: {block.text.strip()!r}")


@pytest.mark.parametrize("block", [b for b in ALL if b.lang == "json"], ids=lambda b: b.id)
def test_json_block_parses(block: Block) -> None:
    json.loads(block.text)
