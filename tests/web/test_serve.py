"""`make run`: the addresses and QR codes it prints, its default host, HTTPS or not, and a port
already in use."""

from __future__ import annotations

import contextlib
import errno
import re
import socket
import sqlite3
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest
import qrcode
from flask_babel import force_locale, gettext

import scorekeeper
from scorekeeper import serve
from scorekeeper.platform import network
from scorekeeper.tls import serving
from tests.support.names import NAMES
from tests.support.server import Server, refused_on_a_busy_port, request

ROOT = Path(__file__).resolve().parents[2]

# A laptop on home Wi-Fi with a VM bridge, a VPN, and addresses no tablet can use.
INTERFACES = {
    "lo": ["127.0.0.1"],
    "docker0": ["172.17.0.1"],
    "tun0": ["100.64.3.7"],
    "wlan0": ["192.168.1.20"],
    "eth1": ["169.254.10.10"],  # link-local: no DHCP answered
    "eth2": ["192.168.1.20"],  # the same address twice
}
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture
def fake_machine(monkeypatch):
    """The machine's interfaces and default route replaced by the laptop above."""
    monkeypatch.setattr(network, "machine_interfaces", lambda: INTERFACES)
    monkeypatch.setattr(network, "route_address", lambda: "192.168.1.20")


def read_blocks(text: str) -> list[list[bool]]:
    """The module matrix drawn by `network.qr_text` (light modules as blocks), dark = True."""
    halves = {"█": (False, False), "▄": (True, False), "▀": (False, True), "\xa0": (True, True)}
    halves[" "] = (True, True)
    rows: list[list[bool]] = []
    for line in ANSI.sub("", text).splitlines():
        pairs = [halves[char] for char in line]
        rows.append([top for top, _ in pairs])
        rows.append([bottom for _, bottom in pairs])
    return rows


def assert_draws(drawn: str, url: str) -> None:
    """The drawing is the QR code of `url`, module for module (a half row below it stays dark)."""
    code = qrcode.QRCode(border=2)
    code.add_data(url)
    code.make(fit=True)
    expected = code.get_matrix()
    rows = read_blocks(drawn)
    assert rows[: len(expected)] == expected
    assert all(all(row) for row in rows[len(expected) :])
    assert len(rows) - len(expected) in (0, 1)


def printed_qr(message: str) -> str:
    lines = message.splitlines()
    start = lines.index("or scan this with the tablet's camera:") + 1
    end = next(i for i, line in enumerate(lines) if line.startswith("On this machine,"))
    return "\n".join(line for line in lines[start:end] if line.strip())


# --- The addresses ------------------------------------------------------------------------------


def test_every_interface_gives_each_usable_ipv4_route_first_then_private():
    found = network.tablet_addresses("0.0.0.0", INTERFACES, preferred="192.168.1.20")
    assert found == ["192.168.1.20", "172.17.0.1", "100.64.3.7"]


def test_without_a_route_home_networks_come_before_bridges_and_the_rest():
    interfaces = {"tun0": ["100.64.3.7"], "br": ["172.18.0.1"], "eth0": ["10.0.0.9"]}
    interfaces["wlan0"] = ["192.168.1.20"]
    assert network.tablet_addresses("0.0.0.0", interfaces) == [
        "192.168.1.20",
        "10.0.0.9",
        "172.18.0.1",
        "100.64.3.7",
    ]


def test_the_default_route_comes_first_whatever_its_network():
    interfaces = {"wlan0": ["192.168.1.20"], "eth0": ["10.0.0.9"]}
    found = network.tablet_addresses("0.0.0.0", interfaces, preferred="10.0.0.9")
    assert found == ["10.0.0.9", "192.168.1.20"]


def test_loopback_link_local_and_junk_are_never_offered():
    interfaces = {"lo": ["127.0.0.1", "127.0.1.1"], "x": ["169.254.1.1", "not an address", "::1"]}
    assert network.tablet_addresses("0.0.0.0", interfaces) == []


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1"])
def test_a_server_on_loopback_has_no_address_for_the_tablet(host):
    assert network.tablet_addresses(host, INTERFACES) == []


def test_a_server_on_one_address_offers_that_one():
    assert network.tablet_urls("192.168.1.20", 5001, INTERFACES) == ["http://192.168.1.20:5001/"]


