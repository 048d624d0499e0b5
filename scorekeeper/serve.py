"""Serve the app with waitress: what `make run` starts, and where the tablet finds it."""

from __future__ import annotations

import argparse
import errno
import logging
import socket
import sys
from collections.abc import Callable, Sequence

from waitress.server import create_server

from . import create_app, database, network, qr, security, settings
from .scorebook import names

WAITRESS_BODY_CAP = 8 * 1024 * 1024
DEFAULT_HOST = settings.default("SERVE_HOST")
DEFAULT_PORT = 5000


def main(argv: list[str] | None = None) -> None:
    """Parse host and port, bind, print where to open the app, and serve until stopped."""
    parser = argparse.ArgumentParser(description="Serve Liverpool Scorekeeper with waitress.")
    parser.add_argument("--host", default=DEFAULT_HOST)
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args(argv)
    app = create_app()
    app.debug = False  # never the interactive debugger on a served app
    with app.app_context():
        revision = database.upgrade()
    print(f"Database at revision {revision}.", flush=True)
    names.name_key("")  # read the look-alike table now, not on the first new game
    app.config["SERVE_HOST"] = args.host

    def announce(port: int) -> str:
        # The home page shows the serving machine the same addresses as printed here.
        app.config["SERVE_PORT"] = port
        urls = network.tablet_urls(args.host, port)
        return start_message(args.host, port, urls, tty=sys.stdout.isatty())

    serve(
        app,
        message=announce,
        host=args.host,
        port=args.port,
        threads=args.threads,
        ident="scorekeeper",
        # Waitress buffers a body before the app sees it: cap that at 8 MiB. Bodies between the
        # app's 64 KiB limit and this cap get the app's own 413 (JSON under /api/).
        max_request_body_size=WAITRESS_BODY_CAP,
        # Behind trusted proxies their X-Forwarded-* headers reach the app, which reads exactly
        # TRUSTED_PROXIES of them (ProxyFix); otherwise waitress drops them.
        clear_untrusted_proxy_headers=not security.trusted_proxies(app),
    )


def serve(app, *, message: Callable[[int], str], **options) -> None:
    """Bind first, so that a port in use is one sentence before anything is announced; then
    announce the port really bound (`--port 0` takes any free one, as tests do)."""
    logging.basicConfig()  # waitress's own warnings (a full task queue) reach the terminal
    try:
        server = create_server(app, **options)
    except OSError as error:
        raise SystemExit(bind_problem(error, options["host"], options["port"])) from None
    print(message(server.effective_port), flush=True)
    server.run()


def start_message(host: str, port: int, urls: Sequence[str], tty: bool = False) -> str:
    """What `make run` prints: the tablet's addresses and a QR code for the first, then this
    machine's own address."""
    here = f"On this machine, open http://localhost:{port}/"
    if network.is_loopback(host):
        return "\n".join(
            [
                f"Liverpool Scorekeeper is serving this machine only (HOST={host}).",
                here,
                "A tablet cannot reach it: start it with `make run` to serve the table.",
            ]
        )
    if not urls:
        return "\n".join(
            [
                "Liverpool Scorekeeper is serving, but this machine has no network address yet.",
                "Join the tablet's Wi-Fi: the home page here then shows the tablet's address.",
                here,
            ]
        )
    lines = ["Liverpool Scorekeeper is serving.", "On a tablet on the same network, open:"]
    lines += [f"  {url}" for url in urls]
    lines += ["or scan this with the tablet's camera:", qr.text_blocks(urls[0], tty=tty)]
    lines += [here, "Stop with Ctrl+C."]
    return "\n".join(lines)


def bind_problem(error: OSError, host: str, port: int) -> str:
    """Why the server could not listen, as one sentence with the way out."""
    if error.errno == errno.EADDRINUSE:
        return f"port {port} is in use: try PORT={free_port_after(host, port)} make run"
    if error.errno == errno.EACCES:
        return f"port {port} needs rights this user lacks: try PORT={DEFAULT_PORT} make run"
    if error.errno == errno.EADDRNOTAVAIL:
        return f"{host} is not an address of this machine: try HOST={DEFAULT_HOST} make run"
    return f"cannot listen on {host} port {port}: {error.strerror or error}"


def free_port_after(host: str, port: int, tries: int = 20) -> int:
    """The first port after `port` that `host` can listen on now (or simply the next one)."""
    for candidate in range(port + 1, min(port + 1 + tries, 65536)):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as waitress does
            try:
                probe.bind(("" if ":" in host else host, candidate))
            except OSError:
                continue
            return candidate
    return port + 1


if __name__ == "__main__":
    main()
