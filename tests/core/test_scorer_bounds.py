"""The scorer's own tables stay within their bounds, and tables that started again empty
give the same results (docs/security.md, the bounds table: the scorer's rule-set tables,
its explanations).

The same seeded hands are scored twice: with the shipped bounds, then with every bound of
the scorer lowered to a few entries (so each table is emptied again and again, between a
hand's scoring and the reading of its explanation too); the results must be equal and no
table may outgrow its bound."""

from __future__ import annotations

import random
from typing import Any

import pytest

from build_helpers import pure_only
from mahjong_nts.core import scoring, scoring_tables
from mahjong_nts.core.errors import InvalidHand, InvalidWin
from mahjong_nts.core.hand import Hand, Meld, MeldKind, Win, WinSource
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.scoring import ScoreResult, Situation, score_hand
from mahjong_nts.core.tiles import Tile
from mahjong_nts.formats.rulefiles import load_ruleset

SMALL = 3
RULES = [load_ruleset(name) for name in ("nts-2016", "nmb-2009+flowers", "rode-draak")]
WINDS = [Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH]
SOURCES = [WinSource.WALL, WinSource.DISCARD]

Case = tuple[Hand, Situation, RuleSet]


def _case(rng: random.Random) -> Case | None:
    """Four chows or pungs (one of them maybe a declared meld) and a pair; a winner with
    a random winning tile, or a non-winner with one tile less; flowers sometimes."""
    counts = [0] * 34
    sets: list[tuple[int, int]] = []
    for _ in range(4):
        if rng.random() < 0.5:
            t = rng.randrange(27)
            t -= max(0, t % 9 - 6)
            sets.append((0, t))
            tiles = [t, t + 1, t + 2]
        else:
            t = rng.randrange(34)
            sets.append((1, t))
            tiles = [t] * 3
        for x in tiles:
            counts[x] += 1
    pair = rng.randrange(34)
    counts[pair] += 2
    if max(counts) > 4:
        return None
    melds: tuple[Meld, ...] = ()
    if rng.random() < 0.4:
        kind, t = sets[0]
        melds = (Meld(MeldKind.CHOW if kind == 0 else MeldKind.PUNG, Tile(t), rng.random() < 0.8),)
        for x in (t, t + 1, t + 2) if kind == 0 else (t, t, t):
            counts[x] -= 1
    concealed = [Tile(t) for t in range(34) for _ in range(counts[t])]
    bonus = tuple(rng.sample([Tile.F1, Tile.F2, Tile.S3], rng.randrange(3)))
    rules = rng.choice(RULES)
    if bonus and not rules.table.flowers:
        bonus = ()
    seat, rnd = rng.choice(WINDS), Tile.EAST
    if rng.random() < 0.8:
        w = rng.choice(concealed)
        win = Win(rng.choice(SOURCES))
        return Hand(tuple(concealed), melds, bonus, w), Situation(seat, rnd, win), rules
    concealed.remove(rng.choice(concealed))
    return Hand(tuple(concealed), melds, bonus), Situation(seat, rnd), rules


def _cases(n: int, seed: int) -> list[Case]:
    rng = random.Random(seed)
    out: list[Case] = []
    while len(out) < n:
        case = _case(rng)
        if case is not None:
            out.append(case)
    return out


CASES = _cases(400, 13)


def _score(case: Case) -> ScoreResult | str:
    try:
        return score_hand(*case)
    except (InvalidHand, InvalidWin) as e:
        return f"{type(e).__name__}: {e}"


def _results(read_later: bool) -> list[str]:
    """Every case's result in full (``repr``), read as soon as it is scored or only after
    every case has been scored."""
    if read_later:
        return [repr(r) for r in [_score(c) for c in CASES]]
    return [repr(_score(c)) for c in CASES]


def _tables() -> dict[str, list[dict[Any, Any]]]:
    """The scorer's tables, by the name of their bound."""
    rts = list(scoring_tables._TABLES.values())
    exs = list(scoring._EXPLAINERS.values())
    wts = [wt for rt in rts for wt in rt._winds.values()]
    return {
        "_TABLE_BOUND": [t for rt in rts for t in (rt.whole, rt.whole_items)]
        + [t for rt in rts for t in (rt.derived, rt.derived_items)],
        "_EXPLAINER_BOUND": [scoring._SCORED]
        + [t for ex in exs for t in (ex._items, ex._whole, ex.derived_made, ex._sets)],
        "_DETAILED_BOUND": [scoring._DETAILED],
        "_DETAIL_CACHE": [scoring._LISTED]
        + [
            t
            for ex in exs
            for t in (ex.whole_details, ex._whole_items, ex._notes, ex.only_notes_made)
        ],
        "_PART_BOUND": [t for wt in wts for t in (wt.set_parts, wt.concealed_parts)],
        "_CONTEXTS": [ex.contexts for ex in exs],
    }


BOUNDS = [
    (scoring_tables, "_TABLE_BOUND"),
    (scoring, "_EXPLAINER_BOUND"),
    (scoring, "_DETAILED_BOUND"),
    (scoring, "_DETAIL_CACHE"),
    (scoring, "_PART_BOUND"),
    (scoring, "_CONTEXTS"),
]


def _forget() -> None:
    """Every rule set's tables and explainer built again from nothing."""
    scoring_tables._TABLES.clear()
    scoring._EXPLAINERS.clear()
    scoring._SCORED.clear()
    scoring._DETAILED.clear()
    scoring._LISTED.clear()


@pure_only("patches the bounds, Final constants that compiled code has inlined")
@pytest.mark.parametrize("read_later", [False, True])
def test_scorer_tables_bounded_and_results_unchanged(
    monkeypatch: pytest.MonkeyPatch, read_later: bool
) -> None:
    _forget()
    expected = _results(read_later=False)
    sizes = {name: max(map(len, tables)) for name, tables in _tables().items()}
    # the hands fill every table past the small bound, so each is emptied many times
    assert all(n > SMALL for n in sizes.values()), sizes
    for module, name in BOUNDS:
        monkeypatch.setattr(module, name, SMALL)
    _forget()
    assert _results(read_later) == expected
    for name, tables in _tables().items():
        for table in tables:
            assert len(table) <= SMALL, name
