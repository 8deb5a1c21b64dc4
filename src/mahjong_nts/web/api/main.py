"""The API router: gathers the route modules under ``/api``."""

from __future__ import annotations

from fastapi import APIRouter

from mahjong_nts.web.api.routes import score, settle

api_router = APIRouter()
api_router.include_router(score.router)
api_router.include_router(settle.router)
