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

The comments quote the Dutch books and add English notes ("points for the winner",
"(no legible value; 2 as in NTS 2002)").  :func:`localizable` marks those notes, the
phrases of :data:`PHRASES`, in a citation, so that a Dutch page says them in Dutch
(:func:`mahjong_nts.i18n.render`) while the quotes stay as the book wrote them.  A
comment with a new English note needs its phrase added there (``tests/test_citations.py``
finds English left in a Dutch citation).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from importlib import resources
from typing import Any, Final

from mahjong_nts.core.text import N_, Text, join
from mahjong_nts.formats.rulefiles import OVERLAYS, SHIPPED, shipped_mapping

__all__ = ["HOUSE_RULES", "MAX_CITATION_CHARS", "PHRASES", "item_citations", "localizable"]

SECTIONS: Final = ("points", "doublings", "limit_hands")
"""The sections of a rule file whose keys are scoring items and limit hands."""

MAX_CITATION_CHARS: Final = 200
"""A citation is cut to this many characters (the quoted lines are short)."""

HOUSE_RULES: Final = Text(N_("house rules"))
"""What an item whose value the house rules set cites."""

PHRASES: Final = (
    N_("2000 for every hand"),
    N_("East wins on the dealt tiles: never claimed"),
    N_("East, South, West"),
    N_("East, South, West, North rounds"),
    N_("Everything here is nts-2002 (the sheet is about scoring only), except the priority order."),
    N_("a clean hand now has 2 doublings itself"),
    N_("a non-winner's cap is 1500"),
    N_("a round"),
    N_("after a remise"),
    N_("after a remise too"),
    N_("as NMB 2009"),
    N_("as nts-2016"),
    N_("decision"),
    N_("decision there"),
    N_("exact (the worked example: 1.088); Fiches round to tens"),
    N_("exact scores"),
    N_("for all players"),
    N_("for everybody"),
    N_("four hands a round"),
    N_("four hands a round incl. remises"),
    N_("four wind rounds (the green-dragon round on top)"),
    N_("green-dragon round as at three players"),
    N_("he still pays"),
    N_("nmb-2009 only"),
    N_("no claimed value"),
    N_("no exception for a clean hand"),
    N_("no extra points or doublings on limit hands"),
    N_("no green-dragon hand at four players"),
    N_("no legible value; 2 as in NTS 2002"),
    N_("no waiting value"),
    N_("not in the book"),
    N_("not on the sheet"),
    N_("note 1"),
    N_("once"),
    N_("one per dead-wall tile, as 14 at four players"),
    N_("one suit only"),
    N_("one suit with honours"),
    N_("only at three or five players"),
    N_("only in the green-dragon hand"),
    N_("only one counts"),
    N_("only one of the four counts"),
    N_("only winds and dragons"),
    N_("open allowed"),
    N_("open or concealed"),
    N_("or 2 doublings"),
    N_("per side"),
    N_("points for the winner"),
    N_("remises are no longer replayed"),
    N_("ruling"),
    N_("see notes"),
    N_("table on page 10"),
    N_("terminals with honours"),
    N_("the 15th kong in one hand is a remise"),
    N_("the 15th kong is a remise"),
    N_("the same cap on a claimed tile"),
    N_("the sheet"),
    N_("the three columns read as the ruling in the notes says"),
    N_("the web copy of NTS 2002"),
    N_("the winner receives from each player"),
    N_("the winner receives his score from each other player"),
    N_("three hands a round (green-dragon hands extra)"),
    N_("three times"),
    N_("twice"),
    N_("van de tafel only"),
    N_("waiting = half"),
    N_("waiting"),
    N_("(winner)"),
    N_("winner or not"),
    N_("won on East's first discard: always claimed"),
)
"""The English notes in the shipped rule files' comments, each said in Dutch on a Dutch
page (see :func:`localizable`); a longer phrase wins over a shorter one it starts with."""

_PHRASE: Final = re.compile(
    "|".join(rf"(?<![\w-]){re.escape(p)}(?![\w-])" for p in sorted(PHRASES, key=len, reverse=True))
)
_QUOTED: Final = re.compile(r'"[^"]*"')


def localizable(citation: str) -> str:
    """``citation`` with its English notes (:data:`PHRASES`, outside the quotes of the
    book) marked as texts to translate: a :class:`~mahjong_nts.core.text.TextList`
    whose English is ``citation`` itself, or ``citation`` when it has none."""
    parts: list[str] = []
    at = 0
    found = False
    for quoted in (*_QUOTED.finditer(citation), None):
        end = quoted.start() if quoted is not None else len(citation)
        for match in _PHRASE.finditer(citation, at, end):
            parts.append(citation[at : match.start()])
            parts.append(Text(match.group()))
            at = match.end()
            found = True
        if quoted is not None:
            parts.append(citation[at : quoted.end()])
            at = quoted.end()
    parts.append(citation[at:])
    if not found:
        return citation
    return join("", [p for p in parts if p])


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
        out[key] = localizable(citation[:MAX_CITATION_CHARS])
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
