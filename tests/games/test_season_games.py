"""The games of a season: play again, the paged list, archive and delete, Resume, the sheet."""

from __future__ import annotations

import csv
import io
import json
from datetime import timedelta

import pytest
from flask_babel import force_locale, gettext, ngettext

from scorekeeper.games import importer, transfer
from scorekeeper.games.models import Game, Player
from scorekeeper.platform.database import db
from scorekeeper.rules.ruleset import LIVERPOOL
from tests.support.book import new_game, play_rounds
from tests.support.games import handed_key
from tests.support.names import NAMES

# --- Play again ---------------------------------------------------------------------------------


def test_play_again_seats_the_same_table_and_passes_the_deal(client):
    names = ["Zoë", "Bob", "Cat", "Dan", "Eve"]
    game = new_game(client, names, "family", "Dan")
    play_rounds(client, game)
    response = client.post(f"/api/games/{game.id}/rematch", headers=game.headers)
    assert response.status_code == 201
    again = response.get_json()
    assert again["id"] != game.id
    assert response.headers["Location"].endswith(f"/api/games/{again['id']}")
    assert again["players"] == names and again["profile"] == "family"
    assert again["first_dealer"] == "Eve"  # the seat after Dan's
    assert again["round"] == 1 and again["rounds"] == []
    assert client.get(f"/api/games/{again['id']}").get_json() == {
        key: value for key, value in again.items() if key != "key"
    }
    # Its own key: it opens the new game, not the old one.
    new_key = {"X-Game-Key": again["key"]}
    assert new_key != game.headers
    assert client.post(f"/api/games/{again['id']}/archive", headers=new_key).status_code == 200
    assert client.post(f"/api/games/{game.id}/archive", headers=new_key).status_code == 403


def test_play_again_wraps_round_to_the_first_seat(client):
    game = new_game(client, first_dealer="Dan")
    play_rounds(client, game)
    again = client.post(f"/api/games/{game.id}/rematch", headers=game.headers).get_json()
    assert again["first_dealer"] == "Ann"


def test_play_again_needs_the_key_and_a_finished_game(client):
    game = new_game(client)
    play_rounds(client, game, 6)
    url = f"/api/games/{game.id}/rematch"
    assert client.post(url).status_code == 401
    assert client.post(url, headers={"X-Game-Key": "not-the-key"}).status_code == 403
    unfinished = client.post(url, headers=game.headers)
    assert unfinished.status_code == 409
    assert "not finished" in unfinished.get_json()["error"]
    assert client.post("/api/games/999/rematch", headers=game.headers).status_code == 404
    assert client.get("/api/games").get_json()["total"] == 1  # nothing was made


def test_play_again_from_the_page(client):
    game = new_game(client)
    play_rounds(client, game)
    page = client.get(f"/games/{game.id}/rematch")
    assert page.status_code == 403  # this browser has no key yet
    client.set_cookie(f"gk_{game.id}", game.key)
    page = client.get(f"/games/{game.id}/rematch").get_data(as_text=True)
    assert "Bob deals round 1" in page
    response = client.post(f"/games/{game.id}/rematch")
    assert response.status_code == 303
    new_id = int(response.location.rsplit("/", 1)[1])
    assert handed_key(response.headers.getlist("Set-Cookie"))[0] == new_id
    shown = client.get(f"/games/{new_id}").get_data(as_text=True)
    assert "Record round 1" in shown  # this tablet keeps the new game's score


# --- The list a page at a time -----------------------------------------------------------------


def made(client, count, finished_every=0):
    """`count` games, every `finished_every`-th one finished; their ids, oldest first."""
    ids = []
    for index in range(count):
        game = new_game(client)
        if finished_every and index % finished_every == 0:
            play_rounds(client, game)
        ids.append(game.id)
    return ids


def test_api_pages_ongoing_first_then_finished_each_newest_first(client):
    ids = made(client, 7, finished_every=3)  # games 1, 4, 7 finished
    seen = []
    for page in (1, 2, 3):
        answer = client.get(f"/api/games?page={page}&per_page=3").get_json()
        assert (answer["page"], answer["per_page"], answer["total"]) == (page, 3, 7)
        seen += [(game["id"], game["finished"]) for game in answer["games"]]
    ongoing = [(i, False) for i in reversed(ids) if i not in (ids[0], ids[3], ids[6])]
    finished = [(i, True) for i in (ids[6], ids[3], ids[0])]
    assert seen == ongoing + finished
    assert client.get("/api/games?page=4&per_page=3").get_json()["games"] == []
    default = client.get("/api/games").get_json()
    assert (default["page"], default["per_page"], len(default["games"])) == (1, 25, 7)


