"""One request of the JSON contract answered over HTTP, with its status.

The checks are those of :mod:`mahjong_nts.formats.wire` (the functions behind
``handle_score_line`` and ``handle_settle_line``); only the status is added:

* 200: the answer;
* 400: the body is not JSON within the bounds of
  :func:`mahjong_nts.formats.safejson.loads` (malformed, not UTF-8, duplicate
  keys, too many digits, too deep);
* 422: JSON, but not a valid request (not an object, an unknown or missing
  field, a wrong type, a tile or seat that is wrong, a rule set that is not a
  shipped name or inline rules).

The error body is ``{"error": "..."}`` with the message the JSON line would
carry.  An exception other than these is a bug: it is not caught here, and the
server answers a plain 500 without details.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from fastapi.responses import JSONResponse
from pydantic import BaseModel, ValidationError
from starlette.exceptions import HTTPException

from mahjong_nts.core.errors import MahjongError
from mahjong_nts.formats import safejson, wire

__all__ = ["answer", "error_response", "http_error_response"]

_M = TypeVar("_M", bound=BaseModel)


def error_response(status: int, message: str) -> JSONResponse:
    """``{"error": message}`` (bounded by :func:`wire.short_message`) with ``status``."""
    return JSONResponse({"error": wire.short_message(message)}, status_code=status)


def http_error_response(exc: HTTPException) -> JSONResponse:
    """The answer to an ``HTTPException`` outside the pages (a 404, 405, 413, 415):
    ``{"error": detail}`` with its status and headers (``Allow`` of a 405)."""
    response = error_response(exc.status_code, str(exc.detail))
    if exc.headers:
        response.headers.update(exc.headers)
    return response


def answer(
    body: bytes,
    model: type[_M],
    run: Callable[[_M], dict[str, Any]],
    line: Callable[[bytes], dict[str, Any]],
) -> JSONResponse:
    """Parse ``body``, validate it as ``model`` and answer it with ``run``.
    ``line`` is the JSON-lines handler of the same request, which words the
    error for a value that is not an object."""
    try:
        data = safejson.loads(body, max_bytes=wire.MAX_LINE_BYTES)
    except safejson.JsonInputError as exc:
        return error_response(400, wire.error_message(exc))
    if not isinstance(data, dict):
        return error_response(422, line(body)["error"])
    try:
        return JSONResponse(run(model.model_validate(data)))
    except (ValidationError, MahjongError, ValueError, RecursionError) as exc:
        # the same classes the JSON lines answer as errors (wire._handle)
        return error_response(422, wire.error_message(exc))
