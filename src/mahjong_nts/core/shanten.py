"""Shanten: how many tiles a hand is away from ready (waiting).

-1 means complete, 0 ready (one tile short), 1 one useful tile from ready, and so on.
The regular form uses the usual block count ``2M - 2*sets - partials - pair`` (``M`` sets
still needed, partials capped at ``M - sets``), maximised exactly over all splits via
per-group memoised Pareto tables.  The irregular shapes (n_melds == 0 only) are fixed
patterns: shanten = 13 - (tiles of the hand that fit the best target).

Shanten is *structural*: it looks only at the concealed tiles, never at tiles held in
declared melds or seen elsewhere, so a hand with shanten 0 can still have no live wait
(e.g. a single wait on a tile whose other three copies sit in a declared pung).  The one
exception is the fifth copy of a concealed tile, which does not exist: a hand whose only
structural waits need a fifth copy is not counted as ready (see :func:`shanten`).
"""

from __future__ import annotations

from collections.abc import Sequence

from mahjong_nts.core.analysis import (
    N_KINDS,
    ORPHANS,
    waiting_tiles,
)

__all__ = [
    "irregular_shanten",
    "regular_shanten",
    "seven_pairs_shanten",
    "shanten",
    "thirteen_orphans_shanten",
]

# A group front: tuple of (sets, partials, pair) triples, Pareto-optimal per pair flag,
# partials capped at 4.
_Front = tuple[tuple[int, int, int], ...]
_MAX_D = 4

_FRONTS: tuple[dict[bytes, _Front], ...] = ({}, {}, {}, {})
_SUFFIX: dict[tuple[bytes, bool], frozenset[tuple[int, int, int]]] = {}


def _prune(points: set[tuple[int, int, int]]) -> frozenset[tuple[int, int, int]]:
    keep = [
        (m, d, p)
        for (m, d, p) in points
        if not any(
            p2 == p and m2 >= m and d2 >= d and (m2, d2) != (m, d) for (m2, d2, p2) in points
        )
    ]
    return frozenset(keep)


def _suffix_front(c: bytes, chows: bool) -> frozenset[tuple[int, int, int]]:
    """Pareto set of (sets, partials, pair) over all splits of the group counts ``c``."""
    key = (c, chows)
    hit = _SUFFIX.get(key)
    if hit is not None:
        return hit
    n = len(c)
    i = 0
    while i < n and c[i] == 0:
        i += 1
    if i == n:
        res = frozenset({(0, 0, 0)})
        _SUFFIX[key] = res
        return res
    a = list(c)
    pts: set[tuple[int, int, int]] = set()

    def sub(dm: int, dd: int, need_no_pair: bool, *removals: int) -> None:
        for r in removals:
            a[r] -= 1
        rest = _suffix_front(bytes(a), chows)
        for r in removals:
            a[r] += 1
        for m, d, p in rest:
            if need_no_pair:
                if p:
                    continue
                pts.add((m + dm, min(d + dd, _MAX_D), 1))
            else:
                pts.add((m + dm, min(d + dd, _MAX_D), p))

    x = c[i]
    sub(0, 0, False, i)  # tile i left isolated
    if x >= 3:
        sub(1, 0, False, i, i, i)
    if x >= 2:
        sub(0, 0, True, i, i)  # the pair (head)
        sub(0, 1, False, i, i)  # a pair as a partial set
    if chows:
        if i + 1 < n and c[i + 1]:
            if i + 2 < n and c[i + 2]:
                sub(1, 0, False, i, i + 1, i + 2)
            sub(0, 1, False, i, i + 1)
        if i + 2 < n and c[i + 2]:
            sub(0, 1, False, i, i + 2)
    res = _prune(pts)
    _SUFFIX[key] = res
    return res


def _front(g: int, key: bytes) -> _Front:
    hit = _FRONTS[g].get(key)
    if hit is None:
        hit = tuple(sorted(_suffix_front(key, g != 3)))
        _FRONTS[g][key] = hit
    return hit


