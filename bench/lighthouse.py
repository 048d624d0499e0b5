"""Lighthouse 12 scores of the pages a tablet opens, served by cheroot as `make run` serves them.

Lighthouse is pinned in bench/lighthouse/package.json (install it with
`npm ci --prefix bench/lighthouse`) and drives Debian's chromium (`CHROME_PATH`, default
/usr/bin/chromium); it emulates a 768×1024 tablet with Lighthouse's default mobile throttling.
Without either, the benchmark says so and gives no rows.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from tests.support.games import cookie_header, key_cookie, seed_game
from tests.support.server import Client, private_server

TITLE = "Lighthouse 12 (768×1024, mobile throttling)"
ROOT = Path(__file__).resolve().parent
LIGHTHOUSE = ROOT / "lighthouse" / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")


def lighthouse(url: str, headers: dict[str, str], chrome: str) -> dict[str, Any]:
    """One Lighthouse run on one page: its four category scores (0-100) and a few metrics."""
    with tempfile.TemporaryDirectory(prefix="scorekeeper-lighthouse-") as folder:
        report = Path(folder) / "report.json"
        command = [
            str(LIGHTHOUSE),
            url,
            "--quiet",
            "--output=json",
            f"--output-path={report}",
            f"--only-categories={','.join(CATEGORIES)}",
            "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
            "--screenEmulation.mobile",
            "--screenEmulation.width=768",
            "--screenEmulation.height=1024",
            "--screenEmulation.deviceScaleFactor=2",
        ]
        if headers:
            command.append(f"--extra-headers={json.dumps(headers)}")
        env = dict(os.environ, CHROME_PATH=chrome)
        subprocess.run(command, check=True, env=env, capture_output=True, timeout=300)
        data = json.loads(report.read_text())
    scores = {name: round(100 * (data["categories"][name]["score"] or 0)) for name in CATEGORIES}
    audits = data["audits"]
    failing = [
        audit_id
        for category in CATEGORIES
        for ref in data["categories"][category]["auditRefs"]
        if ref["weight"]
        and (audits[audit_id := ref["id"]].get("score") is not None)
        and audits[audit_id]["score"] < 1
    ]
    return {
        **scores,
        "LCP ms": round(audits["largest-contentful-paint"]["numericValue"]),
        "CLS": round(audits["cumulative-layout-shift"]["numericValue"], 3),
        "TBT ms": round(audits["total-blocking-time"]["numericValue"]),
        "below 1": " ".join(sorted(set(failing))) or "-",
    }


def main(quick: bool = False) -> list[dict[str, Any]]:
    chrome = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
    if not LIGHTHOUSE.exists() or not shutil.which(chrome):
        return [
            {"page": "skipped", "reason": "npm ci --prefix bench/lighthouse; Debian's chromium"}
        ]
    rows = []
    with private_server() as server, Client(server.port) as client:
        game = seed_game(client, 3)
        editor = cookie_header(key_cookie(client, game))
        pages = [
            ("home", "/", {}),
            ("game page, spectator", f"/games/{game.id}", {}),
            ("game page, editor", f"/games/{game.id}", editor),
            ("round form", f"/games/{game.id}/rounds/new", editor),
            ("rules check", "/rules?q=opening", {}),
        ]
        if quick:
            pages = pages[:1]
        for name, path, headers in pages:
            rows.append({"page": name, **lighthouse(server.url + path, headers, chrome)})
    return rows
