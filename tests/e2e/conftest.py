"""Fixtures for the pages a person sees, shared by every browser test."""

import os
from pathlib import Path

import pytest


@pytest.fixture
def watched(page):
    """The page, failing the test on any script error or CSP violation."""
    problems = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda msg: msg.type == "error" and problems.append(msg.text))
    yield page
    assert problems == []


AXE = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe-core from npm (`make test` installs it under tests/); missing: fail in CI, else skip."""
    if not AXE.exists():
        if os.environ.get("CI") == "true":
            pytest.fail("axe-core is missing: `make test` installs it with npm ci --prefix tests")
        pytest.skip(
            "axe-core is not installed (npm ci --prefix tests) - accessibility tests skipped"
        )
    return AXE.read_text()
