"""Fixtures: a fresh app for each test, and Debian's chromium for the pages a person sees."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from werkzeug.serving import make_server

from scorekeeper import create_app

TEST_CONFIG = {"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://", "WTF_CSRF_ENABLED": False}

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
def live_server(tmp_path) -> Iterator[str]:
    """The app served over HTTP on loopback, on a real SQLite file, for the browser to visit."""
    config = dict(TEST_CONFIG)
    config["SQLALCHEMY_DATABASE_URI"] = "sqlite:///" + str(tmp_path / "live.sqlite")
    config["WTF_CSRF_ENABLED"] = True
    with serving(create_app(config, instance_path=str(tmp_path / "live-instance"))) as url:
        yield url


@pytest.fixture(params=sorted(TABLET_VIEWPORTS), ids=lambda name: name)
def page(request, browser, live_server):
    """A fresh browser profile at a tablet viewport, pointed at the live server."""
    context = browser.new_context(
        viewport=TABLET_VIEWPORTS[request.param], has_touch=True, base_url=live_server
    )
    context.set_default_timeout(10_000)
    tab = context.new_page()
    tab.viewport_name = request.param
    yield tab
    context.close()
