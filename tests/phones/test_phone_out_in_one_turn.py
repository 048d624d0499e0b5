"""A player's phone says they went down and out in one turn (R12.3 `out_in_one_turn_bonus`):
asked on the hand page only under rules with a bonus for it, sent through the page or the API,
and the tablet's round form is filled with it; under rules without it the API refuses it."""

from __future__ import annotations

import re

from tests.games.test_out_in_one_turn_book import SANTIAGO
from tests.phones.test_phone_pages import form_of, join, phone, send, text_of
from tests.phones.test_phones_api import hands, open_round, seated
from tests.phones.test_phones_api import send as api_send
from tests.support.book import new_game, start_edited
from tests.support.names import NAMES


def test_the_phone_page_sends_it_and_the_tablets_form_is_filled_with_it(app, client):
    game_id, _ = start_edited(client, name="Santiago", out_in_one_turn_bonus="-10")
    page = client.post(f"/games/{game_id}/rounds/1/phones")
    code = re.search(r'class="round-code"[^>]*>([A-Z0-9]{4})<', page.text).group(1)
    cat = phone(app)
    hand_page = join(cat, code, 2)
    assert "I went down and out in one turn (−10)" in text_of(hand_page)
    after = send(cat, code, went_out="y", one_turn="y")
    assert "On the tablet now: you went down and out in one turn (−10)" in text_of(after)
    assert "one_turn" in form_of(after.text, "phone-hand")  # ticked, ready to be changed
    collect = client.get(f"/games/{game_id}/rounds/1/phones")
    fields = form_of(collect.text, "collect-form")
    assert (fields["out"], fields.get("out_in_one_turn")) == ("2", "y")
    fields.update(cards_0="5", cards_1="K", cards_3="7")
    assert client.post(f"/games/{game_id}/rounds/new", data=fields).status_code == 302
    played = client.get(f"/api/games/{game_id}").get_json()["rounds"][0]
    assert played["out_in_one_turn"] is True and played["scores"]["Cat"] == -10


def test_a_phone_out_without_it_fills_the_form_without_it(app, client):
    game_id, _ = start_edited(client, name="Santiago", out_in_one_turn_bonus="-10")
    page = client.post(f"/games/{game_id}/rounds/1/phones")
    code = re.search(r'class="round-code"[^>]*>([A-Z0-9]{4})<', page.text).group(1)
    cat = phone(app)
    join(cat, code, 2)
    assert "you went out (0)" in text_of(send(cat, code, went_out="y"))
    fields = form_of(client.get(f"/games/{game_id}/rounds/1/phones").text, "collect-form")
    assert fields["out"] == "2" and "out_in_one_turn" not in fields


def test_the_phones_api_takes_it_and_the_tablet_sees_it(client):
    game = new_game(client, NAMES, SANTIAGO)
    code = open_round(client, game).get_json()["code"]
    token = seated(client, code, "Cat")
    sent = api_send(client, code, token, out=True, out_in_one_turn=True)
    assert sent.status_code == 200, sent.get_json()
    seats = {seat["name"]: seat for seat in hands(client, game).get_json()["seats"]}
    assert seats["Cat"]["hand"] == {"out": True, "out_in_one_turn": True}
    wrong = api_send(client, code, token, out=True, out_in_one_turn="yes")
    assert wrong.status_code == 400
    assert wrong.get_json()["error"] == "'out_in_one_turn' must be true or false, not 'yes'"


def test_under_rules_without_the_bonus_a_phone_cannot_say_it(app, client):
    game = new_game(client, NAMES, "liverpool")
    code = open_round(client, game).get_json()["code"]
    token = seated(client, code, "Cat")
    refused = api_send(client, code, token, out=True, out_in_one_turn=True)
    assert refused.status_code == 400
    assert "give nothing for going down and out in one turn" in refused.get_json()["error"]
    assert hands(client, game).get_json()["seats"][2]["hand"] is None
    game_id, _ = start_edited(client, name="Plain")
    page = client.post(f"/games/{game_id}/rounds/1/phones")
    code = re.search(r'class="round-code"[^>]*>([A-Z0-9]{4})<', page.text).group(1)
    assert "down and out in one turn" not in text_of(join(phone(app), code, 2))
