"""Tiles: small ints, their canonical tokens, aliases and Unicode glyphs.

Tile kinds are numbered so that a hand is a 34-length count vector:

====== ======================== ==============
index  tiles                    tokens
====== ======================== ==============
0-8    bamboe (bamboo) 1-9      ``b1`` .. ``b9``
9-17   kringen (circles) 1-9    ``k1`` .. ``k9``
18-26  tekens (characters) 1-9  ``t1`` .. ``t9``
27-30  winds East South West North ``E S W N`` (Dutch ``O Z`` for Oost, Zuid)
31-33  dragons groen, rood, wit ``F C P``
34-37  flowers 1-4 (own seat)   ``f1`` .. ``f4``
38-41  seasons 1-4 (own seat)   ``s1`` .. ``s4``
====== ======================== ==============

The number of a flower or season is the seat wind of its owner: 1 East,
2 South, 3 West, 4 North.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from mahjong_nts.core.errors import InvalidTile
from mahjong_nts.core.text import N_

__all__ = [
    "BONUS_TILES",
    "DRAGONS",
    "GREEN_TILES",
    "HONOURS",
    "NUM_KINDS",
    "ORPHANS",
    "PLAYING_TILES",
    "TERMINALS",
    "TILE_OF",
    "WINDS",
    "Suit",
    "Tile",
    "is_dragon",
    "is_honour",
    "is_major",
    "is_simple",
    "is_terminal",
    "is_wind",
    "parse_tile",
    "rank_of",
    "suit_of",
    "tile_glyph",
    "tile_name",
]


class Suit(IntEnum):
    """The kind of a tile."""

    BAMBOO = 0
    CIRCLES = 1
    CHARACTERS = 2
    WIND = 3
    DRAGON = 4
    FLOWER = 5
    SEASON = 6

    def __repr__(self) -> str:
        return f"Suit.{self.name}"


class Tile(IntEnum):
    """A tile kind.  ``Tile(i)`` for an index, :func:`parse_tile` for a token."""

    B1 = 0
    B2 = 1
    B3 = 2
    B4 = 3
    B5 = 4
    B6 = 5
    B7 = 6
    B8 = 7
    B9 = 8
    K1 = 9
    K2 = 10
    K3 = 11
    K4 = 12
    K5 = 13
    K6 = 14
    K7 = 15
    K8 = 16
    K9 = 17
    T1 = 18
    T2 = 19
    T3 = 20
    T4 = 21
    T5 = 22
    T6 = 23
    T7 = 24
    T8 = 25
    T9 = 26
    EAST = 27
    SOUTH = 28
    WEST = 29
    NORTH = 30
    GREEN = 31
    RED = 32
    WHITE = 33
    F1 = 34
    F2 = 35
    F3 = 36
    F4 = 37
    S1 = 38
    S2 = 39
    S3 = 40
    S4 = 41

    def __repr__(self) -> str:
        return f"Tile.{self.name}"

    def __str__(self) -> str:
        return _TOKENS[self]

    @property
    def token(self) -> str:
        """The canonical token, e.g. ``"b5"``, ``"E"``, ``"f2"``."""
        return _TOKENS[self]

    @property
    def suit(self) -> Suit:
        return suit_of(self)

    @property
    def rank(self) -> int:
        """1-9 for suited tiles, 1-4 for winds, flowers and seasons, 1-3 for dragons."""
        return rank_of(self)

    @property
    def glyph(self) -> str:
        return tile_glyph(self)


NUM_KINDS: Final = 34
"""Number of playing-tile kinds (suits and honours; no flowers or seasons)."""

WINDS: Final = (Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH)
DRAGONS: Final = (Tile.GREEN, Tile.RED, Tile.WHITE)
HONOURS: Final = WINDS + DRAGONS
TERMINALS: Final = (Tile.B1, Tile.B9, Tile.K1, Tile.K9, Tile.T1, Tile.T9)
ORPHANS: Final = TERMINALS + HONOURS
"""The thirteen kinds of thirteen orphans (dertien wezen): terminals and honours."""
GREEN_TILES: Final = frozenset({Tile.B2, Tile.B3, Tile.B4, Tile.B6, Tile.B8, Tile.GREEN})
"""The tiles of the jade hand (jade spel)."""
FLOWERS: Final = (Tile.F1, Tile.F2, Tile.F3, Tile.F4)
SEASONS: Final = (Tile.S1, Tile.S2, Tile.S3, Tile.S4)
BONUS_TILES: Final = FLOWERS + SEASONS
PLAYING_TILES: Final = tuple(Tile(i) for i in range(NUM_KINDS))
TILE_OF: Final[tuple[Tile, ...]] = tuple(Tile)
"""Every tile kind by its index, flowers and seasons included: ``TILE_OF[i] is Tile(i)``
for ``0 <= i < 42``, a tuple look-up where the enum call costs ~30 times as much (hot
paths only: a negative index does not raise here as ``Tile(i)`` does)."""

_SUIT_LETTERS: Final = "bkt"
_HONOUR_LETTERS: Final = "ESWNFCP"
_TOKENS: Final[dict[int, str]] = {}
for _i in range(27):
    _TOKENS[_i] = f"{_SUIT_LETTERS[_i // 9]}{_i % 9 + 1}"
for _i, _ch in enumerate(_HONOUR_LETTERS):
    _TOKENS[27 + _i] = _ch
for _i in range(4):
    _TOKENS[34 + _i] = f"f{_i + 1}"
    _TOKENS[38 + _i] = f"s{_i + 1}"

# Unicode Mahjong Tiles block (U+1F000).  The block orders winds E S W N, then
# red, green, white dragon, then characters, bamboo, circles, then flowers
# plum, orchid, bamboo, chrysanthemum and seasons spring .. winter.
_GLYPHS: Final[dict[int, str]] = {}
for _i in range(9):
    _GLYPHS[_i] = chr(0x1F010 + _i)  # bamboo
    _GLYPHS[9 + _i] = chr(0x1F019 + _i)  # circles
    _GLYPHS[18 + _i] = chr(0x1F007 + _i)  # characters
for _i in range(4):
    _GLYPHS[27 + _i] = chr(0x1F000 + _i)
_GLYPHS[Tile.GREEN] = chr(0x1F005)
_GLYPHS[Tile.RED] = chr(0x1F004)
_GLYPHS[Tile.WHITE] = chr(0x1F006)
# Own flowers: East plum, South orchid, West chrysanthemum, North bamboo.
_GLYPHS[Tile.F1] = chr(0x1F022)
_GLYPHS[Tile.F2] = chr(0x1F023)
_GLYPHS[Tile.F3] = chr(0x1F025)
_GLYPHS[Tile.F4] = chr(0x1F024)
for _i in range(4):
    _GLYPHS[38 + _i] = chr(0x1F026 + _i)

_NAMES_NL: Final = ("bamboe", "kringen", "tekens")
_NAMES_EN: Final = ("bamboo", "circles", "characters")
_HONOUR_NAMES: Final = (
    ("Oost", "East"),
    ("Zuid", "South"),
    ("West", "West"),
    ("Noord", "North"),
    ("groene draak", "green dragon"),
    ("rode draak", "red dragon"),
    ("witte draak", "white dragon"),
)
_FLOWER_NL: Final = ("pruimenbloesem", "orchidee", "chrysant", "bamboe (bloem)")
_FLOWER_EN: Final = ("plum", "orchid", "chrysanthemum", "bamboo (flower)")
_SEASON_NL: Final = ("lente", "zomer", "herfst", "winter")
_SEASON_EN: Final = ("spring", "summer", "autumn", "winter")


def _build_aliases() -> dict[str, Tile]:
    aliases: dict[str, Tile] = {}
    for tile in Tile:
        aliases[_TOKENS[tile]] = tile
        aliases[_GLYPHS[tile]] = tile
    aliases["O"] = Tile.EAST
    aliases["Z"] = Tile.SOUTH
    words: dict[str, tuple[str, ...]] = {
        "b": ("bamboe", "bamboo", "bam", "sou", "s"),
        "k": ("kringen", "kring", "circles", "circle", "dots", "dot", "pin", "p"),
        "t": ("tekens", "teken", "characters", "character", "chars", "char", "man", "m"),
    }
    for letter, names in words.items():
        base = _SUIT_LETTERS.index(letter) * 9
        for name in names:
            if len(name) == 1:
                continue  # single letters would clash with seasons / dragons
            for rank in range(1, 10):
                aliases[f"{name}{rank}"] = Tile(base + rank - 1)
    honour_words = {
        Tile.EAST: ("oost", "east"),
        Tile.SOUTH: ("zuid", "south"),
        Tile.WEST: ("west",),
        Tile.NORTH: ("noord", "north"),
        Tile.GREEN: ("groen", "green", "groene-draak", "green-dragon", "fa"),
        Tile.RED: ("rood", "red", "rode-draak", "red-dragon", "chung"),
        Tile.WHITE: ("wit", "white", "witte-draak", "white-dragon", "pai"),
    }
    for tile, names in honour_words.items():
        for name in names:
            aliases[name] = tile
    for i in range(4):
        for name in ("bloem", "flower"):
            aliases[f"{name}{i + 1}"] = Tile(34 + i)
        for name in ("seizoen", "season"):
            aliases[f"{name}{i + 1}"] = Tile(38 + i)
        for name in (_FLOWER_NL[i], _FLOWER_EN[i]):
            if " " not in name:
                aliases[name] = Tile(34 + i)
        aliases[_SEASON_NL[i]] = Tile(38 + i)
        aliases[_SEASON_EN[i]] = Tile(38 + i)
    return aliases


_ALIASES: Final = _build_aliases()


def parse_tile(token: str) -> Tile:
    """Parse one tile token: canonical (``b5``, ``E``, ``f2``), Dutch ``O``/``Z``,
    a word alias (``bamboe5``, ``dots3``, ``oost``, ``rood``, ``lente``) or a
    Unicode glyph.  Words are case-insensitive; single letters are not (``s1``
    is a season, ``S`` is South)."""
    text = token.strip()
    tile = _ALIASES.get(text)
    if tile is None and len(text) > 2:
        tile = _ALIASES.get(text.lower())
    if tile is None:
        raise InvalidTile(
            N_(
                "unknown tile {token!r} (expected e.g. b1..b9, k1..k9, t1..t9, "
                "E S W N (or O Z), F C P, f1..f4, s1..s4)"
            ),
            token=token,
        )
    return tile


def suit_of(tile: int) -> Suit:
    if tile < 27:
        return Suit(tile // 9)
    if tile < 31:
        return Suit.WIND
    if tile < 34:
        return Suit.DRAGON
    return Suit.FLOWER if tile < 38 else Suit.SEASON


def rank_of(tile: int) -> int:
    if tile < 27:
        return tile % 9 + 1
    if tile < 31:
        return tile - 26
    if tile < 34:
        return tile - 30
    return (tile - 34) % 4 + 1


def is_honour(tile: int) -> bool:
    """Winds and dragons (troefstenen)."""
    return 27 <= tile < 34


def is_wind(tile: int) -> bool:
    return 27 <= tile < 31


def is_dragon(tile: int) -> bool:
    return 31 <= tile < 34


def is_terminal(tile: int) -> bool:
    """Ones and nines of the three suits (hoekstenen)."""
    return tile < 27 and tile % 9 in (0, 8)


def is_major(tile: int) -> bool:
    """Terminals and honours (edelstenen)."""
    return 27 <= tile < 34 or (tile < 27 and tile % 9 in (0, 8))


def is_simple(tile: int) -> bool:
    """Suited 2-8 (eenvoudige stenen)."""
    return tile < 27 and 0 < tile % 9 < 8


def tile_glyph(tile: int) -> str:
    """The Unicode Mahjong Tiles glyph."""
    return _GLYPHS[tile]


def tile_name(tile: int, lang: str = "nl") -> str:
    """A readable name, in Dutch (``"nl"``) or English (``"en"``)."""
    en = lang == "en"
    if tile < 27:
        return f"{(_NAMES_EN if en else _NAMES_NL)[tile // 9]} {tile % 9 + 1}"
    if tile < 34:
        return _HONOUR_NAMES[tile - 27][1 if en else 0]
    i = (tile - 34) % 4
    if tile < 38:
        return (_FLOWER_EN if en else _FLOWER_NL)[i]
    return (_SEASON_EN if en else _SEASON_NL)[i]
