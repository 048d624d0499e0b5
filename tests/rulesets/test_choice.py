"""Which rule set a request means (`rulesets.choice`): the same value read the same way by the
referee's pages, the referee's API, the new game page and the score book's API, and a damaged
share code refused with the same problem by each."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from scorekeeper.games.errors import NoSuchGame, NoSuchRuleSet
from scorekeeper.rules import RuleSet, RuleSetError, sharing
from scorekeeper.rules.ruleset import CARIOCA, CONTINENTAL
from scorekeeper.rulesets import choice
from tests.support.book import new_game
from tests.support.saved import save_ruleset, smith_document

DAMAGED = "the share code is damaged: copy the whole link again"
TABLE = ["Ann", "Bob", "Cy", "Di"]


@pytest.fixture
def named(client):
    """The values each surface is given, by what they name: a preset, the table's saved rule
    set (as a picker's value and by its id), a shared rule set, and a damaged code."""
    saved = save_ruleset(client)["id"]
    code = sharing.code(RuleSet.parse(smith_document("Jones family")))
    return {"saved": saved, "code": code}


def selected(html: str, name: str) -> str:
    """The label of the option selected in the select called `name`."""
    select = re.search(rf'<select[^>]*name="{name}"[^>]*>(.*?)</select>', html, re.S)
    assert select is not None, name
    option = re.search(r"<option[^>]*\bselected\b[^>]*>([^<]*)", select.group(1))
    assert option is not None, name
    return unescape(option.group(1))


def on_reference_page(client, query: dict) -> str:
    answer = client.get("/rules/reference", query_string=query)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    heading = re.search(r"<h1>(.*?)</h1>", answer.get_data(as_text=True), re.S)
    return unescape(heading.group(1))


def on_check_page(client, query: dict) -> str:
    answer = client.get("/rules", query_string={"q": "meld", **query})
    assert answer.status_code == 200
    return selected(answer.get_data(as_text=True), "rules")


def by_referee_api(client, body: dict) -> str:
    answer = client.post("/api/rules/meld", json={"round": 1, "cards": "7S 7H 7D", **body})
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()["rule_set"]["name"]


def on_new_game_page(client, query: dict) -> str:
    answer = client.get("/games/new", query_string=query)
    assert answer.status_code == 200
    return selected(answer.get_data(as_text=True), "profile")


def by_games_api(client, body: dict) -> str:
    answer = client.post("/api/games", json={"players": TABLE, **body})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()["rules"]["name"]


def test_a_presets_key_means_the_preset_everywhere(client, named):
    assert on_reference_page(client, {"rules": "shanghai"}) == "The rules: Shanghai rules"
    assert on_check_page(client, {"rules": "shanghai"}) == "Shanghai"
    assert by_referee_api(client, {"rules": "shanghai"}) == "Shanghai"
    assert on_new_game_page(client, {"rules": "shanghai"}).startswith("Shanghai: ")
    assert by_games_api(client, {"rules": "shanghai"}) == "Shanghai"


@pytest.mark.parametrize("as_value", [True, False], ids=["ruleset:<id>", "its id"])
def test_a_saved_rule_set_means_it_everywhere(client, named, as_value):
    saved = named["saved"]
    asked = {"rules": f"ruleset:{saved}"} if as_value else {"ruleset": saved}
    assert on_reference_page(client, asked) == "The rules: Smith family rules"
    assert on_check_page(client, asked) == "Smith family (our table's rules)"
    assert by_referee_api(client, asked) == "Smith family"
    assert on_new_game_page(client, asked) == "Smith family (ours): 4 players"
    assert by_games_api(client, asked) == "Smith family"


def test_a_game_started_from_a_saved_rule_sets_value_marks_it_used(client, named):
    value = f"ruleset:{named['saved']}"
    assert client.get("/api/rulesets").get_json()["rulesets"][0]["used_at"] is None
    by_games_api(client, {"rules": value})
    assert client.get("/api/rulesets").get_json()["rulesets"][0]["used_at"] is not None


def test_a_share_code_means_the_shared_rules_everywhere(client, named):
    code = named["code"]
    value = f"code:{code}"
    assert on_reference_page(client, {"code": code}) == "The rules: Jones family rules"
    assert on_reference_page(client, {"rules": value}) == "The rules: Jones family rules"
    assert on_check_page(client, {"code": code}) == "Jones family (shared)"
    assert on_check_page(client, {"rules": value}) == "Jones family (shared)"
    assert by_referee_api(client, {"rules": value}) == "Jones family"
    shared = "Shared: Jones family: 4 players"
    assert on_new_game_page(client, {"rules": code}) == shared  # a share link's address
    assert on_new_game_page(client, {"rules": value}) == shared
    assert by_games_api(client, {"rules": value}) == "Jones family"


def test_a_question_asked_from_the_check_page_under_shared_rules_is_answered_under_them(
    client, named
):
    value = f"code:{named['code']}"
    answer = client.post(
        f"/rules?q=meld&rules={value}",
        data={"rules": value, "round": "1", "players": "4", "cards": "7S 7H 7D"},
    )
    assert answer.status_code == 200
    assert "Jones family" in answer.get_data(as_text=True)


def test_a_damaged_code_is_refused_naming_the_problem_everywhere(client):
    for query in ({"code": "bad!"}, {"rules": "code:bad!"}):
        for address in ("/rules/reference", "/rules"):
            page = client.get(address, query_string=query)
            assert page.status_code == 400, (address, query)
            assert DAMAGED in page.get_data(as_text=True).lower()
    page = client.get("/games/new", query_string={"rules": "code:bad!"})
    assert page.status_code == 400
    assert DAMAGED in page.get_data(as_text=True).lower()
    for api, body in (("/api/rules/meld", {"round": 1, "cards": "7S"}), ("/api/games", {})):
        answer = client.post(api, json={"players": TABLE, "rules": "code:bad!", **body})
        assert answer.status_code == 400, api
        assert answer.get_json()["error"] == DAMAGED
        assert DAMAGED in answer.get_json()["problems"].values()


@pytest.mark.parametrize(
    "query,status",
    [
        ("rules=bogus", 400),
        ("code=damaged!", 400),
        ("ruleset=9", 404),
        ("ruleset=x", 400),
        ("game=9", 404),
        ("game=1&rules=shanghai", 400),
        ("rules=ruleset:9", 404),
        ("rules=game:9", 404),
        ("rules=ruleset:x", 400),
    ],
)
def test_the_reference_refuses_an_address_it_cannot_read(client, query, status):
    assert client.get(f"/rules/reference?{query}").status_code == status


def test_a_bare_damaged_code_on_the_new_game_page_is_ignored(client):
    """A share link's `?rules=` that is not a code (cut short, a word) opens the page as usual."""
    page = client.get("/games/new", query_string={"rules": "damaged"})
    assert page.status_code == 200
    assert selected(page.get_data(as_text=True), "profile").startswith("Liverpool: ")


def test_values_a_page_does_not_know_are_ignored_there(client, named):
    gone = f"ruleset:{named['saved'] + 1}"
    for value in ("nonsense", gone, "game:99"):
        assert on_new_game_page(client, {"rules": value}).startswith("Liverpool: ")
        assert on_check_page(client, {"rules": value}) == "Liverpool"


def test_a_saved_rule_set_or_game_not_there_is_not_found_by_the_referees_api(client, named):
    gone = f"ruleset:{named['saved'] + 1}"
    for value in (gone, "game:99"):
        answer = client.post("/api/rules/meld", json={"rules": value, "round": 1, "cards": "7S"})
        assert answer.status_code == 404, value
    answer = client.post("/api/games", json={"players": TABLE, "rules": gone})
    assert answer.status_code == 400
    assert answer.get_json()["problems"] == {
        "rules": f"saved rule set {named['saved'] + 1} does not exist: GET /api/rulesets "
        "lists the saved ones"
    }


def test_a_games_value_means_its_rules(client):
    game = new_game(client, TABLE, "shanghai")
    assert by_referee_api(client, {"rules": f"game:{game.id}"}) == "Shanghai"
    assert by_games_api(client, {"rules": f"game:{game.id}"}) == "Shanghai"
    assert on_reference_page(client, {"game": game.id}) == "The rules: Shanghai rules"
    answer = client.post("/api/games", json={"players": TABLE, "rules": "game:99"})
    assert (answer.status_code, answer.get_json()["error"]) == (404, "game 99 does not exist")


def test_named_reads_each_kind_of_value(app, client, named):
    code = named["code"]
    with app.test_request_context():
        assert choice.named("shanghai").rules.name == "Shanghai"
        assert choice.named("shanghai").query() == {"rules": "shanghai"}
        saved = choice.named(f"ruleset:{named['saved']}")
        assert (saved.saved, saved.value, saved.label) == (
            named["saved"],
            f"ruleset:{named['saved']}",
            "Smith family (ours): 4 players",
        )
        assert saved.query() == {"ruleset": named["saved"]}
        shared = choice.named(f"code:{code}")
        assert (shared.code, shared.rules.name, shared.group) == (code, "Jones family", "Shared")
        assert shared.query() == {"code": code}
        assert choice.named("Shanghai") is None  # a name, not a picker's value
        assert choice.named("ruleset:x") is None
        with pytest.raises(NoSuchRuleSet):
            choice.named(f"ruleset:{named['saved'] + 1}")
        with pytest.raises(NoSuchGame):
            choice.named("game:99")
        with pytest.raises(RuleSetError, match="damaged"):
            choice.named("code:bad!")
        assert choice.shared_or_none("bad!") is None
        assert choice.shared_or_none(code).rules.name == "Jones family"


@pytest.mark.parametrize("rules", [CARIOCA, CONTINENTAL], ids=["carioca", "continental"])
def test_r12s_presets_are_played_everywhere_as_a_document_a_code_or_a_link(client, rules):
    """R12's presets, sent as a document, a share code or a link, are a table's rules on every
    surface: the referee judges a run round the ace by them, and a game starts under them."""
    document, code = rules.to_json(), sharing.code(rules)
    for sent in (document, json.dumps(document), f"code:{code}"):
        body = {"players": len(TABLE), "rules": sent, "cards": "Q♦ K♦ A♦ 2♦"}
        answer = client.post("/api/rules/meld", json=body)
        assert answer.status_code == 200 and answer.get_json()["legal"], answer.get_json()
        assert answer.get_json()["rule"] == "R11"
    for address in ("/rules/reference", "/rules", "/games/new"):
        page = client.get(address, query_string={"rules": f"code:{code}"})
        assert page.status_code == 200, address
