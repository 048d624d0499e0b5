"""`make run`: the addresses and QR code it prints, its default host, and a port already in use."""

from __future__ import annotations

import errno
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import qrcode

import scorekeeper
from scorekeeper import network, serve

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
    """The module matrix drawn by `qr.text_blocks` (light modules as blocks), dark = True."""
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
    """Stands in for waitress's server: bound, never run."""

    def __init__(self, app, **options):
        self.app = app
        self.options = options
        self.effective_port = options["port"]
        self.ran = False

    def run(self):
        self.ran = True


# `serve.main` builds the app from its defaults: the database is a SQLite file in the instance folder.
SERVES_THE_DEFAULT = pytest.mark.sqlite_only("serves the default database, a SQLite file")


@pytest.fixture
def started(tmp_path, monkeypatch, fake_machine):
    """`serve.main` as `make run` calls it, on the fake laptop, with waitress's server faked."""
    servers: list[FakeServer] = []

    def fake_create_server(app, **options):
        servers.append(FakeServer(app, **options))
        return servers[-1]

    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setattr(
        serve, "create_app", lambda: scorekeeper.create_app(instance_path=str(tmp_path / "i"))
    )
    monkeypatch.setattr(serve, "create_server", fake_create_server)
    return servers


@SERVES_THE_DEFAULT
def test_main_prints_the_addresses_binds_and_serves(started, capsys):
    serve.main(["--port", "5123"])
    out = capsys.readouterr().out
    assert (
        "  http://192.168.1.20:5123/\n  http://172.17.0.1:5123/\n  http://100.64.3.7:5123/" in out
    )
    assert_draws(printed_qr(out), "http://192.168.1.20:5123/")
    assert "On this machine, open http://localhost:5123/" in out
    (server,) = started
    assert server.options["host"] == "0.0.0.0"  # every interface unless told otherwise
    assert server.options["port"] == 5123
    assert server.ran


@SERVES_THE_DEFAULT
def test_the_served_home_page_shows_the_address_that_was_printed(started, capsys):
    serve.main(["--host", "0.0.0.0", "--port", "5124"])
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
    assert (server.options["host"], server.options["port"], server.options["threads"]) == (
        "127.0.0.1",
        5125,
        3,
    )
    assert "A tablet cannot reach it" in capsys.readouterr().out


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
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "scorekeeper.serve", "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT,
            env={"PATH": "/usr/bin:/bin", "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite'}"},
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode != 0
    match = re.fullmatch(rf"port {port} is in use: try PORT=(\d+) make run\n", result.stderr)
    assert match, result.stderr
    assert int(match.group(1)) != port
    assert "Traceback" not in result.stderr + result.stdout
    assert "scan this" not in result.stdout  # nothing announced for a server that never started


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
