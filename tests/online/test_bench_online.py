"""benchmarks/bench_online.py runs end to end in a tiny configuration (so it cannot rot):
a real ``mahjong-nts serve``, 3 tables of bots and 2 WebSocket players, 5 seconds."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.server

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "benchmarks" / "bench_online.py"


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAHJONG_NTS_")}
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    return env


def test_the_load_benchmark_runs_and_stops_by_itself() -> None:
    command = [sys.executable, str(BENCH), "--bot-tables", "3", "--clients", "2",
               "--seconds", "5", "--warmup", "1", "--ramp", "1", "--runs", "1", "--fast",
               "--json"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=240, env=_env())
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout)
    assert (out["bot_tables"], out["clients"], out["timing"], out["database"]) == (
        3, 2, "fast", "sqlite",
    )  # fmt: skip
    [run] = out["runs"]
    assert run["tables"] == 5 and run["failed"] == 0 and run["lost"] == 0
    # the players were asked and answered: every action acknowledged is timed
    turns = run["by_kind"]["turn"]
    assert turns["count"] > 0 and 0 < turns["p50"] <= turns["p95"] <= turns["max"]
    assert run["actions"] == sum(k["count"] for k in run["by_kind"].values())
    assert 0 < run["p50"] <= run["p95"] <= run["p99"] <= run["max"] < 60_000
    assert all(math.isfinite(run[k]) for k in ("p50", "p95", "p99", "max"))
    # the tables of bots played on: hands finished, or their whole match (in --fast a
    # match of bots alone can be over in seconds)
    assert run["bot_hands_per_minute"] > 0 or run["finished_tables"] == 3
    assert 0 < run["rss_before_mib"] <= run["rss_live_mib"] and run["kib_per_table"] > 0
    assert len(run["load"]) == 3 and out["median"]["p95"] == run["p95"]


@pytest.mark.parametrize(
    "args", [["--seconds", "601"], ["--runs", "0"], ["--bot-tables", "0"], ["--warmup", "-1"]]
)
def test_the_benchmark_is_bounded(args: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), *args], capture_output=True, text=True, timeout=60, env=_env()
    )
    assert done.returncode == 2 and "error" in done.stderr
