"""The room's screen: every table's deal, standings and last round, and the night's standings;
its state's tag moves with a save at any table and is answered 304 while nothing moved; a night
not drawn shows who checked in; every word of it in the reader's language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scorekeeper.nights import screen
from scorekeeper.platform.language import TRANSLATIONS
from tests.support.languages import small_catalogs
from tests.support.queries import counted

EIGHT = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


@pytest.fixture(autouse=True)
def _stamps_read_afresh(monkeypatch):
    """Every ask reads the stamps, as a screen asking after `STAMP_SECONDS` does."""
    monkeypatch.setattr(screen, "STAMP_SECONDS", 0)


def post(client, path, body=None):
    answer = client.post(path, json=body if body is not None else {})
    assert answer.status_code == 201, answer.json
    return answer.json


def drawn_night(client, players=EIGHT) -> dict:
    night = post(client, "/api/nights", {"rules": "liverpool", "held_on": "2026-12-03"})
    post(client, f"/api/nights/{night['id']}/players", {"players": players})
    return post(client, f"/api/nights/{night['id']}/draw")


def record(client, night: dict, number: int, out: int = 0, held: str = "K 5") -> list[str]:
    """A round at table `number`, the player in seat `out` going out: the table's players."""
    table = night["tables"][number - 1]
    names = table["players"]
    answer = client.post(
        f"/api/games/{table['game']}/rounds",
        json={"out": names[out], "leftovers": {n: held for n in names if n != names[out]}},
        headers={"X-Game-Key": night["keys"][str(table["game"])]},
    )
    assert answer.status_code == 201, answer.json
    return names


def state(client, night_id: int, tag: str | None = None):
    headers = {"If-None-Match": f'"{tag}"'} if tag else {}
    return client.get(f"/nights/{night_id}/screen/state", headers=headers)


def text(html: str) -> str:
    """The words a person reads: tags and the page's head left out."""
    body = html.split("<body", 1)[-1]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))


def test_the_screen_shows_each_tables_deal_standings_and_last_round(client):
    night = drawn_night(client)
    names = record(client, night, 1, out=2)  # 15 points each for the three left holding K 5
    page = client.get(f"/nights/{night['id']}/screen")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Night of 2026-12-03" in html and "Rules: Liverpool" in html
    table1 = html.split('id="table-1"', 1)[1].split('id="table-2"', 1)[0]
    assert "Round 2 of 7" in table1 and "Round 1 of 7" not in table1
    assert '<th scope="col" class="num">Round 1</th>' in table1
    # The one who went out leads, marked "out", with 0 in the last round.
    leader = re.search(r'<tr class="leader">(.*?)</tr>', table1, re.S).group(1)
    assert names[2] in leader and ">out<" in leader
    assert text(table1).count("15") == 6  # three players: the round and the total
    table2 = html.split('id="table-2"', 1)[1]
    assert "Round 1 of 7" in table2 and "Dealer" in table2
    # The night's standings: everyone seated, the table's leader first.
    standings = html.split('id="night-standings-title"', 1)[1]
    items = re.findall(r'<span class="name">([^<]+)</span>', standings)
    assert sorted(items) == sorted(EIGHT)
    assert items[0] == names[2]
    assert 'src="/static/screen.js' in html
    assert "<button" not in html and "<form" not in html and "<a " not in html


def test_the_state_moves_with_a_save_and_is_304_while_nothing_moved(client):
    night = drawn_night(client)
    first = state(client, night["id"])
    assert first.status_code == 200
    tag = first.json["tag"]
    assert first.headers["ETag"] == f'"{tag}"'
    unchanged = state(client, night["id"], tag)
    assert unchanged.status_code == 304 and unchanged.get_data() == b""
    before = client.get(f"/nights/{night['id']}/screen").get_data(as_text=True)
    assert f'data-tag="{tag}"' in before

    record(client, night, 2)
    moved = state(client, night["id"], tag)
    assert moved.status_code == 200 and moved.json["tag"] != tag
    after = client.get(f"/nights/{night['id']}/screen").get_data(as_text=True)
    assert f'data-tag="{moved.json["tag"]}"' in after
    assert after.split('id="table-2"', 1)[1].count("Round 2 of 7") == 1
    assert state(client, night["id"], moved.json["tag"]).status_code == 304


def test_a_night_not_drawn_shows_who_checked_in_and_moves_with_each_check_in(client):
    night = post(client, "/api/nights", {"rules": "liverpool", "held_on": "2026-12-03"})
    post(client, f"/api/nights/{night['id']}/players", {"players": ["Ann", "Bob"]})
    tag = state(client, night["id"]).json["tag"]
    html = client.get(f"/nights/{night['id']}/screen").get_data(as_text=True)
    assert "2 players checked in" in html and "The tables are not drawn yet." in html
    assert "<li>Ann</li>" in html and "<li>Bob</li>" in html
    post(client, f"/api/nights/{night['id']}/players", {"players": ["Cat"]})
    assert state(client, night["id"], tag).status_code == 200
    html = client.get(f"/nights/{night['id']}/screen").get_data(as_text=True)
    assert "3 players checked in" in html and "<li>Cat</li>" in html


