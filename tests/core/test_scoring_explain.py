"""The explanation of a score: what each item counted (``detail``) and the items a
player may expect that did not count (``not_counted``).  Every expected text is worked
out by hand from the hand and the rule set."""

from __future__ import annotations

import dataclasses
import pickle

import pytest
from core_helpers import score

from build_helpers import COMPILED
from mahjong_nts.core import scoring
from mahjong_nts.core.items import ITEMS
from mahjong_nts.core.scoring import NotCounted, ScoredItem, ScoreResult


def details(result: ScoreResult) -> list[tuple[str, str]]:
    return [(i.id, i.detail) for i in result.items]


def notes(result: ScoreResult) -> list[tuple[str, str]]:
    return [(n.id, n.reason) for n in result.not_counted]


def test_details_of_a_concealed_self_drawn_winner() -> None:
    """b123 k456 t789 EEE + C completing CC, East in the East round, from the wall."""
    result = score("nts-2016", "b123 k456 t789 EEE C +C", seat="E", win="wall")
    assert details(result) == [
        ("pung_major_concealed", "pung of E (concealed)"),
        ("pair_dragon", "pair of C"),
        ("mahjong", "C, drawn from the wall"),
        ("self_drawn", "C, drawn from the wall"),
        ("only_possible_tile", "only C completed the hand"),
        ("completes_pair", "C completed the pair"),
        ("pung_own_wind", "pung of E (own wind)"),
        ("pung_round_wind", "pung of E (round wind)"),
        ("fully_concealed", "every tile self-drawn, no meld played open"),
    ]
    assert result.not_counted == ()
    # the names travel with the note's id, as with the items
    assert result.items[0].nl == "Dichte pung edelstenen"


def test_three_concealed_pungs_name_their_pungs() -> None:
    """Non-winner, seat South, round East: b111 and EEE are pungs of terminals/honours,
    k777 of simples; the loose t2 t3 S W count for nothing."""
    result = score("nts-2016", "b111 k777 EEE t2 t3 S W", seat="S", win=None)
    assert details(result) == [
        ("pung_simple_concealed", "pung of k7 (concealed)"),
        ("pung_major_concealed", "pung of b1 (concealed), pung of E (concealed)"),
        ("pung_round_wind", "pung of E (round wind)"),
        ("three_concealed_pungs", "3 concealed pungs: b111 k777 EEE"),
    ]
    assert [i.count for i in result.items] == [1, 2, 1, 1]


def test_claimed_tile_opens_the_pung_and_says_so() -> None:
    """k99 NN waits on k9 and N; the discarded k9 makes k999 an open pung (ruling: a
    set completed by a claimed tile is open).  Seat South, round East: the NN pair is
    neither wind."""
    result = score("nts-2016", "[b222] [k333] [t444] k99 NN +k9", seat="S", win="discard")
    assert details(result) == [
        ("pung_simple_open", "pung of b2 (open), pung of k3 (open), pung of t4 (open)"),
        ("pung_major_open", "pung of k9 (open: the claimed k9 completed it)"),
        ("mahjong", "k9, claimed from a discard"),
        ("four_pungs", "4 pungs: b222 k333 k999 t444"),
    ]
    assert notes(result) == [
        (
            "pung_major_concealed",
            "k999 was completed by the claimed k9, so it counts as an open pung",
        ),
        (
            "pair_own_wind",
            "pair of N: a wind pair counts only for the own wind (S) or the round wind (E)",
        ),
        ("only_possible_tile", "k9 was not the only tile that completed the hand: N also did"),
    ]


def test_only_possible_tile_the_example_of_the_issue() -> None:
    """t23 waits on t1 and t4; won with a discarded t4: not the only possible tile, and
    not fully concealed (the t4 was claimed)."""
    result = score("nts-2016", "b123 k456 EEE CC t23 +t4", seat="S", win="discard")
    assert notes(result) == [
        ("only_possible_tile", "t4 was not the only tile that completed the hand: t1 also did"),
        (
            "fully_concealed",
            "t4 was claimed from a discard: a fully concealed hand draws every tile itself, "
            "the winning tile too",
        ),
    ]


