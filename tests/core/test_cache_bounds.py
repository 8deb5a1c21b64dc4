"""The per-process tables of the core stay within their bounds, and a table that started
again empty (or dropped its older half) gives the same answers (docs/security.md, the
bounds table).

Each test answers the same seeded hands twice: with the shipped bounds, then with every
bound lowered to a few entries (so the tables are emptied again and again, in the middle
of building one too), and checks the answers agree and no table outgrew its bound."""

from __future__ import annotations

import random

import pytest

from build_helpers import pure_only
from mahjong_nts.core import analysis, scoring_tables, shanten

SMALL = 3


def _counts(tiles: list[int]) -> list[int]:
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


def _drawn(n: int, size: int, seed: int) -> list[list[int]]:
    """``n`` hands of ``size`` tiles drawn from a shuffled set of 136."""
    rng = random.Random(seed)
    wall = [t for t in range(34) for _ in range(4)]
    out = []
    for _ in range(n):
        rng.shuffle(wall)
        out.append(_counts(wall[:size]))
    return out


def _complete(n: int, seed: int) -> list[list[int]]:
    """``n`` complete hands: four chows or pungs and a pair, no tile five times."""
    rng = random.Random(seed)
    out: list[list[int]] = []
    while len(out) < n:
        tiles: list[int] = []
        for _ in range(4):
            if rng.random() < 0.5:
                t = rng.randrange(27)
                t -= max(0, t % 9 - 6)
                tiles += [t, t + 1, t + 2]
            else:
                tiles += [rng.randrange(34)] * 3
        tiles += [rng.randrange(34)] * 2
        c = _counts(tiles)
        if max(c) <= 4:
            out.append(c)
    return out


HANDS_13 = _drawn(300, 13, 1)
HANDS_14 = _drawn(150, 14, 2) + _complete(150, 3)
READY = _complete(200, 4)
for _c in READY:  # one tile out: a ready hand
    _c[next(t for t in range(34) if _c[t])] -= 1


def _answers() -> list[object]:
    return [
        [shanten.shanten(c) for c in HANDS_13 + HANDS_14],
        [shanten.regular_shanten(c, 1) for c in HANDS_13],
        [analysis.waiting_tiles(c) for c in HANDS_13 + READY],
        [analysis.is_regular_complete(c) for c in HANDS_14],
        [analysis.arrangements(c) for c in HANDS_14],
        [analysis.set_arrangements(c[:27] + [0] * 7) for c in HANDS_14],
        [_fields(scoring_tables.profile_of(c)) for c in HANDS_14],
    ]


def _fields(profile: scoring_tables.Profile) -> tuple[object, ...]:
    return tuple(getattr(profile, name) for name in scoring_tables.Profile.__slots__)


TABLES = [
    (shanten, "_RECORDS_BOUND", shanten._RECORDS),
    (shanten, "_SHAPES_BOUND", shanten._SHAPES),
    (shanten, "_SUFFIX_BOUND", (shanten._SUFFIX,)),
    (analysis, "_INFO_BOUND", analysis._INFO),
    (analysis, "_STATUS_BOUND", analysis._STATUS),
    (analysis, "_DECOMPS_BOUND", analysis._DECOMPS),
    (analysis, "_SPLITS_BOUND", analysis._SPLITS),
    (scoring_tables, "_GROUP_CODES_BOUND", scoring_tables._GROUP_CODES),
    (scoring_tables, "_PROFILES_BOUND", (scoring_tables._PROFILES,)),
]


def _clear() -> None:
    for _, _, tables in TABLES:
        for table in tables:
            table.clear()


@pure_only("patches the bounds, Final constants that compiled code has inlined")
def test_core_tables_bounded_and_answers_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    _clear()
    expected = _answers()
    big = {name: sum(len(t) for t in tables) for _, name, tables in TABLES}
    # the hands fill every table past the small bound, so each is emptied many times
    assert all(n > 4 * SMALL for n in big.values()), big
    for module, name, _ in TABLES:
        monkeypatch.setattr(module, name, SMALL)
    _clear()
    assert _answers() == expected
    for _, name, tables in TABLES:
        for table in tables:
            assert len(table) <= SMALL, name
