"""The calculator in a real browser: taps, keyboard, explanation, errors, share link."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, Route, expect

from browser_helpers import DESKTOP, PHONE, shot

FIRST_LOAD_BOUND = 300_000


def tap(page: Page, name: str, times: int = 1) -> None:
    button = page.locator("#palette").get_by_role("button", name=name, exact=True)
    for _ in range(times):
        button.click()


def test_a_hand_by_taps_at_phone_width(phone: Page) -> None:
    phone.goto("/")
    for name in ("bamboo 1", "bamboo 2", "bamboo 3", "circles 4", "circles 5", "circles 6"):
        tap(phone, name)
    for name in ("characters 7", "characters 8", "characters 9"):
        tap(phone, name)
    tap(phone, "east wind", 3)
    tap(phone, "red dragon", 2)
    # mark the last red dragon as the winning tile
    phone.locator('#groups [data-group="loose"]').get_by_role(
        "button", name="red dragon"
    ).last.click()
    phone.get_by_role("button", name="Winning tile").click()
    expect(phone.locator("#hand")).to_have_value("b123 k456 t789 EEEC +C")
    # East, self-drawn: 36 points, 4 doublings = 576 (docs/json.md)
    expect(phone.locator("#calc-result .score")).to_have_text("576")
    expect(phone.locator("#calc-live")).to_have_text("Score 576")
    expect(phone.locator('tr[data-item="fully_concealed"] .cite')).to_contain_text("NTS 2016")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "calc-phone")


def test_a_hand_by_keyboard_with_a_not_counted_note(desktop: Page) -> None:
    desktop.goto("/")
    desktop.locator("#hand").focus()
    desktop.keyboard.type("b123 WWW CCC b23 b55 +b4")
    desktop.keyboard.press("Tab")  # to the Score button
    desktop.keyboard.press("Tab")
    seat = desktop.locator("#seat")
    seat.focus()
    desktop.keyboard.press("ArrowDown")  # South
    desktop.locator("#from").select_option("discard")
    expect(seat).to_have_value("S")
    expect(desktop.locator("#calc-result .score")).to_have_text("144")
    expect(desktop.locator(".not-counted")).to_contain_text(
        "b4 was not the only tile that completed the hand: b1 also did"
    )
    # the tiles were drawn from the typed notation, the winning tile marked
    expect(desktop.locator("#groups button.winning")).to_have_attribute(
        "aria-label", "bamboo 4 (winning tile)"
    )
    shot(desktop, "calc-desktop")


def test_a_wrong_meld_is_named_beside_it(desktop: Page) -> None:
    desktop.goto("/")
    desktop.get_by_role("button", name="New open meld").click()
    for name in ("bamboo 1", "bamboo 2", "bamboo 4"):
        tap(desktop, name)
    meld = desktop.locator('#groups [data-group="meld:0"]')
    expect(meld.locator(".problem")).to_contain_text("b1 b2 b4 is not a chow, pung or kong")
    expect(desktop.locator("#calc-live")).to_contain_text("is not a chow, pung or kong")
    # remove the wrong tile by keyboard and put b3 in its place
    meld.get_by_role("button", name="bamboo 4").focus()
    desktop.keyboard.press("Enter")
    desktop.get_by_role("button", name="Remove tile").click()
    tap(desktop, "bamboo 3")
    expect(desktop.locator("#hand")).to_have_value("[b123]")
    expect(desktop.locator(".problem")).to_have_count(0)
    expect(desktop.locator("#calc-result .score")).to_have_text("0")


def test_a_fifth_tile_is_marked(desktop: Page) -> None:
    desktop.goto("/")
    tap(desktop, "red dragon", 5)
    expect(desktop.locator("#groups .tile.wrong").first).to_have_attribute(
        "aria-label", "red dragon"
    )
    expect(desktop.locator("#groups .problem")).to_contain_text("5 copies of C")


def test_the_share_link_round_trip(page_in: Callable[..., Page]) -> None:
    page = page_in(DESKTOP)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto("/")
    tap(page, "red dragon", 3)
    expect(page.locator("#calc-result .score")).to_have_text("16")
    # South is chosen and Share tapped before the server has answered the change: the
    # link is of the hand as the form holds it, South's (the server's answer is held)
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route("**/calc/result?*", hold)
    page.locator("#seat").select_option("S")
    # the link beside Share (long-pressed on a phone) is of South's hand at once too
    expect(page.locator("#share-link")).to_have_attribute("href", re.compile(r"seat=S"))
    page.get_by_role("button", name="Share").click()
    expect(page.locator("#share-status")).to_have_text("Link copied")
    assert held, "the change was not sent to the server"
    for route in held:
        route.continue_()
    page.unroute("**/calc/result?*")
    link = page.evaluate("navigator.clipboard.readText()")
    assert "hand=C+C+C" in link or "hand=CCC" in link, link
    assert "seat=S" in link, link
    other = page_in(PHONE)
    other.goto(link)
    expect(other.locator("#calc-result .score")).to_have_text("16")
    expect(other.locator("#seat")).to_have_value("S")
    # once answered, the link is the server's own (the page's address)
    page.get_by_role("button", name="Share").click()
    expect(page).to_have_url(re.compile(r"seat=S"))
    assert page.evaluate("navigator.clipboard.readText()") == page.url


def test_dutch_at_phone_width(page_in: Callable[..., Page]) -> None:
    page = page_in(PHONE, locale="nl-NL")
    page.goto("/?hand=CC")
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    tap(page, "rode draak")
    # East: a concealed pung of red dragons, 8 points and 1 doubling
    expect(page.locator("#calc-live")).to_have_text("Score 16")
    expect(page.locator('#calc-result tr[data-item="pung_dragon"] .name')).to_have_text(
        "Pung/kong draken"
    )
    expect(page.get_by_label("Eigen wind")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "calc-phone-nl")


def test_first_load_is_small(page_in: Callable[..., Page]) -> None:
    """Every byte transferred for ``/`` in a fresh context (empty cache): the page, CSS,
    JS, tile pictures and the icon, headers included."""
    page = page_in(PHONE)
    finished = []
    page.on("requestfinished", lambda request: finished.append(request))
    page.goto("/", wait_until="networkidle")
    total = 0
    for request in finished:
        sizes = request.sizes()
        total += sizes["responseBodySize"] + sizes["responseHeadersSize"]
    print(f"first load of /: {len(finished)} requests, {total} bytes")
    assert len(finished) > 40  # the page, its CSS and JS, the tile pictures
    assert total < FIRST_LOAD_BOUND, total


def focused_name(page: Page) -> str:
    return str(page.evaluate("document.activeElement.getAttribute('aria-label')"))


def tab_until(page: Page, selector: str, limit: int = 60) -> int:
    """Press Tab until the focus is inside ``selector``: how many presses it took."""
    for presses in range(1, limit + 1):
        page.keyboard.press("Tab")
        if page.evaluate(f"document.activeElement.closest({selector!r}) !== null"):
            return presses
    raise AssertionError(f"no tab stop in {selector} within {limit} presses")


def test_the_palette_and_the_hand_by_arrow_keys(phone: Page) -> None:
    """A keyboard user: Tab into the palette (one tab stop), arrows to a tile, Enter or
    Space adds it; the same in the hand's tiles, then the winning tile is marked."""
    phone.goto("/")
    phone.wait_for_load_state("domcontentloaded")
    phone.locator("#hand").focus()
    tab_until(phone, "#palette")
    assert focused_name(phone) == "bamboo 1"
    phone.keyboard.press("Enter")
    phone.keyboard.press("ArrowRight")
    phone.keyboard.press("Enter")
    phone.keyboard.press("ArrowRight")
    phone.keyboard.press(" ")
    expect(phone.locator("#hand")).to_have_value("b123")
    assert focused_name(phone) == "bamboo 3"  # adding keeps the focus in the palette
    phone.keyboard.press("ArrowDown")  # the same column, a row down
    assert focused_name(phone) == "circles 3"
    for _ in range(3):
        phone.keyboard.press("Enter")
    expect(phone.locator("#hand")).to_have_value("b123 k333")
    phone.keyboard.press("ArrowDown")
    phone.keyboard.press("ArrowDown")  # winds and dragons: E S W N F C P
    assert focused_name(phone) == "west wind"
    phone.keyboard.press("End")
    assert focused_name(phone) == "white dragon"
    phone.keyboard.press("Home")
    assert focused_name(phone) == "east wind"
    phone.keyboard.press("ArrowLeft")  # at the edge: stays
    assert focused_name(phone) == "east wind"
    expect(phone.locator('#palette [data-row="bonus"]')).to_be_hidden()
    phone.keyboard.press("Control+End")  # flowers are not played under nts-2016
    assert focused_name(phone) == "white dragon"
    phone.keyboard.press("Enter")
    expect(phone.locator("#hand")).to_have_value("b123 k333 P")
    phone.keyboard.press("Control+Home")
    assert focused_name(phone) == "bamboo 1"
    # one tab stop: the next Tab leaves the palette for the seat wind
    phone.keyboard.press("Tab")
    expect(phone.locator("#seat")).to_be_focused()
    phone.keyboard.press("Shift+Tab")  # back to the tile it left
    assert focused_name(phone) == "bamboo 1"

    # the hand's tiles: one tab stop too
    phone.locator("#hand").focus()
    tab_until(phone, "#groups")
    assert focused_name(phone) == "bamboo 1"
    phone.keyboard.press("End")
    assert focused_name(phone) == "white dragon"
    phone.keyboard.press("Enter")  # choose it
    chosen = phone.locator('#groups button.tile[aria-pressed="true"]')
    expect(chosen).to_have_attribute("aria-label", "white dragon")
    assert focused_name(phone) == "white dragon"  # the focus stays on the chosen tile
    tab_until(phone, '[data-act="winning"]')  # out of the hand, to the tools
    phone.keyboard.press("Enter")
    expect(phone.locator("#hand")).to_have_value("b123 k333 +P")


