"""Tile pictures and spoken names for the pages.

Every :class:`~mahjong_nts.core.tiles.Tile` (and the back of a tile, :data:`BACK`) has a
picture, an SVG file under the web app's ``static/`` folder, and a spoken name in Dutch and
English for screen readers and tooltips ("bamboe 3" / "bamboo 3").  The pictures are the
glyphs of the Unicode Mahjong Tiles block in Noto Sans Symbols 2 (SIL Open Font License 1.1),
vendored by ``scripts/vendor.py``; :data:`TILE_CREDIT` is the line the page footer shows.

A page can show a tile as ``<img src="/static/{picture_file(t)}" alt="{spoken_name(t)}">`` or,
one request for all of them, from the sprite: ``<svg role="img" aria-label="..."><use
href="/static/{SPRITE_FILE}#{picture_id(t)}"/></svg>`` (the sprite's paths have no fill of
their own, so CSS ``fill`` colours them).

Pure: imports only the core, reads no files.
"""

from __future__ import annotations

from typing import Any, Final, Literal

from mahjong_nts.core.tiles import Tile, parse_tile

__all__ = [
    "BACK",
    "SPRITE_FILE",
    "TILE_CREDIT",
    "TILE_FOLDER",
    "Face",
    "all_faces",
    "picture_file",
    "picture_id",
    "spoken_name",
    "template_helpers",
]

BACK: Final = "back"
"""The back of a tile (a face-down tile), shown where a tile is hidden."""

Face = Tile | Literal["back"]
"""What a tile picture shows: a tile kind or the back."""

TILE_FOLDER: Final = "vendor/noto-sans-symbols-2/tiles"
"""The folder of the tile SVGs, relative to the web app's ``static/`` folder."""

SPRITE_FILE: Final = "vendor/noto-sans-symbols-2/tiles.svg"
"""All tile pictures in one SVG, a ``<symbol>`` per :func:`picture_id`."""

TILE_CREDIT: Final = (
    "Tile pictures: Noto Sans Symbols 2, © 2022 The Noto Project Authors, SIL Open Font License 1.1"
)
"""The footer's credit for the tile pictures (the licence asks for its notice with copies)."""

_SUIT_LETTERS: Final = "bkt"
_WIND_IDS: Final = ("east", "south", "west", "north")
_DRAGON_IDS: Final = ("green", "red", "white")  # Tile order: GREEN, RED, WHITE

_SUIT_NAMES: Final = {
    "nl": ("bamboe", "kringen", "tekens"),
    "en": ("bamboo", "circles", "characters"),
}
_WIND_NAMES: Final = {
    "nl": ("oostenwind", "zuidenwind", "westenwind", "noordenwind"),
    "en": ("east wind", "south wind", "west wind", "north wind"),
}
_DRAGON_NAMES: Final = {
    "nl": ("groene draak", "rode draak", "witte draak"),
    "en": ("green dragon", "red dragon", "white dragon"),
}
_BONUS_NAMES: Final = {"nl": ("bloem", "seizoen"), "en": ("flower", "season")}
_BACK_NAMES: Final = {"nl": "dichte steen", "en": "face-down tile"}


def picture_id(face: Face) -> str:
    """The picture's name: its file stem and its id in the sprite (``b3``, ``east``,
    ``red``, ``f1``, ``s4``, ``back``)."""
    if face == BACK:
        return BACK
    tile = Tile(face)
    if tile < 27:
        return f"{_SUIT_LETTERS[tile // 9]}{tile % 9 + 1}"
    if tile < 31:
        return _WIND_IDS[tile - 27]
    if tile < 34:
        return _DRAGON_IDS[tile - 31]
    if tile < 38:
        return f"f{tile - 33}"
    return f"s{tile - 37}"


def picture_file(face: Face) -> str:
    """The picture's path relative to ``static/``, e.g.
    ``vendor/noto-sans-symbols-2/tiles/b3.svg``."""
    return f"{TILE_FOLDER}/{picture_id(face)}.svg"


def spoken_name(face: Face, lang: str = "nl") -> str:
    """The name a screen reader says: ``"bamboe 3"`` / ``"bamboo 3"``, ``"oostenwind"`` /
    ``"east wind"``, ``"groene draak"`` / ``"green dragon"``, ``"bloem 1"`` / ``"flower 1"``,
    ``"seizoen 1"`` / ``"season 1"``, ``"dichte steen"`` / ``"face-down tile"``.

    ``lang`` is ``"nl"`` or ``"en"``; anything else is a ``ValueError``."""
    if lang not in ("nl", "en"):
        raise ValueError(f"no tile names in language {lang!r} (expected 'nl' or 'en')")
    if face == BACK:
        return _BACK_NAMES[lang]
    tile = Tile(face)
    if tile < 27:
        return f"{_SUIT_NAMES[lang][tile // 9]} {tile % 9 + 1}"
    if tile < 31:
        return _WIND_NAMES[lang][tile - 27]
    if tile < 34:
        return _DRAGON_NAMES[lang][tile - 31]
    return f"{_BONUS_NAMES[lang][0 if tile < 38 else 1]} {(tile - 34) % 4 + 1}"


def all_faces() -> tuple[Face, ...]:
    """Every tile kind in index order, then the back."""
    return (*Tile, BACK)


def template_helpers(lang: str) -> dict[str, Any]:
    """What the play and replay templates draw tiles with: ``tile_src(token)`` (the
    picture's URL), ``tile_name(token)`` (its spoken name in ``lang``),
    ``tile_names(tokens)`` and ``back_src()`` (the back's URL)."""

    def pic(token: str) -> str:
        return "/static/" + picture_file(parse_tile(token))

    def name(token: str) -> str:
        return spoken_name(parse_tile(token), lang)

    def names(tokens: list[str]) -> str:
        return ", ".join(name(t) for t in tokens)

    def back() -> str:
        return "/static/" + picture_file("back")

    return {"tile_src": pic, "tile_name": name, "tile_names": names, "back_src": back}
