"""What the browser tests share besides their fixtures (tests/browser/conftest.py):
the chromium to start, the viewports, and :func:`shot` for docs/web.md's pictures.

Screenshots go into docs/images/web only when ``MAHJONG_NTS_DOC_SHOTS=1`` is set (then
run the whole of tests/browser, so that every picture is made as in the last run);
otherwise into a temporary folder removed at the end of the run, so a test run leaves
the checkout as it was (the pages are still drawn and photographed).  The pictures are
the same on every run on one machine: the server deals the games against the bots from
:data:`PLAY_SEED`, and :func:`shot` writes fixed text over what a clock or a random
token would put in view (``steady``)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

import segno
from playwright.sync_api import Page

from server_helpers import ROOT

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
DOC_SHOTS_VARIABLE = "MAHJONG_NTS_DOC_SHOTS"
"""Set to 1: the screenshots go into :data:`DOCS_SHOTS`."""
DOCS_SHOTS = ROOT / "docs" / "images" / "web"
PLAY_SEED = "20250101"
"""``MAHJONG_NTS_PLAY_SEED`` of the browser tests' server: the same deals every run."""
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
# a closed network: no background connections (they are refused, noisily)
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
EXAMPLE_SHEET_LINK = "http://127.0.0.1:8000/sheet/q3Rk9VbT0eXcA7mN1sLp4ZuW8hYd2Gf5"
"""What a screenshot shows for a sheet's share link (the real one has a random token
and the test server's port)."""

EXAMPLE_PUBLIC = "http://127.0.0.1:8000/t/Hq4xV7bN2mK9sL3pR8tW1c"
"""What the tournament score cards' QR codes show in a picture (the real link is random)."""

_temporary: tempfile.TemporaryDirectory[str] | None = None


def shots_dir() -> Path:
    """Where :func:`shot` writes: docs/images/web, or this run's temporary folder."""
    global _temporary
    if os.environ.get(DOC_SHOTS_VARIABLE) == "1":
        DOCS_SHOTS.mkdir(parents=True, exist_ok=True)
        return DOCS_SHOTS
    if _temporary is None:
        _temporary = tempfile.TemporaryDirectory(prefix="mahjong-nts-shots-")
    return Path(_temporary.name)


def shot(page: Page, name: str, *, steady: Mapping[str, str] | None = None) -> Path:
    """A full-page screenshot NAME.png (in :func:`shots_dir`).  ``steady`` maps CSS
    selectors to fixed text: every element they match shows that text (an input that
    value) in the picture, in place of a clock's time or a random link."""
    for selector, text in (steady or {}).items():
        page.locator(selector).evaluate_all(
            """(elements, text) => { for (const e of elements) {
                 if ("value" in e && e.tagName === "INPUT") e.value = text;
                 else e.textContent = text; } }""",
            text,
        )
    path = shots_dir() / f"{name}.png"
    page.screenshot(path=str(path), full_page=True, animations="disabled", caret="hide")
    return path


def example_codes(page: Page) -> None:
    """The score cards' QR codes (``td.qr``, in the order of the cards) redrawn for the
    example link :data:`EXAMPLE_PUBLIC`: the real ones hold the tournament's random link,
    which would make every picture another."""
    numbers = page.locator("td.qr").evaluate_all(
        "(cells) => cells.map((c) => c.closest('tr').querySelector('td.n').textContent.trim())"
    )
    codes = [
        segno.make(f"{EXAMPLE_PUBLIC}/p/{n}", error="m", micro=False).svg_inline(scale=3, border=2)
        for n in numbers
    ]
    page.locator("td.qr").evaluate_all(
        "(cells, codes) => cells.forEach((c, i) => { c.innerHTML = codes[i]; })", codes
    )


def enter_scores(
    page: Page,
    scores: Mapping[str, str],
    *,
    winner: str | None = None,
    discarder: str | None = None,
) -> None:
    """Fill in a score sheet's hand form (English): each named player's score, and
    who went mahjong and who discarded the winning tile (by name)."""
    for name, score in scores.items():
        page.get_by_label(f"Score of {name}").fill(score)
    if winner is not None:
        page.get_by_label("Mahjong", exact=True).select_option(label=winner)
    if discarder is not None:
        page.get_by_label("Discarded the winning tile").select_option(label=discarder)
