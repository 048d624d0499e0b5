"""The tablet's poll of the seats' state: 304 from the stamps alone while nothing moved, without
loading the game; a new tag and the new state after every change the state shows, whoever made
it (a phone, the tablet, the API, another app on the same database)."""

from __future__ import annotations

import re

import pytest

from scorekeeper.games.models import Game
from scorekeeper.platform import cache
from scorekeeper.platform.database import db
from tests.support.apps import app_on
from tests.support.book import record_page, start
from tests.support.games import held_key
from tests.support.names import NAMES
from tests.support.queries import counted

TOKEN = "X-Seat-Token"
# The tables a 304 must not read: the game's players, rounds, scores, history and renames.
GAME_TABLES = ("players", "rounds", "round_scores", "round_changes", "renames")


class Tablet:
    """The collecting page's script: polls the seats' state with the tag it holds, as
    static/phonecollect.js does."""

    def __init__(self, client, game_id: int, number: int = 1, tag: str = ""):
        self.client, self.game_id, self.number, self.tag = client, game_id, number, tag

    @property
    def url(self) -> str:
        return f"/games/{self.game_id}/rounds/{self.number}/phones/state"

    def poll(self):
        return self.client.get(self.url, headers={"If-None-Match": f'"{self.tag}"'})

    def unchanged(self) -> bool:
        answer = self.poll()
        assert answer.status_code in (200, 304), answer.status_code
        return answer.status_code == 304 and not answer.data

    def changed(self) -> dict:
        """The next poll: 200 with a new tag (held from now on) and the state."""
        answer = self.poll()
        assert answer.status_code == 200, answer.status_code
        state = answer.get_json()
        assert state["tag"] != self.tag and answer.headers["ETag"] == f'"{state["tag"]}"'
        self.tag = state["tag"]
        return state

    def settled(self) -> dict:
        """The state after a change, then the same poll answered 304."""
        state = self.changed()
        assert self.unchanged() and self.unchanged()
        return state

    @property
    def key(self) -> dict[str, str]:
        return {"X-Game-Key": held_key(self.client, self.game_id)}


@pytest.fixture
def table(app, client):
    """A 4-player game started on the tablet (`client` holds the key), round 1 opened to phones,
    the collecting page open: (its poller, holding the page's tag, the round's code)."""
    game_id = start(client)
    page = client.post(f"/games/{game_id}/rounds/1/phones")
    assert page.status_code == 200
    code = re.search(r'class="round-code"[^>]*>([A-Z0-9]{4})<', page.text).group(1)
    tag = re.search(r'data-tag="([0-9a-f]+)"', page.text).group(1)
    return Tablet(client, game_id, 1, tag), code


def take_seat(phone, code: str, seat: str) -> str:
    answer = phone.post(f"/api/join/{code}", json={"seat": seat})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()["token"]


def send_hand(phone, code: str, token: str, **hand) -> None:
    answer = phone.put(f"/api/join/{code}/hand", json=hand, headers={TOKEN: token})
    assert answer.status_code == 200, answer.get_json()


def test_the_collecting_pages_own_tag_is_current(table):
    tablet, _code = table
    assert tablet.unchanged() and tablet.unchanged()


def test_every_phones_change_makes_the_next_poll_a_new_state(app, table):
    tablet, code = table
    phone = app.test_client()
    ann = take_seat(phone, code, "Ann")
    assert [seat["state"] for seat in tablet.settled()["seats"]] == ["joined"] + ["waiting"] * 3
    send_hand(phone, code, ann, cards="K 7")
    seat = tablet.settled()["seats"][0]
    assert (seat["state"], seat["hand"], seat["sends"]) == ("received", {"cards": "7 K"}, 1)
    send_hand(phone, code, ann, cards="K 7")  # the same hand again changes nothing
    assert tablet.unchanged()
    send_hand(phone, code, ann, points=25)
    assert tablet.settled()["seats"][0]["hand"] == {"points": 25}
    # The phone moves to Bob's seat: Ann's is free again, her hand stays.
    take_seat_again = phone.post(f"/api/join/{code}", json={"seat": "Bob"}, headers={TOKEN: ann})
    assert take_seat_again.status_code == 201
    states = [seat["state"] for seat in tablet.settled()["seats"]]
    assert states == ["received", "joined", "waiting", "waiting"]


