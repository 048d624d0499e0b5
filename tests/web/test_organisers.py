"""Organisers (`ORGANISER_PASSWORD`): with the setting, only a signed-in organiser (or an API
client with the password) merges players, renames or deletes saved rule sets and archives,
restores or deletes games, on the pages and through the API; everyone else is refused with 403
and nothing changes. Sign-in is limited per address, ends after its hours, at sign-out and when
the password changes, and no password is ever kept or logged in clear. Without the setting
nothing changes at all."""

from __future__ import annotations

import base64
import logging
import types
from collections.abc import Callable
from dataclasses import dataclass

import pytest

import scorekeeper.platform.organisers
from scorekeeper import create_app
from scorekeeper.platform.organisers import MARK, hash_password
from scorekeeper.season import merges
from tests.support.book import new_game, play
from tests.support.browserform import changed, fields_of
from tests.support.config import TEST_CONFIG
from tests.support.organisers import HASH, PASSWORD, REFUSED, basic

OTHER_HASH = hash_password("a new season's password")
FAMILY_DEALS = 7
REFUSED_JSON = REFUSED["error"]


@dataclass
class Club:
    """What a club's evening left behind: two finished games (Ann, Bob, Cat; Annie, Bob, Dan),
    Cat merged into Dan, a saved rule set, a game with no round and an archived one."""

    merge_id: int
    ruleset_id: int
    empty: object
    archived: object


def finished(client, names, winner):
    game = new_game(client, names, "family")
    rest = {name: "5" for name in names if name != winner}
    play(client, game, [(winner, False, rest)] * FAMILY_DEALS)
    return game


def evening(app, client) -> Club:
    finished(client, ["Ann", "Bob", "Cat"], "Ann")
    finished(client, ["Annie", "Bob", "Dan"], "Bob")
    with app.app_context():
        from scorekeeper.platform.database import db

        merge_id = merges.merge("Cat", "Dan")[0].id
        db.session.commit()
    saved = client.post("/api/rulesets", json={"rules": "family", "name": "Smith family"})
    assert saved.status_code == 201, saved.get_json()
    empty = new_game(client, ["Eve", "Fay", "Gus"], "family")
    archived = new_game(client, ["Hal", "Ivy", "Jon"], "family")
    with app.app_context():
        from scorekeeper.games import gamelist, ledger
        from scorekeeper.platform.database import db

        gamelist.archive(ledger.get_game(archived.id))
        db.session.commit()
    return Club(merge_id, saved.get_json()["id"], empty, archived)


def state(client) -> tuple:
    """Everything a guarded route could change, as the API reads it."""
    return (
        client.get("/api/players/merges").get_json(),
        client.get("/api/rulesets").get_json(),
        client.get("/api/games").get_json(),
        client.get("/api/games?archived=1").get_json(),
    )


def with_key(client, game) -> None:
    client.set_cookie(f"gk_{game.id}", game.key)


# Each guarded route: (name, what it does given the client and the club, its answer when allowed).
Action = Callable[[object, Club, dict], object]


def _page_post(path: Callable[[Club], str], data=None, key: str | None = None) -> Action:
    def act(client, club, headers):
        if key is not None:
            with_key(client, getattr(club, key))
        return client.post(path(club), data=data or {})

    return act


def _page_get(path: Callable[[Club], str], key: str | None = None) -> Action:
    def act(client, club, headers):
        if key is not None:
            with_key(client, getattr(club, key))
        return client.get(path(club))

    return act


