"""The referee: the rules-check page and the JSON API, over one registry of questions."""

from __future__ import annotations

from flask import Flask

from . import api, views


def init_app(app: Flask) -> None:
    """Register the rules-check pages, their card chips and the rules questions of the JSON API."""
    app.register_blueprint(views.bp)
    app.register_blueprint(api.bp)
    app.add_template_filter(views.chips, "chips")
