"""`flask --app scorekeeper import-sheet FILE [--rules NAME]`: what it made, or every problem
and a non-zero exit with nothing stored."""

from __future__ import annotations

from scorekeeper.games.models import Game
from scorekeeper.games.papersheets import template_text
from scorekeeper.platform.database import db
from tests.support.saved import SMITH, save_ruleset, smith_document


def stored(app) -> list[tuple[int, bool]]:
    with app.app_context():
        return [(g.id, g.from_sheet) for g in db.session.scalars(db.select(Game).order_by(Game.id))]


def test_the_template_is_imported_and_each_game_said(app, runner, tmp_path):
    path = tmp_path / "sheet.csv"
    path.write_text(template_text(), encoding="utf-8")
    result = runner.invoke(args=["import-sheet", str(path)])
    assert result.exit_code == 0, result.output
    assert "Imported 2 games from a paper sheet (Liverpool · 7 deals" in result.output
    assert (
        "game 1: 2019-12-24 · Ann, Bob, Cat, Dan · 7 rounds · Ann 70, Bob 195, Cat 265, Dan 235"
        " · Ann wins" in result.output
    )
    assert "4 rounds (ended early, of 7)" in result.output
    assert "Bob and Dan share the win" in result.output
    assert stored(app) == [(1, True), (2, True)]
    again = runner.invoke(args=["import-sheet", str(path)])
    assert again.exit_code == 1
    assert "row 7: this game is already in the score book (game 1)" in again.output
    assert (
        "this sheet is already in the score book (games 1 and 2): nothing was imported again"
        in again.output
    )
    assert stored(app) == [(1, True), (2, True)]


def test_every_problem_is_printed_and_nothing_stored(app, runner):
    text = "game,2019-13-01,,Ann,Bob,Cat,Dan\nround,1,,x,0,40,15\nround,2,,1,0,2\n"
    result = runner.invoke(args=["import-sheet", "-"], input=text)
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert "row 1, column B: must be the game's date as year-month-day" in lines[0]
    assert lines[1] == "row 2, column D (Ann): must be a whole number, not 'x'"
    assert lines[2] == "row 3, column G (Dan): has no score: every player scores each round"
    assert "-: the sheet has 3 problems: nothing was imported" in result.output
    assert stored(app) == []


def test_a_saved_rule_set_by_name_and_an_unknown_one(app, client, runner, tmp_path):
    save_ruleset(client, smith_document())
    path = tmp_path / "sheet.csv"
    path.write_text(template_text(), encoding="utf-8")
    unknown = runner.invoke(args=["import-sheet", str(path), "--rules", "Jones"])
    assert unknown.exit_code == 1
    assert "no rules are called 'Jones': the presets are liverpool" in unknown.output
    assert f"the saved rule sets '{SMITH}'" in unknown.output
    result = runner.invoke(args=["import-sheet", str(path), "--rules", "smith FAMILY"])
    assert result.exit_code == 0, result.output
    assert f"({SMITH} ·" in result.output


def test_a_file_that_is_not_a_sheet_is_refused_in_words(app, runner, tmp_path):
    latin = tmp_path / "latin.csv"
    latin.write_bytes("game,2019-12-24,,Åse,Bob,Cat,Dan\n".encode("latin-1"))
    result = runner.invoke(args=["import-sheet", str(latin)])
    assert result.exit_code == 1
    assert "the sheet: the file is not UTF-8 text (byte 18)" in result.output
    huge = tmp_path / "huge.csv"
    huge.write_bytes(b"round,1,,1,0,1,1\n" * 70_000)
    result = runner.invoke(args=["import-sheet", str(huge)])
    assert result.exit_code == 1 and "a sheet may be at most 1024 KiB" in result.output
    missing = runner.invoke(args=["import-sheet", str(tmp_path / "none.csv")])
    assert missing.exit_code != 0 and "none.csv" in missing.output
    assert "Traceback" not in result.output + missing.output
    assert stored(app) == []
