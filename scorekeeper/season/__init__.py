"""The season: the players across every game of the score book, their figures, head to head
and ratings.

It reads what the score book stores (`scorekeeper.games`) and never writes a game: the
score book never imports it, so the dependencies point one way, rules <- platform <- games <- season.
The game page shows the players' chances from the ratings through the template global
`win_chances`, registered here, which the score book's template calls only where it exists.
Its one table, the players the table merged (`models`), is imported with the package, so the
migrations' metadata holds it whenever the app is made.
"""

from __future__ import annotations

from flask import Flask

from ..platform import cache
from . import api, players, transfer, views
from . import models as models  # the table, in the metadata the migrations compare


def init_app(app: Flask) -> None:
    """Register the players' pages, the season's JSON API, its stamp and cache, the chances and
    the merges in the export."""
    cache.stamp_rows(app, players.stamped)
    cache.keep(app, players.STAMP, size=1)
    app.register_blueprint(views.bp)
    app.register_blueprint(views.merges_bp)
    app.register_blueprint(api.bp)
    app.add_template_global(players.win_chances, "win_chances")
    transfer.register(app)  # in the score book's export and import
