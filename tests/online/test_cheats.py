"""Trying to cheat at a live table, and bad input on the socket: acting for another seat,
replaying an old message, claiming after the window closed, malformed and oversized
messages, flooding, a spectator acting, a foreign origin or a forged cookie.  Each is
refused to the sender alone and changes nothing."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from online_helpers import Client, LiveServer, choose, create_table, join, live_server
from websockets.exceptions import InvalidStatus

from mahjong_nts.online.limits import MAX_MESSAGE_BYTES, RATE_BURST, RATE_PER_SECOND
from mahjong_nts.store.online import load_table

pytestmark = pytest.mark.server

NAMES = ["Ann", "Bob", "Cor", "Dirk"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("data")) as s:
        yield s


def _table(server: LiveServer, **settings: Any) -> tuple[dict[str, Any], list[str]]:
    values: dict[str, Any] = {"hands": 1, "turn_seconds": None, "claim_seconds": None}
    values.update(settings)
    made = create_table(server.http, **values)
    cookies = [join(server.http, made["table"], n)[1] for n in NAMES]
    return made, cookies


async def _seated(server: LiveServer, table: str, cookies: list[str]) -> list[Client]:
    """The four players connected, each having seen all four connected (the server
    attaches a socket after its handshake, so the last "connected" comes later)."""
    url = f"{server.ws}/ws/online/{table}"
    clients = [await Client(NAMES[s], s).connect(url, cookies[s]) for s in range(4)]
    for c in clients:
        c.last = await c.wait_for(
            lambda m: m["type"] == "state" and all(s["connected"] for s in m["seats"])
        )
    return clients


async def _dealt(client: Client) -> dict[str, Any]:
    """The table as the client last saw it, once a hand is dealt."""
    last = getattr(client, "last", None)
    if last is not None and last["hand"] is not None:
        return last  # type: ignore[no-any-return]
    return await client.wait_for(lambda m: m["type"] == "state" and m["hand"] is not None)


def _stored(server: LiveServer, table: str) -> int:
    store = server.online().store
    return len(load_table(store, table).events)


async def _settle(clients: list[Client]) -> None:
    """Everything the server has queued for each client is read: a ping goes out and
    everything before its pong is let go (the table stands still: nobody is asked in a
    window, no timer runs)."""
    for c in clients:
        await c.send({"type": "ping"})
        await c.wait_for(lambda m: m["type"] == "pong")


async def _nothing_more(clients: list[Client]) -> None:
    """No client got anything since :func:`_settle`: the next thing each gets is the pong
    of a ping sent now."""
    for c in clients:
        await c.send({"type": "ping"})
        message = await c.next(30)
        assert message is not None and message["type"] == "pong", (c.name, message)


async def _passing_until(client: Client, stop: Any) -> dict[str, Any]:
    """Read the client's states until ``stop(state)``, passing in every claim window it
    is asked in (a seat may well be able to claim a discard: the window waits for it)."""
    while True:
        m = await client.wait_for(lambda m: m["type"] == "state")
        if stop(m):
            return m
        hand = m["hand"]
        if hand is not None and hand["to_act"] and hand["window"] is not None:
            await client.send(_act(hand, "pass"))


async def _error(client: Client, code: str) -> dict[str, Any]:
    message = await client.next(10)
    assert message is not None and message["type"] == "error", message
    assert message["code"] == code, message
    return message


def _act(hand: dict[str, Any], action: str, **over: Any) -> dict[str, Any]:
    return {"type": "act", "hand": hand["number"], "seq": hand["seq"], "action": action, **over}


def test_acting_for_another_seat_is_refused(server: LiveServer) -> None:
    made, cookies = _table(server)

    async def scenario() -> None:
        clients = await _seated(server, made["table"], cookies)
        states = [await _dealt(c) for c in clients]
        await _settle(clients)  # (the others' "connected" updates)
        east = states[0]["hand"]
        assert east["to_act"] and east["turn"] == 0
        before = _stored(server, made["table"])
        south = states[1]["hand"]
        tile = south["concealed"][0]
        # South sends East's decision, with the right number, as if it were East
        await clients[1].send(_act(east, f"discard {tile}"))
        await _error(clients[1], "not_your_turn")
        # the seat is never taken from a message
        await clients[1].send(_act(east, f"discard {tile}", seat=0))
        error = await _error(clients[1], "malformed")
        assert "seat" in error["message"]
        await _nothing_more(clients)
        assert _stored(server, made["table"]) == before
        for c in clients:
            await c.close()

    asyncio.run(scenario())


def test_replaying_an_old_message_is_refused(server: LiveServer) -> None:
    made, cookies = _table(server)

    async def scenario() -> None:
        clients = await _seated(server, made["table"], cookies)
        east = (await _dealt(clients[0]))["hand"]
        move = _act(east, next(a for a in east["legal"] if a.startswith("discard")))
        await clients[0].send(move)
        south_on_turn = asyncio.gather(  # the window closes, South draws
            *(
                _passing_until(c, lambda m: m["hand"]["phase"] == "turn" and m["hand"]["turn"] == 1)
                for c in clients
            )
        )
        after = (await south_on_turn)[0]
        await _settle(clients)
        before = _stored(server, made["table"])
        await clients[0].send(move)  # the same message again
        error = await _error(clients[0], "stale")
        assert error["seq"] > east["seq"] and error["hand"] == 0
        await clients[0].send({**move, "hand": 5})  # another hand
        await _error(clients[0], "stale")
        await _nothing_more(clients)
        assert _stored(server, made["table"]) == before
        assert after["hand"]["seats"][0]["discards"] == [move["action"].split()[1]]
        for c in clients:
            await c.close()

    asyncio.run(scenario())


def test_claiming_after_the_window_closed_is_refused(server: LiveServer) -> None:
    """A seat that may claim a discard waits; the claim timer runs out and a bot answers
    for it; the window closes; the claim it sends then is stale and changes nothing."""
    made, cookies = _table(server, claim_seconds=2)
    trap: dict[str, Any] = {}

    async def seat_loop(client: Client, rng: random.Random, done: asyncio.Event) -> None:
        answered: set[tuple[int, int]] = set()
        while not done.is_set():
            try:
                message = await client.next(1)
            except TimeoutError:
                continue
            assert message is not None
            if message["type"] != "state" or message["hand"] is None:
                continue
            hand = message["hand"]
            if hand["result"] is not None:
                done.set()  # (a hand may end before any window: the test is retried)
                return
            if trap.get("seat") == client.seat and hand["seq"] != trap["seq"]:
                await client.send({"type": "act", "hand": trap["hand"], "seq": trap["seq"],
                                   "action": trap["action"]})  # fmt: skip
                trap["error"] = await client.wait_for(lambda m: m["type"] == "error")
                done.set()
                return
            if not hand["to_act"] or (hand["number"], hand["seq"]) in answered:
                continue
            claims = [a for a in hand["legal"] if a != "pass"]
            if hand["window"] is not None and claims and "seat" not in trap:
                trap.update(seat=client.seat, hand=hand["number"], seq=hand["seq"],
                            action=claims[0])  # fmt: skip
                continue  # it does not answer: the claim timer runs out
            answered.add((hand["number"], hand["seq"]))
            await client.send(_act(hand, choose(hand, rng)))

    async def scenario() -> None:
        clients = await _seated(server, made["table"], cookies)
        for c in clients:
            await c.queue.put(c.last)  # played from the table as it stands
        done = asyncio.Event()
        await asyncio.wait_for(
            asyncio.gather(*(seat_loop(c, random.Random(c.seat), done) for c in clients)),
            120,
        )
        for c in clients:
            await c.close()

    asyncio.run(scenario())
    assert "error" in trap, "no window with a claim came up in the hand"
    assert trap["error"]["code"] == "stale" and trap["error"]["seq"] > trap["seq"]
    events = load_table(server.online().store, made["table"]).events
    # the seat's only answer in that window is the bot's, when its timer ran out; the
    # late claim stored nothing (the others played on meanwhile)
    mine = [e.payload for e in events
            if e.kind in ("act", "answer") and e.payload["seat"] == trap["seat"]
            and e.payload["seq"] == trap["seq"]]  # fmt: skip
    assert [(p["by"], p["hand_seat"] is not None) for p in mine] == [("timeout", True)]


BAD = [
    ("not json", "malformed"),
    ("[1, 2]", "malformed"),
    ('{"type": "bogus"}', "malformed"),
    ('{"type": "act", "hand": 0}', "malformed"),
    ('{"type": "act", "hand": 0, "seq": "1", "action": "pass"}', "malformed"),
    ('{"type": "act", "hand": -1, "seq": 0, "action": "pass"}', "malformed"),
    ('{"type": "act", "hand": 0, "seq": 0, "action": "pass", "extra": 1}', "malformed"),
    ('{"type": "act", "type": "act", "hand": 0, "seq": 0, "action": "pass"}', "malformed"),
    ('{"type": "chat", "text": "a\\u001b[2Jb"}', "malformed"),
    ('{"type": "chat", "text": ""}', "malformed"),
    ('{"type": "next", "hand": 0}', "not_now"),
    ('{"type": "act", "hand": 0, "seq": 999999, "action": "pass"}', "stale"),
    ('{"type": "act", "hand": 0, "seq": 4, "action": "discard X9"}', "illegal"),
    ("x" * (MAX_MESSAGE_BYTES + 1), "too_big"),
    (json.dumps({"type": "chat", "text": "é" * 2100}), "too_big"),
]


def test_malformed_and_oversized_messages_are_answered_and_change_nothing(
    server: LiveServer,
) -> None:
    made, cookies = _table(server)

    async def scenario() -> None:
        clients = await _seated(server, made["table"], cookies)
        east = (await _dealt(clients[0]))["hand"]
        assert east["seq"] == 4  # four deals (the discard answers 4)
        await _settle(clients)
        before = _stored(server, made["table"])
        for text, code in BAD:
            await clients[0].send(text)
            await _error(clients[0], code)
        await clients[0].send(b"\xff\xfe binary")
        await _error(clients[0], "malformed")
        await _nothing_more(clients)
        assert _stored(server, made["table"]) == before
        await clients[0].send({"type": "ping"})  # still served
        assert (await clients[0].next())["type"] == "pong"  # type: ignore[index]
        for c in clients:
            await c.close()

    asyncio.run(scenario())


def test_flooding_is_cut_by_the_rate_limit(server: LiveServer) -> None:
    """60 chat lines at once: the burst and what the bucket refills while they arrive
    are taken (and stored); every other one is answered rate_limited and not stored."""
    made, cookies = _table(server)
    sent = 60

    async def scenario() -> tuple[int, int, int, float]:
        clients = await _seated(server, made["table"], cookies)
        await _dealt(clients[0])
        before = _stored(server, made["table"])
        start = time.monotonic()
        for i in range(sent):
            await clients[1].send({"type": "chat", "text": f"line {i}"})
        chats = refused = 0
        while chats + refused < sent:
            message = await clients[1].next(10)
            assert message is not None
            if message["type"] == "chat":
                chats += 1
            elif message["type"] == "error":
                assert message["code"] == "rate_limited"
                refused += 1
        elapsed = time.monotonic() - start
        stored = _stored(server, made["table"]) - before
        for c in clients:
            await c.close()
        return chats, refused, stored, elapsed

    chats, refused, stored, elapsed = asyncio.run(scenario())
    allowed = RATE_BURST + RATE_PER_SECOND * elapsed + 1  # the burst, and the refill meanwhile
    assert RATE_BURST <= chats <= allowed and chats + refused == sent
    assert refused >= sent - allowed
    assert refused > 0 or elapsed > 3  # (only a very slow machine lets them all through)
    assert stored == chats  # a refused line is not stored


def test_a_spectator_only_watches(server: LiveServer) -> None:
    made, cookies = _table(server)

    async def scenario() -> None:
        clients = await _seated(server, made["table"], cookies)
        east = (await _dealt(clients[0]))["hand"]
        for url in (f"/ws/online/watch/{made['watch']}", f"/ws/online/{made['table']}"):
            watcher = await Client("watcher", None).connect(server.ws + url)
            first = await _dealt(watcher)
            assert first["you"] is None and first["hand"]["concealed"] == []
            assert first["table"] == (made["table"] if "watch" not in url else None)
            for message in (_act(east, east["legal"][0]), {"type": "chat", "text": "hoi"}):
                await watcher.send(message)
                await _error(watcher, "spectator")
            await watcher.close()
        for c in clients:
            await c.close()

    asyncio.run(scenario())


def test_a_socket_from_another_site_is_refused(server: LiveServer) -> None:
    made, cookies = _table(server)
    url = f"{server.ws}/ws/online/{made['table']}"

    async def scenario() -> None:
        with pytest.raises(InvalidStatus) as refused:
            await Client("evil", 0).connect(url, cookies[0], origin="http://evil.example")
        assert refused.value.response.status_code == 403
        ok = await Client("Ann", 0).connect(url, cookies[0], origin=server.http)
        assert (await ok.next())["you"]["seat"] == 0  # type: ignore[index]
        await ok.close()

    asyncio.run(scenario())


def test_a_forged_or_moved_cookie_holds_no_seat(server: LiveServer) -> None:
    made, cookies = _table(server)
    other, _ = _table(server)
    name = f"mjseat_{made['table']}"
    value = cookies[0].split("=", 1)[1]
    token, mac = value.split(".")
    forged = [
        f"{name}={token}.{'A' * len(mac)}",  # a signature made up
        f"{name}={'B' * len(token)}.{mac}",  # another token under the signature
        f"mjseat_{other['table']}={value}",  # the cookie of another table
    ]
    urls = [made["table"], made["table"], other["table"]]

    async def scenario() -> None:
        for cookie, table in zip(forged, urls, strict=True):
            client = await Client("forger", None).connect(f"{server.ws}/ws/online/{table}", cookie)
            message = await client.next()
            assert message is not None and message["type"] == "error"
            assert await client.next() is None  # closed
            assert client.ws is not None and client.ws.close_code == 4403
            await client.close()

    asyncio.run(scenario())


def test_an_unknown_table_closes_the_socket(server: LiveServer) -> None:
    async def scenario() -> None:
        client = await Client("lost", None).connect(f"{server.ws}/ws/online/{'x' * 22}")
        message = await client.next()
        assert message is not None and message["code"] == "closed"
        assert await client.next() is None
        assert client.ws is not None and client.ws.close_code == 4404

    asyncio.run(scenario())


def test_reconnecting_mid_hand_gets_a_snapshot(server: LiveServer) -> None:
    made, cookies = _table(server)

    async def scenario() -> None:
        clients = await _seated(server, made["table"], cookies)
        east = (await _dealt(clients[0]))["hand"]
        await clients[0].send(_act(east, next(a for a in east["legal"] if "discard" in a)))
        states = await asyncio.gather(
            *(
                _passing_until(c, lambda m: m["hand"]["phase"] == "turn" and m["hand"]["turn"] == 1)
                for c in clients
            )
        )
        south = states[1]
        assert south["hand"]["to_act"]
        await clients[1].send({"type": "chat", "text": "even weg"})
        await clients[1].close()
        gone = await clients[0].wait_for(
            lambda m: m["type"] == "state" and not m["seats"][1]["connected"]
        )
        assert gone["hand"]["seq"] == south["hand"]["seq"]
        back = await Client("Bob again", 1).connect(
            f"{server.ws}/ws/online/{made['table']}", cookies[1]
        )
        snap = await back.next()
        assert snap is not None and snap["type"] == "state"
        assert snap["events"] == []  # a snapshot, never a replay
        assert [line["text"] for line in snap["chat"]] == ["even weg"]
        hand = snap["hand"]
        assert hand["seq"] == south["hand"]["seq"] and hand["to_act"]
        assert sorted(hand["concealed"]) == sorted(south["hand"]["concealed"])
        assert hand["legal"] == south["hand"]["legal"]
        seen = await clients[0].wait_for(
            lambda m: m["type"] == "state" and m["seats"][1]["connected"]
        )
        assert seen["hand"]["seq"] == hand["seq"]
        await back.send(_act(hand, next(a for a in hand["legal"] if "discard" in a)))
        await back.wait_for(lambda m: m["type"] == "state" and m["hand"]["seq"] > hand["seq"])
        for c in [clients[0], clients[2], clients[3], back]:
            await c.close()

    asyncio.run(scenario())
