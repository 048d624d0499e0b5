"""A club's league: its nights make a league table, scored per league by places at each table or
by each player's total normalised to their table, with each player's nights, the table as CSV
and as a printed sheet, and a night's summary (the winners of each table, the best round).

`service` writes, `standings` reads (from the score book's totals, places and winners), `sheets`
gives them as JSON and CSV; `views` (pages) and `api` (JSON) only translate requests into calls
to them. The league builds on the nights, the score book and the season's names, so the
dependencies point one way, games <- season <- nights <- league.

An organiser's writes (a new league, the nights that count) are on the `setup_bp` blueprints of
`views` and `api`: where the club has organisers (`ORGANISER_PASSWORD`),
`platform.organisers.require` before each of their requests keeps them to an organiser.
"""

from __future__ import annotations

from flask import Flask

from . import api, transfer, views
from . import models as models  # the tables, in the metadata the migrations compare


def init_app(app: Flask) -> None:
    """Register the league's pages and JSON API."""
    for blueprint in (api.bp, api.setup_bp, views.bp, views.setup_bp, views.summary_bp):
        app.register_blueprint(blueprint)
    transfer.register(app)  # in the score book's export and import
