"""Properties of scoring over generated hands, for every shipped rule set."""

from __future__ import annotations

from typing import Any

import pytest
from core_helpers import load
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mahjong_nts.core import scoring, scoring_tables
from mahjong_nts.core.errors import InvalidHand
from mahjong_nts.core.hand import Hand, Meld, MeldKind, Win, WinSource
from mahjong_nts.core.items import ITEMS, ItemKind, Who
from mahjong_nts.core.rules import RuleSet
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

SETTINGS = settings(max_examples=250, suppress_health_check=[HealthCheck.filter_too_much])


def in_play(rules: RuleSet) -> list[int]:
    """The tile kinds of the table (its suits, its winds, the dragons)."""
    table = rules.table
    kinds = [s * 9 + r for s in range(3) if "bkt"[s] in table.suits for r in range(9)]
    kinds += [Tile.EAST + "ESWN".index(w) for w in table.winds]
    return [*kinds, Tile.GREEN, Tile.RED, Tile.WHITE]


def seat_winds(rules: RuleSet) -> list[Tile]:
    return [Tile(Tile.EAST + "ESWN".index(w)) for w in rules.table.winds]


def round_winds(rules: RuleSet) -> list[Tile]:
    table = rules.table
    out = [Tile.EAST] if table.round_wind == "east" else seat_winds(rules)
    return out + ([Tile.GREEN] if table.green_dragon != "none" else [])


@st.composite
def complete_hands(draw: Any, rules: RuleSet) -> tuple[Hand, Win]:
    """Four sets and a pair of the table's tiles; some sets declared (open, or concealed
    kongs; no open chow where the table plays none), a winning tile among the concealed
    tiles, a way of winning that fits the hand, flowers only where they are played."""
    kinds = in_play(rules)
    chow_starts = [t for t in kinds if t < 27 and t % 9 < 7]
    kind_set = st.sampled_from(kinds)
    sets = draw(
        st.lists(
            st.one_of(
                st.tuples(st.just(MeldKind.CHOW), st.sampled_from(chow_starts)),
                st.tuples(st.just(MeldKind.PUNG), kind_set),
                st.tuples(st.just(MeldKind.KONG), kind_set),
            ),
            min_size=4,
            max_size=4,
        )
    )
    pair = draw(kind_set)
    counts = [0] * 34
    for kind, t in sets:
        for x in Meld(kind, Tile(t)).tiles:
            counts[x] += 1
    counts[pair] += 2
    assume(all(c <= 4 for c in counts))
    melds: list[Meld] = []
    concealed: list[int] = [pair, pair]
    for kind, t in sets:
        if kind is MeldKind.KONG:
            melds.append(Meld(kind, Tile(t), open=draw(st.booleans())))
        elif (kind is not MeldKind.CHOW or rules.table.open_chows) and draw(st.booleans()):
            melds.append(Meld(kind, Tile(t), open=True))
        else:
            concealed.extend(Meld(kind, Tile(t)).tiles)
    winning = draw(st.sampled_from(sorted(set(concealed))))
    kongs = sum(1 for m in melds if m.kind is MeldKind.KONG)
    sources = [WinSource.WALL, WinSource.DISCARD]
    if kongs:
        sources.append(WinSource.LOOSE_TILE)
    if counts[winning] == 1:
        sources.append(WinSource.ROBBED_KONG)
    source = draw(st.sampled_from(sources))
    flags: dict[str, bool] = {}
    if source is WinSource.WALL:
        flags["last_tile"] = draw(st.booleans())
    elif source is WinSource.DISCARD:
        flags["last_discard"] = draw(st.booleans())
    elif source is WinSource.LOOSE_TILE:
        flags["kong_on_kong"] = kongs >= 2 and draw(st.booleans())
    if not any(m.open for m in melds):
        flags["lucky_thirteen"] = draw(st.booleans())
    bonus = (
        draw(st.lists(st.sampled_from(BONUS), unique=True, max_size=3))
        if rules.table.flowers
        else []
    )
    return Hand(tuple(concealed), tuple(melds), tuple(bonus), Tile(winning)), Win(source, **flags)


@st.composite
def cases(draw: Any) -> tuple[Hand, Win, Tile, Tile, RuleSet]:
    """A rule set, a complete hand at its table, a seat and a round wind of the table."""
    rules = load(draw(st.sampled_from(RULESETS)))
    hand, win = draw(complete_hands(rules))
    return (
        hand,
        win,
        draw(st.sampled_from(seat_winds(rules))),
        draw(st.sampled_from(round_winds(rules))),
        rules,
    )


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
@given(cases())
def test_complete_hand_is_allowed_or_refused_with_a_reason(
    case: tuple[Hand, Win, Tile, Tile, RuleSet],
) -> None:
    hand, win, seat, rnd, rules = case
    result = score_hand(hand, Situation(seat, rnd, win), rules)
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
@given(cases(), st.data())
def test_score_independent_of_tile_order(
    case: tuple[Hand, Win, Tile, Tile, RuleSet], data: Any
) -> None:
    hand, win, seat, rnd, rules = case
    situation = Situation(seat, rnd, win)
    a = score_hand(hand, situation, rules)
    b = score_hand(_shuffled(hand, data), situation, rules)
    assert (a.score, a.points, a.doublings, a.limit_hand, a.mahjong_allowed) == (
        b.score,
        b.points,
        b.doublings,
        b.limit_hand,
        b.mahjong_allowed,
    )
    assert sorted(a.items, key=lambda i: i.id) == sorted(b.items, key=lambda i: i.id)


