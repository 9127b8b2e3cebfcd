"""Score a directory of hand files with Ray Data and cardtable's batch API.

    python examples/ray_data_score.py HANDS_DIR [RAY_ADDRESS]

Each line of each file is one hand (``ray.data.read_text`` drops blank
lines); every block of lines is scored in one call of
``cardtable.min_deadwood_many`` on a Ray worker, bad hands included (their
``error`` says why, their ``deadwood`` is -1).
"""

import sys
from pathlib import Path

import numpy as np
import ray

import cardtable as ct


def score_batch(batch: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    hands = [str(h) for h in batch["text"]]
    result = ct.min_deadwood_many(hands, game="gin", errors="collect", threads=1)
    return {
        "path": batch["path"],
        "hand": np.array(hands, dtype=object),
        "deadwood": np.array([-1 if d is None else d for d in result.deadwoods]),
        "error": np.array([result.errors.get(i, "") for i in range(len(hands))], dtype=object),
    }


def score_directory(path: str) -> ray.data.Dataset:
    # The tasks of a running cluster do not share the driver's directory.
    hands = ray.data.read_text(str(Path(path).resolve()), include_paths=True)
    return hands.map_batches(score_batch, batch_format="numpy", batch_size=4096)


if __name__ == "__main__":
    ray.init(address=sys.argv[2] if len(sys.argv) > 2 else None)
    for row in score_directory(sys.argv[1]).iter_rows():
        print(row["path"], row["hand"], row["deadwood"], row["error"])
