"""Every write happens once: the pages' one-time tokens and the API's `Idempotency-Key`.

A form carries a token made when it was opened; an API client sends a key of its choosing. The
write stores the token's hash and the answer it gave (`WriteOnce`) in its own transaction, so a
repeat, a double tap, a retry after a lost answer, from this process or another, finds the first
answer and is given it again, and nothing is written twice. On SQLite writers queue for the whole
database; on PostgreSQL a write to a game locks the game's row before it looks for its token, and
for a new game the unique (scope, key) constraint decides between two racing twins.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from flask import Response, flash, jsonify, redirect, request

from ..extensions import db
from .models import WriteOnce, utcnow

HEADER = "Idempotency-Key"
FORM_FIELD = "write_token"
# Kept at least 24 hours; purged a little after, by the writes that come later.
KEEP = timedelta(hours=25)
KEY_MAX = 255
_VISIBLE_ASCII = re.compile(rf"[\x21-\x7e]{{1,{KEY_MAX}}}")
_TOKEN = re.compile(r"[A-Za-z0-9_-]{22,64}")


class BadKey(ValueError):
    """An `Idempotency-Key` that is not one (empty, too long, not visible ASCII)."""


@dataclass(frozen=True)
class Once:
    """One write's token or key, where it is unique, and what the request asked for."""

    scope: str
    key: str
    request_hash: str

    @property
    def key_hash(self) -> str:
        return hashlib.sha256(self.key.encode("utf-8")).hexdigest()


def new_token() -> str:
    """A page's one-time token: 128 random bits, never guessed by another device."""
    return secrets.token_urlsafe(16)


def from_form(scope: str) -> Once | None:
    """The posted form's token, if it carries a well-formed one (a page opened before tokens
    existed carries none: its write goes through as before, unguarded)."""
    token = request.form.get(FORM_FIELD, "")
    if not _TOKEN.fullmatch(token):
        return None
    return Once(scope, token, _request_hash())


def from_header(scope: str) -> Once | None:
    """The API request's `Idempotency-Key`, or None without one; `BadKey` for a bad one."""
    value = request.headers.get(HEADER)
    if value is None:
        return None
    key = value.strip()
    if len(key) >= 2 and key[0] == key[-1] == '"':
        key = key[1:-1]  # a structured-field string, as the header's draft standard writes it
    if not _VISIBLE_ASCII.fullmatch(key):
        raise BadKey(
            f"the {HEADER} header must be 1 to {KEY_MAX} visible ASCII characters, "
            "like a UUID: a new one for each write"
        )
    return Once(scope, key, _request_hash())


def _request_hash() -> str:
    """What the request asks for: method, address and body (JSON compared as data)."""
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
    digest = hashlib.sha256()
    for part in (request.method.encode(), request.full_path.encode("utf-8"), canonical):
        digest.update(len(part).to_bytes(8, "big") + part)
    return digest.hexdigest()


def find(once: Once | None) -> WriteOnce | None:
    """The write already done under this token or key, if any."""
    if once is None:
        return None
    return db.session.scalar(
        db.select(WriteOnce).where(
            WriteOnce.scope == once.scope, WriteOnce.key_hash == once.key_hash
        )
    )


def keep(
    once: Once | None,
    status: int,
    body: str,
    location: str | None = None,
    sealed_key: str | None = None,
) -> None:
    """Add the write's answer to the session, to be committed with the write itself."""
    if once is None:
        return
    db.session.execute(db.delete(WriteOnce).where(WriteOnce.created_at < utcnow() - KEEP))
    db.session.add(
        WriteOnce(
            scope=once.scope,
            key_hash=once.key_hash,
            request_hash=once.request_hash,
            status=status,
            location=location,
            body=body,
            sealed_key=sealed_key,
        )
    )


# --- Answering a repeat ----------------------------------------------------------------------


def api_answer(done: WriteOnce, once: Once) -> Response:
    """The first answer again, or 422 when the same key came with another request."""
    if not hmac.compare_digest(done.request_hash, once.request_hash):
        response = jsonify(
            error=f"this {HEADER} was used for another request: nothing was changed; "
            "send a new key for a new write"
        )
        response.status_code = 422
        return response
    response = Response(done.body, status=done.status, mimetype="application/json")
    if done.location:
        response.headers["Location"] = done.location
    response.headers["Idempotent-Replayed"] = "true"
    return response


def page_answer(done: WriteOnce) -> Response:
    """What the first post of this form got: its message, and the page it went to."""
    shown = json.loads(done.body)
    flash(shown["message"], shown.get("category", "message"))
    return redirect(done.location or "/", done.status)


def page_body(message: str, **extra: Any) -> str:
    """A page's answer, as kept: the message it showed (and anything a repeat needs)."""
    return json.dumps({"message": message, **extra}, ensure_ascii=False)


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