def _regular_value(b: bytes, n_sets: int) -> int:
    """Max over splits of 2*sets + min(partials, n_sets - sets) + pair."""
    f0 = _FRONTS[0].get(b[0:9]) or _front(0, b[0:9])
    f1 = _FRONTS[1].get(b[9:18]) or _front(1, b[9:18])
    f2 = _FRONTS[2].get(b[18:27]) or _front(2, b[18:27])
    fh = _FRONTS[3].get(b[27:34]) or _front(3, b[27:34])
    best = 0
    for m0, d0, p0 in f0:
        for m1, d1, p1 in f1:
            p01 = p0 + p1
            if p01 > 1:
                continue
            m01 = m0 + m1
            d01 = d0 + d1
            for m2, d2, p2 in f2:
                p012 = p01 + p2
                if p012 > 1:
                    continue
                m012 = m01 + m2
                d012 = d01 + d2
                for mh, dh, ph in fh:
                    pp = p012 + ph
                    if pp > 1:
                        continue
                    ms = m012 + mh
                    if ms > n_sets:
                        ms = n_sets
                    room = n_sets - ms
                    dd = d012 + dh
                    v = 2 * ms + (dd if dd < room else room) + pp
                    if v > best:
                        best = v
    return best


def _regular_formula(b: bytes, n_melds: int) -> int:
    n_sets = 4 - n_melds
    return 2 * n_sets - _regular_value(b, n_sets)


