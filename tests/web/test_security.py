"""Trust at the edges: headers, cookies, CSRF, body limits and the debugger, as a client sees them."""

from __future__ import annotations

import http.client
import io
import re
import socket
import threading
from collections.abc import Iterator
from urllib.parse import quote

import pytest
from flask import render_template_string, request
from playwright.sync_api import expect
from werkzeug.datastructures import MultiDict

import scorekeeper
from scorekeeper import create_app, serve
from scorekeeper.platform.security import CONTENT_SECURITY_POLICY
from tests.support.config import TEST_CONFIG
from tests.support.forms import read_form
from tests.support.server import serving

LIMIT = 64 * 1024

EXPECTED_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)

FORM_PAGE = """{% extends "base.html" %}
{% block content %}
<form method="post" action="{{ request.full_path }}">
  <input type="hidden" name="csrf_token" value="{{ csrf_token() }}">
  <input name="name"> <input name="score">
  <button type="submit">Send</button>
</form>
{% endblock %}"""


def add_form_route(app) -> None:
    """A test-only page with a CSRF-protected form that echoes what it saved."""

    def form_view():
        if request.method == "POST":
            saved = "; ".join(f"{k}={v}" for k, v in request.form.items(multi=True))
            return f"<p id='saved'>Saved: {saved}</p>".replace("'", '"')
        return render_template_string(FORM_PAGE)

    app.add_url_rule("/test/form", "test_form", form_view, methods=["GET", "POST"])


@pytest.fixture
def csrf_app(app_with):
    """The app with CSRF protection on, as it is served, plus the test-only form page."""
    application = app_with(WTF_CSRF_ENABLED=True)
    add_form_route(application)
    return application


@pytest.fixture
def csrf_client(csrf_app):
    return csrf_app.test_client()


# --- 1. Headers and cookies -------------------------------------------------------------------


def test_policy_is_the_agreed_one():
    assert CONTENT_SECURITY_POLICY == EXPECTED_CSP
    assert "unsafe-inline" not in CONTENT_SECURITY_POLICY
    assert "unsafe-eval" not in CONTENT_SECURITY_POLICY


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/"),
        ("GET", "/healthz"),
        ("GET", "/static/style.css"),
        ("GET", "/no-such-page"),
        ("GET", "/api/rules/profiles"),
        ("GET", "/api/no-such-thing"),
        ("POST", "/api/rules/meld"),
    ],
)
def test_security_headers_on_every_response(client, method, path):
    response = client.open(path, method=method)
    assert response.headers["Content-Security-Policy"] == EXPECTED_CSP
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] in ("same-origin", "no-referrer")
    assert response.headers["X-Frame-Options"] == "DENY"


@pytest.mark.parametrize(
    ("method", "path"),
    [("GET", "/api/rules/profiles"), ("GET", "/api/nothing"), ("POST", "/api/rules/meld")],
)
def test_api_responses_are_never_cached(client, method, path):
    response = client.open(path, method=method)
    assert response.is_json
    assert response.headers["Cache-Control"] == "no-store"


@pytest.mark.parametrize("path", ["/", "/no-such-page", "/api/rules/profiles"])
def test_hsts_over_https_only(client, path):
    """Over HTTPS every answer tells the browser to keep to HTTPS for a year; over plain HTTP
    never (a browser ignores it there, and anyone on the way could have written it)."""
    secure = client.get(path, base_url="https://laptop.local")
    assert secure.headers["Strict-Transport-Security"] == "max-age=31536000"
    assert "Strict-Transport-Security" not in client.get(path).headers


@pytest.mark.parametrize(
    ("proxies", "forwarded", "hsts"),
    [(1, "https", True), (1, "http", False), (0, "https", False)],
    ids=["proxy's HTTPS", "proxy's HTTP", "untrusted header"],
)
def test_hsts_behind_a_trusted_proxy_follows_its_scheme(app_with, proxies, forwarded, hsts):
    application = app_with(TRUSTED_PROXIES=proxies)
    headers = {"X-Forwarded-Proto": forwarded, "X-Forwarded-For": "192.168.1.30"}
    answer = application.test_client().get("/healthz", headers=headers)
    assert ("Strict-Transport-Security" in answer.headers) is hsts


