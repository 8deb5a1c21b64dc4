#!/usr/bin/env python3
"""Re-create ``src/mahjong_nts/web/static/vendor/`` and ``tests/vendor/`` from npm tarballs.

Standard library only.  For every pinned package it runs ``npm pack NAME@VERSION`` into a
temporary folder, checks the tarball's sha512 against the pinned integrity, checks the licence
named in its package.json, and copies only the files we use.  The tile pictures are the glyphs
of the Unicode Mahjong Tiles block (U+1F000) in Noto Sans Symbols 2: their outlines are read
from the font's WOFF file and written out unchanged as one small SVG per tile, plus a sprite of
all of them.  ``MANIFEST.json`` lists each package, its exact version, licence, integrity and
every file taken with its sha256.  Test tools (axe-core, for the accessibility tests) go to
``tests/vendor/`` with a manifest of their own: the web app never serves them.

    python3 scripts/vendor.py            # rebuild both folders (needs npm and the registry)
    python3 scripts/vendor.py --only tests   # only tests/vendor/ (or: --only static)
    python3 scripts/vendor.py --check    # rebuild in a temporary folder; exit 1 on a difference
    python3 scripts/vendor.py --sprite   # rebuild only the sprite from the vendored SVGs (offline)

tests/web/test_vendor.py checks the manifest against the files on disk, offline.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import json
import re
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
VENDOR = ROOT / "src" / "mahjong_nts" / "web" / "static" / "vendor"
TEST_VENDOR = ROOT / "tests" / "vendor"  # tools for the tests only: not under static/
MANIFEST = "MANIFEST.json"

MAX_TARBALL = 64 * 1024 * 1024  # bytes; swagger-ui-dist is the largest, about 3.4 MB
MAX_MEMBER = 32 * 1024 * 1024  # bytes of one file taken from a tarball
NPM_TIMEOUT = 600  # seconds for one npm pack

FONT_PACKAGE = "@fontsource/noto-sans-symbols-2"
FONT_FILE = "files/noto-sans-symbols-2-symbols-400-normal.woff"
TILE_DIR = "tiles"
SPRITE = "tiles.svg"

# The Unicode Mahjong Tiles block, by its character names: winds East, South, West, North
# (U+1F000..3), dragons red, green, white (U+1F004..6), characters 1-9 (U+1F007..F),
# bamboos 1-9 (U+1F010..8), circles 1-9 (U+1F019..21), flowers plum, orchid, bamboo,
# chrysanthemum (U+1F022..5), seasons spring..winter (U+1F026..9), joker, back (U+1F02B).
# Our flowers follow the seats: f1 East plum, f2 South orchid, f3 West chrysanthemum,
# f4 North bamboo (core/tiles.py).  File stem -> code point, in our tile order (the sprite's).
TILE_GLYPHS: dict[str, int] = {
    **{f"b{r}": 0x1F010 + r - 1 for r in range(1, 10)},
    **{f"k{r}": 0x1F019 + r - 1 for r in range(1, 10)},
    **{f"t{r}": 0x1F007 + r - 1 for r in range(1, 10)},
    "east": 0x1F000,
    "south": 0x1F001,
    "west": 0x1F002,
    "north": 0x1F003,
    "green": 0x1F005,
    "red": 0x1F004,
    "white": 0x1F006,
    "f1": 0x1F022,
    "f2": 0x1F023,
    "f3": 0x1F025,
    "f4": 0x1F024,
    **{f"s{r}": 0x1F026 + r - 1 for r in range(1, 5)},
    "back": 0x1F02B,
}

# name, exact version, sha512 integrity of the tarball, licence in its package.json,
# folder under vendor/, files taken: path in the package -> path under the folder.
PACKAGES: list[dict[str, Any]] = [
    {
        "name": "htmx.org",
        "version": "2.0.11",
        "integrity": (
            "sha512-Thx/WtpeOQqSrqBCw/A1cwGJGg4UrVa3+sW0GmrM3p4gJgO89ecH4qtbnyzDDWFvBTqjnIMCgELT"
            "Nt636dtamA=="
        ),
        "license": "0BSD",
        "dir": "htmx.org",
        "files": {"LICENSE": "LICENSE", "dist/htmx.min.js": "htmx.min.js"},
        "license_files": ["LICENSE"],
    },
    {
        "name": "swagger-ui-dist",
        "version": "5.35.0",
        "integrity": (
            "sha512-U06rpMtW9V3XPGOBeamTUSr0Z09jMX4IJuANpE/EZbAhw0G8CgwrzU4YmXkn/h0wCDNsXdGarTNN"
            "HC3sU8yVUQ=="
        ),
        "license": "Apache-2.0",
        "dir": "swagger-ui-dist",
        "files": {
            "LICENSE": "LICENSE",
            "NOTICE": "NOTICE",
            "swagger-ui-bundle.js": "swagger-ui-bundle.js",
            "swagger-ui-bundle.js.LICENSE.txt": "swagger-ui-bundle.js.LICENSE.txt",
            "swagger-ui.css": "swagger-ui.css",
        },
        "license_files": ["LICENSE", "NOTICE", "swagger-ui-bundle.js.LICENSE.txt"],
    },
    {
        "name": FONT_PACKAGE,
        "version": "5.3.0",
        "integrity": (
            "sha512-hFnEnIXOIgLLJ61SO9icRXKoS+LSWoq7ZqKJQ/NaQR7ptdC6+7yW4ci6EuXgsS1S9JmWpciX6w0A"
            "FZkU1DKn1A=="
        ),
        "license": "OFL-1.1",
        "dir": "noto-sans-symbols-2",
        "files": {"LICENSE": "LICENSE"},
        "license_files": ["LICENSE"],
    },
    {
        # CPython 3.14 compiled to WebAssembly: the offline calculator (web/offline.py) runs
        # the package's scoring in it.  Only what loadPyodide() reads is taken: no packages.
        "name": "pyodide",
        "version": "314.0.7",
        "integrity": (
            "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5"
            "JEsOlD2R1A=="
        ),
        "license": "MPL-2.0",
        "dir": "pyodide",
        "files": {
            "pyodide.mjs": "pyodide.mjs",
            "pyodide.asm.mjs": "pyodide.asm.mjs",
            "pyodide.asm.wasm": "pyodide.asm.wasm",
            "python_stdlib.zip": "python_stdlib.zip",
            "pyodide-lock.json": "pyodide-lock.json",
        },
        "license_files": ["LICENSE", "PYTHON-LICENSE"],
        # the tarball carries no licence text: the MPL 2.0 as Debian ships it (base-files),
        # and CPython's licence (the PSF License Agreement) as typing_extensions ships it
        # (the same text; typing_extensions is installed with pydantic)
        "texts": {
            "LICENSE": {
                "file": "/usr/share/common-licenses/MPL-2.0",
                "sha256": "fab3dd6bdab226f1c08630b1dd917e11fcb4ec5e1e020e2c16f83a0a13863e85",
            },
            "PYTHON-LICENSE": {
                "distribution": "typing_extensions",
                "file": "licenses/LICENSE",
                "sha256": "3b2f81fe21d181c499c59a256c8e1968455d6689d269aa85373bfb6af41da3bf",
            },
        },
    },
]

# Test tools, vendored into TEST_VENDOR (same fields).  axe-core bundles code under the MIT
# licence, whose notices LICENSE-3RD-PARTY.txt carries: it goes with the copy.
TEST_PACKAGES: list[dict[str, Any]] = [
    {
        "name": "axe-core",
        "version": "4.14.1",
        "integrity": (
            "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe"
            "37OgudVGtQ=="
        ),
        "license": "MPL-2.0",
        "dir": "axe-core",
        "files": {
            "LICENSE": "LICENSE",
            "LICENSE-3RD-PARTY.txt": "LICENSE-3RD-PARTY.txt",
            "axe.min.js": "axe.min.js",
        },
        "license_files": ["LICENSE", "LICENSE-3RD-PARTY.txt"],
    },
]

# folder name for --only, the folder, its packages
FOLDERS: list[tuple[str, Path, list[dict[str, Any]]]] = [
    ("static", VENDOR, PACKAGES),
    ("tests", TEST_VENDOR, TEST_PACKAGES),
]


class VendorError(Exception):
    """Something the script cannot do; the message says what and where."""


# --- npm ------------------------------------------------------------------------------------


def sha512_integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")


def npm_pack(name: str, version: str, into: Path) -> bytes:
    """The tarball of NAME@VERSION, fetched with ``npm pack`` into ``into``."""
    spec = f"{name}@{version}"
    try:
        done = subprocess.run(
            ["npm", "pack", spec, "--pack-destination", str(into), "--json", "--silent"],
            cwd=into,
            capture_output=True,
            timeout=NPM_TIMEOUT,
            check=False,
        )
    except FileNotFoundError:
        raise VendorError("npm is not installed (it is needed to fetch the packages)") from None
    except subprocess.TimeoutExpired:
        raise VendorError(f"npm pack {spec}: no answer in {NPM_TIMEOUT} s") from None
    if done.returncode != 0:
        last = (done.stderr.decode("utf-8", "replace").strip().splitlines() or ["?"])[-1]
        raise VendorError(f"npm pack {spec} failed: {last}")
    tarballs = sorted(into.glob("*.tgz"))
    if len(tarballs) != 1:
        raise VendorError(f"npm pack {spec}: expected one tarball in {into}, found {len(tarballs)}")
    if tarballs[0].stat().st_size > MAX_TARBALL:
        raise VendorError(f"npm pack {spec}: tarball larger than {MAX_TARBALL} bytes")
    return tarballs[0].read_bytes()


def read_member(tar: tarfile.TarFile, path: str, spec: str) -> bytes:
    try:
        member = tar.getmember("package/" + path)
    except KeyError:
        raise VendorError(f"{spec}: no file {path!r} in the tarball") from None
    if not member.isfile():
        raise VendorError(f"{spec}: {path!r} is not a regular file")
    if member.size > MAX_MEMBER:
        raise VendorError(f"{spec}: {path!r} is larger than {MAX_MEMBER} bytes")
    handle = tar.extractfile(member)
    assert handle is not None
    return handle.read()


# --- WOFF 1.0 and TrueType glyph outlines ---------------------------------------------------


def woff_tables(data: bytes) -> dict[str, bytes]:
    """The sfnt tables of a WOFF 1.0 file, decompressed."""
    if data[:4] != b"wOFF":
        raise VendorError("font: not a WOFF 1.0 file")
    num_tables = struct.unpack_from(">H", data, 12)[0]
    tables: dict[str, bytes] = {}
    for i in range(num_tables):
        tag, offset, comp_len, orig_len, _ = struct.unpack_from(">4sIIII", data, 44 + 20 * i)
        raw = data[offset : offset + comp_len]
        table = zlib.decompress(raw) if comp_len < orig_len else raw
        if len(table) != orig_len:
            raise VendorError(f"font: table {tag!r} has {len(table)} bytes, not {orig_len}")
        tables[tag.decode("latin-1")] = table
    return tables


def cmap_lookup(cmap: bytes) -> dict[int, int]:
    """Code point -> glyph index from the format 12 (full Unicode) subtable."""
    count = struct.unpack_from(">H", cmap, 2)[0]
    for i in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", cmap, 4 + 8 * i)
        if (platform, encoding) in ((3, 10), (0, 4), (0, 6)):
            if struct.unpack_from(">H", cmap, offset)[0] != 12:
                continue
            groups = struct.unpack_from(">I", cmap, offset + 12)[0]
            out: dict[int, int] = {}
            for g in range(groups):
                start, end, glyph = struct.unpack_from(">III", cmap, offset + 16 + 12 * g)
                if end >= 0x1F000 and start <= 0x1F0FF:
                    for cp in range(max(start, 0x1F000), min(end, 0x1F0FF) + 1):
                        out[cp] = glyph + cp - start
            return out
    raise VendorError("font: no format 12 cmap subtable")


Point = tuple[int, int, bool]  # x, y, on the curve


class Glyphs:
    """TrueType outlines (``glyf``/``loca``) of a font."""

    def __init__(self, tables: dict[str, bytes]) -> None:
        head, loca, self.glyf = tables["head"], tables["loca"], tables["glyf"]
        self.units_per_em = struct.unpack_from(">H", head, 18)[0]
        long_loca = struct.unpack_from(">h", head, 50)[0] == 1
        num = struct.unpack_from(">H", tables["maxp"], 4)[0]
        if long_loca:
            self.loca = list(struct.unpack_from(f">{num + 1}I", loca))
        else:
            self.loca = [2 * v for v in struct.unpack_from(f">{num + 1}H", loca)]
        self.cmap = cmap_lookup(tables["cmap"])

    def bbox(self, glyph: int) -> tuple[int, int, int, int]:
        start = self.loca[glyph]
        if self.loca[glyph + 1] == start:
            return (0, 0, 0, 0)
        return struct.unpack_from(">hhhh", self.glyf, start + 2)  # type: ignore[return-value]

    def contours(self, glyph: int, depth: int = 0) -> list[list[Point]]:
        if depth > 8:
            raise VendorError(f"font: glyph {glyph} nests components too deeply")
        start, end = self.loca[glyph], self.loca[glyph + 1]
        if start == end:
            return []
        data = self.glyf[start:end]
        n = struct.unpack_from(">h", data, 0)[0]
        return self._simple(data, n) if n >= 0 else self._composite(data, depth)

    @staticmethod
    def _simple(data: bytes, n: int) -> list[list[Point]]:
        ends = struct.unpack_from(f">{n}H", data, 10)
        pos = 10 + 2 * n
        pos += 2 + struct.unpack_from(">H", data, pos)[0]  # skip the instructions
        count = ends[-1] + 1 if n else 0
        flags: list[int] = []
        while len(flags) < count:
            flag = data[pos]
            pos += 1
            repeat = 0
            if flag & 8:
                repeat = data[pos]
                pos += 1
            flags.extend([flag] * (repeat + 1))
        coords: list[list[int]] = []
        for short, same in ((2, 16), (4, 32)):  # x then y
            value, values = 0, []
            for flag in flags:
                if flag & short:
                    delta = data[pos]
                    pos += 1
                    value += delta if flag & same else -delta
                elif not flag & same:
                    value += struct.unpack_from(">h", data, pos)[0]
                    pos += 2
                values.append(value)
            coords.append(values)
        points = [(x, y, bool(f & 1)) for x, y, f in zip(coords[0], coords[1], flags, strict=True)]
        out, first = [], 0
        for last in ends:
            out.append(points[first : last + 1])
            first = last + 1
        return out

    def _composite(self, data: bytes, depth: int) -> list[list[Point]]:
        out: list[list[Point]] = []
        pos, more = 10, True
        while more:
            flags, index = struct.unpack_from(">HH", data, pos)
            pos += 4
            if flags & 1:
                dx, dy = struct.unpack_from(">hh", data, pos)
                pos += 4
            else:
                dx, dy = struct.unpack_from(">bb", data, pos)
                pos += 2
            if not flags & 2:
                raise VendorError("font: composite glyph with point-matched components")
            if flags & (8 | 0x40 | 0x80):
                raise VendorError("font: composite glyph with a scaled component")
            for contour in self.contours(index, depth + 1):
                out.append([(x + dx, y + dy, on) for x, y, on in contour])
            more = bool(flags & 0x20)
        return out


def _num(v: float) -> str:
    text = f"{v:.1f}".rstrip("0").rstrip(".")
    if text == "-0":
        text = "0"
    return text.replace("0.", ".", 1) if text.startswith(("0.", "-0.")) else text


def _join(values: list[float]) -> str:
    out = ""
    for v in values:
        s = _num(v)
        if out and not s.startswith("-") and not (s.startswith(".") and "." in _last(out)):
            out += " "
        out += s
    return out


def _last(text: str) -> str:
    return re.split(r"[ \-a-zA-Z]", text)[-1]


def svg_path(contours: list[list[Point]]) -> str:
    """An SVG path (relative commands, y pointing down) drawing exactly these quadratic
    contours: between two off-curve points lies the implied on-curve midpoint."""
    parts: list[str] = []
    cx = cy = 0.0  # current point
    for contour in contours:
        if not contour:
            continue
        pts = [(float(x), float(-y), on) for x, y, on in contour]
        if pts[0][2]:
            start = pts[0]
            rest = [*pts[1:], pts[0]]
        elif pts[-1][2]:
            start = pts[-1]
            rest = pts[:]
        else:
            start = ((pts[0][0] + pts[-1][0]) / 2, (pts[0][1] + pts[-1][1]) / 2, True)
            rest = [*pts, start]
        parts.append("m" + _join([start[0] - cx, start[1] - cy]))
        cx, cy = start[0], start[1]
        control: tuple[float, float] | None = None
        for x, y, on in rest:
            if on:
                if control is None:
                    dx, dy = x - cx, y - cy
                    if dx or dy:
                        if dy == 0:
                            parts.append("h" + _num(dx))
                        elif dx == 0:
                            parts.append("v" + _num(dy))
                        else:
                            parts.append("l" + _join([dx, dy]))
                else:
                    parts.append("q" + _join([control[0] - cx, control[1] - cy, x - cx, y - cy]))
                    control = None
                cx, cy = x, y
            else:
                if control is not None:
                    mx, my = (control[0] + x) / 2, (control[1] + y) / 2
                    parts.append("q" + _join([control[0] - cx, control[1] - cy, mx - cx, my - cy]))
                    cx, cy = mx, my
                control = (x, y)
        parts.append("z")
    return "".join(parts)


def tile_view_box(glyphs: Glyphs) -> str:
    """One view box for every tile: the union of their boxes, padded to 3:4."""
    boxes = [glyphs.bbox(glyphs.cmap[cp]) for cp in TILE_GLYPHS.values()]
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    width, height = x1 - x0, y1 - y0
    want = max(height, width * 4 / 3)
    pad = (want - height) / 2
    wide = want * 3 / 4
    padx = (wide - width) / 2
    return " ".join(_num(v) for v in (x0 - padx, -y1 - pad, wide, want))


def tile_svgs(font: bytes) -> dict[str, bytes]:
    """File name -> SVG bytes for every tile and the back."""
    glyphs = Glyphs(woff_tables(font))
    view_box = tile_view_box(glyphs)
    out: dict[str, bytes] = {}
    for stem, cp in TILE_GLYPHS.items():
        if cp not in glyphs.cmap:
            raise VendorError(f"font: no glyph for U+{cp:04X} ({stem})")
        d = svg_path(glyphs.contours(glyphs.cmap[cp]))
        svg = (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{view_box}" width="36" '
            f'height="48"><path d="{d}"/></svg>\n'
        )
        out[f"{stem}.svg"] = svg.encode("ascii")
    return out


_SVG_RE = re.compile(
    rb'^<svg xmlns="http://www.w3.org/2000/svg" viewBox="([^"]+)"[^>]*>(.*)</svg>\n$'
)


def build_sprite(tile_dir: Path) -> bytes:
    """One SVG with a ``<symbol id=STEM>`` per tile file, in TILE_GLYPHS order, for
    ``<svg><use href="tiles.svg#b3"/></svg>``.  Paths carry no fill: CSS colours them."""
    symbols = []
    for stem in TILE_GLYPHS:
        data = (tile_dir / f"{stem}.svg").read_bytes()
        match = _SVG_RE.match(data)
        if match is None:
            raise VendorError(f"{tile_dir / stem}.svg: not a tile SVG written by this script")
        view_box, body = match.group(1).decode(), match.group(2).decode()
        symbols.append(f'<symbol id="{stem}" viewBox="{view_box}">{body}</symbol>')
    return (
        '<svg xmlns="http://www.w3.org/2000/svg">\n' + "\n".join(symbols) + "\n</svg>\n"
    ).encode("ascii")


# --- the folder and its manifest ------------------------------------------------------------


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def licence_text(name: str, source: dict[str, str]) -> tuple[bytes, str]:
    """A licence text a tarball lacks, from the file or installed distribution named,
    checked against its pinned sha256; with where it came from."""
    if "distribution" in source:
        from importlib import metadata

        try:
            dist = metadata.distribution(source["distribution"])
        except metadata.PackageNotFoundError:
            raise VendorError(
                f"{name}: pip install {source['distribution']} (its licence file is taken)"
            ) from None
        where = f"{source['distribution']}: {source['file']}"
        found = [f for f in dist.files or [] if str(f).endswith(".dist-info/" + source["file"])]
        if not found:
            raise VendorError(f"{name}: {source['distribution']} has no {source['file']}")
        path = Path(str(dist.locate_file(found[0])))
    else:
        path, where = Path(source["file"]), source["file"]
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise VendorError(f"{name}: cannot read {path}: {exc.strerror}") from None
    if sha256(data) != source["sha256"]:
        raise VendorError(f"{name}: {path} is not the pinned text (sha256 {sha256(data)})")
    return data, where


def build(dest: Path, work: Path, packages: list[dict[str, Any]]) -> dict[str, Any]:
    """Fill ``dest`` (empty) with the files of ``packages``; return the manifest."""
    entries = []
    for pkg in packages:
        spec = f"{pkg['name']}@{pkg['version']}"
        into = work / re.sub(r"[^a-z0-9.-]", "_", spec.lower())
        into.mkdir()
        print(f"npm pack {spec}", file=sys.stderr)
        tarball = npm_pack(pkg["name"], pkg["version"], into)
        integrity = sha512_integrity(tarball)
        if integrity != pkg["integrity"]:
            raise VendorError(
                f"{spec}: tarball integrity {integrity} is not the pinned {pkg['integrity']}"
            )
        with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as tar:
            meta = json.loads(read_member(tar, "package.json", spec))
            if meta.get("version") != pkg["version"] or meta.get("name") != pkg["name"]:
                raise VendorError(
                    f"{spec}: package.json names {meta.get('name')}@{meta.get('version')}"
                )
            license_ = str(meta.get("license", ""))
            if license_.replace("BSD-0-Clause", "0BSD") != pkg["license"]:
                raise VendorError(f"{spec}: licence {license_!r}, expected {pkg['license']!r}")
            folder = dest / pkg["dir"]
            folder.mkdir(parents=True)
            files = []
            for source, target in pkg["files"].items():
                data = read_member(tar, source, spec)
                (folder / target).write_bytes(data)
                files.append(
                    {"path": target, "from": source, "sha256": sha256(data), "bytes": len(data)}
                )
            for target, source in pkg.get("texts", {}).items():
                data, where = licence_text(target, source)
                (folder / target).write_bytes(data)
                files.append(
                    {"path": target, "from": where, "sha256": sha256(data), "bytes": len(data)}
                )
            if pkg["name"] == FONT_PACKAGE:
                font = read_member(tar, FONT_FILE, spec)
                tiles = folder / TILE_DIR
                tiles.mkdir()
                for name, data in tile_svgs(font).items():
                    (tiles / name).write_bytes(data)
                    files.append(
                        {
                            "path": f"{TILE_DIR}/{name}",
                            "from": FONT_FILE,
                            "glyph": f"U+{TILE_GLYPHS[name[:-4]]:04X}",
                            "sha256": sha256(data),
                            "bytes": len(data),
                        }
                    )
                sprite = build_sprite(tiles)
                (folder / SPRITE).write_bytes(sprite)
                files.append(
                    {
                        "path": SPRITE,
                        "from": f"{TILE_DIR}/*.svg",
                        "sha256": sha256(sprite),
                        "bytes": len(sprite),
                    }
                )
        entries.append(
            {
                "name": pkg["name"],
                "version": pkg["version"],
                "license": pkg["license"],
                "integrity": integrity,
                "dir": pkg["dir"],
                "license_files": pkg["license_files"],
                "files": sorted(files, key=lambda f: f["path"]),
            }
        )
        print(f"  {integrity[:30]}... {len(files)} files", file=sys.stderr)
    manifest = {
        "about": "Files vendored by scripts/vendor.py from npm tarballs; paths are under 'dir'.",
        "packages": entries,
    }
    (dest / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest


def tree(folder: Path) -> Iterator[tuple[str, bytes]]:
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            yield path.relative_to(folder).as_posix(), path.read_bytes()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--check", action="store_true", help="rebuild in a temporary folder and compare"
    )
    group.add_argument(
        "--sprite", action="store_true", help="rebuild only the tile sprite, offline"
    )
    parser.add_argument(
        "--only",
        choices=[name for name, _, _ in FOLDERS],
        help="one folder: static (served by the web app) or tests (test tools)",
    )
    args = parser.parse_args(argv)
    try:
        if args.sprite:
            folder = VENDOR / next(p["dir"] for p in PACKAGES if p["name"] == FONT_PACKAGE)
            (folder / SPRITE).write_bytes(build_sprite(folder / TILE_DIR))
            print(
                f"wrote {folder / SPRITE} (update MANIFEST.json with a full rebuild)",
                file=sys.stderr,
            )
            return 0
        differ: list[str] = []
        for name, target, packages in FOLDERS:
            if args.only not in (None, name):
                continue
            with tempfile.TemporaryDirectory(prefix="vendor-") as tmp:
                work, staged = Path(tmp) / "work", Path(tmp) / "vendor"
                work.mkdir()
                staged.mkdir()
                build(staged, work, packages)
                if args.check:
                    new, old = dict(tree(staged)), dict(tree(target)) if target.is_dir() else {}
                    for path in sorted(
                        p for p in new.keys() | old.keys() if new.get(p) != old.get(p)
                    ):
                        differ.append(f"{target.relative_to(ROOT)}/{path}")
                    continue
                if target.exists():
                    shutil.rmtree(target)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copytree(staged, target)
            print(f"wrote {target.relative_to(ROOT)}", file=sys.stderr)
        if args.check:
            for path in differ:
                print(f"differs: {path}")
            print("vendor folders are up to date" if not differ else f"{len(differ)} files differ")
            return 1 if differ else 0
        return 0
    except VendorError as exc:
        print(f"vendor.py: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
