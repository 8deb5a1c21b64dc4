"""The wall: tiles shuffled, built into walls of stacks, opened by dice.

The book's procedure (NTS 2016, 1.6): East throws two dice and counts
counter-clockwise from himself (East is one) to find the player who opens the
wall; that player throws again, adds both throws and counts that many stacks
from the right of his own wall.  The stack found is lifted out and its two tiles
become the loose tiles on the dead wall, right of the opening.  The dead wall is
the first ``dead_wall`` tiles right of the opening (loose tiles included); the
live wall is drawn from the left of the opening, all the way round.  When both
loose tiles are used, the next stack from the dead wall's far end goes on top.
With the flowers option the dead wall is topped up from the live wall's end.

Here the ring of stacks is numbered in drawing order, so the live wall is a
sequence drawn from its front, and the dead wall is a sequence whose order is
the order loose tiles are taken.  Each player draws leftwards along a wall (from
his own view), so the drawing order runs clockwise round the table, against the
order of play: East's wall, then North's (the player left of East), West's,
South's; and it runs along each wall from its owner's right to his left, so the
opener's count "from the right" runs in drawing order.  A :class:`Wall` is mutable game
state; its tiles come from an injected :class:`Rng`
(:class:`~mahjong_nts.core.seeding.SeedRng`), never a global one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

from mahjong_nts.core.errors import InvalidHand
from mahjong_nts.core.rules import TableRules
from mahjong_nts.core.text import N_
from mahjong_nts.core.tiles import BONUS_TILES, Tile

__all__ = ["Dice", "Rng", "Wall", "tile_set"]


class Rng(Protocol):
    """The chance the core needs, injected by the caller (``SeedRng(seed)``: the wall is then a
    published function of the seed; any object with these methods will do in tests)."""

    def shuffle(self, x: list[Any], /) -> None: ...

    def randint(self, a: int, b: int, /) -> int: ...

    def getrandbits(self, k: int, /) -> int: ...


_SUIT_BASE = {"b": 0, "k": 9, "t": 18}
_WIND_TILE = {"E": Tile.EAST, "S": Tile.SOUTH, "W": Tile.WEST, "N": Tile.NORTH}
_DRAGON_TILES = (Tile.GREEN, Tile.RED, Tile.WHITE)


def tile_set(table: TableRules) -> tuple[Tile, ...]:
    """Every tile of the table's set, four of each kind (one of each flower/season)."""
    kinds: list[Tile] = []
    for letter in table.suits:
        base = _SUIT_BASE[letter]
        kinds.extend(Tile(base + r) for r in range(9))
    kinds.extend(_WIND_TILE[w] for w in table.winds)
    kinds.extend(_DRAGON_TILES)
    tiles = [t for t in kinds for _ in range(4)]
    if table.flowers:
        tiles.extend(BONUS_TILES)
    return tuple(tiles)


@dataclass(frozen=True, slots=True)
class Dice:
    """The two throws that open the wall (each the sum of two dice)."""

    first: int
    """East's throw: counting counter-clockwise from East, it picks the opener."""
    second: int
    """The opener's throw, added to the first to count stacks on his wall."""

    def opener(self, sides: int) -> int:
        """Seat (0 = East) whose wall is opened."""
        return (self.first - 1) % sides


def _side_lengths(stacks: int, sides: int, wall_length: int) -> list[int]:
    """Stacks in each side: ``wall_length`` each when the tiles fill them exactly,
    else as equal as possible (the 3-player table with flowers: the book gives no
    layout; see the flowers rule-set notes)."""
    if stacks == sides * wall_length:
        return [wall_length] * sides
    base, extra = divmod(stacks, sides)
    return [base + (1 if i < extra else 0) for i in range(sides)]


_WallParts = tuple[list[Tile], int, int, list[Tile], "Dice | None", bool]
"""A wall's state: live wall, position, end, dead wall, dice, replenish."""


