"""The nights' service called directly: names as the season knows them (merged players too), a
late seat in a game not started, and the draw's inputs (sizes, pins, history, seed)."""

from __future__ import annotations

import pytest

from scorekeeper.games import service as games
from scorekeeper.games.errors import Conflict
from scorekeeper.nights import draw, service
from scorekeeper.platform.database import db
from scorekeeper.rulesets import choice
from scorekeeper.season import merges


@pytest.fixture
def ctx(app):
    with app.test_request_context():
        yield
        db.session.rollback()


def test_names_are_the_seasons_and_a_merged_player_is_the_one_they_joined(ctx):
    games.create_game(["Ann", "Bob", "Cat", "Dan"], "liverpool")
    games.create_game(["Annie", "Bob", "Cat", "Dan"], "liverpool")
    db.session.commit()
    merges.merge("Annie", "Ann")
    db.session.commit()
    known = service.as_season_knows(["annie", "BOB", "Zed"])
    assert [name for name, _key in known] == ["Ann", "Bob", "Zed"]
    assert service.season_names() == ["Ann", "Bob", "Cat", "Dan"]
    night = service.create_night(choice.preset("shanghai"))
    service.check_in(night, [("annie", None)])
    with pytest.raises(service.NightRefused) as refused:
        service.check_in(night, [("Ann", None)])
    assert refused.value.fields == {"players[0]": "Ann is already checked in"}


def test_a_seat_is_added_only_before_the_first_round_and_within_the_rules(ctx):
    game, _key = games.create_game(["Ann", "Bob", "Cat"], "shanghai")
    assert games.add_seat(game, " Dan ").seat == 3
    assert game.names == ["Ann", "Bob", "Cat", "Dan"]
    with pytest.raises(games.ScorebookError, match="already at the table"):
        games.add_seat(game, "dan")
    full, _key = games.create_game(["Ann", "Bob", "Cat", "Dan"], "liverpool")
    with pytest.raises(Conflict):
        games.add_seat(full, "Eve")


def test_the_draw_is_given_the_rule_sets_range_the_pins_and_the_history(ctx, monkeypatch):
    asked = {}

    def seen(players, least, most, **kwargs):
        asked.update(players=list(players), least=least, most=most, **kwargs)
        return draw.Draw((tuple(players[:3]), tuple(players[3:])), 0, kwargs["seed"])

    earlier = service.create_night(choice.preset("shanghai"))
    service.check_in(earlier, [(name, None) for name in "ABCDEFG"])
    service.draw(earlier)
    night = service.create_night(choice.preset("shanghai"))
    service.check_in(
        night,
        [("Ann", None), ("Bob", 2), ("Cat", None), ("Dan", None), ("Eve", None), ("Fay", None)],
    )
    monkeypatch.setattr(draw, "draw", seen)
    service.draw(night)
    assert asked["least"] == 3 and asked["most"] == 8
    assert asked["pinned"] == {"Bob": 2}
    assert asked["seed"] == night.seed and asked["window"] == service.WINDOW
    assert [sorted(map(len, tables)) for tables in asked["history"]] == [[3, 4]]


@pytest.mark.parametrize(
    ("players", "least", "most", "pins", "code"),
    [
        (2, 3, 8, {}, "too_few"),
        (11, 4, 4, {}, "no_fit"),
        (8, 4, 4, {"A": 3}, "pinned"),
        (8, 4, 4, {"A": 1, "B": 1, "C": 1, "D": 1, "E": 1}, "pinned"),
    ],
)
def test_each_refusal_of_the_draw_is_one_the_night_says(players, least, most, pins, code):
    """Every refusal a table's check-in can meet is one of the night's three codes."""
    names = [chr(ord("A") + n) for n in range(players)]
    with pytest.raises(draw.DrawError) as refused:
        draw.draw(names, least, most, pinned=pins, seed=7)
    assert service.REFUSALS[refused.value.code] == code
