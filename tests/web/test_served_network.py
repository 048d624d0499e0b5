"""The network in front of an app served in the tests' own process (`tests/support/server.py`,
`Wifi`): the browser tests take it down to play a tablet whose Wi-Fi is gone, and rely on what is
sent meanwhile never reaching the app."""

import http.client
from urllib.error import URLError
from urllib.request import Request, urlopen

import pytest
from flask import Flask

from tests.support.server import Wifi, serving, wifi


def counting_app() -> tuple[Flask, list[str]]:
    app = Flask("counted")
    seen: list[str] = []

    @app.post("/save")
    def save():
        seen.append("save")
        return "saved"

    return app, seen


def post(url: str, headers=None) -> str:
    sent = Request(f"{url}/save", data=b"round=1", method="POST", headers=headers or {})
    with urlopen(sent, timeout=10) as answer:
        return answer.read().decode()


def test_a_post_while_the_network_is_down_never_reaches_the_app_nor_is_answered():
    app, seen = counting_app()
    with serving(app) as url:
        network = wifi(url)
        network.down()
        with pytest.raises((URLError, http.client.RemoteDisconnected, ConnectionError)):
            post(url)
        assert seen == []
        assert network.dropped == [("POST", "/save")]
        assert post(url, headers=Wifi.WIRED) == "saved"  # the laptop itself, past the Wi-Fi
        network.up()
        assert post(url) == "saved"
        assert seen == ["save", "save"]


def test_each_served_app_has_its_own_network():
    first, first_seen = counting_app()
    second, second_seen = counting_app()
    with serving(first) as one, serving(second) as other:
        wifi(one).down()
        assert post(other) == "saved"
        assert (first_seen, second_seen) == ([], ["save"])
    with pytest.raises(KeyError):
        wifi(one)  # gone with its server
