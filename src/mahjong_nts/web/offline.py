"""The calculator offline: an installable web app that scores without the server.

The browser runs the server's own Python: :func:`mahjong_nts.calc.result.render_fragment`
(what ``GET /calc/result`` answers) in Pyodide, CPython compiled to WebAssembly
(vendored under ``static/vendor/pyodide``), in a Web Worker.  So an offline answer is
the server's answer: the same code, template and catalogue, not a second implementation.

| route | what |
|---|---|
| ``GET /manifest.webmanifest`` | the web app manifest, named in the page's language |
| ``GET /offline/icon.svg`` | the app's icon: the red dragon tile on the table's green |
| ``GET /sw.js`` | the service worker (root scope): the app shell and the offline files |
| ``GET /offline/worker.js`` | the Web Worker that runs Pyodide (its own CSP: WebAssembly) |
| ``GET /offline/bundle.zip`` | the Python the worker needs, built once per process |

The bundle is made from the running package and its installed Jinja2 and MarkupSafe
(their pure-Python code; MarkupSafe's C speedups are left out, its Python fallback is
the same functions), with their licence files: no build step, and never a stale copy.
It is built once per process, deterministic (fixed dates, sorted), and its SHA-256 is
its ETag and part of the service worker's version, so a new server version replaces
the cached copy.  See docs/web.md, "Offline".
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import re
import zipfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import Response

from mahjong_nts.core.tiles import Tile
from mahjong_nts.i18n import translator
from mahjong_nts.web.templating import pages_of, request_language
from mahjong_nts.web.tiles import BACK, all_faces, picture_file

__all__ = [
    "MAX_BUNDLE_BYTES",
    "OfflineFiles",
    "build_bundle",
    "offline_files",
    "router",
]

router = APIRouter(include_in_schema=False)

PACKAGE_DIR: Final = Path(__file__).resolve().parent.parent
STATIC_DIR: Final = Path(__file__).resolve().parent / "static"
PYODIDE_DIR: Final = STATIC_DIR / "vendor" / "pyodide"
PYODIDE_FILES: Final = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
"""What ``loadPyodide()`` reads (no packages: the bundle brings its own pure Python)."""

MAX_BUNDLE_BYTES: Final = 1024 * 1024
"""The bundle's size, compressed; it is about 300 KB (a bigger one is a bug: refused)."""

BUNDLE_PARTS: Final = (
    "__init__.py",
    "core/*.py",
    "formats/__init__.py",
    "formats/scorejob.py",
    "formats/rulefiles.py",
    "formats/citations.py",
    "formats/safejson.py",
    "data/rulesets/*.toml",
    "i18n/__init__.py",
    "i18n/locales/*/LC_MESSAGES/*.mo",
    "calc/*.py",
    "calc/templates/*.html",
)
"""The package's files in the bundle (paths under ``mahjong_nts/``): what
``calc.result`` imports and reads, and nothing that needs pydantic or a web server."""

THIRD_PARTY: Final = {"jinja2": ("jinja2", "*.py"), "markupsafe": ("markupsafe", "[_i]*.py")}
"""Distribution -> (its package, the files taken): all of Jinja2's Python; MarkupSafe's
``__init__.py`` and ``_native.py`` (the fallback it imports without its C module)."""

_ZIP_DATE: Final = (1980, 1, 1, 0, 0, 0)

WORKER_CSP: Final = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; object-src 'none'; base-uri 'none'"
)
"""The worker's policy: the pages' (nothing from elsewhere, no inline script), and
WebAssembly may be compiled (Pyodide); only this script gets it."""

SW_CONFIG_LINE: Final = "const CONFIG = {}; // filled in by web/offline.py\n"


def _files(base: Path, pattern: str) -> list[Path]:
    return sorted(p for p in base.glob(pattern) if p.is_file())


