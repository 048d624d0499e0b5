"""Merging two players ("Annie" is "Ann"): the season counts them as one in every figure and
head to head, an undo gives back exactly the figures from before, chains resolve to their end,
and every merge that cannot be right (two people at one table, a player with themself, a name
nobody played under, a cycle) is refused naming each problem. The figures are worked out by hand
on a small season built through the API."""

from __future__ import annotations

import re

import flask_migrate
import pytest
from sqlalchemy import func, select

from scorekeeper.games.models import Game, Player
from scorekeeper.platform import database
from scorekeeper.platform.database import db
from scorekeeper.season import merges, models
from scorekeeper.season import players as season
from scorekeeper.season.models import PlayerMerge
from tests.support.apps import app_on
from tests.support.book import new_game, play
from tests.support.queries import counted

FAMILY_DEALS = 7


def everyone_out(client, names, winner):
    """A finished Family game of `names` where `winner` goes out every deal and everyone else
    holds a 5: the winner ends on 0, everyone else on 35."""
    game = new_game(client, names, "family")
    rest = {name: "5" for name in names if name != winner}
    play(client, game, [(winner, False, rest)] * FAMILY_DEALS)
    return game


def build_season(client):
    """A: Ann 0, Bob 35, Cat 35. B: Bob 0, Annie 35, Dan 35. C: Annie 0, Cat 35, Dan 35.
    Annie played last, Ann never with Annie."""
    return [
        everyone_out(client, ["Ann", "Bob", "Cat"], "Ann"),
        everyone_out(client, ["Annie", "Bob", "Dan"], "Bob"),
        everyone_out(client, ["Annie", "Cat", "Dan"], "Annie"),
    ]


def listed(client) -> dict[str, dict]:
    answer = client.get("/api/players")
    assert answer.status_code == 200
    return {player["name"]: player for player in answer.get_json()["players"]}


def figures(player: dict) -> list:
    return [player[name] for name in ("games", "wins", "win_rate", "average_total", "best_total")]


def merge(client, source, target, **headers):
    return client.post(
        "/api/players/merges", json={"from": source, "into": target}, headers=headers
    )


def test_merged_players_count_as_one_in_every_figure(client):
    build_season(client)
    before = listed(client)
    assert figures(before["Ann"]) == [1, 1, 1.0, 0.0, 0]
    assert figures(before["Annie"]) == [2, 1, 0.5, 17.5, 0]

    answer = merge(client, "Annie", "Ann")
    assert answer.status_code == 201, answer.get_json()
    body = answer.get_json()
    assert body["merge"]["from"] == "Annie" and body["merge"]["into"] == "Ann"
    assert body["merge"]["undone_at"] is None
    assert answer.headers["Location"] == f"/api/players/merges/{body['merge']['id']}"

    after = listed(client)
    # One entry, shown by the into-player's name though Annie played last: 3 games, won A and
    # C, totals 0, 35, 0 → 35 / 3 = 11.67, rounded to 11.7.
    assert "Annie" not in after
    assert figures(after["Ann"]) == [3, 2, 0.667, 11.7, 0]
    # The answer's player has every figure of the list, and is rated with the season next
    # computed: the merge changes the ratings from Annie's first game on.
    assert body["player"] == {**after["Ann"], "rating": None, "rating_sigma": None}
    assert after["Ann"]["rating"] is not None
    assert body["up_to_date"] is True
    assert len(after) == len(before) - 1
    assert {name: after[name] for name in ("Bob", "Cat", "Dan")} == {
        name: before[name] for name in ("Bob", "Cat", "Dan")
    }


