"""The suite's own split over test processes (`make test`, pytest-xdist `--dist loadgroup`):
the tests of one `xdist_group` (a module's shared servers, the built wheel) run in one process,
so what they share is made once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

GROUPED = """
import os

import pytest

pytestmark = pytest.mark.xdist_group("shared")


@pytest.mark.parametrize("n", range(6))
def test_noted(n):
    with open(os.path.join(os.environ["NOTED"], f"{__name__}-{n}"), "w") as noted:
        noted.write(str(os.getpid()))
"""

APART = """
import pytest


@pytest.mark.parametrize("n", range(12))
def test_apart(n):
    pass
"""


def test_a_groups_tests_run_in_one_process(tmp_path):
    """Two modules of one group among ungrouped tests, on three processes: every grouped test
    notes the same process."""
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "test_first.py").write_text(GROUPED)
    (suite / "test_second.py").write_text(GROUPED)
    (suite / "test_apart.py").write_text(APART)
    ran = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "3", "--dist", "loadgroup", "-q"]
        + ["-p", "no:cacheprovider", str(suite)],
        cwd=suite,
        # Not this run's own worker's settings (`PYTEST_XDIST_WORKER`, ...).
        env={
            **{k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")},
            "NOTED": str(tmp_path),
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    noted = {path.name: path.read_text() for path in Path(tmp_path).glob("test_*-*")}
    assert len(noted) == 12, sorted(noted)
    assert len(set(noted.values())) == 1, noted
