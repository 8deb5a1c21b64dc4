"""Golden cases from the books and the project's rulings (docs/rules.md), worked out by hand."""

from __future__ import annotations

import pytest
from core_helpers import hand, item_map, load, score

from mahjong_nts.core.errors import InvalidHand, InvalidWin
from mahjong_nts.core.hand import Win, WinSource
from mahjong_nts.core.scoring import Situation, score_hand
from mahjong_nts.core.tiles import Tile

ALL = ["nts-2016", "nts-2002", "nmb-2009", "rode-draak"]

# ---------------------------------------------------------------------------------------
# nmb-2009, "VOORBEELD PUNTEN BEREKENING" (round wind East)
# ---------------------------------------------------------------------------------------


def test_2009_example_east_128() -> None:
    """'Oost heeft 128 punten: 4 (verborgen pung) x 2 + 8 (verborgen pung draken), 1
    verdubbeling voor pung draken en 2 verdubbelingen voor 3 verborgen pungs.'"""
    result = score("nmb-2009", "b222 k333 CCC t1 t5 b9 k7", seat="E", win=None)
    assert result.points == 4 * 2 + 8
    assert result.doublings == 1 + 2
    assert result.score == 128
    assert item_map(result)["three_concealed_pungs"] == (0, 2, 1)


def test_2009_example_south_272() -> None:
    """'Zuid (maakt mahjong met tekens 4 van tafel welke is weggelegd door West)': 20 mahjong
    + 2 completes pair + 2 only possible + 2 open pung + 8 concealed pung = 34 points;
    1 doubling round-wind pung + 2 clean -> 34 x 8 = 272."""
    result = score("nmb-2009", "[t222] EEE t789 t789 t4 +t4", seat="S", win="discard")
    assert result.mahjong_allowed is True
    assert result.points == 34
    assert result.doublings == 3
    assert result.score == 272
    found = item_map(result)
    assert found["completes_pair"] == (2, 0, 1)
    assert found["only_possible_tile"] == (2, 0, 1)
    assert found["pung_round_wind"] == (0, 1, 1)
    assert found["clean_suit"] == (0, 2, 1)


def test_2009_example_west_dead_hand() -> None:
    result = score("nmb-2009", "b1 b5 k2 k9 t3 t4 t8 E S W N C P", seat="W", win=None, dead=True)
    assert result.dead
    assert result.score == 0


def test_2009_example_north_40() -> None:
    """'Noord heeft 40 punten: 2 (open pung) + 8 (gesloten pung winden), 2 verdubbelingen
    voor schoon spel.'"""
    result = score("nmb-2009", "[k555] SSS k1 k3 k7 k8 k9 W N", seat="N", win=None)
    assert result.points == 10
    assert result.doublings == 2
    assert result.score == 40


# "Verschillen": a 12-point hand with 2 doublings: (20+12) x 4 = 128 on a discard (512 after
# settlement), (20+15+12) x 4 = 188 self-drawn (564).  [b222] 2 + b999 8 + FF 2 = 12 points,
# clean (bamboo and a dragon pair) 2 doublings; the b6 completes b678 (two-sided wait b6/b9).
VERSCHILLEN = "[b222] b345 b78 b999 FF +b6"


def test_2009_verschillen_discard_128() -> None:
    result = score("nmb-2009", VERSCHILLEN, win="discard")
    assert (result.points, result.doublings, result.score) == (32, 2, 128)


def test_2009_verschillen_self_drawn_188() -> None:
    result = score("nmb-2009", VERSCHILLEN, win="wall")
    assert (result.points, result.doublings, result.score) == (47, 2, 188)
    assert 3 * result.score == 564


def test_nts_same_hand_self_drawn_only_two_points() -> None:
    """The old rule quoted in 'Verschillen': (20+2+12) x 4 = 136 (nts clean is 1 doubling,
    so the nts figure is (20+2+12) x 2 = 68)."""
    result = score("nts-2016", VERSCHILLEN, win="wall")
    assert (result.points, result.doublings, result.score) == (34, 1, 68)
    assert result.mahjong_allowed is False


# ---------------------------------------------------------------------------------------
# Caps
# ---------------------------------------------------------------------------------------

# Non-winner: 3 concealed kongs of winds (seat East, round East) + b999 + b5.
# 32 x 3 + 8 = 104 points.
BIG_NON_WINNER = "(EEEE) (SSSS) (WWWW) b999 b5"