def test_hsts_seconds_is_a_setting_and_zero_sends_none(app_with):
    short = app_with(HSTS_SECONDS="600").test_client()
    answer = short.get("/", base_url="https://laptop.local")
    assert answer.headers["Strict-Transport-Security"] == "max-age=600"
    never = app_with(HSTS_SECONDS=0).test_client()
    assert "Strict-Transport-Security" not in never.get("/", base_url="https://x.local").headers
    with pytest.raises(ValueError, match="HSTS_SECONDS must be a whole number of seconds"):
        app_with(HSTS_SECONDS="a year")


def test_pages_keep_normal_caching(client):
    assert "no-store" not in client.get("/static/style.css").headers.get("Cache-Control", "")


# What a GET without arguments may answer as a file to save rather than a page.
DOWNLOADS = (".csv",)


def _pages(app) -> list[str]:
    """Every page a GET can reach without arguments (not static files, not the JSON API)."""
    return sorted(
        rule.rule
        for rule in app.url_map.iter_rules()
        if "GET" in rule.methods
        and not rule.arguments
        and rule.endpoint != "static"
        and not rule.rule.startswith("/api/")
    )


INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I), "an inline <script>"),
    (re.compile(r"<style[\s>]", re.I), "a <style> element"),
    (re.compile(r"\sstyle\s*=", re.I), "a style= attribute"),
    (re.compile(r"\son[a-z]+\s*=", re.I), "an on…= event handler"),
    (re.compile(r"javascript:", re.I), "a javascript: URL"),
]


def test_no_page_needs_inline_script_or_style(csrf_app, csrf_client):
    """The CSP refuses inline code: a page that relies on it would silently break on the tablet."""
    pages = _pages(csrf_app)
    assert "/" in pages
    for path in pages:
        response = csrf_client.get(path)
        assert response.status_code < 500, path
        if response.mimetype != "text/html":
            continue
        html = response.get_data(as_text=True)
        for pattern, what in INLINE:
            match = pattern.search(html)
            assert match is None, f"{path} has {what}: {match.group(0)!r}"


def test_session_cookie_is_httponly_and_samesite_lax(csrf_client):
    response = csrf_client.get("/test/form")
    cookies = response.headers.getlist("Set-Cookie")
    assert cookies, "a form page must set the session cookie that holds the CSRF secret"
    for cookie in cookies:
        assert "HttpOnly" in cookie
        assert "SameSite=Lax" in cookie


def test_the_api_never_opens_the_session(csrf_app, csrf_client):
    """The JSON API keeps nothing in the session: a tablet's session cookie is left unread by its
    requests, and never set again by their answers; a page's request opens it as ever."""
    assert csrf_client.get("/test/form").headers.getlist("Set-Cookie")
    question = {"round": 1, "hand": "7♠ 7♥ 7♦ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥"}
    response = csrf_client.post("/api/rules/solve", json=question)
    assert response.status_code == 200
    assert not response.headers.getlist("Set-Cookie")
    assert "Cookie" not in response.vary
    sessions = csrf_app.session_interface
    with csrf_app.test_request_context("/api/rules/solve", method="POST"):
        assert sessions.open_session(csrf_app, request) is None
    with csrf_app.test_request_context("/test/form"):
        assert sessions.open_session(csrf_app, request) is not None


# --- 2. CSRF ------------------------------------------------------------------------------------


def expired_post(csrf_app, csrf_client, data, path="/test/form"):
    """Post this tablet's own form after its token expired (the evening went on past midnight)."""
    page = csrf_client.get("/test/form").get_data(as_text=True)
    token = dict(read_form(page).fields)["csrf_token"]
    limit = csrf_app.config["WTF_CSRF_TIME_LIMIT"]
    csrf_app.config["WTF_CSRF_TIME_LIMIT"] = -1  # every token has expired
    try:
        return csrf_client.post(path, data=MultiDict([("csrf_token", token), *data]))
    finally:
        csrf_app.config["WTF_CSRF_TIME_LIMIT"] = limit


def assert_shown_but_not_resendable(response, *entries: str) -> None:
    """A refused post from elsewhere: its entries read-only, a link to a fresh form, no token."""
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert "Nothing was saved" in html
    assert "<form" not in html and "csrf_token" not in html and "Send again" not in html
    assert 'href="/test/form">Open a fresh form</a>' in html
    for entry in entries:
        assert f"<td>{entry}</td>" in html


