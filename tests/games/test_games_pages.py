"""The score book's pages without a browser: forms, errors beside the player, queries, escaping."""

from __future__ import annotations

import html
import json
import re

import pytest

from scorekeeper import create_app
from scorekeeper.games.models import Game, Round
from scorekeeper.platform.database import db
from scorekeeper.rules.ruleset import LIVERPOOL
from tests.support.book import new_game, play_rounds, record_page, round_form, start
from tests.support.config import TEST_CONFIG
from tests.support.games import handed_key
from tests.support.names import NAMES
from tests.support.queries import counted


def text(response) -> str:
    return response.get_data(as_text=True)


def hand_section(page: str, seat: int) -> str:
    """The HTML of one player's block on the round form."""
    match = re.search(rf'<section class="hand[^"]*" data-seat="{seat}".*?</section>', page, re.S)
    assert match, f"no hand block for seat {seat}"
    return match.group(0)


def count_rounds(app) -> int:
    with app.app_context():
        return db.session.scalar(db.select(db.func.count(Round.id)))


def count_games(app) -> int:
    with app.app_context():
        return db.session.scalar(db.select(db.func.count(Game.id)))


# --- New game ---------------------------------------------------------------------------------


def test_new_game_form(client):
    page = text(client.get("/games/new"))
    assert page.count('class="seat-name"') == 8  # up to 8 players for online and family rules
    for profile in ("liverpool", "contract", "online", "family"):
        assert f'value="{profile}"' in page
    assert 'data-max="8"' in page
    assert 'value="random" checked' in page
    assert 'maxlength="24"' in page


def test_start_a_game_in_seat_order(client, app):
    game_id = start(client, ["Cat", "Ann", "Dan", "Bob"], first_dealer="1")
    page = text(client.get(f"/games/{game_id}"))
    assert "Round 1 of 7" in page
    assert re.search(r'class="dealer">Ann<', page)
    assert re.search(r'class="cutter">Cat<', page)  # the dealer's right
    assert re.search(r'class="first-player">Dan<', page)  # the dealer's left
    assert "Exact cut: 41 — Cat gets −50" in page
    assert "Record round 1" in page


def test_blank_seats_are_ignored_and_the_dealer_follows_the_name(client, app):
    data = {"names-0": "Ann", "names-1": "", "names-2": "Bob", "names-3": "Cat", "names-4": "Dan"}
    data.update(profile="liverpool", first_dealer="2")  # the field holding Bob
    response = client.post("/games/new", data=data)
    assert response.status_code == 302
    page = text(client.get(response.location))
    assert re.search(r'class="dealer">Bob<', page)


def test_random_first_dealer(client, app):
    game_id = start(client, first_dealer="random")
    with app.app_context():
        assert 0 <= db.session.get(Game, game_id).first_dealer < 4


def test_eight_players_with_family_rules(client, app):
    names = ["A1", "B2", "C3", "D4", "E5", "F6", "G7", "H8"]
    game_id = start(client, names, profile="family", first_dealer="7")
    page = text(client.get(f"/games/{game_id}"))
    assert "Exact cut: 81 — G7 gets −50" in page


def test_profile_without_cut_bonus_says_so(client):
    game_id = start(client, profile="contract")
    page = text(client.get(f"/games/{game_id}"))
    assert "Contract: no bonus for an exact cut" in page
    assert "Exact cut" not in page
    form = text(client.get(f"/games/{game_id}/rounds/new"))
    assert 'name="cut_exact"' not in form
    assert "cut exactly" not in form


def test_profile_with_cut_bonus_offers_the_toggle(client):
    game_id = start(client)
    form = text(client.get(f"/games/{game_id}/rounds/new"))
    assert 'name="cut_exact"' in form
    assert "cut exactly 41 cards" in form


@pytest.mark.parametrize(
    ("data", "messages"),
    [
        (
            {"names-0": "Ann", "names-1": "ann", "names-2": "Cat", "names-3": "Dan"},
            ["already at the table"],
        ),
        (
            {"names-0": "Ann", "names-1": "B" * 30, "names-2": "Cat", "names-3": "Dan"},
            ["at most 24"],
        ),
        ({"names-0": "Ann", "names-1": "Bob", "names-2": "Cat"}, ["3 players", "exactly 4"]),
        ({f"names-{i}": f"P{i}" for i in range(5)}, ["5 players"]),
        (
            {"profile": "online", **{f"names-{i}": f"P{i}" for i in range(2)}},
            ["2 players", "3 to 8"],
        ),
        ({}, ["Enter the players"]),
        (
            {
                "names-0": "Ann",
                "names-1": "Bob",
                "names-2": "Cat",
                "names-3": "Dan",
                "first_dealer": "5",
            },
            ["Seat 6 has no name"],
        ),
        (
            {
                "names-0": "Ann",
                "names-1": "Bob",
                "names-2": "Cat",
                "names-3": "Dan",
                "profile": "poker",
            },
            ["Not a valid choice"],
        ),
        (
            {
                "names-0": "Ann",
                "names-1": "Bob",
                "names-2": "Cat",
                "names-3": "Dan",
                "first_dealer": "9",
            },
            ["Not a valid choice"],
        ),
    ],
)
def test_new_game_refusals(client, app, data, messages):
    data = {"profile": "liverpool", "first_dealer": "random", **data}
    response = client.post("/games/new", data=data)
    assert response.status_code == 200
    page = html.unescape(text(response))
    for message in messages:
        assert message in page
    assert count_games(app) == 0