@pytest.mark.parametrize(
    ("rules", "total", "cap"),
    [
        # own 1 + round 1 + 3 concealed kongs 2 + clean 1 = 5: 104 x 32 = 3328 -> 2000
        ("nts-2016", 2000, 2000),
        ("nts-2002", 2000, 2000),
        # own 1 + round 1 + 3 concealed kongs 3 + clean 2 = 7 -> 1500 (non-winner cap)
        ("nmb-2009", 1500, 1500),
        # own 1 + round 1 + (3 concealed kongs | 4 concealed pungs) 2 + clean 1 = 5: no cap
        ("rode-draak", 3328, None),
    ],
)
def test_non_winner_cap(rules: str, total: int, cap: int | None) -> None:
    result = score(rules, BIG_NON_WINNER, seat="E", win=None)
    assert result.points == 104
    assert result.score == total
    assert result.cap == cap
    assert result.base >= result.score


# Winner: (EEEE) (SSSS) b999 b111 + b55; huge in every rule set.
BIG_WINNER = "(EEEE) (SSSS) b999 b111 b5 +b5"


@pytest.mark.parametrize(
    ("rules", "source", "total"),
    [
        ("nts-2016", "wall", 2000),
        ("nts-2016", "discard", 2000),
        ("nmb-2009", "wall", 2000),
        ("nmb-2009", "discard", 1500),
    ],
)
def test_winner_cap(rules: str, source: str, total: int) -> None:
    result = score(rules, BIG_WINNER, seat="E", win=source)
    assert result.limit_hand is None
    assert result.score == total
    assert result.base > total


def test_rode_draak_has_no_cap() -> None:
    result = score("rode-draak", BIG_WINNER, seat="E", win="wall")
    assert result.cap is None
    assert result.score == result.base > 2000


# ---------------------------------------------------------------------------------------
# Refusals, dead hands, bad input
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ALL)
def test_minimum_doublings_refusal(rules: str) -> None:
    """A dirty hand with no doublings may not go mahjong."""
    result = score(rules, "b123 k456 t99 b789 NN +t9", win="discard")
    assert result.mahjong_allowed is False
    assert result.refusal and "doubling" in result.refusal


def test_clean_hand_with_one_doubling() -> None:
    """nts: clean (1) alone is too few ('De uitzondering voor schoon bestaat niet meer');
    rode-draak: 'Mahjong halen is in deze competitie alleen mogelijk met een schoon spel'."""
    text = "b123 b456 b888 b23 NN +b4"
    nts = score("nts-2016", text, win="discard")
    assert nts.doublings == 1
    assert nts.mahjong_allowed is False
    assert nts.refusal and "doubling" in nts.refusal
    rode = score("rode-draak", text, win="discard")
    assert rode.doublings == 1
    assert rode.mahjong_allowed is True
    assert rode.refusal is None
    nmb = score("nmb-2009", text, win="discard")  # clean is 2 doublings in 2009
    assert nmb.mahjong_allowed is True


@pytest.mark.parametrize("rules", ALL)
def test_incomplete_hand_refused(rules: str) -> None:
    result = score(rules, "b1357 k2468 t13579 +t9", win="wall")
    assert result.mahjong_allowed is False
    assert result.refusal
    assert result.score == 0


@pytest.mark.parametrize("rules", ALL)
def test_dead_hand_scores_zero(rules: str) -> None:
    winner = score(rules, "b12 k456 t789 b789 NN +b3", win="wall", dead=True)
    assert winner.dead and winner.score == 0 and winner.mahjong_allowed is False
    # a dead hand may have the wrong number of tiles
    other = score(rules, "CCC EEE SSS WWW", seat="E", win=None, dead=True)
    assert other.dead and other.score == 0


def test_wrong_tile_count_raises() -> None:
    with pytest.raises(InvalidHand):
        score("nts-2016", "b12 k456 t789 b789 N +b3", win="wall")
    with pytest.raises(InvalidHand):
        score("nts-2016", "b123 k456 t789 b789 NN", win=None)