GUARDED_API: dict[str, tuple[Action, int]] = {
    "merge": (
        lambda c, club, h: c.post(
            "/api/players/merges", json={"from": "Annie", "into": "Ann"}, headers=h
        ),
        201,
    ),
    "undo a merge": (
        lambda c, club, h: c.delete(f"/api/players/merges/{club.merge_id}", headers=h),
        200,
    ),
    "delete a rule set": (
        lambda c, club, h: c.delete(f"/api/rulesets/{club.ruleset_id}", headers=h),
        204,
    ),
    "rename a rule set": (
        lambda c, club, h: c.put(
            f"/api/rulesets/{club.ruleset_id}", json={"name": "Jones family"}, headers=h
        ),
        200,
    ),
    "archive a game": (
        lambda c, club, h: c.post(
            f"/api/games/{club.empty.id}/archive", headers={**h, **club.empty.headers}
        ),
        200,
    ),
    "restore a game": (
        lambda c, club, h: c.delete(
            f"/api/games/{club.archived.id}/archive", headers={**h, **club.archived.headers}
        ),
        200,
    ),
    "delete a game": (
        lambda c, club, h: c.delete(
            f"/api/games/{club.empty.id}", headers={**h, **club.empty.headers}
        ),
        204,
    ),
}

GUARDED_PAGES: dict[str, tuple[Action, int]] = {
    "merge page": (_page_get(lambda club: "/players/merges/new?from=Annie&into=Ann"), 200),
    "merge": (_page_post(lambda club: "/players/merges/new?from=Annie&into=Ann"), 303),
    "undo a merge": (_page_post(lambda club: f"/players/merges/{club.merge_id}/undo"), 303),
    "rename page": (_page_get(lambda club: f"/rulesets/{club.ruleset_id}/rename"), 200),
    "rename a rule set": (
        _page_post(lambda club: f"/rulesets/{club.ruleset_id}/rename", {"name": "Jones family"}),
        303,
    ),
    "delete page": (_page_get(lambda club: f"/rulesets/{club.ruleset_id}/delete"), 200),
    "delete a rule set": (_page_post(lambda club: f"/rulesets/{club.ruleset_id}/delete"), 303),
    "archive page": (_page_get(lambda club: f"/games/{club.empty.id}/archive", "empty"), 200),
    "archive a game": (
        _page_post(lambda club: f"/games/{club.empty.id}/archive", key="empty"),
        303,
    ),
    "restore a game": (
        _page_post(lambda club: f"/games/{club.archived.id}/restore", key="archived"),
        303,
    ),
    "delete a game": (
        _page_post(lambda club: f"/games/{club.empty.id}/delete", key="empty"),
        303,
    ),
}

WRITES = {"merge", "undo a merge", "delete a rule set", "rename a rule set"} | {
    "archive a game",
    "restore a game",
    "delete a game",
}


@pytest.fixture
def club_app(app_with):
    return app_with(ORGANISER_PASSWORD=HASH)


@pytest.fixture
def club_client(club_app):
    return club_app.test_client()


def sign_in(client, password: str = PASSWORD, next_page: str = "/"):
    return client.post("/organiser/sign-in", data={"password": password, "next": next_page})


# --- Refused to everyone else, allowed to an organiser -----------------------------------------


@pytest.mark.parametrize("name", sorted(GUARDED_API))
def test_the_api_refuses_everyone_but_an_organiser(club_app, club_client, name):
    act, allowed = GUARDED_API[name]
    club = evening(club_app, club_client)
    before = state(club_client)
    refused = act(club_client, club, {})
    assert refused.status_code == 403
    assert refused.get_json() == {"error": REFUSED_JSON}
    assert state(club_client) == before
    wrong = act(club_client, club, basic("thursday club 42"))
    assert wrong.status_code == 403
    assert wrong.get_json() == {"error": "the organiser password is wrong"}
    assert state(club_client) == before
    answer = act(club_client, club, basic(PASSWORD))
    assert answer.status_code == allowed, answer.get_json()
    assert state(club_client) != before


@pytest.mark.parametrize("name", sorted(GUARDED_API))
def test_the_api_takes_a_signed_in_organisers_cookie(club_app, club_client, name):
    act, allowed = GUARDED_API[name]
    club = evening(club_app, club_client)
    assert sign_in(club_client).status_code == 303
    answer = act(club_client, club, {})
    assert answer.status_code == allowed, answer.get_json()


