"""The round form as WTForms holds it: a hand form per seat (a FieldList of `HandForm`), under the
field names the page posts, each problem on the field of the hand it concerns."""

from __future__ import annotations

import json
import re

import pytest

from scorekeeper.games import errors
from scorekeeper.games.forms import round_form
from scorekeeper.games.models import Game
from scorekeeper.games.roundvalues import Hand, RoundEntry
from scorekeeper.platform.database import db
from scorekeeper.rules.ruleset import LIVERPOOL, PRESETS, SHANGHAI
from scorekeeper.rules.scoring import most_points
from tests.support.book import start
from tests.support.names import NAMES

EIGHT = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


@pytest.fixture
def posted(app, client):
    """A round form for a new 4-player game, read from `data` as a POST in a request."""

    game_id = start(client)

    def form_from(data: dict[str, str] | None = None):
        with app.test_request_context(
            f"/games/{game_id}/rounds/new", method="POST" if data is not None else "GET", data=data
        ):
            return round_form(db.session.get(Game, game_id), 1)

    return form_from


def test_a_hand_form_per_seat_under_the_names_a_round_form_posts(app, client):
    game_id = start(client, EIGHT, profile="family")
    with app.test_request_context(f"/games/{game_id}/rounds/new"):
        game = db.session.get(Game, game_id)
        form = round_form(game, 1)
        assert len(form.hands) == 8
        for seat, hand in enumerate(form.hands):
            assert [hand.cards.name, hand.counted.name, hand.points.name] == [
                f"cards_{seat}",
                f"counted_{seat}",
                f"points_{seat}",
            ]
            assert hand.cards.id == f"cards_{seat}"
            assert hand.points.render_kw["max"] == most_points(PRESETS["family"], 8)


def test_a_post_cannot_add_drop_or_reorder_a_hand(posted):
    """WTForms' own entry names (`hands-3-cards`) and seats the game lacks are not read: the
    hands are the game's seats, in seat order."""
    form = posted(
        {"out": "0", "hands-3-cards": "Q", "cards_1": "7", "cards_3": "K", "cards_9": "A"}
    )
    assert len(form.hands) == 4
    assert form.entry().hands == {
        seat: Hand("cards", cards=text) for seat, text in enumerate(["", "7", "", "K"])
    }
    form = posted({"out": "0", "cards_2": "7 K", "counted_3": "y", "points_3": "25"})
    entry = form.entry()
    assert entry.hands == RoundEntry.typed(0, {0: "", 1: "", 2: "7 K"}, {3: 25}).hands
    assert entry.counted == {3: 25}


def test_a_hand_with_only_its_points_typed_counts_in_points(posted):
    """A page without its script: the points typed, the toggle left alone."""
    entry = posted({"out": "0", "cards_1": "K", "points_2": "40", "points_3": "x"}).entry()
    assert entry.hands == RoundEntry.typed(0, {0: "", 1: "K"}, {2: 40, 3: "x"}).hands
    assert entry.hands[3] == Hand("points", points="x")


def test_each_problem_goes_on_the_field_its_hand_was_read_from(posted):
    form = posted({"out": "0", "cards_1": "Z", "counted_2": "y", "points_2": "1"})
    assert form.validate()  # the engine judges the hands, as the round is saved
    form.entry()
    problem = errors.ScorebookError(
        "the round does not add up",
        problems={1: "'Z' is not a card", 2: "1 points cannot be", None: "too many 7♠", 9: "x"},
    )
    form.attach(problem)
    hands = form.hands
    assert hands[1].cards.errors == ["'Z' is not a card"]
    assert hands[2].points.errors == ["1 points cannot be"]
    assert hands[2].cards.errors == []
    assert [hand.errors for hand in (hands[0], hands[3])] == [{}, {}]
    assert form.form_errors == ["Too many 7♠", "X"]
    assert form.seats_with_errors() == [1, 2]


def test_a_post_missing_hands_names_each_beside_it_at_once(client):
    """Cat counted in points with no points sent, Dan's hand not sent at all: both named, each
    in its own hand, and the summary links to both."""
    game_id = start(client)
    response = client.post(
        f"/games/{game_id}/rounds/new", data={"out": "0", "cards_1": "K", "counted_2": "y"}
    )
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    hands = dict(
        (int(seat), block)
        for seat, block in re.findall(
            r'<section class="hand[^"]*" data-seat="(\d)"(.*?)</section>', page, re.S
        )
    )
    assert [seat for seat, block in hands.items() if 'class="error"' in block] == [2, 3]
    assert 'id="points_2"' in hands[2] and re.search(r'aria-invalid="true"[^>]*id="points_2"', page)
    assert "still holds at least one card" in hands[3]
    summary = re.search(r'<div class="errors-summary".*?</div>', page, re.S).group(0)
    assert re.findall(r'<a href="#hand-(\d)">', summary) == ["2", "3"]


def hands_of(page: str) -> dict[int, str]:
    """Each hand's block of the round form, by seat."""
    return {
        int(seat): block
        for seat, block in re.findall(
            r'<section class="hand[^"]*" data-seat="(\d)"(.*?)</section>', page, re.S
        )
    }


def summary_of(page: str) -> list[str]:
    """The problems the summary at the top lists, as read (links to the hands as their names)."""
    summary = re.search(r'<div class="errors-summary".*?</div>', page, re.S).group(0)
    items = re.findall(r"<li>(.*?)</li>", summary, re.S)
    return [re.sub(r"<[^>]+>", "", item).strip() for item in items]