def test_only_possible_tile_two_waits_of_one_shape() -> None:
    """b2345 waits on b2 and b5 (pair and chow either way): the full waits name b2."""
    result = score("nts-2016", "b2345 CCC EEE t999 +b5", seat="E", win="wall")
    assert notes(result) == [
        ("only_possible_tile", "b5 was not the only tile that completed the hand: b2 also did")
    ]


def test_robbed_kong_is_claimed_for_fully_concealed() -> None:
    result = score("nts-2016", "b78 k456 t789 b123 NN +b9", seat="S", win="robbed_kong")
    assert (
        "fully_concealed",
        "b9 was robbed from a kong: a fully concealed hand draws every tile itself, "
        "the winning tile too",
    ) in notes(result)
    assert ("robbing_kong", "b9, robbed from a kong") in details(result)


def test_limit_hand_shape_and_what_it_does_not_add() -> None:
    """Thirteen orphans, self-drawn: 2000, nothing on top (nts-2016 gives a limit hand no
    doublings; points for the self-drawn tile do not count either)."""
    result = score("nts-2016", "b19 k19 t19 ESWNFCP +P", seat="S", win="wall")
    assert result.limit_hand == "thirteen_orphans"
    assert details(result) == [("thirteen_orphans", "b19 k19 t19 ESWNFCPP")]
    assert notes(result) == [
        (
            "self_drawn",
            "a limit hand is worth its fixed value: the self-drawn winning tile adds no points",
        ),
        (
            "fully_concealed",
            "a limit hand is worth its fixed value: a fully concealed hand adds no doublings to it",
        ),
    ]


def test_rode_draak_limit_hand_doubles_once_when_concealed() -> None:
    """De Rode Draak: "Bij limietspelen: 1x verdubbelen" for a concealed self-drawn limit
    hand: fully concealed counts, so only the self-drawn points are noted."""
    result = score("rode-draak", "b19 k19 t19 ESWNFCP +P", seat="S", win="wall")
    assert details(result) == [
        ("thirteen_orphans", "b19 k19 t19 ESWNFCPP"),
        ("fully_concealed", "a limit hand, concealed and self-drawn"),
    ]
    assert [n.id for n in result.not_counted] == ["self_drawn"]


def test_flowers_add_nothing_to_a_limit_hand() -> None:
    """nmb-2009 with flowers: the f2 would be 4 points and a doubling (South's own
    flower) in an ordinary hand; a limit hand is worth its fixed value."""
    result = score("nmb-2009+flowers", "b19 k19 t19 ESWNFCP +P f2", seat="S", win="discard")
    assert result.score == 1500
    assert notes(result) == [
        (
            "bonus_tile",
            "a limit hand is worth its fixed value: flowers and seasons add nothing to it",
        )
    ]


def test_flower_details() -> None:
    """nmb-2009 with flowers, South: f2 is his own flower; f2 f4 s3 are 3 x 4 points."""
    result = score("nmb-2009+flowers", "b222 k147 t147 b9 N W C f2 s3 f4", seat="S", win=None)
    found = dict(details(result))
    assert found["bonus_tile"] == "f2 f4 s3"
    assert found["own_flower"] == "f2 (the flower of S)"


def test_heaven_and_earth_details() -> None:
    heaven = score("nts-2016", "b12 k456 t789 b789 NN +b3", seat="E", win="wall", heaven=True)
    assert details(heaven) == [("heaven", "East's 14 dealt tiles: b123 b789 k456 t789 NN")]
    earth = score(
        "nts-2016", "b12 k456 t789 b789 NN +b3", seat="S", win="discard", first_discard=True
    )
    assert details(earth) == [("earth", "b3, East's first discard: b123 b789 k456 t789 NN")]
    assert earth.not_counted == ()  # claimed: no self-drawn points to miss


