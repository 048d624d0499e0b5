"""Fixtures: a fresh app for each test on the engine under test, and Debian's chromium for the
pages a person sees. Constants and helpers live in tests/support/ (this module only holds
fixtures and hooks: nothing imports it)."""

from __future__ import annotations

import gc
import time
import types
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import limits.storage.memory
import limits.strategies
import pytest
from flask import Flask
from sqlalchemy.pool import NullPool

import scorekeeper.platform.database
import scorekeeper.platform.limits
from scorekeeper import create_app
from tests.support.book import Book
from tests.support.browser import CHROMIUM_ARGS, TABLET_VIEWPORTS, chromium_path, required
from tests.support.browsing import FormClient
from tests.support.compiled import compile_once
from tests.support.config import (
    ENGINE,
    IN_MEMORY,
    NO_DATABASE,
    TEST_CONFIG,
    TEST_DATABASE_URL,
    Databases,
    MigratedTemplate,
    PostgresTemplate,
    is_sqlite,
)
from tests.support.organisers import HASH
from tests.support.redisserver import RedisServer
from tests.support.server import STARTED_ON, server_pair, serving


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """On another engine, skip the tests marked sqlite_only, with their reason."""
    if ENGINE == "sqlite":
        return
    for item in items:
        marker = item.get_closest_marker("sqlite_only")
        if marker is not None:
            reason = marker.args[0] if marker.args else "tests SQLite itself"
            item.add_marker(pytest.mark.skip(reason=f"SQLite only: {reason}"))


# The database URL of every app made in this process since the last test ended (`_apps_made`);
# server processes are noted in `server.STARTED_ON`.
_made: list[str] = []


@pytest.fixture(scope="session", autouse=True)
def _apps_made() -> Iterator[None]:
    """Note the database of every app the tests make, however they make it (every app passes
    through `database.init_app`), so a test on another engine cannot quietly run on SQLite."""
    original = scorekeeper.platform.database.init_app

    def noted(app):
        _made.append(app.config["SQLALCHEMY_DATABASE_URI"])
        return original(app)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(scorekeeper.platform.database, "init_app", noted)
        yield


# A young generation this large has Python's cycle collector run a tenth as often: each test's
# fresh app leaves about 8,000 objects in reference cycles, and every full collection walked
# everything the imports made besides, a sixth of the test processes' CPU (bench/README.md, "Test
# suite"). The garbage is still collected, in larger batches.
YOUNG_GENERATION = 10_000


@pytest.fixture(scope="session", autouse=True)
def _garbage_collected_in_batches() -> Iterator[None]:
    """What the imports and the collection made is frozen out of the cycle collector's walks
    (`gc.freeze`: it lives as long as the process) and the collector runs less often."""
    thresholds = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_GENERATION, *thresholds[1:])
    yield
    gc.set_threshold(*thresholds)
    gc.unfreeze()


@pytest.fixture(scope="session", autouse=True)
def _compiled_once() -> Iterator[None]:
    """Every app a test makes reuses the routes' and templates' code compiled by the apps
    before it in this process (tests/support/compiled.py)."""
    with pytest.MonkeyPatch.context() as patch:
        compile_once(patch)
        yield


@pytest.fixture
def still_clock(monkeypatch) -> types.SimpleNamespace:
    """The clock the limits count by (the `limits` library's memory storage and strategies, and
    the wait `Retry-After` quotes), held still at the first second of a day, where every minute's, hour's
    and day's window begins: a test that counts to a limit never sees a window close under it.
    A test may move it (`still_clock.now += 30`)."""
    now = time.time()
    clock = types.SimpleNamespace(now=now - now % 86_400 + 1)
    clock.time = lambda: clock.now
    monkeypatch.setattr(limits.storage.memory, "time", clock)
    monkeypatch.setattr(limits.strategies, "time", clock)
    monkeypatch.setattr(scorekeeper.platform.limits, "time", clock)
    return clock


@pytest.fixture
def fresh_database(tmp_path) -> Iterator[Callable[[str], str]]:
    """Make empty databases for one test; `fresh_database("name")` gives a URL."""
    databases = Databases(tmp_path)
    yield databases.make
    databases.drop()


@pytest.fixture
def migrated_database(tmp_path, migrated_template) -> Iterator[Callable[[str], str]]:
    """Make databases at the newest revision for one test, each a copy of the migrated template
    (a file on SQLite, a database of its own on PostgreSQL): `migrated_database("name")` gives a
    URL. For a test whose apps each keep a book of their own; an app that starts on one finds
    nothing to upgrade, where on a `fresh_database` the migrations build every table first."""
    with ExitStack() as copies:

        def make(name: str = "book") -> str:
            folder = tmp_path / f"{name}-database"
            folder.mkdir()
            return copies.enter_context(migrated_template.served_copy(folder))

        yield make


@pytest.fixture(scope="module")
def module_database(tmp_path_factory) -> Iterator[Callable[[str], str]]:
    """The same, for a fixture shared by a module's tests."""
    databases = Databases(tmp_path_factory.mktemp("databases"))
    yield databases.make
    databases.drop()


@pytest.fixture(scope="module")
def servers(request, tmp_path_factory, module_database) -> Iterator[list]:
    """Two server processes on one database of the module's own, shared by its tests: for a
    module of races between two tablets (`tests.support.server.server_pair`)."""
    name = request.module.__name__.rpartition(".")[2]
    with server_pair(module_database(name), tmp_path_factory.mktemp(name)) as pair:
        yield pair


