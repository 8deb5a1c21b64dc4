"""Opening the store (store/db.py): migrations to head on first open, SQLite in WAL
mode with foreign keys, the default file in the user's data folder, a restart, and
one clear line for a URL that cannot be opened."""

from __future__ import annotations

import socket
import sqlite3
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

from mahjong_nts.store import (
    StoreUnavailable,
    add_hand,
    alembic_config,
    create_session,
    get_sheet,
    open_store,
)
from mahjong_nts.store.models import Base

pytestmark = pytest.mark.db

NAMES = ["Ann", "Bob", "Cor", "Dirk"]


def test_first_open_migrates_to_head_and_models_match(db_url: str) -> None:
    store = open_store(db_url)
    try:
        tables = set(inspect(store.engine).get_table_names())
        assert {"sheet_sessions", "sheet_hands", "sheet_changes", "alembic_version"} <= tables
        assert {"online_tables", "online_seats", "online_events"} <= tables
        assert {
            "tournaments",
            "tournament_players",
            "tournament_rounds",
            "tournament_results",
            "tournament_result_changes",
            "tournament_penalties",
        } <= tables
        with store.engine.connect() as conn:
            assert conn.scalar(text("select version_num from alembic_version")) == "0004"
            diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        assert diff == []
    finally:
        store.close()
    again = open_store(db_url)  # opening again migrates nothing and keeps the data
    again.close()


def test_downgrade_and_upgrade_again(db_url: str) -> None:
    open_store(db_url).close()
    cfg = alembic_config(db_url)
    command.downgrade(cfg, "base")
    store = open_store(db_url)
    try:
        assert "sheet_hands" in inspect(store.engine).get_table_names()
        assert "tournament_results" in inspect(store.engine).get_table_names()
    finally:
        store.close()


def test_a_sheet_survives_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'evening.sqlite3'}"
    store = open_store(url)
    token = create_session(store, names=NAMES, chip="0.5").token
    add_hand(store, token, {"scores": [40, 10, 0, 8], "winner": 0})
    before = get_sheet(store, token)
    store.close()
    reopened = open_store(url)
    try:
        after = get_sheet(reopened, token)
        assert after == before
        assert after.rows[0].money == tuple(b * before.sheet.chip for b in (240, -68, -98, -74))
    finally:
        reopened.close()


def test_sqlite_runs_in_wal_mode_with_foreign_keys(tmp_path: Path) -> None:
    path = tmp_path / "wal.sqlite3"
    store = open_store(f"sqlite:///{path}")
    try:
        with store.engine.connect() as conn:
            assert conn.scalar(text("pragma foreign_keys")) == 1
            assert conn.scalar(text("pragma journal_mode")) == "wal"
            with pytest.raises(Exception, match="FOREIGN KEY"):
                conn.execute(
                    text(
                        "insert into sheet_hands (session_id, position, entry, version, "
                        "created, updated) values (999, 0, '{}', 1, '2025-01-01', '2025-01-01')"
                    )
                )
    finally:
        store.close()
    assert sqlite3.connect(path).execute("pragma journal_mode").fetchone() == ("wal",)


def test_the_default_file_is_in_the_user_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import platformdirs

    folder = tmp_path / "data" / "mahjong-nts"
    monkeypatch.setattr(platformdirs, "user_data_dir", lambda app: str(folder))
    store = open_store(None)
    try:
        assert (folder / "mahjong-nts.sqlite3").is_file()
        assert store.url.endswith("mahjong-nts.sqlite3")
    finally:
        store.close()


def test_an_in_memory_database_works() -> None:
    store = open_store("sqlite://")
    try:
        token = create_session(store, names=NAMES).token
        assert get_sheet(store, token).session.token == token
    finally:
        store.close()


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("not a url", "not a database URL"),
        ("", "the database URL is empty"),
        ("x" * 3000, "more than 2000 characters"),
        ("nosuchdb://host/db", "unknown database kind 'nosuchdb'"),
        ("mysql://u@localhost/db", "driver is not installed"),
        ("sqlite:////no/such/folder/x.sqlite3", "the folder /no/such/folder does not exist"),
    ],
)
def test_bad_urls_are_one_clear_line(url: str, message: str) -> None:
    with pytest.raises(StoreUnavailable, match=message) as info:
        open_store(url)
    assert "\n" not in str(info.value)


def test_an_unreachable_server_hides_the_password() -> None:
    url = f"postgresql://user:s3cret@127.0.0.1:{_closed_port()}/db"
    with pytest.raises(StoreUnavailable, match="cannot open the database") as info:
        open_store(url)
    assert "s3cret" not in str(info.value) and "***" in str(info.value)
    assert "postgresql+psycopg" in str(info.value)


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("hello " * 1000)
    with pytest.raises(StoreUnavailable, match="not a database"):
        open_store(f"sqlite:///{path}")
    assert path.read_text() == "hello " * 1000


def test_a_database_from_a_newer_version(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'newer.sqlite3'}"
    open_store(url).close()
    con = sqlite3.connect(tmp_path / "newer.sqlite3")
    con.execute("update alembic_version set version_num = '9999'")
    con.commit()
    con.close()
    with pytest.raises(StoreUnavailable, match="schema is not one this version knows"):
        open_store(url)