def test_head_to_head_after_a_merge(client):
    build_season(client)
    assert merge(client, "Annie", "Ann").status_code == 201
    with client.application.app_context():
        ann = season.find_player("annie")  # any spelling of the merged player finds the one
        bob = season.find_player("Bob")
    assert ann.name == "Ann" and ann.also_played_as == ["Annie"]
    # With Bob: A (Ann 0 < 35) and B (Annie 35 > Bob 0). With Cat: A and C, Ann lower in both.
    # With Dan: B (35 = 35) and C (0 < 35).
    assert [(o.name, o.games, o.lower, o.their_lower) for o in ann.opponents] == [
        ("Bob", 2, 1, 1),
        ("Cat", 2, 2, 0),
        ("Dan", 2, 1, 0),
    ]
    assert ("Ann", 2, 1, 1) in [(o.name, o.games, o.lower, o.their_lower) for o in bob.opponents]
    assert "Annie" not in [o.name for o in bob.opponents]


def test_every_game_keeps_its_seats_and_names_as_played(client):
    build_season(client)
    with client.application.app_context():
        seats = db.session.execute(select(Player.game_id, Player.seat, Player.name)).all()
    assert merge(client, "Annie", "Ann").status_code == 201
    with client.application.app_context():
        assert db.session.execute(select(Player.game_id, Player.seat, Player.name)).all() == seats
    game = client.get("/api/games/3").get_json()
    assert game["players"] == ["Annie", "Cat", "Dan"]


def test_undo_gives_back_exactly_the_figures_from_before(client):
    build_season(client)
    before = client.get("/api/players").get_json()
    merged = merge(client, "Annie", "Ann").get_json()["merge"]
    assert client.get("/api/players").get_json() != before
    undone = client.delete(f"/api/players/merges/{merged['id']}")
    assert undone.status_code == 200
    assert undone.get_json()["merge"]["undone_at"] is not None
    assert client.get("/api/players").get_json() == before
    kept = client.get("/api/players/merges").get_json()["merges"]
    assert [(row["id"], row["undone_at"] is not None) for row in kept] == [(merged["id"], True)]
    # Undone once: again is a conflict; an unknown merge, or one past any id, is 404.
    again = client.delete(f"/api/players/merges/{merged['id']}")
    assert again.status_code == 409 and "undone already" in again.get_json()["error"]
    for unknown in (424242, 2**63):
        missing = client.delete(f"/api/players/merges/{unknown}")
        assert missing.status_code == 404, unknown
        assert missing.get_json() == {"error": f"merge {unknown} does not exist"}
    # Merged again after the undo: one in force.
    assert merge(client, "Annie", "Ann").status_code == 201


def test_a_chain_resolves_to_its_end(client):
    build_season(client)
    everyone_out(client, ["Anna", "Eve", "Fay"], "Eve")  # Anna 35, never with Ann or Annie
    assert merge(client, "Annie", "Ann").status_code == 201
    assert merge(client, "Ann", "Anna").status_code == 201
    with client.application.app_context():
        assert models.identities() == {"annie": "anna", "ann": "anna"}
        found = season.find_player("Annie")
    assert found.name == "Anna" and sorted(found.also_played_as) == ["Ann", "Annie"]
    # 4 games: A 0 (won), B 35, C 0 (won), Anna's 35 → 70 / 4 = 17.5.
    assert figures(listed(client)["Anna"]) == [4, 2, 0.5, 17.5, 0]
    # Undoing the first link leaves Ann in Anna, Annie apart.
    first = client.get("/api/players/merges").get_json()["merges"][-1]
    assert first["from"] == "Annie"
    assert client.delete(f"/api/players/merges/{first['id']}").status_code == 200
    after = listed(client)
    assert figures(after["Annie"]) == [2, 1, 0.5, 17.5, 0]
    assert figures(after["Anna"]) == [2, 1, 0.5, 17.5, 0]


def test_a_stored_cycle_still_reads_as_one_player(client):
    """Refused by the API; should one be stored anyway, the season still reads the same way."""
    assert models.resolve({"b": "a", "a": "b"}) == {"a": "a", "b": "a"}
    assert models.resolve({"x": "b", "b": "c", "c": "b"}) == {"x": "b", "b": "b", "c": "b"}


