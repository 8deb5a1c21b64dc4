"""The score sheet with more than one phone at the table, in a real browser: a sheet
open on two phones follows what the other adds, by itself, without losing what is
typed; and a hand scored in the calculator goes to a sheet of this browser in one tap
(the right player's field by the seat wind, the other hands typed so far kept).

Balances by hand (NTS 2016 2.1: the winner receives his score from each player, East
pays and receives double, the others settle their differences)."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from browser_helpers import DESKTOP, EXAMPLE_SHEET_LINK, PHONE, enter_scores, shot

NAMES = ["Ann", "Bob", "Cor", "Dirk"]
STEADY = {"#share-link": EXAMPLE_SHEET_LINK}
LIVE_WAIT = 10_000
"""The page asks every 3 s (web.sheet.LIVE_SECONDS): a change shows within this."""


def standings(page: Page) -> list[str]:
    return page.locator(".standings li strong").all_inner_texts()


def start_sheet(page: Page, names: list[str] = NAMES) -> str:
    page.goto("/sheet")
    for i, name in enumerate(names):
        page.get_by_label(f"Player {i + 1}", exact=False).fill(name)
    page.get_by_role("button", name="Start the sheet").click()
    expect(page.get_by_role("heading", name="Score sheet", exact=True)).to_be_visible()
    page.wait_for_load_state("domcontentloaded")
    return page.url


def test_two_phones_on_one_sheet(page_in: Callable[..., Page]) -> None:
    ann = page_in(PHONE)
    link = start_sheet(ann)
    page_b = page_in(DESKTOP)  # Bob's phone (a context of its own) with the same link
    page_b.goto(link)
    expect(page_b.get_by_role("heading", name="Add hand 1")).to_be_visible()

    # Ann adds hand 1: Ann (East) 40 self-drawn, Bob 10, Dirk 8: +240 -68 -98 -74
    enter_scores(ann, {"Ann": "40", "Bob": "10", "Dirk": "8"}, winner="Ann")
    ann.get_by_role("button", name="Add the hand").click()
    expect(ann.get_by_role("status")).to_contain_text("Hand 1 added.")

    # Bob's page follows by itself: the hand, the standings, the next hand's form
    expect(page_b.locator("table.sheet tbody tr")).to_have_count(1, timeout=LIVE_WAIT)
    assert standings(page_b) == ["240", "-68", "-98", "-74"]
    expect(page_b.get_by_role("heading", name="Add hand 2")).to_be_visible()
    expect(page_b.locator(".next")).to_contain_text("Bob is East.")
    expect(page_b.locator("#sheet-status")).to_have_text(
        "The sheet was changed at the table and is shown as it is now."
    )
    shot(page_b, "sheet-live-desktop", steady=STEADY)

    # Bob starts typing hand 2; meanwhile Ann adds it: Cor 20 on Dirk's discard, Bob
    # East (who pays double): Cor +80, Ann -20, Bob -40, Dirk -20 (the others scored 0,
    # so nothing among them): Ann 220, Bob -108, Cor -18, Dirk -94
    page_b.get_by_label("Score of Cor").fill("20")
    ann.wait_for_load_state("domcontentloaded")
    enter_scores(ann, {"Cor": "20"}, winner="Cor", discarder="Dirk")
    ann.get_by_role("button", name="Add the hand").click()
    expect(ann.get_by_role("status")).to_contain_text("Hand 2 added.")
    assert standings(ann) == ["220", "-108", "-18", "-94"]
    expect(page_b.locator("table.sheet tbody tr")).to_have_count(2, timeout=LIVE_WAIT)
    assert standings(page_b) == ["220", "-108", "-18", "-94"]
    expect(page_b.get_by_role("heading", name="Add hand 3")).to_be_visible()
    expect(page_b.locator(".next")).to_contain_text("Cor is East.")
    # what Bob typed is still there, and the seat winds beside the names followed
    expect(page_b.get_by_label("Score of Cor")).to_have_value("20")
    expect(page_b.locator('[data-live="who-2"]')).to_contain_text("(East)")

    # Ann's page follows Bob's correction too
    page_b.get_by_role("link", name="Hand 1: correct it").click()
    enter_scores(page_b, {"Ann": "0", "Bob": "0", "Dirk": "0"}, winner="nobody (remise)")
    page_b.get_by_role("button", name="Save the correction").click()
    expect(page_b.get_by_role("status")).to_contain_text("Hand 1 corrected.")
    # hand 1 a remise: hand 2 alone, Bob East in it all the same (nts-2016, 1.8.5: East
    # passes on after every hand, a remise too): Ann -20, Bob -40, Cor +80, Dirk -20
    expect(ann.locator("#hand-1 .corrected")).to_have_text("corrected", timeout=LIVE_WAIT)
    assert standings(ann) == ["-20", "-40", "80", "-20"]
    assert ann.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(ann, "sheet-live-phone", steady=STEADY)


def test_a_hand_from_the_calculator_to_the_sheet_in_one_tap(
    page_in: Callable[..., Page],
) -> None:
    page = page_in(PHONE)
    page.goto("/?hand=CCC")
    # no sheet in this browser yet: the way to start one
    expect(page.locator("#to-sheet .to-sheet-none")).to_be_visible()
    expect(page.get_by_role("link", name="Start a score sheet")).to_have_attribute("href", "/sheet")
    link = start_sheet(page)
    token = link.rsplit("/", 1)[1]

    # Bob's hand (South in hand 1): a concealed pung of red dragons and an open pung
    # of South, only the sets that score: 8 + 4 points, dragons and own wind doubled: 48
    page.goto("/?hand=CCC+[SSS]&seat=S")
    expect(page.locator("#calc-result .score")).to_have_text("48")
    add = page.get_by_role("link", name="Add this hand to the sheet")
    expect(add).to_be_visible()
    expect(page.locator("#to-sheet-which")).to_have_text("Ann, Bob, Cor, Dirk · nts-2016")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "calc-to-sheet-phone")
    add.click()
    expect(page.get_by_label("Hand of Bob")).to_have_value("CCC [SSS]")
    assert page.url.split("?")[0].endswith(token)
    expect(page.get_by_label("hands (tiles in notation)")).to_be_checked()
    page.wait_for_load_state("domcontentloaded")

    # back to the calculator for Ann's winning hand (East): Bob's stays in the form
    page.goto("/?hand=b123+k456+t789+EEE+C+%2BC&seat=E")
    expect(page.locator("#calc-result .score")).to_have_text("576")
    page.get_by_role("link", name="Add this hand to the sheet").click()
    expect(page.get_by_label("Hand of Ann")).to_have_value("b123 k456 t789 EEE C +C")
    expect(page.get_by_label("Hand of Bob")).to_have_value("CCC [SSS]")
    expect(page.get_by_label("Mahjong", exact=True)).to_have_value("0")
    # Cor and Dirk: one pung of terminals each (West k111 8, North [b999] open 4)
    page.get_by_label("Hand of Cor").fill("k111")
    page.get_by_label("Hand of Dirk").fill("[b999]")
    page.get_by_role("button", name="Add the hand").click()
    expect(page.get_by_role("status")).to_contain_text("Hand 1 added.")
    # Ann +3 x 1152; Bob gets 48 - 8 = 40 from Cor and 48 - 4 = 44 from Dirk, Cor 4
    # from Dirk: Bob -1152 + 84, Cor -1152 - 40 + 4, Dirk -1152 - 44 - 4
    assert standings(page) == ["3456", "-1068", "-1188", "-1200"]
    # the form is empty again: nothing kept of the hand just added
    expect(page.get_by_label("Hand of Bob")).to_have_value("")


def test_several_sheets_are_chosen_from(page_in: Callable[..., Page]) -> None:
    page = page_in(DESKTOP)
    first = start_sheet(page, ["Ann", "Bob", "Cor", "Dirk"]).rsplit("/", 1)[1]
    second = start_sheet(page, ["Eva", "Fem", "Gijs"]).rsplit("/", 1)[1]
    page.goto("/?hand=CCC&seat=W")
    choice = page.get_by_label("Which sheet")
    expect(choice).to_be_visible()
    # the sheet opened last comes first
    options = choice.locator("option").all_inner_texts()
    assert options == ["Eva, Fem, Gijs · nts-2016+three-players", "Ann, Bob, Cor, Dirk · nts-2016"]
    add = page.get_by_role("link", name="Add this hand to the sheet")
    expect(add).to_have_attribute("href", re.compile(rf"^/sheet/{second}\?hand="))
    choice.select_option(label="Ann, Bob, Cor, Dirk · nts-2016")
    expect(add).to_have_attribute("href", re.compile(rf"^/sheet/{first}\?hand="))
    shot(page, "calc-to-sheet-desktop")
    add.click()
    expect(page.get_by_label("Hand of Cor")).to_have_value("CCC")  # West in hand 1