class Wall:
    """Live wall and dead wall of one hand, in drawing order."""

    __slots__ = ("_dead", "_end", "_live", "_pos", "dice", "replenish")

    _live: list[Tile]
    _dead: list[Tile]
    dice: Dice | None
    """The throws that opened the wall (``None`` for a :meth:`stacked` wall)."""

    def __init__(self, table: TableRules, rng: Rng) -> None:
        """Shuffle ``table``'s tile set with ``rng``, throw the dice, open the wall."""
        # object, not Tile: the shuffle is the caller's (tests/core/test_wall.py labels
        # each tile with its position), and a compiled build checks a Tile's type (nor
        # int: compiled, an int variable keeps the number, not the Tile)
        tiles: list[object] = list(tile_set(table))
        rng.shuffle(tiles)
        sides = table.players
        lengths = _side_lengths(len(tiles) // 2, sides, table.wall_length)
        d = Dice(rng.randint(1, 6) + rng.randint(1, 6), rng.randint(1, 6) + rng.randint(1, 6))
        self.dice = d
        self.replenish = table.dead_wall_replenish
        # Stacks numbered in drawing order round the ring, side by side starting
        # with East's wall, then clockwise (North's, West's, South's); each stack
        # is (top, bottom).
        ring = [(tiles[2 * i], tiles[2 * i + 1]) for i in range(len(tiles) // 2)]
        n = len(ring)
        side = -d.opener(sides) % sides
        start = sum(lengths[:side])
        # The opener counts from the right end of his wall, the first of his side
        # in drawing order; the count may run on to the next wall on his left.
        opening = (start + d.first + d.second - 1) % n
        loose = ring[opening]
        dead_stacks = (table.dead_wall - 2) // 2
        # Right of the opening, against drawing order: opening-1, opening-2, ...
        dead_ring = [ring[(opening - 1 - i) % n] for i in range(dead_stacks)]
        # Loose tiles: the one nearest the live wall (the bottom one) first; then
        # stacks from the dead wall's far end, bottom tile first again.
        dead: list[object] = [loose[1], loose[0]]
        for top, bottom in reversed(dead_ring):
            dead.extend((bottom, top))
        live: list[object] = []
        for i in range(n - 1 - dead_stacks):
            top, bottom = ring[(opening + 1 + i) % n]
            live.extend((top, bottom))
        if len(tiles) % 2:  # an odd tile set: the last tile lies on its own at the end
            live.append(tiles[-1])
        self._live = cast(list[Tile], live)
        self._pos = 0
        self._end = len(live)
        self._dead = cast(list[Tile], dead)

    @classmethod
    def stacked(cls, table: TableRules, live: Sequence[int], dead: Sequence[int]) -> Wall:
        """A wall laid out in a chosen order (tests, puzzles, a position to study):
        ``live`` in drawing order, the deal included; ``dead`` in loose-tile order,
        ``table.dead_wall`` tiles.  Together they must be exactly the table's tile
        set (:func:`tile_set`); else :class:`InvalidHand` says what is wrong.  Such a
        wall has no dice (``dice`` is ``None``)."""
        if len(dead) != table.dead_wall:
            raise InvalidHand(
                N_("the dead wall has {want} tiles at this table, not {count}"),
                want=table.dead_wall,
                count=len(dead),
            )
        want = Counter(int(t) for t in tile_set(table))
        got = Counter(int(t) for t in (*live, *dead))
        if got != want:
            extra = ", ".join(Tile(t).token for t in sorted((got - want).elements()))
            missing = ", ".join(Tile(t).token for t in sorted((want - got).elements()))
            raise InvalidHand(
                N_("the walls are not the table's tile set: extra [{extra}], missing [{missing}]"),
                extra=extra or "-",
                missing=missing or "-",
            )
        stacked = [Tile(t) for t in live]
        parts = (stacked, 0, len(stacked), [Tile(t) for t in dead], None, table.dead_wall_replenish)
        return _GivenWall(parts)

    @property
    def live_left(self) -> int:
        """Tiles left in the live wall."""
        return self._end - self._pos

    @property
    def dead_left(self) -> int:
        """Tiles left in the dead wall."""
        return len(self._dead)

    def draw(self) -> Tile:
        """The next tile from the live wall (the caller checks :attr:`live_left`)."""
        t = self._live[self._pos]
        self._pos += 1
        return t

    def draw_loose(self) -> Tile:
        """A loose tile from the dead wall, topping it up from the live wall's end
        when the rule set replenishes it (the caller checks :attr:`dead_left`)."""
        t = self._dead.pop(0)
        if self.replenish and self._end > self._pos:
            self._end -= 1
            self._dead.append(self._live[self._end])
        return t

    def remaining(self) -> tuple[tuple[Tile, ...], tuple[Tile, ...]]:
        """The tiles not yet drawn: (live wall in drawing order, dead wall in loose-tile order)."""
        return tuple(self._live[self._pos : self._end]), tuple(self._dead)

    def copy(self) -> Wall:
        parts = (self._live, self._pos, self._end, list(self._dead), self.dice, self.replenish)
        return _GivenWall(parts)


class _GivenWall(Wall):
    """A wall made from its state (:meth:`Wall.stacked`, :meth:`Wall.copy`), not dealt:
    a subclass with its own ``__init__``, as a compiled (mypyc) class is made only by
    its ``__init__`` (no ``object.__new__``)."""

    __slots__ = ()

    def __init__(self, parts: _WallParts) -> None:
        self._live, self._pos, self._end, self._dead, self.dice, self.replenish = parts
