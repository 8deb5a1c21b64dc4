"""Online tables over HTTP and WebSocket (docs/online.md has the protocol).

The routes only parse, call :mod:`mahjong_nts.online` and answer: ``POST
/api/online/tables`` makes a table, ``.../join`` takes a seat (the seat token goes into a
signed, ``HttpOnly``, ``SameSite=Lax`` cookie), ``GET`` routes give the state, the hand
logs and the lobby, and ``/ws/online/{table}`` (``/ws/online/watch/{watch}``) is the live
table.  The socket's origin is checked before it is accepted; its seat comes from its
cookie, never from a message.

:func:`online_lifespan` starts the tables as the app starts (every live table of the store
resumed from its events) and stops them as it stops.  Without a database, or in a
server of several worker processes (``--workers``: they share one address, so nobody can
be sent to the one that holds a table), the routes answer 503.  Several ``serve``
processes on one PostgreSQL database, each at its own address, share the tables: a
request for a table another process holds is sent there (:func:`moved_response`: 307
for a page, 421 for the API, close code 4421 for a socket).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any, Final

from fastapi import APIRouter, FastAPI, HTTPException, Request, WebSocket
from fastapi.responses import JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.websockets import WebSocketDisconnect

from mahjong_nts.formats import safejson, wire
from mahjong_nts.formats.ruletoml import rules_toml
from mahjong_nts.online import (
    Connection,
    Moved,
    Node,
    OnlineConfig,
    OnlineError,
    OnlineServer,
    Table,
)
from mahjong_nts.online.limits import MAX_NICKNAME_CHARS
from mahjong_nts.online.protocol import error
from mahjong_nts.online.settings import house_file_name
from mahjong_nts.online.tokens import cookie_name, load_secret
from mahjong_nts.store import StoreError
from mahjong_nts.web.api.answer import error_response
from mahjong_nts.web.api.body import read_json_body
from mahjong_nts.web.database import Database
from mahjong_nts.web.livetable import LiveDrawer, connection_language
from mahjong_nts.web.middleware import origin_allowed
from mahjong_nts.web.settings import Settings
from mahjong_nts.web.templating import Pages

__all__ = ["CLOSE_MOVED", "COOKIE_SECONDS", "moved_response", "online_lifespan", "router"]

log = logging.getLogger("mahjong_nts.web.online")

router = APIRouter()

COOKIE_SECONDS: Final = 30 * 24 * 3600
"""How long a seat cookie lasts (30 days)."""

CLOSE_UNAVAILABLE: Final = 1013
CLOSE_NOT_FOUND: Final = 4404
CLOSE_BAD_SEAT: Final = 4403
CLOSE_CROWDED: Final = 4429
CLOSE_MOVED: Final = 4421
"""The table is held by another server process: the ``error`` before it has its ``url``."""


# ------------------------------------------------------------------------ life


@asynccontextmanager
async def online_lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Start the online tables on the app's store (resuming the live ones); stop them."""
    settings: Settings = app.state.settings
    db: Database = app.state.database
    app.state.online = None
    if settings.workers > 1:  # a table lives in one process's memory (docs/online.md)
        log.warning("the online tables need a server of one process (--workers 1)")
        yield
        return
    try:
        store = db.store()
        secret = load_secret(settings.data_dir, settings.online_secret)
        server = OnlineServer(
            store,
            secret,
            OnlineConfig(
                window_seconds=settings.window_seconds,
                bot_delay=settings.bot_delay_seconds,
                lease_seconds=settings.lease_seconds,
                seed=settings.play_seed,
                tables_per_client=settings.tables_per_client,
            ),
            Node.new(settings.advertised_url()),
        )
        await server.start()
    except (StoreError, OSError, ValueError) as exc:
        log.error("the online tables are not available: %s", exc)
        server = None
    app.state.online = server
    try:
        yield
    finally:
        if server is not None:
            await server.stop()


