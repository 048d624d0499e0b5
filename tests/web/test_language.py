"""The language a page speaks: the device's choice (a cookie the switch sets), else the
browser's Accept-Language, else DEFAULT_LANGUAGE; a language offered once its catalog ships."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from babel.dates import format_datetime
from babel.messages.pofile import read_po

from scorekeeper.platform import language
from scorekeeper.rules import words
from scorekeeper.rules.errors import Bad
from scorekeeper.rules.opening.search import Refusal
from scorekeeper.rules.words import message
from tests.support.book import new_game
from tests.support.languages import small_catalogs


def html_lang(page: str) -> str:
    return re.search(r'<html lang="([^"]+)">', page).group(1)


@pytest.fixture
def catalogs(tmp_path) -> Path:
    return small_catalogs(tmp_path / "translations")


@pytest.fixture
def speaking(app_with, catalogs):
    """An app whose catalogs are the Finnish and Chilean ones above."""
    return app_with(BABEL_TRANSLATION_DIRECTORIES=str(catalogs)).test_client()


def test_with_no_catalog_but_english_the_page_is_english_and_offers_no_switch(app_with, tmp_path):
    (tmp_path / "none").mkdir()
    client = app_with(BABEL_TRANSLATION_DIRECTORIES=str(tmp_path / "none")).test_client()
    page = client.get("/games/new", headers={"Accept-Language": "fi"}).text
    assert html_lang(page) == "en"
    assert "language-switch" not in page
    assert ">New game<" in page


def test_the_browser_language_is_spoken_when_a_catalog_ships(speaking):
    page = speaking.get("/games/new", headers={"Accept-Language": "fi-FI,fi;q=0.9,en;q=0.5"}).text
    assert html_lang(page) == "fi"
    assert ">Uusi peli<" in page and "Pimeä huone" in page
    assert 'aria-label="Kieli"' in page


def test_a_regional_browser_language_finds_its_regions_catalog(speaking):
    page = speaking.get("/games/new", headers={"Accept-Language": "es-CL"}).text
    assert html_lang(page) == "es-CL"
    assert ">Juego nuevo<" in page


def test_a_language_with_no_catalog_falls_to_english(speaking):
    page = speaking.get("/games/new", headers={"Accept-Language": "de-DE,de"}).text
    assert html_lang(page) == "en"
    assert ">New game<" in page


def test_the_switch_offers_english_and_each_shipped_language_by_its_own_name(speaking):
    page = speaking.get("/games/new?x=1").text
    switch = re.search(r'<nav class="language-switch".*?</nav>', page, re.S).group(0)
    names = re.findall(r'lang="([^"]+)"[^>]*>([^<]+)</a>', switch)
    assert names == [("en", "English"), ("es-CL", "Español (Chile)"), ("fi", "Suomi")]
    assert 'aria-current="true">English<' in switch
    # Each link comes back to this page, its query kept.
    assert "/language/fi?next=/games/new?x%3D1" in switch


def test_the_choice_is_kept_per_device_over_the_browsers_language(speaking):
    answer = speaking.get("/language/fi?next=/games/new")
    assert answer.status_code == 303
    assert answer.headers["Location"] == "/games/new"
    cookie = answer.headers["Set-Cookie"]
    assert cookie.startswith("language=fi;")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Max-Age=31536000" in cookie
    page = speaking.get("/games/new", headers={"Accept-Language": "en"}).text
    assert html_lang(page) == "fi"
    assert ">Uusi peli<" in page
    # Another device (no cookie) keeps its own language.
    other = speaking.application.test_client()
    assert html_lang(other.get("/games/new", headers={"Accept-Language": "en"}).text) == "en"


def test_a_language_not_offered_is_not_kept(speaking):
    answer = speaking.get("/language/de?next=/games/new")
    assert answer.status_code == 303
    assert "Set-Cookie" not in answer.headers


@pytest.mark.parametrize(
    "target",
    ["https://elsewhere.example/", "//elsewhere.example/x", "/\\elsewhere.example", "games", ""],
)
def test_the_switch_never_sends_a_person_to_another_site(speaking, target):
    answer = speaking.get("/language/fi", query_string={"next": target})
    assert answer.headers["Location"] == "/"


def test_default_language_speaks_when_the_browser_asks_for_none(app_with, catalogs):
    client = app_with(
        BABEL_TRANSLATION_DIRECTORIES=str(catalogs), DEFAULT_LANGUAGE="fi"
    ).test_client()
    assert html_lang(client.get("/games/new").text) == "fi"
    # A browser's own language still wins over the setting.
    assert html_lang(client.get("/games/new", headers={"Accept-Language": "en"}).text) == "en"


def test_a_game_page_kept_in_one_language_is_not_served_in_another(speaking):
    """The game page is kept per process until the game changes: per language too."""
    game = new_game(speaking)
    english = speaking.get(f"/games/{game.id}", headers={"Accept-Language": "en"}).text
    finnish = speaking.get(f"/games/{game.id}", headers={"Accept-Language": "fi"}).text
    assert (html_lang(english), html_lang(finnish)) == ("en", "fi")
    assert ">New game<" in english and ">Uusi peli<" in finnish


@pytest.mark.parametrize(("size", "counted"), [(1, "1 kortti"), (5, "5 korttia")])
def test_an_engine_message_is_said_in_the_pages_language_with_its_plural(speaking, size, counted):
    said = message(Refusal.SIZE, contract="Kaksi kolmosta", least=7, size=size)
    with speaking.application.test_request_context(headers={"Accept-Language": "fi"}):
        assert language.say(said) == (
            "Kaksi kolmosta vaatii vähintään 7 korttia, joista yksi jää poistettavaksi: "
            f"tässä kädessä on {counted}."
        )
    with speaking.application.test_request_context(headers={"Accept-Language": "de"}):
        # No German catalog: English, as the engine says it.
        assert language.say(said) == words.render(said)


def test_the_apis_error_follows_accept_language_and_its_fields_do_not(speaking):
    hint = words.words(message(Bad.HINT))
    answers = {
        tag: speaking.post(
            "/api/rules/meld", json={"cards": "7X 7H 7D"}, headers={"Accept-Language": tag}
        )
        for tag in ("fi", "en")
    }
    assert {answer.status_code for answer in answers.values()} == {400}
    assert answers["fi"].json == {"error": f"'7X' (kortti 1) ei ole kortti: {hint}"}
    assert answers["en"].json == {"error": f"'7X' (card 1) is not a card: {hint}"}


def test_the_referees_reason_follows_accept_language_and_its_code_does_not(speaking):
    answers = {
        tag: speaking.post(
            "/api/rules/solve",
            json={"hand": "7S 7H", "round": 1},
            headers={"Accept-Language": tag},
        ).json
        for tag in ("fi", "en")
    }
    assert answers["fi"]["reason"] == (
        "2 sets vaatii vähintään 7 korttia, joista yksi jää poistettavaksi: "
        "tässä kädessä on 2 korttia."
    )
    assert answers["en"]["reason"] == (
        "2 sets needs at least 7 cards, one of them kept to discard: this hand has 2 cards."
    )
    # Everything but the words is the same in both: the code, the rule, the cards.
    assert {**answers["fi"], "reason": ""} == {**answers["en"], "reason": ""}
    assert answers["fi"]["code"] == "opening.size"


@pytest.mark.parametrize(
    ("tag", "average", "below", "half", "share"),
    [("en", "12.5", "−3.0", "0.1", "41%"), ("fi", "12,5", "−3,0", "0,1", "41\xa0%")],
)
def test_numbers_are_written_as_the_language_writes_them(
    speaking, tag, average, below, half, share
):
    with speaking.application.test_request_context(headers={"Accept-Language": tag}):
        assert language.decimal(12.5) == average
        assert language.decimal(-3) == below  # a real minus sign in every language
        assert language.decimal(0.05) == half  # rounded as it always was
        assert language.percent(0.41) == share


def test_a_moment_is_written_in_the_pages_language_and_the_machines_clock(speaking):
    moment = datetime(2026, 12, 3, 20, 15)  # stored in UTC
    local = moment.replace(tzinfo=UTC).astimezone()
    app = speaking.application
    with app.test_request_context(headers={"Accept-Language": "en"}):
        # English as the pages always wrote it.
        assert language.when(moment) == local.strftime("%a %d %b, %H:%M")
        assert language.when(None) == ""
    with app.test_request_context(headers={"Accept-Language": "fi"}):
        finnish = language.when(moment)
    assert finnish == format_datetime(local, language.MOMENT, locale="fi")
    assert finnish.startswith("to 03 joulu")


def test_a_page_says_its_words_depend_on_the_language(speaking):
    vary = speaking.get("/games/new").headers["Vary"]
    assert "Cookie" in vary and "Accept-Language" in vary


def test_the_committed_catalog_template_carries_every_engine_text():
    """scorekeeper/translations/messages.pot (what `make translations` extracts) holds each text
    of rules/words.py, the plural ones as plural entries: run it after the words change."""
    with open(language.TRANSLATIONS / "messages.pot", "rb") as stream:
        template = read_po(stream)
    ids = {message.id if isinstance(message.id, str) else tuple(message.id) for message in template}
    missing = []
    for code, entry in words.TEXTS.items():
        texts = (
            [entry.between, entry.last]
            if isinstance(entry, words.Joining)
            else [entry.text, *entry.counts.values()]
        )
        for text in texts:
            wanted = (text.singular, text.plural) if isinstance(text, words.Plural) else text
            if wanted not in ids:
                missing.append(code)
    assert missing == []


def test_the_score_books_forms_and_answers_speak_the_requests_language(speaking):
    finnish = {"Accept-Language": "fi"}
    page = speaking.get("/games/new", headers=finnish).text
    assert ">Nimeltään</label>" in page
    assert ">Named</label>" in speaking.get("/games/new", headers={"Accept-Language": "en"}).text
    # A validator's message, on the form shown again.
    refused = speaking.post(
        "/games/new",
        data={"names-0": "Ann", "names-1": "Bob", "profile": "liverpool"},
        headers=finnish,
    )
    assert "Valitse ensimmäinen jakaja tai arvo se." in refused.text
    assert "Pick the first dealer" not in refused.text
    # The API's error, in its JSON.
    answer = speaking.get("/api/games/999", headers=finnish)
    assert answer.status_code == 404
    assert answer.get_json()["error"] == "peliä 999 ei ole"
    english = speaking.get("/api/games/999", headers={"Accept-Language": "en"})
    assert english.get_json()["error"] == "game 999 does not exist"


def test_a_flash_and_a_counted_refusal_speak_the_requests_language(app_with, catalogs, still_clock):
    client = app_with(
        BABEL_TRANSLATION_DIRECTORIES=str(catalogs), RATELIMIT_NEW_GAMES="1 per hour"
    ).test_client()
    finnish = {"Accept-Language": "fi"}
    data = {f"names-{seat}": name for seat, name in enumerate(["Ann", "Bob", "Cat", "Dan"])}
    data.update(profile="liverpool", first_dealer="1")
    started = client.post("/games/new", data=data, headers=finnish)
    assert started.status_code == 302
    page = client.get(started.location, headers=finnish).text
    assert "Peli alkoi: Bob jakaa kierroksen 1." in page
    refused = client.post("/api/games", json={"players": ["Ann", "Bob", "Cat"]}, headers=finnish)
    assert refused.status_code == 429
    seconds = refused.get_json()["retry_after"]
    wait = f"{seconds} sekunnin" if seconds < 90 else f"{-(-seconds // 60)} minuutin"
    assert refused.get_json()["error"] == (
        "liian monta: aloitettuja pelejä tästä osoitteesta (1 per 1 hour): mitään ei muutettu, "
        f"yritä uudelleen {wait} kuluttua"
    )


def test_the_switch_offers_every_shipped_catalog_in_its_own_words(client):
    page = client.get("/games/new", headers={"Accept-Language": "fr"}).text
    assert html_lang(page) == "fr"
    names = re.findall(r'hreflang="[^"]+"[^>]*>([^<]+)</a>', page)
    assert names == [
        "English",
        "Deutsch",
        "Español",
        "Español (Chile)",
        "Español (España)",
        "Español (México)",
        "Suomi",
        "Français",
    ]


def test_a_catalog_folder_that_names_no_language_is_not_offered(app_with, tmp_path):
    folder = small_catalogs(tmp_path / "translations")
    (folder / "not-a-language" / "LC_MESSAGES").mkdir(parents=True)
    (folder / "not-a-language" / "LC_MESSAGES" / "messages.mo").write_bytes(
        (folder / "fi" / "LC_MESSAGES" / "messages.mo").read_bytes()
    )
    app = app_with(BABEL_TRANSLATION_DIRECTORIES=str(folder))
    with app.app_context():
        assert [each.code for each in language.offered()] == ["en", "es_CL", "fi"]


def test_the_switch_never_repeats_an_edit_key_from_the_address(client):
    """A page opened by an edit link (or refused for a wrong one) keeps its other arguments in
    the switch's way back, never the key."""
    page = client.get("/rules/reference?rules=shanghai&key=s3cret-key").text
    assert "s3cret-key" not in page
    assert "next=/rules/reference?rules%3Dshanghai" in page


@pytest.mark.parametrize(
    ("code", "written"), [("en", "100,000"), ("fi", "100\xa0000"), ("de", "100.000")]
)
def test_a_whole_number_is_grouped_as_the_language_writes_it(app, code, written):
    from flask_babel import force_locale

    with app.test_request_context(), force_locale(code):
        assert language.number(100_000) == written


def test_a_reason_read_on_after_the_rule_sets_name_is_translated_whole(app):
    """A house reason that names the rules already (`Part.AFTER_NAME`) reads on in the
    language too: the catalog holds that text without its lead, as the extractor gives it."""
    from flask_babel import force_locale

    from scorekeeper.rules.cards import parse_cards
    from scorekeeper.rules.ruleset import PRESETS
    from scorekeeper.rules.table import check_layoff

    named = check_layoff(
        7, parse_cards("3♠ 4♠ 5♠ 6♠"), parse_cards("7♠"), True, PRESETS["shanghai"]
    )
    assert named.code == "citing.house_named"
    english = words.render(named.message)
    with app.test_request_context(), force_locale("fi"):
        finnish = language.say(named.message)
    inner = "you may lay off on the turn you open"
    assert inner in english and inner not in finnish
    assert finnish.lower().startswith("shanghai-säännöt")
