"""The API router: gathers the route modules under ``/api``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from fastapi import APIRouter

from mahjong_nts.web.api.direct import Endpoint
from mahjong_nts.web.api.routes import score, settle

__all__ = ["DIRECT_ENDPOINTS", "api_router"]

api_router = APIRouter()
api_router.include_router(score.router)
api_router.include_router(settle.router)

DIRECT_ENDPOINTS: Final[Mapping[str, Endpoint]] = {
    "/api/score": score.score,
    "/api/settle": settle.settle,
}
"""The ``POST`` routes :class:`~mahjong_nts.web.api.direct.DirectApi` answers
ahead of FastAPI's routing (the ``/api`` prefix is where ``create_app`` puts
``api_router``)."""