@pytest.mark.parametrize(
    ("query", "problem"),
    [
        ("per_page=101", "'per_page' must be from 1 to 100, not 101"),
        ("per_page=0", "'per_page' must be from 1 to 100"),
        ("page=0", "'page' must be 1 or more"),
        ("page=two", "'page' must be a whole number, not 'two'"),
        ("per_page=-3", "'per_page' must be a whole number"),
        ("page=" + "9" * 40, "'page' must be a whole number"),
    ],
)
def test_api_paging_refusals(client, query, problem):
    answer = client.get(f"/api/games?{query}")
    assert answer.status_code == 400
    assert problem in answer.get_json()["error"]


def test_the_list_page_pages_by_25_with_a_next_link(client, app):
    with app.app_context():
        base = Game.created_at.default.arg(None)
        db.session.add_all(
            Game(
                rules=LIVERPOOL.to_json(),
                first_dealer=0,
                created_at=base - timedelta(minutes=n),
                players=[
                    Player(seat=s, name=name, name_key=name.casefold())
                    for s, name in enumerate(NAMES)
                ],
            )
            for n in range(30)
        )
        db.session.commit()
    newest = new_game(client).id
    first = client.get("/games/").get_data(as_text=True)
    assert first.count('class="game-card') == 25
    assert first.index(f'href="/games/{newest}"') < first.index('href="/games/1"')
    assert 'href="/games/?page=2"' in first and "Page 1 of 2" in first
    second = client.get("/games/?page=2").get_data(as_text=True)
    assert second.count('class="game-card') == 6 and 'rel="next"' not in second
    assert client.get("/games/?page=3").status_code == 404
    assert client.get("/games/?page=x").status_code == 400


# --- Archive and delete ------------------------------------------------------------------------


def test_archive_hides_a_game_from_both_lists_and_restore_brings_it_back(client):
    game = new_game(client)
    other = new_game(client)
    url = f"/api/games/{game.id}/archive"
    assert client.post(url).status_code == 401
    archived = client.post(url, headers=game.headers)
    assert archived.status_code == 200 and archived.get_json()["archived_at"]
    listed = [g["id"] for g in client.get("/api/games").get_json()["games"]]
    assert listed == [other.id]
    assert f'href="/games/{game.id}"' not in client.get("/games/").get_data(as_text=True)
    only_archived = client.get("/api/games?archived=1").get_json()
    assert [g["id"] for g in only_archived["games"]] == [game.id]
    assert f'href="/games/{game.id}"' in client.get("/games/?archived=1").get_data(as_text=True)
    page = client.get(f"/games/{game.id}")
    assert page.status_code == 200 and "This game is archived" in page.get_data(as_text=True)
    restored = client.delete(url, headers=game.headers)
    assert restored.status_code == 200 and restored.get_json()["archived_at"] is None
    assert {g["id"] for g in client.get("/api/games").get_json()["games"]} == {game.id, other.id}
    assert "This game is archived" not in client.get(f"/games/{game.id}").get_data(as_text=True)


def test_delete_only_a_game_with_no_recorded_round(client):
    empty = new_game(client)
    played = new_game(client)
    play_rounds(client, played, 1)
    assert client.delete(f"/api/games/{empty.id}").status_code == 401
    assert client.delete(f"/api/games/{empty.id}", headers=played.headers).status_code == 403
    refused = client.delete(f"/api/games/{played.id}", headers=played.headers)
    assert refused.status_code == 409
    assert "has 1 recorded round" in refused.get_json()["error"]
    assert client.get(f"/api/games/{played.id}").status_code == 200
    assert client.delete(f"/api/games/{empty.id}", headers=empty.headers).status_code == 204
    assert client.get(f"/api/games/{empty.id}").status_code == 404
    assert client.get(f"/games/{empty.id}").status_code == 404


