"""One test per scoring item per rule set, and every limit hand per rule set.

The values below are written from the books and the project's rulings (docs/rules.md),
never from the rule-set data files nor from the scorer's output; each carries the book line
it comes from (NTS 2016, NTS 2002, NMB 2009, Rode Draak 1998: see docs/rules.md).
Seat South, round wind East unless a case says otherwise.
"""

from __future__ import annotations

from typing import Any

import pytest
from core_helpers import item_map, score

from mahjong_nts.core.items import ITEMS, ItemKind

# ---------------------------------------------------------------------------------------
# Values from the books.
# ---------------------------------------------------------------------------------------

_SETS = {
    # "Pung Kong Open|Dicht|Open|Dicht: Eenvoudige stenen 2 4 8 16; Edelstenen 4 8 16 32"
    # (2016 2.4.1; 2002 "Combinaties van stenen"; 2009 same table; rode-draak "Stenen")
    "pung_simple_open": 2,
    "pung_simple_concealed": 4,
    "pung_major_open": 4,
    "pung_major_concealed": 8,
    "kong_simple_open": 8,
    "kong_simple_concealed": 16,
    "kong_major_open": 16,
    "kong_major_concealed": 32,
}

NTS: dict[str, int] = {
    **_SETS,
    # "Een paar van draken, eigen wind of wind van de ronde 2"
    "pair_dragon": 2,
    "pair_own_wind": 2,
    "pair_round_wind": 2,
    "mahjong": 20,
    "self_drawn": 2,  # "Mahjong met een zelf uit de muur gepakte steen 2"
    "only_possible_tile": 2,  # "Mahjong met de enig mogelijke steen 2"
    "completes_pair": 2,  # "... met de laatste steen een paar te completeren" (2002: 2)
    "peling_eats_cake": 10,  # "Pe-ling eet cake ... 10"
    # Verdubbelingen voor alle spelers
    "pung_dragon": 1,
    "pung_own_wind": 1,
    "pung_round_wind": 1,
    "three_concealed_pungs": 1,
    "four_concealed_pungs": 2,
    "three_concealed_kongs": 2,
    "four_kongs": 3,
    "clean_suit": 1,
    "clean_terminals": 1,
    "very_clean": 2,
    "pure_suit": 3,
    "pure_honours": 3,  # "Zuiver 3 ... Alleen winden en draken"
    # Verdubbelingen voor de winnaar
    "four_chows": 1,
    "four_pungs": 1,
    "pure_simples": 1,
    "small_four_winds": 1,
    "small_three_dragons": 1,
    "fully_concealed": 2,  # "Verborgen schat ... 2" / 2002 "Geheel verborgen spel 2"
    "last_tile": 1,
    "last_tile_circles1": 3,
    "loose_tile": 1,
    "loose_tile_circles5": 3,
    "robbing_kong": 1,
    "kong_on_kong": 2,
}

NMB: dict[str, int] = {
    **_SETS,
    "pair_dragon": 2,  # "Draken ... Paar 2", "Heersende wind 2", "Eigen wind 2"
    "pair_own_wind": 2,
    "pair_round_wind": 2,
    "mahjong": 20,
    "self_drawn": 15,  # "Zelf gepakt van muur 15"
    "only_possible_tile": 2,
    "completes_pair": 2,
    "peling_eats_cake": 10,
    "pung_dragon": 1,
    "pung_own_wind": 1,
    "pung_round_wind": 1,
    "three_concealed_pungs": 2,  # "Drie pungs dicht 2"
    "three_kongs": 2,  # "Drie kongs open 2"
    "three_concealed_kongs": 3,  # "Drie kongs dicht 3"
    "four_concealed_pungs": 3,  # "Vier pungs dicht 3"
    "clean_suit": 2,  # "Schoon spel 2"
    "clean_terminals": 2,
    "very_clean": 3,  # "Zeer schoon spel 3"
    "pure_suit": 4,  # "Zuiver spel 4"
    "pure_honours": 4,
    "fully_concealed": 1,  # "Verborgen schat 1"
    "small_four_winds": 1,
    "small_three_dragons": 1,
    "four_chows": 1,
    "four_pungs": 1,
    "pure_simples": 1,
    "last_tile": 2,  # "Laatste steen van de muur 2"
    "last_discard": 1,  # "Laatste steen voor remise 1"
    "last_tile_circles1": 3,
    "loose_tile": 1,
    "loose_tile_circles5": 3,
    "robbing_kong": 1,
    "kong_on_kong": 3,  # "Kong op kong 3"
}

