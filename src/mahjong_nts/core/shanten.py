"""Shanten: how many tiles a hand is away from ready (waiting).

-1 means complete, 0 ready (one tile short), 1 one useful tile from ready, and so on.
The regular form uses the usual block count ``2M - 2*sets - partials - pair`` (``M`` sets
still needed, partials capped at ``M - sets``), maximised exactly over all splits via
per-group tables (built once per distinct suit / honours content): each group's Pareto
front of (sets, blocks, pair), its best points, and packed counts.  A hand then costs four
look-ups and a greedy combination that is provably optimal when it meets an upper bound
(almost always); otherwise a small search over the four fronts.  The irregular shapes
(n_melds == 0 only) are fixed patterns: shanten = 13 - (tiles of the hand that fit the
best target), screened by cheap bounds from the same per-group records.

Shanten is *structural*: it looks only at the concealed tiles, never at tiles held in
declared melds or seen elsewhere, so a hand with shanten 0 can still have no live wait
(e.g. a single wait on a tile whose other three copies sit in a declared pung).  The one
exception is the fifth copy of a concealed tile, which does not exist: a hand whose only
structural waits need a fifth copy is not counted as ready (see :func:`shanten`).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import islice
from operator import itemgetter
from typing import Any, Final

from mahjong_nts.core.analysis import (
    N_KINDS,
    ORPHANS,
    _regular_waits,
    waiting_tiles,
)

__all__ = [
    "EMPTY_GROUP",
    "GROUP_TABLES",
    "GroupRecord",
    "group_record",
    "irregular_shanten",
    "records_seven_pairs",
    "records_shanten",
    "regular_shanten",
    "seven_pairs_shanten",
    "shanten",
    "snakes_shanten",
    "thirteen_orphans_shanten",
]

# Regular form.  For a split of the concealed tiles into M sets, D partial sets (pairs,
# two-sided / edge / closed waits) and P <= 1 pairs set aside as the head, with n sets
# still needed, the block value is 2*min(M, n) + min(D, n - min(M, n)) + P, which equals
# min(M, n) + min(M + D, n) + P.  So only (sets, blocks = sets + partials, pair) matter,
# more of either is never worse, and blocks beyond 4 are useless (n <= 4): each group
# (suit or honours) keeps the Pareto front of its (sets, blocks, pair) points, with blocks
# capped at 4, in a table built once per distinct group content.
_Point = tuple[int, int, int]
_Front = tuple[_Point, ...]
# Per-group record, a tuple:
#   [0] the front, points sorted best first;
#   [1] its best point without the pair (max sets + blocks, then sets), packed as
#       sets | blocks << 8 | pair << 16 so the four groups' choices add up in one int;
#   [2] tiles held; [3] kinds held; [4] winds held (honours only);
#   [5] packed counts, adding up across groups without carries: bits 0-3 terminal/honour
#       kinds, 4-6 groups with a terminal/honour pair, 8-13 kinds held once, 16-21 kinds
#       held three times, 24-29 kinds held;
#   [6] best point with the pair, packed, minus [1] (0 when the group cannot hold it);
#   [7] the gain of [6] in sets + blocks + pair (-1 when the group cannot hold the pair).
_Record = tuple[_Front, int, int, int, int, int, int, int]
_MAX_BLOCKS = 4

_RECORDS: tuple[dict[bytes, _Record], ...] = ({}, {}, {}, {})
_RECORDS_BOUND: Final = 1 << 13
"""Entries of one group's table in :data:`_RECORDS`; past it the older half is dropped
(a long run keeps meeting contents it has not seen)."""
_Shape = tuple[_Front, int, int, int, int, int, int]
_SHAPES: tuple[dict[bytes, _Shape], dict[bytes, _Shape]] = ({}, {})
"""The parts of a record that follow from the group's shape alone (the front, [1], [6]
and [7], the tiles and kinds held, the packed counts of singles and threes), by shape:
[0] the honours (counts in falling order), [1] the suits (counts without the empty ranks
at either end, or their mirror image when it comes first in byte order).  Many contents
share a shape (a suit's 3-4-5 and 6-7-8; 1-1-2 and 8-9-9), so a new content seldom needs
its front worked out."""
_SHAPES_BOUND: Final = 1 << 13
"""Entries of one table of :data:`_SHAPES`; past it the older half is dropped."""
_SUFFIX: dict[tuple[bytes, bool], frozenset[_Point]] = {}
_SUFFIX_BOUND: Final = 1 << 13
"""Entries of :data:`_SUFFIX` (the fronts records are built from); then emptied."""


def _prune(points: set[_Point]) -> frozenset[_Point]:
    """The points no other point with the same pair beats in both sets and blocks."""
    # Sorted by pair, then most sets and blocks first: a point is beaten exactly when an
    # earlier point of its pair has at least its blocks (it has at least its sets).
    keep: list[_Point] = []
    pair = -1
    most = -1
    for m, k, p in sorted(points, key=lambda q: (q[2], -q[0], -q[1])):
        if p != pair:
            pair, most = p, -1
        if k > most:
            keep.append((m, k, p))
            most = k
    return frozenset(keep)


def _shape(c: bytes, chows: bool) -> bytes:
    """A group's shape (its fronts, tiles and kinds depend on nothing else): a suit's
    counts ``c`` without the empty ranks at either end, read from whichever end comes
    first in byte order (a chow reversed is a chow); the honours' counts (``chows``
    false) in falling order."""
    if chows:
        c = c.strip(b"\0")
        mirror = c[::-1]
        return mirror if mirror < c else c
    return bytes(sorted(c, reverse=True)).rstrip(b"\0")


def _suffix_front(c: bytes, chows: bool) -> frozenset[_Point]:
    """Pareto set of (sets, blocks, pair) over all splits of the group counts ``c``."""
    # The same for the group's shape (see _build_record): the splits below meet the
    # shapes of many other counts (taking a set off 1-2-3-5 leaves 5, as it does off
    # 7-8-9-5), so they are looked up by shape.
    c = _shape(c, chows)
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
    pts: set[_Point] = set()

    def sub(dm: int, dk: int, need_no_pair: bool, *removals: int) -> None:
        for r in removals:
            a[r] -= 1
        rest = _suffix_front(bytes(a), chows)
        for r in removals:
            a[r] += 1
        for m, k, p in rest:
            if need_no_pair:
                if p:
                    continue
                pts.add((m, k, 1))
            else:
                mm = m + dm
                kk = k + dk
                pts.add((mm if mm < _MAX_BLOCKS else _MAX_BLOCKS, min(kk, _MAX_BLOCKS), p))

    x = c[i]
    sub(0, 0, False, i)  # tile i left isolated
    if x >= 3:
        sub(1, 1, False, i, i, i)
    if x >= 2:
        sub(0, 0, True, i, i)  # the pair (head)
        sub(0, 1, False, i, i)  # a pair as a partial set
    if chows:
        if i + 1 < n and c[i + 1]:
            if i + 2 < n and c[i + 2]:
                sub(1, 1, False, i, i + 1, i + 2)
            sub(0, 1, False, i, i + 1)
        if i + 2 < n and c[i + 2]:
            sub(0, 1, False, i, i + 2)
    res = _prune(pts)
    if len(_SUFFIX) >= _SUFFIX_BOUND:
        _SUFFIX.clear()
    _SUFFIX[key] = res
    return res


def _drop_older_half(table: dict[bytes, Any]) -> None:
    """Empty the older half of a full table (a dict keeps the order entries came in):
    the contents met lately stay, as the hand being weighed keeps meeting them."""
    for key in list(islice(table, len(table) // 2)):
        del table[key]


def _fill_record(g: int, key: bytes) -> _Record:
    rec = _build_record(g, key)
    table = _RECORDS[g]
    if len(table) >= _RECORDS_BOUND:
        _drop_older_half(table)
    table[key] = rec
    return rec


def _shape_parts(shape: bytes, chows: bool) -> _Shape:
    """The parts of a record that follow from a group's shape: the front, sorted best
    first, its packed best points without and with the pair and the pair's gain (the
    record's [0], [1], [6] and [7]), the tiles and kinds held ([2], [3]) and the packed
    counts of kinds held once, three times and at all ([5] without its first bits)."""
    front = tuple(sorted(_suffix_front(shape, chows), key=lambda q: (-(q[0] + q[1] + q[2]), q)))
    # (the empty split (0, 0, 0) is always there, so a point without the pair exists)
    m0, k0, _ = max((q for q in front if not q[2]), key=lambda q: (q[0] + q[1], q[0]))
    no_pair = m0 | k0 << 8
    with_pair = [q for q in front if q[2]]
    delta = 0
    gain = -1
    if with_pair:
        m1, k1, _ = max(with_pair, key=lambda q: (q[0] + q[1], q[0]))
        delta = (m1 | k1 << 8 | 1 << 16) - no_pair
        gain = m1 + k1 + 1 - m0 - k0
    kinds = len(shape) - shape.count(0)
    counted = shape.count(1) << 8 | shape.count(3) << 16 | kinds << 24
    return front, no_pair, delta, gain, sum(shape), kinds, counted


def _build_record(g: int, key: bytes) -> _Record:
    # The front depends only on the group's shape: a suit's counts without the empty ranks
    # at either end (a chow never reaches past them), read from whichever end comes first
    # in byte order (a suit's mirror image, 9 for 1, splits alike: a chow reversed is a
    # chow); the honours' counts in any order.  So do the tiles and kinds held, once and
    # three times; the terminals (a suit's first and last rank) and the winds do not.
    chows = g != 3
    shape = _shape(key, chows)
    shapes = _SHAPES[chows]
    parts = shapes.get(shape)
    if parts is None:
        parts = _shape_parts(shape, chows)
        if len(shapes) >= _SHAPES_BOUND:
            _drop_older_half(shapes)
        shapes[shape] = parts
    front, no_pair, delta, gain, tiles, kinds, counted = parts
    if chows:
        low, high = key[0], key[8]
        winds = 0
        # terminal kinds held, and whether one is held twice or more
        packed = counted | (low > 0) + (high > 0) | (low >= 2 or high >= 2) << 4
    else:
        winds = 4 - key[0:4].count(0)
        packed = counted | kinds | (kinds > 0 and shape[0] >= 2) << 4
    return (front, no_pair, tiles, kinds, winds, packed, delta, gain)


def _greedy(r0: _Record, r1: _Record, r2: _Record, rh: _Record) -> int:
    """The groups' best points, the pair (head) going to a group that gains most from it.

    A head costs no block, so it is taken on a tie (gain 0).  Packed like the records.
    """
    s = r0[1] + r1[1] + r2[1] + rh[1]
    gain = max(r0[7], r1[7], r2[7], rh[7])
    if gain >= 0:
        s += (r0 if r0[7] == gain else r1 if r1[7] == gain else r2 if r2[7] == gain else rh)[6]
    return s


def _regular_value(
    r0: _Record, r1: _Record, r2: _Record, rh: _Record, n_sets: int, n_tiles: int
) -> int:
    """Max over splits of min(sets, n) + min(blocks, n) + pair (``n = n_sets``)."""
    # The greedy choice maximises sets + blocks + pair, an upper bound; so does 2n + 1,
    # which needs n sets and a pair (3n + 2 tiles).  When the greedy value (clamped to n)
    # meets the bound it is the answer; otherwise search the fronts.
    g = _greedy(r0, r1, r2, rh)
    ms = g & 255
    ks = g >> 8 & 255
    pp = g >> 16
    ub = 2 * n_sets + (n_tiles >= 3 * n_sets + 2)
    if ms + ks + pp < ub:
        ub = ms + ks + pp
    v = (ms if ms < n_sets else n_sets) + (ks if ks < n_sets else n_sets) + pp
    if v >= ub:
        return v
    return _search(r0, r1, r2, rh, n_sets, ub)


def _search(r0: _Record, r1: _Record, r2: _Record, rh: _Record, n_sets: int, ub: int) -> int:
    """Exhaustive max over the four fronts, stopping early at the upper bound ``ub``."""
    best = -1
    for m0, k0, p0 in r0[0]:
        for m1, k1, p1 in r1[0]:
            p01 = p0 + p1
            if p01 > 1:
                continue
            m01 = m0 + m1
            k01 = k0 + k1
            for m2, k2, p2 in r2[0]:
                p012 = p01 + p2
                if p012 > 1:
                    continue
                m012 = m01 + m2
                k012 = k01 + k2
                for mh, kh, ph in rh[0]:
                    pp = p012 + ph
                    if pp > 1:
                        continue
                    ms = m012 + mh
                    ks = k012 + kh
                    v = (ms if ms < n_sets else n_sets) + (ks if ks < n_sets else n_sets) + pp
                    if v > best:
                        if v >= ub:
                            return v
                        best = v
    return best


GroupRecord = _Record
"""What :func:`group_record` gives: one group's front and packed facts (see above)."""