@pytest.mark.parametrize(
    ("source", "target", "problem"),
    [
        ("Ann", "Ann", "'Ann' and 'Ann' are already one player, Ann: a player is never merged"),
        ("ann", "ANN", "already one player, Ann"),
        ("Zed", "Ann", "nobody called 'Zed' has played here"),
        ("Bob", "Ann", "Ann and Bob both sat in game 1: they are two people"),
    ],
)
def test_merges_that_cannot_be_right_are_refused(client, source, target, problem):
    build_season(client)
    before = listed(client)
    answer = merge(client, source, target)
    assert answer.status_code == 400
    assert problem in answer.get_json()["error"].replace("Bob and Ann", "Ann and Bob")
    assert listed(client) == before


def test_a_cycle_is_refused(client):
    build_season(client)
    assert merge(client, "Annie", "Ann").status_code == 201
    back = merge(client, "Ann", "Annie")
    assert back.status_code == 400
    assert "'Ann' and 'Annie' are already one player, Ann" in back.get_json()["error"]
    assert len(client.get("/api/players/merges").get_json()["merges"]) == 1


def test_two_people_who_sat_together_are_never_merged(client):
    build_season(client)
    together = everyone_out(client, ["Ann", "Annie", "Eve"], "Eve")
    everyone_out(client, ["Ann", "Annie", "Fay"], "Fay")
    answer = merge(client, "Annie", "Ann")
    assert answer.status_code == 400
    assert answer.get_json()["error"] == (
        f"Annie and Ann both sat in games {together.id}, {together.id + 1}: "
        "they are two people, never merged"
    )


def test_a_game_started_after_a_merge_seating_both_keeps_them_apart_in_it(client):
    build_season(client)
    assert merge(client, "Annie", "Ann").status_code == 201
    late = everyone_out(client, ["Ann", "Annie", "Eve"], "Eve")
    with client.application.app_context():
        seated = season._sittings()[late.id]
    assert [(s.name, s.key) for s in seated] == [("Ann", "ann"), ("Annie", "annie"), ("Eve", "eve")]
    # The merged Ann keeps her 3 games and the late one (4); Annie's seat there stands apart.
    after = listed(client)
    assert after["Ann"]["games"] == 4 and after["Annie"]["games"] == 1


def test_every_problem_of_a_request_is_named(client):
    build_season(client)
    answer = client.post("/api/players/merges", json={"from": 3, "colour": "red"})
    assert answer.status_code == 400
    assert answer.get_json() == {
        "error": "unknown field 'colour'; 'from' must be a player's name as text; "
        "'into' must be a player's name as text"
    }
    both = merge(client, "Zed", "")
    assert both.get_json() == {
        "error": "nobody called 'Zed' has played here; say which player to join"
    }
    assert client.post("/api/players/merges", data="x").status_code == 415


def test_a_repeated_post_merges_once(client):
    build_season(client)
    first = merge(client, "Annie", "Ann", **{"Idempotency-Key": "merge-annie-1"})
    again = merge(client, "Annie", "Ann", **{"Idempotency-Key": "merge-annie-1"})
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json()["merge"] == first.get_json()["merge"]
    # Without a key, the same merge again is refused: they are one player already.
    assert merge(client, "Annie", "Ann").status_code == 400
    assert len(client.get("/api/players/merges").get_json()["merges"]) == 1
    with client.application.app_context():
        assert db.session.scalar(select(func.count()).select_from(PlayerMerge)) == 1


def test_a_merge_is_keyed_apart_from_the_games(client):
    """An Idempotency-Key a client used to start a game is not the merge's: it merges."""
    build_season(client)
    body = {"players": ["Eve", "Fay", "Gus"], "rules": "family"}
    started = client.post("/api/games", json=body, headers={"Idempotency-Key": "k-1"})
    assert started.status_code == 201
    merged = merge(client, "Annie", "Ann", **{"Idempotency-Key": "k-1"})
    assert merged.status_code == 201 and "Idempotent-Replayed" not in merged.headers