@pytest.mark.parametrize(
    ("address", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.8.9.10", True),
        ("::1", True),
        ("::ffff:127.0.0.1", True),
        ("localhost", True),
        ("192.168.1.20", False),
        ("::ffff:192.168.1.20", False),
        ("", False),
        (None, False),
        ("not an address", False),
    ],
)
def test_is_loopback(address, loopback):
    assert network.is_loopback(address) is loopback


def test_the_machine_has_no_loopback_among_its_tablet_addresses():
    """The real machine, read through psutil: whatever it has, loopback is never offered."""
    found = network.tablet_addresses("0.0.0.0")
    assert all(not network.is_loopback(address) for address in found)
    every = [address for found in network.machine_interfaces().values() for address in found]
    assert "127.0.0.1" in every  # psutil did read the interfaces: loopback is always up


# --- What `make run` prints ---------------------------------------------------------------------


def test_start_message_lists_every_address_then_a_qr_code_for_the_first():
    urls = network.tablet_urls("0.0.0.0", 5000, INTERFACES)
    message = serve.start_message("0.0.0.0", 5000, urls)
    lines = message.splitlines()
    assert lines[1] == "On a tablet on the same network, open:"
    assert lines[2:5] == [
        "  http://192.168.1.20:5000/",
        "  http://172.17.0.1:5000/",
        "  http://100.64.3.7:5000/",
    ]
    assert_draws(printed_qr(message), "http://192.168.1.20:5000/")
    assert lines[-2:] == ["On this machine, open http://localhost:5000/", "Stop with Ctrl+C."]


def test_qr_code_on_a_terminal_sets_its_own_colours():
    message = serve.start_message("0.0.0.0", 5000, ["http://10.0.0.9:5000/"], tty=True)
    drawn = printed_qr(message)
    assert "\x1b[48;5;232m" in drawn  # a dark ground, whatever the terminal's theme
    assert_draws(drawn, "http://10.0.0.9:5000/")


def test_start_message_on_loopback_says_the_tablet_cannot_reach_it():
    message = serve.start_message("127.0.0.1", 5002, [])
    assert "serving this machine only (HOST=127.0.0.1)" in message
    assert "On this machine, open http://localhost:5002/" in message
    assert "A tablet cannot reach it" in message
    assert "█" not in message


def test_start_message_with_no_network_says_so():
    message = serve.start_message("0.0.0.0", 5000, [])
    assert "no network address yet" in message
    assert "On this machine, open http://localhost:5000/" in message
    assert "█" not in message


class FakeServer:
    """Stands in for cheroot's server: bound, served at once, never listening."""

    def __init__(self, bind_addr, app, **options):
        self.bind_addr = bind_addr
        self.app = app
        self.options = options
        self.ssl_adapter = None
        self.ran = self.stopped = False

    def prepare(self):
        pass

    def serve(self):
        self.ran = True

    def stop(self):
        self.stopped = True


# `serve.main` builds the app from its defaults: the database is a SQLite file in the instance folder.
SERVES_THE_DEFAULT = pytest.mark.sqlite_only("serves the default database, a SQLite file")


@pytest.fixture
def started(tmp_path, monkeypatch, fake_machine):
    """`serve.main` as `make run` calls it, on the fake laptop, with cheroot's server faked."""
    servers: list[FakeServer] = []

    def fake_server(bind_addr, app, **options):
        servers.append(FakeServer(bind_addr, app, **options))
        return servers[-1]

    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("TRUSTED_PROXIES", raising=False)
    monkeypatch.setattr(
        serve, "create_app", lambda: scorekeeper.create_app(instance_path=str(tmp_path / "i"))
    )
    monkeypatch.setattr(serve, "WSGIServer", fake_server)
    # A served process keeps what its start made out of the cycle collector's passes; this test
    # process goes on to other tests.
    monkeypatch.setattr(serve.gc, "freeze", lambda: None)
    return servers


