"""The rules-check page and the reference page, through the test client."""

import pytest

from scorekeeper.referee import TABS


@pytest.mark.parametrize("question", sorted(TABS))
def test_every_tab_renders(client, question):
    response = client.get(f"/rules?q={question}")
    assert response.status_code == 200
    assert TABS[question] in response.get_data(as_text=True)


def test_unknown_tab_is_404(client):
    assert client.get("/rules?q=nonsense").status_code == 404


def post(client, question, **fields):
    data = {"profile": "liverpool", "round": "1", "players": "4", **fields}
    return client.post(f"/rules?q={question}", data=data).get_data(as_text=True)


def test_meld_verdict_shows_reading_and_rule(client):
    html = post(client, "meld", cards="5♠ 6♠ JK 8♠")
    assert "LEGAL" in html and "NOT LEGAL" not in html
    assert "7♠" in html  # what the joker stands for
    assert "R4 Melds" in html


def test_opening_verdict_illegal_contiguous_runs(client):
    html = post(client, "opening", round="3", meld1="3♠ 4♠ 5♠ 6♠", meld2="7♠ 8♠ 9♠ 10♠")
    assert "NOT LEGAL" in html
    assert "R5 Opening" in html


def test_page_and_api_give_the_same_reason(client):
    html = post(
        client, "layoff", round="1", meld="8♣ 8♦ 8♠", layoff_cards="8♥", opened_this_turn="y"
    )
    api = client.post(
        "/api/rules/layoff",
        json={"round": 1, "meld": "8♣ 8♦ 8♠", "cards": "8♥", "opened_this_turn": True},
    ).get_json()
    assert api["legal"] is False
    assert api["reason"].replace("'", "&#39;") in html


def test_bad_card_is_a_form_error_not_a_500(client):
    response = client.post(
        "/rules?q=meld",
        data={"profile": "liverpool", "round": "1", "players": "4", "cards": "7♠ Zq"},
    )
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "CHECK THE CARDS" in html and "Zq" in html


def test_solve_shows_the_melds(client):
    html = post(client, "solve", round="1", hand="7♠ 7♥ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥ 7♦")
    assert "CAN GO DOWN" in html
    assert "Keep" in html


def test_buy_names_the_buyer(client):
    html = post(client, "buy", active="0", requests=["3", "2"], last_buyer="-1")
    assert "Seat 3 GETS IT" in html


def test_reference_page_has_every_rule_and_common_questions(client):
    html = client.get("/rules/reference").get_data(as_text=True)
    for number in range(1, 12):
        assert f'id="r{number}"' in html
    assert "May I lay off on the turn I open?" in html
    assert "Is there a discard in round 7?" in html
    assert "May I keep a joker I take back from a run?" in html


def test_opened_from_a_game_uses_its_seat_names_and_rules(client):
    created = client.post(
        "/api/games",
        json={
            "players": ["Ann", "Bob", "Cat", "Dan", "Eve"],
            "profile": "family",
            "first_dealer": "Ann",
        },
    ).get_json()
    game_id = created["id"]
    html = client.get(f"/rules?q=buy&game={game_id}").get_data(as_text=True)
    assert "5. Eve" in html
    assert '<option selected value="family">' in html
    answer = client.post(
        f"/rules?q=buy&game={game_id}",
        data={
            "profile": "family",
            "players": "5",
            "active": "1",
            "requests": ["0", "4"],
            "last_buyer": "-1",
        },
    ).get_data(as_text=True)
    assert "Eve GETS IT" in answer


def test_game_page_links_to_the_rules_check(client):
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob", "Cat", "Dan"]}).get_json()[
        "id"
    ]
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f"/rules?game={game_id}" in html
    assert f"/rules?q=buy&amp;game={game_id}" in html


def test_unknown_game_is_404(client):
    assert client.get("/rules?game=999").status_code == 404
