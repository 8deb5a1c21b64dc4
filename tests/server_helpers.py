"""A real ``mahjong-nts serve`` in a subprocess on 127.0.0.1, for the tests that need
one (tests/test_cli_serve.py, the browser tests in tests/browser/)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

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
        yield match.group(1), proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def drain(proc: subprocess.Popen[str], keep: int = 200) -> deque[str]:
    """Read the server's stderr (uvicorn's log, a line per request) as it comes, keeping
    the last ``keep`` lines.  Unread, the pipe fills after some 64 KiB of log and the
    server blocks on its next log line: a long session of requests needs this."""
    lines: deque[str] = deque(maxlen=keep)
    stream = proc.stderr
    assert stream is not None

    def run() -> None:
        for line in stream:
            lines.append(line)

    threading.Thread(target=run, name="serve-stderr", daemon=True).start()
    return lines
