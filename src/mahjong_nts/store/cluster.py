"""Who holds each online table live, when several server processes share one database.

Each process (a *node*: a random id per start and the address it is reached at) holds the
tables it owns: ``online_tables.owner``, ``owner_url`` and ``lease_until`` (revision
0003).  Its heartbeat renews the lease of the tables in its memory in one statement
(:func:`renew`); a table whose lease has passed (its owner crashed) is taken over by the
next process that claims it.  :func:`claim` is one conditional ``UPDATE``: of two
processes that claim a table at the same moment exactly one gets it (the database's row
lock decides; PostgreSQL evaluates the condition again on the row the other wrote), so a
table never has two owners.  Every write of a table names its owner
(``store/online.py``), so a process that lost a table without noticing cannot write it.

Times are the processes' own clocks (UTC): they must agree to well within a lease.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from sqlalchemy import and_, func, or_, select, update

from mahjong_nts.store.db import Store
from mahjong_nts.store.models import OnlineEvent, OnlineSeat, OnlineTable
from mahjong_nts.store.notices import OWNER, notice
from mahjong_nts.store.online import OPEN_STATUSES

__all__ = [
    "LobbyRow",
    "Ownership",
    "claim",
    "claimable",
    "lobby_rows",
    "ownership",
    "release",
    "renew",
]

ENDED: Final = "ended"
"""The event kind of a hand that is over (``online/``'s)."""


@dataclass(frozen=True, slots=True)
class Ownership:
    """A table's status and who holds it."""

    id: str
    watch_id: str
    status: str
    owner: str | None
    owner_url: str | None
    lease_until: datetime | None

    def held_by_other(self, node: str, now: datetime) -> bool:
        """Owned by another process whose lease runs: it is that process's table."""
        return (
            self.owner is not None
            and self.owner != node
            and self.lease_until is not None
            and self.lease_until > now
        )


@dataclass(frozen=True, slots=True)
class LobbyRow:
    """What the lobby shows of a public live table."""

    id: str
    watch_id: str
    status: str
    settings: dict[str, Any]
    seats: tuple[tuple[str, str | None, str | None, bool], ...]
    """Per seat: kind, bot, nickname, taken."""
    hands_played: int


def _aware(value: datetime | None) -> datetime | None:
    """SQLite gives back naive times: they are UTC."""
    if value is None:
        return None
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def ownership(
    store: Store, *, table_id: str | None = None, watch_id: str | None = None
) -> Ownership | None:
    """The table with this id (or watch id) and its owner; ``None``: no such table."""
    query = select(
        OnlineTable.id,
        OnlineTable.watch_id,
        OnlineTable.status,
        OnlineTable.owner,
        OnlineTable.owner_url,
        OnlineTable.lease_until,
    )
    if table_id is not None:
        query = query.where(OnlineTable.id == table_id)
    else:
        query = query.where(OnlineTable.watch_id == watch_id)
    with store.transaction() as session:
        row = session.execute(query).first()
    if row is None:
        return None
    return Ownership(row[0], row[1], row[2], row[3], row[4], _aware(row[5]))


def _claimable(node: str, now: datetime, predecessor: str | None) -> Any:
    """Whom a table may be taken from: nobody, this node, an owner whose lease has
    passed, or (``predecessor``) the process that had this node's address before."""
    free = [
        OnlineTable.owner.is_(None),
        OnlineTable.owner == node,
        OnlineTable.lease_until.is_(None),
        OnlineTable.lease_until < now,
    ]
    if predecessor is not None:
        free.append(OnlineTable.owner_url == predecessor)
    return and_(OnlineTable.status.in_(OPEN_STATUSES), or_(*free))


def claim(
    store: Store,
    table_id: str,
    *,
    node: str,
    url: str,
    until: datetime,
    now: datetime,
    predecessor: str | None = None,
    force: bool = False,
) -> bool:
    """Make ``node`` the owner of the live table ``table_id`` until ``until``, if nobody
    else holds it at ``now`` (see :func:`_claimable`; ``force``: whoever holds it, the
    store of one process).  One conditional ``UPDATE``: whether this node got it.  A
    table that changed hands sends a notice to the other processes."""
    condition = (
        OnlineTable.status.in_(OPEN_STATUSES) if force else _claimable(node, now, predecessor)
    )
    with store.transaction() as session:
        done = session.execute(
            update(OnlineTable)
            .where(OnlineTable.id == table_id, condition)
            .values(owner=node, owner_url=url, lease_until=until)
        )
        won = done.rowcount == 1  # type: ignore[attr-defined]
        if won:
            notice(session, OWNER, table_id, node)
    return bool(won)


def claimable(
    store: Store, *, node: str, now: datetime, predecessor: str | None = None, limit: int
) -> list[str]:
    """Live tables no process holds (at most ``limit``, oldest first): those a sweep
    takes over."""
    query = (
        select(OnlineTable.id)
        .where(_claimable(node, now, predecessor), or_(OnlineTable.owner.is_(None),
                                                       OnlineTable.owner != node))
        .order_by(OnlineTable.created, OnlineTable.id)
        .limit(limit)
    )  # fmt: skip
    with store.transaction() as session:
        return list(session.scalars(query).all())


def renew(store: Store, *, node: str, until: datetime, tables: Collection[str]) -> set[str]:
    """The heartbeat: the ``tables`` this node holds (in its memory, live or just over)
    held until ``until``, in one statement; the ids of those it still owns (one it held
    and is not among them was taken over)."""
    if not tables:
        return set()
    ids = list(tables)
    with store.transaction() as session:
        session.execute(
            update(OnlineTable)
            .where(OnlineTable.owner == node, OnlineTable.id.in_(ids))
            .values(lease_until=until)
        )
        return set(
            session.scalars(
                select(OnlineTable.id).where(OnlineTable.owner == node, OnlineTable.id.in_(ids))
            ).all()
        )


def release(store: Store, *, node: str, tables: Iterable[str] | None = None) -> int:
    """Let go of the tables of ``node`` (all, or those given): the next process that
    asks takes them over at once.  How many were let go."""
    query = update(OnlineTable).where(OnlineTable.owner == node)
    if tables is not None:
        query = query.where(OnlineTable.id.in_(list(tables)))
    with store.transaction() as session:
        done = session.execute(query.values(owner=None, owner_url=None, lease_until=None))
        return int(done.rowcount)  # type: ignore[attr-defined]


def lobby_rows(store: Store, *, limit: int) -> list[LobbyRow]:
    """The public live tables (at most ``limit``, oldest first) with their seats and
    the number of hands played: the lobby of every process."""
    with store.transaction() as session:
        tables = session.execute(
            select(OnlineTable.id, OnlineTable.watch_id, OnlineTable.status, OnlineTable.settings)
            .where(OnlineTable.public.is_(True), OnlineTable.status.in_(OPEN_STATUSES))
            .order_by(OnlineTable.created, OnlineTable.id)
            .limit(limit)
        ).all()
        ids = [t[0] for t in tables]
        if not ids:
            return []
        seats: dict[str, list[tuple[str, str | None, str | None, bool]]] = {i: [] for i in ids}
        for s in session.execute(
            select(
                OnlineSeat.table_id,
                OnlineSeat.kind,
                OnlineSeat.bot,
                OnlineSeat.nickname,
                OnlineSeat.token_hash,
            )
            .where(OnlineSeat.table_id.in_(ids))
            .order_by(OnlineSeat.table_id, OnlineSeat.seat)
        ).all():
            seats[s[0]].append((s[1], s[2], s[3], s[1] == "bot" or s[4] is not None))
        played = dict(
            session.execute(
                select(OnlineEvent.table_id, func.count())
                .where(OnlineEvent.table_id.in_(ids), OnlineEvent.kind == ENDED)
                .group_by(OnlineEvent.table_id)
            ).all()
        )
    return [
        LobbyRow(t[0], t[1], t[2], dict(t[3]), tuple(seats[t[0]]), int(played.get(t[0], 0)))
        for t in tables
    ]
