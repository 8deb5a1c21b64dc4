"""A real ``mahjong-nts serve`` in a subprocess on 127.0.0.1, for the tests that need
one (tests/test_cli_serve.py, the browser tests in tests/browser/)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[1]
_OPEN = re.compile(r"Open (http://127\.0\.0\.1:(\d+)/) in a browser\. Ctrl\+C stops the server\.\n")


def serve_env(data_dir: Path, **extra: str) -> dict[str, str]:
    """The environment of a test server: this checkout's package, its own data folder,
    nothing of the caller's ``MAHJONG_NTS_*`` settings, and English in the terminal
    whatever the machine's locale (the tests read the line it starts with)."""
    out = {k: v for k, v in os.environ.items() if not k.startswith("MAHJONG_NTS_")}
    out["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + out.get("PYTHONPATH", "")
    out["MAHJONG_NTS_DATA_DIR"] = str(data_dir)
    out["MAHJONG_NTS_LANG"] = "en"
    out.update(extra)
    return out


class _Drained:
    """A server's pipe read to its end in the background, line by line: a pipe nobody
    reads fills (64 KiB of access log) and then stops the server at its next write, so
    a long browser session would see the server hang.  ``read()`` gives everything the
    server wrote, once it has ended (as ``proc.stderr.read()`` did)."""

    def __init__(self, pipe: IO[str]) -> None:
        self._lines: list[str] = []
        self._thread = threading.Thread(target=self._run, args=(pipe,), daemon=True)
        self._thread.start()

    def _run(self, pipe: IO[str]) -> None:
        for line in pipe:
            self._lines.append(line)

    def read(self) -> str:
        self._thread.join(timeout=15)
        return "".join(self._lines)


@contextmanager
def running_server(
    data_dir: Path, *args: str, **extra_env: str
) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``mahjong-nts serve --port 0 ARGS``: its URL (as it prints it) and the process,
    stopped (terminated, then killed if it must be) when the block ends."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "mahjong_nts.cli", "serve", "--port", "0", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=serve_env(data_dir, **extra_env),
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # printed once the socket listens
        match = _OPEN.fullmatch(line)
        if not match:
            proc.kill()
            err = proc.stderr.read() if proc.stderr is not None else ""
            raise AssertionError(f"serve did not start: {line!r} {err[-2000:]}")
        assert proc.stderr is not None
        proc.stdout = _Drained(proc.stdout)  # type: ignore[assignment]
        proc.stderr = _Drained(proc.stderr)  # type: ignore[assignment]
        yield match.group(1), proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
