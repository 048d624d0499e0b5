"""Serve the app with cheroot: what `make run` starts, and where the tablet finds it.

One WSGI server for both ports: plain HTTP on `PORT` (the first step on a new tablet, and this
machine's localhost) and HTTPS on `HTTPS_PORT` with the score book's own certificate, which cheroot
serves itself through the standard library's `ssl`. While HTTPS is served `PORT` answers TLS too,
for the browser that HSTS sends there (see `tls.serving.Connection`).
"""

from __future__ import annotations

import argparse
import errno
import gc
import signal
import socket
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cheroot import wsgi
from flask_babel import gettext as _

from . import create_app
from .games import names
from .platform import database, network, settings
from .season import players
from .tls import addresses, serving

BODY_CAP = 8 * 1024 * 1024
DEFAULT_HOST = settings.default("SERVE_HOST")
DEFAULT_PORT = 5000
DEFAULT_HTTPS_PORT = settings.default("HTTPS_PORT")
# Seconds a connection may sit silent (a TLS handshake included) before it is dropped.
SOCKET_TIMEOUT = 10
# Seconds the worker threads get to finish their requests on stop.
SHUTDOWN_SECONDS = 3
# The options that set each port, for the way out of a busy one when started as a program
# (`scorekeeper serve`) rather than by `make run` and its variables.
OPTIONS = {"PORT": "--port", "HTTPS_PORT": "--https-port", "HOST": "--host"}
# The program that started this server (`scorekeeper serve`); None: `make run`.
started_as: str | None = None


class WSGIServer(wsgi.Server):
    """cheroot's server, raising the operating system's own error when it cannot listen:
    cheroot's error keeps only its words, and the one-line message needs the errno."""

    def bind(self, family, type, proto=0):  # noqa: A002  (cheroot's own names)
        try:
            return super().bind(family, type, proto)
        except OSError as error:
            self.bind_error = error
            raise

    def prepare(self) -> None:
        self.bind_error: OSError | None = None
        try:
            super().prepare()
        except OSError as error:
            raise self.bind_error or error from None


@dataclass(frozen=True)
class Listener:
    """One port to serve: `variable` is the make variable that sets it (PORT, HTTPS_PORT), for
    the message when it is busy; `tls` is the TLS adapter for HTTPS, None for plain HTTP;
    `tls_too` the adapter a plain port answers TLS with too, when HTTPS is served."""

    variable: str
    port: int
    tls: Any = None
    tls_too: Any = None


@dataclass(frozen=True)
class Secure:
    """HTTPS as the start message tells it: its port and what the certificate step said (what
    was made, what the certificate leaves out)."""

    port: int
    notes: tuple[str, ...] = ()


def main(argv: list[str] | None = None, program: str | None = None) -> None:
    """Parse the arguments, make the certificate when HTTPS is served, bind both ports, print
    where to open the app, and serve until stopped. `program` is the command that started it
    (`scorekeeper serve`), named in the ways out of a busy port; None for `make run`."""
    global started_as
    started_as = program
    parser = argparse.ArgumentParser(
        prog=program, description="Serve Liverpool Scorekeeper with cheroot."
    )
    parser.add_argument("--host", default=DEFAULT_HOST)
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument("--https-port", type=int, default=None)
    parser.add_argument("--https", type=serving.choice, default=None, metavar="{auto,yes,no}")
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args(argv)
    app = create_app()
    app.debug = False  # never the interactive debugger on a served app
    # Everything printed here is for the person at this machine: in DEFAULT_LANGUAGE, the
    # language a command speaks (it has no request to ask).
    with app.app_context():
        revision = database.upgrade()
        print(_("Database at revision %(revision)s.", revision=revision), flush=True)
        print(_("Data folder: %(folder)s", folder=app.instance_path), flush=True)
    names.name_key("")  # read the look-alike table now, not on the first new game
    app.config["SERVE_HOST"] = args.host
    listeners = [Listener("PORT", args.port)]
    renewal = notes = None
    if serving.wanted(args.https, args.host, app):
        with app.app_context():
            https_port = serving.https_port(app) if args.https_port is None else args.https_port
            made = serving.credentials(app, args.host)
        notes = made.made + made.left_out + made.advice
        tls = serving.adapter(made)
        # A browser told HSTS for this machine's name opens its plain address over TLS.
        listeners = [
            Listener("PORT", args.port, tls_too=tls),
            Listener("HTTPS_PORT", https_port, tls),
        ]
        renewal = serving.Renewal(
            lambda: serving.credentials(app, args.host), tls, within=app.app_context
        )

    def announce(port: int, https_port: int | None) -> str:
        # The home page shows the serving machine the same addresses as printed here.
        app.config["SERVE_PORT"] = port
        app.config["SERVE_HTTPS_PORT"] = https_port
        urls = network.tablet_urls(args.host, port)
        secure = None if https_port is None else Secure(https_port, notes or ())
        with app.app_context():
            return start_message(args.host, port, urls, tty=sys.stdout.isatty(), secure=secure)

    serve(
        app,
        message=announce,
        host=args.host,
        listeners=listeners,
        threads=args.threads,
        renewal=renewal,
    )


