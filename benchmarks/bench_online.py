"""The online tables under load: bot tables and WebSocket players on one server.

Command: ``python benchmarks/bench_online.py [--bot-tables 200] [--clients 50]
[--seconds 60] [--ramp 15] [--warmup 10] [--runs 3] [--fast] [--db URL] [--no-html]
[--nice N] [--json] [--profile FILE]``.

Each run starts a fresh ``mahjong-nts serve --port 0`` in a subprocess on 127.0.0.1 with
its own temporary data folder (SQLite there; ``--db`` a PostgreSQL server instead: each
run makes a fresh database ``bench_online_*`` on it, and drops it afterwards, so the URL's
user needs CREATEDB).  Through the public HTTP API and WebSocket protocol, as a browser
does it (``POST /api/online/tables``, ``POST .../join`` for the seat cookie, the socket
``/ws/online/{table}?html=1`` opened with that cookie and the page's ``Origin``, so every
state comes drawn as the page gets it; ``--no-html`` for the bare protocol), it makes

- ``--bot-tables`` tables (200) whose four seats are heuristic bots, playing whole
  matches, nobody watching (their hands are counted from their states before and after
  the measurement);
- ``--clients`` tables (50) with one human seat held by a WebSocket client of this
  program and three heuristic bots; the client answers every decision it is asked at
  once (mahjong when it can; in a window mostly pass, now and then a claim; on its turn
  a discard, now and then a kong) and says ``next`` after each hand.

The tables are made at an even pace over ``--ramp`` seconds (15), the players' among the
bots', so that their turns are spread as those of tables started at different times are
(made all at once, they move in step: every table's bot acts in the same second, then
nothing for two).  The server has its production timing (the bot's delay of 1 s on a turn, the claim
window's minimum of 2 s, the default turn and claim timers): the figures describe an
evening of real tables.  ``--fast`` sets the shortest timings the server allows (both 0):
a stress case, the bots playing flat out.

**Action latency** is measured by the clients: from just before a message is handed to
the socket to the arrival (parsed) of the first message from the server that shows it
took effect: for a turn's action (a discard, a kong, mahjong) the first ``state`` whose
``(hand.number, hand.seq)`` differs from the one answered; for an answer in a claim
window (a claim or ``pass``) the first ``state`` with the seat's own ``window.answer``
recorded (or the decision past); for ``next`` the first ``state`` listing the seat in
``hand.ready`` or showing a later hand; or an ``error`` answering it (counted apart).
The server stores every action before it answers, so this is a round trip through the
table's lock, the core's check, the database write and the view.

**Memory per table**: the server's resident memory (``VmRSS`` of /proc/PID/status) when
it has started and answered one request, when the first table is dealt, when every table
is live (and its sockets open), and at the end: (all live - before) / tables, and the
same from the first table on, which leaves out the code the first table loads.

Bounded: ``--ramp`` and ``--warmup`` (at most 120 each) then ``--seconds`` (at most 600)
of measurement in each run, then the clients close their sockets and the server is
stopped; at most 10 runs.  The machine's load average at the start of each run is
printed, so a noisy run can be seen; ``--nice -10`` (root) runs the server and the
clients at a higher priority than the other jobs of a shared machine.  ``--profile
FILE`` runs the server under ``python -m cProfile -o FILE`` (the last run's profile; its
top functions by own time are printed).  Exit code 1 when any table failed to be made
or a client lost its socket, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pstats
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin

ROOT = Path(__file__).resolve().parents[1]
HZ = os.sysconf("SC_CLK_TCK")
MAX_SECONDS = 600
MAX_WARMUP = 120
MAX_RUNS = 10
SEND_EVERY = 0.125
"""A client sends at most one message per this many seconds (8 a second: below the
server's allowance of 10, which the bots of ``--fast`` would otherwise outrun)."""


# ------------------------------------------------------------------ the server


def rss_kib(pid: int) -> int:
    """The process's resident memory (KiB), from /proc/PID/status."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of the process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / HZ


def load_average() -> tuple[float, float, float]:
    one, five, fifteen = Path("/proc/loadavg").read_text().split()[:3]
    return float(one), float(five), float(fifteen)


@dataclass
class Server:
    proc: subprocess.Popen[str]
    port: int
    log: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self.proc.poll() is None:  # Ctrl+C: uvicorn stops, and cProfile writes its file
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def start_server(
    data: Path, *, tables: int, fast: bool, db: str | None, profile: Path | None, nice: int
) -> Server:
    """``mahjong-nts serve --port 0 [--db URL]`` on 127.0.0.1, its data and log in ``data``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAHJONG_NTS_")}
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    env["MAHJONG_NTS_DATA_DIR"] = str(data)
    env["MAHJONG_NTS_LANG"] = "en"
    env["MAHJONG_NTS_TABLES_PER_CLIENT"] = str(tables)  # every table comes from 127.0.0.1
    if fast:
        env["MAHJONG_NTS_WINDOW_SECONDS"] = "0"
        env["MAHJONG_NTS_BOT_DELAY_SECONDS"] = "0"
    command = [sys.executable]
    if profile is not None:
        command += ["-m", "cProfile", "-o", str(profile)]
    command += ["-m", "mahjong_nts.cli", "serve", "--host", "127.0.0.1", "--port", "0"]
    if db is not None:
        command += ["--db", db]
    log = data / "serve.log"
    with log.open("w") as err:
        proc = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            env=env,
            preexec_fn=(lambda: os.setpriority(os.PRIO_PROCESS, 0, nice)) if nice else None,
        )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not match:
        proc.kill()
        raise SystemExit(f"the server did not start: {line!r} {log.read_text()[-2000:]}")
    proc.stdout.close()
    server = Server(proc, int(match.group(1)), log)
    deadline = time.monotonic() + 120
    while "Application startup complete." not in log.read_text():
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"the server did not start: {log.read_text()[-2000:]}")
        time.sleep(0.1)
    return server


