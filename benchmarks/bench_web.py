"""POST /api/score latency under 50 concurrent clients on loopback.

Command: ``python benchmarks/bench_web.py [--clients 50] [--seconds 10] [--warmup 2]
[--rate R] [--workers N] [--client python|wrk] [--runs K] [--quiet CORES]``.  Starts
``mahjong-nts serve --port 0 [--workers N]`` in a subprocess, then measures ``--runs``
times back to back (each after ``--warmup`` seconds of the same load), every client with its own
keep-alive connection, the two requests below in turn.  Without ``--rate`` each client
sends its next request as soon as the answer to its last one is in (a closed loop: 50
requests always wait, the server runs flat out, and latency is about clients /
throughput).  With ``--rate R`` the clients together send R requests a second on a
fixed schedule (each client one every clients/R seconds), and latency counts from the
time a request was due, so a late send counts against the server too.  Latency ends at
the last byte of the answer.

Two clients: ``python`` (the default) is small raw HTTP/1.1 in one asyncio loop (with
uvloop when installed); ``wrk`` is Debian's ``wrk`` (C, one thread: ``apt-get install
wrk``), closed loop only, which takes a little less CPU per answer.  Both run on the same
machine as the server, so they share its cores.

Besides the percentiles each run prints the CPU time per answer of the server (all its
processes) and of the client, and how many cores the rest of the machine kept busy
meanwhile (from /proc: Linux only; elsewhere these are left out), then the median of
every figure over the runs.

On a shared machine ``--quiet CORES`` counts only the runs during which the rest of the
machine kept at most CORES cores busy; a busier run is shown, marked, and run again.

Bounded: each run stops by itself after ``--warmup + --seconds`` (at most 5 + 120
seconds), at most 10 runs (30 with ``--quiet``); then the server is stopped.  Exit code 1
if any answer was not 200, 2 if no run was quiet enough.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HZ = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

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

WRK_SCRIPT = """
local bodies = {%s}
local requests = {}
local i = 0
init = function(args)
  for k, body in ipairs(bodies) do
    requests[k] = wrk.format("POST", "/api/score",
      {["Content-Type"] = "application/json", ["Host"] = "127.0.0.1"}, body)
  end
end
request = function()
  i = i %% #requests + 1
  return requests[i]
end
done = function(summary, latency, requests)
  io.write(string.format("RESULT %%d %%d %%d %%d %%d %%d %%d\\n",
    latency:percentile(50), latency:percentile(95), latency:percentile(99), latency.max,
    summary.requests, summary.errors.status, summary.duration))
