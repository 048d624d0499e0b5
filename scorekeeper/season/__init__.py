"""The season: the players across every game of the score book, their figures and head to head.

It reads what the score book stores (`scorekeeper.scorebook`) and never writes a game: the
score book never imports it, so the dependencies point one way, rules <- scorebook <- season.
Its one table, the players the table merged (`models`), is imported with the package, so the
migrations' metadata holds it whenever the app is made.
"""

from __future__ import annotations

from flask import Flask

from . import api, mergeviews, views
from . import models as models  # the table, in the metadata the migrations compare


def init_app(app: Flask) -> None:
    """Register the players' pages and the season's JSON API."""
    app.register_blueprint(views.bp)
    app.register_blueprint(mergeviews.bp)
    app.register_blueprint(api.bp)
