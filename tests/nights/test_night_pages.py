"""The night pages without script: set a night up, check in by chips and typed names, pin, draw
(once, however often the form is sent), the tables with their games and edit links' QR codes,
and a late arrival; each refusal shown on the night's page."""

from __future__ import annotations

import itertools

from scorekeeper.games.models import Game
from scorekeeper.platform.database import db

ELEVEN = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kit"]
_tokens = (f"{n:022d}" for n in itertools.count())


def token() -> str:
    return next(_tokens)


def new_night(client, rules="shanghai") -> str:
    answer = client.post(
        "/nights/new", data={"held_on": "2026-12-03", "rules": rules, "write_token": token()}
    )
    assert answer.status_code == 303, answer.get_data(as_text=True)
    return answer.location


def test_the_new_night_page_offers_the_rule_sets_as_the_new_game_page_does(client):
    page = client.get("/nights/new").get_data(as_text=True)
    assert 'value="shanghai"' in page and 'value="liverpool"' in page
    assert 'name="write_token"' in page
    assert client.get("/nights").status_code == 200


def test_a_night_is_checked_in_by_chips_and_names_then_drawn(client, book):
    book.new_game(["Ann", "Bob", "Cat", "Dan"])
    where = new_night(client)
    page = client.get(where).get_data(as_text=True)
    assert "Night of 2026-12-03" in page and "Seed of the draw" in page
    assert 'name="known" value="Ann"' in page  # the season's players, as chips
    checked = client.post(
        f"{where}/check-in",
        data={
            "known": ["Ann", "Bob"],
            "new_names": "Cat, dan\nEve, Fay, Gus, Hal, Ivy, Jon, Kit",
            "write_token": token(),
        },
    )
    assert checked.status_code == 303
    page = client.get(where).get_data(as_text=True)
    assert "11 players checked in" in page and "11 players checked in." in page
    assert 'name="known" value="Ann"' not in page  # checked in: no longer a chip
    assert "Dan" in page  # "dan" as the season writes Dan
    pinned = client.post(f"{where}/pin", data={"name": "Kit", "table": "2", "write_token": token()})
    assert pinned.status_code == 303
    sent = token()
    drawn = client.post(f"{where}/draw", data={"write_token": sent})
    assert drawn.status_code == 303
    again = client.post(f"{where}/draw", data={"write_token": sent})  # a double tap
    assert again.status_code == 303
    page = client.get(where).get_data(as_text=True)
    assert "Drawn: 3 tables." in page
    for number in (1, 2, 3):
        assert f"Open table {number}'s game" in page
        assert f"QR code of table {number}'s edit link" in page
    with client.application.app_context():
        games = db.session.scalars(db.select(Game).order_by(Game.id)).all()
        assert [len(game.players) for game in games] == [4, 4, 4, 3]  # the season's game too
        assert "Kit" in games[2].names
        first = games[1].id
    # This tablet holds each table's key: the edit link's code is given to it.
    assert client.get(f"/games/{first}/edit-link.svg").status_code == 200
    second = client.post(f"{where}/draw", data={"write_token": token()})
    assert second.status_code == 409
    assert "is drawn already" in second.get_data(as_text=True)


def test_another_device_sees_the_tables_without_their_edit_links(app, client):
    where = new_night(client)
    client.post(f"{where}/check-in", data={"new_names": ", ".join(ELEVEN), "write_token": token()})
    client.post(f"{where}/draw", data={"write_token": token()})
    other = app.test_client()
    page = other.get(where).get_data(as_text=True)
    assert "Open table 1's game" in page
    assert "edit-link.svg" not in page
    assert "The edit link is on the tablet that drew the night." in page


def test_an_impossible_draw_and_a_bad_check_in_are_said_on_the_nights_page(client):
    where = new_night(client, rules="liverpool")
    bad = client.post(
        f"{where}/check-in", data={"new_names": "Ann, ann, Bob", "write_token": token()}
    )
    assert bad.status_code == 400
    assert "Ann is named twice" in bad.get_data(as_text=True)
    client.post(f"{where}/check-in", data={"new_names": "Ann, Bob, Cat", "write_token": token()})
    refused = client.post(f"{where}/draw", data={"write_token": token()})
    assert refused.status_code == 409
    assert "3 players are checked in: Liverpool needs at least 4 at a table" in refused.get_data(
        as_text=True
    )


def test_a_late_arrival_is_seated_from_the_page(client):
    where = new_night(client)
    client.post(f"{where}/check-in", data={"new_names": ", ".join(ELEVEN), "write_token": token()})
    client.post(f"{where}/draw", data={"write_token": token()})
    late = client.post(f"{where}/late", data={"name": "Lou", "write_token": token()})
    assert late.status_code == 303
    assert "Lou joins table 3." in client.get(where).get_data(as_text=True)
    empty = client.post(f"{where}/late", data={"name": "", "write_token": token()})
    assert empty.status_code == 400
    assert "Type the name of the player who arrived." in empty.get_data(as_text=True)


def test_check_out_before_the_draw(client):
    where = new_night(client)
    client.post(f"{where}/check-in", data={"new_names": "Ann, Bob", "write_token": token()})
    out = client.post(f"{where}/check-out", data={"name": "Bob", "write_token": token()})
    assert out.status_code == 303
    page = client.get(where).get_data(as_text=True)
    assert "Bob checked out." in page and "1 player checked in" in page


def test_an_unknown_night_is_404(client):
    answer = client.get("/nights/999")
    assert answer.status_code == 404
    assert "Night 999 does not exist" in answer.get_data(as_text=True)
