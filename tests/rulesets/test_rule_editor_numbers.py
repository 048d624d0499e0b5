"""The rule editor's numbers, typed at random: any count of deals and melds, each number in its
range or out of it, and the live check (`POST /rulesets/check`) and the save
(`POST /rulesets/new`) always answer a page or a judgement naming every problem, never a 500."""

from __future__ import annotations

import html
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.ruleset import (
    MOST_DEALS,
    MOST_MELDS,
    RUN_SIZES,
    SET_SIZES,
    VALUE_KEYS,
    VALUES,
)
from scorekeeper.rules.ruleset.schema import DEALT
from tests.support.browserform import fields_of

# Derandomized like the other hostile-input runs: each run draws the same examples.
SETTINGS = settings(
    max_examples=25,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
SHAPES = re.compile(r"^deals-\d+-")


def number(allowed: range, mood: str) -> st.SearchStrategy[tuple[str, bool]]:
    """A number as typed, and whether it is out of `allowed`: always in range (`mood` "right"),
    always out of it ("wrong"), or either ("mixed")."""
    inside = st.integers(allowed.start, allowed.stop - 1).map(lambda n: (str(n), False))
    outside = st.one_of(
        st.integers(-999, allowed.start - 1), st.integers(allowed.stop, 99_999)
    ).map(lambda n: (str(n), True))
    return {"right": inside, "wrong": outside}.get(mood, st.one_of(inside, outside))


@st.composite
def editor(draw):
    """Deals (each its cards and contract of melds) and card values, typed in one mood."""
    mood = draw(st.sampled_from(["mixed", "wrong", "right"]))
    meld = st.sampled_from(["set", "run"]).flatmap(
        lambda kind: st.tuples(
            st.just(kind), number(SET_SIZES if kind == "set" else RUN_SIZES, mood)
        )
    )
    deal = st.tuples(number(DEALT, mood), st.lists(meld, min_size=1, max_size=MOST_MELDS))
    deals = draw(st.lists(deal, min_size=1, max_size=MOST_DEALS))
    values = draw(st.dictionaries(st.sampled_from(VALUE_KEYS), number(VALUES, mood), max_size=4))
    return deals, values


def typed(page: str, drawn_deals, drawn_values) -> tuple[dict[str, list[str]], set[str]]:
    """The editor's fields with the deals and values drawn, and the places typed out of range."""
    data: dict[str, list[str]] = {}
    for name, value in fields_of(page):
        if not SHAPES.match(name):
            data.setdefault(name, []).append(value)
    data["name"] = ["Smith family"]
    wrong: set[str] = set()
    for d, ((cards, cards_wrong), contract) in enumerate(drawn_deals):
        data[f"deals-{d}-cards"] = [cards]
        if cards_wrong:
            wrong.add(f"deals[{d}].cards")
        for m, (kind, (size, size_wrong)) in enumerate(contract):
            data[f"deals-{d}-contract-{m}-kind"] = [kind]
            data[f"deals-{d}-contract-{m}-size"] = [size]
            if size_wrong:
                wrong.add(f"deals[{d}].contract[{m}].size")
    for key, (value, value_wrong) in drawn_values.items():
        data[f"values-{key}"] = [value]
        if value_wrong:
            wrong.add(f"values.{key}")
    return data, wrong


def posted(client, url: str, drawn_deals, drawn_values):
    """The editor's page filled with what was drawn, posted to `url`; the answer, and the places
    typed out of range."""
    page = client.get("/rulesets/new").get_data(as_text=True)
    data, wrong = typed(page, drawn_deals, drawn_values)
    return client.post(url, data=data), wrong


def named_or_counted(problems: dict[str, str], wrong: set[str]) -> None:
    """Every place typed out of range is named; past the engine's limit the rest are counted."""
    missing = wrong - set(problems)
    if missing:
        assert re.fullmatch(r"and \d+ more problems? not listed here", problems.get("", "")), (
            missing
        )


@SETTINGS
@given(drawn=editor())
def test_the_check_names_every_number_out_of_range(client, drawn):
    response, wrong = posted(client, "/rulesets/check", *drawn)
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    answer = response.get_json()
    named_or_counted(answer["problems"], wrong)
    assert {item["place"] for item in answer["listed"]} == set(answer["problems"])
    if wrong:
        assert answer["summary"].endswith("to fix")


@SETTINGS
@given(drawn=editor())
def test_the_save_shows_every_number_out_of_range(client, drawn):
    response, wrong = posted(client, "/rulesets/new", *drawn)
    page = response.get_data(as_text=True)
    if not wrong and response.status_code == 303:
        return  # saved: playable rules
    assert response.status_code in (200, 400), page[:500]
    listed = html.unescape(re.sub(r"<[^>]+>", "", page))
    for place in wrong:
        place_id = re.sub(r"[\[.]", "-", place).replace("]", "")
        shown = re.search(rf'id="problem-{place_id}"[^>]*data-problem>([^<]*)<', page)
        assert shown or "more problem" in listed, place
        if shown:
            assert shown.group(1).strip(), place


def test_seven_deals_of_numbers_out_of_range_are_listed_and_counted(client):
    """More problems than the engine lists (7 deals of 6 wrong numbers): each listed one is
    beside its control and the rest are counted in a line of their own."""
    drawn_deals = [(("0", True), [("set", ("99", True))] * MOST_MELDS)] * 7
    data, wrong = typed(client.get("/rulesets/new").get_data(as_text=True), drawn_deals, {})
    answer = client.post("/rulesets/check", data=data).get_json()
    named_or_counted(answer["problems"], wrong)
    more = answer["problems"][""]
    assert answer["listed"][-1] == {
        "place": "",
        "label": "",
        "text": "A" + more[1:],
        "said": "A" + more[1:],
    }
    assert answer["count"] == len(answer["problems"]) - 1
    response = client.post("/rulesets/new", data=data)
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert f"{answer['count']} problems</strong>" in page
    assert re.search(r">And \d+ more problems not listed here</a>", page)
