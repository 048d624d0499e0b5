"""Players across games: one person in every spelling that looks alike (the key that keeps
look-alikes apart at a table), and their season's figures worked out by hand from games built
here, each rule set's games apart."""

from __future__ import annotations

import html
import re
from urllib.parse import quote, urlsplit

import pytest

from scorekeeper.games.names import clean_name, name_key
from scorekeeper.season import players as season
from tests.support.book import game_with_stored_names, new_game, play, play_rounds
from tests.support.queries import counted

FIELDS = [
    "name",
    "games",
    "wins",
    "win_rate",
    "average_total",
    "best_total",
    "rounds_out",
    "cut_bonuses",
    "average_penalty",
    "by_rules",
    "ended_early",
    "in_play",
]


def build_season(client):
    """Five games; the figures each player should have are worked out in `EXPECTED`."""
    # A: Ann deals, so Dan cuts round 1 (R2) and takes the exact-cut bonus (−50).
    a = new_game(client, ["Ann", "Bob", "Cat", "Dan"], "liverpool", "Ann")
    rest = {"Bob": "5", "Cat": "5", "Dan": "5"}
    answers = play(
        client,
        a,
        [("Ann", True, rest), ("Bob", False, {"Ann": "5", "Cat": "5", "Dan": "5"})]
        + [("Ann", False, rest)] * 5,
    )
    assert answers[0]["cutter"] == "Dan" and answers[0]["scores"]["Dan"] == -45
    # Totals: Ann 5, Bob 30, Cat 35, Dan −15: Dan wins.
    # B: "ann" and Eve share the win on 20; Bob 30.
    b = new_game(client, ["ann", "Bob", "Eve"], "family")
    play(
        client,
        b,
        [
            ("ann", False, {"Bob": "5", "Eve": "5"}),
            ("Eve", False, {"ann": "5", "Bob": "5"}),
            ("ann", False, {"Bob": "5", "Eve": "5"}),
            ("Eve", False, {"ann": "5", "Bob": "5"}),
            ("ann", False, {"Bob": "5", "Eve": "5"}),
            ("Eve", False, {"ann": "5", "Bob": "5"}),
            ("Bob", False, {"ann": "5", "Eve": "5"}),
        ],
    )
    # C, unfinished: "ANN" is how Ann's name was last written.
    c = new_game(client, ["ANN", "Cat", "Fay"], "family")
    play(
        client,
        c,
        [("Cat", False, {"ANN": "K", "Fay": "5"}), ("ANN", False, {"Cat": "A", "Fay": "5"})],
    )
    # D and E, no round: Zoë typed with a combining diaeresis, then precomposed and lower case.
    new_game(client, ["Zoe\u0308", "Gus", "Hal"], "family")
    new_game(client, ["zo\u00eb", "Gus", "Hal"], "family")


EXPECTED = [
    # name, games, wins, win_rate, average_total, best_total, rounds_out, cut_bonuses, avg penalty
    # Every figure is of the finished games (A and B) alone: C, in play, is listed as such.
    # Ann: out in A's rounds 1,3-7 and B's 1,3,5; penalties 5 (A2) + 4×5 (B) over 5.
    ["ANN", 2, 1, 0.5, 12.5, 5, 9, 0, 5.0],
    ["Bob", 2, 0, 0.0, 30.0, 30, 2, 0, 5.0],
    # Cat: 7×5 in A (going out in C's round 1 is not counted while C is in play).
    ["Cat", 1, 0, 0.0, 35.0, 35, 0, 0, 5.0],
    ["Dan", 1, 1, 1.0, -15.0, -15, 0, 1, 5.0],
    ["Eve", 1, 1, 1.0, 20.0, 20, 3, 0, 5.0],
    ["Fay", 0, 0, 0.0, None, None, 0, 0, None],
    ["Gus", 0, 0, 0.0, None, None, 0, 0, None],
    ["Hal", 0, 0, 0.0, None, None, 0, 0, None],
    ["zo\u00eb", 0, 0, 0.0, None, None, 0, 0, None],
]
# Games in play, listed apart from the figures.
IN_PLAY = {"ANN": 1, "Cat": 1, "Fay": 1, "Gus": 2, "Hal": 2, "zo\u00eb": 2}


def rules_record(rules, games, wins, average_total):
    return {"rules": rules, "games": games, "wins": wins, "average_total": average_total}


# Each player's finished games by rule set: A was played under Liverpool rules, B under Family.
BY_RULES = {
    "ANN": [rules_record("Family", 1, 1, 20.0), rules_record("Liverpool", 1, 0, 5.0)],
    "Bob": [rules_record("Family", 1, 0, 30.0), rules_record("Liverpool", 1, 0, 30.0)],
    "Cat": [rules_record("Liverpool", 1, 0, 35.0)],
    "Dan": [rules_record("Liverpool", 1, 1, -15.0)],
    "Eve": [rules_record("Family", 1, 1, 20.0)],
}


