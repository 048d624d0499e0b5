"""The engine answers in codes: each message is a code with named values, its words in words.py.

Every code has its text and every text a code; `render` writes a message in English by default
and in any language given gettext-style functions; a verdict carries its reason's code and values
beside the English reason. The prose ratchet: an engine module is either a words place
(`WORDS_PLACES`: words.py for the coded messages, ruleset/words.py for the rulebook's text and
the settings' sentences) or holds no sentence of its own (a string of two words, outside
docstrings).
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from scorekeeper.rules import document, layoff_reasons, ruleeffects, words
from scorekeeper.rules.buying import check_buy, penalty_text
from scorekeeper.rules.cards import over_copies, parse_cards
from scorekeeper.rules.contracts import Asked, contract
from scorekeeper.rules.errors import CardError, RulesError, SeatError
from scorekeeper.rules.melds import check_meld
from scorekeeper.rules.opening import search
from scorekeeper.rules.opening.solver import solve_opening
from scorekeeper.rules.ruleset import LIVERPOOL, schema
from scorekeeper.rules.seating import check_seat
from scorekeeper.rules.table import check_layoff, check_swap
from scorekeeper.rules.verdict import Verdict
from scorekeeper.rules.words import (
    TEXTS,
    Code,
    Join,
    Part,
    Plural,
    Text,
    joined,
    message,
    ranks,
    render,
    suit,
)

ENGINE = Path(words.__file__).parent

# The engine's words places: the only modules whose strings are English by nature.
WORDS_PLACES = {"words", "ruleset.words"}

# Prose: two words with a space between them.
PROSE = re.compile(r"[A-Za-z]+ [A-Za-z]+")


def _codes(kind: type[Code]) -> list[Code]:
    members = list(kind)
    for sub in kind.__subclasses__():
        members += _codes(sub)
    return members


def test_every_code_has_words_and_every_text_a_code():
    # Every engine module loaded, so every code is defined.
    loaded = [
        importlib.import_module(f"scorekeeper.rules.{name}".removesuffix(".rules"))
        for name in MODULES
    ]
    assert layoff_reasons.Why and search.Refusal and len(loaded) == len(MODULES)
    ids = [code.id for code in _codes(Code)]
    assert len(ids) == len(set(ids))
    assert set(ids) == set(TEXTS)


def test_plural_forms_follow_the_count():
    hand = parse_cards("7♠")
    one = solve_opening(hand, 1, LIVERPOOL)
    assert one.reason == (
        "2 sets needs at least 7 cards, one of them kept to discard: this hand has 1 card."
    )
    two = solve_opening(parse_cards("7♠ 8♠"), 1, LIVERPOOL)
    assert two.reason.endswith("this hand has 2 cards.")
    assert render(message(search.Refusal.SETS, **{**two.values, "sets": 2})).startswith(
        "No 2 sets can be made"
    )


def test_nested_messages_lists_ranks_and_suits():
    assert render(joined(Join.OR, ["4♠"])) == "4♠"
    assert render(joined(Join.OR, ["4♠", "9♠", "3♥"])) == "4♠, 9♠ or 3♥"
    assert render(joined(Join.AND, ["3♠", "9♠ 10♠"])) == "3♠ and 9♠ 10♠"
    assert render(joined(Join.EITHER, ["a", "b", "c"])) == "A or b or c"  # a sentence's capital
    assert [render(ranks(rank)) for rank in (1, 7, 11, 12, 13)] == [
        "Aces",
        "7s",
        "Jacks",
        "Queens",
        "Kings",
    ]
    assert render(suit("D")) == "Diamonds"


def test_render_takes_a_language():
    """Each text is looked up by gettext (or ngettext with its count), so a catalogue can give
    another language; the values fill the translated text."""
    french = {
        "%(card)s is laid twice: a run holds each card once": (
            "%(card)s est posé deux fois : une suite ne contient chaque carte qu'une fois"
        ),
        "%(num)s card": "%(num)s carte",
        "%(num)s cards": "%(num)s cartes",
        "%(num)s set": "%(num)s série",
        "%(num)s sets": "%(num)s séries",
    }
    asked = []

    def gettext(text, **values):
        asked.append(text)
        return french.get(text, text) % values if values else french.get(text, text)

    def ngettext(singular, plural, num, **values):
        asked.append((singular, plural, num))
        return french[singular if num == 1 else plural] % {**values, "num": num}

    twice = message(layoff_reasons.Why.RUN_TWICE, card="7♠")
    assert render(twice, gettext, ngettext) == (
        "7♠ est posé deux fois : une suite ne contient chaque carte qu'une fois"
    )
    size = solve_opening(parse_cards("7♠ 8♠"), 1, LIVERPOOL).message
    said = render(size, gettext, ngettext)
    assert said.endswith("this hand has 2 cartes.")
    # The contract the refusal names is said in the language too (a `Said`, not English text).
    assert said.startswith("2 séries ")
    assert ("%(num)s card", "%(num)s cards", 2) in asked


def test_a_verdict_carries_its_code_and_values():
    verdict = solve_opening(parse_cards("7♠ 8♠"), 1, LIVERPOOL)
    assert verdict.code == "opening.size"
    assert verdict.values["size"] == 2
    assert verdict.reason == render(verdict.message)
    assert verdict.to_dict()["code"] == "opening.size"
    layoff = check_layoff(2, parse_cards("4♠ 5♠ 6♠ 7♠"), parse_cards("7♠"), False, LIVERPOOL)
    assert layoff.code == "layoff.run_has_card"
    assert layoff.values["card"] == "7♠"
    assert layoff.to_dict()["code"] == "layoff.run_has_card"


def test_melds_swaps_and_buys_carry_their_codes():
    meld = check_meld(parse_cards("5♠ 6♠ 9♠ 10♠"), LIVERPOOL)
    assert meld.code == "meld.run_gap" and meld.values["width"] == 6
    assert meld.reason == words.words(meld.message)  # a clause: the cards open it
    assert meld.to_dict()["code"] == "meld.run_gap"
    legal = check_meld(parse_cards("5♠ 6♠ JK 8♠"), LIVERPOOL)
    assert legal.code == "meld.legal" and "code" not in legal.to_dict()
    swap = check_swap(2, parse_cards("5♠ 6♠ JK 8♠"), parse_cards("JK")[0], False, LIVERPOOL)
    assert swap.code == "table.natural_only"
    nobody = check_buy(4, 0, [], LIVERPOOL)
    assert nobody.code == "buy.nobody_asked" and nobody.to_dict()["code"] == "buy.nobody_asked"


def test_errors_carry_their_message():
    with pytest.raises(CardError) as bad:
        parse_cards("7♠ XX")
    assert bad.value.said.code.id == "card.not_a_card"
    assert bad.value.said.values["position"] == 2
    assert str(bad.value) == words.words(bad.value.said)
    assert str(bad.value).startswith("'XX' (card 2) is not a card: write a rank")
    with pytest.raises(SeatError) as seat:
        check_seat(5, 4)
    assert seat.value.said.code.id == "seat.missing"
    assert str(seat.value) == "seat 5 does not exist: seats are 0 to 3"
    assert RulesError("plain words").said is None


def test_counts_read_in_plural_forms():
    assert str(contract(1, LIVERPOOL)) == "2 sets"
    assert render(message(Asked.RUNS_OF, count=1, size=10)) == "1 run of 10"
    assert [penalty_text(count) for count in (1, 2)] == [
        "takes the top stock card as a penalty",
        "takes the top 2 stock cards as a penalty",
    ]
    one, three = (render(over_copies(parse_cards("JK " * n), 1, 0)[0][1]) for n in (1, 3))
    assert one == "1 joker, but this game is played without jokers"
    assert three == "3 jokers, but this game is played without jokers"


def test_a_reason_with_no_code_says_so():
    plain = Verdict(True, "Fine", "R4")
    assert plain.code is None and plain.values == {} and "code" not in plain.to_dict()


def test_a_reason_on_a_setting_keeps_codes_all_the_way_down():
    coded = solve_opening(parse_cards("7♠ 8♠"), 1, LIVERPOOL)
    said = message(Part.SENTENCE, said=coded.message)
    reworded = coded.on_setting("deals", said)
    assert reworded.code == "part.sentence" and reworded.to_dict()["code"] == "part.sentence"
    assert reworded.reason == coded.reason and reworded.rule == "R11"
    assert reworded.values["said"] is coded.message


def test_a_plural_text_reads_its_count():
    entry = TEXTS["layoff.run_gap"]
    assert isinstance(entry, Text) and isinstance(entry.text, Plural)
    assert entry.text.count == "laid"


def test_rule_set_problems_are_coded_under_their_places():
    """The reader keeps each problem as a code under its place; the refusal says them in words,
    and a translation's functions would say them in its language."""
    kept = document.Reader()
    data = kept.mapping("", {"players": {"min": 1}, "versoin": 1}, ("players", "version"))
    players = kept.mapping("players", data["players"], ("min", "max"))
    kept.whole("players.min", players["min"], range(2, 9))
    assert {path: said.code for path, said in kept.problems.items()} == {
        "versoin": document.Read.UNKNOWN_CLOSE,
        "players.min": document.Read.OUT_OF_RANGE,
    }
    refused = schema.refusal(kept.listed(lambda path: len(path)))
    assert refused.problems["players.min"] == "must be from 2 to 8, not 1"
    assert str(refused) == (
        "the rule set cannot be used (2 problems): versoin: is not a setting: did you mean "
        "version?; players.min: must be from 2 to 8, not 1"
    )


