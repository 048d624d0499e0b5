"""Every write happens once: the pages' one-time tokens and the API's `Idempotency-Key`.

A form carries a token made when it was opened; an API client sends a key of its choosing. Every
route that writes is `write_once` (or says it `reads_only`): its view's answer is kept
(`WriteOnce`, the token's hash and the answer) in the write's own transaction, so a repeat, a
double tap, a retry after a lost answer, from this process or another, finds the first answer
and is given it again, and nothing is written twice. On SQLite writers queue for the whole
database; on PostgreSQL a write to a game locks the game's row (`games.keys.editor_required`)
before it looks for its token, and for a new game the unique (scope, key) constraint decides
between two racing twins.

Each route names what its writes are to (its `Scope`); the feature that hands out edit keys
says, once for the app, what every write shares (`Hooks`): the key header a request holds, the
answer fields never kept, how a new thing's key is handed over again, and its refusals.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from flask import (
    Flask,
    Request,
    Response,
    current_app,
    flash,
    g,
    jsonify,
    redirect,
    request,
    session,
)
from flask_babel import gettext as _
from sqlalchemy import Index, String, Text, UniqueConstraint
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from .database import READ_METHODS, READS_ONLY, db, utcnow
from .http import is_api_request

HEADER = "Idempotency-Key"
FORM_FIELD = "write_token"
# Kept at least 24 hours; purged a little after, by the writes that come later.
KEEP = timedelta(hours=25)
KEY_MAX = 255
_VISIBLE_ASCII = re.compile(rf"[\x21-\x7e]{{1,{KEY_MAX}}}")
_TOKEN = re.compile(r"[A-Za-z0-9_-]{22,64}")
# What `write_once` and `reads_only` mark a view with, for the test that every write route is one.
WRITES_ONCE = "writes_once"
# Where the app keeps its `Hooks`.
EXTENSION = "write_once"
# The field of a page's kept answer naming what a handed-over key is for (a game's id).
HANDED = "game"


class WriteOnce(db.Model):
    """A write that happened, under the one-time token or Idempotency-Key that asked for it.

    Kept in the write's own transaction, so a repeat of the same token finds either both or
    neither; the answer it got is kept to be given again. Purged after `KEEP`.
    """

    __tablename__ = "write_once"

    id: Mapped[int] = mapped_column(primary_key=True)
    # Where the key is unique: "api game 12", "page game 12", "api new game", "page new game",
    # "api rule set 3", "api new rule set" (pages likewise).
    scope: Mapped[str] = mapped_column(String(40))
    # sha256 of the token or key: a page's token is a secret of the tablet that holds the page.
    key_hash: Mapped[str] = mapped_column(String(64))
    # sha256 of the request (method, address, body): the same key with another request is refused.
    request_hash: Mapped[str] = mapped_column(String(64))
    status: Mapped[int]
    location: Mapped[str | None] = mapped_column(String(400))
    # The API's JSON answer, or the message a page showed.
    body: Mapped[str] = mapped_column(Text)
    # A new game's edit key, sealed with the page's token (never in clear), for the repeat's cookie.
    sealed_key: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (
        UniqueConstraint("scope", "key_hash", name="write_once_key"),
        Index("ix_write_once_created", "created_at"),
    )


@dataclass(frozen=True)
class Hooks:
    """What every write-once route shares, given once for the app by the feature that hands out
    edit keys (`init_app`).

    `held` is the request header holding the edit key: an API request's is part of what it
    asks, in every scope. `secrets` are the fields of an API answer handed over once and never
    kept (a new game's edit key). `handed` finds the key a page's answer hands the browser for a
    new thing (its id and the key, or None), and `hand` gives that key again to the repeat of the
    form. `refused` is the error a view refuses a request with (its writes are rolled back),
    `unsaved` makes the refusal of a write that could not be saved, and `gone` is the refusal
    of a write to something that no longer exists (a repeat of the write that removed it is
    given its first answer instead).
    """

    held: str
    secrets: tuple[str, ...]
    handed: Callable[[Response], tuple[int, str] | None]
    hand: Callable[[Response, Request, int, str], Any]
    refused: type[Exception]
    unsaved: Callable[[str], Exception]
    gone: type[Exception]


def init_app(app: Flask, hooks: Hooks) -> None:
    """Give the app's write-once routes what they share."""
    app.extensions[EXTENSION] = hooks


def _hooks() -> Hooks:
    return current_app.extensions[EXTENSION]


@dataclass(frozen=True)
class Scope:
    """What a route's writes are to, given by the feature that owns the route: the one its view
    argument `arg` names ("game 12", "rule set 3", `label` writing the argument), or a new one
    ("new game") on a route without it. Tokens and keys are unique within a scope, so a key used
    for a game never answers a write to a rule set. `held` are the request headers that are
    part of what a request asks besides the edit key (a repeat is answered only to a request
    that holds the same); `secrets` the fields of an API answer handed over once, never kept
    (besides the `Hooks`' own)."""

    what: str
    arg: str
    label: Callable[[Any], str] = str
    held: tuple[str, ...] = ()
    secrets: tuple[str, ...] = ()

    def subject(self, view_args: Mapping[str, Any] | None) -> str:
        args = view_args or {}
        return (
            f"{self.what} {self.label(args[self.arg])}" if self.arg in args else f"new {self.what}"
        )


class BadKey(ValueError):
    """An `Idempotency-Key` that is not one (empty, too long, not visible ASCII)."""


@dataclass(frozen=True)
class Once:
    """One write's token or key, where it is unique, and what the request asked for."""

    scope: str
    key: str
    request_hash: str
    # The answer's fields never kept (the scope's secrets with the `Hooks`' own).
    secrets: tuple[str, ...] = ()

    @property
    def key_hash(self) -> str:
        return hashlib.sha256(self.key.encode("utf-8")).hexdigest()


def new_token() -> str:
    """A page's one-time token: 128 random bits, never guessed by another device."""
    return secrets.token_urlsafe(16)


def from_form(scope: str, where: Scope) -> Once | None:
    """The posted form's token, if it carries a well-formed one (a page opened before tokens
    existed carries none: its write goes through as before, unguarded)."""
    token = request.form.get(FORM_FIELD, "")
    if not _TOKEN.fullmatch(token):
        return None
    return Once(scope, token, _request_hash(where), _hooks().secrets + where.secrets)


def from_header(scope: str, where: Scope) -> Once | None:
    """The API request's `Idempotency-Key`, or None without one; `BadKey` for a bad one."""
    value = request.headers.get(HEADER)
    if value is None:
        return None
    key = value.strip()
    if len(key) >= 2 and key[0] == key[-1] == '"':
        key = key[1:-1]  # a structured-field string, as the header's draft standard writes it
    if not _VISIBLE_ASCII.fullmatch(key):
        raise BadKey(
            _(
                "the %(header)s header must be 1 to %(most)s visible ASCII characters, like a "
                "UUID: a new one for each write",
                header=HEADER,
                most=KEY_MAX,
            )
        )
    return Once(scope, key, _request_hash(where), _hooks().secrets + where.secrets)


def _request_hash(where: Scope) -> str:
    """What the request asks for: method, address, body (JSON compared as data) and, for the
    API, the edit key it holds and the headers its scope holds."""
    body = request.get_data(cache=True)
    try:
        canonical = json.dumps(
            json.loads(body), sort_keys=True, separators=(",", ":"), ensure_ascii=False
        ).encode("utf-8")
    except (ValueError, RecursionError):
        canonical = body
    if request.form and not request.is_json:
        # A page's form: its fields without the CSRF token, which is new on every page.
        fields = sorted((k, v) for k, v in request.form.items(multi=True) if k != "csrf_token")
        canonical = json.dumps(fields, ensure_ascii=False).encode("utf-8")
    # The API's edit key too (only its hash, like the game's own): a repeat is answered only
    # to a request that holds the same key, even once the game it wrote to is gone.
    held = request.headers.get(_hooks().held) if is_api_request() else None
    edit_key = _hashed(held) if held else b""
    parts = [request.method.encode(), request.full_path.encode("utf-8"), canonical, edit_key]
    # The scope's own held headers likewise (a phone's seat token), those sent only: a request
    # without them hashes as one without a scope's headers.
    for name in where.held:
        value = request.headers.get(name) if is_api_request() else None
        if value:
            parts.append(_hashed(value))
    digest = hashlib.sha256()
    for part in parts:
        digest.update(len(part).to_bytes(8, "big") + part)
    return digest.hexdigest()


def _hashed(value: str) -> bytes:
    """A held header's value as the request's hash takes it: its sha256, in hex (as an edit key
    is stored)."""
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest().encode()


# --- The decorator every write route wears ---------------------------------------------------


def write_once(*, scope: Scope) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Make a route's writes happen once, and commit them: `@write_once(scope=...)`, with the
    `Scope` of the feature that owns the route.

    Placed under `games.keys.editor_required`, so that a write to a game looks for its token
    once the game's row is locked: a twin still running in another process has finished (and is
    found) first. A request whose token or key is already used gets the first answer again and runs
    nothing. Otherwise the view runs and its writes are only flushed: on a success (the API's
    2xx, a page's redirect) they are committed together with the kept answer; on a failure they
    are rolled back, and a twin that finished meanwhile in another process has its answer
    given instead (its commit is what made this one fail). A request without a token (a page
    opened before tokens existed, an API client that sends no key) is written as it asks.
    """

    def mark(view: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(view)
        def once(*args: Any, **kwargs: Any) -> Any:
            if request.method in READ_METHODS:
                return view(*args, **kwargs)
            ticket = g.once = _ticket(kwargs)
            if (done := find(ticket)) is not None:
                return replay(done, ticket)
            shown = len(session.get("_flashes", [])) if not is_api_request() else 0
            try:
                answer = current_app.make_response(view(*args, **kwargs))
            except _hooks().refused:
                if (twin := _twin(ticket, shown)) is not None:
                    return twin
                raise
            if answer.status_code not in (range(200, 300) if is_api_request() else range(300, 400)):
                return _twin(ticket, shown) or answer  # refused: the form shown again
            try:
                keep(ticket, answer, shown)
                db.session.commit()
            except IntegrityError:
                if (twin := _twin(ticket, shown)) is not None:
                    return twin  # a twin with the same token committed first
                raise _hooks().unsaved(
                    _("the write could not be saved: nothing was stored, try again")
                ) from None
            return answer

        setattr(once, WRITES_ONCE, scope)
        return once

    return mark


def reads_only(reason: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark a route taking POST that writes nothing (why, in `reason`): it needs no token, and
    on SQLite it takes no write lock, so a long write elsewhere never keeps it waiting."""

    def mark(view: Callable[..., Any]) -> Callable[..., Any]:
        setattr(view, READS_ONLY, reason)
        return view

    return mark


def _ticket(view_args: Mapping[str, Any] | None) -> Once | None:
    """The request's token or key, unique within its route's scope (API and pages apart): a key
    used for a game never answers a write to a rule set."""
    view = current_app.view_functions.get(request.endpoint or "")
    where: Scope = getattr(view, WRITES_ONCE)
    api = is_api_request()
    scope = f"{'api' if api else 'page'} {where.subject(view_args)}"
    return (from_header if api else from_form)(scope, where)


def _twin(once: Once | None, shown: int) -> Response | None:
    """Roll this request's writes back; then the answer of a twin that finished first, if any
    (instead of any message this request's view flashed)."""
    db.session.rollback()
    done = find(once)
    if done is None:
        return None
    if not is_api_request():
        session["_flashes"] = session.get("_flashes", [])[:shown]
    return replay(done, once)


def answer_of_gone(error: Exception) -> Response | None:
    """For a write refused before its view ran because what it names is gone (`Hooks.gone`, a
    game): the answer its first post got, when this request repeats the one that deleted it."""
    view = current_app.view_functions.get(request.endpoint or "")
    if (
        not isinstance(error, _hooks().gone)
        or "once" in g  # the view's own `write_once` has looked already
        or request.method in READ_METHODS
        or not getattr(view, WRITES_ONCE, False)
    ):
        return None
    try:
        ticket = _ticket(request.view_args)
    except BadKey:
        return None
    done = find(ticket)
    if done is None or (is_api_request() and not _same_request(done, ticket)):
        return None  # the game is gone for another request: its 404 stands
    return replay(done, ticket)


def find(once: Once | None) -> WriteOnce | None:
    """The write already done under this token or key, if any."""
    if once is None:
        return None
    return db.session.scalar(
        db.select(WriteOnce).where(
            WriteOnce.scope == once.scope, WriteOnce.key_hash == once.key_hash
        )
    )


def keep(once: Once | None, answer: Response, shown: int) -> None:
    """Add the view's answer to the session, to be committed with the write itself: the API's
    status, body and `Location`; a page's flashed messages (those after the first `shown`) and
    the page it went to. An edit key in the answer is never kept in clear: dropped from the
    API's body, sealed with the page's token for a page's cookie."""
    if once is None:
        return
    db.session.execute(db.delete(WriteOnce).where(WriteOnce.created_at < utcnow() - KEEP))
    sealed = None
    if is_api_request():
        body = _without_key(answer, once.secrets)
    else:
        news: dict[str, Any] = {"flashes": session.get("_flashes", [])[shown:]}
        if (handed := _hooks().handed(answer)) is not None:
            news[HANDED], sealed = handed[0], seal(handed[1], once.key)
        body = json.dumps(news, ensure_ascii=False)
    db.session.add(
        WriteOnce(
            scope=once.scope,
            key_hash=once.key_hash,
            request_hash=once.request_hash,
            status=answer.status_code,
            location=answer.headers.get("Location"),
            body=body,
            sealed_key=sealed,
        )
    )


def _without_key(answer: Response, hidden: tuple[str, ...]) -> str:
    """The API's answer as kept: without the secrets only the first answer holds (a new game's
    edit key, a phone's seat token)."""
    data = answer.get_json(silent=True)
    if not isinstance(data, dict) or not set(hidden) & set(data):
        return answer.get_data(as_text=True)
    data = {name: value for name, value in data.items() if name not in hidden}
    return current_app.json.response(data).get_data(as_text=True)  # as jsonify writes it


# --- Answering a repeat ----------------------------------------------------------------------


def replay(done: WriteOnce, once: Once) -> Response:
    """The first answer again: the API's, or a page's."""
    return api_answer(done, once) if is_api_request() else page_answer(done, once)


def api_answer(done: WriteOnce, once: Once) -> Response:
    """The first answer again, or 422 when the same key came with another request."""
    if not _same_request(done, once):
        response = jsonify(
            error=_(
                "this %(header)s was used for another request: nothing was changed; send a new "
                "key for a new write",
                header=HEADER,
            )
        )
        response.status_code = 422
        return response
    response = Response(done.body, status=done.status)
    if done.body:
        response.mimetype = "application/json"
    if done.location:
        response.headers["Location"] = done.location
    response.headers["Idempotent-Replayed"] = "true"
    return response


def _same_request(done: WriteOnce, once: Once) -> bool:
    return hmac.compare_digest(done.request_hash, once.request_hash)


def page_answer(done: WriteOnce, once: Once) -> Response:
    """What the first post of this form got: its messages, the page it went to, and the new
    game's key cookie when it started one (the form is one change, whatever it holds now)."""
    shown = json.loads(done.body)
    flashes = shown.get("flashes")
    if flashes is None:  # kept before a page could flash more than one message
        flashes = [(shown.get("category", "message"), shown["message"])]
    for category, message in flashes:
        flash(message, category)
    response = redirect(done.location or "/", done.status)
    if done.sealed_key and HANDED in shown:
        _hooks().hand(response, request, shown[HANDED], unseal(done.sealed_key, once.key))
    return response


# --- A new game's edit key, for the repeat of the form that started it -----------------------


def seal(key: str, token: str) -> str:
    """The edit key hidden with the page's token: useless without the token, which only the
    tablet that posted the form holds (the table keeps the token's hash, never the token)."""
    data = key.encode("ascii")
    pad = _pad(token)
    if len(data) > len(pad):
        raise ValueError("an edit key longer than the seal")
    return bytes(a ^ b for a, b in zip(data.ljust(len(pad), b"\0"), pad, strict=True)).hex()


def unseal(sealed: str, token: str) -> str:
    data = bytes(a ^ b for a, b in zip(bytes.fromhex(sealed), _pad(token), strict=True))
    return data.rstrip(b"\0").decode("ascii")


def _pad(token: str) -> bytes:
    return hmac.new(token.encode("utf-8"), b"scorekeeper edit key", hashlib.sha256).digest()
