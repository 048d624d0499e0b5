"""The rule set editor's form (`RuleSetForm`): every control round-trips every preset, the add
and remove buttons, and the engine's problems beside their controls."""

from __future__ import annotations

import pytest
from werkzeug.datastructures import MultiDict

from scorekeeper.rules import PRESETS, RuleSet
from scorekeeper.rulesets.forms import RuleSetForm, label
from tests.support.browserform import fields_of


@pytest.fixture()
def context(app):
    with app.test_request_context():
        yield


def rendered(form: RuleSetForm) -> str:
    """The editor's controls as the page renders them (the macro, outside any page)."""
    from flask import render_template_string

    return render_template_string(
        '{% from "rulesets/_editor.html" import rule_editor %}<form>{{ rule_editor(form) }}</form>',
        form=form,
    )


def posted(form: RuleSetForm, **changes: str) -> MultiDict:
    data = MultiDict(fields_of(rendered(form)))
    for name, value in changes.items():
        data.setlist(name, [value])
    return data


@pytest.mark.parametrize("key", list(PRESETS))
def test_every_control_round_trips_every_preset(context, key):
    rules = PRESETS[key]
    back = RuleSetForm(posted(RuleSetForm.of(rules)))
    assert back.document() == rules.to_json()
    assert RuleSet.parse(back.document()) is rules


def test_the_direction_round_trips_and_is_written_only_when_changed(context):
    """R12.3's `direction`, the one R12 control so far: to the right, the document is version 2
    with it; back to the left, it is the version-1 document it always was."""
    rules = RuleSet.parse({"version": 2, "name": "Santiago", "direction": "right"})
    back = RuleSetForm(posted(RuleSetForm.of(rules)))
    assert back.document() == rules.to_json()
    assert back.document()["version"] == 2 and back.document()["direction"] == "right"
    assert RuleSet.parse(back.document()) == rules
    left = RuleSetForm(posted(RuleSetForm.of(rules), direction="left")).document()
    assert "direction" not in left and left["version"] == 1
    assert RuleSet.parse(left) == PRESETS["liverpool"].renamed("Santiago")


def test_a_changed_value_reaches_the_document(context):
    data = posted(RuleSetForm.of(PRESETS["liverpool"]), **{"values-JK": "50", "cut_bonus": "20"})
    data.setlist("buying-per_game", ["3"])
    document = RuleSetForm(data).document()
    assert document["values"]["JK"] == 50
    assert document["cut_bonus"] == -20  # shown as points off the cutter's round
    assert document["buying"]["per_game"] == 3
    assert document["buying"]["per_deal"] is None  # blank: no limit


def test_a_switch_left_off_is_false(context):
    data = posted(RuleSetForm.of(PRESETS["online"]))
    data.pop("layoff_on_opening_turn")
    assert RuleSetForm(data).document()["layoff_on_opening_turn"] is False


@pytest.mark.parametrize(
    ("button", "value", "check"),
    [
        ("add_deal", "1", lambda d: len(d["deals"]) == 8 and d["deals"][7] == d["deals"][6]),
        ("remove_deal", "3", lambda d: len(d["deals"]) == 6 and d["deals"][3]["cards"] == 12),
        ("add_meld", "2", lambda d: len(d["deals"][2]["contract"]) == 3),
        ("remove_meld", "1.0", lambda d: [m["kind"] for m in d["deals"][1]["contract"]] == ["run"]),
        ("add_pack", "1", lambda d: len(d["packs"]) == 2),
    ],
)
def test_the_buttons_change_the_form(context, button, value, check):
    data = posted(RuleSetForm.of(PRESETS["liverpool"]))
    data[button] = value
    form, pressed = RuleSetForm.edited(data)
    assert pressed
    assert check(form.document())


def test_no_button_leaves_the_form_as_posted(context):
    form, pressed = RuleSetForm.edited(posted(RuleSetForm.of(PRESETS["family"])))
    assert not pressed
    assert form.document() == PRESETS["family"].to_json()


def test_a_hand_made_button_value_changes_nothing_and_never_fails(context):
    for button, value in [("remove_deal", "99"), ("remove_meld", "x.y"), ("add_meld", "²")]:
        data = posted(RuleSetForm.of(PRESETS["liverpool"]))
        data[button] = value
        form, pressed = RuleSetForm.edited(data)
        assert pressed and form.document() == PRESETS["liverpool"].to_json()


def test_the_last_deal_cannot_be_removed(context):
    rules = RuleSet.parse({"deals": [{"cards": 10, "contract": [{"kind": "set", "size": 3}]}]})
    data = posted(RuleSetForm.of(rules))
    data["remove_deal"] = "0"
    form, _ = RuleSetForm.edited(data)
    assert len(form.document()["deals"]) == 1


def test_every_problem_is_beside_its_control_and_listed(context):
    data = posted(
        RuleSetForm.of(PRESETS["liverpool"]),
        **{"values-JK": "101", "deals-3-cards": "abc", "deals-0-contract-1-size": "2"},
    )
    form = RuleSetForm(data)
    assert form.rule_set() is None
    assert set(form.problems) == {"values.JK", "deals[3].cards", "deals[0].contract[1].size"}
    assert form.values["JK"].errors == ["must be from 0 to 100, not 101"]
    page = rendered(form)
    assert 'id="problem-values-JK" data-problem>must be from 0 to 100, not 101<' in page
    assert 'aria-describedby="problem-values-JK note-values-JK" aria-invalid="true"' in page
    assert "Deal 4: cards: " in page  # the list at the top names each one
    assert "abc" in page  # what was typed comes back as typed


def test_a_problem_of_a_place_without_a_control_goes_to_the_nearest_one(context):
    form = RuleSetForm.of(PRESETS["liverpool"])
    assert form.slot_of("deals[2].contract[0].kind") == "deals[2].contract[0].kind"
    assert form.slot_of("deals[2].contract[9].size") == "deals[2].contract"
    assert form.slot_of("rules") == ""


def test_a_cut_bonus_problem_speaks_of_points_off(context):
    form = RuleSetForm(posted(RuleSetForm.of(PRESETS["liverpool"]), cut_bonus="150"))
    assert form.rule_set() is None
    assert form.problems["cut_bonus"] == "must be from 0 to 100 points off the cutter's round"


def test_notes_for_a_playable_rule_set(context):
    form = RuleSetForm(posted(RuleSetForm.of(PRESETS["shanghai"])))
    assert form.rule_set() is PRESETS["shanghai"]
    assert form.notes["deals[9].cards"].endswith("so it needs 2 buys")


def test_labels_name_the_place():
    assert label("deals[4].cards") == "Deal 5: cards"
    assert label("deals[0].contract[1].size") == "Deal 1, meld 2: size"
    assert label("values.JK") == "Value of a joker"
    assert label("players.max") == "Players max"
