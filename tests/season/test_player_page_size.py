"""A player's page stays the same size however long the season (issue: the season at any
size): the games listed a page at a time, newest first, and the chart of final totals over each
rule set's last games only."""

from __future__ import annotations

import re

from scorekeeper.rules.ruleset import PRESETS
from scorekeeper.season import views
from tests.support.book import new_game, play_rounds

# One deal a game: a finished game is two requests.
ONE_DEAL = {
    **PRESETS["liverpool"].to_json(),
    "name": "Quick table",
    "deals": PRESETS["liverpool"].to_json()["deals"][:1],
}


def finished_games(client, count: int) -> list[int]:
    ids = []
    for _ in range(count):
        game = new_game(client, rules=ONE_DEAL)
        play_rounds(client, game)
        ids.append(game.id)
    return ids


def listed_games(page: str) -> list[int]:
    section = page.split('id="player-games"', 1)[1].split("</section>", 1)[0]
    return [int(number) for number in re.findall(r'href="/games/(\d+)"', section)]


def test_the_games_come_a_page_at_a_time_newest_first(client, monkeypatch):
    monkeypatch.setattr(views, "SITTINGS_PER_PAGE", 4)
    ids = finished_games(client, 10)
    first = client.get("/players/Ann").get_data(as_text=True)
    assert listed_games(first) == ids[::-1][:4]
    assert 'start="10"' in first  # the list counts the player's games from the first
    assert "Page 1 of 3 · 10 games" in first
    assert 'rel="next" href="/players/Ann?page=2"' in first and 'rel="prev"' not in first
    last = client.get("/players/Ann?page=3").get_data(as_text=True)
    assert listed_games(last) == ids[:2][::-1]
    assert 'start="2"' in last and 'rel="prev" href="/players/Ann?page=2"' in last
    past = client.get("/players/Ann?page=4")
    assert past.status_code == 404
    assert "the last page is 3" in past.get_data(as_text=True)
    assert "/players/Ann?page=3" in past.get_data(as_text=True)
    bad = client.get("/players/Ann?page=two")
    assert bad.status_code == 400
    assert "&#39;page&#39; must be a whole number" in bad.get_data(as_text=True)


def test_the_chart_draws_each_rule_sets_last_games(client, monkeypatch):
    monkeypatch.setattr(views, "CHART_GAMES", 3)
    finished_games(client, 5)
    page = client.get("/players/Ann").get_data(as_text=True)
    label = re.search(r'aria-label="(Ann&#39;s final totals[^"]*)"', page).group(1)
    assert "last 3 finished games at most" in label
    totals = label.split("Quick table: ", 1)[1]
    assert len(totals.split(", ")) == 3
    assert "Each line draws its rule set's last 3 finished games." in page


def test_a_long_season_leaves_the_page_no_longer(client):
    """With the real sizes, 60 games list 50 and the page is no longer than at 50 games."""
    finished_games(client, 50)
    at_fifty = client.get("/players/Ann").get_data(as_text=True)
    finished_games(client, 10)
    at_sixty = client.get("/players/Ann").get_data(as_text=True)
    assert len(listed_games(at_sixty)) == views.SITTINGS_PER_PAGE == 50
    assert len(at_sixty) <= len(at_fifty) + 400  # the pager's few words, not ten more games


def test_a_players_record_is_worked_out_once_a_season(app, client):
    """Head to head runs over every game the player finished: worked out once while the season
    stands, and again once a game changes it."""
    from scorekeeper.season import players as season

    finished_games(client, 2)
    with app.app_context():
        first = season.find_player("Ann")
        assert season.find_player("ann") is first  # any spelling that looks alike
        assert first.opponents[0].games == 2
    finished_games(client, 1)
    with app.app_context():
        again = season.find_player("Ann")
        assert again is not first and again.opponents[0].games == 3


class Looked(tuple):
    """A player's games that count how often they are gone over."""

    def __iter__(self):
        self.times = getattr(self, "times", 0) + 1
        return super().__iter__()


def test_a_players_page_shown_again_goes_over_none_of_their_games(app, client, monkeypatch):
    """What the page reads from every game the player sat in (the names they were merged from,
    each rule set's totals, their first holding of each record) is found once a season: a page
    shown again goes over none of the games, which at 20,000 games cost milliseconds a showing."""
    from scorekeeper.season import players as season
    from scorekeeper.season import records

    finished_games(client, 3)
    first = client.get("/players/Ann").get_data(as_text=True)
    assert "data-record=" in first  # Ann holds a record the page names
    with app.app_context():
        kept = season.find_player("Ann")
    sittings, finished = Looked(kept.sittings), Looked(kept.finished)
    object.__setattr__(kept, "sittings", sittings)
    kept.__dict__["finished"] = finished
    when = records._when
    calls = []
    monkeypatch.setattr(records, "_when", lambda held: calls.append(held) or when(held))
    again = client.get("/players/Ann").get_data(as_text=True)
    assert again == first
    assert getattr(sittings, "times", 0) == getattr(finished, "times", 0) == 0
    assert calls == []