def tangled_season(client) -> list[str]:
    """A season with every case a name can be found by: a merge, a game seating both merged
    players after it, a chain and a game seating two of it, and a look-alike kept from before
    the name rules ("Еve" with a Cyrillic Е, key "eve#3", beside Eve). Returns the names to
    look for."""
    build_season(client)
    assert merge(client, "Annie", "Ann").status_code == 201
    everyone_out(client, ["Ann", "Annie", "Eve"], "Eve")
    old = everyone_out(client, ["Eve", "Fay", "Gus", "Jo"], "Fay")
    with client.application.app_context():
        db.session.execute(
            db.update(Player)
            .where(Player.game_id == old.id, Player.seat == 3)
            .values(name="Еve", name_key="eve#3")
        )
        db.session.commit()
    everyone_out(client, ["Hal", "Kit", "Dan"], "Hal")
    everyone_out(client, ["Lee", "Bob", "Cat"], "Lee")
    assert merge(client, "Hal", "Gus").status_code == 201
    assert merge(client, "Gus", "Lee").status_code == 201
    everyone_out(client, ["Hal", "Gus", "Bob"], "Bob")
    return [
        "Ann",
        "ann",
        "Annie",
        "ANNIE",
        "Аnn",
        "Eve",
        "eve",
        "Еve",
        "Bob",
        "Cat",
        "Dan",
        "Fay",
        "Gus",
        "gus",
        "Hal",
        "Kit",
        "Lee",
        "Zed",
        "",
        " ",
    ]


def test_a_merge_is_judged_on_the_players_own_seats_as_on_the_whole_season(client):
    """`players.named` reads only the seats of the players a name may find: for every name it
    finds the player the whole season finds, with the same sittings, and every merge of two of
    the names is judged the same way."""
    names = tangled_season(client)
    with client.application.app_context():
        whole = season._records(season._sittings())
        identity = models.identities()
        for name in names:
            alike = season.player_key(name)
            seats = season.named([name], identity)
            key = season._key_named(whole, name, alike) if alike else None
            assert (season._key_named(seats, name, alike) if alike else None) == key, name
            assert [(s.game_id, s.seat, s.key) for s in seats.get(key, [])] == [
                (s.game_id, s.seat, s.key) for s in whole.get(key, [])
            ], name
        computed = season._compute(None)
        for source in names:
            for target in names:
                alone, kept = (
                    merges.propose(source, target),
                    merges.propose(source, target, computed),
                )
                assert alone.problems == kept.problems, (source, target)
                assert (alone.source and alone.source.key) == (kept.source and kept.source.key)
                assert (alone.target and alone.target.key) == (kept.target and kept.target.key)


def test_every_merge_answers_the_player_the_season_then_lists(client):
    """Each merge the tangled season allows, made and undone in turn: its answer's player (the
    season as kept before it, with the merge applied) has every figure the list then gives the
    player, rating aside (it follows with the season)."""
    names = tangled_season(client)
    with client.application.app_context():
        allowed = [
            (one, other)
            for one in names
            for other in names
            if not merges.propose(one, other).problems
        ]
    assert len(allowed) >= 20
    for source, target in allowed:
        listed(client)  # the season kept before the merge
        answer = merge(client, source, target)
        assert answer.status_code == 201, (source, target, answer.get_json())
        player = answer.get_json()["player"]
        after = listed(client)[player["name"]]
        assert player == {**after, "rating": None, "rating_sigma": None}, (source, target)
        undo = client.delete(answer.headers["Location"])
        assert undo.status_code == 200


