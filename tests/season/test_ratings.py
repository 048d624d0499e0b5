"""The ratings: checked against OpenSkill called directly on the same games, provisional under 5
games, a correction rated as if right from the start, on /players, the API and a new game's page."""

from __future__ import annotations

import math
import re

from openskill.models import PlackettLuce

from scorekeeper.games import service
from scorekeeper.games.models import Game
from scorekeeper.platform import cache
from scorekeeper.platform.database import db
from scorekeeper.season import players, ratings
from tests.season.seeding import entry, play_game, seed_season
from tests.support.apps import app_on
from tests.support.book import new_game, record


def direct_ratings() -> dict[str, tuple[float, float, int]]:
    """Every player's (μ, σ, games) from OpenSkill called directly: each finished game's final
    totals summed here from its rounds, the lowest total the best score, games in the order they
    finished. Nothing of the season's code is used."""
    model = PlackettLuce()
    finished = db.session.scalars(db.select(Game).where(Game.finished_at.is_not(None))).all()
    rated: dict[str, tuple] = {}
    for game in sorted(finished, key=lambda game: (game.finished_at, game.id)):
        seats = sorted(game.players, key=lambda player: player.seat)
        totals = [
            sum(
                score.score
                for played in game.rounds
                for score in played.scores
                if score.seat == p.seat
            )
            for p in seats
        ]
        teams = [[rated.get(p.name_key, (model.rating(), 0))[0]] for p in seats]
        new = model.rate(teams, scores=[-total for total in totals])
        for p, (rating,) in zip(seats, new, strict=True):
            rated[p.name_key] = (rating, rated.get(p.name_key, (None, 0))[1] + 1)
    return {key: (rating.mu, rating.sigma, games) for key, (rating, games) in rated.items()}


def same(found: dict, expected: dict) -> bool:
    """The same players, games and (μ, σ) to within float noise of summing in another order."""
    assert found.keys() == expected.keys()
    for key, (mu, sigma, games) in expected.items():
        assert found[key][2] == games, key
        assert abs(found[key][0] - mu) < 1e-9 and abs(found[key][1] - sigma) < 1e-9, key
    return True


def season_ratings() -> dict[str, tuple[float, float, int]]:
    return {
        key: (rating.mu, rating.sigma, rating.games)
        for key, rating in players.current().ratings.players.items()
    }


def test_a_seeded_season_is_rated_as_openskill_rates_it(app, client):
    """200 games among 12 players: 3-6 at a table, ties, early ends, corrections, archived."""
    with app.app_context():
        seed_season(200)
        expected = direct_ratings()
        assert len(expected) == 12
        assert same(season_ratings(), expected)
    listed = client.get("/api/players").get_json()["players"]
    by_name = {player["name"]: player for player in listed}
    assert len(by_name) == 12
    for name, player in by_name.items():
        mu, sigma, games = expected[name.casefold()]
        assert player["rating"] == math.floor(mu - 3 * sigma + 0.5)
        assert isinstance(player["rating"], int)
        assert player["rating_sigma"] == round(sigma, 2)
        assert player["provisional"] is (games < 5) is False
        assert player["games"] == games
    # /players: by rating, the best first, with its uncertainty.
    page = client.get("/players/").get_data(as_text=True)
    names = re.findall(r'<th scope="row" data-column="name"><a href="[^"]+">([^<]+)</a>', page)
    best_first = sorted(expected, key=lambda key: -(expected[key][0] - 3 * expected[key][1]))
    assert [name.casefold() for name in names] == best_first
    assert 'data-column="rating" aria-sort="descending"' in page
    assert "± " in page and "provisional" not in re.sub(
        r"<p class=\"hint ratings-note\".*?</p>", "", page
    )


def test_a_rating_is_provisional_under_five_games(app, client):
    with app.app_context():
        for number in range(5):
            play_game(["Ann", "Bob", "Cat"], [[0, 10, 20]], end_early=True)
            answer = {p["name"]: p for p in client.get("/api/players").get_json()["players"]}
            assert answer["Ann"]["provisional"] is (number < 4)
            assert answer["Ann"]["rating"] > answer["Bob"]["rating"] > answer["Cat"]["rating"]
    page = client.get("/players/Ann").get_data(as_text=True)
    assert 'class="rating"' in page and "provisional" not in page.split('class="rating"')[1][:200]
    # The trend: the rating after each of Ann's 5 games, and how far it moved over them.
    assert 'id="rating-trend"' in page and 'class="rating-change">+' in page
    with app.app_context():
        assert len(players.find_player("Ann").rating.trend) == 5


