"""Who holds an online table when several server processes share a database
(store/cluster.py, store/notices.py): one atomic claim (never two owners, however many
claim at once), the lease and its renewal, takeover once it has passed, writes fenced by
the owner, the lobby of every process, and the notices on PostgreSQL; on SQLite and on
PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import secrets
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import update

from mahjong_nts.store import NotOwner, Store, StoreUnavailable, db, open_store
from mahjong_nts.store.cluster import claim, claimable, lobby_rows, ownership, release, renew
from mahjong_nts.store.models import OnlineTable
from mahjong_nts.store.notices import listen, parse_notice
from mahjong_nts.store.online import (
    NewEvent,
    NewSeat,
    append_events,
    create_table,
    load_table,
    take_seat,
)

pytestmark = pytest.mark.db

SEATS = [NewSeat("human"), NewSeat("human"), NewSeat("bot", "heuristic"), NewSeat("human")]
T0 = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)
LEASE = timedelta(seconds=15)


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    s = open_store(db_url)
    try:
        yield s
    finally:
        s.close()


def _new(store: Store, *, owner: str | None = None, public: bool = False) -> str:
    table_id = secrets.token_urlsafe(16)
    create_table(
        store,
        table_id=table_id,
        watch_id=secrets.token_urlsafe(16),
        settings={"ruleset": "nts-2016", "hands": 2, "turn_seconds": 30},
        ruleset_name="nts-2016",
        public=public,
        creator="c1",
        seats=SEATS,
        events=[NewEvent("created", {"match_seed": "12345"})],
        owner=owner,
        owner_url=None if owner is None else f"http://{owner}:8000",
        lease_until=None if owner is None else T0 + LEASE,
    )
    return table_id


def _claim(store: Store, table_id: str, node: str, now: datetime, **kw: object) -> bool:
    return claim(
        store, table_id, node=node, url=f"http://{node}:8000", until=now + LEASE, now=now, **kw
    )  # type: ignore[arg-type]


def test_a_new_table_is_its_makers_and_nobody_else_takes_it(store: Store) -> None:
    table = _new(store, owner="a")
    held = ownership(store, table_id=table)
    assert held is not None and held.owner == "a" and held.owner_url == "http://a:8000"
    assert held.lease_until == T0 + LEASE
    assert held.held_by_other("b", T0) and not held.held_by_other("a", T0)
    assert not _claim(store, table, "b", T0 + timedelta(seconds=14))
    assert ownership(store, table_id=table).owner == "a"  # type: ignore[union-attr]
    assert _claim(store, table, "a", T0)  # its own: renewed


def test_a_table_is_taken_over_once_its_lease_has_passed(store: Store) -> None:
    table = _new(store, owner="a")
    later = T0 + LEASE + timedelta(seconds=1)
    assert claimable(store, node="b", now=T0, limit=10) == []
    assert claimable(store, node="b", now=later, limit=10) == [table]
    assert _claim(store, table, "b", later)
    held = ownership(store, table_id=table)
    assert held is not None and held.owner == "b" and held.lease_until == later + LEASE
    # the old owner's heartbeat finds it gone; the new owner's has it
    assert renew(store, node="a", until=later + LEASE, tables=[table]) == set()
    assert renew(store, node="b", until=later + 2 * LEASE, tables=[table, "other"]) == {table}
    held = ownership(store, table_id=table)
    assert held is not None and held.lease_until == later + 2 * LEASE


def test_the_process_at_the_same_address_takes_its_predecessors_tables(store: Store) -> None:
    table = _new(store, owner="a")  # at http://a:8000, its lease running
    assert not _claim(store, table, "a2", T0)
    assert not claim(store, table, node="a2", url="http://x:1", until=T0 + LEASE, now=T0,
                     predecessor="http://b:8000")  # fmt: skip
    assert claim(store, table, node="a2", url="http://a:8000", until=T0 + LEASE, now=T0,
                 predecessor="http://a:8000")  # fmt: skip
    assert ownership(store, table_id=table).owner == "a2"  # type: ignore[union-attr]


def test_a_table_that_is_over_is_nobodys(store: Store) -> None:
    table = _new(store, owner="a")
    append_events(store, table, 1, [NewEvent("closed", {"reason": "idle"})], status="closed",
                  owner="a")  # fmt: skip
    later = T0 + 2 * LEASE
    assert not _claim(store, table, "b", later)
    assert not _claim(store, table, "b", later, force=True)
    assert claimable(store, node="b", now=later, limit=10) == []
    assert renew(store, node="a", until=later, tables=[table]) == {table}  # (over, still its)
    held = ownership(store, table_id=table)
    assert held is not None and held.lease_until == later and held.held_by_other("b", T0)


def test_two_claimers_at_once_one_owner(store: Store) -> None:
    """Eight processes claim the same expired table at the same moment, twenty times
    over: each time exactly one gets it, and the table names that one."""
    table = _new(store, owner="dead")
    for round_ in range(20):
        now = T0 + (round_ + 1) * 2 * LEASE  # every lease before this one has passed
        nodes = [f"n{round_}-{i}" for i in range(8)]
        won: dict[str, bool] = {}
        barrier = threading.Barrier(len(nodes))

        def claimer(
            node: str,
            now: datetime = now,
            barrier: threading.Barrier = barrier,
            won: dict[str, bool] = won,
        ) -> None:
            barrier.wait()
            won[node] = _claim(store, table, node, now)

        threads = [threading.Thread(target=claimer, args=(n,)) for n in nodes]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        winners = [n for n, w in won.items() if w]
        assert len(won) == 8 and len(winners) == 1, won
        assert ownership(store, table_id=table).owner == winners[0]  # type: ignore[union-attr]


def test_a_hung_owner_in_the_middle_of_a_transaction_does_not_stop_the_takeover(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Process a stops (a hung machine, SIGSTOP) half-way through its heartbeat, the
    table's row locked; its lease passes.  Process b takes the table over all the same:
    the database ends a's transaction once it has been idle too long (instead of b
    waiting for a's lock without end), and a, when it wakes, finds its transaction gone
    (a clear error, nothing of it stored) and its store working."""
    if not db_url.startswith("postgresql"):
        pytest.skip("SQLite: one process (its writers wait a bounded time anyway)")
    monkeypatch.setattr(db, "HUNG_TRANSACTION_SECONDS", 1.0)
    a, b = open_store(db_url), open_store(db_url)
    try:
        table = _new(a, owner="a")
        later = T0 + LEASE + timedelta(seconds=1)
        won: list[bool] = []
        claimer = threading.Thread(target=lambda: won.append(_claim(b, table, "b", later)))
        woke = ""
        hung = True
        try:
            with a.transaction() as session:  # a's heartbeat: the row is locked ...
                session.execute(
                    update(OnlineTable)
                    .where(OnlineTable.id == table, OnlineTable.owner == "a")
                    .values(lease_until=later + LEASE)
                )
                claimer.start()
                claimer.join(20)  # ... and a hangs here
                hung = claimer.is_alive()
        except StoreUnavailable as exc:
            woke = str(exc)
        claimer.join(20)
        assert not hung, "b waited for the hung process's lock"
        assert won == [True]
        assert woke.startswith("the database failed"), woke
        held = ownership(a, table_id=table)  # a's store works again
        assert held is not None and held.owner == "b" and held.lease_until == later + LEASE
        assert renew(a, node="a", until=later + 2 * LEASE, tables=[table]) == set()
    finally:
        a.close()
        b.close()


