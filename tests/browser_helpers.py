"""What the browser tests share besides their fixtures (tests/browser/conftest.py):
the chromium to start, the viewports, and :func:`shot` for docs/web.md's pictures."""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import Page

from server_helpers import ROOT

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SHOTS = ROOT / "docs" / "images" / "web"
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


def shot(page: Page, name: str) -> Path:
    """Save a full-page screenshot as docs/images/web/NAME.png (for docs/web.md)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