def _licence_files(dist_name: str) -> list[tuple[str, bytes]]:
    dist = metadata.distribution(dist_name)
    out = []
    for f in dist.files or []:
        if Path(str(f)).name.upper().startswith(("LICENSE", "LICENCE", "COPYING")):
            data = Path(str(dist.locate_file(f))).read_bytes()
            out.append((f"licences/{dist_name}-{Path(str(f)).name}", data))
    return out


def bundle_members() -> list[tuple[str, bytes]]:
    """The bundle's files, in order: (path in the zip, contents)."""
    members: dict[str, bytes] = {}
    for pattern in BUNDLE_PARTS:
        found = _files(PACKAGE_DIR, pattern)
        if not found:
            raise RuntimeError(f"offline bundle: no file matches mahjong_nts/{pattern}")
        for path in found:
            members["mahjong_nts/" + path.relative_to(PACKAGE_DIR).as_posix()] = path.read_bytes()
    for dist_name, (package, pattern) in THIRD_PARTY.items():
        module = __import__(package)
        base = Path(module.__file__ or "").parent
        for path in _files(base, pattern):
            members[f"{package}/{path.name}"] = path.read_bytes()
        members.update(_licence_files(dist_name))
    members["README.txt"] = (
        b"The Python the offline calculator runs in the browser (Pyodide): mahjong_nts "
        b"(MIT licence), Jinja2 and MarkupSafe (BSD-3-Clause, licences/), served by "
        b"mahjong_nts.web.offline from the server's own installed files.\n"
    )
    return sorted(members.items())


