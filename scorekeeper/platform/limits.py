"""Limits per client address on what one visitor could repeat without end: starting games,
opening rule sets and importing paper sheets from elsewhere, trying edit links, round codes
and organiser passwords (Flask-Limiter, over the `limits` library's storage).

A table never meets them: a family's evening is a dozen games, and each limit is several times
that (`scorekeeper.platform.settings`). A client past one is answered 429 with `Retry-After`: JSON under
/api/, elsewhere a page in the layout that keeps what was typed, ready to send again.

Each app has a limiter of its own, counting in its own storage (`RATELIMIT_STORAGE_URI`; memory
by default, or the Redis server `REDIS_URL` names, see `shared`), so two apps in one process never
share counts unless they share a store. While a shared store does not answer, each process counts
in its own memory (Flask-Limiter's in-memory fallback) and tries the store again now and then: the
limits hold per process, and nothing is refused for want of the store. A limited view wears `limited`
beneath `writeonce.write_once`: the repeat of a write already done is given its first answer
before anything is counted, and a refused request never reaches the view, so its form's
one-time token stays unused for the next try.

A limit is counted only where a view calls `count` (or wears `limited`): Flask-Limiter's own
check before every request is kept only when the settings give it a limit of its own to apply
to every request (`REQUEST_WIDE`), which the score book's settings never do.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, Response, current_app, g, jsonify, make_response, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_limiter import Limiter
from flask_limiter.errors import RateLimitExceeded
from limits.errors import StorageError

from . import errorpages, security, shared
from .http import is_api_request

# Counts a window that slides, without the burst at a fixed window's edge, in every storage
# the `limits` library has (memory, Redis, Memcached, MongoDB).
STRATEGY = "sliding-window-counter"
# The storage that keeps each process's counts apart (`RATELIMIT_STORAGE_URI`'s default).
IN_MEMORY = "memory://"
EXTENSION = "scorekeeper.platform.limits"
# Set on `g` once a request has counted a limit.
COUNTED = "limits_counted"
# Flask-Limiter's settings for a limit on every request (its default, application and meta
# limits, and the limits it falls back on while its storage is down).
REQUEST_WIDE = (
    "RATELIMIT_DEFAULT",
    "RATELIMIT_APPLICATION",
    "RATELIMIT_META",
    "RATELIMIT_IN_MEMORY_FALLBACK",
)


@dataclass(frozen=True)
class Kind:
    """One limit: its setting, the requests it counts, and what it says when reached."""

    setting: str
    # Said in the request's language, so never part of the kind's identity (a dict key).
    what: str = field(compare=False)
    methods: tuple[str, ...]
    # Count only answers like this (wrong edit links, not the right ones); None: every request.
    counts: Callable[[Response], bool] | None = None


NEW_GAMES = Kind("RATELIMIT_NEW_GAMES", _l("games started"), ("POST",))
IMPORTS = Kind(
    "RATELIMIT_IMPORTS", _l("rule sets or paper sheets brought in from elsewhere"), ("POST",)
)
BAD_EDIT_LINKS = Kind(
    "RATELIMIT_BAD_EDIT_LINKS",
    _l("wrong edit links tried"),
    ("GET",),
    counts=lambda response: response.status_code == 403,
)
# Every try at a round's code from a phone that holds no seat of its round: the code form, and
# every request under /join/<code> and /api/join/<code> (counted by `phones.access`). A guesser
# of codes gets few tries; a table of eight phones never meets it, since a phone once seated
# is not counted again in its round.
JOINS = Kind("RATELIMIT_JOINS", _l("tries at a round's code"), ("GET", "POST"))
# Set on `g` by a request that tried a wrong organiser password (`organisers`).
WRONG_PASSWORD = "organiser_password_wrong"
# Wrong organiser passwords, on the sign-in form or in an API client's `Authorization`; a
# right one is never counted, so organisers signing in all evening never meet the limit.
ORGANISER_SIGN_INS = Kind(
    "RATELIMIT_ORGANISER_SIGN_INS",
    _l("wrong organiser passwords tried"),
    ("POST",),
    counts=lambda response: bool(g.get(WRONG_PASSWORD)),
)
KINDS = (NEW_GAMES, IMPORTS, BAD_EDIT_LINKS, JOINS, ORGANISER_SIGN_INS)


@dataclass(frozen=True)
class Counters:
    """An app's limiter, and for each kind the call that counts a request against its limit."""

    limiter: Limiter
    count: dict[Kind, Callable[[], None]]


def client_address() -> str:
    """Whom a limit counts: the client's address (the one a trusted proxy saw, see
    `TRUSTED_PROXIES`)."""
    return request.remote_addr or "unknown"


def init_app(app: Flask) -> None:
    """Give the app its own limiter, and answer 429 as a page or JSON."""
    storage_uri, storage_options = shared.limits_storage(app)
    apart = storage_uri.startswith(IN_MEMORY)
    limiter = Limiter(
        client_address,
        app=app,
        storage_uri=storage_uri,
        storage_options=storage_options,
        strategy=STRATEGY,
        key_prefix="scorekeeper",
        # A store the processes share that stops answering: each process counts in its own
        # memory until it answers again (docs/security.md), and a count that fails after the
        # answer is logged, never a 500.
        in_memory_fallback_enabled=not apart,
        swallow_errors=not apart,
    )
    app.extensions[EXTENSION] = Counters(limiter, {kind: _counter(limiter, kind) for kind in KINDS})
    app.register_error_handler(RateLimitExceeded, too_many)
    if not any(app.config[name] for name in REQUEST_WIDE if name in app.config):
        _counted_only(app, limiter)


