"""Hand analysis: arrangements into sets, irregular shapes, completeness and waits.

Tiles are small ints (0-8 bamboo, 9-17 circles, 18-26 characters, 27-30 winds E S W N,
31-33 dragons green red white); a hand is a 34-length count vector.  Everything here is
pure and memoised per suit (9 counts of a suit, or the 7 honour counts), so the hot
paths never decompose a whole hand from scratch.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from itertools import product
from typing import Final

__all__ = [
    "ORPHANS",
    "Block",
    "BlockKind",
    "Shape",
    "arrangements",
    "irregular_shapes",
    "is_complete",
    "is_irregular_complete",
    "is_regular_complete",
    "is_waiting",
    "set_arrangements",
    "seven_pair_tiles",
    "waiting_tiles",
]

N_KINDS = 34
_SUIT_STARTS = (0, 9, 18)


class BlockKind(IntEnum):
    """Kind of a concealed block: chow (three in a row), pung (three alike) or pair."""

    CHOW = 0
    PUNG = 1
    PAIR = 2


@dataclass(frozen=True, slots=True, order=True)
class Block:
    """One block of an arrangement; ``tile`` is the lowest tile for a chow."""

    kind: BlockKind
    tile: int


_Blocks = tuple[Block, ...]

# Block instances are shared: one per (kind, tile, copy), ``copy`` numbering identical
# chows within one arrangement (so two equal chows of an arrangement stay two objects and
# callers may tell them apart by identity, as before).
_BLOCK_CACHE: dict[tuple[int, int, int], Block] = {}


def _block(kind: BlockKind, tile: int, copy: int = 0) -> Block:
    key = (int(kind), tile, copy)
    blk = _BLOCK_CACHE.get(key)
    if blk is None:
        blk = _BLOCK_CACHE[key] = Block(kind, tile)
    return blk


# One decomposition of a group: (chows, pungs, pair), each a tuple of blocks sorted by tile
# (the pair tuple is empty or has one block).  Concatenating the chows of all groups, then
# the pungs, then the pair gives an arrangement already sorted by (kind, tile), because
# the groups are in tile order and CHOW < PUNG < PAIR.
_Decomp = tuple[_Blocks, _Blocks, _Blocks]
_GroupDecomps = tuple[tuple[_Decomp, ...], tuple[_Decomp, ...]]  # (sets only, sets + pair)


_Offsets = tuple[tuple[int, ...], tuple[int, ...], int]
_Splits = tuple[frozenset[_Offsets], frozenset[_Offsets]]
_SPLITS: tuple[dict[bytes, _Splits], dict[bytes, _Splits]] = ({}, {})
"""Decompositions by a group's counts (or what remains of them), without chows (the
honours, first) and with them (a suit: the three suits share these); bounded, cleared
when full (they are rebuilt from each other as needed)."""
_SPLITS_BOUND: Final = 1 << 13
_NO_SPLITS: _Splits = (frozenset({((), (), -1)}), frozenset())
"""No tiles: one decomposition, into nothing."""


def _decompose(key: bytes, chows: bool) -> _Splits:
    """All decompositions of one group's counts ``key`` into sets (first) and sets + one
    pair (second).

    Each is (chow offsets, pung offsets, pair offset or -1), offsets ascending.  The
    first tile held is a pung, the pair or the lowest tile of a chow; each way, the rest
    decomposes as the tiles that remain do (remembered, so a group's decompositions are
    mostly made of ones known already)."""
    table = _SPLITS[chows]
    found = table.get(key)
    if found is not None:
        return found
    n = len(key)
    i = 0
    while i < n and key[i] == 0:
        i += 1
    if i == n:
        return _NO_SPLITS
    no_pair: set[_Offsets] = set()
    with_pair: set[_Offsets] = set()
    c = bytearray(key)
    x = c[i]
    if x >= 3:
        c[i] -= 3
        rest_no_pair, rest_pair = _decompose(bytes(c), chows)
        c[i] += 3
        for cs, ps, pair in rest_no_pair:
            no_pair.add((cs, (i, *ps), pair))
        for cs, ps, pair in rest_pair:
            with_pair.add((cs, (i, *ps), pair))
    if x >= 2:
        c[i] -= 2
        rest_no_pair = _decompose(bytes(c), chows)[0]
        c[i] += 2
        for cs, ps, _ in rest_no_pair:
            with_pair.add((cs, ps, i))
    if chows and i + 2 < n and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        rest_no_pair, rest_pair = _decompose(bytes(c), chows)
        for cs, ps, pair in rest_no_pair:
            no_pair.add(((i, *cs), ps, pair))
        for cs, ps, pair in rest_pair:
            with_pair.add(((i, *cs), ps, pair))
    if len(table) >= _SPLITS_BOUND:
        table.clear()
    found = table[key] = (frozenset(no_pair), frozenset(with_pair))
    return found


# The shared blocks by tile, for the tables below: chows by copy (0-3), pungs, pairs.
_CHOWS: tuple[list[Block | None], ...] = tuple([None] * N_KINDS for _ in range(4))
_PUNGS: list[Block | None] = [None] * N_KINDS
_PAIRS: list[Block | None] = [None] * N_KINDS


def _to_blocks(start: int, d: tuple[tuple[int, ...], tuple[int, ...], int]) -> _Decomp:
    chow_offsets, pung_offsets, pair = d
    chow_blocks: list[Block] = []
    prev = -1
    copy = 0
    for o in chow_offsets:  # ascending, so equal chows are adjacent
        copy = copy + 1 if o == prev else 0
        prev = o
        t = start + o
        blk = _CHOWS[copy][t]
        if blk is None:
            blk = _CHOWS[copy][t] = _block(BlockKind.CHOW, t, copy)
        chow_blocks.append(blk)
    pungs: list[Block] = []
    for o in pung_offsets:
        t = start + o
        blk = _PUNGS[t]
        if blk is None:
            blk = _PUNGS[t] = _block(BlockKind.PUNG, t)
        pungs.append(blk)
    if pair < 0:
        return (tuple(chow_blocks), tuple(pungs), ())
    t = start + pair
    blk = _PAIRS[t]
    if blk is None:
        blk = _PAIRS[t] = _block(BlockKind.PAIR, t)
    return (tuple(chow_blocks), tuple(pungs), (blk,))


def _offsets_key(d: tuple[tuple[int, ...], tuple[int, ...], int]) -> tuple[int, ...]:
    """The order of a group's decompositions (offsets, as :func:`_decompose` gives them):
    that of their blocks' (kind, tile), chows first, then pungs, then the pair; as
    ``kind * 64 + offset``, the group's start being the same for all."""
    chow_offsets, pung_offsets, pair = d
    pungs = tuple(64 + o for o in pung_offsets)
    return chow_offsets + pungs + (128 + pair,) if pair >= 0 else chow_offsets + pungs


