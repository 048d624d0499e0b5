"""The season: the players across every game of the score book, their figures and head to head.

It reads what the score book stores (`scorekeeper.scorebook`) and never writes a game: the
score book never imports it, so the dependencies point one way, rules <- scorebook <- season.
"""

from __future__ import annotations

from flask import Flask

from . import api, views


def init_app(app: Flask) -> None:
    """Register the players' pages and the season's JSON API."""
    app.register_blueprint(views.bp)
    app.register_blueprint(api.bp)