@pytest.fixture(scope="session")
def migrated_template(tmp_path_factory) -> Iterator[MigratedTemplate | PostgresTemplate]:
    """The schema the migrations make, made once per test process on the engine under test."""
    folder = tmp_path_factory.mktemp("template")
    if TEST_DATABASE_URL is None:
        yield MigratedTemplate(folder)
        return
    template = PostgresTemplate(folder)
    yield template
    template.close()


@pytest.fixture(autouse=True)
def _engine_under_test(request):
    """On PostgreSQL, point TEST_CONFIG's database at a database of the test's own, already
    migrated, and fail the test if it made an app or started a server on SQLite all the same
    (unless it is marked sqlite_only)."""
    if TEST_DATABASE_URL is None or NO_DATABASE[0] in request.node.path.parts:
        _made.clear()
        STARTED_ON.clear()
        yield
        return
    template = request.getfixturevalue("migrated_template")
    name, url = template.copy()
    TEST_CONFIG["SQLALCHEMY_DATABASE_URI"] = url
    # No pooled connections left behind: each test's database is dropped when it ends.
    TEST_CONFIG["SQLALCHEMY_ENGINE_OPTIONS"] = {"poolclass": NullPool}
    try:
        yield
    finally:
        TEST_CONFIG["SQLALCHEMY_DATABASE_URI"] = IN_MEMORY
        del TEST_CONFIG["SQLALCHEMY_ENGINE_OPTIONS"]
        template.drop(name)
    # Since the last test: this one's apps and server processes, and those of module fixtures
    # set up for it.
    on_sqlite = [made for made in _made + STARTED_ON if is_sqlite(made)]
    _made.clear()
    STARTED_ON.clear()
    if on_sqlite and request.node.get_closest_marker("sqlite_only") is None:
        pytest.fail(f"this run tests {ENGINE}, but the test made an app on SQLite: {on_sqlite}")


@pytest.fixture
def app_with(request, tmp_path) -> Callable[..., Flask]:
    """`app_with(NAME=value, ...)`: the `app` fixture's app, with these settings over the
    tests' own."""

    def make(**settings: Any) -> Flask:
        config = dict(TEST_CONFIG)
        if TEST_DATABASE_URL is None:
            config.update(request.getfixturevalue("migrated_template").config())
        elif config["SQLALCHEMY_DATABASE_URI"] != IN_MEMORY:
            config["UPGRADE_ON_START"] = False  # the test's database is a copy of the migrated one
        made = create_app({**config, **settings}, instance_path=str(tmp_path / "instance"))
        made.test_client_class = FormClient
        return made

    return make


@pytest.fixture
def club(app_with) -> FormClient:
    """A test client of a club whose organisers sign in (`ORGANISER_PASSWORD`, the password of
    tests/support/organisers.py)."""
    return app_with(ORGANISER_PASSWORD=HASH).test_client()


@pytest.fixture
def app(app_with):
    """A fresh app on a fresh database of the engine under test, already migrated (on SQLite an
    in-memory copy of the migrated template, on PostgreSQL the test's own copy of it); its
    instance folder is private to the test."""
    return app_with()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def book(client) -> Book:
    """The score book as a table uses it: `book.new_game()`, `book.record(game, "Ann")`,
    `book.finish(game)`, `book.start()` (the new-game page), `book.record_page(game_id)`."""
    return Book(client)


@pytest.fixture
def redis_server(tmp_path) -> Iterator[RedisServer]:
    """Debian's redis-server on a free loopback port, for this test alone (`REDIS_URL`: its
    `url`); missing, it fails in CI and skips elsewhere."""
    server = RedisServer(tmp_path / "redis")
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator:
    """One headless chromium per test process, the headless shell where it is installed
    (tests/support/browser.py); a missing browser fails in CI and skips elsewhere."""
    path = required(chromium_path())
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=path, headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@pytest.fixture
def live_server_with(tmp_path, migrated_template) -> Iterator[Callable[..., str]]:
    """`live_server_with(NAME=value, ...)`: the `live_server` app, with these settings over its
    own, served until the test ends (once a test)."""
    with ExitStack() as running:

        def serve(**settings: Any) -> str:
            config = dict(TEST_CONFIG, WTF_CSRF_ENABLED=True, UPGRADE_ON_START=False, **settings)
            config["SQLALCHEMY_DATABASE_URI"] = running.enter_context(
                migrated_template.served_copy(tmp_path)
            )
            made = create_app(config, instance_path=str(tmp_path / "live-instance"))
            return running.enter_context(serving(made))

        yield serve


@pytest.fixture
def live_server(live_server_with) -> str:
    """The app served over HTTP on loopback, on a real database (a copy of the migrated
    template: a file on SQLite, a database of its own on PostgreSQL), for the browser to
    visit."""
    return live_server_with()


@pytest.fixture
def tablet(browser):
    """Opens browser profiles for a test, each closed after it, with the app's service worker
    blocked: it fetches past Playwright's offline switch, so "offline" would not mean offline."""
    contexts = []

    def open_profile(viewport="landscape", *, service_workers="block", **options):
        size = TABLET_VIEWPORTS[viewport] if isinstance(viewport, str) else viewport
        context = browser.new_context(
            viewport=size, has_touch=True, service_workers=service_workers, **options
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context

    yield open_profile
    for context in contexts:
        context.close()


@pytest.fixture(params=sorted(TABLET_VIEWPORTS), ids=lambda name: name)
def page(request, tablet, live_server):
    """A fresh browser profile at a tablet viewport, pointed at the live server."""
    # Only the tests of the service worker itself let it run.
    workers = "allow" if request.node.get_closest_marker("service_worker") else "block"
    context = tablet(request.param, base_url=live_server, service_workers=workers)
    tab = context.new_page()
    tab.viewport_name = request.param
    return tab
