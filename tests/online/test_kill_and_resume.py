"""A server killed with SIGKILL in the middle of a hand and started again on the same
database continues the table where it stood: the players reconnect with their cookies,
get a snapshot, and finish the hand; no action that was acknowledged is lost, and the
hand's log verifies."""

from __future__ import annotations

import asyncio
import random
import signal
from pathlib import Path
from typing import Any

import httpx
import pytest
from online_helpers import Client, assert_nothing_lost, is_over, join, play_acked

from server_helpers import running_server

pytestmark = pytest.mark.server

NAMES = ["Ann", "Bob", "Cor", "Dirk"]
# the table is dealt from a fixed seed (MAHJONG_NTS_PLAY_SEED): the hand must last past the
# seq the test kills the server at
FAST = {
    "MAHJONG_NTS_WINDOW_SECONDS": "0.05",
    "MAHJONG_NTS_BOT_DELAY_SECONDS": "0",
    "MAHJONG_NTS_PLAY_SEED": "1",
}


def test_a_table_survives_kill_9(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    url = f"sqlite:///{tmp_path / 'tables.sqlite3'}"
    acked: list[tuple[int, int, int, str]] = []
    with running_server(data, "--db", url, **FAST) as (base, proc):
        base = base.rstrip("/")
        made = httpx.post(
            f"{base}/api/online/tables",
            json={"hands": 1, "turn_seconds": None, "claim_seconds": None},
            timeout=30,
        ).json()
        table = made["table"]
        cookies = [join(base, table, name)[1] for name in NAMES]
        ws = base.replace("http", "ws", 1)

        async def first_half() -> int:
            clients = [
                await Client(NAMES[s], s).connect(f"{ws}/ws/online/{table}", cookies[s])
                for s in range(4)
            ]
            # play until the hand is well under way, then kill the server in mid-stride
            tasks = [
                asyncio.create_task(
                    play_acked(c, random.Random(c.seat), acked, lambda m: m["hand"]["seq"] >= 60)
                )
                for c in clients
            ]
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)
            await asyncio.gather(*tasks, return_exceptions=True)
            return max(s for _, s, _, _ in acked)

        reached = asyncio.run(first_half())
        assert proc.returncode == -signal.SIGKILL
    assert reached >= 40 and len(acked) >= 20
    with running_server(data, "--db", url, **FAST) as (base, _):
        base = base.rstrip("/")
        ws = base.replace("http", "ws", 1)

        async def second_half() -> list[dict[str, Any]]:
            clients = [
                await Client(NAMES[s], s).connect(f"{ws}/ws/online/{table}", cookies[s])
                for s in range(4)
            ]
            snaps = [await c.next() for c in clients]
            for snap in snaps:  # the table where it stood, as a snapshot
                assert snap is not None and snap["type"] == "state" and snap["events"] == []
                assert snap["you"]["seat"] in range(4) and snap["hand"]["seq"] >= reached
            # a claim window whose answers were all stored before the kill closes by
            # itself once its least time is over, so a seat that connects later may find
            # the table one decision further on; never further, never back
            seqs = [s["hand"]["seq"] for s in snaps if s]  # type: ignore[index]
            assert seqs == sorted(seqs) and seqs[-1] - seqs[0] <= 1
            for c, snap in zip(clients, snaps, strict=True):
                await c.queue.put(snap)  # played from its snapshot on
            ends = await asyncio.gather(
                *(play_acked(c, random.Random(10 + c.seat), acked, is_over) for c in clients)
            )
            for c in clients:
                await c.close()
            return [e for e in ends if e is not None]

        ends = asyncio.run(second_half())
        assert len(ends) == 4
        log = httpx.get(f"{base}{ends[0]['hand']['log']}", timeout=30)
    assert log.status_code == 200
    assert_nothing_lost(log.content, acked, tmp_path)
