"""The replay viewer: upload a hand log, verify it, step through it move by move.

* ``GET /replay``: the upload form.
* ``POST /replay`` (``multipart/form-data``, field ``log``): the file's content is read
  within the hand-log bound (:data:`~mahjong_nts.formats.gamelog_schema.MAX_LOG_BYTES`),
  parsed by :func:`~mahjong_nts.formats.gamelog.parse_hand_log` (content, never a path)
  and checked by :func:`~mahjong_nts.formats.gamelog.verify_hand_log` (chain, order,
  seed, header, replay); a log that does not read or verify gets its message and a 422.
  A log that verifies is kept (at most :data:`MAX_REPLAYS`, each forgotten after
  :data:`IDLE_SECONDS`) and the browser goes to ``/replay/{id}``.
* ``GET /replay/{id}?step=N``: the table after the log's N-th decided action: every
  seat's tiles (the log reveals them all), melds, flowers, discards, the wall left, the
  move and what followed it; at the last step the scored hands and the settlement.
  Prev/next links (and the arrow keys, ``static/replay.js``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from mahjong_nts.core.actions import ActionKind, action
from mahjong_nts.core.errors import MahjongError, quote
from mahjong_nts.core.game import Game
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.text import N_, Text
from mahjong_nts.core.tiles import Tile, parse_tile
from mahjong_nts.formats import gamelog
from mahjong_nts.formats.gamelog_schema import MAX_LOG_BYTES, EventLine, HeaderLine
from mahjong_nts.online.state import meld_state, result_state
from mahjong_nts.web.held import Held, app_held, one_process_only
from mahjong_nts.web.templating import pages_of, request_language
from mahjong_nts.web.tiles import template_helpers

__all__ = ["IDLE_SECONDS", "MAX_REPLAYS", "MAX_UPLOAD_BYTES", "router"]

router = APIRouter(include_in_schema=False)

MAX_REPLAYS: Final = 50
"""Verified logs held for viewing at once; the least recently viewed goes first."""
IDLE_SECONDS: Final = 30 * 60
"""A log nobody viewed for this long is forgotten."""
MAX_UPLOAD_BYTES: Final = MAX_LOG_BYTES + 16 * 1024
"""An upload: one hand log (1 MiB) and the form around it."""


@dataclass
class Replay:
    header: HeaderLine
    rules: RuleSet
    seed: int
    moves: list[EventLine]
    """The decided events, in order: one step each."""
    signed: str


class Replays(Held[Replay]):
    """The verified logs being viewed: at most :data:`MAX_REPLAYS`, the least recently
    viewed forgotten first, and each after :data:`IDLE_SECONDS` unviewed."""

    def __init__(self, limit: int = MAX_REPLAYS, idle: float = IDLE_SECONDS) -> None:
        super().__init__(limit, idle, evict=True)


def _replays(request: Request) -> Replays:
    """This process's replays (an :class:`UploadError` 503 when the server runs several
    worker processes: the replay's next step may reach another one)."""
    refusal = one_process_only(request, "replays")
    if refusal:
        raise UploadError(503, refusal)
    return app_held(request, "replays", Replays)


def _upload_page(request: Request, *, status: int = 200, error: str | None = None) -> HTMLResponse:
    return pages_of(request).render(
        request, "replay.html", status_code=status, active="play", error=error
    )


class UploadError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


async def _uploaded(request: Request) -> bytes:
    """The uploaded file's bytes, within :data:`MAX_UPLOAD_BYTES`."""
    length = request.headers.get("content-length")
    if length is None or not length.isdigit() or len(length) > 20:
        raise UploadError(411, Text(N_("send the file with its Content-Length")))
    if int(length) > MAX_UPLOAD_BYTES:
        raise UploadError(
            413,
            Text(
                N_("the upload is {length} bytes: a hand log has at most {most} bytes"),
                length=length,
                most=MAX_LOG_BYTES,
            ),
        )
    media = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media != "multipart/form-data":
        raise UploadError(415, Text(N_("send the log as a file of the form (multipart/form-data)")))
    form = await request.form(max_files=1, max_fields=4, max_part_size=1024)
    upload = form.get("log")
    if upload is None or isinstance(upload, str):
        raise UploadError(422, Text(N_("log: choose a hand log file")))
    data = await upload.read(MAX_LOG_BYTES + 1)
    await upload.close()
    if not data:
        raise UploadError(422, Text(N_("log: the file is empty, not a hand log")))
    return data


