"""The web app (FastAPI): the HTTP JSON API and the pages.

``create_app(settings)`` builds it; ``mahjong-nts serve`` runs it under uvicorn.
See ``docs/web.md``.
"""

from __future__ import annotations

from mahjong_nts.web.app import create_app
from mahjong_nts.web.settings import Settings

__all__ = ["Settings", "create_app"]
