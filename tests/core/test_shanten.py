"""Tests for mahjong_nts.core.shanten (expected values worked out by hand)."""

from __future__ import annotations

import random

import pytest
from core_helpers import GREEN, RED, WHITE, E, N, S, W, b, cv, k, t
from hypothesis import given, settings
from hypothesis import strategies as st

from mahjong_nts.core.analysis import is_complete, waiting_tiles
from mahjong_nts.core.shanten import (
    irregular_shanten,
    regular_shanten,
    seven_pairs_shanten,
    shanten,
    snakes_shanten,
    thirteen_orphans_shanten,
)

WALL = [x for x in range(34) for _ in range(4)]


def test_complete_and_ready() -> None:
    assert shanten(cv([b(1), b(2), b(3)] * 4 + [E, E])) == -1
    nine_gates = [b(1)] * 3 + [b(n) for n in range(2, 9)] + [b(9)] * 3
    assert shanten(cv(nine_gates)) == 0
    orphans = [b(1), b(9), k(1), k(9), t(1), t(9), E, S, W, N, GREEN, RED, WHITE]
    assert shanten(cv(orphans)) == 0
    assert thirteen_orphans_shanten(cv(orphans)) == 0
    assert shanten(cv([*orphans, RED])) == -1


def test_snakes_and_the_garden() -> None:
    straight = [b(n) for n in range(1, 10)]
    # wind snake: 1-9 of a suit and the four winds fit 13 of its 14 tiles: ready for an
    # extra of any of them; one extra completes it
    assert snakes_shanten(cv([*straight, E, S, W, N])) == 0
    assert snakes_shanten(cv([*straight, E, S, W, N, S])) == -1
    # dragon snake: 1-9, the three dragons and a pair of winds
    assert snakes_shanten(cv([*straight, RED, GREEN, WHITE, E, E])) == -1
    assert snakes_shanten(cv([*straight, RED, GREEN, E, E])) == 0
    # Peking garden: 1-7 of a suit, the four winds, the three dragons
    garden = [k(n) for n in range(1, 8)] + [E, S, W, N, RED, GREEN, WHITE]
    assert snakes_shanten(cv(garden)) == -1
    # b1-b4 twice, k1-k4, t5: wind snake in bamboo fits b1-b4 and one extra (5 of 14)
    # -> 8; the dragon snake and the garden fit four
    hand = cv([b(1), b(1), b(2), b(2), b(3), b(3), b(4), b(4), k(1), k(2), k(3), k(4), t(5)])
    assert snakes_shanten(hand) == 8


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=False))
def test_a_tile_taken_away_never_brings_an_irregular_target_nearer(rng: random.Random) -> None:
    # the strong bot bounds every discard by the 14 tiles before it (bots/strong.py,
    # limit_pick)
    counts = cv(rng.sample(WALL, 14))
    before = (thirteen_orphans_shanten(counts), snakes_shanten(counts))
    for x in range(34):
        if counts[x]:
            counts[x] -= 1
            assert thirteen_orphans_shanten(counts) >= before[0]
            assert snakes_shanten(counts) >= before[1]
            counts[x] += 1


def test_worst_hand() -> None:
    # b1 b4 b7 k2 k5 k8 t3 t6 t9 E S W N: no partial at all -> regular 8;
    # seven pairs: 13 kinds, no pair -> 6; orphans: b1 t9 + 4 winds = 6 kinds -> 7;
    # wind snake (bamboo): b1 b4 b7 + 4 winds = 7 fit -> 6.
    hand = cv([b(1), b(4), b(7), k(2), k(5), k(8), t(3), t(6), t(9), E, S, W, N])
    assert regular_shanten(hand) == 8
    assert seven_pairs_shanten(hand) == 6
    assert thirteen_orphans_shanten(hand) == 7
    assert irregular_shanten(hand) == 6
    assert shanten(hand) == 6


def test_snake_beats_regular() -> None:
    # k1-9 + E S W + green: wind snake misses N and the extra -> 12 fit -> 1;
    # regular: three chows + four singles -> 8 - 6 = 2
    hand = cv([k(n) for n in range(1, 10)] + [E, S, W, GREEN])
    assert regular_shanten(hand) == 2
    assert shanten(hand) == 1
    assert shanten(hand, n_melds=0) == 1
    garden = cv([b(n) for n in range(1, 8)] + [E, S, W, N, GREEN, RED])
    assert shanten(garden) == 0
    dragon = cv([t(n) for n in range(1, 10)] + [GREEN, RED, WHITE, S, S])
    assert shanten(dragon) == -1


