"""`make run` over HTTPS as real processes and real connections: both ports answer, the HTTPS one
with a certificate the score book's own authority vouches for, a cookie set over HTTPS is Secure,
the wrong protocol on either port is answered or dropped without harm, SIGTERM stops both, and a
renewed certificate is served without a restart."""

from __future__ import annotations

import http.client
import signal
import socket
import ssl
import threading
import time
from contextlib import ExitStack
from pathlib import Path

import pytest
from flask_babel import force_locale, gettext

from scorekeeper import serve
from scorekeeper.tls import certificates, serving
from tests.support.server import (
    LOOPBACK,
    SERVE_MODULE,
    Server,
    refused_on_a_busy_port,
    request,
)

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("tls-serving")]


@pytest.fixture(scope="module")
def secure_server(tmp_path_factory, module_database) -> Server:
    """One server with HTTPS on the engine under test, its authority in a folder of its own."""
    folder = tmp_path_factory.mktemp("secure-server")
    env = {"TLS_FOLDER": str(folder / "tls")}
    with Server(module_database("book"), folder / "server.log", env, https=True) as server:
        yield server


def authority(server: Server) -> str:
    return str(Path(server.env["TLS_FOLDER"]) / "ca.crt")


def secure_connection(port: int, cafile: str, timeout: float = 10) -> http.client.HTTPConnection:
    """HTTPS to loopback, checking the certificate against `cafile` for the name `localhost`."""
    context = ssl.create_default_context(cafile=cafile)
    raw = socket.create_connection((LOOPBACK, port), timeout=timeout)
    connection = http.client.HTTPConnection("localhost", port, timeout=timeout)
    connection.sock = context.wrap_socket(raw, server_hostname="localhost")
    return connection


def secure_get(port: int, cafile: str, path: str) -> http.client.HTTPResponse:
    return get(secure_connection(port, cafile), path)


def plain_get(port: int, path: str) -> http.client.HTTPResponse:
    return get(http.client.HTTPConnection(LOOPBACK, port, timeout=10), path)


def get(connection: http.client.HTTPConnection, path: str) -> http.client.HTTPResponse:
    """One GET on the connection, read whole; the connection closed."""
    connection.request("GET", path)
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


def test_both_ports_answer_and_https_is_vouched_for_by_the_authority(secure_server):
    assert request(secure_server.port, "GET", "/healthz")[0] == 200
    assert secure_server.https_port not in (None, secure_server.port)
    answer = secure_get(secure_server.https_port, authority(secure_server), "/healthz")
    assert answer.status == 200
    assert secure_server.secure_url == f"https://localhost:{secure_server.https_port}"


def test_the_start_says_what_was_made_and_where_https_is(secure_server):
    log = secure_server.log()
    assert "Made a certificate authority" in log
    assert f"open https://localhost:{secure_server.https_port}/" in log
    assert f"open http://localhost:{secure_server.port}/" in log


def test_https_without_the_authority_is_a_certificate_error(secure_server):
    with pytest.raises(ssl.SSLCertVerificationError):
        secure_get(secure_server.https_port, None, "/healthz")  # the system's authorities only
    assert request(secure_server.port, "GET", "/healthz")[0] == 200


def session_cookie(response: http.client.HTTPResponse, name: str = "session") -> str:
    cookies = [value for header, value in response.getheaders() if header.lower() == "set-cookie"]
    (cookie,) = [cookie for cookie in cookies if cookie.startswith(f"{name}=")]
    return cookie


def test_the_session_cookie_is_secure_over_https_only(secure_server):
    """cheroot says `wsgi.url_scheme` https on the HTTPS port: the app marks its cookie Secure
    (and names it `__Host-session`, apart from the plain address's)."""
    over_https = session_cookie(
        secure_get(secure_server.https_port, authority(secure_server), "/games/new"),
        "__Host-session",
    )
    assert "Secure" in over_https.split("; ")
    over_http = session_cookie(plain_get(secure_server.port, "/games/new"))
    assert "Secure" not in over_http.split("; ")


def test_plain_http_to_the_https_port_is_refused_at_once_and_serving_goes_on(secure_server):
    """cheroot answers 400 ("only speaks HTTPS") and closes; the close may reach the client
    first, as a reset. Either way at once, never a connection left hanging."""
    connection = http.client.HTTPConnection(LOOPBACK, secure_server.https_port, timeout=10)
    started = time.monotonic()
    try:
        connection.request("GET", "/healthz")
        answer = connection.getresponse()
        assert (answer.status, b"only speaks HTTPS" in answer.read()) == (400, True)
    except (ConnectionResetError, http.client.RemoteDisconnected):
        pass
    finally:
        connection.close()
    assert time.monotonic() - started < 5
    assert secure_get(secure_server.https_port, authority(secure_server), "/healthz").status == 200


