"""The JSON API's hot routes answered straight from ASGI, ahead of FastAPI's routing.

``POST /api/score`` and ``POST /api/settle`` are what a busy server spends its time on,
and FastAPI's machinery around a route (the search through every page's route, the
route's exit stacks, solving its dependencies, parsing a query string nobody reads)
cost about half as much as scoring the hand itself.  :class:`DirectApi` is a pure
ASGI middleware inside :class:`~mahjong_nts.web.middleware.SecurityHeaders` (so the
headers and the log line are the same) that takes exactly those requests (``POST``,
the path exactly, no ``root_path``) and calls the same endpoint functions the routes
declare, turning an ``HTTPException`` into the answer the app's handler gives it.
Everything else, and these paths with another method, goes on to FastAPI, where the
routes stay declared for the OpenAPI document and answer whatever this does not take.
The answers are byte for byte the same either way
(``benchmarks/check_api_identical.py`` compares them over generated requests;
``tests/web/test_direct.py`` asks both ways).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping

from fastapi import Request
from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from mahjong_nts.web.api.answer import http_error_response

__all__ = ["DirectApi", "Endpoint"]

Endpoint = Callable[[Request], Awaitable[Response]]


class DirectApi:
    """Answers ``POST`` to each path of ``endpoints`` with its endpoint; passes
    everything else to ``app``."""

    def __init__(self, app: ASGIApp, endpoints: Mapping[str, Endpoint]) -> None:
        self.app = app
        self.endpoints = dict(endpoints)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        endpoint = (
            self.endpoints.get(scope["path"])
            if scope["type"] == "http" and scope["method"] == "POST" and not scope.get("root_path")
            else None
        )
        if endpoint is None:
            await self.app(scope, receive, send)
            return
        try:
            response = await endpoint(Request(scope, receive))
        except HTTPException as exc:
            response = http_error_response(exc)
        await response(scope, receive, send)
