"""A live table rebuilt from its stored events is the table that was stored: stopped at
random moments of play (mid-turn, in a window with some answers in), rebuilt on SQLite
and on PostgreSQL, every seat's view and the spectator's are the same, and the rebuilt
table plays on to the end."""

from __future__ import annotations

import asyncio
import copy
import random
from typing import Any

import pytest

from mahjong_nts.online import OnlineConfig, OnlineServer, Table
from mahjong_nts.store import open_store
from mahjong_nts.store.online import load_table

pytestmark = pytest.mark.db

TIMES = ("now", "deadline", "next_deadline", "closes", "time")


def _timeless(value: Any) -> Any:
    """A view without its clock readings (they differ between two builds)."""
    if isinstance(value, dict):
        return {k: _timeless(v) for k, v in value.items() if k not in TIMES}
    if isinstance(value, list):
        return [_timeless(v) for v in value]
    return value


def _views(table: Table) -> list[Any]:
    return [
        _timeless(table.view(seat, by_table_id=True)) for seat in [*range(len(table.seats)), None]
    ]


@pytest.mark.parametrize("stop_after", [0.05, 0.4, 1.2])
def test_a_table_rebuilt_from_its_events_is_the_same(db_url: str, stop_after: float) -> None:
    store = open_store(db_url)
    config = OnlineConfig(window_seconds=0.02, bot_delay=0.005, tables_per_client=50)

    async def scenario() -> None:
        server = OnlineServer(store, b"s" * 32, config)
        settings = {"seats": [{"kind": "bot", "bot": b} for b in
                              ("heuristic", "random", "heuristic", "random")],
                    "hands": 2}  # fmt: skip
        table = await server.create(settings, "c")
        await asyncio.sleep(stop_after * random.Random(db_url).uniform(0.8, 1.2))
        async with table.lock:  # stopped between two steps, as a crash would leave it
            assert table.task is not None
            table.task.cancel()
            before = _views(table)
            events = list(table.game.events) if table.game else []
            balances = list(table.match.balances)
            answers = copy.copy(table.window.answers) if table.window else {}
        stored = load_table(store, table.id)
        again = Table.rebuild(stored, store=store, config=config)
        game, window = again.game, again.window
        if window and game and len(window.answers) == len(game.window_seats()) and not table.window:
            # every answer was in and the live table had closed the window (a close is no
            # event): the rebuilt one closes it after its minimum, the same way
            again._close_window_if_open()
        assert _views(again) == before
        assert (list(again.game.events) if again.game else []) == events
        assert list(again.match.balances) == balances and again.played == table.played
        assert (again.window.answers if again.window else {}) == answers
        assert again.next_seq == len(stored.events)
        # and it plays on to the end of the match from there
        again.on_close = lambda t: None
        again.start()
        for _ in range(600):
            if again.status == "finished":
                break
            await asyncio.sleep(0.05)
        assert again.status == "finished" and again.played == 2
        await again.stop()
        assert load_table(store, table.id).info.status == "finished"

    try:
        asyncio.run(scenario())
    finally:
        store.close()


def test_a_restarted_server_resumes_its_live_tables(db_url: str) -> None:
    store = open_store(db_url)
    config = OnlineConfig(window_seconds=0.02, bot_delay=0.0, tables_per_client=50)

    async def scenario() -> None:
        first = OnlineServer(store, b"s" * 32, config)
        waiting = await first.create({}, "c")  # four humans: it waits for them
        await first.join(waiting.id, "Ann", 0)
        bots = await first.create({"seats": [{"kind": "bot"}] * 4, "hands": 1}, "c")
        async with bots.lock:
            for table in list(first.tables.values()):
                assert table.task is not None
                table.task.cancel()  # (the process dies)
        second = OnlineServer(store, b"s" * 32, config)
        await second.start()
        assert set(second.tables) == {waiting.id, bots.id}
        resumed = await second.get(waiting.id)
        assert resumed.status == "waiting" and resumed.seats[0].nickname == "Ann"
        assert await second.get_watched(bots.watch_id) is await second.get(bots.id)
        for _ in range(600):
            if (await second.get(bots.id)).status == "finished":
                break
            await asyncio.sleep(0.05)
        assert (await second.get(bots.id)).status == "finished"
        await second.stop()

    try:
        asyncio.run(scenario())
    finally:
        store.close()