def test_new_game_keeps_what_was_typed_after_an_error(client):
    response = client.post(
        "/games/new",
        data={"names-0": "Ann", "names-1": "ann", "profile": "liverpool", "first_dealer": "1"},
    )
    page = text(response)
    assert 'value="Ann"' in page and 'value="ann"' in page
    assert 'name="first_dealer" value="1" checked' in page
    # The error sits in the row of the second "ann".
    row = re.search(r'<li class="seat" data-seat="1">.*?</li>', page, re.S).group(0)
    assert "already at the table" in html.unescape(row)


# --- Game page --------------------------------------------------------------------------------


def test_game_page_ledger_and_leader(client):
    game_id = start(client)  # Ann deals: Dan cuts round 1
    record_page(client, game_id, "Cat", cut_exact=True, Ann="A K", Bob="7", Dan="2")
    page = text(client.get(f"/games/{game_id}"))
    assert "Round 2 of 7" in page
    assert "1 set + 1 run" in page
    assert "cut −50" in page  # the bonus is marked in the ledger
    ledger = re.search(r'<table class="ledger">.*?</table>', page, re.S).group(0)
    assert re.search(r"<tfoot>.*25.*7.*0.*−48.*</tfoot>", ledger, re.S)
    assert re.search(r'class="total leader">−48 <span class="badge lead">leader', ledger)


def test_final_standings(client):
    game_id = start(client)
    for number in range(1, 8):
        out = NAMES[number % 4]  # Bob, Cat, Dan, Ann, Bob, Cat, Dan
        record_page(client, game_id, out)
    page = text(client.get(f"/games/{game_id}"))
    assert "Record round" not in page
    assert "Bob and Cat and Dan share the win" in page
    assert "Final standings" in page
    standings = re.search(r'<ol class="final-standings">.*?</ol>', page, re.S).group(0)
    assert standings.count('class="winner"') == 3
    assert standings.index("Ann") > standings.index("Dan")


def test_single_winner(client):
    game_id = start(client)
    for _ in range(7):
        record_page(client, game_id, "Cat")
    assert "Cat wins" in text(client.get(f"/games/{game_id}"))
    response = client.get(f"/games/{game_id}/rounds/new")
    assert response.status_code == 302  # a finished game takes no more rounds
    assert "finished" in text(client.get(response.location))


def test_games_list(client):
    ongoing = start(client)
    record_page(client, ongoing, "Ann")
    finished = start(client, ["Eve", "Fay", "Gus", "Hal"])
    for _ in range(7):
        client.post(
            f"/games/{finished}/rounds/new",
            data={"out": "0", "cards_1": "2", "cards_2": "3", "cards_3": "4"},
        )
    page = text(client.get("/games/"))
    ongoing_part, finished_part = page.split('id="finished-title"')
    assert f"/games/{ongoing}" in ongoing_part and "Round 2 of 7" in ongoing_part
    assert f"/games/{finished}" in finished_part and "Winner: Eve" in finished_part


def test_unknown_game_is_404(client):
    assert client.get("/games/999").status_code == 404
    assert client.get("/games/999/rounds/new").status_code == 404
    assert client.get("/games/999/rounds/1/edit").status_code == 404


# --- Recording a round ------------------------------------------------------------------------


def test_round_form_has_one_card_pad_and_per_hand_points(client):
    game_id = start(client)
    page = text(client.get(f"/games/{game_id}/rounds/new"))
    pads = re.findall(r'<div class="cardpad"[^>]*>', page)
    assert len(pads) == 1  # one pad for the whole form, following the hand being entered
    assert 'data-for="cards_0"' in pads[0] and "data-steps" in pads[0]
    assert "data-rank-only" in pads[0]
    penalties = re.search(r"data-penalties='([^']*)'", pads[0]).group(1)
    assert '"A": 15' in penalties and '"JK": 15' in penalties and '"K": 10' in penalties
    for seat, name in enumerate(["Ann", "Bob", "Cat", "Dan"]):
        block = hand_section(page, seat)
        assert f'id="cards_{seat}"' in block
        assert f'data-penalty-for="cards_{seat}"' in block
        assert f'id="counted_{seat}"' in block and "<span>Points</span>" in block
        points = re.search(rf'<input [^>]*id="points_{seat}"[^>]*>', block).group()
        assert 'type="number"' in points and 'inputmode="numeric"' in points
        assert 'max="1605"' in points  # every card of the game at 15 (liverpool)
        assert f'<span class="visually-hidden">{name} </span>points</label>' in block
    assert "Nobody — the stock ran out" in page
    assert "Dan cut exactly 41 cards" in page


