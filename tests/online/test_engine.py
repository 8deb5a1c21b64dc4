"""The live tables in process (online/table.py, online/server.py), without HTTP: fair
claim windows, timers and stand-in bots, a table that waits for its players, idle
tables, the bounds, the dreamer of a five-player table, joining."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from online_helpers import check_state, choose, snapshot

from mahjong_nts.formats import gamelog
from mahjong_nts.online import Connection, OnlineConfig, OnlineError, OnlineServer, Table
from mahjong_nts.online import table as table_module
from mahjong_nts.store import open_store
from mahjong_nts.store.online import load_table

SECRET = b"s" * 32
ENGINE_SEED = 1
"""The deals of the tables whose tests count the decisions a hand asks for (a hand won in
the first turns asked the player 4 times in a CI run): the same hands on every run."""


@asynccontextmanager
async def running(tmp_path: Path, **config: Any) -> AsyncIterator[OnlineServer]:
    store = open_store(f"sqlite:///{tmp_path / 'tables.sqlite3'}")
    values: dict[str, Any] = {"window_seconds": 0.05, "bot_delay": 0.0, "tables_per_client": 50}
    values.update(config)
    server = OnlineServer(store, SECRET, OnlineConfig(**values))
    await server.start()
    try:
        yield server
    finally:
        await server.stop()
        store.close()


class Reader:
    """Reads a connection's outbox as a client would, with the time each came;
    :meth:`wait_for` consumes what it looked at, like a socket's reader."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.got: list[tuple[float, dict[str, Any]]] = []
        self.read = 0
        self.new = asyncio.Event()
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            text = await self.conn.outbox.get()
            if text is None:
                return
            self.got.append((time.monotonic(), json.loads(text)))
            self.new.set()

    def states(self) -> list[tuple[float, dict[str, Any]]]:
        return [(t, m) for t, m in self.got if m["type"] == "state"]

    async def wait_for(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 30) -> Any:
        """The next message (after those already read) for which ``pred`` holds."""
        deadline = time.monotonic() + timeout
        while True:
            while self.read < len(self.got):
                message = self.got[self.read][1]
                self.read += 1
                if pred(message):
                    return message
            self.new.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("nothing came that was waited for")
            alarm = asyncio.get_running_loop().call_later(left, self.new.set)
            try:
                await self.new.wait()
            finally:
                alarm.cancel()


async def _watch(table: Table, seat: int | None = None) -> Reader:
    conn = Connection(seat, by_table_id=seat is not None)
    reader = Reader(conn)
    await table.attach(conn)
    return reader


def _over(m: dict[str, Any]) -> bool:
    return m["type"] == "state" and m["hand"] is not None and m["hand"]["result"] is not None


def _window(m: dict[str, Any]) -> bool:
    return m["hand"] is not None and m["hand"]["window"] is not None


def test_every_window_lasts_its_minimum_whoever_can_claim(tmp_path: Path) -> None:
    """At a table of bots every discard opens a window of at least the minimum length,
    and a spectator hears nothing while it is open, whether or not a bot could claim
    (the bots answer at once; only the store knows who answered)."""
    least = 0.12

    def kinds(states: list[tuple[float, dict[str, Any]]], stored: Any) -> tuple[int, int]:
        """Windows some seat answered, and windows nobody could use."""
        answered = {(e.hand, e.payload["seq"]) for e in stored.events if e.kind == "answer"}
        keys = [(m["hand"]["number"], m["hand"]["seq"]) for _, m in states if _window(m)]
        used = sum(k in answered for k in set(keys))
        return used, len(set(keys)) - used

    async def scenario() -> tuple[list[tuple[float, dict[str, Any]]], Any]:
        async with running(tmp_path, window_seconds=least) as server:
            # the deal is the server's secret: hands are played until both kinds of
            # window were seen often enough (a short hand may have few of either)
            table = await server.create({"seats": [{"kind": "bot"}] * 4, "hands": 8}, "c")
            reader = await _watch(table)
            for _ in range(8):
                await reader.wait_for(_over, 120)
                stored = load_table(server.store, table.id)
                used, unused = kinds(reader.states(), stored)
                if used >= 3 and unused >= 10:
                    break
            return reader.states(), stored

    states, stored = asyncio.run(scenario())
    answered = {(e.hand, e.payload["seq"]) for e in stored.events if e.kind == "answer"}
    durations: dict[bool, list[int]] = {True: [], False: []}
    for (_, m0), (_, m1) in itertools.pairwise(states):
        if not _window(m0):
            continue
        key = (m0["hand"]["number"], m0["hand"]["seq"])
        assert m1["hand"]["seq"] != key[1] or _over(m1), "a message while the window was open"
        window = m0["hand"]["window"]
        # by the server's clock: the window is announced with its end, and the next
        # state is built no earlier than that end
        assert window["closes"] - m0["now"] >= least * 1000 - 2
        assert m1["now"] >= window["closes"]
        durations[key in answered].append(m1["now"] - m0["now"])
    assert len(durations[True]) >= 3 and len(durations[False]) >= 10