def test_one_save_names_every_problem_by_player_beside_each_hand_and_at_the_top(client):
    """Nobody out but Ann's hand empty, Bob's four jokers, Cat's 'Q7', Dan's seven of spades
    held three times with Ann's: one save says all of it, and keeps what was typed."""
    game_id = start(client)
    typed = {"out": "nobody", "cards_1": "JK JK JK JK", "cards_2": "Q7", "cards_3": "7♠ 7♠ 7♠"}
    page = client.post(f"/games/{game_id}/rounds/new", data=typed).get_data(as_text=True)
    hands = hands_of(page)
    assert "Nobody went out, so every player still holds cards (R9)" in hands[0]
    assert "4 jokers, but this game has only 3 (2 packs)" in hands[1]
    assert "&#39;Q7&#39; (card 1) is not a card" in hands[2]
    assert "3 × 7♠, but a 2-pack game holds only 2 of each card" in hands[3]
    assert summary_of(page) == [
        "Ann: Nobody went out, so every player still holds cards (R9)",
        "Bob: 4 jokers, but this game has only 3 (2 packs)",
        "Cat: &#39;Q7&#39; (card 1) is not a card: write a rank (A 2-10 J Q K) and a suit "
        "(♠ ♥ ♦ ♣ or S H D C), or JK for a joker",
        "Dan: 3 × 7♠, but a 2-pack game holds only 2 of each card",
    ]
    for name, value in (("cards_1", "JK JK JK JK"), ("cards_2", "Q7"), ("cards_3", "7♠ 7♠ 7♠")):
        assert re.search(rf'id="{name}"[^>]*value="{value}"|value="{value}"[^>]*id="{name}"', page)


def test_the_hands_are_judged_in_the_same_save_as_a_missing_player_out(client):
    """Who went out not picked: the hands' misread cards and the copies the packs cannot hold
    (Ann's and Dan's jokers together) are named with it, not on the next save."""
    game_id = start(client)
    typed = {"cards_0": "JK JK", "cards_2": "Q7", "cards_3": "JK JK"}
    page = client.post(f"/games/{game_id}/rounds/new", data=typed).get_data(as_text=True)
    hands = hands_of(page)
    together = "Ann and Dan between them: 4 jokers, but this game has only 3 (2 packs)"
    assert together in hands[0] and together in hands[3]
    assert "is not a card" in hands[2]
    assert summary_of(page) == [
        "Tap the player who went out, or “nobody”.",
        together,
        "Cat: &#39;Q7&#39; (card 1) is not a card: write a rank (A 2-10 J Q K) and a suit "
        "(♠ ♥ ♦ ♣ or S H D C), or JK for a joker",
    ]


# --- The game's own rule set ---------------------------------------------------------------------


def house_rules() -> dict:
    """A family's own rules: a joker counts 50 and an ace 20, deuces are wild, 11 cards are dealt
    in every deal (liverpool's contracts), and a player buys at most 3 times a game."""
    deals = [{**deal, "cards": 11} for deal in LIVERPOOL.to_json()["deals"]]
    return {
        "name": "Smith family",
        "values": {"A": 20, "JK": 50},
        "wild_deuces": True,
        "deals": deals,
        "buying": {"per_game": 3},
    }


def pad_data(page: str, name: str):
    pad = re.search(r'<div class="cardpad"[^>]*>', page)
    assert pad, "no card pad on the page"
    return json.loads(re.search(rf"data-{name}='([^']*)'", pad.group()).group(1))


def test_a_custom_rule_sets_round_form_counts_by_its_values(client):
    made = client.post("/api/games", json={"players": NAMES, "rules": house_rules()})
    assert made.status_code == 201, made.get_json()
    game = made.get_json()
    client.get(f"/games/{game['id']}/join?key={game['key']}")  # this tablet now edits it
    page = client.get(f"/games/{game['id']}/rounds/new").get_data(as_text=True)
    assert "Record round 1 of 7" in page
    assert re.search(r'dealt <span class="deal">11</span> each', page)
    assert "Smith family · 7 deals · 4 players · deuces wild · buying: 3 a game" in page
    penalties = pad_data(page, "penalties")
    assert (penalties["A"], penalties["2"], penalties["JK"], penalties["K"]) == (20, 2, 50, 10)
    # 4 players: two packs and 3 jokers (liverpool's, which the document leaves as they are).
    assert pad_data(page, "copies") == {"card": 2, "JK": 3}
    # The score book counts the same: an ace, a wild 2 at its own value and a joker.
    response = client.post(
        f"/games/{game['id']}/rounds/new",
        data={"out": "0", "cards_1": "A 2 JK", "cards_2": "5", "cards_3": "5"},
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    played = client.get(f"/api/games/{game['id']}").get_json()["rounds"][0]
    assert played["scores"]["Bob"] == 72


def test_the_round_forms_pad_holds_the_shanghai_values_and_copies(client):
    game_id = start(client, EIGHT[:7], profile="shanghai")
    page = client.get(f"/games/{game_id}/rounds/new").get_data(as_text=True)
    assert pad_data(page, "penalties") == SHANGHAI.values.as_dict()
    # 7 players: four packs, a joker each.
    assert pad_data(page, "copies") == {"card": 4, "JK": 4}
    assert 'data-last-round="10"' in page and 'data-cards-dealt="11"' in page
    assert 'name="cut_exact"' not in page  # Shanghai has no exact-cut bonus
