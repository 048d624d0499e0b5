"""Every setting is declared once, with its default, and the settings page's table
(docs/settings.md) says the same."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from scorekeeper import create_app
from scorekeeper.platform import settings
from tests.support.config import TEST_CONFIG

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "scorekeeper").rglob("*.py"))


def _config_reads(tree: ast.AST):
    """Every `….config[...]`, `….config.get(...)` and `….config.setdefault(...)` in a module."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and _is_config(node.value):
            yield "[]", node.slice
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in {"get", "setdefault"}
            and _is_config(node.func.value)
        ):
            yield node.func.attr, node.args[0] if node.args else None


def _is_config(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "config"


def test_the_settings_page_table_is_the_declared_settings():
    page = (ROOT / "docs" / "settings.md").read_text(encoding="utf-8")
    assert settings.markdown_table() in page
    rows = [line for line in page.splitlines() if line.startswith("| `")]
    named = {row.split("`")[1] for row in rows if row.split("|")[1].strip().startswith("`")}
    assert set(settings.BY_NAME) <= named


def test_every_setting_is_read_by_name_without_a_default_of_its_own():
    """`app.config[NAME]` with NAME declared: no `config.get(NAME, default)` or `setdefault`
    anywhere that would make a second default."""
    problems = []
    for path in SOURCES:
        where = path.relative_to(ROOT)
        for how, key in _config_reads(ast.parse(path.read_text(encoding="utf-8"))):
            if how != "[]":
                problems.append(f"{where}: config.{how}(...)")
            elif isinstance(key, ast.Constant) and key.value not in settings.BY_NAME:
                problems.append(f"{where}: config[{key.value!r}] is not declared")
    assert problems == []


def test_the_checker_sees_an_inline_default():
    tree = ast.parse("host = app.config.get('SERVE_HOST', '0.0.0.0')\nport = app.config['NOPE']")
    assert [how for how, _ in _config_reads(tree)] == ["get", "[]"]


@pytest.mark.sqlite_only("with no setting given, the app's database is SQLite in instance/")
def test_an_app_starts_from_the_declared_defaults(tmp_path, monkeypatch):
    for name in settings.ENVIRONMENT:
        monkeypatch.delenv(name, raising=False)
    app = create_app(instance_path=str(tmp_path / "instance"))
    # A default of None is worked out at start (the database, the keys) or set by the server.
    given = [setting for setting in settings.SETTINGS if setting.default is not None]
    assert len(given) > 10
    for setting in given:
        assert app.config[setting.name] == setting.default, setting.name
    assert app.config["SQLALCHEMY_DATABASE_URI"].endswith("instance/scorekeeper.sqlite")
    assert app.config["WTF_CSRF_SECRET_KEY"] == app.config["SECRET_KEY"]


def test_each_app_gets_its_own_copy_of_a_list_setting(tmp_path):
    first = create_app(dict(TEST_CONFIG), instance_path=str(tmp_path / "a"))
    first.config["COMPRESS_MIMETYPES"].append("text/plain")
    second = create_app(dict(TEST_CONFIG), instance_path=str(tmp_path / "b"))
    assert "text/plain" not in second.config["COMPRESS_MIMETYPES"]
    assert settings.default("COMPRESS_MIMETYPES") == second.config["COMPRESS_MIMETYPES"]
