"""Where the score book is served on its host: at the root, or under a sub-path (`/cards/`) a
trusted proxy names with `X-Forwarded-Prefix` (as Home Assistant's ingress does). Every address
a page writes comes from `url_for`, which already puts the prefix in front; what it cannot know
is kept here: the path a cookie is kept for, and whether a way back (`?next=`) stays inside the
score book."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import request

# A cookie whose name starts so must be kept at the path `/` (browsers refuse it otherwise).
HOST_ONLY = "__Host-"


def root() -> str:
    """The score book's own address on its host, with its slash: `/`, or `/cards/` under a
    prefix."""
    return request.script_root + "/"


def cookie_path(name: str = "") -> str:
    """The path the browser keeps a cookie for: the prefix (`/cards`), so that another app on
    the same host never reads the score book's cookies nor sets them; `/` at the root, and for
    a `__Host-` cookie, which a browser keeps only there."""
    if name.startswith(HOST_ONLY):
        return "/"
    return request.script_root or "/"


def here() -> str:
    """This request's path as the browser asked for it: under the prefix, when there is one."""
    return request.script_root + request.path


def local_path(target: str) -> str:
    """`target` when it is a path of this score book (under its prefix), else its home page: a
    way back never sends a person to another site, nor to another app on the same host."""
    parts = urlsplit(target)
    foreign = parts.scheme or parts.netloc or target.startswith(("//", "/\\"))
    prefix = request.script_root
    inside = target.startswith(prefix + "/") if prefix else target.startswith("/")
    return target if inside and not foreign else root()