def test_online_pad_penalties_come_from_the_profile(client):
    game_id = start(client, profile="online")
    page = text(client.get(f"/games/{game_id}/rounds/new"))
    assert '"JK": 25' in page


def test_record_a_round_by_ranks(client, app):
    game_id = start(client)
    record_page(client, game_id, "Bob", Ann="7 K", Cat="JK", Dan="A♠ K♦ 4♥")
    page = text(client.get(f"/games/{game_id}"))
    assert "Round 1 saved." in page
    assert "A♠ 4♥ K♦" in page
    assert count_rounds(app) == 1


ROUND_REFUSALS = [
    # (form data, seat the error must sit beside (None: the top of the form), message)
    (round_form("Cat", Ann="2", Bob="X9", Dan="3"), 1, "&#39;X9&#39; (card 1) is not a card"),
    (round_form("Cat", Ann="2", Bob="3"), 3, "Every player who did not go out"),
    (
        round_form("Cat", Ann="2", Bob="3", Cat="K", Dan="4"),
        2,
        "The player who went out holds no cards",
    ),
    (round_form(None, Ann="2", Bob="3", Cat="4"), 3, "Nobody went out"),
    (round_form("Cat", Ann="7♠ 7♠", Bob="7♠", Dan="4"), None, "3 × 7♠"),
    ({"cards_0": "2", "cards_1": "3", "cards_3": "4"}, "out", "Tap the player who went out"),
    ({"out": "7", "cards_0": "2"}, "out", "Not a valid choice"),
]


@pytest.mark.parametrize(("data", "where", "message"), ROUND_REFUSALS)
def test_round_refusals_sit_beside_the_player(client, app, data, where, message):
    game_id = start(client)
    response = client.post(f"/games/{game_id}/rounds/new", data=data)
    assert response.status_code == 200
    page = text(response)
    if isinstance(where, int):
        assert message in hand_section(page, where)
        for seat in set(range(4)) - {where}:
            assert message not in hand_section(page, seat)
    elif where == "out":
        assert message in re.search(
            r'<fieldset class="out-choice">.*?</fieldset>', page, re.S
        ).group(0)
    else:
        summary = re.search(r'<div class="errors-summary".*?</div>', page, re.S).group(0)
        assert message in summary
    assert count_rounds(app) == 0
    # What was entered stays in the form.
    for key, value in data.items():
        if key.startswith("cards_") and value:
            assert f'value="{value}"' in page


def test_a_form_opened_for_a_round_recorded_meanwhile_saves_nothing(client, app):
    game_id = start(client)
    assert 'name="round_number" type="hidden" value="1"' in text(
        client.get(f"/games/{game_id}/rounds/new")
    )
    record_page(client, game_id, "Cat")  # another tablet saves round 1
    late = round_form("Bob", Ann="K", Cat="2", Dan="3")
    response = client.post(f"/games/{game_id}/rounds/new", data={**late, "round_number": "1"})
    assert response.status_code == 200
    page = text(response)
    assert (
        "This form was for round 1, which is already in the ledger: nothing was saved from it."
        in page
    )
    assert "Saving again records what is below as round 2: if it is round 1 again, cancel" in page
    assert 'name="round_number" type="hidden" value="2"' in page
    assert 'value="K"' in hand_section(page, 0)  # nothing typed is lost
    # The browser is told these entries were typed for round 1, not round 2.
    assert 'data-draft="game-1/round-2/new" data-draft-carried="1"' in page
    assert count_rounds(app) == 1
    again = client.post(f"/games/{game_id}/rounds/new", data={**late, "round_number": "2"})
    assert again.status_code == 302
    assert count_rounds(app) == 2


def test_every_bad_hand_is_marked_at_once(client):
    game_id = start(client)
    response = client.post(
        f"/games/{game_id}/rounds/new", data=round_form("Cat", Ann="1", Bob="3", Dan="ZZ")
    )
    page = text(response)
    assert "is not a card" in hand_section(page, 0)
    assert "is not a card" in hand_section(page, 3)
    assert "is not a card" not in hand_section(page, 1)
    summary = re.search(r'<div class="errors-summary".*?</div>', page, re.S).group(0)
    assert "Nothing was saved" in summary
    assert '<a href="#hand-0">Ann</a>' in summary and '<a href="#hand-3">Dan</a>' in summary
    assert "Bob" not in summary


