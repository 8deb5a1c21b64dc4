"""Shared helpers of the core's tests: rule sets by name, hands from notation, scoring
shortcuts, and tile / count-vector shorthands for the analysis and shanten tests.

Imported as ``core_helpers``, not from ``conftest``: when one pytest run collects several
test directories, each with a ``conftest.py``, the name ``conftest`` means whichever was
imported first.

Rule sets are loaded with :func:`mahjong_nts.formats.rulefiles.load_ruleset` when that loader
exists, and otherwise straight from the shipped TOML files (base, then each ``+overlay``
merged over it with :func:`mahjong_nts.core.rules.merge`).
"""

from __future__ import annotations

import functools
import importlib.resources
import tomllib
from typing import Any

from mahjong_nts.core.hand import Hand, Meld, MeldKind, Win, WinSource
from mahjong_nts.core.rules import RuleSet, merge
from mahjong_nts.core.scoring import ScoreResult, Situation, score_hand
from mahjong_nts.core.tiles import Tile

BASE_RULESETS = ("nts-2016", "nts-2002", "nmb-2009", "rode-draak")
OVERLAYS = ("flowers", "three-players", "five-players")


def _read_toml(name: str) -> dict[str, Any]:
    path = importlib.resources.files("mahjong_nts") / "data" / "rulesets" / f"{name}.toml"
    return tomllib.loads(path.read_text(encoding="utf-8"))


@functools.cache
def load(spec: str) -> RuleSet:
    """A rule set by name, with optional overlays: ``"nmb-2009+flowers"``."""
    try:
        from mahjong_nts.formats.rulefiles import load_ruleset  # type: ignore[import-not-found]
    except ImportError:
        load_ruleset = None
    if load_ruleset is not None:
        return load_ruleset(spec)
    base, *overlays = spec.split("+")
    data = _read_toml(base)
    for overlay in overlays:
        data = merge(data, _read_toml(overlay))
    data.pop("base", None)
    return RuleSet.from_mapping(data, where=spec)


# -- tile ints and count vectors (analysis, shanten) --------------------------------------

# Tile shorthands: b = bamboo 0-8, k = circles (kringen) 9-17, t = characters (tekens) 18-26.
E, S, W, N = 27, 28, 29, 30
GREEN, RED, WHITE = 31, 32, 33


def b(n: int) -> int:
    return n - 1


def k(n: int) -> int:
    return 8 + n


def t(n: int) -> int:
    return 17 + n


def cv(tiles: list[int]) -> list[int]:
    """The 34-count vector of a list of tile ints."""
    counts = [0] * 34
    for x in tiles:
        counts[x] += 1
    return counts


# -- hands ---------------------------------------------------------------------------------

try:  # the notation parser, when it is there
    from mahjong_nts.core.notation import parse_hand as _parse_hand
except ImportError:  # pragma: no cover - fallback until notation lands
    _parse_hand = None

_HONOURS = {
    "E": Tile.EAST,
    "S": Tile.SOUTH,
    "W": Tile.WEST,
    "N": Tile.NORTH,
    "F": Tile.GREEN,
    "C": Tile.RED,
    "P": Tile.WHITE,
}


def _tiles(group: str) -> list[Tile]:
    """Tiles of one compact group: ``b123``, ``EEE``, ``f13``."""
    if group[0] in "bkt":
        base = "bkt".index(group[0]) * 9
        return [Tile(base + int(d) - 1) for d in group[1:]]
    if group[0] in "fs":
        base = Tile.F1 if group[0] == "f" else Tile.S1
        return [Tile(base + int(d) - 1) for d in group[1:]]
    return [_HONOURS[c] for c in group]


def _local_parse(text: str) -> Hand:
    concealed: list[Tile] = []
    melds: list[Meld] = []
    bonus: list[Tile] = []
    winning: Tile | None = None
    for word in text.split():
        if word[0] in "[(":
            melds.append(Meld.from_tiles(_tiles(word[1:-1]), open=word[0] == "["))
        elif word[0] == "+":
            (winning,) = _tiles(word[1:])
            concealed.append(winning)
        elif word[0] in "fs":
            bonus.extend(_tiles(word))
        else:
            concealed.extend(_tiles(word))
    return Hand(tuple(concealed), tuple(melds), tuple(bonus), winning)


def hand(text: str) -> Hand:
    """``b123 k55 EEE [b789] (CCCC) f1 +k5``: ``[..]`` open meld, ``(..)`` concealed kong,
    ``+x`` the winning tile (part of the hand)."""
    if _parse_hand is not None:
        return _parse_hand(text)
    return _local_parse(text)


WIND = {"E": Tile.EAST, "S": Tile.SOUTH, "W": Tile.WEST, "N": Tile.NORTH, "F": Tile.GREEN}


def score(
    rules: str,
    text: str,
    *,
    seat: str = "S",
    round: str = "E",
    win: Win | str | None = "wall",
    dead: bool = False,
    **flags: bool,
) -> ScoreResult:
    """Score a hand in notation.  ``win`` is a :class:`Win`, a source name, or ``None``
    for a non-winner; extra keyword flags go to :class:`Win`."""
    h = hand(text)
    if isinstance(win, str):
        win = Win(WinSource(win), **flags)
    if win is None:
        assert h.winning_tile is None, "a non-winner's hand has no +winning tile"
    return score_hand(h, Situation(WIND[seat], WIND[round], win, dead), load(rules))


def item_map(result: ScoreResult) -> dict[str, tuple[int, int, int]]:
    """item id -> (points, doublings, count)."""
    return {i.id: (i.points, i.doublings, i.count) for i in result.items}


__all__ = [
    "BASE_RULESETS",
    "GREEN",
    "OVERLAYS",
    "RED",
    "WHITE",
    "E",
    "Hand",
    "Meld",
    "MeldKind",
    "N",
    "S",
    "W",
    "Win",
    "WinSource",
    "b",
    "cv",
    "hand",
    "item_map",
    "k",
    "load",
    "score",
    "t",
]