def test_post_without_token_is_shown_read_only(csrf_client):
    response = csrf_client.post("/test/form", data={"name": "Ann", "score": "12"})
    assert_shown_but_not_resendable(response, "Ann", "12")


def test_expired_own_form_comes_back_and_send_again_goes_through(csrf_app, csrf_client):
    first = expired_post(csrf_app, csrf_client, [("name", "Ann"), ("score", "12")])
    html = first.get_data(as_text=True)
    assert "press <strong>Send again</strong>" in html
    # Visible as well as hidden, so the player can check them.
    assert "<td>Ann</td>" in html and "<td>12</td>" in html
    form = read_form(html)
    assert form.action == "/test/form"
    again = csrf_client.post(form.action, data=MultiDict(form.fields))
    assert again.status_code == 200
    assert "Saved: csrf_token=" in again.get_data(as_text=True)
    assert "name=Ann; score=12" in again.get_data(as_text=True)


@pytest.mark.parametrize("token", ["garbage", "", "a" * 200])
def test_bad_token_is_never_given_a_good_one(csrf_client, token):
    csrf_client.get("/test/form")
    response = csrf_client.post("/test/form", data={"csrf_token": token, "name": "Bo"})
    assert_shown_but_not_resendable(response, "Bo")


def test_token_from_another_session_is_refused(csrf_app):
    other = csrf_app.test_client()
    token = dict(read_form(other.get("/test/form").get_data(as_text=True)).fields)["csrf_token"]
    response = csrf_app.test_client().post("/test/form", data={"csrf_token": token, "name": "Cy"})
    assert_shown_but_not_resendable(response, "Cy")


def test_an_expired_token_of_another_session_is_not_this_tablets_form(csrf_app, csrf_client):
    """Signed by this app and only too old, yet made for another browser: not resent."""
    other = csrf_app.test_client()
    token = dict(read_form(other.get("/test/form").get_data(as_text=True)).fields)["csrf_token"]
    csrf_client.get("/test/form")  # this tablet has a session token of its own
    csrf_app.config["WTF_CSRF_TIME_LIMIT"] = -1
    response = csrf_client.post("/test/form", data={"csrf_token": token, "name": "Cy"})
    assert "expired" in response.get_data(as_text=True)
    assert_shown_but_not_resendable(response, "Cy")


def test_expired_token_gives_entries_back(csrf_app, csrf_client):
    response = expired_post(csrf_app, csrf_client, [("name", "Di")])
    assert response.status_code == 400
    assert "expired" in response.get_data(as_text=True)
    assert dict(read_form(response.get_data(as_text=True)).fields)["name"] == "Di"


def test_repeated_fields_and_hostile_values_come_back_intact(csrf_app, csrf_client):
    hostile = '"><script>alert(1)</script>'
    data = [("requests", "1"), ("requests", "2"), ("requests", "3"), ("note", hostile)]
    response = expired_post(csrf_app, csrf_client, [*data, ("empty", "")])
    html = response.get_data(as_text=True)
    assert "<script>alert(1)" not in html
    fields = read_form(html).fields
    assert [v for k, v in fields if k == "requests"] == ["1", "2", "3"]
    assert dict(fields)["note"] == hostile
    assert dict(fields)["empty"] == ""
    # From elsewhere, the same values are only shown, escaped.
    html = csrf_client.post("/test/form", data=dict(data)).get_data(as_text=True)
    assert "<script>alert(1)" not in html and "<form" not in html


def test_an_edit_key_goes_back_hidden_but_is_not_shown(csrf_app, csrf_client):
    data = [("edit_key", "s3cret-k3y"), ("name", "Ann")]
    html = expired_post(csrf_app, csrf_client, data).get_data(as_text=True)
    assert dict(read_form(html).fields)["edit_key"] == "s3cret-k3y"
    assert html.count("s3cret-k3y") == 1
    assert "<td>Ann</td>" in html
    html = csrf_client.post("/test/form", data=dict(data)).get_data(as_text=True)
    assert "s3cret-k3y" not in html


