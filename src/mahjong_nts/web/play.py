"""Play against the bots: the ``/play`` pages and their JSON API.

Pages (server-rendered, usable without JavaScript; ``static/play.js`` makes them live):

* ``GET /play``: the form of a new game (rule set, hands or the whole match);
  ``POST /play`` starts it and sends the browser to ``/play/{id}``.
* ``GET /play/{id}``: the table as the player's seat sees it (``?hint=1`` adds the hint);
  ``POST /play/{id}`` takes one action (``hand``, ``seq``, ``action``) or ``next`` (deal
  the next hand).
* ``GET /play/{id}/log/{n}``: the log of hand ``n`` (1-based) once it is over.

The JSON API (``/api/play``) answers :func:`~mahjong_nts.web.bottable.table_state`, the
same object the page is drawn from; ``?html=1`` adds ``html``, the table drawn by the
server, which the page's script puts in place.  Every rule is the core's: the client only
sends what the player chose.
"""

from __future__ import annotations

import time
from typing import Annotated, Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from mahjong_nts.core.errors import MahjongError, quote
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.text import N_, Text
from mahjong_nts.formats import safejson, wire
from mahjong_nts.formats.rulefiles import MAX_REQUEST_SPEC_CHARS, SHIPPED
from mahjong_nts.i18n import render
from mahjong_nts.web.api.answer import error_response
from mahjong_nts.web.api.body import read_json_body
from mahjong_nts.web.bottable import (
    HAND_KEYS,
    MAX_HANDS,
    BotTable,
    PlayError,
    Registry,
    table_state,
)
from mahjong_nts.web.held import app_held, one_process_only
from mahjong_nts.web.templating import pages_of, request_language
from mahjong_nts.web.tiles import template_helpers

__all__ = ["MAX_FORM_BYTES", "router"]

router = APIRouter()

MAX_FORM_BYTES: Final = 4096
"""A form of the play pages (new game, an action) is at most 4 KiB."""

HAND_CHOICES: Final = (1, 2, 4, 8, MAX_HANDS)

ACTION_KEYS: Final = {"chow": "c", "pung": "p", "kong": "k", "mahjong": "m", "pass": "x"}


def registry(request: Request) -> Registry:
    """This process's games (503 when the server runs several worker processes: the
    next request of a game may reach another one, which does not have it)."""
    refusal = one_process_only(request, "games against the bots")
    if refusal:
        raise PlayError(503, refusal)
    return app_held(request, "play_tables", Registry)


# ------------------------------------------------------------------------ input


