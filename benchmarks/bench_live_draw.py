"""What drawing the online table on the server costs (web/livetable.py): the ``html`` a
socket opened with ``?html=1`` gets with every state.

A table of four players is played in process (no sockets: the tables' own connections),
every seat choosing its first legal action; the state messages that seat 0 and a
spectator received are then drawn again, each by a fresh drawer per connection as the
page's socket does, and timed.  Prints the median and 95th percentile per state, in
milliseconds, and the size of the JSON with and without the drawing.  Bounded: one hand,
at most 2000 states, it stops by itself.

    python benchmarks/bench_live_draw.py [--runs 5] [--lang nl]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

from mahjong_nts.online import Connection, OnlineConfig, OnlineServer
from mahjong_nts.store import open_store
from mahjong_nts.web.livetable import LiveDrawer
from mahjong_nts.web.templating import Pages

MAX_STATES = 2000


async def play_one_hand(folder: Path) -> tuple[list[str], list[str]]:
    """The state messages seat 0 and a spectator got during one hand."""
    store = open_store(f"sqlite:///{folder / 'bench.sqlite3'}")
    server = OnlineServer(store, b"b" * 32, OnlineConfig(window_seconds=0.0, bot_delay=0.0))
    await server.start()
    try:
        table = await server.create({"turn_seconds": None, "claim_seconds": None, "hands": 1}, "b")
        conns = []
        for seat in range(4):
            await server.join(table.id, f"p{seat}", seat)
            conn = Connection(seat, by_table_id=True)
            await table.attach(conn)
            conns.append(conn)
        watcher = Connection(None, by_table_id=False)
        await table.attach(watcher)
        got: dict[int | None, list[str]] = {0: [], None: []}
        latest: list[dict | None] = [None] * 4  # type: ignore[type-arg]
        answered: set[tuple[int, int, int]] = set()
        for _ in range(20_000):
            for who, conn in [*enumerate(conns), (None, watcher)]:
                while not conn.outbox.empty():
                    text = conn.outbox.get_nowait()
                    if text is None or '"state"' not in text[:40]:
                        continue
                    if who in got:
                        got[who].append(text)
                    if who is not None:
                        latest[who] = json.loads(text)
            if table.game is not None and table.game.is_over and table.recorded:
                break
            for seat, state in enumerate(latest):
                hand = None if state is None else state["hand"]
                if not hand or not hand["to_act"]:
                    continue
                key = (hand["number"], hand["seq"], seat)
                if key in answered:
                    continue
                answered.add(key)
                message = {"type": "act", "hand": hand["number"], "seq": hand["seq"]}
                message["action"] = hand["legal"][0]
                await table.receive(conns[seat], json.dumps(message))
            await asyncio.sleep(0.001)
        return got[0][:MAX_STATES], got[None][:MAX_STATES]
    finally:
        await server.stop()
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, choices=range(1, 51), metavar="1..50")
    parser.add_argument("--lang", choices=("en", "nl"), default="en")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        seat, spectator = asyncio.run(play_one_hand(Path(folder)))
    pages = Pages(args.lang)
    for name, texts in (("seat 0", seat), ("spectator", spectator)):
        times: list[float] = []
        drawn_bytes = 0
        for _ in range(args.runs):
            drawer = LiveDrawer(pages, args.lang)
            for text in texts:
                started = time.perf_counter()
                out = drawer(text)
                times.append((time.perf_counter() - started) * 1000)
                drawn_bytes += len(out)
        plain = sum(len(t) for t in texts) / len(texts)
        times.sort()
        print(
            f"{name:9}  {len(texts)} states x {args.runs} runs: median "
            f"{statistics.median(times):.2f} ms, p95 {times[int(len(times) * 0.95)]:.2f} ms; "
            f"{plain / 1024:.1f} KiB a state, {drawn_bytes / len(times) / 1024:.1f} KiB drawn"
        )


if __name__ == "__main__":
    main()