def _sorted_blocks(start: int, ds: frozenset[_Offsets]) -> tuple[_Decomp, ...]:
    """The decompositions ``ds`` of the group at ``start`` as blocks, sorted by their
    blocks' (kind, tile)."""
    if len(ds) <= 1:
        return tuple(_to_blocks(start, d) for d in ds)
    return tuple(_to_blocks(start, d) for d in sorted(ds, key=_offsets_key))


# Lazily filled per-group decomposition tables, keyed by the group's counts as ``bytes``.
_DECOMPS: tuple[dict[bytes, _GroupDecomps], ...] = ({}, {}, {}, {})
_DECOMPS_BOUND: Final = 1 << 13
"""Entries of one group's table in :data:`_DECOMPS`; past it the table starts again empty
(hands are arranged to be scored: a simulation meets about 1,700 contents a group in 4000
hands)."""


def _fill_decomps(g: int, key: bytes) -> _GroupDecomps:
    start = 9 * g
    no_pair, with_pair = _decompose(key, g != 3)
    res = (
        _sorted_blocks(start, no_pair),
        _sorted_blocks(start, with_pair),
    )
    table = _DECOMPS[g]
    if len(table) >= _DECOMPS_BOUND:
        table.clear()
    table[key] = res
    return res


def _groups(
    counts: Sequence[int],
) -> tuple[_GroupDecomps, _GroupDecomps, _GroupDecomps, _GroupDecomps]:
    if len(counts) < N_KINDS:
        raise ValueError("counts must have (at least) 34 entries")
    b = bytes(counts[:N_KINDS])
    t0, t1, t2, th = _DECOMPS
    k0 = b[0:9]
    k1 = b[9:18]
    k2 = b[18:27]
    kh = b[27:34]
    return (
        t0.get(k0) or _fill_decomps(0, k0),
        t1.get(k1) or _fill_decomps(1, k1),
        t2.get(k2) or _fill_decomps(2, k2),
        th.get(kh) or _fill_decomps(3, kh),
    )


