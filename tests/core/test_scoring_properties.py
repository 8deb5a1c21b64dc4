"""Properties of scoring over generated hands, for every shipped rule set."""

from __future__ import annotations

from typing import Any

from conftest import load
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mahjong_nts.core.hand import Hand, Meld, MeldKind, Win, WinSource
from mahjong_nts.core.items import ITEMS, Who
from mahjong_nts.core.scoring import Situation, score_hand
from mahjong_nts.core.tiles import Tile

RULESETS = [
    "nts-2016",
    "nts-2002",
    "nmb-2009",
    "rode-draak",
    "nmb-2009+flowers",
    "nts-2002+flowers",
    "nmb-2009+three-players",
    "nmb-2009+five-players",
]
WINDS = [Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH]
BONUS = [Tile(t) for t in range(Tile.F1, Tile.S4 + 1)]

SETTINGS = settings(
    max_examples=250, deadline=None, suppress_health_check=[HealthCheck.filter_too_much]
)

_set = st.one_of(
    st.tuples(
        st.just(MeldKind.CHOW), st.sampled_from([s * 9 + r for s in range(3) for r in range(7)])
    ),
    st.tuples(st.just(MeldKind.PUNG), st.integers(0, 33)),
    st.tuples(st.just(MeldKind.KONG), st.integers(0, 33)),
)


@st.composite
def complete_hands(draw: Any) -> tuple[Hand, Win]:
    """Four sets and a pair; some sets declared (open, or concealed kongs), a winning tile
    among the concealed tiles, a consistent way of winning."""
    sets = draw(st.lists(_set, min_size=4, max_size=4))
    pair = draw(st.integers(0, 33))
    counts = [0] * 34
    for kind, t in sets:
        tiles = Meld(kind, Tile(t)).tiles
        for x in tiles:
            counts[x] += 1
    counts[pair] += 2
    assume(all(c <= 4 for c in counts))
    melds: list[Meld] = []
    concealed: list[int] = [pair, pair]
    for kind, t in sets:
        if kind is MeldKind.KONG:
            melds.append(Meld(kind, Tile(t), open=draw(st.booleans())))
        elif draw(st.booleans()):
            melds.append(Meld(kind, Tile(t), open=True))
        else:
            concealed.extend(Meld(kind, Tile(t)).tiles)
    winning = draw(st.sampled_from(sorted(set(concealed))))
    sources = [WinSource.WALL, WinSource.DISCARD]
    if any(m.kind is MeldKind.KONG for m in melds):
        sources.append(WinSource.LOOSE_TILE)
    source = draw(st.sampled_from(sources))
    flags: dict[str, bool] = {}
    if source is WinSource.WALL:
        flags["last_tile"] = draw(st.booleans())
    elif source is WinSource.DISCARD:
        flags["last_discard"] = draw(st.booleans())
    else:
        flags["kong_on_kong"] = draw(st.booleans())
    flags["lucky_thirteen"] = draw(st.booleans())
    bonus = draw(st.lists(st.sampled_from(BONUS), unique=True, max_size=3))
    return Hand(tuple(concealed), tuple(melds), tuple(bonus), Tile(winning)), Win(source, **flags)


situations = st.tuples(st.sampled_from(WINDS), st.sampled_from([*WINDS, Tile.GREEN]))


def _check(result: Any) -> None:
    assert result.score >= 0
    if result.limit_hand is None and result.cap is not None:
        assert result.score == min(result.base, result.cap)
    elif result.limit_hand is None:
        assert result.score == result.base
    assert result.base == result.points << result.doublings or result.limit_hand is not None
    if result.limit_hand is None and not result.dead:
        # the explanation adds up to what was ranked and scored
        assert sum(i.points for i in result.items) == result.points
        assert sum(i.doublings for i in result.items) == result.doublings


@SETTINGS
@given(complete_hands(), situations, st.sampled_from(RULESETS))
def test_complete_hand_is_allowed_or_refused_with_a_reason(
    hw: tuple[Hand, Win], sit: tuple[Tile, Tile], rules: str
) -> None:
    hand, win = hw
    result = score_hand(hand, Situation(sit[0], sit[1], win), load(rules))
    assert result.winner and not result.dead
    assert result.mahjong_allowed in (True, False)
    if result.mahjong_allowed:
        assert result.refusal is None
        assert result.score > 0
    else:
        assert result.refusal
    _check(result)


def _shuffled(hand: Hand, data: Any) -> Hand:
    return Hand(
        tuple(data.draw(st.permutations(hand.concealed))),
        tuple(data.draw(st.permutations(hand.melds))),
        tuple(data.draw(st.permutations(hand.bonus))),
        hand.winning_tile,
    )


@SETTINGS
@given(complete_hands(), situations, st.sampled_from(RULESETS), st.data())
def test_score_independent_of_tile_order(
    hw: tuple[Hand, Win], sit: tuple[Tile, Tile], rules: str, data: Any
) -> None:
    hand, win = hw
    situation = Situation(sit[0], sit[1], win)
    a = score_hand(hand, situation, load(rules))
    b = score_hand(_shuffled(hand, data), situation, load(rules))
    assert (a.score, a.points, a.doublings, a.limit_hand, a.mahjong_allowed) == (
        b.score,
        b.points,
        b.doublings,
        b.limit_hand,
        b.mahjong_allowed,
    )
    assert sorted(a.items, key=lambda i: i.id) == sorted(b.items, key=lambda i: i.id)


@SETTINGS
@given(complete_hands(), situations, st.sampled_from(RULESETS), st.data())
def test_non_winner(hw: tuple[Hand, Win], sit: tuple[Tile, Tile], rules: str, data: Any) -> None:
    """Drop one concealed tile: a 13-tile non-winner.  No winner-only item, no mahjong
    verdict, order-independent, dead means 0."""
    hand, _ = hw
    drop = data.draw(st.sampled_from(range(len(hand.concealed))))
    tiles = list(hand.concealed)
    del tiles[drop]
    other = Hand(tuple(tiles), hand.melds, hand.bonus)
    situation = Situation(sit[0], sit[1])
    result = score_hand(other, situation, load(rules))
    assert not result.winner and result.mahjong_allowed is None
    assert all(ITEMS[i.id].who is Who.ALL for i in result.items if i.id in ITEMS)
    _check(result)
    again = score_hand(_shuffled(other, data), situation, load(rules))
    assert again.score == result.score
    dead = score_hand(other, Situation(sit[0], sit[1], dead=True), load(rules))
    assert dead.dead and dead.score == 0


@SETTINGS
@given(complete_hands(), situations, st.sampled_from(RULESETS))
def test_dead_iff_zero_for_an_allowed_winner(
    hw: tuple[Hand, Win], sit: tuple[Tile, Tile], rules: str
) -> None:
    hand, win = hw
    live = score_hand(hand, Situation(sit[0], sit[1], win), load(rules))
    dead = score_hand(hand, Situation(sit[0], sit[1], win, dead=True), load(rules))
    assert dead.score == 0 and dead.mahjong_allowed is False
    if live.mahjong_allowed:
        assert live.score > 0