@pytest.mark.parametrize("name", sorted(GUARDED_PAGES))
def test_the_pages_refuse_everyone_but_an_organiser(club_app, club_client, name):
    act, allowed = GUARDED_PAGES[name]
    club = evening(club_app, club_client)
    before = state(club_client)
    refused = act(club_client, club, {})
    assert refused.status_code == 403
    page = refused.get_data(as_text=True)
    assert "For organisers" in page and 'action="/organiser/sign-in"' in page
    assert 'name="next" type="hidden" value="/' in page
    assert state(club_client) == before
    assert sign_in(club_client).status_code == 303
    answer = act(club_client, club, {})
    assert answer.status_code == allowed
    if name in WRITES:
        assert state(club_client) != before


def test_a_refused_page_signs_in_and_comes_back_where_it_was_going(club_app, club_client):
    club = evening(club_app, club_client)
    path = f"/rulesets/{club.ruleset_id}/rename"
    refused = club_client.get(path).get_data(as_text=True)
    assert f'name="next" type="hidden" value="{path}"' in refused
    signed = sign_in(club_client, next_page=path)
    assert signed.status_code == 303 and signed.headers["Location"] == path
    # Never to another site.
    away = sign_in(club_client, next_page="https://elsewhere.example/")
    assert away.headers["Location"] == "/"
    assert sign_in(club_client, next_page="//elsewhere.example/").headers["Location"] == "/"


def test_the_rule_editor_renames_only_for_an_organiser(club_app, club_client):
    club = evening(club_app, club_client)
    path = f"/rulesets/{club.ruleset_id}/edit"
    fields = fields_of(club_client.get(path).get_data(as_text=True))
    refused = club_client.post(path, data=changed(fields, name="Jones family"))
    assert refused.status_code == 200
    assert "Only an organiser may rename a saved rule set." in refused.get_data(as_text=True)
    assert club_client.get("/api/rulesets").get_json()["rulesets"][0]["name"] == "Smith family"
    fields = fields_of(club_client.get(path).get_data(as_text=True))
    kept = club_client.post(path, data=changed(fields, name="Smith family"))
    assert kept.status_code == 303  # changing the rules under the same name is anyone's
    assert sign_in(club_client).status_code == 303
    fields = fields_of(club_client.get(path).get_data(as_text=True))  # a fresh one-time token
    renamed = club_client.post(path, data=changed(fields, name="Jones family"))
    assert renamed.status_code == 303
    assert club_client.get("/api/rulesets").get_json()["rulesets"][0]["name"] == "Jones family"


def test_the_api_changes_a_rule_sets_rules_for_anyone(club_app, club_client):
    club = evening(club_app, club_client)
    path = f"/api/rulesets/{club.ruleset_id}"
    assert club_client.put(path, json={"rules": "liverpool"}).status_code == 200
    assert club_client.put(path, json={"name": "Smith family"}).status_code == 200


def test_the_pages_hide_what_only_an_organiser_may_do(club_app, club_client):
    club = evening(club_app, club_client)
    with_key(club_client, club.empty)

    def shown() -> dict[str, bool]:
        ruleset = club_client.get(f"/rulesets/{club.ruleset_id}").get_data(as_text=True)
        listed = club_client.get("/rulesets/").get_data(as_text=True)
        player = club_client.get("/players/Ann").get_data(as_text=True)
        game = club_client.get(f"/games/{club.empty.id}").get_data(as_text=True)
        dan = club_client.get("/players/Dan").get_data(as_text=True)
        return {
            "rename": f"/rulesets/{club.ruleset_id}/rename" in ruleset + listed,
            "delete rule set": f"/rulesets/{club.ruleset_id}/delete" in ruleset + listed,
            "merge": 'class="merge-pick"' in player,
            "undo": f"/players/merges/{club.merge_id}/undo" in dan,
            "archive": f"/games/{club.empty.id}/archive" in game,
            "delete game": f"/games/{club.empty.id}/delete" in game,
            "signed in": "Organiser: signed in" in game,
        }

    assert not any(shown().values())
    player = club_client.get("/players/Ann").get_data(as_text=True)
    assert 'href="/organiser/sign-in?next=/players/Ann"' in player
    assert "Organiser sign-in" in player
    assert sign_in(club_client).status_code == 303
    assert all(shown().values())


