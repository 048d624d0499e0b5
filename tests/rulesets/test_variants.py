"""R12.1 and R12.2's variants: each a change the editor offers as one tap while the rules bear
the preset's name, judged as any rule set, and a browser without script gets the form back
changed with nothing written."""

from __future__ import annotations

import re
from html import unescape

import pytest

from scorekeeper.rules.ruleset import PRESETS, RuleSet
from scorekeeper.rules.ruleset.variants import VARIANTS, variant, variants_of
from tests.support.browserform import changed, fields_of

EVERY = [item for items in VARIANTS.values() for item in items]


@pytest.mark.parametrize("chosen", EVERY, ids=[item.key for item in EVERY])
def test_each_variant_is_a_playable_change_of_its_preset(chosen):
    preset = chosen.key.split(".")[0]
    before = PRESETS[preset]
    rules = RuleSet.parse(chosen.applied(before.to_json()))
    assert rules != before and rules.name == before.name
    assert variant(chosen.key) is chosen and chosen in variants_of(before.name)


def test_what_each_variant_sets():
    def applied(key: str) -> RuleSet:
        preset = key.split(".")[0]
        return RuleSet.parse(variant(key).applied(PRESETS[preset].to_json()))

    assert applied("carioca.joker_30").values["JK"] == 30
    assert applied("carioca.joker_20").values["JK"] == 20
    nine = applied("carioca.nine_deals")
    assert nine.last_deal == 9 and nine.deal(9).wild_max == 0  # the escala real stays
    assert applied("carioca.eight_deals").last_deal == 8
    assert applied("carioca.no_wrap").ace.value == "no_wrap"
    assert applied("carioca.joker_swap").joker_swap.value == "runs"
    assert applied("carioca.spacing_4").wild_spacing == 4
    assert applied("carioca.one_turn").out_in_one_turn_bonus == -10
    assert applied("continental.two_jokers").jokers.per_pack == 2
    canasta = applied("continental.canasta")
    assert [canasta.values[key] for key in ("2", "7", "8", "K", "A", "JK")] == [
        5,
        5,
        10,
        10,
        20,
        50,
    ]
    mexico = applied("continental.mexico")
    assert [mexico.deal(n).cards for n in mexico.deal_numbers] == [6, 7, 8, 9, 10, 11, 12, 12]
    assert str(mexico.deal(7).contract_text()) == "4 sets" and mexico.deal(8).runs == 3
    assert variants_of("Smith family") == () and variant("carioca.nope") is None


def _shown_groups(html: str) -> list[str]:
    return re.findall(r'data-variants-of="(\w+)">', html)


def test_the_new_game_page_offers_carioca_variants_and_a_tap_changes_the_form(client):
    page = client.get("/games/new", query_string={"rules": "carioca"}).get_data(as_text=True)
    fields = fields_of(page)
    assert dict(fields)["name"] == "Carioca"
    assert _shown_groups(page) == ["carioca"]  # continental's are there, hidden
    answer = client.post("/games/new", data=changed(fields, variant="carioca.joker_30"))
    assert answer.status_code == 200  # the form again: nothing written
    again = unescape(answer.get_data(as_text=True))
    assert dict(fields_of(again))["values-JK"] == "30"
    assert "A joker left in hand is 30" in again
    liverpool = client.get("/games/new").get_data(as_text=True)
    assert _shown_groups(liverpool) == []


def test_the_editors_check_makes_a_tapped_variant_and_sends_the_rules_back(client):
    fields = fields_of(client.get("/games/new", query_string={"rules": "carioca"}).get_data(True))
    answer = client.post("/rulesets/check", data=changed(fields, variant="carioca.no_wrap"))
    document = answer.get_json()["document"]
    assert document["ace"] == "no_wrap" and document["name"] == "Carioca"
    assert document["wild_spacing"] == 1  # the rest as they were
    plain = client.post("/rulesets/check", data=changed(fields)).get_json()
    assert "document" not in plain
