"""The saved rule sets' pages through the test client: the list, a rule set read out with its
share link, QR code and file, rename, delete, a shared link opened on another tablet, a rule set
file opened; every write once, every refusal beside its field, never a 500."""

from __future__ import annotations

import base64
import html
import io
import json
import re
import string
import zlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.platform import network
from scorekeeper.platform.database import db
from scorekeeper.platform.writeonce import WriteOnce
from scorekeeper.rules import RuleSet, sharing
from scorekeeper.rules.ruleset import PRESETS
from scorekeeper.rulesets.models import SavedRuleSet
from tests.support.book import new_game, play_rounds
from tests.support.forms import read_form
from tests.support.saved import SMITH, save_ruleset, smith_document

LAN = "http://192.168.1.20:5000"


def text(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def smith() -> RuleSet:
    return RuleSet.parse(smith_document())


def token(client, path: str) -> str:
    """The one-time token of the form on the page at `path` (as a browser opened it)."""
    fields = dict(read_form(client.get(path).get_data(as_text=True)).fields)
    return fields["write_token"]


def count(app, model) -> int:
    with app.app_context():
        return db.session.scalar(db.select(db.func.count()).select_from(model))


def names(app) -> list[str]:
    with app.app_context():
        return list(db.session.scalars(db.select(SavedRuleSet.name).order_by(SavedRuleSet.id)))


def share_link(page: str) -> str:
    match = re.search(r'id="share-link" href="([^"]+)"', page)
    assert match, "no share link on the page"
    return match.group(1)


def error_beside_name(page: str) -> str:
    match = re.search(r'<p class="error" id="name-error" role="alert">([^<]+)</p>', page)
    assert match, "no error beside the name field"
    return match.group(1)


def name_value(page: str) -> str:
    match = re.search(r'<input[^>]*name="name"[^>]*value="([^"]*)"', page)
    assert match, "no name field"
    return match.group(1)


# --- The list ----------------------------------------------------------------------------


def test_the_list_before_anything_is_saved_says_how_to_begin(client):
    page = text(client.get("/rulesets/"))
    assert "No rule set saved yet" in page
    assert 'href="/rulesets/new"' in page
    assert 'href="/rulesets/upload"' in page


def test_the_list_shows_the_most_recently_used_first_with_every_action(client):
    first = save_ruleset(client)
    second = save_ruleset(client, smith_document("Cousins"))
    listed = text(client.get("/rulesets/"))
    assert listed.index("Cousins") < listed.index(SMITH)  # saved last, first
    game = client.post("/api/games", json={"players": ["A", "B", "C", "D"], "ruleset": first["id"]})
    assert game.status_code == 201
    listed = text(client.get("/rulesets/"))
    assert listed.index(SMITH) < listed.index("Cousins")  # a game started from it: first
    assert smith().summary() in listed
    for row in (first, second):
        number = row["id"]
        for href in (
            f"/games/new?ruleset={number}",
            f"/rulesets/{number}/edit",
            f"/rulesets/{number}#share",
            f"/rulesets/{number}/rename",
            f"/rulesets/{number}/delete",
        ):
            assert f'href="{href}"' in listed, href


def test_the_navigation_leads_to_the_list(client):
    assert 'href="/rulesets/"' in text(client.get("/"))
    assert 'href="/rulesets/"' in text(client.get("/games/"))


# --- One rule set: read out, shared ------------------------------------------------------


def test_a_saved_rule_set_is_read_out_with_every_change_marked(client):
    number = save_ruleset(client)["id"]
    page = text(client.get(f"/rulesets/{number}"))
    for title in ("Players and packs", "Deals and contracts", "Scoring", "The cut"):
        assert f">{title}</h3>" in page
    assert "A joker left in hand is 50." in page
    assert "An ace left in hand is 20." in page
    marks = page.count('<span class="badge changed-mark">Changed<span class="visually-hidden">')
    assert marks == len(smith().differences())
    # A setting as in Liverpool is not marked.
    unchanged = re.search(r'<li class="rules-line-item" data-place="values.K">\s*([^<]+)', page)
    assert unchanged and unchanged.group(1).strip() == "A king left in hand is 10."


def test_the_share_link_uses_the_address_the_tablet_used_and_the_qr_is_that_link(client):
    number = save_ruleset(client)["id"]
    page = text(client.get(f"/rulesets/{number}", base_url=LAN))
    link = share_link(page)
    assert link == f"{LAN}/rulesets/shared/{sharing.code(smith())}"
    assert f'src="{network.qr_data_uri(link)}"' in page
    assert "a name only this machine reaches" not in page
    on_loopback = text(client.get(f"/rulesets/{number}", base_url="http://localhost:5000"))
    assert "a name only this machine reaches" in on_loopback


def test_the_download_is_the_rule_set_file(client):
    number = save_ruleset(client)["id"]
    answer = client.get(f"/rulesets/{number}.json")
    assert answer.status_code == 200
    assert answer.data == sharing.file_text(smith()).encode("utf-8")
    assert answer.headers["Content-Disposition"] == 'attachment; filename="smith-family.rules.json"'
    assert answer.mimetype == "application/json"


@pytest.mark.parametrize(
    "path", ["/rulesets/9", "/rulesets/9.json", "/rulesets/9/rename", "/rulesets/9/delete"]
)
def test_a_rule_set_that_does_not_exist_is_404(client, path):
    assert client.get(path).status_code == 404
    assert client.get(path.replace("9", "99999999999")).status_code == 404


# --- Rename ------------------------------------------------------------------------------


def test_rename_and_a_double_post_renames_once(client, app):
    number = save_ruleset(client)["id"]
    path = f"/rulesets/{number}/rename"
    once = token(client, path)
    answer = client.post(path, data={"name": "Jones family", "write_token": once})
    assert answer.status_code == 303
    assert answer.location == f"/rulesets/{number}"
    assert '"Smith family" is now called "Jones family".' in text(client.get(answer.location))
    # The same form posted again (a double tap) with something else typed changes nothing.
    again = client.post(path, data={"name": "Brown family", "write_token": once})
    assert again.status_code == 303
    assert names(app) == ["Jones family"]
    assert '"Smith family" is now called "Jones family".' in text(client.get(again.location))
    with app.app_context():
        assert db.session.get(SavedRuleSet, number).rule_set.name == "Jones family"


@pytest.mark.parametrize(
    "typed,said",
    [
        ("Shanghai", "Shanghai is a preset"),
        ("  ", "give your table's rules a name"),
        ("x" * 41, "40"),
        ("cousins", "already saved"),
    ],
)
def test_a_name_refused_is_said_beside_the_field_with_what_was_typed(client, app, typed, said):
    number = save_ruleset(client)["id"]
    save_ruleset(client, smith_document("Cousins"))
    path = f"/rulesets/{number}/rename"
    answer = client.post(path, data={"name": typed, "write_token": token(client, path)})
    assert answer.status_code == 200  # the form again, the problem beside the name
    page = text(answer)
    assert said in error_beside_name(page)
    assert name_value(page) == typed
    assert names(app) == [SMITH, "Cousins"]


# --- Delete ------------------------------------------------------------------------------


def test_delete_asks_first_and_games_played_keep_their_copy(client, app):
    number = save_ruleset(client)["id"]
    made = client.post("/api/games", json={"players": ["A", "B", "C", "D"], "ruleset": number})
    game_id = made.get_json()["id"]
    path = f"/rulesets/{number}/delete"
    asked = text(client.get(path))
    assert "The games played with it keep their own copy of its rules" in asked
    assert count(app, SavedRuleSet) == 1  # asking deletes nothing
    once = token(client, path)
    answer = client.post(path, data={"write_token": once})
    assert answer.status_code == 303 and answer.location == "/rulesets/"
    assert count(app, SavedRuleSet) == 0
    said = '"Smith family" deleted. The games played with it keep their own copy of its rules.'
    assert said in text(client.get("/rulesets/"))
    # A second tap gets the first answer again, not a 404.
    again = client.post(path, data={"write_token": once})
    assert again.status_code == 303
    assert said in text(client.get(again.location))
    # The game still plays the Smith family's rules.
    assert smith().summary() in text(client.get(f"/games/{game_id}"))


# --- A shared link opened on another tablet ----------------------------------------------


def shared_path(rules: RuleSet) -> str:
    return f"/rulesets/shared/{sharing.code(rules)}"


def test_a_shared_link_reads_the_rules_out_and_offers_to_save_or_start(client, app):
    page = text(client.get(shared_path(smith())))
    assert f"Shared rules: {SMITH}" in page
    assert "A joker left in hand is 50." in page
    assert f'href="/games/new?rules={sharing.code(smith())}"' in page
    assert name_value(page) == SMITH
    assert count(app, SavedRuleSet) == 0  # opening it keeps nothing


def test_saving_a_shared_rule_set_saves_it_once(client, app):
    path = shared_path(smith())
    once = token(client, path)
    answer = client.post(path, data={"name": "Smiths", "write_token": once})
    assert answer.status_code == 303
    assert re.fullmatch(r"/rulesets/\d+", answer.location)
    again = client.post(path, data={"name": "Smiths", "write_token": once})
    assert again.location == answer.location
    assert names(app) == ["Smiths"]
    page = text(client.get(answer.location))
    assert 'Saved as your table\'s rules: "Smiths".' in page
    with app.app_context():
        assert db.session.scalars(db.select(SavedRuleSet)).one().rule_set == smith().renamed(
            "Smiths"
        )
    # Opened again, the link says the table keeps these rules already, and offers only a copy.
    again = text(client.get(path))
    assert "Saved here as" in again and "nothing to save again" in again
    assert "Save as our table's rules</button>" not in again and "Save a copy</button>" in again


def test_a_shared_rule_set_under_a_name_taken_loses_nothing(client, app):
    save_ruleset(client)
    path = shared_path(smith())
    answer = client.post(path, data={"name": "SMITH family", "write_token": token(client, path)})
    assert answer.status_code == 200
    page = text(answer)
    assert "already saved" in error_beside_name(page)
    assert name_value(page) == "SMITH family"
    assert "A joker left in hand is 50." in page  # the rules are still there to save
    assert count(app, SavedRuleSet) == 1


@pytest.mark.parametrize(
    "code",
    [
        sharing.code(smith())[:-6],
        sharing.code(smith()) + "AAAA",
        "not!a!code",
        "A",
        "x" * 5000,
        sharing.code(RuleSet.parse("shanghai")).replace("A", "B"),
        "_-_-",
    ],
)
def test_a_damaged_code_is_a_400_page_naming_the_problem(client, app, code):
    answer = client.get(f"/rulesets/shared/{code}")
    assert answer.status_code in (400, 404)  # 404: a code with "/" would be another address
    if answer.status_code == 400:
        page = text(answer)
        assert "share code" in page or "rules" in page
        assert "Your games" in page  # the error page in the layout
    posted = client.post(f"/rulesets/shared/{code}", data={"name": "Any", "write_token": "x" * 22})
    assert posted.status_code in (400, 404)
    assert count(app, SavedRuleSet) == 0


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(code=st.text(alphabet=string.ascii_letters + string.digits + "_-", min_size=1, max_size=900))
def test_any_code_is_read_or_refused_never_a_500(client, code):
    for path in (
        f"/rulesets/shared/{code}",
        f"/rules/reference?code={code}",
        f"/rules?code={code}",
    ):
        answer = client.get(path)
        assert answer.status_code == 400, (path, answer.status_code)
        assert "Your games" in text(answer)


def test_a_code_of_rules_that_are_not_playable_names_every_problem(client):
    document = smith_document()
    document["values"]["JK"] = 101
    document["cut_bonus"] = 5
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(json.dumps(document).encode()) + packer.flush()
    code = base64.urlsafe_b64encode(packed).rstrip(b"=").decode()
    answer = client.get(f"/rulesets/shared/{code}")
    page = text(answer)
    assert answer.status_code == 400
    assert "values.JK: must be from 0 to 100, not 101" in page
    assert "cut_bonus: must be from -100 to 0, not 5" in page


# --- A rule set file ---------------------------------------------------------------------


def upload(client, content: bytes | None, filename: str = "rules.json"):
    data = {} if content is None else {"file": (io.BytesIO(content), filename)}
    return client.post("/rulesets/upload", data=data, content_type="multipart/form-data")


def test_the_download_uploaded_opens_the_same_rules_and_writes_nothing(client, app):
    number = save_ruleset(client)["id"]
    downloaded = client.get(f"/rulesets/{number}.json").data
    kept = count(app, WriteOnce)
    answer = upload(client, downloaded, "smith-family.rules.json")
    assert answer.status_code == 303
    code = answer.location.rsplit("/", 1)[1]
    assert answer.location == f"/rulesets/shared/{code}"
    assert sharing.from_code(code) == smith()
    assert SMITH in text(client.get(answer.location))
    assert count(app, SavedRuleSet) == 1
    assert count(app, WriteOnce) == kept


@pytest.mark.parametrize(
    "content,said",
    [
        (None, "Choose a rule set file first"),
        (b"", "does not hold a rule set"),
        (b"\xff\xfe\x00garbage", "is not text"),
        (b"[1, 2, 3]", "does not hold a rule set"),
        (b'"shanghai"', "does not hold a rule set"),
        (b"{not json", "rules"),
        (b"{" * 5000, "rules"),
    ],
)
def test_a_bad_file_is_named_never_a_500(client, app, content, said):
    answer = upload(client, content)
    assert answer.status_code == 200  # the form again, every problem named
    assert said in text(answer)
    assert count(app, SavedRuleSet) == 0


def test_a_file_of_rules_that_are_not_playable_names_every_problem(client):
    document = smith_document()
    document["values"]["JK"] = 101
    document["buying"]["penalty_cards"] = 9
    document["surprise"] = True
    page = text(upload(client, json.dumps(document).encode()))
    for place in ("values.JK", "buying.penalty_cards", "surprise"):
        assert f"<code>{place}</code>" in page, place


def test_the_upload_page_and_a_bad_upload_keep_the_form(client):
    page = text(client.get("/rulesets/upload"))
    assert 'type="file"' in page and 'enctype="multipart/form-data"' in page


# --- The game page, the reference and the rules check ------------------------------------


def test_the_game_page_summary_opens_the_rules_read_out(client):
    game = new_game(client, rules=smith_document())
    page = text(client.get(f"/games/{game.id}"))
    summary = re.search(
        r'<details class="rules-summary" id="rules" data-live-keep>(.*?)</details>', page, re.S
    )
    assert summary, "no rules summary on the game page"
    opened = summary.group(1)
    assert f'<span class="rules-summary-line">{smith().summary()}</span>' in opened
    assert "A joker left in hand is 50." in opened
    assert opened.count("Changed<span") == len(smith().differences())
    assert f'href="/rules/reference?game={game.id}"' in opened
    # A liverpool game marks nothing.
    plain = text(client.get(f"/games/{new_game(client).id}"))
    assert "Every setting is as in Liverpool’s rules." in plain
    assert "changed-mark" not in plain


def test_the_game_page_from_the_cache_still_reads_the_rules(client):
    game = new_game(client, rules="shanghai")
    first = text(client.get(f"/games/{game.id}"))
    again = text(client.get(f"/games/{game.id}"))
    assert first == again
    assert "Every 2 is wild as well as the jokers." in again


@pytest.mark.parametrize("how", ["game", "ruleset", "code", "rules"])
def test_the_reference_reads_the_rulebook_under_the_chosen_rules(client, how):
    number = save_ruleset(client)["id"]
    game = new_game(client, rules=smith_document())
    value = {
        "game": game.id,
        "ruleset": number,
        "code": sharing.code(smith()),
        "rules": f"ruleset:{number}",
    }[how]
    answer = client.get("/rules/reference", query_string={how: value})
    assert answer.status_code == 200
    page = text(answer)
    assert "The rules: Smith family rules" in page
    r10 = re.search(r'<section id="r10".*?</section>', page, re.S).group(0)
    assert "Smith family rules change this rule" in r10
    assert "A joker left in hand is 50." in r10
    r8 = re.search(r'<section id="r8".*?</section>', page, re.S).group(0)
    assert "A player buys at most 3 times a game." in r8
    r7 = re.search(r'<section id="r7".*?</section>', page, re.S).group(0)
    assert "house-change" not in r7  # the joker rules are Liverpool's
    # R3's table is the chosen rules' deals.
    assert "<td>8</td><td>3 runs of 5</td><td>11</td>" in page.replace("\n", "")


def test_the_reference_picker_offers_the_presets_and_the_saved_rule_sets(client):
    number = save_ruleset(client)["id"]
    page = text(client.get("/rules/reference"))
    for key in PRESETS:
        assert f'<option value="{key}"' in page
    assert f'<option value="ruleset:{number}">{SMITH}</option>' in page
    assert "house-change" not in page  # liverpool changes nothing
    shanghai = text(client.get("/rules/reference?rules=shanghai"))
    assert '<option value="shanghai" selected>' in shanghai
    assert "Every 2 is wild as well as the jokers." in shanghai


def test_the_rules_check_offers_the_saved_rule_sets_and_applies_one(client):
    number = save_ruleset(client)["id"]
    page = text(client.get("/rules"))
    assert f'<option value="ruleset:{number}">{SMITH} (our table\'s rules)</option>' in page
    answer = text(
        client.post(
            "/rules?q=meld",
            data={"rules": f"ruleset:{number}", "cards": "7♠ 7♥ JK", "players": "4"},
        )
    )
    assert "Round 1 of 8 · Smith family · 4 players" in answer
    opened = text(client.get(f"/rules?ruleset={number}&q=opening"))
    assert f'<option selected value="ruleset:{number}">' in opened
    assert "Round 8: 3 runs of 5" in opened


def test_the_rules_check_from_a_game_says_whose_rules_it_applies(client):
    game = new_game(client, rules=smith_document())
    play_rounds(client, game, 2)
    page = text(client.get(f"/rules?game={game.id}"))
    assert "Smith family rules · Deal 3 · 4 players" in page
    assert f'href="/rules/reference?game={game.id}"' in page


def test_the_api_asks_under_a_saved_rule_set(client):
    number = save_ruleset(client)["id"]
    answer = client.post("/api/rules/score", json={"cards": "JK A", "ruleset": number})
    assert answer.status_code == 200
    assert answer.get_json()["penalty"] == 70
    assert answer.get_json()["rule"] == "R11"
    missing = client.post("/api/rules/score", json={"cards": "JK", "ruleset": 99})
    assert missing.status_code == 404
    assert missing.get_json() == {"error": "saved rule set 99 does not exist"}
    twice = client.post("/api/rules/score", json={"cards": "JK", "ruleset": number, "game": 1})
    assert twice.status_code == 400
    wrong = client.post("/api/rules/score", json={"cards": "JK", "ruleset": "Smith"})
    assert wrong.status_code == 400
