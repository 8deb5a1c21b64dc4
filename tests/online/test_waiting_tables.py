"""A table that waits for a player does not keep its task busy: once a claim window has
stood its least time while a player thinks (no claim timer), nothing is due until an
answer comes.  (Before, the window's least time, in the past, stayed "due" for ever: the
table's task ran without a pause and held the whole server.)"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from mahjong_nts.online import Connection, OnlineConfig, OnlineServer, Table
from mahjong_nts.store import open_store

SECRET = b"w" * 32


def run_bounded(scenario: Callable[[], Coroutine[Any, Any, None]], seconds: float = 120) -> None:
    """Run ``scenario`` in an event loop of its own thread: a loop that never yields
    fails the test after ``seconds`` instead of hanging it."""
    failure: list[BaseException] = []

    def main() -> None:
        try:
            asyncio.run(scenario())
        except BaseException as exc:  # handed to the test's thread
            failure.append(exc)

    thread = threading.Thread(target=main, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"the event loop did not finish within {seconds} s"
    if failure:
        raise failure[0]


def _newest(conn: Connection, last: dict[str, Any] | None) -> dict[str, Any] | None:
    """The newest state in the connection's outbox, else ``last``."""
    while not conn.outbox.empty():
        text = conn.outbox.get_nowait()
        if text is not None and (message := json.loads(text))["type"] == "state":
            last = message
    return last


async def _seat_all(server: OnlineServer, table: Table) -> list[Connection]:
    conns = []
    for seat in table.seats:
        if seat.kind == "human":
            await server.join(table.id, f"p{seat.seat}", seat.seat)
            conn = Connection(seat.seat, by_table_id=True)
            await table.attach(conn)
            conns.append(conn)
    return conns


async def _due(table: Table) -> float | None:
    async with table.lock:
        while await table._step():
            pass
        return table._next_due()


def test_a_window_past_its_least_time_waits_without_spinning(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = open_store(f"sqlite:///{tmp_path / 'tables.sqlite3'}")
        server = OnlineServer(
            store, SECRET, OnlineConfig(window_seconds=0.05, bot_delay=0.0, tables_per_client=50)
        )
        await server.start()
        try:
            for _attempt in range(6):  # a hand in which some player may claim a discard
                table = await server.create(
                    {"turn_seconds": None, "claim_seconds": None, "hands": 1}, "client"
                )
                conns = await _seat_all(server, table)
                states: list[dict[str, Any] | None] = [None] * len(conns)
                while True:
                    await asyncio.sleep(0.02)
                    states = [_newest(c, last) for c, last in zip(conns, states, strict=True)]
                    async with table.lock:
                        game = table.game
                        assert game is not None
                        if game.is_over:
                            break
                        asked = game.window_seats()
                        on_turn = None if asked else table.setup.players[game.current_seat]  # type: ignore[union-attr]
                    if asked:
                        await asyncio.sleep(0.15)  # three times the window's least time
                        due = await _due(table)
                        assert due is None or due > 0, due
                        return
                    if on_turn is None:
                        continue
                    state = states[on_turn]
                    hand = None if state is None else state["hand"]
                    if hand is None or not hand["to_act"] or hand["seq"] != game.seq:
                        continue
                    action = next(a for a in hand["legal"] if a.startswith("discard"))
                    message = {"type": "act", "hand": hand["number"], "seq": hand["seq"]}
                    await table.receive(conns[on_turn], json.dumps({**message, "action": action}))
            raise AssertionError("no window asked a player in six hands")
        finally:
            await server.stop()
            store.close()

    run_bounded(scenario)


def test_a_window_all_answered_past_its_least_time_is_due_at_once(tmp_path: Path) -> None:
    """The other side: a window with every answer in (here one nobody is asked in) whose
    least time passed between the driver's two looks at the clock is due now, and the
    next step closes it.  (A first fix of the above left such a window waiting for ever.)"""

    async def scenario() -> None:
        store = open_store(f"sqlite:///{tmp_path / 'tables.sqlite3'}")
        server = OnlineServer(
            store, SECRET, OnlineConfig(window_seconds=30, bot_delay=0.0, tables_per_client=50)
        )
        await server.start()
        try:
            table = await server.create(
                {"turn_seconds": None, "claim_seconds": None, "hands": 1}, "client"
            )
            conns = await _seat_all(server, table)
            for _ in range(200):
                await asyncio.sleep(0.01)
                state = _newest(conns[0], None)
                if state and state["hand"] and state["hand"]["to_act"]:
                    break
            assert state is not None
            hand = state["hand"]
            action = next(a for a in hand["legal"] if a.startswith("discard"))
            message = {"type": "act", "hand": 0, "seq": hand["seq"], "action": action}
            await table.receive(conns[0], json.dumps(message))
            async with table.lock:
                game, window = table.game, table.window
                assert game is not None and window is not None
                if game.window_seats():  # someone may claim: every answer is in
                    for hs in game.window_seats():
                        window.answers[hs] = (game.check("pass", seat=hs, seq=game.seq), "bot")
                seq = game.seq
                window.closes = table.clock() - 0.001  # its least time has just passed
                assert table._next_due() == 0.0
                assert await table._step()
                assert table.window is None or table.window.seq != seq
                assert game.seq > seq
        finally:
            await server.stop()
            store.close()

    run_bounded(scenario)
