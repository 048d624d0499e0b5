"""The season's records and rivals on a hand-made season (tests/support/seasons.py) whose
answers are worked out there and written here, ties included; the filters on when games
finished and how many a player has; and a player named as a page under /players/."""

from __future__ import annotations

import html
import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from scorekeeper.games.models import Game
from scorekeeper.platform.database import db
from scorekeeper.season import players
from scorekeeper.season import records as season_records
from scorekeeper.season.players import FilterError, Filters, parse_filters
from tests.support.book import game_with_stored_names, new_game, play_rounds
from tests.support.games import FlaskSender
from tests.support.queries import counted
from tests.support.seasons import hand_made_season


def finish_at(app, moments: dict[int, datetime]) -> None:
    """Set when each game (by id) finished, through the models."""
    with app.app_context():
        for game_id, moment in moments.items():
            db.session.get(Game, game_id).finished_at = moment
        db.session.commit()


@pytest.fixture
def season(app, client):
    """G1 to G5, finished in the order G1, G4, G5, G2, G3 across the filters' boundaries: G1
    before the last 12 months, G4 just inside them, G5 the second before this year, G2 at
    this year's first moment, G3 a minute ago."""
    g1, g2, g3, g4, g5 = (game.id for game in hand_made_season(FlaskSender(client)))
    year = Filters("year").since()
    months = Filters("12m").since()
    now = datetime.now(UTC).replace(tzinfo=None)
    finish_at(
        app,
        {
            g1: months - timedelta(days=1),
            g4: months + timedelta(minutes=5),
            g5: year - timedelta(seconds=1),
            g2: year,
            g3: now - timedelta(minutes=1),
        },
    )
    return g1, g2, g3, g4, g5


def records(client, query=""):
    answer = client.get("/api/players/records" + query)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return {
        record["kind"]: (
            record["figure"],
            [(h["name"], h["game"], h["round"]) for h in record["holders"]],
        )
        for record in answer.get_json()["records"]
    }


def test_the_records_of_a_hand_made_season(client, season):
    g1, g2, g3, g4, g5 = season
    assert records(client) == {
        "lowest_total": (-95, [("Dan", g3, None)]),
        "biggest_margin": (115, [("Dan", g3, None)]),
        # G1, G4 (shared) and G5 won in the order they finished; by game id it would be 2.
        "longest_streak": (3, [("Ann", g5, None)]),
        "most_out": (4, [("Dan", g3, None)]),
        "most_cuts": (2, [("Dan", g3, None)]),
        "best_comeback": (40, [("Bob", g2, 1)]),
        "costliest_hand": (50, [("Ann", g2, 2), ("Cat", g2, 2)]),
    }
    listed = client.get("/api/players/records").get_json()["records"]
    streak = next(record for record in listed if record["kind"] == "longest_streak")
    assert streak["holders"][0]["note"] == f"games {g1} to {g5}"


def test_at_least_two_games_leaves_dan_out_and_ties_show(client, season):
    g1, g2, g3, g4, g5 = season
    assert records(client, "?min_games=2") == {
        "lowest_total": (0, [("Ann", g1, None), ("Ann", g5, None)]),
        "biggest_margin": (10, [("Ann", g1, None), ("Bob", g2, None)]),
        "longest_streak": (3, [("Ann", g5, None)]),
        "most_out": (2, [("Ann", g1, None)]),
        # Nobody with two games cut exactly: no record.
        "best_comeback": (40, [("Bob", g2, 1)]),
        "costliest_hand": (50, [("Ann", g2, 2), ("Cat", g2, 2)]),
    }


