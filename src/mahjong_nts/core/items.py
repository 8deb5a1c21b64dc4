"""The catalogue of scoring items: what each one is, never what it is worth.

Values live in rule-set data (:mod:`mahjong_nts.core.rules`); an item a rule set
gives no value is simply not scored under it.  Items in the same ``group`` are
exclusive: only the one with the highest value counts (rulings 8, 13, 14).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

__all__ = ["ITEMS", "LIMIT_HANDS", "Item", "ItemKind", "LimitHand", "Who"]


class ItemKind(StrEnum):
    POINTS = "points"
    DOUBLINGS = "doublings"


class Who(StrEnum):
    ALL = "all"
    WINNER = "winner"


@dataclass(frozen=True, slots=True)
class Item:
    id: str
    kind: ItemKind
    who: Who
    nl: str
    en: str
    description: str
    group: str | None = None


@dataclass(frozen=True, slots=True)
class LimitHand:
    id: str
    irregular: bool
    nl: str
    en: str
    description: str


P, D = ItemKind.POINTS, ItemKind.DOUBLINGS
A, W = Who.ALL, Who.WINNER

_ITEMS: Final = (
    # Points for every player: sets and pairs.
    Item(
        "pung_simple_open",
        P,
        A,
        "Open pung eenvoudige stenen",
        "Exposed pung of simples",
        "pung of a suit 2-8, exposed",
    ),
    Item(
        "pung_simple_concealed",
        P,
        A,
        "Dichte pung eenvoudige stenen",
        "Concealed pung of simples",
        "pung of a suit 2-8, concealed",
    ),
    Item(
        "pung_major_open",
        P,
        A,
        "Open pung edelstenen",
        "Exposed pung of terminals/honours",
        "pung of 1s, 9s, winds or dragons, exposed",
    ),
    Item(
        "pung_major_concealed",
        P,
        A,
        "Dichte pung edelstenen",
        "Concealed pung of terminals/honours",
        "pung of 1s, 9s, winds or dragons, concealed",
    ),
    Item(
        "kong_simple_open",
        P,
        A,
        "Open kong eenvoudige stenen",
        "Exposed kong of simples",
        "kong of a suit 2-8, exposed",
    ),
    Item(
        "kong_simple_concealed",
        P,
        A,
        "Dichte kong eenvoudige stenen",
        "Concealed kong of simples",
        "kong of a suit 2-8, concealed",
    ),
    Item(
        "kong_major_open",
        P,
        A,
        "Open kong edelstenen",
        "Exposed kong of terminals/honours",
        "kong of 1s, 9s, winds or dragons, exposed",
    ),
    Item(
        "kong_major_concealed",
        P,
        A,
        "Dichte kong edelstenen",
        "Concealed kong of terminals/honours",
        "kong of 1s, 9s, winds or dragons, concealed",
    ),
    Item("pair_dragon", P, A, "Paar draken", "Pair of dragons", "a pair of dragons"),
    Item("pair_own_wind", P, A, "Paar eigen wind", "Pair of own wind", "a pair of the seat wind"),
    Item(
        "pair_round_wind",
        P,
        A,
        "Paar wind van de ronde",
        "Pair of round wind",
        "a pair of the round wind",
    ),
    Item("bonus_tile", P, A, "Geluksteen", "Flower or season", "each flower or season"),
    # Points for the winner.
    Item("mahjong", P, W, "Mahjong", "Mahjong", "going out"),
    Item(
        "self_drawn",
        P,
        W,
        "Zelf gepakt van de muur",
        "Self-drawn winning tile",
        "winning tile drawn from the wall (a loose tile counts too)",
    ),
    Item(
        "only_possible_tile",
        P,
        W,
        "Enig mogelijke steen",
        "Only possible tile",
        "the hand waited on exactly one tile kind",
    ),
    Item(
        "completes_pair",
        P,
        W,
        "Volmaken paar",
        "Winning tile completes the pair",
        "the winning tile completes the pair",
    ),
    Item(
        "peling_eats_cake",
        P,
        W,
        "Pe-ling eet cake",
        "The bird eats the cake",
        "winning circles 1 completes a pair of bamboo 1",
    ),
    Item(
        "last_tile_points",
        P,
        W,
        "Laatste steen voor remise",
        "Last tile before a draw",
        "winning on the last tile of the wall or the last discard (points)",
    ),
    Item(
        "chows_and_pair_points",
        P,
        W,
        "Alleen chows + sluitpaar",
        "Only chows and a pair",
        "four chows and a pair (points)",
    ),
    # Doublings for every player.
    Item(
        "pung_dragon",
        D,
        A,
        "Pung/kong draken",
        "Pung/kong of dragons",
        "each pung or kong of dragons",
    ),
    Item(
        "pung_own_wind",
        D,
        A,
        "Pung/kong eigen wind",
        "Pung/kong of own wind",
        "a pung or kong of the seat wind",
    ),
    Item(
        "pung_round_wind",
        D,
        A,
        "Pung/kong wind van de ronde",
        "Pung/kong of round wind",
        "a pung or kong of the round wind",
    ),
    Item(
        "pung_ruling_dragon",
        D,
        A,
        "Pung/kong heersende groene draak",
        "Pung/kong of the ruling green dragon",
        "in the green-dragon hand, a pung or kong of green dragons (on top of the dragon pung)",
    ),
    Item(
        "three_concealed_pungs",
        D,
        A,
        "3 dichte pungs",
        "Three concealed pungs",
        "three concealed pungs (a concealed kong counts, an open one does not)",
        "concealed_sets",
    ),
    Item(
        "four_concealed_pungs",
        D,
        A,
        "4 dichte pungs",
        "Four concealed pungs",
        "four concealed pungs (a concealed kong counts, an open one does not)",
        "concealed_sets",
    ),
    Item(
        "three_kongs",
        D,
        A,
        "3 kongs",
        "Three kongs",
        "three kongs, open or concealed",
        "concealed_sets",
    ),
    Item(
        "three_concealed_kongs",
        D,
        A,
        "3 dichte kongs",
        "Three concealed kongs",
        "three concealed kongs",
        "concealed_sets",
    ),
    Item(
        "four_kongs",
        D,
        A,
        "4 kongs",
        "Four kongs",
        "four kongs, open or concealed",
        "concealed_sets",
    ),
    Item(
        "clean_suit",
        D,
        A,
        "Schoon spel",
        "Clean hand",
        "tiles of one suit with winds and/or dragons",
        "clean",
    ),
    Item(
        "clean_terminals",
        D,
        A,
        "Schoon spel (edelstenen)",
        "Clean hand (terminals and honours)",
        "only terminals and honours, any suits",
        "clean",
    ),
    Item(
        "very_clean",
        D,
        A,
        "Zeer schoon spel",
        "Very clean hand",
        "terminals of one suit with winds and/or dragons",
        "clean",
    ),
    Item("pure_suit", D, A, "Zuiver spel", "Pure hand", "tiles of one suit only", "clean"),
    Item(
        "pure_honours",
        D,
        A,
        "Zuiver spel (troefstenen)",
        "Pure hand (honours only)",
        "only winds and dragons",
        "clean",
    ),
    Item(
        "pure_terminals", D, A, "Alleen enen en negens", "Only terminals", "only 1s and 9s", "clean"
    ),
    Item("own_flower", D, A, "Eigen bloem", "Own flower", "the flower of the seat"),
    Item("own_season", D, A, "Eigen seizoen", "Own season", "the season of the seat"),
    Item("all_flowers", D, A, "Alle bloemen", "All four flowers", "all four flowers"),
    Item("all_seasons", D, A, "Alle seizoenen", "All four seasons", "all four seasons"),
    # Doublings for the winner.
    Item("four_chows", D, W, "Vier chows", "Four chows", "four chows and any pair"),
    Item("four_pungs", D, W, "Vier pungs", "Four pungs", "four pungs/kongs and any pair"),
    Item(
        "all_pungs_simples",
        D,
        W,
        "Winst met gelijke 2 t/m 8",
        "All pungs of simples",
        "four pungs/kongs, all tiles 2-8 (on top of four pungs)",
    ),
    Item("pure_simples", D, W, "Pure eenvoud", "All simples", "only tiles 2-8"),
    Item(
        "small_four_winds",
        D,
        W,
        "Kleine vier winden",
        "Little four winds",
        "three pungs of winds and a pair of winds",
    ),
    Item(
        "small_three_dragons",
        D,
        W,
        "Kleine drie draken",
        "Little three dragons",
        "two pungs of dragons and a pair of dragons",
    ),
    Item(
        "three_wise_men",
        D,
        W,
        "De drie wijzen",
        "The three wise men",
        "pungs/kongs of all three dragons",
    ),
    Item(
        "fully_concealed",
        D,
        W,
        "Verborgen schat",
        "Fully concealed hand",
        "every tile self-drawn, the winning tile included",
    ),
    Item(
        "last_tile",
        D,
        W,
        "Winnen van de bodem van de zee",
        "Last tile of the wall",
        "winning on the last tile of the wall, self-drawn",
        "last_tile",
    ),
    Item(
        "last_tile_circles1",
        D,
        W,
        "De maan van de bodem van de zee vissen",
        "Moon from the bottom of the sea",
        "winning on the last tile of the wall, and it is circles 1",
        "last_tile",
    ),
    Item(
        "last_discard",
        D,
        W,
        "Laatste steen voor remise, van tafel",
        "Last discard",
        "winning on the last discard before a draw",
    ),
    Item(
        "loose_tile",
        D,
        W,
        "Kong met de bloeiende bloemen",
        "Win on a loose tile",
        "winning on the loose tile after a kong",
        "loose_tile",
    ),
    Item(
        "loose_tile_circles5",
        D,
        W,
        "De pruimenbloesem van het dak plukken",
        "Plum blossom from the roof",
        "winning on the loose tile after a kong, and it is circles 5",
        "loose_tile",
    ),
    Item(
        "kong_on_kong",
        D,
        W,
        "Kong op kong",
        "Kong on kong",
        "winning on the loose tile of a second kong in one turn",
        "loose_tile",
    ),
    Item(
        "robbing_kong",
        D,
        W,
        "Kongroof",
        "Robbing the kong",
        "winning on the tile another player adds to an exposed pung",
    ),
    Item(
        "earth_doublings",
        D,
        W,
        "Spel van de aarde",
        "Earthly hand",
        "winning on East's first discard (doublings)",
    ),
    Item(
        "lucky_thirteen",
        D,
        W,
        "De gelukkige dertien",
        "The lucky thirteen",
        "waiting after the deal, announced, hand unchanged since",
    ),
)

ITEMS: Final[dict[str, Item]] = {item.id: item for item in _ITEMS}

_LIMITS: Final = (
    LimitHand(
        "nine_gates",
        True,
        "Negen poorten",
        "Nine gates",
        "1-1-1-2-3-4-5-6-7-8-9-9-9 of one suit plus one more of that suit",
    ),
    LimitHand(
        "thirteen_orphans",
        True,
        "Dertien wezen",
        "Thirteen orphans",
        "one of every terminal and honour plus one more of them",
    ),
    LimitHand(
        "seven_pairs_honours",
        True,
        "Tweelingen van troefstenen",
        "Seven pairs of honours",
        "seven pairs of winds and dragons",
    ),
    LimitHand(
        "seven_pairs_terminals",
        True,
        "Tweelingen van hoekstenen",
        "Seven pairs of terminals",
        "seven pairs of 1s and 9s",
    ),
    LimitHand(
        "wind_snake",
        True,
        "Windenslang",
        "Wind snake",
        "1-9 of one suit, one of each wind, one more of those",
    ),
    LimitHand(
        "dragon_snake",
        True,
        "Drakenslang",
        "Dragon snake",
        "1-9 of one suit, one of each dragon, a pair of winds",
    ),
    LimitHand(
        "peking_garden",
        True,
        "Hof van Peking",
        "Peking garden",
        "1-7 of one suit, one of each wind and each dragon",
    ),
    LimitHand(
        "seven_pairs_pure",
        True,
        "Zuivere tweelingen",
        "Pure seven pairs",
        "seven pairs of one suit",
    ),
    LimitHand(
        "seven_pairs_very_clean",
        True,
        "Zeer schone tweelingen",
        "Very clean seven pairs",
        "seven pairs of terminals of one suit and honours",
    ),
    LimitHand(
        "seven_pairs_clean",
        True,
        "Schone tweelingen",
        "Clean seven pairs",
        "seven pairs of one suit and honours",
    ),
    LimitHand(
        "seven_pairs_terminals_honours",
        True,
        "Schone tweelingen (edelstenen)",
        "Seven pairs of terminals and honours",
        "seven pairs of terminals (any suits) and honours",
    ),
    LimitHand("seven_pairs", True, "Zeven tweelingen", "Seven pairs", "any seven pairs"),
    LimitHand(
        "four_winds", False, "Vier winden", "Four winds", "four pungs/kongs of winds and any pair"
    ),
    LimitHand(
        "three_dragons",
        False,
        "Drie draken",
        "Three dragons",
        "three pungs/kongs of dragons, any set and any pair",
    ),
    LimitHand(
        "jade", False, "Jade spel", "Jade hand", "only bamboo 2, 3, 4, 6, 8 and green dragons"
    ),
    LimitHand(
        "heaven", False, "Spel van de hemel", "Heavenly hand", "East wins on the 14 dealt tiles"
    ),
    LimitHand(
        "earth", False, "Spel van de aarde", "Earthly hand", "winning on East's first discard"
    ),
    LimitHand(
        "four_concealed_kongs",
        False,
        "Vier verborgen kongs",
        "Four concealed kongs",
        "four concealed kongs and any pair",
    ),
    LimitHand(
        "four_kongs",
        False,
        "Vier kongs",
        "Four kongs",
        "four kongs, open or concealed, and any pair",
    ),
    LimitHand(
        "head_and_tail",
        False,
        "Kop en staart",
        "Heads and tails",
        "pungs of 1s and 9s and a pair of 1s or 9s",
    ),
    LimitHand(
        "twisting_snake",
        False,
        "Kronkelende slang",
        "Twisting snake",
        "one suit: pungs of 1 and 9, two chows, a pair of 2, 5 or 8 (three layouts)",
    ),
    LimitHand(
        "only_honours",
        False,
        "Alleen winden en draken",
        "All honours",
        "only pungs/kongs and a pair of winds and dragons",
    ),
    LimitHand(
        "red_dragon",
        False,
        "Spel van de rode draak",
        "Red dragon hand",
        "kong of red dragons, characters 1-9, a pair of the own wind",
    ),
)

LIMIT_HANDS: Final[dict[str, LimitHand]] = {hand.id: hand for hand in _LIMITS}