def test_a_new_player_has_a_new_players_rating(client):
    game = new_game(client, ["Ann", "Bob", "Cat", "Dan"])
    record(client, game, "Ann")
    listed = client.get("/api/players").get_json()["players"]
    assert {(p["rating"], p["rating_sigma"], p["provisional"]) for p in listed} == {(0, 8.33, True)}


def games_of_a_correction(corrected: bool):
    """Six games; the first one's round 1 recorded wrongly and corrected after the others
    (`corrected`), or recorded right from the start."""
    right, wrong = [0, 10, 40, 25], [40, 10, 0, 25]
    first = play_game(["Ann", "Bob", "Cat", "Dan"], [wrong if corrected else right], True)
    for number in range(5):
        names = ["Ann", "Bob", "Cat", "Dan", "Eve"][number % 2 :][:4]
        play_game(names, [[0, 25 - 5 * number, 20, 30]], end_early=True)
    if corrected:
        players.current()  # the season is kept before the correction
        service.correct_round(db.session.get(Game, first), 1, entry(right))
        db.session.commit()


def test_a_correction_to_an_old_game_rates_as_if_it_had_been_right(app, fresh_database, tmp_path):
    with app.app_context():
        games_of_a_correction(corrected=True)
        after_correction = season_ratings()
        assert same(after_correction, direct_ratings())
    right = app_on(fresh_database("right"), tmp_path, "right", UPGRADE_ON_START=True)
    with right.app_context():
        games_of_a_correction(corrected=False)
        assert season_ratings() == after_correction  # to the last bit


def test_ratings_carried_on_are_those_of_a_fresh_computation(app):
    """A game finished after the season was kept is rated on from the ratings before: the
    same figures as rating every game again."""
    with app.app_context():
        seed_season(30)
        players.current()
        play_game(["Ann", "Bob", "Cat"], [[0, 5, 5]], end_early=True)
        carried = players.current().ratings
        assert len(carried.results) == 31
        cache.kept(players.STAMP).clear()
        fresh = players.current().ratings
        assert carried is not fresh and carried.players == fresh.players


def test_percentages_sum_to_100_as_a_person_rounds():
    assert ratings.percentages([1, 1, 1]) == [34, 33, 33]
    assert ratings.percentages([0.414, 0.27, 0.316]) == [41, 27, 32]
    assert ratings.percentages([0.125] * 8) == [13, 13, 13, 13, 12, 12, 12, 12]
    assert sum(ratings.percentages([0.3333, 0.3333, 0.3334])) == 100


def test_a_new_games_page_shows_each_players_chance_until_round_1(app, client):
    with app.app_context():
        for _ in range(3):
            play_game(["Ann", "Bob", "Cat", "Dan"], [[0, 10, 20, 30]], end_early=True)
    game = new_game(client, ["Ann", "Bob", "Cat", "Dan"])
    page = client.get(f"/games/{game.id}").get_data(as_text=True)
    chances = re.findall(r'<span class="chance">(\w+) (\d+)\s?%</span>', page)
    assert [name for name, _ in chances] == ["Ann", "Bob", "Cat", "Dan"]
    shown = [int(chance) for _, chance in chances]
    assert sum(shown) == 100 and shown == sorted(shown, reverse=True)
    with app.app_context():
        rated = players.current().ratings
        model = PlackettLuce()
        keys = ["ann", "bob", "cat", "dan"]
        teams = [[model.rating(mu=rated.of(k).mu, sigma=rated.of(k).sigma)] for k in keys]
        direct = model.predict_win(teams)
    assert all(abs(chance - 100 * share) < 1 for chance, share in zip(shown, direct, strict=True))
    record(client, game, "Ann")
    page = client.get(f"/games/{game.id}").get_data(as_text=True)
    assert 'class="win-chances"' not in page