def test_limit_hand_shape_puts_melds_in_tile_order() -> None:
    """nmb-2009's four kongs (open allowed), the melds given in two orders."""
    a = score("nmb-2009", "[b4444] (b1111) (b2222) (b3333) b5 +b5", seat="S", win="wall")
    b = score("nmb-2009", "(b1111) (b2222) (b3333) [b4444] b5 +b5", seat="S", win="wall")
    assert a.limit_hand == "four_kongs"
    assert a.items == b.items
    assert a.items[0].detail == "(b1111) (b2222) (b3333) [b4444] b55"


def test_waiting_limit_hand_says_on_what() -> None:
    """Thirteen different orphans wait on any of the thirteen; b1 comes first."""
    result = score("nts-2016", "b19 k19 t19 ESWNFCP", seat="S", win=None)
    assert details(result) == [("thirteen_orphans", "waiting on b1: b19 k19 t19 ESWNFCP")]
    assert result.score == 1000


def test_nmb_four_chows_and_simples_played_open() -> None:
    """nmb-2009: four chows with all simples count only concealed but for the winning
    tile; [b234] was played open, so neither counts.  b67 waited on b5 and b8."""
    result = score("nmb-2009", "[b234] k345 t456 b67 k55 +b8", seat="S", win="discard")
    reason = (
        "four chows with only simples count only in a hand concealed but for the winning "
        "tile, and [b234] was played open"
    )
    assert notes(result) == [
        ("only_possible_tile", "b8 was not the only tile that completed the hand: b5 also did"),
        ("four_chows", reason),
        ("pure_simples", reason),
    ]


def test_wind_pungs_of_neither_wind() -> None:
    south = score("nts-2016", "[WWW] b222 k333 k9 t1 t2 N", seat="S", win=None)
    assert notes(south) == [
        (
            "pung_own_wind",
            "pung of W: a wind pung counts only for the own wind (S) or the round wind (E)",
        )
    ]
    east = score("nts-2016", "WWW NNNN b222 k9 t1 t2", seat="E", win=None)
    assert notes(east) == [
        (
            "pung_own_wind",
            "pung of W, pung of N: a wind pung counts only for the own wind or the round "
            "wind (both E here)",
        )
    ]


def test_green_dragon_hand_has_no_round_wind() -> None:
    result = score("nmb-2009+three-players", "EEE b147 k147 b258 W", seat="S", round="F", win=None)
    assert notes(result) == [
        (
            "pung_own_wind",
            "pung of E: a wind pung counts only for the own wind (S); in the green-dragon "
            "hand no wind rules",
        )
    ]


def test_clean_hand_details() -> None:
    clean = score("nts-2016", "b222 b456 b789 b1 N W C", win=None)
    assert dict(details(clean))["clean_suit"] == "bamboo with winds and dragons"
    pure = score("nts-2016", "b222 b456 b789 b1 b3 b3 b5", win=None)
    assert dict(details(pure))["pure_suit"] == "only bamboo"
    very = score("nts-2016", "b111 b999 b9 N W C S E P", win=None)
    assert dict(details(very))["very_clean"] == "1s and 9s of bamboo with winds and dragons"


def test_special_wins_say_with_which_tile() -> None:
    last = score("nts-2016", "k23 b456 t789 b789 NN +k1", win="wall", last_tile=True)
    assert dict(details(last))["last_tile_circles1"] == "k1, the last tile of the wall"
    loose = score(
        "nts-2016", "(t1111) (b9999) b12 k456 NN +b3", win="loose_tile", kong_on_kong=True
    )
    found = dict(details(loose))
    assert found["kong_on_kong"] == "b3, the loose tile after a second kong in one turn"
    assert found["kong_major_concealed"] == "kong of b9 (concealed), kong of t1 (concealed)"