class FreshDatabase:
    """A PostgreSQL database of its own for one run, made on the server of ``url`` and
    dropped afterwards (a run's tables must not be resumed by the next run's server)."""

    def __init__(self, url: str, name: str) -> None:
        from sqlalchemy.engine import make_url

        self.admin = make_url(url)
        if not self.admin.drivername.startswith("postgresql"):
            raise SystemExit(
                "--db: a PostgreSQL URL (postgresql+psycopg://...); SQLite is the default"
            )
        self.name = name
        self.url = self.admin.set(database=name).render_as_string(hide_password=False)

    def _run(self, sql: str) -> None:
        import psycopg

        a = self.admin
        with psycopg.connect(
            host=a.host or "", port=a.port or 5432, user=a.username or "",
            password=a.password or "", dbname=a.database or "postgres", autocommit=True,
        ) as conn:  # fmt: skip
            conn.execute(sql)

    def __enter__(self) -> str:
        self._run(f'CREATE DATABASE "{self.name}"')
        return self.url

    def __exit__(self, *exc: object) -> None:
        self._run(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


# ------------------------------------------------------------------ the clients


def choose(hand: dict[str, Any], rng: random.Random) -> str:
    """A seat's move from its own state: mahjong when it can; in a window mostly pass,
    now and then a claim; on its turn a discard, now and then a kong."""
    legal: list[str] = hand["legal"]
    if "mahjong" in legal:
        return "mahjong"
    if hand["window"] is not None:
        claims = [a for a in legal if a != "pass"]
        return rng.choice(claims) if claims and rng.random() < 0.3 else "pass"
    kongs = [a for a in legal if a.startswith("kong")]
    if kongs and rng.random() < 0.5:
        return rng.choice(kongs)
    return rng.choice([a for a in legal if a.startswith(("discard", "announce"))] or legal)


@dataclass
class Pending:
    kind: str
    """``turn``, ``window`` or ``next``."""
    hand: int
    seq: int | None
    sent: float


@dataclass
class Tally:
    """What the clients measured (while ``measuring``)."""

    measuring: bool = False
    latencies: dict[str, list[float]] = field(
        default_factory=lambda: {"turn": [], "window": [], "next": []}
    )
    errors: dict[str, int] = field(default_factory=dict)
    hands: int = 0
    lost: int = 0
    """Sockets closed by the server."""


class Player:
    """One WebSocket client holding one seat: answers every decision it is asked."""

    def __init__(
        self, base_ws: str, origin: str, table: str, cookie: str, seed: int, *, html: bool
    ) -> None:
        self.url = f"{base_ws}/ws/online/{table}" + ("?html=1" if html else "")
        self.origin = origin
        self.cookie = cookie
        self.rng = random.Random(seed)
        self.ws: ClientConnection | None = None
        self.pending: Pending | None = None
        self.answered: set[tuple[int, int | None, str]] = set()
        self.ready = asyncio.Event()
        self.seat = 0
        self.last_send = 0.0

    async def open(self) -> None:
        self.ws = await connect(
            self.url,
            origin=Origin(self.origin),
            additional_headers={"Cookie": self.cookie},
            max_size=2**22,
            open_timeout=60,
        )

    async def run(self, tally: Tally) -> None:
        assert self.ws is not None
        try:
            async for text in self.ws:
                now = time.perf_counter()
                message = json.loads(text)
                self._acked(message, now, tally)
                if message["type"] == "state":
                    self.ready.set()
                    await self._answer(message, tally)
        except Exception:
            pass
        if self.ws.close_code not in (1000, None):
            tally.lost += 1

    def _acked(self, message: dict[str, Any], now: float, tally: Tally) -> None:
        pending = self.pending
        if pending is None:
            return
        kind = message["type"]
        if kind == "error":
            done = True
            if tally.measuring:
                tally.errors[message["code"]] = tally.errors.get(message["code"], 0) + 1
        elif kind != "state" or message["hand"] is None:
            return
        else:
            hand = message["hand"]
            if pending.kind == "next":
                done = hand["number"] != pending.hand or self.seat in hand["ready"]
            else:
                moved = (hand["number"], hand["seq"]) != (pending.hand, pending.seq)
                window = hand["window"]
                done = moved or (
                    pending.kind == "window" and window is not None and window["answer"] is not None
                )
        if done:
            if tally.measuring and kind == "state":
                tally.latencies[pending.kind].append(now - pending.sent)
            self.pending = None

    async def _send(self, pending: Pending, message: dict[str, Any]) -> None:
        assert self.ws is not None
        wait = self.last_send + SEND_EVERY - time.perf_counter()
        if wait > 0:
            await asyncio.sleep(wait)
        pending.sent = self.last_send = time.perf_counter()
        self.pending = pending
        await self.ws.send(json.dumps(message))

    async def _answer(self, message: dict[str, Any], tally: Tally) -> None:
        hand = message["hand"]
        if hand is None or self.pending is not None or self.ws is None:
            return
        if hand["result"] is not None:
            if message["match"]["over"] or self.seat in hand["ready"]:
                return
            key: tuple[int, int | None, str] = (hand["number"], None, "next")
            if key in self.answered:
                return
            self.answered.add(key)
            if tally.measuring:
                tally.hands += 1
            pending = Pending("next", hand["number"], None, 0.0)
            await self._send(pending, {"type": "next", "hand": hand["number"]})
            return
        if not hand["to_act"]:
            return
        key = (hand["number"], hand["seq"], "act")
        if key in self.answered:
            return
        self.answered.add(key)
        action = choose(hand, self.rng)
        kind = "window" if hand["window"] is not None else "turn"
        await self._send(
            Pending(kind, hand["number"], hand["seq"], 0.0),
            {"type": "act", "hand": hand["number"], "seq": hand["seq"], "action": action},
        )

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


# ------------------------------------------------------------------ a run


@dataclass
class Run:
    load: tuple[float, float, float]
    setup_seconds: float
    tables: int
    actions: int
    p50: float
    p95: float
    p99: float
    max: float
    by_kind: dict[str, dict[str, float]]
    errors: dict[str, int]
    lost: int
    client_hands_per_minute: float
    bot_hands_per_minute: float
    finished_tables: int
    rss_before_mib: float
    rss_first_mib: float
    rss_live_mib: float
    rss_end_mib: float
    kib_per_table: float
    kib_per_table_after_first: float
    server_cores: float
    client_cores: float
    failed: int


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100), nearest rank, in milliseconds."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank] * 1000


