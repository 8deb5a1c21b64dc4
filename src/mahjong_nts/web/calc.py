"""The calculator, the home page: a hand's score, every item explained.

``GET /`` renders the whole page for the hand in the query (the shareable URL:
``/?hand=b123+k456+t789+EEE+C+%2BC&seat=E&round=E&from=wall&ruleset=nts-2016``), so
it works without JavaScript: the form is a GET form and each palette tile is a
submit button (``add=b3`` appends the tile).  ``GET /calc/result`` takes the same
query and answers only the result as an HTML fragment; ``static/calc.js`` fetches
it on every change and swaps it in.  The server computes everything, in
:mod:`mahjong_nts.calc.result` (reading the hand with
:func:`mahjong_nts.core.notation.parse_hand`, scoring it through the conversion behind
``POST /api/score``, rendering ``calc_result.html``): the browser runs the same module
offline (``web/offline.py``), so the page, the API and the offline calculator answer
alike.  This module only adds the page around the result: the palette, the form.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from mahjong_nts.calc.result import (
    FLAGS,
    MAX_HAND_CHARS,
    MAX_HOUSE_CHARS,
    MAX_RULESET_CHARS,
    RULESET_CHOICES,
    SOURCES,
    CalcState,
    Outcome,
    fragment_context,
    outcome_of,
    render_fragment,
)
from mahjong_nts.core.tiles import NUM_KINDS, Tile
from mahjong_nts.web.offline import offline_files
from mahjong_nts.web.templating import pages_of, request_language
from mahjong_nts.web.tiles import picture_file, spoken_name

__all__ = [
    "MAX_HAND_CHARS",
    "MAX_HOUSE_CHARS",
    "MAX_RULESET_CHARS",
    "RULESET_CHOICES",
    "CalcState",
    "router",
]

router = APIRouter(include_in_schema=False)


def _palette(lang: str) -> list[tuple[str, list[dict[str, str]]]]:
    rows: list[tuple[str, list[int]]] = [
        ("bamboo", list(range(0, 9))),
        ("circles", list(range(9, 18))),
        ("characters", list(range(18, 27))),
        ("honours", list(range(27, NUM_KINDS))),
        ("bonus", list(range(NUM_KINDS, NUM_KINDS + 8))),
    ]
    return [
        (
            key,
            [
                {
                    "token": Tile(t).token,
                    "src": "/static/" + picture_file(Tile(t)),
                    "name": spoken_name(Tile(t), lang),
                }
                for t in tiles
            ],
        )
        for key, tiles in rows
    ]


def _tile_info(lang: str) -> dict[str, dict[str, str]]:
    return {
        Tile(t).token: {
            "src": "/static/" + picture_file(Tile(t)),
            "name": spoken_name(Tile(t), lang),
        }
        for t in Tile
    }


def _context(request: Request, outcome: Outcome) -> dict[str, Any]:
    lang, _ = request_language(request, pages_of(request).default_language)
    offline = offline_files()
    state = outcome.state
    choices = list(RULESET_CHOICES)
    if state.ruleset not in choices:
        choices.append(state.ruleset)
    return {
        **fragment_context(outcome, lang),
        "choices": choices,
        "sources": SOURCES,
        "flags": FLAGS,
        "tiles": _tile_info(lang),
        "palette": _palette(lang),
        "max_hand": MAX_HAND_CHARS,
        "max_house": MAX_HOUSE_CHARS,
        "offline_json": json.dumps(offline.config()),
        "offline_size": _megabytes(offline.offline_bytes, lang),
    }


def _megabytes(size: int, lang: str) -> str:
    text = f"{size / 1_000_000:.1f} MB"
    return text.replace(".", ",") if lang == "nl" else text


@router.get("/", response_class=HTMLResponse)
async def calculator(request: Request) -> HTMLResponse:
    """The calculator page for the hand in the query.  A hand that cannot be scored
    is still a page that says why (200); a query value past its bound, which the form
    never sends, is a 422 whose page says which."""
    outcome, refused = outcome_of(request.query_params)
    return pages_of(request).render(
        request,
        "calc.html",
        status_code=422 if refused else 200,
        active="calculator",
        **_context(request, outcome),
    )


@router.get("/calc/result", response_class=HTMLResponse)
async def calculator_result(request: Request) -> HTMLResponse:
    """Only the result, as an HTML fragment, for ``static/calc.js``: exactly what
    :func:`mahjong_nts.calc.result.render_fragment` gives (the browser's offline
    calculator runs the same function)."""
    pages = pages_of(request)
    lang, _ = request_language(request, pages.default_language)
    status, html = render_fragment(request.scope["query_string"].decode("latin-1"), lang)
    return pages.respond(request, html, status_code=status)
