"""The calculator offline in chromium: made available, then without a network the browser
(Pyodide in a Web Worker) answers every golden query with exactly the server's bytes,
in Dutch and English; the app shell and Pyodide come from the service worker's cache.

Pyodide starts in seconds on a busy two-core machine: the waits are long (they end as
soon as the page is ready).  ``-s`` prints the times measured (docs/web.md, "Offline").
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, Playwright, Request, expect

from browser_helpers import ARGS, CHROMIUM, DESKTOP, PHONE, shot, shots_dir
from calc_golden import GOLDEN

READY_TIMEOUT = 180_000  # ms: download 14 MB on loopback and start Pyodide
FIRST_LOAD_BOUND = 300_000

# The page's module, imported again by the test: the same instance (the module map), so
# this calls what calc.js calls when the server cannot be reached.
OFFLINE_ALL = """async (queries) => {
  const { offlineResult } = await import("/static/calc-offline.js");
  const out = [];
  const times = [];
  for (const q of queries) {
    const begun = performance.now();
    out.push(await offlineResult(q));
    times.push(performance.now() - begun);
  }
  return { out, times };
}"""

SERVER_ALL = """async (queries) => {
  const out = [];
  for (const q of queries) out.push(await (await fetch("/calc/result?" + q)).text());
  return out;
}"""


def make_available(page: Page, picture: str | None = None) -> dict[str, Any]:
    page.goto("/")
    page.wait_for_load_state("domcontentloaded")
    section = page.locator("#offline")
    expect(section).to_be_visible()
    expect(section).to_have_attribute("data-state", "none")
    if picture:
        section.screenshot(path=str(shots_dir() / f"{picture}.png"))
    page.locator("#offline-get").click()
    expect(section).to_have_attribute("data-state", "ready", timeout=READY_TIMEOUT)
    return {
        "ready_ms": int(section.get_attribute("data-ready-ms") or 0),
        "start_ms": int(section.get_attribute("data-start-ms") or 0),
    }


def offline_equals_server(page: Page, lang: str) -> list[float]:
    queries = [g.query_string() for g in GOLDEN]
    server = page.evaluate(SERVER_ALL, queries)
    page.context.set_offline(True)
    assert page.evaluate("navigator.onLine") is False
    offline = page.evaluate(OFFLINE_ALL, queries)
    for golden, want, got in zip(GOLDEN, server, offline["out"], strict=True):
        assert got == want, (lang, golden.name, want[:300], (got or "")[:300])
        if golden.score is not None:
            assert f'data-score="{golden.score}"' in got, (lang, golden.name)
    return list(offline["times"])


def test_offline_answers_equal_the_server_s_in_dutch(page_in: Callable[..., Page]) -> None:
    page = page_in(PHONE, locale="nl-NL")
    times = make_available(page, "calc-offline-offer-phone-nl")
    expect(page.locator("#offline-get")).to_have_text(
        re.compile(r"^Offline beschikbaar maken \(1[0-9],[0-9] MB\)$")
    )
    expect(page.locator("#offline-status")).to_have_text(
        "Offline rekenen staat klaar: zonder verbinding wordt een hand op dit apparaat berekend."
    )
    per_hand = offline_equals_server(page, "nl")
    # typed at the table without a network: scored on the phone
    page.locator("#hand").fill("b222 k333 CCC t1 t5 b9 k7")
    page.locator("#ruleset").select_option("nmb-2009")
    expect(page.locator("#calc-result .score")).to_have_text("128")  # nmb-2009's example
    expect(page.locator("#offline-status")).to_have_text(
        "Geen verbinding met de server: berekend op dit apparaat."
    )
    expect(page.locator("#calc-live")).to_have_text("Score 128")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # the totals down to the offline note (the whole page is long at phone width)
    top = page.locator("#calc-result .totals").bounding_box()
    bottom = page.locator("#offline").bounding_box()
    assert top is not None and bottom is not None
    scrolled = page.evaluate("window.scrollY")  # the boxes are in the viewport
    top["y"] += scrolled
    bottom["y"] += scrolled
    page.screenshot(
        path=str(shots_dir() / "calc-offline-phone-nl.png"),
        full_page=True,
        clip={"x": 0, "y": top["y"] - 8, "width": PHONE["width"],
              "height": bottom["y"] + bottom["height"] + 8 - (top["y"] - 8)},
    )  # fmt: skip
    print(
        f"\noffline (nl, phone): ready after {times['ready_ms']} ms (Pyodide and the bundle "
        f"started in {times['start_ms']} ms); per hand median "
        f"{statistics.median(per_hand):.1f} ms, max {max(per_hand):.1f} ms over {len(per_hand)}"
    )


def test_offline_answers_equal_the_server_s_and_start_cold(page_in: Callable[..., Page]) -> None:
    page = page_in(DESKTOP)
    times = make_available(page)
    per_hand = offline_equals_server(page, "en")
    # a new page without a network: the service worker serves the calculator, and the
    # worker starts Pyodide from the cache
    cold = page.context.new_page()
    cold.goto("/")
    cold.wait_for_load_state("domcontentloaded")
    expect(cold.locator("#offline-status")).to_have_text(
        "No connection: this calculator scores on this device."
    )
    cold.locator("#hand").fill("b123 WWW CCC b23 b55 +b4")
    cold.locator("#seat").select_option("S")
    cold.locator("#from").select_option("discard")
    expect(cold.locator("#calc-result .score")).to_have_text("144", timeout=READY_TIMEOUT)
    expect(cold.locator(".not-counted")).to_contain_text(
        "b4 was not the only tile that completed the hand: b1 also did"
    )
    expect(cold.locator("#offline-status")).to_have_text(
        "No connection to the server: scored on this device."
    )
    start_ms = int(cold.locator("#offline").get_attribute("data-start-ms") or 0)
    shot(cold, "calc-offline-desktop")
    cold.close()
    print(
        f"\noffline (en, desktop): ready after {times['ready_ms']} ms; per hand median "
        f"{statistics.median(per_hand):.1f} ms over {len(per_hand)}; a cold start "
        f"offline (Pyodide from the cache) {start_ms} ms"
    )


SLOW_REGISTER = """(() => {
  const sw = navigator.serviceWorker;
  if (!sw) return;
  const register = sw.register.bind(sw);
  sw.register = (...args) => new Promise((r) => setTimeout(r, 2000)).then(() => register(...args));
})();"""
"""The page's service worker registration, two seconds slower (as on a busy phone)."""