def test_a_seat_hears_of_its_own_answer_only(tmp_path: Path) -> None:
    """Two human seats and two bots: in every window each human gets the window once,
    and once more only after its own answer; every state shows it only what it may see."""

    async def scenario() -> list[Reader]:
        async with running(tmp_path, seed=ENGINE_SEED) as server:
            data = {"seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"},
                              {"kind": "bot"}],
                    "hands": 1, "turn_seconds": None, "claim_seconds": None}  # fmt: skip
            table = await server.create(data, "c")
            for name in ("Ann", "Bob"):
                await server.join(table.id, name, None)
            truths: list[tuple[str, Any]] = []
            real = table_module.table_view

            def recording(t: Any, seat: int | None, **kw: Any) -> Any:
                state, seen = real(t, seat, **kw)
                truths.append((json.dumps(state), snapshot(t, seat)))
                return state, seen

            table_module.table_view = recording  # type: ignore[assignment]
            try:
                readers = [await _watch(table, s) for s in (0, 1)]
                rngs = [random.Random(s) for s in (0, 1)]

                async def play(r: Reader, rng: random.Random) -> None:
                    done: set[tuple[int, int]] = set()
                    while True:
                        m = await r.wait_for(
                            lambda m: _over(m)
                            or (m["type"] == "state" and m["hand"] is not None
                                and m["hand"]["to_act"]
                                and (m["hand"]["number"], m["hand"]["seq"]) not in done)
                        )  # fmt: skip
                        if _over(m):
                            return
                        hand = m["hand"]
                        done.add((hand["number"], hand["seq"]))
                        await table.receive(r.conn, json.dumps({
                            "type": "act", "hand": hand["number"], "seq": hand["seq"],
                            "action": choose(hand, rng)}))  # fmt: skip

                await asyncio.gather(*(play(r, g) for r, g in zip(readers, rngs, strict=True)))
            finally:
                table_module.table_view = real
            by_text = dict(truths)
            for r in readers:
                for _, m in r.states():
                    check_state(m, by_text[json.dumps(m)])
            return readers

    readers = asyncio.run(scenario())
    windows = 0
    for r in readers:
        per_window: dict[tuple[int, int], list[dict[str, Any]]] = {}
        for _, m in r.states():
            if _window(m):
                per_window.setdefault((m["hand"]["number"], m["hand"]["seq"]), []).append(m)
        for states in per_window.values():
            windows += 1
            first = states[0]["hand"]
            assert first["window"]["answer"] is None
            if first["to_act"]:  # it could claim: once more, with its answer
                assert len(states) <= 2
                assert all(s["hand"]["window"]["answer"] for s in states[1:])
            else:
                assert len(states) == 1  # the others' answers: not a word
    assert windows > 20


