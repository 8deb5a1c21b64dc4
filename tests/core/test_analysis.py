"""Tests for mahjong_nts.core.analysis (expected values worked out by hand from the books and
the project's rulings in docs/rules.md)."""

from __future__ import annotations

import random

from core_helpers import GREEN, RED, WHITE, E, N, S, W, b, cv, k, t
from hypothesis import given, settings
from hypothesis import strategies as st

from mahjong_nts.core.analysis import (
    Block,
    BlockKind,
    Shape,
    arrangements,
    irregular_shapes,
    is_complete,
    is_regular_complete,
    is_waiting,
    set_arrangements,
    seven_pair_tiles,
    waiting_tiles,
)


def chow(x: int) -> Block:
    return Block(BlockKind.CHOW, x)


def pung(x: int) -> Block:
    return Block(BlockKind.PUNG, x)


def pair(x: int) -> Block:
    return Block(BlockKind.PAIR, x)


# ---------------------------------------------------------------- arrangements


def test_arrangements_three_pungs_or_three_chows() -> None:
    hand = cv([b(1)] * 3 + [b(2)] * 3 + [b(3)] * 3 + [k(5)] * 2 + [E] * 3)
    got = set(arrangements(hand))
    assert got == {
        (pung(b(1)), pung(b(2)), pung(b(3)), pung(E), pair(k(5))),
        (chow(b(1)), chow(b(1)), chow(b(1)), pung(E), pair(k(5))),
    }
    # canonical order: each arrangement sorted by (kind, tile), no duplicates
    for arr in arrangements(hand):
        assert list(arr) == sorted(arr, key=lambda blk: (int(blk.kind), blk.tile))
    assert len(arrangements(hand)) == len(got)


def test_arrangements_pair_can_move() -> None:
    # b1 1 1 2 3 (+ other sets): pair b1 + chow b1-3, or pung b1 ... no, pung b1 leaves 2 3.
    hand = cv([b(1)] * 3 + [b(2), b(3)] + [k(1), k(2), k(3)] * 2 + [RED] * 3)
    assert set(arrangements(hand)) == {
        (chow(b(1)), chow(k(1)), chow(k(1)), pung(RED), pair(b(1))),
    }
    # b2 2 2 3 4: pair b2 + chow 2-4 only (pung b2 leaves 3 4)
    hand2 = cv([b(2)] * 3 + [b(3), b(4)] + [t(7), t(8), t(9)] + [S] * 3 + [W] * 3)
    assert arrangements(hand2) == ((chow(b(2)), chow(t(7)), pung(S), pung(W), pair(b(2))),)


def test_arrangements_none() -> None:
    assert arrangements(cv([b(1), b(2), b(4)] + [k(1)] * 3 + [E] * 3 + [S] * 3 + [N] * 2)) == ()
    # honours never form chows
    assert arrangements(cv([E, S, W] + [k(1)] * 3 + [t(1)] * 3 + [b(5)] * 3 + [N] * 2)) == ()
    # two pairs is not an arrangement
    assert arrangements(cv([E] * 2 + [S] * 2 + [k(1)] * 3 + [t(1)] * 3 + [b(5)] * 3)) == ()
    # no wrap-around 8-9-1, and no chow across suits
    assert arrangements(cv([b(8), b(9), k(1)] + [E] * 3 + [S] * 3 + [W] * 3 + [N] * 2)) == ()


def test_arrangements_four_honours_not_two_pairs() -> None:
    assert arrangements(cv([E] * 4 + [k(1)] * 3 + [t(1)] * 3 + [b(5)] * 3 + [N])) == ()


def test_set_arrangements() -> None:
    assert set_arrangements([0] * 34) == ((),)
    hand = cv([k(3), k(4), k(5)] * 3)
    assert set(set_arrangements(hand)) == {
        (chow(k(3)), chow(k(3)), chow(k(3))),
        (pung(k(3)), pung(k(4)), pung(k(5))),
    }
    assert set_arrangements(cv([k(3), k(4), k(5), GREEN, GREEN])) == ()