# --- Sign-in: limited, refused in a form, never logged, and it ends ---------------------------


def test_a_wrong_password_is_a_form_error_and_counted_by_the_limit(app_with, still_clock):
    app = app_with(ORGANISER_PASSWORD=HASH, RATELIMIT_ORGANISER_SIGN_INS="3 per hour")
    client = app.test_client()
    # Right passwords are never counted.
    for _ in range(4):
        assert sign_in(client).status_code == 303
    for _ in range(3):
        wrong = sign_in(client, "Thursday club 24")
        assert wrong.status_code == 200
        page = wrong.get_data(as_text=True)
        assert "That is not the organiser password." in page
        assert 'aria-invalid="true"' in page
    limited = sign_in(client, PASSWORD)
    assert limited.status_code == 429 and "Retry-After" in limited.headers
    assert PASSWORD not in limited.get_data(as_text=True)
    # An API client's password is counted against the same limit.
    api = client.post("/api/players/merges", json={}, headers=basic(PASSWORD))
    assert api.status_code == 429
    still_clock.now += 3600
    assert sign_in(client).status_code == 303


def test_a_wrong_api_password_is_counted_too(app_with, still_clock):
    app = app_with(ORGANISER_PASSWORD=HASH, RATELIMIT_ORGANISER_SIGN_INS="2 per hour")
    client = app.test_client()
    for _ in range(2):
        answer = client.delete("/api/rulesets/1", headers=basic("guess"))
        assert answer.status_code == 403
    assert client.delete("/api/rulesets/1", headers=basic("guess")).status_code == 429
    assert sign_in(client, "guess").status_code == 429


def test_the_password_is_never_logged_nor_written_back(app_with, caplog, still_clock):
    app = app_with(ORGANISER_PASSWORD=HASH, RATELIMIT_ORGANISER_SIGN_INS="2 per hour")
    client = app.test_client()
    wrong = "the Wrong one 99"
    pages = []
    with caplog.at_level(logging.DEBUG):
        for password in (wrong, wrong, wrong, PASSWORD):
            pages.append(sign_in(client, password).get_data(as_text=True))
        pages.append(client.post("/api/players/merges", json={}, headers=basic(wrong)).data)
    said = caplog.text + "".join(str(page) for page in pages)
    assert wrong not in said and PASSWORD not in said
    assert base64.b64encode(f"organiser:{wrong}".encode()).decode() not in said


def test_the_session_keeps_no_password_and_ends_after_its_hours(app_with, monkeypatch):
    app = app_with(ORGANISER_PASSWORD=HASH, ORGANISER_SESSION_HOURS=2)
    client = app.test_client()
    clock = types.SimpleNamespace(now=1_900_000_000.0)
    clock.time = lambda: clock.now
    monkeypatch.setattr(scorekeeper.platform.organisers, "time", clock)
    assert sign_in(client).status_code == 303
    with client.session_transaction() as held:
        mark = held[MARK]
    assert mark["since"] == 1_900_000_000
    assert PASSWORD not in str(mark) and HASH not in str(mark)
    assert client.get("/rulesets/1/delete").status_code == 404  # an organiser's: no such set
    clock.now += 2 * 3600 - 1
    assert client.get("/rulesets/1/delete").status_code == 404
    clock.now += 1
    assert client.get("/rulesets/1/delete").status_code == 403
    assert client.delete("/api/rulesets/1").status_code == 403