# --- Corrections and undo ---------------------------------------------------------------------


def test_edit_form_is_prefilled(client):
    game_id = start(client)
    record_page(client, game_id, "Bob", cut_exact=True, Ann="k 7", Cat="JK", Dan="A")
    page = text(client.get(f"/games/{game_id}/rounds/1/edit"))
    assert "Correct round 1" in page
    assert re.search(r'<input checked[^>]*name="out"[^>]*value="1"', page)  # Bob went out
    assert re.search(
        r'name="cut_exact" type="checkbox" value="y" checked|checked[^>]*name="cut_exact"', page
    )
    assert 'value="7 K"' in hand_section(page, 0)
    assert 'value="JK"' in hand_section(page, 2)


def test_correction_recomputes_and_shows_history(client, app):
    game_id = start(client)
    record_page(client, game_id, "Bob", Ann="K", Cat="2", Dan="3")
    record_page(client, game_id, "Cat", Ann="4", Bob="5", Dan="6")
    response = client.post(
        f"/games/{game_id}/rounds/1/edit",
        data={**round_form("Bob", Ann="Q Q", Cat="2", Dan="3"), "version": "1"},
    )
    assert response.status_code == 302
    page = text(client.get(response.location))
    assert "Round 1 corrected." in page
    assert "round 1 corrected" in page
    assert "Ann: K = 10 → Q Q = 20" in page
    assert re.search(r"<tfoot>.*24.*5.*2.*9.*</tfoot>", page, re.S)
    assert 'class="badge corrected"' in page
    with app.app_context():
        assert db.session.scalars(db.select(Round).where(Round.number == 1)).one().version == 2


def test_refused_correction_keeps_the_round(client, app):
    game_id = start(client)
    record_page(client, game_id, "Bob", Ann="K", Cat="2", Dan="3")
    response = client.post(
        f"/games/{game_id}/rounds/1/edit",
        data={**round_form("Bob", Ann="K", Cat="2"), "version": "1"},
    )
    assert response.status_code == 200
    assert "Every player who did not go out" in hand_section(text(response), 3)
    assert "corrected" not in text(client.get(f"/games/{game_id}"))


def test_undo_asks_then_removes_the_latest_round(client, app):
    game_id = start(client)
    record_page(client, game_id, "Bob")
    record_page(client, game_id, "Cat")
    confirm = text(client.get(f"/games/{game_id}/rounds/2/undo"))
    assert "Undo round 2 of 7?" in confirm
    assert "Cat went out" in confirm
    assert count_rounds(app) == 2
    response = client.post(f"/games/{game_id}/rounds/2/undo", data={"version": "1"})
    assert response.status_code == 302
    page = text(client.get(response.location))
    assert "Round 2 undone" in page
    assert "round 2 undone" in page  # the history
    assert "Round 2 of 7" in page
    assert count_rounds(app) == 1


def test_only_the_latest_round_can_be_undone(client, app):
    game_id = start(client)
    record_page(client, game_id, "Bob")
    record_page(client, game_id, "Cat")
    response = client.post(f"/games/{game_id}/rounds/1/undo")
    assert response.status_code == 302
    assert "Only the latest round can be undone" in text(client.get(response.location))
    assert count_rounds(app) == 2
    assert client.get(f"/games/{game_id}/rounds/3/undo").status_code == 404


# --- Queries, escaping, CSRF, no inline script ------------------------------------------------


def test_the_game_page_uses_a_fixed_number_of_queries(client, app):
    short = start(client)
    record_page(client, short, "Cat")
    long = start(client, ["Eve", "Fay", "Gus", "Hal"])
    for _ in range(7):
        client.post(
            f"/games/{long}/rounds/new",
            data={"out": "0", "cards_1": "2", "cards_2": "3", "cards_3": "4"},
        )
    client.post(
        f"/games/{long}/rounds/3/edit",
        data={"out": "1", "cards_0": "2", "cards_2": "3", "cards_3": "4", "version": "1"},
    )
    counts = []
    for game_id in (short, long):
        with counted(app) as statements:
            assert client.get(f"/games/{game_id}").status_code == 200
        counts.append(len(statements))
    assert counts[0] == counts[1]
    assert counts[0] <= 9  # the game, players, rounds, scores, history, renames, the stamp…
    with counted(app) as statements:
        client.get("/games/")
    assert len(statements) <= 9


HOSTILE = ["<script>x()</script>", "<img src=x onerror=f()>", "Bob & 'Co'", "Dan"]


