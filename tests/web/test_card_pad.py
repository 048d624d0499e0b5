"""The tap card pad spells and reads cards as the engine does: every page with a pad gives it the
notation of scorekeeper.rules.cards in `data-notation`, that notation lists every spelling the
engine reads and nothing else, and no script under static/ spells a card of its own."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from scorekeeper.rules.cards import JOKER, RANKS, SUITS, Card, notation
from scorekeeper.rules.errors import CardError
from tests.support.book import start

STATIC = Path(__file__).resolve().parents[2] / "static"
# What a player might type for a rank, a suit or a joker: each is in the notation exactly when
# the engine reads it so.
TYPED = sorted(
    set(string.ascii_uppercase + string.digits)
    | {str(n) for n in range(10, 15)}
    | set("♠♥♦♣♤♡♢♧★☆*+?🃏")
    | {"JK", "JKR", "JOKER", "JOK", "JOKERS", "JJ"}
)


def reads(token: str) -> Card | None:
    try:
        return Card.parse(token, rank_only=True)
    except CardError:
        return None


def pad_notation(page: str) -> dict:
    pad = re.search(r'<div class="cardpad"[^>]*>', page)
    assert pad, "no card pad on the page"
    return json.loads(re.search(r"data-notation='([^']*)'", pad.group()).group(1))


def test_every_pad_is_given_the_engines_notation(client):
    game_id = start(client)
    for path in (f"/games/{game_id}/rounds/new", "/rules?q=meld", "/rules?q=layoff"):
        page = client.get(path).get_data(as_text=True)
        assert pad_notation(page) == notation(), path


def test_the_notation_writes_cards_as_the_engine_does():
    spec = notation()
    assert spec["ranks"] == [Card(rank, None).face() for rank in RANKS]
    assert [suit["symbol"] for suit in spec["suits"]] == [Card(7, s).face()[1:] for s in SUITS]
    red = {suit["symbol"] for suit in spec["suits"] if suit["red"]}
    assert red == {Card(7, s).face()[1:] for s in SUITS if Card(7, s).red}
    assert spec["joker"] == str(JOKER)
    declared = spec["joker"] + spec["declares"] + "7" + spec["suits"][0]["symbol"]
    assert str(Card.parse(declared)) == declared


@pytest.mark.parametrize("typed", TYPED)
def test_the_notation_reads_each_spelling_as_the_engine_does(typed):
    spec = notation()
    as_rank = reads(typed + spec["suits"][0]["symbol"])
    assert spec["read_rank"].get(typed) == (as_rank.face()[:-1] if as_rank else None)
    as_suit = reads("7" + typed)
    assert spec["read_suit"].get(typed) == (as_suit.face()[1:] if as_suit else None)
    assert (typed in spec["read_joker"]) == (reads(typed) == JOKER)


def test_the_notation_splits_and_cleans_as_the_engine_does():
    spec = notation()
    text = "7♠,7♥;  7♦\t8♣"
    assert re.split(spec["separators"], text) == ["7♠", "7♥", "7♦", "8♣"]
    for mark in spec["ignored"]:
        assert Card.parse("7♥" + mark) == Card.parse("7♥")


def test_no_script_spells_a_card_of_its_own():
    """The ranks, the suits and their symbols, the red suits and the joker come from the page."""
    spec = notation()
    symbols = [typed for typed in [*spec["read_suit"], *spec["read_joker"]] if not typed.isascii()]
    names = [suit["name"] for suit in spec["suits"]]
    quoted = re.compile(r"""["'](JK|10|[AJQK])["']""")
    scripts = sorted(STATIC.glob("*.js"))
    assert any(path.name == "cards.js" for path in scripts)
    for path in scripts:
        text = path.read_text(encoding="utf-8")
        assert [s for s in symbols if s in text] == [], path.name
        assert [n for n in names if n in text] == [], path.name
        assert quoted.findall(text) == [], path.name