# How long a worker thread may hold Python's interpreter lock before another gets it (Python's
# default is 5 ms). A request spends most of its time waiting on the database, and each answer
# from it must win the lock back: at 5 ms, eight phones sending at once to PostgreSQL queued
# behind one another (p95 110 ms; 73 ms at 1 ms, bench/README.md).
SWITCH_SECONDS = 0.001


def serve(
    app,
    *,
    message: Callable[[int, int | None], str],
    host: str,
    listeners: Sequence[Listener],
    threads: int = 8,
    renewal: serving.Renewal | None = None,
) -> None:
    """Bind every port first, so that a port in use is one sentence before anything is
    announced; then announce the ports really bound (`--port 0` takes any free one, as tests
    do), and serve until Ctrl+C or SIGTERM."""
    with app.app_context():  # a port in use is said in the app's language
        servers = bind(app, host, listeners, threads)
    sys.setswitchinterval(SWITCH_SECONDS)
    # What the start made (the imports, the app, its routes, its engine) lives as long as the
    # process: the cycle collector leaves it out of its full passes, which then walk only what
    # the requests made, and out of its last passes at exit. Those took half a second of CPU at
    # every stop (bench/README.md, "Test suite"); what is left of a stop is cheroot's own wait
    # for its connection loop, at most half a second.
    gc.freeze()
    ports = [server.bind_addr[1] for server in servers]
    print(message(ports[0], ports[1] if len(ports) > 1 else None), flush=True)
    threading.Thread(target=players.warm, args=(app,), name="season at start", daemon=True).start()
    if renewal is not None:
        renewal.start()
    try:
        run(servers)
    finally:
        if renewal is not None:
            renewal.stop()
        # Closed here, not left to the exit: what the start made is never collected (above).
        database.close_connections(app)


def bind(app, host: str, listeners: Sequence[Listener], threads: int) -> list[WSGIServer]:
    """A cheroot server for each listener, listening already; when one cannot, those bound
    before it are stopped and the reason is one sentence."""
    servers: list[WSGIServer] = []
    for listener in listeners:
        server = WSGIServer(
            (host, listener.port),
            app,
            numthreads=threads,
            server_name="scorekeeper",
            timeout=SOCKET_TIMEOUT,
            shutdown_timeout=SHUTDOWN_SECONDS,
        )
        # cheroot reads a declared body only as the app asks for it, and refuses one larger than
        # this before the app sees it. Bodies between the app's 64 KiB limit and this cap get
        # the app's own 413 (JSON under /api/).
        server.max_request_body_size = BODY_CAP
        # Security headers on cheroot's own answers; the handshake off the accepting thread.
        server.ConnectionClass = serving.Connection
        server.ssl_adapter = listener.tls
        server.tls_too = listener.tls_too
        try:
            server.prepare()
        except OSError as error:
            for other in servers:
                other.stop()
            raise SystemExit(bind_problem(error, host, listener.port, listener.variable)) from None
        servers.append(server)
    return servers


def run(servers: Sequence[wsgi.Server]) -> None:
    """Serve each server in its own thread until one stops, Ctrl+C or SIGTERM; then stop all."""
    done = threading.Event()

    def serve_one(server: wsgi.Server) -> None:
        try:
            server.serve()
        finally:
            done.set()

    def on_terminate(signum, frame) -> None:
        done.set()

    in_main = threading.current_thread() is threading.main_thread()
    before = signal.signal(signal.SIGTERM, on_terminate) if in_main else None
    workers = [
        threading.Thread(
            target=serve_one, args=(server,), name=f"serve {server.bind_addr}", daemon=True
        )
        for server in servers
    ]
    try:
        for worker in workers:
            worker.start()
        while not done.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        for server in servers:
            server.stop()
        for worker in workers:
            worker.join(timeout=SHUTDOWN_SECONDS + 1)
        if in_main:
            signal.signal(signal.SIGTERM, before)


