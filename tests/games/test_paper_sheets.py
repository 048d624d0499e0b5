"""Old paper sheets: the template imports as its example, a 1,000-row sheet imports all or
nothing, every bad input is named by row and column (never a 500), the preview stores nothing,
a double post imports once, and export and import carry the mark."""

from __future__ import annotations

import csv
import io
import re
from datetime import datetime
from html import unescape

import pytest
from flask_babel import force_locale, gettext

from scorekeeper.games import importer, papersheets, transfer
from scorekeeper.games.models import Game, SheetImport
from scorekeeper.games.papersheets import template_text
from scorekeeper.platform.database import db
from scorekeeper.rules.ruleset import PRESETS
from tests.support.apps import app_on
from tests.support.languages import small_catalogs
from tests.support.saved import save_ruleset, smith_document

LIVERPOOL = PRESETS["liverpool"]
HEAD = "game,2019-12-24,Ann,Ann,Bob,Cat,Dan"
# Seven deals with Ann dealing first: round n's cutter is the seat before its dealer.
ROUNDS = [
    "round,1,,25,0,40,15",
    "round,2,,-35,0,60,20",  # Ann cuts for Bob's deal: 15 − 50
    "round,3,,10,35,0,45",
    "round,4,,0,55,30,25",
    "round,5,,40,20,65,0",
    "round,6,,30,0,25,70",
    "round,7,,0,85,45,60",
]
TOTAL = "total,,,70,195,265,235"


def sheet(*rows: str) -> str:
    return "\n".join(rows) + "\n"


GOOD = sheet(HEAD, *ROUNDS, TOTAL)


def read(app, raw, rules=LIVERPOOL):
    with app.app_context():
        return papersheets.read_sheet(raw, rules)


def problems(app, raw, rules=LIVERPOOL) -> list[str]:
    return [str(problem) for problem in read(app, raw, rules).problems]


def game_count(app) -> int:
    with app.app_context():
        return db.session.scalar(db.select(db.func.count(Game.id)))


def preview(client, text, rules="liverpool"):
    return client.post("/games/import-sheet", data={"text": text, "rules": rules})


def import_form(page: str) -> dict[str, str]:
    """The import form of a preview page, as the browser would post it."""
    token = re.search(r'name="write_token" type="hidden" value="([^"]+)"', page)[1]
    rules = re.search(r'id="rules" name="rules" type="hidden" value="([^"]*)"', page)[1]
    text = re.search(r'name="text">\r?\n(.*?)</textarea>', page, re.S)[1]
    return {"write_token": token, "rules": unescape(rules), "text": unescape(text)}


# --- The template ----------------------------------------------------------------------------


def test_the_downloaded_template_imports_as_its_example(app, client):
    download = client.get("/games/import-sheet/template.csv")
    assert download.status_code == 200
    assert download.mimetype == "text/csv"
    assert "attachment" in download.headers["Content-Disposition"]
    assert download.data.decode() == template_text()
    page = client.get("/games/import-sheet").get_data(as_text=True)
    assert 'href="/games/import-sheet/template.csv"' in page

    shown = client.post(
        "/games/import-sheet",
        # A browser posts the empty text area beside the file: the file is what is imported.
        data={"rules": "liverpool", "text": "", "file": (io.BytesIO(download.data), "sheet.csv")},
        content_type="multipart/form-data",
    )
    page = shown.get_data(as_text=True)
    assert shown.status_code == 200 and "2 games to import" in page and "Import 2 games" in page
    assert game_count(app) == 0  # the preview stores nothing
    done = client.post("/games/import-sheet/import", data=import_form(page))
    assert done.status_code == 303
    first = int(done.location.rsplit("/", 1)[1])
    with app.app_context():
        games = db.session.scalars(db.select(Game).order_by(Game.id)).all()
        assert [game.from_sheet for game in games] == [True, True]
        full, early = (papersheets.ledger.book(game) for game in games)
        assert full.names == ["Ann", "Bob", "Cat", "Dan"]
        assert full.totals == [70, 195, 265, 235] and full.winner_names == ["Ann"]
        assert [line.place for line in full.standings] == [1, 2, 3, 4]
        assert games[0].finished_at == datetime(2019, 12, 24) == games[0].created_at
        assert games[0].ended_after is None and len(games[0].rounds) == 7
        cut = games[0].rounds[1]
        assert (cut.dealer, cut.cutter, cut.cut_exact, cut.out) == (1, 0, True, 1)
        assert [(s.penalty, s.bonus, s.score, s.counted) for s in cut.scores] == [
            (15, -50, -35, True),
            (0, 0, 0, False),
            (60, 0, 60, True),
            (20, 0, 20, True),
        ]
        assert early.totals == [70, 115, 70, 125] and early.winner_names == ["Bob", "Dan"]
        assert games[1].ended_after == 4 and games[1].first_dealer == 0
        assert games[0].id == first
    shown = client.get(f"/games/{first}").get_data(as_text=True)
    assert "from a paper sheet" in shown and "Imported 2 games from a paper sheet" in shown
    assert client.get("/games/").get_data(as_text=True).count("from a paper sheet") == 2


