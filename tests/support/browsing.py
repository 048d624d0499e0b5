"""A test client that follows a form page's POST-redirect-GET as a browser does."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask.testing import FlaskClient


class FormClient(FlaskClient):
    """Posts like a browser: a post answered 303 to the page it came from (the form shown again
    with what to fix, `pages.shown_after_redirect`) is followed to that page, so a test reads
    the form a person sees; every other answer (a save's redirect to the game) is left as it is.
    `tests/games/test_post_redirect_get.py` checks the 303 itself."""

    def post(self, *args, **kwargs):
        follow = kwargs.get("follow_redirects", False)
        response = super().post(*args, **kwargs)
        if follow or response.status_code != 303:
            return response
        sent = urlsplit(response.request.url)
        went = urlsplit(response.location)
        if (went.path, went.query) != (sent.path, sent.query):
            return response
        return self.get(response.location)
