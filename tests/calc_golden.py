"""The calculator's golden queries: hands from the books and the project's rulings with
their scores worked out by hand (docs/rules.md; tests/core/test_scoring.py has the
working), and queries the calculator must refuse, each in its own way.

Used by tests/web/test_offline.py (the offline bundle in a bare interpreter gives the
route's bytes) and tests/browser/test_offline_browser.py (Pyodide in chromium gives the
server's bytes).
"""

from __future__ import annotations

from typing import NamedTuple
from urllib.parse import urlencode


class Golden(NamedTuple):
    name: str
    query: dict[str, str]
    score: int | None  # worked out by hand; None: refused (a problem), or not worked out
    problem: str | None = None  # a piece of the message when the hand is refused
    problem_nl: str | None = None  # the same piece on a Dutch page

    def query_string(self) -> str:
        return urlencode(self.query)


VERSCHILLEN = "[b222] b345 b78 b999 FF +b6"
BIG_WINNER = "(EEEE) (SSSS) b999 b111 b5 +b5"

GOLDEN: list[Golden] = [
    Golden("empty", {}, None),
    # EEE concealed 8 + pair of dragons 2 + mahjong 20 + self-drawn 2 + only possible tile 2
    # + completing the pair 2 = 36; own wind 1 + round wind 1 + fully concealed 2 = 4: 576
    Golden("concealed self-drawn", {"hand": "b123 k456 t789 EEE C +C", "seat": "E"}, 576),
    # South, b4 from a discard: WWW 8 + CCC 8 + mahjong 20 = 36; dragons 1 + clean 1: 144
    Golden(
        "not the only tile",
        {"hand": "b123 WWW CCC b23 b55 +b4", "seat": "S", "from": "discard"},
        144,
    ),
    # nmb-2009 "Voorbeeld punten berekening": East 128, South 272, North 40
    Golden(
        "nmb east 128",
        {"hand": "b222 k333 CCC t1 t5 b9 k7", "seat": "E", "ruleset": "nmb-2009"},
        128,
    ),
    Golden(
        "nmb south 272",
        {
            "hand": "[t222] EEE t789 t789 t4 +t4",
            "seat": "S",
            "from": "discard",
            "ruleset": "nmb-2009",
        },
        272,
    ),
    Golden(
        "nmb north 40",
        {"hand": "[k555] SSS k1 k3 k7 k8 k9 W N", "seat": "N", "ruleset": "nmb-2009"},
        40,
    ),
    # nmb-2009 "Verschillen": (20 + 12) x 4 = 128 on a discard, (20 + 15 + 12) x 4 = 188
    # self-drawn
    Golden(
        "verschillen discard",
        {"hand": VERSCHILLEN, "from": "discard", "ruleset": "nmb-2009"},
        128,
    ),
    Golden("verschillen wall", {"hand": VERSCHILLEN, "ruleset": "nmb-2009"}, 188),
    # three concealed kongs and more: past the limit of 2000 (nts-2016)
    Golden("limit", {"hand": BIG_WINNER, "seat": "E"}, 2000),
    # the same under a house limit of 500
    Golden(
        "house limit", {"hand": BIG_WINNER, "seat": "E", "house": "[scoring]\nlimit = 500"}, 500
    ),
    # thirteen orphans on a discard: the limit hand, 2000 in nts-2016
    Golden(
        "thirteen orphans",
        {"hand": "b1 b9 k1 k9 t1 t9 E S W N F C P +P", "seat": "S", "from": "discard"},
        2000,
    ),
    # a concealed pung of red dragons alone (a partial hand): 8 points, 1 doubling
    Golden("partial", {"hand": "CCC", "seat": "S"}, 16),
    # chows and a pair from a discard: no doubling, two are needed to go mahjong
    Golden(
        "refused mahjong",
        {"hand": "b123 b456 k234 t678 b5 +b5", "seat": "S", "from": "discard"},
        None,
    ),
    Golden(
        "flowers",
        {"hand": "b123 k456 t789 EEE C +C f1 s2", "seat": "E", "ruleset": "nts-2016+flowers"},
        None,
    ),
    Golden(
        "green dragon round",
        {"hand": "FFF b5", "seat": "E", "round": "F", "ruleset": "nmb-2009+five-players"},
        None,
    ),
    Golden("bad notation", {"hand": "b123 x9"}, None, "unknown tile", "onbekende steen"),
    Golden(
        "wrong meld",
        {"hand": "[b124]"},
        None,
        "is not a chow, pung or kong",
        "is geen chow, pung of kong",
    ),
    Golden("fifth tile", {"hand": "CCCCC"}, None, "5 copies of C", "5 exemplaren van C"),
    Golden(
        "bad house rules",
        {"hand": "CCC", "house": "[doublings\npung_dragon = 2"},
        None,
        "not valid TOML",
        "geen geldige TOML",
    ),
    Golden(
        "unknown rule set",
        {"hand": "CCC", "ruleset": "nts-1999"},
        None,
        "unknown rule set 'nts-1999'",
        "onbekende spelregels 'nts-1999'",
    ),
    Golden(
        "characters at three",
        {"hand": "t111", "ruleset": "nmb-2009+three-players"},
        None,
        "t1 is not played under",
        "t1 wordt bij nmb-2009+three-players niet gespeeld",
    ),
    Golden(
        "last tile from a discard",
        {"hand": "b123 k456 t789 EEE C +C", "from": "discard", "last_tile": "1"},
        None,
        "last_tile (the last tile of the wall) needs from=wall",
        "last_tile (de laatste steen van de muur) hoort bij from=wall",
    ),
    Golden(
        "nine melds",
        {"hand": "[b123]" * 4 + "[k123]" * 4 + "[t123]"},
        None,
        "melds: expected at most 8 items, got 9",
        "melds: verwacht hoogstens 8 items, gekregen: 9",
    ),
    Golden("hand too long", {"hand": "b1 " * 101}, None, "at most 300", "hoogstens 300"),
]
