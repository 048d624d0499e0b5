"""One tablet on both addresses: the secure session never stands in the plain one's way."""

from __future__ import annotations

import re


def cookie_names(response) -> list[str]:
    return [header.split("=", 1)[0] for header in response.headers.getlist("Set-Cookie")]


def test_the_secure_session_cookie_has_a_name_of_its_own(app):
    app.config["WTF_CSRF_ENABLED"] = True
    secure = app.test_client().get("/games/new", base_url="https://scores.lan:5443")
    (header,) = [h for h in secure.headers.getlist("Set-Cookie") if "session" in h]
    assert header.startswith("__Host-session=")
    assert "Secure" in header and "Path=/" in header and "Domain" not in header
    plain = app.test_client().get("/games/new", base_url="http://scores.lan:5000")
    assert "session" in cookie_names(plain)
    (plain_header,) = [h for h in plain.headers.getlist("Set-Cookie") if "session" in h]
    assert not re.search(r"\bSecure\b", plain_header)