def group_record(g: int, key: bytes) -> GroupRecord:
    """The record of group ``g`` (0-2 the suits, 3 the honours) holding the counts ``key``
    (9 bytes for a suit, 7 for the honours), from its table (made when missing)."""
    return _RECORDS[g].get(key) or _fill_record(g, key)


GROUP_TABLES: Final = _RECORDS
"""The records :func:`group_record` keeps, by group (0-2 the suits, 3 the honours) and
counts: a caller valuing many hands may look a record up here itself and call
:func:`group_record` on a miss (saving a call a look-up); never write to them."""


EMPTY_GROUP: Final[GroupRecord] = _build_record(0, bytes(9))
"""The record of a group without tiles (any group: it adds nothing to a hand)."""


def records_shanten(
    r0: GroupRecord, r1: GroupRecord, r2: GroupRecord, rh: GroupRecord, n_melds: int
) -> int:
    """:func:`regular_shanten` of the hand whose groups have the records ``r0`` to ``rh``
    (the order does not matter; :data:`EMPTY_GROUP` for a group left out).

    A bot that values one hand in several ways (only some suits, no terminals) looks each
    group's record up once and combines them here, without building the counts again.
    """
    # _regular_value with the greedy choice inlined (a bot calls this a thousand times a
    # hand)
    n_sets = 4 - n_melds
    g = r0[1] + r1[1] + r2[1] + rh[1]
    gain = max(r0[7], r1[7], r2[7], rh[7])
    if gain >= 0:
        g += (r0 if r0[7] == gain else r1 if r1[7] == gain else r2 if r2[7] == gain else rh)[6]
    ms = g & 255
    ks = g >> 8 & 255
    pp = g >> 16
    ub = 2 * n_sets + (r0[2] + r1[2] + r2[2] + rh[2] >= 3 * n_sets + 2)
    if ms + ks + pp < ub:
        ub = ms + ks + pp
    v = (ms if ms < n_sets else n_sets) + (ks if ks < n_sets else n_sets) + pp
    if v < ub:
        v = _search(r0, r1, r2, rh, n_sets, ub)
    return 2 * n_sets - v


