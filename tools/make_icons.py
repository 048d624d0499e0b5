"""Draw the app's PNG icons from static/favicon.svg with Debian's chromium (run by hand when the
favicon changes; the PNGs are committed): `.venv/bin/python tools/make_icons.py`."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import sync_playwright

STATIC = Path(__file__).resolve().parent.parent / "static"
# name: (size in px, full bleed?) — a maskable or apple-touch icon fills its square (the
# launcher cuts its own shape) and keeps the spade inside the middle 80 %.
ICONS = {
    "icon-192.png": (192, False),
    "icon-512.png": (512, False),
    "maskable-512.png": (512, True),
    "apple-touch-icon.png": (180, True),
}


def page_for(svg: str, size: int, full_bleed: bool) -> str:
    if full_bleed:
        svg = re.sub(r'\s?rx="[^"]*"', "", svg, count=1)  # square corners
        svg = svg.replace('font-size="22"', 'font-size="15"').replace('y="24"', 'y="21"')
    svg = svg.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
    return (
        "<!doctype html><html><head><style>html,body{margin:0;background:transparent}"
        "svg{display:block}</style></head><body>" + svg + "</body></html>"
    )


def main() -> None:
    svg = (STATIC / "favicon.svg").read_text()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox"]
        )
        for name, (size, full_bleed) in ICONS.items():
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(page_for(svg, size, full_bleed))
            page.screenshot(path=str(STATIC / "icons" / name), omit_background=not full_bleed)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
