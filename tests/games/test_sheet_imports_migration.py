"""The upgrade to `sheet_imports`: every game brought in from a paper sheet before gets its
fingerprint, a game imported twice back then keeps both copies (only the first holds the
fingerprint), and the sheet imported again afterwards opens the first copy."""

from __future__ import annotations

import flask_migrate

from scorekeeper.games import papersheets
from scorekeeper.games.models import Game, SheetImport
from scorekeeper.platform import cache, database
from scorekeeper.platform.database import db
from scorekeeper.rules.ruleset import PRESETS
from tests.games.test_paper_sheets import GOOD
from tests.support.apps import app_on

BEFORE = "0013_round_buys"
LATER_COLUMN = "ALTER TABLE rounds ADD COLUMN out_in_one_turn BOOLEAN NOT NULL DEFAULT false"


def test_games_from_sheets_get_their_fingerprint_and_a_twin_keeps_its_rows(
    fresh_database, tmp_path
):
    app = app_on(fresh_database("sheets"), tmp_path)
    with app.app_context():
        database.upgrade(BEFORE)
        stamped = app.extensions.pop(cache.EXTENSION)  # a database this old counts no stamps
        # Today's rounds carry a column a later revision adds (0016): written with it, then
        # without it, as this revision keeps them.
        db.session.execute(db.text(LATER_COLUMN))
        for _ in range(2):  # the sheet imported twice, as two imports at once could
            read = papersheets.read_sheet(GOOD, PRESETS["liverpool"])
            db.session.add_all(found.game for found in read.games)
            db.session.commit()
        db.session.execute(db.text("ALTER TABLE rounds DROP COLUMN out_in_one_turn"))
        db.session.commit()
        app.extensions[cache.EXTENSION] = stamped
        database.upgrade()
        games = db.session.scalars(db.select(Game).order_by(Game.id)).all()
        assert [(game.id, game.from_sheet) for game in games] == [(1, True), (2, True)]
        assert [len(game.rounds) for game in games] == [7, 7]
        kept = db.session.execute(db.select(SheetImport.fingerprint, SheetImport.game_id)).all()
        assert kept == [(papersheets.fingerprint(games[0]), 1)]
    client = app.test_client()
    page = client.post("/games/import-sheet", data={"text": GOOD, "rules": "liverpool"})
    assert "(game 1)" in page.get_data(as_text=True)
    # A preview made before the upgrade, imported after it.
    posted = {"write_token": "u" * 22, "rules": "liverpool", "text": GOOD}
    again = client.post("/games/import-sheet/import", data=posted)
    assert again.status_code == 303 and again.location == "/games/1"
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Game.id))) == 2


def test_the_upgrade_is_undone_and_done_again(fresh_database, tmp_path):
    app = app_on(fresh_database("sheets"), tmp_path)
    with app.app_context():
        database.upgrade()
        papersheets.store(papersheets.read_sheet(GOOD, PRESETS["liverpool"]))
        db.session.commit()
        db.session.remove()
        flask_migrate.downgrade(directory=str(database.MIGRATIONS), revision=BEFORE)
        assert "sheet_imports" not in db.inspect(db.engine).get_table_names()
        database.upgrade()
        assert db.session.scalars(db.select(SheetImport.game_id)).all() == [1]
