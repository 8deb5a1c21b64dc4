"""Play a whole hand against the bots in a real browser, by keyboard and clicks, then
download its log, verify it, and step through it in the replay viewer."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from browser_helpers import DESKTOP, PHONE, shot
from mahjong_nts.formats import gamelog

MAX_MOVES = 400


def play_hand(page: Page, *, keyboard: bool) -> int:
    """Play until the hand is over: the first legal choice each time, by its key (the
    tile key '1' discards the first tile that may go; 'x' passes) or by a click."""
    moves = 0
    table = page.locator("#table")
    while table.get_attribute("data-phase") != "over":
        assert moves < MAX_MOVES
        seq = table.get_attribute("data-seq")
        enabled = page.locator("#act-form button:not([disabled])")
        expect(enabled.first).to_be_visible()
        if keyboard:
            claim = page.locator(".claims button")
            if claim.count():
                key = claim.first.get_attribute("data-key") or "x"
                page.keyboard.press(key)
                if page.locator(f'.claims button[data-key="{key}"]').count() > 1:
                    page.keyboard.press("Enter")  # two chows share 'c': it moved the focus
            else:
                key = page.locator(".hand button:not([disabled])").first.get_attribute("data-key")
                page.keyboard.press(key or "1")
        else:
            enabled.first.click()
        moves += 1
        # the server answers with the table after the bots moved
        expect(page.locator("#table")).not_to_have_attribute("data-seq", seq or "")
        table = page.locator("#table")
    return moves


@pytest.mark.parametrize(
    ("viewport", "locale", "name"), [(PHONE, "en-GB", "phone"), (DESKTOP, "nl-NL", "desktop")]
)
def test_a_whole_hand_against_the_bots(
    page_in: Callable[..., Page], tmp_path: Path, viewport: dict[str, int], locale: str, name: str
) -> None:
    page = page_in(viewport, locale=locale)
    page.goto("/play")
    dutch = locale.startswith("nl")
    page.get_by_role("button", name="Begin het spel" if dutch else "Start the game").click()
    expect(page.locator("#table")).to_have_attribute("data-phase", "turn")
    page.wait_for_load_state("domcontentloaded")  # play.js (a module) listens from here
    # every tile button is named as a screen reader says it, in the page's language
    first = page.locator(".hand button").first
    label = first.get_attribute("aria-label") or ""
    assert any(
        w in label
        for w in (
            ["bamboe", "kringen", "tekens", "wind", "draak", "bloem", "seizoen"]
            if dutch
            else ["bamboo", "circles", "characters", "wind", "dragon", "flower", "season"]
        )
    ), label
    page.keyboard.press("h")  # a hint on demand
    expect(page.locator("#hint p").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    shot(page, f"play-{name}")
    play_hand(page, keyboard=name == "phone")
    expect(page.locator(".result")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    shot(page, f"play-over-{name}")

    with page.expect_download() as download:
        page.locator("a.download").click()
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    verified = gamelog.verify_hand_log(gamelog.read_hand_log(path))
    assert verified.over

    page.goto("/replay")
    page.set_input_files("#log", str(path))
    page.get_by_role(
        "button", name="Controleren en naspelen" if dutch else "Check and replay"
    ).click()
    expect(page.locator(".verified")).to_be_visible()
    step = page.locator("#step")
    for key, shown in (("", 0), ("ArrowRight", 1), ("ArrowRight", 2), ("ArrowLeft", 1)):
        if key:
            page.keyboard.press(key)
        expect(step).to_have_text(re.compile(rf"^\D*{shown}\D"))
        # each step is a new page: its key handler (a module script) runs before
        # DOMContentLoaded, so a key pressed earlier could fall on no handler
        page.wait_for_load_state("domcontentloaded")
    page.get_by_role("link", name="Einde" if dutch else "End").click()
    expect(page.locator(".result")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    shot(page, f"replay-{name}")


def test_a_bad_log_gets_a_clear_message(browser: Browser, live_url: str, tmp_path: Path) -> None:
    # a context of its own: the 422 answer is logged by chromium as a failed load, which
    # the page_in fixture would count as a console error
    context = browser.new_context(viewport=PHONE, locale="en-GB", base_url=live_url)
    phone = context.new_page()
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "header"}\n', encoding="utf-8")
    phone.goto("/replay")
    phone.set_input_files("#log", str(bad))
    phone.get_by_role("button", name="Check and replay").click()
    expect(phone.get_by_role("alert")).to_contain_text("not a readable hand log")
    shot(phone, "replay-bad-log-phone")
    context.close()