def test_names_with_html_render_as_text(client):
    game_id = start(client, HOSTILE)
    client.post(
        f"/games/{game_id}/rounds/new",
        data={"out": "3", "cards_0": "K", "cards_1": "2", "cards_2": "3"},
    )
    client.post(
        f"/games/{game_id}/rounds/1/edit",
        data={"out": "3", "cards_0": "Q", "cards_1": "2", "cards_2": "3", "version": "1"},
    )
    pages = [
        text(client.get(f"/games/{game_id}")),
        text(client.get(f"/games/{game_id}/rounds/new")),
        text(client.get(f"/games/{game_id}/rounds/1/edit")),
        text(client.get(f"/games/{game_id}/rounds/1/undo")),
        text(client.get("/games/")),
    ]
    for page in pages:
        assert "<script>x()" not in page
        assert "<img src=x" not in page
        assert "&lt;script&gt;x()&lt;/script&gt;" in page
    assert "&lt;img src=x onerror=f()&gt;" in pages[0]
    # A refused new game echoes the names back, still as text.
    response = client.post(
        "/games/new", data={"names-0": HOSTILE[0], "names-1": HOSTILE[0], "profile": "liverpool"}
    )
    assert "<script>x()" not in text(response)


def test_round_record_with_hostile_names_through_the_form(client):
    game_id = start(client, HOSTILE)
    response = client.post(f"/games/{game_id}/rounds/new", data={"out": "3", "cards_0": "<b>"})
    page = text(response)
    assert "<b>" not in page.split('class="hand', 1)[1]
    assert "&lt;b&gt;" in page


@pytest.fixture
def csrf_client(tmp_path):
    config = dict(TEST_CONFIG, WTF_CSRF_ENABLED=True)
    application = create_app(config, instance_path=str(tmp_path / "csrf-instance"))
    return application, application.test_client()


def test_every_form_carries_a_csrf_token(csrf_client):
    app, client = csrf_client
    page = text(client.get("/games/new"))
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    data = {f"names-{i}": name for i, name in enumerate(NAMES)}
    data.update(profile="liverpool", first_dealer="0", csrf_token=token)
    response = client.post("/games/new", data=data)
    assert response.status_code == 302
    game_id = int(response.location.rsplit("/", 1)[1])
    form = text(client.get(f"/games/{game_id}/rounds/new"))
    assert 'name="csrf_token"' in form
    saved = client.post(
        f"/games/{game_id}/rounds/new",
        data={"csrf_token": token, "out": "0", "cards_1": "2", "cards_2": "3", "cards_3": "4"},
    )
    assert saved.status_code == 302
    assert 'name="csrf_token"' in text(client.get(f"/games/{game_id}/rounds/1/edit"))
    assert 'name="csrf_token"' in text(client.get(f"/games/{game_id}/rounds/1/undo"))


def test_a_post_without_the_token_saves_nothing(csrf_client):
    app, client = csrf_client
    data = {f"names-{i}": name for i, name in enumerate(NAMES)}
    data.update(profile="liverpool", first_dealer="0")
    response = client.post("/games/new", data=data)
    assert response.status_code == 400
    assert count_games(app) == 0


@pytest.mark.parametrize(
    "path",
    [
        "/games/new",
        "/games/",
        "/games/{id}",
        "/games/{id}/rounds/new",
        "/games/{id}/rounds/1/edit",
        "/games/{id}/rounds/1/undo",
    ],
)
def test_no_inline_script_or_style(client, path):
    game_id = start(client)
    record_page(client, game_id, "Cat")
    page = text(client.get(path.format(id=game_id)))
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page)
    assert not re.search(r"\son[a-z]+\s*=", page)
    assert not re.search(r"\sstyle\s*=", page)
    assert "http://" not in page and "https://" not in page


@pytest.mark.parametrize("path", ["/static/games.css", "/static/games.js", "/static/drafts.js"])
def test_game_assets_are_served(client, path):
    assert client.get(path).status_code == 200


# --- Changed on another device while a form was open ------------------------------------------


def test_the_edit_form_carries_the_round_and_its_version(client):
    game_id = start(client)
    record_page(client, game_id, "Cat")
    page = text(client.get(f"/games/{game_id}/rounds/1/edit"))
    assert 'name="version" type="hidden" value="1"' in page
    assert 'name="round_number" type="hidden" value="1"' in page


