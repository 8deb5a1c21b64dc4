"""Accessibility of every page, checked by a tool: axe-core (Deque's rules engine, the one
behind Lighthouse's accessibility score), vendored under tests/vendor/ (docs/vendor.md),
injected into every page this module opens and run with the WCAG 2.1 A and AA rules,
colour contrast included.  Each page is checked in the states a person sees it in (empty,
with a result, with an error, during and after a hand) at phone and desktop width, in
Dutch and English.  A failure lists each violation's rule, the elements and axe's summary.

Besides axe: every control shows its keyboard focus (a picture of it focused differs from
one unfocused), and the results are announced (aria-live regions that are in the
accessibility tree and receive the new text).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import APIRequestContext, Browser, Page, expect

from browser_helpers import DESKTOP, PHONE, PLAY_SEED, shots_dir
from server_helpers import ROOT, running_server

AXE = ROOT / "tests" / "vendor" / "axe-core" / "axe.min.js"
WCAG21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
# Rules left out, page by page, and why (docs/web.md says the same): none.
EXCLUDED: dict[str, dict[str, str]] = {}
# Dark mode is checked once a stylesheet has a dark branch (none has yet).
STATIC = ROOT / "src" / "mahjong_nts" / "web" / "static"
SCHEMES = ["light"] + (
    ["dark"]
    if any("prefers-color-scheme: dark" in p.read_text("utf-8") for p in STATIC.glob("*.css"))
    else []
)
MAX_MOVES = 400
MAX_GAMES = 8  # games started to reach one state (a hand need not offer a discard)
MAX_TABS = 150  # tab stops walked on one page before the test gives up


@pytest.fixture(scope="module")
def live_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of this module's own (the session's is tests/browser/conftest.py's): the
    games started here would otherwise shift which deal the other tests' games get from
    PLAY_SEED, and with it their screenshots."""
    data = tmp_path_factory.mktemp("a11y-data")
    with running_server(data, MAHJONG_NTS_PLAY_SEED=PLAY_SEED) as (url, _proc):
        yield url


# --------------------------------------------------------------------------- axe


def axe_violations(page: Page, disabled: dict[str, str]) -> list[dict[str, Any]]:
    """axe.run on the whole page with the WCAG 2.1 A/AA rules: the violations."""
    page.wait_for_load_state("networkidle")
    options = {
        "runOnly": {"type": "tag", "values": WCAG21_AA},
        "resultTypes": ["violations"],
        "rules": {rule: {"enabled": False} for rule in disabled},
    }
    result: list[dict[str, Any]] = page.evaluate(
        """async (options) => {
            const r = await axe.run(document, options);
            return r.violations.map((v) => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map((n) => ({
                    target: n.target.join(" "), summary: n.failureSummary,
                })),
            }));
        }""",
        options,
    )
    return result


def report(where: str, violations: list[dict[str, Any]]) -> str:
    lines = [f"{where}: {len(violations)} axe violation(s)"]
    for v in violations:
        lines.append(f"- {v['id']} ({v['impact']}): {v['help']}")
        for node in v["nodes"]:
            summary = " / ".join(s.strip() for s in node["summary"].splitlines() if s.strip())
            lines.append(f"    {node['target']}: {summary}")
    return "\n".join(lines)


def assert_no_violations(page: Page, where: str, state: str) -> None:
    violations = axe_violations(page, EXCLUDED.get(state, {}))
    if violations:
        text = report(where, violations)
        print(text)
        pytest.fail(text, pytrace=False)


# --------------------------------------------------------------------------- the states


def play_via_api(request: APIRequestContext, until: Callable[[dict[str, Any]], bool]) -> str:
    """Start one-hand games and take the first legal action until ``until(state)``: the
    game's id.  The page then shows the state the server keeps for it.  A hand may end
    without the state wanted (no discard was ever offered): then a new game, at most
    ``MAX_GAMES``."""
    for _ in range(MAX_GAMES):
        answer = request.post("/api/play", data={"ruleset": "nts-2016", "hands": 1})
        assert answer.status == 201, answer.text()
        state = answer.json()
        for _ in range(MAX_MOVES):
            if until(state):
                return str(state["game"])
            if not state["legal"]:  # the hand is over: the API lists no action then
                break
            act = {"hand": state["hand"], "seq": state["seq"], "action": state["legal"][0]}
            answer = request.post(f"/api/play/{state['game']}/act", data=act)
            assert answer.ok, answer.text()
            state = answer.json()
    raise AssertionError(f"no such state in {MAX_GAMES} games")


