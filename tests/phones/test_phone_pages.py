"""The phones' pages through the test client, as a phone without JavaScript uses them (a plain
form): type the code, pick a seat, send a hand, change it, and read the round once saved; and
the tablet's page that collects the hands on its round form."""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser

import pytest

from scorekeeper.phones.models import PhoneHand
from scorekeeper.platform import network
from scorekeeper.platform.database import db
from tests.support.book import start
from tests.support.names import NAMES


class _Form(HTMLParser):
    """The fields of the first form whose class holds `marker`, as a browser would post them."""

    def __init__(self, marker: str) -> None:
        super().__init__()
        self.marker, self.inside, self.fields = marker, False, {}
        self.checked: set[str] = set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and self.marker in (attrs.get("class") or "").split():
            self.inside = True
        elif tag == "input" and self.inside and attrs.get("name"):
            kind = attrs.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in attrs:
                    self.fields[attrs["name"]] = attrs.get("value") or "y"
            else:
                self.fields[attrs["name"]] = attrs.get("value") or ""

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False


def form_of(html: str, marker: str) -> dict[str, str]:
    parser = _Form(marker)
    parser.feed(html)
    assert parser.fields, f"no form {marker!r} on the page"
    return parser.fields


def text_of(response) -> str:
    """The page's words, tags dropped and entities read, spaces squeezed."""
    import html

    words = re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))
    return re.sub(r"\s+", " ", html.unescape(words))


@pytest.fixture
def table(app, client):
    """A 4-player game started on the tablet (`client` holds the key), round 1 opened to phones:
    (game id, code)."""
    game_id = start(client)
    assert "Players enter their own hands" in client.get(f"/games/{game_id}").text
    page = client.post(f"/games/{game_id}/rounds/1/phones")  # 303 to the collecting page
    assert page.status_code == 200
    code = re.search(r'class="round-code"[^>]*>([A-Z0-9]{4})<', page.text).group(1)
    return game_id, code


def phone(app):
    return app.test_client()


def join(device, code: str, seat: int):
    """Pick `seat` on the seat picker, as a tap on the name does: the hand page."""
    picker = device.get(f"/join/{code}")
    assert picker.status_code == 200
    assert "seat" not in form_of(picker.text, "seat-picker")  # only the button names it
    answer = device.post(
        f"/join/{code}", data={**form_of(picker.text, "seat-picker"), "seat": seat}
    )
    assert answer.status_code == 303 and answer.location.endswith(f"/join/{code}/hand")
    return device.get(f"/join/{code}/hand")


def send(device, code: str, **entries):
    """Send the hand form with `entries` (cards, points, counted, went_out) as typed."""
    page = device.get(f"/join/{code}/hand")
    fields = {
        k: v
        for k, v in form_of(page.text, "phone-hand").items()
        if k in ("csrf_token", "write_token", "round_number")
    }
    return device.post(f"/join/{code}/hand", data={**fields, **entries})


def seat_rows(app, code):
    with app.app_context():
        return {
            row.seat: row
            for row in db.session.scalars(db.select(PhoneHand)).all()
            if row.opening.code == code
        }


def test_the_code_form_takes_the_code_as_typed(app, table):
    _, code = table
    device = phone(app)
    form = device.get("/join")
    assert form.status_code == 200 and 'name="code"' in form.text
    answer = device.get("/join", query_string={"code": f" {code[:2].lower()}-{code[2:]} "})
    assert answer.status_code == 303 and answer.location.endswith(f"/join/{code}")
    picker = device.get(answer.location)
    assert [name for name in NAMES if f'class="seat-button">{name}<' in picker.text] == NAMES


