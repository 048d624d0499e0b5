"""Page weight as the tablet downloads it: each page with everything it fetches, cold cache.

The figures behind tests/e2e/test_page_weight.py, which asserts them (at most 60,000 bytes a page,
nothing from another machine, no script holding up the content, the content in the HTML as
served). Here the app runs as `make run` serves it (cheroot, `python -m scorekeeper.serve`, on a
private SQLite file) and Debian's chromium, driven by Playwright at 768x1024, loads each page in a
profile of its own, opens its folded boxes and lets its lazy images come; every request is
counted as transferred (headers and body, compressed where the server compressed it), as
tests/support/weight.py measures it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from tests.support.browser import CHROMIUM_ARGS, TABLET_VIEWPORTS, whole_chromium_path
from tests.support.server import private_server
from tests.support.weight import TARGET_BYTES, Sight, Weight, table_sights, weigh_cold

TITLE = "Weight (page + assets as transferred, cold cache, chromium)"
KINDS = {"document": "HTML", "stylesheet": "CSS", "script": "JS", "image": "images"}


def row(sight: Sight, weight: Weight) -> dict[str, Any]:
    by_kind = weight.by_kind()
    other = sum(size for kind, size in by_kind.items() if kind not in KINDS)
    blocking = [url.split("/")[-1] for url in weight.blocking_scripts]
    problems = []
    if weight.total > TARGET_BYTES:
        problems.append(f"{weight.total:,} B > {TARGET_BYTES:,} B")
    if weight.external():
        problems.append("external URL: " + ", ".join(weight.external()))
    if weight.missing():
        problems.append("missing: " + ", ".join(weight.missing()))
    encodings = Counter(transfer.encoding or "none" for transfer in weight.transfers)
    return {
        "page": sight.name,
        "requests": len(weight.transfers),
        **{f"{label} B": f"{by_kind.get(kind, 0):,}" for kind, label in KINDS.items()},
        "other B": f"{other:,}",
        "transferred B (headers + bodies)": f"{weight.total:,}",
        "bodies decoded B": f"{sum(t.plain for t in weight.transfers):,}",
        "encodings": ", ".join(f"{count}× {name}" for name, count in sorted(encodings.items())),
        "scripts before the content": ", ".join(blocking) or "none",
        "result (<= 60,000 B, nothing external, nothing missing)": (
            "met" if not problems else "MISSED (" + "; ".join(problems) + ")"
        ),
    }


def main(quick: bool = False) -> list[dict[str, Any]]:
    """Weighing is deterministic: quick mode runs the same (it takes a few seconds)."""
    del quick
    path = whole_chromium_path()
    if path is None:
        return [
            {"page": "skipped", "reason": "Debian's chromium is missing (apt-get install chromium)"}
        ]
    from playwright.sync_api import sync_playwright

    with private_server() as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=path, headless=True, args=CHROMIUM_ARGS
        )
        try:
            return [
                row(sight, weigh_cold(browser, server.url, sight, TABLET_VIEWPORTS["portrait"]))
                for sight in table_sights(server.port)
            ]
        finally:
            browser.close()
