"""The secure address of a page: the host the tablet used, on the HTTPS port being served; and
whether the browser sees the page as an insecure context."""

from __future__ import annotations

import pytest

from scorekeeper.tls import addresses


@pytest.mark.parametrize(
    ("host", "url"),
    [
        ("192.168.1.20:5000", "https://192.168.1.20:5443/"),
        ("192.168.1.20", "https://192.168.1.20:5443/"),
        ("Scores.LAN:5000", "https://scores.lan:5443/"),
        ("laptop.local", "https://laptop.local:5443/"),
        ("[fe80::1]:5000", "https://[fe80::1]:5443/"),
        ("[2001:DB8::1]", "https://[2001:db8::1]:5443/"),
    ],
)
def test_the_secure_url_keeps_the_host_and_takes_the_https_port(host, url):
    assert addresses.secure_url(host, 5443) == url


@pytest.mark.parametrize(
    "host",
    [
        "",
        ":5000",
        "scores.lan;connect-src *",
        "a b",
        "scores.lan:5000/x",
        "[nope]:5000",
        "[1.2.3.4]",
        "[fe80::1%eth0]:5000",
    ],
)
def test_a_host_that_is_not_one_gives_no_secure_url(host):
    """A Host header is the client's to write: nothing but an address or a name reaches a link
    or the page's Content-Security-Policy."""
    assert addresses.secure_url(host, 5443) is None


def test_the_secure_origin_is_the_url_without_its_slash():
    assert addresses.secure_origin("https://[fe80::1]:5443/") == "https://[fe80::1]:5443"


@pytest.mark.parametrize(
    ("base_url", "insecure"),
    [
        ("http://192.168.1.20:5000", True),
        ("http://scores.lan:5000", True),
        ("http://[fe80::1]:5000", True),
        ("http://localhost:5000", False),
        ("http://app.localhost:5000", False),
        ("http://127.0.0.1:5000", False),
        ("http://127.1.2.3:5000", False),
        ("http://[::1]:5000", False),
        ("https://192.168.1.20:5443", False),
        ("https://scores.lan:5443", False),
    ],
)
def test_an_insecure_context_is_plain_http_to_another_host_than_this_machine(
    app, base_url, insecure
):
    with app.test_request_context("/", base_url=base_url):
        assert addresses.insecure_context() is insecure


def test_the_secure_address_needs_https_served_and_a_plain_request(app):
    with app.test_request_context("/", base_url="http://192.168.1.20:5000"):
        assert addresses.secure_address() is None  # SERVE_HTTPS_PORT is None: no HTTPS served
    app.config["SERVE_HTTPS_PORT"] = 5443
    with app.test_request_context("/", base_url="http://192.168.1.20:5000"):
        assert addresses.secure_address() == "https://192.168.1.20:5443/"
    with app.test_request_context("/", base_url="https://192.168.1.20:5443"):
        assert addresses.secure_address() is None  # already there
