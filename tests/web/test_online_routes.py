"""The online tables' HTTP routes (web/online.py): making a table, taking a seat (the
signed cookie), rejoining from another device, the states, the lobby, the bounds and
errors; and that no token or table id reaches a log."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mahjong_nts.formats import gamelog
from mahjong_nts.web import Settings, create_app
from mahjong_nts.web.middleware import HideTokens

ID = re.compile(r"[A-Za-z0-9_-]{22}")
MODULE_BOT = "mahjong_nts.bots.base:RandomBot"
"""A bot the command line's loader would import and make (``module:Class``)."""


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    data: Path = tmp_path_factory.mktemp("data")
    app = create_app(Settings(data_dir=data, window_seconds=0.0, bot_delay_seconds=0.0))
    with TestClient(app, raise_server_exceptions=True) as c:
        app.state.online.config = app.state.online.config.__class__(
            window_seconds=0.0, bot_delay=0.0, tables_per_client=1000
        )
        yield c


def _new(client: TestClient, **settings: Any) -> dict[str, Any]:
    answer = client.post("/api/online/tables", json=settings)
    assert answer.status_code == 201, answer.text
    data: dict[str, Any] = answer.json()
    return data


def test_a_new_table_has_two_links_and_a_state(client: TestClient) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "human"},
             {"kind": "human"}]  # fmt: skip
    made = _new(client, seats=seats, hands=2, public=True)
    table, watch = made["table"], made["watch"]
    assert ID.fullmatch(table) and ID.fullmatch(watch) and table != watch
    assert made["links"] == {
        "join": f"/online/{table}",
        "seats": [f"/online/{table}?seat=0", None, f"/online/{table}?seat=2",
                  f"/online/{table}?seat=3"],
        "watch": f"/online/watch/{watch}",
    }  # fmt: skip
    state = made["state"]
    assert state["status"] == "waiting" and state["hand"] is None and state["you"] is None
    assert [s["kind"] for s in state["seats"]] == ["human", "bot", "human", "human"]
    assert state["seats"][1] == {"seat": 1, "kind": "bot", "nickname": None, "bot": "random",
                                 "connected": True, "away": False}  # fmt: skip
    assert state["settings"]["hands"] == 2 and state["settings"]["public"]


@pytest.mark.parametrize(
    ("body", "headers", "status", "says"),
    [
        ('{"hands": 2', {"content-type": "application/json"}, 400, "invalid JSON"),
        ('{"hands": 2}', {"content-type": "text/plain"}, 415, "application/json"),
        ("[]", {"content-type": "application/json"}, 422, "settings are a JSON object"),
        ('{"ruleset": "/etc/passwd"}', {"content-type": "application/json"}, 422, "ruleset"),
        ('{"hands": 99}', {"content-type": "application/json"}, 422, "hands"),
        ('{"seat": 1}', {"content-type": "application/json"}, 422, "seat"),
        # network input never names a module: only the bots of the list (module:Class,
        # which `play --bots` takes on the command line, is refused here)
        (f'{{"bot": "{MODULE_BOT}"}}', {"content-type": "application/json"}, 422, "bot"),
        (
            f'{{"seats": [{{"kind": "human"}}, {{"kind": "bot", "bot": "{MODULE_BOT}"}}]}}',
            {"content-type": "application/json"},
            422,
            "seats[1].bot",
        ),
        ("{" + '"a": 1,' * 20000 + '"b": 2}', {"content-type": "application/json"}, 413, "65536"),
    ],
)
def test_settings_that_are_refused(
    client: TestClient, body: str, headers: dict[str, str], status: int, says: str
) -> None:
    answer = client.post("/api/online/tables", content=body, headers=headers)
    assert answer.status_code == status, answer.text
    assert says in answer.json()["error"]