RODE: dict[str, int] = {
    **_SETS,
    "pair_dragon": 2,  # "2 draken/eigen winden 2 2"
    "pair_own_wind": 2,
    "mahjong": 20,
    "self_drawn": 2,  # "Winnende steen van de Muur getrokken 2"
    "only_possible_tile": 2,  # "Enig mogelijke plaats om te winnen 2"
    "last_tile_points": 10,  # "Laatste steen voor remise 10"
    "chows_and_pair_points": 10,  # "Alleen chowen + sluitpaar 10"
    "peling_eats_cake": 10,  # "Sluitpaar: vogel Pe-ling eet cake (= schoon) 10"
    # "Eén keer verdubbelen"
    "clean_suit": 1,
    "clean_terminals": 1,
    "pung_dragon": 1,
    "pung_own_wind": 1,
    "pung_round_wind": 1,
    "three_concealed_pungs": 1,
    # "Twee keer verdubbelen"
    "three_concealed_kongs": 2,
    "four_concealed_pungs": 2,
    # "Drie keer verdubbelen"
    "four_kongs": 3,
    "pure_suit": 3,  # superschoon
    "pure_terminals": 3,  # "alleen enen en negens"
    "pure_honours": 3,  # "alleen troefstenen"
    # winner
    "four_pungs": 1,  # "Winst met Gelijke"
    "all_pungs_simples": 1,  # "Winst met Gelijke 2 t/m 8 ... (dus extra verdubbeling)"
    "loose_tile": 1,  # "Kong met de Bloeiende Bloemen"
    "robbing_kong": 1,
    "lucky_thirteen": 1,
    "earth_doublings": 2,  # "Het Spel van de Aarde" twice
    "fully_concealed": 3,  # "De Verborgen Schat" three times
    "three_wise_men": 3,
}

FLOWERS = {
    "bonus_tile": 4,  # "levert een geluksteen 4 punten op"
    "own_flower": 1,  # "eigen geluksteen ... één verdubbeling"
    "own_season": 1,
    "all_flowers": 1,  # "een reeks gelukstenen ... ook een verdubbeling"
    "all_seasons": 1,
}

VALUES: dict[str, dict[str, int]] = {
    "nts-2016": NTS,
    "nts-2002": NTS,
    "nmb-2009": NMB,
    "rode-draak": RODE,
    "nmb-2009+flowers": FLOWERS,
    "nts-2002+flowers": FLOWERS,
    "nmb-2009+three-players": {"pung_ruling_dragon": 1},
    "nmb-2009+five-players": {"pung_ruling_dragon": 1},
}

# ---------------------------------------------------------------------------------------
# A hand for every item.  (notation, situation keywords, count)
#   win=None: a non-winner (13 tiles); else the WinSource and Win flags.
# ---------------------------------------------------------------------------------------

_NW: dict[str, Any] = {"win": None}
_WALL: dict[str, Any] = {"win": "wall"}
_DISCARD: dict[str, Any] = {"win": "discard"}