def table_settings(*, human: bool) -> dict[str, Any]:
    """A whole match of nts-2016, private, the server's default timers."""
    bot = {"kind": "bot", "bot": "heuristic"}
    seats = [{"kind": "human"} if human else bot, bot, bot, bot]
    return {"ruleset": "nts-2016", "seats": seats, "hands": None, "public": False}


async def bot_hands(http: httpx.AsyncClient, tables: list[str]) -> tuple[int | None, int]:
    """Hands played at the tables of bots (their states, as a spectator sees them), and
    how many of those tables are finished (a whole match played); ``None`` hands when a
    state did not come (a server too busy to answer within the client's timeout)."""
    gate = asyncio.Semaphore(8)

    async def one(table: str) -> tuple[int, bool] | None:
        async with gate:
            try:
                answer = await http.get(f"/api/online/tables/{table}")
            except httpx.HTTPError:
                return None
        if answer.status_code != 200:
            return None
        state = answer.json()
        return state["match"]["hands_played"], state["status"] != "playing"

    got = await asyncio.gather(*(one(t) for t in tables))
    if any(g is None for g in got):
        print("  a table's state did not come: its hands are not counted", file=sys.stderr)
        return None, 0
    return sum(g[0] for g in got if g), sum(g[1] for g in got if g)