def test_fast_constructors_build_the_same_values() -> None:
    """The scorer builds items and notes through their slots (faster than the frozen
    dataclasses' generated constructors): the values must be the very same."""
    item = ScoredItem("pung_dragon", "Pung/kong draken", "Pung/kong of dragons", 0, 2, 2, "")
    fast = scoring._new_item(item, "pung of C, pung of F")
    assert fast == ScoredItem(
        "pung_dragon", "Pung/kong draken", "Pung/kong of dragons", 0, 2, 2, "pung of C, pung of F"
    )
    assert hash(fast) == hash(dataclasses.replace(item, detail="pung of C, pung of F"))
    other = scoring._new_item(item, "x", 4, 1, 3)
    assert (other.points, other.doublings, other.count, other.detail) == (4, 1, 3, "x")
    if not COMPILED:  # compiled, the native classes' constructors are the fast path
        assert len(scoring._ITEM_SLOTS) == len(dataclasses.fields(ScoredItem))
    note = scoring._note("pung_own_wind", "pung of W: a wind pung counts only for ...")
    assert note == NotCounted(
        "pung_own_wind",
        ITEMS["pung_own_wind"].nl,
        ITEMS["pung_own_wind"].en,
        "pung of W: a wind pung counts only for ...",
    )
    if not COMPILED:
        assert len(scoring._NOTE_SLOTS) == len(dataclasses.fields(NotCounted))


def test_a_result_is_a_value_of_its_fields() -> None:
    """Equal, hashed and shown as its thirteen fields in order; read-only; pickled as
    its fields."""
    item = ScoredItem("pung_dragon", "Pung/kong draken", "Pung/kong of dragons", 0, 2, 2, "x")
    values = (True, False, (item,), 20, 2, None, 80, 2000, 80, True, None, ("b123",), ())
    result = ScoreResult(*values)
    assert result == ScoreResult(*values)
    assert result != ScoreResult(*values[:-2], ("b234",), ())
    assert hash(result) == hash(values)
    assert repr(result) == (
        f"ScoreResult(winner=True, dead=False, items=({item!r},), points=20, doublings=2, "
        "limit_hand=None, base=80, cap=2000, score=80, mahjong_allowed=True, refusal=None, "
        "arrangement=('b123',), not_counted=())"
    )
    assert ScoreResult(*values[:-1]).not_counted == ()
    with pytest.raises(AttributeError):
        result.score = 0  # type: ignore[misc]
    with pytest.raises(AttributeError):
        result.items = ()  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(result)) == result
    match result:
        case ScoreResult(True, False, items, 20):
            assert items == (item,)
        case _:
            pytest.fail("positional pattern")


def test_the_explanation_is_made_when_first_read() -> None:
    """A regular hand's items, arrangement and notes wait until read; read in any order,
    or never (compared, hashed, pickled, shown), they are the same, and the score does
    not wait for them."""
    text = "b123 k456 t789 EEE C +C"
    read = score("nts-2016", text, seat="E", win="wall")
    assert read._explained is None  # nothing made yet
    items, arrangement = read.items, read.arrangement
    assert read._explained is not None and read._explain is None
    assert arrangement == ("b123", "k456", "t789", "EEE", "CC*")
    assert read.points == sum(i.points for i in items)
    assert read.doublings == sum(i.doublings for i in items)
    assert read.base == read.points << read.doublings
    for unread in (
        score("nts-2016", text, seat="E", win="wall"),
        pickle.loads(pickle.dumps(score("nts-2016", text, seat="E", win="wall"))),
    ):
        assert unread == read and hash(unread) == hash(read)
    assert repr(score("nts-2016", text, seat="E", win="wall")) == repr(read)
    other = score("nts-2016", text, seat="E", win="wall")
    assert other.not_counted == read.not_counted and other.items == items
