"""The online tables in the store: a table with its seats, the seats taken, and the
append-only events a table's state is rebuilt from (``docs/online.md``).

Each function is one transaction.  Events are numbered per table from 0 without gaps
(``seq``); :func:`append_events` names the number of the first event it appends, and
if another writer appended first (or the number is taken) it is a
:class:`~mahjong_nts.store.db.Conflict` and nothing is stored.  An unknown table is a
:class:`~mahjong_nts.store.db.NotFound`.  Answers are frozen values, never table rows.

The store knows nothing of games: an event is a kind, a hand number and a JSON payload
(``online/`` writes and reads them).  It keeps only the SHA-256 of a seat token.

Several server processes may share one database (``store/cluster.py``): a write names
the process that makes it (``owner``), and a table another process owns now is a
:class:`~mahjong_nts.store.db.NotOwner`, nothing stored.  A change of what the lobby
shows sends a notice to the other processes (``store/notices.py``, PostgreSQL only).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError

from mahjong_nts.store.db import Conflict, NotFound, NotOwner, Store
from mahjong_nts.store.models import OnlineEvent, OnlineSeat, OnlineTable
from mahjong_nts.store.notices import LOBBY, notice

__all__ = [
    "LOBBY_KINDS",
    "OPEN_STATUSES",
    "STATUSES",
    "Append",
    "NewEvent",
    "NewSeat",
    "StoredEvent",
    "StoredSeat",
    "StoredTable",
    "TableInfo",
    "append_events",
    "append_many",
    "count_open_tables",
    "create_table",
    "load_table",
    "open_table_ids",
    "take_seat",
]

STATUSES: Final = ("waiting", "playing", "finished", "closed")
OPEN_STATUSES: Final = ("waiting", "playing")
"""A table in one of these is live: rebuilt and continued when a server starts."""
LOBBY_KINDS: Final = frozenset({"created", "joined", "dealt", "ended", "finished", "closed"})
"""Events after which a table's line in the lobby changes: the other server processes
hear of them (a notice)."""


@dataclass(frozen=True, slots=True)
class NewSeat:
    kind: str
    """``human`` or ``bot``."""
    bot: str | None = None


@dataclass(frozen=True, slots=True)
class NewEvent:
    kind: str
    payload: Mapping[str, Any]
    hand: int | None = None


@dataclass(frozen=True, slots=True)
class StoredSeat:
    seat: int
    kind: str
    bot: str | None
    nickname: str | None
    token_hash: str | None
    joined: datetime | None


@dataclass(frozen=True, slots=True)
class StoredEvent:
    seq: int
    hand: int | None
    kind: str
    payload: dict[str, Any]
    created: datetime


@dataclass(frozen=True, slots=True)
class TableInfo:
    id: str
    watch_id: str
    settings: dict[str, Any]
    ruleset_name: str
    players: int
    public: bool
    status: str
    creator: str
    events: int
    """Events stored: the ``seq`` of the next one."""
    created: datetime
    last_activity: datetime


@dataclass(frozen=True, slots=True)
class StoredTable:
    info: TableInfo
    seats: tuple[StoredSeat, ...]
    events: tuple[StoredEvent, ...]


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(value: datetime) -> datetime:
    """SQLite gives back naive times: they are UTC."""
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _info(row: OnlineTable) -> TableInfo:
    return TableInfo(
        id=row.id,
        watch_id=row.watch_id,
        settings=dict(row.settings),
        ruleset_name=row.ruleset_name,
        players=row.players,
        public=row.public,
        status=row.status,
        creator=row.creator,
        events=row.events,
        created=_aware(row.created),
        last_activity=_aware(row.last_activity),
    )


def _check_status(status: str) -> None:
    if status not in STATUSES:
        raise ValueError(f"status: one of {', '.join(STATUSES)}, not {status!r}")


def create_table(
    store: Store,
    *,
    table_id: str,
    watch_id: str,
    settings: Mapping[str, Any],
    ruleset_name: str,
    public: bool,
    creator: str,
    seats: Sequence[NewSeat],
    events: Sequence[NewEvent],
    status: str = "waiting",
    owner: str | None = None,
    owner_url: str | None = None,
    lease_until: datetime | None = None,
) -> TableInfo:
    """Store a new table, its seats (numbered from 0) and its first events (``seq``
    from 0), owned by the process ``owner`` (reached at ``owner_url``) until
    ``lease_until``.  A table id or watch id in use already is a :class:`Conflict`."""
    _check_status(status)
    now = _now()
    row = OnlineTable(
        id=table_id,
        watch_id=watch_id,
        settings=dict(settings),
        ruleset_name=ruleset_name,
        players=len(seats),
        public=public,
        status=status,
        creator=creator,
        events=len(events),
        created=now,
        last_activity=now,
        owner=owner,
        owner_url=owner_url,
        lease_until=lease_until,
    )
    try:
        with store.transaction() as session:
            session.add(row)
            session.flush()
            for i, seat in enumerate(seats):
                session.add(OnlineSeat(table_id=table_id, seat=i, kind=seat.kind, bot=seat.bot))
            for i, event in enumerate(events):
                session.add(_event_row(table_id, i, event, now))
            notice(session, LOBBY, table_id, owner)
    except IntegrityError:
        raise Conflict("a table with this id exists already") from None
    return _info(row)


def _event_row(table_id: str, seq: int, event: NewEvent, now: datetime) -> OnlineEvent:
    return OnlineEvent(
        table_id=table_id,
        seq=seq,
        hand=event.hand,
        kind=event.kind,
        payload=dict(event.payload),
        created=now,
    )


def append_events(
    store: Store,
    table_id: str,
    first_seq: int,
    events: Sequence[NewEvent],
    *,
    status: str | None = None,
    owner: str | None = None,
) -> int:
    """Append ``events`` to the table, numbered from ``first_seq``, which must be the
    number of events stored so far (else :class:`Conflict`: someone else appended);
    with ``status`` the table's status changes in the same transaction.  With
    ``owner``, only while that process owns the table (else :class:`NotOwner`).
    Returns the number of events stored after it."""
    return append_many(store, [Append(table_id, first_seq, tuple(events), status, owner)])[0]


@dataclass(frozen=True, slots=True)
class Append:
    """The arguments of one :func:`append_events`."""

    table_id: str
    first_seq: int
    events: Sequence[NewEvent]
    status: str | None = None
    owner: str | None = None


def append_many(store: Store, appends: Sequence[Append]) -> list[int]:
    """Several :func:`append_events` (of different tables) in one transaction: all of
    them stored, or none (a :class:`Conflict`, :class:`NotOwner` or :class:`NotFound` of
    any one of them).  One commit for many appends: a SQLite database waits for its disk
    once per commit.  Returns each table's number of events stored after it."""
    for one in appends:
        if one.status is not None:
            _check_status(one.status)
    now = _now()
    out = []
    try:
        with store.transaction() as session:
            for one in appends:
                table_id, first_seq, events = one.table_id, one.first_seq, one.events
                values: dict[str, Any] = {"events": first_seq + len(events), "last_activity": now}
                if one.status is not None:
                    values["status"] = one.status
                done = session.execute(
                    update(OnlineTable)
                    .where(
                        OnlineTable.id == table_id,
                        OnlineTable.events == first_seq,
                        *_owned_by(one.owner),
                    )
                    .values(**values)
                )
                if done.rowcount != 1:  # type: ignore[attr-defined]
                    _refused(session, table_id, one.owner)
                    raise Conflict(
                        f"table {table_id} has events past {first_seq}: someone else appended"
                    )
                for i, event in enumerate(events):
                    session.add(_event_row(table_id, first_seq + i, event, now))
                if one.status is not None or any(e.kind in LOBBY_KINDS for e in events):
                    notice(session, LOBBY, table_id, one.owner)
                out.append(first_seq + len(events))
    except IntegrityError:
        what = ", ".join(f"event {a.first_seq} of table {a.table_id}" for a in appends[:3])
        raise Conflict(f"{what}: one of them is stored already") from None
    return out


