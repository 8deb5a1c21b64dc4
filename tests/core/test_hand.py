from __future__ import annotations

import pytest

from build_helpers import COMPILED, DECLARED_TYPES_ONLY, pure_only
from mahjong_nts.core.errors import InvalidHand, InvalidMeld, InvalidWin
from mahjong_nts.core.hand import Hand, Meld, MeldKind, Win, WinSource
from mahjong_nts.core.tiles import Tile
from mahjong_nts.core.tiles import Tile as T

NS = {"Tile": Tile, "Meld": Meld, "MeldKind": MeldKind, "Hand": Hand}


def test_meld_from_tiles() -> None:
    assert Meld.from_tiles([T.B3, T.B1, T.B2]) == Meld(MeldKind.CHOW, T.B1)
    assert Meld.from_tiles([T.RED] * 3) == Meld(MeldKind.PUNG, T.RED)
    assert Meld.from_tiles([T.K5] * 4, open=False) == Meld(MeldKind.KONG, T.K5, False)
    assert Meld(MeldKind.CHOW, T.T7).tiles == (T.T7, T.T8, T.T9)
    assert eval(repr(Meld(MeldKind.KONG, T.EAST, False)), NS) == Meld(MeldKind.KONG, T.EAST, False)


@pytest.mark.parametrize(
    "tiles",
    [
        [T.B1, T.B2, T.B4],
        [T.B8, T.B9, T.K1],
        [T.EAST, T.SOUTH, T.WEST],
        [T.B1, T.B1],
        [T.B1] * 5,
        [T.F1, T.F1, T.F1],
        [],
    ],
)
def test_not_a_meld(tiles: list[T]) -> None:
    with pytest.raises(InvalidMeld):
        Meld.from_tiles(tiles)


def test_chow_cannot_start_at_8_or_be_honours() -> None:
    with pytest.raises(InvalidMeld):
        Meld(MeldKind.CHOW, T.K8)
    with pytest.raises(InvalidMeld):
        Meld(MeldKind.CHOW, T.GREEN)


def test_hand_sorts_and_counts() -> None:
    hand = Hand((T.K5, T.B1, T.K5), melds=(Meld(MeldKind.KONG, T.RED),))
    assert hand.concealed == (T.B1, T.K5, T.K5)
    assert hand.counts[T.K5] == 2 and sum(hand.counts) == 3
    assert hand.held_counts()[T.RED] == 4
    assert hand.tile_count == 6
    assert not hand.is_concealed
    assert eval(repr(hand), NS) == hand


def test_fifth_copy_rejected() -> None:
    with pytest.raises(InvalidHand, match="5 copies of b1"):
        Hand((T.B1, T.B1), melds=(Meld(MeldKind.PUNG, T.B1),))
    with pytest.raises(InvalidHand, match="5 copies of b2"):
        Hand((T.B2,) * 3, melds=(Meld(MeldKind.CHOW, T.B1), Meld(MeldKind.CHOW, T.B2)))


def test_bonus_tiles_validated() -> None:
    with pytest.raises(InvalidHand, match="flower"):
        Hand((T.F1,))
    with pytest.raises(InvalidHand, match="not a flower"):
        Hand((), bonus=(T.B1,))
    with pytest.raises(InvalidHand, match="only once"):
        Hand((), bonus=(T.F1, T.F1))


def test_winning_tile_must_be_in_hand() -> None:
    with pytest.raises(InvalidHand, match="winning tile"):
        Hand((T.B1, T.B2), winning_tile=T.B3)


def test_check_size() -> None:
    hand = Hand((T.B1,) * 2, melds=tuple(Meld(MeldKind.PUNG, t) for t in (T.B5, T.K5, T.T5, T.RED)))
    hand.check_size(winner=True)
    with pytest.raises(InvalidHand, match="has 13 tiles") as info:
        hand.check_size(winner=False)
    # the core names no front end's option (dead=true, --dead): each says it its own way
    assert str(info.value).endswith(
        "a wrong number of tiles is a dead hand (score it as a dead hand)"
    )


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(source=WinSource.DISCARD, last_tile=True),
        dict(source=WinSource.WALL, last_discard=True),
        dict(source=WinSource.WALL, kong_on_kong=True),
        dict(source=WinSource.WALL, first_discard=True),
        dict(source=WinSource.DISCARD, heaven=True),
        dict(source=WinSource.DISCARD, first_discard=True, last_discard=True),
        dict(source=WinSource.WALL, heaven=True, lucky_thirteen=True),
        dict(source=WinSource.DISCARD, first_discard=True, lucky_thirteen=True),
    ],
)
def test_contradictory_win_flags(kwargs: dict[str, object]) -> None:
    with pytest.raises(InvalidWin):
        Win(**kwargs)  # type: ignore[arg-type]