def offered(state: dict[str, Any]) -> bool:
    return bool(state["to_act"] and state["offered"] and state["phase"] != "over")


def over(state: dict[str, Any]) -> bool:
    return bool(state["phase"] == "over")


def calc_empty(page: Page) -> None:
    page.goto("/")


def calc_result(page: Page) -> None:
    page.goto("/")
    page.wait_for_load_state("domcontentloaded")
    page.locator("#hand").fill("b123 WWW CCC b23 b55 +b4")
    expect(page.locator("#calc-result .score")).to_have_text(re.compile(r"^\d+$"))
    expect(page.locator("#calc-result .not-counted")).to_be_visible()


def calc_error(page: Page) -> None:
    page.goto("/")
    page.wait_for_load_state("domcontentloaded")
    red = page.locator('#palette button[data-tile="C"]')
    for _ in range(5):
        red.click()
    expect(page.locator("#groups .tile.wrong").first).to_be_visible()
    # and the tile chosen, so its pressed state is checked too
    page.locator("#groups button.tile").first.click()
    expect(page.locator('#groups button.tile[aria-pressed="true"]')).to_have_count(1)


def settle_empty(page: Page) -> None:
    page.goto("/settle")


def settle_result(page: Page) -> None:
    page.goto("/settle?winner=0&score0=40&score1=0&score2=0&score3=0")
    expect(page.get_by_test_id("net0")).to_have_text("+240")


def settle_five(page: Page) -> None:
    """Five players, one the dreamer: the widest table of the book."""
    page.goto(
        "/settle?ruleset=nmb-2009%2Bfive-players&winner=3&discarder=1"
        "&score0=0&score1=30&score2=0&score3=100&score4=0"
    )
    expect(page.get_by_test_id("net3")).to_be_visible()


def settle_error(page: Page) -> None:
    page.goto("/settle?winner=0&score0=40&score1=x&score2=0&score3=0")
    expect(page.locator("#err-score1")).to_be_visible()


def _new_sheet(page: Page) -> None:
    page.goto("/sheet")
    for i, name in enumerate(["Ann", "Bob", "Cor", "Dirk"]):
        page.locator(f"#name{i}").fill(name)
    page.locator("form.start-form button[type=submit]").click()
    expect(page.locator("table.sheet, .add").first).to_be_visible()


def _add_hand(page: Page, scores: dict[int, str], winner: str) -> None:
    for p, score in scores.items():
        page.locator(f"#score{p}").fill(score)
    page.locator("#winner").select_option(winner)
    page.locator(".hand-form button[type=submit]").click()


def sheet_new(page: Page) -> None:
    page.goto("/sheet")


def sheet_hands(page: Page) -> None:
    _new_sheet(page)
    _add_hand(page, {0: "40", 1: "10"}, "0")
    expect(page.locator("#hand-1")).to_be_visible()
    _add_hand(page, {2: "24"}, "2")
    expect(page.locator("#hand-2")).to_be_visible()


def sheet_error(page: Page) -> None:
    _new_sheet(page)
    _add_hand(page, {2: "1O"}, "")
    expect(page.locator("#err-score2")).to_be_visible()


def sheet_history(page: Page) -> None:
    _new_sheet(page)
    _add_hand(page, {0: "40"}, "0")
    expect(page.locator("#hand-1")).to_be_visible()
    page.locator("#hand-1 th a").click()
    page.locator("#score0").fill("48")
    page.locator(".hand-form button[type=submit]").click()
    expect(page.locator("#hand-1 .corrected")).to_be_visible()
    page.locator("#hand-1 th a").click()
    expect(page.locator(".history ol li")).to_have_count(1)


def play_new(page: Page) -> None:
    page.goto("/play")


def play_turn(page: Page) -> None:
    page.goto("/play")
    page.locator(".play-new button[type=submit]").click()
    expect(page.locator("#table")).to_have_attribute("data-phase", "turn")
    page.wait_for_load_state("domcontentloaded")
    page.keyboard.press("h")  # the hint too
    expect(page.locator("#hint p").first).to_be_visible()


def play_offer(page: Page) -> None:
    game = play_via_api(page.request, offered)
    page.goto(f"/play/{game}")
    expect(page.locator(".claims button").first).to_be_visible()


