"""A page's form posted as a browser without scripts posts it: every control's name and value
(checkboxes and radios only when checked, a select's chosen option), nothing inside a
`<template>`, and no button but the one pressed."""

from __future__ import annotations

from html.parser import HTMLParser


class _Form(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.fields: list[tuple[str, str]] = []
        self.action: str | None = None
        self._template = 0
        self._select: str | None = None
        self._options: list[tuple[str, bool]] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "template":
            self._template += 1
        if self._template:
            return
        if tag == "form" and self.action is None:
            self.action = attrs.get("action")
        elif tag == "input" and attrs.get("name"):
            kind = attrs.get("type", "text")
            if kind in ("submit", "button", "file"):
                return
            if kind in ("checkbox", "radio") and "checked" not in attrs:
                return
            self.fields.append(
                (
                    attrs["name"],
                    attrs.get("value") or ("on" if kind in ("checkbox", "radio") else ""),
                )
            )
        elif tag == "select" and attrs.get("name"):
            self._select, self._options = attrs["name"], []
        elif tag == "option" and self._select is not None:
            self._options.append((attrs.get("value") or "", "selected" in attrs))

    def handle_endtag(self, tag):
        if tag == "template":
            self._template -= 1
        elif tag == "select" and self._select is not None:
            chosen = [value for value, selected in self._options if selected] or [
                value for value, _ in self._options[:1]
            ]
            self.fields.extend((self._select, value) for value in chosen)
            self._select = None


def fields_of(html: str) -> list[tuple[str, str]]:
    """The fields the page's first form posts, in page order."""
    parser = _Form()
    parser.feed(html)
    return parser.fields


def changed(fields: list[tuple[str, str]], **values: str | None) -> dict[str, list[str]]:
    """The fields with some set (`None`: left out, as an unticked box is), for the test client;
    a `__` in a keyword stands for `-` in the field's name."""
    data: dict[str, list[str]] = {}
    for name, value in fields:
        data.setdefault(name, []).append(value)
    for key, value in values.items():
        name = key.replace("__", "-")
        if value is None:
            data.pop(name, None)
        else:
            data[name] = [value]
    return data
