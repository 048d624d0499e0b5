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


def axe_violations(page, source: str, skip: tuple[str, ...] = ()) -> list[str]:
    """Every violation axe.run finds with its defaults (best practices included), one line each;
    `skip` names rules left out. The engine goes in through the DevTools protocol, which the
    page's CSP does not govern."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(source)
    options = {"rules": {rule: {"enabled": False} for rule in skip}}
    return page.evaluate(
        """async (options) => (await axe.run(document, options)).violations.map(v =>
            `${v.id} (${v.impact}): ${v.nodes.map(n => n.target.join(' ')).join(', ')}`)""",
        options,
    )


def make_game(page, names, rounds, profile):
    """A game made through the JSON API with `rounds` rounds recorded: (id, edit key)."""
    created = page.request.post(
        "/api/games", data={"players": names, "profile": profile, "first_dealer": names[0]}
    )
    assert created.status == 201
    game = created.json()
    for number in range(rounds):
        out = names[number % len(names)]
        leftovers = {name: "K 7" for name in names if name != out}
        recorded = page.request.post(
            f"/api/games/{game['id']}/rounds",
            data={"cut_exact": number == 0, "out": out, "leftovers": leftovers},
            headers={"X-Game-Key": game["key"]},
        )
        assert recorded.status == 201
    return game["id"], game["key"]
