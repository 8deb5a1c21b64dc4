"""Hand analysis: arrangements into sets, irregular shapes, completeness and waits.

Tiles are small ints (0-8 bamboo, 9-17 circles, 18-26 characters, 27-30 winds E S W N,
31-33 dragons green red white); a hand is a 34-length count vector.  Everything here is
pure and memoised per suit (9 counts of a suit, or the 7 honour counts), so the hot
paths never decompose a whole hand from scratch.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import cache
from itertools import product

__all__ = [
    "Block",
    "BlockKind",
    "arrangements",
    "set_arrangements",
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
