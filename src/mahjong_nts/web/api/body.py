"""Reading a request body within the bounds, before anything parses it.

A JSON request is at most :data:`mahjong_nts.formats.wire.MAX_LINE_BYTES` bytes,
as a line of ``score --json`` is.  A ``Content-Length`` past the bound is refused
before one byte of the body is read; a body without one (chunked) is counted as
it arrives and refused as soon as it passes the bound, so no more than the bound
plus one chunk is ever held.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from fastapi import HTTPException, Request

from mahjong_nts.formats import wire

__all__ = ["MAX_BODY_BYTES", "read_bounded", "read_json_body"]

MAX_BODY_BYTES: Final = wire.MAX_LINE_BYTES
"""Bytes of a request body: the bound of one JSON line (64 KiB)."""

JSON_TYPES: Final = ("application/json",)


def too_large(size: int | None = None) -> HTTPException:
    said = f"{size} bytes long" if size is not None else f"longer than {MAX_BODY_BYTES} bytes"
    return HTTPException(
        413, f"the request body is {said}: a request has at most {MAX_BODY_BYTES} bytes"
    )


def check_content_type(request: Request) -> None:
    """415 unless the body is declared JSON (``application/json``, any charset
    parameter; only UTF-8 is read)."""
    declared = request.headers.get("content-type")
    media = (declared or "").split(";", 1)[0].strip().lower()
    if media not in JSON_TYPES:
        shown = wire.short_message(repr(declared[:60])) if declared else "none"
        raise HTTPException(
            415, f"send the request as Content-Type: application/json (got {shown})"
        )


async def read_json_body(request: Request) -> bytes:
    """The body of a JSON request, at most :data:`MAX_BODY_BYTES` bytes
    (413 past it, 415 when not declared JSON, 400 for a bad Content-Length)."""
    check_content_type(request)
    length = request.headers.get("content-length")
    if length is not None:
        if not length.isdigit() or len(length) > 20:
            raise HTTPException(400, "Content-Length is not a whole number of bytes")
        if int(length) > MAX_BODY_BYTES:
            raise too_large(int(length))
    return await read_bounded(request, MAX_BODY_BYTES, too_large)


async def read_bounded(
    request: Request, most: int, too_large: Callable[[], HTTPException]
) -> bytes:
    """The body, counted as it arrives: ``too_large()`` is raised as soon as it passes
    ``most`` bytes, so no more than ``most`` plus one chunk is ever held (a body sent
    without a ``Content-Length``, or with a false one, is bounded too)."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > most:
            raise too_large()
        chunks.append(chunk)
    return b"".join(chunks)
