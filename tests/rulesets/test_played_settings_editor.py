"""Each R12.3 setting (`R12_SETTINGS`) in the rule editor: offered with
liverpool's value filled in, a game started under the changed value by a browser without
script, and the editor's document written as version 1 until an R12 setting changes."""

from __future__ import annotations

import pytest

from scorekeeper.games.models import Game
from scorekeeper.platform.database import db
from scorekeeper.rules.ruleset import LIVERPOOL, R12_SETTINGS, RuleSet
from scorekeeper.rulesets.forms import RuleSetForm
from tests.support.book import start_edited
from tests.support.browserform import fields_of

# Each played setting: its field's value under liverpool's rules, the field changed (None: a
# switch left off), and the changed setting as the document holds it.
VALUES = {
    "direction": ("left", "right", "right"),
    "tie_break": ("share", "deals_won", "deals_won"),
    "discard_wild": ("y", None, False),
    "discard_draw_after_opening": ("y", None, False),
    "freed_joker_to": ("any", "run", "run"),
    "buying.take_several": ("y", None, False),
    "distinct_set_ranks": (None, "y", True),
    "ace": ("no_wrap", "wrap", "wrap"),
    "wild_max": ("", "1", 1),
    "wild_spacing": ("0", "1", 1),
    "out_in_one_turn_bonus": ("0", "-10", -10),
}


def field_name(place: str) -> str:
    """A place's form field: `buying.take_several` is `buying-take_several`."""
    return place.replace(".", "-")


def held(document: dict, place: str):
    """The value at a place of a document (`buying.take_several`: inside `buying`)."""
    for key in place.split("."):
        document = document.get(key, {})
    return document


def test_every_played_setting_is_tried_here():
    # A run of any suits is a meld's kind in a deal: tried with the deals below.
    assert set(VALUES) | {"any_suit_run"} == R12_SETTINGS


def test_a_deal_of_a_run_of_any_suits_with_its_own_cap_starts_a_game(client, app):
    fields = dict(fields_of(client.get("/games/new").get_data(as_text=True)))
    assert fields["deals-6-wild_max"] == ""  # liverpool's deals have no cap of their own
    game_id, _ = start_edited(
        client,
        name="Santiago",
        **{
            "deals-6-contract-0-kind": "any_suit_run",
            "deals-6-wild_max": "1",
        },
    )
    with app.app_context():
        rules = db.session.get(Game, game_id).rule_set
    deal = rules.to_json()["deals"][6]
    assert deal["contract"][0] == {"kind": "any_suit_run", "size": 4}
    assert deal["wild_max"] == 1 and rules.to_json()["version"] == 2


@pytest.mark.parametrize("place", sorted(VALUES))
def test_the_new_game_page_offers_it_and_starts_a_game_under_it(client, app, place):
    default, other, written = VALUES[place]
    fields = fields_of(client.get("/games/new").get_data(as_text=True))
    sent = [value for name, value in fields if name == field_name(place)]
    assert sent == ([] if default is None else [default])  # liverpool's, filled in
    game_id, _ = start_edited(client, name="Santiago", **{field_name(place): other})
    with app.app_context():
        document = db.session.get(Game, game_id).rule_set.to_json()
    assert held(document, place) == written and document["version"] == 2


@pytest.mark.parametrize("place", sorted(VALUES))
def test_the_editors_document_is_version_1_until_it_changes(app, place):
    written = VALUES[place][2]
    top, _, inner = place.partition(".")
    given = {top: {inner: written}} if inner else {place: written}
    changed = RuleSet.parse({"version": 2, "name": "Santiago", **given})
    with app.test_request_context():
        plain = RuleSetForm.of(LIVERPOOL).document()
        assert plain["version"] == 1 and held(plain, place) == {}
        form = RuleSetForm.of(changed)
        assert held(form.document(), place) == written
        assert form.rule_set() == changed