def test_arrow_keys_between_the_hands_groups(desktop: Page) -> None:
    """Up and Down move between the concealed tiles and the melds, keeping the column."""
    desktop.goto("/?hand=b123+k456+%5Bt789%5D+%28CCCC%29")
    desktop.wait_for_load_state("domcontentloaded")
    desktop.locator("#hand").focus()
    tab_until(desktop, "#groups")
    assert focused_name(desktop) == "bamboo 1"
    desktop.keyboard.press("ArrowRight")
    desktop.keyboard.press("ArrowDown")  # the open meld t789, second tile
    assert focused_name(desktop) == "characters 8"
    desktop.keyboard.press("ArrowDown")  # the concealed kong
    assert focused_name(desktop) == "red dragon"
    desktop.keyboard.press("ArrowDown")  # the last group: stays
    desktop.keyboard.press("ArrowUp")
    desktop.keyboard.press("ArrowUp")
    desktop.keyboard.press("End")
    assert focused_name(desktop) == "circles 6"
    expect(desktop.locator("#groups button.tile[tabindex='0']")).to_have_count(1)


def test_down_goes_to_the_next_line_of_a_wrapped_hand(phone: Page) -> None:
    """Fourteen tiles take two lines at phone width: Down goes to the tile drawn below,
    Up comes back."""
    phone.goto("/?hand=b123+k456+t789+EEE+CC")
    phone.wait_for_load_state("domcontentloaded")
    phone.locator("#hand").focus()
    tab_until(phone, "#groups")
    assert focused_name(phone) == "bamboo 1"
    first = phone.locator("*:focus").bounding_box()
    phone.keyboard.press("ArrowDown")
    below = phone.locator("*:focus").bounding_box()
    assert first is not None and below is not None
    assert below["y"] >= first["y"] + first["height"], (first, below)  # a line lower
    assert abs(below["x"] - first["x"]) < 4, (first, below)  # the same column
    phone.keyboard.press("ArrowUp")
    assert focused_name(phone) == "bamboo 1"
