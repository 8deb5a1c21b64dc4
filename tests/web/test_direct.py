"""The API's hot routes answered ahead of FastAPI's routing (mahjong_nts/web/api/direct.py):
the same answers, byte for byte, as through the declared routes; only POST to the exact
paths is taken."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from fastapi import FastAPI
from web_helpers import NON_WINNER, SETTLE_SCORES, WINNER

from mahjong_nts.formats import wire
from mahjong_nts.web import Settings, create_app
from mahjong_nts.web.api.direct import DirectApi
from mahjong_nts.web.api.main import DIRECT_ENDPOINTS

Message = dict[str, Any]
JSON = (b"content-type", b"application/json")


def scope(method: str, path: str, headers: list[tuple[bytes, bytes]], **extra: Any) -> Message:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), *headers],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
        **extra,
    }


def call(app: Any, scope_: Message, chunks: list[bytes]) -> list[Message]:
    """The messages ``app`` sends for a request whose body comes in ``chunks``."""
    pieces = list(chunks)

    async def receive() -> Message:
        if pieces:
            body = pieces.pop(0)
            return {"type": "http.request", "body": body, "more_body": bool(pieces)}
        await asyncio.sleep(3600)  # the client waits for the answer
        raise AssertionError("unreachable")

    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    asyncio.run(asyncio.wait_for(app(scope_, receive, send), 10))
    return sent


def post(path: str, body: bytes, headers: list[tuple[bytes, bytes]] | None = None) -> Any:
    if headers is None:
        headers = [JSON, (b"content-length", str(len(body)).encode())]
    return (scope("POST", path, headers), [body])


@pytest.fixture(scope="module")
def routed(settings: Settings) -> FastAPI:
    """The app without :class:`DirectApi`: every request through FastAPI's routes."""
    app = create_app(settings)
    app.user_middleware = [m for m in app.user_middleware if m.cls is not DirectApi]
    return app


winner = json.dumps(WINNER).encode()
REQUESTS = {
    "winner": post("/api/score", winner),
    "non-winner, no Content-Length, in pieces": (
        scope("POST", "/api/score", [JSON]),
        [json.dumps(NON_WINNER).encode()[:9], json.dumps(NON_WINNER).encode()[9:]],
    ),
    "settle": post("/api/settle", json.dumps(SETTLE_SCORES).encode()),
    "not JSON (400)": post("/api/score", b'{"seat_wind": '),
    "not a request (422)": post("/api/settle", b'{"nonsense": 1}'),
    "a wrong tile (422)": post("/api/score", winner.replace(b"b1", b"b0")),
    "not declared JSON (415)": post(
        "/api/score", winner, [(b"content-type", b"text/plain; charset=utf-8")]
    ),
    "a declared megabyte (413)": post(
        "/api/settle", b"{}", [JSON, (b"content-length", b"1048576")]
    ),
    "a streamed body past the bound (413)": (
        scope("POST", "/api/score", [JSON]),
        [b" " * wire.MAX_LINE_BYTES, b" {}"],
    ),
    "a bad Content-Length (400)": post("/api/score", winner, [JSON, (b"content-length", b"1e3")]),
}


@pytest.mark.parametrize("name", list(REQUESTS))
def test_the_same_answer_as_through_the_routes(app: FastAPI, routed: FastAPI, name: str) -> None:
    scope_, chunks = REQUESTS[name]
    direct_scope, routed_scope = dict(scope_), dict(scope_)
    direct = call(app, direct_scope, chunks)
    through_routes = call(routed, routed_scope, chunks)
    assert direct == through_routes
    # the router writes the endpoint it found into the scope: only the second went there
    assert "endpoint" not in direct_scope and "endpoint" in routed_scope
    assert direct[0]["type"] == "http.response.start"
    assert (b"x-frame-options", b"DENY") in direct[0]["headers"]  # inside SecurityHeaders


def test_the_answers_are_those_of_the_json_lines(app: FastAPI) -> None:
    sent = call(app, *REQUESTS["winner"])
    assert sent[0]["status"] == 200
    assert json.loads(sent[1]["body"]) == wire.handle_score_line(winner)
    assert json.loads(sent[1]["body"])["score"] == 576  # worked out in web_helpers


# ------------------------------------------------------------ what DirectApi takes, and what not


async def taken_by_direct_api(scope_: Message) -> bool:
    """Whether DirectApi answers ``scope_`` itself (True) or passes it on (False)."""
    passed: list[Message] = []

    async def inner(scope_: Message, receive: Any, send: Any) -> None:
        passed.append(scope_)

    async def endpoint(request: Any) -> Any:
        from starlette.responses import Response

        return Response(b"direct")

    direct = DirectApi(inner, {"/api/score": endpoint})

    async def receive() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        pass

    await direct(scope_, receive, send)
    return not passed


@pytest.mark.parametrize(
    ("scope_", "taken"),
    [
        (scope("POST", "/api/score", []), True),
        (scope("GET", "/api/score", []), False),  # FastAPI answers 405
        (scope("HEAD", "/api/score", []), False),
        (scope("POST", "/api/score/", []), False),  # FastAPI's redirect
        (scope("POST", "/api/scores", []), False),
        (scope("POST", "/", []), False),
        (scope("POST", "/app/api/score", [], root_path="/app"), False),  # mounted elsewhere
        ({"type": "lifespan", "asgi": {"version": "3.0"}}, False),
    ],
)
def test_only_post_to_the_exact_path_is_taken(scope_: Message, taken: bool) -> None:
    assert asyncio.run(taken_by_direct_api(scope_)) is taken


def test_the_direct_paths_are_declared_routes(app: FastAPI) -> None:
    # declared for the OpenAPI document, and answering whatever DirectApi passes on
    paths = app.openapi()["paths"]
    assert all("post" in paths[path] for path in DIRECT_ENDPOINTS)