def test_sign_out_ends_the_sign_in(club_client):
    assert sign_in(club_client).status_code == 303
    page = club_client.get("/organiser/sign-in?next=/players/").get_data(as_text=True)
    assert "signed in as an organiser until" in page and 'id="sign-out-form"' in page
    out = club_client.post("/organiser/sign-out", data={"next": "/players/"})
    assert out.status_code == 303 and out.headers["Location"] == "/players/"
    assert club_client.get("/rulesets/1/delete").status_code == 403
    assert club_client.get("/organiser/sign-out").status_code == 405


def test_a_changed_password_ends_every_sign_in(club_app, club_client):
    other = club_app.test_client()
    assert sign_in(club_client).status_code == 303
    assert sign_in(other).status_code == 303
    assert club_client.get("/rulesets/1/delete").status_code == 404
    club_app.config["ORGANISER_PASSWORD"] = OTHER_HASH
    assert club_client.get("/rulesets/1/delete").status_code == 403
    assert other.get("/rulesets/1/delete").status_code == 403
    assert sign_in(club_client).status_code == 200  # the old password no longer signs in


def test_the_sign_in_is_csrf_protected(app_with):
    app = app_with(ORGANISER_PASSWORD=HASH, WTF_CSRF_ENABLED=True)
    client = app.test_client()
    forged = sign_in(client)
    assert forged.status_code == 400
    with client.session_transaction() as held:
        assert MARK not in held
    assert client.post("/organiser/sign-out").status_code == 400


# --- The setting ------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["hunter2 club", "$2b$12$notargon2", "$argon2id$broken"])
def test_a_password_in_clear_is_refused_at_start_without_repeating_it(tmp_path, value):
    with pytest.raises(ValueError) as refused:
        create_app({**TEST_CONFIG, "ORGANISER_PASSWORD": value}, instance_path=str(tmp_path))
    assert "must be the argon2 hash" in str(refused.value)
    assert value not in str(refused.value)


@pytest.mark.parametrize("hours", [0, -1, "twelve", float("inf")])
def test_session_hours_must_be_a_number_above_zero(tmp_path, hours):
    config = {**TEST_CONFIG, "ORGANISER_PASSWORD": HASH, "ORGANISER_SESSION_HOURS": hours}
    with pytest.raises(ValueError, match="ORGANISER_SESSION_HOURS"):
        create_app(config, instance_path=str(tmp_path))


def test_the_command_prints_a_hash_that_signs_in(app_with):
    app = app_with()
    result = app.test_cli_runner().invoke(args=["organiser-password"], input=PASSWORD + "\n")
    assert result.exit_code == 0, result.output
    made = result.stdout.strip().splitlines()[0]
    assert made.startswith("$argon2id$") and PASSWORD not in result.output
    client = app_with(ORGANISER_PASSWORD=made).test_client()
    assert sign_in(client).status_code == 303
    short = app.test_cli_runner().invoke(args=["organiser-password"], input="short\n")
    assert short.exit_code != 0 and "at least 8 characters" in short.output


# --- A family that sets nothing sees nothing change -------------------------------------------


@pytest.mark.parametrize("name", sorted(GUARDED_API))
def test_without_the_setting_the_api_is_as_before(app, client, name):
    act, allowed = GUARDED_API[name]
    answer = act(client, evening(app, client), {})
    assert answer.status_code == allowed, answer.get_json()


@pytest.mark.parametrize("name", sorted(GUARDED_PAGES))
def test_without_the_setting_the_pages_are_as_before(app, client, name):
    act, allowed = GUARDED_PAGES[name]
    assert act(client, evening(app, client), {}).status_code == allowed


def test_without_the_setting_there_is_no_sign_in(client):
    assert client.get("/organiser/sign-in").status_code == 404
    assert client.post("/organiser/sign-in", data={"password": PASSWORD}).status_code == 404
    assert "organiser" not in client.get("/").get_data(as_text=True).lower()