def test_seats_kept_apart_from_the_player_they_joined_are_not_merged_again(client):
    """Annie, merged into Ann, then seated beside her: that game's Annie counts apart, under
    her own key, which a merge already holds. Merging her again is refused with the reason,
    on the page as through the API (it was a 409 "merged meanwhile on another device")."""
    tangled_season(client)
    answer = merge(client, "Annie", "Fay")
    assert answer.status_code == 400
    reason = (
        "Annie is merged into Ann already (in a game both sat in, they count apart): "
        "undo that merge first"
    )
    assert answer.get_json() == {"error": reason}
    page = client.get("/players/merges/new?from=Annie&into=Fay").get_data(as_text=True)
    assert reason in page
    finnish = client.get(
        "/players/merges/new?from=Annie&into=Fay", headers={"Accept-Language": "fi"}
    ).get_data(as_text=True)
    assert "Annie on jo yhdistetty pelaajaan Ann" in finnish and reason not in finnish


def test_a_merge_answered_from_a_season_kept_before_other_merges(client):
    """The season as kept may be older than other merges and undos: Hal's seats, under Lee in
    it (Hal into Gus into Lee), are Eve's once that merge is undone and Hal merged into Eve."""
    tangled_season(client)
    with client.application.app_context():
        kept = season._compute(None)
    made = client.get("/api/players/merges").get_json()["merges"]
    hal = next(row for row in made if row["from"] == "Hal")
    assert client.delete(f"/api/players/merges/{hal['id']}").status_code == 200
    assert merge(client, "Hal", "Eve").status_code == 201
    with client.application.app_context():
        answered = season.after_merge(kept, models.identities(), "eve")
    after = listed(client)["Eve"]
    assert answered.as_json() == {**after, "rating": None, "rating_sigma": None}
    assert after["games"] == 4


def test_a_merge_reads_no_seat_but_the_two_players_and_no_round(app, client):
    """Judged on the two players' seats (by the seats' name indexes), answered from the season
    as kept: reading every seat and round took 5 s at 20,000 games."""
    build_season(client)
    client.get("/api/players")  # the season computed and kept
    with counted(app) as posted:
        answer = merge(client, "Annie", "Ann")
    assert answer.status_code == 201
    assert answer.get_json()["player"]["games"] == 3
    seats = [statement for statement in posted if "FROM players" in statement]
    assert seats and all("WHERE" in statement for statement in seats), seats
    assert not [statement for statement in posted if "round_scores" in statement], posted


# --- The pages -------------------------------------------------------------------------------


def token_of(page: str) -> str:
    return re.search(r'name="write_token"[^>]* value="([^"]+)"', page).group(1)


def test_merge_confirm_and_undo_on_the_pages(client):
    build_season(client)
    page = client.get("/players/Ann").get_data(as_text=True)
    assert "Merge with another player…" in page
    assert '<option value="Annie">Annie</option>' in page
    assert '<option value="Ann">' not in page

    confirm = client.get("/players/merges/new?from=Annie&into=Ann")
    text = confirm.get_data(as_text=True)
    assert confirm.headers["Cache-Control"] == "no-store"
    assert (
        "Annie's 2 games become Ann's: Ann will have 3 games. "
        "Every game keeps the names as played." in text
    )
    token = token_of(text)
    posted = client.post("/players/merges/new?from=Annie&into=Ann", data={"write_token": token})
    assert posted.status_code == 303 and posted.location == "/players/Ann"
    twice = client.post("/players/merges/new?from=Annie&into=Ann", data={"write_token": token})
    assert twice.status_code == 303 and twice.location == "/players/Ann"  # the first answer
    assert len(client.get("/api/players/merges").get_json()["merges"]) == 1

    merged = client.get("/players/Ann").get_data(as_text=True)
    assert "Annie&#39;s 2 games became Ann&#39;s: Ann has 3 games." in merged
    assert "Also played as Annie." in merged
    assert re.search(r"Annie was merged into Ann on .+ — <button", merged)
    # The merged player's page is the one they joined.
    away = client.get("/players/Annie")
    assert away.status_code == 302 and away.location == "/players/Ann"

    row = client.get("/api/players/merges").get_json()["merges"][0]
    undo = f"/players/merges/{row['id']}/undo"
    undo_token = re.search(rf'action="{undo}".*?name="write_token" value="([^"]+)"', merged, re.S)
    undone = client.post(undo, data={"write_token": undo_token.group(1)})
    assert undone.status_code == 303 and undone.location == "/players/Ann"
    apart = client.get("/players/Ann").get_data(as_text=True)
    assert "Annie is counted apart from Ann again." in apart
    assert "Also played as" not in apart
    assert client.get("/players/Annie").status_code == 200


