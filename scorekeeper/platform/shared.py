"""What a club's several app processes share besides the database: a Redis server, when the
setting `REDIS_URL` names one (`redis://host:6379/0`, `rediss://…` over TLS, `unix:///path`).

Without the setting nothing is shared and nothing changes: a family's one process counts its
limits in its own memory, as always. With it:

- the limits per client address (`limits`) are counted in Redis, so every process refuses at
  the same count one process would (Flask-Limiter's storage is derived from `REDIS_URL` unless
  `RATELIMIT_STORAGE_URI` names a store of its own);
- the form page a refused post drew (`formpages`) is kept in Redis for the GET its redirect
  asks for, which the proxy may send to another process.

Everything else a process keeps is its own on purpose, each safe per process: see
docs/serving.md, "What the processes share".

Redis going away mid-evening stops nothing: a command that fails is answered from the
process's own memory (each process counts its limits apart again, the form page is kept where
it was drawn), and `/healthz` says `"redis": "unreachable"` until it is back. A command waits at
most `SECONDS` for each of its two tries (`options`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask import Flask, current_app
from flask_babel import gettext as _

SETTING = "REDIS_URL"
EXTENSION = "scorekeeper.shared"
# The longest one try of a command waits for Redis to connect, or to answer.
SECONDS = 1.0
# Every key the score book writes starts with this (a Redis server may serve more than one app).
PREFIX = "scorekeeper:"
# What `REDIS_URL` may start with (redis-py's `from_url`), and each one's name for the `limits`
# library's storage.
SCHEMES = {"redis": "redis", "rediss": "rediss", "unix": "redis+unix"}
OK = "ok"
UNREACHABLE = "unreachable"


@dataclass(frozen=True)
class Shared:
    """The app's Redis: the setting's address and a client (a pool of connections)."""

    # Never in a log: it may hold a password.
    url: str = field(repr=False)
    client: Any
    # What a failed command raises (redis-py's `RedisError`).
    errors: type[Exception]
    # The client's options (`options`), for the limits' own client too.
    options: dict[str, Any]


def init_app(app: Flask) -> None:
    """Check `REDIS_URL` now (a wrong one never starts a server) and make the app's client."""
    url = configured(app)
    if url is None:
        app.extensions[EXTENSION] = None
        return
    try:
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry
    except ImportError:
        raise ValueError(
            _(
                "%(setting)s needs the redis package: pip install '.[club]'",
                setting=SETTING,
            )
        ) from None
    chosen = options(Retry(NoBackoff(), 1))
    client = redis.Redis.from_url(url, **chosen)
    app.extensions[EXTENSION] = Shared(url, client, redis.RedisError, chosen)


def configured(app: Flask) -> str | None:
    """The setting's URL, or None when it is unset; one of another kind is refused in one
    sentence that does not repeat it (it may hold a password)."""
    value = app.config[SETTING]
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    url = value.strip() if isinstance(value, str) else ""
    if "://" not in url or url.split("://", 1)[0] not in SCHEMES:
        raise ValueError(
            _(
                "%(setting)s must be a Redis server's address: redis://host:6379/0, "
                "rediss://host:6380/0 or unix:///path/to/redis.sock",
                setting=SETTING,
            )
        )
    return url


def options(retry: Any) -> dict[str, Any]:
    """The client's options: no command waits longer than `SECONDS`, and a connection that
    broke (Redis restarted) is tried once more, at once, before the command fails."""
    return {"socket_connect_timeout": SECONDS, "socket_timeout": SECONDS, "retry": retry}


def limits_storage(app: Flask) -> tuple[str, dict[str, Any]]:
    """Where the app counts its limits, and the storage's options: `RATELIMIT_STORAGE_URI` when
    it names a store of its own, else the app's Redis, else its own memory."""
    own = app.config["RATELIMIT_STORAGE_URI"]
    shared = app.extensions.get(EXTENSION)
    if shared is None or own != "memory://":
        return own, {}
    scheme, rest = shared.url.split("://", 1)
    uri = f"{SCHEMES[scheme]}://{rest}"
    return uri, {**shared.options, "wrap_exceptions": True}


def _shared() -> Shared | None:
    return current_app.extensions.get(EXTENSION)


def put(name: str, value: bytes, seconds: int) -> bool:
    """Keep `value` under `name` for `seconds` in the app's Redis; False without one, or when
    Redis did not take it (the caller keeps it in its own process instead)."""
    shared = _shared()
    if shared is None:
        return False
    try:
        shared.client.set(PREFIX + name, value, ex=seconds)
    except shared.errors as error:
        current_app.logger.warning("Redis did not keep %s: %s", name, error)
        return False
    return True


def take(name: str) -> bytes | None:
    """The value kept under `name`, removed as it is read (whoever asks first gets it, once);
    None without Redis, when nothing is kept, or when Redis cannot be asked."""
    shared = _shared()
    if shared is None:
        return None
    try:
        return shared.client.getdel(PREFIX + name)
    except shared.errors as error:
        current_app.logger.warning("Redis could not give %s: %s", name, error)
        return None


def state() -> str | None:
    """The app's Redis as `/healthz` reports it: "ok", "unreachable", or None without one."""
    shared = _shared()
    if shared is None:
        return None
    try:
        shared.client.ping()
    except shared.errors:
        return UNREACHABLE
    return OK
