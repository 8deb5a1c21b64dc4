"""``POST /api/settle``: who pays whom, as ``settle --json`` does."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from mahjong_nts.formats import wire
from mahjong_nts.web.api.answer import answer
from mahjong_nts.web.api.body import read_json_body
from mahjong_nts.web.api.models import SettleResponse
from mahjong_nts.web.api.openapi import ERROR_RESPONSES, request_body

router = APIRouter(tags=["settle"])


@router.post(
    "/settle",
    summary="Settle a hand: who pays whom",
    response_model=SettleResponse,
    responses=ERROR_RESPONSES,
    openapi_extra=request_body("SettleRequest"),
)
async def settle(request: Request) -> JSONResponse:
    """Take the object of one line of ``mahjong-nts settle --json`` (the scores or
    the hands of every seat, who won, who discarded) and answer the object that
    command writes, or ``{"error": "..."}`` with a 4xx status."""
    body = await read_json_body(request)  # within the bounds, before any parsing
    return answer(body, wire.SettleRequest, wire.settle, wire.handle_settle_line)
