"""A server process as one node of several (online/nodes.py, online/server.py) in process,
on one SQLite file: a node's address checked, a table held by another live node is
:class:`Moved` to it, taken over once the owner's lease has passed (rebuilt from its
events as at a restart), and the old owner lets it go at its next heartbeat and cannot
write it any more."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from pydantic import ValidationError

from mahjong_nts.online import Connection, Moved, Node, OnlineConfig, OnlineError, OnlineServer
from mahjong_nts.online.nodes import MAX_NODE_URL_CHARS, check_node_url
from mahjong_nts.store import open_store
from mahjong_nts.store.cluster import ownership
from mahjong_nts.store.models import NODE_URL_CHARS
from mahjong_nts.web import Settings

SECRET = b"s" * 32


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("http://10.0.0.2:8001", "http://10.0.0.2:8001"),
        ("https://club.example:8441/", "https://club.example:8441"),
        ("http://[::1]:8000", "http://[::1]:8000"),
        (" http://node1 ", "http://node1"),
    ],
)
def test_a_node_url(text: str, expected: str) -> None:
    assert check_node_url(text) == expected


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("ftp://node1", "give http:// or https:// and a host"),
        ("node1:8000", "give http:// or https:// and a host"),
        ("http://", "give http:// or https:// and a host"),
        ("http://node1:port", "is not a URL"),
        ("http://node1:8000/mahjong", "no path"),
        ("http://node1:8000/?a=1", "no path"),
        ("http://me:pw@node1", "no user or password"),
        ("http://knooppunt-é", "ASCII"),
        ("http://" + "n" * 200, "at most 200 characters"),
    ],
)
def test_a_bad_node_url_says_why(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        check_node_url(text)


def test_the_settings_check_the_node_url_and_default_to_the_address(tmp_path: Path) -> None:
    assert NODE_URL_CHARS == MAX_NODE_URL_CHARS  # the column holds any address
    plain = Settings(data_dir=tmp_path, host="10.0.0.2", port=8001)
    assert plain.advertised_url() == "http://10.0.0.2:8001"
    assert Settings(data_dir=tmp_path, host="::1", port=80).advertised_url() == "http://[::1]:80"
    given = Settings(data_dir=tmp_path, node_url="https://club.example:8441/")
    assert given.advertised_url() == "https://club.example:8441"
    with pytest.raises(ValidationError, match="no path"):
        Settings(data_dir=tmp_path, node_url="http://node1/x")
    with pytest.raises(ValidationError):
        Settings(data_dir=tmp_path, lease_seconds=1)
    with pytest.raises(ValidationError):
        Settings(data_dir=tmp_path, lease_seconds=301)


def test_a_table_of_a_live_node_is_moved_then_taken_over_when_it_dies(tmp_path: Path) -> None:
    async def run() -> None:
        store = open_store(f"sqlite:///{tmp_path / 'tables.sqlite3'}")
        config = OnlineConfig(window_seconds=0.05, bot_delay=0.0, lease_seconds=1.0)
        a = OnlineServer(store, SECRET, config, Node.new("http://a:1"))
        b = OnlineServer(store, SECRET, config, Node.new("http://b:2"))
        await a.start()  # (b is not started: on SQLite a start takes every table)
        try:
            table = await a.create({"seats": [{"kind": "human"}] * 4, "public": True}, "c")
            seat, token = await a.join(table.id, "Ann", 0)
            with pytest.raises(Moved) as moved:
                await b.get(table.id)
            assert moved.value.url == "http://a:1" and moved.value.status == 421
            with pytest.raises(Moved):
                await b.get_watched(table.watch_id)
            with pytest.raises(Moved):
                await b.join(table.id, "Bob", 1)
            conn = Connection(0, by_table_id=True)
            await table.attach(conn)
            await asyncio.sleep(1.3)  # a's heartbeat keeps it: still a's
            with pytest.raises(Moved):
                await b.get(table.id)
            for task in a._tasks:  # a stops renewing (a process that hangs)
                task.cancel()
            await asyncio.sleep(1.3)  # its lease passes
            taken = await b.get(table.id)
            assert taken is not table and b.tables == {table.id: taken}
            assert taken.seats[0].nickname == "Ann" and await b.rejoin(table.id, token) == seat
            held = ownership(store, table_id=table.id)
            assert held is not None and held.owner == b.node.id and held.owner_url == "http://b:2"
            # a cannot write the table any more; its next heartbeat lets it go
            with pytest.raises(OnlineError):
                await a.join(table.id, "Cor", 2)
            await a.beat()
            assert table.id not in a.tables and conn.close_code == 1012
            assert (await b.join(table.id, "Cor", 2))[0] == 2
            assert [t["nicknames"] for t in await b.lobby()] == [["Ann", None, "Cor", None]]
        finally:
            await b.stop()
            await a.stop()
            store.close()

    asyncio.run(run())
