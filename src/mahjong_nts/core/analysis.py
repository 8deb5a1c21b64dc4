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
from functools import cache
from itertools import product

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
_HONOUR_START = 27


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


def _decompose(counts: list[int], start: int, chows: bool) -> tuple[set[_Blocks], set[_Blocks]]:
    """All decompositions of one group into sets (first) and sets + one pair (second).

    Mutates ``counts`` temporarily; blocks carry absolute tile numbers (``start`` + offset).
    """
    no_pair: set[_Blocks] = set()
    with_pair: set[_Blocks] = set()
    n = len(counts)
    acc: list[Block] = []

    def rec(i: int, has_pair: bool) -> None:
        while i < n and counts[i] == 0:
            i += 1
        if i == n:
            (with_pair if has_pair else no_pair).add(tuple(sorted(acc)))
            return
        c = counts[i]
        if c >= 3:
            counts[i] -= 3
            acc.append(Block(BlockKind.PUNG, start + i))
            rec(i, has_pair)
            acc.pop()
            counts[i] += 3
        if c >= 2 and not has_pair:
            counts[i] -= 2
            acc.append(Block(BlockKind.PAIR, start + i))
            rec(i, True)
            acc.pop()
            counts[i] += 2
        if chows and i + 2 < n and counts[i + 1] and counts[i + 2]:
            counts[i] -= 1
            counts[i + 1] -= 1
            counts[i + 2] -= 1
            acc.append(Block(BlockKind.CHOW, start + i))
            rec(i, has_pair)
            acc.pop()
            counts[i] += 1
            counts[i + 1] += 1
            counts[i + 2] += 1

    rec(0, False)
    return no_pair, with_pair


@cache
def _group_decompositions(
    start: int, key: tuple[int, ...]
) -> tuple[tuple[_Blocks, ...], tuple[_Blocks, ...]]:
    """Memoised decompositions of one group (a suit or the honours), sorted canonically."""
    no_pair, with_pair = _decompose(list(key), start, start != _HONOUR_START)
    return tuple(sorted(no_pair)), tuple(sorted(with_pair))


def _groups(counts: Sequence[int]) -> list[tuple[tuple[_Blocks, ...], tuple[_Blocks, ...]]]:
    if len(counts) < N_KINDS:
        raise ValueError("counts must have (at least) 34 entries")
    return [
        _group_decompositions(0, tuple(counts[0:9])),
        _group_decompositions(9, tuple(counts[9:18])),
        _group_decompositions(18, tuple(counts[18:27])),
        _group_decompositions(27, tuple(counts[27:34])),
    ]


def _combine(parts: Sequence[tuple[_Blocks, ...]], out: list[_Blocks]) -> None:
    for combo in product(*parts):
        blocks: list[Block] = []
        for part in combo:
            blocks.extend(part)
        blocks.sort()
        out.append(tuple(blocks))


def arrangements(counts: Sequence[int]) -> tuple[tuple[Block, ...], ...]:
    """Every distinct split of the tiles into chows/pungs plus exactly one pair.

    ``counts`` is a 34-count vector (normally 3n+2 tiles).  Returns a tuple of
    arrangements, each a tuple of :class:`Block` sorted by (kind, tile); the outer tuple is
    sorted and free of duplicates.  Returns ``()`` when the tiles cannot be arranged.
    Chows only run within a suit (no wrap-around, no honours).
    """
    groups = _groups(counts)
    out: list[_Blocks] = []
    for p in range(4):
        parts = [g[1] if j == p else g[0] for j, g in enumerate(groups)]
        if all(parts):
            _combine(parts, out)
    out.sort()
    return tuple(out)


def set_arrangements(counts: Sequence[int]) -> tuple[tuple[Block, ...], ...]:
    """Every distinct split of the tiles (normally 3n) into chows/pungs only, no pair.

    Same conventions as :func:`arrangements`; ``()`` when impossible.  An empty hand has
    exactly one (empty) arrangement: ``((),)``.
    """
    parts = [g[0] for g in _groups(counts)]
    out: list[_Blocks] = []
    if all(parts):
        _combine(parts, out)
    out.sort()
    return tuple(out)


# ---------------------------------------------------------------- per-group tables
#
# A group is one suit (9 counts, chows allowed) or the honours (7 counts, no chows).  Its
# counts, as a ``bytes`` object, key lazily filled tables kept for the life of the process
# (a few thousand entries in practice; at most 5**9 per suit).

_WINDS = (27, 28, 29, 30)
_DRAGONS = (31, 32, 33)
#: The 13 terminals and honours (1 and 9 of each suit, winds, dragons).
ORPHANS: tuple[int, ...] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)

# completion status of a group: sets only, sets + exactly one pair, or neither
_SETS = 0
_SETS_PAIR = 2
_NONE = -1


def _sets_only(c: list[int], i: int, chows: bool) -> bool:
    n = len(c)
    while i < n and c[i] == 0:
        i += 1
    if i == n:
        return True
    x = c[i]
    if x >= 3:
        c[i] -= 3
        ok = _sets_only(c, i, chows)
        c[i] += 3
        if ok:
            return True
    if chows and i + 2 < n and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        ok = _sets_only(c, i, chows)
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
        if ok:
            return True
    return False


