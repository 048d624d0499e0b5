"""Hostile input, property-based: whatever arrives, the parser and the JSON API answer, never crash.

The card parser must give cards or a `RulesError`, and read back every card it writes. Every rules
endpoint must answer JSON with a status in ALLOWED and, for an error, an "error" message: never a
500. A question whose engine module has not landed yet is skipped with the module's name.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import math
from urllib.parse import quote, urlsplit

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scorekeeper import create_app
from scorekeeper.rules import Card, RulesError, format_cards, parse_cards
from scorekeeper.rules.cards import MAX_CARDS, SUITS
from scorekeeper.rules.ruleset import PRESETS
from tests.support.config import TEST_CONFIG

# The module's tests share a fixture: one process makes it, once.
pytestmark = pytest.mark.xdist_group("referee_hostile")

ALLOWED = {200, 400, 404, 413, 415}
LIMIT = 64 * 1024

# The engine module each question needs; its tests run as soon as the module exists.
ENGINE = {
    "meld": ("scorekeeper.rules.melds",),
    "opening": ("scorekeeper.rules.melds", "scorekeeper.rules.opening.laid"),
    "layoff": ("scorekeeper.rules.melds", "scorekeeper.rules.table"),
    "swap": ("scorekeeper.rules.melds", "scorekeeper.rules.table"),
    "solve": ("scorekeeper.rules.melds", "scorekeeper.rules.opening.solver"),
    "score": ("scorekeeper.rules.scoring",),
    "buy": ("scorekeeper.rules.buying",),
}
QUESTIONS = sorted(ENGINE)

# A request each question answers with 200: the starting point the mutations below break.
VALID = {
    "meld": {"cards": "7♠ 7♥ 7♦"},
    "opening": {"round": 1, "melds": ["7♣ 7♦ 7♥", "9♠ 9♥ 9♦"]},
    "layoff": {"round": 1, "meld": "7♣ 7♦ 7♥", "cards": "7♠", "opened_this_turn": False},
    "swap": {"round": 2, "meld": "4♠ 5♠ JK 7♠", "card": "6♠"},
    "solve": {"round": 1, "hand": "7♣ 7♦ 7♥ 9♠ 9♥ 9♦ 2♣ 3♣ 4♦ 5♦ K♠"},
    "score": {"cards": "7♠ K♥ JK"},
    "buy": {"active": 1, "requests": [2, 3]},
}
FIELDS = sorted(
    {"profile", "rules", "game", "bought", "players", "round", "left", "opened_this_turn"}
    | {"last_buyer", "active"}
    | {name for payload in VALID.values() for name in payload}
)

SETTINGS = settings(
    max_examples=200,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def engine_missing(question: str) -> str | None:
    """The first engine module of a question that does not exist yet (any other error fails)."""
    for name in ENGINE[question]:
        if importlib.util.find_spec(name) is None:
            return name
        importlib.import_module(name)
    return None


def need_engine(question: str) -> None:
    missing = engine_missing(question)
    if missing:
        pytest.skip(f"{missing} has not landed yet: /api/rules/{question} cannot be judged")


@pytest.fixture(scope="module")
def api(tmp_path_factory, module_database):
    """One app for the whole module (Hypothesis runs many examples per test); exceptions propagate."""
    instance = tmp_path_factory.mktemp("hostile-instance")
    config = dict(TEST_CONFIG, SQLALCHEMY_DATABASE_URI=module_database("referee"))
    return create_app(config, instance_path=str(instance)).test_client()


def check(response) -> object:
    """The contract every answer keeps: an allowed status, JSON, and a message for every error."""
    assert response.status_code in ALLOWED, (response.status_code, response.get_data()[:300])
    assert response.is_json, response.get_data()[:300]
    assert response.headers.get("Cache-Control") == "no-store"
    body = response.get_json()
    if response.status_code == 200:
        assert isinstance(body, dict | list)
    else:
        assert isinstance(body, dict), body
        assert isinstance(body.get("error"), str), body
        assert body["error"].strip(), body
    return body


def post_json(api, question: str, value, **kwargs):
    """POST any Python value as JSON (NaN and Infinity as Python's json writes them)."""
    data = json.dumps(value, ensure_ascii=False, allow_nan=True).encode("utf-8", "surrogatepass")
    return api.post(f"/api/rules/{question}", data=data, content_type="application/json", **kwargs)


# --- Values ---------------------------------------------------------------------------------------

natural = st.builds(Card, st.integers(1, 13), st.sampled_from(SUITS))
rank_only = st.builds(Card, st.integers(1, 13), st.none())
joker = st.one_of(
    st.just(Card(None, None, True)),
    st.builds(Card, st.integers(1, 13), st.sampled_from(SUITS) | st.none(), st.just(True)),
)
any_card = natural | rank_only | joker

CARD_TOKENS = [
    "7♠", "7s", "7S", "10h", "10♥", "T♦", "tc", "A♣", "a♠", "K", "q♥", "JK", "jk", "JOKER", "*",
    "🃏", "JK=7♠", "JK=7", "jk=ks", "Q♦️", "[7s]", "(9h)", "0♠", "1♠", "11♠", "7X", "=", "JK=",
    "JK=JK", "7♠=8♠", "♠", "10", "1O♠", "７♠", "7\u200b♠", "７", "Ⅶ♠", "ß", "İ", "ﬀ", "\x00",
]  # fmt: skip
card_token = st.sampled_from(CARD_TOKENS) | st.text(max_size=4)
separator = st.sampled_from([" ", ",", ";", ", ", "\t", "\n", "\u00a0", "\u3000", "  ", "|"])
cardish_text = st.lists(st.tuples(card_token, separator), max_size=14).map(
    lambda pairs: "".join(token + sep for token, sep in pairs)
)
valid_cards_text = st.lists(natural | joker, min_size=1, max_size=16).map(format_cards)

HUGE = [10**30, -(10**30), 2**63, 2**64 + 1, -(2**63) - 1, 10**300, -(10**300)]
CRAFTED = [
    *HUGE, -1, -7, 0, 1, 2, 3, 4, 6, 7, 8, 13, 99, 0.5, 1.0, -0.0, 1e308, -1e308,
    math.inf, -math.inf, math.nan, True, False, None, "", " ", "\x00", "\ud800", "\u202e7♠",
    "liverpool", "LIVERPOOL ", "family", "contract", "online", "unknown",
    " ".join(["7♠"] * 1000), ["7♠"] * 1000, [["7♠"]], [[[]]], [None], [1, 2], [True],
    {"cards": "7♠"}, {}, [], "a" * 10_000, "JK " * (MAX_CARDS + 1), "7♠ " * MAX_CARDS,
]  # fmt: skip
crafted = st.sampled_from(CRAFTED)

json_scalar = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=12),
    crafted,
    cardish_text,
    valid_cards_text,
)
json_value = st.recursive(
    json_scalar,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(max_size=6) | st.sampled_from(FIELDS), children, max_size=4)
    ),
    max_leaves=8,
)
field_name = st.sampled_from(FIELDS) | st.text(max_size=8)
random_object = st.dictionaries(field_name, json_value, max_size=6)