def test_fifth_copy_says_where_the_copies_are() -> None:
    with pytest.raises(InvalidHand, match=r"5 copies of b1 \(2 concealed, 3 in melds\)"):
        Hand((T.B1, T.B1), melds=(Meld(MeldKind.PUNG, T.B1),))
    with pytest.raises(InvalidHand, match=r"5 copies of E \(5 concealed with the winning tile\)"):
        Hand((T.EAST,) * 5, winning_tile=T.EAST)


@pure_only(DECLARED_TYPES_ONLY)
def test_win_source_from_string_and_self_drawn() -> None:
    assert Win("loose_tile").source is WinSource.LOOSE_TILE  # type: ignore[arg-type]
    assert WinSource.LOOSE_TILE.self_drawn and WinSource.WALL.self_drawn
    assert not WinSource.ROBBED_KONG.self_drawn and not WinSource.DISCARD.self_drawn


@pytest.mark.parametrize(
    ("win", "needs"),
    [
        (Win(), False),
        (Win(WinSource.DISCARD, last_discard=True), False),
        (Win(WinSource.WALL, last_tile=True), False),
        (Win(WinSource.LOOSE_TILE), True),  # a loose tile: the hand must hold a kong
        (Win(WinSource.ROBBED_KONG), True),  # a robbed kong: its tile cannot be pung-ed
        (Win(WinSource.WALL, heaven=True), True),  # heaven: no melds
        (Win(WinSource.DISCARD, first_discard=True), True),  # earth: no melds
        (Win(WinSource.DISCARD, lucky_thirteen=True), True),  # no melds called
    ],
)
def test_needs_hand_check(win: Win, needs: bool) -> None:
    """Which ways of winning say something about the hand the scorer must check."""
    assert win.needs_hand_check is needs


def test_trusted_hand_sets_every_field_as_the_constructor_does() -> None:
    from dataclasses import fields

    from mahjong_nts.core import hand as hand_module

    if not COMPILED:  # compiled, the constructor stores the fields natively (no slots)
        names = [f.name for f in fields(Hand)]
        slots = [d.__self__.__name__ for d in hand_module._HAND_SLOTS]
        assert slots == names
    public = Hand((T.B1, T.B1, T.EAST, T.B2), bonus=(T.F2,), winning_tile=T.B2)
    trusted = Hand(public.concealed, (), public.bonus, T.B2, _checked_counts=(0,) * 31 + (9, 9, 9))
    assert trusted.counts == (0,) * 31 + (9, 9, 9)  # set as given: nothing checked again
    trusted = Hand(public.concealed, (), public.bonus, T.B2, _checked_counts=public.counts)
    assert trusted == public
    assert trusted.counts == public.counts
    assert repr(trusted) == repr(public)


@pure_only(DECLARED_TYPES_ONLY)
def test_tiles_given_as_any_iterable_are_converted_or_refused() -> None:
    assert Hand(t for t in (2, 0, 1)).concealed == (T.B1, T.B2, T.B3)
    assert Hand([T.EAST], bonus=iter([35])).bonus == (T.F2,)
    with pytest.raises(ValueError, match="99 is not a valid Tile"):
        Hand(t for t in (0, 1, 99, 2))


@pytest.mark.parametrize("how", ["pickle", "copy", "deepcopy"])
def test_hands_melds_wins_and_situations_pickle_and_copy_on_both_builds(how: str) -> None:
    """Compiled, a frozen dataclass cannot be rebuilt by setting its attributes (what
    pickle and copy do by default): these are rebuilt from their fields instead."""
    import copy
    import pickle

    from mahjong_nts.core.scoring import Situation

    meld = Meld(MeldKind.PUNG, T.K7, open=False)
    hand = Hand((T.B1, T.B1, T.B2), melds=(meld,), bonus=(T.F2, T.S4), winning_tile=T.B2)
    partial = Hand((T.EAST, T.EAST, T.EAST), partial=True)
    win = Win(WinSource.DISCARD, last_discard=True)
    situation = Situation(T.SOUTH, T.EAST, win, dead=False)
    rebuild = {
        "pickle": lambda x: pickle.loads(pickle.dumps(x)),
        "copy": copy.copy,
        "deepcopy": copy.deepcopy,
    }[how]
    for value in (meld, hand, partial, win, situation):
        again = rebuild(value)
        assert again == value
        assert repr(again) == repr(value)
    assert rebuild(hand).counts == hand.counts
    assert rebuild(partial).partial is True
