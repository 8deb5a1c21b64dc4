"""The HTML pages of round one: the API
documentation (Swagger UI, served from this server) and the licences."""

from __future__ import annotations

from pathlib import Path
from typing import Final

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from mahjong_nts.web.templating import pages_of

__all__ = ["STATIC_DIR", "SWAGGER_CSS", "SWAGGER_JS", "licence_files", "router"]

STATIC_DIR: Final = Path(__file__).resolve().parent / "static"
SWAGGER_DIR: Final = "vendor/swagger-ui-dist"
SWAGGER_JS: Final = f"/static/{SWAGGER_DIR}/swagger-ui-bundle.js"
SWAGGER_CSS: Final = f"/static/{SWAGGER_DIR}/swagger-ui.css"

router = APIRouter(include_in_schema=False)


@router.get("/docs", response_class=HTMLResponse)
async def api_docs(request: Request) -> HTMLResponse:
    """Swagger UI from ``/static`` (no CDN); started by ``/static/swagger-init.js``
    because the page allows no inline script."""
    return pages_of(request).render(
        request,
        "docs.html",
        swagger_js=SWAGGER_JS,
        swagger_css=SWAGGER_CSS,
        openapi_url=request.app.openapi_url,
    )


def licence_files() -> list[str]:
    """The licence files of the vendored parts, as paths under ``/static``."""
    vendor = STATIC_DIR / "vendor"
    if not vendor.is_dir():
        return []
    found = [
        p
        for p in vendor.rglob("*")
        if p.is_file() and p.name.upper().startswith(("LICENSE", "LICENCE", "COPYING"))
    ]
    return sorted("/static/" + p.relative_to(STATIC_DIR).as_posix() for p in found)


@router.get("/licences", response_class=HTMLResponse)
async def licences(request: Request) -> HTMLResponse:
    return pages_of(request).render(request, "licences.html", files=request.app.state.licences)
