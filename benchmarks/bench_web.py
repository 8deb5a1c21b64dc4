"""POST /api/score latency under 50 concurrent clients on loopback.

Command: ``python benchmarks/bench_web.py [--clients 50] [--seconds 10] [--warmup 2]
[--rate R]``.  Starts ``mahjong-nts serve --port 0`` (one uvicorn process) in a
subprocess, then runs ``--clients`` clients in one asyncio loop, each with its own
keep-alive connection.  Without ``--rate`` each client sends its next request as soon
as the answer to its last one is in (a closed loop: 50 requests always wait, the
server runs flat out, and latency is about clients / throughput).  With ``--rate R``
the clients together send R requests a second on a fixed schedule (each client one
every clients/R seconds), and latency counts from the time a request was due, so a
late send counts against the server too.  Latency ends at the last byte of the answer.
The client is small raw HTTP/1.1 so that it takes little of the machine's CPU from the
server; both share the machine.

Bounded: it stops by itself after ``--warmup + --seconds`` (at most 5 + 120 seconds),
then stops the server.  Prints p50, p95, p99, max, requests per second, and the count
of answers that were not 200 (any is a failure: exit code 1).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# East, self-drawn, fully concealed: 576 (tests/web/web_helpers.py works it out)
REQUESTS = [
    {
        "seat_wind": "E",
        "round_wind": "E",
        "concealed": "b1 b2 b3 k4 k5 k6 t7 t8 t9 E E E C C",
        "winning_tile": "C",
        "win": {"from": "wall"},
    },
    {
        "seat_wind": "S",
        "round_wind": "E",
        "concealed": "b1 b1 b1 k5 k5 t2 t3",
        "melds": [
            {"kind": "pung", "tiles": "C C C", "open": True},
            {"kind": "chow", "tiles": "t4 t5 t6", "open": True},
        ],
    },
]


def http_request(body: bytes) -> bytes:
    return (
        b"POST /api/score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body
    )


async def client(
    port: int,
    payloads: list[bytes],
    start: float,
    stop: float,
    out: list[float],
    bad: list[int],
    interval: float | None,
    offset: float,
) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    i = 0
    due = time.perf_counter() + offset
    try:
        while True:
            now = time.perf_counter()
            if interval is not None:  # open loop: wait for the next due time
                if due > now:
                    await asyncio.sleep(due - now)
                now = due
                due += interval
            if now >= stop:
                return
            writer.write(payloads[i % len(payloads)])
            i += 1
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head[9:12])
            length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))  # type: ignore[union-attr]
            await reader.readexactly(length)
            done = time.perf_counter()
            if now >= start:
                out.append(done - now)
                if status != 200:
                    bad.append(status)
    finally:
        writer.close()


async def load(
    port: int, clients: int, warmup: float, seconds: float, rate: float | None
) -> tuple[list[float], list[int]]:
    payloads = [http_request(json.dumps(r).encode()) for r in REQUESTS]
    t0 = time.perf_counter()
    start, stop = t0 + warmup, t0 + warmup + seconds
    latencies: list[float] = []
    bad: list[int] = []
    interval = clients / rate if rate else None
    await asyncio.gather(
        *(
            client(
                port, payloads, start, stop, latencies, bad, interval,
                (interval or 0) * k / clients,
            )
            for k in range(clients)
        )
    )  # fmt: skip
    return latencies, bad


def start_server() -> tuple[subprocess.Popen[str], int]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAHJONG_NTS_")}
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.Popen(
        [sys.executable, "-m", "mahjong_nts.cli", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not match:
        proc.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return proc, int(match.group(1))


def wait_until_up(port: int) -> None:
    import urllib.request

    deadline = time.monotonic() + 20
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/openapi.json", timeout=5).read()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=50, choices=range(1, 501), metavar="1-500")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--rate", type=float, default=None, help="requests/s of all clients")
    args = parser.parse_args()
    if not 0 < args.seconds <= 120 or not 0 <= args.warmup <= 5:
        parser.error("--seconds is 0-120, --warmup 0-5")
    if args.rate is not None and not 0 < args.rate <= 100_000:
        parser.error("--rate is 0-100000")
    proc, port = start_server()
    try:
        wait_until_up(port)
        try:
            import uvloop

            uvloop.install()
        except ImportError:
            pass
        latencies, bad = asyncio.run(load(port, args.clients, args.warmup, args.seconds, args.rate))
    finally:
        proc.terminate()
        proc.wait(timeout=15)
    ms = sorted(x * 1000 for x in latencies)
    q = statistics.quantiles(ms, n=100)
    mode = f"open loop at {args.rate:g} requests/s" if args.rate else "closed loop"
    print(
        f"POST /api/score, {args.clients} clients, {mode}, {args.seconds:g} s, "
        f"{len(ms)} answers, {os.cpu_count()} cores"
    )
    print(f"    p50 {q[49]:.1f} ms   p95 {q[94]:.1f} ms   p99 {q[98]:.1f} ms   max {ms[-1]:.1f} ms")
    print(f"    {len(ms) / args.seconds:.0f} requests/s   not 200: {len(bad)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
