"""Timing `POST /api/rules/solve` in one or more source trees at once, interleaved.

Each tree's app runs in its own process (`_solver_worker.py` with `PYTHONPATH` at the tree), so
this tree's benchmark can time an older commit's checkout beside today's code without mixing
their packages. The hands go out in batches, each run of a batch to every tree in turn and the
order reversed every time, so a burst of load from other jobs on a shared machine weighs on every
tree alike. Each hand's figure is the median of its runs.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
THIS_TREE = HERE.parent
BATCH = 250


class Worker:
    """One tree's app, answering batches of solve requests in a subprocess."""

    def __init__(self, tree: Path):
        self.tree = Path(tree)
        env = {**os.environ, "PYTHONPATH": str(self.tree)}
        env.pop("DATABASE_URL", None)
        self.process = subprocess.Popen(
            [sys.executable, str(HERE / "_solver_worker.py")],
            cwd=self.tree,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        ready = self.process.stdout.readline()
        if not ready:
            raise RuntimeError(f"the app of {self.tree} did not start")

    def time(self, bodies: list[dict], runs: int) -> dict:
        self.process.stdin.write(json.dumps({"bodies": bodies, "runs": runs}) + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=30)


def time_side_by_side(workers: dict[str, Worker], bodies: list[dict], runs: int) -> dict:
    """{tree label: {"ms": per-hand median wall ms, "cpu": per-hand median CPU ms, "worst":
    slowest call, "legal": [...]}}.

    Batch by batch, each run of the batch goes to every tree in turn (the order reversed each
    time), so a hand's runs are spread over time and a burst of load lands on every tree alike.
    """
    out = {label: {"ms": [], "cpu": [], "worst": 0.0, "legal": []} for label in workers}
    order = list(workers)
    for start in range(0, len(bodies), BATCH):
        batch = bodies[start : start + BATCH]
        wall = {label: [[] for _ in batch] for label in workers}
        cpu = {label: [[] for _ in batch] for label in workers}
        legal: dict[str, list] = {}
        for _ in range(runs):
            for label in order:
                answer = workers[label].time(batch, 1)
                for hand, (ms,) in zip(wall[label], answer["ms"], strict=True):
                    hand.append(ms)
                for hand, (ms,) in zip(cpu[label], answer["cpu"], strict=True):
                    hand.append(ms)
                legal.setdefault(label, answer["legal"])
            order.reverse()
        for label in workers:
            out[label]["ms"] += [statistics.median(hand) for hand in wall[label]]
            out[label]["cpu"] += [statistics.median(hand) for hand in cpu[label]]
            out[label]["worst"] = max(out[label]["worst"], *(max(hand) for hand in wall[label]))
            out[label]["legal"] += legal[label]
    return out


def open_workers(trees: dict[str, Path]) -> dict[str, Worker]:
    return {label: Worker(tree) for label, tree in trees.items()}


def close_workers(workers: dict[str, Worker]) -> None:
    for worker in workers.values():
        worker.close()
