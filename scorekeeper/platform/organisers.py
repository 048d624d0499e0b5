"""Organisers: with the setting `ORGANISER_PASSWORD` (the argon2 hash of one club password), only
an organiser may do what belongs to the whole club; without it everyone may, as always.

The check is here, beneath every feature; the features put it on their routes in one line:
`@organiser_required` on a route that is the club's as a whole (a merge, a delete), or
`require()` inside a view where only some requests are (a rename among a rule set's changes).
A request that is not an organiser's raises `OrganiserRequired` (403), answered by the app's
sign-in module (`scorekeeper.organisers`) as a page that offers the sign-in, or as JSON under
/api/.

Who is an organiser:
- a page's request whose session carries the organiser mark (`MARK`): the time it was given
  and a fingerprint of the password's hash; it ends after `ORGANISER_SESSION_HOURS`, at sign-out,
  and when the setting changes (the fingerprint no longer matches);
- an API request with the same signed session cookie (read only when a guarded route asks: the
  API otherwise opens no session), or with `Authorization: Basic` whose password (any user name)
  argon2 verifies. A wrong one is counted against `RATELIMIT_ORGANISER_SIGN_INS`, as the
  sign-in form's are.

No password is kept or logged in clear: the setting holds a hash (a value that is not one stops
the app at start, without repeating it), the session a keyed fingerprint of that hash, and a
refusal names no password.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import math
import time
from collections.abc import Callable
from typing import Any

from argon2 import PasswordHasher, extract_parameters
from argon2.exceptions import InvalidHashError, VerificationError
from flask import Flask, current_app, g, request, session
from flask_babel import gettext as _
from werkzeug.exceptions import Forbidden

from . import limits
from .http import is_api_request

SETTING = "ORGANISER_PASSWORD"
HOURS = "ORGANISER_SESSION_HOURS"
# The session's key for the organiser mark: {"since": seconds since the epoch, "of": fingerprint}.
MARK = "organiser"
# Where a request keeps what it found (an API client's password is verified once per request).
FOUND = "organiser_found"
HASH_PREFIX = "$argon2"
_hasher = PasswordHasher()


class OrganiserRequired(Forbidden):
    """A request that is not an organiser's, on what only an organiser may do (403)."""

    def __init__(self, description: str | None = None, *, wrong_password: bool = False):
        super().__init__(description or _("only an organiser may do this: sign in first"))
        self.wrong_password = wrong_password


def init_app(app: Flask) -> None:
    """Check the settings now (a password in clear never starts a server), and give every
    template `organisers_on()` and `may_organise()`."""
    stored_hash(app)
    session_seconds(app)
    app.add_template_global(organisers_on)
    app.add_template_global(may_organise)


def stored_hash(app: Flask) -> str | None:
    """The setting's argon2 hash, or None when unset; anything else is refused in one sentence
    that does not repeat it (it may be a password in clear)."""
    value = app.config[SETTING]
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    text = value.strip() if isinstance(value, str) else ""
    try:
        if not text.startswith(HASH_PREFIX):
            raise InvalidHashError
        extract_parameters(text)
    except (InvalidHashError, ValueError):
        raise ValueError(
            _(
                "%(setting)s must be the argon2 hash that `flask --app scorekeeper "
                "organiser-password` prints, never the password itself",
                setting=SETTING,
            )
        ) from None
    return text


def session_seconds(app: Flask) -> float:
    """How long a sign-in lasts (`ORGANISER_SESSION_HOURS`), in seconds; more than 0."""
    value = app.config[HOURS]
    try:
        hours = float(value)
    except (TypeError, ValueError):
        hours = math.nan
    if not hours > 0 or math.isinf(hours):
        raise ValueError(
            _(
                "%(setting)s must be a number of hours above 0, not %(value)s",
                setting=HOURS,
                value=repr(value),
            )
        )
    return hours * 3600


def hash_password(password: str) -> str:
    """The argon2 hash of a password, for the setting (`flask organiser-password`)."""
    return _hasher.hash(password)


def organisers_on() -> bool:
    """Whether this server has organisers at all (the setting is set)."""
    return stored_hash(current_app) is not None


def verify(password: str) -> bool:
    """Whether `password` is the organiser password (argon2, in constant time for a wrong one)."""
    stored = stored_hash(current_app)
    if stored is None or not password:
        return False
    try:
        return _hasher.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


def fingerprint(stored: str) -> str:
    """What a session keeps of the setting: a keyed digest of its hash, which changes with the
    password and tells a reader of the cookie nothing about it."""
    key = str(current_app.config["SECRET_KEY"]).encode()
    return hmac.new(key, stored.encode(), hashlib.sha256).hexdigest()[:32]


def sign_in() -> None:
    """Mark this session an organiser's from now (the password was verified)."""
    stored = stored_hash(current_app)
    if stored is None:
        return
    session[MARK] = {"since": int(time.time()), "of": fingerprint(stored)}
    g.pop(FOUND, None)


def sign_out() -> None:
    """This session is no longer an organiser's."""
    session.pop(MARK, None)
    g.pop(FOUND, None)


def signed_in_until() -> float | None:
    """When this page's organiser sign-in ends (seconds since the epoch), or None."""
    return _until(session)


def _until(held: Any) -> float | None:
    """The end of the organiser mark a session holds, when it is good now."""
    stored = stored_hash(current_app)
    mark = held.get(MARK) if held is not None else None
    if stored is None or not isinstance(mark, dict):
        return None
    since, of = mark.get("since"), mark.get("of")
    if not isinstance(since, int) or not isinstance(of, str):
        return None
    if not hmac.compare_digest(of, fingerprint(stored)):
        return None  # the password changed since
    until = since + session_seconds(current_app)
    return until if since <= time.time() < until else None


def may_organise() -> bool:
    """Whether this request may do an organiser's part: always without the setting."""
    if not organisers_on():
        return True
    if FOUND not in g:
        g.setdefault(FOUND, _found())
    return bool(g.get(FOUND))


def _found() -> bool:
    if not is_api_request():
        return _until(session) is not None
    given = request.authorization
    if given is not None and given.type == "basic":
        return _api_password(given.password or "")
    interface = current_app.session_interface
    reader = getattr(interface, "cookie_session", None)
    return reader is not None and _until(reader(current_app, request)) is not None


def _api_password(password: str) -> bool:
    """An API client's password, counted against the limit (a wrong one is deducted after the
    answer) before it is verified; a wrong one is refused as such."""
    limits.count(limits.ORGANISER_SIGN_INS)
    if verify(password):
        return True
    g.setdefault(limits.WRONG_PASSWORD, True)
    raise OrganiserRequired(_("the organiser password is wrong"), wrong_password=True)


def require() -> None:
    """Go on only for an organiser (or on a server without organisers); else 403."""
    if not may_organise():
        raise OrganiserRequired()


def organiser_required(view: Callable[..., Any]) -> Callable[..., Any]:
    """A route only an organiser may use, whatever its method (with the setting unset: anyone).
    Put it above the route's other decorators: a refusal locks, counts and writes nothing."""

    @functools.wraps(view)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        require()
        return view(*args, **kwargs)

    return guarded