async def make_table(http: httpx.AsyncClient, *, human: bool) -> dict[str, Any] | None:
    """A new table, or ``None`` when refused."""
    answer = await http.post("/api/online/tables", json=table_settings(human=human))
    if answer.status_code != 201:
        print(f"  a table was refused: {answer.status_code} {answer.text}", file=sys.stderr)
        return None
    made: dict[str, Any] = answer.json()
    return made


async def join(http: httpx.AsyncClient, table: str, name: str) -> str | None:
    """Seat 0 for ``name``: the ``Cookie`` header value that holds it."""
    answer = await http.post(f"/api/online/tables/{table}/join", json={"nickname": name, "seat": 0})
    if answer.status_code != 200:
        print(f"  a join was refused: {answer.status_code} {answer.text}", file=sys.stderr)
        return None
    cookie = f"mjseat_{table}"
    return f"{cookie}={answer.cookies[cookie]}"


async def drive(server: Server, args: argparse.Namespace, run_no: int) -> Run:
    """Make the tables, warm up, measure, close the sockets."""
    pid = server.proc.pid
    load = load_average()
    tally = Tally()
    async with httpx.AsyncClient(base_url=server.base, timeout=120) as http:
        (await http.get("/api/online/lobby")).raise_for_status()
        rss_before = rss_kib(pid)
        started = time.monotonic()
        first = await make_table(http, human=False)
        failed = 0 if first else 1
        bot_tables = [first["table"]] if first else []
        await asyncio.sleep(0.5)  # its first hand dealt and played a little
        rss_first = rss_kib(pid)
        players: list[Player] = []
        tasks: list[asyncio.Task[None]] = []
        ws_base = server.base.replace("http://", "ws://")
        # the rest at an even pace over --ramp seconds, the players' among the bots'
        kinds = [False] * (args.bot_tables - 1) + [True] * args.clients
        random.Random(run_no).shuffle(kinds)
        ramp = time.monotonic()

        async def one(i: int, human: bool) -> None:
            nonlocal failed
            await asyncio.sleep(max(0.0, ramp + i * args.ramp / len(kinds) - time.monotonic()))
            made = await make_table(http, human=human)
            if made is None:
                failed += 1
                return
            if not human:
                bot_tables.append(made["table"])
                return
            number = len(players)
            cookie = await join(http, made["table"], f"Player{number}")
            if cookie is None:
                failed += 1
                return
            seed = run_no * 1000 + number
            player = Player(
                ws_base, server.base, made["table"], cookie, seed, html=not args.no_html
            )
            players.append(player)
            await player.open()
            tasks.append(asyncio.get_running_loop().create_task(player.run(tally)))
            await asyncio.wait_for(player.ready.wait(), 60)

        await asyncio.gather(*(one(i, human) for i, human in enumerate(kinds)))
        tables = 1 + len(kinds) - failed
        setup = time.monotonic() - started
        rss_live = rss_kib(pid)
        await asyncio.sleep(args.warmup)
        hands0, _ = await bot_hands(http, bot_tables)
        cpu0, own0 = cpu_seconds(pid), time.process_time()
        t0 = time.monotonic()
        tally.measuring = True
        await asyncio.sleep(args.seconds)
        tally.measuring = False
        elapsed = time.monotonic() - t0
        cpu1, own1 = cpu_seconds(pid), time.process_time()
        hands1, finished = await bot_hands(http, bot_tables)
        rss_end = rss_kib(pid)
        for player in players:
            await player.close()
        await asyncio.gather(*tasks)
    everything = [x for values in tally.latencies.values() for x in values]
    by_kind = {
        kind: {
            "count": len(values),
            "p50": percentile(values, 50),
            "p95": percentile(values, 95),
            "max": percentile(values, 100),
        }
        for kind, values in tally.latencies.items()
    }
    minutes = elapsed / 60
    return Run(
        load=load,
        setup_seconds=setup,
        tables=tables,
        actions=len(everything),
        p50=percentile(everything, 50),
        p95=percentile(everything, 95),
        p99=percentile(everything, 99),
        max=percentile(everything, 100),
        by_kind=by_kind,
        errors=tally.errors,
        lost=tally.lost,
        client_hands_per_minute=tally.hands / minutes,
        bot_hands_per_minute=(
            float("nan") if hands0 is None or hands1 is None else (hands1 - hands0) / minutes
        ),
        finished_tables=finished,
        rss_before_mib=rss_before / 1024,
        rss_first_mib=rss_first / 1024,
        rss_live_mib=rss_live / 1024,
        rss_end_mib=rss_end / 1024,
        kib_per_table=(rss_live - rss_before) / max(1, tables),
        kib_per_table_after_first=(rss_live - rss_first) / max(1, tables - 1),
        server_cores=(cpu1 - cpu0) / elapsed,
        client_cores=(own1 - own0) / elapsed,
        failed=failed,
    )


