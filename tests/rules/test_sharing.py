"""A rule set carried to another tablet: its share code and its file read back as the same rules,
and a damaged or hostile code is refused under "rules", never with another exception."""

from __future__ import annotations

import base64
import json
import zlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import sharing
from scorekeeper.rules.errors import RuleSetError
from scorekeeper.rules.ruleset import LIVERPOOL, PRESETS, RuleSet
from scorekeeper.rules.ruleset.schema import MOST_TEXT

# Derandomized like the other hostile-input runs: each run draws the same examples.
SETTINGS = settings(
    max_examples=300,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def smith() -> RuleSet:
    """The issue's own rules: joker 50, ace 20, 11 cards every deal, a tenth deal of 3 runs of
    5, 3 buys a game; named in a script that is not ASCII."""
    document = LIVERPOOL.to_json()
    document["name"] = "Smith family · Ñoño 🃏"
    document["values"].update(JK=50, A=20)
    document["buying"]["per_game"] = 3
    document["deals"] += [dict(document["deals"][-1]) for _ in range(3)]
    for deal in document["deals"]:
        deal["cards"] = 11
    document["deals"][-1] = {
        "cards": 11,
        "contract": [{"kind": "run", "size": 5}] * 3,
        "whole_hand": False,
    }
    return RuleSet.parse(document)


def packed(data: bytes) -> str:
    """`data` deflated and written as a share code is, whatever it holds."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    return base64.urlsafe_b64encode(packer.compress(data) + packer.flush()).decode().rstrip("=")


def refused(text: object) -> dict[str, str]:
    with pytest.raises(RuleSetError) as raised:
        sharing.from_code(text)
    return raised.value.problems


# --- Round trips -----------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [*PRESETS.values(), smith()], ids=lambda rules: rules.name)
def test_every_preset_and_a_tables_own_rules_come_back_from_their_code(rules):
    text = sharing.code(rules)
    assert set(text) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    back = sharing.from_code(text)
    assert back == rules and back.dumps() == rules.dumps()
    assert sharing.from_code(f"  {text}\n") == rules  # as pasted, with the spaces around it


def test_a_code_is_short_enough_for_a_link_and_a_qr_code():
    # A QR code holds 2,953 bytes at its largest: the rule set takes a fraction.
    assert len(sharing.code(smith())) < 1000
    assert all(len(sharing.code(rules)) < 1000 for rules in PRESETS.values())


@pytest.mark.parametrize("rules", [*PRESETS.values(), smith()], ids=lambda rules: rules.name)
def test_the_file_is_the_document_indented_in_document_order(rules):
    text = sharing.file_text(rules)
    version = 2 if rules.r12_places else 1
    assert text.endswith("}\n") and text.startswith(f'{{\n  "version": {version},\n  "name": ')
    assert list(json.loads(text)) == list(rules.to_json())
    assert RuleSet.parse(text) == rules
    assert sharing.file_text(RuleSet.parse(text)) == text


def test_the_file_keeps_the_names_script_as_written():
    assert '"name": "Smith family · Ñoño 🃏"' in sharing.file_text(smith())


@pytest.mark.parametrize(
    ("name", "file_name"),
    [
        ("Smith family", "smith-family.rules.json"),
        ("  Ñoño's   rules!  ", "nono-s-rules.rules.json"),
        ("Семья", "house.rules.json"),
        ("Liverpool", "liverpool.rules.json"),
    ],
)
def test_the_file_name_is_the_name_in_plain_letters(name, file_name):
    assert sharing.file_name(LIVERPOOL.renamed(name)) == file_name


# --- Damaged and hostile codes ---------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        None,
        42,
        b"abc",
        "not a code!",
        "A",  # one character of base64 is no byte at all
        "AAAA",  # not deflate
        packed(b"not json"),
        packed(b"shanghai"),  # a preset's name is not a shared rule set
        packed(b'["a list"]'),
        packed("{}".encode("utf-16")),
        packed(LIVERPOOL.dumps().encode())[:-4],  # cut short
        packed(LIVERPOOL.dumps().encode()) + "AAAA",  # something after the end
    ],
    ids=repr,
)
def test_a_damaged_code_is_named_under_rules(text):
    problems = refused(text)
    assert set(problems) == {"rules"} and problems["rules"]


def test_a_code_that_inflates_past_a_rule_set_is_refused_before_it_is_read():
    bomb = packed(b"{" + b" " * (50 * MOST_TEXT) + b"}")  # 1 MB of spaces in a few hundred bytes
    assert len(bomb) < 2000
    assert "more than a rule set" in refused(bomb)["rules"]


def test_a_code_longer_than_any_rule_sets_is_refused_unread():
    assert "too long" in refused("A" * (MOST_TEXT + 1))["rules"]


def test_a_code_of_an_unplayable_document_names_every_problem_where_it_is():
    document = LIVERPOOL.to_json() | {"cut_bonus": 5, "values": {"JK": 500}}
    problems = refused(packed(json.dumps(document).encode()))
    assert {"cut_bonus", "values.JK"} <= set(problems)


def check_code(text: str) -> None:
    """The one contract: a rule set, or `RuleSetError` with problems; nothing else."""
    try:
        rules = sharing.from_code(text)
    except RuleSetError as error:
        assert error.problems and all(isinstance(v, str) and v for v in error.problems.values())
        return
    assert sharing.from_code(sharing.code(rules)) == rules


@SETTINGS
@given(st.text(max_size=200))
def test_any_text_is_a_rule_set_or_refused(text):
    check_code(text)


@SETTINGS
@given(st.binary(max_size=300))
def test_any_deflated_bytes_are_a_rule_set_or_refused(data):
    check_code(packed(data))


@SETTINGS
@given(st.data())
def test_a_code_with_a_character_changed_is_a_rule_set_or_refused(data):
    text = sharing.code(data.draw(st.sampled_from([*PRESETS.values(), smith()])))
    place = data.draw(st.integers(0, len(text) - 1))
    char = data.draw(
        st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    )
    check_code(text[:place] + char + text[place + 1 :])
    check_code(text[:place])  # cut short anywhere