@SERVES_THE_DEFAULT
def test_main_prints_the_addresses_binds_and_serves(started, capsys):
    serve.main(["--port", "5123", "--https", "no"])
    out = capsys.readouterr().out
    assert (
        "  http://192.168.1.20:5123/\n  http://172.17.0.1:5123/\n  http://100.64.3.7:5123/" in out
    )
    assert_draws(printed_qr(out), "http://192.168.1.20:5123/")
    assert "On this machine, open http://localhost:5123/" in out
    (server,) = started
    assert server.bind_addr == ("0.0.0.0", 5123)  # every interface unless told otherwise
    assert server.ssl_adapter is None
    assert server.ran and server.stopped


@SERVES_THE_DEFAULT
def test_the_served_home_page_shows_the_address_that_was_printed(started, capsys):
    serve.main(["--host", "0.0.0.0", "--port", "5124", "--https", "0"])
    lines = capsys.readouterr().out.splitlines()
    printed = lines[lines.index("On a tablet on the same network, open:") + 1].strip()
    page = started[0].app.test_client().get("/", environ_base={"REMOTE_ADDR": "127.0.0.1"})
    html = page.get_data(as_text=True)
    assert printed == "http://192.168.1.20:5124/"
    assert f'href="{printed}"' in html


@SERVES_THE_DEFAULT
def test_python_m_serve_keeps_host_and_port(started, capsys):
    serve.main(["--host", "127.0.0.1", "--port", "5125", "--threads", "3"])
    (server,) = started
    assert server.bind_addr == ("127.0.0.1", 5125)
    assert server.options["numthreads"] == 3
    assert "A tablet cannot reach it" in capsys.readouterr().out


@pytest.mark.sqlite_only("SQLite's own files: the write-ahead log folded back at a stop")
def test_a_stopped_server_leaves_the_book_in_one_file(tmp_path):
    """SIGTERM, as Ctrl+C or a service manager stops it: the server closes its database
    connections before it exits, so the book is one file again, holding what was written, with
    no `-wal` or `-shm` beside it (its start's objects are never collected, so nothing else
    would close them)."""
    book = tmp_path / "book.sqlite"
    with Server(f"sqlite:///{book}", tmp_path / "server.log") as server:
        status, _ = request(server.port, "POST", "/api/games", {"players": NAMES})
        assert status == 201
        assert (tmp_path / "book.sqlite-wal").exists()  # written through the log while it runs
    assert server.process.returncode == 0, server.log()
    assert sorted(path.name for path in tmp_path.glob("book.sqlite*")) == ["book.sqlite"]
    with contextlib.closing(sqlite3.connect(book)) as stored:
        assert stored.execute("SELECT count(*) FROM games").fetchone() == (1,)


# --- The Makefile ---------------------------------------------------------------------------------


