"""The tests' apps reuse compiled routes, templates and SQL statements
(tests/support/compiled.py): an app built so answers exactly as one built from scratch."""

from __future__ import annotations

import uuid
from urllib.parse import unquote

from flask import Flask
from sqlalchemy import literal_column, select
from sqlalchemy.engine.default import DefaultDialect
from sqlalchemy.sql.elements import ClauseElement
from werkzeug.routing import Rule
from werkzeug.routing.converters import AnyConverter, NumberConverter

from scorekeeper import create_app
from scorekeeper.platform.database import db
from tests.support.book import new_game, play_rounds
from tests.support.compiled import COMPILE_ALONE, BuiltOnceRule, TemplatesInMemory
from tests.support.config import TEST_CONFIG


def _every_url(app: Flask) -> dict[str, tuple]:
    """Each route's URL, its arguments filled with a value its converter takes, and an extra
    argument that becomes the query; what the app's routes take that URL for; the arguments
    the route asks for."""
    urls = {}
    adapter = app.url_map.bind("table.local")
    for rule in app.url_map.iter_rules():
        values = {name: _value(converter) for name, converter in rule._converters.items()}
        method = sorted(rule.methods)[0]
        url = adapter.build(rule.endpoint, {**values, "extra": "ä"}, method=method)
        # Matched as a server hands the path over, decoded (a slash in a value would be one).
        plain = {
            name: v.replace("/", "") if isinstance(v, str) else v for name, v in values.items()
        }
        path = unquote(adapter.build(rule.endpoint, plain, method=method))
        matched = adapter.match(path, method=method)
        urls[rule.endpoint + repr(sorted(rule.methods))] = (url, matched, sorted(rule.arguments))
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
    parts = {rule.rule: rule._parts for rule in first.url_map.iter_rules()}
    for rule in second.url_map.iter_rules():
        assert rule._build.__func__.__code__ is codes[rule.rule]
        assert all(a is b for a, b in zip(rule._parts, parts[rule.rule], strict=True))
        assert all(converter.map is second.url_map for converter in rule._converters.values())


def test_engines_share_compiled_statements(app_with):
    """A statement one app's engine compiled is not compiled again by the next app's."""
    probe = select(literal_column("1").label(f"probe_{uuid.uuid4().hex}"))
    seen = []
    for app in (app_with(), app_with()):
        with app.app_context():
            seen.append(db.session.execute(probe).context.cache_hit)
    assert seen == [DefaultDialect.CACHE_MISS, DefaultDialect.CACHE_HIT]


def test_an_app_with_them_answers_as_one_without(
    tmp_path, monkeypatch, app_with, migrated_database
):
    reusing = _made(tmp_path, "reusing")
    reused_urls = _every_url(reusing)
    reused_home = reusing.test_client().get("/", headers={"Accept-Language": "fi"}).data
    reused_game = _a_game_played(app_with(SQLALCHEMY_DATABASE_URI=migrated_database("reused")))
    monkeypatch.setattr(Flask, "url_rule_class", Rule)
    monkeypatch.setattr(Flask, "jinja_options", {})
    monkeypatch.setattr(ClauseElement, "_compile_w_cache", COMPILE_ALONE)
    fresh = _made(tmp_path, "fresh")
    assert fresh.jinja_env.bytecode_cache is None
    assert _every_url(fresh) == reused_urls
    assert fresh.test_client().get("/", headers={"Accept-Language": "fi"}).data == reused_home
    fresh_game = _a_game_played(app_with(SQLALCHEMY_DATABASE_URI=migrated_database("fresh")))
    assert fresh_game == reused_game


def _a_game_played(app: Flask) -> tuple:
    """A whole game recorded through the API, as the API then gives it back: its players, each
    round's scores and the totals."""
    client = app.test_client()
    game = new_game(client)
    play_rounds(client, game)
    book = client.get(f"/api/games/{game.id}").get_json()
    return book["players"], [r["scores"] for r in book["rounds"]], book["totals"]