def test_the_tablets_own_changes_make_the_next_poll_a_new_state(app, table):
    tablet, code = table
    phone = app.test_client()
    take_seat(phone, code, "Bob")
    assert tablet.settled()["seats"][1]["state"] == "joined"
    # Released: the seat waits for a phone again.
    released = tablet.client.delete(
        f"/api/games/{tablet.game_id}/rounds/1/hands/Bob", headers=tablet.key
    )
    assert released.status_code == 200
    assert tablet.settled()["seats"][1]["state"] == "waiting"
    # Closed to phones, then opened again under a new code.
    closed = tablet.client.delete(f"/api/games/{tablet.game_id}/rounds/1/open", headers=tablet.key)
    assert closed.status_code == 200
    state = tablet.settled()
    assert state["open"] is False and state["code"] is None
    opened = tablet.client.post(f"/api/games/{tablet.game_id}/rounds/1/open", headers=tablet.key)
    assert opened.status_code == 201
    state = tablet.settled()
    assert state["open"] is True and state["code"] == opened.get_json()["code"]


def test_a_round_opened_for_phones_makes_the_next_poll_a_new_state(client):
    game_id = start(client)
    tablet = Tablet(client, game_id)
    state = tablet.settled()
    assert state["open"] is False and state["code"] is None
    assert client.post(f"/games/{game_id}/rounds/1/phones").status_code == 200
    state = tablet.settled()
    assert state["open"] is True and re.fullmatch(r"[A-Z0-9]{4}", state["code"])


def test_the_score_books_changes_make_the_next_poll_a_new_state(app, table):
    tablet, code = table
    client, game_id = tablet.client, tablet.game_id
    # A rename: the seats carry the names.
    renamed = client.post(
        f"/api/games/{game_id}/renames", json={"renames": {"Bob": "Bea"}}, headers=tablet.key
    )
    assert renamed.status_code == 200
    assert [seat["name"] for seat in tablet.settled()["seats"]] == ["Ann", "Bea", "Cat", "Dan"]
    # The round saved: no longer open to phones.
    record_page(client, game_id, out="Cat", names=["Ann", "Bea", "Cat", "Dan"])
    assert tablet.settled()["open"] is False
    # Round 2 opened; then a correction of round 1, an archive, an undo of round 1.
    round_two = Tablet(client, game_id, 2)
    round_two.settled()
    assert client.post(f"/games/{game_id}/rounds/2/phones").status_code == 200
    assert round_two.settled()["open"] is True
    one = client.get(f"/api/games/{game_id}").get_json()["rounds"][0]
    corrected = client.put(
        f"/api/games/{game_id}/rounds/1",
        json={"version": one["version"], "out": "Ann", "leftovers": {"Bea": "5", "Cat": "9", "Dan": "K"}},
        headers=tablet.key,
    )  # fmt: skip
    assert corrected.status_code == 200, corrected.get_json()
    assert round_two.settled()["open"] is True
    assert client.post(f"/api/games/{game_id}/archive", headers=tablet.key).status_code == 200
    assert round_two.settled()["open"] is True
    undone = client.delete(f"/api/games/{game_id}/rounds/1", headers=tablet.key)
    assert undone.status_code == 200
    assert round_two.settled()["open"] is False  # round 2 is no longer the round to play


def test_a_game_deleted_is_a_404_not_a_304(table):
    tablet, _code = table
    assert tablet.unchanged()
    deleted = tablet.client.delete(f"/api/games/{tablet.game_id}", headers=tablet.key)
    assert deleted.status_code == 204
    assert tablet.poll().status_code == 404


