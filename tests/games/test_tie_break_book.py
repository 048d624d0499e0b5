"""Tied lowest totals under `tie_break: deals_won` (R12.3, R12.1 point 9, R12.5): the score book
names the player who went out in more deals the winner, through the API, the summary, a paper
sheet's preview, the season's wins and ratings, the rule editor and the read-out; still level,
they share. Under liverpool's rules the same table shares the win, as always (R10)."""

from __future__ import annotations

import pytest

from scorekeeper.games import papersheets
from scorekeeper.rules.ruleset import RuleSet
from tests.support.book import new_game, play
from tests.support.names import NAMES

SANTIAGO = {"version": 2, "name": "Santiago", "tie_break": "deals_won"}

# Ann goes out in rounds 1 and 2, Bob in round 3, Cat and Dan in turn after: Ann and Bob finish
# level on 30, Ann out in 2 deals, Bob in 1; Cat and Dan on 55.
LEVEL_ON_30 = [
    ("Ann", False, {"Bob": "5", "Cat": "5", "Dan": "5"}),
    ("Ann", False, {"Bob": "5", "Cat": "5", "Dan": "5"}),
    ("Bob", False, {"Ann": "K", "Cat": "5", "Dan": "5"}),
    ("Cat", False, {"Ann": "5", "Bob": "5", "Dan": "K K"}),
    ("Dan", False, {"Ann": "5", "Bob": "5", "Cat": "K K"}),
    ("Cat", False, {"Ann": "5", "Bob": "5", "Dan": "K K"}),
    ("Dan", False, {"Ann": "5", "Bob": "5", "Cat": "K K"}),
]


def finished(client, rules, rounds=LEVEL_ON_30):
    game = new_game(client, NAMES, rules, "Ann")
    play(client, game, rounds)
    return game, client.get(f"/api/games/{game.id}").get_json()


def test_level_totals_go_to_the_player_out_in_more_deals(client):
    game, state = finished(client, SANTIAGO)
    assert state["finished"] and state["totals"] == {"Ann": 30, "Bob": 30, "Cat": 55, "Dan": 55}
    assert state["winners"] == ["Ann"]
    assert state["deals_won"] == {"Ann": 2, "Bob": 1}


def test_under_liverpools_rules_the_same_table_shares(client):
    _, state = finished(client, "liverpool")
    assert state["winners"] == ["Ann", "Bob"]
    assert state["deals_won"] is None


def test_the_summary_says_how_the_tie_was_broken_and_bob_is_second(client):
    game, _ = finished(client, SANTIAGO)
    page = client.get(f"/games/{game.id}").get_data(as_text=True)
    assert "Ann wins</h1>" in page.replace("\n", "").replace("    ", "")
    assert "Level on 30, Ann wins on deals won: 2 to 1." in page
    assert "A shared win" not in page and "Ann and Bob share" not in page
    places = [
        line.split('<span class="place">')[1].split("</span>")[0]
        + line.split('<span class="name">')[1].split("</span>")[0]
        for line in page.split("<li class=")
        if '<span class="place">' in line
    ]
    assert places == ["1.Ann", "2.Bob", "3.Cat", "3.Dan"]


def test_level_on_deals_won_too_they_share_and_the_page_says_so(client):
    # Bob goes out in round 6 instead of Cat and holds a K in round 7: Ann and Bob finish
    # level on 30, out in 2 deals each.
    rounds = list(LEVEL_ON_30)
    rounds[5] = ("Bob", False, {"Ann": "5", "Cat": "K K", "Dan": "K K"})
    rounds[6] = ("Dan", False, {"Ann": "5", "Bob": "K", "Cat": "5"})
    game, state = finished(client, SANTIAGO, rounds)
    assert state["totals"]["Ann"] == state["totals"]["Bob"] == 30
    assert state["winners"] == ["Ann", "Bob"]
    assert state["deals_won"] == {"Ann": 2, "Bob": 2}
    page = client.get(f"/games/{game.id}").get_data(as_text=True)
    assert "A shared win: 2 players finished level on 30 and on deals won (2 each)." in page


def test_the_season_counts_the_win_and_rates_ann_above_bob(client):
    finished(client, SANTIAGO)
    players = {p["name"]: p for p in client.get("/api/players").get_json()["players"]}
    assert players["Ann"]["wins"] == 1 and players["Bob"]["wins"] == 0
    assert players["Ann"]["rating"] > players["Bob"]["rating"]


def test_the_season_shares_a_win_the_rules_share(client):
    finished(client, "liverpool")
    players = {p["name"]: p for p in client.get("/api/players").get_json()["players"]}
    assert players["Ann"]["wins"] == players["Bob"]["wins"] == 1
    assert players["Ann"]["rating"] == players["Bob"]["rating"]


@pytest.mark.parametrize(
    ("rules", "said"), [(SANTIAGO, "Ann wins on deals won"), ("liverpool", "share the win")]
)
def test_a_paper_sheets_preview_names_the_winner_the_same_way(app, rules, said):
    raw = (
        "game,2019-12-24,,Ann,Bob,Cat,Dan\n"
        "round,1,,0,5,5,5\nround,2,,0,5,5,5\nround,3,,10,0,5,5\nround,4,,5,5,0,20\n"
        "round,5,,5,5,20,0\nround,6,,5,5,0,20\nround,7,,5,5,20,0\n"
    )
    with app.app_context():
        sheet = papersheets.read_sheet(raw, RuleSet.parse(rules))
        assert sheet.problems == []
        line = papersheets.in_words(sheet.games[0])
    assert line.endswith(said)


def test_a_finnish_page_says_it_in_finnish(client):
    game, _ = finished(client, SANTIAGO)
    page = client.get(f"/games/{game.id}", headers={"Accept-Language": "fi"}).get_data(as_text=True)
    assert "Tasan pisteissä 30 Ann voittaa voitetuilla jaoilla: 2–1." in page