def _arrangement_key(arr: _Blocks) -> tuple[tuple[int, int], ...]:
    return tuple((int(b.kind), b.tile) for b in arr)


def _combine(
    parts: tuple[
        tuple[_Decomp, ...], tuple[_Decomp, ...], tuple[_Decomp, ...], tuple[_Decomp, ...]
    ],
    out: list[_Blocks],
) -> None:
    p0, p1, p2, ph = parts
    if len(p0) == 1 and len(p1) == 1 and len(p2) == 1 and len(ph) == 1:
        d0 = p0[0]
        d1 = p1[0]
        d2 = p2[0]
        dh = ph[0]
        out.append(
            d0[0] + d1[0] + d2[0] + d0[1] + d1[1] + d2[1] + dh[1] + d0[2] + d1[2] + d2[2] + dh[2]
        )
        return
    for d0, d1, d2, dh in product(p0, p1, p2, ph):
        out.append(
            d0[0] + d1[0] + d2[0] + d0[1] + d1[1] + d2[1] + dh[1] + d0[2] + d1[2] + d2[2] + dh[2]
        )


def arrangements(counts: Sequence[int]) -> tuple[tuple[Block, ...], ...]:
    """Every distinct split of the tiles into chows/pungs plus exactly one pair.

    ``counts`` is a 34-count vector (normally 3n+2 tiles).  Returns a tuple of
    arrangements, each a tuple of :class:`Block` sorted by (kind, tile); the outer tuple is
    sorted and free of duplicates.  Returns ``()`` when the tiles cannot be arranged.
    Chows only run within a suit (no wrap-around, no honours).
    """
    g0, g1, g2, gh = _groups(counts)
    n0 = g0[0]
    n1 = g1[0]
    n2 = g2[0]
    nh = gh[0]
    # at most one group may lack a sets-only decomposition: it must hold the pair
    missing = (not n0) + (not n1) + (not n2) + (not nh)
    if missing > 1:
        return ()
    out: list[_Blocks] = []
    if g0[1] and n1 and n2 and nh:
        _combine((g0[1], n1, n2, nh), out)
    if g1[1] and n0 and n2 and nh:
        _combine((n0, g1[1], n2, nh), out)
    if g2[1] and n0 and n1 and nh:
        _combine((n0, n1, g2[1], nh), out)
    if gh[1] and n0 and n1 and n2:
        _combine((n0, n1, n2, gh[1]), out)
    if len(out) > 1:
        out.sort(key=_arrangement_key)
    return tuple(out)


def set_arrangements(counts: Sequence[int]) -> tuple[tuple[Block, ...], ...]:
    """Every distinct split of the tiles (normally 3n) into chows/pungs only, no pair.

    Same conventions as :func:`arrangements`; ``()`` when impossible.  An empty hand has
    exactly one (empty) arrangement: ``((),)``.
    """
    g0, g1, g2, gh = _groups(counts)
    if not (g0[0] and g1[0] and g2[0] and gh[0]):
        return ()
    out: list[_Blocks] = []
    _combine((g0[0], g1[0], g2[0], gh[0]), out)
    if len(out) > 1:
        out.sort(key=_arrangement_key)
    return tuple(out)