class NewGame(BaseModel):
    """A new game: a shipped rule set (with overlays) and the hands to play
    (``null``: the whole match)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    ruleset: str = Field(default=wire.DEFAULT_RULESET_NAME, max_length=MAX_REQUEST_SPEC_CHARS)
    hands: Annotated[int, Field(ge=1, le=MAX_HANDS)] | None = 1


class ActRequest(BaseModel):
    """One action of the player: the hand and decision it answers, and the action."""

    model_config = ConfigDict(extra="forbid", strict=True)
    hand: Annotated[int, Field(ge=0, le=10_000)]
    seq: Annotated[int, Field(ge=0, le=2**31 - 1)]
    action: Annotated[str, Field(min_length=1, max_length=100)]


class NextRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    hand: Annotated[int, Field(ge=0, le=10_000)]


def _rules(spec: str) -> RuleSet:
    try:
        return wire.load_rules(spec)
    except MahjongError as exc:
        raise PlayError(422, Text(N_("ruleset: {problem}"), problem=exc.text)) from None


async def _form(request: Request) -> dict[str, str]:
    """A small urlencoded form: at most :data:`MAX_FORM_BYTES` (413 past it)."""
    length = request.headers.get("content-length")
    if length is None or not length.isdigit() or len(length) > 20:
        raise PlayError(411, Text(N_("send the form with its Content-Length")))
    if int(length) > MAX_FORM_BYTES:
        raise PlayError(
            413,
            Text(
                N_("the form is {length} bytes long: at most {most}"),
                length=length,
                most=MAX_FORM_BYTES,
            ),
        )
    form = await request.form(max_files=0, max_fields=8, max_part_size=MAX_FORM_BYTES)
    return {k: v for k, v in form.items() if isinstance(v, str)}


def _whole(text: str | None, where: str, high: int) -> int:
    if text is None or not text.isascii() or not text.isdigit() or len(text) > 10:
        raise PlayError(
            422, Text(N_("{where}: {value} is not a whole number"), where=where, value=quote(text))
        )
    value = int(text)
    if value > high:
        raise PlayError(
            422,
            Text(N_("{where}: {value} is more than {most}"), where=where, value=value, most=high),
        )
    return value


async def _json(request: Request, model: type[Any]) -> Any:
    body = await read_json_body(request)
    try:
        data = safejson.loads(body, max_bytes=wire.MAX_LINE_BYTES)
    except safejson.JsonInputError as exc:
        raise PlayError(400, wire.error_message(exc)) from None
    if not isinstance(data, dict):
        raise PlayError(422, Text(N_("the request is a JSON object")))
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise PlayError(422, wire.error_message(exc)) from None


# ------------------------------------------------------------------------ drawing


def _context(request: Request, table: BotTable, state: dict[str, Any]) -> dict[str, Any]:
    lang, _ = request_language(request, pages_of(request).default_language)
    return {
        "s": state,
        "keys": HAND_KEYS,
        "action_keys": ACTION_KEYS,
        "discards": [a for a in state["legal"] if a.startswith("discard ")],
        "form_action": f"/play/{table.id}",
        "hint_url": f"/play/{table.id}?hint=1#hint",
        "log_url": f"/play/{table.id}/log/{state['hand'] + 1}",
        "rules_file": None,  # (the online tables' house rules; table.html asks)
        "live": None,
        **template_helpers(lang),
    }


def _fragment(request: Request, table: BotTable, state: dict[str, Any]) -> str:
    lang, _ = request_language(request, pages_of(request).default_language)
    env = pages_of(request).envs[lang]
    return env.get_template("table.html").render(
        lang=lang, error=None, **_context(request, table, state)
    )


def _game_page(
    request: Request,
    table: BotTable,
    *,
    status: int = 200,
    error: str | None = None,
    with_hint: bool = False,
) -> HTMLResponse:
    state = table_state(table, with_hint=with_hint)
    return pages_of(request).render(
        request,
        "play_game.html",
        status_code=status,
        active="play",
        error=error,
        **_context(request, table, state),
    )


def _new_page(
    request: Request,
    *,
    status: int = 200,
    error: str | None = None,
    ruleset: str = "",
    hands: str = "",
) -> HTMLResponse:
    return pages_of(request).render(
        request,
        "play.html",
        status_code=status,
        active="play",
        error=error,
        rulesets=SHIPPED,
        chosen_ruleset=ruleset or wire.DEFAULT_RULESET_NAME,
        hand_choices=HAND_CHOICES,
        chosen_hands=hands or "1",
    )


def _refused(request: Request, exc: PlayError) -> Response:
    """The JSON answer of a refused request, its message in the page's language."""
    lang, _ = request_language(request, pages_of(request).default_language)
    return error_response(exc.status, render(exc.message, lang))


def _gone(request: Request, exc: PlayError) -> HTMLResponse:
    return _new_page(request, status=exc.status, error=exc.message)


# ------------------------------------------------------------------------ pages


@router.get("/play", response_class=HTMLResponse, include_in_schema=False)
async def new_game_page(request: Request) -> HTMLResponse:
    return _new_page(request)


@router.post("/play", include_in_schema=False)
async def start_game(request: Request) -> Response:
    try:
        form = await _form(request)
    except PlayError as exc:
        return _new_page(request, status=exc.status, error=exc.message)
    spec = form.get("ruleset", wire.DEFAULT_RULESET_NAME)
    hands_text = form.get("hands", "1")
    try:
        if len(spec) > MAX_REQUEST_SPEC_CHARS:
            raise PlayError(
                422,
                Text(N_("ruleset: at most {most} characters"), most=MAX_REQUEST_SPEC_CHARS),
            )
        rules = _rules(spec)
        hands = None if hands_text == "match" else _whole(hands_text, "hands", MAX_HANDS)
        if hands == 0:
            raise PlayError(422, Text(N_("hands: at least 1")))
        table = registry(request).create(rules, spec, hands)
    except PlayError as exc:
        return _new_page(
            request,
            status=exc.status,
            error=exc.message,
            ruleset=spec[:MAX_REQUEST_SPEC_CHARS],
            hands=hands_text[:10],
        )
    return RedirectResponse(f"/play/{table.id}", status_code=303)


