"""A PostgreSQL cluster of a test's own, which the test may stop and start again: made with
Debian's `initdb` in a temporary folder, listening only on a socket there (as `.ci/postgres`
makes the run's own cluster, which no test may stop under the others)."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest


def _bindir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


class Cluster:
    """`with Cluster() as cluster`: a running cluster with one database, `cluster.url`;
    `stop()` and `start()` in between, removed at the end. Its folder is one of /tmp's own (the
    postgres user cannot reach into pytest's, which are root's alone)."""

    def __init__(self) -> None:
        bindir = _bindir()
        if bindir is None:
            if os.environ.get("CI") == "true":
                pytest.fail("PostgreSQL is missing: .ci/run must install it")
            pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
        self.bindir = bindir
        self.folder = Path(tempfile.mkdtemp(prefix="scorekeeper-pg-"))
        # PostgreSQL refuses to run as root: the cluster is then the postgres user's.
        self.as_owner = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
        self.url = f"postgresql+psycopg://scorekeeper@/scorekeeper?host={self.folder}"

    def _run(self, tool: str, *args: str) -> None:
        done = subprocess.run(
            [*self.as_owner, str(self.bindir / tool), *args],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, f"{tool} {args}: {done.stdout}{done.stderr}"

    def __enter__(self) -> Cluster:
        if self.as_owner:
            shutil.chown(self.folder, "postgres")
            self.folder.chmod(0o755)
        self._run("initdb", "-D", str(self.folder / "data"), "-U", "scorekeeper", "-A", "trust")
        self.start()
        self._run("createdb", "-h", str(self.folder), "-U", "scorekeeper", "scorekeeper")
        return self

    def start(self) -> None:
        options = f"-c listen_addresses='' -k {self.folder} -c fsync=off"
        log = str(self.folder / "server.log")
        self._run(
            "pg_ctl", "-D", str(self.folder / "data"), "-l", log, "-w", "-o", options, "start"
        )

    def stop(self) -> None:
        """A fast shutdown: every connection is ended, as at a server's restart."""
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "fast", "-w", "stop")

    def __exit__(self, *exc_info) -> None:
        subprocess.run(
            [*self.as_owner, str(self.bindir / "pg_ctl"), "-D", str(self.folder / "data")]
            + ["-m", "immediate", "stop"],
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(self.folder, ignore_errors=True)
