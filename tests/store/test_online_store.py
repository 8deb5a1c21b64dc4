"""The online tables in the store (store/online.py): a table with its seats, seats taken
by a token's hash, the append-only events numbered without gaps, two writers; on SQLite
and on PostgreSQL."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator

import pytest

from mahjong_nts.store import Conflict, NotFound, Store, open_store
from mahjong_nts.store.online import (
    NewEvent,
    NewSeat,
    append_events,
    count_open_tables,
    create_table,
    load_table,
    open_table_ids,
    take_seat,
)

pytestmark = pytest.mark.db

SEATS = [NewSeat("human"), NewSeat("human"), NewSeat("bot", "heuristic"), NewSeat("human")]


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    s = open_store(db_url)
    try:
        yield s
    finally:
        s.close()


def _new(store: Store, creator: str = "c1", public: bool = False) -> str:
    table_id = secrets.token_urlsafe(16)
    create_table(
        store,
        table_id=table_id,
        watch_id=secrets.token_urlsafe(16),
        settings={"ruleset": "nts-2016", "hands": 2},
        ruleset_name="nts-2016",
        public=public,
        creator=creator,
        seats=SEATS,
        events=[NewEvent("created", {"match_seed": "12345"})],
    )
    return table_id


def test_a_table_comes_back_as_it_was_stored(store: Store) -> None:
    table_id = _new(store, public=True)
    stored = load_table(store, table_id)
    info = stored.info
    assert info.id == table_id and len(info.watch_id) == 22 and info.watch_id != table_id
    assert info.settings == {"ruleset": "nts-2016", "hands": 2}
    assert (info.players, info.public, info.status, info.events) == (4, True, "waiting", 1)
    assert info.created.tzinfo is not None and info.last_activity >= info.created
    assert [(s.seat, s.kind, s.bot, s.nickname, s.token_hash) for s in stored.seats] == [
        (0, "human", None, None, None),
        (1, "human", None, None, None),
        (2, "bot", "heuristic", None, None),
        (3, "human", None, None, None),
    ]
    assert [(e.seq, e.kind, e.payload) for e in stored.events] == [
        (0, "created", {"match_seed": "12345"})
    ]


def test_events_are_appended_in_order_without_gaps(store: Store) -> None:
    table_id = _new(store)
    assert append_events(store, table_id, 1, [NewEvent("dealt", {"seed": "7"}, hand=0)]) == 2
    assert (
        append_events(
            store,
            table_id,
            2,
            [NewEvent("act", {"a": 1}, hand=0), NewEvent("act", {"a": 2}, hand=0)],
            status="playing",
        )
        == 4
    )
    stored = load_table(store, table_id)
    assert [(e.seq, e.hand, e.kind) for e in stored.events] == [
        (0, None, "created"),
        (1, 0, "dealt"),
        (2, 0, "act"),
        (3, 0, "act"),
    ]
    assert stored.events[1].payload == {"seed": "7"}
    assert (stored.info.events, stored.info.status) == (4, "playing")


@pytest.mark.parametrize("first", [0, 1, 3])
def test_an_append_that_does_not_follow_on_is_a_conflict(store: Store, first: int) -> None:
    table_id = _new(store)
    append_events(store, table_id, 1, [NewEvent("dealt", {}, hand=0)])
    before = load_table(store, table_id)
    with pytest.raises(Conflict):
        append_events(store, table_id, first, [NewEvent("act", {}, hand=0)], status="closed")
    assert load_table(store, table_id) == before  # nothing stored, status unchanged


def test_an_unknown_table_is_not_found(store: Store) -> None:
    with pytest.raises(NotFound):
        load_table(store, "x" * 22)
    with pytest.raises(NotFound):
        append_events(store, "x" * 22, 0, [NewEvent("act", {})])


def test_a_seat_is_taken_once_with_its_event(store: Store) -> None:
    table_id = _new(store)
    hash1, hash2 = "a" * 64, "b" * 64
    after = take_seat(
        store,
        table_id,
        1,
        nickname="Bob",
        token_hash=hash1,
        first_seq=1,
        event=NewEvent("joined", {"seat": 1, "nickname": "Bob"}),
    )
    assert after == 2
    for seat, token in [(1, hash2), (2, hash2), (3, hash1)]:  # taken, a bot, a token in use
        with pytest.raises(Conflict):
            take_seat(
                store,
                table_id,
                seat,
                nickname="Cor",
                token_hash=token,
                first_seq=2,
                event=NewEvent("joined", {"seat": seat}),
            )
    stored = load_table(store, table_id)
    assert [(s.nickname, s.token_hash) for s in stored.seats] == [
        (None, None),
        ("Bob", hash1),
        (None, None),
        (None, None),
    ]
    assert stored.seats[1].joined is not None
    assert [e.kind for e in stored.events] == ["created", "joined"]


def test_a_seat_taken_out_of_turn_stores_nothing(store: Store) -> None:
    table_id = _new(store)
    with pytest.raises(Conflict):
        take_seat(
            store,
            table_id,
            0,
            nickname="Ann",
            token_hash="c" * 64,
            first_seq=0,  # the table has one event: this writer is behind
            event=NewEvent("joined", {"seat": 0}),
        )
    assert load_table(store, table_id).seats[0].token_hash is None


def test_open_tables_are_counted_and_listed(store: Store) -> None:
    a = _new(store, creator="alice")
    b = _new(store, creator="alice")
    c = _new(store, creator="bob")
    append_events(store, b, 1, [NewEvent("closed", {})], status="closed")
    append_events(store, c, 1, [NewEvent("dealt", {})], status="playing")
    assert set(open_table_ids(store)) >= {a, c} and b not in open_table_ids(store)
    assert count_open_tables(store, "alice") == 1
    assert count_open_tables(store, "bob") == 1
    assert count_open_tables(store, "carol") == 0


def test_two_writers_of_one_event_number_one_wins(store: Store) -> None:
    """Threads appending the same event number at once: exactly one is stored."""
    table_id = _new(store)
    results: list[str] = []
    barrier = threading.Barrier(4)

    def write(k: int) -> None:
        barrier.wait()
        try:
            append_events(store, table_id, 1, [NewEvent("act", {"writer": k}, hand=0)])
            results.append("ok")
        except Conflict:
            results.append("conflict")

    threads = [threading.Thread(target=write, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["conflict", "conflict", "conflict", "ok"]
    events = load_table(store, table_id).events
    assert [e.seq for e in events] == [0, 1]
