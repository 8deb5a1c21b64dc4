"""``mahjong-nts serve`` (mahjong_nts/cli/serve.py): a real uvicorn server on 127.0.0.1
answers the API; a port in use, a host that cannot be listened on and a bad option each
give one ``error:`` line and exit code 2."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from server_helpers import running_server, serve_env

ROOT = Path(__file__).resolve().parents[1]
WINNER = {
    "seat_wind": "E",
    "round_wind": "E",
    "concealed": "b1 b2 b3 k4 k5 k6 t7 t8 t9 E E E C C",
    "winning_tile": "C",
    "win": {"from": "wall"},
}


def env(tmp_path: Path) -> dict[str, str]:
    return serve_env(tmp_path)


def run_serve(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mahjong_nts.cli", "serve", *args],
        capture_output=True, text=True, timeout=60, env=env(tmp_path),
    )  # fmt: skip


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``mahjong-nts serve --port 0`` in a subprocess; the URL it prints."""
    with running_server(tmp_path) as running:
        yield running


def post(url: str, body: bytes, timeout: float = 10) -> tuple[int, dict[str, object]]:
    request = urllib.request.Request(
        url, data=body, headers={"content-type": "application/json"}, method="POST"
    )
    deadline = time.monotonic() + 20
    while True:
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())
        except (ConnectionError, urllib.error.URLError):
            if time.monotonic() > deadline:  # the app is still starting
                raise
            time.sleep(0.1)


@pytest.mark.server
def test_a_real_server_answers_and_stops(server: tuple[str, subprocess.Popen[str]]) -> None:
    url, proc = server
    status, answer = post(url + "api/score", json.dumps(WINNER).encode())
    assert status == 200
    assert answer["score"] == 576  # worked out in tests/web/web_helpers.py
    status, answer = post(url + "api/settle", b'{"scores": [0, 40, 0, 0], "winner": 1}')
    assert (status, answer["balances"]) == (200, [-80, 160, -40, -40])
    status, answer = post(url + "api/score", b"{")
    assert status == 400 and "invalid JSON" in str(answer["error"])
    with urllib.request.urlopen(url, timeout=10) as page:
        assert page.status == 200 and b"<!doctype html>" in page.read()
    proc.terminate()
    # uvicorn shuts down, then ends by the signal it caught (as a process killed by it)
    assert proc.wait(timeout=15) in (0, -15)
    assert proc.stderr is not None
    log = proc.stderr.read()
    assert "POST /api/score 200" in log and "Finished server process" in log
    assert "Traceback" not in log


@pytest.mark.server
def test_two_workers_answer_and_stop(tmp_path: Path) -> None:
    # a connection may wait in its worker's socket until that worker has started:
    # on a busy machine that takes seconds, hence the long timeouts
    with running_server(tmp_path, "--workers", "2") as (url, proc):
        assert url.startswith("http://127.0.0.1:") and not url.endswith(":0/")  # a port chosen
        for _ in range(20):  # each on a new connection, taken by either worker
            status, answer = post(url + "api/score", json.dumps(WINNER).encode(), timeout=60)
            assert (status, answer["score"]) == (200, 576)  # worked out in web_helpers.py
        status, answer = post(url + "api/settle", b'{"scores": [0, 40, 0, 0], "winner": 1}', 60)
        assert (status, answer["balances"]) == (200, [-80, 160, -40, -40])
        status, answer = post(url + "api/play", b'{"ruleset": "nts-2016", "hands": 1}', 60)
        assert status == 503 and "one process; this one runs 2" in str(answer["error"])
        for _ in range(3):  # a score sheet written by one worker is read by any
            form = b"name=Anna&name=Bram&name=Cor&name=Dirk&ruleset=nts-2016"
            sheet = urllib.request.Request(url + "sheet", data=form, method="POST")
            with urllib.request.urlopen(sheet, timeout=60) as page:  # 303, then its page
                assert page.status == 200 and re.search(r"/sheet/[\w-]{32}$", page.url)
                assert b"Dirk" in page.read()
            for _ in range(4):
                with urllib.request.urlopen(page.url, timeout=60) as again:
                    assert again.status == 200 and b"Dirk" in again.read()
        port = int(url.rsplit(":", 1)[1].rstrip("/"))
        if sys.platform.startswith("linux"):  # a socket each, the kernel balancing them
            assert _listening(port) == 2
        other = run_serve(tmp_path, "--port", str(port), "--workers", "2")
        assert other.returncode == 2  # the port is taken, though its sockets share it
        assert other.stderr.splitlines() == [
            f"error: cannot listen on 127.0.0.1:{port}: Address already in use"
        ]
        first = _children(proc.pid)
        assert len(first) == 2
        os.kill(first[0], signal.SIGKILL)  # a worker that dies is started again
        workers = _children(proc.pid, without=first[0])
        assert len(workers) == 2 and first[1] in workers
        for _ in range(10):
            status, answer = post(url + "api/score", json.dumps(WINNER).encode(), timeout=60)
            assert (status, answer["score"]) == (200, 576)
        proc.terminate()
        assert proc.wait(timeout=40) in (0, -15)
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers)  # stopped with it
    assert proc.stderr is not None
    log = proc.stderr.read()
    started = set(re.findall(r"Started server process \[(\d+)\]", log))
    assert started == {str(pid) for pid in [*first, *workers]}, log
    assert f"Worker process [{first[0]}] ended (exit code -9): starting another" in log
    assert "Stopped parent process" in log
    assert log.count("POST /api/score 200") == 30
    assert "Traceback" not in log