@st.composite
def mutated(draw, question: str):
    """A valid request with one to three fields replaced, removed or added."""
    payload = dict(VALID[question])
    for _ in range(draw(st.integers(1, 3))):
        action = draw(st.sampled_from(["set", "set", "set", "drop", "cards"]))
        name = draw(st.sampled_from(sorted(payload) or FIELDS) | field_name)
        if action == "drop":
            payload.pop(name, None)
        elif action == "cards":
            cards = draw(st.lists(natural | joker | rank_only, max_size=MAX_CARDS + 2))
            payload[name] = draw(st.sampled_from([format_cards(cards), [str(c) for c in cards]]))
        else:
            payload[name] = draw(json_value)
    rules = draw(st.sampled_from(["none", "profile", "rules", "document", "bought"]))
    if rules == "profile":
        payload["profile"] = draw(st.sampled_from(sorted(PRESETS)))
    elif rules == "rules":
        payload["rules"] = draw(st.sampled_from(sorted(PRESETS)))
    elif rules == "document":
        payload["rules"] = draw(broken_document())
    elif rules == "bought":
        payload["bought"] = draw(st.dictionaries(st.text(max_size=4), json_value, max_size=4))
    if rules != "none":
        payload["players"] = draw(st.integers(2, 9))
    return payload


@st.composite
def broken_document(draw):
    """A preset's document with a setting, or a setting inside a deal, replaced or removed."""
    document = draw(st.sampled_from(list(PRESETS.values()))).to_json()
    for _ in range(draw(st.integers(0, 2))):
        where = document
        deals = document.get("deals")
        # An earlier step may have replaced or removed the deals: then the document itself.
        deals = (
            [deal for deal in deals if isinstance(deal, dict)] if isinstance(deals, list) else []
        )
        if deals and draw(st.booleans()):
            where = draw(st.sampled_from(deals))
        key = draw(st.sampled_from(sorted(where)) | st.text(max_size=6))
        if draw(st.booleans()):
            where.pop(key, None)
        else:
            where[key] = draw(json_value)
    return document


