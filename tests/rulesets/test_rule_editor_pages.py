"""The new game page's rules without a browser's script: the picker, "Change a rule…", the add
and remove buttons, problems beside their controls, Start refused with the list, a changed
picker honoured, a custom game started end to end, and POST /rulesets/check."""

from __future__ import annotations

import html
import re

from scorekeeper.games.models import Game
from scorekeeper.platform.database import db
from scorekeeper.rules import PRESETS
from tests.support.browserform import changed, fields_of
from tests.support.names import NAMES

SEATED = {f"names-{i}": name for i, name in enumerate(NAMES)}


def text(response) -> str:
    return response.get_data(as_text=True)


def page_fields(client, url="/games/new"):
    return fields_of(text(client.get(url)))


def post(client, fields, **values):
    return client.post("/games/new", data=changed(fields, **values))


def games(app) -> list[Game]:
    with app.app_context():
        return list(db.session.scalars(db.select(Game).order_by(Game.id)))


def problem_beside(page: str, place_id: str) -> str:
    found = re.search(rf'id="problem-{place_id}" data-problem>([^<]*)<', page)
    assert found, f"no problem shown beside {place_id}"
    return html.unescape(found.group(1))


def deal_rows(page: str) -> int:
    """The deal rows shown (the copy kept in the editor's template left out)."""
    return len(re.findall(r'<li class="deal-row" data-deal="\d+"', page))


def test_the_editor_is_closed_and_filled_from_the_default_choice(client):
    page = text(client.get("/games/new"))
    assert '<details class="rules-details">' in page  # closed: opens without a script
    assert "<summary>Change a rule…</summary>" in page
    assert deal_rows(page) == len(PRESETS["liverpool"].deals)
    for title in (
        "Players and packs",
        "Deals and contracts",
        "Scoring",
        "Melds and jokers",
        "Turns and buying",
        "The cut",
    ):
        assert f"<legend>{title}</legend>" in page
    assert 'data-place="deals[4].cards"' in page
    assert 'name="filled_from" type="hidden" value="liverpool"' in page
    # What a setting does is said beside it at once, from the server.
    assert "4 players: 2 packs + 3 jokers = 107 cards" in page


def test_add_and_remove_a_deal_and_a_meld_without_a_script(client, app):
    fields = page_fields(client)
    added = post(client, fields, **SEATED, add_deal="1")
    page = text(added)
    assert added.status_code == 200 and deal_rows(page) == 8
    assert '<details class="rules-details" open>' in page
    assert games(app) == []  # a button writes nothing
    page = text(post(client, fields_of(page), add_meld="7"))
    assert 'name="deals-7-contract-3-kind"' in page
    page = text(post(client, fields_of(page), remove_meld="7.0"))
    assert 'name="deals-7-contract-3-kind"' not in page
    assert 'name="deals-7-contract-2-kind"' in page
    page = text(post(client, fields_of(page), remove_deal="0"))
    assert deal_rows(page) == 7
    # The names typed are kept through every button.
    assert 'value="Ann"' in page


def test_every_problem_is_beside_its_control_and_start_is_refused_with_the_list(client, app):
    fields = page_fields(client)
    refused = post(
        client, fields, **SEATED, **{"values-JK": "101", "deals-3-cards": "70", "players-max": "9"}
    )
    page = text(refused)
    assert refused.status_code == 200 and games(app) == []
    assert problem_beside(page, "values-JK") == "must be from 0 to 100, not 101"
    assert problem_beside(page, "deals-3-cards") == "must be from 1 to 60, not 70"
    assert problem_beside(page, "players-max").startswith("must be from 2 to 8")
    assert "The rules have 3 problems to fix first" in page
    listed = re.search(r"data-problem-list>.*?</ul>", page, re.S).group()
    assert listed.count("<li>") == 3
    assert 'href="#values-JK"' in listed
    assert 'id="values-JK"' in page and 'aria-invalid="true"' in page
    # Nothing typed is thrown away: names, and every rule as typed.
    assert 'value="Ann"' in page and 'value="101"' in page and 'value="70"' in page


def test_a_changed_picker_is_honoured_without_a_script(client, app):
    fields = page_fields(client)
    response = post(client, fields, **SEATED, profile="shanghai")
    assert response.status_code == 302
    assert games(app)[0].rule_set is PRESETS["shanghai"]


