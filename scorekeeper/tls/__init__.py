"""Serving over HTTPS on the home network: a certificate authority of this machine's own, the
server's certificate it signs, and serving with it.

A browser gives a page its secure-context features (the screen kept on, the offline page,
installing to the home screen) only over HTTPS or on localhost, so a tablet at the table needs an
HTTPS address it trusts.
"""

from __future__ import annotations

from pathlib import Path

from flask import Flask


def folder(app: Flask) -> Path:
    """Where the certificate authority and the server's certificate are kept: `TLS_FOLDER`, or
    `tls/` in the instance folder."""
    return Path(app.config["TLS_FOLDER"] or Path(app.instance_path) / "tls")