def test_duplicate_pairs_switch() -> None:
    # b1 b1 b1 b1 k3 k3 t7 t7 E E S S red: six pairs with duplicates -> ready;
    # distinct pairs only: 5 pairs, 6 kinds -> 6 - 5 + 1 = 2; regular: b111 + 4 pairs + red
    # -> 1 set, head, 3 partials -> 8 - 2 - 3 - 1 = 2
    hand = cv([b(1)] * 4 + [k(3), k(3), t(7), t(7), E, E, S, S, RED])
    assert shanten(hand) == 0
    assert shanten(hand, duplicate_pairs=False) == 2
    assert regular_shanten(hand) == 2


def test_with_melds() -> None:
    # one declared meld, concealed b1-6 k7 k8 E E: b123 b456 + k78 + EE -> ready
    hand = cv([b(1), b(2), b(3), b(4), b(5), b(6), k(7), k(8), E, E])
    assert shanten(hand, n_melds=1) == 0
    assert regular_shanten(hand, 1) == 0
    assert shanten(cv([RED, RED]), n_melds=4) == -1
    assert shanten(cv([RED]), n_melds=4) == 0


def test_fifth_copy_is_not_a_wait() -> None:
    # EEEE SSS WWW NNN: the block formula says "ready on E", but there is no fifth E.
    # Discard an E, draw any new tile -> single wait on it: shanten 1.
    hand = cv([E] * 4 + [S] * 3 + [W] * 3 + [N] * 3)
    assert regular_shanten(hand) == 0  # formula only
    assert waiting_tiles(hand) == ()
    assert shanten(hand) == 1


def _random_hand(rng: random.Random, n: int) -> list[int]:
    return cv(rng.sample(WALL, n))


def _complete_hand(rng: random.Random) -> list[int]:
    counts = [0] * 34
    sets = 0
    while sets < 4:
        if rng.random() < 0.6:
            x = rng.choice((0, 9, 18)) + rng.randrange(7)
            blk = [x, x + 1, x + 2]
        else:
            x = rng.randrange(34)
            blk = [x, x, x]
        if all(counts[y] + blk.count(y) <= 4 for y in blk):
            for y in blk:
                counts[y] += 1
            sets += 1
    x = rng.choice([y for y in range(34) if counts[y] <= 2])
    counts[x] += 2
    return counts


def _near_hand(rng: random.Random, n: int) -> list[int]:
    """A hand of n (13 or 14) tiles close to complete: often ready or one away."""
    counts = _complete_hand(rng)
    for _ in range(14 - n + rng.randrange(2)):
        x = rng.choice([y for y in range(34) if counts[y]])
        counts[x] -= 1
    while sum(counts) < n:
        x = rng.choice([y for y in range(34) if counts[y] < 4])
        counts[x] += 1
    return counts


@settings(max_examples=300)
@given(st.integers(min_value=0, max_value=2**32), st.booleans())
def test_minus_one_iff_complete(seed: int, dup: bool) -> None:
    rng = random.Random(seed)
    hand = rng.choice([_random_hand(rng, 14), _complete_hand(rng), _near_hand(rng, 14)])
    assert (shanten(hand, duplicate_pairs=dup) == -1) == is_complete(hand, duplicate_pairs=dup)


@settings(max_examples=300)
@given(st.integers(min_value=0, max_value=2**32), st.booleans())
def test_zero_iff_waiting(seed: int, dup: bool) -> None:
    # Shanten is structural: with no declared melds and held == concealed tiles it agrees
    # exactly with waiting_tiles (a fifth copy never counts as a wait on either side).
    rng = random.Random(seed)
    hand = rng.choice([_random_hand(rng, 13), _near_hand(rng, 13)])
    ready = bool(waiting_tiles(hand, duplicate_pairs=dup))
    assert (shanten(hand, duplicate_pairs=dup) == 0) == ready


@settings(max_examples=150)
@given(st.integers(min_value=0, max_value=2**32))
def test_draw_and_discard_consistency(seed: int) -> None:
    rng = random.Random(seed)
    hand = rng.choice([_random_hand(rng, 13), _near_hand(rng, 13)])
    s13 = shanten(hand)
    assert s13 >= 0
    drawn = list(hand)
    x = rng.choice([y for y in range(34) if drawn[y] < 4])
    drawn[x] += 1
    s14 = shanten(drawn)
    assert s14 >= s13 - 1
    # a 14-tile hand is exactly as far as its best discard
    best = min(shanten([c - (y == z) for z, c in enumerate(drawn)]) for y in range(34) if drawn[y])
    assert s14 == best or (s14 == -1 and best == 0)


