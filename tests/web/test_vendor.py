"""The vendored front-end files match their manifest, offline (no npm at test time)."""

from __future__ import annotations

import base64
import gzip
import hashlib
import importlib.util
import json
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from mahjong_nts.core.tiles import Tile, tile_glyph
from mahjong_nts.web.tiles import BACK, all_faces, picture_file

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "src" / "mahjong_nts" / "web" / "static"
VENDOR = STATIC / "vendor"


def _load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("vendor_script", ROOT / "scripts" / "vendor.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


script = _load_script()


@pytest.fixture(scope="module")
def manifest() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((VENDOR / "MANIFEST.json").read_text(encoding="utf-8"))
    return data


def _by_name(manifest: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["name"]: p for p in manifest["packages"]}


def test_every_listed_file_exists_with_its_hash(manifest: dict[str, Any]) -> None:
    assert len(manifest["packages"]) == 4
    for pkg in manifest["packages"]:
        assert pkg["files"], pkg["name"]
        for entry in pkg["files"]:
            path = VENDOR / pkg["dir"] / entry["path"]
            assert path.is_file(), path
            data = path.read_bytes()
            assert hashlib.sha256(data).hexdigest() == entry["sha256"], path
            assert len(data) == entry["bytes"], path


def test_no_file_on_disk_is_missing_from_the_manifest(manifest: dict[str, Any]) -> None:
    listed = {f"{p['dir']}/{f['path']}" for p in manifest["packages"] for f in p["files"]}
    on_disk = {
        p.relative_to(VENDOR).as_posix()
        for p in VENDOR.rglob("*")
        if p.is_file() and p.name != "MANIFEST.json"
    }
    assert on_disk == listed


# What each licence's own text says; the files come from the packages, these words from the
# licences themselves (SPDX list).
LICENCE_WORDS = {
    "0BSD": "Permission to use, copy, modify, and/or distribute this software for\nany purpose",
    "Apache-2.0": "Apache License\n                           Version 2.0",
    "OFL-1.1": "SIL OPEN FONT LICENSE Version 1.1",
    "MPL-2.0": "Mozilla Public License Version 2.0",
}


def test_each_package_has_its_licence_file(manifest: dict[str, Any]) -> None:
    for pkg in manifest["packages"]:
        listed = {f["path"] for f in pkg["files"]}
        assert pkg["license_files"], pkg["name"]
        assert set(pkg["license_files"]) <= listed, pkg["name"]
        text = (VENDOR / pkg["dir"] / pkg["license_files"][0]).read_text(encoding="utf-8")
        assert LICENCE_WORDS[pkg["license"]] in text, pkg["name"]


def test_versions_are_exact_and_integrities_are_sha512(manifest: dict[str, Any]) -> None:
    for pkg in manifest["packages"]:
        assert re.fullmatch(r"\d+\.\d+\.\d+", pkg["version"]), pkg
        assert pkg["integrity"].startswith("sha512-"), pkg
        assert len(base64.b64decode(pkg["integrity"][len("sha512-") :])) == 64, pkg


def test_the_script_pins_what_the_manifest_lists(manifest: dict[str, Any]) -> None:
    listed = _by_name(manifest)
    assert [p["name"] for p in script.PACKAGES] == [p["name"] for p in manifest["packages"]]
    for pkg in script.PACKAGES:
        entry = listed[pkg["name"]]
        for key in ("version", "integrity", "license", "dir", "license_files"):
            assert entry[key] == pkg[key], (pkg["name"], key)


def test_the_docs_assets_and_htmx_are_there(manifest: dict[str, Any]) -> None:
    listed = _by_name(manifest)
    assert {f["path"] for f in listed["htmx.org"]["files"]} == {"LICENSE", "htmx.min.js"}
    swagger = {f["path"] for f in listed["swagger-ui-dist"]["files"]}
    assert {"swagger-ui-bundle.js", "swagger-ui.css", "LICENSE"} <= swagger


def test_each_tile_picture_is_the_unicode_glyph_of_that_tile(manifest: dict[str, Any]) -> None:
    """The manifest records which glyph each picture was made from; it must be the glyph
    core/tiles.py gives that tile (the back: U+1F02B MAHJONG TILE BACK)."""
    font = _by_name(manifest)["@fontsource/noto-sans-symbols-2"]
    glyph_of = {f"{font['dir']}/{f['path']}": f.get("glyph") for f in font["files"]}
    for face in all_faces():
        path = picture_file(face).removeprefix("vendor/")
        want = 0x1F02B if face == BACK else ord(tile_glyph(Tile(face)))
        assert glyph_of[path] == f"U+{want:04X}", face
    # spot checks by the Unicode names: f3 is the West flower, chrysanthemum (U+1F025)
    assert glyph_of["noto-sans-symbols-2/tiles/f3.svg"] == "U+1F025"
    assert glyph_of["noto-sans-symbols-2/tiles/k1.svg"] == "U+1F019"


def test_the_sprite_matches_its_source_files() -> None:
    folder = VENDOR / "noto-sans-symbols-2"
    assert script.build_sprite(folder / "tiles") == (folder / "tiles.svg").read_bytes()


def test_first_load_budget() -> None:
    """The calculator loads htmx and the tile sprite: far under the 300 KB first-load
    budget (gzip, as served)."""
    files = [VENDOR / "htmx.org" / "htmx.min.js", VENDOR / "noto-sans-symbols-2" / "tiles.svg"]
    total = sum(len(gzip.compress(p.read_bytes(), 9)) for p in files)
    assert total < 60_000, total


# --- test tools: tests/vendor/, never served ------------------------------------------------

TEST_VENDOR = ROOT / "tests" / "vendor"
MPL_WORDS = "Mozilla Public License, version 2.0"  # the first line of the MPL's own text


def test_test_tools_match_their_manifest() -> None:
    manifest = json.loads((TEST_VENDOR / "MANIFEST.json").read_text(encoding="utf-8"))
    assert [p["name"] for p in manifest["packages"]] == ["axe-core"]
    listed = set()
    for pkg in manifest["packages"]:
        for entry in pkg["files"]:
            path = TEST_VENDOR / pkg["dir"] / entry["path"]
            data = path.read_bytes()
            assert hashlib.sha256(data).hexdigest() == entry["sha256"], path
            assert len(data) == entry["bytes"], path
            listed.add(f"{pkg['dir']}/{entry['path']}")
        assert set(pkg["license_files"]) <= {f["path"] for f in pkg["files"]}
    on_disk = {
        p.relative_to(TEST_VENDOR).as_posix()
        for p in TEST_VENDOR.rglob("*")
        if p.is_file() and p.name != "MANIFEST.json"
    }
    assert on_disk == listed
    by_name = _by_name(manifest)
    for pkg in script.TEST_PACKAGES:
        for key in ("version", "integrity", "license", "dir", "license_files"):
            assert by_name[pkg["name"]][key] == pkg[key], (pkg["name"], key)


def test_axe_is_a_test_tool_with_its_licences() -> None:
    axe = TEST_VENDOR / "axe-core"
    assert MPL_WORDS in (axe / "LICENSE").read_text(encoding="utf-8")
    # the MIT notices of the code axe bundles go with the copy
    assert "MIT License" in (axe / "LICENSE-3RD-PARTY.txt").read_text(encoding="utf-8")
    assert (axe / "axe.min.js").read_bytes().startswith(b"/*! axe v4.14.1")
    # not under static/: the web app never serves it
    assert not [p for p in STATIC.rglob("*") if "axe" in p.name.lower()]
    assert script.TEST_VENDOR == TEST_VENDOR
    assert [name for name, _, _ in script.FOLDERS] == ["static", "tests"]


# --- the outline converter, on contours worked out by hand -----------------------------------


def test_a_square_of_on_curve_points() -> None:
    square = [[(0, 0, True), (10, 0, True), (10, 10, True), (0, 10, True)]]
    # y flips (SVG points down): up 10 is v-10; the last segment returns to the start.
    assert script.svg_path(square) == "m0 0h10v-10h-10v10z"


def test_off_curve_points_imply_on_curve_midpoints() -> None:
    diamond = [[(0, 10, False), (10, 0, False), (0, -10, False), (-10, 0, False)]]
    # Starts at the midpoint of the last and first points, (-5, 5) -> (-5, -5) flipped;
    # each curve ends halfway to the next control point.
    assert script.svg_path(diamond) == "m-5-5q5-5 10 0q5 5 0 10q-5 5-10 0q-5-5 0-10z"


def test_numbers_are_short_and_unambiguous() -> None:
    assert script._join([0.5, 0.5]) == ".5.5"
    assert script._join([1.5, -0.5, 3.0]) == "1.5-.5 3"
    assert script._join([2.0, 0.5]) == "2 .5"


def test_pyodide_is_the_files_loadpyodide_reads_with_both_licences(
    manifest: dict[str, Any],
) -> None:
    pyodide = _by_name(manifest)["pyodide"]
    assert {f["path"] for f in pyodide["files"]} == {
        "pyodide.mjs",
        "pyodide.asm.mjs",
        "pyodide.asm.wasm",
        "python_stdlib.zip",
        "pyodide-lock.json",
        "LICENSE",
        "PYTHON-LICENSE",
    }
    python = (VENDOR / "pyodide" / "PYTHON-LICENSE").read_text(encoding="utf-8")
    assert "PYTHON SOFTWARE FOUNDATION LICENSE VERSION 2" in python
    lock = json.loads((VENDOR / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))
    assert lock["info"]["python"].startswith("3.")
