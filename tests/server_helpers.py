"""A real ``mahjong-nts serve`` in a subprocess on 127.0.0.1, for the tests that need
one (tests/test_cli_serve.py, the browser tests in tests/browser/)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
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
    stopped (terminated, then killed if it must be) when the block ends.

    The server's log (stderr: a line per request) goes to a file, which ``proc.stderr``
    reads: a pipe nobody reads would fill after some 64 KiB of log, and the server would
    then stop in the middle of writing a line, answering nothing more."""
    folder = Path(tempfile.mkdtemp(prefix="serve-log-"))
    log = folder / "stderr.log"
    with log.open("a", encoding="utf-8") as writer:  # appends wherever the reader is
        proc = subprocess.Popen(
            [sys.executable, "-m", "mahjong_nts.cli", "serve", "--port", "0", *args],
            stdout=subprocess.PIPE, stderr=writer, text=True,
            env=serve_env(data_dir, **extra_env),
        )  # fmt: skip
    proc.stderr = log.open(encoding="utf-8")
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # printed once the socket listens
        match = _OPEN.fullmatch(line)
        if not match:
            proc.kill()
            proc.wait()
            err = proc.stderr.read()
            raise AssertionError(f"serve did not start: {line!r} {err[-2000:]}")
        yield match.group(1), proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        proc.stderr.close()
        shutil.rmtree(folder, ignore_errors=True)
