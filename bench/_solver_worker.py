"""One app's side of the solver benchmark through the API: run as a script inside a source tree.

`python bench/_solver_worker.py` with `PYTHONPATH` at a source tree (this one, or an older
commit's checkout) builds that tree's app on an in-memory SQLite database and answers JSON lines
on stdin, one a batch: `{"bodies": [...], "runs": n}` posts each body to `POST /api/rules/solve`
on the Flask test client `runs` times over and prints `{"ms": [[...], ...], "cpu": [[...], ...],
"legal": [...]}` (each body's wall-clock and CPU times in milliseconds, and whether its answer
says the hand can go down). It imports
nothing from `bench`, so the same file drives a tree that has no such benchmark, and the two
apps run in separate processes that the benchmark feeds in turn (interleaved, so the machine's
load weighs on both alike).
"""

from __future__ import annotations

import gc
import json
import sys
import time


def _app():
    from scorekeeper import create_app

    config = {
        "TESTING": True,
        "SQLALCHEMY_DATABASE_URI": "sqlite://",
        "WTF_CSRF_ENABLED": False,
        "UPGRADE_ON_START": True,
        "SECRET_KEY": "bench",
    }
    return create_app(config)


def _time(client, bodies: list[dict], runs: int) -> dict:
    """Each body's wall-clock and CPU milliseconds (this thread's CPU: what other processes on a
    shared machine take from it is not counted), and whether its answer says it can go down."""
    clock, cpu = time.perf_counter_ns, time.thread_time_ns
    times: list[list[float]] = [[] for _ in bodies]
    cpu_times: list[list[float]] = [[] for _ in bodies]
    legal: list[bool | None] = [None] * len(bodies)
    gc.collect()
    gc.freeze()
    try:
        for _ in range(runs):
            for index, body in enumerate(bodies):
                start, start_cpu = clock(), cpu()
                answer = client.post("/api/rules/solve", json=body)
                cpu_times[index].append((cpu() - start_cpu) / 1e6)
                times[index].append((clock() - start) / 1e6)
                if legal[index] is None:
                    data = answer.get_json()
                    legal[index] = data.get("legal") if answer.status_code == 200 else None
    finally:
        gc.unfreeze()
    return {"ms": times, "cpu": cpu_times, "legal": legal}


def main() -> None:
    # The script's own folder (bench/) must not shadow anything the tree imports.
    sys.path[:] = [entry for entry in sys.path if not entry.endswith("bench")]
    app = _app()
    client = app.test_client()
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        print(json.dumps(_time(client, request["bodies"], request["runs"])), flush=True)


if __name__ == "__main__":
    main()
