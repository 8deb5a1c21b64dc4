"""Fixtures of every test directory: a throwaway PostgreSQL server (tests/pg_helpers.py)
for the tests marked ``db``, one per session, started when the first test asks."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pg_helpers import PostgresServer


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    server = PostgresServer()
    try:
        server.start()
        yield server
    finally:
        server.stop()