@pytest.mark.parametrize(
    "make",
    [
        lambda: Win(WinSource.DISCARD, last_tile=True),
        lambda: Win(WinSource.WALL, last_discard=True),
        lambda: Win(WinSource.WALL, kong_on_kong=True),
        lambda: Win(WinSource.WALL, first_discard=True),
        lambda: Win(WinSource.DISCARD, heaven=True),
        lambda: Win(WinSource.WALL, heaven=True, last_tile=True),
        lambda: Situation(Tile.SOUTH, Tile.EAST, Win(WinSource.WALL, heaven=True)),
        lambda: Situation(Tile.EAST, Tile.EAST, Win(WinSource.DISCARD, first_discard=True)),
        lambda: Situation(Tile.GREEN, Tile.EAST),
    ],
    ids=[
        "last-tile-from-discard",
        "last-discard-from-wall",
        "kong-on-kong-not-loose",
        "earth-from-wall",
        "heaven-from-discard",
        "heaven-and-last-tile",
        "heaven-not-east",
        "earth-by-east",
        "seat-not-a-wind",
    ],
)
def test_contradictory_win_raises(make) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidWin):
        make()


def test_winner_needs_winning_tile_and_non_winner_has_none() -> None:
    rules = load("nts-2016")
    with pytest.raises(InvalidWin):
        score_hand(hand("b123 k456 t789 b789 NN"), Situation(Tile.SOUTH, Tile.EAST, Win()), rules)
    with pytest.raises(InvalidWin):
        score_hand(hand("b12 k456 t789 b789 N +N"), Situation(Tile.SOUTH, Tile.EAST), rules)


# ---------------------------------------------------------------------------------------
# Rulings
# ---------------------------------------------------------------------------------------


def test_ruling3_three_pungs_beat_three_chows() -> None:
    """b111222333 as pungs: 8 + 4 + 4 + EE (round) 2 + mahjong 20 + self-drawn 2 = 40 points;
    3 concealed pungs 1 + fully concealed 2 -> 320 (as chows it would be 26 x 2^2)."""
    result = score("nts-2016", "b111222333 k45 EE +k6", win="wall")
    assert {"b111", "b222", "b333"} <= set(result.arrangement)
    assert result.score == 320


@pytest.mark.parametrize(("rules", "total"), [("nts-2016", 640), ("nmb-2009", 1280)])
def test_ruling3_discard_completes_the_chow_not_the_pung(rules: str, total: int) -> None:
    """b2 b3 b4 b4 b4 + discarded b4: b234* claimed keeps b444 concealed.  Seat and round
    East.  b444 4 + CCC 8 + EEE 8 + mahjong 20 = 40 points; dragon 1 + own 1 + round 1 +
    3 concealed pungs (nts 1, nmb 2) -> nts 40 x 16 = 640, nmb 40 x 32 = 1280."""
    result = score(rules, "b23444 CCC EEE t99 +b4", seat="E", win="discard")
    assert "b234*" in result.arrangement
    assert "b444" in result.arrangement
    assert result.score == total


def test_ruling1_claimed_tile_opens_the_pung() -> None:
    """The discard completing k999 makes it an open pung (4, not 8)."""
    result = score("nts-2016", "[b222] [k333] [t444] k99 NN +k9", win="discard")
    found = item_map(result)
    assert found["pung_major_open"] == (4, 0, 1)
    assert "pung_major_concealed" not in found


@pytest.mark.parametrize("rules", ALL)
def test_ruling2_non_winner_counts_pungs_and_clean(rules: str) -> None:
    """Non-winner b111222333 b57 EW: the three pungs count (16 points), the loose tiles only
    for clean: nts 16 x 2^(1+1), nmb 16 x 2^(2+2), rode 16 x 2^(1+1)."""
    result = score(rules, "b111222333 b57 E W", win=None)
    expected = {"nts-2016": 64, "nts-2002": 64, "nmb-2009": 256, "rode-draak": 64}[rules]
    assert result.points == 16
    assert "clean_suit" in item_map(result)
    assert result.score == expected


def test_ruling2_non_scoring_pairs_and_chows_do_not_count() -> None:
    result = score("nts-2016", "b123 k456 t99 b55 N W C", win=None)
    assert result.score == 0


@pytest.mark.parametrize(
    ("text", "only"),
    [
        ("b12 k456 t789 b789 NN +b3", True),  # edge
        ("b13 k456 t789 b789 NN +b2", True),  # closed
        ("b123 k456 t789 b789 N +N", True),  # pair
        ("b23 k456 t789 b789 NN +b4", False),  # two-sided: b1 / b4
        ("b123 k456 t789 b77 NN +b7", False),  # two pairs: b7 / N
        ("b1234 k456 t789 CCC +b1", False),  # b1 / b4
    ],
    ids=["edge", "closed", "pair", "two-sided", "shanpon", "pair-or-chow"],
)
def test_ruling4_only_possible_tile(text: str, only: bool) -> None:
    result = score("nts-2016", text, win="discard")
    assert ("only_possible_tile" in item_map(result)) is only