@SETTINGS
@given(cases(), st.data())
def test_non_winner(case: tuple[Hand, Win, Tile, Tile, RuleSet], data: Any) -> None:
    """Drop one concealed tile: a 13-tile non-winner.  No winner-only item, no mahjong
    verdict, order-independent, dead means 0."""
    hand, _, seat, rnd, rules = case
    drop = data.draw(st.sampled_from(range(len(hand.concealed))))
    tiles = list(hand.concealed)
    del tiles[drop]
    other = Hand(tuple(tiles), hand.melds, hand.bonus)
    situation = Situation(seat, rnd)
    result = score_hand(other, situation, rules)
    assert not result.winner and result.mahjong_allowed is None
    assert all(ITEMS[i.id].who is Who.ALL for i in result.items if i.id in ITEMS)
    _check(result)
    again = score_hand(_shuffled(other, data), situation, rules)
    assert again.score == result.score
    dead = score_hand(other, Situation(seat, rnd, dead=True), rules)
    assert dead.dead and dead.score == 0


@SETTINGS
@given(cases())
def test_dead_iff_zero_for_an_allowed_winner(case: tuple[Hand, Win, Tile, Tile, RuleSet]) -> None:
    hand, win, seat, rnd, rules = case
    live = score_hand(hand, Situation(seat, rnd, win), rules)
    dead = score_hand(hand, Situation(seat, rnd, win, dead=True), rules)
    assert dead.score == 0 and dead.mahjong_allowed is False
    if live.mahjong_allowed:
        assert live.score > 0


@SETTINGS
@given(cases())
def test_every_item_says_what_it_counted(case: tuple[Hand, Win, Tile, Tile, RuleSet]) -> None:
    """Each scored item has a detail; each "not counted" note names an item the rule set
    values, with a reason; an item that did not count at all, unless the note is about
    one set (a pung completed by the claimed tile, a wind pung of the wrong wind), when
    the item may have counted for another set."""
    hand, win, seat, rnd, rules = case
    result = score_hand(hand, Situation(seat, rnd, win), rules)
    counted = {i.id for i in result.items}
    assert all(i.detail for i in result.items), result.items
    for note in result.not_counted:
        if note.id not in PER_SET_NOTES:
            assert note.id not in counted
        assert note.reason
        worth = rules.points if ITEMS[note.id].kind is ItemKind.POINTS else rules.doublings
        assert worth(note.id)
    ids = [n.id for n in result.not_counted]
    assert ids == sorted(ids, key=list(ITEMS).index)


PER_SET_NOTES = {"pung_simple_concealed", "pung_major_concealed", "pung_own_wind"}
FOUR_PLAYER_BASES = ["nts-2016", "nts-2002", "nmb-2009", "rode-draak"]


@st.composite
def four_player_cases(draw: Any) -> tuple[Hand, Win, str]:
    base = draw(st.sampled_from(FOUR_PLAYER_BASES))
    hand, win = draw(complete_hands(load(base)))
    return hand, win, base


@SETTINGS
@given(four_player_cases(), st.sampled_from([Tile.EAST, Tile.SOUTH, Tile.WEST]))
def test_three_player_table_refuses_what_it_does_not_have(
    case: tuple[Hand, Win, str], seat: Tile
) -> None:
    """A four-player hand scored at the three-player table of the same rule set: refused
    exactly when it holds characters or North or an open chow; otherwise scored as at
    four (the table's own items aside, the sets are worth the same)."""
    hand, win, base = case
    three = load(f"{base}+three-players")
    held = hand.held_counts()
    missing = any(held[t] for t in range(Tile.T1, Tile.T9 + 1)) or held[Tile.NORTH] > 0
    open_chow = any(m.open and m.kind is MeldKind.CHOW for m in hand.melds)
    situation = Situation(seat, Tile.EAST, win)
    if missing or open_chow:
        with pytest.raises(InvalidHand):
            score_hand(hand, situation, three)
    else:
        at_three = score_hand(hand, situation, three)
        at_four = score_hand(hand, situation, load(base))
        assert (at_three.score, at_three.items) == (at_four.score, at_four.items)


def _cold() -> None:
    """Forget every compiled table and explanation kept between calls."""
    scoring._EXPLAINERS.clear()
    scoring_tables._TABLES.clear()


@st.composite
def two_hands_at_one_table(draw: Any) -> tuple[RuleSet, Tile, Tile, list[tuple[Hand, Win]]]:
    rules = load(draw(st.sampled_from(RULESETS)))
    seat = draw(st.sampled_from(seat_winds(rules)))
    rnd = draw(st.sampled_from(round_winds(rules)))
    return rules, seat, rnd, [draw(complete_hands(rules)) for _ in range(3)]


@SETTINGS
@given(two_hands_at_one_table())
def test_explanation_does_not_depend_on_what_was_scored_before(
    case: tuple[RuleSet, Tile, Tile, list[tuple[Hand, Win]]],
) -> None:
    """The scorer keeps explained items between calls (per set, per group of pungs, per
    winning tile, ...): a hand scored after others at the same table, winner or not, is
    explained exactly as when scored first."""
    rules, seat, rnd, hands = case
    (hand, win), *others = hands
    _cold()
    loser = Hand(hand.concealed[1:], hand.melds, hand.bonus)  # 13 tiles, not a winner
    first = score_hand(hand, Situation(seat, rnd, win), rules)
    first_loser = score_hand(loser, Situation(seat, rnd), rules)
    for other, other_win in others:
        score_hand(other, Situation(seat, rnd, other_win), rules)
        score_hand(Hand(other.concealed[1:], other.melds, other.bonus), Situation(seat, rnd), rules)
    assert score_hand(hand, Situation(seat, rnd, win), rules) == first
    assert score_hand(loser, Situation(seat, rnd), rules) == first_loser
