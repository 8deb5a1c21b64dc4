"""The rules page, ``/rules``: shipped rule sets side by side.

The same content as ``mahjong-nts rules show`` and ``rules diff``
(:func:`mahjong_nts.formats.rulesdoc.rule_tables`, ``citations``): choose two or
three sets (with overlays); rows that differ are marked, each value carries the
book's section its data file cites.  Only shipped sets: a request never names a file.
"""

from __future__ import annotations

from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from mahjong_nts.core.errors import MahjongError
from mahjong_nts.core.rules import LimitValue, RuleSet
from mahjong_nts.core.text import N_
from mahjong_nts.formats.rulefiles import OVERLAYS, SHIPPED, load_untrusted
from mahjong_nts.formats.rulesdoc import citations, format_value, limit_value_text, rule_tables
from mahjong_nts.i18n import translator
from mahjong_nts.web.templating import Pages, request_language

__all__ = ["MAX_SETS", "router"]

MAX_SETS: Final = 3
"""Rule sets compared at once (a fourth column does not fit a phone)."""
MAX_SPEC_CHARS: Final = 100
"""Characters in one ``set`` value (the longest shipped spec with every overlay has 44)."""
DEFAULT_SETS: Final = ("nts-2016", "nmb-2009")

router = APIRouter(include_in_schema=False)


def _cell(value: object, lang: str) -> str:
    if isinstance(value, LimitValue) or value is None:
        text = limit_value_text(value) if isinstance(value, LimitValue) else "—"
    else:
        text = format_value(value)
    if lang == "nl":
        text = {"yes": "ja", "no": "nee"}.get(text, text)
    return text


@router.get("/rules", response_class=HTMLResponse)
async def rules_page(request: Request) -> HTMLResponse:
    pages: Pages = request.app.state.pages
    lang, _ = request_language(request, pages.default_language)
    gettext = translator(lang).gettext
    asked = [s.strip() for s in request.query_params.getlist("set") if s.strip()]
    errors: list[str] = []  # in the page's language, or core texts (the template says them)
    if len(asked) > MAX_SETS:
        errors.append(gettext("Compare at most {n} rule sets.").format(n=MAX_SETS))
        asked = asked[:MAX_SETS]
    specs: list[str] = []
    sets: list[RuleSet] = []
    for spec in asked or DEFAULT_SETS:
        try:
            if len(spec) > MAX_SPEC_CHARS:
                raise MahjongError(N_("{spec}…: not a shipped rule set"), spec=spec[:40])
            rs = load_untrusted(spec)
        except MahjongError as exc:
            errors.append(exc.text)
            continue
        specs.append(spec)
        sets.append(rs)
    if not sets:
        specs = list(DEFAULT_SETS)
        sets = [load_untrusted(s) for s in specs]
    cites = [citations(s) for s in specs]
    only_diff = request.query_params.get("only") == "diff"
    tables: list[dict[str, Any]] = [
        {
            "key": t.key,
            "title": t.nl if lang == "nl" else t.en,
            "rows": [
                {
                    "key": r.key,
                    "name": r.nl if lang == "nl" else r.en,
                    "kind": r.kind,
                    "differs": r.differs and len(sets) > 1,
                    "cells": [
                        (_cell(v, lang), c.get(r.key, ""))
                        for v, c in zip(r.values, cites, strict=True)
                    ],
                }
                for r in t.rows
                if not only_diff or (r.differs and len(sets) > 1)
            ],
        }
        for t in rule_tables(sets)
    ]
    choices = [*SHIPPED, *(f"{n}+{o}" for n in SHIPPED for o in OVERLAYS)]
    slots = [*specs, *[""] * (MAX_SETS - len(specs))]
    return pages.render(
        request,
        "rules.html",
        status_code=422 if errors else 200,
        active="rules",
        sets=sets,
        specs=specs,
        slots=slots,
        choices=choices,
        tables=tables,
        errors=errors,
        only_diff=only_diff,
        differing=sum(1 for t in tables for r in t["rows"] if r["differs"]),
    )