def test_the_pages_archive_and_delete_after_asking(client):
    game = new_game(client)
    assert client.get(f"/games/{game.id}/archive").status_code == 403
    assert client.post(f"/games/{game.id}/delete").status_code == 403
    client.set_cookie(f"gk_{game.id}", game.key)
    shown = client.get(f"/games/{game.id}").get_data(as_text=True)
    assert (
        f'href="/games/{game.id}/archive"' in shown and f'href="/games/{game.id}/delete"' in shown
    )
    ask = client.get(f"/games/{game.id}/archive").get_data(as_text=True)
    assert "Archive this game?" in ask
    assert client.get("/api/games").get_json()["total"] == 1  # asking changed nothing
    assert client.post(f"/games/{game.id}/archive").status_code == 303
    assert client.get("/api/games").get_json()["total"] == 0
    assert client.post(f"/games/{game.id}/restore").status_code == 303
    assert client.get("/api/games").get_json()["total"] == 1
    play_rounds(client, game, 1)
    refused = client.post(f"/games/{game.id}/delete")
    assert refused.status_code == 200 and "has 1 recorded round" in refused.get_data(as_text=True)
    assert f'href="/games/{game.id}/delete"' not in client.get(f"/games/{game.id}").get_data(
        as_text=True
    )


# --- Resume on the home page -------------------------------------------------------------------


def test_home_offers_resume_for_ongoing_games_this_tablet_holds_the_key_of(client):
    mine = new_game(client, ["Ann", "Bob", "Cat", "Dan"])
    theirs = new_game(client, ["Eve", "Fay", "Gus", "Hal"])
    done = new_game(client, ["Ivy", "Jon", "Kim", "Lou"], first_dealer="Ivy")
    play_rounds(client, done)
    assert "resume-title" not in client.get("/").get_data(as_text=True)
    client.set_cookie(f"gk_{mine.id}", mine.key)
    client.set_cookie(f"gk_{theirs.id}", "a-key-that-is-not-theirs")
    client.set_cookie(f"gk_{done.id}", done.key)
    home = client.get("/").get_data(as_text=True)
    assert "Resume: Ann, Bob, Cat, Dan" in home
    assert f'href="/games/{mine.id}"' in home
    assert "Eve" not in home and "Ivy" not in home
    client.post(f"/api/games/{mine.id}/archive", headers=mine.headers)
    assert "resume-title" not in client.get("/").get_data(as_text=True)


# --- The sheet to take away --------------------------------------------------------------------


def test_ledger_csv(client):
    names = ["Zoë", 'Bob "the cut"', "Cat, Jr", "Dan"]
    game = new_game(client, names, first_dealer="Zoë")
    play_rounds(client, game, 2)
    response = client.get(f"/games/{game.id}/ledger.csv")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert f"liverpool-game-{game.id}.csv" in response.headers["Content-Disposition"]
    assert not response.data.startswith(b"\xef\xbb\xbf")
    text = response.data.decode("utf-8")
    assert text.splitlines()[0] == '"Round","Zoë","Bob ""the cut""","Cat, Jr","Dan"'
    assert text.splitlines()[1] == "1,0,15,15,-35"  # numbers bare: a spreadsheet's numbers
    rows = list(csv.reader(io.StringIO(text)))
    # Round 1: Zoë out; Dan cuts with the exact cut: 15 − 50.
    assert rows[1:] == [
        ["1", "0", "15", "15", "-35"],
        ["2", "15", "0", "15", "15"],
        ["Total", "15", "15", "30", "-20"],
        ["Rules", "Liverpool", "7 deals"],
    ]


# The names a hostile visitor gives to make a spreadsheet run something when the sheet is opened.
FORMULA_NAMES = ['=HYPERLINK("//e.x","a")', "+1+cmd|'/C calc'!A0", "-2+3", "@SUM(1+1)"]


