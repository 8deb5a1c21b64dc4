"""Security headers on every answer and one log line per request.

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
from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "SECURITY_HEADERS",
    "HideTokens",
    "SecurityHeaders",
    "hide_tokens_in_server_log",
    "log_path",
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