def test_a_double_post_imports_once(app, client):
    page = preview(client, GOOD).get_data(as_text=True)
    form = import_form(page)
    first = client.post("/games/import-sheet/import", data=form)
    second = client.post("/games/import-sheet/import", data=form)
    assert first.status_code == second.status_code == 303
    assert first.location == second.location
    assert game_count(app) == 1
    # A new form for the same sheet finds the game already there, imports nothing, opens it.
    again = client.post("/games/import-sheet/import", data={**form, "write_token": "n" * 22})
    assert again.status_code == 303 and again.location == first.location
    shown = unescape(client.get(again.location).get_data(as_text=True))
    assert "This sheet is already in the score book (game 1): nothing was imported again." in shown
    assert game_count(app) == 1


def test_a_sheet_imported_before_is_previewed_as_already_there_with_its_game(app, client):
    client.post("/games/import-sheet/import", data=import_form(preview(client, GOOD).text))
    page = unescape(preview(client, GOOD).get_data(as_text=True))
    assert "Already imported: nothing to import again" in page
    assert '<a href="/games/1">this game is already in the score book (game 1)</a>' in page
    assert 'id="import-form"' not in page


def test_a_sheet_sharing_one_game_with_one_imported_names_it_and_imports_nothing(app, client):
    client.post("/games/import-sheet/import", data=import_form(preview(client, GOOD).text))
    other = sheet(HEAD.replace("2019-12-24", "2019-12-25"), *ROUNDS)
    both = other + GOOD
    with app.app_context():
        read = papersheets.read_sheet(both, LIVERPOOL)
        assert [str(problem) for problem in read.problems] == [
            "row 9: this game is already in the score book (game 1)"
        ]
        assert read.stored_before == []
        with pytest.raises(papersheets.SheetRefused):
            papersheets.store(read)
    assert game_count(app) == 1


def test_the_same_game_twice_in_one_sheet_is_a_problem(app):
    assert problems(app, GOOD + GOOD) == ["row 10: this game is the one of row 1 again"]


# --- A thousand rows ---------------------------------------------------------------------------


def thousand_rows() -> list[str]:
    """125 games of seven deals, eight rows each: 1,000 rows, every score a hand can be."""
    rows = []
    for index in range(125):
        rows.append(f"game,2018-{1 + index % 12:02d}-{1 + index % 28:02d},,Ann,Bob,Cat,Dan")
        for number in range(1, 8):
            scores = [5 + (index * 7 + number * 11 + seat * 13) % 90 for seat in range(4)]
            scores[(index + number) % 4] = 0  # who went out
            rows.append(f"round,{number},," + ",".join(map(str, scores)))
    return rows


def test_a_sheet_of_a_thousand_rows_imports_whole(app, runner, tmp_path):
    rows = thousand_rows()
    assert len(rows) == 1000
    path = tmp_path / "years.csv"
    path.write_text(sheet(*rows), encoding="utf-8")
    result = runner.invoke(args=["import-sheet", str(path)])
    assert result.exit_code == 0, result.output
    assert "Imported 125 games from a paper sheet" in result.output
    assert game_count(app) == 125


def test_one_bad_row_of_a_thousand_imports_nothing_and_is_named(app, client):
    rows = thousand_rows()
    assert rows[899].startswith("round,3,,")
    cells = rows[899].split(",")
    cells[4] = "x"  # column E, Bob's
    rows[899] = ",".join(cells)
    page = preview(client, sheet(*rows)).get_data(as_text=True)
    assert "1 problem: nothing can be imported yet" in page
    assert "Row 900, column E (Bob)</strong>: must be a whole number, not &#39;x&#39;" in page
    assert "Import " not in page.split('id="preview"')[1].split("</h2>")[1]
    assert game_count(app) == 0