def test_the_date_ranges_at_their_boundaries(client, season):
    g1, g2, g3, g4, g5 = season
    this_year = records(client, "?period=year")
    # G2 finished at this year's first moment and counts; G5, a second earlier, does not.
    assert this_year["longest_streak"] == (1, [("Bob", g2, None), ("Dan", g3, None)])
    assert this_year["lowest_total"] == (-95, [("Dan", g3, None)])
    last_months = records(client, "?period=12m")
    # G4 is inside the last 12 months, G1 outside: Ann won G4 and G5, then lost G2.
    assert last_months["longest_streak"] == (2, [("Ann", g5, None)])
    assert last_months["biggest_margin"] == (115, [("Dan", g3, None)])

    def games(query):
        players = client.get("/api/players" + query).get_json()["players"]
        return {player["name"]: player["games"] for player in players}

    # A game under way has not finished: it counts for all time only.
    new_game(client, ["Eve", "Bob", "Cat"], "family")
    assert games("") == {"Ann": 5, "Bob": 5, "Cat": 5, "Dan": 1, "Eve": 0}
    assert games("?period=year") == {"Ann": 2, "Bob": 2, "Cat": 2, "Dan": 1}
    assert games("?period=12m") == {"Ann": 4, "Bob": 4, "Cat": 4, "Dan": 1}
    assert games("?period=year&min_games=2") == {"Ann": 2, "Bob": 2, "Cat": 2}
    assert games("?min_games=6") == {}
    page = client.get("/players/?period=year&min_games=2&sort=name").get_data(as_text=True)
    names = re.findall(r'data-column="name"><a href="[^"]+">([^<]+)</a>', page)
    assert names == ["Ann", "Bob", "Cat"]
    assert 'value="year" checked' in page and 'value="2"' in page
    # The sort links keep the filters.
    assert "sort=wins" in page and re.search(r'href="[^"]*sort=wins[^"]*period=year', page)


def test_a_period_counted_from_now_is_worked_out_once_while_its_games_stay_the_same(
    app, client, season, monkeypatch
):
    """ "Last 12 months" starts at a moment that moves at every request: its records and its
    players are kept under how many finished games came before it (`Season.period`), not
    under that moment, so they are worked out once, not at every request (0.4-0.6 s at 20,000
    games), until a game leaves the period."""
    worked, compute = [], season_records.compute
    monkeypatch.setattr(
        season_records, "compute", lambda *args: worked.append(args[1]) or compute(*args)
    )
    first = records(client, "?period=12m")
    assert records(client, "?period=12m") == first
    assert client.get("/players/records?period=12m").status_code == 200
    listed = [client.get("/api/players?period=12m").get_json() for _ in range(2)]
    assert listed[0] == listed[1]
    assert worked == [Filters("12m")]
    with app.app_context():
        computed = players.current()
        assert len([key for key in computed.views if key[0] == "players"]) == 1
        finished = computed.finished_times
        assert len(finished) == 5
        assert computed.period(None) is None
        # A game finished at the period's first moment is in it; a moment later, it has left.
        assert computed.period(finished[0]) == 0
        assert computed.period(finished[0] + timedelta(microseconds=1)) == 1
        assert computed.period(Filters("12m").since()) == 1  # G1 finished before the period


def test_the_periods_start_where_they_say():
    now = datetime(2028, 2, 29, 12, 30, tzinfo=UTC)
    assert Filters("12m").since(now) == datetime(2027, 2, 28, 12, 30)
    assert Filters("all").since(now) is None
    local_new_year = datetime(2028, 1, 1).astimezone()  # midnight on the serving machine's clock
    assert Filters("year").since(now) == local_new_year.astimezone(UTC).replace(tzinfo=None)


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ({"period": "week"}, ["period must be one of all, year, 12m", "'week'"]),
        ({"min_games": "-1"}, ["min_games must be a whole number", "'-1'"]),
        ({"min_games": "2.5", "period": "Year"}, ["'2.5'", "'Year'"]),
        ({"min_games": "٣"}, ["min_games must be a whole number"]),  # an Arabic-Indic 3
        ({"min_games": "1000001"}, ["at most 100,000"]),
    ],
)
def test_bad_filters_are_named(client, query, words):
    with pytest.raises(FilterError) as raised:
        parse_filters(query)
    for word in words:
        assert word in str(raised.value)
    for path in ("/api/players", "/api/players/records"):
        answer = client.get(path, query_string=query)
        assert answer.status_code == 400
        assert all(word in answer.get_json()["error"] for word in words)
    for path in ("/players/", "/players/records"):
        answer = client.get(path, query_string=query)
        assert answer.status_code == 400
        page = html.unescape(answer.get_data(as_text=True))
        assert "These filters cannot be read" in page
        assert all(word in page for word in words)


