"""The organisers' sign-in and sign-out pages (`/organiser/sign-in`, `/organiser/sign-out`), and
the answer to a request only an organiser may make (`platform.organisers.OrganiserRequired`): a
page that offers the sign-in and comes back where the person was going, or JSON under /api/.

On a server without `ORGANISER_PASSWORD` these pages are not there (404) and nothing links to
them. Signing in or out writes nothing to the database (only the session's cookie), so the
forms carry the CSRF token but no one-time token (`writeonce.reads_only`).
"""

from __future__ import annotations

import math
from datetime import UTC, datetime

from flask import (
    Blueprint,
    Flask,
    abort,
    current_app,
    flash,
    g,
    jsonify,
    redirect,
    render_template,
    request,
)
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, PasswordField

from .platform import errorpages, limits, organisers, writeonce
from .platform.formpages import form_page
from .platform.http import is_api_request
from .platform.language import back_here, local_path

bp = Blueprint("organisers", __name__, url_prefix="/organiser")


class SignInForm(FlaskForm):
    """The club's organiser password, and the page to go back to."""

    password = PasswordField(
        _l("Organiser password"),
        render_kw={"autocomplete": "current-password", "autocapitalize": "off"},
    )
    next = HiddenField()


class SignOutForm(FlaskForm):
    """Sign out: only its CSRF token (and the page to go back to)."""

    next = HiddenField()


def init_app(app: Flask) -> None:
    """The pages, and the refusal of what only an organiser may do."""
    organisers.init_app(app)
    app.register_blueprint(bp)
    app.register_error_handler(organisers.OrganiserRequired, refused)


def refused(error: organisers.OrganiserRequired):
    """403: `{"error": ...}` under /api/; elsewhere a page that says why and offers the sign-in,
    coming back to this page (or, after a post, to the page the post came from)."""
    if is_api_request():
        return jsonify(error=error.description), 403
    back = _way_back()
    html = render_template(
        "organisers/required.html",
        reason=error.description,
        next=back,
        form=SignInForm(formdata=None, next=back),
    )
    return html, 403


def _way_back() -> str:
    """Where to go after signing in: this page again, or for a post the page it came from."""
    if request.method in ("GET", "HEAD"):
        return back_here()
    reopen = errorpages.reopen_link()
    if reopen is not None:
        return reopen
    came_from = request.referrer or ""
    if came_from.startswith(request.host_url):
        came_from = "/" + came_from.removeprefix(request.host_url)
    return local_path(came_from)


def _moment(seconds: float | None) -> datetime | None:
    """Seconds since the epoch as the pages' stored moments are (UTC, without a zone)."""
    if seconds is None:
        return None
    return datetime.fromtimestamp(seconds, UTC).replace(tzinfo=None)


def _enabled() -> None:
    if not organisers.organisers_on():
        abort(404)


@bp.route("/sign-in", methods=["GET", "POST"])
@writeonce.reads_only("signs in: the session's cookie changes, nothing in the database")
def sign_in():
    """The password form; a right password marks this device's session an organiser's and goes
    back where it was going; a wrong one is refused beside the field and counted against the
    limit per address. Signed in already: when it ends, and the sign-out."""
    _enabled()
    form = SignInForm()
    if not form.is_submitted():
        form.next.data = local_path(request.args.get("next", ""))
    if request.method == "POST":
        limits.count(limits.ORGANISER_SIGN_INS)
        if form.validate() and organisers.verify(form.password.data or ""):
            organisers.sign_in()
            flash(_("Signed in as an organiser on this device."))
            return redirect(local_path(form.next.data or ""), 303)
        if form.errors.get("csrf_token") is None:
            g.setdefault(limits.WRONG_PASSWORD, True)
            form.password.errors = [_("That is not the organiser password.")]
    form.password.data = ""  # a password is never written back into a page
    page = render_template(
        "organisers/sign_in.html",
        form=form,
        # Signed in already: when it ends, and the sign-out (unless a new try was refused).
        until=None if form.errors else _moment(organisers.signed_in_until()),
        sign_out=SignOutForm(formdata=None, next=form.next.data),
        hours=math.ceil(organisers.session_seconds(current_app) / 3600),
    )
    return form_page(page)


@bp.post("/sign-out")
@writeonce.reads_only("signs out: the session's cookie changes, nothing in the database")
def sign_out():
    """This device is no longer an organiser's; back to the page it was on."""
    _enabled()
    form = SignOutForm()
    if not form.validate():
        abort(400, description=_("the sign-out's form was not complete: open the page again"))
    organisers.sign_out()
    flash(_("Signed out: this device plays and reads as everyone does."))
    return redirect(local_path(form.next.data or ""), 303)
