"""The store: SQLAlchemy 2 models, Alembic migrations, and the repositories of the
evening score sheets, of the online tables and of the tournaments.  See
``docs/store.md``, ``docs/online.md`` and ``docs/tournament.md``."""

from mahjong_nts.store.db import (
    Conflict,
    NotFound,
    NotOwner,
    Store,
    StoreError,
    StoreUnavailable,
    alembic_config,
    default_url,
    open_store,
)
from mahjong_nts.store.sheets import (
    Change,
    HandView,
    SessionInfo,
    SheetView,
    add_hand,
    changes,
    correct_hand,
    create_session,
    get_sheet,
    sheet_version,
)

__all__ = [
    "Change",
    "Conflict",
    "HandView",
    "NotFound",
    "NotOwner",
    "SessionInfo",
    "SheetView",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "add_hand",
    "alembic_config",
    "changes",
    "correct_hand",
    "create_session",
    "default_url",
    "get_sheet",
    "open_store",
    "sheet_version",
]
