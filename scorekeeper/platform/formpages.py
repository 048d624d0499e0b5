"""What every app's form page shares: pages the browser never keeps, answers to forms the
page's script posts (static/drafts.js), a form with what to fix shown after a redirect
(POST-redirect-GET), and a text answered as a file to save.

Each feature's blueprint opts in (`shown_after_redirect`, `answer_script_posts`); this module
knows no feature's addresses.
"""

from __future__ import annotations

import json
import secrets
import threading
from collections import OrderedDict

from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    make_response,
    redirect,
    request,
    session,
)

from . import shared
from .errorpages import reopen_link

# Sent by static/outbox.js with a form it posts itself, so that it can keep the page when the
# post does not arrive; the answer to such a post says where to go instead of redirecting. The
# script reads the name from every page's head (`init_app`).
SCRIPT_POST_HEADER = "X-Posted-By-Script"
# The form page a refused post drew, kept for the GET it redirects to (see `shown_after_redirect`):
# the session names it; Redis keeps it for every process when `REDIS_URL` names one (a while,
# each once), else the app keeps it in this process, the newest few, each once.
SHOWN_AGAIN = "form_shown_again"
KEPT_PAGES = 64
KEPT_PAGE_BYTES = 512 * 1024
KEPT_SECONDS = 600
KEPT = "scorekeeper.formpages.kept"


class _Kept:
    """The form pages an app keeps in its own process, the newest `KEPT_PAGES`, each taken once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pages: OrderedDict[str, bytes] = OrderedDict()

    def put(self, key: str, page: bytes) -> None:
        with self._lock:
            self._pages[key] = page
            while len(self._pages) > KEPT_PAGES:
                self._pages.popitem(last=False)

    def take(self, key: str) -> bytes | None:
        with self._lock:
            return self._pages.pop(key, None)


def init_app(app: Flask) -> None:
    """Give every page the header's name (`<meta name="script-post-header">` in _head.html), and
    the app its own store of form pages (two apps in one process, as tests make, keep apart)."""
    app.jinja_env.globals["script_post_header"] = SCRIPT_POST_HEADER
    app.extensions[KEPT] = _Kept()


def form_page(page: str) -> Response:
    """A form page that is never kept by the browser: Back or Forward asks the server again, so
    a form always shows the choices of the round it is for, never another round's."""
    response = make_response(page)
    response.headers["Cache-Control"] = "no-store"
    return response


def answer_script_posts(response: Response) -> Response:
    """To a form posted by the page's script, a redirect becomes a note of where to go: the
    script then opens that page, and the message waiting for it is still there to show."""
    if (
        request.method == "POST"
        and request.headers.get(SCRIPT_POST_HEADER)
        and response.status_code in (301, 302, 303)
    ):
        target = response.location
        del response.headers["Location"]
        response.status_code = 200
        response.set_data(json.dumps({"location": target}))
        response.mimetype = "application/json"
        response.headers["Cache-Control"] = "no-store"
    return response


def shown_after_redirect(blueprint: Blueprint) -> None:
    """POST-redirect-GET for the blueprint's forms: a post refused with the form shown again
    (what was typed and what to fix, status 200) is answered 303 to the same page, which shows
    that form once. Back and reload then never post again ("Confirm Form Resubmission"), and
    nothing typed is lost. A post by the page's script is answered as before: the script posts
    the form again natively to show its page, and that post is redirected."""
    blueprint.before_request(_kept_form_page)
    blueprint.after_request(_redirect_to_the_form)


def _redirect_to_the_form(response: Response) -> Response:
    """Keep a form page drawn for a refused post and redirect to it; an answer too big to keep,
    or for an address with no page to open, is given as it is."""
    target = reopen_link() if request.method == "POST" else None
    if (
        target is None
        or request.headers.get(SCRIPT_POST_HEADER)
        or response.status_code != 200
        or response.mimetype != "text/html"
        or response.direct_passthrough
    ):
        return response
    page = response.get_data()
    if len(page) > KEPT_PAGE_BYTES:
        return response
    key = secrets.token_urlsafe(16)
    if not shared.put(_shared_name(key), page, KEPT_SECONDS):
        current_app.extensions[KEPT].put(key, page)
    session[SHOWN_AGAIN] = [target, key]
    answer = redirect(target, 303)
    answer.headers["Cache-Control"] = "no-store"
    return answer


def _kept_form_page() -> Response | None:
    """The form page kept for this GET, once; None to draw the page as usual (nothing kept, or
    kept by another process without Redis: the page's script then offers the entries back from
    its draft)."""
    held = session.get(SHOWN_AGAIN)
    here = request.script_root + request.full_path.rstrip("?")  # as `reopen_link` writes it
    if request.method != "GET" or not held or held[0] != here:
        return None
    session.pop(SHOWN_AGAIN)
    page = shared.take(_shared_name(held[1]))
    if page is None:
        page = current_app.extensions[KEPT].take(held[1])
    if page is None:
        return None
    return form_page(page)


def _shared_name(key: str) -> str:
    return f"form-page:{key}"


def attachment(text: str, media_type: str, filename: str) -> Response:
    """The text as a UTF-8 file to save under `filename` (a plain ASCII name)."""
    response = make_response(text)
    response.headers["Content-Type"] = f"{media_type}; charset=utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