# --- The card parser ------------------------------------------------------------------------------


@SETTINGS
@given(text=st.text() | cardish_text, rank_only=st.booleans())
def test_parser_gives_cards_or_a_rules_error(text, rank_only):
    try:
        cards = parse_cards(text, rank_only=rank_only)
    except RulesError as error:
        assert str(error)
        return
    assert isinstance(cards, tuple)
    assert len(cards) <= MAX_CARDS
    assert all(isinstance(card, Card) for card in cards)
    # What was read is written canonically, and the canonical text reads back the same.
    assert parse_cards(format_cards(cards), rank_only=True) == cards


@settings(SETTINGS, max_examples=100)
@given(items=st.lists(json_value, max_size=6), rank_only=st.booleans())
def test_parser_takes_any_list_without_crashing(items, rank_only):
    try:
        cards = parse_cards(items, rank_only=rank_only)
    except RulesError as error:
        assert str(error)
        return
    assert all(isinstance(card, Card) for card in cards)


@SETTINGS
@given(card=any_card)
def test_every_card_reads_back_from_its_text(card):
    assert parse_cards(str(card), rank_only=True) == (card,)
    assert parse_cards([str(card)], rank_only=True) == (card,)
    assert Card.parse(str(card).lower(), rank_only=True) == card


@SETTINGS
@given(cards=st.lists(any_card, max_size=MAX_CARDS))
def test_every_list_of_cards_reads_back_from_its_text(cards):
    text = format_cards(cards)
    assert parse_cards(text, rank_only=True) == tuple(cards)
    assert parse_cards(text.replace(" ", ", "), rank_only=True) == tuple(cards)
    if not any(card.natural and card.suit is None for card in cards):
        assert parse_cards(text) == tuple(cards)


def test_parser_refuses_more_cards_than_an_entry_holds():
    with pytest.raises(RulesError):
        parse_cards(" ".join(["7♠"] * 1000))


# --- Every rules endpoint -------------------------------------------------------------------------


@pytest.mark.parametrize("question", QUESTIONS)
def test_valid_request_is_answered(api, question):
    """The mutations start from a request the engine judges, so they reach deep into it."""
    need_engine(question)
    response = post_json(api, question, VALID[question])
    assert response.status_code == 200, response.get_json()
    check(response)


@pytest.mark.parametrize("question", QUESTIONS)
def test_hostile_json_never_crashes(api, question):
    """Broken valid requests (most), random objects, and JSON values that are not objects."""
    need_engine(question)

    @SETTINGS
    @given(payload=st.one_of(mutated(question), mutated(question), random_object, json_value))
    def run(payload):
        body = check(post_json(api, question, payload))
        if not isinstance(payload, dict) and payload is not None:
            assert "must be a JSON object" in body["error"]

    run()


RAW_BODIES = {
    "empty": b"",
    "whitespace": b"  \n ",
    "truncated": b'{"cards": "7\xe2\x99\xa0',
    "invalid utf-8": b'{"cards": "7\xff\xfe"}',
    "lone surrogate escape": b'{"cards": "7\\ud800", "hand": "\\udfff", "meld": "\\ud800"}',
    "overlong utf-8": b'{"cards": "\xc0\xaf"}',
    "utf-16": json.dumps({"cards": "7♠ 7♥ 7♦"}).encode("utf-16"),
    "latin-1": b'{"cards": "7\xe2\x99\xa0 \xe9"}',
    "bom": b'\xef\xbb\xbf{"cards": "7S 7H 7D"}',
    "null byte": b'{"cards": "7S\x00"}',
    "nan": b"NaN",
    "nan field": b'{"cards": NaN, "round": Infinity, "players": -Infinity, "active": NaN}',
    "huge number": b'{"round": ' + b"9" * 5000 + b', "players": 1e999, "active": -1e999}',
    "huge exponent": b'{"round": 1e400, "left": -1e400}',
    "duplicate keys": b'{"cards": 1, "cards": "7S 7H 7D", "round": "1", "round": 1}',
    "array": b'["7S", "7H", "7D"]',
    "string": b'"7S 7H 7D"',
    "number": b"7",
    "true": b"true",
    "null": b"null",
    "1000 cards": json.dumps({name: " ".join(["7♠"] * 1000) for name in FIELDS}).encode(),
    "1000 card list": json.dumps({name: ["7♠"] * 1000 for name in FIELDS}).encode(),
    "many melds": json.dumps({"round": 1, "melds": ["7♠ 7♥ 7♦"] * 1000}).encode(),
    "many requests": json.dumps({"active": 0, "requests": list(range(1000))}).encode(),
    "negative seats": json.dumps({"active": -1, "requests": [-1, -2**63], "last_buyer": -5}).encode(),
    "huge seats": json.dumps({"active": 2**64, "requests": [10**30], "last_buyer": 10**30}).encode(),
    "float seats": json.dumps({"active": 0.0, "requests": [1.5], "round": 1.0, "players": 4.0}).encode(),
}  # fmt: skip

