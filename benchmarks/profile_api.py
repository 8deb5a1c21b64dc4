"""Where the time of one ``POST /api/score`` goes inside the app (no server, no sockets).

Command: ``python benchmarks/profile_api.py [--requests 5000] [--profile [--sort tottime]]``.
Calls the app's ASGI callable directly, as uvicorn does, with the two requests of
``bench_web.py`` in turn, and prints the CPU time per request (process time, so other
work on the machine does not count) of the whole app, then of its parts alone in tight
loops: reading the JSON (``safejson``), validating it (``wire.ScoreRequest``), building
the hand, scoring and explaining it, building the answer, encoding it.  ``--profile``
prints cProfile's table of the whole app instead (CPU-time clock).

Bounded: ``--requests`` is 100 to 100,000.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import logging
import os
import pstats
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_web import REQUESTS
from mahjong_nts.formats import safejson, wire
from mahjong_nts.web import Settings, create_app

BODIES = [json.dumps(r).encode() for r in REQUESTS]


def scope(body: bytes) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/score",
        "raw_path": b"/api/score",
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"127.0.0.1"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }


async def one(app: Any, body: bytes) -> None:
    done = False

    async def receive() -> dict[str, Any]:
        nonlocal done
        if not done:
            done = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.sleep(3600)
        raise AssertionError("unreachable")

    status = 0

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]

    await app(scope(body), receive, send)
    if status != 200:
        raise SystemExit(f"the app answered {status}")


async def whole_app(n: int, profile: cProfile.Profile | None) -> float:
    # the log line of every request, as `serve` writes it (here to the null device)
    logger = logging.getLogger("mahjong_nts")
    logger.addHandler(logging.StreamHandler(open(os.devnull, "w")))  # noqa: SIM115
    logger.setLevel(logging.INFO)
    logger.propagate = False
    app = create_app(Settings(data_dir=Path(tempfile.mkdtemp(prefix="profile-api-"))))
    for i in range(300):  # warm: validators built, rule sets loaded, words remembered
        await one(app, BODIES[i % 2])
    start = time.process_time()
    if profile is not None:
        profile.enable()
    for i in range(n):
        await one(app, BODIES[i % 2])
    if profile is not None:
        profile.disable()
    return (time.process_time() - start) / n


def part(n: int, fn: Callable[[int], object]) -> float:
    for i in range(300):
        fn(i)
    start = time.process_time()
    for i in range(n):
        fn(i)
    return (time.process_time() - start) / n


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--requests", type=int, default=5000)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--sort", default="tottime", choices=("tottime", "cumulative"))
    args = parser.parse_args()
    if not 100 <= args.requests <= 100_000:
        parser.error("--requests is 100-100000")
    n = args.requests
    profile = cProfile.Profile(time.process_time) if args.profile else None
    whole = asyncio.run(whole_app(n, profile))
    if profile is not None:
        pstats.Stats(profile).sort_stats(args.sort).print_stats(40)
        return 0

    from fastapi.responses import JSONResponse

    data = [safejson.loads(b, max_bytes=wire.MAX_LINE_BYTES) for b in BODIES]
    requests = [wire.ScoreRequest.model_validate(d) for d in data]
    jobs = [wire.score_request(r) for r in requests]
    results = [wire.run_score(j) for j in jobs]
    answers = [wire.score(r) for r in requests]
    limit = wire.MAX_LINE_BYTES
    rows = [
        ("the whole app (routing, headers, log line)", whole),
        ("  read the JSON (safejson.loads)",
         part(n, lambda i: safejson.loads(BODIES[i % 2], max_bytes=limit))),
        ("  validate it (ScoreRequest)",
         part(n, lambda i: wire.ScoreRequest.model_validate(data[i % 2]))),
        ("  build the hand (wire.score_request)",
         part(n, lambda i: wire.score_request(requests[i % 2]))),
        ("  score and explain it (wire.run_score)",
         part(n, lambda i: wire.run_score(jobs[i % 2]))),
        ("  the answer's object (wire.score_response)",
         part(n, lambda i: wire.score_response(results[i % 2], jobs[i % 2].rules))),
        ("  encode it (JSONResponse)", part(n, lambda i: JSONResponse(answers[i % 2]))),
    ]  # fmt: skip
    print(f"POST /api/score in the app, {n} requests, CPU time per request")
    for name, seconds in rows:
        print(f"{name:48s} {seconds * 1e6:7.1f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