def play_over(page: Page) -> None:
    game = play_via_api(page.request, over)
    page.goto(f"/play/{game}")
    expect(page.locator(".result")).to_be_visible()


def replay_form(page: Page) -> None:
    page.goto("/replay")


def replay_view(page: Page) -> None:
    game = play_via_api(page.request, over)
    log = page.request.get(f"/play/{game}/log/1")
    assert log.ok, log.text()
    page.goto("/replay")
    page.set_input_files(
        "#log", files=[{"name": "hand.jsonl", "mimeType": "text/plain", "buffer": log.body()}]
    )
    page.locator(".play-new button[type=submit]").click()
    expect(page.locator(".verified")).to_be_visible()
    page.locator("#next").click()
    expect(page.locator("#prev")).to_be_visible()


def replay_end(page: Page) -> None:
    replay_view(page)
    page.locator(".replay-nav a").last.click()
    expect(page.locator(".result")).to_be_visible()


def replay_error(page: Page) -> None:
    page.goto("/replay")
    page.set_input_files(
        "#log",
        files=[{"name": "bad.jsonl", "mimeType": "text/plain", "buffer": b'{"type": "x"}\n'}],
    )
    page.locator(".play-new button[type=submit]").click()
    expect(page.locator("#log-error")).to_be_visible()


def rules_compare(page: Page) -> None:
    page.goto("/rules?set=nts-2016&set=nmb-2009&set=rode-draak")
    expect(page.locator("tr.differs").first).to_be_visible()


def rules_error(page: Page) -> None:
    page.goto("/rules?set=nts-2016&set=no-such-set")
    expect(page.locator("form.compare .field-error")).to_be_visible()


def licences(page: Page) -> None:
    page.goto("/licences")


def not_found(page: Page) -> None:
    answer = page.goto("/no-such-page")
    assert answer is not None and answer.status == 404


def docs(page: Page) -> None:
    page.goto("/docs")
    expect(page.locator(".opblock").first).to_be_visible()


STATES: dict[str, Callable[[Page], None]] = {
    "calc-empty": calc_empty,
    "calc-result": calc_result,
    "calc-error": calc_error,
    "settle-empty": settle_empty,
    "settle-result": settle_result,
    "settle-five": settle_five,
    "settle-error": settle_error,
    "sheet-new": sheet_new,
    "sheet-hands": sheet_hands,
    "sheet-error": sheet_error,
    "sheet-history": sheet_history,
    "play-new": play_new,
    "play-turn": play_turn,
    "play-offer": play_offer,
    "play-over": play_over,
    "replay-form": replay_form,
    "replay-view": replay_view,
    "replay-end": replay_end,
    "replay-error": replay_error,
    "rules": rules_compare,
    "rules-error": rules_error,
    "licences": licences,
    "404": not_found,
    "docs": docs,
}
SIZES = {"phone": PHONE, "desktop": DESKTOP}
LOCALES = {"en": "en-GB", "nl": "nl-NL"}


def open_page(page_in: Callable[..., Page], size: str, lang: str, scheme: str = "light") -> Page:
    page = page_in(SIZES[size], locale=LOCALES[lang])
    page.emulate_media(color_scheme="dark" if scheme == "dark" else "light")
    page.add_init_script(path=str(AXE))  # on every document this page loads
    return page


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("lang", list(LOCALES))
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("state", list(STATES))
def test_axe_finds_no_wcag_21_aa_violation(
    page_in: Callable[..., Page],
    browser: Browser,
    live_url: str,
    state: str,
    size: str,
    lang: str,
    scheme: str,
) -> None:
    if state == "404":
        # chromium logs the page's own 404 as a console error, which page_in counts
        context = browser.new_context(viewport=SIZES[size], locale=LOCALES[lang], base_url=live_url)
        page = context.new_page()
        page.emulate_media(color_scheme="dark" if scheme == "dark" else "light")
        page.add_init_script(path=str(AXE))
    else:
        context = None
        page = open_page(page_in, size, lang, scheme)
    try:
        STATES[state](page)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        assert_no_violations(page, f"{state} {size} {lang} {scheme} ({page.url})", state)
        # WCAG 1.4.10 Reflow, which axe does not measure: no sideways scroll of the page
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= SIZES[size]["width"], f"{state} {size} {lang}: {width} px wide"
    finally:
        if context is not None:
            context.close()