def test_a_seat_is_held_by_a_signed_cookie(client: TestClient) -> None:
    made = _new(client)
    table = made["table"]
    answer = client.post(f"/api/online/tables/{table}/join", json={"nickname": "Ann"})
    assert answer.status_code == 200
    assert answer.json()["seat"] == 0
    rejoin = answer.json()["rejoin"]
    token = rejoin.rsplit("/", 1)[1]
    assert re.fullmatch(rf"/online/{table}/rejoin/[A-Za-z0-9_-]{{43}}", rejoin)
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"mjseat_{table}={token}.")
    for part in ("HttpOnly", "SameSite=lax", "Path=/", "Max-Age=2592000"):
        assert part.lower() in cookie.lower(), part
    assert "secure" not in cookie.lower()  # (plain http in the test)
    mine = client.get(f"/api/online/tables/{table}").json()
    assert mine["you"] == {"seat": 0, "nickname": "Ann", "away": False}
    assert mine["seats"][0]["nickname"] == "Ann" and not mine["seats"][0]["connected"]
    # without the cookie (another browser): a spectator
    client.cookies.clear()
    assert client.get(f"/api/online/tables/{table}").json()["you"] is None
    # a made-up cookie holds nothing
    client.cookies.set(f"mjseat_{table}", f"{token}.{'A' * 43}")
    assert client.get(f"/api/online/tables/{table}").json()["you"] is None
    client.cookies.clear()
    # the rejoin link, opened on another device, sets the cookie again
    again = client.get(rejoin, follow_redirects=False)
    assert again.status_code == 303 and again.headers["location"] == f"/online/{table}"
    assert client.get(f"/api/online/tables/{table}").json()["you"]["seat"] == 0
    client.cookies.clear()
    posted = client.post(f"/api/online/tables/{table}/rejoin", json={"token": token})
    assert posted.json() == {"seat": 0}
    assert client.get(f"/api/online/tables/{table}").json()["you"]["seat"] == 0
    client.cookies.clear()
    wrong = client.get(f"/online/{table}/rejoin/{'B' * 43}", follow_redirects=False)
    assert wrong.status_code == 403 and "set-cookie" not in wrong.headers
    assert client.post(f"/api/online/tables/{table}/rejoin", json={"token": "x"}).status_code == 422


def test_joining_errors(client: TestClient) -> None:
    table = _new(client, seats=[{"kind": "human"}, {"kind": "bot"}, {"kind": "human"},
                                {"kind": "human"}])["table"]  # fmt: skip
    url = f"/api/online/tables/{table}/join"
    assert client.post(url, json={"nickname": "Ann", "seat": 2}).status_code == 200
    client.cookies.clear()
    for body, status, says in [
        ({"nickname": "Bob", "seat": 2}, 409, "taken"),
        ({"nickname": "Bob", "seat": 1}, 409, "bot"),
        ({"nickname": "ANN"}, 409, "taken"),
        ({"nickname": ""}, 422, "nickname"),
        ({"nickname": "x" * 25}, 422, "nickname"),
        ({"nickname": "Bob", "seat": "1"}, 422, "seat"),
        ({"nickname": "Bob", "token": "x"}, 422, "token"),
        ({}, 422, "nickname"),
    ]:
        answer = client.post(url, json=body)
        assert answer.status_code == status, (body, answer.text)
        assert says in answer.json()["error"], (body, answer.text)
        assert "set-cookie" not in answer.headers
    missing = client.post(f"/api/online/tables/{'x' * 22}/join", json={"nickname": "Bob"})
    assert missing.status_code == 404
    assert client.post("/api/online/tables/short/join", json={"nickname": "B"}).status_code == 404


def test_watching_and_the_lobby(client: TestClient) -> None:
    public = _new(client, public=True, seats=[{"kind": "bot"}] * 4, hands=1)
    private = _new(client, seats=[{"kind": "bot"}] * 4, hands=1)
    waiting = _new(client, public=True)
    watched = client.get(f"/api/online/watch/{public['watch']}").json()
    assert watched["table"] is None and watched["watch"] == public["watch"]
    assert client.get(f"/api/online/watch/{'y' * 22}").status_code == 404
    lobby = client.get("/api/online/lobby").json()["tables"]
    by_watch = {t["watch"]: t for t in lobby}
    assert private["watch"] not in by_watch  # private tables are never listed
    assert private["table"] not in str(lobby)
    open_table = by_watch[waiting["watch"]]
    assert open_table["table"] == waiting["table"] and open_table["free"] == [0, 1, 2, 3]
    assert open_table["status"] == "waiting"
    if public["watch"] in by_watch:  # (a table of bots may already be over)
        assert by_watch[public["watch"]]["table"] is None  # no seat to take: watch only
    assert lobby[0]["status"] == "waiting"  # open tables first