def test_a_changed_picker_after_a_changed_rule_shows_the_editor_refilled(client, app):
    fields = page_fields(client)
    response = post(client, fields, **SEATED, profile="family", **{"values-JK": "50"})
    page = text(response)
    assert response.status_code == 200 and games(app) == []
    assert "The rules picked are now Family" in page
    assert 'name="filled_from" type="hidden" value="family"' in page
    assert (
        'id="values-JK" inputmode="numeric" max="100" min="0" name="values-JK" step="1" type="number" value="15"'
        in page
    )


def test_editor_changes_to_the_picked_rules_are_kept(client, app):
    fields = page_fields(client)
    response = post(
        client,
        fields,
        **SEATED,
        name="Smith family",
        **{"values-JK": "50", "values-A": "20", "buying-per_game": "3"},
    )
    assert response.status_code == 302, text(response)
    rules = games(app)[0].rule_set
    assert rules.name == "Smith family"
    assert rules.values["JK"] == 50 and rules.values["A"] == 20
    assert rules.buying.per_game == 3
    page = text(client.get(response.location))
    assert "Smith family · 7 deals" in page


def test_a_changed_set_still_called_by_a_preset_name_is_house(client, app):
    fields = page_fields(client)
    response = post(client, fields, **SEATED, **{"values-JK": "50"})
    assert response.status_code == 302
    assert games(app)[0].rule_set.name == "House"


def test_a_custom_game_end_to_end(client, app):
    """11 cards every deal, a tenth deal of 3 runs of 5: started, and its rounds follow it."""
    page = text(post(client, page_fields(client), **SEATED, add_deal="1"))
    page = text(post(client, fields_of(page), add_deal="1"))
    page = text(post(client, fields_of(page), add_deal="1"))
    values = {f"deals-{d}-cards": "11" for d in range(10)}
    values.update(
        {
            "name": "Smith family",
            "deals-9-whole_hand": None,
            "deals-9-contract-0-kind": "run",
            "deals-9-contract-0-size": "5",
            "deals-9-contract-1-size": "5",
            "deals-9-contract-2-size": "5",
        }
    )
    response = post(client, fields_of(page), **values)
    assert response.status_code == 302, text(response)
    rules = games(app)[0].rule_set
    assert rules.last_deal == 10 and {deal.cards for deal in rules.deals} == {11}
    assert rules.deals[9].contract_text() == "3 runs of 5"
    game_page = text(client.get(response.location))
    assert "Round 1 of 10" in game_page


def test_a_post_with_seats_the_rules_refuse_keeps_everything(client, app):
    fields = page_fields(client)
    response = post(client, fields, **SEATED, **{"names-4": "Eve", "players-max": "4"})
    page = text(response)
    assert response.status_code == 200 and games(app) == []
    assert "5 players" in page
    assert 'value="Eve"' in page


def test_seats_follow_the_edited_rules(client, app):
    fields = page_fields(client)
    response = post(client, fields, **SEATED, **{"names-4": "Eve", "players-max": "5"})
    assert response.status_code == 302, text(response)
    with app.app_context():
        game = db.session.scalars(db.select(Game)).one()
        assert [player.name for player in game.players] == [*NAMES, "Eve"]


def test_the_check_answers_problems_notes_and_the_summary(client):
    fields = page_fields(client)
    answer = client.post("/rulesets/check", data=changed(fields, **{"values-JK": "101"})).get_json()
    assert answer["problems"] == {"values.JK": "must be from 0 to 100, not 101"}
    assert answer["summary"] == "1 problem to fix"
    assert answer["listed"] == [
        {
            "place": "values.JK",
            "label": "Value of a joker",
            "text": "must be from 0 to 100, not 101",
            "said": "Value of a joker: must be from 0 to 100, not 101",
        }
    ]
    fine = client.post(
        "/rulesets/check",
        data=changed(fields, **{"deals-6-cards": "11", "deals-6-whole_hand": None}),
    ).get_json()
    assert fine["problems"] == {}
    assert fine["notes"]["deals[6].cards"] == (
        "Deal 7 needs 13 cards: 11 dealt + the draw is 12, so it needs a buy"
    )
    # Changed rules still called Liverpool play as House: the summary says so.
    assert fine["summary"].startswith("House · 7 deals")
    unchanged = client.post("/rulesets/check", data=changed(fields)).get_json()
    assert unchanged["summary"] == PRESETS["liverpool"].summary()


def test_the_check_never_fails_on_a_hand_made_post(client):
    for data in ({}, {"deals-²-cards": "1"}, {"deals-0-contract-0-kind": "x" * 5000}):
        response = client.post("/rulesets/check", data=data)
        assert response.status_code == 200
        assert response.get_json()["problems"]