end
"""


@dataclass
class Run:
    p50: float
    p95: float
    p99: float
    max: float
    rate: float
    bad: int
    server_cpu: float | None = None  # ms of CPU per answer, all server processes
    client_cpu: float | None = None  # ms of CPU per answer
    others: float | None = None  # cores kept busy by everything else
    load: float = 0.0


# ------------------------------------------------------------------ CPU accounting (Linux)


def tree_ticks(pid: int) -> int | None:
    """User + system CPU ticks of ``pid`` and every process below it (None off Linux)."""
    total = 0
    todo = [pid]
    try:
        while todo:
            p = todo.pop()
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
            for task in Path(f"/proc/{p}/task").iterdir():
                todo.extend(int(c) for c in (task / "children").read_text().split())
    except OSError:
        return None
    return total


def busy_ticks() -> int | None:
    """CPU ticks the whole machine has spent busy (not idle or waiting for I/O)."""
    try:
        cpu = Path("/proc/stat").read_text().splitlines()[0].split()
    except OSError:
        return None
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in cpu[1:9])
    return user + nice + system + irq + softirq + steal


class Meter:
    """CPU of the server, the client and the rest of the machine over one run."""

    def __init__(self, server_pid: int) -> None:
        self.server_pid = server_pid

    def start(self, client_ticks: float) -> None:
        self.t0 = time.perf_counter()
        self.server0 = tree_ticks(self.server_pid)
        self.busy0 = busy_ticks()
        self.client0 = client_ticks

    def stop(self, client_ticks: float, run: Run, answers: int) -> None:
        seconds = time.perf_counter() - self.t0
        server1, busy1 = tree_ticks(self.server_pid), busy_ticks()
        if answers == 0 or None in (self.server0, server1, self.busy0, busy1):
            return
        assert server1 is not None and self.server0 is not None
        assert busy1 is not None and self.busy0 is not None
        server = server1 - self.server0
        client = client_ticks - self.client0
        run.server_cpu = server / HZ * 1000 / answers
        run.client_cpu = client / HZ * 1000 / answers
        run.others = max(0.0, (busy1 - self.busy0 - server - client) / HZ / seconds)


def own_ticks() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return (usage.ru_utime + usage.ru_stime) * HZ


def children_ticks() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (usage.ru_utime + usage.ru_stime) * HZ


# ------------------------------------------------------------------ the python client


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
            if start <= now:
                out.append(done - now)
                if status != 200:
                    bad.append(status)
    finally:
        writer.close()


async def python_load(
    port: int, clients: int, warmup: float, seconds: float, rate: float | None, meter: Meter
) -> tuple[list[float], list[int]]:
    payloads = [http_request(json.dumps(r).encode()) for r in REQUESTS]
    t0 = time.perf_counter()
    start, stop = t0 + warmup, t0 + warmup + seconds
    latencies: list[float] = []
    bad: list[int] = []
    interval = clients / rate if rate else None

    async def metering() -> None:
        await asyncio.sleep(max(0.0, start - time.perf_counter()))
        meter.start(own_ticks())

    task = asyncio.ensure_future(metering())
    await asyncio.gather(
        *(
            client(
                port, payloads, start, stop, latencies, bad, interval,
                (interval or 0) * k / clients,
            )
            for k in range(clients)
        )
    )  # fmt: skip
    await task
    return latencies, bad


def python_run(args: argparse.Namespace, port: int, meter: Meter) -> Run:
    latencies, bad = asyncio.run(
        python_load(port, args.clients, args.warmup, args.seconds, args.rate, meter)
    )
    ms = sorted(x * 1000 for x in latencies)
    q = statistics.quantiles(ms, n=100)
    run = Run(q[49], q[94], q[98], ms[-1], len(ms) / args.seconds, len(bad))
    meter.stop(own_ticks(), run, len(ms))
    return run


# ------------------------------------------------------------------ the wrk client


def wrk_once(script: Path, port: int, clients: int, seconds: float) -> list[int]:
    result = subprocess.run(
        ["wrk", "-t1", f"-c{clients}", f"-d{max(1, round(seconds))}s", "--timeout", "10s",
         "-s", str(script), f"http://127.0.0.1:{port}/api/score"],
        capture_output=True, text=True, timeout=seconds + 60, check=True,
    )  # fmt: skip
    line = next(x for x in result.stdout.splitlines() if x.startswith("RESULT "))
    return [int(x) for x in line.split()[1:]]


def wrk_run(args: argparse.Namespace, port: int, meter: Meter, script: Path) -> Run:
    if args.warmup >= 1:
        wrk_once(script, port, args.clients, args.warmup)
    meter.start(children_ticks())
    p50, p95, p99, most, answers, bad, duration = wrk_once(script, port, args.clients, args.seconds)
    run = Run(p50 / 1000, p95 / 1000, p99 / 1000, most / 1000, answers / (duration / 1e6), bad)
    meter.stop(children_ticks(), run, answers)
    return run


# ------------------------------------------------------------------ the server


def start_server(workers: int, data: str) -> tuple[subprocess.Popen[str], int, Path]:
    """``mahjong-nts serve --port 0 --workers N`` with its data (and its log) in ``data``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAHJONG_NTS_")}
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    env["MAHJONG_NTS_DATA_DIR"] = data
    log = Path(data) / "serve.log"
    command = [sys.executable, "-m", "mahjong_nts.cli", "serve", "--port", "0"]
    if workers > 1:  # named only then: a tree from before --workers runs this too
        command += ["--workers", str(workers)]
    with log.open("w") as err:
        proc = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            env=env,
        )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not match:
        proc.kill()
        raise SystemExit(f"the server did not start: {line!r} {log.read_text()[-2000:]}")
    return proc, int(match.group(1)), log


def wait_until_up(proc: subprocess.Popen[str], log: Path, workers: int) -> None:
    """Until every worker says it has started (its line in the server's log)."""
    deadline = time.monotonic() + 120
    while log.read_text().count("Application startup complete.") < workers:
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"the server did not start: {log.read_text()[-2000:]}")
        time.sleep(0.1)


# ------------------------------------------------------------------ main