HANDS: dict[str, tuple[str, dict[str, Any], int]] = {
    "pung_simple_open": ("[b222] k147 t147 b9 N W C", _NW, 1),
    "pung_simple_concealed": ("b222 k147 t147 b9 N W C", _NW, 1),
    "pung_major_open": ("[b999] k147 t147 b2 N W C", _NW, 1),
    "pung_major_concealed": ("b999 k147 t147 b2 N W C", _NW, 1),
    "kong_simple_open": ("[b2222] k147 t147 b9 N W C", _NW, 1),
    "kong_simple_concealed": ("(b2222) k147 t147 b9 N W C", _NW, 1),
    "kong_major_open": ("[b9999] k147 t147 b2 N W C", _NW, 1),
    "kong_major_concealed": ("(b9999) k147 t147 b2 N W C", _NW, 1),
    "pair_dragon": ("CC k147 t147 b258 N W", _NW, 1),
    "pair_own_wind": ("SS k147 t147 b258 N W", _NW, 1),
    "pair_round_wind": ("EE k147 t147 b258 N W", _NW, 1),
    "pung_dragon": ("CCC k147 t147 b258 N", _NW, 1),
    "pung_own_wind": ("SSS k147 t147 b258 N", _NW, 1),
    "pung_round_wind": ("EEE k147 t147 b258 N", _NW, 1),
    "three_concealed_pungs": ("b222 k333 t444 b9 N W C", _NW, 1),
    "four_concealed_pungs": ("b222 k333 t444 k999 N", _NW, 1),
    "three_kongs": ("[b2222] [k3333] [t4444] k9 N W C", _NW, 1),
    "three_concealed_kongs": ("(b2222) (k3333) (t4444) k9 N W C", _NW, 1),
    "four_kongs": ("[b2222] [k3333] [t4444] [k9999] N", _NW, 1),
    "clean_suit": ("b222 b456 b789 b1 N W C", _NW, 1),
    "clean_terminals": ("b111 k999 t1 t9 N W C S E", _NW, 1),
    "very_clean": ("b111 b999 b9 N W C S E P", _NW, 1),
    "pure_suit": ("b222 b456 b789 b1 b3 b3 b5", _NW, 1),
    "pure_honours": ("EEE SSS WW NN C F P", _NW, 1),
    "pure_terminals": ("b111 k999 t11 t99 b99 k1", _NW, 1),
    # -- winner items ---------------------------------------------------------------
    "mahjong": ("b123 k456 t789 b789 N +N", _DISCARD, 1),
    "self_drawn": ("b123 k456 t789 b789 N +N", _WALL, 1),
    # edge wait b12 -> only b3
    "only_possible_tile": ("b12 k456 t789 b789 NN +b3", _DISCARD, 1),
    "completes_pair": ("b123 k456 t789 b789 C +C", _DISCARD, 1),
    # circles 1 completes the pair of bamboo 1; the hand stays a clean bamboo hand
    "peling_eats_cake": ("b1123456789 CCC +k1", _WALL, 1),
    "four_chows": ("b12 k456 t789 b678 NN +b3", _WALL, 1),
    "chows_and_pair_points": ("b12 k456 t789 b678 NN +b3", _WALL, 1),
    "four_pungs": ("[b222] [k333] [t444] k99 NN +k9", _DISCARD, 1),
    "all_pungs_simples": ("[b222] [k333] [t444] k66 b55 +k6", _DISCARD, 1),
    "pure_simples": ("b234 k345 t456 b67 k55 +b8", _WALL, 1),
    "small_four_winds": ("EEE SSS WWW b234 N +N", _DISCARD, 1),
    "small_three_dragons": ("CCC FFF P b234 k567 +P", _DISCARD, 1),
    "three_wise_men": ("CCC FFF PP b234 k55 +P", _DISCARD, 1),
    "fully_concealed": ("b12 k456 t789 b789 NN +b3", _WALL, 1),
    "last_tile": ("b12 k456 t789 b789 NN +b3", {"win": "wall", "last_tile": True}, 1),
    "last_tile_circles1": ("k23 b456 t789 b789 NN +k1", {"win": "wall", "last_tile": True}, 1),
    "last_discard": ("b12 k456 t789 b789 NN +b3", {"win": "discard", "last_discard": True}, 1),
    "last_tile_points": ("b12 k456 t789 b789 NN +b3", {"win": "wall", "last_tile": True}, 1),
    "loose_tile": ("(t1111) b12 k456 b789 NN +b3", {"win": "loose_tile"}, 1),
    "loose_tile_circles5": ("(t1111) b123 k46 b789 NN +k5", {"win": "loose_tile"}, 1),
    "kong_on_kong": (
        "(t1111) (b9999) b12 k456 NN +b3",
        {"win": "loose_tile", "kong_on_kong": True},
        1,
    ),
    "robbing_kong": ("b78 k456 t789 b123 NN +b9", {"win": "robbed_kong"}, 1),
    "earth_doublings": ("b12 k456 t789 b789 NN +b3", {"win": "discard", "first_discard": True}, 1),
    "lucky_thirteen": ("b12 k456 t789 b789 NN +b3", {"win": "discard", "lucky_thirteen": True}, 1),
    # -- flowers and seasons (seat East: f1 and s1 are his own) ---------------------------
    "bonus_tile": ("b222 k147 t147 b9 N W C f2 f3 s3", {"win": None, "seat": "E"}, 3),
    "own_flower": ("b222 k147 t147 b9 N W C f1", {"win": None, "seat": "E"}, 1),
    "own_season": ("b222 k147 t147 b9 N W C s1", {"win": None, "seat": "E"}, 1),
    "all_flowers": ("b222 k147 t147 b9 N W C f1 f2 f3 f4", {"win": None, "seat": "E"}, 1),
    "all_seasons": ("b222 k147 t147 b9 N W C s1 s2 s3 s4", {"win": None, "seat": "E"}, 1),
    # -- the green-dragon hand: green dragon rules instead of a round wind -----------------
    "pung_ruling_dragon": ("FFF b147 k147 b258 W", {"win": None, "round": "F"}, 1),
}

