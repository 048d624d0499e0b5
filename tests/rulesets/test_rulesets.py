"""The table's saved rule sets: kept under a name, listed, renamed, changed and deleted through
the service and `/api/rulesets`, validated as games are, and started from by `POST /api/games`
with `"ruleset"` — a game keeping its own copy whatever happens to the saved one later."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.games import errors
from scorekeeper.games.models import Game, utcnow
from scorekeeper.platform import writeonce
from scorekeeper.platform.database import db
from scorekeeper.rules.ruleset import LIVERPOOL, NAME_MAX, PRESETS, SHANGHAI, RuleSet
from scorekeeper.rulesets import service as rulesets
from scorekeeper.rulesets.models import SavedRuleSet
from tests.support.names import NAMES
from tests.support.saved import SMITH, save_ruleset, smith_document

FIELDS = {"id", "name", "summary", "rules", "created_at", "updated_at", "used_at"}


def rows(app) -> list[tuple[str, str]]:
    with app.app_context():
        found = db.session.scalars(db.select(SavedRuleSet).order_by(SavedRuleSet.id))
        return [(row.name, row.rules["name"]) for row in found]


def listed(client) -> list[str]:
    answer = client.get("/api/rulesets")
    assert answer.status_code == 200
    return [saved["name"] for saved in answer.get_json()["rulesets"]]


# --- The service -----------------------------------------------------------------------------


def test_a_saved_rule_set_keeps_its_name_cleaned_in_its_own_document(app):
    with app.app_context():
        row = rulesets.save(RuleSet.parse(smith_document("ignored")), "  Smith \u00a0 family ")
        db.session.commit()
        assert row.name == SMITH == row.rules["name"] == row.rule_set.name
        assert row.rule_set == RuleSet.parse(smith_document())
        assert row.used_at is None and row.created_at == row.updated_at
        # Unnamed, it takes the document's own name.
        assert rulesets.save(LIVERPOOL.renamed("Jones rules")).name == "Jones rules"


@pytest.mark.parametrize(
    "name",
    [
        "Shanghai",
        "shanghai",
        "SHANGHAI",
        "Ｓｈａｎｇｈａｉ",
        "\u0405hanghai",
        " liverpool ",
        "Online",
    ],
    ids=ascii,
)
def test_a_presets_name_is_refused_in_any_case_or_look(app, name):
    with app.app_context(), pytest.raises(errors.NameRefused) as refused:
        rulesets.save(SHANGHAI, name)
    assert refused.value.status == 400
    assert refused.value.message.endswith(
        'is a preset: give your table\'s rules a name of their own, like "Smith family"'
    )
    assert refused.value.rule_problems == {"name": refused.value.message}


def test_a_preset_saved_without_a_name_of_its_own_is_refused_by_the_presets_name(app):
    with app.app_context(), pytest.raises(errors.NameRefused, match=r"^Shanghai is a preset"):
        rulesets.save(SHANGHAI)
    assert rows(app) == []


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("", "give your table's rules a name"),
        ("   ", "give your table's rules a name"),
        ("x" * (NAME_MAX + 1), f"at most {NAME_MAX} characters"),
        ("Smith\x07", "control character"),
        ("Smith\u202efamily", "reverses the text"),
        ("Smith\u200bfamily", "invisible character"),
    ],
    ids=ascii,
)
def test_a_name_that_cannot_show_as_written_is_refused(app, name, says):
    with app.app_context(), pytest.raises(errors.NameRefused, match=says):
        rulesets.save(LIVERPOOL, name)
    assert rows(app) == []


def test_a_name_of_the_longest_length_is_kept(app):
    with app.app_context():
        assert rulesets.save(LIVERPOOL, "é" * NAME_MAX).name == "é" * NAME_MAX


@pytest.mark.parametrize("other", ["Smith family", "SMITH FAMILY", "smith  Family", "Smіth family"])
def test_a_name_already_saved_in_any_case_or_look_is_a_conflict_naming_it(app, other):
    with app.app_context():
        rulesets.save(LIVERPOOL, SMITH)
        db.session.commit()
        with pytest.raises(errors.Conflict) as conflict:
            rulesets.save(SHANGHAI, other)
    assert conflict.value.status == 409
    assert '"Smith family"' in conflict.value.message and "already saved" in conflict.value.message
    assert rows(app) == [(SMITH, SMITH)]


def test_the_most_recently_used_or_changed_comes_first(app):
    with app.app_context():
        old, mid, new = (rulesets.save(LIVERPOOL, name) for name in ("Old", "Mid", "New"))
        for age, row in enumerate((new, mid, old), start=1):
            row.updated_at = row.created_at = utcnow() - timedelta(days=age)
        db.session.commit()
        assert [row.name for row in rulesets.saved()] == ["New", "Mid", "Old"]
        rulesets.mark_used(old.id)
        db.session.commit()
        assert [row.name for row in rulesets.saved()] == ["Old", "New", "Mid"]
        rulesets.change(mid.id, name="Mid renamed")
        db.session.commit()
        assert [row.name for row in rulesets.saved()] == ["Mid renamed", "Old", "New"]


def test_a_rename_may_change_its_own_case_but_not_take_anothers_name(app):
    with app.app_context():
        smith = rulesets.save(LIVERPOOL, SMITH)
        jones = rulesets.save(LIVERPOOL, "Jones")
        db.session.commit()
        assert rulesets.change(smith.id, name="SMITH FAMILY").rules["name"] == "SMITH FAMILY"
        db.session.commit()
        with pytest.raises(errors.Conflict, match='"SMITH FAMILY"'):
            rulesets.change(jones.id, name="Smith family")
        with pytest.raises(errors.NameRefused, match="Family is a preset"):
            rulesets.change(jones.id, name="family")
    assert rows(app) == [("SMITH FAMILY", "SMITH FAMILY"), ("Jones", "Jones")]


def test_changed_rules_keep_the_saved_name_whatever_the_document_says(app):
    with app.app_context():
        row = rulesets.save(LIVERPOOL, SMITH)
        rulesets.change(row.id, rules=SHANGHAI)
        assert row.rule_set == SHANGHAI.renamed(SMITH)
        assert row.name == row.rules["name"] == SMITH


def test_a_saved_rule_set_is_found_by_any_look_alike_spelling(app):
    with app.app_context():
        row = rulesets.save(LIVERPOOL, "Zoë's rules")
        assert rulesets.named("Zoë's rules") is row
        assert rulesets.named("ZOE'S RULES") is row
        with pytest.raises(errors.NoSuchRuleSet, match="no saved rule set is named 'Bob'"):
            rulesets.named("Bob")


def test_an_unknown_id_is_404_for_every_call(app):
    with app.app_context():
        for call in (rulesets.get, rulesets.delete):
            with pytest.raises(errors.NoSuchRuleSet) as missing:
                call(99)
            assert missing.value.status == 404
        with pytest.raises(errors.NoSuchRuleSet):
            rulesets.change(99, name="x")


def deleted_meanwhile(row: SavedRuleSet) -> None:
    """Another tablet deletes the row after this one read it (it stays in this session)."""
    db.session.execute(db.text("DELETE FROM saved_rule_sets WHERE id = :id"), {"id": row.id})


def test_a_rule_set_deleted_meanwhile_is_404_to_a_change_and_a_second_delete(app):
    with app.app_context():
        row = rulesets.save(LIVERPOOL, SMITH)
        db.session.commit()
        deleted_meanwhile(row)
        with pytest.raises(errors.NoSuchRuleSet, match=f"saved rule set {row.id} does not exist"):
            rulesets.change(row.id, name="Smiths")
        db.session.commit()
        jones = rulesets.save(LIVERPOOL, "Jones")
        db.session.commit()
        deleted_meanwhile(jones)
        with pytest.raises(errors.NoSuchRuleSet):
            rulesets.delete(jones.id)


def test_a_game_from_a_rule_set_deleted_meanwhile_keeps_its_copy(app):
    with app.app_context():
        row = rulesets.save(LIVERPOOL, SMITH)
        db.session.commit()
        deleted_meanwhile(row)
        rulesets.mark_used(row.id)  # the game started from it is not refused for that
        db.session.commit()
        assert rulesets.saved() == []


# --- The API ---------------------------------------------------------------------------------


def test_the_api_saves_lists_reads_changes_and_deletes(client):
    saved = save_ruleset(client)
    assert set(saved) == FIELDS
    assert saved["name"] == SMITH and saved["rules"] == RuleSet.parse(smith_document()).to_json()
    assert saved["summary"] == "Smith family · 8 deals · 4 players · buying: 3 a game"
    assert saved["used_at"] is None and saved["created_at"].endswith("Z")
    answer = client.get(f"/api/rulesets/{saved['id']}")
    assert answer.status_code == 200 and answer.get_json() == saved
    assert client.get("/api/rulesets").get_json() == {"rulesets": [saved]}

    renamed = client.put(f"/api/rulesets/{saved['id']}", json={"name": "Smiths"})
    assert renamed.status_code == 200, renamed.get_json()
    assert renamed.get_json()["rules"] == saved["rules"] | {"name": "Smiths"}
    changed = client.put(f"/api/rulesets/{saved['id']}", json={"rules": "shanghai"})
    assert changed.get_json()["rules"] == SHANGHAI.renamed("Smiths").to_json()
    both = client.put(
        f"/api/rulesets/{saved['id']}", json={"rules": smith_document("Ignored"), "name": "S"}
    )
    assert both.get_json()["rules"] == saved["rules"] | {"name": "S"}

    assert client.delete(f"/api/rulesets/{saved['id']}").status_code == 204
    gone = client.get(f"/api/rulesets/{saved['id']}")
    assert gone.status_code == 404 and "does not exist" in gone.get_json()["error"]
    assert listed(client) == []


def test_the_answer_has_the_location_of_the_saved_rule_set(client):
    answer = client.post("/api/rulesets", json={"rules": "family", "name": "Nana's"})
    assert answer.status_code == 201
    assert answer.headers["Location"] == f"/api/rulesets/{answer.get_json()['id']}"
    assert client.get(answer.headers["Location"]).get_json()["name"] == "Nana's"


def test_a_bad_document_is_refused_naming_every_problem_as_for_a_game(client):
    document = smith_document()
    document["values"]["JK"] = 500
    document["deals"][4]["cards"] = 2
    document["house_special"] = True
    answer = client.post("/api/rulesets", json={"rules": document, "name": ""})
    assert answer.status_code == 400
    body = answer.get_json()
    game = client.post("/api/games", json={"players": NAMES, "rules": document}).get_json()
    assert body["error"] == game["error"]
    assert body["problems"] == game["problems"] | {
        "name": 'give your table\'s rules a name, like "Smith family"'
    }
    assert {"rules.values.JK", "rules.house_special"} <= set(body["problems"])
    assert any(place.startswith("rules.deals[4]") for place in body["problems"])
    assert listed(client) == []


@pytest.mark.parametrize(
    ("body", "status", "says"),
    [
        ({}, 400, "'rules' is missing"),
        ({"rules": None}, 400, "'rules' is missing"),
        ({"rules": "vegas", "name": "V"}, 400, "unknown rule set 'vegas'"),
        ({"rules": "shanghai"}, 400, "Shanghai is a preset"),
        ({"rules": "shanghai", "name": 7}, 400, "'name' must be text"),
        ({"rules": "shanghai", "nmae": "Smith"}, 400, "unknown field 'nmae'"),
        ({"rules": "shanghai", "name": "x" * 41}, 400, "at most 40 characters"),
    ],
    ids=repr,
)
def test_a_request_that_cannot_be_saved_is_refused_saying_why(client, body, status, says):
    answer = client.post("/api/rulesets", json=body)
    assert answer.status_code == status, answer.get_json()
    assert says in answer.get_json()["error"]
    assert listed(client) == []


def test_a_taken_name_is_409_naming_it(client):
    save_ruleset(client)
    answer = client.post("/api/rulesets", json={"rules": "shanghai", "name": "SMITH FAMILY"})
    assert answer.status_code == 409
    assert (
        '"SMITH FAMILY" looks like "Smith family", which is already saved'
        in answer.get_json()["error"]
    )
    other = save_ruleset(client, "online", "Jones")
    answer = client.put(f"/api/rulesets/{other['id']}", json={"name": "smith family"})
    assert answer.status_code == 409
    assert listed(client) == ["Jones", SMITH]


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({}, "send 'name' (to rename it), 'rules' (to change them), or both"),
        ({"name": None, "rules": None}, "send 'name'"),
        ({"name": "Shanghai"}, "Shanghai is a preset"),
        ({"rules": {"cut_bonus": 5}}, "rule set cannot be used"),
        ({"colour": "red"}, "unknown field 'colour'"),
    ],
    ids=repr,
)
def test_a_change_that_cannot_be_made_changes_nothing(client, body, says):
    saved = save_ruleset(client)
    answer = client.put(f"/api/rulesets/{saved['id']}", json=body)
    assert answer.status_code == 400 and says in answer.get_json()["error"]
    assert client.get(f"/api/rulesets/{saved['id']}").get_json() == saved


def test_unknown_rule_sets_are_404_on_every_route(client):
    assert client.get("/api/rulesets/9").status_code == 404
    assert client.put("/api/rulesets/9", json={"name": "x"}).status_code == 404
    assert client.delete("/api/rulesets/9").status_code == 404


# --- Write once ------------------------------------------------------------------------------


def test_a_repeated_save_answers_the_first_answer_and_saves_once(client, app):
    headers = {"Idempotency-Key": "save-1"}
    body = {"rules": smith_document()}
    first, second = (client.post("/api/rulesets", json=body, headers=headers) for _ in range(2))
    assert (first.status_code, second.status_code) == (201, 201)
    assert second.get_json() == first.get_json()
    assert second.headers["Location"] == first.headers["Location"]
    assert (first.headers.get("Idempotent-Replayed"), second.headers["Idempotent-Replayed"]) == (
        None,
        "true",
    )
    assert rows(app) == [(SMITH, SMITH)]
    other = client.post("/api/rulesets", json={"rules": "online", "name": "X"}, headers=headers)
    assert other.status_code == 422 and rows(app) == [(SMITH, SMITH)]


@pytest.mark.parametrize(
    ("method", "body", "status"),
    [("PUT", {"name": "Smiths"}, 200), ("DELETE", None, 204)],
)
def test_a_repeated_change_or_delete_answers_the_first_answer(client, app, method, body, status):
    saved = save_ruleset(client)
    path, headers = f"/api/rulesets/{saved['id']}", {"Idempotency-Key": "k-1"}
    answers = [client.open(path, method=method, json=body, headers=headers) for _ in range(3)]
    assert [a.status_code for a in answers] == [status] * 3
    assert len({a.get_data() for a in answers}) == 1
    assert [a.headers.get("Idempotent-Replayed") for a in answers] == [None, "true", "true"]
    assert rows(app) == ([("Smiths", "Smiths")] if method == "PUT" else [])


def test_a_key_used_for_a_game_is_a_new_key_for_a_rule_set(client, app):
    """The rule sets' writes are keyed apart from the games': the same Idempotency-Key starts a
    game and saves a rule set, neither taken for a repeat of the other."""
    headers = {"Idempotency-Key": "same"}
    game = client.post("/api/games", json={"players": NAMES}, headers=headers)
    saved = client.post("/api/rulesets", json={"rules": "online", "name": "Ours"}, headers=headers)
    assert (game.status_code, saved.status_code) == (201, 201), saved.get_json()
    assert "Idempotent-Replayed" not in saved.headers
    one = saved.get_json()["id"]
    other = save_ruleset(client, "family", "Theirs")["id"]
    for ruleset_id in (one, other):  # and one key per rule set, like one per game
        answer = client.put(
            f"/api/rulesets/{ruleset_id}", json={"rules": "contract"}, headers=headers
        )
        assert answer.status_code == 200 and "Idempotent-Replayed" not in answer.headers
    with app.app_context():
        scopes = db.session.scalars(db.text("SELECT scope FROM write_once ORDER BY id")).all()
    assert scopes == [
        "api new game",
        "api new rule set",
        f"api rule set {one}",
        f"api rule set {other}",
    ]


# --- Games started from a saved rule set -------------------------------------------------------


def test_a_game_started_from_a_saved_rule_set_copies_it_and_keeps_its_copy(client, app):
    saved = save_ruleset(client)
    save_ruleset(client, "online", "Jones")
    answer = client.post("/api/games", json={"players": NAMES, "ruleset": saved["id"]})
    assert answer.status_code == 201, answer.get_json()
    game = answer.get_json()
    assert game["rules"] == saved["rules"] and game["profile"] is None
    used = client.get(f"/api/rulesets/{saved['id']}").get_json()
    assert used["used_at"] is not None
    assert listed(client) == [SMITH, "Jones"]  # the one just played first
    # Changing or deleting the saved rule set never changes the game.
    client.put(f"/api/rulesets/{saved['id']}", json={"rules": "shanghai"})
    client.delete(f"/api/rulesets/{saved['id']}")
    assert client.get(f"/api/games/{game['id']}").get_json()["rules"] == saved["rules"]
    with app.app_context():
        assert db.session.get(Game, game["id"]).rule_set == RuleSet.parse(smith_document())


@pytest.mark.parametrize(
    ("body", "says", "problem"),
    [
        ({"ruleset": 1, "rules": "shanghai"}, "give the rules once", None),
        ({"ruleset": 1, "profile": "shanghai"}, "give the rules once", None),
        ({"ruleset": 99}, "saved rule set 99 does not exist", "ruleset"),
        ({"ruleset": True}, "'ruleset' must be a whole number", None),
        ({"ruleset": "1"}, "'ruleset' must be a whole number", None),
    ],
    ids=repr,
)
def test_a_game_from_a_saved_rule_set_that_cannot_be_is_a_400(client, body, says, problem):
    save_ruleset(client)
    answer = client.post("/api/games", json={"players": NAMES} | body)
    assert answer.status_code == 400
    assert says in answer.get_json()["error"]
    if problem:
        assert problem in answer.get_json()["problems"]
    assert client.get("/api/games").get_json()["games"] == []
    assert client.get("/api/rulesets").get_json()["rulesets"][0]["used_at"] is None


def test_a_game_refused_by_its_saved_rules_does_not_mark_them_used(client):
    saved = save_ruleset(client)  # 4 players exactly
    answer = client.post("/api/games", json={"players": NAMES[:3], "ruleset": saved["id"]})
    assert answer.status_code == 400
    assert client.get(f"/api/rulesets/{saved['id']}").get_json()["used_at"] is None


def test_every_preset_can_be_saved_under_a_name_of_its_own(client):
    for key, rules in PRESETS.items():
        saved = save_ruleset(client, key, f"Our {key}")
        assert RuleSet.parse(saved["rules"]) == rules.renamed(f"Our {key}")


# --- Hostile input ---------------------------------------------------------------------------

HOSTILE = settings(
    max_examples=150,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
SCALARS = st.none() | st.booleans() | st.integers(-(10**20), 10**20) | st.text(max_size=50)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@st.composite
def mutated_presets(draw) -> dict:
    """A preset's document with one key or one deal's key replaced by anything."""
    document = draw(st.sampled_from(list(PRESETS.values()))).to_json()
    key = draw(st.sampled_from([*document, "deals[]", "junk"]))
    if key == "deals[]":
        deal = draw(st.integers(0, len(document["deals"]) - 1))
        document["deals"][deal][draw(st.sampled_from(["cards", "contract", "whole_hand"]))] = draw(
            VALUES
        )
    else:
        document[key] = draw(VALUES)
    return document


NAME_TEXT = st.text(st.characters(categories=["L", "N", "Zs", "So"]), min_size=1, max_size=42)
ODD_NAMES = st.sampled_from([SMITH, "SMITH FAMILY", "Shanghai", "Ｏｎｌｉｎｅ", "é" * 41])


@st.composite
def bodies(draw) -> dict:
    """Mostly a preset or a changed one under a name of plain text, so that saves and changes
    happen as often as refusals; then anything."""
    kind = draw(st.integers(0, 9))
    rules = [
        st.sampled_from([*PRESETS, "vegas"]),
        mutated_presets(),
        VALUES,
    ][(kind > 3) + (kind > 6)]
    body = {"rules": draw(rules), "name": draw(NAME_TEXT if kind % 3 else ODD_NAMES | SCALARS)}
    if kind == 9:  # now and then one left out, or both
        for field in draw(st.sets(st.sampled_from(["rules", "name"]), max_size=2)):
            del body[field]
    return body


def stored(app) -> list[tuple]:
    with app.app_context():
        found = db.session.scalars(db.select(SavedRuleSet).order_by(SavedRuleSet.id))
        return [(row.id, row.name, row.name_key, json.dumps(row.rules)) for row in found]


@HOSTILE
@given(method=st.sampled_from(["POST", "PUT"]), body=bodies())
def test_any_request_is_saved_or_refused_with_a_reason_and_changes_nothing_then(
    client, app, method, body
):
    before = stored(app)
    path = "/api/rulesets" if method == "POST" else f"/api/rulesets/{before[0][0] if before else 1}"
    answer = client.open(path, method=method, json=body)
    assert answer.status_code in {200, 201, 400, 404, 409}, answer.get_data()[:300]
    data = answer.get_json()
    after = stored(app)
    if answer.status_code >= 400:
        assert isinstance(data["error"], str) and data["error"].strip()
        assert after == before
        return
    assert set(data) == FIELDS and data["rules"]["name"] == data["name"]
    assert RuleSet.parse(data["rules"]).to_json() == data["rules"]
    assert len(after) == len(before) + (method == "POST")
    with app.app_context():
        assert rulesets.check_name(data["name"], keep=rulesets.get(data["id"])) == data["name"]


@pytest.mark.parametrize(
    ("method", "path", "args", "scope"),
    [
        ("POST", "/rulesets/new", {}, "page new rule set"),
        ("POST", "/rulesets/shared/abc", {"code": "abc"}, "page new rule set"),
        ("POST", "/rulesets/3/edit", {"ruleset_id": 3}, "page rule set 3"),
        ("POST", "/games/new", {}, "page new game"),
        ("POST", "/games/4/rounds/new", {"game_id": 4}, "page game 4"),
        ("POST", "/api/rulesets", {}, "api new rule set"),
        ("PUT", "/api/rulesets/5", {"ruleset_id": 5}, "api rule set 5"),
        ("DELETE", "/api/rulesets/5", {"ruleset_id": 5}, "api rule set 5"),
        ("POST", "/api/games", {}, "api new game"),
        ("POST", "/players/merges/new", {}, "page new player merge"),
        ("DELETE", "/api/players/merges/2", {"merge_id": 2}, "api player merge 2"),
        ("POST", "/join/k7qx", {"code": "k7qx"}, "page round code K7QX"),
        ("PUT", "/api/join/k7qx/hand", {"code": "k7qx"}, "api round code K7QX"),
    ],
)
def test_the_pages_and_the_api_key_each_features_writes_apart(app, method, path, args, scope):
    """Each route's scope comes from the feature that owns it: a key used for a game never
    answers a write to a rule set, a merge or a phone's round."""
    token = "t" * 22
    headers = {"Idempotency-Key": token}
    with app.test_request_context(
        path, method=method, data={"write_token": token}, headers=headers
    ):
        assert writeonce._ticket(args).scope == scope
