"""The scorer refuses what cannot happen: ways of winning that contradict each other or
the hand, a fifth copy of a tile, and anything the table of the rule set does not have.

Each case is worked out from the books: heaven is East's win on the 14 dealt tiles
(NTS 2016, 2.4.1 "Spel van de hemel"), earth a win on East's first discard ("Spel van de
aarde"), the loose tile comes after a kong ("Kong met bloeiende bloemen"), a robbed tile
is the fourth tile of another player's open pung (NMB 2009, "Kongroof"), the lucky
thirteen waits from the deal with the hand unchanged (De Rode Draak 1998, "De Gelukkige
Dertien"), and the three-player table plays bamboo, circles, winds East, South, West and
the dragons, with no open chows (NMB 2009, Begrippen, "Drie spelers").
"""

from __future__ import annotations

import pytest
from core_helpers import hand, item_map, load, score

from mahjong_nts.core.errors import InvalidHand, InvalidWin, MahjongError
from mahjong_nts.core.hand import Hand, Meld, MeldKind, Win, WinSource
from mahjong_nts.core.scoring import Situation, check_situation, score_hand
from mahjong_nts.core.tiles import Tile

CHOWS = "b12 k456 t789 b789 NN +b3"  # four chows, the b3 completes b123

# ---------------------------------------------------------------------------------------
# Flags against flags
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (
            {"source": WinSource.LOOSE_TILE, "last_tile": True},
            "last_tile (the last tile of the wall) needs from=wall, not from=loose_tile",
        ),
        (
            {"source": WinSource.ROBBED_KONG, "last_discard": True},
            "last_discard (the last discard before a remise) needs from=discard, "
            "not from=robbed_kong",
        ),
        (
            {"source": WinSource.DISCARD, "kong_on_kong": True},
            "kong_on_kong (the loose tile of a second kong in one turn) needs "
            "from=loose_tile, not from=discard",
        ),
        (
            {"source": WinSource.LOOSE_TILE, "heaven": True},
            "heaven (East's 14 dealt tiles) needs from=wall, not from=loose_tile",
        ),
        (
            {"source": WinSource.ROBBED_KONG, "first_discard": True},
            "first_discard (East's first discard, the earthly hand) needs from=discard, "
            "not from=robbed_kong",
        ),
        (
            {"heaven": True, "last_tile": True},
            "heaven and last_tile contradict each other",
        ),
        (
            {"source": WinSource.DISCARD, "first_discard": True, "last_discard": True},
            "first_discard and last_discard contradict each other",
        ),
        (
            {"heaven": True, "lucky_thirteen": True},
            "heaven and lucky_thirteen contradict each other: heaven wins on the dealt tiles",
        ),
        (
            {"source": WinSource.DISCARD, "first_discard": True, "lucky_thirteen": True},
            "first_discard and lucky_thirteen contradict each other",
        ),
    ],
    ids=[
        "last-tile-loose",
        "last-discard-robbed",
        "kong-on-kong-discard",
        "heaven-loose",
        "earth-robbed",
        "heaven-last-tile",
        "earth-last-discard",
        "heaven-lucky",
        "earth-lucky",
    ],
)
def test_flags_that_contradict_each_other(flags: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidWin) as info:
        Win(**flags)  # type: ignore[arg-type]
    assert message in str(info.value)


@pytest.mark.parametrize(
    "flags",
    [
        {"source": WinSource.WALL, "last_tile": True, "lucky_thirteen": True},
        {"source": WinSource.DISCARD, "last_discard": True, "lucky_thirteen": True},
        {"source": WinSource.LOOSE_TILE, "kong_on_kong": True, "lucky_thirteen": True},
        {"source": WinSource.ROBBED_KONG, "lucky_thirteen": True},
    ],
)
def test_lucky_thirteen_goes_with_any_later_win(flags: dict[str, object]) -> None:
    """Waiting since the deal, the hand may be won late, on a loose tile or a robbed kong."""
    assert Win(**flags).lucky_thirteen  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------