ITEM_CASES = [
    pytest.param(rs, item, value, id=f"{rs}-{item}")
    for rs, table in VALUES.items()
    for item, value in table.items()
]


def test_every_item_has_a_hand() -> None:
    assert set(HANDS) <= set(ITEMS)
    for table in VALUES.values():
        assert set(table) <= set(HANDS)


def test_every_catalogued_item_is_valued_somewhere() -> None:
    valued = {item for table in VALUES.values() for item in table}
    assert valued == set(ITEMS)


@pytest.mark.parametrize(("rules", "item", "value"), ITEM_CASES)
def test_item_value(rules: str, item: str, value: int) -> None:
    text, sit, count = HANDS[item]
    result = score(rules, text, **sit)
    found = item_map(result)
    assert item in found, f"{item} missing: {result.items} ({result.arrangement})"
    points, doublings, n = found[item]
    assert n == count
    if ITEMS[item].kind is ItemKind.POINTS:
        assert (points, doublings) == (value * count, 0)
    else:
        assert (points, doublings) == (0, value * count)
    assert result.limit_hand is None


# ---------------------------------------------------------------------------------------
# Whole-hand figures for the item hands, worked out by hand (nts-2016 unless named).
# ---------------------------------------------------------------------------------------

TOTALS = [
    # [b222] 2 points, no doublings
    ("nts-2016", "pung_simple_open", 2),
    # (b9999) 32 points
    ("nts-2016", "kong_major_concealed", 32),
    # CCC 8 points x 2 (dragon pung)
    ("nts-2016", "pung_dragon", 16),
    ("nmb-2009", "pung_dragon", 16),
    # b222 k333 t444: 12 points; nts 1 doubling, nmb 2, rode 1
    ("nts-2016", "three_concealed_pungs", 24),
    ("nmb-2009", "three_concealed_pungs", 48),
    ("rode-draak", "three_concealed_pungs", 24),
    # four concealed pungs 4+4+4+8 = 20 points; nts 2, nmb 3, rode 2 doublings (only the highest)
    ("nts-2016", "four_concealed_pungs", 80),
    ("nmb-2009", "four_concealed_pungs", 160),
    ("rode-draak", "four_concealed_pungs", 80),
    # three open kongs 8+8+8 = 24 points; nmb "Drie kongs open 2" -> 96; nts has no such item
    ("nmb-2009", "three_kongs", 96),
    ("nts-2016", "three_kongs", 24),
    # three concealed kongs 48 points; nts 2 (not 1 for 3 concealed pungs), nmb 3
    ("nts-2016", "three_concealed_kongs", 192),
    ("nmb-2009", "three_concealed_kongs", 384),
    # four open kongs 40 points x 2^3 (nts); nmb: four kongs is a limit hand, the non-winner
    # counts three kongs (2)
    ("nts-2016", "four_kongs", 320),
    ("nmb-2009", "four_kongs", 160),
    # b222 (4) + clean: nts 4x2, nmb 4x4
    ("nts-2016", "clean_suit", 8),
    ("nmb-2009", "clean_suit", 16),
    # b111 b999 (16) very clean: nts 2, nmb 3 (only the highest of the clean group)
    ("nts-2016", "very_clean", 64),
    ("nmb-2009", "very_clean", 128),
    # b222 (4) pure: nts 3 -> 32, nmb 4 -> 64, rode 3 -> 32
    ("nts-2016", "pure_suit", 32),
    ("nmb-2009", "pure_suit", 64),
    ("rode-draak", "pure_suit", 32),
    # EEE SSS (16) + own wind S + round wind E + pure honours: nts 16 x 2^5 = 512
    ("nts-2016", "pure_honours", 512),
    # b111 k999 (16) only terminals: rode 3 -> 128
    ("rode-draak", "pure_terminals", 128),
    # mahjong 20 + completes pair 2 + only possible 2 = 24, four chows 1 doubling -> 48
    ("nts-2016", "mahjong", 48),
    # the same four-chows hand with a self-drawn N: nts 26 points x 2^(2 fully concealed +
    # 1 four chows) = 208; nmb (20+15+2+2) = 39 x 2^(1+1) = 156
    ("nts-2016", "self_drawn", 208),
    ("nmb-2009", "self_drawn", 156),
    # four chows self-drawn, edge wait: nts (20+2+2) x 2^(1+2) = 192;
    # nmb (20+15+2) x 2^(1+1) = 148
    ("nts-2016", "four_chows", 192),
    ("nmb-2009", "four_chows", 148),
    # small four winds, the winning N (discard) completes the pair: EEE SSS WWW concealed
    # 24 + 20 + 2 (pair) + 2 (only possible) = 48 points; doublings: own S 1, round E 1,
    # three concealed pungs 1, small four winds 1, clean (bamboo + honours) 1 = 5 -> 1536
    ("nts-2016", "small_four_winds", 1536),
]