def test_the_editor_notes_are_coded():
    notes = ruleeffects.coded_notes(LIVERPOOL)
    assert notes["cut_bonus"].code is ruleeffects.Note.CUT
    assert ruleeffects.notes(LIVERPOOL)["cut_bonus"] == render(notes["cut_bonus"])


def _module_name(path: Path) -> str:
    """`melds`, `opening.solver`, `ruleset` (a package by its own name)."""
    parts = path.relative_to(ENGINE).with_suffix("").parts
    parts = parts[:-1] if parts[-1] == "__init__" else parts
    return ".".join(parts) or "rules"


def _prose(path: Path) -> list[str]:
    """The strings of a module that read as prose, docstrings aside."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
        and PROSE.search(node.value)
    ]


MODULES = {
    _module_name(path): path
    for path in ENGINE.rglob("*.py")
    if _module_name(path) not in WORDS_PLACES
}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_engine_modules_write_no_prose(name):
    prose = _prose(MODULES[name])
    assert not prose, f"{name} writes its own words ({prose[:3]}): put them in a words place"


@pytest.mark.parametrize("name", sorted(WORDS_PLACES))
def test_words_places_hold_the_words(name):
    path = ENGINE / (name.replace(".", "/") + ".py")
    assert _prose(path), f"{name} holds no words: take it off WORDS_PLACES"