def test_empty_filters_are_the_defaults(client):
    assert parse_filters({"min_games": "", "period": ""}) == Filters()
    assert client.get("/players/records?min_games=&period=").status_code == 200


def test_the_records_page_links_each_game_and_round(client, season):
    g1, g2, g3, g4, g5 = season
    page = client.get("/players/records").get_data(as_text=True)
    assert "<h1>Records</h1>" in page
    comeback = re.search(r'<tr data-record="best_comeback">(.*?)</tr>', page, re.S).group(1)
    assert f'href="/games/{g2}#round-1"' in comeback and ">Bob</a>" in comeback
    costliest = re.findall(r'<tr data-record="costliest_hand">(.*?)</tr>', page, re.S)
    assert len(costliest) == 2 and 'rowspan="2"' in costliest[0]
    assert all(f'href="/games/{g2}#round-2"' in row for row in costliest)
    # The anchor is there on the game page.
    assert 'id="round-2"' in client.get(f"/games/{g2}").get_data(as_text=True)
    empty = client.get("/players/records?period=year&min_games=9").get_data(as_text=True)
    assert "No record yet under these filters" in empty


def test_a_players_page_shows_the_records_they_hold_and_their_rivals(client, season):
    g1, g2, g3, g4, g5 = season
    ann = client.get("/players/Ann").get_data(as_text=True)
    held = re.findall(r'<li data-record="([a-z_]+)">', ann)
    assert held == ["longest_streak", "costliest_hand"]
    rivals = re.search(r'<section id="rivals".*?</section>', ann, re.S).group(0)
    text = re.sub(r"<[^>]+>", "", rivals)
    # Ann v Bob: lower in G1, G4, G5; higher in G2 (50 v 40) and G3 (30 v 25). Ann v Cat: lower
    # in G1, G2, G5, higher in G3, the same 5 in G4. Dan, one game together, is no rival.
    assert "Beats most often" in text
    assert "Bob: 3–2 in 5 games" in text and "Cat: 3–1 in 5 games, 1 level" in text
    nemesis = re.search(r'<div class="nemesis">.*?</div>', rivals, re.S).group(0)
    assert ">Bob</a>: 3–2 in 5 games" in nemesis and "Cat" not in nemesis
    assert "Dan" not in text
    bob = client.get("/players/Bob").get_data(as_text=True)
    beaten = re.search(r'<div class="beaten">.*?</div>', bob, re.S).group(0)
    assert ">Ann</a>: 2–3 in 5 games" in beaten and "Cat" not in beaten
    dan = client.get("/players/Dan").get_data(as_text=True)
    assert "A rival needs at least 3 finished games together" in dan
    assert re.findall(r'<li data-record="([a-z_]+)">', dan) == [
        "lowest_total",
        "biggest_margin",
        "most_out",
        "most_cuts",
    ]


def test_the_records_take_the_same_statements_for_any_number_of_games(app, client):
    counts = []
    for _ in range(2):
        hand_made_season(FlaskSender(client))
        for path in ("/players/records", "/api/players/records", "/players/Ann"):
            with counted(app) as statements:
                assert client.get(path).status_code == 200
            counts.append(len(statements))
    assert counts[:3] == counts[3:]
    assert counts[1] <= 4


