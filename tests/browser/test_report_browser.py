"""The page of ``simulate --report`` (index.html) in chromium, opened from the folder as a
file, with scripts off and every network request refused: it shows its tables and plots
on a phone (360 px, nothing wider than the screen but the tables, which scroll in their
box) and on a desktop.  The pictures (report-*.png) are docs/simulate.md's."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Route

from browser_helpers import DESKTOP, PHONE, shot
from mahjong_nts.formats.rulefiles import load_ruleset
from mahjong_nts.sim.report import CSV_FILES, PLOT_FILES, RunStats
from mahjong_nts.sim.report_page import write_report
from mahjong_nts.sim.simulate import SimulationSpec, run_simulation

pytest.importorskip("matplotlib")

MIXED = ("heuristic", "random", "random", "random")
HOUSE = """\
base = "nts-2016"
name = "no-minimum"
title = "NTS 2016, mahjong without doublings"

[scoring]
min_doublings = 0
"""


def _played(spec_text: str, hands: int) -> RunStats:
    rules = load_ruleset(spec_text)
    spec = SimulationSpec(spec_text, MIXED, seed=1)
    stats = RunStats(spec_text, spec, rules)
    for o in run_simulation(spec, hands, jobs=2, rules=rules):
        stats.add(o)
    return stats


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A house rule against its base (English and Dutch pages of the same runs)."""
    base = tmp_path_factory.mktemp("report")
    house = base / "no-minimum.toml"
    house.write_text(HOUSE, encoding="utf-8")
    runs = [_played("nts-2016", 200), _played(str(house), 200)]
    write_report(base / "en", runs)
    write_report(base / "nl", runs, lang="nl")
    return {"en": base / "en" / "index.html", "nl": base / "nl" / "index.html"}


Opener = Callable[[Path, dict[str, int]], Page]


@pytest.fixture
def open_page(browser: Browser) -> Iterator[Opener]:
    """``open_page(path, viewport)``: the file in a context of its own, scripts off."""
    contexts = []
    problems: list[str] = []

    def make(path: Path, viewport: dict[str, int]) -> Page:
        context = browser.new_context(viewport=viewport, java_script_enabled=False)
        contexts.append(context)

        def refuse(route: Route) -> None:
            problems.append(f"request: {route.request.url}")
            route.abort()

        context.route("http*://**/*", refuse)  # the page needs nothing from a network
        page = context.new_page()
        page.on("console", lambda m: m.type == "error" and problems.append(m.text))
        page.goto(path.as_uri())
        page.wait_for_load_state("load")
        return page

    yield make
    for context in contexts:
        context.close()
    assert not problems, problems


def _check(page: Page, width: int) -> None:
    # nothing wider than the screen: the page itself never scrolls sideways
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    images = page.get_by_role("img")
    assert images.count() == len(PLOT_FILES)
    for k in range(images.count()):
        img = images.nth(k)
        assert img.evaluate("i => i.complete && i.naturalWidth") == 800
        box = img.bounding_box()
        assert box is not None and box["width"] <= width
    tables = page.get_by_role("table")
    assert tables.count() == 5
    # a wide table scrolls inside its own box, which a keyboard can reach
    regions = page.get_by_role("region")
    assert regions.count() == 5
    assert regions.first.get_attribute("tabindex") == "0"
    links = page.get_by_role("link")
    assert sorted(links.nth(k).inner_text() for k in range(links.count())) == sorted(CSV_FILES)


def test_report_on_a_phone(open_page: Opener, reports: dict[str, Path]) -> None:
    page = open_page(reports["en"], PHONE)
    assert page.get_by_role("heading", level=1).inner_text() == "What no-minimum does to the game"
    _check(page, PHONE["width"])
    heads = page.get_by_role("columnheader", name="no-minimum")
    assert heads.count() >= 5  # every table has a column for each rule set
    shot(page, "report-phone")


def test_report_on_a_desktop(open_page: Opener, reports: dict[str, Path]) -> None:
    page = open_page(reports["en"], DESKTOP)
    _check(page, DESKTOP["width"])
    bots = page.get_by_role("table").nth(1)
    assert bots.get_by_role("rowheader").all_inner_texts() == ["heuristic", "random"]
    # the outcome table is fully in view: no scrolling needed on a desktop
    region = page.get_by_role("region").first
    assert region.evaluate("r => r.scrollWidth <= r.clientWidth")
    shot(page, "report-desktop")


def test_report_in_dutch_on_a_phone(open_page: Opener, reports: dict[str, Path]) -> None:
    page = open_page(reports["nl"], PHONE)
    assert page.get_by_role("heading", level=1).inner_text() == "Wat no-minimum met het spel doet"
    assert page.get_by_role("heading", name="Hoe de spellen afliepen").count() == 1
    _check(page, PHONE["width"])
    shot(page, "report-nl-phone")
