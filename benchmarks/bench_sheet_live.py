"""What one open score sheet costs the server while it follows the table.

Command: ``python benchmarks/bench_sheet_live.py [--hands 20] [--requests 300]``.
Builds the app on a fresh SQLite file in a temporary folder (no server process: the
app through Starlette's TestClient, in this process), starts a sheet of four players
with ``--hands`` hands, and asks ``GET /sheet/TOKEN/live`` ``--requests`` times as
``static/sheet.js`` does every 3 seconds: with the ETag it shows (the answer is
``304 Not Modified``) and without (the answer is the fragment).  Prints the median and
95th percentile time per request and the bytes of each answer (body; headers apart).

Bounded: at most 500 hands (a sheet's bound) and 10,000 requests; it ends by itself.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from fastapi.testclient import TestClient

from mahjong_nts.web import Settings, create_app


def _time(
    client: TestClient, url: str, headers: dict[str, str], n: int
) -> tuple[list[float], int, int]:
    times = []
    status = size = 0
    for _ in range(n):
        start = time.perf_counter()
        answer = client.get(url, headers=headers)
        times.append(time.perf_counter() - start)
        status, size = answer.status_code, len(answer.content)
    return times, status, size


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--requests", type=int, default=300)
    args = parser.parse_args(argv)
    if not 0 <= args.hands <= 500 or not 1 <= args.requests <= 10_000:
        parser.error("--hands 0-500, --requests 1-10000")
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(Settings(data_dir=Path(folder)))
        with TestClient(app) as client:
            made = client.post(
                "/sheet",
                data={"name": ["Ann", "Bob", "Cor", "Dirk"], "ruleset": "nts-2016"},
                follow_redirects=False,
            )
            path = made.headers["location"]
            for i in range(args.hands):
                fields = {"kind": "scores", "score0": str(8 * i), "score1": "16", "winner": "1"}
                client.post(f"{path}/hands", data=fields, follow_redirects=False)
            first = client.get(f"{path}/live", headers={"Accept-Language": "en"})
            etag = first.headers["etag"]
            for name, headers in (
                ("unchanged (If-None-Match: the shown ETag)", {"If-None-Match": etag}),
                ("changed (no ETag: the whole fragment)", {}),
            ):
                times, status, size = _time(
                    client, f"{path}/live", {"Accept-Language": "en", **headers}, args.requests
                )
                ms = sorted(t * 1000 for t in times)
                p95 = ms[int(0.95 * (len(ms) - 1))]
                print(
                    f"{name}: status {status}, {size} bytes of body, "
                    f"p50 {statistics.median(ms):.2f} ms, p95 {p95:.2f} ms "
                    f"({args.requests} requests, {args.hands} hands)"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
