"""Bad actions: a malformed action raises InvalidAction, a well-formed one not allowed now
raises IllegalAction, and either way the hand is left exactly as it was (Game.apply's
promise).  Under the book's rule a false 'mahjong' is no bad action: it is accepted and
makes the hand dead (test_game_dead)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from core_helpers import load
from game_helpers import deal, game_after, snapshot
from hypothesis import given, settings
from hypothesis import strategies as st

from mahjong_nts.core.actions import NUM_ACTIONS, Action, ActionKind, parse_action
from mahjong_nts.core.errors import IllegalAction, InvalidAction, InvalidHand
from mahjong_nts.core.game import Game
from mahjong_nts.core.tiles import Tile

SPECS = ["nts-2016", "nmb-2009+flowers", "nmb-2009+three-players"]
WORDS = ["pass", "mahjong", "discard", "kong", "chow", "pung"]
TOKENS = [t.token for t in Tile] + ["b0", "k10", "x", "O", "Z", "13", "F1", "green"]


bad_inputs = st.one_of(
    st.integers(min_value=0, max_value=NUM_ACTIONS - 1),  # ids: mostly not legal now
    st.integers(min_value=-(10**9), max_value=10**9),
    st.builds(lambda w, t: f"{w} {t}", st.sampled_from(WORDS), st.sampled_from(TOKENS)),
    st.sampled_from(WORDS),
    st.text(max_size=12),
    st.builds(lambda w: f"{w} b1 b2", st.sampled_from(WORDS)),
    st.builds(
        lambda k, t: Action(k, t) if ActionKind(k).has_tile else Action(k),
        st.sampled_from(list(ActionKind)),
        st.sampled_from([t for t in Tile if t < 34 and not (t >= 27 or t % 9 > 6)]),
    ),
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True),
    st.binary(max_size=4),
    st.lists(st.integers(), max_size=2),
    st.tuples(st.sampled_from(list(ActionKind)), st.integers(0, 33)),
)


def accepted(game: Game, x: Any) -> bool:
    """Would ``apply(x)`` be accepted?  (Mirrors the contract, not the code: a legal
    action, or a false mahjong where the table makes it a dead hand.)"""
    try:
        if isinstance(x, str):
            act = parse_action(x)
        elif isinstance(x, int) and not isinstance(x, bool):
            act = Action.from_id(x)
        elif isinstance(x, Action):
            act = x
        else:
            return False
    except InvalidAction:
        return False
    if game.is_over:
        return False
    if act in game.legal_actions():
        return True
    return (
        act.kind is ActionKind.MAHJONG
        and game.rules.table.false_mahjong == "dead_hand"
        and not game.dead[game.current_seat]
    )


@settings(max_examples=400)
@given(
    spec=st.sampled_from(SPECS),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 160),
    x=bad_inputs,
)
def test_bad_actions_raise_and_change_nothing(spec: str, seed: int, steps: int, x: Any) -> None:
    game = game_after(spec, seed, steps)
    check_rejected(game, x)


@settings(max_examples=300)
@given(
    spec=st.sampled_from(SPECS),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 160),
    window=st.booleans(),
    x=st.integers(min_value=0, max_value=NUM_ACTIONS - 1),
)
def test_well_formed_actions_not_allowed_now_change_nothing(
    spec: str, seed: int, steps: int, window: bool, x: int
) -> None:
    """The same with well-formed actions only, in claim windows half of the time."""
    game = game_after(spec, seed, steps, window)
    check_rejected(game, x)
    try:
        act = Action.from_id(x)
    except InvalidAction:  # an id slot with no action: a chow of b8, an honour, ...
        return
    check_rejected(game, str(act))
    check_rejected(game, Action(act.kind, act.tile))


def check_rejected(game: Game, x: Any) -> None:
    if accepted(game, x):
        return
    before = snapshot(game)
    with pytest.raises((InvalidAction, IllegalAction)):
        game.apply(x)
    assert snapshot(game) == before


@pytest.mark.parametrize(
    ("x", "error", "message"),
    [
        ("", InvalidAction, "empty action"),
        ("discard", InvalidAction, "needs a tile"),
        ("pass b1", InvalidAction, "takes no tile"),
        ("chow b8", InvalidAction, "lowest tile"),
        ("discard f1", InvalidAction, "never played"),
        ("discard b1 b2", InvalidAction, "too many words"),
        ("swap b1", InvalidAction, "unknown action"),
        ("discard q9", InvalidAction, "q9"),
        (NUM_ACTIONS, InvalidAction, "not an action id"),
        (-1, InvalidAction, "not an action id"),
        (None, InvalidAction, "not a NoneType"),
        (1.0, InvalidAction, "not a float"),
        ([0] * 10**6, InvalidAction, "not a list$"),  # named by its type, never echoed
        ("pung b1", IllegalAction, "not allowed on your turn"),
        ("pass", IllegalAction, "not allowed on your turn"),
    ],
)
def test_bad_action_messages(x: Any, error: type[Exception], message: str) -> None:
    game = Game(load("nts-2016"), random.Random(0))
    before = snapshot(game)
    with pytest.raises(error, match=message):
        game.apply(x)
    assert snapshot(game) == before


def test_nothing_is_allowed_once_the_hand_is_over() -> None:
    game = game_after("nts-2016", 4, 10_000)
    assert game.is_over
    before = snapshot(game)
    for x in ("pass", "mahjong", "discard b1", 0):
        with pytest.raises(IllegalAction, match="the hand is over"):
            game.apply(x)
    assert snapshot(game) == before


def test_an_action_built_by_hand_counts_like_the_interned_one() -> None:
    """A claim made with a fresh Action(...) value is honoured (claims are resolved by
    identity, so apply() interns what it gets)."""
    east = "C k2 k5 k8 t3 t6 t9 b2 b4 b6 b8 N P W"
    south = "b3 b6 b9 k1 k4 k7 t1 t4 t7 E S W t9"
    west = "C C b1 b3 b5 k1 k4 k7 t2 t5 t8 E F"
    north = "b4 b7 k3 k6 k9 t3 t6 t9 E S W N b8"
    game = deal("nts-2016", [east, south, west, north])
    game.apply("discard C")
    assert game.current_seat == 2
    game.apply(Action(ActionKind.PUNG, Tile.RED))
    assert game.turn == 2 and game.melds[2][0].tile == Tile.RED


def test_a_deal_must_be_a_deal() -> None:
    rules = load("nts-2016")
    tiles = [t for t in range(34) for _ in range(4)]
    hands = [tiles[0:14], tiles[14:27], tiles[27:40], tiles[40:53]]
    game = Game.from_deal(rules, hands, tiles[53:122], tiles[122:])
    assert [sum(h) for h in game.hands] == [14, 13, 13, 13]
    with pytest.raises(InvalidHand, match="East's of 14"):
        Game.from_deal(rules, [tiles[0:13], *hands[1:]], tiles[13:14] + tiles[53:122], tiles[122:])
    with pytest.raises(InvalidHand, match="4 hands"):
        Game.from_deal(rules, hands[:3], tiles[40:122], tiles[122:])
    with pytest.raises(InvalidHand, match="tile set"):
        Game.from_deal(rules, hands, tiles[53:121], tiles[121:135])
