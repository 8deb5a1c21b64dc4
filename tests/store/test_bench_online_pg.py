"""benchmarks/bench_online.py with ``--db``: on a PostgreSQL server, each run in a fresh
database of its own, dropped afterwards (tiny: 2 tables of bots, 1 player, 3 seconds)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from pg_helpers import PG_USER, PostgresServer

pytestmark = [pytest.mark.db, pytest.mark.server]

ROOT = Path(__file__).resolve().parents[2]


def _databases(postgres: PostgresServer) -> set[str]:
    with psycopg.connect(
        f"host=127.0.0.1 port={postgres.port} user={PG_USER} dbname=postgres"
    ) as conn:
        return {row[0] for row in conn.execute("SELECT datname FROM pg_database")}


def test_the_load_benchmark_runs_on_postgresql(postgres: PostgresServer) -> None:
    before = _databases(postgres)
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAHJONG_NTS_")}
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    command = [sys.executable, str(ROOT / "benchmarks" / "bench_online.py"),
               "--bot-tables", "2", "--clients", "1", "--seconds", "3", "--warmup", "1",
               "--ramp", "1", "--runs", "1", "--fast", "--json",
               "--db", postgres.url("postgres")]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=240, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout)
    [run] = out["runs"]
    assert out["database"] == "postgresql" and run["tables"] == 3 and run["failed"] == 0
    assert run["by_kind"]["turn"]["count"] > 0
    # the tables of bots played on: hands finished, or their whole match (in --fast a
    # match of bots alone can be over in seconds)
    assert run["bot_hands_per_minute"] > 0 or run["finished_tables"] == 2
    assert _databases(postgres) == before  # its database is gone
