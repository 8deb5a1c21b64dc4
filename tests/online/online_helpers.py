"""Helpers of the online-table tests: the web app under a real uvicorn server on
127.0.0.1 in a thread of the test process (so a test can see the truth the server sees),
a WebSocket client per seat (the ``websockets`` package), the truth behind every state
message sent, and the check that a message shows a seat nothing it may not see."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import socket
import subprocess
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from websockets.asyncio.client import ClientConnection, connect

from mahjong_nts.core.actions import parse_action
from mahjong_nts.core.game import Game, Phase
from mahjong_nts.core.hand import Meld
from mahjong_nts.formats import gamelog
from mahjong_nts.formats.rulefiles import load_ruleset
from mahjong_nts.online import table as table_module
from mahjong_nts.web import Settings, create_app

TOP_KEYS = {
    "type", "now", "table", "watch", "status", "settings", "you", "seats", "match", "hand",
    "events",
}  # fmt: skip
HAND_KEYS = {
    "number", "round", "round_wind", "dominant", "dreamer", "seating", "me", "seed_commitment",
    "seed", "phase", "seq", "turn", "deadline", "to_act", "legal", "concealed", "drawn",
    "window", "seats", "live_left", "dead_left", "hint", "result", "log", "ready",
    "next_deadline",
}  # fmt: skip
SEAT_KEYS = {
    "seat", "wind", "player", "melds", "bonus", "discards", "concealed_count", "dead",
    "announced",
}  # fmt: skip
WINDOW_KEYS = {"tile", "from", "kind", "closes", "deadline", "answer"}
EVENT_KEYS = {"kind", "seat", "tiles", "note"}
ANSWER_KINDS = {"pass", "chow", "pung"}
"""Kinds only a window's answers have (a winning claim shows as its meld)."""


# ------------------------------------------------------------------ the server


