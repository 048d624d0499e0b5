"""Hostile input against the score book, property-based: no input gives a 500, every API error is
JSON with a message, and a hostile run changes nothing it should not.

The JSON API (games and rounds) and the pages' forms (new game, record, correct, undo, the rules
check) are fed random and crafted requests. Before each request the stored games are read through
`GET /api/games/<id>`; a refused request must leave them exactly as they were, and an accepted one
must leave every game consistent (totals are the sums of the rounds, rounds numbered 1..n) and
change only what it says it changed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from urllib.parse import quote

import pytest
from conftest import TEST_CONFIG
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from scorekeeper import create_app
from scorekeeper.rules import PROFILES

ALLOWED = {200, 201, 400, 401, 403, 404, 405, 409, 413, 415}
PAGE_ALLOWED = {200, 302, 400, 403, 404, 405, 413}
LIMIT = 64 * 1024
NAMES = ["Ann", "Bob", "Cat", "Dan"]
OTHERS = ["Eve", "Fay", "Gus", "Hal"]
HUGE_ID = 99999999999999999999999
TABS = ["meld", "opening", "layoff", "swap", "solve", "buy"]

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    database=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.function_scoped_fixture,
        HealthCheck.data_too_large,
    ],
)


# --- The contract ---------------------------------------------------------------------------------


def check(response) -> object:
    """Every API answer: an allowed status, JSON, never cached, and a message for every error."""
    assert response.status_code != 500, response.get_data()[:300]
    assert response.status_code in ALLOWED, (response.status_code, response.get_data()[:300])
    assert response.is_json, (response.status_code, response.get_data()[:300])
    assert response.headers.get("Cache-Control") == "no-store"
    body = response.get_json()
    if response.status_code < 400:
        assert isinstance(body, dict), body
    else:
        assert isinstance(body, dict), body
        assert isinstance(body.get("error"), str), body
        assert body["error"].strip(), body
    return body


def check_page(response) -> None:
    """Every page answer: an allowed status and HTML, never a 500."""
    assert response.status_code != 500, response.get_data()[:300]
    assert response.status_code in PAGE_ALLOWED, (response.status_code, response.get_data()[:300])
    if response.status_code != 302:
        assert response.mimetype == "text/html", (response.status_code, response.mimetype)


def consistent(game: dict) -> None:
    """A stored game adds up: rounds 1..n, each score its penalty plus bonus, totals their sums."""
    names = game["players"]
    rounds = game["rounds"]
    assert [r["number"] for r in rounds] == list(range(1, len(rounds) + 1))
    assert len(rounds) <= 7
    assert game["finished"] == (len(rounds) == 7)
    assert game["round"] == (None if game["finished"] else len(rounds) + 1)
    for played in rounds:
        assert set(played["scores"]) == set(names)
        assert played["version"] >= 1
        for name in names:
            assert played["scores"][name] == played["penalties"][name] + played["bonus"][name]
        if played["out"] is not None:
            assert played["leftovers"][played["out"]] == []
            assert all(played["leftovers"][n] for n in names if n != played["out"])
        else:
            assert all(played["leftovers"][n] for n in names)
    assert game["totals"] == {n: sum(r["scores"][n] for r in rounds) for n in names}
    if game["finished"]:
        low = min(game["totals"].values())
        assert game["winners"] == [n for n in names if game["totals"][n] == low]
    else:
        assert game["winners"] == []


def books(client, whole=None) -> dict:
    """Every game in brief ("list"), and whole by id: every one, or only those in `whole`."""
    listing = client.get("/api/games").get_json()["games"]
    ids = [entry["id"] for entry in listing] if whole is None else whole
    return {"list": listing, **{i: client.get(f"/api/games/{i}").get_json() for i in ids}}


def games_in(snapshot: dict) -> dict[int, dict]:
    return {i: game for i, game in snapshot.items() if i != "list"}


def as_json(value) -> bytes:
    """Any Python value as JSON (NaN, Infinity and lone surrogates as Python writes them)."""
    text = json.dumps(value, ensure_ascii=False, allow_nan=True)
    return text.encode("utf-8", "surrogatepass")


# --- Values ---------------------------------------------------------------------------------------

HOSTILE_NAMES = [
    "Ann", "ann", " Ann ", "ANN", "A  nn", "a\tnn", "Bob", "bob ", "Straße", "STRASSE", "İ", "i̇",
    "<script>alert(1)</script>", "<b>Ann</b>", "\"><img src=x onerror=alert(1)>", "&amp;", "{{7*7}}",
    "\u202eevil", "\u200b", "", " ", "\t\n", "\x00", "\x1b[31m", "\ud800", "\udfff", "a" * 24,
    "a" * 25, "a" * 10_000, "名前", "🃏🃏", "Ann\nBob", "\u00a0Ann\u3000", "Ｆｕｌｌ", "null", "0",
]  # fmt: skip
HUGE = [10**30, -(10**30), 2**63, 2**63 - 1, 2**64 + 1, -(2**63) - 1, 10**300]
CRAFTED = [
    *HUGE, -1, 0, 1, 2, 3, 4, 7, 8, 0.5, 1.0, -0.0, 1e308, float("inf"), float("-inf"),
    float("nan"), True, False, None, "", " ", "\x00", "\ud800", "liverpool", "LIVERPOOL",
    "family", "online", "unknown", [], {}, [None], [[]], [1, 2], {"a": {"b": {"c": []}}},
    "a" * 10_000, "JK " * 200, ["7♠"] * 200, "<script>alert(1)</script>",
]  # fmt: skip
CARD_TEXT = [
    "5", "K♠", "JK", "A♠ K♦ 4♥", "7 7", "10", "10♥ 10♥", "7s 7h", "jk jk jk jk jk", "JK " * 30,
    "A♠ " * 20, "7X", "♠", "0", "11", "JK=7♠", "", " ", "\x00", "🃏", "７♠", "Q♦️", "K♠, Q♠; 2",
]  # fmt: skip

json_scalar = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=10),
    st.sampled_from(CRAFTED),
    st.sampled_from(HOSTILE_NAMES),
    st.sampled_from(CARD_TEXT),
)
json_value = st.recursive(
    json_scalar,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=8,
)
hostile_name = st.sampled_from(HOSTILE_NAMES) | st.text(max_size=30)
name_list = st.lists(hostile_name | st.sampled_from(NAMES), min_size=0, max_size=20)
cards = st.sampled_from(CARD_TEXT) | st.lists(st.sampled_from(CARD_TEXT), max_size=5) | json_value

CONTENT_TYPES = [
    "application/json",
    "application/json; charset=utf-8",
    "application/json; charset=latin-1",
    "application/problem+json",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=xyz",
    None,
]
RAW_BODIES = [
    b"",
    b"  ",
    b"null",
    b"[]",
    b'"text"',
    b"7",
    b'{"players": ["Ann", "Bob"',
    b'{"out": "Ann\xff\xfe", "leftovers": {}}',
    b'{"players": ["\xc0\xaf", "B", "C", "D"]}',
    b'\xef\xbb\xbf{"out": null, "leftovers": {}}',
    b'{"out": NaN, "number": Infinity, "version": -Infinity}',
    b'{"number": ' + b"9" * 5000 + b', "version": 1e999}',
    b'{"out": "Cat", "out": null, "leftovers": {"Ann": "5"}, "leftovers": 1}',
    json.dumps({"players": NAMES}).encode("utf-16"),
    b"[" * 20_000 + b"]" * 20_000,
    b'{"leftovers": ' + b"[" * 20_000 + b"]" * 20_000 + b"}",
    b'{"a":' * 5_000 + b"1" + b"}" * 5_000,
    b'{"players": ["' + b"a" * (LIMIT + 10) + b'"]}',
]


@st.composite
def game_body(draw):
    """A valid new-game body with a few fields replaced, dropped or added; or anything at all."""
    if draw(st.integers(0, 9)) == 0:
        return draw(json_value)
    body: dict = {"players": list(NAMES), "profile": "liverpool", "first_dealer": "Bob"}
    for _ in range(draw(st.integers(0, 3))):
        name = draw(st.sampled_from(["players", "profile", "first_dealer", "extra"]))
        action = draw(st.sampled_from(["names", "value", "drop", "profile"]))
        if action == "drop":
            body.pop(name, None)
        elif action == "names":
            body[name] = draw(name_list)
        elif action == "profile":
            body[name] = draw(st.sampled_from(sorted(PROFILES)))
        else:
            body[name] = draw(json_value)
    return body


@st.composite
def round_body(draw, game: dict, number: int | None):
    """A round for this game, valid at first, then broken in a few places."""
    names = game["players"]
    played = next((r for r in game["rounds"] if r["number"] == number), None)
    out = draw(st.sampled_from([*names, None]))
    body: dict = {
        "out": out,
        "leftovers": {
            name: draw(st.sampled_from(["5", "K♠", "JK", "7 7", "A♠ K♦ 4♥", "Q"]))
            for name in names
            if name != out
        },
        "cut_exact": draw(st.booleans()),
    }
    if played is not None:
        body["version"] = draw(st.sampled_from([played["version"]] * 3 + [played["version"] - 1]))
    if game["round"] and draw(st.booleans()):
        body["number"] = game["round"]
    for _ in range(draw(st.integers(0, 3))):
        action = draw(st.sampled_from(["field", "drop", "cards", "name", "extra"]))
        target = draw(st.sampled_from(["out", "leftovers", "cut_exact", "version", "number"]))
        if action == "drop":
            body.pop(target, None)
        elif action == "field":
            body[target] = draw(json_value)
        elif action == "cards":
            who = draw(st.sampled_from(names) | hostile_name)
            leftovers = body.get("leftovers")
            if isinstance(leftovers, dict):
                leftovers[who] = draw(cards)
        elif action == "name":
            body["out"] = draw(hostile_name | st.sampled_from([n.lower() for n in names]))
        else:
            body[draw(st.text(max_size=8))] = draw(json_value)
    return body


def game_url(draw, known: dict[str, int]) -> str:
    """A game segment: one of ours (mostly), or any number or text at all."""
    choice = draw(
        st.sampled_from(["target"] * 6 + ["bystander"] * 2 + ["int", "huge", "text", "negative"])
    )
    if choice in known:
        return str(known[choice])
    if choice == "int":
        return str(draw(st.integers(0, 10**6)))
    if choice == "huge":
        return str(abs(draw(st.sampled_from(HUGE) | st.integers(2**62, 10**40))))
    if choice == "negative":
        return str(-draw(st.integers(1, 10**30)))
    return quote(draw(st.text(min_size=1, max_size=12)), safe="")


def round_url(draw, game: dict) -> str:
    choice = draw(st.sampled_from(["latest"] * 4 + ["any", "int", "huge", "text", "negative"]))
    if choice == "latest" and game["rounds"]:
        return str(game["rounds"][-1]["number"])
    if choice == "any" and game["rounds"]:
        return str(draw(st.sampled_from(game["rounds"]))["number"])
    if choice == "huge":
        return str(abs(draw(st.sampled_from(HUGE))))
    if choice == "negative":
        return str(-draw(st.integers(1, 10**30)))
    if choice == "text":
        return quote(draw(st.text(min_size=1, max_size=12)), safe="")
    return str(draw(st.integers(0, 12)))


header_text = st.text(
    alphabet=st.characters(min_codepoint=32, max_codepoint=255, exclude_characters="\x7f"),
    max_size=40,
)


def key_headers(draw, keys: dict[str, str]) -> tuple[str, list[tuple[str, str]]]:
    """The X-Game-Key headers of a request, and which kind they are."""
    kind = draw(
        st.sampled_from(
            ["right"] * 6 + ["other", "none", "empty", "garbage", "odd", "padded", "twice", "long"]
        )
    )
    right, other = keys["target"], keys["bystander"]
    value = {
        "right": right,
        "other": other,
        "empty": "",
        "garbage": draw(header_text),
        "odd": draw(
            st.sampled_from(["null", "None", "true", "0", "[]", "{}", '["' + right + '"]'])
        ),
        "padded": f" {right}x",
        "twice": right + right,
        "long": right * 1000,
    }.get(kind)
    if kind == "none":
        return kind, []
    if kind == "twice":
        return kind, [("X-Game-Key", other), ("X-Game-Key", right)]
    return kind, [("X-Game-Key", value)]


# --- 1. The JSON API ------------------------------------------------------------------------------


def new_game(client, names=NAMES, first_dealer="Bob") -> tuple[dict, str]:
    response = client.post("/api/games", json={"players": names, "first_dealer": first_dealer})
    assert response.status_code == 201, response.get_json()
    data = response.get_json()
    return data, data.pop("key")


def record(client, game_id: int, key: str, out: str, names=NAMES) -> None:
    body = {"out": out, "leftovers": {n: "5 K" for n in names if n != out}}
    response = client.post(f"/api/games/{game_id}/rounds", json=body, headers={"X-Game-Key": key})
    assert response.status_code == 201, response.get_json()


@pytest.fixture
def table(client):
    """Two games with keys: the target of every request, with two rounds, and a bystander."""
    target, target_key = new_game(client)
    bystander, bystander_key = new_game(client, OTHERS, "Gus")
    record(client, target["id"], target_key, "Cat")
    record(client, target["id"], target_key, "Ann")
    record(client, bystander["id"], bystander_key, "Eve", OTHERS)
    return {"target": target["id"], "bystander": bystander["id"]}, {
        "target": target_key,
        "bystander": bystander_key,
    }


def test_the_table_starts_consistent(client, table):
    for game in games_in(books(client)).values():
        consistent(game)


@SETTINGS
@given(body=game_body())
def test_create_game_never_crashes_and_stores_only_what_it_answers(client, body):
    before = books(client, whole=[])["list"]
    response = client.post("/api/games", data=as_json(body), content_type="application/json")
    answer = check(response)
    after = books(client, whole=[])["list"]
    if response.status_code != 201:
        assert after == before
        return
    key = answer.pop("key")
    assert isinstance(key, str) and key
    assert [entry for entry in after if entry["id"] != answer["id"]] == before
    assert len(after) == len(before) + 1
    stored = client.get(f"/api/games/{answer['id']}").get_json()
    assert stored == answer
    consistent(stored)
    names = stored["players"]
    assert names == [" ".join(str(n).split()) for n in body["players"]]
    assert all(0 < len(name) <= 24 for name in names)
    assert len({name.casefold() for name in names}) == len(names)
    profile = PROFILES[stored["profile"]]
    assert profile.min_players <= len(names) <= profile.max_players
    assert stored["rounds"] == [] and stored["round"] == 1


@SETTINGS
@given(body=st.sampled_from(RAW_BODIES), content_type=st.sampled_from(CONTENT_TYPES))
def test_create_game_raw_bodies_never_crash(client, body, content_type):
    before = books(client, whole=[])
    headers = {} if content_type is None else {"Content-Type": content_type}
    response = client.post("/api/games", data=body, headers=headers)
    check(response)
    if response.status_code != 201:
        assert books(client, whole=[]) == before


@dataclass
class Call:
    """One hostile request against the rounds, and what it aimed at."""

    method: str
    url: str
    data: bytes
    headers: list[tuple[str, str]] = field(default_factory=list)
    key_kind: str = "right"
    target: int | None = None  # the game id, when it is one of ours
    number: str | None = None  # the round segment of a PUT or DELETE


def draw_call(draw, client, known: dict[str, int], keys: dict[str, str]) -> Call:
    method = draw(
        st.sampled_from(["POST", "POST", "PUT", "PUT", "DELETE", "DELETE", "GET", "PATCH"])
    )
    game_segment = game_url(draw, known)
    target = int(game_segment) if game_segment in {str(v) for v in known.values()} else None
    game = client.get(f"/api/games/{target or known['target']}").get_json()
    number = None
    if method == "POST":
        url = f"/api/games/{game_segment}/rounds"
    elif method == "GET" and draw(st.booleans()):
        url = f"/api/games/{game_segment}"
    else:
        number = round_url(draw, game)
        url = f"/api/games/{game_segment}/rounds/{number}"
        if method == "DELETE" and draw(st.booleans()):
            version = draw(st.sampled_from(["1", "2", "0", "-1", "x", "1.5", "9" * 30, "", "%00"]))
            url += f"?version={version}"
    kind, headers = key_headers(draw, keys)
    body_kind = draw(st.sampled_from(["round"] * 6 + ["random", "value", "raw", "none"]))
    if body_kind == "round":
        round_number = int(number) if number and number.isdigit() and len(number) < 4 else None
        body = draw(round_body(game, round_number))
        data = as_json(body)
    elif body_kind == "random":
        body = draw(st.dictionaries(st.text(max_size=8), json_value, max_size=5))
        data = as_json(body)
    elif body_kind == "value":
        body = draw(json_value)
        data = as_json(body)
    elif body_kind == "raw":
        data = draw(st.sampled_from(RAW_BODIES))
    else:
        data = b""
    content_type = draw(st.sampled_from(CONTENT_TYPES[:1] * 6 + CONTENT_TYPES))
    if content_type is not None:
        headers.append(("Content-Type", content_type))
    return Call(method, url, data, headers, kind, target, number)


def assert_only_the_change_it_made(call: Call, answer: dict, before: dict, after: dict) -> None:
    """An accepted write changed the target game alone, and only the way its answer says."""
    assert set(after) == set(before)
    assert [e for e in after["list"] if e["id"] != call.target] == [
        e for e in before["list"] if e["id"] != call.target
    ]
    for game_id, game in games_in(after).items():
        consistent(game)
        if game_id != call.target:
            assert game == before[game_id]
    was, now = before[call.target], after[call.target]
    assert {k: v for k, v in now.items() if k not in MOVES} == {
        k: v for k, v in was.items() if k not in MOVES
    }
    if call.method == "POST":
        assert now["rounds"] == [*was["rounds"], answer]
    elif call.method == "PUT":
        number = answer["number"]
        assert int(call.number) == number
        assert [r for r in now["rounds"] if r["number"] != number] == [
            r for r in was["rounds"] if r["number"] != number
        ]
        assert now["rounds"][number - 1] == answer
        old = was["rounds"][number - 1]
        assert answer["version"] in (old["version"], old["version"] + 1)
        if answer["version"] == old["version"]:
            assert answer == old  # nothing changed: no new version
    elif call.method == "DELETE":
        assert was["rounds"], "an undo with no round was accepted"
        assert now["rounds"] == was["rounds"][:-1]
        assert answer == now


# Fields a round changes besides the rounds themselves: the next round's setup and the standings.
MOVES = {
    "rounds", "round", "contract", "deal", "dealer", "cutter", "first_player", "exact_cut",
    "cut_bonus", "stock_after_deal", "totals", "leaders", "finished", "winners", "finished_at",
}  # fmt: skip


def test_round_writes_never_crash_and_refusals_change_nothing(client, table):
    known, keys = table
    seen: dict[int, int] = {}

    @settings(SETTINGS, max_examples=200)
    @given(st.data())
    def run(data):
        call = draw_call(data.draw, client, known, keys)
        before = books(client)
        response = client.open(call.url, method=call.method, data=call.data, headers=call.headers)
        answer = check(response)
        after = books(client)
        status = response.status_code
        seen[status] = seen.get(status, 0) + 1
        if status >= 400 or call.method == "GET":
            assert after == before, (call, answer)
            if call.target is not None and call.method in ("POST", "PUT", "DELETE"):
                if call.key_kind == "none" and status not in (404, 413):
                    assert status == 401, (call, answer)
            return
        # Accepted: only with the target's own key, on one of our games, with a JSON object.
        assert call.target == known["target"], call
        assert call.key_kind == "right", call
        assert_only_the_change_it_made(call, answer, before, after)

    run()
    # The run reached past the key and the body checks into the score book itself.
    assert seen.get(201, 0) + seen.get(200, 0) >= 5, seen
    assert seen.get(400, 0) >= 5 and seen.get(401, 0) >= 1 and seen.get(403, 0) >= 5, seen


@pytest.mark.parametrize("body", RAW_BODIES, ids=lambda b: repr(b[:20]))
@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE"])
def test_raw_round_bodies_never_crash(client, table, method, body):
    known, keys = table
    url = f"/api/games/{known['target']}/rounds" + ("" if method == "POST" else "/2")
    before = books(client)
    for content_type in CONTENT_TYPES:
        headers = {"X-Game-Key": keys["target"]}
        if content_type is not None:
            headers["Content-Type"] = content_type
        response = client.open(url, method=method, data=body, headers=headers)
        check(response)
        if method != "DELETE":  # a DELETE takes no body: it may go through whatever was sent
            assert response.status_code >= 400
            assert books(client) == before


def test_keyless_writes_are_refused_and_change_nothing(client, table):
    known, keys = table
    before = books(client)
    for game_id, key in ((known["target"], keys["bystander"]), (known["bystander"], None)):
        headers = {"X-Game-Key": key} if key else {}
        for method, url in (
            ("POST", f"/api/games/{game_id}/rounds"),
            ("PUT", f"/api/games/{game_id}/rounds/1"),
            ("DELETE", f"/api/games/{game_id}/rounds/1"),
        ):
            body = {"out": "Ann", "leftovers": {"Bob": "5", "Cat": "5", "Dan": "5"}, "version": 1}
            response = client.open(url, method=method, json=body, headers=headers)
            assert response.status_code == (403 if key else 401), check(response)
            check(response)
    assert books(client) == before


# --- 2. The forms ---------------------------------------------------------------------------------

form_text = st.one_of(
    st.text(max_size=20),
    st.sampled_from(HOSTILE_NAMES + CARD_TEXT),
    st.sampled_from(
        ["0", "1", "3", "7", "-1", "random", "nobody", "y", "on", "9" * 5000, "٣", "²"]
    ),
    st.just("x" * 5000),
)
form_name = st.text(max_size=10) | st.sampled_from(
    [
        "csrf_token", "names-0", "names-7", "names-8", "names-99", "names--1", "names-٣", "names-²",
        "names-" + "9" * 5000, "names", "profile", "first_dealer", "out", "cut_exact",
        "round_number", "version", "cards_0", "cards_3", "cards_4", "cards_-1", "round", "players",
        "cards", "meld1", "meld", "left", "layoff_cards", "card", "hand", "opened_this_turn",
        "active", "requests", "last_buyer",
    ]
)  # fmt: skip


@st.composite
def mutated_form(draw, base: list[tuple[str, str]]):
    """A valid form with fields dropped, replaced, repeated, and random ones added."""
    fields = list(base)
    for _ in range(draw(st.integers(0, 4))):
        action = draw(st.sampled_from(["drop", "set", "repeat", "add"]))
        if action == "add" or not fields:
            fields.append((draw(form_name), draw(form_text)))
            continue
        index = draw(st.integers(0, len(fields) - 1))
        if action == "drop":
            fields.pop(index)
        elif action == "set":
            fields[index] = (fields[index][0], draw(form_text))
        else:
            fields.insert(draw(st.integers(0, len(fields))), (fields[index][0], draw(form_text)))
    if draw(st.integers(0, 40)) == 0:
        fields.append(("cards_0", "7♠ " * (LIMIT // 3)))  # over the body limit
    return fields


def new_game_form(draw) -> list[tuple[str, str]]:
    names = draw(st.lists(st.sampled_from(NAMES + HOSTILE_NAMES), min_size=3, max_size=8))
    fields = [(f"names-{i}", name) for i, name in enumerate(names)]
    fields += [
        ("profile", draw(st.sampled_from(sorted(PROFILES)))),
        ("first_dealer", draw(st.sampled_from(["random", "0", "1", "5"]))),
    ]
    return draw(mutated_form(fields))


def round_form(draw, game: dict, number: int | None) -> list[tuple[str, str]]:
    names = game["players"]
    played = next((r for r in game["rounds"] if r["number"] == number), None)
    out = draw(st.sampled_from([*range(len(names)), None]))
    fields = [("out", "nobody" if out is None else str(out))]
    fields += [
        (f"cards_{seat}", draw(st.sampled_from(["5", "K♠", "JK", "7 7", "Q J"])))
        for seat in range(len(names))
        if seat != out
    ]
    if draw(st.booleans()):
        fields.append(("cut_exact", "y"))
    fields.append(("round_number", str(number or game["round"] or "")))
    if played is not None:
        fields.append(("version", str(played["version"])))
    return draw(mutated_form(fields))


def rules_form(draw, tab: str) -> list[tuple[str, str]]:
    fields = {
        "meld": [("cards", "7♠ 7♥ 7♦")],
        "opening": [("round", "1"), ("meld1", "7♣ 7♦ 7♥"), ("meld2", "9♠ 9♥ 9♦")],
        "layoff": [("round", "1"), ("meld", "7♣ 7♦ 7♥"), ("layoff_cards", "7♠")],
        "swap": [("round", "2"), ("meld", "4♠ 5♠ JK 7♠"), ("card", "6♠")],
        "solve": [("round", "1"), ("hand", "7♣ 7♦ 7♥ 9♠ 9♥ 9♦ 2♣ 3♣ 4♦ 5♦ K♠")],
        "buy": [("active", "0"), ("requests", "1"), ("requests", "2"), ("last_buyer", "-1")],
    }[tab]
    return draw(mutated_form([("profile", "liverpool"), ("players", "4"), *fields]))


@dataclass
class FormCall:
    path: str
    fields: list[tuple[str, str]]
    kind: str  # "new", "record", "edit", "undo", "rules"
    target: int | None


def draw_form_call(draw, client, known: dict[str, int]) -> FormCall:
    kind = draw(st.sampled_from(["new", "record", "record", "edit", "edit", "undo", "rules"]))
    game_id = known[draw(st.sampled_from(["target"] * 4 + ["bystander"]))]
    game = client.get(f"/api/games/{game_id}").get_json()
    if kind == "new":
        return FormCall("/games/new", new_game_form(draw), kind, None)
    if kind == "rules":
        tab = draw(st.sampled_from(TABS))
        path = f"/rules?q={tab}"
        extra = draw(st.sampled_from(["", f"&game={game_id}", "&game=x", f"&game={HUGE_ID}"]))
        return FormCall(path + extra, rules_form(draw, tab), kind, None)
    latest = game["rounds"][-1]["number"] if game["rounds"] else 1
    number = draw(st.sampled_from([latest, latest, 1, 0, 8, HUGE_ID]))
    segment = draw(st.sampled_from([str(game_id)] * 8 + [str(HUGE_ID), "0", "x"]))
    target = game_id if segment == str(game_id) else None
    if kind == "record":
        return FormCall(f"/games/{segment}/rounds/new", round_form(draw, game, None), kind, target)
    if kind == "edit":
        fields = round_form(draw, game, number)
        return FormCall(f"/games/{segment}/rounds/{number}/edit", fields, kind, target)
    played = next((r for r in game["rounds"] if r["number"] == number), None)
    version = str(played["version"]) if played else "1"
    fields = draw(mutated_form([("version", version)]))
    return FormCall(f"/games/{segment}/rounds/{number}/undo", fields, kind, target)


def post_form(client, call: FormCall):
    return client.post(call.path, data=MultiDict(call.fields))


def with_cookie(client, game_id: int, key: str):
    client.set_cookie(f"gk_{game_id}", key)
    return client


def test_forms_never_crash_and_change_only_their_own_game(app, client, table):
    """CSRF off: the forms are judged on their fields alone."""
    known, keys = table
    with_cookie(client, known["target"], keys["target"])
    stranger = app.test_client()
    with_cookie(stranger, known["bystander"], keys["target"])  # the wrong game's key
    seen: dict[str, int] = {}

    @settings(SETTINGS, max_examples=200)
    @given(st.data())
    def run(data):
        call = draw_form_call(data.draw, client, known)
        tablet = client if data.draw(st.integers(0, 3)) else stranger
        tracked = list(known.values())
        before = books(client, tracked)
        response = post_form(tablet, call)
        check_page(response)
        after = books(client, tracked)
        status = response.status_code
        seen[f"{call.kind} {status}"] = seen.get(f"{call.kind} {status}", 0) + 1
        if call.kind == "new" and status == 302:
            new = [e for e in after["list"] if e not in before["list"]]
            assert len(new) == 1 and len(after["list"]) == len(before["list"]) + 1
            assert games_in(after) == games_in(before)
            consistent(client.get(f"/api/games/{new[0]['id']}").get_json())
            return
        if call.kind in ("new", "rules") or status != 302:
            assert after == before, call
            return
        # A redirect after a round form: only the target game may have changed, with its key.
        assert tablet is client and call.target == known["target"], call
        assert [e for e in after["list"] if e["id"] != call.target] == [
            e for e in before["list"] if e["id"] != call.target
        ]
        for game_id, game in games_in(after).items():
            consistent(game)
            if game_id != call.target:
                assert game == before[game_id]

    run()
    assert any(k.startswith("new 302") for k in seen), seen
    assert sum(v for k, v in seen.items() if k in ("record 302", "edit 302", "undo 302")) >= 3, seen


def test_round_forms_without_the_key_cookie_are_403_and_change_nothing(app, table):
    known, _keys = table
    stranger = app.test_client()

    @SETTINGS
    @given(st.data())
    def run(data):
        call = draw_form_call(data.draw, stranger, known)
        if call.kind in ("new", "rules") or call.target is None:
            return
        before = books(stranger)
        response = post_form(stranger, call)
        check_page(response)
        assert response.status_code in (403, 413), (call, response.status_code)
        assert books(stranger) == before

    run()


@pytest.fixture
def csrf_app(tmp_path):
    return create_app(
        {**TEST_CONFIG, "WTF_CSRF_ENABLED": True}, instance_path=str(tmp_path / "csrf-instance")
    )


def test_forms_with_a_bad_csrf_token_store_nothing(csrf_app, tmp_path):
    client = csrf_app.test_client()
    target, target_key = new_game(client)
    bystander, bystander_key = new_game(client, OTHERS, "Gus")
    record(client, target["id"], target_key, "Cat")
    known = {"target": target["id"], "bystander": bystander["id"]}
    with_cookie(client, target["id"], target_key)
    with_cookie(client, bystander["id"], bystander_key)
    # A real token, but for another browser's session; and one signed by another app's secret.
    other_session = csrf_app.test_client().get("/games/new").get_data(as_text=True)
    foreign = create_app(dict(TEST_CONFIG, WTF_CSRF_ENABLED=True), str(tmp_path / "foreign"))
    other_app = foreign.test_client().get("/games/new").get_data(as_text=True)
    stolen = [token_in(other_session), token_in(other_app)]
    client.get("/games/new")  # this browser has a session and a token of its own

    @SETTINGS
    @given(st.data())
    def run(data):
        call = draw_form_call(data.draw, client, known)
        fields = [(name, value) for name, value in call.fields if name != "csrf_token"]
        token = data.draw(st.sampled_from([None, "", "garbage", *stolen]) | header_text)
        if token is not None:
            fields.insert(data.draw(st.integers(0, len(fields))), ("csrf_token", token))
        before = books(client)
        response = client.post(call.path, data=MultiDict(fields))
        check_page(response)
        assert response.status_code in (400, 413), (call.path, response.status_code)
        assert books(client) == before

    run()


def token_in(page: str) -> str:
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)


# --- 3. Crafted cases -----------------------------------------------------------------------------

SCRIPTED = [
    "<script>alert(1)",
    "<img src=x onerror=1>",
    '"><svg onload=alert(1)>',
    "</td><script>x</script>",
    "Ann & <b>Bob</b>",
]


@pytest.mark.parametrize("name", SCRIPTED)
def test_html_in_names_renders_escaped(client, name):
    names = [name, "Bob", "Cat", "Dan"]
    game, key = new_game(client, names, name)
    assert game["players"][0] == name
    with_cookie(client, game["id"], key)
    record(client, game["id"], key, "Bob", names)
    pages = {
        "game": client.get(f"/games/{game['id']}"),
        "list": client.get("/games/"),
        "round form": client.get(f"/games/{game['id']}/rounds/new"),
        "correction": client.get(f"/games/{game['id']}/rounds/1/edit"),
        "undo": client.get(f"/games/{game['id']}/rounds/1/undo"),
        "rules": client.get(f"/rules?q=buy&game={game['id']}"),
    }
    escaped = name.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    for page, response in pages.items():
        assert response.status_code == 200, page
        html = response.get_data(as_text=True)
        assert name not in html, page
        assert escaped in html.replace("&#34;", '"').replace("&quot;", '"'), page


def test_a_script_name_too_long_is_refused_and_shown_escaped(client):
    name = "<script>alert(1)</script>"  # 25 characters: one over the limit
    response = client.post("/api/games", json={"players": [name, "Bob", "Cat", "Dan"]})
    assert response.status_code == 400
    assert "too long" in check(response)["error"]
    form = {"names-0": name, "names-1": "Bob", "names-2": "Cat", "names-3": "Dan"}
    page = client.post("/games/new", data={**form, "profile": "liverpool", "first_dealer": "0"})
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "<script>alert(1)" not in html
    assert "too long" in html
    assert client.get("/api/games").get_json()["games"] == []


@pytest.mark.parametrize("where", ["api", "form"])
def test_a_10000_character_name_is_refused_naming_the_problem(client, where):
    name = "A" * 10_000
    if where == "api":
        response = client.post("/api/games", json={"players": ["Bob", name, "Cat", "Dan"]})
        assert response.status_code == 400
        error = check(response)["error"]
        assert "player 2" in error and "too long" in error and "24" in error
        assert len(error) < 200
    else:
        form = {"names-0": "Bob", "names-1": name, "names-2": "Cat", "names-3": "Dan"}
        response = client.post("/games/new", data={**form, "first_dealer": "random"})
        assert response.status_code == 200
        html = response.get_data(as_text=True)
        assert "too long" in html and "at most 24 characters" in html
    assert client.get("/api/games").get_json()["games"] == []


@pytest.mark.parametrize(
    "method, path",
    [
        ("GET", f"/api/games/{HUGE_ID}"),
        ("POST", f"/api/games/{HUGE_ID}/rounds"),
        ("PUT", f"/api/games/{HUGE_ID}/rounds/1"),
        ("DELETE", f"/api/games/{HUGE_ID}/rounds/1"),
        ("GET", f"/api/games/{2**63}"),
        ("GET", f"/api/games/{2**63 - 1}"),
        ("GET", "/api/games/" + "9" * 5000),
    ],
)
def test_a_huge_game_id_is_a_json_404(client, method, path):
    response = client.open(path, method=method, json={"out": None, "leftovers": {}, "version": 1})
    assert response.status_code == 404
    assert "does not exist" in check(response)["error"]


@pytest.mark.parametrize(
    "path",
    [
        f"/games/{HUGE_ID}",
        f"/games/{HUGE_ID}/join?key=x",
        f"/games/{HUGE_ID}/edit-link.svg",
        f"/games/{HUGE_ID}/rounds/new",
        f"/games/{HUGE_ID}/rounds/1/edit",
        f"/rules?game={HUGE_ID}",
        f"/rules?q=buy&game=-{HUGE_ID}",
    ],
)
def test_a_huge_game_id_is_a_404_page(client, path):
    response = client.get(path)
    assert response.status_code == 404
    check_page(response)


def test_a_huge_round_number_is_a_json_404(client, table):
    known, keys = table
    for method in ("PUT", "DELETE"):
        response = client.open(
            f"/api/games/{known['target']}/rounds/{HUGE_ID}",
            method=method,
            json={"out": None, "leftovers": {}, "version": 1},
            headers={"X-Game-Key": keys["target"]},
        )
        assert response.status_code in (404, 409)
        check(response)
