"""Run every benchmark module in bench/ (or the ones named) and print their tables in Markdown."""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import platform
import sys
import time

import bench


def machine() -> str:
    """`nproc`, the CPU model and the Python version: the line every results table starts with."""
    model = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"nproc {cpus}, {model}, Python {platform.python_version()}"


def modules() -> list[str]:
    """Every benchmark module: a public module of this package with a `main`."""
    found = []
    for info in pkgutil.iter_modules(bench.__path__):
        if info.name.startswith("_"):
            continue
        found.append(info.name)
    return sorted(found)


def table(rows: list[dict]) -> str:
    if not rows:
        return "(no rows)"
    columns = list(rows[0])
    for row in rows[1:]:
        columns += [key for key in row if key not in columns]
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for row in rows:
        lines.append("| " + " | ".join(str(row.get(key, "")) for key in columns) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("names", nargs="*", help="benchmark modules to run (default: all)")
    parser.add_argument("--quick", action="store_true", help="fewer hands and runs (a smoke test)")
    args = parser.parse_args(argv)
    available = modules()
    names = args.names or available
    unknown = [name for name in names if name not in available]
    if unknown:
        parser.error(f"no benchmark named {', '.join(unknown)}; there are: {', '.join(available)}")
    print(f"Machine: {machine()}\n")
    for name in names:
        module = importlib.import_module(f"bench.{name}")
        if not hasattr(module, "main"):
            continue
        started = time.perf_counter()
        rows = module.main(quick=args.quick)
        title = getattr(module, "TITLE", name)
        print(f"## {title}\n")
        print(table(rows))
        print(f"\n({name}: {time.perf_counter() - started:.1f} s)\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
