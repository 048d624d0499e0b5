"""The home page: the first game leads on a first evening, and the serving machine's own screen
shows the address and QR code for the tablet."""

from __future__ import annotations

import base64
import re

import pytest
from flask_babel import force_locale, gettext
from markupsafe import escape

from scorekeeper.platform import network
from tests.support.book import new_game

HOME_WIFI = {"lo": ["127.0.0.1"], "docker0": ["172.17.0.1"], "wlan0": ["192.168.1.20"]}
HINT = "Open this on the tablet"


@pytest.fixture(autouse=True)
def fake_machine(monkeypatch):
    """The machine's interfaces and default route replaced by a laptop on home Wi-Fi."""
    monkeypatch.setattr(network, "machine_interfaces", lambda: HOME_WIFI)
    monkeypatch.setattr(network, "route_address", lambda: "192.168.1.20")


def home(client, remote_addr: str, base_url: str = "http://localhost:5000") -> str:
    response = client.get("/", base_url=base_url, environ_base={"REMOTE_ADDR": remote_addr})
    assert response.status_code == 200
    return response.get_data(as_text=True)


def button_titles(html: str) -> list[str]:
    return re.findall(r'class="big-button[^"]*" href="[^"]*"><strong>([^<]+)</strong>', html)


@pytest.mark.parametrize("loopback", ["127.0.0.1", "::1"])
def test_from_the_serving_machine_the_home_page_shows_the_tablet_address(client, loopback):
    html = home(client, loopback)
    assert HINT in html
    assert '<a class="button secondary tablet-url" href="http://192.168.1.20:5000/">' in html
    assert "On another network: http://172.17.0.1:5000/" in html


def test_the_qr_code_is_inline_and_holds_the_address(client):
    html = home(client, "127.0.0.1")
    (source,) = re.findall(r'<img src="(data:image/svg\+xml;base64,[^"]+)"', html)
    svg = base64.b64decode(source.split(",", 1)[1]).decode()
    assert "<svg" in svg and "<path" in svg
    assert 'alt="QR code for http://192.168.1.20:5000/"' in html
    assert "http" not in re.sub(r'xmlns(:\w+)?="[^"]+"', "", svg)  # draws, loads nothing


def test_the_port_comes_from_the_address_the_page_was_opened_on(client):
    html = home(client, "127.0.0.1", base_url="http://localhost:5123")
    assert 'href="http://192.168.1.20:5123/"' in html


def test_the_port_make_run_listens_on_wins(app, client):
    app.config.update(SERVE_HOST="0.0.0.0", SERVE_PORT=5200)
    assert 'href="http://192.168.1.20:5200/"' in home(client, "127.0.0.1")


def test_with_https_served_the_serving_machine_shows_the_tablets_two_steps(app, client):
    """The same two steps `make run` prints: trust over plain HTTP, then the secure address."""
    app.config.update(SERVE_HOST="0.0.0.0", SERVE_PORT=5000, SERVE_HTTPS_PORT=5443)
    html = home(client, "127.0.0.1")
    steps = re.findall(
        r'<strong>([^<]+)</strong></p>\s*<p><a class="button secondary tablet-url" href="([^"]+)"',
        html,
    )
    assert steps == [
        ("Trust this score book (once per tablet)", "http://192.168.1.20:5000/trust"),
        ("Open the score book", "https://192.168.1.20:5443/"),
    ]
    assert 'alt="QR code for http://192.168.1.20:5000/trust"' in html
    assert 'alt="QR code for https://192.168.1.20:5443/"' in html
    assert len(re.findall(r'<img src="data:image/svg\+xml;base64,', html)) == 2


@pytest.mark.parametrize("remote", ["192.168.1.31", "10.0.0.4", "::ffff:192.168.1.31", "fe80::1"])
def test_from_another_device_the_home_page_shows_nothing_of_it(client, remote):
    html = home(client, remote)
    assert HINT not in html
    assert "tablet-hint" not in html
    assert "192.168.1.20" not in html
    assert "data:image/svg" not in html


@pytest.mark.parametrize(
    "header", [("X-Forwarded-For", "203.0.113.9"), ("Forwarded", "for=203.0.113.9")]
)
def test_a_request_relayed_by_a_proxy_on_this_machine_is_not_its_own_screen(client, header):
    response = client.get("/", environ_base={"REMOTE_ADDR": "127.0.0.1"}, headers=dict([header]))
    assert HINT not in response.get_data(as_text=True)


def test_served_on_loopback_only_it_says_no_tablet_can_reach_it(app, client):
    app.config.update(SERVE_HOST="127.0.0.1", SERVE_PORT=5000)
    html = home(client, "127.0.0.1")
    assert "Only this machine can open the app" in html
    assert "<code>HOST=127.0.0.1</code>" in html
    assert HINT not in html
    assert "192.168.1.20" not in html


def test_with_no_network_it_says_to_join_the_wifi(client, monkeypatch):
    monkeypatch.setattr(network, "machine_interfaces", lambda: {"lo": ["127.0.0.1"]})
    monkeypatch.setattr(network, "route_address", lambda: None)
    html = home(client, "127.0.0.1")
    assert "No network yet" in html
    assert "Join the tablet's Wi-Fi" in html
    assert HINT not in html


def test_with_no_game_yet_the_page_leads_with_the_first_game(client):
    html = home(client, "192.168.1.31")
    titles = button_titles(html)
    assert titles[0] == "Start your first game"
    assert 'href="/games/new"><strong>Start your first game' in html
    assert "Games" not in titles  # an empty list is nowhere to go yet


def test_once_a_game_exists_the_usual_choices_return(client):
    new_game(client)
    titles = button_titles(home(client, "192.168.1.31"))
    assert titles == ["New game", "Games", "Our rules", "Rules check"]


def test_healthz_says_no_backup_was_taken_yet(client):
    assert client.get("/healthz").get_json() == {"ok": True, "last_backup": None}


def test_the_tablets_two_steps_speak_the_serving_machines_language(app, client):
    app.config.update(SERVE_HOST="0.0.0.0", SERVE_PORT=5000, SERVE_HTTPS_PORT=5443)
    response = client.get(
        "/",
        base_url="http://localhost:5000",
        environ_base={"REMOTE_ADDR": "127.0.0.1"},
        headers={"Accept-Language": "fi"},
    )
    html = response.get_data(as_text=True)
    steps = re.findall(r'<strong>([^<]+)</strong></p>\s*<p><a class="button secondary', html)
    with app.test_request_context(), force_locale("fi"):
        expected = [
            str(escape(gettext("Trust this score book (once per tablet)"))),
            gettext("Open the score book"),
        ]
        hint = gettext("Open this on the tablet")
    assert steps == expected
    assert expected[1] == "Avaa pistekirja" and hint == "Avaa tämä tabletilla"  # shipped fi
    assert hint in html