@router.get("/play/{game_id}", response_class=HTMLResponse, include_in_schema=False)
async def game_page(request: Request, game_id: str) -> HTMLResponse:
    try:
        table = registry(request).get(game_id)
    except PlayError as exc:
        return _gone(request, exc)
    with table.lock:
        return _game_page(request, table, with_hint=request.query_params.get("hint") == "1")


@router.post("/play/{game_id}", include_in_schema=False)
async def game_form(request: Request, game_id: str) -> Response:
    try:
        table = registry(request).get(game_id)
    except PlayError as exc:
        return _gone(request, exc)
    try:
        form = await _form(request)  # read before the lock: nothing awaits while it is held
    except PlayError as exc:
        with table.lock:
            return _game_page(request, table, status=exc.status, error=exc.message)
    with table.lock:
        try:
            hand = _whole(form.get("hand"), "hand", 10_000)
            if "next" in form:
                table.next_hand(hand)
            else:
                seq = _whole(form.get("seq"), "seq", 2**31 - 1)
                text = form.get("action", "")
                if not text or len(text) > 100:
                    raise PlayError(422, Text(N_("action: choose one of the actions shown")))
                table.act(hand, seq, text)
        except PlayError as exc:
            return _game_page(request, table, status=exc.status, error=exc.message)
    return RedirectResponse(f"/play/{game_id}", status_code=303)


@router.get("/play/{game_id}/log/{number}", include_in_schema=False)
async def download_log(request: Request, game_id: str, number: int) -> Response:
    try:
        table = registry(request).get(game_id)
        with table.lock:
            text, name = table.log(number - 1)
    except PlayError as exc:
        return _refused(request, exc)
    return Response(
        text.encode("utf-8"),
        media_type="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


# ------------------------------------------------------------------------ JSON API


def _answer(request: Request, table: BotTable, *, status: int = 200) -> JSONResponse:
    started = getattr(request.state, "play_started", None)
    state = table_state(table, with_hint=request.query_params.get("hint") == "1")
    if request.query_params.get("html") == "1":
        state["html"] = _fragment(request, table, state)
    response = JSONResponse(state, status_code=status)
    if started is not None:
        response.headers["Server-Timing"] = f"app;dur={(time.perf_counter() - started) * 1000:.1f}"
    return response


@router.post("/api/play", status_code=201, include_in_schema=False)
async def api_new_game(request: Request) -> Response:
    """Start a game against the bots: ``{"ruleset": "nts-2016", "hands": 1}``
    (``hands`` 1 to 16, or ``null`` for the whole match).  Answers the table as the
    player's seat sees it; its ``game`` is the id of the next requests."""
    try:
        req: NewGame = await _json(request, NewGame)
        table = registry(request).create(_rules(req.ruleset), req.ruleset, req.hands)
    except PlayError as exc:
        return _refused(request, exc)
    with table.lock:
        return _answer(request, table, status=201)


@router.get("/api/play/{game_id}", include_in_schema=False)
async def api_state(request: Request, game_id: str) -> Response:
    """The table as the player's seat sees it (``?hint=1``: with a hint)."""
    try:
        table = registry(request).get(game_id)
    except PlayError as exc:
        return _refused(request, exc)
    with table.lock:
        return _answer(request, table)


@router.post("/api/play/{game_id}/act", include_in_schema=False)
async def api_act(request: Request, game_id: str) -> Response:
    """One action of the player: ``{"hand": 0, "seq": 12, "action": "discard b3"}``;
    the bots move, and the table comes back.  409 when ``hand`` or ``seq`` is not the
    decision asked now (a stale or doubled submit: nothing changes), 422 when the
    action is not allowed."""
    request.state.play_started = time.perf_counter()
    try:
        table = registry(request).get(game_id)
        req: ActRequest = await _json(request, ActRequest)
    except PlayError as exc:
        return _refused(request, exc)
    with table.lock:
        try:
            table.act(req.hand, req.seq, req.action)
        except PlayError as exc:
            return _refused(request, exc)
        return _answer(request, table)


@router.post("/api/play/{game_id}/next", include_in_schema=False)
async def api_next(request: Request, game_id: str) -> Response:
    """Deal the next hand: ``{"hand": 0}`` names the hand that is over."""
    try:
        table = registry(request).get(game_id)
        req: NextRequest = await _json(request, NextRequest)
    except PlayError as exc:
        return _refused(request, exc)
    with table.lock:
        try:
            table.next_hand(req.hand)
        except PlayError as exc:
            return _refused(request, exc)
        return _answer(request, table)
