"""Issue 22, "nothing lost, nothing corrupted", for ``simulate``:

- item 5: Ctrl-C stops a run of strong bots within a move (it took some
  30 s and kept no record), keeping every finished game: recorded, counted
  in the report, and replayable;
- item 7: a ``--record`` file that cannot be written (a full disk) prints
  the report first, then the error, exit 3 (it printed no report).
"""

from __future__ import annotations

import _thread
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardtable.cli import main
from cardtable.games import Simulation, SimulationInterrupted, load_game, simulate

CARDTABLE = [sys.executable, "-m", "cardtable"]


def test_an_interrupted_step_keeps_its_finished_games_and_the_run_goes_on() -> None:
    """Issue 22 item 5: Ctrl-C (here ``interrupt_main``) stops a step of
    strong bots at once; the games it finished are counted and recorded,
    the KeyboardInterrupt comes from ``raise_interrupt()``, and a run that
    goes on from there ends exactly as one never interrupted."""
    game = load_game("tonk")
    bots = ["strong", "strong"]
    whole = Simulation(game, bots, 200, 11)
    expected = whole.step(200, record=True)
    run = Simulation(game, bots, 200, 11)
    timer = threading.Timer(0.3, _thread.interrupt_main)
    started = time.monotonic()
    timer.start()
    try:
        records = run.step(200, record=True)
    finally:
        timer.cancel()
    assert time.monotonic() - started < 1.5
    assert run.interrupted
    assert 0 < run.done < 200
    assert records == expected[: run.done]  # every finished game, in order
    with pytest.raises(KeyboardInterrupt):
        run.raise_interrupt()
    assert not run.interrupted
    run.raise_interrupt()  # raised once
    while run.done < run.total:
        records += run.step(50, record=True)
    assert records == expected
    assert run.summary() == whole.summary()


def test_simulate_raises_the_interrupt_with_the_summary_of_the_games_played() -> None:
    game = load_game("tonk")
    kept: list[str] = []
    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(SimulationInterrupted) as caught:
            simulate(game, ["strong", "strong"], 100_000, 5, chunk=1000, on_records=kept.extend)
    finally:
        timer.cancel()
    e = caught.value
    assert isinstance(e, KeyboardInterrupt)
    assert e.played == len(kept) > 0
    assert e.total == 100_000
    assert e.summary["games"] == e.played - e.played % 2  # whole deals
    assert sum(e.summary["endings"].values()) == e.played


def test_ctrl_c_in_simulate_with_strong_bots_exits_at_once_keeping_every_game(
    tmp_path: Path,
) -> None:
    """Issue 22 item 5, as a person runs it: SIGINT once the first records
    are written; the command exits 130 within a couple of seconds, its
    report counts the games played, and the record file holds each of them,
    valid (``cardtable replay``)."""
    record = tmp_path / "games.jsonl"
    # 100,000 games go in chunks of 1,000: the signal comes in a chunk.
    command = [*CARDTABLE, "simulate", "tonk", "--games", "100000", "--bots", "strong,strong"]
    process = subprocess.Popen(
        [*command, "--seed", "3", "--record", str(record)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while not (record.exists() and record.stat().st_size > 0):
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "no record written in two minutes"
            time.sleep(0.05)
        time.sleep(0.3)
        sent = time.monotonic()
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
        took = time.monotonic() - sent
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 130, err
    assert took < 2.0, f"{took:.1f} s from SIGINT to exit"
    found = re.search(r"interrupted after ([\d,]+) of 100,000 games", out)
    assert found is not None, out
    played = int(found.group(1).replace(",", ""))
    lines = record.read_text().splitlines()
    assert len(lines) == played > 1000  # the chunk in play was kept too
    assert all(json.loads(line)["game"] == "tonk" for line in lines)
    replayed = subprocess.run(
        [*CARDTABLE, "replay", str(record)], capture_output=True, text=True, timeout=120
    )
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert f"{played} records, all valid" in replayed.stdout


def test_an_interrupted_json_report_says_how_many_games_were_played(tmp_path: Path) -> None:
    record = tmp_path / "games.jsonl"
    process = subprocess.Popen(
        [
            *CARDTABLE,
            "simulate",
            "tonk",
            "--games",
            "100000",
            "--bots",
            "strong,strong",
            "--seed",
            "4",
            "--format",
            "json",
            "--record",
            str(record),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        while not (record.exists() and record.stat().st_size > 0):
            assert process.poll() is None, process.communicate()
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 130
    report = json.loads(out)
    played = report["interrupted"]["played"]
    assert report["interrupted"]["total"] == 100_000
    assert played == len(record.read_text().splitlines())
    assert report["games"] == played - played % 2


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_record_file_on_a_full_disk_is_status_3_after_the_report(fmt: str) -> None:
    """Issue 22 item 7: ``--record /dev/full`` prints the whole report on
    stdout, then the error on stderr, exit 3."""
    result = CliRunner().invoke(
        main,
        [
            "simulate",
            "tonk",
            "--bots",
            "greedy,random",
            "--games",
            "400",
            "--seed",
            "2",
            "--format",
            fmt,
            "--record",
            "/dev/full",
        ],
    )
    assert result.exit_code == 3, result.output
    assert "cannot write '/dev/full': No space left on device" in result.stderr
    if fmt == "json":
        assert json.loads(result.stdout)["games"] == 400
    else:
        assert result.stdout.startswith("Tonk simulation: 400 games")
        assert "how hands ended:" in result.stdout


@pytest.mark.parametrize(
    ("games", "bots"),
    [
        ("99999999999999999999", "greedy,random"),  # past 2**64 - 1
        ("18446744073709551615", "greedy,random"),  # 2**64 - 1: two rotations pass it
        ("18446744073709551615", "greedy,random,random,random"),
        ("0", "greedy,random"),
        ("-3", "greedy,random"),
    ],
)
def test_issue38_item4_a_games_count_no_run_can_count_is_one_line_and_status_2(
    games: str, bots: str
) -> None:
    """Never a traceback, nor a count that wraps round to an empty run."""
    result = CliRunner().invoke(main, ["simulate", "tonk", "--games", games, "--bots", bots])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, result.stderr
    assert "--games" in errors[0]


def test_issue38_item4_the_largest_games_count_runs_and_ctrl_c_stops_it_within_a_second(
    tmp_path: Path,
) -> None:
    """2**64 - 1 games of three bots are whole rotations: the run starts, and
    SIGINT stops it within a second, whatever the count (the chunks stay
    small), with the games played reported."""
    record = tmp_path / "games.jsonl"
    process = subprocess.Popen(
        [
            *CARDTABLE,
            "simulate",
            "tonk",
            "--games",
            str(2**64 - 1),
            "--bots",
            "greedy,random,random",
            "--seed",
            "5",
            "--record",
            str(record),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not (record.exists() and record.stat().st_size > 0):
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "no record written in a minute"
            time.sleep(0.05)
        time.sleep(0.5)
        sent = time.monotonic()
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
        took = time.monotonic() - sent
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 130, err
    assert took < 1.0, f"{took:.2f} s from SIGINT to exit"
    assert f"of {2**64 - 1:,} games" in out, out