# The way of winning against the hand
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "seat", "win", "message"),
    [
        # heaven: nothing is claimed before East's first turn, and a kong would take a
        # loose tile (the win would then be on the loose tile, not the dealt tiles)
        (
            "b12 k456 t789 [b789] NN +b3",
            "E",
            Win(WinSource.WALL, heaven=True),
            "heaven (East wins on the 14 dealt tiles) contradicts the open meld [b789]",
        ),
        (
            "(t1111) b12 k456 b789 NN +b3",
            "E",
            Win(WinSource.WALL, heaven=True),
            "heaven (East wins on the 14 dealt tiles) contradicts the concealed kong (t1111)",
        ),
        # earth: the winner claims East's first discard; nobody has acted before it
        (
            "b12 k456 [t789] b789 NN +b3",
            "S",
            Win(WinSource.DISCARD, first_discard=True),
            "first_discard (the earthly hand, won on East's first discard) contradicts the "
            "open meld [t789]",
        ),
        (
            "(t1111) b12 k456 b789 NN +b3",
            "S",
            Win(WinSource.DISCARD, first_discard=True),
            "contradicts the concealed kong (t1111): no one claims or declares anything",
        ),
        # lucky thirteen: the hand is unchanged since the deal, so nothing was claimed
        (
            "[b222] b12 k456 t789 NN +b3",
            "S",
            Win(WinSource.DISCARD, lucky_thirteen=True),
            "lucky_thirteen (waiting since the deal, the hand unchanged) contradicts the open "
            "meld [b222]: claiming a tile changes the hand",
        ),
        # the loose tile comes after a kong: a win on it needs one (two for kong on kong)
        (
            CHOWS,
            "S",
            Win(WinSource.LOOSE_TILE),
            "from=loose_tile (the loose tile after a kong) needs a declared kong, and the "
            "hand has none",
        ),
        (
            "[b999] b12 k456 t789 NN +b3",
            "S",
            Win(WinSource.LOOSE_TILE),
            "needs a declared kong, and the hand has none",
        ),
        (
            "(t1111) b12 k456 b789 NN +b3",
            "S",
            Win(WinSource.LOOSE_TILE, kong_on_kong=True),
            "kong_on_kong (the loose tile of a second kong in one turn) needs two declared "
            "kongs, and the hand has 1",
        ),
        # a robbed tile is the fourth of an open pung: the robber holds no other copy (here
        # b789 and b99 hold three)
        (
            "b789 k456 t789 NNN b9 +b9",
            "S",
            Win(WinSource.ROBBED_KONG),
            "from=robbed_kong: the robbed player's pung holds the other three b9, so this "
            "hand can hold only the robbed one, not 3",
        ),
        (
            "[b789] b78 k456 t789 NN +b9",
            "S",
            Win(WinSource.ROBBED_KONG),
            "hand can hold only the robbed one, not 2",
        ),
    ],
    ids=[
        "heaven-open-meld",
        "heaven-concealed-kong",
        "earth-open-meld",
        "earth-concealed-kong",
        "lucky-open-meld",
        "loose-tile-no-kong",
        "loose-tile-open-pung-only",
        "kong-on-kong-one-kong",
        "robbed-kong-second-copy",
        "robbed-kong-copy-in-meld",
    ],
)
def test_win_that_contradicts_the_hand(text: str, seat: str, win: Win, message: str) -> None:
    situation = Situation(Tile[{"E": "EAST", "S": "SOUTH"}[seat]], Tile.EAST, win)
    rules = load("rode-draak" if win.lucky_thirteen else "nts-2016")
    with pytest.raises(InvalidWin) as info:
        score_hand(hand(text), situation, rules)
    assert message in str(info.value)
    with pytest.raises(InvalidWin):  # the same check, on its own
        check_situation(hand(text), situation, rules)
    # a dead hand is no excuse: the situation still cannot happen
    dead = Situation(situation.seat_wind, situation.round_wind, win, dead=True)
    with pytest.raises(InvalidWin):
        score_hand(hand(text), dead, rules)


def test_heaven_with_a_concealed_chow_written_as_a_meld_is_fine() -> None:
    """``(b789)`` only fixes how concealed tiles are arranged: nothing was declared."""
    result = score("nts-2016", "(b789) b12 k456 t789 NN +b3", seat="E", heaven=True)
    assert result.limit_hand == "heaven"


def test_lucky_thirteen_with_a_concealed_kong_is_fine() -> None:
    """A concealed kong keeps the waiting hand's tiles (the kong's fourth is the drawn
    one): the announced wait is unchanged."""
    result = score(
        "rode-draak", "(t1111) b12 k456 b789 NN +b3", win="loose_tile", lucky_thirteen=True
    )
    assert item_map(result)["lucky_thirteen"] == (0, 1, 1)


def test_robbed_kong_holding_the_one_robbed_tile_is_fine() -> None:
    """b78 + the robbed b9: one b9 in the hand, the other three in the robbed pung."""
    result = score("nts-2016", "b78 k456 t789 b123 NN +b9", win="robbed_kong")
    assert item_map(result)["robbing_kong"] == (0, 1, 1)