def _to_riichi(c: list[int]) -> list[int]:
    # theirs: man 0-8, pin 9-17, sou 18-26, winds 27-30, haku/hatsu/chun 31-33.
    # Suits are interchangeable for regular shanten; map tekens->man, kringen->pin,
    # bamboo->sou, and white/green/red dragons -> haku/hatsu/chun.
    return c[18:27] + c[9:18] + c[0:9] + c[27:31] + [c[WHITE], c[GREEN], c[RED]]


def test_regular_matches_riichi_package() -> None:
    mahjong_shanten = pytest.importorskip("mahjong.shanten")
    calc = mahjong_shanten.Shanten.calculate_shanten_for_regular_hand
    rng = random.Random(20240611)
    checked = 0
    while checked < 1500:
        n = rng.choice((13, 14, 10, 11, 7, 8))
        hand = rng.choice([_random_hand(rng, n), _near_hand(rng, 14) if n == 14 else None])
        if hand is None:
            continue
        if 4 in hand:
            continue  # both sides treat fourth copies differently (we: only at shanten 0)
        n_melds = (14 - sum(hand)) // 3
        assert regular_shanten(hand, n_melds) == calc(_to_riichi(hand)), hand
        checked += 1


def _reference_regular(counts: list[int], n_melds: int) -> int:
    """Slow whole-hand reference: max of 2*sets + min(partials, room) + pair over splits."""
    c = list(counts)
    n_sets = 4 - n_melds
    best = 0

    def rec(i: int, sets: int, partials: int, pair: int) -> None:
        nonlocal best
        while i < 34 and c[i] == 0:
            i += 1
        if i == 34:
            m = min(sets, n_sets)
            best = max(best, 2 * m + min(partials, n_sets - m) + pair)
            return
        suited = i < 27
        c[i] -= 1
        rec(i, sets, partials, pair)  # isolated
        c[i] += 1
        shapes: list[tuple[tuple[int, ...], int, int, int]] = []
        if c[i] >= 3:
            shapes.append(((i, i, i), 1, 0, 0))
        if c[i] >= 2:
            shapes.append(((i, i), 0, 1, 0))
            if not pair:
                shapes.append(((i, i), 0, 0, 1))
        if suited and i % 9 <= 6 and c[i + 1] and c[i + 2]:
            shapes.append(((i, i + 1, i + 2), 1, 0, 0))
        if suited and i % 9 <= 7 and c[i + 1]:
            shapes.append(((i, i + 1), 0, 1, 0))
        if suited and i % 9 <= 6 and c[i + 2]:
            shapes.append(((i, i + 2), 0, 1, 0))
        for tiles, ds, dp, dh in shapes:
            for y in tiles:
                c[y] -= 1
            rec(i, sets + ds, partials + dp, pair + dh)
            for y in tiles:
                c[y] += 1

    rec(0, 0, 0, 0)
    return 2 * n_sets - best


@settings(max_examples=200)
@given(st.integers(min_value=0, max_value=2**32))
def test_regular_matches_whole_hand_reference(seed: int) -> None:
    # The per-group fronts, the greedy shortcut and the bounded search must agree with a
    # plain whole-hand search, fourth copies and declared melds included.
    rng = random.Random(seed)
    hand = rng.choice([_random_hand(rng, 13), _near_hand(rng, 13), _near_hand(rng, 14)])
    n_melds = rng.choice((0, 0, 1, 2))
    for _ in range(3 * n_melds):
        x = rng.choice([y for y in range(34) if hand[y]])
        hand[x] -= 1
    assert regular_shanten(hand, n_melds) == _reference_regular(hand, n_melds), hand


def test_pair_as_head_beats_pair_as_partial() -> None:
    # 66b 333k 88k 678t EEE: the 88k pair as the head (not a partial) makes it ready.
    hand = cv([b(6)] * 2 + [k(3)] * 3 + [k(8)] * 2 + [t(6), t(7), t(8)] + [E] * 3)
    assert regular_shanten(hand) == 0
    assert shanten(hand) == 0
