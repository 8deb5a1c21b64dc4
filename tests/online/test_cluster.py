"""Two ``mahjong-nts serve`` processes on one PostgreSQL database (docs/online.md,
"Several processes"): a table made on each is played to the end of a hand through its
owner; a request to the other process is sent to the owner (421, 307, close 4421), never
served by a second copy; the lobby of one lists the other's new table at once (NOTIFY);
and when the owner is killed with SIGKILL in the middle of a hand, the other takes the
table over once its lease has passed and the hand is finished with no action lost."""

from __future__ import annotations

import asyncio
import random
import signal
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from online_helpers import (
    Client,
    assert_nothing_lost,
    is_over,
    join,
    play_acked,
    play_until,
)
from websockets.exceptions import ConnectionClosed

from mahjong_nts.store import open_store
from mahjong_nts.store.cluster import ownership
from pg_helpers import PostgresServer
from server_helpers import running_server

pytestmark = [pytest.mark.server, pytest.mark.db]

LEASE = 2.0
SECRET = "s" * 40  # the processes of one site share it (seat cookies)
ENV = {
    "MAHJONG_NTS_WINDOW_SECONDS": "0.05",
    "MAHJONG_NTS_BOT_DELAY_SECONDS": "0",
    "MAHJONG_NTS_LEASE_SECONDS": str(LEASE),
    "MAHJONG_NTS_ONLINE_SECRET": SECRET,
    # the n-th table of each node dealt from this seed: the hands the tests count on are
    # the same on every run (a random deal may be won before the seq a test kills at)
    "MAHJONG_NTS_PLAY_SEED": "1",
}
BOTS3 = [{"kind": "human"}] + [{"kind": "bot"}] * 3
UNTIMED = {"turn_seconds": None, "claim_seconds": None, "hands": 1}


@dataclass
class Cluster:
    db: str
    a: str
    b: str
    proc_a: subprocess.Popen[str]

    def owner_url(self, table: str) -> str | None:
        with open_store(self.db) as store:
            held = ownership(store, table_id=table)
        assert held is not None
        return held.owner_url


@pytest.fixture(scope="module")
def cluster(
    postgres: PostgresServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Cluster]:
    db = postgres.new_database()
    data_a, data_b = tmp_path_factory.mktemp("node-a"), tmp_path_factory.mktemp("node-b")
    with (
        running_server(data_a, "--db", db, **ENV) as (a, proc_a),
        running_server(data_b, "--db", db, **ENV) as (b, _),
    ):
        yield Cluster(db, a.rstrip("/"), b.rstrip("/"), proc_a)


def _create(base: str, **settings: Any) -> dict[str, Any]:
    answer = httpx.post(f"{base}/api/online/tables", json=settings, timeout=30)
    assert answer.status_code == 201, answer.text
    data: dict[str, Any] = answer.json()
    return data


def _ws(base: str) -> str:
    return base.replace("http", "ws", 1)


def test_a_table_made_on_each_process_is_played_through_its_owner(cluster: Cluster) -> None:
    for base in (cluster.a, cluster.b):
        table = _create(base, seats=BOTS3, **UNTIMED)["table"]
        assert cluster.owner_url(table) == base
        _, cookie = join(base, table, "Ann")

        async def play(base: str = base, table: str = table, cookie: str = cookie) -> Any:
            client = await Client("Ann", 0).connect(f"{_ws(base)}/ws/online/{table}", cookie)
            end = await play_until(client, random.Random(7), is_over)
            await client.close()
            return end

        end = asyncio.run(play())
        assert end["hand"]["result"] is not None and end["status"] == "finished"
        log = httpx.get(f"{base}{end['hand']['log']}", timeout=30)
        assert log.status_code == 200 and log.text.count("\n") > 10


def test_a_request_to_the_other_process_is_sent_to_the_owner(cluster: Cluster) -> None:
    made = _create(cluster.a, seats=BOTS3, **UNTIMED)
    table, watch = made["table"], made["watch"]
    here = httpx.get(f"{cluster.a}/api/online/tables/{table}", timeout=30)
    assert here.status_code == 200 and here.json()["table"] == table
    api = httpx.get(f"{cluster.b}/api/online/tables/{table}", timeout=30)
    assert api.status_code == 421 and api.json()["owner"] == cluster.a
    assert api.headers["location"] == cluster.a and "another server process" in api.json()["error"]
    joined = httpx.post(f"{cluster.b}/api/online/tables/{table}/join", json={"nickname": "X"},
                        timeout=30)  # fmt: skip
    assert joined.status_code == 421 and "set-cookie" not in joined.headers
    page = httpx.get(f"{cluster.b}/online/{table}?seat=0", timeout=30)
    assert page.status_code == 307
    assert page.headers["location"] == f"{cluster.a}/online/{table}?seat=0"
    watched = httpx.get(f"{cluster.b}/online/watch/{watch}", timeout=30)
    assert watched.status_code == 307
    assert watched.headers["location"] == f"{cluster.a}/online/watch/{watch}"
    form = httpx.post(f"{cluster.b}/online/{table}/join", data={"nickname": "Ann"}, timeout=30)
    assert (
        form.status_code == 307 and form.headers["location"] == f"{cluster.a}/online/{table}/join"
    )

    async def socket(url: str) -> tuple[dict[str, Any], int | None]:
        client = await Client("X", None).connect(url)
        first = await client.next()
        assert client.ws is not None
        await client.reader  # type: ignore[misc]
        return first or {}, client.ws.close_code

    first, code = asyncio.run(socket(f"{_ws(cluster.b)}/ws/online/{table}"))
    assert code == 4421 and first["type"] == "error" and first["code"] == "moved"
    assert first["url"] == f"{cluster.a}/online/{table}"
    first, code = asyncio.run(socket(f"{_ws(cluster.b)}/ws/online/watch/{watch}"))
    assert code == 4421 and first["url"] == f"{cluster.a}/online/watch/{watch}"
    assert cluster.owner_url(table) == cluster.a  # still the one owner