def build_bundle() -> bytes:
    """The bundle as a zip: the same bytes for the same files (fixed dates, sorted)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for name, data in bundle_members():
            info = zipfile.ZipInfo(name, date_time=_ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, data)
    data = out.getvalue()
    if len(data) > MAX_BUNDLE_BYTES:
        raise RuntimeError(f"offline bundle: {len(data)} bytes, more than {MAX_BUNDLE_BYTES}")
    return data


@dataclass(frozen=True, slots=True)
class OfflineFiles:
    """What the service worker caches and the page says about it."""

    bundle: bytes
    etag: str
    version: str
    shell: tuple[str, ...]
    offline: tuple[str, ...]
    offline_bytes: int
    pyodide_version: str

    def config(self) -> dict[str, Any]:
        """The service worker's and the page's view: cache names and URLs."""
        return {
            "version": self.version,
            "shellCache": f"mahjong-nts-shell-{self.version}",
            "pyodideCache": f"mahjong-nts-pyodide-{self.pyodide_version}",
            "prefix": "mahjong-nts-",
            "shell": list(self.shell),
            "offline": list(self.offline),
            "pyodide": [f"/static/vendor/pyodide/{name}" for name in PYODIDE_FILES],
            "bytes": self.offline_bytes,
        }


SHELL_STATIC: Final = (
    "app.css",
    "calc.css",
    "calc.js",
    "calc-offline.js",
    "calc-sheet.css",
    "calc-sheet.js",
    "sheets-known.js",
)


@functools.cache
def offline_files() -> OfflineFiles:
    """Built once per process: the bundle, its ETag, and the lists of cached URLs."""
    bundle = build_bundle()
    digest = hashlib.sha256(bundle).hexdigest()
    pictures = sorted({"/static/" + picture_file(face) for face in all_faces() if face != BACK})
    shell = (
        "/",
        *(f"/static/{name}" for name in SHELL_STATIC),
        "/manifest.webmanifest",
        "/offline/icon.svg",
        *pictures,
    )
    version = hashlib.sha256(digest.encode())
    for name in (*SHELL_STATIC, "sw.js", "calc-offline-worker.js"):
        version.update((STATIC_DIR / name).read_bytes())
    manifest = json.loads((STATIC_DIR / "vendor" / "MANIFEST.json").read_text("utf-8"))
    pyodide = next(p for p in manifest["packages"] if p["name"] == "pyodide")
    offline = ("/offline/worker.js", "/offline/bundle.zip")
    offline_bytes = (
        len(bundle)
        + (STATIC_DIR / "calc-offline-worker.js").stat().st_size
        + sum((PYODIDE_DIR / name).stat().st_size for name in PYODIDE_FILES)
    )
    return OfflineFiles(
        bundle=bundle,
        etag=f'"{digest[:32]}"',
        version=version.hexdigest()[:16],
        shell=shell,
        offline=offline,
        offline_bytes=offline_bytes,
        pyodide_version=pyodide["version"],
    )


def _not_modified(request: Request, etag: str) -> bool:
    asked = request.headers.get("if-none-match", "")
    return etag in [tag.strip() for tag in asked.split(",")]


@router.get("/offline/bundle.zip")
async def bundle(request: Request) -> Response:
    """The Python the offline calculator runs (see the module's docstring)."""
    files = offline_files()
    headers = {"ETag": files.etag, "Cache-Control": "no-cache"}
    if _not_modified(request, files.etag):
        return Response(status_code=304, headers=headers)
    return Response(files.bundle, media_type="application/zip", headers=headers)


@router.get("/sw.js")
async def service_worker() -> Response:
    """The service worker, with its configuration (versions, URLs) written in."""
    files = offline_files()
    source = (STATIC_DIR / "sw.js").read_text("utf-8")
    if SW_CONFIG_LINE not in source:
        raise RuntimeError("static/sw.js has lost its CONFIG line")
    config = json.dumps(files.config(), separators=(",", ":"))
    text = source.replace(SW_CONFIG_LINE, f"const CONFIG = {config};\n")
    return Response(
        text,
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache"},
    )


@router.get("/offline/worker.js")
async def worker() -> Response:
    """The Web Worker that runs Pyodide, with the one policy that allows WebAssembly."""
    text = (STATIC_DIR / "calc-offline-worker.js").read_bytes()
    return Response(
        text,
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Content-Security-Policy": WORKER_CSP},
    )


@router.get("/manifest.webmanifest")
async def manifest(request: Request) -> Response:
    """The web app manifest in the request's language."""
    pages = pages_of(request)
    lang, _ = request_language(request, pages.default_language)
    _ = translator(lang).gettext
    body = {
        "name": _("Dutch mahjong calculator"),
        "short_name": _("Mahjong"),
        "description": _("Score a hand of Dutch mahjong, every item explained, also offline."),
        "lang": lang,
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#fbfaf6",
        "theme_color": "#0b5d3b",
        "icons": [
            {"src": "/offline/icon.svg", "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    return Response(
        json.dumps(body, ensure_ascii=False),
        media_type="application/manifest+json",
        headers={"Vary": "Accept-Language, Cookie", "Content-Language": lang},
    )


_VIEW_BOX: Final = re.compile(r'viewBox="([^"]+)"')
_PATH: Final = re.compile(r'<path d="([^"]+)"/>')


@functools.cache
def icon_svg() -> str:
    """The red dragon tile, white on the table's green, in a square (any size)."""
    tile = (STATIC_DIR / picture_file(Tile.RED)).read_text("ascii")
    view_box, path = _VIEW_BOX.search(tile), _PATH.search(tile)
    if view_box is None or path is None:
        raise RuntimeError("the red dragon's picture has no view box or path")
    x, y, w, h = (float(v) for v in view_box.group(1).split())
    side = h * 1.25
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{x - (side - w) / 2:g} '
        f'{y - (side - h) / 2:g} {side:g} {side:g}">'
        f'<rect x="{x - (side - w) / 2:g}" y="{y - (side - h) / 2:g}" width="{side:g}" '
        f'height="{side:g}" rx="{side / 8:g}" fill="#0b5d3b"/>'
        f'<path fill="#ffffff" d="{path.group(1)}"/></svg>\n'
    )


@router.get("/offline/icon.svg")
async def icon() -> Response:
    return Response(
        icon_svg(), media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"}
    )
