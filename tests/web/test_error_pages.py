"""Every error is a page in the layout with a way back, and JSON under /api/; a database never
set up says so, with the command that sets it up, and never that it is busy."""

from __future__ import annotations

import pytest
from flask import abort
from flask_babel import force_locale, gettext
from markupsafe import escape
from sqlalchemy import create_engine, text
from werkzeug.exceptions import Forbidden, default_exceptions

from scorekeeper.platform import database, http
from tests.support.apps import app_on

LIMIT = 64 * 1024
UPGRADE = "flask --app scorekeeper db upgrade"


def _boom():
    raise RuntimeError("a fault the score book did not expect")


@pytest.fixture
def crashing_app(app):
    """The app as served (errors are not handed to the test), with a route that fails."""
    app.config["PROPAGATE_EXCEPTIONS"] = False
    app.add_url_rule("/test/boom", "boom", _boom, methods=["GET"])
    app.add_url_rule("/api/test-boom", "api_boom", _boom, methods=["GET"])
    return app


def assert_in_layout(html: str) -> None:
    """The page wears the layout: the main navigation, the theme script and its switch."""
    assert '<nav id="main-nav" aria-label="Main">' in html
    assert "/static/theme.js" in html and 'class="theme-toggle"' in html
    assert '<link rel="stylesheet" href="/static/style.css' in html


def assert_way_back(html: str) -> None:
    assert 'href="/games/">Your games</a>' in html
    assert 'href="/">Home</a>' in html


PAGES = [
    # (method, path, extra request arguments, status, words the page says)
    ("get", "/no-such-page", {}, 404, "There is no page at <code>/no-such-page</code>"),
    ("get", "/games/999999", {}, 404, "Game 999999 does not exist."),
    # The score book's Missing (no such game behind an editor's page).
    ("get", "/games/999999/rounds/new", {}, 404, "Game 999999 does not exist."),
    ("get", "/players/Zed", {}, 404, "Nobody called &#39;Zed&#39; has played here yet."),
    ("post", "/", {}, 405, "<code>/</code> does not take a POST request, only GET."),
    (
        "post",
        "/games/new",
        {"data": {"names": "x" * (LIMIT + 1)}},
        413,
        "larger than the 64 KiB the score book takes in one request, so nothing was saved",
    ),
    ("get", "/test/boom", {}, 500, "met an error it did not expect"),
    # Any other status: the general page, with the view's own words.
    (
        "get",
        "/games/?page=abc",
        {},
        400,
        "&#39;page&#39; must be a whole number, not &#39;abc&#39;.",
    ),
]


@pytest.mark.parametrize(
    ("method", "path", "extra", "status", "words"), PAGES, ids=[f"{p[3]}{p[1]}" for p in PAGES]
)
def test_each_error_is_a_page_in_the_layout_with_a_way_back(
    crashing_app, method, path, extra, status, words
):
    response = getattr(crashing_app.test_client(), method)(path, **extra)
    assert response.status_code == status
    assert response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert_in_layout(html)
    assert words in html
    assert f"Error {status}" in html
    assert_way_back(html)
    assert "Werkzeug" not in html and "a fault the score book" not in html


def test_a_post_to_a_page_that_only_shows_links_back_to_it(client):
    html = client.post("/").get_data(as_text=True)
    assert 'href="/">Open this page again</a>' in html
    # A GET that failed is not offered again.
    assert "Open this page again" not in client.get("/no-such-page").get_data(as_text=True)


def test_405_keeps_the_allow_header(client):
    response = client.post("/")
    assert response.status_code == 405
    assert set(response.headers["Allow"].split(", ")) >= {"GET", "HEAD"}


API = [
    ("get", "/api/no-such-thing", {}, 404),
    ("get", "/api/games/999999", {}, 404),
    ("delete", "/api/games", {}, 405),
    ("post", "/api/games", {"data": "x" * (LIMIT + 1), "content_type": "application/json"}, 413),
    ("get", "/api/test-boom", {}, 500),
]


@pytest.mark.parametrize(
    ("method", "path", "extra", "status"), API, ids=[f"{a[3]}{a[1]}" for a in API]
)
def test_the_api_answers_each_error_in_json(crashing_app, method, path, extra, status):
    response = getattr(crashing_app.test_client(), method)(path, **extra)
    assert response.status_code == status
    assert response.is_json
    assert set(response.get_json()) == {"error"} and response.get_json()["error"]
    assert "a fault the score book" not in response.get_json()["error"]


@pytest.fixture
def empty_app(fresh_database, tmp_path):
    """An app on a database with no tables at all: `flask run` before `init-db`."""
    return app_on(fresh_database("empty"), tmp_path)


@pytest.mark.parametrize("path", ["/", "/games/", "/games/1", "/players/"])
def test_a_database_never_set_up_is_not_set_up_not_busy(empty_app, path):
    response = empty_app.test_client().get(path)
    assert response.status_code == 503
    assert "Retry-After" not in response.headers
    html = response.get_data(as_text=True)
    assert_in_layout(html)
    assert "The score book is not set up" in html
    head = _head(empty_app)
    assert f"The database is empty, and this app needs revision {head}" in html
    assert f"<code>{UPGRADE}</code>" in html
    assert "busy" not in html.lower()
    assert f'href="{path}">Open this page again</a>' in html