def test_a_double_post_starts_one_game(client, app):
    fields = page_fields(client)
    data = changed(fields, **SEATED, **{"values-JK": "50"}, name="Smith family")
    first = client.post("/games/new", data=data)
    second = client.post("/games/new", data=data)
    assert first.status_code == second.status_code == 302
    assert first.location == second.location
    assert len(games(app)) == 1


# --- Saving the table's rules -----------------------------------------------------------------


def saved_rows(app):
    from scorekeeper.rulesets.models import SavedRuleSet

    with app.app_context():
        return [
            (row.id, row.name, row.rule_set)
            for row in db.session.scalars(db.select(SavedRuleSet).order_by(SavedRuleSet.id))
        ]


def save_new(client, name="Smith family", **values):
    fields = page_fields(client, "/rulesets/new")
    return client.post("/rulesets/new", data=changed(fields, name=name, **values))


def test_a_new_rule_set_is_saved_and_opens_its_page(client, app):
    response = save_new(client, **{"values-JK": "50"})
    assert response.status_code == 303
    [(row_id, name, rules)] = saved_rows(app)
    assert response.location == f"/rulesets/{row_id}"
    assert name == "Smith family" and rules.values["JK"] == 50


def test_a_new_rule_set_needs_a_name_of_its_own(client, app):
    page = text(client.get("/rulesets/new?from=shanghai"))
    assert 'name="name" type="text" value=""' in page
    assert "data-problem-list hidden" in page  # no problem shown before anything is typed
    assert "so it needs 2 buys" in page  # the notes are
    assert 'value="11"' in page  # shanghai's deals
    refused = text(client.post("/rulesets/new", data=changed(fields_of(page))))
    assert problem_beside(refused, "name").startswith("must be a name of 1 to 40 characters")
    taken = save_new(client, name="Shanghai")
    assert taken.status_code == 200
    assert "Shanghai is a preset" in problem_beside(text(taken), "name")
    assert saved_rows(app) == []


def test_a_taken_name_is_refused_beside_it_and_nothing_is_written(client, app):
    assert save_new(client).status_code == 303
    again = save_new(client, **{"values-JK": "40"})
    assert again.status_code == 200
    assert "already saved" in problem_beside(text(again), "name")
    assert len(saved_rows(app)) == 1


def test_a_double_post_saves_once(client, app):
    fields = page_fields(client, "/rulesets/new")
    data = changed(fields, name="Smith family")
    first, second = client.post("/rulesets/new", data=data), client.post("/rulesets/new", data=data)
    assert first.status_code == second.status_code == 303
    assert first.location == second.location
    assert len(saved_rows(app)) == 1


def test_changing_a_saved_rule_set_leaves_games_their_copy(client, app):
    save_new(client, **{"values-JK": "50"})
    [(row_id, _, _)] = saved_rows(app)
    fields = page_fields(client, f"/games/new?ruleset={row_id}")
    assert ("profile", f"ruleset:{row_id}") in fields
    started = post(client, fields, **SEATED)
    assert started.status_code == 302, text(started)
    edit = page_fields(client, f"/rulesets/{row_id}/edit")
    changed_answer = client.post(
        f"/rulesets/{row_id}/edit", data=changed(edit, **{"values-JK": "40"})
    )
    assert changed_answer.status_code == 303
    assert saved_rows(app)[0][2].values["JK"] == 40
    assert games(app)[0].rule_set.values["JK"] == 50  # the game keeps the copy it started with


def test_starting_from_a_saved_set_marks_it_used(client, app):
    from scorekeeper.rulesets.models import SavedRuleSet

    save_new(client, name="Smith family")
    save_new(client, name="Jones family")
    first = page_fields(client)
    # The newest first on the picker, after the presets.
    picks = [value for name, value in first if name == "profile"]
    assert picks == ["liverpool"]
    page = text(client.get("/games/new"))
    options = re.findall(r'<option[^>]*value="(ruleset:\d+)"', page)
    assert options == ["ruleset:2", "ruleset:1"]
    post(client, page_fields(client, "/games/new?ruleset=1"), **SEATED)
    with app.app_context():
        assert db.session.get(SavedRuleSet, 1).used_at is not None
    page = text(client.get("/games/new"))
    assert re.findall(r'<option[^>]*value="(ruleset:\d+)"', page) == ["ruleset:1", "ruleset:2"]