def test_arrangements_pure_suit_many() -> None:
    # b1112345678999 + b5: nine gates completed with b5 -> 1 1 1 2 3 4 5 5 6 7 8 9 9 9
    hand = cv([b(1)] * 3 + [b(n) for n in range(2, 9)] + [b(9)] * 3 + [b(5)])
    # Only 111 234 55 678 999: with pair 11 the rest 1 2 3 4 5 5 6 7 8 9 9 9 leaves 5 5 / 5 8
    # unmatched; with pair 99 the 9 left over needs 789 and then 2 3 4 5 5 6 fails.
    assert arrangements(hand) == ((chow(b(2)), chow(b(6)), pung(b(1)), pung(b(9)), pair(b(5))),)


@settings(max_examples=60)
@given(st.integers(min_value=0, max_value=2**32))
def test_arrangements_order_independent(seed: int) -> None:
    rng = random.Random(seed)
    # build a random complete hand from blocks, shuffle tile order: result depends only on counts
    tiles: list[int] = []
    counts = [0] * 34
    for _ in range(4):
        for _try in range(20):
            if rng.random() < 0.5:
                s = rng.choice((0, 9, 18))
                x = s + rng.randrange(7)
                blk = [x, x + 1, x + 2]
            else:
                x = rng.randrange(34)
                blk = [x, x, x]
            if all(counts[y] + blk.count(y) <= 4 for y in blk):
                break
        else:
            continue
        for y in blk:
            counts[y] += 1
        tiles += blk
    x = rng.choice([y for y in range(34) if counts[y] <= 2])
    counts[x] += 2
    tiles += [x, x]
    shuffled = tiles[:]
    rng.shuffle(shuffled)
    a1 = arrangements(cv(tiles))
    a2 = arrangements(cv(shuffled))
    assert a1 == a2
    assert len(a1) >= 1
    assert len(set(a1)) == len(a1)
    for arr in a1:
        assert sum(1 for blk in arr if blk.kind == BlockKind.PAIR) == 1
        rebuilt = [0] * 34
        for blk in arr:
            if blk.kind == BlockKind.CHOW:
                for y in (blk.tile, blk.tile + 1, blk.tile + 2):
                    rebuilt[y] += 1
            else:
                rebuilt[blk.tile] += 3 if blk.kind == BlockKind.PUNG else 2
        assert rebuilt == counts
    # every arrangement is sorted by (kind, tile), and so is the outer tuple
    assert list(a1) == sorted(a1)
    for arr in a1:
        assert list(arr) == sorted(arr)


def test_arrangements_sorted_across_groups_and_equal_chows_distinct() -> None:
    # k123 k123 t234 + b3 pung + E pair + k123 as pungs: blocks from every group, chows
    # before pungs before the pair whatever group they come from.
    hand = cv([k(1), k(2), k(3)] * 3 + [t(2), t(3), t(4)] + [b(3)] * 3 + [E] * 2)
    arrs = arrangements(hand)
    assert arrs == (
        (chow(k(1)), chow(k(1)), chow(k(1)), chow(t(2)), pung(b(3)), pair(E)),
        (chow(t(2)), pung(b(3)), pung(k(1)), pung(k(2)), pung(k(3)), pair(E)),
    )
    first = arrs[0]
    # equal chows of one arrangement are distinct objects (callers may use identity),
    # and repeated calls give equal results
    assert len({id(blk) for blk in first}) == len(first)
    assert arrangements(hand) == arrs
    assert set_arrangements(cv([k(1), k(2), k(3)] * 2 + [S] * 3)) == (
        (chow(k(1)), chow(k(1)), pung(S)),
    )


# ---------------------------------------------------------------- completeness / shapes

ORPHAN_TILES = [b(1), b(9), k(1), k(9), t(1), t(9), E, S, W, N, GREEN, RED, WHITE]
NINE_GATES_BASE = [b(1)] * 3 + [b(n) for n in range(2, 9)] + [b(9)] * 3


