"""The tests' apps reuse compiled routes and templates (tests/support/compiled.py): an app built
so answers exactly as one built from scratch."""

from __future__ import annotations

from flask import Flask
from werkzeug.routing import Rule
from werkzeug.routing.converters import AnyConverter, NumberConverter

from scorekeeper import create_app
from tests.support.compiled import BuiltOnceRule, TemplatesInMemory
from tests.support.config import TEST_CONFIG


def _every_url(app: Flask) -> dict[str, str]:
    """Each route's URL, its arguments filled with a value its converter takes, and an extra
    argument that becomes the query."""
    urls = {}
    adapter = app.url_map.bind("table.local")
    for rule in app.url_map.iter_rules():
        values = {name: _value(converter) for name, converter in rule._converters.items()}
        urls[rule.endpoint + repr(sorted(rule.methods))] = adapter.build(
            rule.endpoint, {**values, "extra": "ä"}, method=sorted(rule.methods)[0]
        )
    return urls


def _value(converter) -> object:
    if isinstance(converter, AnyConverter):
        return sorted(converter.items)[0]
    return 7 if isinstance(converter, NumberConverter) else "x y/ä"


def _made(tmp_path, name: str) -> Flask:
    return create_app(dict(TEST_CONFIG), instance_path=str(tmp_path / name))


def test_apps_share_compiled_route_builders_and_templates(tmp_path):
    first, second = _made(tmp_path, "one"), _made(tmp_path, "two")
    assert first.url_rule_class is BuiltOnceRule
    assert isinstance(first.jinja_env.bytecode_cache, TemplatesInMemory)
    codes = {rule.rule: rule._build.__func__.__code__ for rule in first.url_map.iter_rules()}
    for rule in second.url_map.iter_rules():
        assert rule._build.__func__.__code__ is codes[rule.rule]


def test_an_app_with_them_answers_as_one_without(tmp_path, monkeypatch):
    reusing = _made(tmp_path, "reusing")
    reused_urls = _every_url(reusing)
    reused_home = reusing.test_client().get("/", headers={"Accept-Language": "fi"}).data
    monkeypatch.setattr(Flask, "url_rule_class", Rule)
    monkeypatch.setattr(Flask, "jinja_options", {})
    fresh = _made(tmp_path, "fresh")
    assert fresh.jinja_env.bytecode_cache is None
    assert _every_url(fresh) == reused_urls
    assert fresh.test_client().get("/", headers={"Accept-Language": "fi"}).data == reused_home
