"""The limits a client meets, through the real routes: a socket's origin (the server's own
page, an origin the settings allow, nothing else), and the tables one client may have
open (five; a finished table no longer counts)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from online_helpers import Client, LiveServer, create_table, join, live_server
from websockets.exceptions import InvalidStatus

from mahjong_nts.online.limits import MAX_TABLES_PER_CLIENT
from mahjong_nts.web import Settings, create_app

pytestmark = pytest.mark.server

CLUB = "https://club.example"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("data"), allowed_origins=(CLUB,)) as s:
        yield s


@pytest.mark.parametrize(
    ("origin", "opens"),
    [
        (None, True),  # no browser: a page of another site cannot leave the Origin out
        ("same", True),  # the server's own page
        (CLUB, True),  # allowed by the settings
        ("https://club.example.evil.test", False),
        ("http://evil.example", False),
        ("null", False),  # a sandboxed frame or a file
        ("ws://127.0.0.1:{port}", False),  # the host right, not a web page's scheme
        # the scheme is not compared: behind a TLS proxy the page is https and the app
        # hears http on the same Host (one host and port serves one scheme)
        ("https://127.0.0.1:{port}", True),
        ("http://127.0.0.1:1", False),  # another port is another site
    ],
)
def test_a_socket_opens_from_the_sites_own_pages_and_allowed_origins_only(
    server: LiveServer, origin: str | None, opens: bool
) -> None:
    made = create_table(server.http, hands=1)
    _, cookie = join(server.http, made["table"], "Ann")
    if origin == "same":
        origin = server.http
    elif origin is not None:
        origin = origin.format(port=server.port)

    async def scenario() -> None:
        for path in (f"/ws/online/{made['table']}", f"/ws/online/watch/{made['watch']}"):
            client = Client("Ann", 0)
            if not opens:
                with pytest.raises(InvalidStatus) as refused:
                    await client.connect(f"{server.ws}{path}", cookie, origin=origin)
                assert refused.value.response.status_code == 403
                continue
            await client.connect(f"{server.ws}{path}", cookie, origin=origin)
            first = await client.next()
            assert first is not None and first["type"] == "state"
            await client.close()

    asyncio.run(scenario())


def test_a_client_has_at_most_five_tables_open(tmp_path: Path) -> None:
    app = create_app(Settings(data_dir=tmp_path, window_seconds=0.0, bot_delay_seconds=0.0))
    with TestClient(app) as client:
        bots = {"seats": [{"kind": "bot"}] * 4, "hands": 1, "turn_seconds": None}
        made = [client.post("/api/online/tables", json=bots) for _ in range(4)]
        made.append(client.post("/api/online/tables", json={}))  # a table that waits
        assert [m.status_code for m in made] == [201] * MAX_TABLES_PER_CLIENT
        # the bots' tables may be over already: wait until they are, then the waiting
        # one alone counts; four more may be made, a fifth not
        for m in made[:4]:
            for _ in range(600):
                state = client.get(f"/api/online/watch/{m.json()['watch']}").json()
                if state.get("status") == "finished":
                    break
                time.sleep(0.05)
            assert state["status"] == "finished"
        again = [client.post("/api/online/tables", json={}) for _ in range(4)]
        assert [m.status_code for m in again] == [201] * 4
        refused = client.post("/api/online/tables", json={})
        assert refused.status_code == 429
        assert refused.json()["error"] == (
            "you have 5 open tables on this server (at most 5): finish one first"
        )
        form = client.post("/online", data={"ruleset": "nts-2016"}, headers={"accept": "text/html"})
        assert form.status_code == 429 and "finish one first" in form.text
        live = [t for t in app.state.online.tables.values() if t.status in ("waiting", "playing")]
        assert len(live) == 5
