"""Notices between the server processes of one PostgreSQL database (``NOTIFY``).

A change that other processes must hear of at once (a table's line in the lobby changed,
a table's owner changed) sends a notice on :data:`CHANNEL` in the transaction that makes
the change, so it is delivered when (and only if) that transaction commits.  SQLite has no
notices: it is the store of one process (docs/online.md, "Several processes").
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Final

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from mahjong_nts.store.db import Store, StoreUnavailable

__all__ = [
    "CHANNEL",
    "LOBBY",
    "OWNER",
    "listen",
    "notice",
    "notices_supported",
    "parse_notice",
]

CHANNEL: Final = "mahjong_nts_online"
"""The ``LISTEN``/``NOTIFY`` channel of the online tables."""
LOBBY: Final = "lobby"
"""A table's line in the lobby changed (made, a seat taken, a hand dealt or over, ended)."""
OWNER: Final = "owner"
"""A table has a new owner: the process that held it must let it go."""
MAX_NOTICE_BYTES: Final = 200
"""A notice's payload (PostgreSQL takes up to 8000 bytes; ours are about 90)."""


def notices_supported(session: Session) -> bool:
    bind = session.get_bind()
    return bind.dialect.name == "postgresql"


def notice(session: Session, kind: str, table_id: str, node: str | None = None) -> None:
    """Send a notice in the session's transaction (nothing on SQLite)."""
    if not notices_supported(session):
        return
    payload = json.dumps({"kind": kind, "table": table_id, "node": node}, separators=(",", ":"))
    session.execute(select(func.pg_notify(CHANNEL, payload)))


def parse_notice(payload: str) -> tuple[str, str, str | None] | None:
    """``(kind, table id, node)`` of a notice's payload; ``None`` for one that is not ours."""
    if len(payload) > MAX_NOTICE_BYTES:
        return None
    try:
        data = json.loads(payload)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    kind, table, node = data.get("kind"), data.get("table"), data.get("node")
    if kind not in (LOBBY, OWNER) or not isinstance(table, str):
        return None
    if node is not None and not isinstance(node, str):
        return None
    return kind, table, node


async def listen(store: Store) -> AsyncIterator[str | None]:
    """The notices of :data:`CHANNEL` as they come, on a connection of its own (psycopg 3,
    asynchronous); first ``None`` once it listens (whatever came before was missed).
    :class:`StoreUnavailable` when the connection fails: listen again."""
    import psycopg

    url = store.engine.url.set(drivername="postgresql")
    try:
        conn = await psycopg.AsyncConnection.connect(
            url.render_as_string(hide_password=False), autocommit=True
        )
    except psycopg.Error as exc:
        raise StoreUnavailable(f"cannot listen for notices: {exc}") from None
    try:
        async with conn:
            await conn.execute(f"LISTEN {CHANNEL}")
            yield None
            async for note in conn.notifies():
                yield note.payload
    except psycopg.Error as exc:
        raise StoreUnavailable(f"the notices stopped: {exc}") from None
