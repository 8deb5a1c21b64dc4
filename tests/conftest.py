"""Fixtures of every test directory: a throwaway PostgreSQL server (tests/pg_helpers.py)
for the tests marked ``db``, one per session, started when the first test asks.

Hypothesis runs without its per-example deadline (200 ms by default): the suite runs in
two or more processes at once (pytest-xdist, pyproject's ``addopts``) on machines shared
with other work, where an example's first call (a cold cache, a busy core) can take longer
than that, and a timing is not what any of these tests checks.  Speed is measured in
benchmarks/, never asserted.

``pytest --hypothesis-profile=fuzz`` draws 2000 examples where a test sets no number of
its own (100 by default): a longer search for faults, run by hand, not in CI."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import settings

from pg_helpers import PostgresServer

settings.register_profile("mahjong-nts", deadline=None)
settings.register_profile("fuzz", deadline=None, max_examples=2000)
settings.load_profile("mahjong-nts")


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    server = PostgresServer()
    try:
        server.start()
        yield server
    finally:
        server.stop()