def test_a_stale_correction_keeps_what_was_typed_and_shows_the_round_now(client, app):
    game_id = start(client)
    record_page(client, game_id, "Cat", Ann="K", Bob="7", Dan="2")
    mine = {**round_form("Bob", Ann="Q", Cat="3", Dan="4"), "version": "1"}
    # Another tablet corrects round 1 while this form is open.
    theirs = {**round_form("Dan", Ann="A", Bob="2", Cat="9"), "version": "1"}
    assert client.post(f"/games/{game_id}/rounds/1/edit", data=theirs).status_code == 302
    response = client.post(f"/games/{game_id}/rounds/1/edit", data=mine)
    assert response.status_code == 200
    page = html.unescape(text(response))
    summary = re.search(r'<div class="errors-summary".*?</div>', page, re.S).group(0)
    assert "Round 1 was changed on another device while this form was open" in summary
    assert "(it is now version 2)" in summary
    assert "Dan went out; Ann A = 15, Bob 2 = 2, Cat 9 = 9, Dan out = 0" in summary
    assert "Nothing was saved" in summary
    assert 'value="Q"' in hand_section(page, 0)  # what was typed stays
    assert re.search(r'<input checked[^>]*name="out"[^>]*value="1"', page)
    assert 'name="version" type="hidden" value="2"' in page
    with app.app_context():
        assert db.session.scalars(db.select(Round)).one().out == 3
    # Saving again, knowingly, replaces the round as it is now.
    again = client.post(f"/games/{game_id}/rounds/1/edit", data={**mine, "version": "2"})
    assert again.status_code == 302
    with app.app_context():
        played = db.session.scalars(db.select(Round)).one()
        assert (played.out, played.version) == (1, 3)


@pytest.mark.parametrize("version", [None, "", "abc", "0", "99", "-1", "１"])
def test_a_correction_without_the_right_version_saves_nothing(client, app, version):
    game_id = start(client)
    record_page(client, game_id, "Cat")
    data = round_form("Bob", Ann="Q", Cat="3", Dan="4")
    if version is not None:
        data["version"] = version
    response = client.post(f"/games/{game_id}/rounds/1/edit", data=data)
    assert response.status_code == 200
    assert "was changed on another device" in text(response)
    assert 'name="version" type="hidden" value="1"' in text(response)
    with app.app_context():
        assert db.session.scalars(db.select(Round)).one().version == 1


def test_a_stale_undo_undoes_nothing_and_shows_the_round_now(client, app):
    game_id = start(client)
    record_page(client, game_id, "Cat")
    assert 'name="version" type="hidden" value="1"' in text(
        client.get(f"/games/{game_id}/rounds/1/undo")
    )
    client.post(
        f"/games/{game_id}/rounds/1/edit",
        data={**round_form("Dan", Ann="A", Bob="2", Cat="9"), "version": "1"},
    )
    response = client.post(f"/games/{game_id}/rounds/1/undo", data={"version": "1"})
    assert response.status_code == 200
    page = html.unescape(text(response))
    assert "was changed on another device since this page was shown" in page
    assert "Nothing was undone" in page
    assert "Dan went out" in page
    assert 'name="version" type="hidden" value="2"' in page
    assert count_rounds(app) == 1
    assert client.post(f"/games/{game_id}/rounds/1/undo", data={"version": "2"}).status_code == 302
    assert count_rounds(app) == 0


def test_correcting_a_round_undone_meanwhile(client, app):
    game_id = start(client)
    record_page(client, game_id, "Cat")
    client.post(f"/games/{game_id}/rounds/1/undo", data={"version": "1"})
    response = client.post(
        f"/games/{game_id}/rounds/1/edit",
        data={**round_form("Bob", Ann="Q", Cat="3", Dan="4"), "version": "1"},
    )
    assert response.status_code == 302
    assert "Round 1 is no longer in the ledger" in text(client.get(response.location))
    assert count_rounds(app) == 0


def test_a_record_form_opened_before_an_undo(client, app):
    game_id = start(client)
    record_page(client, game_id, "Cat")
    record_page(client, game_id, "Dan")
    # This form was opened for round 3; another tablet then undid round 2.
    client.post(f"/games/{game_id}/rounds/2/undo", data={"version": "1"})
    late = {**round_form("Bob", Ann="K", Cat="2", Dan="3"), "round_number": "3"}
    response = client.post(f"/games/{game_id}/rounds/new", data=late)
    assert response.status_code == 200
    assert (
        "This form was for round 3, but the ledger changed while it was open and now holds "
        "1 round: nothing was saved from it." in text(response)
    )
    assert "Saving again records what is below as round 2" in text(response)
    assert count_rounds(app) == 1


def test_a_form_opened_for_a_round_recorded_meanwhile_shows_it(client):
    game_id = start(client)
    record_page(client, game_id, "Cat", Ann="K", Bob="7", Dan="2")
    late = {**round_form("Bob", Ann="K", Cat="2", Dan="3"), "round_number": "1"}
    page = html.unescape(text(client.post(f"/games/{game_id}/rounds/new", data=late)))
    assert "Round 1 reads: Cat went out; Ann K = 10, Bob 7 = 7, Cat out = 0, Dan 2 = 2." in page


def test_a_round_recorded_again_is_not_marked_corrected(client):
    game_id = start(client)
    record_page(client, game_id, "Cat")
    client.post(f"/games/{game_id}/rounds/1/undo", data={"version": "1"})
    record_page(client, game_id, "Dan")
    page = text(client.get(f"/games/{game_id}"))
    assert 'class="badge corrected"' not in page