def test_a_click_while_the_service_worker_registers_is_not_lost(
    page_in: Callable[..., Page],
) -> None:
    # The offer shows before the service worker is registered; a click then starts the
    # download once it is (it once did nothing: the button listened only afterwards,
    # and a clean-clone CI on a busy machine clicked in between).
    page = page_in(DESKTOP)
    page.add_init_script(SLOW_REGISTER)
    page.goto("/")
    section = page.locator("#offline")
    expect(section).to_be_visible()
    expect(section).to_have_attribute("data-state", "none")
    page.locator("#offline-get").click()
    expect(section).to_have_attribute(
        "data-state", re.compile(r"^(getting|ready)$"), timeout=READY_TIMEOUT
    )
    expect(section).to_have_attribute("data-state", "ready", timeout=READY_TIMEOUT)


def test_the_first_load_takes_nothing_of_the_offline_files(page_in: Callable[..., Page]) -> None:
    """Every request of a fresh context opening ``/`` (the page's, the service worker's,
    any worker's): under the first-load budget, and nothing of Pyodide or the bundle
    until the player asks for it."""
    page = page_in(PHONE)
    finished: list[Request] = []
    page.context.on("requestfinished", lambda request: finished.append(request))
    page.goto("/", wait_until="networkidle")
    expect(page.locator("#offline")).to_have_attribute("data-state", "none")
    page.wait_for_timeout(500)  # the service worker's install and activation
    total = 0
    for request in finished:
        sizes = request.sizes()
        total += sizes["responseBodySize"] + sizes["responseHeadersSize"]
    urls = [r.url for r in finished]
    print(f"\nfirst load of /: {len(finished)} requests, {total} bytes")
    assert any(u.endswith("/static/calc-offline.js") for u in urls)
    assert not [u for u in urls if re.search(r"pyodide|bundle\.zip|/offline/worker\.js", u)]
    assert total < FIRST_LOAD_BOUND, total


def test_chromium_finds_the_calculator_installable(
    playwright: Playwright, live_url: str, tmp_path: Path
) -> None:
    """Chromium's own installability check (DevTools ``Page.getInstallabilityErrors``)
    in a browser profile on disk (an incognito context is never installable)."""
    context = playwright.chromium.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, args=ARGS, base_url=live_url
    )
    try:
        page = context.new_page()
        page.goto("/", wait_until="networkidle")
        expect(page.locator("#offline")).to_have_attribute("data-state", "none")
        cdp = context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest.get("errors") == [], manifest.get("errors")
        errors: list[Any] = []
        for _ in range(20):  # the service worker may still be activating
            errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
            if not errors:
                break
            page.wait_for_timeout(250)
        assert errors == []
    finally:
        context.close()