def test_a_refused_merge_page_names_the_game(client):
    build_season(client)
    page = client.get("/players/merges/new?from=Bob&into=Ann").get_data(as_text=True)
    assert "These players cannot be merged" in page
    assert "Bob and Ann both sat in game 1: they are two people, never merged" in page
    assert 'id="merge-form"' not in page
    unknown = client.get("/players/merges/new?from=Zed&into=").get_data(as_text=True)
    assert "nobody called &#39;Zed&#39; has played here" in unknown
    assert "say which player to join" in unknown
    # Posted anyway (a form opened before Bob sat with Ann): refused, nothing merged.
    posted = client.post("/players/merges/new?from=Bob&into=Ann", data={"write_token": "x" * 22})
    assert "both sat in game 1" in posted.get_data(as_text=True)
    assert client.get("/api/players/merges").get_json()["merges"] == []


def test_the_merge_page_shows_the_kept_season_and_the_post_judges_afresh(app, client):
    """The page reads no seat of any game once the season is kept (reading them all took a
    second and a half at 20,000 games), and a post is judged on the games as they are."""
    build_season(client)
    client.get("/players/")  # the season computed and kept
    with counted(app) as shown:
        page = client.get("/players/merges/new?from=Annie&into=Ann").get_data(as_text=True)
    assert "Annie's 2 games become Ann's" in page
    assert not [statement for statement in shown if "FROM players" in statement], shown
    with counted(app) as posted:
        answer = client.post(
            "/players/merges/new?from=Annie&into=Ann", data={"write_token": token_of(page)}
        )
    assert answer.status_code == 303
    assert [statement for statement in posted if "FROM players" in statement]


# --- The upgrade -----------------------------------------------------------------------------


def test_the_upgrade_keeps_every_row_and_the_downgrade_every_game(fresh_database, tmp_path):
    app = app_on(fresh_database("merges"), tmp_path)
    with app.app_context():
        database.upgrade()
    client = app.test_client()
    build_season(client)  # by today's app, then taken back to the revision before merges
    with app.app_context():
        counts = [db.session.scalar(select(func.count()).select_from(t)) for t in (Game, Player)]
        db.session.remove()  # the migration takes the database to itself
        flask_migrate.downgrade(directory=str(database.MIGRATIONS), revision="0011_season_stamp")
        assert "player_merges" not in db.inspect(db.engine).get_table_names()
        db.session.remove()
        database.upgrade()
        assert database.current_revision() == database.head_revision()
        after = [db.session.scalar(select(func.count()).select_from(t)) for t in (Game, Player)]
        assert after == counts == [3, 9]
    assert merge(client, "Annie", "Ann").status_code == 201
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(PlayerMerge)) == 1
        db.session.remove()
        flask_migrate.downgrade(directory=str(database.MIGRATIONS), revision="0011_season_stamp")
        assert "player_merges" not in db.inspect(db.engine).get_table_names()
        kept = [db.session.scalar(select(func.count()).select_from(t)) for t in (Game, Player)]
        assert kept == counts
        db.session.remove()
        database.upgrade()
    assert "Annie" in listed(client)  # the merge went with the table
