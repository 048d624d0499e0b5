"""The card pad's ES modules as the tablet fetches them: how soon they have run, and what a
repeat visit asks of the server.

The pages whose entry imports other modules (the record-round form, the rules check) are served
as `make run` serves them (cheroot on a private SQLite file) and loaded by Debian's chromium
at 768x1024. Cold: a profile of its own per load, at loopback and with latency emulated per
request (Chromium's `Network.emulateNetworkConditions`, no throughput limit); the figure is
DOMContentLoaded, which waits for the module graph to be fetched and run. Repeat: the page
opened, then opened again in the same profile by navigating to it (as a link does): the
requests that reached the server the second time, and their bytes.
"""

from __future__ import annotations

import statistics
from typing import Any

from tests.support.browser import CHROMIUM_ARGS, TABLET_VIEWPORTS, whole_chromium_path
from tests.support.server import private_server
from tests.support.weight import Sight, table_sights

TITLE = "ES modules (DOMContentLoaded cold, requests on a repeat visit, chromium)"
PAGES = ("record round", "rules check")
LATENCIES_MS = (0, 30, 100)
# DOMContentLoaded, and the module fetches' longest chain: modules each asked for only once the
# one before had arrived (1 when every module is asked for at once; the import graph's depth
# when each level is found in the level above). Which scripts are modules: those the document
# does not load as classic scripts.
TIMING = """() => {
    const path = (url) => new URL(url).pathname;
    const classic = new Set([...document.scripts].filter((s) => s.type !== "module" && s.src)
        .map((s) => path(s.src)));
    const modules = performance.getEntriesByType("resource")
        .filter((e) => path(e.name).endsWith(".js") && !classic.has(path(e.name)))
        .sort((a, b) => a.startTime - b.startTime);
    const chain = [];
    modules.forEach((m, i) => {
        chain[i] = 1 + Math.max(0, ...modules.slice(0, i)
            .map((p, j) => (p.responseEnd <= m.startTime ? chain[j] : 0)));
    });
    return {
        dcl: performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd,
        modules: modules.length,
        chain: Math.max(0, ...chain),
    };
}"""


def _context(browser, base_url: str, sight: Sight):
    context = browser.new_context(
        viewport=TABLET_VIEWPORTS["portrait"], base_url=base_url, service_workers="block"
    )
    if sight.cookies:
        context.add_cookies(
            [{"name": k, "value": v, "url": base_url} for k, v in sight.cookies.items()]
        )
    return context


def cold_load(browser, base_url: str, sight: Sight, latency_ms: float) -> dict[str, float]:
    context = _context(browser, base_url, sight)
    try:
        tab = context.new_page()
        cdp = context.new_cdp_session(tab)
        cdp.send("Network.enable")
        conditions = {"latency": latency_ms, "downloadThroughput": -1, "uploadThroughput": -1}
        cdp.send("Network.emulateNetworkConditions", {"offline": False, **conditions})
        tab.goto(sight.path, wait_until="load")
        return tab.evaluate(TIMING)
    finally:
        context.close()


def repeat_visit(browser, base_url: str, sight: Sight) -> tuple[list[str], int]:
    """The URLs the second visit sent to the server, and the bytes they took."""
    context = _context(browser, base_url, sight)
    try:
        tab = context.new_page()
        tab.goto(sight.path, wait_until="networkidle")
        cdp = context.new_cdp_session(tab)
        cdp.send("Network.enable")
        tab.goto("about:blank")
        sent: dict[str, str] = {}
        cached: set[str] = set()
        sizes: dict[str, int] = {}
        cdp.on(
            "Network.requestWillBeSent",
            lambda e: sent.update({e["requestId"]: e["request"]["url"]}),
        )
        cdp.on("Network.requestServedFromCache", lambda e: cached.add(e["requestId"]))
        cdp.on(
            "Network.responseReceived",
            lambda e: e["response"].get("fromDiskCache") and cached.add(e["requestId"]),
        )
        cdp.on(
            "Network.loadingFinished",
            lambda e: sizes.update({e["requestId"]: e["encodedDataLength"]}),
        )
        tab.goto(sight.path, wait_until="networkidle")
        wire = {
            rid: url for rid, url in sent.items() if rid not in cached and url.startswith("http")
        }
        return list(wire.values()), int(sum(sizes.get(rid, 0) for rid in wire))
    finally:
        context.close()


def main(quick: bool = False) -> list[dict[str, Any]]:
    path = whole_chromium_path()
    if path is None:
        return [
            {"page": "skipped", "reason": "Debian's chromium is missing (apt-get install chromium)"}
        ]
    from playwright.sync_api import sync_playwright

    runs = 3 if quick else 9
    rows = []
    with private_server() as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=path, headless=True, args=CHROMIUM_ARGS
        )
        try:
            for sight in table_sights(server.port):
                if not sight.name.startswith(PAGES):
                    continue
                row: dict[str, Any] = {"page": sight.name}
                for latency in LATENCIES_MS:
                    loads = [cold_load(browser, server.url, sight, latency) for _ in range(runs)]
                    row[f"DCL cold, {latency} ms latency (median of {runs})"] = (
                        f"{statistics.median(load['dcl'] for load in loads):.0f} ms"
                    )
                row["modules"] = loads[-1]["modules"]
                row["longest chain of module fetches (100 ms latency)"] = max(
                    load["chain"] for load in loads
                )
                urls, size = repeat_visit(browser, server.url, sight)
                names = [url.split("?")[0].rsplit("/", 1)[-1] for url in urls]
                row["repeat visit: requests to the server"] = len(urls)
                row["repeat visit: B"] = f"{size:,}"
                row["repeat visit: what"] = ", ".join(names)
                rows.append(row)
        finally:
            browser.close()
    return rows
