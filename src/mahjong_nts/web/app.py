"""The app factory: :func:`create_app` builds the whole web app from its settings.

No app is built at import; ``uvicorn --factory mahjong_nts.web:create_app`` (and
``mahjong-nts serve``) call the factory, which reads its settings from the
environment when none are given.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from mahjong_nts.web.api.answer import error_response, http_error_response
from mahjong_nts.web.api.direct import DirectApi
from mahjong_nts.web.api.main import DIRECT_ENDPOINTS, api_router
from mahjong_nts.web.api.openapi import add_request_schemas
from mahjong_nts.web.bottable import Registry
from mahjong_nts.web.calc import router as calc_router
from mahjong_nts.web.database import Database, lifespan
from mahjong_nts.web.middleware import (
    CrossSiteGuard,
    SecurityHeaders,
    hide_tokens_in_server_log,
)
from mahjong_nts.web.offline import router as offline_router
from mahjong_nts.web.online import online_lifespan
from mahjong_nts.web.online import router as online_router
from mahjong_nts.web.online_pages import router as online_pages_router
from mahjong_nts.web.pages import STATIC_DIR, licence_files
from mahjong_nts.web.pages import router as pages_router
from mahjong_nts.web.play import router as play_router
from mahjong_nts.web.replay import Replays
from mahjong_nts.web.replay import router as replay_router
from mahjong_nts.web.rules import router as rules_router
from mahjong_nts.web.settings import Settings
from mahjong_nts.web.settle import router as settle_router
from mahjong_nts.web.sheet import router as sheet_router
from mahjong_nts.web.templating import Pages
from mahjong_nts.web.tournament import router as tournament_router

__all__ = ["create_app"]

DESCRIPTION = (
    "Score and settle hands of Dutch tournament Mahjong (NTS rules). The endpoints take "
    "exactly the objects of `mahjong-nts score --json` and `settle --json` (one line's "
    "object as the body) and answer the same objects. Every bad request gets "
    '`{"error": "..."}` with a 4xx status that says which field is wrong.'
)


def _wants_html(request: Request) -> bool:
    return not request.url.path.startswith("/api/") and "text/html" in request.headers.get(
        "accept", ""
    )


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    """The database, then the online tables on it (resumed from their events)."""
    async with lifespan(app), online_lifespan(app):
        yield


def create_app(settings: Settings | None = None) -> FastAPI:
    """The web app for ``settings`` (read from ``MAHJONG_NTS_*`` when None)."""
    settings = settings or Settings()
    app = FastAPI(
        title="mahjong-nts",
        description=DESCRIPTION,
        version="0.1.0",
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json",
        lifespan=_lifespan,
    )
    app.state.settings = settings
    app.state.pages = Pages(settings.default_language)
    app.state.licences = licence_files()
    app.state.database = Database(settings)  # opened by the lifespan
    app.state.play_tables = Registry(seed=settings.play_seed)
    app.state.replays = Replays()

    app.include_router(api_router, prefix="/api")
    app.include_router(calc_router)
    app.include_router(offline_router)
    app.include_router(pages_router)
    app.include_router(sheet_router)
    app.include_router(tournament_router)
    app.include_router(play_router)
    app.include_router(replay_router)
    app.include_router(settle_router)
    app.include_router(rules_router)
    app.include_router(online_router)
    app.include_router(online_pages_router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    # the API's hot routes skip FastAPI's routing (same answers): inside SecurityHeaders
    app.add_middleware(DirectApi, endpoints=DIRECT_ENDPOINTS)
    # no change made by a page of another site (forms, scripts): before any route
    app.add_middleware(CrossSiteGuard, allowed=settings.allowed_origins)
    app.add_middleware(SecurityHeaders)
    hide_tokens_in_server_log()

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if _wants_html(request) and exc.status_code == 404:
            pages: Pages = request.app.state.pages
            return pages.render(request, "404.html", status_code=404)
        return http_error_response(exc)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ())) or "request"
        return error_response(422, f"{where}: {first.get('msg', 'invalid')}")

    def openapi() -> dict[str, object]:
        if app.openapi_schema is None:
            from fastapi.openapi.utils import get_openapi

            document = get_openapi(
                title=app.title,
                version=app.version,
                description=app.description,
                routes=app.routes,
            )
            app.openapi_schema = add_request_schemas(document)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app