def test_ledger_csv_never_hands_a_spreadsheet_a_formula(client):
    """Each of these names is a name the table may play under, and in the sheet it is text behind
    a `'` (OWASP's advice), quoted; the scores beside them stay numbers, minus signs and all."""
    game = new_game(client, FORMULA_NAMES, first_dealer=FORMULA_NAMES[0])
    assert game.names == FORMULA_NAMES  # taken as names, as written
    play_rounds(client, game, 2)
    text = client.get(f"/games/{game.id}/ledger.csv").data.decode("utf-8")
    header, *rounds, total, rules = list(csv.reader(io.StringIO(text)))
    assert header == ["Round", *("'" + name for name in FORMULA_NAMES)]
    for row in [*rounds, total]:
        assert all(str(int(cell)) == cell for cell in row[1:])  # each score a plain integer
    assert any(cell.startswith("-") for row in rounds for cell in row[1:])  # -35 stays -35
    assert rules[0] == "Rules"
    # Every text cell quoted, its quotes doubled: the file as a spreadsheet opens it.
    assert text.splitlines()[0] == (
        '"Round","\'=HYPERLINK(""//e.x"",""a"")","\'+1+cmd|\'/C calc\'!A0","\'-2+3","\'@SUM(1+1)"'
    )


def test_ledger_csv_names_the_games_rules_and_deals(client):
    game = new_game(client, NAMES, "shanghai")
    play_rounds(client, game, 1)
    text = client.get(f"/games/{game.id}/ledger.csv").data.decode("utf-8")
    assert list(csv.reader(io.StringIO(text)))[-1] == ["Rules", "Shanghai", "10 deals"]


def test_the_sheets_to_take_away_speak_the_requests_language(app, client):
    """The ledger and the detailed sheet are for people: a Finnish request gets their headers
    and words through the Finnish catalog; the export document is for machines, the same in
    every language."""
    game = new_game(client, NAMES, first_dealer=NAMES[0])
    play_rounds(client, game, 2)
    finnish = {"Accept-Language": "fi"}

    def sheet(name: str, headers: dict[str, str]) -> list[list[str]]:
        answer = client.get(f"/games/{game.id}/{name}", headers=headers)
        assert answer.status_code == 200
        assert "Accept-Language" in answer.headers["Vary"]
        return list(csv.reader(io.StringIO(answer.data.decode("utf-8"))))

    ledger, rounds = sheet("ledger.csv", finnish), sheet("rounds.csv", finnish)
    with app.app_context(), force_locale("fi"):
        said = {word: gettext(word) for word in ("Round", "Total", "Rules", "no")}
        deals = ngettext("%(num)s deal", "%(num)s deals", 7)
        header = [str(word) for word in transfer.ROUNDS_HEADER]
    assert ledger[0] == [said["Round"], *NAMES]
    assert ledger[-2][0] == said["Total"]
    assert ledger[-1] == [said["Rules"], "Liverpool", deals]
    assert rounds[0] == header
    # No hand counted by the table itself: each line says so in Finnish.
    assert [line[8] for line in rounds[1:]] == [said["no"]] * 8
    # Words the shipped Finnish catalog has.
    assert ledger[0][0] == "Kierros" and ledger[-2][0] == "Yhteensä" and ledger[-1][0] == "Säännöt"
    assert rounds[0][:3] == ["Kierros", "Pelaaja", "Jakaja"] and rounds[1][8] == "ei"
    # English as it always was, the numbers bare in both.
    english = sheet("ledger.csv", {"Accept-Language": "en"})
    assert english[0][0] == "Round" and english[1:-3] == ledger[1:-3]
    assert sheet("rounds.csv", {})[0][:3] == ["Round", "Player", "Dealer"]
    export = client.get(f"/games/{game.id}/export.json", headers=finnish).data
    assert export == client.get(f"/games/{game.id}/export.json").data


def test_export_json_is_one_game_that_import_takes_without_its_key(
    client, app, fresh_database, tmp_path
):
    game = new_game(client)
    play_rounds(client, game, 3)
    response = client.get(f"/games/{game.id}/export.json")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/json; charset=utf-8"
    document = json.loads(response.data)
    assert document["format"] == transfer.FORMAT and len(document["games"]) == 1
    exported = document["games"][0]
    assert exported["key_hash"] is None and game.key not in response.get_data(as_text=True)
    with app.app_context():
        full = transfer.export_games()["games"][0]
    assert full["key_hash"] and {**full, "key_hash": None} == exported

    from scorekeeper import create_app
    from tests.support.config import TEST_CONFIG

    other = create_app(
        {**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": fresh_database("elsewhere")},
        instance_path=str(tmp_path / "elsewhere"),
    )
    with other.app_context():
        assert importer.import_games(document) == 1
    copied = other.test_client().get(f"/api/games/{game.id}").get_json()
    assert copied == client.get(f"/api/games/{game.id}").get_json()
