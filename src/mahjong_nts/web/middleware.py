"""Security headers on every answer, one log line per request, and no change made by
a page of another site.

Pure ASGI (no per-request task or buffering).  The log line has the method,
the path without its query string, the status and the time taken; every run of
20 or more letters, digits, ``-`` or ``_`` in it (share links, seat tokens, a
token with a suffix such as ``.csv``) is written as ``…``.  Bodies and headers are never
logged.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Iterable
from typing import Final
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mahjong_nts.web.api.answer import error_response

__all__ = [
    "SECURITY_HEADERS",
    "CrossSiteGuard",
    "HideTokens",
    "SecurityHeaders",
    "hide_tokens_in_server_log",
    "log_path",
    "origin_allowed",
    "request_allowed",
]

log = logging.getLogger("mahjong_nts.web.access")

CSP: Final = (
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'self'"
)
"""Everything from this server only; no inline script (``script-src`` falls back
to ``'self'``), no plugins, no framing."""

SECURITY_HEADERS: Final = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
)

_TOKEN: Final = re.compile(r"[A-Za-z0-9_-]{20,}")
_MAX_LOGGED_PATH: Final = 200


def log_path(path: str) -> str:
    """``path`` as logged: token-like segments replaced, at most 200 characters,
    control characters escaped."""
    shown = _TOKEN.sub("…", path)  # anywhere: "/sheet/<token>.csv" too
    if len(shown) > _MAX_LOGGED_PATH:
        shown = shown[: _MAX_LOGGED_PATH - 3] + "..."
    return shown.encode("unicode_escape").decode("ascii") if not shown.isprintable() else shown


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every HTTP answer (unless the route set
    its own) and logs each request."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500

        async def send_with_headers(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers.extend(h for h in SECURITY_HEADERS if h[0] not in present)
                message["headers"] = headers
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        finally:
            if log.isEnabledFor(logging.INFO):
                log.info(
                    "%s %s %d %.1fms",
                    scope.get("method", "?"),
                    log_path(scope.get("path", "")),
                    status,
                    (time.perf_counter() - start) * 1000,
                )


class HideTokens(logging.Filter):
    """Writes every token-like run (20 or more letters, digits, ``-``, ``_``) of a log
    record's text as ``…``: uvicorn logs each WebSocket's path (``"WebSocket
    /ws/online/<table id>" [accepted]``), and a table's id is its players' link."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = _TOKEN.sub("…", record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(
                _TOKEN.sub("…", a) if isinstance(a, str) else a for a in record.args
            )
        return True


def hide_tokens_in_server_log() -> None:
    """Put :class:`HideTokens` on uvicorn's server log (once)."""
    server_log = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, HideTokens) for f in server_log.filters):
        server_log.addFilter(HideTokens())


_SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})
CROSS_SITE_REFUSAL: Final = (
    "a page of another site may not change anything here (its request came from another origin)"
)


def origin_allowed(origin: str | None, host: str | None, allowed: Iterable[str] = ()) -> bool:
    """Whether a browser's ``Origin`` may act here: none at all (no browser sent it), one
    of the ``allowed`` origins, or a page of this server (http or https, its address the
    ``Host`` asked for; a TLS proxy in front makes the scheme differ).  ``null`` (a
    sandboxed page, a file) is never allowed."""
    if origin is None or origin in allowed:
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and host is not None and parts.netloc == host


def request_allowed(
    origin: str | None, host: str | None, fetch_site: str | None, allowed: Iterable[str] = ()
) -> bool:
    """Whether a request that changes something may come from where its browser says.

    One of the ``allowed`` origins always may.  A browser that sends ``Sec-Fetch-Site``
    (every current one) says it plainly: ``same-origin`` (a page of this server) or
    ``none`` (the user's own doing) may, ``same-site`` and ``cross-site`` may not.  Its
    ``Origin`` alone cannot say it: under this server's ``Referrer-Policy: no-referrer``
    Chromium sends ``Origin: null`` with the forms of this server's own pages.  An older
    browser without it is judged by its ``Origin`` (:func:`origin_allowed`; ``null`` let
    through, as it then says nothing).  A program that sends neither may."""
    if origin is not None and origin in allowed:
        return True
    if fetch_site is not None:
        return fetch_site in ("same-origin", "none")
    return origin == "null" or origin_allowed(origin, host)


class CrossSiteGuard:
    """Refuses, with a 403 and before any route runs, every request that could change
    something (any method but GET, HEAD and OPTIONS) that a browser says comes from a page
    of another site (:func:`request_allowed`).  So a form or script on another site cannot
    make a table, take a seat, post a move or change a score sheet in a visitor's name.
    A program that is no browser sends neither header and is served as before (the JSON
    API stays open to programs)."""

    def __init__(self, app: ASGIApp, allowed: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = frozenset(allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in _SAFE_METHODS:
            origin = host = fetch_site = None
            for name, value in scope["headers"]:
                if name == b"origin":
                    origin = value.decode("latin-1")
                elif name == b"host":
                    host = value.decode("latin-1")
                elif name == b"sec-fetch-site":
                    fetch_site = value.decode("latin-1")
            if not request_allowed(origin, host, fetch_site, self.allowed):
                refusal = error_response(403, CROSS_SITE_REFUSAL)
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)