# ---------------------------------------------------------------- per-group tables
#
# A group is one suit (9 counts, chows allowed) or the honours (7 counts, no chows).  Its
# counts, as a ``bytes`` object, key lazily filled tables, each bounded (:data:`_INFO_BOUND`
# entries, then it starts again empty: a long run keeps meeting contents it has not seen).

_WINDS = (27, 28, 29, 30)
_DRAGONS = (31, 32, 33)
#: The 13 terminals and honours (1 and 9 of each suit, winds, dragons).
ORPHANS: tuple[int, ...] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)

# completion status of a group: sets only, sets + exactly one pair, or neither
_SETS = 0
_SETS_PAIR = 2
_NONE = -1


def _sets_only(c: Sequence[int], chows: bool) -> bool:
    """Whether one group's counts split into sets only.  Honours: every count a multiple
    of 3.  A suit, in one pass: of the tiles of a rank that no earlier chow took, as many
    as their number modulo 3 start chows (three equal chows are three pungs, so any split
    can be made to have that few) and the rest are pungs."""
    if not chows:
        return all(not x % 3 for x in c)
    p1 = p2 = 0  # chows started one and two ranks below (they take a tile of this rank)
    for x in c:
        x -= p1 + p2
        if x < 0:
            return False
        p2 = p1
        p1 = x % 3
    return not p1 and not p2  # no chow may run past the 9


def _status_of(c: list[int], honours: bool) -> int:
    """Completion status of one group's counts: ``_SETS``, ``_SETS_PAIR`` or ``_NONE``."""
    total = sum(c)
    chows = not honours
    if total % 3 == 0:
        return _SETS if _sets_only(c, chows) else _NONE
    if total % 3 == 2:
        for i in range(len(c)):
            if c[i] >= 2:
                c[i] -= 2
                ok = _sets_only(c, chows)
                c[i] += 2
                if ok:
                    return _SETS_PAIR
    return _NONE


# Per-group wait record, a tuple ``r`` of length 11:
#   r[s], s < 10    the tiles of this group (bit mask, absolute tile bits) that complete the
#                   whole hand when the status codes of the four groups add up to ``s``
#                   (``s // 5`` broken groups, ``s % 5`` groups holding a pair; s >= 10
#                   means two broken groups: nothing completes the hand);
#   r[10]           packed: bits 0-7 the group's status code (0 sets only, 1 sets + one
#                   pair, 5 neither); above them (suits only) 1 when the suit holds tiles
#                   + 4 when it holds a 2..8, + 16 x kinds held.  Summed over the four
#                   groups (no carries between fields) this gives ``s`` and the hand's
#                   kind count and thirteen-orphans / snakes filter in one go.
# So a hand's regular waits are ``r0[s] | r1[s] | r2[s] | rh[s]``: four dict look-ups and
# a few integer operations per hand.
_CODE_SETS = 0
_CODE_PAIR = 1
_CODE_NONE = 5
_PACKED = 10

_GroupInfo = tuple[int, ...]

# One lazily filled table per group (bamboo, circles, characters, honours), keyed by the
# group's counts as ``bytes``.
_INFO: tuple[dict[bytes, _GroupInfo], ...] = ({}, {}, {}, {})
_INFO_BOUND: Final = 1 << 13
"""Entries of one group's table in :data:`_INFO`; past it the table starts again empty."""


_STATUS: Final[tuple[dict[bytes, int], dict[bytes, int]]] = ({}, {})
"""The status of a suit's (first) or the honours' (second) counts, as :func:`_fill_info`
asked for it (a group and the groups one tile more: neighbouring groups share them);
bounded by :data:`_STATUS_BOUND`, cleared when full."""
_STATUS_BOUND: Final = 1 << 14


