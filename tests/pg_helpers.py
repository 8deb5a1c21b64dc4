"""A throwaway PostgreSQL server for the tests that need a real one (marked ``db``):
started from Debian's binaries (``/usr/lib/postgresql/*/bin``) on 127.0.0.1 and a free
port, stopped and removed afterwards.  initdb refuses to run as root: as root the server
runs as the ``postgres`` user (Debian's package makes it) in a temporary folder it owns.
The ``postgres`` fixture (tests/conftest.py) gives one per test session."""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest

PG_USER = "mahjong"


def _pg_bin() -> Path:
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
    )
    if not found:
        pytest.fail(
            "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): "
            "apt-get install postgresql (.ci/run does), or deselect with -m 'not db'"
        )
    return Path(found[-1]).parent


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class PostgresServer:
    def __init__(self) -> None:
        self.bin = _pg_bin()
        self.root = Path(tempfile.mkdtemp(prefix="mahjong-nts-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                pytest.fail("running as root, and there is no 'postgres' user to run initdb as")
            os.chown(self.root, user.pw_uid, user.pw_gid)
            self.prefix = ["runuser", "-u", "postgres", "--"]
        self.root.chmod(0o700)
        self._counter = itertools.count()

    def _run(self, *args: str) -> None:
        done = subprocess.run(
            [*self.prefix, *args], capture_output=True, text=True, timeout=120, check=False
        )
        if done.returncode:
            raise RuntimeError(f"{args[0]} failed: {done.stderr.strip() or done.stdout.strip()}")

    def start(self) -> None:
        self._run(
            str(self.bin / "initdb"),
            "-D",
            str(self.data),
            "-U",
            PG_USER,
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--no-sync",
        )
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -F"
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.root / "log"),
            "-w",
            "start",
        )

    def stop(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():
                self._run(
                    str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop"
                )
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://{PG_USER}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        import psycopg

        name = f"test_{next(self._counter)}"
        with psycopg.connect(
            f"host=127.0.0.1 port={self.port} user={PG_USER} dbname=postgres", autocommit=True
        ) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)