def test_regular_complete() -> None:
    assert is_regular_complete(cv([b(1), b(2), b(3)] * 4 + [E, E]))
    assert not is_regular_complete(cv([b(1), b(2), b(3)] * 4 + [E, S]))
    assert is_regular_complete(cv([RED, RED]))
    assert not is_regular_complete(cv([RED] * 3))


def test_thirteen_orphans() -> None:
    for extra in ORPHAN_TILES:
        hand = cv([*ORPHAN_TILES, extra])
        assert Shape.THIRTEEN_ORPHANS in irregular_shapes(hand)
        assert is_complete(hand)
        assert not is_complete(hand, n_melds=1)
    # extra tile not an orphan
    assert irregular_shapes(cv([*ORPHAN_TILES, b(5)])) == frozenset()


def test_seven_pairs_and_duplicate_switch() -> None:
    hand = cv([b(1), b(1), k(3), k(3), t(7), t(7), E, E, S, S, RED, RED, b(9), b(9)])
    assert irregular_shapes(hand) == {Shape.SEVEN_PAIRS}
    assert irregular_shapes(hand, duplicate_pairs=False) == {Shape.SEVEN_PAIRS}
    four = cv([b(1)] * 4 + [k(3), k(3), t(7), t(7), E, E, S, S, RED, RED])
    assert irregular_shapes(four) == {Shape.SEVEN_PAIRS}
    assert irregular_shapes(four, duplicate_pairs=False) == frozenset()
    assert is_complete(four)
    assert not is_complete(four, duplicate_pairs=False)
    assert seven_pair_tiles(four) == (b(1), b(1), k(3), t(7), E, S, RED)
    assert seven_pair_tiles(four, duplicate_pairs=False) == ()
    # a pung and a single is not seven pairs
    assert irregular_shapes(cv([b(1)] * 3 + [b(2), k(3), k(3), t(7), t(7), E, E, S, S, W, W])) == (
        frozenset()
    )


def test_wind_snake() -> None:
    base = [k(n) for n in range(1, 10)] + [E, S, W, N]
    for extra in [k(n) for n in range(1, 10)] + [E, S, W, N]:
        hand = cv([*base, extra])
        assert Shape.WIND_SNAKE in irregular_shapes(hand)
        assert is_complete(hand)
    assert irregular_shapes(cv([*base, RED])) == frozenset()
    assert irregular_shapes(cv([*base, b(1)])) == frozenset()
    assert Shape.WIND_SNAKE not in irregular_shapes(cv([*base[:-1], E, E]))  # no North


def test_dragon_snake() -> None:
    base = [t(n) for n in range(1, 10)] + [GREEN, RED, WHITE]
    for wind in (E, S, W, N):
        assert irregular_shapes(cv([*base, wind, wind])) == {Shape.DRAGON_SNAKE}
    assert irregular_shapes(cv([*base, E, S])) == frozenset()
    assert irregular_shapes(cv([*base, RED, RED])) == frozenset()
    assert irregular_shapes(cv([*base, t(5), t(5)])) == frozenset()


def test_peking_garden() -> None:
    hand = cv([b(n) for n in range(1, 8)] + [E, S, W, N, GREEN, RED, WHITE])
    assert irregular_shapes(hand) == {Shape.PEKING_GARDEN}
    assert is_complete(hand)
    assert not is_complete(hand, n_melds=1)
    bad = cv([b(n) for n in range(2, 9)] + [E, S, W, N, GREEN, RED, WHITE])  # 2-8 is not it
    assert irregular_shapes(bad) == frozenset()


def test_nine_gates_each_extra() -> None:
    for n in range(1, 10):
        hand = cv([*NINE_GATES_BASE, b(n)])
        assert Shape.NINE_GATES in irregular_shapes(hand)
        assert is_regular_complete(hand)
    assert irregular_shapes(cv([*NINE_GATES_BASE[1:], b(5), b(5)])) == frozenset()
    mixed = [*NINE_GATES_BASE[:-1], k(9), b(9)]  # one 9 of another suit
    assert Shape.NINE_GATES not in irregular_shapes(cv(mixed))