@router.get("/replay", response_class=HTMLResponse)
async def upload_form(request: Request) -> HTMLResponse:
    return _upload_page(request)


@router.post("/replay")
async def upload(request: Request) -> Response:
    try:
        replays = _replays(request)
        data = await _uploaded(request)
        try:
            log = gamelog.parse_hand_log(data)
            verified = gamelog.verify_hand_log(log)
        except gamelog.LogFormatError as exc:
            raise UploadError(
                422, Text(N_("not a readable hand log: {problem}"), problem=exc.text)
            ) from None
        except gamelog.LogMismatch as exc:
            raise UploadError(
                422, Text(N_("the log does not verify: {problem}"), problem=exc.text)
            ) from None
        except MahjongError as exc:  # a rule set that cannot be loaded, ...
            raise UploadError(
                422, Text(N_("the log cannot be replayed: {problem}"), problem=exc.text)
            ) from None
    except UploadError as exc:
        return _upload_page(request, status=exc.status, error=exc.message)
    replay = Replay(
        header=log.header,
        rules=verified.game.rules,
        seed=verified.seed,
        moves=[line for line in log.events if line.decided],
        signed=verified.signed.value,
    )
    made = replays.add(lambda _key: replay)
    assert made is not None  # the replays make room for a new one
    return RedirectResponse(f"/replay/{made[0]}", status_code=303)


def _tokens(tiles: Any) -> list[str]:
    return [Tile(t).token for t in tiles]


def table_at(replay: Replay, step: int) -> tuple[Game, list[dict[str, Any]]]:
    """The game after the first ``step`` moves of ``replay``, and the events of that
    step (the move and what followed it)."""
    game = gamelog.new_game(replay.header, replay.rules, replay.seed)
    before = len(game.events)
    for k, line in enumerate(replay.moves[:step]):
        if k == step - 1:
            before = len(game.events)
        tile = parse_tile(line.tiles) if line.tiles else None
        game.apply(action(ActionKind[line.kind.upper()], tile))
    events = [
        {"kind": e.kind, "seat": e.seat, "tiles": _tokens(e.tiles), "note": e.note}
        for e in game.events[before:]
    ]
    return game, events


@router.get("/replay/{key}", response_class=HTMLResponse)
async def view(request: Request, key: str) -> Response:
    try:
        replays = _replays(request)
    except UploadError as exc:
        return _upload_page(request, status=exc.status, error=exc.message)
    replay = replays.get(key) if len(key) <= 64 else None
    if replay is None:
        return _upload_page(
            request,
            status=404,
            error="that replay is gone (a replay is kept for 30 minutes): upload the log again",
        )
    steps = len(replay.moves)
    text = request.query_params.get("step", "0")
    if not text.isascii() or not text.isdigit() or len(text) > 6 or int(text) > steps:
        return _upload_page(
            request,
            status=422,
            error=f"step: {quote(text)} is not a step of this log (0 to {steps})",
        )
    step = int(text)
    game, events = table_at(replay, step)
    header = replay.header
    names = list(header.players)
    seats = [
        {
            "seat": s,
            "wind": game.seat_wind(s).token,
            "name": names[s],
            "concealed": _tokens(sorted(game.concealed(s))),
            "melds": [meld_state(m) for m in game.melds[s]],
            "bonus": _tokens(game.bonus[s]),
            "discards": _tokens(game.discards[s]),
        }
        for s in range(game.n)
    ]
    result = None
    if step == steps and game.result is not None:
        result = result_state(game.result, game, replay.rules)
    lang, _ = request_language(request, pages_of(request).default_language)
    return pages_of(request).render(
        request,
        "replay_view.html",
        active="play",
        key=key,
        step=step,
        steps=steps,
        header=header,
        names=names,
        seats=seats,
        events=events,
        live_left=game.wall.live_left,
        result=result,
        seed=replay.seed,
        signed=replay.signed,
        over=game.is_over,
        **template_helpers(lang),
    )
