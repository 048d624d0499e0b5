"""The tests test the engine they say: one copy of their settings, and every app on it."""

from __future__ import annotations

import ast
from pathlib import Path

from sqlalchemy import make_url

from scorekeeper import create_app
from tests.support.config import ENGINE, TEST_CONFIG

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "tests").rglob("*.py")) + sorted((ROOT / "bench").rglob("*.py"))
SOURCES = [path for path in SOURCES if "node_modules" not in path.parts]


def top_level_names(path: Path) -> tuple[set[str], set[str]]:
    """(modules it imports, names it assigns at the top level)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
    assigned = {
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    return imported, assigned


def test_nothing_imports_a_conftest():
    """pytest imports tests/conftest.py as `conftest`: imported again as `tests.conftest` it
    would be a second module with a second copy of the settings."""
    importers = [
        str(path.relative_to(ROOT))
        for path in SOURCES
        if top_level_names(path)[0] & {"conftest", "tests.conftest", "tests.e2e.conftest"}
    ]
    assert importers == []


def test_the_players_and_the_settings_are_defined_once():
    owners = {"NAMES": "tests/support/names.py", "TEST_CONFIG": "tests/support/config.py"}
    for name, owner in owners.items():
        defined = [
            str(path.relative_to(ROOT)) for path in SOURCES if name in top_level_names(path)[1]
        ]
        assert defined == [owner], name


def test_an_app_made_from_the_test_settings_is_on_the_engine_under_test(tmp_path):
    app = create_app(dict(TEST_CONFIG), instance_path=str(tmp_path / "instance"))
    assert make_url(app.config["SQLALCHEMY_DATABASE_URI"]).get_backend_name() == ENGINE