def _listening(port: int) -> int:
    """How many IPv4 sockets listen on ``port`` (Linux: /proc/net/tcp)."""
    rows = Path("/proc/net/tcp").read_text().splitlines()[1:]
    return sum(
        1 for row in rows if row.split()[1].endswith(f":{port:04X}") and row.split()[3] == "0A"
    )


def _children(pid: int, without: int | None = None) -> list[int]:
    """The two worker processes of ``pid`` (Linux: /proc), once there are two and
    ``without`` is not one of them."""
    deadline = time.monotonic() + 60
    while True:
        found = [
            int(child)
            for task in Path(f"/proc/{pid}/task").iterdir()
            for child in (task / "children").read_text().split()
        ]
        # the supervisor also starts multiprocessing's resource tracker
        workers = [c for c in found if "spawn_main" in _cmdline(c)]
        if (len(workers) == 2 and without not in workers) or time.monotonic() > deadline:
            return sorted(workers)
        time.sleep(0.1)


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text()
    except OSError:  # gone meanwhile
        return ""


@pytest.mark.server
def test_a_declared_megabyte_is_answered_413_at_once(
    server: tuple[str, subprocess.Popen[str]],
) -> None:
    url, _ = server
    port = int(url.rsplit(":", 1)[1].rstrip("/"))
    post(url + "api/score", b"{}")  # wait until it answers
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(
            b"POST /api/score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1048576\r\n\r\n" + b" " * 1000
        )  # 1000 bytes of the megabyte: the answer comes without the rest
        answer = b""
        while b"\r\n\r\n" not in answer or not _whole(answer):
            piece = sock.recv(65536)  # head and body may come in separate pieces
            if not piece:
                break
            answer += piece
    text = answer.decode("latin-1")
    assert text.startswith("HTTP/1.1 413 "), text
    assert "a request has at most 65536 bytes" in text


def _whole(answer: bytes) -> bool:
    """The head and as many body bytes as its Content-Length says have arrived."""
    head, _, body = answer.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(body) >= int(value)
    return True


@pytest.mark.server
def test_a_port_in_use_is_one_error_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = run_serve(tmp_path, "--port", str(port))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"error: cannot listen on 127.0.0.1:{port}: Address already in use"
    ]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--host", "no-such-host.invalid"], "error: cannot listen on no-such-host.invalid:8000: "),
        (["--host", "192.0.2.1"], "error: cannot listen on 192.0.2.1:8000: "),  # not ours
        (["--lang", "de"], "error: --lang: 'de' is not en or nl"),  # main reads --lang first
        (["--db", "x" * 2001], "error: --db: a database URL has 1 to 2000 characters"),
        (["--workers", "0"], "error: invalid value for '--workers': "),
        (["--workers", "33"], "error: invalid value for '--workers': "),
        (["--db", "nonsense"], "error: --db: not a database URL: give one such as "),
        (["--db", "sqlite:////no/such/folder/x.sqlite3"],
         "error: --db: sqlite:////no/such/folder/x.sqlite3: the folder /no/such/folder does not"),
        (["--db", "postgresql://me:secret@127.0.0.1:1/db"],
         "error: --db: cannot open the database postgresql+psycopg://me:***@127.0.0.1:1/db: "),
        (["--node-url", "ftp://node1"],
         "error: --node-url: 'ftp://node1': give http:// or https:// and a host"),
        (["--node-url", "http://node1:8001/mahjong"],
         "error: --node-url: 'http://node1:8001/mahjong': a node URL is a scheme, a host and"),
        (["--node-url", "http://" + "n" * 300],
         "error: --node-url: a node URL has at most 200 characters"),
    ],
)  # fmt: skip
def test_bad_options_are_one_error_line(tmp_path: Path, args: list[str], expected: str) -> None:
    result = run_serve(tmp_path, *args)
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(expected), result.stderr
    assert "Traceback" not in result.stderr


def test_a_data_folder_holding_no_database_is_one_error_line(tmp_path: Path) -> None:
    (tmp_path / "mahjong-nts.sqlite3").write_bytes(b"not a database, " * 100)
    result = run_serve(tmp_path, "--port", "0")
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: cannot open the database sqlite:///"), lines[0]
    assert "file is not a database" in lines[0]


def test_a_bad_setting_in_the_environment_is_one_error_line(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mahjong_nts.cli", "serve", "--port", "0"],
        capture_output=True, text=True, timeout=60,
        env={**env(tmp_path), "MAHJONG_NTS_DEFAULT_LANGUAGE": "de"},
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "error: a MAHJONG_NTS_* environment variable: default_language: "
        "Input should be 'nl' or 'en', got 'de'"
    ]


def test_the_bind_error_speaks_dutch(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = run_serve(tmp_path, "--port", str(port), "--lang", "nl")
    assert result.stderr.startswith(f"error: kan niet luisteren op 127.0.0.1:{port}: ")