# --- Every kind of bad input, named ----------------------------------------------------------


def with_round(number: int, row: str) -> str:
    rounds = list(ROUNDS)
    rounds[number - 1] = row
    return sheet(HEAD, *rounds)


BAD = {
    "too few scores": (with_round(1, "round,1,,25,0,40"), "row 2, column G (Dan): has no score"),
    "too many scores": (
        with_round(1, "round,1,,25,0,40,15,9"),
        "row 2, column H: has a score past the last player's column",
    ),
    "a score that is not a number": (
        with_round(3, "round,3,,10,3.5,0,45"),
        "row 4, column E (Bob): must be a whole number, not '3.5'",
    ),
    "an unknown dealer": (
        sheet("game,2019-12-24,Zed,Ann,Bob,Cat,Dan", *ROUNDS),
        "row 1, column C: 'Zed' is not one of the players: Ann, Bob, Cat, Dan",
    ),
    "a dealer out of turn": (
        with_round(3, "round,3,Ann,10,35,0,45"),
        "row 4, column C: Cat deals round 3 when Ann deals round 1",
    ),
    "a duplicate player": (
        sheet("game,2019-12-24,,Ann,Bob,ann,Dan", *ROUNDS),
        "row 1, column F: 'ann': ",
    ),
    "too many players": (
        sheet("game,2019-12-24,,Ann,Bob,Cat,Dan,Eve", *ROUNDS),
        "row 1, column D: 5 players: liverpool rules are for exactly 4 players",
    ),
    "too few players": (
        sheet("game,2019-12-24,,Ann,Bob,Cat", *ROUNDS),
        "row 1, column D: 3 players",
    ),
    "too many rounds": (
        sheet(HEAD, *ROUNDS, "round,8,,5,0,5,5"),
        "row 9, column B: is one round too many: liverpool rules have 7 deals",
    ),
    "rounds out of order": (
        with_round(2, "round,3,,-35,0,60,20"),
        "row 3, column B: must be 2: rounds are numbered 1, 2, 3… in order",
    ),
    "a date that is not one": (
        sheet("game,2019-02-30,,Ann,Bob,Cat,Dan", *ROUNDS),
        "row 1, column B: must be the game's date as year-month-day (2019-12-24), not '2019-02-30'",
    ),
    "a date in words": (
        sheet("game,Christmas,,Ann,Bob,Cat,Dan", *ROUNDS),
        "row 1, column B: must be the game's date as year-month-day",
    ),
    "a date to come": (
        sheet("game,2999-01-01,,Ann,Bob,Cat,Dan", *ROUNDS),
        "row 1, column B: must be a date from 1970 to today, not 2999-01-01",
    ),
    "a wrong total": (
        sheet(HEAD, *ROUNDS, "total,,,70,195,256,235"),
        "row 9, column F (Cat): is '256', and the rounds add up to 265 for Cat",
    ),
    "two players out": (
        with_round(1, "round,1,,25,0,0,15"),
        "row 2, column F (Cat): Bob and Cat score 0, and only the player who went out can",
    ),
    "a bonus for one who did not cut": (
        with_round(1, "round,1,,-25,0,40,15"),
        "row 2, column D (Ann): -25 is below 0: only the cutter, Dan in round 1",
    ),
    "a cut bonus past the rules'": (
        with_round(2, "round,2,,-60,0,60,20"),
        "row 3, column D (Ann): -60 cannot be",
    ),
    "a hand no hand can cost": (
        with_round(1, "round,1,,25,0,40,99999"),
        "row 2, column G (Dan): 99999 cannot be: a hand counts 0 to",
    ),
    "a game without rounds": (sheet(HEAD), "row 1, column A: this game has no round rows"),
    "a round before any game": (
        sheet(*ROUNDS[:1], HEAD, *ROUNDS),
        "row 1, column A: a round row must follow its game's game row",
    ),
    "an unknown row": (
        sheet(HEAD, "rnd,1,,25,0,40,15", *ROUNDS),
        "row 2, column A: must be game, round or total, not 'rnd'",
    ),
    "no players": (sheet("game,2019-12-24", *ROUNDS), "row 1, column D: the players' names"),
    "an empty file": ("", "the sheet: the file is empty"),
    "a blank file": ("\n ,,, \n\n", "the sheet: the file is empty"),
    "only notes": ("# nothing yet\n", "the sheet: the sheet has no game row"),
    "a file that is not UTF-8": (
        GOOD.replace("Ann", "Ånn").encode("latin-1"),
        "the sheet: the file is not UTF-8 text",
    ),
    "a binary file": (b"\x00\x01game", "the sheet: the file is not a text file"),
    "a huge file": (b"game," * 300_000, "the sheet: the file is 1464 KiB"),
}