def show(run: Run) -> str:
    text = (
        f"p50 {run.p50:5.1f} ms   p95 {run.p95:5.1f} ms   p99 {run.p99:5.1f} ms   "
        f"max {run.max:6.1f} ms   {run.rate:6.0f} requests/s   not 200: {run.bad}"
    )
    if run.server_cpu is not None and run.client_cpu is not None and run.others is not None:
        text += (
            f"\n        CPU per answer: server {run.server_cpu:.3f} ms, "
            f"client {run.client_cpu:.3f} ms; the rest of the machine kept "
            f"{run.others:.2f} cores busy; load average {run.load:.1f} before"
        )
    return text


def median_run(runs: list[Run]) -> Run:
    def med(values: list[float | None]) -> float | None:
        known = [v for v in values if v is not None]
        return statistics.median(known) if len(known) == len(values) else None

    return Run(
        p50=statistics.median(r.p50 for r in runs),
        p95=statistics.median(r.p95 for r in runs),
        p99=statistics.median(r.p99 for r in runs),
        max=statistics.median(r.max for r in runs),
        rate=statistics.median(r.rate for r in runs),
        bad=sum(r.bad for r in runs),
        server_cpu=med([r.server_cpu for r in runs]),
        client_cpu=med([r.client_cpu for r in runs]),
        others=med([r.others for r in runs]),
        load=statistics.median(r.load for r in runs),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--clients", type=int, default=50, choices=range(1, 501), metavar="1-500")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--rate", type=float, default=None, help="requests/s of all clients")
    parser.add_argument("--workers", type=int, default=1, choices=range(1, 33), metavar="1-32")
    parser.add_argument("--client", choices=("python", "wrk"), default="python")
    parser.add_argument("--runs", type=int, default=1, choices=range(1, 11), metavar="1-10")
    parser.add_argument(
        "--quiet",
        type=float,
        default=None,
        metavar="CORES",
        help="count only runs during which the rest of the machine kept at most CORES cores "
        "busy (the others are shown and repeated, 3 x --runs runs at most)",
    )
    args = parser.parse_args()
    if not 0 < args.seconds <= 120 or not 0 <= args.warmup <= 5:
        parser.error("--seconds is 0-120, --warmup 0-5")
    if args.rate is not None and not 0 < args.rate <= 100_000:
        parser.error("--rate is 0-100000")
    if args.client == "wrk" and args.rate is not None:
        parser.error("--client wrk runs the closed loop only (no --rate)")
    if args.client == "wrk" and shutil.which("wrk") is None:
        parser.error("--client wrk needs Debian's wrk: apt-get install wrk")
    if args.client == "python":
        try:
            import uvloop

            uvloop.install()
        except ImportError:
            pass
    data = tempfile.mkdtemp(prefix="bench-web-")
    proc, port, log = start_server(args.workers, data)
    runs: list[Run] = []
    mode = f"open loop at {args.rate:g} requests/s" if args.rate else "closed loop"
    print(
        f"POST /api/score, {args.clients} clients ({args.client}), {mode}, "
        f"{args.workers} worker{'s' if args.workers > 1 else ''}, {args.seconds:g} s after "
        f"{args.warmup:g} s of warm-up, {os.cpu_count()} cores",
        flush=True,
    )
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "score.lua"
        bodies = ", ".join("[[" + json.dumps(r) + "]]" for r in REQUESTS)
        script.write_text(WRK_SCRIPT % bodies)
        try:
            wait_until_up(proc, log, args.workers)
            meter = Meter(proc.pid)
            for k in range(args.runs * (3 if args.quiet is not None else 1)):
                load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
                if args.client == "wrk":
                    run = wrk_run(args, port, meter, script)
                else:
                    run = python_run(args, port, meter)
                run.load = load
                busy = args.quiet is not None and (run.others or 0.0) > args.quiet
                if not busy:
                    runs.append(run)
                print(
                    f"run {k + 1}{' (not counted: busy)' if busy else ''}: {show(run)}", flush=True
                )
                if len(runs) == args.runs:
                    break
        finally:
            proc.terminate()
            proc.wait(timeout=30)
            shutil.rmtree(data, ignore_errors=True)
    if not runs:
        print("no run was quiet enough to count")
        return 2
    if len(runs) > 1:
        print(f"median of {len(runs)}: {show(median_run(runs))}")
    return 1 if any(r.bad for r in runs) else 0


if __name__ == "__main__":
    sys.exit(main())