def start_message(
    host: str, port: int, urls: Sequence[str], tty: bool = False, secure: Secure | None = None
) -> str:
    """What `make run` prints: the tablet's addresses and a QR code for the first (with HTTPS,
    two: trust this score book, then open it), then this machine's own address. In the app
    context's language (a command's: DEFAULT_LANGUAGE); English outside one."""
    here = _("On this machine, open %(url)s", url=f"http://localhost:{port}/")
    stop = _("Stop with Ctrl+C.")
    notes = list(secure.notes) if secure else []
    if network.is_loopback(host):
        lines = [
            _("Liverpool Scorekeeper is serving this machine only (HOST=%(host)s).", host=host),
            here,
            _("A tablet cannot reach it: start it with `make run` to serve the table.")
            if started_as is None
            else _(
                "A tablet cannot reach it: start it with `%(command)s` to serve the table.",
                command=started_as,
            ),
        ]
        if secure:
            lines.insert(2, _("Over HTTPS, open %(url)s", url=f"https://localhost:{secure.port}/"))
        return "\n".join(notes + lines)
    if not urls:
        return "\n".join(
            [
                _("Liverpool Scorekeeper is serving, but this machine has no network address yet."),
                _("Join the tablet's Wi-Fi: the home page here then shows the tablet's address."),
                *notes,
                here,
            ]
        )
    if secure:
        return "\n".join(_secure_lines(urls, secure, tty) + notes + [here, stop])
    lines = [_("Liverpool Scorekeeper is serving."), _("On a tablet on the same network, open:")]
    lines += [f"  {url}" for url in urls]
    lines += [_("or scan this with the tablet's camera:"), network.qr_text(urls[0], tty=tty)]
    lines += [here, stop]
    return "\n".join(lines)


def _secure_lines(urls: Sequence[str], secure: Secure, tty: bool) -> list[str]:
    """The two steps for a tablet, a QR code each, on the first address; then the others."""
    trust, opened = addresses.steps(urls[0], secure.port)
    lines = [_("Liverpool Scorekeeper is serving."), _("On a tablet on the same network, scan:")]
    for number, (name, url) in enumerate(
        zip(addresses.STEP_NAMES, (trust, opened), strict=True), 1
    ):
        step = _("%(number)s. %(step)s: %(url)s", number=number, step=name, url=url)
        lines += [step, network.qr_text(url, tty=tty)]
    if len(urls) > 1:
        lines.append(_("Other addresses of this machine (trust, then open):"))
        for url in urls[1:]:
            trust, opened = addresses.steps(url, secure.port)
            lines.append("  " + _("%(trust)s  then  %(open)s", trust=trust, open=opened))
    return lines


def bind_problem(error: OSError, host: str, port: int, variable: str = "PORT") -> str:
    """Why the server could not listen, as one sentence with the way out (`variable` is the make
    variable that sets the port)."""
    if started_as is not None:
        return _program_problem(error, host, port, variable, started_as)
    if error.errno == errno.EADDRINUSE:
        return _(
            "port %(port)s is in use: try %(variable)s=%(free)s make run",
            port=port,
            variable=variable,
            free=free_port_after(host, port),
        )
    if error.errno == errno.EACCES:
        default = DEFAULT_HTTPS_PORT if variable == "HTTPS_PORT" else DEFAULT_PORT
        return _(
            "port %(port)s needs rights this user lacks: try %(variable)s=%(default)s make run",
            port=port,
            variable=variable,
            default=default,
        )
    if error.errno == errno.EADDRNOTAVAIL:
        return _(
            "%(host)s is not an address of this machine: try HOST=%(default)s make run",
            host=host,
            default=DEFAULT_HOST,
        )
    return _(
        "cannot listen on %(host)s port %(port)s: %(reason)s",
        host=host,
        port=port,
        reason=error.strerror or error,
    )


def _program_problem(error: OSError, host: str, port: int, variable: str, program: str) -> str:
    """`bind_problem` for a server started as a program: the way out is its option."""
    option = OPTIONS.get(variable, "--port")
    if error.errno == errno.EADDRINUSE:
        way = f"{program} {option} {free_port_after(host, port)}"
        return _("port %(port)s is in use: try %(command)s", port=port, command=way)
    if error.errno == errno.EACCES:
        default = DEFAULT_HTTPS_PORT if variable == "HTTPS_PORT" else DEFAULT_PORT
        way = f"{program} {option} {default}"
        return _(
            "port %(port)s needs rights this user lacks: try %(command)s", port=port, command=way
        )
    if error.errno == errno.EADDRNOTAVAIL:
        way = f"{program} --host {DEFAULT_HOST}"
        return _(
            "%(host)s is not an address of this machine: try %(command)s", host=host, command=way
        )
    return _(
        "cannot listen on %(host)s port %(port)s: %(reason)s",
        host=host,
        port=port,
        reason=error.strerror or error,
    )


def free_port_after(host: str, port: int, tries: int = 20) -> int:
    """The first port after `port` that `host` can listen on now (or simply the next one)."""
    for candidate in range(port + 1, min(port + 1 + tries, 65536)):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as cheroot does
            try:
                probe.bind(("" if ":" in host else host, candidate))
            except OSError:
                continue
            return candidate
    return port + 1


if __name__ == "__main__":
    main()
