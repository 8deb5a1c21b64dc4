#!/usr/bin/env python3
"""A contact sheet of the tile pictures: every tile and the back, at the calculator's palette
size (36x48 px), with its token and its spoken names in Dutch and English; one row drawn from
the sprite with CSS colours per suit.  Served from 127.0.0.1 and photographed with Playwright
and Debian's chromium at phone width (360 px) and desktop width.

    python3 scripts/tile_sheet.py                      # writes docs/images/tiles.png (desktop)
    python3 scripts/tile_sheet.py --phone out.png      # also a 360 px wide picture
    python3 scripts/tile_sheet.py --html sheet.html    # only the page, no browser
"""

from __future__ import annotations

import argparse
import functools
import html
import http.server
import shutil
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from mahjong_nts.core.tiles import Tile  # noqa: E402
from mahjong_nts.web.tiles import (  # noqa: E402
    SPRITE_FILE,
    TILE_CREDIT,
    all_faces,
    picture_file,
    picture_id,
    spoken_name,
)

STATIC = ROOT / "src" / "mahjong_nts" / "web" / "static"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

STYLE = """
body { font: 14px/1.3 system-ui, sans-serif; margin: 12px; background: #f4f1ea; color: #1d1d1d; }
h1 { font-size: 18px; margin: 0 0 8px; }
h2 { font-size: 15px; margin: 14px 0 6px; }
.grid { display: flex; flex-wrap: wrap; gap: 6px; }
figure { margin: 0; width: 80px; padding: 6px 4px; background: #fff; border-radius: 6px;
         display: flex; flex-direction: column; align-items: center; text-align: center;
         box-shadow: 0 1px 2px #0002; }
figure img { width: 36px; height: 48px; }
figcaption { font-size: 10.5px; margin-top: 3px; }
code { font-weight: 600; font-size: 12px; }
.en { color: #555; }
.sprite svg { width: 36px; height: 48px; background: #fff; border-radius: 4px; }
.sprite .b use { fill: #17663a; } .sprite .k use { fill: #1c4f99; }
.sprite .t use { fill: #a3201c; }
.sprite .h use { fill: #1d1d1d; } .sprite .x use { fill: #6b4a1a; }
footer { margin-top: 14px; font-size: 12px; color: #444; }
"""

GROUPS = [
    ("bamboe / bamboo", range(0, 9)),
    ("kringen / circles", range(9, 18)),
    ("tekens / characters", range(18, 27)),
    ("winden en draken / winds and dragons", range(27, 34)),
    ("bloemen en seizoenen / flowers and seasons; achterkant / back", range(34, 43)),
]


def page() -> str:
    faces = all_faces()
    parts = [
        '<!doctype html><html lang="nl"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Stenen / tiles</title><style>{STYLE}</style></head><body>",
        "<h1>Stenen / tiles (36&times;48 px)</h1>",
    ]
    for title, indexes in GROUPS:
        parts.append(f"<h2>{html.escape(title)}</h2><div class=grid>")
        for i in indexes:
            face = faces[i]
            nl, en = spoken_name(face, "nl"), spoken_name(face, "en")
            token = str(face) if isinstance(face, Tile) else "–"
            parts.append(
                f'<figure><img src="/static/{picture_file(face)}" alt="{html.escape(nl)}">'
                f"<figcaption><code>{html.escape(token)}</code><br>{html.escape(nl)}<br>"
                f'<span class=en lang="en">{html.escape(en)}</span></figcaption></figure>'
            )
        parts.append("</div>")
    parts.append("<h2>sprite, CSS fill per suit</h2><div class='grid sprite'>")
    for face in faces:
        group = picture_id(face)[0] if isinstance(face, Tile) and face < 27 else "h"
        if isinstance(face, Tile) and face >= 34:
            group = "x"
        parts.append(
            f'<svg class={group} role="img" aria-label="{html.escape(spoken_name(face))}">'
            f'<use href="/static/{SPRITE_FILE}#{picture_id(face)}"/></svg>'
        )
    parts.append(f"</div><footer>{html.escape(TILE_CREDIT)}</footer></body></html>")
    return "\n".join(parts)


def photograph(html_text: str, shots: list[tuple[Path, int]]) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="tile-sheet-") as tmp:
        root = Path(tmp)
        shutil.copytree(STATIC, root / "static")
        (root / "index.html").write_text(html_text, encoding="utf-8")
        handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                for out, width in shots:
                    tab = browser.new_page(viewport={"width": width, "height": 640})
                    tab.goto(url)
                    tab.wait_for_load_state("networkidle")
                    out.parent.mkdir(parents=True, exist_ok=True)
                    tab.screenshot(path=str(out), full_page=True)
                    tab.close()
                    print(f"wrote {out} ({width} px wide)", file=sys.stderr)
                browser.close()
        finally:
            server.shutdown()
            server.server_close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images" / "tiles.png")
    parser.add_argument("--width", type=int, default=1000, help="desktop width in px")
    parser.add_argument("--phone", type=Path, help="also a 360 px wide picture here")
    parser.add_argument("--html", type=Path, help="write the page here and take no picture")
    args = parser.parse_args(argv)
    text = page()
    if args.html:
        args.html.write_text(text, encoding="utf-8")
        return 0
    shots = [(args.out, args.width)]
    if args.phone:
        shots.append((args.phone, 360))
    photograph(text, shots)
    return 0


if __name__ == "__main__":
    sys.exit(main())
