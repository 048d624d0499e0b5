"""A club's organiser on their phone, by the LAN name: a member's phone sees no merge, the
organiser signs in from the player's page, merges two names, signs out, and is refused again;
every page passes axe-core and every control is a fingertip's size."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scorekeeper import create_app
from scorekeeper.platform.organisers import hash_password
from tests.support import games
from tests.support.browser import PHONE_VIEWPORT, lan_url
from tests.support.config import TEST_CONFIG
from tests.support.games import PageSender
from tests.support.server import serving
from tests.support.tablet import axe_violations, noting_problems, small_controls

pytestmark = pytest.mark.browser

PASSWORD = "Thursday club 42"


@pytest.fixture
def club_server(tmp_path, migrated_template):
    """The app served over HTTP on loopback with an organiser password: (its loopback address,
    the same by the LAN name)."""
    config = dict(
        TEST_CONFIG,
        WTF_CSRF_ENABLED=True,
        UPGRADE_ON_START=False,
        ORGANISER_PASSWORD=hash_password(PASSWORD),
    )
    with migrated_template.served_copy(tmp_path) as url:
        config["SQLALCHEMY_DATABASE_URI"] = url
        with serving(create_app(config, instance_path=str(tmp_path / "club"))) as served:
            yield served, lan_url(served)


def finished(page, names, winner):
    """A finished Family game where `winner` goes out every deal and the rest hold a 5."""
    sender = PageSender(page)
    game = games.create_game(sender, names, "family", None)
    rest = {name: "5" for name in names if name != winner}
    games.play(sender, game, [(winner, False, rest)] * 7)


def test_an_organiser_signs_in_merges_and_signs_out_on_a_phone(tablet, club_server, axe_source):
    loopback, lan = club_server
    # The evening's games through the API (whose requests resolve no LAN name), then the phone.
    api = tablet(PHONE_VIEWPORT, base_url=loopback).new_page()
    finished(api, ["Ann", "Bob", "Cat"], "Ann")
    finished(api, ["Annie", "Bob", "Dan"], "Bob")
    page = noting_problems(tablet(PHONE_VIEWPORT, base_url=lan).new_page())

    page.goto("/players/Ann")
    expect(page.locator(".merge-pick")).to_have_count(0)
    expect(page.locator(".organisers-only")).to_contain_text("for the club's organisers")
    assert axe_violations(page, axe_source) == []
    page.locator(".organisers-only").get_by_role("link", name="sign in").click()

    page.wait_for_url("**/organiser/sign-in?next=/players/Ann")
    expect(page.locator("h1")).to_have_text("Organiser sign-in")
    assert axe_violations(page, axe_source) == []
    assert small_controls(page) == []
    page.get_by_label("Organiser password").fill("thursday club 42")
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator("#password-error")).to_have_text("That is not the organiser password.")
    expect(page.get_by_label("Organiser password")).to_have_value("")
    assert axe_violations(page, axe_source) == []
    page.get_by_label("Organiser password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()

    page.wait_for_url("**/players/Ann")
    expect(page.locator(".flash")).to_have_text("Signed in as an organiser on this device.")
    page.get_by_label("Merge with another player…").select_option("Annie")
    page.get_by_role("button", name="Merge…").click()
    expect(page.locator("h1")).to_have_text("Merge Annie into Ann?")
    page.get_by_role("button", name="Merge Annie into Ann").click()
    page.wait_for_url("**/players/Ann")
    expect(page.locator(".also-played-as")).to_have_text("Also played as Annie.")
    assert axe_violations(page, axe_source) == []
    assert small_controls(page, "#merges button, #merges select, .organiser-link a") == []

    page.get_by_role("link", name="Organiser: signed in").click()
    expect(page.locator("#organiser-until")).to_contain_text("signed in as an organiser until")
    assert axe_violations(page, axe_source) == []
    assert small_controls(page) == []
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url("**/players/Ann")
    expect(page.locator(".flash")).to_have_text(
        "Signed out: this device plays and reads as everyone does."
    )
    expect(page.get_by_role("button", name="Undo the merge of Annie into Ann")).to_have_count(0)
    expect(page.locator(".merge-undo")).to_contain_text("Annie was merged into Ann on")

    assert page.problems == []
    refused = page.goto("/players/merges/new?from=Bob&into=Ann")
    assert refused is not None and refused.status == 403
    expect(page.locator("h1")).to_have_text("For organisers")
    expect(page.get_by_label("Organiser password")).to_be_visible()
    assert axe_violations(page, axe_source) == []
    assert small_controls(page) == []
    # Only the refusal itself, which chromium notes as a resource answered 403.
    assert [problem for problem in page.problems if "403 (FORBIDDEN)" not in problem] == []