def _server(app: Any) -> OnlineServer:
    workers: int = app.state.settings.workers
    if workers > 1:
        raise OnlineError(
            503,
            f"the online tables need a server of one process; this one runs {workers} "
            "(start it with mahjong-nts serve --workers 1)",
        )
    server = getattr(app.state, "online", None)
    if server is None:
        raise OnlineError(503, "the online tables are not available (no database)")
    assert isinstance(server, OnlineServer)
    return server


# ------------------------------------------------------------------------ input


class JoinRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    nickname: Annotated[str, Field(min_length=1, max_length=MAX_NICKNAME_CHARS)]
    seat: Annotated[int, Field(ge=0, le=4)] | None = None


class RejoinRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    token: Annotated[str, Field(min_length=43, max_length=43)]


async def _body(request: Request) -> Any:
    """The request's JSON, within the bounds (400, 413, 415 otherwise)."""
    body = await read_json_body(request)
    try:
        return safejson.loads(body, max_bytes=wire.MAX_LINE_BYTES)
    except safejson.JsonInputError as exc:
        raise OnlineError(400, wire.error_message(exc)) from None


def _model(data: Any, model: type[BaseModel]) -> Any:
    if not isinstance(data, dict):
        raise OnlineError(422, "the request is a JSON object")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise OnlineError(422, wire.error_message(exc)) from None