@pytest.mark.parametrize(
    ("rules", "item", "total"),
    [pytest.param(r, i, t, id=f"{r}-{i}-{t}") for r, i, t in TOTALS],
)
def test_item_hand_total(rules: str, item: str, total: int) -> None:
    text, sit, _ = HANDS[item]
    result = score(rules, text, **sit)
    assert result.score == total, (result.items, result.arrangement)


# ---------------------------------------------------------------------------------------
# Limit hands: (self-drawn, claimed, waiting) from the books.  None: cannot score that way.
# ---------------------------------------------------------------------------------------

LIMIT_TEXT: dict[str, str] = {
    "nine_gates": "b1112345678999 +b5",
    "thirteen_orphans": "b19 k19 t19 ESWN FCP +P",
    "seven_pairs_honours": "EE SS WW NN FF CC P +P",
    "seven_pairs_terminals": "b1111 b99 k11 k99 t11 t9 +t9",
    "wind_snake": "b123456789 ESWN +E",
    "dragon_snake": "b123456789 FCP E +E",
    "peking_garden": "b1234567 ESWN FC +P",
    # no arrangement into sets (b11 b234 b234 leaves b66 b88 b99)
    "seven_pairs_pure": "b11 b22 b33 b44 b66 b88 b9 +b9",
    "seven_pairs_very_clean": "b11 b99 EE SS FF CC P +P",
    "seven_pairs_clean": "b11 b22 b55 EE SS FF C +C",
    "seven_pairs": "b11 k22 t55 EE SS FF C +C",
    "four_winds": "EEE SSS WWW NN b55 +N",
    "three_dragons": "CCC FFF PP b234 k55 +P",
    "jade": "b234 b666 b888 FFF b2 +b2",
    "heaven": "b12 k456 t789 b789 NN +b3",
    "earth": "b12 k456 t789 b789 NN +b3",
    "four_concealed_kongs": "(b2222) (k3333) (t4444) (k9999) N +N",
    "four_kongs": "[b2222] [k3333] [t4444] [k9999] N +N",
    "head_and_tail": "b111 b999 k111 k99 t11 +k9",
    # played with the pung of 1s open: concealed, every twisting snake is also nine gates
    "twisting_snake": "[b111] b2 b345 b678 b999 +b2",
    "twisting_snake_2": "[b111] b234 b5 b678 b999 +b5",
    "twisting_snake_3": "[b111] b234 b567 b8 b999 +b8",
    "only_honours": "EEE SSS FFF CC NN +N",
    "red_dragon": "[CCCC] t123 t456 t78 SS +t9",
}