def test_a_log_is_there_once_its_hand_is_over(client: TestClient) -> None:
    made = _new(client, seats=[{"kind": "bot"}] * 4, hands=1)
    early = client.get(f"/api/online/tables/{made['table']}/log/2")
    assert early.status_code == 404 and "once its hand is over" in early.json()["error"]
    for _ in range(400):
        state = client.get(f"/api/online/watch/{made['watch']}").json()
        if state["status"] == "finished":
            break
        time.sleep(0.05)
    assert state["status"] == "finished"
    assert state["hand"]["log"] == f"/api/online/watch/{made['watch']}/log/1"
    log = client.get(state["hand"]["log"])
    assert log.status_code == 200 and log.headers["content-type"] == "application/x-ndjson"
    gamelog.verify_hand_log(gamelog.parse_hand_log(log.text))  # the whole hand, replayed
    assert client.get(f"/api/online/tables/{made['table']}/log/1").text == log.text


def test_no_token_or_table_id_is_logged(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    made = _new(client)
    table = made["table"]
    with caplog.at_level(logging.INFO, logger="mahjong_nts.web.access"):
        answer = client.post(f"/api/online/tables/{table}/join", json={"nickname": "Ann"})
        rejoin = answer.json()["rejoin"]
        client.get(rejoin, follow_redirects=False)
        client.get(f"/api/online/tables/{table}")
    token = rejoin.rsplit("/", 1)[1]
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "/online/…/rejoin/…" in logged
    assert token not in logged and table not in logged
    # uvicorn's own lines about sockets name the path: the filter hides the id there too
    record = logging.LogRecord(
        "uvicorn.error", logging.INFO, __file__, 1, '%s - "WebSocket %s" [accepted]',
        ("127.0.0.1:5000", f"/ws/online/{table}"), None,
    )  # fmt: skip
    assert HideTokens().filter(record)
    assert table not in record.getMessage() and "/ws/online/…" in record.getMessage()
    assert any(isinstance(f, HideTokens) for f in logging.getLogger("uvicorn.error").filters)


def test_without_a_database_the_tables_are_unavailable(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, db_url=f"sqlite:///{tmp_path / 'no' / 'x.sqlite3'}")
    with TestClient(create_app(settings)) as c:
        answer = c.post("/api/online/tables", json={})
        assert answer.status_code == 503 and "not available" in answer.json()["error"]
        assert c.get("/api/online/lobby").status_code == 503


def test_a_server_of_several_processes_has_no_online_tables(tmp_path: Path) -> None:
    """A table lives in one process's memory: with several workers the next message of a
    socket's table could reach another process, so the tables are refused, not lost."""
    with TestClient(create_app(Settings(data_dir=tmp_path, workers=2))) as c:
        answer = c.post("/api/online/tables", json={})
        assert answer.status_code == 503 and "--workers 1" in answer.json()["error"]
        with c.websocket_connect(f"/ws/online/{'x' * 22}") as ws:
            refused = ws.receive_json()
        assert refused["type"] == "error" and "--workers 1" in refused["message"]


def test_the_tables_one_client_may_make_are_a_setting(tmp_path: Path) -> None:
    """``MAHJONG_NTS_TABLES_PER_CLIENT`` (here 2): the third live table of one address is
    refused with 429."""
    settings = Settings(data_dir=tmp_path, window_seconds=0.0, tables_per_client=2)
    with TestClient(create_app(settings)) as c:
        assert c.app.state.online.config.tables_per_client == 2  # type: ignore[attr-defined]
        for _ in range(2):
            assert c.post("/api/online/tables", json={}).status_code == 201
        answer = c.post("/api/online/tables", json={})
        assert answer.status_code == 429 and "at most 2" in answer.json()["error"]