def _client(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


def _failed(exc: OnlineError | HTTPException) -> Response:
    if isinstance(exc, HTTPException):
        return error_response(exc.status_code, str(exc.detail))
    if isinstance(exc, Moved):
        return JSONResponse(
            {"error": exc.message, "owner": exc.url}, status_code=421, headers={"Location": exc.url}
        )
    return error_response(exc.status, exc.message)


def moved_response(request: Request, moved: Moved) -> Response:
    """A page of a table another server process holds: 307 to the same page there (the
    method and body kept, so a form is sent again to the right process)."""
    query = f"?{request.url.query}" if request.url.query else ""
    return RedirectResponse(f"{moved.url}{request.url.path}{query}", status_code=307)


def _set_seat_cookie(
    response: Response, request: Request, server: OnlineServer, table_id: str, token: str
) -> None:
    response.set_cookie(
        cookie_name(table_id),
        server.cookie(table_id, token),
        max_age=COOKIE_SECONDS,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def _links(table: Table) -> dict[str, Any]:
    join = f"/online/{table.id}"
    return {
        "join": join,
        "seats": [f"{join}?seat={s.seat}" if s.kind == "human" else None for s in table.seats],
        "watch": f"/online/watch/{table.watch_id}",
    }


async def _state(table: Table, seat: int | None, *, by_table_id: bool) -> dict[str, Any]:
    async with table.lock:
        return table.view(seat, by_table_id=by_table_id)


# ------------------------------------------------------------------------ HTTP


@router.post("/api/online/tables", status_code=201, include_in_schema=False)
async def create_table(request: Request) -> Response:
    """A new table from its settings: its ids, links and state (docs/online.md)."""
    try:
        server = _server(request.app)
        data = await _body(request)
        table = await server.create(data, _client(request))
    except (OnlineError, HTTPException) as exc:
        return _failed(exc)
    except StoreError as exc:
        return error_response(503, f"the database failed: {exc}")
    state = await _state(table, None, by_table_id=True)
    return JSONResponse(
        {"table": table.id, "watch": table.watch_id, "links": _links(table), "state": state},
        status_code=201,
    )


@router.post("/api/online/tables/{table_id}/join", include_in_schema=False)
async def join_table(request: Request, table_id: str) -> Response:
    """Take a seat: ``{"nickname": "Ann", "seat": 2}``; the seat cookie is set."""
    try:
        server = _server(request.app)
        await server.get(table_id)  # 404 (or 421) before the body is read
        req: JoinRequest = _model(await _body(request), JoinRequest)
        seat, token = await server.join(table_id, req.nickname, req.seat)
    except (OnlineError, HTTPException) as exc:
        return _failed(exc)
    response = JSONResponse({"seat": seat, "rejoin": f"/online/{table_id}/rejoin/{token}"})
    _set_seat_cookie(response, request, server, table_id, token)
    return response


@router.post("/api/online/tables/{table_id}/rejoin", include_in_schema=False)
async def rejoin_table(request: Request, table_id: str) -> Response:
    """Take the seat of a rejoin link back: ``{"token": "..."}``; the cookie is set."""
    try:
        server = _server(request.app)
        await server.get(table_id)
        req: RejoinRequest = _model(await _body(request), RejoinRequest)
        seat = await server.rejoin(table_id, req.token)
    except (OnlineError, HTTPException) as exc:
        return _failed(exc)
    response = JSONResponse({"seat": seat})
    _set_seat_cookie(response, request, server, table_id, req.token)
    return response


@router.get("/online/{table_id}/rejoin/{token}", include_in_schema=False)
async def rejoin_link(request: Request, table_id: str, token: str) -> Response:
    """The rejoin link opened on any device: the seat cookie, then the table."""
    try:
        server = _server(request.app)
        await server.rejoin(table_id, token)
    except Moved as exc:
        return moved_response(request, exc)
    except OnlineError as exc:
        return _failed(exc)
    response = RedirectResponse(f"/online/{table_id}", status_code=303)
    _set_seat_cookie(response, request, server, table_id, token)
    return response


@router.get("/api/online/tables/{table_id}", include_in_schema=False)
async def table_state(request: Request, table_id: str) -> Response:
    """The state as the caller sees it: its seat (by cookie), else a spectator."""
    try:
        server = _server(request.app)
        table = await server.get(table_id)
    except OnlineError as exc:
        return _failed(exc)
    seat = server.seat_of_cookie(table, request.cookies.get(cookie_name(table.id)))
    return JSONResponse(await _state(table, seat, by_table_id=True))


@router.get("/api/online/watch/{watch_id}", include_in_schema=False)
async def watch_state(request: Request, watch_id: str) -> Response:
    try:
        table = await _server(request.app).get_watched(watch_id)
    except OnlineError as exc:
        return _failed(exc)
    return JSONResponse(await _state(table, None, by_table_id=False))


async def _log(table: Table, number: int) -> Response:
    try:
        async with table.lock:
            text, name = table.log(number - 1)
    except OnlineError as exc:
        return _failed(exc)
    return Response(
        text.encode("utf-8"),
        media_type="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@router.get("/api/online/tables/{table_id}/log/{number}", include_in_schema=False)
async def table_log(request: Request, table_id: str, number: int) -> Response:
    """The log of hand ``number`` (1-based), once it is over."""
    try:
        table = await _server(request.app).get(table_id)
    except OnlineError as exc:
        return _failed(exc)
    return await _log(table, number)


@router.get("/api/online/watch/{watch_id}/log/{number}", include_in_schema=False)
async def watch_log(request: Request, watch_id: str, number: int) -> Response:
    try:
        table = await _server(request.app).get_watched(watch_id)
    except OnlineError as exc:
        return _failed(exc)
    return await _log(table, number)


def _rules_file(table: Table) -> Response:
    """The table's rule set as a complete house-rule file, named as its logs name it."""
    name = house_file_name(table.rules)
    text = rules_toml(
        table.rules,
        f"The rule set of an online table; check its hand logs with: "
        f"mahjong-nts replay LOG --verify --ruleset {name}",
    )
    return Response(
        text.encode("utf-8"),
        media_type="application/toml",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@router.get("/api/online/tables/{table_id}/rules.toml", include_in_schema=False)
async def table_rules(request: Request, table_id: str) -> Response:
    """The rule set the table plays, as a house-rule file (``replay --ruleset``)."""
    try:
        table = await _server(request.app).get(table_id)
    except OnlineError as exc:
        return _failed(exc)
    return _rules_file(table)


@router.get("/api/online/watch/{watch_id}/rules.toml", include_in_schema=False)
async def watch_rules(request: Request, watch_id: str) -> Response:
    try:
        table = await _server(request.app).get_watched(watch_id)
    except OnlineError as exc:
        return _failed(exc)
    return _rules_file(table)


@router.get("/api/online/lobby", include_in_schema=False)
async def lobby(request: Request) -> Response:
    """The public tables: waiting for players, and in play to watch."""
    try:
        tables = await _server(request.app).lobby()
    except OnlineError as exc:
        return _failed(exc)
    return JSONResponse({"tables": tables})


# ------------------------------------------------------------------------ WebSocket


def socket_origin_allowed(websocket: WebSocket) -> bool:
    """A browser's socket must come from a page of this site or from an origin the
    settings allow (:func:`~mahjong_nts.web.middleware.origin_allowed`): a page of
    another site cannot open it."""
    settings: Settings = websocket.app.state.settings
    return origin_allowed(
        websocket.headers.get("origin"), websocket.headers.get("host"), settings.allowed_origins
    )


@router.websocket("/ws/online/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    await _serve(websocket, table_id, watch=False)


@router.websocket("/ws/online/watch/{watch_id}")
async def watch_socket(websocket: WebSocket, watch_id: str) -> None:
    await _serve(websocket, watch_id, watch=True)


async def _refuse(
    websocket: WebSocket, code: int, kind: str, message: str, url: str | None = None
) -> None:
    await websocket.accept()
    sent = error(kind, message)
    if url is not None:
        sent["url"] = url
    await websocket.send_json(sent)
    await websocket.close(code)


async def _serve(websocket: WebSocket, key: str, *, watch: bool) -> None:
    if not socket_origin_allowed(websocket):
        await websocket.close(1008)  # before accept: the handshake gets 403
        return
    try:
        server = _server(websocket.app)
        table = await (server.get_watched(key) if watch else server.get(key))
    except Moved as exc:
        page = f"/online/watch/{key}" if watch else f"/online/{key}"
        await _refuse(websocket, CLOSE_MOVED, "moved", exc.message, url=f"{exc.url}{page}")
        return
    except OnlineError as exc:
        code = CLOSE_UNAVAILABLE if exc.status == 503 else CLOSE_NOT_FOUND
        await _refuse(websocket, code, "closed", exc.message)
        return
    seat = None
    if not watch:
        value = websocket.cookies.get(cookie_name(table.id))
        if value is not None:
            seat = server.seat_of_cookie(table, value)
            if seat is None:
                await _refuse(
                    websocket, CLOSE_BAD_SEAT, "closed", "this seat cookie holds no seat here"
                )
                return
    conn = Connection(seat, by_table_id=not watch)
    await websocket.accept()
    try:
        await table.attach(conn)
    except OnlineError as exc:
        await websocket.send_json(error("closed", exc.message))
        await websocket.close(CLOSE_CROWDED)
        return
    writer = asyncio.get_running_loop().create_task(_pump(websocket, conn, _drawer(websocket)))
    try:
        while conn.close_code is None:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            raw = message.get("text")
            if raw is None:
                raw = message.get("bytes") or b""
            await table.receive(conn, raw)
    except WebSocketDisconnect:
        pass
    finally:
        await table.detach(conn)
        conn.close(1000)
        with contextlib.suppress(Exception):
            await writer


def _drawer(websocket: WebSocket) -> LiveDrawer | None:
    """A socket opened with ``?html=1`` (the table page's) gets each state drawn too."""
    if websocket.query_params.get("html") != "1":
        return None
    pages: Pages = websocket.app.state.pages
    return LiveDrawer(pages, connection_language(websocket, pages.default_language))


async def _pump(websocket: WebSocket, conn: Connection, drawer: LiveDrawer | None) -> None:
    """Send the connection's messages in order; close the socket when it is done."""
    try:
        while True:
            text = await conn.outbox.get()
            if text is None:
                break
            await websocket.send_text(text if drawer is None else drawer(text))
        await websocket.close(conn.close_code or 1000)
    except (WebSocketDisconnect, RuntimeError, OSError):
        conn.close(1000)
