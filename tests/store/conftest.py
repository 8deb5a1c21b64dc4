"""Databases for the store tests: a fresh SQLite file, and a fresh database on the
throwaway PostgreSQL server of the ``postgres`` fixture (tests/conftest.py,
tests/pg_helpers.py).

``db_url`` is parametrized: every test that takes it runs on both."""

from __future__ import annotations

from pathlib import Path

import pytest

from pg_helpers import PostgresServer


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A URL of an empty database: an SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'sheets.sqlite3'}"
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.new_database()