def _status_known(c: bytearray, honours: bool) -> int:
    table = _STATUS[honours]
    key = bytes(c)
    status = table.get(key)
    if status is None:
        if len(table) >= _STATUS_BOUND:
            table.clear()
        status = table[key] = _status_of(list(c), honours)
    return status


def _mask_choices(code: int) -> tuple[int, ...]:
    """For a group of status ``code``, which of its masks (0 none, 1 ``to_pair``, 2
    ``to_sets``) each status sum ``s`` < 10 of the four groups selects."""
    out: list[int] = []
    for s in range(10):
        n_bad, n_pair = divmod(s, 5)
        choice = 0
        if n_bad == 1:
            if code == _CODE_NONE:  # only the broken group can take the tile
                choice = 1 if n_pair == 0 else 2 if n_pair == 1 else 0
        elif n_bad == 0:
            others_pair = n_pair - (code == _CODE_PAIR)
            choice = 1 if others_pair == 0 else 2 if others_pair == 1 else 0
        out.append(choice)
    return tuple(out)


_MASK_CHOICES: Final = {code: _mask_choices(code) for code in (_CODE_SETS, _CODE_PAIR, _CODE_NONE)}
_STATUS_CODE: Final = {_SETS: _CODE_SETS, _SETS_PAIR: _CODE_PAIR, _NONE: _CODE_NONE}


def _fill_info(g: int, key: bytes) -> _GroupInfo:
    honours = g == 3
    c = bytearray(key)
    code = _STATUS_CODE[_status_known(c, honours)]
    to_sets = 0
    to_pair = 0
    n = len(c)
    # a tile more leaves a multiple of 3 (sets only) or one more than it (with a pair);
    # a tile with no tile of its group within two ranks (honours: of its kind) stays
    # alone, in no set and no pair
    for i in range(n) if sum(c) % 3 else ():
        x = c[i]
        if x >= 4:
            continue  # the fifth tile does not exist
        if not x and (honours or not any(c[max(0, i - 2) : i + 3])):
            continue
        c[i] = x + 1
        st = _status_known(c, honours)
        c[i] = x
        if st == _SETS:
            to_sets |= 1 << i
        elif st == _SETS_PAIR:
            to_pair |= 1 << i
    shift = 9 * g
    choices = (0, to_pair << shift, to_sets << shift)
    irreg = 0 if honours else (1 if any(c) else 0) + (4 if any(c[1:8]) else 0)
    irreg += (n - c.count(0)) << 4  # kinds held
    info = (*[choices[k] for k in _MASK_CHOICES[code]], code | irreg << 8)
    table = _INFO[g]
    if len(table) >= _INFO_BOUND:
        table.clear()
    table[key] = info
    return info


def _infos(counts: Sequence[int]) -> tuple[_GroupInfo, _GroupInfo, _GroupInfo, _GroupInfo]:
    b = bytes(counts[:N_KINDS])
    k0 = b[0:9]
    k1 = b[9:18]
    k2 = b[18:27]
    kh = b[27:34]
    t0, t1, t2, th = _INFO
    return (
        t0.get(k0) or _fill_info(0, k0),
        t1.get(k1) or _fill_info(1, k1),
        t2.get(k2) or _fill_info(2, k2),
        th.get(kh) or _fill_info(3, kh),
    )


# ---------------------------------------------------------------- regular completeness


def is_regular_complete(counts: Sequence[int]) -> bool:
    """True when the tiles (3n+2 of them) split into chows/pungs and exactly one pair."""
    i0, i1, i2, ih = _infos(counts)
    return (i0[_PACKED] + i1[_PACKED] + i2[_PACKED] + ih[_PACKED]) & 255 == _CODE_PAIR


# ---------------------------------------------------------------- irregular shapes


