"""The calculator in Dutch says what the rules core says in Dutch: each item's detail, the
notes on what did not count, a refusal, and an error beside the tile it is about."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode

from playwright.sync_api import Page, expect

from browser_helpers import DESKTOP, PHONE, shot

BRIEF = urlencode({"hand": "b123 WWW CCC b23 b55 +b4", "seat": "S", "from": "discard"})
"""b123 b234 WWW CCC b55, b4 claimed by South: 36 points, 2 doublings, 144."""


def _explained(page: Page) -> None:
    page.goto(f"/?{BRIEF}")
    page.wait_for_load_state("domcontentloaded")
    result = page.locator("#calc-result")
    expect(result.locator(".score").first).to_have_text("144")
    expect(result.locator('tr[data-item="mahjong"] .detail')).to_have_text(
        "b4, van de tafel geclaimd"
    )
    expect(result.locator('tr[data-item="pung_major_concealed"] .detail')).to_have_text(
        "pung van W (dicht), pung van C (dicht)"
    )
    expect(result.locator('li[data-item="only_possible_tile"]')).to_have_text(
        "Enig mogelijke steen: b4 was niet de enige steen die de hand afmaakte: b1 ook"
    )
    expect(result.locator(".alt")).to_have_count(0)  # no English names beside the Dutch
    expect(result).not_to_contain_text("claimed from a discard")


def test_the_explained_hand_in_dutch_at_phone_width(page_in: Callable[..., Page]) -> None:
    page = page_in(PHONE, locale="nl-NL")
    _explained(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "calc-explained-nl-phone")


def test_the_explained_hand_in_dutch_at_desktop_width(page_in: Callable[..., Page]) -> None:
    page = page_in(DESKTOP, locale="nl-NL")
    _explained(page)
    shot(page, "calc-explained-nl-desktop")


def test_an_error_in_dutch_beside_its_tile(page_in: Callable[..., Page]) -> None:
    page = page_in(PHONE, locale="nl-NL")
    page.goto("/?" + urlencode({"hand": "b123 WWW CCC b23 b55 X +b4"}))
    page.wait_for_load_state("domcontentloaded")
    expect(page.locator("#calc-result .problem")).to_contain_text("onbekende steen 'X' in kolom 22")
    page.goto("/")
    page.wait_for_load_state("domcontentloaded")
    red = page.locator("#palette").get_by_role("button", name="rode draak", exact=True)
    for _ in range(5):
        red.click()
    note = page.locator("#groups .problem")
    expect(note).to_have_text("5 exemplaren van C (5 dicht): er zijn maar 4 van elke steen")
    expect(page.locator("#groups .tile.wrong").first).to_have_attribute("aria-label", "rode draak")
    expect(page.locator("#calc-live")).to_contain_text("5 exemplaren van C")
    shot(page, "calc-error-nl-phone")
