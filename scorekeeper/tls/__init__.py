"""Serving the score book over HTTPS on the home network: a browser gives a page the screen
wake lock, the service worker and installing to the home screen only in a secure context, which
a plain-HTTP address on the Wi-Fi is not. So the score book makes a certificate authority of its
own (`certificates`), each tablet trusts it once (`views`: `/trust`), and pages offer the secure
address (`addresses`). Behind a reverse proxy (`TRUSTED_PROXIES`) none of it starts: the
proxy's HTTPS is used."""

from __future__ import annotations

import os
from pathlib import Path

from flask import Flask


def folder(app: Flask) -> Path:
    """Where the certificate authority and the server certificate are kept (`TLS_FOLDER`, else
    `tls` in the instance folder)."""
    return Path(app.config["TLS_FOLDER"] or os.path.join(app.instance_path, "tls"))
