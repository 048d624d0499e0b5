"""A page's form read as a browser reads it, to post it back as a browser would."""

from __future__ import annotations

from html.parser import HTMLParser


class _Forms(HTMLParser):
    """Collects every input of the first form: enough to press its submit button like a browser."""

    def __init__(self) -> None:
        super().__init__()
        self.action: str | None = None
        self.fields: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and self.action is None:
            self.action = attrs.get("action")
        elif tag == "input" and attrs.get("name"):
            self.fields.append((attrs["name"], attrs.get("value") or ""))


def read_form(html: str) -> _Forms:
    parser = _Forms()
    parser.feed(html)
    return parser