def test_only_the_owner_writes(store: Store) -> None:
    table = _new(store, owner="a")
    assert append_events(store, table, 1, [NewEvent("chat", {"seat": 0, "text": "hoi"})],
                         owner="a") == 2  # fmt: skip
    later = T0 + LEASE + timedelta(seconds=1)
    assert _claim(store, table, "b", later)
    with pytest.raises(NotOwner):
        append_events(store, table, 2, [NewEvent("chat", {"seat": 0, "text": "lost"})], owner="a")
    with pytest.raises(NotOwner):
        take_seat(store, table, 0, nickname="Ann", token_hash="0" * 64, first_seq=2,
                  event=NewEvent("joined", {"seat": 0, "nickname": "Ann"}), owner="a")  # fmt: skip
    stored = load_table(store, table)
    assert [e.kind for e in stored.events] == ["created", "chat"]
    assert stored.seats[0].nickname is None and stored.info.events == 2
    joined = NewEvent("joined", {"seat": 0, "nickname": "Ann"})
    assert take_seat(store, table, 0, nickname="Ann", token_hash="0" * 64, first_seq=2,
                     event=joined, owner="b") == 3  # fmt: skip


def test_a_process_that_stops_lets_go(store: Store) -> None:
    mine, other = _new(store, owner="a"), _new(store, owner="b")
    assert release(store, node="a") == 1
    assert ownership(store, table_id=mine).owner is None  # type: ignore[union-attr]
    assert claimable(store, node="c", now=T0, limit=10) == [mine]
    assert _claim(store, mine, "c", T0) and not _claim(store, other, "c", T0)


