"""Fixtures: a fresh app for each test, and Debian's chromium for the pages a person sees."""

from __future__ import annotations

import os
import shutil
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import create_engine, make_url, text
from sqlalchemy.pool import NullPool
from werkzeug.serving import make_server

from scorekeeper import create_app
from tests.support.book import Book

TEST_CONFIG = {
    "TESTING": True,
    "SQLALCHEMY_DATABASE_URI": "sqlite://",
    "WTF_CSRF_ENABLED": False,
    # Every test's database is made by the migrations, exactly as a served one is.
    "UPGRADE_ON_START": True,
}

# The whole suite runs once on SQLite and, with TEST_DATABASE_URL set (see .ci/postgres), once
# on PostgreSQL, each test in a schema of its own.
TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL")
ENGINE = make_url(TEST_DATABASE_URL).get_backend_name() if TEST_DATABASE_URL else "sqlite"
# Tests that need no database at all: the rules engine.
NO_DATABASE = ("rules",)


def pytest_collection_modifyitems(config, items):
    """On another engine, skip the tests marked sqlite_only, with their reason."""
    if ENGINE == "sqlite":
        return
    for item in items:
        marker = item.get_closest_marker("sqlite_only")
        if marker is not None:
            reason = marker.args[0] if marker.args else "tests SQLite itself"
            item.add_marker(pytest.mark.skip(reason=f"SQLite only: {reason}"))


@contextmanager
def _server_connection():
    engine = create_engine(TEST_DATABASE_URL, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            connection.execution_options(isolation_level="AUTOCOMMIT")
            yield connection
    finally:
        engine.dispose()


class Databases:
    """Empty databases of the engine under test: SQLite files, or PostgreSQL schemas."""

    def __init__(self, folder):
        self.folder = folder
        self.schemas: list[str] = []

    def make(self, name: str = "book") -> str:
        """The URL of a new, empty database (nothing in it, not even the tables)."""
        if TEST_DATABASE_URL is None:
            return "sqlite:///" + str(self.folder / f"{name}.sqlite")
        schema = f"test_{name}_{uuid.uuid4().hex[:10]}".lower()
        with _server_connection() as connection:
            connection.execute(text(f'CREATE SCHEMA "{schema}"'))
        self.schemas.append(schema)
        url = make_url(TEST_DATABASE_URL).update_query_dict({"options": f"-csearch_path={schema}"})
        return url.render_as_string(hide_password=False)

    def drop(self) -> None:
        if self.schemas:
            with _server_connection() as connection:
                for schema in self.schemas:
                    connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))


@pytest.fixture
def fresh_database(tmp_path) -> Iterator[Callable[[str], str]]:
    """Make empty databases for one test; `fresh_database("name")` gives a URL."""
    databases = Databases(tmp_path)
    yield databases.make
    databases.drop()


@pytest.fixture(scope="module")
def module_database(tmp_path_factory) -> Iterator[Callable[[str], str]]:
    """The same, for a fixture shared by a module's tests."""
    databases = Databases(tmp_path_factory.mktemp("databases"))
    yield databases.make
    databases.drop()


@pytest.fixture(autouse=True)
def _engine_under_test(request):
    """On PostgreSQL, point TEST_CONFIG's database at a fresh schema for each test."""
    if TEST_DATABASE_URL is None or NO_DATABASE[0] in request.node.path.parts:
        yield
        return
    url = request.getfixturevalue("fresh_database")("t")
    TEST_CONFIG["SQLALCHEMY_DATABASE_URI"] = url
    # No pooled connections left behind: each test's schema is dropped when it ends.
    TEST_CONFIG["SQLALCHEMY_ENGINE_OPTIONS"] = {"poolclass": NullPool}
    try:
        yield
    finally:
        TEST_CONFIG["SQLALCHEMY_DATABASE_URI"] = "sqlite://"
        del TEST_CONFIG["SQLALCHEMY_ENGINE_OPTIONS"]


TABLET_VIEWPORTS = {
    "landscape": {"width": 1024, "height": 768},
    "portrait": {"width": 768, "height": 1024},
}
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
]


@pytest.fixture
def app(tmp_path):
    """A fresh app on an in-memory database; its instance folder is private to the test."""
    return create_app(dict(TEST_CONFIG), instance_path=str(tmp_path / "instance"))


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


def chromium_path() -> str | None:
    """Debian's chromium, never a downloaded browser."""
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator:
    """One headless chromium for the whole run; a missing browser fails in CI and skips elsewhere."""
    path = chromium_path()
    if path is None:
        if os.environ.get("CI") == "true":
            pytest.fail(
                "Debian's chromium is missing: .ci/run must install it (apt-get install chromium)"
            )
        pytest.skip(
            "Debian's chromium is not installed (apt-get install chromium) - browser tests skipped"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=path, headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@contextmanager
def serving(application, host: str = "127.0.0.1") -> Iterator[str]:
    """Serve an app over HTTP on a free port for as long as the block runs (on loopback unless
    `host` says otherwise; the address given back is always loopback's)."""
    server = make_server(host, 0, application, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)


@pytest.fixture
def live_server(tmp_path, fresh_database) -> Iterator[str]:
    """The app served over HTTP on loopback, on a real database, for the browser to visit."""
    config = dict(TEST_CONFIG)
    config["SQLALCHEMY_DATABASE_URI"] = fresh_database("live")
    config["WTF_CSRF_ENABLED"] = True
    with serving(create_app(config, instance_path=str(tmp_path / "live-instance"))) as url:
        yield url


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