def seven_pairs_shanten(counts: Sequence[int], *, duplicate_pairs: bool = True) -> int:
    """Shanten towards seven pairs (13 or 14 concealed tiles, no melds)."""
    c = counts[:N_KINDS]
    if duplicate_pairs:
        pairs = sum(x // 2 for x in c)
        return 6 - min(pairs, 7)
    pairs = sum(1 for x in c if x >= 2)
    kinds = sum(1 for x in c if x)
    return 6 - pairs + max(0, 7 - kinds)


def thirteen_orphans_shanten(counts: Sequence[int]) -> int:
    """Shanten towards thirteen orphans (13 or 14 concealed tiles, no melds)."""
    kinds = 0
    pair = 0
    for t in ORPHANS:
        x = counts[t]
        if x:
            kinds += 1
            if x >= 2:
                pair = 1
    return 13 - kinds - pair


def _snakes_shanten(c: Sequence[int]) -> int:
    """Best shanten over wind snake, dragon snake and Peking garden (all three suits)."""
    winds = [c[27], c[28], c[29], c[30]]
    wind_kinds = sum(1 for x in winds if x)
    wind_extra = any(x >= 2 for x in winds)
    dragon_kinds = (c[31] > 0) + (c[32] > 0) + (c[33] > 0)
    wind_pair_fit = max(min(x, 2) for x in winds)
    best_fit = 0
    for s in (0, 9, 18):
        suit = c[s : s + 9]
        kinds = sum(1 for x in suit if x)
        # wind snake: 1-9 + E S W N + one extra of those 13
        extra = 1 if (wind_extra or any(x >= 2 for x in suit)) else 0
        fit = kinds + wind_kinds + extra
        # dragon snake: 1-9 + three dragons + a pair of one wind
        fit2 = kinds + dragon_kinds + wind_pair_fit
        # Peking garden: 1-7 + four winds + three dragons
        fit3 = sum(1 for x in suit[:7] if x) + wind_kinds + dragon_kinds
        best_fit = max(best_fit, fit, fit2, fit3)
    return 13 - best_fit


def irregular_shanten(counts: Sequence[int], *, duplicate_pairs: bool = True) -> int:
    """Best shanten over the irregular shapes (seven pairs, orphans, snakes, garden)."""
    return min(
        seven_pairs_shanten(counts, duplicate_pairs=duplicate_pairs),
        thirteen_orphans_shanten(counts),
        _snakes_shanten(counts),
    )


def _ready(counts: list[int], n_melds: int, duplicate_pairs: bool) -> bool:
    return bool(waiting_tiles(counts, n_melds=n_melds, duplicate_pairs=duplicate_pairs))


def _ready_after_discard(counts: list[int], n_melds: int, duplicate_pairs: bool) -> bool:
    for t in range(N_KINDS):
        if counts[t]:
            counts[t] -= 1
            ok = _ready(counts, n_melds, duplicate_pairs)
            counts[t] += 1
            if ok:
                return True
    return False


def _ready_after_exchange(counts: list[int], n_melds: int, duplicate_pairs: bool) -> bool:
    """13-type hand: can one discard plus one draw make it ready?"""
    for t in range(N_KINDS):
        if counts[t]:
            counts[t] -= 1
            for u in range(N_KINDS):
                if u != t and counts[u] < 4:
                    counts[u] += 1
                    ok = _ready(counts, n_melds, duplicate_pairs)
                    counts[u] -= 1
                    if ok:
                        counts[t] += 1
                        return True
            counts[t] += 1
    return False


def _fix_fifth_tile(counts: Sequence[int], value: int, n_melds: int, duplicate_pairs: bool) -> int:
    """Correct a formula value of 0 whose only waits need a fifth copy of a tile.

    Only reached when some concealed tile is held four times (rare), so brute force is
    fine.  Returns 0 when truly ready; else 1 when one exchange reaches ready; else 2
    (a lower bound in that very rare case).
    """
    c = list(counts[:N_KINDS])
    if sum(c) % 3 == 1:
        if _ready(c, n_melds, duplicate_pairs):
            return 0
        return 1 if _ready_after_exchange(c, n_melds, duplicate_pairs) else 2
    if _ready_after_discard(c, n_melds, duplicate_pairs):
        return 0
    for t in range(N_KINDS):
        if c[t]:
            c[t] -= 1
            ok = _ready_after_exchange(c, n_melds, duplicate_pairs)
            c[t] += 1
            if ok:
                return 1
    return value + 2


def regular_shanten(counts: Sequence[int], n_melds: int = 0) -> int:
    """Structural shanten of the regular form (``4 - n_melds`` sets + one pair).

    Uses only the block formula (no fifth-tile correction); -1 when complete.
    """
    return _regular_formula(bytes(counts[:N_KINDS]), n_melds)


def shanten(counts: Sequence[int], *, n_melds: int = 0, duplicate_pairs: bool = True) -> int:
    """Tiles away from ready: -1 complete, 0 ready (waiting), 1, 2, ...

    Minimum of the regular form and, when ``n_melds == 0`` and 13 or 14 tiles are
    concealed, seven pairs (``duplicate_pairs`` as in the rule set), thirteen orphans, wind
    snake, dragon snake and Peking garden.  Works for any 3k+1 / 3k+2 concealed tiles.
    Structural (see module docstring); a value 0 is checked against the fifth-copy limit.
    """
    b = bytes(counts[:N_KINDS])
    value = _regular_formula(b, n_melds)
    if n_melds == 0 and value >= 0:
        total = sum(b)
        if total == 13 or total == 14:
            value = _min_irregular(b, value, duplicate_pairs)
    if value == 0 and 4 in b:
        value = _fix_fifth_tile(b, value, n_melds, duplicate_pairs)
    return value


def _min_irregular(b: bytes, value: int, duplicate_pairs: bool) -> int:
    """min(value, irregular shanten), skipping shapes whose cheap bound cannot beat it."""
    c2 = b.count(2)
    c3 = b.count(3)
    c4 = b.count(4)
    if duplicate_pairs:
        sp = 6 - min(c2 + c3 + 2 * c4, 7)
    else:
        kinds = N_KINDS - b.count(0)
        sp = 6 - (c2 + c3 + c4) + max(0, 7 - kinds)
    if sp < value:
        value = sp
    honour_kinds = 7 - b[27:34].count(0)
    if value > 6 - honour_kinds:  # orphans: at most 6 terminal kinds + honour kinds + pair
        b0, b8, b9, b17, b18, b26 = b[0], b[8], b[9], b[17], b[18], b[26]
        kinds = honour_kinds + (b0 > 0) + (b8 > 0) + (b9 > 0) + (b17 > 0) + (b18 > 0) + (b26 > 0)
        pair = max(b0, b8, b9, b17, b18, b26, max(b[27:34])) >= 2
        orphans = 13 - kinds - pair
        if orphans < value:
            value = orphans
    suit_kinds = 9 - min(b[0:9].count(0), b[9:18].count(0), b[18:27].count(0))
    wind_kinds = 4 - b[27:31].count(0)
    dragon_kinds = honour_kinds - wind_kinds
    # wind snake <= suit + winds + 1; dragon snake <= suit + dragons + 2; garden <= suit + hon.
    snake_fit = suit_kinds + max(wind_kinds + 1, dragon_kinds + 2, honour_kinds)
    if value > 13 - snake_fit:
        value = min(value, _snakes_shanten(b))
    return value
