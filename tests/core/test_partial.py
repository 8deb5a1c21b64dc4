"""A non-winner's hand given by only its scoring sets (``Hand.partial``).

Expected values are worked out by hand from docs/rules.md (nts-2016): a concealed pung
of terminals/honours 8, of simples 4; an open pung of terminals/honours 4; a concealed
kong of terminals/honours 32; a pair of the own or round wind 2 each; a pung of dragons,
own wind or round wind 1 doubling; score = points x 2^doublings.
"""

from __future__ import annotations

import pytest

from mahjong_nts.core.errors import InvalidHand
from mahjong_nts.core.hand import Hand, Meld, MeldKind
from mahjong_nts.core.notation import parse_tiles
from mahjong_nts.core.scoring import Situation, score_hand
from mahjong_nts.core.tiles import Tile
from mahjong_nts.formats.rulefiles import load_ruleset

NTS = load_ruleset("nts-2016")
SOUTH_IN_EAST = Situation(seat_wind=Tile.SOUTH, round_wind=Tile.EAST)


def partial(text: str, *melds: Meld) -> Hand:
    return Hand(parse_tiles(text), melds, partial=True)


def test_a_pung_of_dragons_alone() -> None:
    # concealed pung of honours 8 points, pung of dragons 1 doubling: 8 x 2 = 16
    result = score_hand(partial("CCC"), SOUTH_IN_EAST, NTS)
    assert (result.points, result.doublings, result.score) == (8, 1, 16)
    assert result.winner is False and result.mahjong_allowed is None


def test_sets_and_a_pair_of_the_round_wind() -> None:
    # b111 concealed 8 + k555 concealed 4 + pair of E (round wind for South) 2 = 14
    result = score_hand(partial("b111 k555 EE"), SOUTH_IN_EAST, NTS)
    assert (result.points, result.doublings, result.score) == (14, 0, 14)


def test_declared_melds_count_open_or_concealed() -> None:
    # open pung of E: 4 points, 1 doubling (the round wind); concealed kong of W: 32
    # points and no doubling (seat South, round East: W is nobody's wind). 36 x 2 = 72
    hand = partial(
        "", Meld(MeldKind.PUNG, Tile.EAST, open=True), Meld(MeldKind.KONG, Tile.WEST, open=False)
    )
    result = score_hand(hand, SOUTH_IN_EAST, NTS)
    assert (result.points, result.doublings, result.score) == (36, 1, 72)


def test_no_whole_hand_doublings_from_the_sets_shown() -> None:
    # b111 b999 alone would look like a pure hand; partial: only the two pungs, 16 points.
    result = score_hand(partial("b111 b999"), SOUTH_IN_EAST, NTS)
    assert (result.points, result.doublings, result.score) == (16, 0, 16)
    ids = {item.id for item in result.items}
    assert ids == {"pung_major_concealed"}


def test_the_same_sets_in_a_whole_hand_are_scored_as_before() -> None:
    # 13 tiles, all bamboo: pure suit (3 doublings, nts-2016) counts for every player.
    whole = Hand(parse_tiles("b111 b999 b2 b2 b4 b4 b6 b7 b8"))
    result = score_hand(whole, SOUTH_IN_EAST, NTS)
    assert "pure_suit" in {item.id for item in result.items}
    assert result.score == 16 * 2**3


def test_nothing_that_scores_is_zero() -> None:
    result = score_hand(partial(""), SOUTH_IN_EAST, NTS)
    assert (result.points, result.doublings, result.score, result.items) == (0, 0, 0, ())


def test_loose_tiles_score_nothing() -> None:
    # a chow and a lone tile count for nothing for a non-winner (ruling 2)
    result = score_hand(partial("b123 k5"), SOUTH_IN_EAST, NTS)
    assert result.score == 0


def test_no_waiting_limit_hand_from_a_partial_hand() -> None:
    # thirteen orphans minus one would score its waiting value as a whole hand;
    # a partial hand shows only sets, so it scores its pair of the round wind only.
    text = "b1 b9 k1 k9 t1 t9 E S W N F C P"
    assert score_hand(Hand(parse_tiles(text)), SOUTH_IN_EAST, NTS).score == 1000
    assert score_hand(partial(text), SOUTH_IN_EAST, NTS).score == 0


def test_more_than_thirteen_tiles_is_refused() -> None:
    with pytest.raises(InvalidHand, match=r"at most 13 tiles.*has 14"):
        partial("b111 b222 b333 b444 b55")
    with pytest.raises(InvalidHand, match="at most 13"):
        partial(
            "b11",
            *(Meld(MeldKind.KONG, Tile(t)) for t in (Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH)),
        )


def test_a_partial_hand_has_no_winning_tile() -> None:
    with pytest.raises(InvalidHand, match="cannot have a winning tile"):
        Hand(parse_tiles("b111 k55"), winning_tile=Tile.K5, partial=True)


def test_without_partial_the_size_is_still_checked() -> None:
    with pytest.raises(InvalidHand, match="non-winning hand has 13 tiles"):
        score_hand(Hand(parse_tiles("CCC")), SOUTH_IN_EAST, NTS)