# --- Forms the browser must not bring back stale; drafts kept on the tablet -------------------

SCRIPT_POST = {"X-Posted-By-Script": "1"}


def saved_drafts(page: str) -> list[str]:
    """The drafts the game page tells the tablet to drop."""
    return json.loads(html.unescape(re.search(r"data-saved='([^']*)'", page).group(1)))


@pytest.mark.parametrize(
    ("path", "draft"),
    [
        ("/games/new", "new-game"),
        ("/games/{id}/rounds/new", "game-{id}/round-2/new"),
        ("/games/{id}/rounds/1/edit", "game-{id}/round-1/v1"),
    ],
)
def test_form_pages_are_asked_for_again_and_name_their_draft(client, path, draft):
    game_id = start(client)
    record_page(client, game_id, "Cat")
    response = client.get(path.format(id=game_id))
    # Back and Forward fetch the form again, and the browser does not fill it in from memory.
    assert response.headers["Cache-Control"] == "no-store"
    form = re.search(r"<form [^>]*>", text(response)).group(0)
    assert 'autocomplete="off"' in form
    assert f'data-draft="{draft.format(id=game_id)}"' in form
    # The drafts' script, a module, with the words of its notices from the server.
    tag = re.search(r"<script src=\"/static/drafts\.js[^>]*>", text(response)).group(0)
    assert 'type="module"' in tag and '"try_again": "Try again"' in tag


def test_a_refused_form_is_not_kept_by_the_browser_either(client):
    game_id = start(client)
    response = client.post(f"/games/{game_id}/rounds/new", data=round_form("Cat", Ann="Z"))
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"


def test_a_saved_round_shows_the_top_of_the_game_page_and_drops_its_draft(client):
    game_id = start(client)
    response = client.post(
        f"/games/{game_id}/rounds/new", data=round_form("Cat", Ann="5", Bob="5", Dan="5")
    )
    # The confirmation and the next round's heading are at the top: no jump to the ledger.
    assert response.location == f"/games/{game_id}"
    page = text(client.get(response.location))
    assert "Round 1 saved." in page
    # Every save since a game page was last shown: here the new game's too.
    assert saved_drafts(page) == ["new-game", f"game-{game_id}/round-1/new"]
    assert 'data-next-round="2"' in page
    assert saved_drafts(text(client.get(response.location))) == []  # said once


def test_a_correction_drops_the_draft_of_the_version_it_was_typed_on(client):
    game_id = start(client)
    record_page(client, game_id, "Cat")
    client.get(f"/games/{game_id}")
    data = {**round_form("Cat", Ann="K", Bob="5", Dan="5"), "version": "1"}
    response = client.post(f"/games/{game_id}/rounds/1/edit", data=data)
    assert response.location == f"/games/{game_id}"
    assert saved_drafts(text(client.get(response.location))) == [f"game-{game_id}/round-1/v1"]


def test_a_new_game_drops_the_new_game_draft(client):
    data = {f"names-{i}": name for i, name in enumerate(NAMES)}
    response = client.post("/games/new", data={**data, "profile": "liverpool", "first_dealer": "0"})
    assert saved_drafts(text(client.get(response.location))) == ["new-game"]


def test_a_form_posted_by_the_script_is_told_where_to_go(client, app):
    data = {f"names-{i}": name for i, name in enumerate(NAMES)}
    data.update(profile="liverpool", first_dealer="0")
    response = client.post("/games/new", data=data, headers=SCRIPT_POST)
    assert response.status_code == 200
    assert "Location" not in response.headers
    assert response.headers["Cache-Control"] == "no-store"
    game_id = int(response.get_json()["location"].rsplit("/", 1)[1])
    # The edit key still comes with it, and the message waits for the page the script opens.
    assert handed_key(response.headers.getlist("Set-Cookie"))[0] == game_id
    saved = client.post(
        f"/games/{game_id}/rounds/new",
        data=round_form("Cat", Ann="5", Bob="5", Dan="5"),
        headers=SCRIPT_POST,
    )
    assert saved.get_json() == {"location": f"/games/{game_id}"}
    assert count_rounds(app) == 1
    page = text(client.get(f"/games/{game_id}"))
    assert "Game started: Ann deals round 1." in page and "Round 1 saved." in page


def test_a_form_posted_by_the_script_with_errors_gets_the_page(client, app):
    game_id = start(client)
    response = client.post(
        f"/games/{game_id}/rounds/new", data=round_form("Cat", Ann="Z"), headers=SCRIPT_POST
    )
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    assert "Nothing was saved" in text(response)
    assert count_rounds(app) == 0


# --- A Shanghai game: ten deals ------------------------------------------------------------------


