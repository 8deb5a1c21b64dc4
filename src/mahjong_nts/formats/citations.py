"""Where in the book each scoring item of a shipped rule set comes from.

The shipped rule files cite their book beside each value: a heading comment opens
a run of values (``# 2.4.2 Verdubbelingen voor alle spelers``) and a comment after a
value quotes the line it comes from (``pung_dragon = 1  # "Pung of Kong Draken ..."``).
:func:`item_citations` reads those comments back, so a page can say of every scored
item which book and section gave its value: ``NTS 2016, 2.4.2 Verdubbelingen voor alle
spelers: "Pung of Kong Draken, eigen Wind of Wind van de ronde 1"``.

The book's short name is the rule file's ``source`` up to its first ``:`` (a complete
rule set, "NTS 2016") or ``;`` (an overlay, "NMB 2009, Spelen met gelukstenen"); the
short names are those of :data:`mahjong_nts.formats.rulesdoc.BOOKS`.  Only shipped
files are read (from the package); house rules cite themselves.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from importlib import resources
from typing import Any, Final

from mahjong_nts.formats.rulefiles import OVERLAYS, SHIPPED, shipped_mapping

__all__ = ["HOUSE_RULES", "MAX_CITATION_CHARS", "item_citations"]

SECTIONS: Final = ("points", "doublings", "limit_hands")
"""The sections of a rule file whose keys are scoring items and limit hands."""

MAX_CITATION_CHARS: Final = 200
"""A citation is cut to this many characters (the quoted lines are short)."""

HOUSE_RULES: Final = "house rules"
"""What an item whose value the house rules set cites."""

_KEY: Final = re.compile(r"^([a-z0-9_]+)\s*=\s*[^#]*?(?:#\s*(.*))?$")


def _book(name: str) -> str:
    source = str(shipped_mapping(name).get("source", name))
    cut = source.split(";" if name in OVERLAYS else ":", 1)[0]
    return cut.strip() or name


@functools.lru_cache(maxsize=len(SHIPPED) + len(OVERLAYS))
def _file_citations(name: str) -> Mapping[str, str]:
    """``item id -> citation`` of one shipped file (a rule set or an overlay)."""
    text = resources.files("mahjong_nts").joinpath(f"data/rulesets/{name}.toml").read_text("utf-8")
    book = _book(name)
    out: dict[str, str] = {}
    section = ""
    heading = ""
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("["):
            section = line.strip("[]").strip()
            heading = ""
            continue
        if section not in SECTIONS:
            continue
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
            continue
        match = _KEY.match(line)
        if match is None:
            continue
        key, quote = match.group(1), (match.group(2) or "").strip()
        parts = ", ".join(p for p in (book, heading) if p)
        citation = f"{parts}: {quote}" if quote else parts
        out[key] = citation[:MAX_CITATION_CHARS]
    return out


def item_citations(spec: str, house: Mapping[str, Any] | None = None) -> dict[str, str]:
    """``item id -> citation`` for a shipped spec (``"nmb-2009+flowers"``): the rule
    set's citations, each overlay's laid over them.  Keys that ``house`` (house rules
    as a mapping) gives a value in its points, doublings or limit hands cite
    :data:`HOUSE_RULES`.  An unknown name gives no citations (the rule set was
    checked where it was loaded)."""
    head, *overlays = (part.strip() for part in spec.split("+"))
    out: dict[str, str] = {}
    for name in (head, *overlays):
        if name in SHIPPED or name in OVERLAYS:
            out.update(_file_citations(name))
    if house:
        for section in SECTIONS:
            values = house.get(section)
            if isinstance(values, Mapping):
                for key in values:
                    out[str(key)] = HOUSE_RULES
    return out
