"""Debian's chromium as the tests and benchmarks launch it, at the tablet sizes the pages are
made for."""

from __future__ import annotations

import os
import shutil

TABLET_VIEWPORTS = {
    "landscape": {"width": 1024, "height": 768},
    "portrait": {"width": 768, "height": 1024},
}
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
]


def chromium_path() -> str | None:
    """Debian's chromium, never a downloaded browser."""
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None