class Shape(StrEnum):
    """Irregular (and nine gates) shapes of a fully concealed 14-tile hand."""

    THIRTEEN_ORPHANS = "thirteen_orphans"
    SEVEN_PAIRS = "seven_pairs"
    WIND_SNAKE = "wind_snake"
    DRAGON_SNAKE = "dragon_snake"
    PEKING_GARDEN = "peking_garden"
    NINE_GATES = "nine_gates"


def _is_seven_pairs(counts: Sequence[int], duplicate_pairs: bool) -> bool:
    if duplicate_pairs:
        return all(x % 2 == 0 for x in counts[:N_KINDS])
    return all(x == 0 or x == 2 for x in counts[:N_KINDS])


def _single_suit(counts: Sequence[int]) -> int:
    """The start index of the only suit holding tiles, -1 when none, -2 when several."""
    found = -1
    for start in _SUIT_STARTS:
        if any(counts[start : start + 9]):
            if found != -1:
                return -2
            found = start
    return found


def _irregular_shapes(counts: Sequence[int], duplicate_pairs: bool) -> set[Shape]:
    out: set[Shape] = set()
    if sum(counts[:N_KINDS]) != 14:
        return out
    if _is_seven_pairs(counts, duplicate_pairs):
        out.add(Shape.SEVEN_PAIRS)
    if all(counts[t] for t in ORPHANS) and sum(counts[t] for t in ORPHANS) == 14:
        out.add(Shape.THIRTEEN_ORPHANS)
    s = _single_suit(counts)
    if s < 0:
        return out
    suit = counts[s : s + 9]
    winds = [counts[t] for t in _WINDS]
    dragons = [counts[t] for t in _DRAGONS]
    n_honours = sum(winds) + sum(dragons)
    if n_honours == 0:
        if suit[0] >= 3 and suit[8] >= 3 and all(suit[1:8]) and all(x <= 4 for x in suit):
            out.add(Shape.NINE_GATES)
        return out
    if all(suit) and all(winds) and not any(dragons):
        out.add(Shape.WIND_SNAKE)  # 13 distinct + total 14: exactly one extra of those
    if all(x == 1 for x in suit) and all(x == 1 for x in dragons) and sorted(winds) == [0, 0, 0, 2]:
        out.add(Shape.DRAGON_SNAKE)
    if (
        all(x == 1 for x in suit[:7])
        and suit[7] == 0
        and suit[8] == 0
        and all(x == 1 for x in winds)
        and all(x == 1 for x in dragons)
    ):
        out.add(Shape.PEKING_GARDEN)
    return out


def irregular_shapes(counts: Sequence[int], *, duplicate_pairs: bool = True) -> frozenset[Shape]:
    """The irregular shapes (plus nine gates) that 14 concealed tiles form.

    Returns an empty set for any other tile total.  ``duplicate_pairs`` lets four identical
    tiles count as two of the seven pairs (rule-set switch, ruling 11).  Nine gates is
    regular-decomposable too but is reported here because it scores as a shape.  The
    caller is responsible for the hand being fully concealed (no declared melds).
    """
    return frozenset(_irregular_shapes(counts, duplicate_pairs))


def is_irregular_complete(counts: Sequence[int], *, duplicate_pairs: bool = True) -> bool:
    """True when 14 concealed tiles form any irregular shape (nine gates included)."""
    return bool(_irregular_shapes(counts, duplicate_pairs))