class LiveServer:
    """The web app under uvicorn on 127.0.0.1 and a free port, in a thread."""

    def __init__(self, settings: Settings) -> None:
        self.app = create_app(settings)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        config = uvicorn.Config(self.app, log_level="warning", ws_max_size=64 * 1024, lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise AssertionError("the test server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(20)
        self.sock.close()

    def online(self) -> Any:
        return self.app.state.online


@contextmanager
def live_server(data_dir: Path, **settings: Any) -> Iterator[LiveServer]:
    values: dict[str, Any] = {"window_seconds": 0.05, "bot_delay_seconds": 0.0}
    values.update(settings)
    server = LiveServer(Settings(data_dir=data_dir, **values))
    server.start()
    online = server.online()
    online.config = dataclasses.replace(online.config, tables_per_client=1000)  # one client
    try:
        yield server
    finally:
        server.stop()


# ------------------------------------------------------------------ the truth


class Truth:
    """What the server knew when it built each state message: recorded by wrapping the
    one view function, keyed by the message's exact text."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.by_text: dict[str, list[tuple[int | None, dict[str, Any] | None]]] = defaultdict(list)

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        real = table_module.table_view

        def recording(table: Any, seat: int | None, **kw: Any) -> Any:
            state, seen = real(table, seat, **kw)
            truth = snapshot(table, seat)
            with self.lock:
                self.by_text[json.dumps(state)].append((seat, truth))
            return state, seen

        monkeypatch.setattr(table_module, "table_view", recording)

    def of(self, text: str, seat: int | None) -> dict[str, Any] | None:
        with self.lock:
            found = [t for s, t in self.by_text.get(text, []) if s == seat]
        assert found, "a state message the view function did not build for this seat"
        return found[-1]


def _meld(m: Meld) -> dict[str, Any]:
    return {"kind": m.kind.name.lower(), "tiles": [t.token for t in m.tiles], "open": m.open}


def snapshot(table: Any, seat: int | None) -> dict[str, Any] | None:
    """The hidden and public truth of the table's hand, straight from the game."""
    game: Game | None = table.game
    setup = table.setup
    if game is None or setup is None:
        return None
    me = setup.players.index(seat) if seat is not None and seat in setup.players else None
    live, dead = game.wall.remaining()
    window = table.window
    return {
        "hand": setup.number,
        "me": me,
        "over": game.is_over,
        "recorded": table.recorded,
        "seed": setup.seed,
        "phase": game.phase.name,
        "tile": None if game.tile is None else game.tile.token,
        "seq": game.seq,
        "current": game.current_seat,
        "legal": [str(a) for a in game.legal_actions()],
        "options": {s: [str(a) for a in game.window_options(s)] for s in range(game.n)},
        "answers": {} if window is None else {s: str(a) for s, (a, _) in window.answers.items()},
        "concealed": [sorted(t.token for t in game.concealed(s)) for s in range(game.n)],
        "melds": [[_meld(m) for m in game.melds[s]] for s in range(game.n)],
        "bonus": [[t.token for t in game.bonus[s]] for s in range(game.n)],
        "discards": [[t.token for t in game.discards[s]] for s in range(game.n)],
        "live": [t.token for t in live],
        "dead": [t.token for t in dead],
    }


def check_state(message: dict[str, Any], truth: dict[str, Any] | None) -> None:
    """The message shows its seat (``truth["me"]``; ``None``: a spectator or the dreamer)
    exactly its own tiles and the public table: every field that can hold a tile is
    compared with the truth, and a field the protocol does not have fails the check."""
    assert set(message) - {"chat"} == TOP_KEYS, set(message) ^ TOP_KEYS
    hand = message["hand"]
    if truth is None:
        assert hand is None and message["events"] == []
        return
    assert set(hand) == HAND_KEYS, set(hand) ^ HAND_KEYS
    me, over = truth["me"], truth["over"]
    assert hand["me"] == me and hand["number"] == truth["hand"] and hand["seq"] == truth["seq"]
    if me is None:
        assert hand["concealed"] == [] and hand["drawn"] is None
        assert not hand["to_act"] and hand["legal"] == [] and hand["hint"] is None
    else:
        assert sorted(hand["concealed"]) == truth["concealed"][me]
        assert hand["drawn"] is None or hand["drawn"] in hand["concealed"]
    assert len(hand["seats"]) == len(truth["concealed"])
    for i, view in enumerate(hand["seats"]):
        assert set(view) == SEAT_KEYS
        assert view["concealed_count"] == len(truth["concealed"][i])
        assert view["bonus"] == truth["bonus"][i]
        assert view["discards"] == truth["discards"][i]
        want = [m if (m["open"] or i == me or over) else None for m in truth["melds"][i]]
        assert view["melds"] == want
    window = truth["phase"] in ("CLAIM", "ROB")
    if hand["to_act"]:
        if window:
            assert hand["legal"] == truth["options"][me] and me not in truth["answers"]
        else:
            assert truth["current"] == me and hand["legal"] == truth["legal"]
    else:
        assert hand["legal"] == []
    if hand["window"] is not None:
        assert window and not over and set(hand["window"]) == WINDOW_KEYS
        assert hand["window"]["tile"] == truth["tile"]
        answer = hand["window"]["answer"]
        assert answer is None or (me is not None and truth["answers"].get(me) == answer)
    else:
        assert not window or over
    if over and truth["recorded"]:
        assert hand["seed"] == str(truth["seed"]) and hand["result"] is not None
    else:
        assert hand["seed"] is None and hand["result"] is None and hand["log"] is None
    assert hand["live_left"] == len(truth["live"]) and hand["dead_left"] == len(truth["dead"])
    for event in message["events"]:
        assert set(event) <= EVENT_KEYS
        if event["seat"] == me:
            continue
        assert event["kind"] != "deal" and event["kind"] not in ANSWER_KINDS, event
        if event["kind"] in ("draw", "loose"):
            assert event["tiles"] == [], event
        if event["kind"] == "kong" and event.get("note") == "concealed":
            assert event["tiles"] == [], event


# ------------------------------------------------------------------ clients


def create_table(base: str, **settings: Any) -> dict[str, Any]:
    answer = httpx.post(f"{base}/api/online/tables", json=settings, timeout=30)
    assert answer.status_code == 201, answer.text
    data: dict[str, Any] = answer.json()
    return data


def join(base: str, table: str, nickname: str, seat: int | None = None) -> tuple[int, str]:
    """Take a seat: the seat and the ``Cookie`` header value that holds it."""
    body: dict[str, Any] = {"nickname": nickname}
    if seat is not None:
        body["seat"] = seat
    answer = httpx.post(f"{base}/api/online/tables/{table}/join", json=body, timeout=30)
    assert answer.status_code == 200, answer.text
    name = f"mjseat_{table}"
    value = answer.cookies[name]
    return answer.json()["seat"], f"{name}={value}"


class Client:
    """One WebSocket to a table: every message it got, kept in order."""

    def __init__(self, name: str, seat: int | None) -> None:
        self.name = name
        self.seat = seat
        self.ws: ClientConnection | None = None
        self.texts: list[str] = []
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.reader: asyncio.Task[None] | None = None

    async def connect(self, url: str, cookie: str | None = None, **kw: Any) -> Client:
        headers = {"Cookie": cookie} if cookie else None
        self.ws = await connect(url, additional_headers=headers, max_size=2**22, **kw)
        self.reader = asyncio.get_running_loop().create_task(self._read())
        return self

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            async for text in self.ws:
                assert isinstance(text, str)
                self.texts.append(text)
                await self.queue.put(json.loads(text))
        except Exception:  # closed
            pass
        await self.queue.put(None)

    async def send(self, message: dict[str, Any] | str | bytes) -> None:
        assert self.ws is not None
        await self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    async def next(self, timeout: float = 20) -> dict[str, Any] | None:
        return await asyncio.wait_for(self.queue.get(), timeout)

    async def wait_for(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 30
    ) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{self.name}: nothing came that was waited for")
            message = await self.next(left)
            if message is None:
                raise AssertionError(f"{self.name}: the socket closed")
            if predicate(message):
                return message

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await self.reader

    def states(self) -> list[tuple[str, dict[str, Any]]]:
        return [(t, m) for t in self.texts if (m := json.loads(t))["type"] == "state"]


def choose(hand: dict[str, Any], rng: random.Random) -> str:
    """A seat's move from its own state: mahjong when it can; in a window mostly pass,
    now and then a claim; on its turn a discard, now and then a kong."""
    legal: list[str] = hand["legal"]
    if "mahjong" in legal:
        return "mahjong"
    if hand["window"] is not None:
        claims = [a for a in legal if a != "pass"]
        return rng.choice(claims) if claims and rng.random() < 0.4 else "pass"
    kongs = [a for a in legal if a.startswith("kong")]
    if kongs and rng.random() < 0.5:
        return rng.choice(kongs)
    return rng.choice([a for a in legal if a.startswith(("discard", "announce"))] or legal)


def is_over(message: dict[str, Any]) -> bool:
    hand = message.get("hand")
    return message.get("type") == "state" and hand is not None and hand["result"] is not None


async def play_until(
    client: Client,
    rng: random.Random,
    stop: Callable[[dict[str, Any]], bool],
    acted: list[tuple[int, int, str]] | None = None,
) -> dict[str, Any]:
    """Answer every decision this seat is asked until ``stop(state)``; each action sent
    once per decision (``acted`` collects them: hand, seq, action)."""
    answered: set[tuple[int, int]] = set()
    while True:
        message = await client.next(60)
        if message is None:
            raise AssertionError(f"{client.name}: the socket closed")
        if message["type"] == "error":
            assert message["code"] in ("stale", "answered"), message
            continue
        if message["type"] != "state":
            continue
        if stop(message):
            return message
        hand = message["hand"]
        if hand is None or not hand["to_act"]:
            continue
        key = (hand["number"], hand["seq"])
        if key in answered:
            continue
        answered.add(key)
        action = choose(hand, rng)
        if acted is not None:
            acted.append((hand["number"], hand["seq"], action))
        await client.send(
            {"type": "act", "hand": hand["number"], "seq": hand["seq"], "action": action}
        )


async def play_acked(
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


def logged_decisions(text: str) -> set[tuple[int, int, str]]:
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


def assert_nothing_lost(log: bytes, acked: list[tuple[int, int, int, str]], folder: Path) -> None:
    """A hand's downloaded log verifies with the real ``replay --verify``, and every action
    the server acknowledged, ``(hand, seq, seat, action)``, is a decision in it."""
    path = folder / "hand.jsonl"
    path.write_bytes(log)
    verify = subprocess.run(
        [sys.executable, "-m", "mahjong_nts.cli", "replay", str(path), "--verify"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert verify.returncode == 0, verify.stdout + verify.stderr
    logged = logged_decisions(log.decode("utf-8"))
    lost = [a for a in acked if (a[1], a[2], a[3]) not in logged]
    assert not lost, lost


def public(game: Game) -> Any:
    return (game.phase is Phase.OVER, game.seq)