def test_a_turn_that_runs_out_is_played_by_a_bot_until_the_player_is_back(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with running(tmp_path) as server:
            data = {"seats": [{"kind": "human"}] + [{"kind": "bot"}] * 3,
                    "hands": 1, "turn_seconds": 5}  # fmt: skip
            table = await server.create(data, "c")
            await server.join(table.id, "Ann", 0)
            reader = await _watch(table, 0)
            first = await reader.wait_for(lambda m: m["type"] == "state" and m["hand"] is not None)
            hand = first["hand"]
            assert hand["to_act"] and hand["turn"] == 0
            assert 4500 <= hand["deadline"] - first["now"] <= 5000
            gone = await reader.wait_for(lambda m: m["type"] == "state" and m["you"]["away"], 10)
            assert gone["seats"][0]["away"] and gone["hand"]["seq"] > hand["seq"]
            stored = load_table(server.store, table.id).events
            acts = [e.payload for e in stored if e.kind == "act"]
            assert acts[0]["by"] == "timeout" and acts[0]["seat"] == 0
            # while away, its turns are played by the bot at once (no timer)
            await reader.wait_for(
                lambda m: (
                    m["type"] == "state"
                    and any(e["kind"] == "discard" and e["seat"] == 0 for e in m["events"])
                )
            )
            await table.receive(reader.conn, '{"type": "back"}')
            back = await reader.wait_for(lambda m: m["type"] == "state" and not m["you"]["away"])
            assert not back["seats"][0]["away"]
            while True:  # back at the table: it answers its windows, then has its turn
                mine = await reader.wait_for(lambda m: m["type"] == "state" and m["hand"]["to_act"])
                hand = mine["hand"]
                if hand["window"] is None:
                    break
                await table.receive(reader.conn, json.dumps(
                    {"type": "act", "hand": 0, "seq": hand["seq"], "action": "pass"}))  # fmt: skip
            assert hand["turn"] == 0 and hand["deadline"] is not None
            later = [e.payload["by"] for e in load_table(server.store, table.id).events
                     if e.kind == "act" and e.payload["seat"] == 0]  # fmt: skip
            assert later[0] == "timeout" and "bot" in later[1:]

    asyncio.run(scenario())


def test_a_table_without_its_players_waits(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running(tmp_path) as server:
            table = await server.create({"seats": [{"kind": "human"}] + [{"kind": "bot"}] * 3}, "c")
            await server.join(table.id, "Ann", None)
            await asyncio.sleep(0.4)
            kinds = [e.kind for e in load_table(server.store, table.id).events]
            assert kinds == ["created", "joined", "dealt"]  # East (Ann) is away: all wait
            reader = await _watch(table, 0)
            first = await reader.wait_for(lambda m: m["type"] == "state" and m["hand"] is not None)
            assert first["hand"]["to_act"] and first["seats"][0]["connected"]

    asyncio.run(scenario())


def test_an_idle_table_is_closed(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running(tmp_path, idle_seconds=0.2) as server:
            table = await server.create({}, "c")
            reader = await _watch(table)
            await asyncio.sleep(0.4)
            assert table.id in server.tables  # someone is watching
            await table.detach(reader.conn)
            await asyncio.sleep(0.5)
            assert table.id not in server.tables and table.status == "closed"
            stored = load_table(server.store, table.id)
            assert stored.info.status == "closed" and stored.events[-1].kind == "closed"
            with pytest.raises(OnlineError) as gone:
                await server.get(table.id)
            assert gone.value.status == 404

    asyncio.run(scenario())


def test_the_bounds_on_tables(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running(tmp_path, tables_per_client=2, max_open_tables=3) as server:
            await server.create({}, "alice")
            await server.create({}, "alice")
            with pytest.raises(OnlineError) as many:
                await server.create({}, "alice")
            assert many.value.status == 429 and "at most 2" in many.value.message
            await server.create({}, "bob")
            with pytest.raises(OnlineError) as full:
                await server.create({}, "carol")
            assert full.value.status == 503
            with pytest.raises(OnlineError) as bad:
                await server.create({"ruleset": "/dev/zero"}, "carol")
            assert bad.value.status == 422

    asyncio.run(scenario())


def test_finished_tables_make_way_for_new_ones(tmp_path: Path) -> None:
    """The bound counts tables in memory, but a finished table nobody looks at never
    refuses a new one: it is closed (its events stay stored), the longest idle first."""

    async def scenario() -> None:
        bots = {"seats": [{"kind": "bot"}] * 4, "hands": 1}
        async with running(tmp_path, max_open_tables=2) as server:
            first = await server.create(bots, "alice")
            second = await server.create(bots, "bob")
            for _ in range(600):
                if first.status == second.status == "finished":
                    break
                await asyncio.sleep(0.05)
            assert first.status == second.status == "finished"
            watcher = Connection(None, by_table_id=True)
            await second.attach(watcher)  # someone still looks at the second one's result
            third = await server.create({}, "carol")
            assert set(server.tables) == {second.id, third.id}
            assert first.status == "closed"
            assert load_table(server.store, first.id).info.status == "finished"
            with pytest.raises(OnlineError) as full:  # a watched table and one waiting
                await server.create({}, "dave")
            assert full.value.status == 503
            await second.detach(watcher)
            fourth = await server.create({}, "dave")
            assert set(server.tables) == {third.id, fourth.id}

    asyncio.run(scenario())


def test_joining(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running(tmp_path) as server:
            data = {"seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "human"},
                              {"kind": "human"}]}  # fmt: skip
            table = await server.create(data, "c")
            seat, token = await server.join(table.id, "Ann", 2)
            assert seat == 2 and await server.rejoin(table.id, token) == 2
            cookie = server.cookie(table.id, token)
            assert server.seat_of_cookie(table, cookie) == 2
            assert server.seat_of_cookie(table, cookie[:-1] + "x") is None
            refused = [
                ("Bob", 2, 409),  # taken
                ("Bob", 1, 409),  # a bot's
                ("ann", None, 409),  # the nickname, ignoring case
                ("Bob", 7, 422),
                (" Bob", None, 422),
                ("B" * 25, None, 422),
                ("Bo\x1bb", None, 422),
                ("", None, 422),
            ]
            for nickname, at, status in refused:
                with pytest.raises(OnlineError) as no:
                    await server.join(table.id, nickname, at)
                assert no.value.status == status, (nickname, at, no.value.message)
            assert (await server.join(table.id, "Bob", None))[0] == 0  # the first free one
            assert (await server.join(table.id, "Cor", None))[0] == 3
            with pytest.raises(OnlineError) as full:
                await server.join(table.id, "Dirk", None)
            assert full.value.status == 409
            with pytest.raises(OnlineError) as wrong:
                await server.rejoin(table.id, "x" * 43)
            assert wrong.value.status == 403
            stored = load_table(server.store, table.id)
            assert [(s.nickname, s.token_hash is not None) for s in stored.seats] == [
                ("Bob", True), (None, False), ("Ann", True), ("Cor", True)]  # fmt: skip
            assert token not in json.dumps([e.payload for e in stored.events])

    asyncio.run(scenario())


def test_the_dreamer_of_five_watches_the_hand(tmp_path: Path) -> None:
    """At a table of five the player before East sits the hand out: he sees the
    table as a spectator does, no concealed tile of anyone."""

    async def scenario() -> None:
        async with running(tmp_path) as server:
            data = {"ruleset": "nmb-2009+five-players", "hands": 1,
                    "seats": [{"kind": "bot"}] * 4 + [{"kind": "human"}]}  # fmt: skip
            table = await server.create(data, "c")
            await server.join(table.id, "Eva", 4)
            reader = await _watch(table, 4)
            end = await reader.wait_for(_over, 120)
            assert end["hand"]["dreamer"] == 4 and end["hand"]["seating"] == [0, 1, 2, 3]
            for _, m in reader.states():
                if m["hand"] is None:
                    continue
                hand = m["hand"]
                assert hand["me"] is None and hand["concealed"] == [] and not hand["to_act"]
                if hand["result"] is None:
                    assert all(
                        meld is None or meld["open"]
                        for seat in hand["seats"]
                        for meld in seat["melds"]
                    )
                    for e in m["events"]:
                        assert e["kind"] != "deal"
                        if e["kind"] in ("draw", "loose"):
                            assert e["tiles"] == []
            assert table.status == "finished"

    asyncio.run(scenario())


def test_chat_is_stored_sent_and_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_module, "MAX_CHAT_LINES", 3)

    async def scenario() -> None:
        async with running(tmp_path) as server:
            table = await server.create({}, "c")
            await server.join(table.id, "Ann", 0)
            ann, watcher = await _watch(table, 0), await _watch(table)
            for i in range(4):
                await table.receive(ann.conn, json.dumps({"type": "chat", "text": f"hoi {i}"}))
            line = await watcher.wait_for(lambda m: m["type"] == "chat")
            assert line["line"]["nickname"] == "Ann" and line["line"]["text"] == "hoi 0"
            refused = await ann.wait_for(lambda m: m["type"] == "error")
            assert refused["code"] == "not_now" and "3 chat lines" in refused["message"]
            chats = [e.payload for e in load_table(server.store, table.id).events
                     if e.kind == "chat"]  # fmt: skip
            assert chats == [{"seat": 0, "text": f"hoi {i}"} for i in range(3)]
            late = await _watch(table)
            first = await late.wait_for(lambda m: m["type"] == "state")
            assert [c["text"] for c in first["chat"]] == ["hoi 0", "hoi 1", "hoi 2"]

    asyncio.run(scenario())


@pytest.mark.parametrize("hints", [False, True])
def test_a_table_of_three_with_bots_of_two_levels(tmp_path: Path, hints: bool) -> None:
    """Three seats (nmb-2009+three-players): a player, a good bot and a beginner; a claim
    timer of 2 s; hints as the table says (off: never one; on: the seat to act gets one,
    its suggestion a legal move).  The hand's log verifies, for three seats."""

    async def scenario() -> None:
        async with running(tmp_path, seed=ENGINE_SEED) as server:
            data = {"ruleset": "nmb-2009+three-players", "hands": 1, "hints": hints,
                    "turn_seconds": None, "claim_seconds": 2,
                    "seats": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"},
                              {"kind": "bot", "bot": "random"}]}  # fmt: skip
            table = await server.create(data, "c")
            await server.join(table.id, "Ann", 0)
            ann = await _watch(table, 0)
            rng = random.Random(3)
            asked = 0
            while True:
                m = await ann.wait_for(lambda m: m["type"] == "state" and m["hand"] is not None)
                hand = m["hand"]
                assert [s["bot"] for s in m["seats"]] == [None, "heuristic", "random"]
                assert m["settings"]["claim_seconds"] == 2 and len(hand["seats"]) == 3
                if hand["result"] is not None:
                    break
                if not hand["to_act"]:
                    assert hand["hint"] is None
                    continue
                asked += 1
                if hints:
                    assert hand["hint"] is not None
                    assert hand["hint"]["suggestion"] in hand["legal"]
                else:
                    assert hand["hint"] is None
                act = {"type": "act", "hand": 0, "seq": hand["seq"], "action": choose(hand, rng)}
                await table.receive(ann.conn, json.dumps(act))
            assert asked > 5 and table.status == "finished"
            text, _ = table.log(0)
            log = gamelog.parse_hand_log(text)
            assert log.header.seats == 3 and log.header.ruleset == "nmb-2009+three-players"
            gamelog.verify_hand_log(log)

    asyncio.run(scenario())


def test_a_number_of_hands_or_a_whole_match(tmp_path: Path) -> None:
    """A table of three hands ends after three; a whole match at nts-2016 is four rounds
    (East, South, West, North) of four hands, remises included (NTS 2016, 1.9: "vier
    ronden, inclusief eventuele remises"): 16 hands, the last in the North round."""

    async def scenario() -> None:
        async with running(tmp_path, window_seconds=0.0) as server:
            bots = [{"kind": "bot"}] * 4
            three = await server.create({"seats": bots, "hands": 3}, "c")
            match = await server.create({"seats": bots, "hands": None}, "c")
            for table in (three, match):
                watcher = await _watch(table)
                end = await watcher.wait_for(
                    lambda m: m["type"] == "state" and m["status"] == "finished", 300
                )
                assert end["match"]["hands_played"] == len(end["match"]["history"])
                if table is three:
                    assert end["match"]["hands_played"] == 3 and end["match"]["over"]
                else:
                    assert end["match"]["over"] and end["match"]["hands_played"] == 16
                    assert end["hand"]["round_wind"] == "N"
                assert len(table.logs) == min(end["match"]["hands_played"], 8)

    asyncio.run(scenario())


def test_a_table_of_bots_at_full_speed_lets_others_in_between_its_moves(tmp_path: Path) -> None:
    """The table's task lets its lock go after every step: at a table of bots with no
    delay and no window (it always has a move due) a request or a player's message
    waits for one move, not for the whole match to end."""

    async def go() -> None:
        async with running(tmp_path, window_seconds=0.0) as server:
            table = await server.create({"seats": [{"kind": "bot"}] * 4}, "c")
            while table.game is None:  # the first hand dealt
                await asyncio.sleep(0.01)
            seen: list[tuple[int, int]] = []
            for _ in range(5):
                started = time.monotonic()
                async with table.lock:
                    waited = time.monotonic() - started
                    assert table.status == "playing" and not table.match.is_over
                    assert table.game is not None and table.setup is not None
                    seen.append((table.setup.number, table.game.seq))
                assert waited < 2, f"waited {waited:.1f} s for the table's lock"
                await asyncio.sleep(0.05)
            assert len(set(seen)) > 1  # the bots played on in between

    asyncio.run(go())