def seven_pair_tiles(counts: Sequence[int], *, duplicate_pairs: bool = True) -> tuple[int, ...]:
    """The tile kinds of the seven pairs, sorted (a kind held four times appears twice).

    Returns ``()`` when the 14 tiles are not seven pairs under the given switch.  Scoring
    uses it to classify pure / clean / terminal / honour seven pairs.
    """
    if sum(counts[:N_KINDS]) != 14 or not _is_seven_pairs(counts, duplicate_pairs):
        return ()
    out: list[int] = []
    for t in range(N_KINDS):
        out.extend([t] * (counts[t] // 2))
    return tuple(out)


# ---------------------------------------------------------------- completeness and waits


def is_complete(counts: Sequence[int], *, n_melds: int = 0, duplicate_pairs: bool = True) -> bool:
    """True when the concealed tiles complete the hand.

    Regular: the concealed tiles split into sets and one pair (declared melds are not in
    ``counts``).  Irregular shapes count only when ``n_melds == 0``.
    """
    if is_regular_complete(counts):
        return True
    return n_melds == 0 and bool(_irregular_shapes(counts, duplicate_pairs))


def _regular_waits(b: bytes) -> int:
    """Bit mask (bit t for tile t) of tiles completing the hand regularly (5th tile excluded).

    ``b`` is the 34 concealed counts as ``bytes``.  (Off the hot path: :func:`waiting_tiles`
    does the same look-ups inline.)
    """
    i0, i1, i2, ih = _infos(b)
    s = (i0[_PACKED] + i1[_PACKED] + i2[_PACKED] + ih[_PACKED]) & 255
    if s >= 10:
        return 0
    return i0[s] | i1[s] | i2[s] | ih[s]


def waiting_tiles(
    counts: Sequence[int],
    *,
    n_melds: int = 0,
    held: Sequence[int] | None = None,
    duplicate_pairs: bool = True,
) -> tuple[int, ...]:
    """Sorted tile kinds (0..33) that would complete a hand one tile short.

    ``counts`` are the concealed tiles (3k+1 of them); declared melds are counted by
    ``n_melds`` only.  Irregular shapes are considered only when ``n_melds == 0``.  A kind
    the player already holds four of (``held``: all tiles incl. declared melds, default
    ``counts``) is excluded since it cannot be drawn.  Returns ``()`` when not waiting.
    """
    b = bytes(counts)
    if len(b) != N_KINDS:
        b = b[:N_KINDS]
    t0, t1, t2, th = _INFO
    k = b[0:9]
    i0 = t0.get(k) or _fill_info(0, k)
    k = b[9:18]
    i1 = t1.get(k) or _fill_info(1, k)
    k = b[18:27]
    i2 = t2.get(k) or _fill_info(2, k)
    k = b[27:34]
    ih = th.get(k) or _fill_info(3, k)
    x = i0[10] + i1[10] + i2[10] + ih[10]
    s = x & 255
    mask = i0[s] | i1[s] | i2[s] | ih[s] if s < 10 else 0
    if n_melds == 0:
        r = x >> 8
        kinds = r >> 4
        if kinds <= 7:  # at most 7 kinds: only seven pairs is possible, solved directly
            if kinds and sum(b) == 13:
                if duplicate_pairs:
                    if b.count(1) + b.count(3) == 1:
                        single = b.find(1)
                        mask |= 1 << (single if single >= 0 else b.find(3))
                elif b.count(2) == 6 and b.count(1) == 1:
                    mask |= 1 << b.find(1)
        # >= 11 kinds: thirteen orphans, snakes or Peking garden, which need at most one
        # suit holding tiles, or no suit holding a 2..8
        elif kinds >= 11 and (r & 3 <= 1 or not r & 12) and sum(b) == 13:
            c = list(b)
            for t in range(N_KINDS):
                if c[t] < 4 and not mask >> t & 1:
                    c[t] += 1
                    if _irregular_shapes(c, duplicate_pairs):
                        mask |= 1 << t
                    c[t] -= 1
    if not mask:
        return ()
    out: list[int] = []
    if held is None:  # the masks never include a fifth copy of a concealed tile
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
    else:
        while mask:
            low = mask & -mask
            t = low.bit_length() - 1
            if held[t] < 4:
                out.append(t)
            mask ^= low
    return tuple(out)


def is_waiting(
    counts: Sequence[int],
    *,
    n_melds: int = 0,
    held: Sequence[int] | None = None,
    duplicate_pairs: bool = True,
) -> bool:
    """True when :func:`waiting_tiles` is non-empty (the hand waits on a live tile)."""
    return bool(waiting_tiles(counts, n_melds=n_melds, held=held, duplicate_pairs=duplicate_pairs))