def test_a_phone_without_script_sends_changes_and_reads_its_hand_once_saved(app, client, table):
    game_id, code = table
    bob = phone(app)
    page = join(bob, code, 1)
    assert "<h1" in page.text and ">Bob</h1>" in page.text
    assert "Round 1 of 7" in text_of(page) and 'name="cards"' in page.text
    # Sent: 303 back to the hand page (which the test client follows, as a browser does).
    after = send(bob, code, cards="K q 5")
    assert "Sent: 25 — the scorekeeper's tablet has it" in text_of(after)
    assert "On the tablet now: 5 Q K (25)" in text_of(after)
    # Changed: counted in points instead.
    assert "On the tablet now: 30 points" in text_of(send(bob, code, points="30", counted="y"))
    ann = phone(app)
    join(ann, code, 0)
    assert "Sent: 0" in text_of(send(ann, code, went_out="y"))

    # The tablet's form is filled with what arrived: Bob's points, Ann out.
    collect = client.get(f"/games/{game_id}/rounds/1/phones")
    fields = form_of(collect.text, "collect-form")
    assert fields["out"] == "0"
    assert (fields["counted_1"], fields["points_1"]) == ("y", "30")
    words = text_of(collect)
    assert "Bob Received ✓ 30" in words and "Ann Received ✓ 0" in words
    assert "Cat Waiting for a phone" in words
    state = client.get(f"/games/{game_id}/rounds/1/phones/state").get_json()
    assert [seat["state"] for seat in state["seats"]] == ["received"] * 2 + ["waiting"] * 2
    assert state["seats"][1]["hand"] == {"points": 30}
    assert state["seats"][1]["sends"] == 2

    # Saved by the score book's own round form route, every hand as the form holds it.
    fields.update(cards_2="7", cards_3="A")
    saved = client.post(f"/games/{game_id}/rounds/new", data=fields)
    assert saved.status_code == 302, saved.text
    ledger = client.get(f"/api/games/{game_id}").get_json()
    played = ledger["rounds"][0]
    assert played["penalties"] == {"Ann": 0, "Bob": 30, "Cat": 7, "Dan": 15}
    assert (played["out"], played["points"]) == ("Ann", {"Bob": 30})

    # The phone is told the round is in the ledger and what it holds, and cannot change it.
    words = text_of(bob.get(f"/join/{code}/hand"))
    assert "Round 1 is in the ledger. For Bob it holds 30 (counted)" in words
    late = bob.post(f"/join/{code}/hand", data={"cards": "K"})
    assert late.status_code in (200, 303)
    assert seat_rows(app, code)[1].points == 30
    # The code no longer opens anything for another phone.
    assert phone(app).get(f"/join/{code}").status_code == 404


def test_the_same_send_twice_stores_once(app, table):
    _, code = table
    cat = phone(app)
    join(cat, code, 2)
    page = cat.get(f"/join/{code}/hand")
    fields = form_of(page.text, "phone-hand")
    fields.update(cards="9 9")
    first = cat.post(f"/join/{code}/hand", data=fields)
    again = cat.post(f"/join/{code}/hand", data=fields)
    assert "Sent: 18" in text_of(first) and "Sent: 18" in text_of(again)
    assert seat_rows(app, code)[2].sends == 1


def test_a_taken_seat_says_who_and_what_to_do_until_the_tablet_releases_it(app, client, table):
    game_id, code = table
    join(phone(app), code, 1)
    other = phone(app)
    picker = other.get(f"/join/{code}")
    assert "Bob — on another phone" in text_of(picker)
    taken = other.post(f"/join/{code}", data={**form_of(picker.text, "seat-picker"), "seat": 1})
    assert taken.status_code == 409
    assert "Are you Bob? Bob's hand is already being entered on another phone" in text_of(taken)
    # The tablet releases it: the other phone can take it.
    collect = client.get(f"/games/{game_id}/rounds/1/phones")
    release = re.search(
        r'<form method="post" action="([^"]+/release)" class="release-form">(.*?)</form>',
        collect.text[collect.text.index('data-seat="1" data-sends') :],
        re.S,
    )
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', release.group(2)))
    assert fields["seat"] == "1"
    answer = client.post(release.group(1), data=fields, follow_redirects=True)
    assert answer.status_code == 200 and "Bob's seat is free" in text_of(answer)
    assert "Bob" in text_of(join(other, code, 1))


