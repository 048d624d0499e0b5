"""Serving the table over HTTPS on the home network: the score book's own certificate authority
(`certificates`), the page that has a tablet trust it once (`views`), and the secure address a
page offers (`addresses`). Behind a reverse proxy (`TRUSTED_PROXIES`) none of it starts: the
proxy's HTTPS is used."""

from __future__ import annotations

import os
from pathlib import Path


def folder(app) -> Path:
    """Where the authority and the server certificate are kept: `TLS_FOLDER`, or `instance/tls`."""
    return Path(app.config.get("TLS_FOLDER") or os.path.join(app.instance_path, "tls"))