@pytest.mark.parametrize("raw, expected", BAD.values(), ids=BAD.keys())
def test_every_bad_input_is_named_by_row_and_column(app, raw, expected):
    found = problems(app, raw)
    assert any(problem.startswith(expected) for problem in found), found
    assert game_count(app) == 0


@pytest.mark.parametrize("raw, expected", BAD.values(), ids=BAD.keys())
def test_the_page_names_every_bad_input_and_stores_nothing(app, client, raw, expected):
    if len(raw) > 60_000:
        pytest.skip("past the request limit: the 413 test")
    shown = client.post(
        "/games/import-sheet",
        data={
            "rules": "liverpool",
            "file": (io.BytesIO(raw if isinstance(raw, bytes) else raw.encode()), "s.csv"),
        },
        content_type="multipart/form-data",
    )
    page = unescape(shown.get_data(as_text=True))
    assert shown.status_code == 200
    assert "nothing can be imported yet" in page and 'id="import-form"' not in page
    place, _, message = expected.partition(": ")
    assert f"{place[:1].upper()}{place[1:]}</strong>: {message}" in page
    assert game_count(app) == 0


def test_every_problem_is_named_at_once(app):
    raw = sheet(
        HEAD,
        "round,1,,25,x,40,15",
        "round,2,,-35,0,60",
        *ROUNDS[2:],
        "total,,,1,2,3,4",  # not judged while a round is wrong: its sums would be too
        HEAD.replace("2019", "2020"),
        "round,1,,-5,0,3,3",
    )
    assert problems(app, raw) == [
        "row 2, column E (Bob): must be a whole number, not 'x'",
        "row 3, column G (Dan): has no score: every player scores each round",
        "row 11, column D (Ann): -5 is below 0: only the cutter, Dan in round 1, takes the "
        "exact-cut bonus (-50)",
    ]


def test_a_huge_post_is_413_not_a_500(client):
    answer = preview(client, "round,1,,25,0,40,15\n" * 5000)
    assert answer.status_code == 413


# --- What is decided where the sheet is silent ----------------------------------------------


def test_with_no_dealer_an_exact_cut_says_who_dealt(app):
    # Round 2's −35 is Cat's: Cat cuts for Dan's deal, so Cat dealt round 1.
    raw = sheet(
        "game,2019-12-24,,Ann,Bob,Cat,Dan",
        "round,1,,25,0,40,15",
        "round,2,,20,0,-35,60",
    )
    found = read(app, raw)
    assert found.problems == []
    (game,) = found.games
    assert game.game.first_dealer == 2 and game.game.ended_after == 2
    assert game.notes == [
        "Cat dealt round 1, as the exact cut of round 2 shows",
        "ended early after round 2 of 7",
    ]


def test_semicolons_and_pasted_cells_read_as_commas(app):
    for separator in (";", "\t"):
        found = read(app, GOOD.replace(",", separator))
        assert found.problems == [] and found.games[0].book.totals == [70, 195, 265, 235]


def test_a_saved_rule_set_is_offered_and_followed(app, client):
    saved = save_ruleset(client, smith_document())
    rules_id = saved["id"] if isinstance(saved, dict) else saved
    page = client.get("/games/import-sheet").get_data(as_text=True)
    assert f'value="ruleset:{rules_id}"' in page
    with app.app_context():
        rules = papersheets.rules_named("Smith family")
    shown = preview(client, GOOD, f"ruleset:{rules_id}").get_data(as_text=True)
    assert rules.summary() in unescape(shown)


# --- Export and import ----------------------------------------------------------------------


def sheet_records(app) -> list[tuple[str, int]]:
    with app.app_context():
        rows = db.session.execute(db.select(SheetImport.fingerprint, SheetImport.game_id))
        return sorted(tuple(row) for row in rows)