FORGED_48_KB = {
    "many small fields": [(f"f{i}", "x") for i in range(6_000)],
    "one long value": [("name", "A" * 48_000)],
    "values that escape long": [(f"n{i}", '<>"' * 40) for i in range(400)],
    "a long field name": [("n" * 48_000, "x")],
    "the longest names a form has": [(f"{i:04d}" + "n" * 60, "x") for i in range(700)],
    "many names not a form's": [(f"<b>{i}</b>", "x") for i in range(4_000)],
}


@pytest.mark.parametrize("data", FORGED_48_KB.values(), ids=FORGED_48_KB)
def test_a_forged_post_is_answered_with_a_page_smaller_than_itself(csrf_client, data):
    """A 48 KB post from another site was answered with 356 KB, every field a row: the page
    shows at most what the app's own forms hold."""
    raw = '<>"'  # sent as they are, as a browser may: each is several characters escaped
    body = "&".join(quote(name, raw) + "=" + quote(value, raw) for name, value in data)
    assert 40_000 < len(body) < LIMIT
    answer = csrf_client.post(
        "/test/form", data=body, content_type="application/x-www-form-urlencoded"
    )
    assert answer.status_code == 400
    assert "Nothing was saved" in answer.get_data(as_text=True)
    assert len(answer.data) < 40_000


def test_a_forged_posts_shown_entries_are_cut_and_the_rest_counted(csrf_client):
    data = [("name", "A" * 1000), ("<i>odd</i>", "x")] + [(f"f{i}", "y") for i in range(300)]
    html = csrf_client.post("/test/form", data=MultiDict(data)).get_data(as_text=True)
    assert f"<td>{'A' * 399}…</td>" in html
    assert "odd" not in html
    shown = html.count("<tr>")
    assert shown == 250
    assert f"{len(data) - shown} more entries not shown" in html


# A whole round at the fullest table: eight seats, each hand long (a deal of many cards).
FULL_ROUND = [("out", "0"), ("cut_exact", "y"), ("round_number", "3")] + [
    (f"cards_{seat}", " ".join(["10", "JK", "Q", "2"] * 15)) for seat in range(1, 8)
]


def test_an_expired_full_round_comes_back_whole(csrf_app, csrf_client):
    html = expired_post(csrf_app, csrf_client, FULL_ROUND).get_data(as_text=True)
    assert "not shown" not in html
    fields = read_form(html).fields
    assert [field for field in fields if field[0] != "csrf_token"] == FULL_ROUND
    for _, value in FULL_ROUND:
        assert f"<td>{value}</td>" in html


def test_csrf_error_is_never_a_500_for_odd_bodies(csrf_client):
    for kwargs in (
        {"data": b"\xff\xfe\x00", "content_type": "application/x-www-form-urlencoded"},
        {"data": b"not a form", "content_type": "text/plain"},
        {"json": {"name": "Ann"}},
        {"data": {"file": (io.BytesIO(b"x"), "scores.csv"), "name": "Ann"}},
    ):
        response = csrf_client.post("/test/form", **kwargs)
        assert response.status_code == 400, kwargs
        assert "Nothing was saved" in response.get_data(as_text=True)


def test_csrf_error_under_api_is_json(csrf_app):
    """The JSON API is exempt; a route under /api/ that is not would still answer in JSON."""
    csrf_app.add_url_rule("/api/test-unexempt", "unexempt", lambda: "ok", methods=["POST"])
    response = csrf_app.test_client().post("/api/test-unexempt", data={"a": "1"})
    assert response.status_code == 400
    assert response.is_json
    assert "CSRF" in response.get_json()["error"]


def test_json_api_is_exempt_from_csrf(csrf_client):
    response = csrf_client.post("/api/rules/no-such-question", json={})
    assert response.status_code == 404
    assert "unknown question" in response.get_json()["error"]


# --- 3. Body limits -----------------------------------------------------------------------------


