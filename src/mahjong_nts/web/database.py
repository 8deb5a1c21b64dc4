"""The app's database: opened at start (the lifespan), shared by the requests.

The URL is ``settings.db_url``, else the SQLite file ``mahjong-nts.sqlite3`` in
``settings.data_dir`` (made on first start, migrated by :func:`open_store`).
When the database cannot be opened at start the app still starts (the
calculator, settle and the API need no database): the failure is logged as one
line, and every page that needs the store tries to open it again and answers
503 with the reason until it can.  ``mahjong-nts serve`` opens the store once
before it starts, so there an unreachable database is an ``error:`` line.

The store's exceptions map onto statuses: :class:`~mahjong_nts.sheet.SheetError`
422, :class:`~mahjong_nts.store.NotFound` 404, :class:`~mahjong_nts.store.Conflict`
409, :class:`~mahjong_nts.store.StoreUnavailable` (and any other store error) 503.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Final

from fastapi import FastAPI, Request
from sqlalchemy.engine import URL

from mahjong_nts.sheet import SheetError
from mahjong_nts.store import (
    Conflict,
    NotFound,
    Store,
    StoreError,
    StoreUnavailable,
    open_store,
)
from mahjong_nts.store.db import default_url
from mahjong_nts.web.settings import Settings

__all__ = ["Database", "database", "lifespan", "status_of", "store_url"]

log = logging.getLogger("mahjong_nts.web.database")

STATUS: Final[tuple[tuple[type[Exception], int], ...]] = (
    (SheetError, 422),
    (NotFound, 404),
    (Conflict, 409),
    (StoreUnavailable, 503),
    (StoreError, 503),
)


def status_of(exc: Exception) -> int:
    """The HTTP status of a store or sheet error."""
    for kind, status in STATUS:
        if isinstance(exc, kind):
            return status
    raise TypeError(f"not a store error: {type(exc).__name__}")  # pragma: no cover


def store_url(settings: Settings) -> str | URL:
    """``settings.db_url``, else the SQLite file in ``settings.data_dir`` (the
    folder is made when missing; a folder that cannot be made is a
    :class:`StoreUnavailable`)."""
    if settings.db_url is not None:
        return settings.db_url
    return default_url(settings.data_dir)


class Database:
    """The app's one :class:`Store`, opened on first need (at start, normally)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._store: Store | None = None
        self._lock = threading.Lock()

    def store(self) -> Store:
        """The open store (opened now if it is not): :class:`StoreUnavailable`
        with one line when it cannot be."""
        if self._store is None:
            with self._lock:
                if self._store is None:
                    self._store = open_store(store_url(self.settings))
        return self._store

    def close(self) -> None:
        with self._lock:
            if self._store is not None:
                self._store.close()
                self._store = None


def database(request: Request) -> Database:
    db: Database = request.app.state.database
    return db


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Open the store as the app starts, close it as it stops.  A failure is one
    log line, never a traceback; the pages that need the store say 503."""
    db: Database = app.state.database
    try:
        store = db.store()
    except StoreError as exc:
        log.error("the database is not available: %s", exc)
    else:
        log.info("database: %s", store.url)
    try:
        yield
    finally:
        db.close()
