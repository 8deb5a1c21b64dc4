"""A whole hand among four WebSocket clients and a spectator on a real server: every
message each gets shows it only what it may see; the hand's log verifies."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from online_helpers import (
    Client,
    Truth,
    check_state,
    create_table,
    is_over,
    join,
    live_server,
    play_until,
)

pytestmark = pytest.mark.server

NAMES = ["Ann", "Bob", "Cor", "Dirk"]


def test_a_hand_among_four_players_and_a_spectator(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    truth = Truth()
    truth.install(monkeypatch)
    # dealt from a fixed seed: the count of states below needs a hand that is not won in
    # its first turns (a random deal may be)
    with live_server(tmp_path, play_seed=1) as server:
        made = create_table(server.http, hands=1, turn_seconds=None, claim_seconds=None)
        table = made["table"]
        cookies = [join(server.http, table, name)[1] for name in NAMES]

        async def scenario() -> tuple[list[Client], Client, list[dict[str, Any]]]:
            players = [
                await Client(NAMES[s], s).connect(f"{server.ws}/ws/online/{table}", cookies[s])
                for s in range(4)
            ]
            watcher = await Client("watcher", None).connect(
                f"{server.ws}/ws/online/watch/{made['watch']}"
            )
            ends = await asyncio.gather(
                *(play_until(c, random.Random(c.seat), is_over) for c in players)
            )
            await watcher.wait_for(is_over)
            for c in [*players, watcher]:
                await c.close()
            return players, watcher, list(ends)

        players, watcher, ends = asyncio.run(scenario())
        log = httpx.get(f"{server.http}{ends[0]['hand']['log']}", timeout=30)
    checked = 0
    for client in [*players, watcher]:
        states = client.states()
        assert states[0][1]["events"] == [] and "chat" in states[0][1]  # a snapshot first
        for text, message in states:
            check_state(message, truth.of(text, client.seat))
            checked += 1
    assert checked > 400
    result = ends[0]["hand"]["result"]
    assert all(e["hand"]["result"] == result for e in ends)
    assert sum(result["settlement"]["balances"]) == 0
    # the commitment shown from the deal is the seed revealed at the end
    first = next(m for _, m in players[0].states() if m["hand"] is not None)
    assert first["hand"]["seed_commitment"] == ends[0]["hand"]["seed_commitment"]
    assert log.status_code == 200
    path = tmp_path / "hand.jsonl"
    path.write_bytes(log.content)
    verify = subprocess.run(
        [sys.executable, "-m", "mahjong_nts.cli", "replay", str(path), "--verify"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert verify.stdout.startswith("OK:")
    header = json.loads(log.text.splitlines()[0])
    assert header["players"] == NAMES  # East is seat 0 in the first hand