def test_a_shanghai_game_of_ten_deals_through_the_pages(client):
    game_id = start(client, profile="shanghai")
    page = text(client.get(f"/games/{game_id}"))
    assert "Round 1 of 10: <span" in page
    assert "Shanghai · 10 deals · 3–8 players · deuces wild · buying: no limit" in page
    assert re.search(r'class="deal">11<', page)  # 11 cards every deal
    assert "Shanghai: no bonus for an exact cut" in page
    for number in range(1, 10):
        record_page(client, game_id, "Cat")
        page = text(client.get(f"/games/{game_id}"))
        assert f"Round {number + 1} of 10" in page
        assert f"{number} of 10 rounds" in page
        assert "whole hand" not in page  # Shanghai has no whole-hand deal
        if number == 7:  # Shanghai's eighth deal: a run longer than the minimum
            assert 'Round 8 of 10: <span class="contract">1 set of 3 + 1 run of 10</span>' in page
    # The last deal: 3 runs of 5, dealt 11 each like every other, and it finishes the game.
    assert "The last round: the game finishes once it is recorded." in page
    assert 'Round 10 of 10: <span class="contract">3 runs of 5</span>' in page
    form = text(client.get(f"/games/{game_id}/rounds/new"))
    assert "Record round 10 of 10" in form
    record_page(client, game_id, "Cat")
    page = text(client.get(f"/games/{game_id}"))
    assert 'id="summary"' in page and "Round 11" not in page
    assert "finished after round 10 of 10" in page
    assert page.count("<tr data-round=") == 10
    assert "10 of 10 rounds" in page
    late = client.get(f"/games/{game_id}/rounds/new")
    assert late.status_code == 302
    assert "all 10 rounds are recorded" in text(client.get(late.location))
    # Playing again keeps Shanghai.
    rematch = text(client.get(f"/games/{game_id}/rematch"))
    assert "Shanghai · 10 deals" in rematch


def test_the_games_list_names_each_games_own_deal_count(client):
    shanghai = start(client, profile="shanghai")
    liverpool = start(client)
    for _ in range(2):
        record_page(client, shanghai, "Cat")
    record_page(client, liverpool, "Cat")
    listing = text(client.get("/games/"))
    assert "Round 3 of 10 · Shanghai" in listing
    assert "Round 2 of 7 · Liverpool" in listing


def test_the_rules_picker_names_each_preset_and_its_limits_once(client):
    page = text(client.get("/games/new"))
    picker = re.search(r'<select[^>]*name="profile".*?</select>', page, re.S).group()
    labels = re.findall(r">([^<]+)</option>", picker)
    assert labels == [
        "Liverpool: 4 players",
        "Contract: 4 players",
        "Online: 3–8 players",
        "Family: 3–8 players",
        "Shanghai: 3–8 players",
        "Carioca: 2–5 players",
        "Continental: 2–8 players",
    ]
    assert 'value="shanghai" data-min="3" data-max="8"' in picker or (
        'data-max="8" data-min="3" value="shanghai"' in picker
    )
    # The limits are not said a second time, outside the rule editor's own summary line.
    outside = re.sub(r'<p class="rules-summary"[^>]*>[^<]*</p>', "", page)
    assert "players ·" not in outside


def test_playing_again_from_the_page_keeps_a_custom_rule_set(client):
    deals = [{**deal, "cards": 11} for deal in LIVERPOOL.to_json()["deals"]]
    house = {"name": "Smith family", "values": {"JK": 50}, "wild_deuces": True, "deals": deals}
    game = new_game(client, NAMES, house)
    play_rounds(client, game)
    client.set_cookie(f"gk_{game.id}", game.key)
    page = text(client.get(f"/games/{game.id}/rematch"))
    assert (
        "Smith family · 7 deals · 4 players · deuces wild · buying: no limit: the same rules"
        in page
    )
    response = client.post(f"/games/{game.id}/rematch")
    assert response.status_code == 303
    new_id = int(response.location.rsplit("/", 1)[1])
    old, new = (client.get(f"/api/games/{n}").get_json()["rules"] for n in (game.id, new_id))
    assert new == old and new["name"] == "Smith family"
    shown = text(client.get(f"/games/{new_id}"))
    assert "Round 1 of 7" in shown and "Smith family · 7 deals" in shown


def test_a_players_page_says_under_which_rules_each_game_was_played(client):
    for rules in ("liverpool", "contract", "liverpool"):
        play_rounds(client, new_game(client, NAMES, rules))
    page = text(client.get("/players/Ann"))
    table = re.search(r'<table class="by-rules">.*?</table>', page, re.S).group()
    rows = re.findall(r'<th scope="row">([^<]+)</th><td class="games">(\d+)</td>', table)
    assert rows == [("Liverpool", "2"), ("Contract", "1")]
    assert page.count("· Contract ·") == 1 and page.count("· Liverpool ·") == 2