def test_a_finished_table_says_so_with_its_winner(client):
    night = drawn_night(client)
    for _ in range(7):
        names = record(client, night, 1, out=1)
    html = client.get(f"/nights/{night['id']}/screen").get_data(as_text=True)
    table1 = html.split('id="table-1"', 1)[1].split('id="table-2"', 1)[0]
    assert "Finished" in table1 and "Dealer" not in table1 and "of 7" not in table1
    winner = re.search(r'<tr class="leader">(.*?)</tr>', table1, re.S).group(1)
    assert names[1] in winner and "(winner)" in winner
    assert '<th scope="col" class="num">Round 7</th>' in table1


def test_a_table_whose_game_was_deleted_says_so_and_the_rest_go_on(client):
    night = drawn_night(client)
    table = night["tables"][0]
    tag = state(client, night["id"]).json["tag"]
    gone = client.delete(
        f"/api/games/{table['game']}", headers={"X-Game-Key": night["keys"][str(table["game"])]}
    )
    assert gone.status_code == 204
    assert state(client, night["id"], tag).status_code == 200
    html = client.get(f"/nights/{night['id']}/screen").get_data(as_text=True)
    table1 = html.split('id="table-1"', 1)[1].split('id="table-2"', 1)[0]
    assert "This table's game was deleted." in table1
    assert "Round 1 of 7" in html.split('id="table-2"', 1)[1]


def test_the_screen_costs_the_same_statements_for_2_tables_as_for_8(app, client):
    def statements(players: list[str]) -> tuple[int, list[str]]:
        night = drawn_night(client, players)
        for number in range(1, len(night["tables"]) + 1):
            record(client, night, number)
        path = f"/nights/{night['id']}/screen"
        with counted(app) as drawn:
            assert client.get(path).status_code == 200
        with counted(app) as asked:
            assert client.get(f"{path}/state").status_code == 200
        # Not counted: the transaction's own set-up (SQLite's BEGIN, PostgreSQL's timeouts).
        return len(drawn), [s for s in asked if s != "BEGIN" and "set_config" not in s]

    two = statements(EIGHT)
    eight = statements([f"{name} {n}" for name in EIGHT for n in range(4)])
    assert two[0] == eight[0]
    # The state: the night's tables, then their stamps, by keys.
    assert len(eight[1]) == 2 and "FROM stamps" in eight[1][1]


def test_an_unknown_night_is_404(client):
    assert client.get("/nights/999/screen").status_code == 404
    assert client.get("/nights/999/screen/state").status_code == 404
    assert client.get(f"/nights/{2**70}/screen/state").status_code == 404


def test_the_nights_page_links_its_room_screen(client):
    night = drawn_night(client)
    html = client.get(f"/nights/{night['id']}").get_data(as_text=True)
    assert f'href="/nights/{night["id"]}/screen"' in html and "Room screen" in html


# The screen's own words in Finnish, as the catalogs give them: with them beside the shipped
# catalog, a Finnish screen holds no English word (every one of its words is translatable).
SCREEN_FINNISH = {
    "Room screen": "Salin näyttö",
    "The tables are not drawn yet.": "Pöytiä ei ole vielä arvottu.",
    "This table's game was deleted.": "Tämän pöydän peli on poistettu.",
    "Round %(number)s": "Kierros %(number)s",
    "The night's standings": "Illan tilanne",
    "by place at the table, then total": "sijan mukaan pöydässä, sitten pisteiden mukaan",
    "The screen cannot reach the score book: trying again by itself.": "Näyttö ei tavoita pistekirjaa: se yrittää itse uudelleen.",
    'Dealer: <span class="dealer">%(name)s</span>': 'Jakaja: <span class="dealer">%(name)s</span>',
}


def test_the_screen_in_finnish_has_no_english_words_of_its_own(app_with, tmp_path: Path):
    folder = small_catalogs(tmp_path / "screen", {"fi": SCREEN_FINNISH})
    app = app_with(BABEL_TRANSLATION_DIRECTORIES=f"{TRANSLATIONS};{folder}")
    client = app.test_client()
    night = drawn_night(client)
    record(client, night, 1)
    fi = {"Accept-Language": "fi"}
    html = client.get(f"/nights/{night['id']}/screen", headers=fi).get_data(as_text=True)
    assert 'lang="fi"' in html
    read = text(html) + " ".join(re.findall(r"data-words='([^']*)'", html))
    english = [
        "Room screen", "Night of", "Rules:", "Table", "Round", "Dealer", "Player", "Total",
        "leader", "place", "The night's standings", "by place", "not drawn", "cannot reach",
        " out ",
    ]  # fmt: skip
    assert [word for word in english if word in read] == []
    assert "Illan tilanne" in html and "Pöytä 1" in html and "Kierros 1" in html
    open_night = post(client, "/api/nights", {"rules": "liverpool", "held_on": "2026-12-04"})
    waiting = client.get(f"/nights/{open_night['id']}/screen", headers=fi).get_data(as_text=True)
    assert "Pöytiä ei ole vielä arvottu." in waiting