def test_ruling4_two_waits_of_one_shape() -> None:
    """b2 b3 b4 b5 waits on b2 and b5 (pair + chow either way): not the only possible tile."""
    result = score("nts-2016", "b2345 CCC EEE t999 +b5", seat="E", win="wall")
    assert "only_possible_tile" not in item_map(result)


@pytest.mark.parametrize(
    ("rules", "text", "present"),
    [
        ("nts-2016", "(b2222) k333 t444 b9 N W C", True),
        ("nts-2016", "[b2222] k333 t444 b9 N W C", False),
        ("nmb-2009", "(b2222) k333 t444 b9 N W C", True),
        ("nmb-2009", "[b2222] k333 t444 b9 N W C", False),
    ],
)
def test_ruling5_concealed_kong_is_a_concealed_pung(rules: str, text: str, present: bool) -> None:
    assert ("three_concealed_pungs" in item_map(score(rules, text, win=None))) is present


def test_ruling6_loose_tile_is_self_drawn() -> None:
    result = score("nts-2016", "(t1111) b12 k456 b789 NN +b3", win="loose_tile")
    found = item_map(result)
    assert found["self_drawn"] == (2, 0, 1)
    assert found["fully_concealed"] == (0, 2, 1)
    assert found["loose_tile"] == (0, 1, 1)


def test_ruling7_robbed_kong_is_claimed() -> None:
    result = score("nts-2016", "b78 k456 t789 b123 NN +b9", win="robbed_kong")
    found = item_map(result)
    assert "self_drawn" not in found
    assert "fully_concealed" not in found
    assert found["robbing_kong"] == (0, 1, 1)


@pytest.mark.parametrize(("rules", "value"), [("nts-2016", 3), ("nmb-2009", 3)])
def test_ruling8_circles1_replaces_last_tile(rules: str, value: int) -> None:
    found = item_map(score(rules, "k23 b456 t789 b789 NN +k1", win="wall", last_tile=True))
    assert found["last_tile_circles1"] == (0, value, 1)
    assert "last_tile" not in found


def test_ruling8_circles5_and_kong_on_kong_replace_loose_tile() -> None:
    c5 = item_map(score("nts-2016", "(t1111) b123 k46 b789 NN +k5", win="loose_tile"))
    assert c5["loose_tile_circles5"] == (0, 3, 1)
    assert "loose_tile" not in c5
    kk = item_map(
        score("nmb-2009", "(t1111) (b9999) b12 k456 NN +b3", win="loose_tile", kong_on_kong=True)
    )
    assert kk["kong_on_kong"] == (0, 3, 1)
    assert "loose_tile" not in kk


@pytest.mark.parametrize("rules", ["nts-2016", "nmb-2009"])
def test_ruling9_peling_eats_cake(rules: str) -> None:
    """Circles 1 completes the pair of bamboo 1: 10 on top of 'completes pair'; the clean
    bamboo hand stays clean ('Waar sprake is van een schoon bamboe spel, blijft dit spel ook
    schoon')."""
    result = score(rules, "b1123456789 CCC +k1", win="discard")
    found = item_map(result)
    assert found["peling_eats_cake"] == (10, 0, 1)
    assert found["completes_pair"] == (2, 0, 1)
    assert "clean_suit" in found
    assert result.mahjong_allowed is True


def test_ruling9_circles1_must_be_the_winning_tile() -> None:
    """A circles 1 already in the hand is just circles 1: no pe-ling, not clean."""
    result = score("nts-2016", "b123456789 CCC k1 +b1", win="discard")
    assert "peling_eats_cake" not in item_map(result)
    assert "clean_suit" not in item_map(result)


@pytest.mark.parametrize("rules", ALL)
def test_ruling10_own_wind_that_is_round_wind_counts_twice(rules: str) -> None:
    pair = item_map(score(rules, "EE k147 t147 b258 N W", seat="E", win=None))
    assert pair["pair_own_wind"] == (2, 0, 1)
    assert pair["pair_round_wind"] == (2, 0, 1)
    pung = item_map(score(rules, "EEE k147 t147 b258 N", seat="E", win=None))
    assert pung["pung_own_wind"] == (0, 1, 1)
    assert pung["pung_round_wind"] == (0, 1, 1)