def test_kong_on_kong_with_two_kongs_open_or_concealed_is_fine() -> None:
    result = score(
        "nts-2016", "[t1111] (b9999) b12 k456 NN +b3", win="loose_tile", kong_on_kong=True
    )
    assert item_map(result)["kong_on_kong"] == (0, 2, 1)


# ---------------------------------------------------------------------------------------
# A fifth copy of a tile: concealed, in melds, the winning tile
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (
            lambda: hand("b1111 k456 t789 NN +b1"),
            "5 copies of b1 (5 concealed with the winning tile): there are only 4",
        ),
        (
            lambda: hand("[b111] b11 k456 t789 N +N"),
            "5 copies of b1 (2 concealed, 3 in melds)",
        ),
        (
            lambda: hand("[b123] [b123] [b123] b1 b1 N +N"),
            "5 copies of b1 (2 concealed, 3 in melds)",
        ),
        (
            lambda: Hand((Tile.K5,) * 2, (Meld(MeldKind.KONG, Tile.K5, False),), (), Tile.K5),
            "6 copies of k5 (2 concealed with the winning tile, 4 in melds)",
        ),
        (lambda: Hand((Tile.B1,), bonus=(Tile.F2, Tile.F2)), "each flower and season"),
    ],
    ids=["concealed-winning", "pung-meld", "three-chows", "kong-winning", "flower-twice"],
)
def test_fifth_copy_anywhere(make, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidHand) as info:
        make()
    assert message in str(info.value)


# ---------------------------------------------------------------------------------------
# The table's own limits
# ---------------------------------------------------------------------------------------

THREE = "nmb-2009+three-players"


@pytest.mark.parametrize(
    ("rules", "text", "seat", "round", "error", "message"),
    [
        # characters at three players, concealed or in a meld, winner or not
        (
            THREE,
            "b123 k456 t789 EEE C +C",
            "E",
            "E",
            InvalidHand,
            "t7 is not played under nmb-2009+three-players: its tiles are bamboo, circles, "
            "winds E S W and the dragons",
        ),
        (
            THREE,
            "[t222] b456 k789 EE C W",
            "S",
            "E",
            InvalidHand,
            "the meld [t222] is not possible under nmb-2009+three-players",
        ),
        # North: no such tile, seat or round at three players
        (THREE, "b123 k456 NNN EE C W", "S", "E", InvalidHand, "N is not played"),
        (
            THREE,
            "b123 k456 b789 EE C W",
            "N",
            "E",
            InvalidWin,
            "seat wind N does not exist under nmb-2009+three-players: its seats are E S W",
        ),
        (
            THREE,
            "b123 k456 b789 EE C W",
            "S",
            "N",
            InvalidWin,
            "round wind N does not exist under nmb-2009+three-players: its round winds are E S W F",
        ),
        # no chow is played open at three players
        (
            THREE,
            "[b123] k456 b789 EE C W",
            "S",
            "E",
            InvalidHand,
            "the open chow [b123] is not possible under nmb-2009+three-players: no chow is "
            "played open at this table",
        ),
        # flowers only with the flowers option
        (
            "nts-2016",
            "b123 k456 t789 EE C W f2",
            "S",
            "E",
            InvalidHand,
            "f2: nts-2016 is played without flowers and seasons",
        ),
        # the green dragon rules only in a green-dragon hand (3 and 5 players)
        (
            "nts-2016",
            "b123 k456 t789 EE C W",
            "S",
            "F",
            InvalidWin,
            "round wind F (the green-dragon hand) does not exist under nts-2016",
        ),
        # nts-2002: "Iedere ronde is de wind van de ronde Oost"
        (
            "nts-2002",
            "b123 k456 t789 EE C W",
            "S",
            "S",
            InvalidWin,
            "round wind S does not exist under nts-2002: the round wind is always E",
        ),
    ],
    ids=[
        "characters",
        "characters-meld",
        "north-tile",
        "north-seat",
        "north-round",
        "open-chow",
        "flower-without-flowers",
        "green-round-at-four",
        "round-south-under-2002",
    ],
)
def test_table_limits(
    rules: str, text: str, seat: str, round: str, error: type[MahjongError], message: str
) -> None:
    h = hand(text)
    win = Win() if h.winning_tile is not None else None
    winds = {"E": Tile.EAST, "S": Tile.SOUTH, "W": Tile.WEST, "N": Tile.NORTH, "F": Tile.GREEN}
    situation = Situation(winds[seat], winds[round], win)
    with pytest.raises(error) as info:
        score_hand(h, situation, load(rules))
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("rules", "text", "seat", "round"),
    [
        # a chow completed by a mahjong claim at three players is shown, not played open
        (THREE, "b12 k456 b789 EEE CC +b3", "S", "E"),
        (THREE, "(b123) k456 b789 EEE C +C", "S", "E"),  # a concealed chow, written apart
        (THREE, "b123 k456 b789 EEE C +C", "W", "F"),  # the green-dragon hand
        ("nmb-2009+five-players", "b123 k456 t789 EEE C +C", "N", "F"),
        ("nts-2002+three-players", "b123 k456 b789 EEE C +C", "S", "F"),
        ("nts-2002", "b123 k456 t789 EEE C +C", "S", "E"),
        ("nmb-2009+flowers", "b123 k456 t789 EEE C +C f2 s4", "S", "E"),
    ],
)
def test_what_the_table_has_is_scored(rules: str, text: str, seat: str, round: str) -> None:
    winds = {"E": Tile.EAST, "S": Tile.SOUTH, "W": Tile.WEST, "N": Tile.NORTH, "F": Tile.GREEN}
    discard = Win(WinSource.DISCARD)
    result = score_hand(hand(text), Situation(winds[seat], winds[round], discard), load(rules))
    assert result.score > 0


