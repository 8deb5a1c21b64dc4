"""Impossible set-ups of a hand: the round wind must be one the table plays (NTS 2016 1.9:
East, South, West, North rounds; NTS 2002 'Ronde en de windrichting': every round East's;
NMB 2009 'Drie spelers': three winds, and the round of the green dragon), and the dominant
player exists exactly in a green-dragon hand, as a seat of the table ('In deze ronde is er
geen heersende wind, maar een heersende draak', NMB 2009 'Drie spelers')."""

from __future__ import annotations

import random
from typing import Any

import pytest
from core_helpers import load
from game_helpers import chosen_deal

from mahjong_nts.core.errors import InvalidSetup
from mahjong_nts.core.game import Game
from mahjong_nts.core.seeding import SeedRng
from mahjong_nts.core.tiles import Tile

E, S, W, N, G = Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH, Tile.GREEN


def both_ways(spec: str, round_wind: Any, dominant: Any) -> list[Game]:
    """The hand set up with ``Game(...)`` and with ``Game.from_deal(...)``."""
    rules = load(spec)
    dealt, live, dead = chosen_deal(rules, [None] * rules.table.players, filler=3)
    return [
        Game(rules, SeedRng(1), round_wind=round_wind, dominant=dominant),
        Game.from_deal(rules, dealt, live, dead, round_wind=round_wind, dominant=dominant),
    ]


@pytest.mark.parametrize(
    ("spec", "round_wind", "dominant"),
    [
        ("nts-2016", E, None),
        ("nts-2016", N, None),
        ("nts-2002", E, None),
        ("rode-draak", E, None),
        ("nmb-2009+three-players", W, None),
        ("nmb-2009+three-players", G, 0),
        ("nmb-2009+three-players", G, 2),
        ("nts-2016+three-players", G, 1),
        ("nmb-2009+five-players", N, None),
        ("nmb-2009+five-players", G, 3),
    ],
)
def test_possible_set_ups_are_dealt(spec: str, round_wind: Tile, dominant: int | None) -> None:
    for game in both_ways(spec, round_wind, dominant):
        assert game.round_wind is round_wind and game.dominant == dominant


@pytest.mark.parametrize(
    ("spec", "round_wind", "dominant", "message"),
    [
        # the regression of the issue: a dominant seat that does not exist
        ("nmb-2009+three-players", G, 7, r"dominant player, a seat 0\.\.2 \(not 7\)"),
        ("nmb-2009+three-players", G, 3, r"a seat 0\.\.2 \(not 3\)"),
        ("nmb-2009+three-players", G, -1, r"a seat 0\.\.2 \(not -1\)"),
        ("nmb-2009+five-players", G, 4, r"a seat 0\.\.3 \(not 4\)"),  # the dreamer sits out
        ("nmb-2009+three-players", G, None, "dominant player, a seat 0..2 .none given"),
        ("nmb-2009+three-players", G, True, r"\(not True\)"),
        ("nmb-2009+three-players", G, 1.0, r"\(not 1\.0\)"),
        ("nmb-2009+three-players", G, "1", r"\(not '1'\)"),
        # a dominant player outside a green-dragon hand
        ("nts-2016", E, 7, "only a green-dragon hand has a dominant player"),
        ("nmb-2009+three-players", S, 1, "only a green-dragon hand has a dominant player"),
        # round winds the table does not play
        ("nts-2016", G, 0, "nts-2016 plays no green-dragon hands"),
        ("nmb-2009+three-players", N, None, "round winds of .* are E S W, or F in a green"),
        ("nts-2002", S, None, "round winds of nts-2002 are E$"),
        ("rode-draak", W, None, "round winds of rode-draak are E$"),
        ("nts-2016", Tile.RED, None, "round wind C: the round winds of nts-2016 are E S W N$"),
        ("nts-2016", Tile.B1, None, "round wind b1"),
        ("nts-2016", Tile.F1, None, "round wind f1"),
        ("nts-2016", 99, None, "round_wind 99 is not a tile"),
        ("nts-2016", -1, None, "round_wind -1 is not a tile"),
        ("nts-2016", True, None, "not True"),
        ("nts-2016", "E", None, "not 'E'"),
        ("nts-2016", None, None, "not None"),
    ],
)
def test_impossible_set_ups_are_refused(
    spec: str, round_wind: Any, dominant: Any, message: str
) -> None:
    rules = load(spec)
    dealt, live, dead = chosen_deal(rules, [None] * rules.table.players, filler=3)
    rng = SeedRng(1)
    with pytest.raises(InvalidSetup, match=message) as info:
        Game(rules, rng, round_wind=round_wind, dominant=dominant)
    assert len(str(info.value)) < 150
    assert rng._pos == 0, "refused before the wall was shuffled"
    with pytest.raises(InvalidSetup, match=message):
        Game.from_deal(rules, dealt, live, dead, round_wind=round_wind, dominant=dominant)


def test_a_huge_dominant_is_described_not_printed() -> None:
    """Python refuses to print an int of more than 4300 digits (a plain ValueError)."""
    with pytest.raises(InvalidSetup, match="not a whole number of about 5001 digits"):
        Game(load("nmb-2009+three-players"), SeedRng(1), round_wind=G, dominant=10**5000)


def test_invalid_setup_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="dominant"):
        Game(load("nts-2016"), random.Random(0), dominant=0)