def seven_pairs_shanten(counts: Sequence[int], *, duplicate_pairs: bool = True) -> int:
    """Shanten towards seven pairs (13 or 14 concealed tiles, no melds)."""
    c = counts[:N_KINDS]
    kinds = N_KINDS - c.count(0)
    if duplicate_pairs:
        # sum(x // 2) for counts 0..4; anything larger takes the plain sum
        pairs = c.count(2) + c.count(3) + 2 * c.count(4)
        if kinds > pairs + c.count(1) - c.count(4):  # some count outside 0..4
            pairs = sum(x // 2 for x in c)
        return 6 - min(pairs, 7)
    pairs = kinds - c.count(1)
    return 6 - pairs + (7 - kinds if kinds < 7 else 0)


def records_seven_pairs(
    r0: GroupRecord, r1: GroupRecord, r2: GroupRecord, rh: GroupRecord, duplicate_pairs: bool
) -> int:
    """:func:`seven_pairs_shanten` of the hand whose groups have the records ``r0`` to
    ``rh`` (no count above 4, as in any real hand): from their packed counts."""
    packed = r0[5] + r1[5] + r2[5] + rh[5]
    singles = packed >> 8 & 63
    if duplicate_pairs:  # sum(x // 2) = (tiles - singles - threes) / 2
        pairs = (r0[2] + r1[2] + r2[2] + rh[2] - singles - (packed >> 16 & 63)) >> 1
        return 6 - (pairs if pairs < 7 else 7)
    kinds = packed >> 24
    return 6 - (kinds - singles) + (7 - kinds if kinds < 7 else 0)


_orphan_counts = itemgetter(*ORPHANS)


def thirteen_orphans_shanten(counts: Sequence[int]) -> int:
    """Shanten towards thirteen orphans (13 or 14 concealed tiles, no melds)."""
    held: tuple[int, ...] = _orphan_counts(counts)
    return held.count(0) - (max(held) >= 2)


def snakes_shanten(c: Sequence[int]) -> int:
    """Best shanten over wind snake, dragon snake and Peking garden, in any of the three
    suits (13 or 14 concealed tiles, no melds): 13 less the tiles of the best fitting
    target.  A tile taken away never lowers it."""
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
        snakes_shanten(counts),
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
    b = bytes(counts)
    if len(b) != N_KINDS:
        b = b[:N_KINDS]
    t0, t1, t2, th = _RECORDS
    k = b[0:9]
    r0 = t0.get(k) or _fill_record(0, k)
    k = b[9:18]
    r1 = t1.get(k) or _fill_record(1, k)
    k = b[18:27]
    r2 = t2.get(k) or _fill_record(2, k)
    k = b[27:34]
    rh = th.get(k) or _fill_record(3, k)
    return records_shanten(r0, r1, r2, rh, n_melds)


def shanten(counts: Sequence[int], *, n_melds: int = 0, duplicate_pairs: bool = True) -> int:
    """Tiles away from ready: -1 complete, 0 ready (waiting), 1, 2, ...

    Minimum of the regular form and, when ``n_melds == 0`` and 13 or 14 tiles are
    concealed, seven pairs (``duplicate_pairs`` as in the rule set), thirteen orphans, wind
    snake, dragon snake and Peking garden.  Works for any 3k+1 / 3k+2 concealed tiles.
    Structural (see module docstring); a value 0 is checked against the fifth-copy limit.
    """
    b = bytes(counts)
    if len(b) != N_KINDS:
        b = b[:N_KINDS]
    t0, t1, t2, th = _RECORDS
    k = b[0:9]
    r0 = t0.get(k) or _fill_record(0, k)
    k = b[9:18]
    r1 = t1.get(k) or _fill_record(1, k)
    k = b[18:27]
    r2 = t2.get(k) or _fill_record(2, k)
    k = b[27:34]
    rh = th.get(k) or _fill_record(3, k)
    n_tiles = r0[2] + r1[2] + r2[2] + rh[2]
    value = records_shanten(r0, r1, r2, rh, n_melds)  # the regular form
    # irregular shapes: 13 or 14 concealed tiles, no melds; they never beat a ready (13
    # tiles) or complete hand, so those skip the check.  Cheap bounds come from the
    # per-group records; only the snakes / garden ever look at single tiles.
    if n_melds == 0 and (value > 0 if n_tiles == 13 else n_tiles == 14 and value >= 0):
        packed = r0[5] + r1[5] + r2[5] + rh[5]
        kinds = packed >> 24
        singles = packed >> 8 & 63
        if duplicate_pairs:  # pairs = sum(x // 2) = (tiles - singles - threes) / 2
            v = 6 - min((n_tiles - singles - (packed >> 16 & 63)) // 2, 7)
        else:
            v = 6 - (kinds - singles) + (7 - kinds if kinds < 7 else 0)
        if v < value:
            value = v
        v = 13 - (packed & 15) - (packed & 0x70 != 0)  # thirteen orphans
        if v < value:
            value = v
        # wind snake <= suit + winds + 1; dragon snake <= suit + dragons + 2;
        # Peking garden <= suit + honours (kinds that fit); all <= suit + honours + 2
        honour_kinds = rh[3]
        if value > 11 - honour_kinds - min(kinds - honour_kinds, 9):
            wind_kinds = rh[4]
            fit = max(r0[3], r1[3], r2[3]) + max(
                wind_kinds + 1, honour_kinds - wind_kinds + 2, honour_kinds
            )
            if value > 13 - fit:
                v = snakes_shanten(b)
                if v < value:
                    value = v
    if value == 0 and 4 in b and not (n_tiles % 3 == 1 and _regular_waits(b)):
        # (a regular wait never needs a fifth copy, so one shows the hand is ready)
        value = _fix_fifth_tile(b, value, n_melds, duplicate_pairs)
    return value
