"""web/tiles.py: every tile has a picture that exists and a spoken name in nl and en."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from mahjong_nts.core.tiles import Tile
from mahjong_nts.web import tiles as web_tiles
from mahjong_nts.web.tiles import (
    BACK,
    SPRITE_FILE,
    all_faces,
    picture_file,
    picture_id,
    spoken_name,
)

STATIC = Path(web_tiles.__file__).parent / "static"


def test_all_faces_are_the_42_tiles_and_the_back() -> None:
    faces = all_faces()
    assert len(faces) == 43
    assert faces[:42] == tuple(Tile)
    assert faces[42] == BACK


@pytest.mark.parametrize("face", all_faces(), ids=str)
def test_every_face_has_a_picture_file(face: web_tiles.Face) -> None:
    path = STATIC / picture_file(face)
    assert path.is_file(), path
    assert path.read_bytes().startswith(b'<svg xmlns="http://www.w3.org/2000/svg"')


def test_picture_ids_are_distinct_and_in_the_sprite() -> None:
    ids = [picture_id(face) for face in all_faces()]
    assert len(set(ids)) == 43
    sprite = (STATIC / SPRITE_FILE).read_text(encoding="ascii")
    assert re.findall(r'<symbol id="([^"]+)"', sprite) == ids


def test_picture_ids_by_hand() -> None:
    assert picture_id(Tile.B3) == "b3"
    assert picture_id(Tile.K9) == "k9"
    assert picture_id(Tile.T1) == "t1"
    assert picture_id(Tile.SOUTH) == "south"
    assert picture_id(Tile.GREEN) == "green"
    assert picture_id(Tile.WHITE) == "white"
    assert picture_id(Tile.F4) == "f4"
    assert picture_id(Tile.S1) == "s1"
    assert picture_file(Tile.RED) == "vendor/noto-sans-symbols-2/tiles/red.svg"


@pytest.mark.parametrize(
    ("tile", "nl", "en"),
    [
        (Tile.B3, "bamboe 3", "bamboo 3"),
        (Tile.B1, "bamboe 1", "bamboo 1"),
        (Tile.K9, "kringen 9", "circles 9"),
        (Tile.T5, "tekens 5", "characters 5"),
        (Tile.EAST, "oostenwind", "east wind"),
        (Tile.SOUTH, "zuidenwind", "south wind"),
        (Tile.WEST, "westenwind", "west wind"),
        (Tile.NORTH, "noordenwind", "north wind"),
        (Tile.GREEN, "groene draak", "green dragon"),
        (Tile.RED, "rode draak", "red dragon"),
        (Tile.WHITE, "witte draak", "white dragon"),
        (Tile.F1, "bloem 1", "flower 1"),
        (Tile.F4, "bloem 4", "flower 4"),
        (Tile.S1, "seizoen 1", "season 1"),
        (Tile.S3, "seizoen 3", "season 3"),
    ],
)
def test_spoken_names(tile: Tile, nl: str, en: str) -> None:
    assert spoken_name(tile) == nl
    assert spoken_name(tile, "nl") == nl
    assert spoken_name(tile, "en") == en


def test_the_back_has_a_name() -> None:
    assert spoken_name(BACK, "nl") == "dichte steen"
    assert spoken_name(BACK, "en") == "face-down tile"


@pytest.mark.parametrize("lang", ["nl", "en"])
def test_spoken_names_are_distinct(lang: str) -> None:
    assert len({spoken_name(face, lang) for face in all_faces()}) == 43


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="'de'"):
        spoken_name(Tile.B1, "de")


def test_the_module_imports_only_the_core() -> None:
    tree = ast.parse(Path(web_tiles.__file__).read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
        elif isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
    assert imported <= {"__future__", "typing", "mahjong_nts.core.tiles"}, imported
