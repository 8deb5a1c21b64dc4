"""The home page in a real browser, at phone and desktop width, in both languages."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from browser_helpers import DESKTOP, PHONE, shot


def test_home_at_phone_width_has_no_sideways_scroll(phone: Page) -> None:
    phone.goto("/")
    expect(phone.locator("html")).to_have_attribute("lang", "en")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    shot(phone, "home-phone")


def test_a_dutch_browser_gets_dutch_and_can_switch(page_in: Callable[..., Page]) -> None:
    page = page_in(DESKTOP, locale="nl-NL")
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    page.get_by_role("link", name="English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.goto("/")  # the choice is kept
    expect(page.locator("html")).to_have_attribute("lang", "en")
    shot(page, "home-desktop")
