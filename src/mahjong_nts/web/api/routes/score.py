"""``POST /api/score``: one hand scored and explained, as ``score --json`` does."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from mahjong_nts.formats import wire
from mahjong_nts.web.api.answer import answer
from mahjong_nts.web.api.body import read_json_body
from mahjong_nts.web.api.models import ScoreResponse
from mahjong_nts.web.api.openapi import ERROR_RESPONSES, request_body

router = APIRouter(tags=["score"])


@router.post(
    "/score",
    summary="Score one hand and explain every item",
    response_model=ScoreResponse,
    responses=ERROR_RESPONSES,
    openapi_extra=request_body("ScoreRequest"),
)
async def score(request: Request) -> JSONResponse:
    """Take the object of one line of ``mahjong-nts score --json`` and answer the
    object that command writes: the score, every item that counted and every
    item that did not, or ``{"error": "..."}`` with a 4xx status."""
    body = await read_json_body(request)  # within the bounds, before any parsing
    return answer(body, wire.ScoreRequest, wire.score, wire.handle_score_line)
