"""Two server processes on one database, one paper sheet previewed on two tablets and imported
from both at the same moment: its game is stored once, and both tablets are shown it.

Each trial previews a sheet of its own (its date) through each process, then posts both
previews' "Import" together, one through each process. Runs on SQLite (one file, two processes)
and PostgreSQL.
"""

from __future__ import annotations

import re
from functools import partial
from html import unescape
from urllib.parse import urlencode

import pytest

from tests.support.config import read_past_the_app
from tests.support.server import Client, at_once, integrity

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("sheet-races")]

TRIALS = 8
ROUNDS = [
    "round,1,,25,0,40,15",
    "round,2,,-35,0,60,20",
    "round,3,,10,35,0,45",
    "round,4,,0,55,30,25",
]
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def sheet(day: int) -> str:
    return "\n".join([f"game,2019-11-{day:02d},Ann,Ann,Bob,Cat,Dan", *ROUNDS]) + "\n"


def previewed(port: int, raw: str) -> tuple[str, dict[str, str]]:
    """A tablet's preview of the sheet: its session cookie, and the import form it shows."""
    with Client(port) as client:
        opened = client.request("GET", "/games/import-sheet")
        cookie = "; ".join(line.split(";", 1)[0] for line in opened.cookies)
        csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', opened.body.decode())
        body = urlencode({"csrf_token": csrf[1], "rules": "liverpool", "text": raw}).encode()
        shown = client.request(
            "POST", "/games/import-sheet", body, {**FORM, "Cookie": cookie}
        ).body.decode()
    form = shown[shown.index('id="import-form"') :]
    fields = dict(re.findall(r'name="(\w+)" type="hidden" value="([^"]*)"', form))
    fields["text"] = re.search(r'name="text">\r?\n(.*?)</textarea>', form, re.S)[1]
    return cookie, {name: unescape(value) for name, value in fields.items()}


def import_(port: int, cookie: str, form: dict[str, str]):
    with Client(port) as client:
        answer = client.request(
            "POST",
            "/games/import-sheet/import",
            urlencode(form).encode(),
            {**FORM, "Cookie": cookie},
        )
    return answer.status, answer.headers.get("location")


def stored(url: str, day: int) -> int:
    return read_past_the_app(
        url,
        "SELECT count(*) FROM games"
        " WHERE from_sheet AND substr(CAST(finished_at AS TEXT), 1, 10) = :day",
        day=f"2019-11-{day:02d}",
    )


def test_one_sheet_imported_from_two_previews_at_once_is_stored_once(servers):
    url = servers[0].database_url
    counts, statuses, places = [], [], []
    for day in range(1, TRIALS + 1):
        previews = [previewed(server.port, sheet(day)) for server in servers]
        answers = at_once(
            [
                partial(import_, server.port, *preview)
                for server, preview in zip(servers, previews, strict=True)
            ]
        )
        counts.append(stored(url, day))
        statuses.append([status for status, _ in answers])
        places.append({place for _, place in answers})
    assert counts == [1] * TRIALS
    # Both tablets open the one game: the second import finds it already there.
    assert statuses == [[303, 303]] * TRIALS
    assert all(len(place) == 1 for place in places), places
    assert integrity(url) == "ok"