def test_a_wrong_closed_or_expired_code_is_one_404_that_shows_no_game(app, client, table):
    game_id, code = table
    wrong = "ACDE" if code != "ACDE" else "ACDF"
    device = phone(app)

    def answer(typed):
        response = device.get(f"/join/{typed}")
        assert response.status_code == 404
        words = text_of(response)
        assert not any(name in words for name in NAMES), words
        assert f'value="{typed}"' in response.text  # the code as typed, to correct
        return words.replace(typed, "CODE")

    seen = answer(wrong)
    assert "No round is open under the code" in seen
    assert device.get(f"/join/{wrong}/hand").status_code == 404
    assert device.post(f"/join/{wrong}", data={"seat": "0"}).status_code == 404
    assert device.get("/join", query_string={"code": "ZZ"}).status_code == 404
    closed = client.get(f"/games/{game_id}/rounds/1/phones")
    tokens = form_of(closed.text, "close-phones")
    assert client.post(f"/games/{game_id}/rounds/1/phones/close", data=tokens).status_code == 303
    assert answer(code) == seen


def test_a_hand_the_engine_refuses_keeps_what_was_typed(app, table):
    _, code = table
    dan = phone(app)
    join(dan, code, 3)
    refused = send(dan, code, cards="K ZZ 5")
    assert refused.status_code == 200  # the form again (after its 303), nothing sent
    assert 'value="K ZZ 5"' in refused.text
    assert "Nothing was sent" in text_of(refused) and "ZZ" in text_of(refused)
    too_many = send(dan, code, points="9999", counted="y")
    assert 'value="9999"' in too_many.text and "Nothing was sent" in text_of(too_many)
    assert seat_rows(app, code)[3].kind is None


def test_the_tablet_pages_need_the_edit_key(app, table):
    game_id, _ = table
    spectator = phone(app)
    for path in ("", "/state", "/qr.svg"):
        assert spectator.get(f"/games/{game_id}/rounds/1/phones{path}").status_code == 403
    assert spectator.post(f"/games/{game_id}/rounds/1/phones").status_code == 403


def test_the_code_as_a_qr_code(client, table):
    game_id, _ = table
    svg = client.get(f"/games/{game_id}/rounds/1/phones/qr.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
    assert svg.data.startswith(b"<?xml") and b"<svg" in svg.data


def test_over_https_the_tablet_offers_guests_phones_the_plain_address_too(app, client, table):
    game_id, code = table
    app.config.update(SERVE_PORT=5000, SERVE_HTTPS_PORT=5443)
    page = client.get(f"/games/{game_id}/rounds/1/phones", base_url="https://localhost:5443")
    words = text_of(page)
    assert "Guests' phones: scan this one (plain address, no warning)" in words
    assert "Phones that trust this score book" in words
    assert f"open http://localhost:5000/join and type {code}" in words
    assert page.text.count('class="join-qr') == 2
    # The plain one's QR code is drawn in the page; the secure one is the page's own address.
    assert network.qr_data_uri(f"http://localhost:5000/join/{code}") in page.text
    # Over plain HTTP, or with HTTPS not served, the one address there is.
    for base, https_port in (("http://localhost:5000", 5443), ("https://localhost:5443", None)):
        app.config["SERVE_HTTPS_PORT"] = https_port
        page = client.get(f"/games/{game_id}/rounds/1/phones", base_url=base)
        assert "Guests' phones" not in text_of(page)
        assert page.text.count('class="join-qr') == 1


def test_the_phone_script_says_only_the_servers_words(app, table):
    """The hand page gives its script every word it shows: why a penalty cannot be counted, as
    the round form says it, and how the send is going."""
    _, code = table
    page = join(phone(app), code, 1)
    form = re.search(r"<form [^>]*class=\"phone-hand\"[^>]*>", page.text).group(0)
    words = json.loads(html.unescape(re.search(r"data-words='([^']*)'", form).group(1)))
    assert words["not_card"] == "'{card}' is not a card"
    assert words["over"] == "more {card} than this game's packs hold"
    assert words["sending"] == "Sending…"
    assert words["waiting"] == "Not sent yet — will send when the Wi-Fi is back."
