"""A form posted with something to fix is answered 303 to its own page, which shows the form
with what was typed and what to fix once: Back and reload never post it again."""

from __future__ import annotations

import re

from tests.support.browsing import FormClient

TWO_ANNS = {"names-0": "Ann", "names-1": "ann", "profile": "liverpool", "first_dealer": "1"}


def test_a_refused_new_game_is_redirected_to_its_page_shown_once(app):
    client = app.test_client()
    posted = super(FormClient, client).post("/games/new", data=TWO_ANNS)
    assert posted.status_code == 303
    assert posted.location == "/games/new"
    assert posted.headers["Cache-Control"] == "no-store"
    shown = client.get("/games/new")
    page = shown.get_data(as_text=True)
    assert shown.headers["Cache-Control"] == "no-store"
    assert 'value="Ann"' in page and 'value="ann"' in page
    assert "already at the table" in page
    # Once: a reload draws the form afresh, and posts nothing.
    again = client.get("/games/new").get_data(as_text=True)
    assert "already at the table" not in again and 'value="ann"' not in again


def test_a_refused_round_is_redirected_to_the_round_form(client):
    started = client.post(
        "/games/new",
        data={
            **{f"names-{seat}": name for seat, name in enumerate(["Ann", "Bob", "Cat", "Dan"])},
            "profile": "liverpool",
            "first_dealer": "0",
        },
    )
    game_id = int(re.search(r"/games/(\d+)", started.location).group(1))
    form = client.get(f"/games/{game_id}/rounds/new").get_data(as_text=True)
    token = re.search(r'name="write_token" type="hidden" value="([^"]+)"', form)
    fields = {"out": "0", "cards_1": "X9", "cards_2": "7", "cards_3": "K"}
    if token:
        fields["write_token"] = token.group(1)
    posted = super(FormClient, client).post(f"/games/{game_id}/rounds/new", data=fields)
    assert posted.status_code == 303
    assert posted.location == f"/games/{game_id}/rounds/new"
    page = client.get(posted.location).get_data(as_text=True)
    assert "is not a card" in page and 'value="X9"' in page


def test_a_post_by_the_page_script_gets_the_page_itself(client):
    """The script cannot show a redirect's page: it gets the page, and posts the form natively."""
    answer = client.post("/games/new", data=TWO_ANNS, headers={"X-Posted-By-Script": "1"})
    assert answer.status_code == 200
    assert "already at the table" in answer.get_data(as_text=True)