def test_a_new_key_ends_the_old_ones_304s(app, table):
    tablet, _code = table
    assert tablet.unchanged()
    with app.app_context():
        game = db.session.get(Game, tablet.game_id)
        game.key_hash = "0" * 64  # as `keys.rekey` does: every key held before stops working
        db.session.commit()
    assert tablet.poll().status_code == 403


def test_a_spectator_holding_the_tag_is_refused_not_told(app, table):
    tablet, _code = table
    spectator = Tablet(app.test_client(), tablet.game_id, 1, tablet.tag)
    assert spectator.poll().status_code == 403


def test_a_change_made_by_another_app_on_the_database_shows_at_the_next_poll(app, table, tmp_path):
    """A second server on the same database (the club's set-up): its commit moves the stamps
    the first one reads, with nothing kept in between."""
    tablet, code = table
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    if url.startswith("sqlite"):
        pytest.skip("the tests' SQLite database is in memory: the one app's alone")
    other = app_on(url, tmp_path, "other")
    try:
        phone = other.test_client()
        cat = take_seat(phone, code, "Cat")
        assert tablet.settled()["seats"][2]["state"] == "joined"
        send_hand(phone, code, cat, cards="JK")
        assert tablet.settled()["seats"][2]["hand"] == {"cards": "JK"}
    finally:
        with other.app_context():
            db.engine.dispose()


def test_a_phones_send_leaves_the_game_pages_tag_alone(app, table):
    """The phones move their own stamps, not the game's: a spectator's game page is not drawn
    again for every hand a phone sends."""
    tablet, code = table
    game_tag = tablet.client.get(f"/games/{tablet.game_id}/state").get_json()["tag"]
    phone = app.test_client()
    send_hand(phone, code, take_seat(phone, code, "Ann"), cards="5")
    assert tablet.changed()
    assert tablet.client.get(f"/games/{tablet.game_id}/state").get_json()["tag"] == game_tag


def test_a_304_reads_the_stamps_alone_not_the_game(app, table):
    tablet, code = table
    phone = app.test_client()
    send_hand(phone, code, take_seat(phone, code, "Ann"), cards="Q 9")
    with counted(app) as changed:
        tablet.changed()
    with counted(app) as unchanged:
        assert tablet.unchanged()
    # The full answer reads the game (the counting is seen to work) ...
    assert any(re.search(r"\bFROM rounds\b", statement) for statement in changed)
    # ... the 304 two: the game's row and the stamps by keys, the round's seats by its index;
    # none of the game's rounds. (BEGIN, PostgreSQL's per-transaction timeouts: the connection's
    # own, read nothing.)
    reads = [
        statement.lower() for statement in unchanged if re.search(r"\bFROM\b", statement, re.I)
    ]
    assert len(reads) == 2, unchanged
    stamped, seats = reads
    assert "stamps" in stamped and "games" in stamped
    assert "phone_hands" in seats and "round_openings" in seats
    for name in GAME_TABLES:
        assert not re.search(rf"\b{name}\b", stamped + seats), (name, stamped, seats)


def test_a_phones_send_writes_its_seat_alone(app, table):
    """Eight phones sending at once write eight rows and share none: a send moves no stamp."""
    _tablet, code = table
    phone = app.test_client()
    token = take_seat(phone, code, "Ann")
    with app.app_context():
        before = db.session.execute(db.select(cache.Stamp.name, cache.Stamp.changes)).all()
    send_hand(phone, code, token, cards="5")
    with app.app_context():
        after = db.session.execute(db.select(cache.Stamp.name, cache.Stamp.changes)).all()
    assert sorted(after) == sorted(before)


def test_names_of_the_round_are_in_seat_order(table):
    tablet, _code = table
    fresh = Tablet(tablet.client, tablet.game_id)  # holding no tag yet
    assert [seat["name"] for seat in fresh.changed()["seats"]] == NAMES
    assert fresh.tag == tablet.tag
