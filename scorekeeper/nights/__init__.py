"""A club night: the organiser picks the rule set, checks players in, and draws tables; each
table becomes a game of the score book with its own edit key, handed to its tablet by a QR code.

`service` writes, `reading` reads, `draw` seats the players; `views` (pages) and `api` (JSON)
only translate requests into calls to them. The night builds on the score book's service and the
season's names, so the dependencies point one way, games <- season <- nights.

The organiser's set-up routes (a new night, check-in, pins, the draw, late arrivals) are on the
`setup_bp` blueprints of `views` and `api`, apart from the reads: where the club has organisers
(`ORGANISER_PASSWORD`), `platform.organisers.require` before each of their requests keeps them to
an organiser.
"""

from __future__ import annotations

from flask import Flask

from . import api, screen, transfer, views
from . import models as models  # the tables, in the metadata the migrations compare


def init_app(app: Flask) -> None:
    """Register the nights' pages and JSON API."""
    for blueprint in (api.bp, api.setup_bp, views.bp, views.setup_bp):
        app.register_blueprint(blueprint)
    transfer.register(app)  # in the score book's export and import
    screen.init_app(app)  # the room's screen, and the night's stamp it follows
