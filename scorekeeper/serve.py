"""Serve the app with waitress: what `make run` starts."""

from __future__ import annotations

import argparse

from waitress import serve

from . import create_app, database, security

WAITRESS_BODY_CAP = 8 * 1024 * 1024


def main(argv: list[str] | None = None) -> None:
    """Parse host and port, print where to open the app, and serve until stopped."""
    parser = argparse.ArgumentParser(description="Serve Liverpool Scorekeeper with waitress.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=5000)
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args(argv)
    app = create_app()
    app.debug = False  # never the interactive debugger on a served app
    with app.app_context():
        revision = database.upgrade()
    print(f"Database at revision {revision}.", flush=True)
    shown = "localhost" if args.host in ("127.0.0.1", "0.0.0.0", "::") else args.host
    print(f"Liverpool Scorekeeper: open http://{shown}:{args.port}/", flush=True)
    if args.host == "0.0.0.0":
        print("Serving on every network interface: use this machine's address on the tablet.")
    serve(
        app,
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


if __name__ == "__main__":
    main()
