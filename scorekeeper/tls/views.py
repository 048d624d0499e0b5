"""`/trust`: the one step a tablet takes, over plain HTTP, before it opens the secure address:
trust the score book's own certificate authority. The page shows the tablet's own system's
steps, the downloads (the certificate as DER and PEM, and a profile for iPadOS and iOS), the
certificate's fingerprint, and a Check that asks the secure address whether this tablet now
reaches it without a warning.

Only the certificate is read (`certificates.read_authority`): the key beside it (`ca.key`) never
leaves the machine."""

from __future__ import annotations

import plistlib
import uuid

from flask import Blueprint, Response, abort, current_app, jsonify, render_template, request
from flask_babel import gettext as _

from ..platform import security
from . import addresses, certificates, folder
from .certificates import ORGANISATION, Authority

bp = Blueprint("trust", __name__)

# The systems whose steps the page knows, in the order offered; the first is the tablet's own.
SYSTEMS = ("android", "apple", "other")
# User-agent words of iPadOS and iOS. An iPad asking for the desktop site says "Macintosh":
# static/trust.js opens the Apple steps on a Mac that has a touch screen.
APPLE_WORDS = ("iPad", "iPhone", "iPod")
DOWNLOADS = {
    "scorekeeper-ca.crt": "application/x-x509-ca-cert",
    "scorekeeper-ca.pem": "application/x-pem-file",
    "scorekeeper.mobileconfig": "application/x-apple-aspen-config",
}
DISPLAY_NAME = ORGANISATION
PROFILE_IDENTIFIER = "lan.scorekeeper.trust"
# The namespace of the profile's UUIDs: the same certificate always gives the same profile, so
# installing it again replaces the one installed rather than adding a second.
PROFILE_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_DNS, "trust.scorekeeper.lan")


@bp.record_once
def _globals(state) -> None:
    """The secure address for every page's templates: the wake lock's note and the home page
    offer it on a plain-HTTP page."""
    state.app.jinja_env.globals["secure_address"] = addresses.secure_address
    state.app.jinja_env.globals["secure_origin"] = addresses.secure_origin


def system_of(user_agent: str) -> str:
    """Which system's steps to show first: "android", "apple" (iPadOS, iOS) or "other"."""
    if "Android" in user_agent:
        return "android"
    if any(word in user_agent for word in APPLE_WORDS):
        return "apple"
    return "other"


def authority() -> certificates.Authority | None:
    """The certificate a tablet is asked to trust, or None when this score book serves no
    secure address (not started by `make run` with HTTPS) or has made no authority yet."""
    if current_app.config["SERVE_HTTPS_PORT"] is None:
        return None
    return certificates.read_authority(folder(current_app))


@bp.get("/trust")
def trust():
    """The steps for this tablet's system first, the others folded away, and the Check."""
    found = authority()
    secure = addresses.secure_address() if found else None
    own = system_of(request.user_agent.string)
    html = render_template(
        "tls/trust.html",
        authority=found,
        secure=secure,
        check=f"{secure}trust/check" if secure else None,
        systems=(own, *(name for name in SYSTEMS if name != own)),
        downloads=DOWNLOADS,
    )
    response = current_app.make_response(html)
    if secure:
        # The Check asks the secure address from this page: the policy names its origin.
        origin = addresses.secure_origin(secure)
        response.headers["Content-Security-Policy"] = (
            f"{security.CONTENT_SECURITY_POLICY}; connect-src 'self' {origin}"
        )
    return response


@bp.get("/trust/<any(" + ", ".join(f'"{name}"' for name in DOWNLOADS) + "):name>")
def download(name: str):
    """The certificate (never its key) as the file each system installs from."""
    found = authority()
    if found is None:
        abort(404)
    if name.endswith(".crt"):
        body = found.der
    elif name.endswith(".pem"):
        body = found.pem
    else:
        body = mobileconfig(found)
    response = Response(body, mimetype=DOWNLOADS[name])
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/trust/check")
def check():
    """Asked at the secure address: answering at all means the tablet trusts the certificate.
    A script (the /trust page's Check, from the plain address) gets JSON, open to any origin; a
    browser that opened the link gets a page that sends it on."""
    secure = request.is_secure
    wants = request.accept_mimetypes.best_match(["application/json", "text/html"])
    if wants == "text/html":
        response = current_app.make_response(
            render_template("tls/checked.html", secure=secure, home=request.url_root)
        )
    else:
        response = jsonify(ok=secure)
    response.headers["Access-Control-Allow-Origin"] = "*"
    response.headers["Cache-Control"] = "no-store"
    return response


def mobileconfig(authority: Authority) -> bytes:
    """An unsigned configuration profile holding the certificate as one root payload, which
    Safari hands to Settings → Profile Downloaded (its description in the request's language);
    its UUIDs come from the fingerprint."""
    profile_uuid = uuid.uuid5(PROFILE_NAMESPACE, authority.fingerprint)
    payload_uuid = uuid.uuid5(PROFILE_NAMESPACE, "root:" + authority.fingerprint)
    profile = {
        "PayloadType": "Configuration",
        "PayloadVersion": 1,
        "PayloadIdentifier": PROFILE_IDENTIFIER,
        "PayloadUUID": str(profile_uuid).upper(),
        "PayloadDisplayName": DISPLAY_NAME,
        "PayloadDescription": _(
            "Lets this tablet open the score book's secure address on the home network."
        ),
        "PayloadOrganization": DISPLAY_NAME,
        "PayloadRemovalDisallowed": False,
        "PayloadContent": [
            {
                "PayloadType": "com.apple.security.root",
                "PayloadVersion": 1,
                "PayloadIdentifier": f"{PROFILE_IDENTIFIER}.root",
                "PayloadUUID": str(payload_uuid).upper(),
                "PayloadDisplayName": authority.subject,
                "PayloadCertificateFileName": "scorekeeper-ca.crt",
                "PayloadContent": authority.der,
            }
        ],
    }
    return plistlib.dumps(profile, fmt=plistlib.FMT_XML)