def test_irregular_needs_fourteen() -> None:
    assert irregular_shapes(cv(ORPHAN_TILES)) == frozenset()


# ---------------------------------------------------------------- waits


def test_waits_nine_gates() -> None:
    assert waiting_tiles(cv(NINE_GATES_BASE)) == tuple(range(9))


def test_waits_thirteen_orphans() -> None:
    assert waiting_tiles(cv(ORPHAN_TILES)) == tuple(sorted(ORPHAN_TILES))
    # with a pair already: only the missing orphan
    hand = cv([*ORPHAN_TILES[:-1], E])  # no white dragon, pair of East
    assert waiting_tiles(hand) == (WHITE,)
    assert waiting_tiles(hand, n_melds=1) == ()


def test_waits_seven_pairs_single() -> None:
    hand = cv([b(1), b(1), k(3), k(3), t(7), t(7), E, E, S, S, RED, RED, N])
    assert waiting_tiles(hand) == (N,)
    # the single is a third copy: fourth completes only with duplicate pairs
    hand3 = cv([b(1), b(1), b(1), k(3), k(3), t(7), t(7), E, E, S, S, RED, RED])
    # b111 k33 t77 EE SS RR: as a regular hand it is not ready (two sets short), so the
    # only way out is the fourth b1 making b1b1 b1b1 a double pair
    assert waiting_tiles(hand3) == (b(1),)
    assert waiting_tiles(hand3, duplicate_pairs=False) == ()


def test_waits_standard_and_four_held() -> None:
    # 123 456 789 bamboo, EEE, single k5: waits k5 only
    hand = cv([b(n) for n in range(1, 10)] + [E] * 3 + [k(5)])
    assert waiting_tiles(hand) == (k(5),)
    held = list(hand)
    held[k(5)] = 4  # other three k5 are in the player's declared kong/pung
    assert waiting_tiles(hand, held=held) == ()
    assert not is_waiting(hand, held=held)
    # 4 held in the concealed hand itself: b1111 + b2 b3 ... (b1 cannot be the 5th)
    hand2 = cv([b(1)] * 4 + [b(2), b(3)] + [k(1), k(2), k(3)] + [E] * 3 + [N])
    assert b(1) not in waiting_tiles(hand2)
    assert waiting_tiles(hand2) == (N,)  # b111 b123 + single N


def test_waits_with_melds() -> None:
    # two declared melds: 7 concealed tiles b2 b3 b4 k6 k7 + E E -> waits k5 / k8
    hand = cv([b(2), b(3), b(4), k(6), k(7), E, E])
    assert waiting_tiles(hand, n_melds=2) == (k(5), k(8))
    # four melds: single tile wait
    assert waiting_tiles(cv([RED]), n_melds=4) == (RED,)
    assert is_waiting(cv([RED]), n_melds=4)


def test_waits_snakes() -> None:
    wind = cv([k(n) for n in range(1, 10)] + [E, S, W, N])
    assert waiting_tiles(wind) == tuple([k(n) for n in range(1, 10)] + [E, S, W, N])
    dragon = cv([t(n) for n in range(1, 10)] + [GREEN, RED, WHITE, S])
    assert waiting_tiles(dragon) == (S,)
    garden = cv([b(n) for n in range(1, 8)] + [E, S, W, N, GREEN, RED])
    assert waiting_tiles(garden) == (WHITE,)


@settings(max_examples=300)
@given(st.integers(min_value=0, max_value=2**32))
def test_waits_match_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    wall = [x for x in range(34) for _ in range(4)]
    hand = cv(rng.sample(wall, 13))
    expected = []
    for x in range(34):
        if hand[x] < 4:
            hand[x] += 1
            if arrangements(hand) or irregular_shapes(hand):
                expected.append(x)
            hand[x] -= 1
    assert waiting_tiles(hand) == tuple(expected)