_T = tuple[int | None, int | None, int | None]


def _nts_limits() -> dict[str, _T]:
    # 2016 2.4.1 / 2002 Limietspelen; waiting: "de helft van het aantal punten"
    irregular = {
        "nine_gates": 2000,
        "thirteen_orphans": 2000,
        "seven_pairs_honours": 2000,
        "wind_snake": 1000,
        "dragon_snake": 1000,
        "peking_garden": 1000,
        "seven_pairs_pure": 1000,
        "seven_pairs_very_clean": 1000,
        "seven_pairs_clean": 500,
        "seven_pairs": 250,
    }
    regular = {
        "four_winds": 2000,
        "three_dragons": 2000,
        "jade": 2000,
        "four_concealed_kongs": 2000,
        "head_and_tail": 2000,
        "twisting_snake": 1000,  # 2002 Wijzigingen: "was 2000 punten en is nu een 1000"
        "twisting_snake_2": 1000,
        "twisting_snake_3": 1000,
    }
    out: dict[str, _T] = {k: (v, v, v // 2) for k, v in irregular.items()}
    out.update({k: (v, v, None) for k, v in regular.items()})
    out["heaven"] = (2000, None, None)
    out["earth"] = (None, 1000, None)
    return out


NMB_LIMITS: dict[str, _T] = {
    # "Onregelmatige limietspelen: Van de muur / Van de tafel / Wachtend spel"
    "nine_gates": (2000, 1500, 750),
    "thirteen_orphans": (2000, 1500, 750),
    "seven_pairs_honours": (2000, 1500, 750),
    "seven_pairs_terminals": (2000, 1500, 750),
    "wind_snake": (1000, 750, 500),
    "dragon_snake": (1000, 750, 500),
    "peking_garden": (1000, 750, 500),
    "seven_pairs_pure": (1000, 750, 500),
    "seven_pairs_very_clean": (1000, 750, 500),
    "seven_pairs_clean": (500, 375, 250),
    "seven_pairs": (200, 150, 100),
    # "Regelmatige limietspelen: Van de muur / Van de tafel"
    "four_winds": (2000, 1500, None),
    "three_dragons": (2000, 1500, None),
    "jade": (2000, 1500, None),
    "heaven": (2000, None, None),
    "four_kongs": (2000, 1500, None),
    "four_concealed_kongs": (2000, 1500, None),  # scores as "Vier kongs"
    "head_and_tail": (2000, 1500, None),
    "earth": (None, 1000, None),
    "twisting_snake": (2000, 1500, None),
    "twisting_snake_2": (2000, 1500, None),
    "twisting_snake_3": (2000, 1500, None),
    "only_honours": (2000, 1500, None),
}


def _rode_limits() -> dict[str, _T]:
    # "De afgesproken Limiet is: 1000 punten"; "Halve Limiet"; "Geheel in de hand: 1x
    # verdubbelen" (self-drawn, fully concealed); waiting: "levert de helft op".
    irregular = {
        "nine_gates": 1000,
        "thirteen_orphans": 1000,
        "seven_pairs_pure": 1000,  # "Beloning superschoon: Limiet"
        "seven_pairs_clean": 500,  # "Beloning schoon: Halve Limiet"
        "wind_snake": 500,  # Slang 1
        "dragon_snake": 500,  # Slang 2
        "peking_garden": 500,
    }
    # Regular limit hands here are played with an open set (see RODE_TEXT), so the limit
    # is not doubled for concealment (see also
    # test_limit_hand_is_worth_its_limit_even_when_its_parts_count_more).
    regular = {
        "jade": 1000,
        "four_winds": 1000,
        "twisting_snake": 1000,
        "twisting_snake_2": 1000,
        "twisting_snake_3": 1000,
    }
    out: dict[str, _T] = {k: (2 * v, v, v // 2) for k, v in irregular.items()}
    out["nine_gates"] = (None, 1000, 500)  # self-drawn: see the uncapped test below
    out.update({k: (v, v, None) for k, v in regular.items()})
    out["heaven"] = (2000, None, None)  # limit, always concealed and self-drawn
    out["red_dragon"] = (500, 500, None)  # half limit; the open kong: no doubling
    return out


LIMIT_VALUES: dict[str, dict[str, _T]] = {
    "nts-2016": _nts_limits(),
    "nts-2002": _nts_limits(),
    "nmb-2009": NMB_LIMITS,
    "rode-draak": _rode_limits(),
}

_LIMIT_ID = {"twisting_snake_2": "twisting_snake", "twisting_snake_3": "twisting_snake"}
_FLAGS = {"heaven": {"heaven": True}, "earth": {"first_discard": True}}
_SEAT = {"heaven": "E", "red_dragon": "S"}
_NMB_NAME = {"four_concealed_kongs": "four_kongs"}

LIMIT_CASES = [
    pytest.param(rs, key, src, value, id=f"{rs}-{key}-{src}")
    for rs, table in LIMIT_VALUES.items()
    for key, values in table.items()
    for src, value in zip(("wall", "discard"), values[:2], strict=True)
    if value is not None
]


RODE_TEXT = {
    "four_winds": "[EEE] [SSS] [WWW] NN b55 +N",
    "jade": "[b234] b666 b888 FFF b2 +b2",
}


@pytest.mark.parametrize(("rules", "key", "source", "value"), LIMIT_CASES)
def test_limit_hand_value(rules: str, key: str, source: str, value: int) -> None:
    limit_id = _LIMIT_ID.get(key, key)
    if rules == "nmb-2009":
        limit_id = _NMB_NAME.get(limit_id, limit_id)
    text = RODE_TEXT.get(key, LIMIT_TEXT[key]) if rules == "rode-draak" else LIMIT_TEXT[key]
    result = score(
        rules,
        text,
        seat=_SEAT.get(key, "S"),
        win=source,
        **_FLAGS.get(key, {}),
    )
    assert result.limit_hand == limit_id, (result.items, result.arrangement)
    assert result.score == value
    assert result.mahjong_allowed is True


WAITING_CASES = [
    pytest.param(rs, key, values[2], id=f"{rs}-{key}-waiting")
    for rs, table in LIMIT_VALUES.items()
    for key, values in table.items()
    if values[2] is not None
]


@pytest.mark.parametrize(("rules", "key", "value"), WAITING_CASES)
def test_waiting_for_irregular_limit(rules: str, key: str, value: int) -> None:
    """A non-winner one tile short of an irregular limit hand scores its waiting value
    (ruling 12; nmb: the per-hand table 750/500/250/100)."""
    text = " ".join(w for w in LIMIT_TEXT[key].split() if not w.startswith("+"))
    result = score(rules, text, win=None)
    assert result.limit_hand == key
    assert result.score == value


@pytest.mark.parametrize("rules", ["nts-2016", "nts-2002", "nmb-2009", "rode-draak"])
def test_irregular_hand_with_open_meld_is_not_that_limit(rules: str) -> None:
    """Ruling 12: nine gates with an open pung is no nine gates (here it is a twisting snake,
    a regular limit hand that may be open)."""
    result = score(rules, "[b111] b2345678999 +b5", win="discard")
    assert result.limit_hand == "twisting_snake"
    broken = score(rules, "[b111] b2345678999 +b3", win="discard")
    assert broken.limit_hand is None


def test_limit_hand_is_worth_its_limit_even_when_its_parts_count_more() -> None:
    """A limit hand always scores its limit value, "ongeacht de waarde van de verschillende
    delen" (001 §2.3.1, 000 'De regelmatige limietspelen'): under rode-draak (no cap) a
    concealed self-drawn nine gates would count 2432 as sets (b111 b999 b234 b678 b55*:
    38 points, pure suit 3 + fully concealed 3 doublings), yet it scores the limit 1000,
    doubled once for being concealed and self-drawn: 2000."""
    result = score("rode-draak", LIMIT_TEXT["nine_gates"], win="wall")
    assert result.limit_hand == "nine_gates"
    assert result.score == 2000


@pytest.mark.parametrize(
    ("rules", "total"),
    [
        # EEE (round) SSS (own) WWW concealed: 24 points; own 1 + round 1 + 3 concealed
        # pungs 1 + clean (bamboo and honours: loose tiles count, ruling 2) 1
        ("nts-2016", 24 * 2**4),
        # nmb: 3 concealed pungs 2, clean 2: 24 x 2^6 = 1536, capped at 1500 (non-winner)
        ("nmb-2009", 1500),
        # rode-draak: as nts, no cap
        ("rode-draak", 24 * 2**4),
    ],
)
def test_waiting_regular_limit_scores_ordinary_points(rules: str, total: int) -> None:
    result = score(rules, "EEE SSS WWW NN b55", win=None)
    assert result.limit_hand is None
    assert result.score == total


def test_nts_four_open_kongs_are_not_a_limit_hand() -> None:
    """nts: four kongs is 3 doublings (open or concealed); only 4 concealed kongs is a limit.
    Open kongs 8+8+8+16 = 40 + mahjong 20 + pair 2 + only possible 2 = 64 points;
    four kongs 3 + four pungs 1 = 4 doublings -> 1024."""
    result = score("nts-2016", LIMIT_TEXT["four_kongs"], win="discard")
    assert result.limit_hand is None
    assert item_map(result)["four_kongs"] == (0, 3, 1)
    assert result.score == 1024
    concealed = score("nts-2016", LIMIT_TEXT["four_concealed_kongs"], win="discard")
    assert concealed.limit_hand == "four_concealed_kongs"
    assert concealed.score == 2000


def test_rode_draak_limit_doubles_only_when_concealed_and_self_drawn() -> None:
    """'Geheel in de hand: 1x verdubbelen': wind snake (half limit) 500 -> 1000."""
    assert score("rode-draak", LIMIT_TEXT["wind_snake"], win="wall").score == 1000
    assert score("rode-draak", LIMIT_TEXT["wind_snake"], win="discard").score == 500
    opened = score("rode-draak", "[EEE] [SSS] [WWW] NN b55 +N", win="wall")
    assert opened.limit_hand == "four_winds"
    assert opened.score == 1000


def test_limit_hand_takes_no_extra_items() -> None:
    """'Bij limietspelen krijgt men geen extra punten en/of verdubbelingen'."""
    result = score("nts-2016", LIMIT_TEXT["four_winds"], win="wall")
    assert [i.id for i in result.items] == ["four_winds"]