def one_run(args: argparse.Namespace, run_no: int, profile: Path | None) -> Run:
    data = Path(tempfile.mkdtemp(prefix="bench-online-"))
    try:
        db_name = f"bench_online_{os.getpid()}_{run_no}"
        fresh = FreshDatabase(args.db, db_name) if args.db else None
        with fresh if fresh is not None else _nothing() as url:
            server = start_server(
                data,
                tables=args.bot_tables + args.clients,
                fast=args.fast,
                db=url,
                profile=profile,
                nice=args.nice,
            )
            try:
                return asyncio.run(drive(server, args, run_no))
            finally:
                server.stop()
    finally:
        shutil.rmtree(data, ignore_errors=True)


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


# ------------------------------------------------------------------ main


def show(run: Run) -> str:
    return (
        f"{run.actions:6d} {run.p50:7.1f} {run.p95:7.1f} {run.p99:7.1f} {run.max:8.1f}  "
        f"{run.bot_hands_per_minute:7.1f} {run.client_hands_per_minute:6.1f}  "
        f"{run.kib_per_table:6.0f} {run.kib_per_table_after_first:6.0f}  "
        f"{run.rss_live_mib:6.1f} {run.rss_end_mib:6.1f}  "
        f"{run.server_cores:4.2f} {run.client_cores:4.2f}  {run.load[0]:5.2f}"
    )


HEADER = (
    "                 latency of an action (ms)          hands/min    KiB/table     RSS MiB"
    "      cores    load\n"
    "run   actions     p50     p95     p99      max     bots clients   all >1st   live"
    "    end  srv  cli   at start"
)