def take_seat(
    store: Store,
    table_id: str,
    seat: int,
    *,
    nickname: str,
    token_hash: str,
    first_seq: int,
    event: NewEvent,
    owner: str | None = None,
) -> int:
    """Give the free human ``seat`` to ``nickname``, held by the token whose SHA-256 is
    ``token_hash``, and append ``event`` (numbered ``first_seq``) in the same
    transaction.  A seat taken or a bot seat is a :class:`Conflict`; with ``owner``, a
    table that process does not own is a :class:`NotOwner`.  Returns the number of
    events stored after it."""
    now = _now()
    try:
        with store.transaction() as session:
            done = session.execute(
                update(OnlineSeat)
                .where(
                    OnlineSeat.table_id == table_id,
                    OnlineSeat.seat == seat,
                    OnlineSeat.kind == "human",
                    OnlineSeat.token_hash.is_(None),
                )
                .values(nickname=nickname, token_hash=token_hash, joined=now)
            )
            if done.rowcount != 1:  # type: ignore[attr-defined]
                raise Conflict(f"seat {seat} is not a free human seat")
            moved = session.execute(
                update(OnlineTable)
                .where(
                    OnlineTable.id == table_id,
                    OnlineTable.events == first_seq,
                    *_owned_by(owner),
                )
                .values(events=first_seq + 1, last_activity=now)
            )
            if moved.rowcount != 1:  # type: ignore[attr-defined]
                _refused(session, table_id, owner)
                raise Conflict(f"table {table_id} has events past {first_seq}")
            session.add(_event_row(table_id, first_seq, event, now))
            notice(session, LOBBY, table_id, owner)
    except IntegrityError:
        raise Conflict("that seat token is in use") from None
    return first_seq + 1