def make_run_command(*assignments: str) -> str:
    shown = subprocess.run(
        ["make", "-n", "run", *assignments], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    return next(line for line in shown.splitlines() if "scorekeeper.serve" in line)


def test_make_run_serves_every_interface_by_default():
    assert "--host 0.0.0.0 --port 5000" in make_run_command()


def test_make_run_host_keeps_it_on_this_machine():
    assert "--host 127.0.0.1 --port 5001" in make_run_command("HOST=127.0.0.1", "PORT=5001")


# --- A port in use --------------------------------------------------------------------------------


def test_a_busy_port_is_one_sentence_and_a_non_zero_exit(tmp_path):
    refused_on_a_busy_port(
        lambda port: ["-m", "scorekeeper.serve", "--host", "127.0.0.1", "--port", str(port)],
        {"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite'}"},
    )


def test_the_port_suggested_instead_is_free(tmp_path):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        suggested = serve.free_port_after("127.0.0.1", port - 1)
        assert suggested != port
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", suggested))  # raises if the suggestion was taken


def test_an_address_not_on_this_machine_is_one_sentence():
    error = OSError(errno.EADDRNOTAVAIL, "Cannot assign requested address")
    assert serve.bind_problem(error, "10.9.9.9", 5000) == (
        "10.9.9.9 is not an address of this machine: try HOST=0.0.0.0 make run"
    )


def test_a_busy_https_port_names_its_own_variable():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        error = OSError(errno.EADDRINUSE, "Address already in use")
        message = serve.bind_problem(error, "127.0.0.1", port, "HTTPS_PORT")
    assert re.fullmatch(rf"port {port} is in use: try HTTPS_PORT=\d+ make run", message)


def test_an_https_port_without_the_rights_suggests_its_default():
    error = OSError(errno.EACCES, "Permission denied")
    assert serve.bind_problem(error, "0.0.0.0", 443, "HTTPS_PORT") == (
        "port 443 needs rights this user lacks: try HTTPS_PORT=5443 make run"
    )


def test_when_the_https_port_is_busy_the_http_one_is_let_go(tmp_path):
    """Both ports are bound before anything is announced; the second failing frees the first."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        bound: list = []
        original = serve.WSGIServer.prepare

        def noting(server):
            original(server)
            bound.append(server)

        listeners = [serve.Listener("PORT", 0), serve.Listener("HTTPS_PORT", busy)]
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(serve.WSGIServer, "prepare", noting)
            with pytest.raises(SystemExit) as stopped:
                serve.bind(lambda environ, start: [], "127.0.0.1", listeners, threads=1)
    assert str(stopped.value).startswith(f"port {busy} is in use: try HTTPS_PORT=")
    (first,) = bound
    assert first.ready is False  # stopped again
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", first.bind_addr[1]))  # raises if the HTTP port were still held


# --- HTTPS or not ---------------------------------------------------------------------------------


def secure_message(port=5000, https_port=5443, notes=(), tty=False) -> str:
    urls = network.tablet_urls("0.0.0.0", port, INTERFACES)
    secure = serve.Secure(https_port, tuple(notes))
    return serve.start_message("0.0.0.0", port, urls, tty=tty, secure=secure)


def qr_after(message: str, caption: str) -> str:
    """The QR code drawn under the line that starts with `caption`."""
    lines = message.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(caption)) + 1
    drawn = []
    for line in lines[start:]:
        if not line or ANSI.sub("", line).strip("█▄▀\xa0 "):
            break
        drawn.append(line)
    return "\n".join(drawn)


def test_with_https_two_qr_codes_trust_then_open():
    message = secure_message(5000, 5443)
    lines = message.splitlines()
    assert "1. Trust this score book (once per tablet): http://192.168.1.20:5000/trust" in lines
    assert "2. Open the score book: https://192.168.1.20:5443/" in lines
    assert_draws(qr_after(message, "1. Trust this score book"), "http://192.168.1.20:5000/trust")
    assert_draws(qr_after(message, "2. Open the score book"), "https://192.168.1.20:5443/")
    assert "  http://172.17.0.1:5000/trust  then  https://172.17.0.1:5443/" in lines
    assert "  http://100.64.3.7:5000/trust  then  https://100.64.3.7:5443/" in lines
    assert lines[-2:] == ["On this machine, open http://localhost:5000/", "Stop with Ctrl+C."]


def test_with_https_on_a_terminal_both_codes_set_their_colours():
    message = secure_message(tty=True)
    for caption, url in [
        ("1. Trust", "http://192.168.1.20:5000/trust"),
        ("2. Open", "https://192.168.1.20:5443/"),
    ]:
        drawn = qr_after(message, caption)
        assert "\x1b[48;5;232m" in drawn
        assert_draws(drawn, url)


def test_with_https_what_was_made_and_left_out_is_said():
    made = "Made a certificate authority for this score book in instance/tls: trust it once."
    left_out = "The certificate leaves out 203.0.113.9: the authority cannot vouch for it."
    lines = secure_message(notes=[made, left_out]).splitlines()
    assert (
        lines.index(made)
        < lines.index(left_out)
        < lines.index("On this machine, open http://localhost:5000/")
    )


def test_https_on_loopback_says_its_address_on_this_machine():
    secure = serve.Secure(5443, ("Made a certificate authority in /tmp/tls.",))
    message = serve.start_message("127.0.0.1", 5002, [], secure=secure)
    assert "Over HTTPS, open https://localhost:5443/" in message.splitlines()
    assert "On this machine, open http://localhost:5002/" in message
    assert "Made a certificate authority in /tmp/tls." in message
    assert "█" not in message


def test_https_with_no_network_keeps_the_message_and_says_what_was_made():
    secure = serve.Secure(5443, ("Made a server certificate for localhost.",))
    message = serve.start_message("0.0.0.0", 5000, [], secure=secure)
    assert "no network address yet" in message
    assert "Made a server certificate for localhost." in message
    assert "█" not in message


def test_network_url_takes_a_scheme():
    assert network.url("192.168.1.20", 5443, scheme="https") == "https://192.168.1.20:5443/"
    assert network.url("fe80::1", 5443, "https") == "https://[fe80::1]:5443/"
    assert network.url("10.0.0.9", 5000) == "http://10.0.0.9:5000/"


@pytest.mark.parametrize(
    ("text", "chosen"),
    [
        ("auto", None),
        ("yes", True),
        ("1", True),
        ("on", True),
        ("TRUE", True),
        ("no", False),
        ("0", False),
        ("off", False),
        ("false", False),
    ],
)
def test_https_choice_words(text, chosen):
    assert serving.choice(text) is chosen


def test_an_unknown_https_choice_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as stopped:
        serve.main(["--https", "maybe"])
    assert stopped.value.code == 2
    assert "'maybe' is not one of auto, yes, no" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("chosen", "host", "proxies", "served"),
    [
        (None, "0.0.0.0", 0, True),  # make run: the table gets HTTPS
        (None, "192.168.1.20", 0, True),
        (None, "127.0.0.1", 0, False),  # this machine only: localhost is secure already
        (None, "::1", 0, False),
        (None, "0.0.0.0", 1, False),  # behind a proxy: its HTTPS is used
        (True, "127.0.0.1", 0, True),  # asked for (tests on loopback)
        (True, "0.0.0.0", 1, True),
        (False, "0.0.0.0", 0, False),  # HTTPS=0 make run
    ],
)
def test_when_https_is_served(chosen, host, proxies, served):
    app = SimpleNamespace(config={"TRUSTED_PROXIES": proxies})
    assert serving.wanted(chosen, host, app) is served


@pytest.mark.parametrize("value", ["abc", "-1", "70000", None])
def test_a_bad_https_port_setting_is_one_sentence(value):
    app = SimpleNamespace(config={"HTTPS_PORT": value})
    with pytest.raises(SystemExit) as stopped:
        serving.https_port(app)
    assert str(stopped.value) == f"HTTPS_PORT must be a port number, not {value!r}"


def test_the_https_port_setting_from_the_environment_is_a_number():
    assert serving.https_port(SimpleNamespace(config={"HTTPS_PORT": "5444"})) == 5444


@pytest.fixture
def certificate_asked(monkeypatch, tmp_path):
    """serving.credentials and the TLS adapter faked: the calls are noted, nothing is made."""
    asked: list[str] = []
    made = SimpleNamespace(
        certificate=tmp_path / "server.crt",
        key=tmp_path / "server.key",
        authority=tmp_path / "ca.crt",
        made=("Made a certificate authority in instance/tls.",),
        left_out=(),
        advice=(),
    )

    def credentials(app, host):
        asked.append(host)
        return made

    monkeypatch.setattr(serving, "credentials", credentials)
    monkeypatch.setattr(serving, "adapter", lambda made: ("adapter for", made.certificate))
    return asked


@SERVES_THE_DEFAULT
def test_make_run_serves_https_beside_http(started, certificate_asked, capsys):
    serve.main(["--port", "5123", "--https", "auto", "--https-port", "5444"])
    out = capsys.readouterr().out
    plain, secure = started
    assert (plain.bind_addr, plain.ssl_adapter) == (("0.0.0.0", 5123), None)
    assert secure.bind_addr == ("0.0.0.0", 5444)
    assert secure.ssl_adapter[0] == "adapter for"
    assert certificate_asked == ["0.0.0.0"]
    assert plain.app.config["SERVE_PORT"] == 5123
    assert plain.app.config["SERVE_HTTPS_PORT"] == 5444
    assert_draws(qr_after(out, "1. Trust"), "http://192.168.1.20:5123/trust")
    assert_draws(qr_after(out, "2. Open"), "https://192.168.1.20:5444/")
    assert "Made a certificate authority in instance/tls." in out
    assert plain.ran and secure.ran and plain.stopped and secure.stopped


@SERVES_THE_DEFAULT
def test_the_https_port_defaults_to_the_setting(started, certificate_asked, monkeypatch, capsys):
    monkeypatch.setenv("HTTPS_PORT", "5445")
    serve.main(["--port", "5123"])
    assert [server.bind_addr[1] for server in started] == [5123, 5445]


@SERVES_THE_DEFAULT
@pytest.mark.parametrize(
    ("arguments", "environment"),
    [
        (["--https", "0"], {}),  # HTTPS=0 make run
        ([], {"TRUSTED_PROXIES": "1"}),  # the proxy's HTTPS
        (["--host", "127.0.0.1"], {}),  # HOST=127.0.0.1 make run
    ],
)
def test_http_alone_makes_no_certificate(
    started, certificate_asked, monkeypatch, capsys, arguments, environment
):
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    serve.main(["--port", "5123", *arguments])
    (server,) = started
    assert server.ssl_adapter is None
    assert certificate_asked == []
    assert server.app.config["SERVE_HTTPS_PORT"] is None
    assert "https://" not in capsys.readouterr().out


def test_make_run_asks_for_https_by_default_on_its_own_port():
    assert "--https auto --https-port 5443" in make_run_command()


def test_make_run_https_0_and_another_https_port():
    line = make_run_command("HTTPS=0", "HTTPS_PORT=5444")
    assert "--https 0 --https-port 5444" in line


# --- In the language of the laptop: DEFAULT_LANGUAGE ------------------------------------------------


def test_the_banner_speaks_the_default_language(app_with):
    """A command has no request: what `make run` prints is in DEFAULT_LANGUAGE, through the
    catalog (the expectation as the catalog has it, whether or not it is translated yet)."""
    app = app_with(DEFAULT_LANGUAGE="fi")
    with app.app_context():
        message = secure_message(5000, 5443)
        plain = serve.start_message(
            "0.0.0.0", 5000, network.tablet_urls("0.0.0.0", 5000, INTERFACES)
        )
        elsewhere = serve.bind_problem(OSError(errno.EADDRNOTAVAIL, "not here"), "10.9.9.9", 5000)
    lines = message.splitlines()
    with app.app_context(), force_locale("fi"):
        trust = gettext(
            "%(number)s. %(step)s: %(url)s",
            number=1,
            step=gettext("Trust this score book (once per tablet)"),
            url="http://192.168.1.20:5000/trust",
        )
        opened = gettext(
            "%(number)s. %(step)s: %(url)s",
            number=2,
            step=gettext("Open the score book"),
            url="https://192.168.1.20:5443/",
        )
        expected = [
            gettext("Liverpool Scorekeeper is serving."),
            gettext("On a tablet on the same network, scan:"),
            trust,
            opened,
            gettext("Other addresses of this machine (trust, then open):"),
            gettext("On this machine, open %(url)s", url="http://localhost:5000/"),
            gettext("Stop with Ctrl+C."),
        ]
        shown = gettext("On a tablet on the same network, open:")
        not_here = gettext(
            "%(host)s is not an address of this machine: try HOST=%(default)s make run",
            host="10.9.9.9",
            default=serve.DEFAULT_HOST,
        )
    for line in expected:
        assert line in lines
    assert_draws(qr_after(message, trust), "http://192.168.1.20:5000/trust")
    assert_draws(qr_after(message, opened), "https://192.168.1.20:5443/")
    assert "2. Avaa pistekirja: https://192.168.1.20:5443/" in lines  # the shipped fi catalog
    assert shown in plain.splitlines()
    assert elsewhere == not_here


def test_outside_the_app_the_banner_is_english():
    assert "2. Open the score book: https://192.168.1.20:5443/" in secure_message().splitlines()


@SERVES_THE_DEFAULT
def test_make_run_prints_the_tablet_steps_in_the_default_language(
    started, certificate_asked, monkeypatch, capsys
):
    monkeypatch.setenv("DEFAULT_LANGUAGE", "fi")
    serve.main(["--port", "5123", "--https-port", "5444"])
    out = capsys.readouterr().out
    assert "2. Avaa pistekirja: https://192.168.1.20:5444/" in out.splitlines()
    assert_draws(qr_after(out, "2. Avaa pistekirja"), "https://192.168.1.20:5444/")
    with started[0].app.app_context(), force_locale("fi"):
        expected = gettext("On this machine, open %(url)s", url="http://localhost:5123/")
    assert expected in out.splitlines()
