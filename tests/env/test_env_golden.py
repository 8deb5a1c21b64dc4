"""Golden tests of observation layout 1 (docs/env.md): recorded positions, encoded by
hand from the layout table, never copied from the encoder's output.  A change of layout
is a new version with its own golden tests; these stay as they are.

The position (NTS 2016 1.8.2, "Pungen is ... voor iedere speler toegestaan"): East lets
W go, nobody can use it; South draws C (red dragon) and lets it go; West, holding two,
is asked and pungs it; West then must discard.  The rest of the wall is the table's
other tiles in tile order (dead wall first), so the walls' sizes are known:
136 tiles - 53 dealt - 14 dead wall = 69 in the live wall, 68 once South has drawn.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from mahjong_nts.core.actions import parse_action
from mahjong_nts.core.game import Game
from mahjong_nts.core.notation import parse_tiles
from mahjong_nts.core.observation import observe
from mahjong_nts.core.tiles import Tile
from mahjong_nts.core.wall import tile_set
from mahjong_nts.env.encoding import LAYOUT, LAYOUT_VERSION, OBS_SIZE, action_mask, encode
from mahjong_nts.formats.rulefiles import load_ruleset

EAST = "k1 k2 k4 k5 k7 k8 t7 t8 S N b7 b8 b9 W"
SOUTH = "t1 t4 t7 k3 k6 k9 b2 b8 S N W F P"
WEST = "C C b1 b3 b5 k1 k4 k7 t2 t5 t8 E F"
NORTH = "b4 b6 k2 k5 k8 t3 t6 t9 E P P S t1"


def _position(after: tuple[str, ...]) -> Game:
    rules = load_ruleset("nts-2016")
    dealt = [list(parse_tiles(h)) for h in (EAST, SOUTH, WEST, NORTH)]
    pool = Counter(int(t) for t in tile_set(rules.table))
    pool.subtract(int(t) for h in dealt for t in h)
    pool[Tile.RED] -= 1  # South's draw
    rest = [Tile(t) for t in sorted(pool.elements())]
    game = Game.from_deal(rules, dealt, [Tile.RED, *rest[14:]], rest[:14])
    for text in after:
        game.apply(parse_action(text))
    return game


def test_the_layout_is_version_1_of_858_values() -> None:
    """The section sizes of docs/env.md, added up: 3 x 34 (hand, drawn, offered),
    4 x 34 melds, 4 face-down kongs, 4 x 34 discards, 136 x 3 history, 4 x 8 bonus
    tiles, 4 concealed counts, 3 wall, 5 round wind, 4 seat wind, 4 phase, 4 x 5 seat
    flags and scores."""
    assert LAYOUT_VERSION == 1
    assert OBS_SIZE == 102 + 136 + 4 + 136 + 408 + 32 + 4 + 3 + 5 + 4 + 4 + 4 * 5 == 858
    assert (LAYOUT["MELDS"].start, LAYOUT["HISTORY"].start, LAYOUT["SCORES"].start) == (
        102,
        378,
        854,
    )


def _expected_common(x: np.ndarray, *, live: int) -> None:
    """What every seat's array holds in these positions beside its own parts."""
    x[LAYOUT["WALL"]] = (live, 14, 0)
    x[LAYOUT["ROUND_WIND"].start + 0] = 1  # East round
    x[LAYOUT["SEATS_IN_PLAY"]] = 1


def test_west_on_turn_after_its_pung() -> None:
    game = _position(("discard W", "discard C", "pung C"))
    obs = observe(game, 2)
    x = np.zeros(OBS_SIZE, dtype=np.float32)
    # own hand: b1 b3 b5 k1 k4 k7 t2 t5 t8 E F (b 0-8, k 9-17, t 18-26, E 27, F 31)
    for t in (0, 2, 4, 9, 12, 15, 19, 22, 25, 27, 31):
        x[t] = 1
    x[102 + 0 * 34 + 32] = 3  # its own meld (relative seat 0): a pung of C (32)
    x[242 + 2 * 34 + 29] = 1  # East is relative seat 2 ((0 - 2) % 4); its discard W (29)
    # history: W (29 + 1) from East (rel 2, + 1), not claimed; C (32 + 1) from South
    # (rel 3, + 1) claimed by West itself (rel 0, + 1)
    x[378:384] = (30, 3, 0, 33, 4, 1)
    x[818:822] = (11, 13, 13, 13)  # concealed tiles: itself, North, East, South
    _expected_common(x, live=68)
    x[830 + 2] = 1  # seat wind West
    x[834 + 0] = 1  # phase: turn
    np.testing.assert_array_equal(encode(obs), x)
    # after a claim West discards (1.8.2): one of its eleven kinds, ids 2 + tile
    mask = np.zeros(172, dtype=np.int8)
    mask[[2 + t for t in (0, 2, 4, 9, 12, 15, 19, 22, 25, 27, 31)]] = 1
    np.testing.assert_array_equal(action_mask(obs), mask)


@pytest.mark.parametrize("seat", [0, 2])
def test_the_claim_window_on_south_s_c(seat: int) -> None:
    """West is asked: it sees the red dragon on offer and may pung or pass.  East, not
    asked, sees the neutral view: South's C on its discards, a turn, nothing to do."""
    game = _position(("discard W", "discard C"))
    obs = observe(game, seat)
    x = np.zeros(OBS_SIZE, dtype=np.float32)
    mask = np.zeros(172, dtype=np.int8)
    _expected_common(x, live=68)
    x[830 + seat] = 1
    if seat == 2:
        for t in (0, 2, 4, 9, 12, 15, 19, 22, 25, 27, 31):
            x[t] = 1
        x[32] = 2  # two C in hand
        x[68 + 32] = 1  # offered: C
        x[242 + 2 * 34 + 29] = 1  # East (rel 2) discarded W
        x[242 + 3 * 34 + 32] = 1  # South (rel 3) discarded C
        x[378:384] = (30, 3, 0, 33, 4, 0)
        x[818:822] = (13, 13, 13, 13)
        x[834 + 1] = 1  # phase: claim
        mask[0] = mask[2 + 3 * 34 + 32] = 1  # pass; pung C (id 2 + 3 x 34 + 32 = 136)
    else:
        # East: k1 k2 k4 k5 k7 k8 t7 t8 S N b7 b8 b9 after letting W go
        for t in (9, 10, 12, 13, 15, 16, 24, 25, 28, 30, 6, 7, 8):
            x[t] = 1
        x[242 + 0 * 34 + 29] = 1  # its own W
        x[242 + 1 * 34 + 32] = 1  # South (rel 1) discarded C
        x[378:384] = (30, 1, 0, 33, 2, 0)
        x[818:822] = (13, 13, 13, 13)
        x[834 + 0] = 1  # the neutral view: a turn (South's), not a window
    np.testing.assert_array_equal(encode(obs), x)
    np.testing.assert_array_equal(action_mask(obs), mask)
