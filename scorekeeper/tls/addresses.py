"""The secure address of the page a tablet asked for: the same host it used, on the HTTPS port
being served. The host is the one the tablet typed or scanned (an address or a name), so the
secure address is one it can reach too."""

from __future__ import annotations

import ipaddress
import re

from flask import current_app, request
from flask_babel import lazy_gettext as _l

from ..platform import network

# A host name as a link or a Content-Security-Policy may carry it: letters, digits, dots and
# hyphens. Anything else in a Host header gives no secure address rather than a broken one.
HOST_NAME = re.compile(r"^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$")
# A Host header: a name or an address, an IPv6 one in brackets, then perhaps a port.
HOST_HEADER = re.compile(r"^(\[[^\]\s/]+\]|[^:\[\]\s/]+)(?::\d{1,5})?$")
# Hosts a browser treats as a secure context even over plain HTTP.
LOOPBACK_NAMES = ("localhost",)


def host_name(request_host: str) -> str | None:
    """The host of a Host header without its port ("[fe80::1]:5000" -> "fe80::1"), lower case;
    None when it is neither an IP address nor a plain host name (a zone index, a path, spaces)."""
    found = HOST_HEADER.match(request_host)
    if found is None:
        return None
    host = found.group(1).lower()
    if host.startswith("["):
        try:
            return str(ipaddress.IPv6Address(host[1:-1])) if "%" not in host else None
        except ValueError:
            return None
    return host if HOST_NAME.match(host) else None


def secure_url(request_host: str, port: int) -> str | None:
    """`https://<the request's host>:<port>/`, IPv6 in brackets; None for a host that is not
    one (see `host_name`)."""
    return same_host_url(request_host, port, "https")


def same_host_url(request_host: str, port: int, scheme: str) -> str | None:
    """`<scheme>://<the request's host>:<port>/`, IPv6 in brackets; None for a host that is not
    one (see `host_name`)."""
    name = host_name(request_host)
    return None if name is None else network.url(name, port, scheme=scheme)


def secure_origin(url: str) -> str:
    """The origin of a secure URL (no trailing slash), as a Content-Security-Policy names it."""
    return url.rstrip("/")


def secure_address() -> str | None:
    """The secure address of this request's host, or None when there is none to offer: HTTPS is
    not served (`SERVE_HTTPS_PORT` is None) or the request already came over HTTPS."""
    port = current_app.config["SERVE_HTTPS_PORT"]
    if port is None or request.is_secure:
        return None
    return secure_url(request.host, int(port))


def plain_address() -> str | None:
    """The plain-HTTP address of this request's host, for a guest's phone that has not trusted
    the score book (it opens that one with no warning); None when there is none to offer: the
    request came over plain HTTP already, or the server does not serve both (`SERVE_PORT` or
    `SERVE_HTTPS_PORT` is None, as behind a club's HTTPS proxy)."""
    port = current_app.config["SERVE_PORT"]
    if port is None or current_app.config["SERVE_HTTPS_PORT"] is None or not request.is_secure:
        return None
    return same_host_url(request.host, int(port), "http")


def insecure_context() -> bool:
    """Whether the browser treats this page as an insecure context: plain HTTP to a host that
    is not this machine's own (`localhost`, 127.0.0.0/8, ::1 count as secure). The browser judges
    by the address it opened, so this does too, not by where the request came from."""
    if request.is_secure:
        return False
    name = host_name(request.host)
    if name is None:
        return True
    if name in LOOPBACK_NAMES or name.endswith(".localhost"):
        return False
    try:
        return not ipaddress.ip_address(name).is_loopback
    except ValueError:
        return True


# What the tablet does at each of the two addresses `steps` gives, in order (in the language
# of the page, or of `make run`'s app context, when shown).
STEP_NAMES = (_l("Trust this score book (once per tablet)"), _l("Open the score book"))


def steps(url: str, https_port: int) -> tuple[str, str]:
    """A tablet's two steps at one of this machine's plain-HTTP addresses (`make run` prints
    them, the serving machine's home page shows them): the trust page, then the secure address."""
    address = url.split("://", 1)[1].rsplit(":", 1)[0].strip("[]")
    return f"{url}trust", network.url(address, https_port, scheme="https")
