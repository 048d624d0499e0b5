"""Debian's chromium as the tests and benchmarks launch it, at the tablet sizes the pages are
made for."""

from __future__ import annotations

import os
import shutil

TABLET_VIEWPORTS = {
    "landscape": {"width": 1024, "height": 768},
    "portrait": {"width": 768, "height": 1024},
}
# A phone held upright, for a spectator's look at a game page.
PHONE_VIEWPORT = {"width": 360, "height": 640}
# The name a tablet on the table's Wi-Fi opens the app by: chromium resolves it to the loopback
# server, so a page is seen as a tablet sees it, not as the serving machine's own screen does.
LAN_NAME = "scorekeeper.lan"
# Debian's chromium-headless-shell (package of the same name): the browser tests take a quarter
# less time in it than in the whole chromium, whose window's own top bar is laid out and painted
# on every page load (bench/README.md, "Test suite").
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
# Chromium honours only the last `--disable-features`, so this one repeats Playwright's own list
# (1.65: what keeps http on http, paint unheld, no calls to Google; tests/e2e/test_chromium.py
# fails when a newer Playwright turns off one more) and adds the address bar's suggestion
# popups: headless chromium builds two of them for every new window, one renderer each, about
# half a second of CPU per browser context that no page of the app ever shows.
DISABLED_FEATURES = [
    "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose",
    "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable",
    "LensOverlay",
    "MediaRouter",
    "PaintHolding",
    "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin",
    "OptimizationHints",
    "NetworkTimeServiceQuerying",
    "AimEnabled",
    "PreconnectToSearch",
    "msForceBrowserSignIn",
    "msEdgeUpdateLaunchServicesPreferredVersion",
    "WebUIOmniboxPopup",
    "WebUIOmniboxAimPopup",
]
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    # The compositor's work in the browser's own process, not a GPU process of its own: 5 % less
    # CPU over the browser tests' pages and taps, measured on a 2-core machine.
    "--in-process-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
    f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1",
    "--disable-features=" + ",".join(DISABLED_FEATURES),
]


def lan_url(url: str) -> str:
    """A loopback server's address (`http://127.0.0.1:5123`) by the LAN name."""
    scheme, _, rest = url.partition("://")
    port = rest.rpartition(":")[2]
    return f"{scheme}://{LAN_NAME}:{port}"


def chromium_path() -> str | None:
    """The browser the tests' pages are opened in: Debian's chromium-headless-shell, the same
    chromium (Blink, V8, the network stack, at the same version) without the browser's window
    around the page, as Playwright runs headless tests itself; the whole chromium where the shell
    is not installed. `CHROMIUM` names another."""
    for candidate in (os.environ.get("CHROMIUM"), HEADLESS_SHELL):
        if candidate and os.path.exists(candidate):
            return candidate
    return whole_chromium_path()


def required(path: str | None) -> str:
    """A browser's path for a test that needs it: where none is installed, the test is skipped
    with the reason, and fails in CI (never handed to Playwright's own browser)."""
    if path is None:
        import pytest

        reason = "Debian's chromium is not installed (apt-get install chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason}: .ci/run must install it")
        pytest.skip(f"{reason} - browser tests skipped")
    return path


def launch_whole(browser, *args: str, **options):
    """The whole chromium beside the session's `browser`, with the tests' switches and `args`
    (`options`: Playwright's, such as `env`), for a test of what only the whole browser does; the
    test is skipped where it is not installed (`required`)."""
    return browser.browser_type.launch(
        executable_path=required(whole_chromium_path()),
        headless=True,
        args=[*CHROMIUM_ARGS, *args],
        **options,
    )


def whole_chromium_path() -> str | None:
    """Debian's chromium itself, never a downloaded browser: for what only the whole browser
    does (trusting an authority from its NSS database, taking a plain origin for a secure one,
    its own window) and for the benchmarks, which measure what a tablet's browser does."""
    for candidate in ("/usr/bin/chromium", shutil.which("chromium")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None
