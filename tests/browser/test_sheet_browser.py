"""The evening score sheet in a real browser: a sheet over several hands, a refused
score, a correction with its history, a server restart on the same data folder, in
English at desktop width and in Dutch on a phone.  Balances by hand (NTS 2016 2.1:
the winner receives his score from each player, East pays and receives double, the
others settle their differences)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, expect

from browser_helpers import DESKTOP, EXAMPLE_SHEET_LINK, PHONE, enter_scores, shot
from server_helpers import running_server

NAMES = ["Ann", "Bob", "Cor", "Dirk"]
# the share link (random token, the test server's port) and the times of the changes
STEADY = {"#share-link": EXAMPLE_SHEET_LINK, ".history time": "2025-01-01 20:15 UTC"}


def standings(page: Page) -> list[str]:
    return page.locator(".standings li strong").all_inner_texts()


def test_a_sheet_over_several_hands_with_a_correction_and_a_restart(
    page_in: Callable[..., Page], tmp_path: Path
) -> None:
    page = page_in(DESKTOP)
    data = tmp_path / "data"
    with running_server(data) as (url, _proc):
        page.goto(url + "sheet")
        for i, name in enumerate(NAMES):
            page.get_by_label(f"Player {i + 1}", exact=False).fill(name)
        page.get_by_label("Cents per point").fill("0,5")
        page.get_by_role("button", name="Start the sheet").click()
        expect(page.get_by_role("heading", name="Score sheet", exact=True)).to_be_visible()
        link = page.url
        assert link.startswith(url + "sheet/") and len(link.rsplit("/", 1)[1]) == 32

        # hand 1: Ann (East) 40 self-drawn, Bob 10, Dirk 8: +240 -68 -98 -74
        enter_scores(page, {"Ann": "40", "Bob": "10", "Dirk": "8"}, winner="Ann")
        page.get_by_role("button", name="Add the hand").click()
        expect(page.get_by_role("status")).to_contain_text("Hand 1 added.")
        assert standings(page) == ["240", "-68", "-98", "-74"]
        expect(page.locator(".next")).to_contain_text("Bob is East.")

        # hand 2 entered as a remise; a mistyped score is refused beside its field
        page.get_by_label("Score of Cor").fill("1O")
        page.get_by_role("button", name="Add the hand").click()
        expect(page.locator("#err-score2")).to_have_text("a score is a whole number, 0 or more")
        expect(page.get_by_label("Score of Cor")).to_have_attribute("aria-invalid", "true")
        assert standings(page) == ["240", "-68", "-98", "-74"]  # nothing stored
        page.get_by_label("Score of Cor").fill("")
        page.get_by_role("button", name="Add the hand").click()
        expect(page.get_by_role("status")).to_contain_text("Hand 2 added.")

        # hand 3: Cor 20 on Dirk's discard; Cor is East: +120, the others -40 each...
        # and Ann, Bob, Dirk 0 among themselves: Ann 200, Bob -108, Cor 22, Dirk -114
        enter_scores(page, {"Cor": "20"}, winner="Cor", discarder="Dirk")
        page.get_by_role("button", name="Add the hand").click()
        expect(page.get_by_role("status")).to_contain_text("Hand 3 added.")
        assert standings(page) == ["200", "-108", "22", "-114"]

        # the remise was Bob's 16, self-drawn, as East: +96, the others -32; hand 3 is
        # computed again (Cor stays East): Ann 168, Bob -12, Cor -10, Dirk -146
        page.get_by_role("link", name="Hand 2: correct it").click()
        expect(page.get_by_role("heading", name="Correct hand 2")).to_be_visible()
        expect(page.get_by_text("Not corrected yet.")).to_be_visible()
        page.get_by_label("Score of Bob").fill("16")
        page.get_by_label("Mahjong", exact=True).select_option(label="Bob")
        page.get_by_role("button", name="Save the correction").click()
        expect(page.get_by_role("status")).to_contain_text("Hand 2 corrected.")
        assert standings(page) == ["168", "-12", "-10", "-146"]
        expect(page.locator("#hand-2 .corrected")).to_have_text("corrected")
        shot(page, "sheet-desktop", steady=STEADY)
        page.get_by_role("link", name="Hand 2: correct it").click()
        history = page.locator(".history")
        expect(history).to_contain_text("was: Ann 0 · Bob 0 · Cor 0 · Dirk 0; a remise")
        expect(history).to_contain_text("became: Ann 0 · Bob 16 · Cor 0 · Dirk 0; Bob won")
        shot(page, "sheet-correction-desktop", steady=STEADY)

    # a new server on the same data folder: the link still opens the sheet
    with running_server(data) as (url2, _proc):
        path = link.split("/sheet/", 1)[1]
        page.goto(url2 + "sheet/" + path)
        assert standings(page) == ["168", "-12", "-10", "-146"]
        expect(page.locator("table.sheet tbody tr")).to_have_count(3)
        page.goto(url2 + "sheet/" + path + "/print")
        expect(page.locator("table.sheet")).to_be_visible()
        page.emulate_media(media="print")
        expect(page.locator("header.site")).to_be_hidden()
        shot(page, "sheet-print")


def test_a_dutch_phone_enters_hands_as_tiles(page_in: Callable[..., Page]) -> None:
    page = page_in(PHONE, locale="nl-NL")
    page.goto("/sheet")
    expect(page.get_by_role("heading", name="Nieuwe scorelijst")).to_be_visible()
    shot(page, "sheet-start-phone-nl")
    for i, name in enumerate(["Anna", "Bert", "Cees"]):
        page.get_by_label(f"Speler {i + 1}", exact=False).fill(name)
    page.keyboard.press("Enter")  # submits the form, as a phone's "go" key does
    expect(page.get_by_text("nts-2016+three-players")).to_be_visible()

    # the hands, typed: the fields for scores go away when "handen" is chosen
    page.get_by_label("handen (stenen in notatie)").check()
    expect(page.get_by_label("Score van Anna")).to_be_hidden()
    # three players play bamboe and kringen only, and no open chows
    page.get_by_label("Hand van Anna").fill("b123 k456 b789 EEE C +C")
    page.get_by_label("Hand van Bert").fill("b111 b456 k55 k23 [CCC]")
    page.get_by_label("Hand van Cees").fill("b234 k345 b456 b67 k8 k9")
    page.get_by_label("Mahjong", exact=True).select_option(label="Anna")
    page.get_by_role("button", name="Spel toevoegen").press("Enter")
    expect(page.get_by_role("status")).to_contain_text("Spel 1 toegevoegd.")
    # Anna, East: chows, a concealed pung of East 8, a pair of red dragons 2, mahjong
    # 20, self-drawn 2, completing the pair 2, the only possible tile 2 = 36, doubled
    # for own wind, round wind and twice fully concealed: 576, from each doubled: +2304.
    # Bert: a concealed pung of b1 8, an open pung of red dragons 4, doubled: 24, which
    # Cees pays him: -1152 + 24 = -1128, Cees -1176.
    assert standings(page) == ["2304", "-1128", "-1176"]
    expect(page.locator(".next")).to_contain_text("Bert is Oost.")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    shot(page, "sheet-phone-nl", steady=STEADY)

    # a hand that is not one: the message beside the hand, nothing stored
    page.get_by_label("Hand van Anna").fill("b1 b2 x9")
    page.get_by_role("button", name="Spel toevoegen").click()
    expect(page.locator("#err-hand0")).to_be_visible()
    assert standings(page) == ["2304", "-1128", "-1176"]
