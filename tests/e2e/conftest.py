"""Fixtures for the pages a person sees, shared by every browser test."""

import pytest


@pytest.fixture
def watched(page):
    """The page, failing the test on any script error or CSP violation."""
    problems = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda msg: msg.type == "error" and problems.append(msg.text))
    yield page
    assert problems == []
