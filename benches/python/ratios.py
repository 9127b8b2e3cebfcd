"""Speed-ups from a pytest-benchmark JSON file.

Usage::

    pytest benches/python --benchmark-enable --benchmark-json=/tmp/bench.json
    python benches/python/ratios.py /tmp/bench.json

For each group, prints every bench's mean time per round, its time per item
and throughput (from ``extra_info``: ``hands_per_round``, ``lines_per_round``,
``decks_per_round``, ...) and its speed-up against the group's baseline: the
bench whose name contains ``openspiel``, ``numpy`` or ``baseline`` (speed-up = baseline time
/ bench time, per item when both count the same items, so above 1 is faster than the
baseline).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BASELINE_MARKERS = ("openspiel", "numpy", "baseline")
PER_ROUND_SUFFIX = "_per_round"


@dataclass(frozen=True)
class Bench:
    group: str
    name: str
    mean: float
    stddev: float
    rounds: int
    extra_info: dict[str, Any] = field(default_factory=dict)

    @property
    def is_baseline(self) -> bool:
        return any(marker in self.name.lower() for marker in BASELINE_MARKERS)

    @property
    def items(self) -> tuple[str, int] | None:
        """(unit, count) of what one round processes, e.g. ("hands", 20000)."""
        for key, value in sorted(self.extra_info.items()):
            if key.endswith(PER_ROUND_SUFFIX) and isinstance(value, int) and value > 0:
                return key.removesuffix(PER_ROUND_SUFFIX), value
        return None


def load(path: Path) -> list[Bench]:
    data = json.loads(path.read_text(encoding="utf-8"))
    benches: list[Bench] = []
    for entry in data.get("benchmarks", []):
        stats = entry["stats"]
        benches.append(
            Bench(
                group=entry.get("group") or "(no group)",
                name=entry["name"],
                mean=float(stats["mean"]),
                stddev=float(stats["stddev"]),
                rounds=int(stats["rounds"]),
                extra_info=dict(entry.get("extra_info") or {}),
            )
        )
    return benches


def seconds(value: float) -> str:
    """A duration with a readable unit: '12.3 ms', '4.56 us'."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if value >= scale:
            return f"{value / scale:.3g} {unit}"
    return f"{value / 1e-9:.3g} ns"


def rate(value: float) -> str:
    for suffix, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if value >= scale:
            return f"{value / scale:.3g}{suffix}"
    return f"{value:.3g}"


def speed_up(baseline: Bench, bench: Bench) -> float:
    """Baseline time over bench time, per item when both count the same
    items (their rounds may hold different numbers of them)."""
    a, b = baseline.items, bench.items
    if a is not None and b is not None and a[0] == b[0]:
        return (baseline.mean / a[1]) / (bench.mean / b[1])
    return baseline.mean / bench.mean


def group_report(group: str, benches: list[Bench]) -> list[str]:
    baseline = next((b for b in benches if b.is_baseline), None)
    ordered = sorted(benches, key=lambda b: (not b.is_baseline, b.mean))
    width = max(len(b.name) for b in ordered) + len(" (baseline)")
    lines = [group]
    header = f"  {'bench':<{width}}  {'mean':>10}  {'per item':>14}  {'throughput':>16}  speed-up"
    lines.append(header)
    for b in ordered:
        label = b.name + (" (baseline)" if b is baseline else "")
        per_item = throughput = ""
        items = b.items
        if items is not None:
            unit, count = items
            per_item = f"{seconds(b.mean / count)}/{unit.rstrip('s')}"
            throughput = f"{rate(count / b.mean)} {unit}/s"
        ratio = f"{speed_up(baseline, b):.2f}x" if baseline is not None else "-"
        lines.append(
            f"  {label:<{width}}  {seconds(b.mean):>10}  {per_item:>14}  {throughput:>16}  {ratio}"
        )
    return lines


def report(benches: list[Bench]) -> str:
    groups: dict[str, list[Bench]] = {}
    for b in benches:
        groups.setdefault(b.group, []).append(b)
    out: list[str] = []
    for group in sorted(groups):
        out.extend(group_report(group, groups[group]))
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("json_file", type=Path, help="output of pytest --benchmark-json")
    args = parser.parse_args(argv)
    benches = load(args.json_file)
    if not benches:
        print(f"{args.json_file}: no benchmarks (was the run made with --benchmark-disable?)")
        return 1
    sys.stdout.write(report(benches))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