def _counted_only(app: Flask, limiter: Limiter) -> None:
    """Leave out Flask-Limiter's check before every request: with no limit on every request it
    finds nothing to apply, and each of the score book's limits is counted where its view calls
    `count`. Its hooks after a request (which weigh a count by its answer, a wrong edit link's
    403, and then forget the request's counts) run only after a request that counted."""
    before = app.before_request_funcs.get(None, [])
    if limiter._check_request_limit not in before:
        return  # RATELIMIT_ENABLED is off: Flask-Limiter added no hooks
    before.remove(limiter._check_request_limit)
    for hooks in (app.after_request_funcs, app.teardown_request_funcs):
        hooks[None] = [_if_counted(hook) if _of(limiter, hook) else hook for hook in hooks[None]]


def _of(limiter: Limiter, hook: Callable[..., Any]) -> bool:
    """Whether an app's hook is one Flask-Limiter added for this limiter."""
    if isinstance(hook, functools.partial):
        return limiter in hook.args
    return getattr(hook, "__self__", None) is limiter


def _if_counted(hook: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """The hook, run only after a request that counted a limit (`count`); after any other it
    hands back what it is given (the answer, for a hook after the request)."""

    def hooked(given: Any) -> Any:
        return hook(given) if g.get(COUNTED) else given

    return hooked


def _counter(limiter: Limiter, kind: Kind) -> Callable[[], None]:
    """A call that counts one request against the kind's limit, or raises `RateLimitExceeded`."""

    def count() -> None:
        """Flask-Limiter checks its limit each time this is called."""

    count.__name__ = count.__qualname__ = f"count_{kind.setting.lower()}"
    return limiter.shared_limit(
        lambda: current_app.config[kind.setting],
        scope=kind.setting,
        error_message=kind.what,
        deduct_when=kind.counts,
    )(count)


def limited(kind: Kind) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Count each request of the kind's methods to this view against its limit, before the view
    runs (under `write_once`, which gives a repeat its first answer without counting it)."""

    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(view)
        def counted(*args: Any, **kwargs: Any) -> Any:
            if request.method in kind.methods:
                count(kind)
            return view(*args, **kwargs)

        return counted

    return decorate


def count(kind: Kind) -> None:
    """Count this request against the kind's limit now, whatever its method, or raise
    `RateLimitExceeded` (answered 429 by `too_many`)."""
    g.setdefault(COUNTED, True)
    current_app.extensions[EXTENSION].count[kind]()


def too_many(error: RateLimitExceeded):
    """429 with `Retry-After`: JSON under /api/; elsewhere the error page, with what was typed
    kept and, for a post that passed its CSRF check, sent again by one tap once the wait is
    over. Never kept by a cache, and never a Referer (a wrong edit link's address holds a key)."""
    wait = retry_after()
    error.retry_after = wait
    message = _(
        "too many %(what)s from this address (%(limit)s): nothing was changed, try again in "
        "%(wait)s",
        what=str(error.description),
        limit=limit_in_words(error.limit.limit),
        wait=_in_words(wait),
    )
    if is_api_request():
        response = make_response(jsonify(error=message, retry_after=wait), 429)
        response.headers["Retry-After"] = str(wait)
    else:
        error.description = message
        page = errorpages.http_error(error, entries=security.kept_entries(), retry_after=wait)
        response = make_response(page)
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def retry_after() -> int:
    """Whole seconds until the limit reached lets one more request through (at least 1)."""
    reached = current_app.extensions[EXTENSION].limiter.current_limit
    if reached is None:
        return 1
    try:
        return max(1, math.ceil(reached.reset_at - time.time()))
    except StorageError:
        # The shared store stopped answering since it counted: the whole window, to be safe.
        return max(1, math.ceil(reached.limit.get_expiry()))


def _in_words(seconds: int) -> str:
    """`40 seconds`, `1 minute`, `12 minutes`: how long to wait, as a person says it."""
    if seconds < 90:
        return ngettext("%(num)s second", "%(num)s seconds", seconds)
    return ngettext("%(num)s minute", "%(num)s minutes", math.ceil(seconds / 60))


# A limit as the settings write it (`20 per hour`), as the refusal quotes it: the same words as
# the limits library's (`20 per 1 hour`), through the catalog, one sentence per unit.
LIMIT_WORDS = {
    "second": _l("%(amount)s per %(multiples)s second"),
    "minute": _l("%(amount)s per %(multiples)s minute"),
    "hour": _l("%(amount)s per %(multiples)s hour"),
    "day": _l("%(amount)s per %(multiples)s day"),
    "month": _l("%(amount)s per %(multiples)s month"),
    "year": _l("%(amount)s per %(multiples)s year"),
}


def limit_in_words(item) -> str:
    """A limit reached (the limits library's item) in the request's language."""
    said = LIMIT_WORDS.get(item.GRANULARITY.name)
    return str(said) % {"amount": item.amount, "multiples": item.multiples} if said else str(item)