def test_a_player_named_records_has_a_page(client):
    play_rounds(client, game_with_stored_names(client, ["records", "Ann", "Bob"]))
    listed = client.get("/players/").get_data(as_text=True)
    link = re.search(r'<a href="([^"]+)">records</a>', listed).group(1)
    assert html.unescape(link) == "/players/?name=records"
    page = client.get(html.unescape(link)).get_data(as_text=True)
    assert "<h1>records</h1>" in page
    assert "<h1>Records</h1>" in client.get("/players/records").get_data(as_text=True)
    # Another spelling of the name still opens the player.
    assert "<h1>records</h1>" in client.get("/players/RECORDS").get_data(as_text=True)


def test_a_record_shared_by_many_lists_the_first_and_counts_the_rest(client, season, monkeypatch):
    """A figure thousands share over a long season (one exact cut in a game) is listed by its
    first holdings and a count, on the page and in the API; each holder's page still says it."""
    from scorekeeper.season import records as season_records

    monkeypatch.setattr(season_records, "SHOWN", 1)
    g1, g2, g3, g4, g5 = season
    answer = client.get("/api/players/records").get_json()["records"]
    costliest = next(record for record in answer if record["kind"] == "costliest_hand")
    assert [h["name"] for h in costliest["holders"]] == ["Ann"]
    assert costliest["holdings"] == 2
    page = client.get("/players/records").get_data(as_text=True)
    assert "and 1 more, each on the same figure" in page
    cat = client.get("/players/Cat").get_data(as_text=True)
    assert 'data-record="costliest_hand"' in cat
    ann = client.get("/players/Ann?period=all").get_data(as_text=True)
    assert 'data-record="lowest_total"' not in ann  # Dan's alone, for all time


def test_a_record_makes_holdings_only_of_those_it_shows(client, season, monkeypatch):
    """The costliest hand over 20,000 games is held 35,000 times: the records keep every
    holding in no order and make a `Holding` (with the holder's name) only of those a page
    shows and of the one a player's page asks for, in the order they were set."""
    made = []
    holding = season_records.Holding
    monkeypatch.setattr(
        season_records, "Holding", lambda *args: made.append(args) or holding(*args)
    )
    monkeypatch.setattr(season_records, "SHOWN", 1)
    answer = client.get("/api/players/records").get_json()["records"]
    assert len(made) == len(answer)  # one shown holding each
    costliest = next(record for record in answer if record["kind"] == "costliest_hand")
    assert costliest["holdings"] == 2
    with client.application.test_request_context():
        kept = {record.kind: record for record in season_records.season_records()}
        dearest = kept["costliest_hand"]
        # Listed in the order set, whatever order they were found in.
        reordered = replace(dearest, held=dearest.held[::-1])
        assert reordered.shown == dearest.shown
        first, more = dearest.first_of(dearest.held[0][0].key)
        assert (first.game_id, more) == (dearest.held[0][0].game_id, 0)
        assert dearest.first_of("nobody") is None


def test_a_filtered_players_list_takes_each_players_games_in_the_period(app, season):
    """A date range keeps each player's games finished in it, oldest first as the season keeps
    them (no sorting again); over all time with a fewest games, the players listed are the
    season's own, whose figures are worked out once per season, not once per filter."""
    g1, g2, g3, g4, g5 = season
    with app.test_request_context():
        computed = players.current()

        def games_of(chosen: Filters) -> dict[str, list[int]]:
            return {
                record.name: [sitting.game_id for sitting in record.sittings]
                for record in players.season(chosen)
            }

        assert games_of(Filters("year")) == {
            "Ann": [g2, g3],
            "Bob": [g2, g3],
            "Cat": [g2, g3],
            "Dan": [g3],
        }
        recent = games_of(Filters("12m", 2))
        assert recent["Ann"] == [g2, g3, g4, g5] and "Dan" not in recent
        listed = players.season(Filters("all", 4))
        assert [record.name for record in listed] == ["Ann", "Bob", "Cat"]  # Dan sat in G3 only
        kept = {record.key: record for record in computed.records}
        assert all(record is kept[record.key] for record in listed)
