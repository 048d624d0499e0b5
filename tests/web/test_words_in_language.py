"""The score book's own words in the request's language: the ledger's lines, the chart, the
players' pages and records, the chances, the API's refusals, the referee's card words and
WTForms' built-in messages. Each expectation is read through the catalog (so it holds whether or
not a text is translated yet), and at least one text shipped in Finnish shows in Finnish."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from babel.support import Translations
from flask_babel import force_locale, format_percent, gettext
from flask_wtf import FlaskForm
from wtforms import IntegerField, StringField
from wtforms.i18n import messages_path
from wtforms.validators import DataRequired

from scorekeeper.games import ledger
from scorekeeper.games.models import RoundChange
from scorekeeper.games.roundvalues import RoundSnapshot
from scorekeeper.referee.views import chip
from tests.season.seeding import play_game
from tests.support.book import new_game, play_rounds, record
from tests.support.names import NAMES

FINNISH = {"Accept-Language": "fi"}


def finnish(app, text: str, **variables) -> str:
    """`text` as the Finnish catalog says it (English where it has no translation yet)."""
    with app.test_request_context(), force_locale("fi"):
        return gettext(text, **variables)


def test_a_correction_in_the_ledger_is_said_in_the_requests_language(app, client):
    game = new_game(client, NAMES)
    record(client, game, "Ann")
    with app.app_context():
        played = ledger.get_game(game.id).rounds[0]
        before = RoundSnapshot.of_round(played)
    after = RoundSnapshot.from_dict({**before.to_dict(), "cut_exact": not before.cut_exact})
    change = RoundChange(
        round_number=1,
        action="corrected",
        before=before.to_dict(),
        after=after.to_dict(),
        changed_at=datetime.now(UTC),
    )
    with app.test_request_context(headers=FINNISH):
        said = ledger.describe(change, NAMES)
        title = ledger.Change(change.changed_at, 1, "corrected", said.lines).title
    yes, no = finnish(app, "yes"), finnish(app, "no")
    assert yes == "kyllä"  # shipped in Finnish
    was, now = (yes, no) if before.cut_exact else (no, yes)
    assert said.lines == [finnish(app, "exact cut: %(before)s → %(after)s", before=was, after=now)]
    assert title == finnish(app, "round %(number)s corrected", number=1)
    with app.test_request_context(headers={"Accept-Language": "en"}):
        english = ledger.describe(change, NAMES).lines
    assert english == [
        f"exact cut: {'yes' if before.cut_exact else 'no'} → {'yes' if after.cut_exact else 'no'}"
    ]


def test_the_totals_chart_speaks_the_requests_language(app, client):
    game = new_game(client, NAMES)
    record(client, game, "Ann")
    page = client.get(f"/games/{game.id}", headers=FINNISH).text
    assert ">Kierros</text></g>" in page  # the x axis' title, shipped in Finnish
    assert f">{finnish(app, 'start')}</text>" in page
    english = client.get(f"/games/{game.id}", headers={"Accept-Language": "en"}).text
    assert ">Round</text></g>" in english and ">start</text>" in english
    assert 'aria-label="Running totals after round 1 of 7: Ann leads.' in english


def test_the_players_pages_and_records_speak_the_requests_language(app, client):
    game = new_game(client, NAMES)
    play_rounds(client, game)
    listed = client.get("/players/", headers=FINNISH).text
    assert "Luokitus" in listed and ">Rating<" not in listed  # a column, shipped in Finnish
    assert finnish(app, "All time") in listed
    # A rating's uncertainty, with the decimal comma Finnish writes.
    assert re.search(r'class="rating-sigma">± \d+,\d<', listed)
    english = client.get("/players/", headers={"Accept-Language": "en"}).text
    assert re.search(r'class="rating-sigma">± \d+\.\d<', english)
    held = client.get("/players/records", headers=FINNISH).text
    assert finnish(app, "Lowest game total") in held
    english = client.get("/players/records", headers={"Accept-Language": "en"}).text
    assert "Lowest game total" in english


def test_the_chances_are_written_as_the_language_writes_a_percentage(app, client):
    with app.app_context():
        for _ in range(3):
            play_game(NAMES, [[0, 10, 20, 30]], end_early=True)
    game = new_game(client, NAMES)
    page = client.get(f"/games/{game.id}", headers=FINNISH).text
    shown = re.findall(r'<span class="chance">\w+ ([^<]+)</span>', page)
    with app.test_request_context(), force_locale("fi"):
        expected = [format_percent(int(re.match(r"\d+", text).group()) / 100) for text in shown]
    assert len(shown) == 4 and shown == expected
    assert all("\xa0%" in text for text in shown)  # Finnish puts a space before the sign
    english = client.get(f"/games/{game.id}", headers={"Accept-Language": "en"}).text
    assert re.findall(r'<span class="chance">\w+ \d+%</span>', english)


def test_the_apis_refusal_of_a_page_follows_accept_language(app, client):
    answer = client.get("/api/games?page=0", headers=FINNISH)
    assert answer.status_code == 400
    said = answer.get_json()["error"]
    assert said.startswith(finnish(app, "'page' must be 1 or more, not %(page)s", page=0))
    english = client.get("/api/games?page=0", headers={"Accept-Language": "en"})
    assert english.get_json()["error"].startswith("'page' must be 1 or more, not 0")


def test_the_referees_card_words_are_said_in_the_requests_language(app):
    with app.test_request_context(headers=FINNISH):
        said = chip("JK=J♦").said
    jack = finnish(
        app,
        "%(rank)s of %(suit)s",
        rank=finnish(app, "jack"),
        suit=finnish(app, "diamonds"),
    )
    assert said == finnish(app, "joker as %(card)s", card=jack)
    with app.test_request_context():
        assert chip("JK=J♦").said == "joker as jack of diamonds"
        assert chip("2♠=7♥").said == "2 of spades wild as 7 of hearts"


class Asked(FlaskForm):
    number = IntegerField()
    name = StringField(validators=[DataRequired()])


def test_wtforms_own_messages_come_in_the_requests_language(app):
    """Flask-WTF's i18n reads WTForms' own catalogs in Flask-Babel's locale."""
    for code in ("fi", "de", "fr", "es"):
        catalog = Translations.load(messages_path(), [code], domain="wtforms")
        with app.test_request_context(
            method="POST", data={"number": "x"}, headers={"Accept-Language": code}
        ):
            form = Asked(meta={"csrf": False})
            assert not form.validate()
        required = catalog.gettext("This field is required.")
        assert required != "This field is required."
        assert form.errors["name"] == [required]
        assert form.errors["number"] == [catalog.gettext("Not a valid integer value.")]
    with app.test_request_context(method="POST", data={"number": "x"}):
        form = Asked(meta={"csrf": False})
        form.validate()
    assert form.errors["name"] == ["This field is required."]