def _owned_by(owner: str | None) -> tuple[Any, ...]:
    """The condition of a write by the process ``owner`` (none without one)."""
    return () if owner is None else (OnlineTable.owner == owner,)


def _refused(session: Any, table_id: str, owner: str | None) -> None:
    """Why a conditional write of a table changed nothing, if it is not a plain
    conflict: no such table (:class:`NotFound`), or another owner (:class:`NotOwner`)."""
    row = session.get(OnlineTable, table_id)
    if row is None:
        raise NotFound(f"no table {table_id}")
    if owner is not None and row.owner != owner:
        raise NotOwner(f"table {table_id} is owned by another server process now")


def load_table(store: Store, table_id: str) -> StoredTable:
    """A table with its seats and all its events, in order (:class:`NotFound`)."""
    with store.transaction() as session:
        row = session.get(OnlineTable, table_id)
        if row is None:
            raise NotFound(f"no table {table_id}")
        seats = session.scalars(
            select(OnlineSeat).where(OnlineSeat.table_id == table_id).order_by(OnlineSeat.seat)
        ).all()
        events = session.scalars(
            select(OnlineEvent).where(OnlineEvent.table_id == table_id).order_by(OnlineEvent.seq)
        ).all()
        return StoredTable(
            info=_info(row),
            seats=tuple(
                StoredSeat(
                    seat=s.seat,
                    kind=s.kind,
                    bot=s.bot,
                    nickname=s.nickname,
                    token_hash=s.token_hash,
                    joined=None if s.joined is None else _aware(s.joined),
                )
                for s in seats
            ),
            events=tuple(
                StoredEvent(
                    seq=e.seq,
                    hand=e.hand,
                    kind=e.kind,
                    payload=dict(e.payload),
                    created=_aware(e.created),
                )
                for e in events
            ),
        )


def open_table_ids(store: Store) -> list[str]:
    """The ids of the live tables (waiting or playing), oldest first."""
    with store.transaction() as session:
        return list(
            session.scalars(
                select(OnlineTable.id)
                .where(OnlineTable.status.in_(OPEN_STATUSES))
                .order_by(OnlineTable.created, OnlineTable.id)
            ).all()
        )


def count_open_tables(store: Store, creator: str | None = None) -> int:
    """Live tables (waiting or playing), all or those of one ``creator``."""
    query = select(func.count()).select_from(OnlineTable)
    query = query.where(OnlineTable.status.in_(OPEN_STATUSES))
    if creator is not None:
        query = query.where(OnlineTable.creator == creator)
    with store.transaction() as session:
        return int(session.scalar(query) or 0)