# Within the 64 KiB limit, nesting deep enough to exhaust Python's recursion in json.loads.
DEEP_BODIES = {
    "deep list": b"[" * 20_000 + b"]" * 20_000,
    "deep object": b'{"cards": ' + b"[" * 20_000 + b"]" * 20_000 + b"}",
    "deep dict": b'{"a":' * 5_000 + b"1" + b"}" * 5_000,
}

CONTENT_TYPES = [
    "application/json",
    "application/json; charset=utf-8",
    "application/json; charset=latin-1",
    "application/json; charset=utf-16",
    "application/problem+json",
    "APPLICATION/JSON",
]


@pytest.mark.parametrize("question", QUESTIONS)
@pytest.mark.parametrize("name", sorted(RAW_BODIES))
def test_raw_bodies_never_crash(api, question, name):
    need_engine(question)
    for content_type in CONTENT_TYPES:
        check(api.post(f"/api/rules/{question}", data=RAW_BODIES[name], content_type=content_type))


@pytest.mark.parametrize("name", sorted(DEEP_BODIES))
def test_deeply_nested_json_is_a_400(api, name):
    """json.loads raises RecursionError (not ValueError) here, which json_body must answer 400."""
    for question in QUESTIONS:
        if engine_missing(question):
            continue
        response = api.post(
            f"/api/rules/{question}", data=DEEP_BODIES[name], content_type="application/json"
        )
        assert response.status_code == 400, question
        check(response)


@pytest.mark.parametrize("question", QUESTIONS)
@pytest.mark.parametrize(
    "content_type",
    [
        None,
        "text/plain",
        "text/json",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=xyz",
        "application/xml",
        "application/jsonx",
        "json",
        "",
    ],
)
def test_wrong_content_type_is_415(api, question, content_type):
    need_engine(question)
    headers = {} if content_type is None else {"Content-Type": content_type}
    response = api.post(
        f"/api/rules/{question}", data=json.dumps(VALID[question]).encode(), headers=headers
    )
    assert response.status_code == 415
    assert "Content-Type: application/json" in check(response)["error"]


@pytest.mark.parametrize("question", QUESTIONS)
def test_form_fields_are_415_not_a_crash(api, question):
    need_engine(question)
    response = api.post(f"/api/rules/{question}", data={"cards": "7♠ 7♥ 7♦"})
    assert response.status_code == 415
    check(response)


@pytest.mark.parametrize("question", QUESTIONS)
def test_body_over_the_limit_is_413(api, question):
    need_engine(question)
    body = json.dumps({"cards": "7♠ " * (LIMIT // 3)}).encode()
    response = api.post(f"/api/rules/{question}", data=body, content_type="application/json")
    assert response.status_code == 413
    check(response)


@settings(SETTINGS, max_examples=100)
@given(name=st.text(max_size=40))
def test_unknown_questions_are_404(api, name):
    assume(name not in ENGINE)
    response = api.post(f"/api/rules/{quote(name, safe='')}", json={"cards": "7♠"})
    if response.status_code == 308:  # '/api/rules//x': Werkzeug merges the slashes
        assert urlsplit(response.headers["Location"]).path.startswith("/api/rules/")
        return
    assert response.status_code in {404, 405}, response.status_code
    assert response.is_json
    assert response.get_json()["error"]


@pytest.mark.parametrize("method", ["GET", "PUT", "DELETE", "PATCH"])
def test_other_methods_answer_json(api, method):
    response = api.open("/api/rules/meld", method=method, json={})
    assert response.status_code == 405
    assert response.is_json
    assert response.get_json()["error"]
