"""The online tables of one server process: made, found, joined, resumed, listed.

:class:`OnlineServer` holds the live tables in memory (by table id and by watch id) and
the store they are written to.  :meth:`OnlineServer.start` rebuilds every table the store
says is live (waiting or playing) from its events and starts it again: a server killed
at any moment (``kill -9``) continues every table where it stood.  No HTTP here: the web
layer (``web/online.py``) turns :class:`~mahjong_nts.online.table.OnlineError` into a
status and pumps each socket's messages.

Several processes may share one PostgreSQL database (docs/online.md, "Several
processes"): each is a node (:mod:`~mahjong_nts.online.nodes`) and holds only the tables
it owns (``store/cluster.py``).  A table another live node holds is :class:`Moved` to it;
a table whose owner's lease has passed (the owner crashed) is claimed and rebuilt from its
events by the node asked for it, or by the heartbeat's sweep, with the code a restart
uses.  The lobby of every node is the database's, refreshed when another node's notice
says it changed (``LISTEN``/``NOTIFY``).  On SQLite the server is the only node: at start
it takes every live table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from mahjong_nts.core.seeding import DEFAULT_SEED_BITS, derive_seed
from mahjong_nts.online.config import OnlineConfig
from mahjong_nts.online.limits import MAX_LOBBY_TABLES
from mahjong_nts.online.nodes import Moved, Node
from mahjong_nts.online.settings import SettingsError, check_settings, rules_of, ruleset_label
from mahjong_nts.online.storecall import store_call
from mahjong_nts.online.table import CLOSE_RELOAD, OnlineError, Table
from mahjong_nts.online.tokens import ID_PATTERN, TOKEN_PATTERN, client_key, new_id, sign, unsign
from mahjong_nts.store import Conflict, NotFound, NotOwner, Store, StoreError
from mahjong_nts.store.cluster import LobbyRow, claim, claimable, lobby_rows, ownership, release
from mahjong_nts.store.cluster import renew as renew_leases
from mahjong_nts.store.notices import LOBBY, OWNER, listen, parse_notice
from mahjong_nts.store.online import (
    OPEN_STATUSES,
    NewEvent,
    NewSeat,
    count_open_tables,
    create_table,
    load_table,
    open_table_ids,
)

__all__ = ["OnlineConfig", "OnlineServer"]

log = logging.getLogger("mahjong_nts.online")

LOBBY_MAX_AGE: Final = 30.0
"""Seconds a node's copy of the lobby is kept at most (several processes): it is read
again at once when a notice says it changed; this catches a notice missed while the
listening connection was down."""
UNRESUMABLE = (StoreError, ValueError, KeyError, TypeError, AssertionError)
"""What rebuilding a table that cannot be resumed raises."""


def _utcnow() -> datetime:
    return datetime.now(UTC)


class OnlineServer:
    """The live tables of this process (see the module's docstring)."""

    def __init__(
        self,
        store: Store,
        secret: bytes,
        config: OnlineConfig | None = None,
        node: Node | None = None,
    ) -> None:
        self.store = store
        self.secret = secret
        self.config = config or OnlineConfig()
        self.node = node or Node.new("http://127.0.0.1:8000")
        self.clustered = store.engine.dialect.name == "postgresql"
        """Several processes may share the store (PostgreSQL); SQLite has one."""
        self.tables: dict[str, Table] = {}
        self.watch: dict[str, Table] = {}
        self._reloading: set[str] = set()
        self._unresumable: set[str] = set()
        self._takeovers = asyncio.Lock()
        self._tasks: list[asyncio.Task[None]] = []
        self._lobby: list[dict[str, Any]] | None = None
        self._lobby_read = -1
        self._lobby_at = 0.0
        self._lobby_changes = 0
        """Counts the notices that the lobby changed: a copy read before one is stale."""
        self._made = 0

    # ---------------------------------------------------------------- life

    async def start(self) -> None:
        """Take and start the live tables of the store: on SQLite all of them; with
        several processes those nobody holds (and those of the process that had this
        node's address before, which cannot be alive).  Then the heartbeat, and on
        PostgreSQL the notices of the other nodes."""
        ids = await store_call(self.store, open_table_ids)
        for table_id in ids:
            try:
                if await self._claim(table_id, predecessor=True, force=not self.clustered):
                    await self._load(table_id)
            except UNRESUMABLE as exc:
                log.error("table %s cannot be resumed: %s", table_id[:6], exc)
        if ids:
            log.info("%d online tables resumed", len(self.tables))
        loop = asyncio.get_running_loop()
        self._tasks.append(loop.create_task(self._heartbeat(), name="online heartbeat"))
        if self.clustered:
            self._tasks.append(loop.create_task(self._listen(), name="online notices"))

    async def _claim(
        self, table_id: str, *, predecessor: bool = False, force: bool = False
    ) -> bool:
        now = _utcnow()
        return await store_call(
            self.store,
            lambda store: claim(
                store,
                table_id,
                node=self.node.id,
                url=self.node.url,
                until=now + timedelta(seconds=self.config.lease_seconds),
                now=now,
                predecessor=self.node.url if predecessor else None,
                force=force,
            ),
        )

    async def _load(self, table_id: str) -> Table:
        """Rebuild a table this node has claimed from its events, and start it (the code
        of a restart and of a takeover alike)."""
        stored = await store_call(self.store, load_table, table_id)
        table = Table.rebuild(
            stored,
            store=self.store,
            config=self.config,
            on_close=self._gone,
            owner=self.node.id,
        )
        self._add(table)
        table.start()
        return table

    async def stop(self) -> None:
        """Stop the heartbeat and every table; let go of this node's tables, so that
        another node takes them over at once."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks.clear()
        for table in list(self.tables.values()):
            await table.stop()
        self.tables.clear()
        self.watch.clear()
        try:
            await store_call(self.store, release, node=self.node.id)
        except StoreError as exc:
            log.warning("the online tables could not be let go: %s", exc)

    # ---------------------------------------------------------------- several nodes

    async def _heartbeat(self) -> None:
        """Every third of a lease: renew the lease of this node's tables, let go of those
        another node has taken, and take over the tables nobody holds."""
        while True:
            await asyncio.sleep(self.config.lease_seconds / 3)
            try:
                await self.beat()
            except StoreError as exc:
                log.warning("the heartbeat of the online tables failed: %s", exc)
            except Exception:  # a bug: logged, and the next beat tries again
                log.exception("the heartbeat of the online tables failed")

    async def beat(self) -> None:
        """One heartbeat (see :meth:`_heartbeat`)."""
        held = set(self.tables)
        until = _utcnow() + timedelta(seconds=self.config.lease_seconds)
        owned = await store_call(
            self.store,
            lambda store: renew_leases(store, node=self.node.id, until=until, tables=held),
        )
        for table_id in held - owned:
            await self._let_go(table_id, "another server process took it over")
        room = self.config.max_open_tables - len(self.tables) + len(self._finished_unwatched())
        if room <= 0:
            return
        now = _utcnow()
        orphans = await store_call(
            self.store, lambda store: claimable(store, node=self.node.id, now=now, limit=room)
        )
        for table_id in orphans:
            if table_id in self.tables or table_id in self._unresumable:
                continue
            async with self._takeovers:
                if table_id not in self.tables and await self._make_room():
                    try:
                        await self._take(table_id)
                        log.info("table %s taken over (its server process is gone)", table_id[:6])
                    except OnlineError:
                        pass

    def _finished_unwatched(self) -> list[Table]:
        return [t for t in self.tables.values() if t.status == "finished" and not t.connections]

    async def _make_room(self) -> bool:
        """Whether this node may hold one more table.  At its bound the finished tables
        nobody is looking at make way, the one idle longest first: the bound is on tables
        in memory, but only tables waiting or in play may refuse a new one."""
        while len(self.tables) >= self.config.max_open_tables:
            idle = self._finished_unwatched()
            if not idle:
                return False
            await min(idle, key=lambda t: t.idle_since).make_way()
        return True

    async def _let_go(self, table_id: str, why: str) -> None:
        """A table this node no longer owns: stopped, its sockets closed (1012) so that
        the clients connect again and are sent to its owner."""
        table = self.tables.pop(table_id, None)
        if table is None:
            return
        self.watch.pop(table.watch_id, None)
        log.warning("table %s let go: %s", table_id[:6], why)
        await table.stop(CLOSE_RELOAD)

    async def _listen(self) -> None:
        """The other nodes' notices: the lobby changed, a table changed hands."""
        delay = 1.0
        while True:
            try:
                async for payload in listen(self.store):
                    if payload is None:  # listening (again): whatever came before was missed
                        self._lobby_changes += 1
                        delay = 1.0
                        continue
                    await self._heard(payload)
            except StoreError as exc:
                log.warning("the notices of the other server processes: %s", exc)
            except Exception:  # a bug: logged, and it listens again
                log.exception("the notices of the other server processes failed")
            self._lobby_changes += 1  # (read the lobby again: a notice may be missed)
            await asyncio.sleep(delay)
            delay = min(30.0, delay * 2)

    async def _heard(self, payload: str) -> None:
        notice = parse_notice(payload)
        if notice is None:
            return
        kind, table_id, node = notice
        if kind == LOBBY:
            self._lobby_changes += 1
        elif kind == OWNER and node != self.node.id and table_id in self.tables:
            await self._let_go(table_id, "another server process took it over")

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
        """Rebuild a broken table from the store, retrying while the store is down (if
        this node still holds it: one that another node took is that node's)."""
        try:
            for delay in (0.5, 1, 2, 5, 10, 30, 60):
                try:
                    async with self._takeovers:
                        if table_id not in self.tables:
                            await self._take(table_id)
                    return
                except OnlineError as exc:
                    log.info("table %s is not rebuilt here: %s", table_id[:6], exc.message)
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
        if not await self._make_room():
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
        self._made += 1
        if self.config.seed is None:
            match_seed = secrets.randbits(DEFAULT_SEED_BITS)
        else:  # tests and screenshots only (OnlineConfig.seed)
            match_seed = derive_seed(self.config.seed, "online", self._made)
        table_id, watch_id = new_id(), new_id()
        events = [NewEvent("created", {"settings": settings.data(), "match_seed": str(match_seed)})]
        until = _utcnow() + timedelta(seconds=self.config.lease_seconds)
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
                owner=self.node.id,
                owner_url=self.node.url,
                lease_until=until,
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
            owner=self.node.id,
        )
        self._add(table)
        table.start()
        return table

    async def get(self, table_id: str) -> Table:
        """The live table with this id: this node's, or taken over from a node that is
        gone (:class:`OnlineError` 404; :class:`Moved` when another live node holds it)."""
        if not ID_PATTERN.fullmatch(table_id):
            raise OnlineError(404, "no such table: it is over, or the link is wrong")
        table = self.tables.get(table_id)
        return table if table is not None else await self._find(table_id=table_id)

    async def get_watched(self, watch_id: str) -> Table:
        """The live table with this watch id (as :meth:`get`)."""
        if not ID_PATTERN.fullmatch(watch_id):
            raise OnlineError(404, "no such table to watch: it is over, or the link is wrong")
        table = self.watch.get(watch_id)
        return table if table is not None else await self._find(watch_id=watch_id)

    async def _find(self, *, table_id: str | None = None, watch_id: str | None = None) -> Table:
        """A live table not in this node's memory: its owner's (:class:`Moved`), or taken
        over here when nobody holds it."""
        gone = (
            "no such table: it is over, or the link is wrong"
            if watch_id is None
            else "no such table to watch: it is over, or the link is wrong"
        )
        try:
            found = await store_call(
                self.store, lambda store: ownership(store, table_id=table_id, watch_id=watch_id)
            )
        except StoreError as exc:
            raise OnlineError(503, f"the database failed: {exc}") from None
        if found is not None and found.held_by_other(self.node.id, _utcnow()):
            raise _moved(found.owner_url)  # (a table just over too: its logs are there)
        if found is None or found.status not in OPEN_STATUSES:
            raise OnlineError(404, gone)
        async with self._takeovers:
            table = self.tables.get(found.id)
            if table is not None:
                return table
            if found.id in self._unresumable:
                raise OnlineError(503, "this table cannot be resumed: it is broken")
            if not await self._make_room():
                raise OnlineError(
                    503,
                    f"{self.config.max_open_tables} tables are open on this server: "
                    "try again later",
                )
            return await self._take(found.id)

    async def _take(self, table_id: str) -> Table:
        """Claim a table and rebuild it here (the takeover lock held): :class:`Moved` when
        another node claimed it first, 404 when it ended."""
        try:
            if not await self._claim(table_id):
                found = await store_call(
                    self.store, lambda store: ownership(store, table_id=table_id)
                )
                if found is not None and found.held_by_other(self.node.id, _utcnow()):
                    raise _moved(found.owner_url)
                raise OnlineError(404, "no such table: it is over, or the link is wrong")
            return await self._load(table_id)
        except UNRESUMABLE as exc:
            if isinstance(exc, StoreError):
                raise OnlineError(503, f"the database failed: {exc}") from None
            log.error("table %s cannot be resumed: %s", table_id[:6], exc)
            self._unresumable.add(table_id)
            raise OnlineError(503, "this table cannot be resumed: it is broken") from None

    async def join(self, table_id: str, nickname: object, seat: int | None) -> tuple[int, str]:
        """Take a seat at a table: the seat and the signed cookie value that holds it."""
        table = await self.get(table_id)
        if not isinstance(nickname, str):
            raise OnlineError(422, "nickname: give a name of 1 to 24 characters")
        try:
            taken, token = await table.join(nickname, seat)
        except NotOwner:  # another node took the table over: the client goes there
            await self._let_go(table_id, "another server process took it over")
            await self.get(table_id)
            raise OnlineError(409, "the table moved a moment ago: try again") from None
        except Conflict:
            raise OnlineError(409, "someone took that seat a moment ago: choose another") from None
        except NotFound:
            raise OnlineError(404, "no such table: it is over, or the link is wrong") from None
        except StoreError as exc:
            raise OnlineError(503, f"the database failed: {exc}") from None
        return taken, token

    async def rejoin(self, table_id: str, token: str) -> int:
        """The seat a token holds at a table (:class:`OnlineError` 403 when none)."""
        table = await self.get(table_id)
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

    async def lobby(self) -> list[dict[str, Any]]:
        """The public tables: waiting for players (with the seats still free), and
        in play (to watch).  Never a private table.  With several processes, those of
        every node (the database's, read again when a notice says it changed)."""
        if not self.clustered:
            return _lobby_order([self._lobby_line(t) for t in self.tables.values()])
        changes = self._lobby_changes
        if (
            self._lobby is None
            or self._lobby_read != changes
            or time.monotonic() - self._lobby_at > LOBBY_MAX_AGE
        ):
            try:
                rows = await store_call(
                    self.store, lambda store: lobby_rows(store, limit=MAX_LOBBY_TABLES)
                )
            except StoreError as exc:
                raise OnlineError(503, f"the database failed: {exc}") from None
            self._lobby = _lobby_order([_row_line(r) for r in rows])
            self._lobby_read, self._lobby_at = changes, time.monotonic()
        return self._lobby

    @staticmethod
    def _lobby_line(table: Table) -> dict[str, Any] | None:
        if not table.settings.public or table.status not in OPEN_STATUSES:
            return None
        free = [s.seat for s in table.seats if s.kind == "human" and not s.taken]
        return {
            "table": table.id if free else None,
            "watch": table.watch_id,
            "status": table.status,
            "ruleset": ruleset_label(table.settings.ruleset, table.rules),
            "house_rules": not isinstance(table.settings.ruleset, str),
            "players": len(table.seats),
            "free": free,
            "nicknames": [s.nickname for s in table.seats],
            "bots": [s.bot for s in table.seats],
            "hands": table.settings.hands,
            "hands_played": table.played,
            "turn_seconds": table.settings.turn_seconds,
        }