def test_a_client_that_connects_and_says_nothing_holds_up_no_one(secure_server):
    """cheroot shakes hands on the thread that accepts; serving moves the handshake off it, or
    one silent tablet would hold every other HTTPS connection for the socket's 10 s timeout."""
    # Connected, the silent client is ahead of the next in the listening socket's queue: the
    # server accepts it first, whenever it comes to accept.
    with socket.create_connection((LOOPBACK, secure_server.https_port), timeout=10):
        started = time.monotonic()
        answer = secure_get(secure_server.https_port, authority(secure_server), "/healthz")
        assert answer.status == 200
        assert time.monotonic() - started < 2


def test_https_to_the_http_port_is_served_with_the_same_certificate(secure_server):
    """A browser told HSTS for this machine's name opens `http://name:PORT/` as
    `https://name:PORT/`: the plain port answers TLS too, as the HTTPS port does, and plain
    HTTP still, on the same port."""
    cafile = authority(secure_server)
    over_tls = secure_get(secure_server.port, cafile, "/games/new")
    assert over_tls.status == 200
    assert over_tls.getheader("Strict-Transport-Security") == "max-age=31536000"
    assert "Secure" in session_cookie(over_tls, "__Host-session").split("; ")
    assert served_certificate(secure_server.port) == served_certificate(secure_server.https_port)
    plain = plain_get(secure_server.port, "/healthz")
    assert plain.status == 200 and plain.getheader("Strict-Transport-Security") is None


def test_hsts_over_https_never_over_plain_http(secure_server):
    secure = secure_get(secure_server.https_port, authority(secure_server), "/")
    assert secure.getheader("Strict-Transport-Security") == "max-age=31536000"
    plain = plain_get(secure_server.port, "/")
    assert plain.status == 200 and plain.getheader("Strict-Transport-Security") is None


@pytest.mark.parametrize("port", ["https_port", "port"])
def test_the_servers_own_answer_over_https_carries_hsts(secure_server, port):
    """cheroot's own 400 (here a malformed request line), on either port over TLS."""
    connection = secure_connection(getattr(secure_server, port), authority(secure_server))
    connection.connect = lambda: None  # the TLS socket is there already
    connection.sock.sendall(b"NONSENSE\r\n\r\n")
    answer = http.client.HTTPResponse(connection.sock)
    answer.begin()
    answer.read()
    connection.close()
    assert answer.status == 400
    assert answer.getheader("Strict-Transport-Security") == "max-age=31536000"
    assert answer.getheader("X-Frame-Options") == "DENY"


def test_a_client_silent_on_the_plain_port_holds_up_no_one(secure_server):
    with socket.create_connection((LOOPBACK, secure_server.port), timeout=10):  # accepted first
        started = time.monotonic()
        assert secure_get(secure_server.port, authority(secure_server), "/healthz").status == 200
        assert request(secure_server.port, "GET", "/healthz")[0] == 200
        assert time.monotonic() - started < 2


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl+C"])
def test_a_signal_stops_both_servers_within_ten_seconds(tmp_path, fresh_database, stop):
    server = Server(
        fresh_database("signal"),
        tmp_path / "server.log",
        {"TLS_FOLDER": str(tmp_path / "tls")},
        https=True,
    )
    with ExitStack() as stack:
        # The server starts as a program started in a terminal does, Ctrl+C reaching it: a run
        # started in the background by a shell without job control ignores SIGINT, and a program
        # inherits an ignored signal (Python then raises no KeyboardInterrupt on Ctrl+C).
        inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            stack.enter_context(server)
        finally:
            signal.signal(signal.SIGINT, inherited)
        held = secure_connection(server.https_port, str(tmp_path / "tls" / "ca.crt"))
        held.request("GET", "/healthz")  # a keep-alive connection left open
        held.getresponse().read()
        started = time.monotonic()
        server.process.send_signal(stop)
        assert server.process.wait(timeout=10) == 0
        assert time.monotonic() - started < 10
        held.close()
    assert "Traceback" not in server.log()


def test_a_busy_https_port_is_one_sentence_and_nothing_is_announced(tmp_path, fresh_database):
    refused_on_a_busy_port(
        lambda port: (
            [*SERVE_MODULE, "--host", LOOPBACK, "--port", "0", "--https", "yes"]
            + ["--https-port", str(port)]
        ),
        {
            "PYTHONPATH": str(ROOT),
            "DATABASE_URL": fresh_database("busy"),
            "TLS_FOLDER": str(tmp_path / "tls"),
        },
        "HTTPS_PORT",
    )


