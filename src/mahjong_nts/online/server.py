"""The online tables of one server process: made, found, joined, resumed, listed.

:class:`OnlineServer` holds the live tables in memory (by table id and by watch id) and
the store they are written to.  :meth:`OnlineServer.start` rebuilds every table the store
says is live (waiting or playing) from its events and starts it again: a server killed
at any moment (``kill -9``) continues every table where it stood.  No HTTP here: the web
layer (``web/online.py``) turns :class:`~mahjong_nts.online.table.OnlineError` into a
status and pumps each socket's messages.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from mahjong_nts.core.seeding import DEFAULT_SEED_BITS
from mahjong_nts.online.config import OnlineConfig
from mahjong_nts.online.settings import SettingsError, check_settings
from mahjong_nts.online.storecall import store_call
from mahjong_nts.online.table import OnlineError, Table
from mahjong_nts.online.tokens import ID_PATTERN, TOKEN_PATTERN, client_key, new_id, sign, unsign
from mahjong_nts.store import Conflict, NotFound, Store, StoreError
from mahjong_nts.store.online import (
    NewEvent,
    NewSeat,
    count_open_tables,
    create_table,
    load_table,
    open_table_ids,
)

__all__ = ["OnlineConfig", "OnlineServer"]

log = logging.getLogger("mahjong_nts.online")


class OnlineServer:
    """The live tables of this process (see the module's docstring)."""

    def __init__(self, store: Store, secret: bytes, config: OnlineConfig | None = None) -> None:
        self.store = store
        self.secret = secret
        self.config = config or OnlineConfig()
        self.tables: dict[str, Table] = {}
        self.watch: dict[str, Table] = {}
        self._reloading: set[str] = set()

    # ---------------------------------------------------------------- life

    async def start(self) -> None:
        """Rebuild and start every live table of the store."""
        ids = await store_call(self.store, open_table_ids)
        for table_id in ids:
            try:
                await self._load(table_id)
            except (StoreError, ValueError, KeyError, TypeError, AssertionError) as exc:
                log.error("table %s cannot be resumed: %s", table_id[:6], exc)
        if ids:
            log.info("%d online tables resumed", len(self.tables))

    async def _load(self, table_id: str) -> Table:
        stored = await store_call(self.store, load_table, table_id)
        table = Table.rebuild(stored, store=self.store, config=self.config, on_close=self._gone)
        self._add(table)
        table.start()
        return table

    async def stop(self) -> None:
        for table in list(self.tables.values()):
            await table.stop()
        self.tables.clear()
        self.watch.clear()

    def _add(self, table: Table) -> None:
        self.tables[table.id] = table
        self.watch[table.watch_id] = table

    def _gone(self, table: Table) -> None:
        """A table closed itself, or broke and is rebuilt from the store."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
            self.watch.pop(table.watch_id, None)
        if table.broken and table.id not in self._reloading:
            self._reloading.add(table.id)
            asyncio.get_running_loop().create_task(self._reload(table.id))

    async def _reload(self, table_id: str) -> None:
        """Rebuild a broken table from the store, retrying while the store is down."""
        try:
            for delay in (0.5, 1, 2, 5, 10, 30, 60):
                try:
                    await self._load(table_id)
                    return
                except StoreError as exc:
                    log.error("table %s: the database failed again: %s", table_id[:6], exc)
                    await asyncio.sleep(delay)
            log.error("table %s could not be rebuilt; a restart resumes it", table_id[:6])
        finally:
            self._reloading.discard(table_id)

    # ---------------------------------------------------------------- tables

    async def create(self, data: Any, client: str) -> Table:
        """A new table from a client's settings (:class:`OnlineError` 422 for settings
        that cannot be played, 503 when the server has all the tables it takes, 429
        when this client has all the tables it may have)."""
        try:
            settings, rules = check_settings(data)
        except SettingsError as exc:
            raise OnlineError(422, str(exc)) from None
        if len(self.tables) >= self.config.max_open_tables:
            raise OnlineError(
                503,
                f"{self.config.max_open_tables} tables are open on this server: try again later",
            )
        creator = client_key(self.secret, client)
        mine = await store_call(self.store, count_open_tables, creator)
        if mine >= self.config.tables_per_client:
            raise OnlineError(
                429,
                f"you have {mine} open tables on this server (at most "
                f"{self.config.tables_per_client}): finish one first",
            )
        assert settings.seats is not None
        match_seed = secrets.randbits(DEFAULT_SEED_BITS)
        table_id, watch_id = new_id(), new_id()
        events = [NewEvent("created", {"settings": settings.data(), "match_seed": str(match_seed)})]
        await store_call(
            self.store,
            lambda store: create_table(
                store,
                table_id=table_id,
                watch_id=watch_id,
                settings=settings.data(),
                ruleset_name=rules.name,
                public=settings.public,
                creator=creator,
                seats=[NewSeat(s.kind, s.bot) for s in settings.seats or ()],
                events=events,
            ),
        )
        table = Table.new(
            table_id=table_id,
            watch_id=watch_id,
            settings=settings,
            rules=rules,
            match_seed=match_seed,
            store=self.store,
            config=self.config,
            events=len(events),
            on_close=self._gone,
        )
        self._add(table)
        table.start()
        return table

    def get(self, table_id: str) -> Table:
        """The live table with this id (:class:`OnlineError` 404)."""
        table = self.tables.get(table_id) if ID_PATTERN.fullmatch(table_id) else None
        if table is None:
            raise OnlineError(404, "no such table: it is over, or the link is wrong")
        return table

    def get_watched(self, watch_id: str) -> Table:
        """The live table with this watch id (:class:`OnlineError` 404)."""
        table = self.watch.get(watch_id) if ID_PATTERN.fullmatch(watch_id) else None
        if table is None:
            raise OnlineError(404, "no such table to watch: it is over, or the link is wrong")
        return table

    async def join(self, table_id: str, nickname: object, seat: int | None) -> tuple[int, str]:
        """Take a seat at a table: the seat and the signed cookie value that holds it."""
        table = self.get(table_id)
        if not isinstance(nickname, str):
            raise OnlineError(422, "nickname: give a name of 1 to 24 characters")
        try:
            taken, token = await table.join(nickname, seat)
        except Conflict:
            raise OnlineError(409, "someone took that seat a moment ago: choose another") from None
        except NotFound:
            raise OnlineError(404, "no such table: it is over, or the link is wrong") from None
        except StoreError as exc:
            raise OnlineError(503, f"the database failed: {exc}") from None
        return taken, token

    def rejoin(self, table_id: str, token: str) -> int:
        """The seat a token holds at a table (:class:`OnlineError` 403 when none)."""
        table = self.get(table_id)
        seat = table.seat_of_token(token) if TOKEN_PATTERN.fullmatch(token) else None
        if seat is None:
            raise OnlineError(403, "that link holds no seat at this table")
        return seat

    def cookie(self, table_id: str, token: str) -> str:
        return sign(self.secret, table_id, token)

    def seat_of_cookie(self, table: Table, value: str | None) -> int | None:
        """The seat a seat cookie holds at ``table``; ``None`` for no cookie, or one
        that is not signed by this server for this table, or whose seat is gone."""
        token = unsign(self.secret, table.id, value)
        return None if token is None else table.seat_of_token(token)

    def lobby(self) -> list[dict[str, Any]]:
        """The public tables: waiting for players (with the seats still free), and
        in play (to watch).  Never a private table."""
        out = []
        for table in self.tables.values():
            if not table.settings.public or table.status not in ("waiting", "playing"):
                continue
            free = [s.seat for s in table.seats if s.kind == "human" and not s.taken]
            out.append(
                {
                    "table": table.id if free else None,
                    "watch": table.watch_id,
                    "status": table.status,
                    "ruleset": table.settings.ruleset,
                    "players": len(table.seats),
                    "free": free,
                    "nicknames": [s.nickname for s in table.seats],
                    "bots": [s.bot for s in table.seats],
                    "hands": table.settings.hands,
                    "hands_played": table.played,
                    "turn_seconds": table.settings.turn_seconds,
                }
            )
        out.sort(key=lambda t: (t["status"] != "waiting", t["watch"]))
        return out