# --------------------------------------------------------------------------- focus


def _focus_ring_shows(page: Page) -> tuple[str, bool]:
    """The focused element's description, and whether the picture of it (with a margin
    for an outline) differs between focused and unfocused."""
    info = page.evaluate(
        """() => {
            const el = document.activeElement;
            if (!el || el === document.body) return null;
            el.scrollIntoView({block: "center", inline: "nearest"});
            const r = el.getBoundingClientRect();
            const name = el.getAttribute("aria-label") || el.textContent.trim().slice(0, 30);
            return {what: `${el.tagName.toLowerCase()}#${el.id}.${el.className} "${name}"`,
                    x: r.left, y: r.top, w: r.width, h: r.height};
        }"""
    )
    if info is None:
        return "nothing", True
    pad = 6
    view = page.viewport_size or PHONE
    x = max(info["x"] - pad, 0)
    y = max(info["y"] - pad, 0)
    clip = {
        "x": x,
        "y": y,
        "width": max(min(info["w"] + 2 * pad, view["width"] - x), 1),
        "height": max(min(info["h"] + 2 * pad, view["height"] - y), 1),
    }
    focused = page.screenshot(clip=clip, animations="disabled", caret="initial")
    page.evaluate("document.activeElement.blur()")
    blurred = page.screenshot(clip=clip, animations="disabled", caret="initial")
    return info["what"], focused != blurred


FOCUS_STATES = [
    "calc-result",
    "calc-error",
    "settle-result",
    "sheet-hands",
    "sheet-history",
    "play-turn",
    "play-over",
    "replay-view",
    "rules",
    "licences",
]


@pytest.mark.parametrize(("size", "lang"), [("phone", "en"), ("desktop", "nl")])
@pytest.mark.parametrize("state", FOCUS_STATES)
def test_every_control_shows_its_focus(
    page_in: Callable[..., Page], state: str, size: str, lang: str
) -> None:
    """Tab from the top of the page through every tab stop (WCAG 2.4.7 Focus Visible):
    each must look different focused and unfocused.  Blurring keeps the browser's
    sequential focus starting point, so the next Tab goes on from there."""
    page = page_in(SIZES[size], locale=LOCALES[lang])
    STATES[state](page)
    page.wait_for_load_state("networkidle")
    # start from the top: the body focused (it takes focus only with a tabindex)
    page.evaluate(
        "document.body.tabIndex = -1; document.body.focus();"
        " document.body.removeAttribute('tabindex'); window.scrollTo(0, 0)"
    )
    seen: list[str] = []
    invisible: list[str] = []
    first = None
    for _ in range(MAX_TABS):
        page.keyboard.press("Tab")
        key = page.evaluate(
            "() => { const e = document.activeElement; return e && e !== document.body ?"
            " (e.id || '') + '|' + e.outerHTML.slice(0, 200) : null; }"
        )
        if key is None or key == first:
            break  # past the last stop (the browser's own UI) or round again
        first = first or key
        what, shows = _focus_ring_shows(page)
        seen.append(what)
        if not shows:
            invisible.append(what)
    else:
        pytest.fail(f"{state}: more than {MAX_TABS} tab stops")
    assert len(seen) >= 5, seen  # the nav alone has more
    assert not invisible, f"{state} {size} {lang}: no visible focus on {invisible}"


# --------------------------------------------------------------------------- announced


def live_region_of(page: Page, selector: str) -> dict[str, Any]:
    """What the accessibility tree says of the element: its live setting and text,
    from Chromium's own tree (CDP Accessibility), the one screen readers read."""
    cdp = page.context.new_cdp_session(page)
    try:
        node = cdp.send(
            "DOM.getDocument", {"depth": 0}
        )  # the document must be known before querySelector
        found = cdp.send(
            "DOM.querySelector", {"nodeId": node["root"]["nodeId"], "selector": selector}
        )
        assert found["nodeId"], selector
        tree = cdp.send("Accessibility.getPartialAXTree", {"nodeId": found["nodeId"]})
    finally:
        cdp.detach()
    mine = tree["nodes"][0] if tree["nodes"] else {}
    props = {p["name"]: p["value"].get("value") for p in mine.get("properties", [])}
    return {"ignored": mine.get("ignored", True), **props}


