"""The rules-check page in the real browser, with fingers: tap an opening together."""

import pytest

pytestmark = pytest.mark.browser


def tap(page, *keys):
    pad = page.locator(".cardpad")
    for key in keys:
        pad.get_by_role("button", name=key, exact=True).first.tap()


def test_tap_an_opening_and_see_the_verdict(page):
    page.goto("/rules?q=opening")
    page.select_option("#round", "2")
    page.locator("#meld1").tap()
    tap(page, "7", "clubs", "7", "diamonds", "7", "hearts")
    page.locator("#meld2").tap()
    tap(page, "3", "spades", "4", "spades", "5", "spades", "6", "spades")
    assert page.input_value("#meld1") == "7♣ 7♦ 7♥"
    assert page.input_value("#meld2") == "3♠ 4♠ 5♠ 6♠"
    page.get_by_role("button", name="Check").tap()
    verdict = page.locator("#verdict")
    assert verdict.locator(".verdict-title").inner_text() == "LEGAL"
    assert "R5" in verdict.inner_text()


def test_tap_contiguous_runs_is_not_legal(page):
    page.goto("/rules?q=opening")
    page.select_option("#round", "3")
    page.locator("#meld1").tap()
    tap(page, "3", "spades", "4", "spades", "5", "spades", "6", "spades")
    page.locator("#meld2").tap()
    tap(page, "7", "spades", "8", "spades", "9", "spades", "10", "spades")
    page.get_by_role("button", name="Check").tap()
    assert page.locator("#verdict .verdict-title").inner_text() == "NOT LEGAL"
    assert "touch" in page.locator("#verdict .verdict-reason").inner_text()


def test_undo_removes_one_card(page):
    page.goto("/rules?q=meld")
    page.locator("#cards").tap()
    tap(page, "5", "spades", "6", "spades", "Q")
    assert page.input_value("#cards") == "5♠ 6♠ Q"
    tap(page, "remove the last card")
    assert page.input_value("#cards") == "5♠ 6♠"
    page.get_by_role("button", name="remove 5♠").tap()
    assert page.input_value("#cards") == "6♠"


def test_joker_declared_by_tapping(page):
    page.goto("/rules?q=meld")
    page.locator("#cards").tap()
    tap(
        page,
        "5",
        "spades",
        "6",
        "spades",
        "7",
        "spades",
        "joker standing for the next card",
        "8",
        "spades",
    )
    assert page.input_value("#cards") == "5♠ 6♠ 7♠ JK=8♠"
    page.get_by_role("button", name="Check").tap()
    assert page.locator("#verdict .verdict-title").inner_text() == "LEGAL"
    assert page.locator("#verdict .reading").count() == 1