def test_the_lobby_of_one_process_lists_the_others_table_at_once(cluster: Cluster) -> None:
    def listed(base: str, watch: str) -> dict[str, Any] | None:
        tables = httpx.get(f"{base}/api/online/lobby", timeout=30).json()["tables"]
        return next((t for t in tables if t["watch"] == watch), None)

    assert httpx.get(f"{cluster.b}/api/online/lobby", timeout=30).status_code == 200  # (read)
    made = _create(cluster.a, seats=[{"kind": "human"}] * 2 + [{"kind": "bot"}] * 2,
                   public=True, **UNTIMED)  # fmt: skip
    started = time.monotonic()
    line = listed(cluster.b, made["watch"])
    while line is None and time.monotonic() - started < 5:
        time.sleep(0.05)
        line = listed(cluster.b, made["watch"])
    # B keeps its copy of the lobby for 30 s unless a notice says it changed
    assert line is not None and time.monotonic() - started < 5
    assert line["table"] == made["table"] and line["free"] == [0, 1] and line["status"] == "waiting"
    join(cluster.a, made["table"], "Ann", 0)
    started = time.monotonic()
    while listed(cluster.b, made["watch"])["nicknames"][0] != "Ann":  # type: ignore[index]
        assert time.monotonic() - started < 5
        time.sleep(0.05)
    assert listed(cluster.b, made["watch"])["free"] == [1]  # type: ignore[index]


async def _reconnect(url: str, cookie: str, name: str, seat: int) -> tuple[Client, int]:
    """Connect until the table answers with its state (the proxy's job in a real site:
    the dead process's requests go to another); how many times it said "moved"."""
    moved = 0
    while True:
        try:
            client = await Client(name, seat).connect(url, cookie)
        except (OSError, ConnectionClosed):
            await asyncio.sleep(0.1)
            continue
        first = await client.next(30)
        if first is not None and first["type"] == "state":
            await client.queue.put(first)  # played from its snapshot on
            return client, moved
        assert first is not None and first["code"] == "moved", first
        moved += 1
        await client.close()
        await asyncio.sleep(0.1)


def test_a_killed_owners_table_is_taken_over_and_finished(cluster: Cluster, tmp_path: Path) -> None:
    seats = [{"kind": "human"}, {"kind": "bot"}, {"kind": "human"}, {"kind": "bot"}]
    table = _create(cluster.a, seats=seats, **UNTIMED)["table"]
    cookies = {s: join(cluster.a, table, name, s)[1] for s, name in ((0, "Ann"), (2, "Cor"))}
    acked: list[tuple[int, int, int, str]] = []

    async def first_half() -> float:
        clients = [
            await Client(str(s), s).connect(f"{_ws(cluster.a)}/ws/online/{table}", cookies[s])
            for s in cookies
        ]
        tasks = [
            asyncio.create_task(
                play_acked(c, random.Random(c.seat), acked, lambda m: m["hand"]["seq"] >= 40)
            )
            for c in clients
        ]
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        cluster.proc_a.send_signal(signal.SIGKILL)
        killed = time.monotonic()
        cluster.proc_a.wait(10)
        await asyncio.gather(*tasks, return_exceptions=True)
        return killed

    killed = asyncio.run(first_half())
    assert cluster.proc_a.returncode == -signal.SIGKILL and len(acked) >= 5
    reached = max(s for _, s, _, _ in acked)

    async def second_half() -> tuple[float, int, list[dict[str, Any]]]:
        url = f"{_ws(cluster.b)}/ws/online/{table}"
        pairs = [await _reconnect(url, cookies[s], str(s), s) for s in cookies]
        back = time.monotonic() - killed
        snaps = [await c.next() for c, _ in pairs]
        for snap, (c, _) in zip(snaps, pairs, strict=True):
            assert snap is not None and snap["hand"]["seq"] >= reached
            await c.queue.put(snap)
        ends = await asyncio.gather(
            *(play_acked(c, random.Random(10 + c.seat), acked, is_over) for c, _ in pairs)
        )
        for c, _ in pairs:
            await c.close()
        return back, pairs[0][1], [e for e in ends if e is not None]

    back, moved, ends = asyncio.run(second_half())
    print(f"taken over {back:.2f} s after the kill (lease {LEASE} s; 'moved' {moved} times)")
    # A held it until its lease passed (B said "moved" meanwhile), then B took it over
    assert moved >= 1 and back < LEASE + 4, (moved, back)
    assert cluster.owner_url(table) == cluster.b and len(ends) == 2
    log = httpx.get(f"{cluster.b}{ends[0]['hand']['log']}", timeout=30)
    assert log.status_code == 200
    assert_nothing_lost(log.content, acked, tmp_path)