def test_results_are_announced(page_in: Callable[..., Page]) -> None:
    """Each page's result lands in a live region screen readers announce: polite, not
    hidden from the accessibility tree, and it receives the new result's text."""
    page = page_in(PHONE, locale="nl-NL")
    # the calculator: the score after each change, then a problem
    page.goto("/?hand=CC")
    page.wait_for_load_state("domcontentloaded")
    page.locator('#palette button[data-tile="C"]').click()
    # East, a concealed pung of red dragons: 8 points, 1 doubling = 16
    expect(page.locator("#calc-live")).to_have_text("Score 16")
    region = live_region_of(page, "#calc-live")
    assert region.get("live") == "polite" and not region["ignored"], region
    page.locator('#palette button[data-tile="C"]').click()
    page.locator('#palette button[data-tile="C"]').click()
    # (the page is Dutch, and so is the core's error: "5 copies of C ..." in English)
    expect(page.locator("#calc-live")).to_contain_text("5 exemplaren van C")

    # settle: the result section itself is the live region
    page.goto("/settle?winner=0&score0=40&score1=0&score2=0&score3=0")
    page.wait_for_load_state("domcontentloaded")
    page.locator("#score1").fill("10")
    # East 40 self-drawn, South 10: South gets 10 from West and North, pays East 80
    expect(page.get_by_test_id("net1")).to_have_text(str(-80 + 20))
    region = live_region_of(page, "#settle-result")
    assert region.get("live") == "polite" and not region["ignored"], region

    # play: the last moves are read out
    page.goto("/play")
    page.locator(".play-new button[type=submit]").click()
    expect(page.locator("#table")).to_have_attribute("data-phase", "turn")
    page.wait_for_load_state("domcontentloaded")
    before = page.locator(".events").inner_text()
    page.keyboard.press("1")
    expect(page.locator(".events")).not_to_have_text(before)
    region = live_region_of(page, ".events")
    assert region.get("live") == "polite" and not region["ignored"], region


def test_axe_is_not_served(page_in: Callable[..., Page]) -> None:
    """axe-core is a test tool: it lives under tests/, and the app does not serve it."""
    page = page_in(PHONE)
    assert AXE.is_file()
    assert not list((STATIC / "vendor").rglob("axe*")), "axe-core under static/"
    answer = page.request.get("/static/vendor/axe-core/axe.min.js")
    assert answer.status == 404


def test_focus_pictures(page_in: Callable[..., Page]) -> None:
    """Pictures for docs/web.md (see browser_helpers.shots_dir), at phone and desktop
    width, all by keyboard: a tile of the hand chosen (Tab, Right, Enter), then the
    focus ring on a palette tile (Tab on, Down, Right)."""
    for size, name in (("phone", "a11y-focus-phone"), ("desktop", "a11y-focus-desktop")):
        page = page_in(SIZES[size])
        page.goto("/?hand=b123+k456+EEE")
        page.wait_for_load_state("domcontentloaded")
        page.locator("#hand").focus()
        for box_id in ("#groups", "#palette"):
            for _ in range(MAX_TABS):
                page.keyboard.press("Tab")
                if page.evaluate(f"document.activeElement.closest('{box_id}') !== null"):
                    break
            if box_id == "#groups":
                page.keyboard.press("ArrowRight")
                page.keyboard.press("Enter")
        expect(page.locator('#groups [aria-pressed="true"]')).to_have_attribute(
            "aria-label", "bamboo 2"
        )
        page.keyboard.press("ArrowDown")
        page.keyboard.press("ArrowRight")
        expect(page.locator("*:focus")).to_have_attribute("data-tile", "k2")  # b1, k1, k2
        page.evaluate("document.getElementById('groups').scrollIntoView()")
        top = page.locator("#groups").bounding_box()
        bottom = page.locator("#palette").bounding_box()
        assert top is not None and bottom is not None
        view = page.viewport_size or PHONE
        y = max(top["y"] - 12, 0)
        height = min(bottom["y"] + bottom["height"] + 12, view["height"]) - y
        path = shots_dir() / f"{name}.png"  # docs/images/web with MAHJONG_NTS_DOC_SHOTS=1
        width = min(view["width"], bottom["x"] + bottom["width"] + 16)
        page.screenshot(path=str(path), clip={"x": 0, "y": y, "width": width, "height": height})
        assert path.stat().st_size > 0