def test_three_players_concealed_chow_scores_as_at_four() -> None:
    """b12 + claimed b3 at three players: the chow is shown for mahjong, not played open;
    the hand scores exactly as under the four-player rule set: b123* k456 b789 EEE CC:
    EEE concealed 8 + CC 2 + mahjong 20 + only possible tile (the edge b12) 2 = 32
    points; round wind pung 1 doubling -> 64."""
    text = "b12 k456 b789 EEE CC +b3"
    three = score(THREE, text, seat="S", win="discard")
    four = score("nmb-2009", text, seat="S", win="discard")
    assert (three.points, three.doublings, three.score) == (32, 1, 64)
    assert (four.points, four.doublings, four.score) == (32, 1, 64)


def test_wind_refusal_holds_every_time_and_for_a_dead_hand() -> None:
    """The winds a table has are remembered once checked; one it has not is refused on
    every call, a dead hand included."""
    rules = load(THREE)
    h = hand("b123 k456 b789 EE C W")
    for _ in range(2):
        with pytest.raises(InvalidWin, match="seat wind N does not exist"):
            score_hand(h, Situation(Tile.NORTH, Tile.EAST), rules)
    with pytest.raises(InvalidWin, match="round wind N does not exist"):
        score_hand(h, Situation(Tile.SOUTH, Tile.NORTH, dead=True), rules)
    # the pair EE of the round wind: 2 points (the loose tiles count for nothing)
    assert score_hand(h, Situation(Tile.SOUTH, Tile.EAST), rules).score == 2


def test_a_situation_object_scored_again_is_checked_and_valued_again() -> None:
    """The scorer remembers what it read from a situation object (its winds' tables,
    whether the table has them); the same object refused once is refused again, and
    a wrong number of tiles is still reported before a wind the table does not have."""
    rules = load(THREE)
    north = Situation(Tile.NORTH, Tile.EAST)
    for _ in range(2):
        with pytest.raises(InvalidWin, match="seat wind N does not exist"):
            score_hand(hand("b123 k456 b789 EE C W"), north, rules)
        with pytest.raises(InvalidHand, match="non-winning hand has 13 tiles"):
            score_hand(hand("b123 k456 b789 EE C"), north, rules)


def test_new_situation_objects_are_never_taken_for_old_ones() -> None:
    """Situations made and dropped one after the other (Python reuses their ids): each is
    valued for its own seat.  b12 k456 b789 EEE CC + b3 from a discard under nmb-2009:
    EEE concealed 8 + CC 2 + mahjong 20 + only possible tile (the edge b12) 2 = 32
    points; EEE is the round wind's pung (1 doubling) and, for East, his own wind's
    too (ruling 10: 1 more): South 32 x 2 = 64, East 32 x 4 = 128.  More situations than
    the scorer keeps, so some are forgotten and read again."""
    rules = load("nmb-2009")
    h = hand("b12 k456 b789 EEE CC +b3")
    win = Win(WinSource.DISCARD)
    for n in range(300):
        seat, want = (Tile.EAST, 128) if n % 3 == 0 else (Tile.SOUTH, 64)
        assert score_hand(h, Situation(seat, Tile.EAST, win), rules).score == want
