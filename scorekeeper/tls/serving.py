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
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from cheroot.makefile import MakeFile
from cheroot.server import HTTPConnection, HTTPRequest
from cheroot.ssl.builtin import BuiltinSSLAdapter
from flask_babel import gettext as _

from ..platform import network, security
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
# The first byte of every TLS connection (a handshake record): what the plain port listens for.
TLS_HANDSHAKE = 0x16


def choice(text: str) -> bool | None:
    """`--https`'s value: True (yes), False (no) or None (auto), for argparse."""
    try:
        return CHOICES[text.strip().lower()]
    except KeyError:
        raise argparse.ArgumentTypeError(
            _(
                "%(text)s is not one of auto, yes, no (or 1, 0, on, off, true, false)",
                text=repr(text),
            )
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
        raise SystemExit(_("HTTPS_PORT must be a port number, not %(value)s", value=repr(value)))
    return port


def names(app: Flask, host: str) -> Names:
    """Every name and address a tablet may open this machine by, as the certificate holds them:
    the addresses the server offers on `host` and the `HTTPS_NAMES` beside the machine's own;
    with the networks of its interfaces, for a new authority's constraints."""
    given = app.config["HTTPS_NAMES"] or ""
    extra = [name.strip() for name in given.split(",") if name.strip()]
    try:
        return certificates.machine_names(
            network.tablet_addresses(host), extra=extra, networks=network.machine_networks()
        )
    except ValueError as error:
        raise SystemExit(_("HTTPS_NAMES: %(problem)s", problem=error)) from None


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


def answer_headers(server, secure: bool) -> dict[str, str]:
    """The security headers for an answer cheroot writes itself, as the app's own answers carry
    them (the served app's settings decide HSTS; an app that is not this one gets the rest)."""
    app = server.wsgi_app
    if hasattr(app, "config"):
        return security.edge_headers(app, secure)
    return dict(security.SECURITY_HEADERS)


def plain_answer(status_line: str, body: bytes, headers: dict[str, str]) -> bytes:
    """A whole text/plain answer: the status line, the headers and the body."""
    lines = [status_line, "Content-Type: text/plain", f"Content-Length: {len(body)}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    return "".join(line + "\r\n" for line in lines).encode("ISO-8859-1") + b"\r\n" + body


class Request(HTTPRequest):
    """cheroot's request, its own answers (a malformed request line, headers too large, a body
    over the server's cap), written before the app runs, carrying the app's security headers."""

    def simple_response(self, status, msg=""):
        status = str(status)
        if status[:3] in {"413", "414"}:
            # As cheroot does: the rest of the request is unread, so the connection ends here;
            # HTTP/1.0 has neither status, nor the Connection header.
            self.close_connection = True
            if self.response_protocol != "HTTP/1.1":
                status = "400 Bad Request"
        body = msg.encode("ISO-8859-1") if isinstance(msg, str) else msg
        headers = answer_headers(self.server, secure=bool(self.conn.ssl_env))
        if self.close_connection and self.response_protocol == "HTTP/1.1":
            headers["Connection"] = "close"
        answer = plain_answer(f"{self.server.protocol} {status}", body, headers)
        with contextlib.suppress(OSError):
            self.conn.wfile.write(answer)


class Connection(HTTPConnection):
    """A connection of either port. On the HTTPS port the handshake comes first (see
    `LaterHandshake`), then cheroot's own request handling; a client speaking plain HTTP gets a
    400, and any other failed handshake (a tablet that does not trust the certificate yet) is
    dropped quietly.

    While HTTPS is served, the plain port answers TLS too (its server's `tls_too` is the HTTPS
    port's adapter): a browser that was told HSTS for this machine's name turns every
    `http://name:PORT/` it opens into `https://name:PORT/`, the same port, and an old bookmark or
    the trust page on the plain port would otherwise never open there again."""

    RequestHandlerClass = Request
    shaken = False
    PLAIN_HTTP = (
        b"The client sent a plain HTTP request, but this server only speaks HTTPS on this port."
    )

    def communicate(self):
        if not self.shaken:
            if not self._shake_hands():
                return False
            self.shaken = True
        return super().communicate()

    def _shake_hands(self) -> bool:
        """Start TLS where the client does, shake hands; False when the connection is done."""
        tls_too = getattr(self.server, "tls_too", None)
        if tls_too is not None:
            first = self._first_byte()
            if first is None:
                return False
            if first == TLS_HANDSHAKE:
                self._start_tls(tls_too)
        if not isinstance(self.socket, ssl.SSLSocket):
            return True
        try:
            self.socket.do_handshake()
        except ssl.SSLError as error:
            if "http request" in str(error).lower():
                self._refuse_plain_http()
            return False
        except OSError:
            return False
        return True

    def _first_byte(self) -> int | None:
        """The first byte the client sent, left for whoever reads next; None when it sent none."""
        try:
            peeked = self.socket.recv(1, socket.MSG_PEEK)
        except OSError:
            return None
        return peeked[0] if peeked else None

    def _start_tls(self, tls: LaterHandshake) -> None:
        """Go on over TLS on this socket, with the HTTPS port's certificate as it is now."""
        wrapped, self.ssl_env = tls.wrap(self.socket)
        wrapped.settimeout(self.server.timeout)
        self.socket = wrapped
        self.rfile = MakeFile(wrapped, "rb", self.rbufsize)
        self.wfile = MakeFile(wrapped, "wb", self.wbufsize)

    def _refuse_plain_http(self) -> None:
        """The plain-HTTP answer, written past TLS to the socket itself."""
        headers = answer_headers(self.server, secure=False)
        headers["Connection"] = "close"
        answer = plain_answer("HTTP/1.1 400 Bad Request", self.PLAIN_HTTP, headers)
        with contextlib.suppress(OSError):
            socket.socket.sendall(self.socket, answer)


class Renewal(threading.Thread):
    """Asks for the certificate again every `interval` seconds while the server runs; when
    something was made (the certificate neared its end, or an address changed), the HTTPS
    server takes the new one without a restart: connections from then on get it, and what it
    leaves out (an address on a network the authority was not made for) is said. Each look is
    made `within` the app's context, so that what is said is in the app's language."""

    def __init__(
        self,
        renew: Callable[[], Credentials],
        served: BuiltinSSLAdapter,
        interval: float = RENEWAL_SECONDS,
        log: Callable[[str], None] | None = None,
        within: Callable[[], AbstractContextManager] = contextlib.nullcontext,
    ):
        super().__init__(name="certificate renewal", daemon=True)
        self.renew = renew
        self.served = served
        self.interval = interval
        self.log = log or _say
        self.within = within
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.wait(self.interval):
            with self.within():
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
            self.log(_("Could not renew the HTTPS certificate: %(problem)s", problem=error))
            return
        for line in made.made:
            self.log(_("HTTPS certificate renewed: %(what)s", what=line))
        if made.made:
            # A new address on another network: the tablets there meet a warning, so say why.
            for line in made.left_out:
                self.log(line)

    def stop(self) -> None:
        self.stopped.set()


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
