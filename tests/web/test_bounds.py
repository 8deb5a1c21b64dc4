"""Bad request bodies (mahjong_nts/web/api/body.py, answer.py): each class of problem has
its status and message, and an over-long body is refused before it is read."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from web_helpers import SETTLE_SCORES, WINNER, error_of, post

from mahjong_nts.formats import wire

MAX = wire.MAX_LINE_BYTES
PATHS = ["/api/score", "/api/settle"]


def line_handler(path: str) -> Any:
    return wire.handle_score_line if path.endswith("score") else wire.handle_settle_line


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (b"{", "invalid JSON at column 2"),
        (b"", "invalid JSON at column 1"),
        (b'{"winner": 1, "winner": 2}', "duplicate key 'winner' in an object"),
        (b'{"winner": ' + b"9" * 81 + b"}", "a whole number of 81 digits"),
        (b'{"x": NaN}', "NaN is not a JSON number"),
        (b'{"x": 1e400}', "is too large"),
        (b"[" * 17 + b"]" * 17, "nested more than 16 levels deep"),
        (b'{"seat_wind": "\xff"}', "not valid UTF-8"),
    ],
)
def test_not_json_within_the_bounds_is_400(
    client: TestClient, path: str, body: bytes, expected: str
) -> None:
    response = post(client, path, body)
    assert response.status_code == 400
    assert expected in error_of(response)
    assert response.json() == line_handler(path)(body)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (b"[1, 2]", "a request must be a JSON object, not an array"),
        (b'"hand"', "a request must be a JSON object, not a string"),
        (b"null", "a request must be a JSON object, not null"),
        (b"7", "a request must be a JSON object, not a number"),
        (b'{"nonsense": 1}', "nonsense: unknown field"),
    ],
)
def test_json_that_is_no_request_is_422(
    client: TestClient, path: str, body: bytes, expected: str
) -> None:
    response = post(client, path, body)
    assert response.status_code == 422
    assert expected in error_of(response)
    assert response.json() == line_handler(path)(body)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize(
    "content_type",
    [None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"],
)
def test_a_body_not_declared_json_is_415(
    client: TestClient, path: str, content_type: str | None
) -> None:
    headers = {} if content_type is None else {"content-type": content_type}
    response = client.post(path, content=json.dumps(WINNER).encode(), headers=headers)
    assert response.status_code == 415
    assert "Content-Type: application/json" in error_of(response)


def test_json_with_a_charset_is_taken(client: TestClient) -> None:
    response = post(
        client,
        "/api/score",
        json.dumps(WINNER),
        **{"content-type": "application/json; charset=utf-8"},
    )
    assert response.status_code == 200


@pytest.mark.parametrize("path", PATHS)
def test_a_body_at_the_bound_is_read(client: TestClient, path: str) -> None:
    request = WINNER if path.endswith("score") else SETTLE_SCORES
    text = json.dumps(request)
    body = text + " " * (MAX - len(text))  # JSON allows trailing white space
    assert len(body) == MAX
    response = post(client, path, body)
    assert response.status_code == 200
    response = post(client, path, body + " ")
    assert response.status_code == 413
    assert error_of(response) == (
        f"the request body is {MAX + 1} bytes long: a request has at most {MAX} bytes"
    )


def test_other_http_errors_are_json(client: TestClient) -> None:
    response = client.get("/api/score")
    assert response.status_code == 405
    assert error_of(response) == "Method Not Allowed"
    response = client.post(
        "/api/nothing", content=b"{}", headers={"content-type": "application/json"}
    )
    assert response.status_code == 404
    assert error_of(response) == "Not Found"


# ------------------------------------------------------------ a large body is never read whole


def scope(path: str, headers: list[tuple[bytes, bytes]]) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), (b"content-type", b"application/json"), *headers],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }


def call(
    app: FastAPI, path: str, headers: list[tuple[bytes, bytes]], chunks: int, size: int
) -> tuple[int, bytes, int]:
    """POST a body of ``chunks`` pieces of ``size`` bytes to the raw ASGI app; the
    status, the body of the answer, and how many pieces the app asked for."""
    asked = 0
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        nonlocal asked
        asked += 1
        if asked > chunks:  # the app waits for the client to go away
            await asyncio.sleep(3600)
        return {"type": "http.request", "body": b" " * size, "more_body": asked < chunks}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(asyncio.wait_for(app(scope(path, headers), receive, send), 10))
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return status, body, asked


@pytest.mark.parametrize("path", PATHS)
def test_a_declared_megabyte_is_refused_unread(app: FastAPI, path: str) -> None:
    status, body, asked = call(app, path, [(b"content-length", b"1048576")], 16, 65536)
    assert status == 413
    assert json.loads(body) == {
        "error": f"the request body is 1048576 bytes long: a request has at most {MAX} bytes"
    }
    assert asked == 0  # not one byte of the body was read


@pytest.mark.parametrize("path", PATHS)
def test_a_streamed_megabyte_is_refused_after_the_bound(app: FastAPI, path: str) -> None:
    # no Content-Length (chunked): 1 MiB in 16 pieces of 64 KiB
    status, body, asked = call(app, path, [], 16, 65536)
    assert status == 413
    assert json.loads(body) == {
        "error": f"the request body is longer than {MAX} bytes: a request has at most {MAX} bytes"
    }
    assert asked == 2  # the second piece passes the bound: the other 14 are never read


def test_a_bad_content_length_is_400(app: FastAPI) -> None:
    status, body, asked = call(app, "/api/score", [(b"content-length", b"12x")], 1, 10)
    assert status == 400
    assert json.loads(body) == {"error": "Content-Length is not a whole number of bytes"}
    assert asked == 0