def _big_json() -> bytes:
    return b'{"cards": "' + b"7S " * (LIMIT // 3 + 10) + b'"}'


def test_api_body_over_the_limit_is_413_json(client):
    response = client.post("/api/rules/meld", data=_big_json(), content_type="application/json")
    assert response.status_code == 413
    assert response.is_json
    assert response.get_json()["error"]


def test_api_chunked_body_over_the_limit_is_413_json(client):
    """No Content-Length: the server terminates the stream, and reading stops at the limit."""
    response = client.post(
        "/api/rules/meld",
        input_stream=io.BytesIO(_big_json()),
        content_type="application/json",
        headers={"Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True},
    )
    assert response.status_code == 413
    assert response.is_json


def test_api_chunked_body_under_the_limit_is_read_whole(client):
    body = b'{"cards": 7' + b" " * (LIMIT - 20) + b"}"
    response = client.post(
        "/api/rules/meld",
        input_stream=io.BytesIO(body),
        content_type="application/json",
        headers={"Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True},
    )
    assert response.status_code == 400
    assert "'cards' must be text or a list" in response.get_json()["error"]


def test_api_declared_length_over_the_limit_is_413_before_reading(client):
    response = client.post(
        "/api/rules/meld",
        data=b'{"cards": "7S 7H 7D"}',
        content_type="application/json",
        environ_overrides={"CONTENT_LENGTH": str(LIMIT + 1)},
    )
    assert response.status_code == 413
    assert response.is_json


def test_api_declared_length_shorter_than_body_reads_no_further(client):
    response = client.post(
        "/api/rules/meld",
        data=_big_json(),
        content_type="application/json",
        environ_overrides={"CONTENT_LENGTH": "12"},
    )
    assert response.status_code == 400
    assert response.get_json()["error"] == "the body is not valid JSON"


def test_page_body_over_the_limit_is_the_413_page(csrf_client):
    response = csrf_client.post("/test/form", data={"name": "x" * (LIMIT + 1)})
    assert response.status_code == 413
    assert response.mimetype == "text/html"
    assert "larger than the 64 KiB" in response.get_data(as_text=True)
    assert response.headers["Content-Security-Policy"] == EXPECTED_CSP


def test_page_chunked_body_over_the_limit_is_413(csrf_client):
    response = csrf_client.post(
        "/test/form",
        input_stream=io.BytesIO(b"name=" + b"x" * (LIMIT + 1)),
        content_type="application/x-www-form-urlencoded",
        headers={"Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True},
    )
    assert response.status_code == 413
    assert response.mimetype == "text/html"


def test_body_at_the_limit_is_accepted(client):
    body = b'{"cards": "7S 7H 7D"}'
    body = body[:-1] + b" " * (LIMIT - len(body)) + b"}"
    assert len(body) == LIMIT
    response = client.post("/api/rules/score", data=body, content_type="application/json")
    assert response.status_code != 413


def _chunked_request(port: int, path: str, body: bytes) -> tuple[int, bytes, str]:
    """POST a chunked JSON body over a real socket, as a client without Content-Length would."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.putrequest("POST", path)
        connection.putheader("Content-Type", "application/json")
        connection.putheader("Transfer-Encoding", "chunked")
        connection.endheaders()
        for start in range(0, len(body), 8192):
            chunk = body[start : start + 8192]
            connection.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        connection.send(b"0\r\n\r\n")
        response = connection.getresponse()
        return response.status, response.read(), response.getheader("Content-Type") or ""
    finally:
        connection.close()


class _Unread(io.BytesIO):
    """A request stream that must not be read: reading it fails the test."""

    def read(self, size=-1) -> bytes:
        raise AssertionError("the body was read")


def test_a_stream_the_server_says_is_not_terminated_is_not_read(app):
    """cheroot sets `wsgi.input_terminated` on every request, False unless the body is chunked:
    a false flag with no length is no body to read, not a chunked one."""
    from scorekeeper.platform import security

    environ = {"wsgi.input": _Unread(), "wsgi.input_terminated": False}
    with app.test_request_context("/api/rules/meld", method="POST", environ_overrides=environ):
        assert request.content_length is None
        security.limit_body()  # raises if it read the stream
        assert isinstance(request.environ["wsgi.input"], _Unread)


def test_chunked_body_over_the_limit_on_the_dev_server(live_server):
    port = int(live_server.rsplit(":", 1)[1])
    status, body, content_type = _chunked_request(port, "/api/rules/meld", _big_json())
    assert status == 413
    assert content_type.startswith("application/json")
    assert b'"error"' in body


@pytest.fixture
def cheroot_server(tmp_path) -> Iterator[int]:
    """The app behind cheroot, bound as `make run` binds it (serve.bind), on a loopback port."""
    application = create_app(dict(TEST_CONFIG), instance_path=str(tmp_path / "instance"))
    (server,) = serve.bind(application, "127.0.0.1", [serve.Listener("PORT", 0)], threads=2)
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    try:
        yield server.bind_addr[1]
    finally:
        server.stop()
        thread.join(timeout=5)


def test_chunked_body_over_the_limit_under_cheroot(cheroot_server):
    status, body, content_type = _chunked_request(cheroot_server, "/api/rules/meld", _big_json())
    assert status == 413
    assert content_type.startswith("application/json")
    small = b'{"cards": 7}'
    status, body, _ = _chunked_request(cheroot_server, "/api/rules/meld", small)
    assert status == 400
    assert b"'cards' must be text or a list" in body


def test_declared_body_over_the_limit_under_cheroot(cheroot_server):
    connection = http.client.HTTPConnection("127.0.0.1", cheroot_server, timeout=10)
    try:
        connection.request(
            "POST",
            "/api/rules/meld",
            body=_big_json(),
            headers={"Content-Type": "application/json"},
        )
        response = connection.getresponse()
        assert response.status == 413
        assert response.getheader("Content-Type").startswith("application/json")
        assert response.getheader("Cache-Control") == "no-store"
    finally:
        connection.close()


def raw_answer(port: int, sent: bytes) -> tuple[int, dict[str, str], bytes]:
    """What the server answers to bytes sent as they are (no client library to tidy them)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        raw.sendall(sent)
        answer = read_until_closed(raw)
    return parse_answer(answer)


def read_until_closed(sock) -> bytes:
    parts = []
    while part := sock.recv(65536):
        parts.append(part)
    return b"".join(parts)


def parse_answer(answer: bytes) -> tuple[int, dict[str, str], bytes]:
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines)
    return int(status_line.split()[1]), headers, body


SERVERS_OWN_ANSWERS = {
    "malformed request line": (b"NONSENSE\r\n\r\n", 400),
    "illegal header line": (b"GET / HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n", 400),
    "body over the server's cap": (
        b"POST /api/rules/meld HTTP/1.1\r\nHost: x\r\nContent-Length: 9000000\r\n\r\n",
        413,
    ),
}


@pytest.mark.parametrize("sent, status", SERVERS_OWN_ANSWERS.values(), ids=SERVERS_OWN_ANSWERS)
def test_the_servers_own_answers_carry_the_security_headers(cheroot_server, sent, status):
    """cheroot answers these before the app runs; they carry the app's headers all the same
    (and no HSTS: this is plain HTTP)."""
    got, headers, body = raw_answer(cheroot_server, sent)
    assert got == status
    assert headers["Content-Security-Policy"] == EXPECTED_CSP
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["X-Frame-Options"] == "DENY"
    assert "Strict-Transport-Security" not in headers
    assert int(headers["Content-Length"]) == len(body)


# --- 5. Never the debugger ----------------------------------------------------------------------


# Built from the defaults alone, as `make run` builds it: on the default SQLite file.
AS_MADE_BY_MAKE_RUN = pytest.mark.sqlite_only("the app as `make run` builds it, on its SQLite file")


@AS_MADE_BY_MAKE_RUN
def test_default_app_is_not_in_debug_mode(tmp_path, monkeypatch):
    monkeypatch.delenv("FLASK_DEBUG", raising=False)
    app = create_app(instance_path=str(tmp_path / "instance"))
    assert app.debug is False
    assert not app.testing
    assert not app.config.get("PROPAGATE_EXCEPTIONS")


@pytest.fixture
def served_app(tmp_path, monkeypatch):
    """The app exactly as `make run` builds it (serve.main), caught before cheroot starts."""
    monkeypatch.setenv("FLASK_DEBUG", "1")  # even a debug flag left in the shell must not win
    monkeypatch.delenv("DATABASE_URL", raising=False)
    captured = {}

    def fake_create_app():
        return scorekeeper.create_app(instance_path=str(tmp_path / "instance"))

    def fake_serve(app, **options):
        captured["app"] = app
        captured["options"] = options

    monkeypatch.setattr(serve, "create_app", fake_create_app)
    monkeypatch.setattr(serve, "serve", fake_serve)
    serve.main(["--host", "127.0.0.1", "--port", "5999"])
    return captured["app"]


def _boom():
    raise RuntimeError("secret detail of the crash")


@AS_MADE_BY_MAKE_RUN
def test_served_app_never_runs_the_debugger(served_app):
    assert served_app.debug is False
    served_app.add_url_rule("/test/boom", "boom", _boom)
    response = served_app.test_client().get("/test/boom")
    assert response.status_code == 500
    html = response.get_data(as_text=True)
    assert "Something went wrong" in html
    for leak in ("Traceback", "Werkzeug Debugger", "__debugger__", "secret detail", "RuntimeError"):
        assert leak not in html
    assert response.headers["Content-Security-Policy"] == EXPECTED_CSP


@AS_MADE_BY_MAKE_RUN
def test_served_api_crash_is_json_without_details(served_app):
    served_app.add_url_rule("/api/test-boom", "api_boom", _boom)
    response = served_app.test_client().get("/api/test-boom")
    assert response.status_code == 500
    assert response.is_json
    error = response.get_json()["error"]
    assert "secret detail" not in error
    assert "Traceback" not in error


# --- In a real browser --------------------------------------------------------------------------


@pytest.fixture
def form_application(tmp_path, fresh_database):
    """The app with the CSRF-protected test form."""
    config = dict(TEST_CONFIG, WTF_CSRF_ENABLED=True)
    config["SQLALCHEMY_DATABASE_URI"] = fresh_database("form")
    application = create_app(config, instance_path=str(tmp_path / "form-instance"))
    add_form_route(application)
    application.add_url_rule(
        "/test/inline",
        "test_inline",
        lambda: "<title>untouched</title><script>document.title = 'ran'</script>",
    )
    return application


@pytest.fixture
def form_server(form_application) -> Iterator[str]:
    """The CSRF-protected test form served over HTTP, for chromium to fill in."""
    with serving(form_application) as url:
        yield url


@pytest.mark.browser
def test_pages_break_no_policy_in_chromium(page, app):
    """Chromium reports every inline script or style the CSP blocks: there must be none."""
    violations = []
    page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    for path in _pages(app):
        if path.endswith(DOWNLOADS):
            continue  # a file to save (the paper sheet's template), never shown as a page
        response = page.goto(path, wait_until="load")
        assert response.status < 500, path
    assert violations == []


@pytest.mark.browser
def test_chromium_enforces_the_policy(tablet, form_server):
    """The check above means something: an inline script is refused, and reported."""
    tab = tablet("landscape", base_url=form_server).new_page()
    messages = []
    tab.on("console", lambda message: messages.append(message.text))
    tab.goto("/test/inline", wait_until="load")
    assert tab.title() == "untouched"
    assert any("Content Security Policy" in text for text in messages), messages


@pytest.mark.browser
def test_expired_form_round_trip_in_chromium(tablet, form_application, form_server):
    tab = tablet("landscape", base_url=form_server).new_page()
    tab.goto("/test/form")
    tab.fill("input[name=name]", "Ann")
    tab.fill("input[name=score]", "12")
    form_application.config["WTF_CSRF_TIME_LIMIT"] = -1  # past midnight: the form expired
    tab.click("button[type=submit]")
    tab.wait_for_selector("text=press Send again")
    expect(tab.locator("td", has_text="Ann")).to_have_count(1)
    form_application.config["WTF_CSRF_TIME_LIMIT"] = 3600
    tab.click("button:has-text('Send again')")
    assert tab.locator("#saved").inner_text().endswith("name=Ann; score=12")


@pytest.mark.browser
def test_a_form_from_a_lost_session_is_shown_not_resent(tablet, form_server):
    tab = tablet("landscape", base_url=form_server).new_page()
    tab.goto("/test/form")
    tab.fill("input[name=name]", "Ann")
    tab.context.clear_cookies()  # the session (and its CSRF secret) is gone: no proof of origin
    tab.click("button[type=submit]")
    tab.wait_for_selector("text=Nothing was saved")
    expect(tab.locator("td", has_text="Ann")).to_have_count(1)
    expect(tab.locator("form")).to_have_count(0)
    tab.get_by_role("link", name="Open a fresh form").click()
    # the click starts the navigation; the fresh form is there once the new page has loaded
    expect(tab.locator("input[name=csrf_token]")).to_have_count(1)
    expect(tab.locator("td", has_text="Ann")).to_have_count(0)
