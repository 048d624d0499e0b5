"""`make run` over HTTPS: whether to serve it, the certificate for this machine's names, the TLS
adapter cheroot serves it with, and renewing the certificate while the server runs."""

from __future__ import annotations

import argparse
import contextlib
import socket
import ssl
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from cheroot.server import HTTPConnection
from cheroot.ssl.builtin import BuiltinSSLAdapter

from .. import network, security
from . import certificates, folder
from .certificates import Credentials, Names

if TYPE_CHECKING:
    from flask import Flask

# Words `--https` (and `HTTPS=… make run`) takes; None is "auto".
CHOICES: dict[str, bool | None] = {"auto": None}
CHOICES.update(dict.fromkeys(("yes", "1", "on", "true"), True))
CHOICES.update(dict.fromkeys(("no", "0", "off", "false"), False))
# How often the running server looks at its certificate again: often enough that a new address
# (the laptop moved to another network) is covered before anyone notices, rarely enough to cost
# nothing.
RENEWAL_SECONDS = 10 * 60


def choice(text: str) -> bool | None:
    """`--https`'s value: True (yes), False (no) or None (auto), for argparse."""
    try:
        return CHOICES[text.strip().lower()]
    except KeyError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not one of auto, yes, no (or 1, 0, on, off, true, false)"
        ) from None


def wanted(chosen: bool | None, host: str, app: Flask) -> bool:
    """Whether to serve HTTPS. Auto serves it unless the server is on loopback (this machine is
    a secure context on localhost already, and no tablet can reach it) or behind trusted
    proxies (theirs is the HTTPS the tablets use)."""
    if chosen is not None:
        return chosen
    return not network.is_loopback(host) and not security.trusted_proxies(app)


def https_port(app: Flask) -> int:
    """`HTTPS_PORT` as a port number, or one sentence saying what is wrong with it."""
    value = app.config["HTTPS_PORT"]
    try:
        port = int(value)
    except (TypeError, ValueError):
        port = -1
    if not 0 <= port <= 65535:
        raise SystemExit(f"HTTPS_PORT must be a port number, not {value!r}")
    return port


def names(app: Flask, host: str) -> Names:
    """Every name and address a tablet may open this machine by, as the certificate holds them:
    the addresses the server offers on `host` and the `HTTPS_NAMES` beside the machine's own."""
    given = app.config["HTTPS_NAMES"] or ""
    extra = [name.strip() for name in given.split(",") if name.strip()]
    try:
        return certificates.machine_names(network.tablet_addresses(host), extra=extra)
    except ValueError as error:
        raise SystemExit(f"HTTPS_NAMES: {error}") from None


def credentials(app: Flask, host: str) -> Credentials:
    """The server's certificate for this machine's names now, made or renewed when it has to be
    (the certificate authority too, on the first run)."""
    return certificates.ensure(folder(app), names(app, host))


def context(made: Credentials) -> ssl.SSLContext:
    """A server-side TLS context holding the certificate and its key, as cheroot's own adapter
    makes one."""
    made_context = ssl.create_default_context(purpose=ssl.Purpose.CLIENT_AUTH)
    made_context.load_cert_chain(str(made.certificate), str(made.key))
    return made_context


def adapter(made: Credentials) -> BuiltinSSLAdapter:
    """cheroot's TLS adapter (the standard library's `ssl`) serving the certificate."""
    return LaterHandshake(str(made.certificate), str(made.key))


class LaterHandshake(BuiltinSSLAdapter):
    """cheroot's adapter with the TLS handshake moved off the thread that accepts connections.

    cheroot shakes hands as it accepts, so one client that connects and says nothing (a tablet
    that lost the Wi-Fi half-way) holds up every other HTTPS connection for the socket's whole
    timeout. Here the socket is only wrapped on accepting; `Connection` shakes hands on a worker
    thread once the client has spoken, and a silent one waits in cheroot's keep-alive selector
    like any idle connection."""

    def wrap(self, sock):
        wrapped = self.context.wrap_socket(sock, server_side=True, do_handshake_on_connect=False)
        return wrapped, {"wsgi.url_scheme": "https", "HTTPS": "on"}


class Connection(HTTPConnection):
    """A connection of the HTTPS server: the handshake first (see `LaterHandshake`), then
    cheroot's own request handling. A client speaking plain HTTP gets cheroot's 400; any other
    failed handshake (a tablet that does not trust the certificate yet) is dropped quietly."""

    shaken = False
    PLAIN_HTTP = (
        b"The client sent a plain HTTP request, but this server only speaks HTTPS on this port."
    )

    def communicate(self):
        if not self.shaken and isinstance(self.socket, ssl.SSLSocket):
            try:
                self.socket.do_handshake()
            except ssl.SSLError as error:
                if "http request" in str(error).lower():
                    self._refuse_plain_http()
                return False
            except OSError:
                return False
            self.shaken = True
        return super().communicate()

    def _refuse_plain_http(self) -> None:
        """The plain-HTTP answer, written past TLS to the socket itself."""
        head = "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nConnection: close\r\n"
        head += f"Content-Length: {len(self.PLAIN_HTTP)}\r\n\r\n"
        with contextlib.suppress(OSError):
            socket.socket.sendall(self.socket, head.encode() + self.PLAIN_HTTP)


class Renewal(threading.Thread):
    """Asks for the certificate again every `interval` seconds while the server runs; when
    something was made (the certificate neared its end, or an address changed), the HTTPS
    server takes the new one without a restart: connections from then on get it."""

    def __init__(
        self,
        renew: Callable[[], Credentials],
        served: BuiltinSSLAdapter,
        interval: float = RENEWAL_SECONDS,
        log: Callable[[str], None] | None = None,
    ):
        super().__init__(name="certificate renewal", daemon=True)
        self.renew = renew
        self.served = served
        self.interval = interval
        self.log = log or _say
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.wait(self.interval):
            self.check()

    def check(self) -> None:
        """One look: renew when due and serve what was made. A failure is one line and the
        server keeps the certificate it has; the next look tries again."""
        try:
            made = self.renew()
            if made.made:
                # A whole new context, swapped in at once: a connection never meets a new
                # certificate with the old key.
                self.served.context = context(made)
        except (OSError, ValueError, ssl.SSLError, SystemExit) as error:
            self.log(f"Could not renew the HTTPS certificate: {error}")
            return
        for line in made.made:
            self.log(f"HTTPS certificate renewed: {line}")

    def stop(self) -> None:
        self.stopped.set()


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