def test_saving_on_start_writes_the_rules_and_the_game_together(client, app):
    fields = page_fields(client)
    response = post(
        client, fields, **SEATED, save_rules="y", save_name="Smith family", **{"values-JK": "50"}
    )
    assert response.status_code == 302, text(response)
    [(_, name, rules)] = saved_rows(app)
    assert name == "Smith family" and rules.values["JK"] == 50
    assert games(app)[0].rule_set.name == "Smith family"


def test_saving_on_start_under_a_taken_name_writes_nothing(client, app):
    save_new(client)
    fields = page_fields(client)
    response = post(client, fields, **SEATED, save_rules="y", save_name="Smith family")
    page = text(response)
    assert response.status_code == 200
    assert "already saved" in page
    assert games(app) == [] and len(saved_rows(app)) == 1
    assert 'value="Ann"' in page


def saved_as_line(page: str) -> tuple[bool, str]:
    """Whether the "Saved as" line shows (not hidden), and its words."""
    found = re.search(r'<span class="saved-as" role="status"( hidden)?>([^<]*)<', page)
    assert found, "no saved-as line"
    return found.group(1) is None, html.unescape(found.group(2))


def save_switch_shown(page: str) -> bool:
    found = re.search(r'<span class="save-switch"( hidden)?>', page)
    assert found, "no save switch"
    return found.group(1) is None


def test_a_saved_set_picked_unchanged_says_saved_as_in_place_of_the_switch(client):
    save_new(client, name="Smith family")
    page = text(client.get("/games/new?ruleset=1"))
    assert saved_as_line(page) == (True, "Saved as “Smith family”: our table's rules, unchanged.")
    assert not save_switch_shown(page)
    # A preset, and a refused start from changed saved rules, offer the switch.
    preset = text(client.get("/games/new"))
    assert saved_as_line(preset)[0] is False and save_switch_shown(preset)
    fields = page_fields(client, "/games/new?ruleset=1")
    changed_rules = text(post(client, fields, **{"values-JK": "40"}))  # no players: refused
    assert saved_as_line(changed_rules)[0] is False and save_switch_shown(changed_rules)
    unchanged = text(post(client, fields))  # refused too, the rules as saved
    assert saved_as_line(unchanged)[0] is True and not save_switch_shown(unchanged)


def test_a_save_asked_for_unchanged_saved_rules_starts_the_game_and_saves_nothing(client, app):
    """A draft or a page without its script may still post the switch on: the rules are saved
    already, so the game starts from them and no second copy (or name clash) comes of it."""
    from scorekeeper.rulesets.models import SavedRuleSet

    save_new(client, name="Smith family")
    fields = page_fields(client, "/games/new?ruleset=1")
    response = post(client, fields, **SEATED, save_rules="y", save_name="")
    assert response.status_code == 302, text(response)
    assert [name for _, name, _ in saved_rows(app)] == ["Smith family"]
    assert games(app)[0].rule_set.name == "Smith family"
    with app.app_context():
        assert db.session.get(SavedRuleSet, 1).used_at is not None


def test_the_check_says_when_the_rules_are_a_saved_set_unchanged(client):
    save_new(client, name="Smith family")
    fields = page_fields(client, "/games/new?ruleset=1")
    unchanged = client.post("/rulesets/check", data=changed(fields)).get_json()
    assert unchanged["saved_as"] == "Smith family"
    edited = client.post("/rulesets/check", data=changed(fields, **{"values-JK": "40"}))
    assert edited.get_json()["saved_as"] is None
    preset = client.post("/rulesets/check", data=changed(page_fields(client))).get_json()
    assert preset["saved_as"] is None


def test_a_shared_code_preselects_its_rules(client):
    from scorekeeper.rules import sharing

    rules = PRESETS["shanghai"].renamed("Cousins")
    page = text(client.get(f"/games/new?rules={sharing.code(rules)}"))
    fields = fields_of(page)
    assert ("profile", "shared") in fields
    assert ("name", "Cousins") in fields
    assert text(client.get("/games/new?rules=damaged")).count('value="shared"') == 0


def test_enter_in_a_field_presses_start_never_an_editor_button(client):
    """Implicit submission presses a form's first submit button: it is the (hidden) Start."""
    for url, label in (("/games/new", "Start the game"), ("/rulesets/new", "Save")):
        page = text(client.get(url))
        form = page[page.index("<form") :]
        first = re.search(r"<button[^>]*type=\"submit\"[^>]*>([^<]*)<", form)
        assert first.group(1) == label, url
        assert "name=" not in first.group(0)