def _row_line(row: LobbyRow) -> dict[str, Any]:
    """A lobby line from the database (the same as :meth:`OnlineServer._lobby_line`)."""
    free = [i for i, (kind, _, _, taken) in enumerate(row.seats) if kind == "human" and not taken]
    settings = row.settings
    return {
        "table": row.id if free else None,
        "watch": row.watch_id,
        "status": row.status,
        "ruleset": _label(settings.get("ruleset")),
        "house_rules": not isinstance(settings.get("ruleset"), str),
        "players": len(row.seats),
        "free": free,
        "nicknames": [nickname for _, _, nickname, _ in row.seats],
        "bots": [bot for _, bot, _, _ in row.seats],
        "hands": settings.get("hands"),
        "hands_played": row.hands_played,
        "turn_seconds": settings.get("turn_seconds"),
    }


def _label(ruleset: Any) -> str | None:
    """The lobby's name of a stored table's rule set, as :func:`ruleset_label` gives it."""
    if isinstance(ruleset, dict):
        try:
            return ruleset_label(ruleset, rules_of(ruleset))
        except SettingsError:  # stored by an earlier version that read it otherwise
            return None
    return ruleset if isinstance(ruleset, str) else None


def _lobby_order(lines: list[dict[str, Any] | None]) -> list[dict[str, Any]]:
    out = [line for line in lines if line is not None]
    out.sort(key=lambda t: (t["status"] != "waiting", t["watch"]))
    return out[:MAX_LOBBY_TABLES]


def _moved(url: str | None) -> OnlineError:
    if not url:
        return OnlineError(503, "another server process holds this table: try again shortly")
    return Moved(url)