def test_a_seasons_figures(client):
    build_season(client)
    answer = client.get("/api/players")
    assert answer.status_code == 200
    listed = answer.get_json()["players"]
    # And the rating's three fields (tests/season/test_ratings.py).
    rated = {"rating", "rating_sigma", "provisional"}
    assert all(set(player) == set(FIELDS) | rated for player in listed)
    assert [[player[field] for field in FIELDS[:-3]] for player in listed] == EXPECTED
    assert all(player["ended_early"] == 0 for player in listed)
    assert {player["name"]: player["in_play"] for player in listed if player["in_play"]} == IN_PLAY
    assert {player["name"]: player["by_rules"] for player in listed} == {
        row[0]: BY_RULES.get(row[0], []) for row in EXPECTED
    }


def test_look_alike_names_are_one_player_as_at_a_table(client):
    """The names one table refuses to seat together are one player on /players: 'Ann', 'Ánn'
    (composed or not) and 'Аnn' with a Cyrillic А."""
    for spelling in ("Ann", "Ánn", "A\u0301nn", "\u0410nn"):
        new_game(client, [spelling, "Bob", "Cat", "Dan"], "liverpool")
    refused = client.post("/api/games", json={"players": ["Ann", "Ánn", "Cat", "Dan"]})
    assert refused.status_code == 400 and "already at the table" in refused.get_json()["error"]
    listed = client.get("/api/players").get_json()["players"]
    assert [player["name"] for player in listed] == ["\u0410nn", "Bob", "Cat", "Dan"]
    assert client.get("/players/" + quote("ÁNN")).status_code == 200
    page = client.get("/players/Ann").get_data(as_text=True)
    assert len(re.findall(r'href="/games/[1234]"', page)) == 4


def test_no_games_no_players(client):
    assert client.get("/api/players").get_json() == {"players": [], "up_to_date": True}


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("ann", "Ann"),
        ("Zoe\u0308", "zo\u00eb"),
        ("ＡＮＮ", "ann"),
        ("Straße", "STRASSE"),
        ("Zoe", "Zoë"),
        ("Ann", "\u0410nn"),
        (" Bob ", "bob"),
    ],
)
def test_names_that_look_alike_are_one_player(one, other):
    assert season.player_key(one) == season.player_key(other)
    assert season.player_key(one) == name_key(clean_name(other))


def test_different_names_stay_apart():
    assert season.player_key("Ann") != season.player_key("Anne")
    assert season.player_key("Bob") != season.player_key("Rob")


def test_the_figures_take_the_same_statements_for_any_number_of_games(app, client):
    counts = []
    for _ in range(2):
        build_season(client)
        with counted(app) as statements:
            assert client.get("/api/players").status_code == 200
        counts.append(len(statements))
        with counted(app) as statements:
            assert client.get("/players/Ann").status_code == 200
        counts.append(len(statements))
    assert counts[0] == counts[2] and counts[1] == counts[3]
    # BEGIN, the season's stamp, and the four statements of a season computed afresh (each
    # `build_season` changes it: the merges in force, the seats, their rounds' figures, the
    # finished games' round lines); then, while nothing changes, BEGIN and the stamp alone (and
    # on a player's page the merges into that player, for their undo).
    assert counts[0] <= 6
    for path, most in (("/api/players", 2), ("/players/", 2), ("/players/Ann", 3)):
        with counted(app) as statements:
            assert client.get(path).status_code == 200
        assert len(statements) <= most, statements


def test_the_players_page_sorts_by_any_column(client):
    build_season(client)
    page = client.get("/players/?sort=wins&order=desc").get_data(as_text=True)
    names = re.findall(r'<th scope="row" data-column="name"><a href="[^"]+">([^<]+)</a>', page)
    assert names[:3] == ["ANN", "Dan", "Eve"]  # one win each; then by name
    assert 'aria-sort="descending"' in page
    page = client.get("/players/?sort=average_total").get_data(as_text=True)
    names = re.findall(r'data-column="name"><a href="[^"]+">([^<]+)</a>', page)
    assert names[:5] == ["Dan", "ANN", "Eve", "Bob", "Cat"]  # lowest average first, the rest last
    assert client.get("/players/?sort=nonsense").status_code == 200


def test_the_rating_is_explained_after_the_figures(client):
    build_season(client)
    page = client.get("/players/").get_data(as_text=True)
    assert "μ − 3σ" in page
    assert page.index("μ − 3σ") > page.index("</table>")