# --- Renewal while serving ----------------------------------------------------------------------


def served_certificate(port: int) -> bytes:
    """The certificate a new connection to `port` is given (DER), trusting anything."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    with (
        socket.create_connection((LOOPBACK, port), timeout=10) as raw,
        context.wrap_socket(raw) as wrapped,
    ):
        return wrapped.getpeercert(binary_form=True)


def run_until_logged(renewal: serving.Renewal, logged: list[str]) -> None:
    """Run the renewal's thread until it has said something (10 seconds at most), then stop it."""
    renewal.start()
    try:
        deadline = time.monotonic() + 10
        while not logged and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        renewal.stop()
        renewal.join(timeout=5)


def der(path: Path) -> bytes:
    return ssl.PEM_cert_to_DER_cert(path.read_text())


def on_the_home_network(address: str) -> certificates.Names:
    """This machine's names at `address` on the home network, 192.168.1.0/24."""
    return certificates.machine_names([address], networks=["192.168.1.0/24"])


@pytest.fixture
def https_in_process(tmp_path):
    """An HTTPS server in this process, as `make run` binds it, on the first certificate."""
    first = certificates.ensure(tmp_path, on_the_home_network("192.168.1.20"))
    first_der = der(first.certificate)
    tls = serving.adapter(first)
    (server,) = serve.bind(
        lambda environ, start: start("200 OK", []) or [b"ok"],
        LOOPBACK,
        [serve.Listener("HTTPS_PORT", 0, tls)],
        threads=2,
    )
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    try:
        yield server.bind_addr[1], tls, first_der
    finally:
        server.stop()
        thread.join(timeout=5)


def test_a_renewed_certificate_is_served_without_a_restart(https_in_process, tmp_path):
    port, tls, first = https_in_process
    assert served_certificate(port) == first
    moved = on_the_home_network("192.168.1.21")  # a new lease
    logged: list[str] = []
    renewal = serving.Renewal(
        lambda: certificates.ensure(tmp_path, moved), tls, interval=0.05, log=logged.append
    )
    run_until_logged(renewal, logged)
    renewed = der(certificates.ensure(tmp_path, moved).certificate)
    assert renewed != first
    assert served_certificate(port) == renewed
    assert len(logged) == 1 and logged[0].startswith("HTTPS certificate renewed: ")


def test_nothing_made_is_nothing_reloaded_and_a_failure_keeps_the_certificate(https_in_process):
    port, tls, first = https_in_process
    logged: list[str] = []
    unchanged = certificates.Credentials(Path("/nowhere.crt"), Path("/nowhere.key"), Path("/ca"))
    serving.Renewal(lambda: unchanged, tls, log=logged.append).check()
    assert logged == []

    def broken():
        raise OSError(28, "No space left on device")

    serving.Renewal(broken, tls, log=logged.append).check()
    assert logged == ["Could not renew the HTTPS certificate: [Errno 28] No space left on device"]
    assert served_certificate(port) == first


def test_a_renewal_for_an_address_the_authority_cannot_vouch_for_says_so(
    https_in_process, tmp_path
):
    port, tls, first = https_in_process
    logged: list[str] = []
    club = certificates.machine_names(["10.0.0.7"], networks=["10.0.0.0/24"])  # another network
    serving.Renewal(lambda: certificates.ensure(tmp_path, club), tls, log=logged.append).check()
    assert logged[0].startswith("HTTPS certificate renewed: Made a server certificate")
    assert logged[1:] == [
        "The certificate leaves out 10.0.0.7: it is outside the names"
        " and networks the authority was made for (remove the folder to make a new one for the"
        " networks this machine is on now; every tablet then trusts again)."
    ]


def test_the_renewal_speaks_the_apps_language(https_in_process, app_with):
    """The renewal thread looks within the app's context: what it says is in DEFAULT_LANGUAGE."""
    port, tls, first = https_in_process
    app = app_with(DEFAULT_LANGUAGE="fi")
    logged: list[str] = []

    def broken():
        raise OSError(28, "No space left on device")

    renewal = serving.Renewal(broken, tls, interval=0.05, log=logged.append, within=app.app_context)
    run_until_logged(renewal, logged)
    with app.app_context(), force_locale("fi"):
        expected = gettext(
            "Could not renew the HTTPS certificate: %(problem)s",
            problem=OSError(28, "No space left on device"),
        )
    assert logged[0] == expected
    assert served_certificate(port) == first