def _status_of(c: list[int], honours: bool) -> int:
    """Completion status of one group's counts: ``_SETS``, ``_SETS_PAIR`` or ``_NONE``."""
    total = sum(c)
    chows = not honours
    if total % 3 == 0:
        return _SETS if _sets_only(c, 0, chows) else _NONE
    if total % 3 == 2:
        for i in range(len(c)):
            if c[i] >= 2:
                c[i] -= 2
                ok = _sets_only(c, 0, chows)
                c[i] += 2
                if ok:
                    return _SETS_PAIR
    return _NONE


_GroupInfo = tuple[int, int, int]  # status, mask to "sets only", mask to "sets + pair"

# One lazily filled table per group position (0, 9, 18: suits; 27: honours), keyed by the
# group's counts as ``bytes``; the wait masks are already shifted to absolute tile bits.
_INFO: tuple[dict[bytes, _GroupInfo], ...] = ({}, {}, {}, {})


def _fill_info(g: int, key: bytes) -> _GroupInfo:
    honours = g == 3
    c = list(key)
    status = _status_of(c, honours)
    to_sets = 0
    to_pair = 0
    for i in range(len(c)):
        if c[i] >= 4:
            continue  # the fifth tile does not exist
        c[i] += 1
        st = _status_of(c, honours)
        c[i] -= 1
        if st == _SETS:
            to_sets |= 1 << i
        elif st == _SETS_PAIR:
            to_pair |= 1 << i
    shift = 9 * g
    info = (status, to_sets << shift, to_pair << shift)
    _INFO[g][key] = info
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
    s0 = i0[0]
    s1 = i1[0]
    s2 = i2[0]
    sh = ih[0]
    if s0 < 0 or s1 < 0 or s2 < 0 or sh < 0:
        return False
    return s0 + s1 + s2 + sh == _SETS_PAIR


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

    ``b`` is the 34 concealed counts as ``bytes``.
    """
    t0, t1, t2, th = _INFO
    k = b[0:9]
    i0 = t0.get(k) or _fill_info(0, k)
    k = b[9:18]
    i1 = t1.get(k) or _fill_info(1, k)
    k = b[18:27]
    i2 = t2.get(k) or _fill_info(2, k)
    k = b[27:34]
    ih = th.get(k) or _fill_info(3, k)
    s0 = i0[0]
    s1 = i1[0]
    s2 = i2[0]
    sh = ih[0]
    n_bad = (s0 < 0) + (s1 < 0) + (s2 < 0) + (sh < 0)
    if n_bad > 1:
        return 0
    n_pair = (s0 == _SETS_PAIR) + (s1 == _SETS_PAIR) + (s2 == _SETS_PAIR) + (sh == _SETS_PAIR)
    if n_bad:
        # only the one broken group can take the tile
        for info in (i0, i1, i2, ih):
            if info[0] < 0:
                if n_pair == 0:
                    return info[2]
                return info[1] if n_pair == 1 else 0
    if n_pair > 2:
        return 0
    mask = 0
    for info in (i0, i1, i2, ih):
        others_pair = n_pair - (info[0] == _SETS_PAIR)
        if others_pair == 0:
            mask |= info[2]
        elif others_pair == 1:
            mask |= info[1]
    return mask


_Z9 = bytes(9)
_Z7 = bytes(7)


def _irregular_possible(b: bytes) -> bool:
    """Cheap filter: can 13 concealed tiles (as bytes) be one tile from an irregular shape?"""
    zeros = b.count(0)
    if zeros >= 27:
        return True  # at most 7 kinds: seven pairs
    if zeros > 23:
        return False  # 8 to 10 kinds: no irregular shape within one tile
    if (b[0:9] != _Z9) + (b[9:18] != _Z9) + (b[18:27] != _Z9) <= 1:
        return True  # snakes / Peking garden
    return b[1:8] == _Z7 and b[10:17] == _Z7 and b[19:26] == _Z7  # thirteen orphans


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
    mask = _regular_waits(b)
    zeros = b.count(0) if n_melds == 0 else N_KINDS
    if (zeros >= 27 or zeros <= 23) and zeros < N_KINDS and sum(b) == 13:
        if zeros >= 27:  # at most 7 kinds: only seven pairs is possible, solved directly
            if duplicate_pairs:
                if b.count(1) + b.count(3) == 1:
                    single = b.find(1)
                    mask |= 1 << (single if single >= 0 else b.find(3))
            elif b.count(2) == 6 and b.count(1) == 1:
                mask |= 1 << b.find(1)
        elif zeros <= 23 and _irregular_possible(b):  # >= 11 kinds: orphans/snakes/garden
            c = list(b)
            for t in range(N_KINDS):
                if c[t] < 4 and not mask >> t & 1:
                    c[t] += 1
                    if _irregular_shapes(c, duplicate_pairs):
                        mask |= 1 << t
                    c[t] -= 1
    if not mask:
        return ()
    if held is None:
        held = b
    return tuple(t for t in range(N_KINDS) if mask >> t & 1 and held[t] < 4)


def is_waiting(
    counts: Sequence[int],
    *,
    n_melds: int = 0,
    held: Sequence[int] | None = None,
    duplicate_pairs: bool = True,
) -> bool:
    """True when :func:`waiting_tiles` is non-empty (the hand waits on a live tile)."""
    return bool(waiting_tiles(counts, n_melds=n_melds, held=held, duplicate_pairs=duplicate_pairs))
