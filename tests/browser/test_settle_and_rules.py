"""The settle and rules pages in a real browser: scores typed by keyboard, the arrows
and net results, a compare of two rule sets; English and Dutch, phone and desktop."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from browser_helpers import DESKTOP, PHONE, shot


def no_sideways_scroll(page: Page, width: int) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, scroll


def test_settle_by_keyboard_on_a_phone(phone: Page) -> None:
    """nts-2016: South wins 40 self-drawn; East pays double (80), West and North 40."""
    phone.goto("/settle?lang=en")
    phone.get_by_label("Name of player 1").fill("Anna")
    phone.keyboard.press("Tab")
    phone.keyboard.type("0")
    phone.get_by_label("Name of player 2").fill("Bert")
    phone.keyboard.press("Tab")
    phone.keyboard.type("40")
    phone.get_by_label("Score of player 3").fill("0")
    phone.get_by_label("Score of player 4").fill("0")
    phone.get_by_label("Player 2 won").focus()
    phone.keyboard.press("Space")
    phone.get_by_role("button", name="Settle").focus()
    phone.keyboard.press("Enter")
    result = phone.locator("#settle-result")
    expect(result.get_by_test_id("net1")).to_have_text("+160")
    expect(result.get_by_test_id("net0")).to_have_text("-80")
    expect(result.get_by_test_id("net2")).to_have_text("-40")
    expect(result.locator("svg line.pay")).to_have_count(3)
    expect(result.get_by_role("img", name="Who pays whom")).to_be_visible()
    expect(result.get_by_text("Anna pays Bert 80", exact=True)).to_be_visible()
    assert "score1=40" in phone.url  # shareable
    no_sideways_scroll(phone, PHONE["width"])
    shot(phone, "settle-phone")


def test_live_update_and_an_error_beside_its_field(desktop: Page) -> None:
    desktop.goto("/settle?lang=en&winner=0&score0=40&score1=0&score2=0&score3=0")
    expect(desktop.get_by_test_id("net0")).to_have_text("+240")
    desktop.get_by_label("Score of player 2").fill("x")
    error = desktop.locator("#err-score1")
    expect(error).to_contain_text("whole number")
    expect(desktop.get_by_label("Score of player 2")).to_have_attribute("aria-invalid", "true")
    desktop.get_by_label("Score of player 2").fill("10")
    expect(error).to_have_count(0)
    # East 40, South 10: South's 10 comes from West and North.
    expect(desktop.get_by_test_id("net1")).to_have_text(str(-80 + 20))
    shot(desktop, "settle-desktop")


def test_five_players_in_dutch(page_in: Callable[..., Page]) -> None:
    page = page_in(PHONE, locale="nl-NL")
    page.goto("/settle")
    page.get_by_label("Spelregels").select_option("nmb-2009+five-players")
    expect(page.get_by_label("Score van speler 5")).to_be_visible()
    for i, score in enumerate(["0", "30", "0", "100"]):
        page.get_by_label(f"Score van speler {i + 1}").fill(score)
    page.get_by_label("Speler 4 maakte mahjong").check()
    page.get_by_label("Winnende steen weggegooid door").select_option("1")
    page.get_by_role("button", name="Afrekenen").click()
    # nmb-2009: the discarder pays double, the dreamer (player 5) is out of it.
    expect(page.get_by_test_id("net3")).to_have_text("+400")
    expect(page.get_by_test_id("net1")).to_have_text("-140")
    expect(page.get_by_test_id("net4")).to_have_text("0")
    no_sideways_scroll(page, PHONE["width"])
    shot(page, "settle-five-nl-phone")


def test_rules_compare_two_sets(page_in: Callable[..., Page]) -> None:
    cases = ((DESKTOP, "en-GB", "rules-desktop"), (PHONE, "nl-NL", "rules-nl-phone"))
    for viewport, locale, name in cases:
        page = page_in(viewport, locale=locale)
        page.goto("/rules")
        selects = page.locator("form.compare select")
        selects.nth(0).select_option("nts-2016")
        selects.nth(1).select_option("rode-draak")
        page.locator("form.compare input[name=only]").check()
        page.locator("form.compare button").click()
        # NTS 2016 2.4.1 gives 2 for completing the pair; De Rode Draak has no such item.
        row = page.locator('tr[data-key="points.completes_pair"]')
        expect(row).to_have_class("differs")
        expect(row.locator(".value")).to_have_text(["2", "—"])
        expect(page.locator('tr[data-key="points.mahjong"]')).to_have_count(0)
        no_sideways_scroll(page, viewport["width"])
        shot(page, name)
