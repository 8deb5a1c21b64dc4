"""The wall: tile sets per table, building and opening by dice (NTS 2016 1.5-1.6, NMB 2009
'Beginsituatie', 'Verdelen van de stenen'), loose tiles and their refill, replenishing with
flowers ('Spelen met gelukstenen'), and walls laid out by hand."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from core_helpers import load

from build_helpers import pure_only
from mahjong_nts.core.errors import InvalidHand
from mahjong_nts.core.game import Game
from mahjong_nts.core.tiles import Tile
from mahjong_nts.core.wall import Wall, tile_set

TABLES = {
    # rule set: (tiles, players, stacks per side, dead wall)
    "nts-2016": (136, 4, 17, 14),
    "nts-2002": (136, 4, 17, 14),
    "nmb-2009": (136, 4, 17, 14),
    "rode-draak": (136, 4, 17, 14),
    "nmb-2009+flowers": (144, 4, 18, 14),
    "nts-2002+flowers": (144, 4, 18, 14),
    "nmb-2009+three-players": (96, 3, 16, 10),
    "nmb-2009+five-players": (136, 4, 17, 14),
    "nmb-2009+flowers+three-players": (104, 3, None, 10),
}


class ScriptedRng:
    """Dice as scripted; the shuffle either keeps the tile set's order or, with
    ``labels``, replaces every tile by its position, so a test sees where each went."""

    def __init__(self, dice: tuple[int, ...], labels: bool = False) -> None:
        self._dice: Iterator[int] = iter(dice)
        self._labels = labels

    def shuffle(self, x: list[Any]) -> None:
        if self._labels:
            x[:] = range(len(x))

    def randint(self, a: int, b: int) -> int:
        value = next(self._dice)
        assert a <= value <= b
        return value

    def getrandbits(self, k: int) -> int:
        return 0


@pytest.mark.parametrize("spec", TABLES)
def test_tile_set_per_table(spec: str) -> None:
    size, players, _, _ = TABLES[spec]
    rules = load(spec)
    tiles = tile_set(rules.table)
    assert len(tiles) == size
    counts = Counter(tiles)
    flowers = rules.table.flowers
    suits = "bk" if players == 3 else "bkt"
    winds = "ESW" if players == 3 else "ESWN"
    expected: Counter[Tile] = Counter()
    for letter in suits:
        for r in range(9):
            expected[Tile("bkt".index(letter) * 9 + r)] = 4
    for w in winds:
        expected[Tile(27 + "ESWN".index(w))] = 4
    for d in (Tile.GREEN, Tile.RED, Tile.WHITE):
        expected[d] = 4
    if flowers:
        for b in range(34, 42):
            expected[Tile(b)] = 1
    assert counts == expected


# -- opening the wall by dice -------------------------------------------------------------


def book_wall(
    players: int, side: int, dead_size: int, first: int, second: int
) -> tuple[list[int], list[int]]:
    """The book's procedure on stacks labelled by position, with the convention that
    stack ``i`` of the ring is (top ``2i``, bottom ``2i + 1``) and the ring runs in drawing
    order from East's wall.

    Players draw leftwards, so the ring runs clockwise (East's wall, then that of the
    player left of East, North, then West, South) and along each wall from its owner's
    right to his left.  East's throw counts counter-clockwise from East as one to the
    opener; the opener counts both throws off from the right of his wall (running on to
    the next wall on his left); that stack's two tiles become the loose tiles, the bottom
    one (nearest the live wall) first; the dead wall is the stacks right of the opening;
    the live wall runs from the left of the opening all the way round.  Loose tiles are
    refilled from the far end of the dead wall (docs/rules.md, NTS 2016, 1.6)."""
    owners = [0, *reversed(range(1, players))]
    opener = (first - 1) % players
    n = players * side
    opening = (owners.index(opener) * side + first + second - 1) % n
    right_of_opening = [(opening - i) % n for i in range(1, dead_size // 2)]
    dead = [2 * opening + 1, 2 * opening]
    for stack in reversed(right_of_opening):
        dead += [2 * stack + 1, 2 * stack]
    live: list[int] = []
    for i in range(1, n - len(right_of_opening)):
        stack = (opening + i) % n
        live += [2 * stack, 2 * stack + 1]
    return live, dead


def test_book_wall_by_hand() -> None:
    """One case worked out by hand: East throws 5 (5 = East again: East opens), East
    throws 7: 12 stacks from the right of East's wall, i.e. stack 11 (tiles 22, 23)."""
    live, dead = book_wall(4, 17, 14, 5, 7)
    assert dead == [23, 22, 11, 10, 13, 12, 15, 14, 17, 16, 19, 18, 21, 20]
    assert live[:4] == [24, 25, 26, 27]
    assert live[-2:] == [8, 9]  # the stack just right of the dead wall's far end
    assert len(live) == 122