def median_run(runs: list[Run]) -> dict[str, float]:
    keys = [
        "actions", "p50", "p95", "p99", "max", "bot_hands_per_minute",
        "client_hands_per_minute", "kib_per_table", "kib_per_table_after_first",
        "rss_live_mib", "rss_end_mib", "server_cores", "client_cores",
    ]  # fmt: skip
    return {k: statistics.median(float(getattr(r, k)) for r in runs) for k in keys}


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot-tables", type=int, default=200, help="tables of four bots")
    parser.add_argument("--clients", type=int, default=50, help="tables with a WebSocket player")
    parser.add_argument("--seconds", type=float, default=60, help="measured, per run")
    parser.add_argument(
        "--ramp", type=float, default=15, help="seconds over which the tables are made"
    )
    parser.add_argument("--warmup", type=float, default=10, help="after setup, per run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--fast", action="store_true", help="the shortest timings allowed")
    parser.add_argument(
        "--no-html", action="store_true", help="sockets without ?html=1 (not as the page)"
    )
    parser.add_argument("--db", help="a PostgreSQL URL (a fresh database per run)")
    parser.add_argument(
        "--nice",
        type=int,
        default=0,
        help="the scheduling priority of the server and the clients (-20 to 19; below 0 "
        "needs root): on a shared machine, -10 keeps other jobs from deciding the figures",
    )
    parser.add_argument("--json", action="store_true", help="print JSON only")
    parser.add_argument("--profile", type=Path, help="cProfile the server of the last run")
    args = parser.parse_args(argv)
    if not 1 <= args.bot_tables <= 400:
        parser.error("--bot-tables: 1 to 400")
    if not 0 <= args.clients <= 100:
        parser.error("--clients: 0 to 100")
    if not 1 <= args.seconds <= MAX_SECONDS:
        parser.error(f"--seconds: 1 to {MAX_SECONDS}")
    if not 0 <= args.ramp <= MAX_WARMUP:
        parser.error(f"--ramp: 0 to {MAX_WARMUP}")
    if not 0 <= args.warmup <= MAX_WARMUP:
        parser.error(f"--warmup: 0 to {MAX_WARMUP}")
    if not 1 <= args.runs <= MAX_RUNS:
        parser.error(f"--runs: 1 to {MAX_RUNS}")
    if not -20 <= args.nice <= 19:
        parser.error("--nice: -20 to 19")
    if args.nice:
        try:
            os.setpriority(os.PRIO_PROCESS, 0, args.nice)
        except PermissionError:
            parser.error("--nice: a priority below 0 needs root")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
        capture_output=True, text=True, check=False,
    ).stdout.strip()  # fmt: skip
    timing = "fast (window 0 s, bot delay 0 s)" if args.fast else "production (window 2 s, bot 1 s)"
    if not args.json:
        print(
            f"online tables: {args.bot_tables} bot tables + {args.clients} player tables, "
            f"{timing}, {'PostgreSQL' if args.db else 'SQLite'}, {args.warmup:g} s warm-up + "
            f"{args.seconds:g} s measured, {args.runs} runs, nice {args.nice}; commit {commit}, "
            f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, {os.cpu_count()} cores"
        )
        print(HEADER)
    runs: list[Run] = []
    for i in range(args.runs):
        profile = args.profile if args.profile is not None and i == args.runs - 1 else None
        run = one_run(args, i, profile)
        runs.append(run)
        if not args.json:
            print(f"{i + 1:3d}  {show(run)}", flush=True)
            print(f"     setup {run.setup_seconds:.1f} s for {run.tables} tables")
            if run.errors or run.lost or run.failed:
                print(f"     errors {run.errors}, sockets lost {run.lost}, refused {run.failed}")
    median = median_run(runs)
    if args.json:
        out = {
            "commit": commit,
            "timing": "fast" if args.fast else "production",
            "database": "postgresql" if args.db else "sqlite",
            "bot_tables": args.bot_tables,
            "clients": args.clients,
            "seconds": args.seconds,
            "warmup": args.warmup,
            "nice": args.nice,
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "median": median,
            "runs": [asdict(r) for r in runs],
        }
        print(json.dumps(out, indent=1))
    else:
        print(
            f"med  {median['actions']:6.0f} {median['p50']:7.1f} {median['p95']:7.1f} "
            f"{median['p99']:7.1f} {median['max']:8.1f}  {median['bot_hands_per_minute']:7.1f} "
            f"{median['client_hands_per_minute']:6.1f}  {median['kib_per_table']:6.0f} "
            f"{median['kib_per_table_after_first']:6.0f}  {median['rss_live_mib']:6.1f} "
            f"{median['rss_end_mib']:6.1f}  {median['server_cores']:4.2f} "
            f"{median['client_cores']:4.2f}"
        )
        for kind in ("turn", "window", "next"):
            parts = [
                f"{r.by_kind[kind]['count']} p50 {r.by_kind[kind]['p50']:.1f} "
                f"p95 {r.by_kind[kind]['p95']:.1f} max {r.by_kind[kind]['max']:.1f}"
                for r in runs
            ]
            print(f"  {kind:6s}: " + " | ".join(parts))
    if args.profile is not None and not args.json and args.profile.exists():
        pstats.Stats(str(args.profile)).sort_stats("tottime").print_stats(25)
    bad = any(r.failed or r.lost for r in runs)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
