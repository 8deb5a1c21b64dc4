from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mahjong_nts.core.errors import InvalidTile
from mahjong_nts.core.tiles import (
    BONUS_TILES,
    ORPHANS,
    PLAYING_TILES,
    Suit,
    Tile,
    is_dragon,
    is_honour,
    is_major,
    is_simple,
    is_terminal,
    is_wind,
    parse_tile,
    rank_of,
    suit_of,
    tile_glyph,
    tile_name,
)


def test_numbering() -> None:
    assert [t.token for t in Tile][:9] == [f"b{i}" for i in range(1, 10)]
    assert Tile.K1 == 9 and Tile.T9 == 26
    assert [t.token for t in Tile][27:34] == list("ESWNFCP")
    assert Tile.F1.token == "f1" and Tile.S4.token == "s4"
    assert len(PLAYING_TILES) == 34 and len(BONUS_TILES) == 8


@pytest.mark.parametrize("tile", list(Tile), ids=lambda t: t.name)
def test_token_glyph_and_repr_round_trip(tile: Tile) -> None:
    assert parse_tile(tile.token) is tile
    assert parse_tile(tile.glyph) is tile
    assert eval(repr(tile)) is tile


def test_glyphs_are_distinct_unicode_mahjong_tiles() -> None:
    glyphs = [tile_glyph(t) for t in Tile]
    assert len(set(glyphs)) == len(glyphs)
    assert all(0x1F000 <= ord(g) <= 0x1F02B for g in glyphs)
    assert tile_glyph(Tile.EAST) == "\U0001f000"
    assert tile_glyph(Tile.RED) == "\U0001f004"
    assert tile_glyph(Tile.GREEN) == "\U0001f005"
    assert tile_glyph(Tile.B1) == "\U0001f010"
    assert tile_glyph(Tile.K9) == "\U0001f021"


@pytest.mark.parametrize(
    ("alias", "tile"),
    [
        ("O", Tile.EAST),
        ("Z", Tile.SOUTH),
        ("oost", Tile.EAST),
        ("East", Tile.EAST),
        ("noord", Tile.NORTH),
        ("groen", Tile.GREEN),
        ("red", Tile.RED),
        ("wit", Tile.WHITE),
        ("bamboe3", Tile.B3),
        ("bamboo3", Tile.B3),
        ("kringen5", Tile.K5),
        ("dots5", Tile.K5),
        ("circles9", Tile.K9),
        ("tekens7", Tile.T7),
        ("characters1", Tile.T1),
        ("lente", Tile.S1),
        ("winter", Tile.S4),
        ("pruimenbloesem", Tile.F1),
        ("chrysanthemum", Tile.F3),
        ("bloem2", Tile.F2),
        ("season3", Tile.S3),
    ],
)
def test_aliases(alias: str, tile: Tile) -> None:
    assert parse_tile(alias) is tile


@pytest.mark.parametrize("bad", ["", "b0", "b10", "x1", "Q", "s5", "f0", "k", "🀪", "bamboe"])
def test_unknown_tokens(bad: str) -> None:
    with pytest.raises(InvalidTile, match="unknown tile"):
        parse_tile(bad)


@given(st.text(max_size=12))
def test_parse_tile_only_raises_invalid_tile(text: str) -> None:
    try:
        tile = parse_tile(text)
    except InvalidTile as exc:
        assert "unknown tile" in str(exc)
    else:
        assert isinstance(tile, Tile)


def test_classification() -> None:
    assert suit_of(Tile.B5) is Suit.BAMBOO and suit_of(Tile.K5) is Suit.CIRCLES
    assert suit_of(Tile.T5) is Suit.CHARACTERS and suit_of(Tile.NORTH) is Suit.WIND
    assert suit_of(Tile.WHITE) is Suit.DRAGON and suit_of(Tile.F2) is Suit.FLOWER
    assert suit_of(Tile.S2) is Suit.SEASON
    assert rank_of(Tile.T7) == 7 and rank_of(Tile.WEST) == 3 and rank_of(Tile.S4) == 4
    assert [t for t in PLAYING_TILES if is_terminal(t)] == list(ORPHANS[:6])
    assert all(is_honour(t) for t in ORPHANS[6:])
    assert sum(is_simple(t) for t in PLAYING_TILES) == 21
    assert sum(is_major(t) for t in PLAYING_TILES) == 13
    assert sum(is_wind(t) for t in PLAYING_TILES) == 4
    assert sum(is_dragon(t) for t in PLAYING_TILES) == 3


def test_names() -> None:
    assert tile_name(Tile.B3) == "bamboe 3" and tile_name(Tile.B3, "en") == "bamboo 3"
    assert tile_name(Tile.GREEN) == "groene draak"
    assert tile_name(Tile.F1, "en") == "plum"