@pytest.mark.parametrize(
    ("spec", "throws"),
    [
        ("nts-2016", (2, 3, 3, 4)),  # 5: East opens, count 12
        ("nts-2016", (3, 3, 1, 1)),  # 6: South opens, count 8
        ("nts-2016", (1, 2, 1, 1)),  # 3: West opens, count 5: the dead wall runs onto South's
        ("nts-2016", (2, 2, 1, 1)),  # 4: North opens, count 6
        ("nts-2016", (6, 6, 6, 6)),  # 12: North opens, count 24: runs on to West's wall
        ("nts-2016", (1, 1, 1, 1)),  # 2: South opens, count 4
        ("nmb-2009+flowers", (4, 5, 6, 3)),  # 9: East opens, count 18 on walls of 18
        ("nmb-2009+flowers", (6, 5, 2, 6)),  # 11: West opens, count 19
        ("nmb-2009+three-players", (1, 2, 2, 2)),  # 3 at three players: West opens
        ("nmb-2009+three-players", (2, 2, 6, 6)),  # 4: East opens, count 16
        ("nmb-2009+three-players", (1, 1, 1, 1)),  # 2: South opens, count 4
    ],
)
def test_wall_opened_as_the_book_says(spec: str, throws: tuple[int, int, int, int]) -> None:
    _, players, side, dead_size = TABLES[spec]
    assert side is not None
    table = load(spec).table
    wall = Wall(table, ScriptedRng(throws, labels=True))
    first, second = throws[0] + throws[1], throws[2] + throws[3]
    assert wall.dice is not None
    assert (wall.dice.first, wall.dice.second) == (first, second)
    live, dead = wall.remaining()
    assert (list(live), list(dead)) == book_wall(players, side, dead_size, first, second)


@pytest.mark.parametrize("spec", TABLES)
def test_random_walls_hold_the_tile_set(spec: str) -> None:
    size, _, _, dead_size = TABLES[spec]
    table = load(spec).table
    for seed in range(30):
        wall = Wall(table, random.Random(seed))
        live, dead = wall.remaining()
        assert len(dead) == dead_size == wall.dead_left
        assert len(live) == size - dead_size == wall.live_left
        assert Counter((*live, *dead)) == Counter(tile_set(table))


# -- the deal -------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["nts-2016", "nmb-2009+three-players", "nmb-2009+five-players"])
def test_deal_takes_blocks_of_four_then_one_east_fourteen(spec: str) -> None:
    """'Oost begint nu met vier stenen uit de muur te nemen ... Hierna volgen Zuid, West en
    Noord.  Ieder neemt in totaal dertien stenen - drie keer vier en eenmaal één ... Oost
    neemt een veertiende steen' (NTS 2016 1.6)."""
    rules = load(spec)
    throws = (3, 4, 2, 5)
    live, _ = Wall(rules.table, ScriptedRng(throws)).remaining()
    game = Game(rules, ScriptedRng(throws))
    n = rules.table.players
    expected: list[list[Tile]] = [[] for _ in range(n)]
    pos = 0
    for _ in range(3):
        for s in range(n):
            expected[s] += live[pos : pos + 4]
            pos += 4
    for s in range(n):
        expected[s].append(live[pos])
        pos += 1
    expected[0].append(live[pos])
    pos += 1
    for s in range(n):
        assert sorted(game.concealed(s)) == sorted(expected[s])
        assert len(game.concealed(s)) == (14 if s == 0 else 13)
    assert game.tile == expected[0][-1]  # East's drawn tile: his last dealt one
    assert game.wall.live_left == len(live) - pos
    assert game.current_seat == 0 and game.legal_actions()


# -- loose tiles and their refill -----------------------------------------------------------


@pure_only("a wall of labels (ScriptedRng(labels=True)): the compiled wall draws Tiles")
def test_loose_tiles_are_not_replenished_without_flowers() -> None:
    """'wordt de dode muur niet aangevuld uit de levende muur' (NTS 2016 1.6)."""
    wall = Wall(load("nts-2016").table, ScriptedRng((1, 1, 1, 1), labels=True))
    live, dead = wall.remaining()
    taken = [wall.draw_loose() for _ in range(14)]
    assert taken == list(dead)
    assert wall.dead_left == 0
    assert wall.remaining()[0] == live


@pure_only("a wall of labels (ScriptedRng(labels=True)): the compiled wall draws Tiles")
def test_flowers_replenish_the_dead_wall_from_the_live_wall() -> None:
    """'De dode muur wordt altijd aangevuld tot 14 stenen met stenen uit de levende muur'
    ('Spelen met gelukstenen'): each loose tile taken is replaced by the live wall's last
    tile, which goes to the end of the loose-tile order, until the live wall is empty."""
    wall = Wall(load("nmb-2009+flowers").table, ScriptedRng((2, 2, 3, 3), labels=True))
    live, dead = wall.remaining()
    first = wall.draw_loose()
    assert first == dead[0]
    after_live, after_dead = wall.remaining()
    assert after_live == live[:-1]
    assert after_dead == (*dead[1:], live[-1])
    while wall.live_left:
        wall.draw()
    wall.draw_loose()
    assert wall.dead_left == 13


# -- walls laid out by hand ----------------------------------------------------------------


def test_stacked_wall_keeps_the_order_given() -> None:
    table = load("nts-2016").table
    tiles = list(tile_set(table))
    random.Random(4).shuffle(tiles)
    wall = Wall.stacked(table, tiles[14:], tiles[:14])
    assert wall.dice is None
    assert wall.remaining() == (tuple(tiles[14:]), tuple(tiles[:14]))
    assert wall.draw() == tiles[14]
    assert wall.draw_loose() == tiles[0]


def test_stacked_wall_must_be_the_tile_set() -> None:
    table = load("nts-2016").table
    tiles = list(tile_set(table))
    with pytest.raises(InvalidHand, match="dead wall has 14 tiles"):
        Wall.stacked(table, tiles[13:], tiles[:13])
    wrong = [*tiles[:-1], Tile.B1]  # a fifth b1 instead of the last white dragon
    with pytest.raises(InvalidHand, match=r"extra \[b1\], missing \[P\]"):
        Wall.stacked(table, wrong[14:], wrong[:14])
    with pytest.raises(InvalidHand, match="missing"):
        Wall.stacked(table, tiles[14:-1], tiles[:14])