def test_the_lobby_of_every_process(store: Store) -> None:
    public, private = _new(store, owner="a", public=True), _new(store, owner="b")
    assert private not in [r.id for r in lobby_rows(store, limit=10)]
    take_seat(store, public, 1, nickname="Bob", token_hash="1" * 64, first_seq=1,
              event=NewEvent("joined", {"seat": 1, "nickname": "Bob"}))  # fmt: skip
    append_events(store, public, 2, [NewEvent("dealt", {}, hand=0), NewEvent("ended", {}, hand=0),
                                     NewEvent("dealt", {}, hand=1)], status="playing")  # fmt: skip
    (row,) = lobby_rows(store, limit=10)
    assert row.id == public and row.status == "playing" and row.hands_played == 1
    assert row.settings["hands"] == 2
    assert row.seats == (
        ("human", None, None, False),
        ("human", None, "Bob", True),
        ("bot", "heuristic", None, True),
        ("human", None, None, False),
    )
    more = [_new(store, public=True) for _ in range(3)]
    assert [r.id for r in lobby_rows(store, limit=2)] == [public, more[0]]


def test_notices(store: Store) -> None:
    """On PostgreSQL a new table, a seat taken, a status that changes and a table that
    changes hands reach a listening connection once committed; SQLite has none."""
    if store.engine.dialect.name != "postgresql":
        pytest.skip("SQLite is the store of one process: it has no notices")

    async def run() -> list[tuple[str, str, str | None]]:
        heard: list[tuple[str, str, str | None]] = []
        notes = listen(store)
        assert await anext(notes) is None  # listening
        table = await asyncio.to_thread(_new, store, owner="a")
        await asyncio.to_thread(
            lambda: take_seat(store, table, 0, nickname="Ann", token_hash="2" * 64,
                              first_seq=1, event=NewEvent("joined", {"seat": 0}), owner="a")
        )  # fmt: skip
        await asyncio.to_thread(
            lambda: append_events(store, table, 2, [NewEvent("chat", {"text": "x"})], owner="a")
        )  # no notice: the lobby does not show chat
        later = T0 + 2 * LEASE
        assert await asyncio.to_thread(_claim, store, table, "b", later)
        while len(heard) < 3:
            payload = await asyncio.wait_for(anext(notes), 10)
            assert payload is not None
            parsed = parse_notice(payload)
            assert parsed is not None and parsed[1] == table
            heard.append(parsed)
        await notes.aclose()  # type: ignore[attr-defined]
        return heard

    heard = asyncio.run(run())
    assert [(k, n) for k, _, n in heard] == [("lobby", "a"), ("lobby", "a"), ("owner", "b")]


def test_a_notice_that_is_not_ours_is_ignored() -> None:
    assert parse_notice("not json") is None
    assert parse_notice(json.dumps({"kind": "other", "table": "x"})) is None
    assert parse_notice(json.dumps({"kind": "lobby", "table": 3})) is None
    assert parse_notice(json.dumps({"kind": "lobby", "table": "x" * 300})) is None
    assert parse_notice(json.dumps({"kind": "owner", "table": "t", "node": "n"})) == (
        "owner",
        "t",
        "n",
    )
