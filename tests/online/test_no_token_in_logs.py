"""Tokens never in logs: a real ``mahjong-nts serve`` goes through a whole session of an
online table (made, joined, rejoined by link and by token, a wrong token, the pages, the
sockets of four players and a spectator, a forged cookie, bad messages, a hand played to
its end, its log and rules downloaded), then everything the server wrote (its whole
standard output and error) is read: it has a line for each request, and not one holds a
seat token, a seat cookie's value, a table's id or its watch id."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path

import httpx
import pytest
from online_helpers import Client, is_over, play_until

from server_helpers import running_server

pytestmark = pytest.mark.server

NAMES = ["Ann", "Bob", "Cor", "Dirk"]
FAST = {"MAHJONG_NTS_WINDOW_SECONDS": "0.05", "MAHJONG_NTS_BOT_DELAY_SECONDS": "0"}


def test_a_whole_session_leaves_no_token_in_the_server_log(tmp_path: Path) -> None:
    secrets: dict[str, str] = {}
    requests = 0
    with running_server(tmp_path / "data", **FAST) as (base, proc):
        base = base.rstrip("/")
        made = httpx.post(
            f"{base}/api/online/tables",
            json={"hands": 1, "turn_seconds": None, "claim_seconds": None, "public": True},
            timeout=30,
        ).json()
        table, watch = made["table"], made["watch"]
        secrets |= {"table id": table, "watch id": watch}
        cookies = []
        with httpx.Client(base_url=base, timeout=30) as http:
            for name in NAMES:
                answer = http.post(f"/api/online/tables/{table}/join", json={"nickname": name})
                assert answer.status_code == 200, answer.text
                token = answer.json()["rejoin"].rsplit("/", 1)[1]
                value = answer.cookies[f"mjseat_{table}"]
                secrets |= {f"{name}'s token": token, f"{name}'s cookie": value}
                cookies.append(f"mjseat_{table}={value}")
            requests += 4
            tokens = [secrets[f"{n}'s token"] for n in NAMES]
            # the rejoin link (a GET with the token in its path), by body, a wrong token
            link = http.get(f"/online/{table}/rejoin/{tokens[0]}", follow_redirects=False)
            assert link.status_code == 303
            again = http.post(f"/api/online/tables/{table}/rejoin", json={"token": tokens[1]})
            assert again.status_code == 200
            wrong = http.post(f"/api/online/tables/{table}/rejoin", json={"token": "A" * 43})
            assert wrong.status_code == 403
            page = http.get(f"/online/{table}", headers={"Cookie": cookies[2]})
            assert tokens[2] in page.text  # the page shows its own rejoin link ...
            http.get(f"/online/watch/{watch}")
            http.get(f"/api/online/tables/{table}", headers={"Cookie": cookies[3]})
            http.get(f"/api/online/tables/{table}/rules.toml")
            requests += 7
        ws = base.replace("http", "ws", 1)

        async def play() -> None:
            url = f"{ws}/ws/online/{table}"
            forged = await Client("forged", 0).connect(url, cookies[0][:-4] + "AAAA")
            assert (await forged.next())["code"] == "closed"  # type: ignore[index]
            await forged.close()
            players = [await Client(NAMES[s], s).connect(url, cookies[s]) for s in range(4)]
            spectator = await Client("watcher", None).connect(f"{ws}/ws/online/watch/{watch}")
            await spectator.send("not json")
            assert (await spectator.wait_for(lambda m: m["type"] == "error"))["code"] == "malformed"
            await spectator.send({"type": "chat", "text": "veel plezier"})
            ends = await asyncio.gather(
                *(play_until(c, random.Random(c.seat), is_over) for c in players)
            )
            assert all(is_over(m) for m in ends)
            for c in [*players, spectator]:
                await c.close()

        asyncio.run(play())
        log = httpx.get(f"{base}/api/online/watch/{watch}/log/1", timeout=30)
        assert log.status_code == 200
        requests += 1
    written = proc.stdout.read() + proc.stderr.read()  # type: ignore[union-attr]
    # the log is there and speaks of the requests (so the test can see a token in it) ...
    assert len(re.findall(r"\b(GET|POST) /", written)) >= requests, written[-3000:]
    assert written.count('"WebSocket /ws/online/…" [accepted]') == 5  # the seats' sockets
    assert written.count('"WebSocket /ws/online/watch/…" [accepted]') == 1
    # ... and holds none of the secrets, whole or in part
    for what, secret in secrets.items():
        for piece in {secret, secret[:16], secret[-16:]}:
            assert piece not in written, f"{what} is in the server's log"