def test_export_and_import_carry_the_mark_and_the_sheets_record(app, tmp_path, fresh_database):
    with app.app_context():
        papersheets.store(papersheets.read_sheet(GOOD, LIVERPOOL))
        db.session.commit()
        document = transfer.export_games()
    assert [game["from_sheet"] for game in document["games"]] == [True]
    assert len(document["sheets"]) == 1 and document["sheets"][0]["game_id"] == 1
    other = app_on(fresh_database("copy"), tmp_path, "copy", UPGRADE_ON_START=True)
    with other.app_context():
        assert importer.import_games(document) == 1
        assert transfer.dumps(transfer.export_games()) == transfer.dumps(document)
    # The record that stores each of the sheet's games once came along: the sheet again is
    # refused there as here.
    assert sheet_records(other) == sheet_records(app) != []
    with other.app_context(), pytest.raises(papersheets.SheetAlreadyStored):
        papersheets.store(papersheets.read_sheet(GOOD, LIVERPOOL))
    older = app_on(fresh_database("older"), tmp_path, "older", UPGRADE_ON_START=True)
    # An export made before the mark, and before the sheets' records (format 3).
    del document["games"][0]["from_sheet"]
    for name in ("rule_sets", "merges", "sheets"):
        del document[name]
    document["format_version"] = 3
    with older.app_context():
        assert importer.import_games(document) == 1
        assert db.session.scalars(db.select(Game.from_sheet)).all() == [False]
    assert sheet_records(older) == []


def test_a_sheets_game_downloaded_alone_carries_its_record(app, client, tmp_path, fresh_database):
    """The game page's download (`export.json`) of a game from a paper sheet holds that sheet's
    record, so importing the download elsewhere still stores the sheet's games once; a game
    played at the table has none, and no other game's record comes along."""
    with app.app_context():
        papersheets.store(papersheets.read_sheet(GOOD, LIVERPOOL))
        db.session.commit()
    played = client.post("/api/games", json={"players": ["Eve", "Fay", "Gus", "Hal"]})
    assert played.status_code == 201
    alone = client.get("/games/1/export.json").get_json()
    assert alone["sheets"] == [{"game_id": 1, "fingerprint": sheet_records(app)[0][0]}]
    assert client.get(f"/games/{played.get_json()['id']}/export.json").get_json()["sheets"] == []
    other = app_on(fresh_database("copy"), tmp_path, "copy", UPGRADE_ON_START=True)
    with other.app_context():
        assert importer.import_games(alone) == 1
    assert sheet_records(other) == sheet_records(app)
    with other.app_context(), pytest.raises(papersheets.SheetAlreadyStored):
        papersheets.store(papersheets.read_sheet(GOOD, LIVERPOOL))


# --- In every language -----------------------------------------------------------------------

# The rows' words and a few texts of the sheet in Finnish and German, as a catalog would give them
# (the shipped catalogs may not have them yet).
FINNISH = {
    "game": "peli",
    "round": "kierros",
    "total": "yhteensä",
    "row %(row)s, column %(column)s (%(player)s)": "rivi %(row)s, sarake %(column)s (%(player)s)",
    "has no score: every player scores each round": "pisteet puuttuvat: jokainen saa pisteet",
    # A note of semicolons and no comma: the separator is still the rows' comma.
    "A paper score sheet for Liverpool Scorekeeper: one game row per game, then its round rows.": (
        "Paperinen tulossivu; pelirivi; kierrosrivit"
    ),
    "Game row: %(game)s, the date (year-month-day), who dealt round 1 (may be left empty), then "
    "the players in seat order, clockwise.": "Pelirivi: %(game)s, päivämäärä, jakaja, pelaajat.",
}
GERMAN = {"game": "Spiel", "round": "Runde", "total": "Summe"}


@pytest.fixture
def speaking(app_with, tmp_path):
    catalogs = small_catalogs(tmp_path / "translations", {"fi": FINNISH, "de": GERMAN})
    return app_with(BABEL_TRANSLATION_DIRECTORIES=str(catalogs))


def in_words(rows: str, words: dict[str, str]) -> str:
    """A sheet with each row's first word in another language."""
    return "".join(
        ",".join([words.get(line.split(",")[0], line.split(",")[0]), *line.split(",")[1:]]) + "\n"
        for line in rows.splitlines()
    )


