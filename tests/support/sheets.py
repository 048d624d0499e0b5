"""A paper score sheet as a table types it in (one game of Liverpool, Ann dealing first, its
seven rounds and their totals), and its import as the score book makes it."""

from __future__ import annotations

from scorekeeper.games import papersheets
from scorekeeper.platform.database import db
from scorekeeper.rules.ruleset import PRESETS

SHEET = (
    "\n".join(
        [
            "game,2019-12-24,Ann,Ann,Bob,Cat,Dan",
            "round,1,,25,0,40,15",
            "round,2,,-35,0,60,20",  # Ann cuts exactly for Bob's deal: 15 − 50
            "round,3,,10,35,0,45",
            "round,4,,0,55,30,25",
            "round,5,,40,20,65,0",
            "round,6,,30,0,25,70",
            "round,7,,0,85,45,60",
            "total,,,70,195,265,235",
        ]
    )
    + "\n"
)


def import_sheet(app, text: str = SHEET) -> list[int]:
    """Store the sheet's games as the paper sheets' import does; their ids."""
    with app.app_context():
        games = papersheets.store(papersheets.read_sheet(text, PRESETS["liverpool"]))
        db.session.commit()
        return [game.id for game in games]
