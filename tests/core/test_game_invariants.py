"""Invariants over many seeded hands played by purposeful random moves (see
game_helpers.random_action), under several rule sets:

- every tile is accounted for at every step (hands, melds, flowers, discards, live and
  dead wall together are the table's tile set);
- every seat holds 13 tiles, counting each meld (a kong too) as three, and the seat with
  the extra tile (on turn, or the winner) 14;
- a seat always has something to do, and may always pass in a claim window;
- the options offered are those the books allow (chow only by the next player and not at
  three players, pung and kong with two or three in hand, only mahjong on the last discard
  or a promoted kong, no mahjong for a dead hand), and the win flags fit the hand's end;
- the settlement sums to zero; a remise scores and pays nothing;
- a hand is its rule set, its seed and its moves: replayed, it gives the same events and
  result; a clone played on with the same moves ends the same way.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from core_helpers import load
from game_helpers import check_invariants, check_rules, random_hand

from build_helpers import COMPILED
from mahjong_nts.core.game import (
    PUBLIC_ANNOUNCED,
    PUBLIC_BONUS,
    PUBLIC_COUNT,
    PUBLIC_DEAD,
    PUBLIC_DISCARD,
    PUBLIC_MELD,
    PUBLIC_TAKEN,
    Game,
)

SPECS = [
    "nts-2016",
    "nts-2002",
    "nmb-2009",
    "rode-draak",
    "nmb-2009+flowers",
    "nmb-2009+three-players",
    "nmb-2009+flowers+three-players",
]


@pytest.mark.parametrize("spec", SPECS)
def test_invariants_at_every_step(spec: str) -> None:
    rules = load(spec)
    outcomes = set()

    def check(game: Game) -> None:
        check_invariants(game)
        check_rules(game)

    for seed in range(40):
        game, _ = random_hand(rules, seed, false_mahjong=0.002, each=check)
        assert game.result is not None
        outcomes.add(game.result.remise)
    assert outcomes == {True, False}  # both wins and remises were seen


@pytest.mark.parametrize("spec", SPECS)
def test_settlement_and_replay(spec: str) -> None:
    rules = load(spec)
    wins = 0
    for seed in range(1000, 1120):
        game, moves = random_hand(rules, seed, false_mahjong=0.002)
        res = game.result
        assert res is not None
        check_invariants(game)
        balances = res.settlement.balances
        assert sum(balances) == 0
        if res.remise:
            assert res.scores == () and set(balances) == {0}
        else:
            wins += 1
            assert res.winner is not None and balances[res.winner] > 0
            assert res.scores[res.winner].winner and res.scores[res.winner].mahjong_allowed
            assert all(r.score == 0 for s, r in enumerate(res.scores) if game.dead[s])
        replay = Game(rules, random.Random(seed))
        for act in moves:
            replay.apply(act)
        assert replay.events == game.events and replay.result == res
    assert wins >= 10


@pytest.mark.parametrize("spec", ["nts-2016", "nmb-2009+flowers"])
def test_a_clone_plays_on_independently(spec: str) -> None:
    rules = load(spec)
    for seed in range(20):
        game, moves = random_hand(rules, seed)
        cut = len(moves) // 2
        first = Game(rules, random.Random(seed))
        for act in moves[:cut]:
            first.apply(act)
        copy = first.clone()
        for act in moves[cut:]:
            copy.apply(act)
        assert copy.events == game.events and copy.result == game.result
        assert len(first.events) < len(game.events) and not first.is_over  # untouched
        for act in moves[cut:]:
            first.apply(act)
        assert first.result == game.result


def test_events_built_fast_are_the_events() -> None:
    """The game builds its most frequent events through their slots (faster than the
    frozen dataclass's generated constructor): the values must be the very same."""
    import dataclasses

    from mahjong_nts.core import game
    from mahjong_nts.core.game import Event
    from mahjong_nts.core.tiles import Tile

    fast = game._event("discard", 2, (Tile.B3,), True)
    assert fast == Event("discard", 2, (Tile.B3,), True)
    assert repr(fast) == repr(Event("discard", 2, (Tile.B3,), True, ""))
    assert game._event("draw", 0, (Tile.EAST,)) == Event("draw", 0, (Tile.EAST,))
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.seat = 1  # type: ignore[misc]
    if not COMPILED:  # compiled, the native class's constructor is the fast path
        assert len(game._EVENT_SLOTS) == len(dataclasses.fields(Event))


def _attributes(game: Game) -> list[str]:
    """The game's attributes: its ``__dict__`` (pure build), or the attributes mypyc
    gave the native class (compiled build)."""
    native = getattr(type(game), "__mypyc_attrs__", None)
    return list(native) if native is not None else list(vars(game))


def test_a_clone_copies_every_attribute() -> None:
    """``Game.clone`` lists the attributes it copies (a compiled class cannot be copied
    with ``copy.copy``): every attribute of a game in play, equal in the clone, and no
    list or dict shared with the original."""
    rules = load("nts-2016")
    _, moves = random_hand(rules, 7)
    first = Game(rules, random.Random(7))
    for act in moves[: len(moves) // 2]:
        first.apply(act)
    copy = first.clone()
    names = _attributes(first)
    assert {"hands", "wall", "events", "_claims", "view_version"} <= set(names)
    assert sorted(_attributes(copy)) == sorted(names)
    for name in names:
        mine, theirs = getattr(first, name), getattr(copy, name)
        if name == "view_cache":
            assert theirs == {}
        elif name == "wall":
            assert theirs is not mine and theirs.remaining() == mine.remaining()
            assert (theirs.dice, theirs.replenish) == (mine.dice, mine.replenish)
        else:
            assert theirs == mine, name
            if isinstance(mine, list | dict):
                assert theirs is not mine, name


@pytest.mark.parametrize("spec", SPECS)
def test_the_public_log_adds_up_to_the_table(spec: str) -> None:
    """Game.public_log, replayed from the deal, gives at every step what the table shows:
    each seat's discards (as counts), flowers in order, concealed tile count, number of
    melds, dead and announced hand; a claimed discard is taken back."""
    rules = load(spec)
    taken = 0

    def check(game: Game) -> None:
        nonlocal taken
        n = game.n
        discards: list[Counter[int]] = [Counter() for _ in range(n)]
        bonus: list[list[int]] = [[] for _ in range(n)]
        count, melds = [0] * n, [0] * n
        dead, announced = [False] * n, [False] * n
        for change, s, v in game.public_log:
            if change == PUBLIC_DISCARD:
                discards[s][v] += 1
                count[s] -= 1
            elif change == PUBLIC_TAKEN:
                discards[s][v] -= 1
                taken += 1
            elif change == PUBLIC_COUNT:
                count[s] += v
            elif change == PUBLIC_MELD:
                count[s] += v
                melds[s] += v <= -2  # a new meld takes 2 to 4 tiles from the hand
            elif change == PUBLIC_BONUS:
                bonus[s].append(v)
            elif change == PUBLIC_DEAD:
                dead[s] = True
            else:
                assert change == PUBLIC_ANNOUNCED
                announced[s] = True
        for s in range(n):
            assert +discards[s] == Counter(game.discards[s]), s
            assert bonus[s] == list(game.bonus[s]), s
            assert count[s] == sum(game.hands[s]), s
            assert melds[s] == len(game.melds[s]), s
            assert dead[s] is game.dead[s] and announced[s] is game.announced[s], s

    for seed in range(25):
        random_hand(rules, seed, false_mahjong=0.002, each=check)
    assert taken > 0  # claims were seen