def test_the_template_downloaded_in_finnish_is_in_finnish_and_imports(speaking):
    client = speaking.test_client()
    finnish = {"Accept-Language": "fi"}
    download = client.get("/games/import-sheet/template.csv", headers=finnish)
    assert "Accept-Language" in download.headers["Vary"]
    text = download.data.decode()
    with speaking.app_context(), force_locale("fi"):
        assert text == template_text()
        words = papersheets.row_words()
    assert words == {"game": "peli", "round": "kierros", "total": "yhteensä"}
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[1] == ["# Pelirivi: peli, päivämäärä, jakaja, pelaajat."]
    assert [row[0] for row in rows if row and not row[0].startswith("#")] == (
        ["peli"] + ["kierros"] * 7 + ["yhteensä", "peli"] + ["kierros"] * 4
    )
    # English is the template as it always was.
    assert client.get("/games/import-sheet/template.csv").data.decode() == template_text()
    assert "game,2019-12-24,Ann,Ann,Bob,Cat,Dan" in template_text()
    # Read in Finnish, in English, or in German: the same two games, ready to import.
    for headers in (finnish, {"Accept-Language": "en"}, {"Accept-Language": "de"}):
        page = client.post(
            "/games/import-sheet", data={"text": text, "rules": "liverpool"}, headers=headers
        ).text
        assert 'id="import-form"' in page, headers
    done = client.post("/games/import-sheet/import", data=import_form(page), headers=finnish)
    assert done.status_code == 303
    with speaking.app_context():
        games = db.session.scalars(db.select(Game).order_by(Game.id)).all()
        assert [len(game.rounds) for game in games] == [7, 4]


def test_a_sheet_is_read_with_its_rows_words_in_english_or_any_language_offered(speaking):
    """Every language the score book speaks, whatever the request's (or a command's) language:
    a sheet typed from a Finnish template is read on an English page, a German one on a
    Finnish page; the words read in any case, and mixed within one sheet."""
    german = in_words(GOOD, GERMAN)
    assert german.startswith("Spiel,2019-12-24") and "\nSumme,,," in german
    mixed = in_words(GOOD, {"game": "PELI", "total": "Summe"})
    for raw in (GOOD, in_words(GOOD, FINNISH), german, mixed):
        assert read(speaking, raw).ready, raw
        with speaking.test_request_context(headers={"Accept-Language": "fi"}):
            assert papersheets.read_sheet(raw, LIVERPOOL).ready
    # A word of no language is named with the words of the reader's.
    wrong = sheet("kierroz,1,,25,0,40,15")
    assert problems(speaking, wrong) == [
        "row 1, column A: must be game, round or total, not 'kierroz'"
    ]
    with speaking.test_request_context(headers={"Accept-Language": "fi"}):
        said = [str(problem) for problem in papersheets.read_sheet(wrong, LIVERPOOL).problems]
        assert said == [
            gettext(
                "%(place)s: %(problem)s",
                place=gettext("row %(row)s, column %(column)s", row=1, column="A"),
                problem=gettext(
                    "must be %(game)s, %(round)s or %(total)s, not %(cell)s",
                    game="peli",
                    round="kierros",
                    total="yhteensä",
                    cell="'kierroz'",
                ),
            )
        ]
        assert "peli, kierros" in said[0]


def test_the_sheets_problems_are_named_in_the_requests_language(speaking):
    client = speaking.test_client()
    bad = in_words(sheet(HEAD, "round,1,,25,,40,15"), FINNISH)
    finnish = client.post(
        "/games/import-sheet",
        data={"text": bad, "rules": "liverpool"},
        headers={"Accept-Language": "fi"},
    ).text
    with speaking.test_request_context(headers={"Accept-Language": "fi"}):
        place = gettext(
            "row %(row)s, column %(column)s (%(player)s)", row=2, column="E", player="Bob"
        )
        problem = gettext("has no score: every player scores each round")
    assert f"{place[:1].upper()}{place[1:]}</strong>: {problem}" in finnish
    assert "Rivi 2, sarake E (Bob)</strong>: pisteet puuttuvat: jokainen saa pisteet" in finnish
    english = client.post("/games/import-sheet", data={"text": bad, "rules": "liverpool"}).text
    assert "Row 2, column E (Bob)</strong>: has no score: every player scores each round" in english