def test_a_players_page_in_any_spelling(client):
    build_season(client)
    for spelling in ("ann", "ANN", "Ann"):
        page = client.get(f"/players/{quote(spelling)}")
        assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "<h1>ANN</h1>" in html
    # Games as links: A, B and C (the records held link their games too, above the list).
    listed = html[html.index('id="player-games"') :]
    assert len(re.findall(r'href="/games/[123]"', listed)) == 3
    # Final totals over time, one line per rule set: A's 5 under Liverpool rules is never joined
    # to B's 20 under Family rules (seven deals either way here, but not in general).
    assert 'data-totals="5,20"' not in html and 'role="img"' in html
    over_time = html[html.index('id="over-time"') : html.index('id="rivals"')]
    lines = re.findall(r'data-player="([^"]+)" data-totals="([^"]+)"', over_time)
    assert lines == [("Family", "20"), ("Liverpool", "5")]
    assert "One line per rule set (Family, Liverpool)" in html
    # C, in play, is listed as such and counted in no figure.
    assert re.search(r'<dd class="rounds-out">9</dd>', html)
    assert re.search(r'<dt>In play</dt><dd class="in-play-games">1 game</dd>', html)
    # Head to head: Bob twice (Ann lower both times), Cat, Dan and Eve once each.
    rows = dict(
        (name, tuple(map(int, cells)))
        for name, *cells in re.findall(
            r'<tr><th scope="row"><a [^>]+>([^<]+)</a></th><td class="together">(\d+)</td>'
            r'<td class="lower">(\d+)</td><td class="their-lower">(\d+)</td>',
            html,
        )
    )
    assert rows == {"Bob": (2, 2, 0), "Cat": (1, 1, 0), "Dan": (1, 0, 1), "Eve": (1, 0, 0)}
    zoe = client.get("/players/" + quote("ZOE\u0308"))
    assert zoe.status_code == 200 and "zo\u00eb" in zoe.get_data(as_text=True)
    assert client.get("/players/Nobody").status_code == 404


def test_new_game_offers_players_seen_before_most_recent_first(client):
    assert b"player-chips" not in client.get("/games/new").data
    build_season(client)
    page = client.get("/games/new").get_data(as_text=True)
    chips = re.findall(r'class="chip secondary" data-name="([^"]+)"', page)
    assert chips == ["zo\u00eb", "Gus", "Hal", "ANN", "Cat", "Fay", "Bob", "Eve", "Dan"]


# Names a browser would read folders into, were they written in a link's path as they are.
ODD_NAMES = [["..", "a/..", "../../etc/passwd", "Ann"], [".", "a/b", "%2e%2e", ".%2e", "Ann"]]


def dot_segments(href: str) -> list[str]:
    """The segments of a link's path that a browser resolves away (`%2e` is a dot to it)."""
    path = urlsplit(href).path
    return [s for s in path.split("/") if s.lower().replace("%2e", ".") in (".", "..")]


def test_every_players_link_reaches_that_players_page(client):
    """`/players/<name>` links for `a/..` or `..` were resolved by the browser to another page
    (`/players/`, `/`, `/etc/passwd`): every link now leads to its player, whatever the name."""
    for names in ODD_NAMES:
        play_rounds(client, game_with_stored_names(client, names))  # to the end: head to head
    listed = client.get("/players/").get_data(as_text=True)
    links = dict(
        (html.unescape(name), html.unescape(href))
        for href, name in re.findall(r'data-column="name"><a href="([^"]+)">([^<]+)</a>', listed)
    )
    assert set(links) == {name for names in ODD_NAMES for name in names}
    assert links["Ann"] == "/players/Ann"  # a name with no folder in it keeps its address
    for name, href in links.items():
        assert dot_segments(href) == [], href
        page = client.get(href)
        assert page.status_code == 200, href
        assert f"<h1>{html.escape(name, quote=False)}</h1>" in page.get_data(as_text=True)
    # Head to head on Ann's page links the same way.
    ann = client.get("/players/Ann").get_data(as_text=True)
    opponents = re.findall(r'<tr><th scope="row"><a href="([^"]+)">([^<]+)</a>', ann)
    assert {html.unescape(name): html.unescape(href) for href, name in opponents} == {
        name: href for name, href in links.items() if name != "Ann"
    }


def test_old_links_that_were_right_still_open(client):
    game_with_stored_names(client, ["a/b", "Zoë", "Ann"])
    assert "<h1>a/b</h1>" in client.get("/players/a/b").get_data(as_text=True)
    assert client.get("/players/" + quote("Zoë")).status_code == 200
    assert client.get("/players/?name=Nobody").status_code == 404


def test_a_game_counts_in_the_figures_once_it_finishes(client):
    """While a game is in play its rounds are in no figure, the kept season included; its last
    round changes the season's stamp, and every figure then counts it."""
    game = new_game(client, ["Ann", "Bob", "Cat"], "family")
    play(client, game, [("Ann", False, {"Bob": "5", "Cat": "K"})] * 6)

    def ann():
        listed = client.get("/api/players").get_json()["players"]
        return next(player for player in listed if player["name"] == "Ann")

    during = ann()
    assert during == ann()  # the kept season, read again
    assert [during[name] for name in ("games", "rounds_out", "in_play")] == [0, 0, 1]
    assert during["average_penalty"] is None and during["rating"] == 0
    play(client, game, [("Ann", False, {"Bob": "5", "Cat": "K"})])
    after = ann()
    assert [after[name] for name in ("games", "wins", "rounds_out", "in_play")] == [1, 1, 7, 0]
    assert after["rating"] != 0