@pytest.mark.parametrize(
    ("rules", "text", "item", "value"),
    [
        # judged on melds too: the open pung of characters makes it dirty
        ("nts-2016", "[t222] b456 b789 b1 N W C", None, 0),
        ("nts-2016", "[b222] b456 b789 b1 N W C", "clean_suit", 1),
        # pure beats clean; only the highest
        ("nmb-2009", "[b222] b456 b789 b1 b3 b3 b5", "pure_suit", 4),
        ("nmb-2009", "b111 b999 b9 N W C S E P", "very_clean", 3),
        ("nmb-2009", "b111 k999 t1 t9 N W C S E", "clean_terminals", 2),
        ("nts-2016", "[EEE] SSS WW NN C F P", "pure_honours", 3),
    ],
)
def test_ruling13_clean_group(rules: str, text: str, item: str | None, value: int) -> None:
    found = item_map(score(rules, text, win=None))
    clean = [
        i
        for i in found
        if i
        in {
            "clean_suit",
            "clean_terminals",
            "very_clean",
            "pure_suit",
            "pure_honours",
            "pure_terminals",
        }
    ]
    if item is None:
        assert clean == []
    else:
        assert clean == [item]
        assert found[item] == (0, value, 1)


@pytest.mark.parametrize(
    ("rules", "text", "item", "value"),
    [
        ("nts-2016", "(b2222) (k3333) (t4444) k9 N W C", "three_concealed_kongs", 2),
        ("nmb-2009", "(b2222) (k3333) (t4444) k9 N W C", "three_concealed_kongs", 3),
        ("nmb-2009", "[b2222] [k3333] (t4444) k999 N", "three_kongs", 2),
        ("nts-2016", "(b2222) k333 t444 k999 N", "four_concealed_pungs", 2),
        ("nts-2016", "(b2222) (k3333) (t4444) (k9999) N", "four_kongs", 3),
    ],
)
def test_ruling14_only_the_highest_concealed_group(
    rules: str, text: str, item: str, value: int
) -> None:
    found = item_map(score(rules, text, win=None))
    group = [
        i
        for i in found
        if i
        in {
            "three_concealed_pungs",
            "four_concealed_pungs",
            "three_kongs",
            "three_concealed_kongs",
            "four_kongs",
        }
    ]
    assert group == [item]
    assert found[item] == (0, value, 1)


@pytest.mark.parametrize(
    ("text", "both"),
    [
        ("b234 k345 t456 b67 k55 +b8", True),  # concealed, wins on a discard
        ("[b234] k345 t456 b67 k55 +b8", False),  # played open
    ],
)
def test_nmb_four_chows_with_pure_simples_must_be_concealed(text: str, both: bool) -> None:
    found = item_map(score("nmb-2009", text, win="discard"))
    assert ("four_chows" in found) is both
    assert ("pure_simples" in found) is both
    # nts has no such rule
    nts = item_map(score("nts-2016", text, win="discard"))
    assert "four_chows" in nts and "pure_simples" in nts


def test_heaven_only_east_from_the_wall() -> None:
    east = score("nts-2016", "b12 k456 t789 b789 NN +b3", seat="E", win="wall", heaven=True)
    assert east.limit_hand == "heaven"
    with pytest.raises(InvalidWin):
        score("nts-2016", "b12 k456 t789 b789 NN +b3", seat="S", win="wall", heaven=True)


def test_green_dragon_round_is_not_a_wind() -> None:
    """In the green-dragon hand no wind is the round wind: an East pung is only own wind."""
    found = item_map(
        score("nmb-2009+three-players", "EEE b147 k147 b258 W", seat="E", round="F", win=None)
    )
    assert found["pung_own_wind"] == (0, 1, 1)
    assert "pung_round_wind" not in found


@pytest.mark.parametrize(("rules", "doublings"), [("nts-2016", 2), ("nmb-2009", 3)])
def test_ruling14_tie_counts_once(rules: str, doublings: int) -> None:
    """3 concealed kongs + a concealed pung is also 4 concealed pungs; both are worth the same
    here, and only one counts."""
    result = score(rules, "(b2222) (k3333) (t4444) k999 N", win=None)
    assert result.doublings == doublings