def test_not_set_up_speaks_the_request_language(empty_app):
    html = (
        empty_app.test_client()
        .get("/games/", headers={"Accept-Language": "fi"})
        .get_data(as_text=True)
    )
    with empty_app.test_request_context(), force_locale("fi"):
        problem = gettext(
            "the database is empty, and this app needs revision %(head)s", head=_head(empty_app)
        )
        heading = gettext("The score book is not set up")
    assert problem[:1].upper() + problem[1:] in html
    assert f"<h1>{heading}</h1>" in html
    assert "<h1>Pistekirjaa ei ole määritetty</h1>" in html  # the shipped fi catalog


def test_a_form_posted_to_a_database_never_set_up_says_so(empty_app):
    response = empty_app.test_client().post("/games/new", data={"names": "Ann\nBob"})
    assert response.status_code == 503
    assert "The score book is not set up" in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("get", "/api/games", None),
        ("post", "/api/games", {"players": ["Ann", "Bob", "Cat", "Dan"]}),
    ],
)
def test_the_api_says_not_set_up_in_json(empty_app, method, path, body):
    response = getattr(empty_app.test_client(), method)(path, json=body)
    assert response.status_code == 503
    error = response.get_json()["error"]
    assert error.startswith("the score book is not set up: the database is empty")
    assert f"run `{UPGRADE}`" in error
    assert "busy" not in error


def test_a_database_left_at_an_old_revision_names_both(fresh_database, tmp_path):
    url = fresh_database("old")
    app = app_on(url, tmp_path)
    with app.app_context():
        database.upgrade(database.BASELINE)
    html = app.test_client().get("/games/").get_data(as_text=True)
    assert f"is at revision {database.BASELINE}, and this app needs revision {_head(app)}" in html


def test_after_the_upgrade_the_pages_answer(empty_app):
    client = empty_app.test_client()
    assert client.get("/").status_code == 503
    with empty_app.app_context():
        database.upgrade()
    assert client.get("/").status_code == 200


def test_a_missing_table_is_told_apart_from_other_database_errors(fresh_database, tmp_path):
    """The check reads the driver's own error: a missing table, not any failed statement."""
    engine = create_engine(fresh_database("words"))
    try:
        with engine.connect() as connection:
            missing = _error_of(connection, "SELECT * FROM no_such_table")
        with engine.connect() as connection:
            syntax = _error_of(connection, "SELEKT 1")
    finally:
        engine.dispose()
    assert database.schema_missing(missing)
    assert not database.schema_missing(syntax)


def _error_of(connection, statement: str):
    from sqlalchemy.exc import DBAPIError

    with pytest.raises(DBAPIError) as caught:
        connection.execute(text(statement))
    return caught.value


def _head(app) -> str:
    with app.app_context():
        return database.head_revision()


def test_a_500_whose_layout_fails_too_is_still_an_answer(crashing_app, monkeypatch):
    from scorekeeper.platform import errorpages

    def broken(name, **context):
        raise RuntimeError("the layout is broken")

    monkeypatch.setattr(errorpages, "render_template", broken)
    response = crashing_app.test_client().get("/test/boom")
    assert response.status_code == 500
    assert "Internal Server Error" in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("path", "heading", "way"),
    [
        ("/games/999", "No game 999", 'href="/games/">Your games</a>'),
        ("/games/999/rounds/new", "No game 999", 'href="/games/">Your games</a>'),
        ("/games/?page=99", "No page 99", 'href="/games/?page=1">The last page (1)</a>'),
        (
            "/games/?page=99&archived=1",
            "No page 99",
            'href="/games/?page=1&amp;archived=1">The last page (1)</a>',
        ),
    ],
)
def test_a_missing_game_or_page_says_which_and_leads_to_the_games(client, path, heading, way):
    """What is missing in the heading, why it may be so, and the way on first; the API's JSON
    404 for the same game is unchanged."""
    response = client.get(path)
    assert response.status_code == 404
    html = response.get_data(as_text=True)
    assert_in_layout(html)
    assert f"<h1>{heading}</h1>" in html
    assert way in html
    assert "may have" in html  # why it may be missing
    api = client.get("/api/games/999")
    assert api.status_code == 404 and api.get_json() == {"error": "game 999 does not exist"}


def _forbidden():
    abort(403)


def test_werkzeugs_own_words_are_the_same_in_english_and_come_through_the_catalog(app):
    """The table of Werkzeug's words holds its English as written, so an English page is the
    same; a Finnish one gets them through the catalog (pages and the API alike)."""
    for code, (name, description) in http.WERKZEUG_WORDS.items():
        werkzeug = default_exceptions[code]
        assert (str(name), str(description)) == (werkzeug().name, werkzeug.description)
    app.add_url_rule("/test/forbidden", "forbidden", _forbidden)
    app.add_url_rule("/api/test-forbidden", "api_forbidden", _forbidden)
    client = app.test_client()
    english = client.get("/test/forbidden").get_data(as_text=True)
    assert "<h1>Forbidden</h1>" in english
    assert f"<p>{escape(Forbidden.description)}</p>" in english
    finnish = client.get("/test/forbidden", headers={"Accept-Language": "fi"})
    html = finnish.get_data(as_text=True)
    api = client.get("/api/test-forbidden", headers={"Accept-Language": "fi"}).get_json()
    with app.test_request_context(), force_locale("fi"):
        name = gettext("Forbidden")
        description = gettext(Forbidden.description)
        home = gettext("Home")
    assert finnish.status_code == 403
    assert f"<h1>{escape(name)}</h1>" in html
    assert f"<p>{escape(description)}</p>" in html
    assert f'href="/">{home}</a>' in html and home == "Etusivu"  # the shipped fi catalog
    assert api == {"error": description}
