"""The referee's answers in every shipped language cite the same rules as in English, for every
question the project's own referee API tests ask: the verdict, its rule, its point and its code
are the same; only the words change, and they change wherever English would be read."""

from __future__ import annotations

import inspect
import itertools

import pytest

from tests.referee import test_api_house_rules, test_api_rules
from tests.web.test_catalogs import SHIPPED

# What an answer says in words; everything else is the same in every language.
WORDS = {"reason", "error", "summary", "reasons", "problems", "said", "text", "hint"}


class Recorder:
    """A test client that notes every question put to the referee's API (path and body)."""

    def __init__(self, client):
        self.client = client
        self.asked: list[tuple[str, object]] = []

    def post(self, path, *args, json=None, **kwargs):
        if path.startswith("/api/rules/") and json is not None:
            self.asked.append((path, json))
        return self.client.post(path, *args, json=json, **kwargs)

    def __getattr__(self, name):
        return getattr(self.client, name)


def _calls(function):
    """Every set of arguments a test function runs with: its parametrize marks expanded."""
    marks = [m for m in getattr(function, "pytestmark", []) if m.name == "parametrize"]
    grids = []
    for mark in marks:
        names = mark.args[0]
        names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
        rows = [getattr(value, "values", value) for value in mark.args[1]]
        rows = [row if len(names) > 1 else (row,) for row in rows]
        grids.append([dict(zip(names, row, strict=True)) for row in rows])
    for combination in itertools.product(*grids):
        yield {key: value for part in combination for key, value in part.items()}


def asked_questions(client) -> list[tuple[str, object]]:
    """Every question the referee API tests ask, in the order they ask them."""
    recorder = Recorder(client)
    for module in (test_api_rules, test_api_house_rules):
        for name, function in inspect.getmembers(module, inspect.isfunction):
            if not name.startswith("test_"):
                continue
            wanted = set(inspect.signature(function).parameters)
            for arguments in _calls(function):
                if wanted == {"client", *arguments}:
                    function(recorder, **arguments)
    return recorder.asked


def _same_in_every_language(answer) -> object:
    if isinstance(answer, dict):
        return {k: _same_in_every_language(v) for k, v in answer.items() if k not in WORDS}
    if isinstance(answer, list):
        return [_same_in_every_language(item) for item in answer]
    return answer


def _reasons(answer) -> list[str]:
    if isinstance(answer, dict):
        found = [v for k, v in answer.items() if k in ("reason", "error") and isinstance(v, str)]
        return found + [r for v in answer.values() for r in _reasons(v)]
    if isinstance(answer, list):
        return [r for item in answer for r in _reasons(item)]
    return []


@pytest.mark.parametrize("code", SHIPPED)
def test_the_referee_cites_the_same_rules_in_every_language(client, code):
    questions = asked_questions(client)
    assert len(questions) > 60
    tag = code.replace("_", "-")
    unchanged = []
    for path, body in questions:
        english = client.post(path, json=body, headers={"Accept-Language": "en"})
        spoken = client.post(path, json=body, headers={"Accept-Language": tag})
        assert spoken.status_code == english.status_code, (path, body)
        said, meant = spoken.get_json(), english.get_json()
        assert _same_in_every_language(said) == _same_in_every_language(meant), (path, body)
        for theirs, ours in zip(_reasons(said), _reasons(meant), strict=True):
            if len(ours.split()) >= 3 and theirs == ours:
                unchanged.append(f"{path} {body}: {ours}")
    print("\n".join(unchanged))
    assert unchanged == []
