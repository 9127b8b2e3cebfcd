"""pytest-benchmark benches of the lockstep run mode (RT-9 (c)) from Python.

Group ``lockstep-step``, for Spit and Speed: learning code at both seats,
one tick = ``Session.step(joint_actions, dt=100)``. The joint actions are a
script recorded up front (each seat's first legal action when it has one,
else nothing), so the bench times the engine's tick and the call into Rust,
not a Python policy; replaying the script from the same seed gives the same
games. The baseline is one bare PyO3 call per tick (``Session.now``), so the
ratio shows what a tick costs beyond crossing into Rust (target: 200,000
ticks per second).
"""

from __future__ import annotations

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from cardtable.games import Session, load_game

TICKS = 20_000
DT_MS = 100
SEEDS = range(1_000)

Script = list[tuple[int, list[list[tuple[int, int]]]]]


def _script(name: str, ticks: int) -> Script:
    """(seed, joint actions per tick) for games in a row until `ticks` ticks."""
    game = load_game(name)
    out: Script = []
    left = ticks
    for seed in SEEDS:
        session = Session(game, [None, None], seed)
        joint: list[list[tuple[int, int]]] = []
        while left > 0 and not session.is_over():
            actions = []
            for seat in (0, 1):
                legal = session.legal_actions(seat)
                if legal:
                    actions.append((seat, legal[0]))
            session.step(actions, dt=DT_MS)
            joint.append(actions)
            left -= 1
        out.append((seed, joint))
        if left == 0:
            break
    return out


def _drive(name: str, script: Script) -> int:
    game = load_game(name)
    ticks = 0
    for seed, joint in script:
        session = Session(game, [None, None], seed)
        step = session.step
        for actions in joint:
            step(actions, DT_MS)
        ticks += len(joint)
    return ticks


def _bare_calls(name: str, script: Script) -> int:
    game = load_game(name)
    ticks = 0
    for seed, joint in script:
        session = Session(game, [None, None], seed)
        for _ in joint:
            _ = session.now
        ticks += len(joint)
    return ticks


@pytest.fixture(scope="module", params=["spit", "speed"])
def scripted(request: pytest.FixtureRequest) -> tuple[str, Script, int]:
    name: str = request.param
    enabled = not request.config.getoption("benchmark_disable") or request.config.getoption(
        "benchmark_enable"
    )
    script = _script(name, TICKS if enabled else 500)
    return name, script, sum(len(j) for _, j in script)


@pytest.mark.benchmark(group="lockstep-step")
def test_lockstep_step_from_python(
    benchmark: BenchmarkFixture, scripted: tuple[str, Script, int]
) -> None:
    name, script, ticks = scripted
    benchmark.group = f"lockstep-step-{name}"
    benchmark.extra_info["ticks_per_round"] = ticks
    assert benchmark(_drive, name, script) == ticks


@pytest.mark.benchmark(group="lockstep-step")
def test_lockstep_step_bare_pyo3_call_baseline(
    benchmark: BenchmarkFixture, scripted: tuple[str, Script, int]
) -> None:
    name, script, ticks = scripted
    benchmark.group = f"lockstep-step-{name}"
    benchmark.extra_info["ticks_per_round"] = ticks
    assert benchmark(_bare_calls, name, script) == ticks


def test_the_script_replays_the_same_games() -> None:
    # The bench's premise: the same seed and the same joint actions give the
    # same game, so a recorded script drives real play (RT-11).
    name = "speed"
    game = load_game(name)
    script = _script(name, 400)
    for seed, joint in script[:2]:
        a = Session(game, [None, None], seed)
        b = Session(game, [None, None], seed)
        for actions in joint:
            assert a.step(actions, DT_MS) == b.step(actions, DT_MS)
        assert a.event_hash() == b.event_hash()
        assert a.log(), "the script plays cards"
