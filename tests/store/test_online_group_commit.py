"""The tables' store calls (online/storecall.py): on SQLite the appends that wait together
are committed together (one commit), each caller answered only after it; a refused append
fails alone; a failed commit fails every append of it.  And append_many (store/online.py):
all of its appends or none; on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import secrets
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import event

from mahjong_nts.online import storecall
from mahjong_nts.online.storecall import append, store_call
from mahjong_nts.store import Conflict, NotFound, Store, StoreUnavailable, open_store
from mahjong_nts.store.online import (
    Append,
    NewEvent,
    NewSeat,
    append_many,
    create_table,
    load_table,
)

pytestmark = pytest.mark.db

SEATS = [NewSeat("bot", "heuristic")] * 4


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    s = open_store(db_url)
    try:
        yield s
    finally:
        s.close()


def _new(store: Store) -> str:
    table_id = secrets.token_urlsafe(16)
    create_table(
        store,
        table_id=table_id,
        watch_id=secrets.token_urlsafe(16),
        settings={},
        ruleset_name="nts-2016",
        public=False,
        creator="c",
        seats=SEATS,
        events=[NewEvent("created", {"match_seed": "1"})],
    )
    return table_id


def _act(n: int) -> NewEvent:
    return NewEvent("act", {"seq": n, "action": "discard b3"}, hand=0)


def _kinds(store: Store, table_id: str) -> list[tuple[int, str]]:
    return [(e.seq, e.kind) for e in load_table(store, table_id).events]


def test_append_many_stores_all_or_none(store: Store) -> None:
    a, b = _new(store), _new(store)
    assert append_many(store, [Append(a, 1, [_act(0), _act(1)]), Append(b, 1, [_act(0)])]) == [
        3,
        2,
    ]
    assert _kinds(store, a) == [(0, "created"), (1, "act"), (2, "act")]
    with pytest.raises(Conflict):  # b has 2 events, not 1: neither append is stored
        append_many(store, [Append(a, 3, [_act(2)]), Append(b, 1, [_act(1)])])
    assert len(_kinds(store, a)) == 3 and len(_kinds(store, b)) == 2
    with pytest.raises(NotFound):
        append_many(store, [Append(a, 3, [_act(2)]), Append("x" * 22, 1, [_act(0)])])
    assert len(_kinds(store, a)) == 3


class _Held:
    """Keeps the store's one thread busy until released, so that what is submitted
    meanwhile waits together."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()

    def __call__(self, store: Store) -> str:
        self.started.set()
        assert self.release.wait(20)
        return "held"


async def _waiting_together(store: Store, calls: list[Any]) -> list[Any]:
    held = _Held()
    first = asyncio.ensure_future(store_call(store, held))
    await asyncio.to_thread(held.started.wait, 20)
    tasks = [asyncio.ensure_future(c) for c in calls]
    await asyncio.sleep(0.05)  # every call submitted
    if store.engine.dialect.name == "sqlite":  # (PostgreSQL's go on in other threads)
        assert not any(t.done() for t in tasks)  # nothing answered before its commit
    held.release.set()
    assert await first == "held"
    return await asyncio.gather(*tasks, return_exceptions=True)


def test_sqlite_appends_that_wait_together_are_one_commit(store: Store) -> None:
    if store.engine.dialect.name != "sqlite":
        pytest.skip("PostgreSQL takes concurrent writers: a thread per call")
    tables = [_new(store) for _ in range(12)]
    commits: list[int] = []
    event.listen(store.engine, "commit", lambda conn: commits.append(1))
    calls = [append(store, t, 1, [_act(0), _act(1)]) for t in tables]
    assert asyncio.run(_waiting_together(store, calls)) == [3] * 12
    assert len(commits) == 1
    for t in tables:
        assert _kinds(store, t) == [(0, "created"), (1, "act"), (2, "act")]


def test_a_refused_append_fails_alone(store: Store) -> None:
    a, b = _new(store), _new(store)
    calls = [
        append(store, a, 1, [_act(0)]),
        append(store, b, 5, [_act(0)]),  # b has 1 event: someone else appended
        append(store, "x" * 22, 1, [_act(0)]),  # no such table
        append(store, b, 1, [_act(0)], status="playing"),
    ]
    results = asyncio.run(_waiting_together(store, calls))
    assert results[0] == 2 and results[3] == 2
    assert isinstance(results[1], Conflict) and isinstance(results[2], NotFound)
    assert _kinds(store, a) == [(0, "created"), (1, "act")]
    assert _kinds(store, b) == [(0, "created"), (1, "act")]
    assert load_table(store, b).info.status == "playing"


def test_a_failed_commit_fails_every_append_of_it(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    if store.engine.dialect.name != "sqlite":
        pytest.skip("the group commit is SQLite's")
    a, b = _new(store), _new(store)

    def down(store: Store, appends: list[Append]) -> list[int]:
        raise StoreUnavailable("the database failed: disk I/O error")

    monkeypatch.setattr(storecall, "append_many", down)
    calls = [append(store, a, 1, [_act(0)]), append(store, b, 1, [_act(0)])]
    results = asyncio.run(_waiting_together(store, calls))
    assert all(isinstance(r, StoreUnavailable) for r in results)
    assert len(_kinds(store, a)) == 1 and len(_kinds(store, b)) == 1
