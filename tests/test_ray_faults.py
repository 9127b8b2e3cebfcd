"""A Ray worker killed mid-run must not reach stdout: ``cardtable simulate``
and ``cardtable score`` with ``--ray``, run as commands against a two-node
cluster of this machine (``ray start``, one CPU a node), write exactly the
bytes of the local run, with a worker killed from outside while it runs one
of their tasks and without. Ray's driver prints what the raylets tell it (a
worker died, the task will be retried) to stdout unless
``cardtable.distributed.connect`` routes it to stderr.

The cluster is the module's: started once, stopped (its two ``ray start
--block`` processes, by their ids, then what is left of their process
groups and of its temp dir) however the tests end. Linux only (``/proc``).
"""

from __future__ import annotations

import contextlib
import os
import random
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

ray = pytest.importorskip("ray")

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")

#: Seconds for the cluster to start, and for one command to run.
START_TIMEOUT = 90
RUN_TIMEOUT = 120

#: The cardtable command, with the bytes of a scoring task's chunk of input
#: (small, so that the input of a test makes several tasks) as argv[1].
COMMAND = (
    "import sys\n"
    "from cardtable import distributed\n"
    "distributed.CHUNK_BYTES = int(sys.argv[1])\n"
    "from cardtable.cli import main\n"
    "main(sys.argv[2:], prog_name='cardtable')\n"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Cluster(NamedTuple):
    address: str
    nodes: list[subprocess.Popen[bytes]]
    root: Path


#: The cluster's token: Ray listens on every interface, and would take the
#: user's token (~/.ray/auth_token) for the head but not for the other node.
TOKEN = secrets.token_hex(32)


def ray_env(address: str | None = None) -> dict[str, str]:
    """The environment of every process here: no RAY_ variable but these."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env.update(RAY_USAGE_STATS_ENABLED="0", RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=TOKEN)
    if address is not None:
        env["RAY_ADDRESS"] = address
    return env


def start_node(root: Path, name: str, args: list[str]) -> subprocess.Popen[bytes]:
    """``ray start --block`` in its own process group, its output to a file;
    returns once the node is up."""
    log = root / f"{name}.log"
    with open(log, "wb") as f:
        node = subprocess.Popen(
            [
                str(Path(sys.executable).parent / "ray"),
                "start",
                "--block",
                "--node-ip-address=127.0.0.1",
                "--num-cpus=1",
                f"--temp-dir={root / name}",
                f"--object-store-memory={128 << 20}",
                f"--dashboard-agent-listen-port={free_port()}",
                "--disable-usage-stats",
                *args,
            ],
            stdin=subprocess.DEVNULL,
            stdout=f,
            stderr=subprocess.STDOUT,
            env=ray_env(),
            start_new_session=True,
        )
    deadline = time.monotonic() + START_TIMEOUT
    while b"Ray runtime started" not in log.read_bytes():
        if node.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"ray start of the {name} node failed:\n{log.read_text()}")
        time.sleep(0.2)
    return node


def stop(cluster: Cluster) -> None:
    """Stops the nodes started here, and only those (not ``ray stop``, which
    would stop every Ray of the machine)."""
    for node in reversed(cluster.nodes):
        if node.poll() is None:
            node.send_signal(signal.SIGTERM)
    for node in cluster.nodes:
        with contextlib.suppress(subprocess.TimeoutExpired):
            node.wait(timeout=30)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(node.pid, signal.SIGKILL)
        if node.poll() is None:
            node.wait(timeout=10)
    # Anything of this cluster that left the nodes' groups names its temp dir.
    for pid, _, cmdline in processes():
        if str(cluster.root) in cmdline:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    # Short: Ray's socket paths under it must fit in sun_path.
    root = Path(tempfile.mkdtemp(prefix="ct-ray-", dir="/tmp"))
    port = free_port()
    address = f"127.0.0.1:{port}"
    started = Cluster(address, [], root)
    try:
        started.nodes.append(
            start_node(
                root,
                "head",
                [
                    "--head",
                    f"--port={port}",
                    "--include-dashboard=false",
                    f"--dashboard-port={free_port()}",
                ],
            )
        )
        started.nodes.append(start_node(root, "worker", [f"--address={address}"]))
        yield started
    finally:
        stop(started)
        shutil.rmtree(root, ignore_errors=True)


def processes() -> Iterator[tuple[int, int, str]]:
    """``(pid, parent pid, command line)`` of every process still there."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        # The name in parentheses may hold spaces: the parent pid follows it.
        parent = int(stat[stat.rindex(")") + 2 :].split()[1])
        yield int(entry), parent, cmdline.replace(b"\0", b" ").decode(errors="replace")


class Killer(threading.Thread):
    """Watches the cluster's workers while a command runs; kills (SIGKILL)
    the first that runs ``task`` if ``kill``, and notes the nodes (their
    ``ray start`` process) whose workers ran it. A worker's command line is
    ``ray::TASK`` while it runs one; the workers are looked for every 0.1 s,
    their command lines every 2 ms (a task of this module's takes 0.1 s or more)."""

    def __init__(self, cluster: Cluster, task: str, kill: bool) -> None:
        super().__init__(daemon=True)
        self.nodes = {node.pid for node in cluster.nodes}
        self.title = f"ray::{task}".encode()
        self.kill = kill
        self.killed: int | None = None
        self.ran_on: set[int] = set()
        self.done = threading.Event()

    def workers(self) -> dict[int, int]:
        """The cluster's worker processes and their nodes: a worker's parent
        is its node's raylet, whose parent is the node."""
        parents = {pid: parent for pid, parent, _ in processes()}
        return {
            pid: node
            for pid, parent in parents.items()
            if (node := parents.get(parent, 0)) in self.nodes
        }

    def run(self) -> None:
        workers: dict[int, int] = {}
        scanned = 0.0
        while not self.done.is_set():
            if time.monotonic() - scanned > 0.1:
                workers = self.workers()
                scanned = time.monotonic()
            for pid, node in workers.items():
                try:
                    running = Path(f"/proc/{pid}/cmdline").read_bytes().startswith(self.title)
                except OSError:
                    continue
                if not running:
                    continue
                self.ran_on.add(node)
                if self.kill and self.killed is None:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                        self.killed = pid
            time.sleep(0.002)


class Run(NamedTuple):
    status: int
    stdout: bytes
    stderr: str


def cardtable(
    args: list[str],
    env: dict[str, str],
    stdin: bytes = b"",
    chunk_bytes: int = 4 << 20,
) -> Run:
    done = subprocess.run(
        [sys.executable, "-c", COMMAND, str(chunk_bytes), *args],
        input=stdin,
        capture_output=True,
        env=env,
        timeout=RUN_TIMEOUT,
        check=False,
    )
    return Run(done.returncode, done.stdout, done.stderr.decode(errors="replace"))


def on_ray(
    cluster: Cluster, task: str, kill: bool, args: list[str], **options: Any
) -> tuple[Run, Killer]:
    """The command on the cluster (``RAY_ADDRESS`` set too, for a bare
    ``--ray``), watched by a Killer of ``task``."""
    killer = Killer(cluster, task, kill)
    killer.start()
    try:
        run = cardtable(args, ray_env(cluster.address), **options)
    finally:
        killer.done.set()
        killer.join(timeout=10)
    return run, killer


def assert_killed_and_retried(run: Run, killer: Killer) -> None:
    assert killer.killed is not None, "no worker ran the task long enough to be killed"
    # The raylet's messages were printed, on stderr.
    assert "A worker died or was killed" in run.stderr, run.stderr
    assert "will be retried" in run.stderr, run.stderr


def test_connect_routes_ray_printing_to_stderr(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The route of the raylets' messages (the driver's error thread, which
    runs whatever log_to_driver says), without a cluster."""
    import ray._private.worker as ray_worker

    from cardtable import distributed

    # Restored after the test: the hook is the whole process's.
    monkeypatch.setattr(ray_worker, "print_to_stdstream", ray_worker.print_to_stdstream)
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", lambda **options: None)
    distributed.connect()
    distributed.connect()  # hooked once, not twice
    line = f"A worker died (test {time.time_ns()})"  # new to Ray's counting of repeats
    error = {"lines": [line], "pid": "raylet", "is_err": False}
    ray_worker.print_to_stdstream(error, ignore_prefix=False)
    out, err = capsys.readouterr()
    assert out == ""
    assert "(raylet)" in err
    assert err.count(line) == 1


SIMULATE = [
    "simulate",
    "tonk",
    "--games",
    "800",
    "--bots",
    "strong,greedy",
    "--seed",
    "7",
    "--format",
    "json",
    "--no-progress",
]


def test_simulate_on_a_faulty_cluster_writes_only_the_report(cluster: Cluster) -> None:
    local = cardtable(SIMULATE, ray_env())
    assert local.status == 0, local.stderr
    assert local.stdout.startswith(b'{"game": "tonk"')
    remote = [*SIMULATE, f"--ray={cluster.address}", "--shards", "6"]
    run, killer = on_ray(cluster, "_play_shard", True, remote)
    assert run.status == 0, run.stderr
    assert_killed_and_retried(run, killer)
    assert run.stdout == local.stdout
    run, calm = on_ray(cluster, "_play_shard", False, remote)
    assert run.status == 0, run.stderr
    assert run.stdout == local.stdout
    # The shards were spread: both nodes ran some (of either run).
    assert killer.ran_on | calm.ran_on == killer.nodes


def hands(n: int, seed: int) -> bytes:
    """``n`` lines of 16-card hands of four or five ranks (many melds to weigh:
    slow to solve, for hands), some bad lines and comments among them."""
    rng = random.Random(seed)
    ranks = "A23456789TJQK"
    lines = []
    for k in range(n):
        if k % 5000 == 7:
            lines.append(b"XX 2S\r\n" if k % 10000 == 7 else b"# a comment\n")
            continue
        width = rng.choice((4, 5))
        low = rng.randrange(len(ranks) - width + 1)
        cards = [rank + suit for rank in ranks[low : low + width] for suit in "SHDC"]
        lines.append(" ".join(rng.sample(cards, 16)).encode() + b"\n")
    return b"".join(lines)


def test_score_on_a_faulty_cluster_writes_only_the_records(cluster: Cluster) -> None:
    data = hands(100_000, 11)
    for fmt in ("jsonl", "text"):
        args = ["score", "--format", fmt, "--no-progress", "-"]
        local = cardtable(args, ray_env(), stdin=data)
        assert local.status == 1, local.stderr  # the bad lines
        # About six chunks, two tasks out per CPU: a bare --ray finds the
        # cluster through RAY_ADDRESS.
        chunk = len(data) // 6 + 1  # 0.1 s or more of solving
        run, killer = on_ray(
            cluster, "_score_chunk", fmt == "jsonl", [*args, "--ray"], stdin=data, chunk_bytes=chunk
        )
        assert run.status == local.status, run.stderr
        if fmt == "jsonl":
            assert_killed_and_retried(run, killer)
        assert run.stdout == local.stdout, fmt
        assert local.stderr in run.stderr
