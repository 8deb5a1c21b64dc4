"""A server killed with SIGKILL in the middle of a hand and started again on the same
database continues the table where it stood: the players reconnect with their cookies,
get a snapshot, and finish the hand; no action that was acknowledged is lost, and the
hand's log verifies."""

from __future__ import annotations

import asyncio
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from online_helpers import Client, choose, is_over, join

from mahjong_nts.core.actions import parse_action
from mahjong_nts.formats import gamelog
from mahjong_nts.formats.rulefiles import load_ruleset
from server_helpers import running_server

pytestmark = pytest.mark.server

NAMES = ["Ann", "Bob", "Cor", "Dirk"]
FAST = {"MAHJONG_NTS_WINDOW_SECONDS": "0.05", "MAHJONG_NTS_BOT_DELAY_SECONDS": "0"}


async def _play(
    client: Client,
    rng: random.Random,
    acked: list[tuple[int, int, int, str]],
    stop: Any,
) -> dict[str, Any] | None:
    """Play this seat until ``stop(state)``; ``acked`` gets every action of it the server
    acknowledged: a turn's action once a state has moved past its decision, a window's
    answer once the seat's own state shows it recorded (both are stored before)."""
    sent: dict[tuple[int, int], str] = {}
    while True:
        message = await client.next(60)
        if message is None:
            return None  # the server is gone
        if message["type"] != "state" or message["hand"] is None:
            continue
        hand = message["hand"]
        for (number, seq), action in list(sent.items()):
            window = hand["window"]
            if (
                number != hand["number"]
                or hand["seq"] > seq
                or (window is not None and hand["seq"] == seq and window["answer"] == action)
            ):
                acked.append((number, seq, hand["me"], action))
                del sent[(number, seq)]
        if stop(message):
            return message
        key = (hand["number"], hand["seq"])
        if hand["to_act"] and key not in sent:
            sent[key] = choose(hand, rng)
            await client.send({"type": "act", "hand": key[0], "seq": key[1],
                               "action": sent[key]})  # fmt: skip


def _logged_decisions(text: str) -> set[tuple[int, int, str]]:
    """(seq, hand seat, action) of every decision in a verified hand log, each with the
    number of the decision it answered (the core replays the log to count them)."""
    log = gamelog.parse_hand_log(text)
    seed = gamelog.verify_hand_log(log).seed
    game = gamelog.new_game(log.header, load_ruleset(log.header.ruleset), seed)
    out = set()
    for _, line in log.body:
        if isinstance(line, gamelog.EventLine) and line.decided and line.n == len(game.events):
            act = parse_action(f"{line.kind} {line.tiles}".strip())
            out.add((game.seq, line.seat, str(act)))
            game.apply(act, seat=line.seat, seq=game.seq)
    assert game.is_over
    return out


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
                    _play(c, random.Random(c.seat), acked, lambda m: m["hand"]["seq"] >= 60)
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
            # one hand; not always one decision: the first client back wakes the table,
            # and a window whose answers were all stored closes after its least time,
            # maybe before the last client's snapshot
            assert len({s["hand"]["number"] for s in snaps if s}) == 1  # type: ignore[index]
            for c, snap in zip(clients, snaps, strict=True):
                await c.queue.put(snap)  # played from its snapshot on
            ends = await asyncio.gather(
                *(_play(c, random.Random(10 + c.seat), acked, is_over) for c in clients)
            )
            for c in clients:
                await c.close()
            return [e for e in ends if e is not None]

        ends = asyncio.run(second_half())
        assert len(ends) == 4
        log = httpx.get(f"{base}{ends[0]['hand']['log']}", timeout=30)
    assert log.status_code == 200
    path = tmp_path / "hand.jsonl"
    path.write_bytes(log.content)
    verify = subprocess.run(
        [sys.executable, "-m", "mahjong_nts.cli", "replay", str(path), "--verify"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert verify.returncode == 0, verify.stdout + verify.stderr
    logged = _logged_decisions(log.text)
    lost = [a for a in acked if (a[1], a[2], a[3]) not in logged]
    assert not lost, lost
