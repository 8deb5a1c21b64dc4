"""win_value: "if I win on this tile, may I go mahjong, and for how much?" in one call.

Every expected value is worked out by hand from the rules (nts-2016 and nmb-2009 as
summarised in docs/rules.md: points, doublings, the two doublings a mahjong needs, East
paying and receiving double, the discarder paying double under nmb-2009).
"""

from __future__ import annotations

import dataclasses

import pytest

from bots.bot_helpers import make_obs
from mahjong_nts.core.errors import InvalidHand
from mahjong_nts.core.game import Phase
from mahjong_nts.core.notation import parse_tiles
from mahjong_nts.core.tiles import Tile
from mahjong_nts.core.winvalue import WinValue, win_value
from mahjong_nts.formats.rulefiles import load_ruleset

S_TILE = parse_tiles("S")[0]
T5 = parse_tiles("t5")[0]

# South (seat 1), East round: three chows and b789, single wait on South (own wind)
CHOWS = "b234 k567 t345 b789 S"


def test_four_chows_on_a_discard_has_one_doubling_only() -> None:
    # on a discard: four chows is the only doubling (1 < 2): no mahjong
    obs = make_obs(CHOWS, ["mahjong", "pass"], seat=1, phase=Phase.CLAIM, offered="S")
    v = win_value(obs, S_TILE, self_drawn=False)
    assert isinstance(v, WinValue)
    assert not v.allowed and v.balance == 0
    assert v.doublings == 1
    assert v.reason is not None and "2" in v.reason
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.allowed = True  # type: ignore[misc]


def test_four_chows_self_drawn_is_worth_224_and_896_to_south() -> None:
    # points: mahjong 20 + self-drawn 2 + only possible tile 2 + completes the pair 2 +
    # pair of the own wind 2 = 28; doublings: fully concealed 2 + four chows 1 = 3;
    # 28 x 8 = 224.  South receives it from West and North, twice from East: 896.
    obs = make_obs(CHOWS, ["discard S"], seat=1)
    v = win_value(obs, S_TILE, self_drawn=True)
    assert v.allowed and v.reason is None
    assert (v.points, v.doublings, v.score, v.limit_hand) == (28, 3, 224, None)
    assert v.balance == 896
    # the same with the tile already in the 14 on turn
    obs14 = make_obs(CHOWS + " S", ["mahjong", "discard S"], seat=1)
    assert win_value(obs14, S_TILE, self_drawn=True).balance == 896


OPEN = {1: ["[CCC]", "[SSS]"]}
"""South's open pungs of red dragons and of South (own wind): two doublings."""


def test_open_pungs_of_dragons_and_own_wind_on_a_discard() -> None:
    # b234 t34 FF + t5 from East: mahjong 20 + open pung of dragons 4 + open pung of
    # winds 4 + pair of dragons 2 = 30 points (t34 waits on t2 and t5: not the only
    # tile); doublings: dragons 1 + own wind 1 = 2; 30 x 4 = 120.  East pays double:
    # 240 + 120 + 120 = 480.
    obs = make_obs(
        "b234 t34 FF", ["mahjong", "pass"], seat=1, phase=Phase.CLAIM, offered="t5", melds=OPEN
    )
    v = win_value(obs, T5, self_drawn=False)
    assert v.allowed
    assert (v.points, v.doublings, v.score) == (30, 2, 120)
    assert v.balance == 480


def test_nmb_2009_the_discarder_pays_double_and_east_does_not() -> None:
    # nmb-2009 values the same items alike here (30 points, 2 doublings: 120); East does
    # not pay double, the discarder does.  From West (seat 2): 2 x 120 + 120 + 120 = 480;
    # self-drawn the self-drawn tile is worth 15: 45 x 4 = 180 from each = 540.
    rules = load_ruleset("nmb-2009")
    obs = make_obs("b234 t34 FF", ["discard F"], seat=1, melds=OPEN, rules=rules)
    on_discard = win_value(obs, T5, self_drawn=False, discarder=2)
    assert (on_discard.score, on_discard.balance) == (120, 480)
    self_drawn = win_value(obs, T5, self_drawn=True)
    assert (self_drawn.points, self_drawn.score, self_drawn.balance) == (45, 180, 540)


def test_a_tile_that_completes_nothing() -> None:
    obs = make_obs(CHOWS, ["discard S"], seat=1)
    v = win_value(obs, T5, self_drawn=True)
    assert not v.allowed and v.result is None and v.balance == 0
    assert v.reason is not None and "t5" in v.reason
    assert v.reason.template.startswith("{tile} does not complete")


def test_a_what_if_hand_and_bad_questions() -> None:
    obs = make_obs(CHOWS, ["discard S"], seat=1)
    # discard t3 for k8 instead: b234 k567 t45 b789 k8 S, not ready: no win on S
    other = parse_tiles("b234 k567 t45 b789 k8 S")
    assert not win_value(obs, S_TILE, self_drawn=True, concealed=other).allowed
    with pytest.raises(InvalidHand, match="13 tiles"):
        win_value(obs, S_TILE, self_drawn=True, concealed=parse_tiles("b234"))
    with pytest.raises(InvalidHand, match="not a playing tile"):
        win_value(obs, 40, self_drawn=True)
    obs14 = make_obs(CHOWS + " S", ["discard S"], seat=1)
    with pytest.raises(InvalidHand, match="not among the 14"):
        win_value(obs14, parse_tiles("k9")[0], self_drawn=True)


def test_a_dead_hand_cannot_win() -> None:
    obs = make_obs(CHOWS, ["discard S"], seat=1)
    views = list(obs.seats)
    views[1] = dataclasses.replace(views[1], dead=True)
    dead = dataclasses.replace(obs, seats=tuple(views))
    v = win_value(dead, S_TILE, self_drawn=True)
    assert not v.allowed and v.reason is not None and "dead" in v.reason


def test_east_receives_double_from_everyone() -> None:
    # the same four chows for East (seat 0) with a single wait on North (no value to
    # East in the East round): 20 + 2 + 2 + 2 = 26 points, 3 doublings: 208; East
    # receives double from each of three: 6 x 208 = 1248.  (A discard lies on the
    # table: not East's dealt tiles, so no heavenly hand.)
    obs = make_obs("b234 k567 t345 b789 N", ["discard N"], seat=0, discards={3: "b1"})
    v = win_value(obs, Tile.NORTH, self_drawn=True)
    assert (v.points, v.doublings, v.score, v.balance) == (26, 3, 208, 1248)
